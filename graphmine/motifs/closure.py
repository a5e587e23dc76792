r"""Temporal motif (closure) prediction on timestamped items (Benson et al., PNAS 2018).

The data are *items*: sets of vertices at a time (a question's tags, a bill's sponsors, an
e-mail's sender and recipients; a pairwise event is an item of two). Everything up to the cut
time ``T`` (items with ``t <= T``) is the past: its *projected graph* links two vertices when some
item holds both, with the pair weight :math:`w_{uv}` the number of such items.

Candidates at the cut, for ``motif='triangle'``:

* ``'open'`` (default on data with items of three or more vertices): three vertices whose three
  pairs are linked but which never appeared together in one item (Benson's open triangles);
* ``'wedge'`` (default on pairwise data): three vertices with exactly two pairs linked.

For ``motif='clique4'``: four vertices with five of their six pairs linked. The label is 1 when
the candidate *closes* in :math:`(T, T + \delta]`: with ``closure='simplex'`` (default on
non-pairwise data, Benson's simplicial closure) all its vertices appear together in one item; with
``closure='edges'`` (default on pairwise data, the only one for wedges of pairwise data and for
4-sets) its missing pair appears in some item.

Scores (all computed on the past only; :data:`CLOSURE_SCORES`), for a candidate :math:`X`:

.. math::

    \mathrm{HM} = \frac{m}{\sum_{e} 1 / w_e}, \quad \mathrm{GM} = \Big(\prod_e w_e\Big)^{1/m},
    \quad \mathrm{AM} = \frac1m \sum_e w_e \quad (e \text{ over the } m \text{ linked pairs of } X),

    \mathrm{CN} = \Big|\bigcap_{x \in X} N(x)\Big|, \quad
    \mathrm{Jaccard} = \frac{|\bigcap_x N(x)|}{|\bigcup_x N(x)|}, \quad
    \mathrm{AA} = \sum_{z \in \bigcap_x N(x)} \frac{1}{\log |N(z)|},

    \mathrm{PA} = \prod_x |N(x)|, \quad \mathrm{SPA} = \prod_x (\text{items of } x), \quad
    \mathrm{Katz}, \mathrm{PPR} = \sum_{\{u, v\} \subset X} s(u, v),

with the pairwise Katz score :math:`s = [\sum_{l \ge 1} \beta^l A^l]_{uv}` on the unweighted
projected graph (:math:`\beta = 1 / (2 \lambda_{\max})`, series truncated after 10 terms:
entries of :math:`(\beta A)^l` are at most :math:`2^{-l}`, so a pair's remainder is below :math:`2^{-10}`) and the personalised PageRank
:math:`s = \pi_u(v) + \pi_v(u)`, :math:`\pi_u = (1 - \alpha) \sum_{l \ge 0} \alpha^l P^l e_u`,
:math:`P = A D^{-1}`, :math:`\alpha = 0.85`, truncated after 30 steps (mass left
:math:`0.85^{30} < 0.008`); both by sparse products (scipy) over blocks of source vertices, only for
the vertices of the candidates, and skipped (with a warning) when that work exceeds
``max_walk_work`` multiply-adds.

The learned model (:class:`ClosureModel`, LightGBM, the ``ml`` extra) sees these scores and
their components (min / mean / max of the pair weights, degrees, item counts and pairwise common
neighbours), is trained on the candidates of an earlier cut :math:`T' = T - \delta` with labels
from :math:`(T', T]` and tested at :math:`T`: its training labels end where the test's begin.
Metrics: the area under the precision-recall curve (average precision) relative to the positive
rate (Benson's "AUC-PR relative to random") and the ROC AUC.

When there are more candidates than ``max_candidates``, a uniform sample is kept: a candidate is
kept when a hash of (seed, its vertices) falls below a threshold, the same whatever the thread
count. For 4-sets the enumeration work is bounded too: the 4-set's linked "diagonal" pair is
sampled first, then the candidates; each 4-set is kept with the same probability.
"""

from .._runtime.docs import fill_doc
import math
import sys
import time

import numpy as np

from .._primitives.small_work import unique_ints
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import GraphValueError, ParameterError, check_choice, check_seed, warn_at_caller
from . import _closure_kernels as _ck
from .._primitives import small_work as _sw
from .heuristics import auc_ap

__all__ = ["CLOSURE_SCORES", "CLOSURE_MOTIFS", "CLOSURE_LEARNERS", "ClosureTask", "ClosureModel", "closure_task", "closure_scores",
           "closure_features", "evaluate_closure", "predict_closure", "default_cut", "MIN_PROBE_POSITIVES",
           "ORBIT_FEATURES"]

# the closure motifs: open triangles and 4-sets one pair short of a 4-clique
CLOSURE_MOTIFS = ("triangle", "clique4")
#: the learned models of :class:`ClosureModel`
CLOSURE_LEARNERS = ("lightgbm", "logistic")
# the rank average of the two, reported and among the past check's choices
_BOTH = "lightgbm+logistic"
# fewest closing candidates in the window one before the training window for the past check to
# train its models there (as Science4Cast's MIN_WINDOW_POSITIVES); fewer: it splits the training
# window instead
MIN_PROBE_POSITIVES = 20
#: the simple scores, in report order
CLOSURE_SCORES = ("harmonic_mean", "geometric_mean", "arithmetic_mean", "common_neighbors", "jaccard",
                  "adamic_adar", "projected_pa", "simplicial_pa", "katz", "ppr")
_LOCAL_COL = {"harmonic_mean": _ck.HM, "geometric_mean": _ck.GM, "arithmetic_mean": _ck.AM,
              "common_neighbors": _ck.CN, "jaccard": _ck.JACCARD, "adamic_adar": _ck.AA,
              "projected_pa": _ck.PA, "simplicial_pa": _ck.SPA}
_COMPONENTS = ("weight_min", "weight_mean", "weight_max", "degree_min", "degree_mean", "degree_max",
               "items_min", "items_mean", "items_max", "pair_cn_min", "pair_cn_mean", "pair_cn_max")
_RECENCY = ("recent_min", "recent_mean", "recent_max", "age_min", "age_mean", "age_max", "decayed_min",
            "decayed_mean", "decayed_max", "decayed_gm")
_WALK = ("katz", "ppr")
#: the graphlet-degree features of ``orbits=True``: per 4-vertex node orbit o (ORCA's numbering,
#: :mod:`graphmine.graphlets`), min / mean / max over the candidate's vertices
ORBIT_FEATURES = tuple(f"orbit{o}_{a}" for o in range(15) for a in ("min", "mean", "max"))
# features the model's output may only grow with (+1) or only fall with (-1): the tie strengths
# (Benson et al.'s finding that stronger ties close more often), recent and time-decayed ones, and
# the time since a pair last met; a small, monotone model carries across windows better
_MONOTONE = {**dict.fromkeys(("harmonic_mean", "geometric_mean", "arithmetic_mean", "weight_min", "weight_mean",
                              "weight_max", "recent_min", "recent_mean", "recent_max", "decayed_min",
                              "decayed_mean", "decayed_max", "decayed_gm"), 1),
             **dict.fromkeys(("age_min", "age_mean", "age_max"), -1)}
KATZ_TERMS = 10
PPR_ALPHA = 0.85
PPR_STEPS = 30
# open-triangle checks per wanted candidate before the enumeration itself is sampled
_CHECKS_PER_CANDIDATE = 20
# 4-set pairs visited per wanted candidate before the diagonal edges are sampled
_VISITS_PER_CANDIDATE = 50


# -- items -------------------------------------------------------------------------------------

class _Items:
    """Items (deduplicated, sorted vertices), their times and the vertex -> item incidence."""

    def __init__(self, item_ptr, item_nodes, times, n_nodes):
        self.item_ptr, self.item_nodes, self.times, self.n_nodes = item_ptr, item_nodes, times, n_nodes
        self.n_items = item_ptr.shape[0] - 1
        item_of = np.repeat(np.arange(self.n_items, dtype=np.int64), np.diff(item_ptr))
        order = np.argsort(item_nodes, kind="stable")            # by vertex, then by item
        self.node_items = item_of[order]
        self.node_ptr = np.zeros(n_nodes + 1, np.int64)
        np.cumsum(np.bincount(item_nodes, minlength=n_nodes), out=self.node_ptr[1:])
        sizes = np.diff(item_ptr)
        self.max_size = int(sizes.max()) if sizes.size else 0

    def n_upto(self, t):
        """Items with time <= t."""
        return int(np.searchsorted(self.times, t, side="right"))


def _as_items(events):
    """The items of a :class:`graphmine.io.events.TemporalEvents` (or any object with ``item_ptr``,
    ``item_nodes``, ``times`` and ``n_nodes``), checked, with repeated vertices of an item merged."""
    if isinstance(events, _Items):
        return events
    if isinstance(events, (str, bytes)) or hasattr(events, "__fspath__"):
        from ..io.events import read_events

        events = read_events(events)
    missing = [a for a in ("item_ptr", "item_nodes", "times") if not hasattr(events, a)]
    if missing:
        raise ParameterError(f"events must be temporal events (graphmine.io.events.read_events) with item_ptr, "
                             f"item_nodes and times; {type(events).__name__} lacks {', '.join(missing)}")
    ptr = np.asarray(events.item_ptr, dtype=np.int64)
    nodes = np.asarray(events.item_nodes, dtype=np.int64)
    times = np.asarray(events.times)
    n_items = ptr.shape[0] - 1
    if ptr.ndim != 1 or n_items < 0 or ptr[0] != 0 or ptr[-1] != nodes.shape[0] or (np.diff(ptr) < 0).any():
        raise ParameterError("events.item_ptr must start at 0, never decrease and end at len(item_nodes)")
    if times.shape != (n_items,):
        raise ParameterError(f"events.times must hold one time per item ({n_items}), got shape {times.shape}")
    if times.dtype.kind not in "iuf":
        raise ParameterError(f"events.times must be numbers, got dtype {times.dtype}")
    if n_items > 1 and (np.diff(times) < 0).any():
        raise ParameterError("events.times must be sorted ascending (items in time order)")
    n_nodes = int(getattr(events, "n_nodes", int(nodes.max()) + 1 if nodes.size else 0))
    if nodes.size and (nodes.min() < 0 or nodes.max() >= n_nodes):
        raise ParameterError(f"events.item_nodes must lie in 0..{n_nodes - 1}")
    # one entry per (item, vertex), vertices sorted inside each item
    item_of = np.repeat(np.arange(n_items, dtype=np.int64), np.diff(ptr))
    key = unique_ints(item_of * max(n_nodes, 1) + nodes)
    item_of = key // max(n_nodes, 1)
    nodes = key - item_of * max(n_nodes, 1)
    ptr = np.zeros(n_items + 1, np.int64)
    np.cumsum(np.bincount(item_of, minlength=n_items), out=ptr[1:])
    return _Items(ptr, nodes, times, n_nodes)


class _Past:
    """The weighted projected graph of items 0..n_past-1 (int64 CSR), degrees and item counts."""

    def __init__(self, items, n_past, nthreads):
        n = items.n_nodes
        sizes = np.diff(items.item_ptr[:n_past + 1])
        offsets = np.zeros(n_past + 1, np.int64)
        np.cumsum(sizes * (sizes - 1) // 2, out=offsets[1:])
        keys = _ck.item_pair_keys(items.item_ptr, items.item_nodes, n_past, n, offsets, nthreads)
        keys, counts = np.unique(keys, return_counts=True)
        u = keys // max(n, 1)
        v = keys - u * max(n, 1)
        src = np.concatenate((u, v))
        dst = np.concatenate((v, u))
        order = np.argsort(src * max(n, 1) + dst, kind="stable")
        self.n = n
        self.indices = np.ascontiguousarray(dst[order])
        self.weights = np.concatenate((counts, counts))[order].astype(np.float64)
        self.indptr = np.zeros(n + 1, np.int64)
        np.cumsum(np.bincount(src, minlength=n), out=self.indptr[1:])
        self.deg = np.diff(self.indptr)
        self.sdeg = np.bincount(items.item_nodes[:items.item_ptr[n_past]], minlength=n).astype(np.int64)
        self.n_past = n_past
        self.n_edges = int(keys.shape[0])


# -- the task ------------------------------------------------------------------------------------

class ClosureTask:
    """Candidates at one cut, their closure labels and the past they are scored on.

    Attributes
    ----------
    items, past
        The events the task was built from, and those at ``t <= cut`` (what scores see).
    motif : 'triangle' or 'clique4'
        The closure motif.
    candidates : 'open' or 'wedge'
        Triangles' candidates (4-sets are always one pair short).
    closure : 'simplex' or 'edges'
        What counts as closing: one item holding all the candidate's vertices, or the
        missing edges appearing.
    cut, delta : float
        The past is ``t <= cut``; a candidate closes in ``(cut, cut + delta]``.
    tuples : ndarray of int64, shape (N, k)
        Candidate vertices (compact ids of the events). Open triangles: sorted; with a missing
        pair (wedges, 4-sets), that pair is columns 0 and 1.
    labels : ndarray of int8, shape (N,)
        1 when the candidate closes in the window.
    info : dict
        ``n_items_past``, ``n_items_window``, ``n_edges_past``, ``sample_rate`` (the probability
        that any one candidate is kept), ``n_candidates_estimate`` (all candidates, estimated by
        ``len(tuples) / sample_rate`` when sampled), ``positives``, ``seconds``.

    Parameters
    ----------
    items, past, motif, candidates, closure, cut, delta, tuples, labels, info
        The attributes, as :func:`closure_task` computes them.

    Examples
    --------
    >>> from graphmine.io.events import events_from_items
    >>> ev = events_from_items([[0, 1], [1, 2], [0, 2, 3], [0, 1, 2]], [1, 2, 3, 5])
    >>> task = closure_task(ev, cut=3, delta=2)
    >>> task.motif, task.tuples.tolist(), task.labels.tolist()
    ('triangle', [[0, 1, 2]], [1])
    """

    def __init__(self, items, past, motif, candidates, closure, cut, delta, tuples, labels, info):
        self._items = items
        self._past = past
        self.motif = motif
        self.candidates = candidates
        self.closure = closure
        self.cut = cut
        self.delta = delta
        self.tuples = tuples
        self.labels = labels
        self.info = info

    @property
    def positive_rate(self):
        return float(self.labels.mean()) if self.labels.size else 0.0

    def __repr__(self):
        return (f"ClosureTask({self.motif}, {self.candidates}, closure={self.closure}, cut={self.cut}, "
                f"delta={self.delta}, candidates={self.tuples.shape[0]}, positives={int(self.labels.sum())})")


def default_cut(events, fraction=0.8):
    """The default cut and window of a closure task.

    Parameters
    ----------
    events : TemporalEvents
        Sorted by time.
    fraction : float, default 0.8
        Share of the items at or before the cut (Benson et al. cut at 80 %).

    Returns
    -------
    cut : float
        The time of the item at ``fraction`` of the items.
    delta : float
        The window that reaches the last item.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> ev = SimpleNamespace(item_ptr=np.arange(0, 21, 2), item_nodes=np.arange(20) % 4,
    ...                      times=np.arange(10.0), n_nodes=4)
    >>> default_cut(ev)
    (7.0, 2.0)
    """
    if not 0 < fraction < 1:
        raise ParameterError(f"fraction must lie in (0, 1), got {fraction!r}")
    times = np.asarray(events.times if not isinstance(events, _Items) else events.times)
    if times.size < 2:
        raise GraphValueError(f"closure prediction needs at least 2 items, got {times.size}")
    cut = float(times[min(times.size - 1, max(0, int(math.ceil(fraction * times.size)) - 1))])
    return cut, float(times[-1]) - cut


def _threshold(q):
    """(sample, thr): keep hashes below q * 2**64."""
    if q >= 1.0:
        return False, np.uint64(0)
    return True, np.uint64(min(int(q * 18446744073709551616.0), 18446744073709551615))


def _oriented(past):
    """Forward rows u -> v for rank(u) < rank(v), rank by (degree, id); rows stay sorted by id."""
    n = past.n
    src = np.repeat(np.arange(n, dtype=np.int64), past.deg)
    dst = past.indices
    ds, dd = past.deg[src], past.deg[dst]
    keep = (ds < dd) | ((ds == dd) & (src < dst))
    fptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(src[keep], minlength=n), out=fptr[1:])
    return fptr, np.ascontiguousarray(dst[keep])


def _collect(run, k, max_candidates, q0=1.0):
    """Count with the sample rate q0, lower it to keep about max_candidates, then fill.
    ``run(sample, thr, offsets, out)`` returns the per-row counts. Returns (tuples, rate, first count)."""
    empty_off = np.zeros(1, np.int64)
    empty_out = np.empty((0, k), np.int64)
    sample, thr = _threshold(q0)
    counts = run(sample, thr, empty_off, empty_out)
    found = int(counts.sum())
    q = q0
    if found > max_candidates:
        q = q0 * max_candidates / found
        sample, thr = _threshold(q)
        counts = run(sample, thr, empty_off, empty_out)
    offsets = np.zeros(counts.shape[0] + 1, np.int64)
    np.cumsum(counts, out=offsets[1:])
    out = np.empty((int(offsets[-1]), k), np.int64)
    run(sample, thr, offsets, out)
    return out, q, found


@restores_threads
def closure_task(events, cut=None, delta=None, *, motif="triangle", candidates="auto", closure="auto",
                 max_candidates=200_000, seed=0, threads=None):
    """Candidates at ``cut`` and whether each closes in ``(cut, cut + delta]``.

    Parameters
    ----------
    events : TemporalEvents
        From :func:`graphmine.io.events.read_events` (items in time order; any object with
        ``item_ptr``, ``item_nodes``, ``times`` and ``n_nodes`` will do).
    cut : float, optional
        End of the past (inclusive). Default: the time of the item at 80 % (:func:`default_cut`).
    delta : float, optional
        Length of the label window. Default: up to the last item.
    motif : 'triangle' or 'clique4'
    candidates : 'auto', 'open' or 'wedge'
        Triangles only: all three pairs linked (never together in one item), or exactly two.
        'auto': 'open' when some item holds three or more vertices, else 'wedge'.
    closure : 'auto', 'simplex' or 'edges'
        The candidate's vertices together in one item, or its missing pair linked. 'auto':
        'simplex' for open triangles, 'edges' otherwise (wedges and 4-sets on pairwise data can
        only close by edges; 'simplex' is allowed for wedges and 4-sets on data with larger items).
    max_candidates : int
        Keep a uniform hash sample of about this many candidates when there are more.
    seed : int
        Seeds the sample.
    threads : int, optional

    Returns
    -------
    ClosureTask

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> # items {0,1}, {1,2}, {0,2} at t = 1, 2, 3 and {0,1,2} at t = 5
    >>> ev = SimpleNamespace(item_ptr=np.array([0, 2, 4, 6, 9]), item_nodes=np.array([0, 1, 1, 2, 0, 2, 0, 1, 2]),
    ...                      times=np.array([1.0, 2, 3, 5]), n_nodes=3)
    >>> task = closure_task(ev, cut=3, delta=2)
    >>> task.candidates, task.tuples.tolist(), task.labels.tolist()
    ('open', [[0, 1, 2]], [1])
    """
    t_start = time.perf_counter()
    items = _as_items(events)
    check_choice("motif", motif, CLOSURE_MOTIFS)
    check_choice("candidates", candidates, ("auto", "open", "wedge"))
    check_choice("closure", closure, ("auto", "simplex", "edges"))
    if isinstance(max_candidates, bool) or not isinstance(max_candidates, (int, np.integer)) or max_candidates < 1:
        raise ParameterError(f"max_candidates must be a positive integer, got {max_candidates!r}")
    if items.n_items < 2:
        raise GraphValueError(f"closure prediction needs at least 2 items, got {items.n_items}")
    d_cut, d_delta = default_cut(items)
    cut = d_cut if cut is None else cut
    if delta is None:
        delta = float(items.times[-1]) - float(cut)
    for name, v in (("cut", cut), ("delta", delta)):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not np.isfinite(v):
            raise ParameterError(f"{name} must be a finite number, got {v!r}")
    if delta <= 0:
        raise ParameterError(f"delta must be > 0, got {delta!r}")
    simplicial = items.max_size >= 3
    if motif == "clique4":
        if candidates == "wedge":
            raise ParameterError("candidates='wedge' applies to motif='triangle' only (4-sets are one pair short)")
        kind = "missing_pair"
    else:
        kind = candidates if candidates != "auto" else ("open" if simplicial else "wedge")
    if closure == "auto":
        closure = "simplex" if kind == "open" else "edges"
    if kind == "open" and closure == "edges":
        raise ParameterError("open triangles have all three pairs linked already: they close as a simplex "
                             "(closure='simplex'); use candidates='wedge' for closure by edges")
    if closure == "simplex" and not simplicial:
        raise ParameterError(f"closure='simplex' needs items of 3 or more vertices; every item here has at most "
                             f"{items.max_size} (pairwise data: use closure='edges' with wedges)")
    nthreads = resolve_threads(threads)
    n_past = items.n_upto(cut)
    n_end = items.n_upto(cut + delta)
    if n_past == 0:
        raise GraphValueError(f"no item at or before cut={cut} (the first item is at {items.times[0]})")
    past = _Past(items, n_past, nthreads)
    seed = int(seed)
    if kind == "open":
        fptr, fidx = _oriented(past)
        nt = _serial(_ck.open_triangles, fidx.shape[0], nthreads)
        n_tri = int(_ck.triangle_counts(fptr, fidx, nt).sum())
        q0 = min(1.0, _CHECKS_PER_CANDIDATE * max_candidates / n_tri) if n_tri else 1.0
        kernel = _ck.open_triangles_serial if nt == 1 and not _ck.open_triangles.overloads else _ck.open_triangles

        def run(sample, thr, offsets, out):
            return kernel(fptr, fidx, items.node_ptr, items.node_items, n_past, seed, thr, sample, offsets, out, nt)
        tuples, rate, found = _collect(run, 3, max_candidates, q0)
    elif kind == "wedge":
        def run(sample, thr, offsets, out):
            return _ck.open_wedges(past.indptr, past.indices, seed, thr, sample, offsets, out, nthreads)
        tuples, rate, found = _collect(run, 3, max_candidates)
    else:
        visits = float(_ck.edge_common_counts(past.indptr, past.indices, nthreads).sum())
        q_edge = min(1.0, _VISITS_PER_CANDIDATE * max_candidates / visits) if visits else 1.0
        edge_sample, edge_thr = _threshold(q_edge)

        def run(sample, thr, offsets, out):
            return _ck.open_clique4(past.indptr, past.indices, seed, edge_thr, edge_sample, thr, sample, offsets,
                                    out, nthreads)
        tuples, rate, found = _collect(run, 4, max_candidates)
        rate *= q_edge
        found = found / q_edge if q_edge < 1 else found
    nt = _serial(_ck.closure_labels, tuples.shape[0], nthreads)
    kernel = _ck.closure_labels_serial if nt == 1 and not _ck.closure_labels.overloads else _ck.closure_labels
    labels = kernel(tuples, closure == "simplex", items.node_ptr, items.node_items, n_past, n_end, nt)
    info = {"n_items_past": n_past, "n_items_window": n_end - n_past, "n_edges_past": past.n_edges,
            "sample_rate": rate, "n_candidates_estimate": float(tuples.shape[0] / rate if rate < 1 else tuples.shape[0]),
            "positives": int(labels.sum()), "seed": seed, "max_candidates": int(max_candidates),
            "seconds": time.perf_counter() - t_start}
    return ClosureTask(items, past, motif, "open" if kind == "open" else ("wedge" if kind == "wedge" else "missing_pair"),
                       closure, float(cut), float(delta), tuples, labels, info)


# -- scores --------------------------------------------------------------------------------------

def _walk_scores(task, names, max_walk_work):
    """Katz and PPR pair scores summed over each candidate's pairs (see the module docstring),
    kept on the task: ({name: scores}, {name: why skipped})."""
    cache = task.__dict__.setdefault("_walk_cache", {})
    key = (tuple(names), float(max_walk_work))
    if key not in cache:
        cache[key] = _walk_compute(task, names, max_walk_work)
    values, skipped = cache[key]
    return dict(values), dict(skipped)


def _walk_compute(task, names, max_walk_work):
    import scipy.sparse as sp

    past = task._past
    n = past.n
    tuples = task.tuples
    out = {}
    if tuples.shape[0] == 0:
        return {name: np.zeros(0) for name in names}, {}
    k = tuples.shape[1]
    cols = [(i, j) for i in range(k) for j in range(i + 1, k)]
    pu = np.concatenate([tuples[:, i] for i, _ in cols])
    pv = np.concatenate([tuples[:, j] for _, j in cols])
    sources = unique_ints(tuples)
    A = sp.csr_matrix((np.ones(past.indices.shape[0]), past.indices, past.indptr), shape=(n, n))
    nnz = max(A.nnz, 1)
    skipped = {}
    steps = {"katz": KATZ_TERMS, "ppr": PPR_STEPS + 1}
    for name in names:
        work = float(sources.size) * steps[name] * nnz
        if work > max_walk_work:
            skipped[name] = (f"{name} skipped: {sources.size} source vertices x {steps[name]} steps x {A.nnz} "
                             f"nonzeros = {work:.2g} multiply-adds > max_walk_work={max_walk_work:.2g}")
            continue
        if name == "katz":
            from scipy.sparse.linalg import eigsh

            # a fixed start vector: ARPACK's own random one made the scores differ between runs (the
            # all-ones vector meets the Perron vector of a non-negative matrix)
            lam = float(eigsh(A, k=1, which="LA", return_eigenvectors=False, tol=1e-4,
                              v0=np.full(n, 1.0 / np.sqrt(n)))[0]) if n > 2 else \
                float(np.abs(np.linalg.eigvalsh(A.toarray())).max())
            beta = 0.5 / lam if lam > 0 else 0.0
            M = A * beta
        else:
            dinv = np.zeros(n)
            np.divide(1.0, past.deg, out=dinv, where=past.deg > 0)
            M = (A @ sp.diags(dinv)).tocsr() * PPR_ALPHA       # column-stochastic walk, times alpha
        # blocks of source columns, each at most ~64 MB of dense work space
        block = int(max(1, min(sources.size, 8_000_000 // max(n, 1))))
        pos = np.searchsorted(sources, pu)                     # column of u among the sources
        pos_v = np.searchsorted(sources, pv)
        val = np.zeros(pu.shape[0])
        for b0 in range(0, sources.size, block):
            src = sources[b0:b0 + block]
            X = np.zeros((n, src.size))
            X[src, np.arange(src.size)] = 1.0
            acc = np.zeros_like(X) if name == "katz" else X * (1 - PPR_ALPHA)
            for _ in range(steps[name] - (name == "ppr")):
                X = M @ X
                acc += X if name == "katz" else X * (1 - PPR_ALPHA)
            sel = (pos >= b0) & (pos < b0 + src.size)
            val[sel] += acc[pv[sel], pos[sel] - b0]              # s(u, v): walks from u reaching v
            if name == "ppr":
                sel = (pos_v >= b0) & (pos_v < b0 + src.size)
                val[sel] += acc[pu[sel], pos_v[sel] - b0]        # pi_v(u)
        out[name] = val.reshape(len(cols), -1).sum(axis=0)
    return out, skipped


@restores_threads
def closure_scores(task, scores=CLOSURE_SCORES, *, max_walk_work=4e9, threads=None):
    """The simple scores of every candidate of ``task`` (on the past only).

    Parameters
    ----------
    task : ClosureTask
    scores : sequence of names from :data:`CLOSURE_SCORES`
    max_walk_work : float
        Katz and PPR are skipped (with a warning naming the numbers) when sources x steps x
        nonzeros exceeds this many multiply-adds.
    threads : int, optional

    Returns
    -------
    dict
        name -> ndarray of float64 (N,); a skipped walk score is absent.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> ev = SimpleNamespace(item_ptr=np.array([0, 2, 4, 6, 8, 11]),
    ...                      item_nodes=np.array([0, 1, 0, 1, 1, 2, 0, 2, 0, 1, 2]),
    ...                      times=np.array([1.0, 2, 3, 4, 6]), n_nodes=3)
    >>> task = closure_task(ev, cut=4, delta=2)   # weights: 0-1 twice, 1-2 and 0-2 once; items: 3, 3, 2
    >>> s = closure_scores(task, ["harmonic_mean", "arithmetic_mean", "simplicial_pa"])
    >>> [round(float(s[n][0]), 4) for n in ("harmonic_mean", "arithmetic_mean", "simplicial_pa")]
    [1.2, 1.3333, 18.0]
    """
    if not isinstance(task, ClosureTask):
        raise ParameterError(f"closure_scores needs a ClosureTask, got {type(task).__name__}")
    names = list(scores)
    for s in names:
        check_choice("score", s, CLOSURE_SCORES)
    nthreads = resolve_threads(threads)
    local = _local(task, nthreads)
    out = {s: local[:, _LOCAL_COL[s]].copy() for s in names if s in _LOCAL_COL}
    walk = [s for s in names if s in _WALK]
    if walk:
        w, skipped = _walk_scores(task, walk, max_walk_work)
        for msg in skipped.values():
            warn_at_caller(msg)
        task.info["skipped"] = list(skipped.values())
        out.update(w)
    return {s: out[s] for s in names if s in out}


def _serial(kernel, size, nthreads):
    """1 where a job over ``size`` rows runs ``kernel``'s serial twin (small, and the parallel
    kernel neither loaded nor cached: graphmine/_primitives/small_work.py), else nthreads."""
    return 1 if _sw.serial_first(kernel, size) else nthreads


def _local(task, nthreads):
    if getattr(task, "_local_cache", None) is None:
        p = task._past
        nt = _serial(_ck.local_scores, task.tuples.shape[0], nthreads)
        kernel = _ck.local_scores_serial if nt == 1 and not _ck.local_scores.overloads else _ck.local_scores
        task._local_cache = kernel(task.tuples, p.indptr, p.indices, p.weights, p.deg, p.sdeg, nt)
    return task._local_cache


def _recency(task, nthreads):
    """The recency features of every candidate (columns as ``_RECENCY``), kept on the task.

    Every vertex pair of every past item is matched against the candidates' pairs (sorted keys,
    binary search: the same pairs the projected graph is built from), so the work is that of
    building the past once more."""
    cache = getattr(task, "_recency_cache", None)
    if cache is not None:
        return cache
    items, past = task._items, task._past
    n, n_past = items.n_nodes, past.n_past
    tuples = task.tuples
    k = tuples.shape[1]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    lo = np.minimum(tuples[:, [i for i, _ in pairs]], tuples[:, [j for _, j in pairs]])
    hi = np.maximum(tuples[:, [i for i, _ in pairs]], tuples[:, [j for _, j in pairs]])
    query = lo * max(n, 1) + hi                                   # (N, pairs)
    uq = unique_ints(query)
    sizes = np.diff(items.item_ptr[:n_past + 1])
    n_pairs = sizes * (sizes - 1) // 2
    offsets = np.zeros(n_past + 1, np.int64)
    np.cumsum(n_pairs, out=offsets[1:])
    keys = _ck.item_pair_keys(items.item_ptr, items.item_nodes, n_past, n, offsets, nthreads)
    item_of = np.repeat(np.arange(n_past, dtype=np.int64), n_pairs)
    pos = np.minimum(np.searchsorted(uq, keys), max(uq.size - 1, 0))
    hit = uq[pos] == keys if uq.size else np.zeros(keys.shape, bool)
    idx, it = pos[hit], item_of[hit]
    cut, delta = float(task.cut), float(task.delta)
    t_item = items.times[it].astype(np.float64)
    count = np.bincount(idx, minlength=uq.size)
    recent = np.bincount(idx, weights=(t_item > cut - delta).astype(np.float64), minlength=uq.size)
    decayed = np.bincount(idx, weights=np.exp(-(cut - t_item) / delta), minlength=uq.size)
    last = np.full(uq.size, -np.inf)
    np.maximum.at(last, idx, t_item)
    age = (cut - last) / delta
    j = np.searchsorted(uq, query)
    linked = count[j] > 0
    nl = np.maximum(linked.sum(axis=1), 1)
    out = np.zeros((tuples.shape[0], len(_RECENCY)))
    for c, v in enumerate((recent[j], age[j], decayed[j])):
        out[:, 3 * c] = np.where(linked, v, np.inf).min(axis=1, initial=np.inf)
        out[:, 3 * c + 1] = np.where(linked, v, 0.0).sum(axis=1) / nl
        out[:, 3 * c + 2] = np.where(linked, v, -np.inf).max(axis=1, initial=-np.inf)
    logs = np.where(linked, np.log(np.maximum(decayed[j], 1e-300)), 0.0).sum(axis=1) / nl
    out[:, 9] = np.exp(logs)
    out[~np.isfinite(out)] = 0.0                                  # a candidate without a linked pair
    task._recency_cache = out
    return out


def _vertex_orbits(task, nthreads):
    """Every past vertex's 4-vertex node orbit counts on the unweighted projected graph, each orbit
    divided by its mean over the past's vertices (0 where no vertex has it), kept on the task.

    The division makes the columns comparable between the training cut and the test cut, whose
    past graphs differ in size (raw counts of 3-paths and stars grow with it)."""
    cache = getattr(task, "_orbit_cache", None)
    if cache is not None:
        return cache
    import scipy.sparse as sp

    from ..graphlets import orbit_counts

    past = task._past
    n = past.n
    A = sp.csr_matrix((np.ones(past.indices.shape[0], np.int8), past.indices, past.indptr), shape=(n, n))
    counts = orbit_counts(A, 4, kind="node", threads=nthreads).astype(np.float64)
    mean = counts.mean(axis=0) if n else np.zeros(counts.shape[1])
    out = np.zeros_like(counts)
    np.divide(counts, mean, out=out, where=mean > 0)
    task._orbit_cache = out
    return out


def _orbit_columns(task, nthreads):
    """min / mean / max over each candidate's vertices of :func:`_vertex_orbits` (columns as
    :data:`ORBIT_FEATURES`)."""
    V = _vertex_orbits(task, nthreads)
    T = V[task.tuples]                                            # (N, k, 15)
    return np.stack((T.min(axis=1), T.mean(axis=1), T.max(axis=1)), axis=2).reshape(T.shape[0], -1)


@restores_threads
@fill_doc
def closure_features(task, *, walk=True, recency=True, orbits=False, max_walk_work=4e9, threads=None):
    """Every simple score and its components, the learned model's input: ``(names, X)``.

    The components are min / mean / max over the candidate of the linked pair weights, projected
    degrees, item counts and pairwise common-neighbour counts. With ``recency``, when the pairs
    met, which the simple scores ignore (min / mean / max over the linked pairs): ``recent_*``,
    the items of the last ``delta`` before the cut holding the pair; ``age_*``, the time from the
    pair's last item to the cut, in units of ``delta``; ``decayed_*`` and ``decayed_gm``, the
    pair's items weighted by :math:`e^{-(T - t) / \\delta}` (and their geometric mean).
    With ``orbits``, the graphlet degree vectors of the candidate's vertices: the 15 node orbit
    counts of the 4-vertex census (:func:`graphmine.orbit_counts`) of every vertex on the
    unweighted projected past graph, each orbit divided by its mean over the past's vertices, then
    min / mean / max over the candidate's vertices (:data:`ORBIT_FEATURES`, 45 columns, last).

    Parameters
    ----------
    task : ClosureTask
        The candidates and their past.
    walk : bool, default True
        Include Katz and PPR (when their work fits ``max_walk_work``).
    recency : bool, default True
        Include the recency features.
    orbits : bool, default False
        Include the graphlet-degree features. Opt-in: in the held-out comparison of
        docs/motifs.md (wedge closure on seven shipped graphs) they raised the learned
        predictor's AUC-PR on five graphs and lowered it on two (Router by 15 %).
    max_walk_work : float, default 4e9
        Most operations the walk scores may take; above it they are left out.
    {threads}

    Returns
    -------
    names : list of str
        Feature names.
    X : ndarray of float64 of shape (N, len(names))
        One row per candidate.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> ev = SimpleNamespace(item_ptr=np.array([0, 2, 4, 6, 9]), item_nodes=np.array([0, 1, 1, 2, 0, 2, 0, 1, 2]),
    ...                      times=np.array([1.0, 2, 3, 5]), n_nodes=3)
    >>> names, X = closure_features(closure_task(ev, cut=3, delta=2), walk=False)
    >>> X.shape, names[0]
    ((1, 30), 'harmonic_mean')
    >>> [float(X[0, names.index(c)]) for c in ("recent_min", "recent_max", "age_max")]   # pairs last met at 1, 2, 3
    [0.0, 1.0, 1.0]
    """
    nthreads = resolve_threads(threads)
    names = [s for s in CLOSURE_SCORES if s in _LOCAL_COL]
    local = _local(task, nthreads)
    cols = [local[:, _LOCAL_COL[s]] for s in names]
    names += list(_COMPONENTS)
    cols += [local[:, c] for c in range(_ck.W_MIN, _ck.N_LOCAL)]
    if recency:
        names += list(_RECENCY)
        R = _recency(task, nthreads)
        cols += [R[:, c] for c in range(R.shape[1])]
    if walk:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            w, skipped = _walk_scores(task, _WALK, max_walk_work)
        for s in _WALK:
            if s in w:
                names.append(s)
                cols.append(w[s])
    if orbits:
        names += list(ORBIT_FEATURES)
        O = _orbit_columns(task, nthreads)
        cols += [O[:, c] for c in range(O.shape[1])]
    return names, np.stack(cols, axis=1) if cols else np.zeros((task.tuples.shape[0], 0))


def evaluate_closure(labels, scores):
    """Average precision, its ratio to the positive rate and ROC AUC of one score.

    The ratio is Benson et al.'s "relative to random".

    Parameters
    ----------
    labels : array_like of 0/1 of shape (N,)
        Whether each candidate closes.
    scores : array_like of float of shape (N,)
        The candidates' scores.

    Returns
    -------
    dict
        ``{'auc_pr': float, 'auc_pr_ratio': float, 'roc_auc': float}``.

    Examples
    --------
    >>> evaluate_closure([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.9])
    {'auc_pr': 1.0, 'auc_pr_ratio': 4.0, 'roc_auc': 1.0}
    """
    y = np.asarray(labels)
    m = auc_ap(y, scores)
    rate = float((y == y.max()).mean())
    return {"auc_pr": m["ap"], "auc_pr_ratio": m["ap"] / rate, "roc_auc": m["auc"]}


# -- the learned model -----------------------------------------------------------------------------

def _log_features(X):
    return np.log1p(np.maximum(X, 0.0))


@fill_doc
class ClosureModel:
    """LightGBM (or a logistic regression) over the closure scores and their components.

    A small model (100 trees of 4 leaves, at least 100 candidates a leaf), its output constrained to
    grow with the pair-weight features: trained on one earlier window, it has to carry over to a
    later one, and larger, unconstrained models fitted that window's noise in our runs.

    ``kind='logistic'``: Benson et al.'s learned baseline instead, a logistic regression over
    the same features (log(1 + x), standardised).

    Parameters
    ----------
    n_estimators, learning_rate, num_leaves, min_child_samples : int, float, int, int
        LightGBM's settings (defaults 100, 0.05, 4, 100).
    walk : bool, default True
        Include Katz and PPR among the features (when their work fits ``max_walk_work``).
    recency : bool, default True
        Include the recency features of :func:`closure_features` (when the candidate's pairs met).
    orbits : bool, default False
        Include the graphlet-degree features of :func:`closure_features` (opt-in).
    max_walk_work : float, default 4e9
        Most operations the walk scores may take.
    seed : int, default 0
        Seed of the model.
    {threads}
    kind : {'lightgbm', 'logistic'}, default 'lightgbm'
        The learner.

    Attributes
    ----------
    model_ : lightgbm.LGBMClassifier (or a scikit-learn pipeline)
    feature_names_ : list of str
    train_window_ : (float, float)
        The training labels' window ``(cut', cut' + delta]``.

    Examples
    --------
    >>> import numpy as np
    >>> from graphmine.io.events import events_from_items
    >>> rng = np.random.default_rng(0)
    >>> items = [rng.choice(40, rng.integers(2, 4), replace=False).tolist() for _ in range(3000)]
    >>> ev = events_from_items(items, list(range(3000)))
    >>> train, test = closure_task(ev, 2000, 500), closure_task(ev, 2500, 500)
    >>> p = ClosureModel(seed=0, threads=1).fit(train).predict_proba(test)
    >>> p.shape == (test.tuples.shape[0],) and bool(((p > 0) & (p < 1)).all())
    True
    """

    def __init__(self, n_estimators=100, learning_rate=0.05, num_leaves=4, min_child_samples=100, walk=True,
                 max_walk_work=4e9, seed=0, threads=None, kind="lightgbm", recency=True, orbits=False):
        check_choice("kind", kind, CLOSURE_LEARNERS)
        self.kind = kind
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.min_child_samples = min_child_samples
        self.walk = walk
        self.recency = recency
        self.orbits = orbits
        self.max_walk_work = max_walk_work
        self.seed = seed
        self.threads = threads

    def _X(self, task):
        return closure_features(task, walk=self.walk, recency=self.recency, orbits=self.orbits,
                                max_walk_work=self.max_walk_work, threads=self.threads)

    def fit(self, task):
        """Train on ``task``'s candidates and labels (an earlier cut than any task it will score)."""
        from .._runtime.optional import require

        if self.kind == "lightgbm":
            require("lightgbm", what="the closure model (ClosureModel)")
        else:
            require("sklearn", what="the closure model (ClosureModel, kind='logistic')")
        if not isinstance(task, ClosureTask):
            raise ParameterError(f"fit needs a ClosureTask, got {type(task).__name__}")
        pos = int(task.labels.sum())
        if pos == 0 or pos == task.labels.size:
            raise GraphValueError(f"the training window ({task.cut}, {task.cut + task.delta}] gives {pos} closing and "
                                  f"{task.labels.size - pos} open candidates: the model needs both")
        names, X = self._X(task)
        self._fit_matrix(names, X, task.labels)
        self.train_window_ = (task.cut, task.cut + task.delta)
        return self

    def _fit_matrix(self, names, X, labels):
        """Fit on a feature matrix of :func:`closure_features` (columns ``names``)."""
        self.feature_names_ = names
        if self.kind == "logistic":
            from sklearn.linear_model import LogisticRegression
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import FunctionTransformer, StandardScaler

            # log scale (the scores span orders of magnitude), then standardised
            self.model_ = make_pipeline(FunctionTransformer(_log_features), StandardScaler(),
                                        LogisticRegression(C=1.0, max_iter=2000))
            self.model_.fit(X, labels.astype(np.int64))
            return self
        import lightgbm as lgb

        nthreads = resolve_threads(self.threads)
        self.model_ = lgb.LGBMClassifier(n_estimators=self.n_estimators, learning_rate=self.learning_rate,
                                         num_leaves=self.num_leaves, min_child_samples=self.min_child_samples,
                                         subsample=0.8, subsample_freq=1, colsample_bytree=0.8, reg_lambda=1.0,
                                         monotone_constraints=[_MONOTONE.get(n, 0) for n in names],
                                         random_state=int(self.seed), n_jobs=nthreads, verbose=-1)
        self.model_.fit(X, labels.astype(np.int64))
        return self

    def predict_proba(self, task):
        """Probability that each candidate of ``task`` closes. The task's past must reach the end of
        the training labels' window (``task.cut >= cut' + delta``): no label is seen twice."""
        if not hasattr(self, "model_"):
            raise ParameterError("ClosureModel is not fitted yet: call fit(task) first")
        if task.cut < self.train_window_[1]:
            raise ParameterError(f"the task's cut {task.cut} lies inside the training labels' window "
                                 f"({self.train_window_[0]}, {self.train_window_[1]}]: train at an earlier cut")
        names, X = self._X(task)
        if names != self.feature_names_:
            raise ParameterError(f"the task gives the features {', '.join(names)}; the model was trained on "
                                 f"{', '.join(self.feature_names_)} (a walk score was skipped in one of them)")
        if X.shape[0] == 0:
            return np.zeros(0)
        return self.model_.predict_proba(X)[:, 1]


# -- the whole experiment --------------------------------------------------------------------------

@restores_threads
@fill_doc
def predict_closure(events, cut=None, delta=None, *, motif="triangle", candidates="auto", closure="auto",
                    scores=CLOSURE_SCORES, model=True, recency=True, orbits=False, train_cut=None, select=True,
                    max_candidates=200_000, max_walk_work=4e9, seed=0, threads=None, verbose=False):
    """Score the candidates at ``cut`` with every simple score and the learned models; evaluate.

    The models (LightGBM and a logistic regression, :class:`ClosureModel`) train at ``train_cut``
    (default ``cut - delta``) with labels from ``(train_cut, train_cut + delta]``, which must end
    by ``cut``.

    With ``select`` the learned predictor (entry ``'learned'``) is chosen on the past alone by a
    rolling-origin check: both models are trained once more one window earlier (at
    ``train_cut - delta``) and scored on the training window's candidates beside every simple score,
    the rank average of the two models and that of the LightGBM model with the simple score best
    there. The best of the four learned candidates is kept unless the best simple score beats its
    AUC-PR there by more than the paired bootstrap SE of the difference; the choice is applied at
    ``cut`` (a model then being the one trained at ``train_cut``). Where the earlier window has no
    past, fewer than ``MIN_PROBE_POSITIVES`` (20) closing candidates or no open one, the check
    splits the training window's candidates into halves instead (models fitted on one, scored on the
    other).

    Parameters
    ----------
    events : TemporalEvents
        The timestamped items.
    cut, delta : float, optional
        The past is ``t <= cut``, labels come from ``(cut, cut + delta]`` (default:
        :func:`default_cut`).
    motif : {'triangle', 'clique4'}, default 'triangle'
        One of :data:`CLOSURE_MOTIFS`.
    candidates : {'auto', 'open', 'wedge'}, default 'auto'
        Triangle candidates: open triangles or wedges ('auto': open).
    closure : {'auto', 'simplex', 'edges'}, default 'auto'
        What counts as closing.
    scores : iterable of str, default CLOSURE_SCORES
        The simple scores to evaluate.
    model : bool, default True
        Train and evaluate the learned models (needs the ``ml`` extra).
    recency : bool, default True
        The models see when the candidates' pairs met (:func:`closure_features`).
    orbits : bool, default False
        The models see the graphlet degree vectors of the candidates' vertices
        (:func:`closure_features`; opt-in, see docs/motifs.md for the measured comparison).
    train_cut : float, optional
        Cut of the models' training window (default ``cut - delta``).
    select : bool, default True
        Choose the ``'learned'`` entry as described above.
    max_candidates : int, default 200000
        Sample the candidates down to about this many.
    max_walk_work : float, default 4e9
        Most operations the walk scores may take.
    seed : int, default 0
        Seed of the sample and the models.
    {threads}
    verbose : bool, default False
        Progress notes on stderr.

    Raises
    ------
    GraphValueError
        No candidates, or candidates of one class only, at ``cut``.

    Returns
    -------
    dict
        ``{'task': ClosureTask, 'train_task': ClosureTask or None, 'positive_rate': float,
        'scores': {name: {'auc_pr', 'auc_pr_ratio', 'roc_auc'}}, 'skipped': [str], 'seconds': {...},
        'selection': {'chosen', 'window', 'auc_pr_ratio': {candidate: value}} or None}``;
        the models' entries are ``'lightgbm'``, ``'logistic'``, ``'lightgbm+logistic'`` (the
        rank average of the two) and ``'learned'`` (the chosen one).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> sizes = rng.integers(2, 5, 3000)
    >>> ev = SimpleNamespace(item_ptr=np.concatenate(([0], np.cumsum(sizes))),
    ...                      item_nodes=rng.integers(0, 60, sizes.sum()), times=np.arange(3000.0), n_nodes=60)
    >>> r = predict_closure(ev, 2000, 500, model=False, scores=["arithmetic_mean"])
    >>> sorted(r["scores"]["arithmetic_mean"])
    ['auc_pr', 'auc_pr_ratio', 'roc_auc']
    """
    items = _as_items(events)
    if cut is None:
        cut, d = default_cut(items)
        delta = d if delta is None else delta
    if delta is None:
        delta = float(items.times[-1]) - float(cut)
    seconds = {}
    t0 = time.perf_counter()
    task = closure_task(items, cut, delta, motif=motif, candidates=candidates, closure=closure,
                        max_candidates=max_candidates, seed=seed, threads=threads)
    seconds["candidates"] = time.perf_counter() - t0
    pos = int(task.labels.sum())
    if pos == 0 or pos == task.labels.size:
        raise GraphValueError(f"at cut {cut} with delta {delta}: {task.labels.size} candidates, {pos} close in "
                              f"({cut}, {cut + delta}]: nothing to evaluate")
    if verbose:
        print(f"closure: {task.labels.size} candidates, {pos} close ({task.info['seconds']:.1f} s)",
              file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = closure_scores(task, scores, max_walk_work=max_walk_work, threads=threads)
    skipped = [str(w.message) for w in caught]
    seconds["scores"] = time.perf_counter() - t0
    result = {name: evaluate_closure(task.labels, v) for name, v in values.items()}
    train = None
    if model:
        t0 = time.perf_counter()
        train_cut = cut - delta if train_cut is None else train_cut
        if train_cut + delta > cut:
            raise ParameterError(f"train_cut + delta = {train_cut + delta} passes the cut {cut}: the training labels "
                                 f"would overlap the test's")
        train = closure_task(items, train_cut, delta, motif=motif, candidates=candidates, closure=closure,
                             max_candidates=max_candidates, seed=seed, threads=threads)
        walk = all(s in values for s in _WALK)
        learned = {}
        for kind in CLOSURE_LEARNERS:
            m = ClosureModel(walk=walk, recency=recency, orbits=orbits, max_walk_work=max_walk_work, seed=seed,
                             threads=threads, kind=kind).fit(train)
            learned[kind] = m.predict_proba(task)
            result[kind] = evaluate_closure(task.labels, learned[kind])
        result[_BOTH] = evaluate_closure(task.labels, _apply_choice(_BOTH, learned, values))
        seconds["model"] = time.perf_counter() - t0
        selection = None
        if select:
            t0 = time.perf_counter()
            selection = _select_learner(items, train, train_cut - delta, delta, motif, candidates, closure,
                                        max_candidates, max_walk_work, walk, recency,
                                        [s for s in scores if s in values], seed, threads, orbits)
            seconds["selection"] = time.perf_counter() - t0
        chosen = "lightgbm" if selection is None else selection["chosen"]
        result["learned"] = evaluate_closure(task.labels, _apply_choice(chosen, learned, values))
    return {"task": task, "train_task": train, "positive_rate": task.positive_rate, "scores": result,
            "skipped": skipped, "seconds": seconds, "selection": selection if model else None}


def _apply_choice(chosen, learned, singles):
    """The scores of a chosen predictor: a model's, a simple score's, or '<model>+<model or score>'
    (the sum of their ranks)."""
    from scipy.stats import rankdata

    if chosen in learned:
        return learned[chosen]
    if chosen in singles:
        return singles[chosen]
    model, other = chosen.split("+", 1)
    return rankdata(learned[model]) + rankdata(learned[other] if other in learned else singles[other])


def _ap_boot(labels, scores, n_boot, rng):
    """Average precision of every score vector on stratified bootstrap resamples (paired):
    ndarray (n_boot, len(scores)); ties are broken by position (as in one sort)."""
    y = np.asarray(labels) == 1
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    orders = [np.argsort(-np.asarray(s, np.float64), kind="stable") for s in scores]
    out = np.empty((n_boot, len(scores)))
    for b in range(n_boot):
        w = (np.bincount(rng.choice(pos, pos.size), minlength=y.size)
             + np.bincount(rng.choice(neg, neg.size), minlength=y.size)).astype(np.float64)
        for k, o in enumerate(orders):
            wo, yo = w[o], y[o]
            tp = np.cumsum(wo * yo)
            allc = np.cumsum(wo)
            out[b, k] = float((wo * yo * tp / np.maximum(allc, 1e-300)).sum() / max(tp[-1], 1e-300))
    return out


def _select_learner(items, train, probe_cut, delta, motif, candidates, closure, max_candidates, max_walk_work, walk,
                    recency, names, seed, threads, orbits=False):
    """The past-only choice of the learned predictor (see :func:`predict_closure`), or None.

    Rolling origin where an earlier window exists (models trained at ``probe_cut``, scored on the
    training window); otherwise the training window's candidates split in two halves (models fitted
    on one, scored on the other). The best learned candidate (LightGBM, logistic regression, the
    rank average of the two, LightGBM ranked with the best simple score) is kept unless the best
    simple score beats it there by more than the paired bootstrap SE of the difference."""
    import warnings

    if train.labels.sum() == 0 or train.labels.sum() == train.labels.size:
        return None
    rng = check_seed(seed)
    learned = {}
    probe = None
    if probe_cut > float(items.times[0]):
        probe = closure_task(items, probe_cut, delta, motif=motif, candidates=candidates, closure=closure,
                             max_candidates=max_candidates, seed=seed, threads=threads)
        pos = int(probe.labels.sum())
        if pos < MIN_PROBE_POSITIVES or pos == probe.labels.size:
            probe = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        singles = closure_scores(train, names, max_walk_work=max_walk_work, threads=threads)
    rows = np.arange(train.labels.size)
    if probe is not None:
        try:
            for kind in CLOSURE_LEARNERS:
                m = ClosureModel(walk=walk, recency=recency, orbits=orbits, max_walk_work=max_walk_work, seed=seed,
                                 threads=threads, kind=kind)
                learned[kind] = m.fit(probe).predict_proba(train)
        except ParameterError:   # a walk score skipped on one window only: the features differ
            probe = None
    if probe is None:
        # no usable earlier window: two halves of the training window's candidates
        half = rng.random(train.labels.size) < 0.5
        fit_rows, rows = np.flatnonzero(half), np.flatnonzero(~half)
        y = train.labels
        if min(y[fit_rows].sum(), y[rows].sum()) == 0 or y[fit_rows].all() or y[rows].all():
            return None
        fnames, X = closure_features(train, walk=walk, recency=recency, orbits=orbits, max_walk_work=max_walk_work,
                                     threads=threads)
        for kind in CLOSURE_LEARNERS:
            m = ClosureModel(walk=walk, recency=recency, orbits=orbits, max_walk_work=max_walk_work, seed=seed,
                             threads=threads, kind=kind)
            learned[kind] = m._fit_matrix(fnames, X[fit_rows], y[fit_rows]).model_.predict_proba(X[rows])[:, 1]
        singles = {k: v[rows] for k, v in singles.items()}
    y = train.labels[rows]
    ratio = {k: evaluate_closure(y, v)["auc_pr_ratio"] for k, v in {**learned, **singles}.items()}
    best_single = max(singles, key=ratio.get)
    mix = f"lightgbm+{best_single}"
    cand = {**learned, **{c: _apply_choice(c, learned, singles) for c in (_BOTH, mix)}}
    for c in (_BOTH, mix):
        ratio[c] = evaluate_closure(y, cand[c])["auc_pr_ratio"]
    best_model = max(cand, key=ratio.get)   # ties: LightGBM (first)
    boot = _ap_boot(y, [cand[best_model], singles[best_single]], 100, rng)
    se = float((boot[:, 1] - boot[:, 0]).std(ddof=1)) / max(float(y.mean()), 1e-300)   # on the ratio's scale
    chosen = best_single if ratio[best_single] - ratio[best_model] > se else best_model
    return {"chosen": chosen, "check": "rolling origin" if probe is not None else "split halves",
            "window": (float(probe_cut), float(probe_cut + delta)) if probe is not None else
            (float(train.cut), float(train.cut + train.delta)),
            "auc_pr_ratio": ratio, "se_single_vs_model": se,
            "probe_candidates": int(probe.labels.size) if probe is not None else int(rows.size),
            "probe_positives": int(probe.labels.sum()) if probe is not None else int(y.sum())}
