"""One-pass triangle estimators over a stream of edge insertions and deletions, in fixed memory.

Every estimator keeps a sample of at most ``memory`` edges (the exact counter: the whole graph)
and counters of the triangles it has seen, global and per vertex, updated as every event
arrives. The methods, from their papers:

* :class:`TriestImpr` (De Stefani, Epasto, Riondato and Upfal, KDD 2016): reservoir sampling of
  insertions; a triangle closed by the t-th edge counts
  :math:`\\eta_t = \\max(1, (t-1)(t-2) / (M(M-1)))`, the inverse of the probability that its two
  other edges are both in the reservoir. Insertions only.
* :class:`TriestFD` (same paper): random pairing (Gemulla et al., VLDB 2006) keeps a uniform
  sample under deletions; the counters hold the sample's own triangles, scaled at query time by
  :math:`s(s-1)(s-2) / (|S|(|S|-1)(|S|-2)) / \\kappa` (:math:`\\kappa`: the probability that the
  sample holds at least 3 edges).
* :class:`ThinkDFast` (Shin, Kim, Hooi and Faloutsos, ECML-PKDD 2018; TKDD 2020): counts before
  it samples; each edge is kept with probability p, a triangle counts :math:`\\pm 1/p^2`.
* :class:`ThinkDAcc` (same papers): counts before it samples, with random pairing; a triangle
  counts :math:`\\pm s(s-1) / (|S|(|S|-1))`, the inverse of the probability that two given
  edges of the graph (s edges now) are both in the sample (|S| edges), uniform given its size.
* :class:`WRS` (Shin, ICDM 2017): a waiting room of the most recent edges (a fraction ``alpha``
  of the memory, kept for sure) before a reservoir; real streams close most triangles with
  recent edges. Insertions only.
* :class:`GPS` (Ahmed, Duffield, Willke and Rossi, VLDB 2017): graph priority sampling; an edge's
  sampling weight grows with the triangles it closes, the sample keeps the M highest priorities
  (weight / uniform), and a triangle counts the inverse of the product of its two sampled edges'
  inclusion probabilities at that moment; an in-stream variance estimate comes with it.
  Insertions only.
* :class:`ExactTriangleCounter`: the reference; the whole graph in a hash set with adjacency
  lists, exact global and per-vertex counts under insertions and deletions.

Each estimate is unbiased. ``replicates`` runs that many independent samplers, each with
``memory`` edges and its own random stream, in parallel on the threads (``feed(..., threads=)``):
the estimate is their mean, and its standard error their standard deviation over
:math:`\\sqrt{R}` (:meth:`stderr`; NaN with one replicate: the papers' variances depend on
unknown counts of triangle pairs, so the error is measured, not assumed). GPS is the exception:
it keeps an unbiased estimate of its own variance along the stream, so one sampler has a
standard error.

Vertex ids are any non-negative integers (mapped to compact numbers as they come). Batches of
events (:meth:`feed`) go through one Numba kernel per estimator; the state is numpy arrays only,
so an estimator pickles (checkpoint) and resumes exactly where it stopped.
"""

import math
import numbers

import numpy as np

from .._runtime.interrupt import check as _check_interrupt, interruptible
from .._runtime.lazy import lazy_module
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError, SketchSaturationWarning, check_int, warn_at_caller

__all__ = ["ExactTriangleCounter", "TriestImpr", "TriestFD", "ThinkDFast", "ThinkDAcc", "WRS", "GPS", "METHODS",
           "make_estimator", "as_events"]

#: the methods by name: the names of ``estimate_triangles(method=)`` and of the command line
METHODS = ("thinkd-acc", "thinkd-fast", "triest", "triest-fd", "wrs", "gps", "exact")


@lazy_module
def _k():
    from . import _kernels

    return _kernels


# events per kernel call inside feed(): Ctrl-C is seen between two calls
_CHUNK = 1 << 18
_MIN_VERTICES = 64
_POOL = {}  # the threads that run the replicates: {"pool": ThreadPoolExecutor, "size": its threads}


def _pool(n):
    """A thread pool of at least ``n`` threads (kept for later calls). The replicates are whole
    samplers, independent of each other: each thread runs some of them through the method's
    kernel, which releases the GIL (nogil), one call per replicate and batch."""
    pool = _POOL.get("pool")
    if pool is None or _POOL["size"] < n:
        from concurrent.futures import ThreadPoolExecutor

        if pool is not None:
            pool.shutdown(wait=False)
        pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="graphmine-stream")
        _POOL.update(pool=pool, size=n)
    return pool


def as_events(events):
    """The events of a batch as three int64 arrays (sign, u, v).

    Parameters
    ----------
    events : array_like or EdgeStream
        An ``(m, 3)`` array of rows ``(sign, u, v)`` (sign +1 inserts the edge {u, v}, -1
        deletes it), an ``(m, 2)`` array of insertions ``(u, v)``, or any object with ``signs``,
        ``u`` and ``v`` arrays (:class:`~graphmine.streaming.EdgeStream`). Vertex ids are
        non-negative integers.

    Returns
    -------
    sign, u, v : ndarray of int64

    Raises
    ------
    ParameterError
        Another shape, non-integer or negative ids, or a sign other than +1 and -1.

    Examples
    --------
    >>> sg, u, v = as_events([(1, 5, 7), (-1, 7, 5)])
    >>> sg.tolist(), u.tolist(), v.tolist()
    ([1, -1], [5, 7], [7, 5])
    >>> as_events([(0, 1), (1, 2)])[0].tolist()
    [1, 1]
    """
    if all(hasattr(events, a) for a in ("signs", "u", "v")):
        sg, u, v = (np.asarray(x) for x in (events.signs, events.u, events.v))
    else:
        try:
            arr = np.asarray(events)
        except (TypeError, ValueError) as exc:
            raise ParameterError(f"events cannot be read as an array: {exc}") from None
        if arr.size == 0:
            arr = arr.reshape(0, 3)
        if arr.ndim != 2 or arr.shape[1] not in (2, 3):
            raise ParameterError(f"events must be an (m, 3) array of (sign, u, v) rows or an (m, 2) array of "
                                 f"insertions (u, v), got shape {arr.shape}")
        if arr.shape[1] == 2:
            sg, u, v = np.ones(arr.shape[0], np.int64), arr[:, 0], arr[:, 1]
        else:
            sg, u, v = arr[:, 0], arr[:, 1], arr[:, 2]
    out = []
    for name, x in (("signs", sg), ("vertex ids", u), ("vertex ids", v)):
        if x.size and x.dtype.kind not in "iu":
            if x.dtype.kind == "f" and np.all(np.isfinite(x)) and np.all(x == np.round(x)):
                x = x.astype(np.int64)
            else:
                raise ParameterError(f"events' {name} must be integers, got dtype {x.dtype}")
        out.append(np.ascontiguousarray(x, dtype=np.int64).reshape(-1))
    sg, u, v = out
    if not sg.shape[0] == u.shape[0] == v.shape[0]:
        raise ParameterError("events' signs, u and v must have one entry per event")
    if sg.size and not np.all((sg == 1) | (sg == -1)):
        bad = sg[(sg != 1) & (sg != -1)][0]
        raise ParameterError(f"event signs must be +1 (insertion) or -1 (deletion), found {bad}")
    if u.size and min(u.min(), v.min()) < 0:
        raise ParameterError(f"vertex ids must be non-negative integers, found {min(u.min(), v.min())}")
    return sg, u, v


class _VertexMap:
    """Original vertex id -> compact number, in order of first appearance (numpy arrays)."""

    def __init__(self, capacity=_MIN_VERTICES):
        self._alloc(capacity)
        self.count = np.zeros(1, np.int64)

    def _alloc(self, capacity):
        self.keys = np.full(2 * capacity, -1, np.int64)
        self.values = np.zeros(2 * capacity, np.int64)
        self.ids = np.zeros(capacity, np.int64)

    @property
    def capacity(self):
        return self.ids.shape[0]

    @property
    def n(self):
        return int(self.count[0])

    def map(self, ids):
        out = np.empty(ids.shape[0], np.int64)
        i = 0
        while True:
            i = _k._map_vertices(self.keys, self.values, self.ids, self.count, ids, out, i)
            if i == ids.shape[0]:
                return out
            old = self.ids[:self.n].copy()
            if self.capacity >= 1 << 30:
                raise ParameterError("more than 2**30 distinct vertices in one stream")
            self._alloc(2 * self.capacity)
            self.count[0] = 0
            _k._map_vertices(self.keys, self.values, self.ids, self.count, old, np.empty_like(old), 0)


class _Estimator:
    """The machinery every estimator shares: state arrays with one row per replicate, the vertex
    map, batches through the method's kernel, growth, queries."""

    method = None
    insert_only = False
    _growable = False

    def __init__(self, memory, *, seed=None, replicates=1):
        self.memory = check_int("memory", memory, 2)
        self.replicates = check_int("replicates", replicates, 1)
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (1 << 63))  # drawn here, reported
        elif isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise ParameterError(f"seed must be None or an integer >= 0, got {seed!r}")
        self.seed = int(seed)
        self._rng = np.random.SeedSequence(self.seed).generate_state(self.replicates, np.uint64)
        self._vmap = _VertexMap()
        self._events = 0
        self._alloc(self._initial_capacity(), _MIN_VERTICES)

    # -- state -------------------------------------------------------------------------------------
    def _initial_capacity(self):
        return self.memory

    def _alloc(self, cap, ncap):
        R = self.replicates
        self._eu = np.full((R, cap), -1, np.int64)  # -1: a free slot
        self._ev = np.zeros((R, cap), np.int64)
        # the pool of per-vertex hash blocks (entries: neighbour, slot; -1: empty)
        self._nb = np.full((R, _k.POOL_PER_SLOT * cap + _k.POOL_EXTRA), -1, np.int32)
        self._sl = np.zeros((R, _k.POOL_PER_SLOT * cap + _k.POOL_EXTRA), np.int32)
        self._vtx = np.zeros((R, ncap, 3), np.int64)
        self._loc = np.zeros((R, ncap), np.float64)
        self._glob = np.zeros(R, np.float64)
        self._cnt = np.zeros((R, _k.N_COUNTERS), np.int64)

    def _grow_vertices(self, need):
        ncap = self._vtx.shape[1]
        if need <= ncap:
            return
        while ncap < need:
            ncap *= 2
        R = self.replicates
        for name in ("_vtx", "_loc"):
            old = getattr(self, name)
            new = np.zeros((R, ncap) + old.shape[2:], old.dtype)
            new[:, :old.shape[1]] = old
            setattr(self, name, new)

    def _grow_edges(self):
        R, cap = self._eu.shape
        new_cap = 2 * cap
        if new_cap >= 1 << 30:
            raise ParameterError("more than 2**29 edges in one sample")
        # slots and pool positions stay valid: the arrays are copied into larger ones
        for name, fill, size in (("_eu", -1, new_cap), ("_ev", 0, new_cap),
                                 ("_nb", -1, _k.POOL_PER_SLOT * new_cap + _k.POOL_EXTRA),
                                 ("_sl", 0, _k.POOL_PER_SLOT * new_cap + _k.POOL_EXTRA)):
            old = getattr(self, name)
            new = np.full((R, size) + old.shape[2:], fill, old.dtype)
            new[:, :old.shape[1]] = old
            setattr(self, name, new)

    # -- feeding -----------------------------------------------------------------------------------
    def _check_signs(self, sg):
        if self.insert_only and sg.size and sg.min() < 0:
            raise ParameterError(f"{self.method} counts insertion-only streams; this stream deletes edges "
                                 f"(use thinkd-acc, thinkd-fast, triest-fd or exact)")

    def _apply(self, sg, u, v, nthreads=1):
        """Run the kernel over the compact-id events (all replicates), growing as needed."""
        m = sg.shape[0]
        pos = np.zeros(self.replicates, np.int64)
        flag = np.zeros(1, np.int64)
        while True:
            self._run(sg, u, v, pos, flag, nthreads)
            if np.all(pos == m):
                break
            self._grow_edges()
            self._on_growth()
        self._events += m

    def _rows(self, r):
        """Replicate r's state: the views its kernel call takes."""
        return (self._eu[r], self._ev[r], self._nb[r], self._sl[r], self._vtx[r],
                self._glob[r:r + 1], self._loc[r], self._cnt[r], self._rng[r:r + 1])

    def _run(self, sg, u, v, pos, flag, nthreads):
        R = self.replicates
        k = min(nthreads, R)

        def work(group):
            for r in group:
                pos[r] = self._run_one(r, sg, u, v, int(pos[r]), flag)

        if k <= 1:
            work(range(R))
        else:
            list(_pool(k).map(work, [range(j, R, k) for j in range(k)]))

    def _on_growth(self):
        pass

    def _map(self, u, v):
        both = np.empty(2 * u.shape[0], np.int64)  # u0 v0 u1 v1 ...: numbered in stream order
        both[0::2] = u
        both[1::2] = v
        mapped = self._vmap.map(both)
        cu, cv = mapped[0::2].copy(), mapped[1::2].copy()
        self._grow_vertices(self._vmap.n)
        return cu, cv

    @interruptible
    @restores_threads
    def feed(self, events, *, threads=None):
        """Process a batch of events, in order.

        Parameters
        ----------
        events : array_like or EdgeStream
            ``(m, 3)`` rows ``(sign, u, v)``, ``(m, 2)`` insertions, or a stream
            (:func:`as_events`).
        threads : int, optional
            Threads that run the replicates (default: all cores).

        Returns
        -------
        self
            The estimator (to chain a query).

        Raises
        ------
        ParameterError
            Malformed events, or deletions for an insertion-only method.
        """
        sg, u, v = as_events(events)
        self._check_signs(sg)
        nthreads = resolve_threads(threads)
        for a in range(0, sg.shape[0], _CHUNK):
            b = min(a + _CHUNK, sg.shape[0])
            cu, cv = self._map(u[a:b], v[a:b])
            self._apply(sg[a:b], cu, cv, nthreads)
            _check_interrupt()
        return self

    def update(self, u, v):
        """Insert the edge {u, v}.

        Parameters
        ----------
        u, v : int
            Non-negative vertex ids.
        """
        self._one(1, u, v)

    def delete(self, u, v):
        """Delete the edge {u, v}.

        Parameters
        ----------
        u, v : int
            Non-negative vertex ids.
        """
        self._one(-1, u, v)

    def _one(self, sign, u, v):
        sg, uu, vv = as_events([(sign, u, v)])
        self._check_signs(sg)
        cu, cv = self._map(uu, vv)
        self._apply(sg, cu, cv)

    # -- queries -----------------------------------------------------------------------------------
    def _replicate_globals(self):
        return self._glob.copy()

    def _replicate_locals(self):
        return self._loc[:, :self._vmap.n].copy()

    def replicate_local_estimates(self, clip=False):
        """The local estimates of every replicate, vertices as in :meth:`local_estimates`.

        Parameters
        ----------
        clip : bool
            Raise negative estimates to 0 (see :meth:`local_estimates`).

        Returns
        -------
        ndarray of float64, shape (replicates, vertices seen)
        """
        loc = self._replicate_locals()
        return np.maximum(loc, 0.0) if clip else loc

    def replicate_estimates(self):
        """The global estimate of every replicate.

        Returns
        -------
        ndarray of float64, shape (replicates,)
        """
        return self._replicate_globals()

    def global_estimate(self):
        """The estimated number of triangles of the graph now (mean over the replicates).

        Returns
        -------
        float
        """
        return float(np.mean(self._replicate_globals()))

    def stderr(self):
        """Standard error of :meth:`global_estimate`: the replicates' standard deviation over
        the square root of their number (NaN with one replicate).

        Returns
        -------
        float
        """
        if self.replicates < 2:
            return float("nan")
        est = self._replicate_globals()
        return float(np.std(est, ddof=1) / math.sqrt(self.replicates))

    def local_estimates(self, clip=False):
        """The estimated number of triangles at every vertex seen so far.

        Parameters
        ----------
        clip : bool
            Raise negative estimates to 0. Under deletions an unbiased local estimate can be
            negative; a clipped one is never farther from the true count (which is >= 0), but
            no longer unbiased (default False: unbiased).

        Returns
        -------
        ids : ndarray of int64
            Vertex ids as given, in order of first appearance.
        estimates : ndarray of float64
            Mean over the replicates.
        """
        est = self._replicate_locals().mean(axis=0)
        return self._vmap.ids[:self._vmap.n].copy(), np.maximum(est, 0.0) if clip else est

    def top_vertices(self, k=10):
        """The ``k`` vertices with the largest local estimates.

        Parameters
        ----------
        k : int
            How many (fewer when fewer vertices were seen).

        Returns
        -------
        ids : ndarray of int64
        estimates : ndarray of float64
            In decreasing order of the estimate (ties: first seen first).
        """
        k = check_int("k", k, 0)
        ids, est = self.local_estimates()
        order = np.argsort(-est, kind="stable")[:k]
        return ids[order], est[order]

    @property
    def events(self):
        """Events processed so far."""
        return self._events

    @property
    def n_vertices(self):
        """Distinct vertices seen so far."""
        return self._vmap.n

    @property
    def edges(self):
        """Edges of the graph now, as the stream says (insertions minus deletions processed)."""
        return int(self._cnt[0, _k.C_EDGES])

    @property
    def sample_size(self):
        """Edges in each replicate's sample now (ndarray of int64)."""
        return self._cnt[:, _k.C_SIZE].copy()

    @property
    def skipped(self):
        """Events skipped: self-loops, insertions of an edge already there and deletions of an
        edge not there, as far as the estimator can tell (a sampler knows the edges it keeps
        and the graph's size; the largest count over the replicates)."""
        c = self._cnt
        return {"self_loops": int(c[:, _k.C_LOOPS].max()), "repeated_insertions": int(c[:, _k.C_DUP].max()),
                "absent_deletions": int(c[:, _k.C_ABSENT].max())}

    def to_dict(self):
        """A summary as plain Python values (for JSON).

        Returns
        -------
        dict
        """
        se = self.stderr()
        return {"method": self.method, "estimate": self.global_estimate(),
                "stderr": None if math.isnan(se) else se, "replicates": self.replicates,
                "memory": self.memory, "seed": self.seed, "events": self.events, "edges": self.edges,
                "vertices": self.n_vertices, "sample_size": int(self.sample_size.max()), "skipped": self.skipped}

    def __repr__(self):
        return (f"{type(self).__name__}(memory={self.memory}, replicates={self.replicates}, seed={self.seed}; "
                f"{self.events} events, estimate {self.global_estimate():.6g})")


class ExactTriangleCounter(_Estimator):
    """Exact global and per-vertex triangle counts of a graph under insertions and deletions.

    The whole graph is kept: per-vertex hash sets of its edges (about 150 bytes per
    edge and 24 per vertex); each event costs one probe per neighbour of its endpoint of smaller
    degree. An insertion of an edge already there, a deletion of one not there and a self-loop
    are skipped and counted (:attr:`skipped`).

    Parameters
    ----------
    capacity : int, optional
        Edges to reserve room for (default 1024; the arrays grow as needed).

    Attributes
    ----------
    events, n_vertices, edges, sample_size, skipped
        As for the estimators (the sample is the graph).

    Examples
    --------
    >>> ex = ExactTriangleCounter()
    >>> ex.feed([(1, 10, 20), (1, 20, 30), (1, 30, 10), (1, 30, 40), (1, 40, 10)]).global_estimate()
    2.0
    >>> ex.delete(10, 30)
    >>> ex.global_count(), ex.skipped["absent_deletions"]
    (0, 0)
    >>> ex.delete(10, 30)  # not there any more: counted, skipped
    >>> ex.skipped["absent_deletions"]
    1
    """

    method = "exact"
    _growable = True

    def __init__(self, capacity=None):
        cap = 1024 if capacity is None else check_int("capacity", capacity, 2)
        self._cap0 = cap
        super().__init__(2, seed=0, replicates=1)
        self.memory = None

    def _initial_capacity(self):
        return self._cap0

    def _run(self, sg, u, v, pos, flag, nthreads):
        keep = getattr(self, "_keep_out", None)
        if keep is None or keep.shape[0] != sg.shape[0]:
            keep = np.empty(sg.shape[0], np.int8)
        pos[0] = _k._exact_run(sg, u, v, int(pos[0]), *self._rows(0)[:-1], keep, self._count, flag)

    _count = True

    def _valid(self, sg, u, v):
        """The events that change the graph (False: self-loops, repeated insertions, deletions of
        absent edges), maintaining the graph without counting triangles."""
        self._count = False
        cu, cv = self._map(u, v)
        self._keep_out = np.empty(sg.shape[0], np.int8)
        try:
            self._apply(sg, cu, cv)
            return self._keep_out.astype(bool)
        finally:
            self._keep_out = None

    def global_count(self):
        """The number of triangles of the graph now.

        Returns
        -------
        int
        """
        return int(round(self._glob[0]))

    def local_counts(self):
        """The number of triangles at every vertex seen so far.

        Returns
        -------
        ids : ndarray of int64
            Vertex ids as given, in order of first appearance.
        counts : ndarray of int64
        """
        ids, est = self.local_estimates()
        return ids, np.rint(est).astype(np.int64)

    def stderr(self):
        """0.0: the count is exact.

        Returns
        -------
        float
        """
        return 0.0


class TriestImpr(_Estimator):
    """TRIEST-IMPR: reservoir sampling of an insertion-only stream, counting before sampling.

    The t-th edge's triangles with two sampled edges count :math:`\\eta_t = \\max(1,
    (t-1)(t-2)/(M(M-1)))` each (De Stefani et al., KDD 2016); the counters are never decreased,
    which makes the estimate unbiased with lower variance than the sample's own count.

    Parameters
    ----------
    memory : int
        M, edges kept (>= 2).
    seed : int, optional
        Seed of the replicates' random streams (default: drawn and kept in :attr:`seed`).
    replicates : int
        Independent samplers of ``memory`` edges each; the estimate is their mean.

    Attributes
    ----------
    memory, seed, replicates
        As given (the drawn seed when none was).
    events, n_vertices, edges, sample_size, skipped
        What has been processed.

    Examples
    --------
    >>> est = TriestImpr(memory=100, seed=1)
    >>> est.feed([(0, 1), (1, 2), (2, 0), (2, 3), (3, 0)]).global_estimate()  # all kept: exact
    2.0
    """

    method = "triest"
    insert_only = True

    def _run_one(self, r, sg, u, v, i, flag):
        return _k._triest_run(sg, u, v, i, self.memory, *self._rows(r), flag)


class TriestFD(_Estimator):
    """TRIEST-FD: random pairing under insertions and deletions; the sample's triangles, scaled.

    Random pairing (Gemulla, Lehner and Haas, VLDB 2006) keeps a sample of at most M edges that
    is uniform given its size: a deletion leaves a hole that a later insertion fills. The
    counters hold the triangles of the sample; the estimate scales them by
    :math:`s(s-1)(s-2) / (|S|(|S|-1)(|S|-2))` and by :math:`1/\\kappa`, where :math:`\\kappa`
    is the probability that the sample holds 3 or more edges (De Stefani et al., KDD 2016).

    Parameters
    ----------
    memory : int
        M, edges kept (>= 3).
    seed : int, optional
        Seed of the replicates' random streams (default: drawn and kept in :attr:`seed`).
    replicates : int
        Independent samplers of ``memory`` edges each; the estimate is their mean.

    Attributes
    ----------
    memory, seed, replicates
        As given (the drawn seed when none was).
    events, n_vertices, edges, sample_size, skipped
        What has been processed.

    Examples
    --------
    >>> est = TriestFD(memory=100, seed=1)
    >>> est.feed([(1, 0, 1), (1, 1, 2), (1, 2, 0), (1, 2, 3), (1, 3, 0), (-1, 0, 2)]).global_estimate()
    0.0
    """

    method = "triest-fd"

    def __init__(self, memory, *, seed=None, replicates=1):
        check_int("memory", memory, 3)
        super().__init__(memory, seed=seed, replicates=replicates)

    def _run_one(self, r, sg, u, v, i, flag):
        return _k._triest_fd_run(sg, u, v, i, self.memory, *self._rows(r), flag)

    def _scales(self):
        """Per replicate, the factor from the sample's triangles to the estimate."""
        out = np.zeros(self.replicates)
        for r in range(self.replicates):
            c = self._cnt[r]
            n, s, d = int(c[_k.C_SIZE]), int(c[_k.C_EDGES]), int(c[_k.C_DIN] + c[_k.C_DOUT])
            if n < 3:
                continue
            omega = min(self.memory, s + d)
            # kappa = 1 - P(|S| < 3): the sample size is hypergeometric (random pairing)
            miss = 0.0
            for j in range(3):
                if 0 <= omega - j <= d and j <= s:
                    miss += math.exp(_log_binom(s, j) + _log_binom(d, omega - j) - _log_binom(s + d, omega))
            kappa = 1.0 - miss
            if kappa <= 0:
                continue
            out[r] = (s * (s - 1.0) * (s - 2.0)) / (n * (n - 1.0) * (n - 2.0)) / kappa
        return out

    def _replicate_globals(self):
        return self._glob * self._scales()

    def _replicate_locals(self):
        return self._loc[:, :self._vmap.n] * self._scales()[:, None]


def _log_binom(n, k):
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


class ThinkDFast(_Estimator):
    """ThinkD-FAST: Bernoulli sampling, counting before sampling, under insertions and deletions.

    Every arriving edge first updates the counters with the triangles it closes (insertion) or
    opens (deletion) with two sampled edges, each counting :math:`\\pm 1/p^2`; then an inserted
    edge is kept with probability p and a deleted one leaves the sample (Shin et al., ECML-PKDD
    2018). The sample's size is random, about p times the graph's edges.

    Parameters
    ----------
    probability : float
        p in (0, 1].
    seed : int, optional
        Seed of the replicates' random streams (default: drawn and kept in :attr:`seed`).
    replicates : int
        Independent samplers; the estimate is their mean.
    memory : int, optional
        The sample's expected largest size, p times the graph's (default 1024): room is reserved
        for it and 4 standard deviations more. The sample grows past that when it must, with a
        :class:`~graphmine.SketchSaturationWarning` when ``memory`` was given.

    Attributes
    ----------
    probability, memory, seed, replicates
        As given (the drawn seed when none was).
    events, n_vertices, edges, sample_size, skipped
        What has been processed.

    Examples
    --------
    >>> est = ThinkDFast(probability=1.0, seed=3)
    >>> est.feed([(1, 0, 1), (1, 1, 2), (1, 2, 0), (-1, 1, 2)]).global_estimate()
    0.0
    """

    method = "thinkd-fast"
    _growable = True

    def __init__(self, probability, *, seed=None, replicates=1, memory=None):
        if isinstance(probability, bool) or not isinstance(probability, numbers.Real) or not 0 < probability <= 1:
            raise ParameterError(f"probability must be a number in (0, 1], got {probability!r}")
        self.probability = float(probability)
        self._budget_given = memory is not None
        super().__init__(1024 if memory is None else memory, seed=seed, replicates=replicates)

    def _initial_capacity(self):
        # the sample's size is binomial: room for 4 standard deviations above the memory
        return int(self.memory + 4 * math.sqrt(self.memory) + 16)

    def _run_one(self, r, sg, u, v, i, flag):
        return _k._thinkd_fast_run(sg, u, v, i, self.probability, *self._rows(r), flag)

    def _on_growth(self):
        if self._budget_given and not getattr(self, "_warned", False):
            self._warned = True
            warn_at_caller(f"thinkd-fast's sample passed its memory of {self.memory:,} edges (p = "
                           f"{self.probability:.4g} keeps more edges of this stream): it grows, and uses more memory",
                           SketchSaturationWarning)


class ThinkDAcc(_Estimator):
    """ThinkD-ACC: random pairing in at most M edges, counting before sampling.

    Every arriving edge first updates the counters with the triangles it closes or opens with
    two sampled edges, each counting the inverse of the probability that both are sampled:
    :math:`s(s-1) / (|S|(|S|-1))` for a graph of s edges and a sample of |S| (uniform given its
    size); then random pairing updates the sample (Shin et al., ECML-PKDD 2018, TKDD 2020).

    Parameters
    ----------
    memory : int
        M, edges kept (>= 2).
    seed : int, optional
        Seed of the replicates' random streams (default: drawn and kept in :attr:`seed`).
    replicates : int
        Independent samplers of ``memory`` edges each; the estimate is their mean.

    Attributes
    ----------
    memory, seed, replicates
        As given (the drawn seed when none was).
    events, n_vertices, edges, sample_size, skipped
        What has been processed.

    Examples
    --------
    >>> est = ThinkDAcc(memory=3, seed=5, replicates=2000)  # 2000 samplers of 3 edges each
    >>> _ = est.feed([(1, 0, 1), (1, 1, 2), (1, 2, 0), (1, 2, 3), (1, 3, 0), (-1, 1, 2)], threads=1)
    >>> round(est.global_estimate(), 2), round(est.stderr(), 2)  # the graph has 1 triangle now
    (1.05, 0.04)
    """

    method = "thinkd-acc"

    def _run_one(self, r, sg, u, v, i, flag):
        return _k._thinkd_acc_run(sg, u, v, i, self.memory, *self._rows(r), flag)


class WRS(_Estimator):
    """WRS: waiting-room sampling of an insertion-only stream (temporal locality).

    The newest ``alpha`` M edges wait in a first-in first-out room and are always kept; an edge
    that leaves the room enters a reservoir of the other edges of the memory (reservoir sampling
    over the edges that left). A triangle closed now counts the inverse of the probability that
    its two other edges are sampled: 1 for two edges of the room, :math:`m/R` for one in the
    reservoir, :math:`m(m-1)/(R(R-1))` for two, after m edges left the room for a reservoir of R
    (Shin, ICDM 2017). Real streams close most triangles with recent edges, which the room keeps.

    Parameters
    ----------
    memory : int
        M, edges kept (>= 3).
    seed : int, optional
        Seed of the replicates' random streams (default: drawn and kept in :attr:`seed`).
    replicates : int
        Independent samplers of ``memory`` edges each; the estimate is their mean.
    alpha : float
        The room's share of the memory, in [0, 1) (default 0.1, the paper's); the reservoir keeps
        at least 2 edges.

    Attributes
    ----------
    memory, seed, replicates, alpha
        As given (the drawn seed when none was).
    waiting_room : int
        Edges of the room, ``int(alpha * memory)`` (at most ``memory - 2``).
    events, n_vertices, edges, sample_size, skipped
        What has been processed.

    Examples
    --------
    >>> est = WRS(memory=50, seed=2)
    >>> est.feed([(0, 1), (1, 2), (2, 0), (2, 3), (3, 0)]).global_estimate()  # all kept: exact
    2.0
    """

    method = "wrs"
    insert_only = True

    def __init__(self, memory, *, seed=None, replicates=1, alpha=0.1):
        memory = check_int("memory", memory, 3)
        if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 <= alpha < 1:
            raise ParameterError(f"alpha must be a number in [0, 1), got {alpha!r}")
        self.alpha = float(alpha)
        self.waiting_room = min(int(alpha * memory), memory - 2)
        super().__init__(memory, seed=seed, replicates=replicates)
        R = self.replicates
        self._inw = np.zeros((R, memory), np.int64)
        self._ring = np.zeros((R, max(self.waiting_room, 1)), np.int64)
        self._res = np.zeros((R, memory - self.waiting_room), np.int64)

    def _run_one(self, r, sg, u, v, i, flag):
        W = self.waiting_room
        return _k._wrs_run(sg, u, v, i, W, self.memory - W, *self._rows(r), self._inw[r], self._ring[r], self._res[r],
                           flag)


class GPS(_Estimator):
    """GPS: graph priority sampling with in-stream estimation, for insertion-only streams.

    Every arriving edge k first counts the triangles it closes with two sampled edges k1, k2,
    each :math:`1/(p_{k_1} p_{k_2})`, their inclusion probabilities at that moment; then it
    gets the weight :math:`w_k = c \\tau_k + 1` (:math:`\\tau_k`: the triangles it closed)
    and the priority :math:`r_k = w_k / u_k` (:math:`u_k` uniform in (0, 1]), and the sample
    keeps the M edges of highest priority. With :math:`z^*` the largest priority dropped so far,
    a sampled edge is in the sample with probability :math:`p = \\min(1, w / z^*)` (Ahmed,
    Duffield, Willke and Rossi, VLDB 2017). Edges that close triangles are kept more often, so
    more triangles are seen than with a uniform sample of the same size. The estimate is
    unbiased, and so is the variance estimate it keeps along the stream (each triangle's
    :math:`e(e - 1)`, :math:`e = 1/(p_{k_1} p_{k_2})`, plus twice its covariance with the
    triangles counted before that share an edge with it): :meth:`stderr` is its square root,
    from one sampler.

    Parameters
    ----------
    memory : int
        M, edges kept (>= 2).
    seed : int, optional
        Seed of the replicates' random streams (default: drawn and kept in :attr:`seed`).
    replicates : int
        Independent samplers of ``memory`` edges each; the estimate is their mean.
    triangle_weight : float
        c >= 0, the weight of a closed triangle in an edge's sampling weight (default 1; the
        paper's 9 gave up to 3.8x the error of c = 1 on the streams of docs/streaming.md; 0: every
        edge weighs 1, a uniform sample).

    Attributes
    ----------
    memory, seed, replicates, triangle_weight
        As given (the drawn seed when none was).
    events, n_vertices, edges, sample_size, skipped
        What has been processed.

    Examples
    --------
    >>> est = GPS(memory=50, seed=2)
    >>> est.feed([(0, 1), (1, 2), (2, 0), (2, 3), (3, 0)]).global_estimate()  # all kept: exact
    2.0
    >>> est.stderr()
    0.0
    """

    method = "gps"
    insert_only = True

    def __init__(self, memory, *, seed=None, replicates=1, triangle_weight=1.0):
        if isinstance(triangle_weight, bool) or not isinstance(triangle_weight, numbers.Real) or \
                not 0 <= triangle_weight < math.inf:
            raise ParameterError(f"triangle_weight must be a finite number >= 0, got {triangle_weight!r}")
        self.triangle_weight = float(triangle_weight)
        super().__init__(memory, seed=seed, replicates=replicates)
        R, M = self.replicates, self.memory
        self._wt = np.zeros((R, M), np.float64)
        self._pr = np.zeros((R, M), np.float64)
        self._cov = np.zeros((R, M), np.float64)
        self._heap = np.zeros((R, M), np.int64)
        self._zv = np.zeros((R, 2), np.float64)  # per replicate: z*, the variance estimate

    def _run_one(self, r, sg, u, v, i, flag):
        return _k._gps_run(sg, u, v, i, self.memory, self.triangle_weight, *self._rows(r), self._wt[r], self._pr[r],
                           self._cov[r], self._heap[r], self._zv[r], flag)

    def replicate_variances(self):
        """Every replicate's in-stream estimate of the variance of its global estimate.

        Returns
        -------
        ndarray of float64, shape (replicates,)
        """
        return self._zv[:, 1].copy()

    def stderr(self):
        """Standard error of :meth:`global_estimate` from the in-stream variance estimates: the
        square root of their sum over the replicates, divided by the replicates' number (0.0
        while every sampled edge is kept for sure).

        Returns
        -------
        float
        """
        return float(math.sqrt(max(float(self._zv[:, 1].sum()), 0.0)) / self.replicates)


def make_estimator(method, memory=None, *, seed=None, replicates=1, probability=None, alpha=0.1,
                   triangle_weight=1.0):
    """An estimator by its name (the names of the command line).

    Parameters
    ----------
    method : {'thinkd-acc', 'thinkd-fast', 'triest', 'triest-fd', 'wrs', 'gps', 'exact'}
        'triest' is TRIEST-IMPR.
    memory : int, optional
        Edges per replicate (all but 'exact'; for 'thinkd-fast', the room reserved).
    seed : int, optional
        Seed of the random streams (default: drawn and kept in the estimator's ``seed``).
    replicates : int
        Independent samplers (1 for 'exact').
    probability : float, optional
        'thinkd-fast''s sampling probability (required for it).
    alpha : float
        'wrs''s waiting-room share of the memory.
    triangle_weight : float
        'gps''s weight of a closed triangle in an edge's sampling weight (default 1).

    Returns
    -------
    estimator
        One of :class:`ThinkDAcc`, :class:`ThinkDFast`, :class:`TriestImpr`, :class:`TriestFD`,
        :class:`WRS`, :class:`GPS`, :class:`ExactTriangleCounter`.

    Raises
    ------
    ParameterError
        An unknown method, or a parameter missing or out of range.

    Examples
    --------
    >>> make_estimator("thinkd-acc", 1000, seed=1)
    ThinkDAcc(memory=1000, replicates=1, seed=1; 0 events, estimate 0)
    """
    if method not in METHODS:
        raise ParameterError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    if method == "exact":
        return ExactTriangleCounter()
    if method == "thinkd-fast":
        if probability is None:
            raise ParameterError("thinkd-fast needs its sampling probability (probability=, or a memory and "
                                 "a stream whose size is known: estimate_triangles sets p = memory / edges)")
        return ThinkDFast(probability, seed=seed, replicates=replicates, memory=memory)
    if memory is None:
        raise ParameterError(f"{method} needs a memory budget (edges per replicate)")
    if method == "wrs":
        return WRS(memory, seed=seed, replicates=replicates, alpha=alpha)
    if method == "gps":
        return GPS(memory, seed=seed, replicates=replicates, triangle_weight=triangle_weight)
    cls = {"thinkd-acc": ThinkDAcc, "triest": TriestImpr, "triest-fd": TriestFD}[method]
    return cls(memory, seed=seed, replicates=replicates)

