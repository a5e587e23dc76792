"""The graphlet census on the CPU: orbit counts per vertex and per edge, global graphlet counts,
exact and from 3-path samples.

Exact counts (Hočevar and Demšar's combinatorial approach). For every vertex v (edge e) the
number of *non-induced* copies of each connected pattern on up to 4 vertices with v (e) in a
given orbit is a short formula in degrees, triangle counts and three counts that need a listing:
4-cycles and 4-cliques through v (e), and the sum over the triangles at v of the triangle count
of the opposite edge (:mod:`graphmine.graphlets._kernels`). With :math:`d` degrees,
:math:`t_{va}` the triangles on edge va, :math:`t_v` those at v and :math:`s_v = \\sum_{a \\sim v}
(d_a - 1)`, the per-vertex patterns are

=====  =======================  =========================================================
orbit  pattern, position of v   non-induced copies :math:`N_o(v)`
=====  =======================  =========================================================
0      edge                     :math:`d_v`
1, 2   2-path: end, middle      :math:`s_v`, :math:`\\binom{d_v}{2}`
3      triangle                 :math:`t_v`
4, 5   3-path: end, middle      :math:`\\sum_a s_a - d_v(d_v - 1) - 2t_v`, :math:`(d_v - 1)s_v - 2t_v`
6, 7   3-star: leaf, centre     :math:`\\sum_a \\binom{d_a - 1}{2}`, :math:`\\binom{d_v}{3}`
8      4-cycle                  4-cycles through v
9      paw: tail end            :math:`\\sum_a (t_a - t_{va})`
10     paw: triangle, degree 2  :math:`\\sum_a t_{va}(d_a - 2)`
11     paw: centre              :math:`t_v (d_v - 2)`
12     diamond: degree 2        :math:`\\sum_{\\triangle vab} (t_{ab} - 1)`
13     diamond: degree 3        :math:`\\sum_a \\binom{t_{va}}{2}`
14     4-clique                 4-cliques through v
=====  =======================  =========================================================

(sums over the neighbours a of v). A copy of pattern o lies inside exactly one induced
connected graphlet on its vertex set, and an induced graphlet o' holds a fixed number
:math:`c_{oo'}` of copies of pattern o with v in orbit o (:data:`NODE_PATTERNS`), so
:math:`N(v) = C\\,O(v)` with C unit upper triangular when the orbits are ordered by edge count;
the induced counts are :math:`O(v) = C^{-1} N(v)`, exactly, in integers. The per-edge counts
(:data:`EDGE_PATTERNS`) follow the same way.

Estimates (Jha, Seshadhri and Pinar's 3-path sampling): a 3-path a - u - v - b is drawn
uniformly from the :math:`\\sum_{uv} (d_u - 1)(d_v - 1)` triples (middle edge, a neighbour of
each end other than the other end; a = b closes a triangle and is drawn again), so uniformly
from the :math:`W = \\sum_{uv} (d_u - 1)(d_v - 1) - 3T` 3-paths (T the exact triangle count),
and the induced graphlet on {a, u, v, b} is classified. A graphlet H with :math:`c_H` 3-paths
(path 1, 4-cycle 4, paw 2, diamond 6, 4-clique 12) is counted :math:`W \\hat p_H / c_H`,
unbiased, with the multinomial variance; the 3-star (no 3-path) follows from the exact
:math:`\\sum_v \\binom{d_v}{3}` less its copies in the others.
"""

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from .._runtime.docs import fill_doc
from .._runtime.interrupt import cancel_flag, check as _check_interrupt, interruptible
from .._runtime.lazy import lazy_module
from .._runtime.limits import check_allocation
from .._runtime.progress import progress_bar
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError, check_choice, check_int
from ..core.registry import call, implements
from ..core.validation import as_graph
from ._census5 import (GRAPHLET_NAMES5, GRAPHLET_ORBITS5, GRAPHLET_PATTERNS5, NODE_ORBITS5, ORBIT_SIZES5,
                       census5 as _census5, sample5 as _sample5_rows)

__all__ = ["orbit_counts", "graphlet_counts", "sample_graphlet_counts", "GraphletEstimate", "GRAPHLET_NAMES",
           "GRAPHLET_ORBITS", "ORBIT_SIZES", "NODE_ORBIT_COUNTS", "EDGE_ORBIT_COUNTS", "NODE_PATTERNS", "EDGE_PATTERNS",
           "THREE_PATHS"]


@lazy_module
def _gk():
    # numba loads with the first count, not with the family
    from . import _kernels

    return _kernels


#: the connected graphlets on 2 to 4 vertices in Pržulj's numbering (G0..G8), ORCA's too
GRAPHLET_NAMES = ("edge", "2-path", "triangle", "3-path", "3-star", "4-cycle", "paw", "diamond", "4-clique")
#: the node orbits of each graphlet (ORCA's numbering: 0 the degree, 1..3 on 3 vertices, 4..14 on 4)
GRAPHLET_ORBITS = ((0,), (1, 2), (3,), (4, 5), (6, 7), (8,), (9, 10, 11), (12, 13), (14,))
#: node orbits up to 3 and 4 vertices
NODE_ORBIT_COUNTS = {3: 4, 4: 15}
# Below this many edges the census runs its serial kernel at any thread count. Lower than the
# core's SERIAL_EDGES: quiet, 2 threads took ca-HepTh (25,973 edges) from 8.1 to 6.3 ms, and gave
# nothing on ca-GrQc (14,484 edges: 4.5 ms either way).
_CENSUS_SERIAL_EDGES = 20_000
#: edge orbits up to 3 and 4 vertices (ORCA's numbering: 0 2-path, 1 triangle, 2..11 on 4 vertices)
EDGE_ORBIT_COUNTS = {3: 2, 4: 12}

#: NODE_PATTERNS[o][o2]: copies of orbit o's pattern, with the vertex in orbit o, inside the induced
#: graphlet of orbit o2 with the vertex in orbit o2 (the census's matrix C; tests/graphlets derives it)
NODE_PATTERNS = (
    (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 1, 0, 0, 0, 2, 2, 1, 0, 4, 2, 6),
    (0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1, 2, 2, 4, 6),
    (0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 2, 1, 3),
    (0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 3),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 3),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 2, 6),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 3),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
)
#: EDGE_PATTERNS[o][o2]: the same for edge orbits (0 2-path, 1 triangle, 2 3-path end, 3 3-path
#: middle, 4 3-star, 5 4-cycle, 6 paw tail, 7 paw edge opposite the centre, 8 paw centre-triangle,
#: 9 diamond rim, 10 diamond diagonal, 11 4-clique)
EDGE_PATTERNS = (
    (1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 1, 0, 0, 2, 2, 2, 0, 3, 0, 4),
    (0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 2, 2),
    (0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 2, 2),
    (0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2),
    (0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 2),
    (0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 2),
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 4, 4),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 4),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
)
#: the 3-paths (non-induced) in each 4-vertex graphlet G3..G8
THREE_PATHS = (1, 0, 4, 2, 6, 12)

#: the vertices of its graphlet that each node orbit holds
ORBIT_SIZES = (2, 2, 1, 3, 2, 2, 3, 1, 4, 1, 2, 1, 2, 2, 4)
# the 5-vertex graphlets G9..G29 and their node orbits 15..72 follow (graphmine/graphlets/_census5.py)
GRAPHLET_NAMES += GRAPHLET_NAMES5
GRAPHLET_ORBITS += GRAPHLET_ORBITS5
ORBIT_SIZES += ORBIT_SIZES5
NODE_ORBIT_COUNTS[5] = NODE_ORBITS5
# columns of the full census
NODE_ORBITS = 15
EDGE_ORBITS = 12
# each vertex's chunks of work claimed from a shared counter: enough that hubs do not hold up a thread
_CHUNKS_PER_THREAD = 64
# the batches of chunks between two progress updates (and interrupt checks)
_BATCHES = 16


def _inverse(patterns):
    """The integer inverse of a unit upper-triangular matrix (back substitution, exact)."""
    C = np.array(patterns, np.int64)
    k = C.shape[0]
    inv = np.eye(k, dtype=np.int64)
    for i in range(k - 1, -1, -1):
        for j in range(i + 1, k):
            inv[i] -= C[i, j] * inv[j]
    return inv


def _check_size(size, allowed=(3, 4)):
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or int(size) not in allowed:
        raise ParameterError(f"size must be one of {', '.join(map(str, allowed))} (graphlets on up to that many "
                             f"vertices), got {size!r}")
    return int(size)


def _rank_space(G):
    """The degree-ordered relabelling of G with edge ids (cached on the graph): (rp, ri, reid, split,
    orig) as :func:`graphmine.graphlets._kernels._rank_space` makes them; ranked by (degree, id),
    the order of Graph.oriented('degree'), so that out-degrees are at most sqrt(2m)."""
    cache = G.backend_cache("graphlets")
    if "rank_space" not in cache:
        cache["rank_space"] = _gk._rank_space(G.indptr, G.indices)
    return cache["rank_space"]


def _census(G, edges, nthreads, progress):
    """The (n, 15) node or (m, 12) edge orbit counts of the 4-vertex census."""
    n, m = G.n_nodes, G.n_edges
    length = m if edges else n
    # per thread: 3 counters per vertex (edge) and 3 int32 scratch rows; the relabelled CSR with edge
    # ids (12 bytes a slot), t(e) (and a degree sum), the result
    check_allocation(8 * (3 * nthreads * length + 2 * nthreads * n + 3 * m + (2 if edges else 1) * m + 3 * n)
                     + 8 * length * (EDGE_ORBITS if edges else NODE_ORBITS),
                     f"the 4-vertex {'edge' if edges else 'node'} orbit census on {nthreads} threads",
                     "use fewer threads")
    rp, ri, reid, split, orig = _rank_space(G)
    maxout = max(1, int((rp[1:] - split).max()))
    inv = _inverse(EDGE_PATTERNS if edges else NODE_PATTERNS)
    minv = np.array([(i, j, inv[i, j]) for i, j in zip(*np.nonzero(inv))], np.int64)  # by row: the kernels' form
    if m < _CENSUS_SERIAL_EDGES:  # one thread finishes before a thread pool would wake up
        return _gk._census_serial(rp, ri, reid, split, orig, edges, minv, maxout)
    tri = np.zeros(m, np.int64)
    dsum = np.zeros(m if edges else 0, np.int64)
    buf = np.zeros((nthreads, 3, length), np.int64)
    scratch = np.empty((nthreads, 3, n), np.int32)
    scratch[:, 0] = -1
    scratch[:, 1] = 0
    bits = np.empty((nthreads, maxout, (maxout + 63) >> 6), np.uint64)
    tl = np.empty((nthreads, maxout), np.int64)
    # chunks of about equal numbers of arcs (a hub may be a chunk of its own)
    nchunks = max(1, min(n, _CHUNKS_PER_THREAD * nthreads))
    bounds = np.searchsorted(rp, np.linspace(0, rp[-1], nchunks + 1).astype(np.int64))
    bounds[0], bounds[-1] = 0, n
    bounds = np.unique(bounds)
    nchunks = bounds.shape[0] - 1
    cancel = cancel_flag()
    with progress_bar(progress, 2 * nchunks, f"4-vertex {'edge' if edges else 'node'} orbits",
                      unit="chunk") as bar:
        # one parallel region per pass unless a bar is shown: each region's start and join cost
        # more than the work of a small graph's batch, and far more on a busy machine (the kernels
        # poll the cancel flag between chunks either way)
        batches = 1 if bar.disable else min(_BATCHES, nchunks)
        steps = np.unique(np.linspace(0, nchunks, batches + 1).astype(np.int64))
        for phase in (1, 2):
            for c0, c1 in zip(steps[:-1], steps[1:]):
                _gk._census_pass(phase, c0, c1, bounds, rp, ri, reid, split, tri, dsum, buf, scratch, bits, tl, edges,
                                 nthreads, cancel)
                _check_interrupt()
                bar.update(int(c1 - c0))
    return _gk._census_finish(rp, ri, reid, split, orig, tri, dsum, buf, edges, minv, nthreads)


def _node_rows5(G, nthreads, progress):
    """The (n, 73) node orbit counts up to 5 vertices: orbits 0..14 from the 4-vertex census."""
    rows4 = _census(G, False, nthreads, False) if G.n_edges else np.zeros((G.n_nodes, NODE_ORBITS), np.int64)
    return _census5(G, nthreads, progress, _rank_space, rows4)


@implements("orbit_counts", "cpu")
@interruptible
@restores_threads
@fill_doc
def orbit_counts(G, size=4, *, kind="node", threads=None, progress=False):
    """Orbit counts of every vertex or edge (exact, CPU); see :func:`graphmine.orbit_counts`.

    {Parameters: G}
    size : {3, 4, 5}
        Graphlets on up to this many vertices (edge orbits: 3 and 4).
    kind : {'node', 'edge'}
        Orbits of vertices or of edges.
    {threads}
    progress : bool
        Show a progress bar on stderr.

    Returns
    -------
    ndarray of int64 of shape (n, 4, 15 or 73) or (m, 2 or 12)
        Row v (row i: edge i of ``G.edges()``), column o: the count of orbit o.

    Examples
    --------
    >>> import networkx as nx
    >>> orbit_counts(nx.complete_graph(4))[0].tolist()
    [3, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    size = _check_size(size, (3, 4, 5))
    if kind not in ("node", "edge"):
        raise ParameterError(f"kind must be 'node' or 'edge', got {kind!r}")
    if size == 5 and kind == "edge":
        raise ParameterError("edge orbits are counted for size 3 and 4 only; size 5 gives node orbits (kind='node')")
    G = as_graph(G)
    edges = kind == "edge"
    nthreads = resolve_threads(threads)
    if size == 5:
        return _node_rows5(G, nthreads, progress)
    if (G.n_edges if edges else G.n_nodes) == 0:
        out = np.zeros((0, EDGE_ORBITS if edges else NODE_ORBITS), np.int64)
    else:
        out = _census(G, edges, nthreads, progress)
    return out[:, :(EDGE_ORBIT_COUNTS if edges else NODE_ORBIT_COUNTS)[size]]


def _non_induced(counts):
    """Global non-induced counts (copies of each graphlet as a subgraph) from the induced ones."""
    counts = np.asarray(counts, np.int64)
    k = counts.shape[0]
    if k > 9:  # the 5-vertex graphlets' map is a block of its own
        return np.concatenate([_graphlet_patterns() @ counts[:9], np.array(GRAPHLET_PATTERNS5, np.int64) @ counts[9:]])
    return _graphlet_patterns()[:k, :k] @ counts


def _graphlet_patterns():
    """P[h][g]: copies (as subgraphs on the same vertices) of graphlet h in graphlet g, G0..G8."""
    C = np.array(NODE_PATTERNS, np.int64)
    P = np.zeros((9, 9), np.int64)
    sizes = (2, 3, 3, 4, 4, 4, 4, 4, 4)
    for h, oh in enumerate(GRAPHLET_ORBITS[:9]):
        for g, og in enumerate(GRAPHLET_ORBITS[:9]):
            if sizes[h] != sizes[g]:
                continue  # copies of a smaller graphlet are not spanning: not part of the census map
            # copies with a vertex in h's first orbit, summed over g's vertices, over that orbit's size
            total = sum(C[oh[0], o] * ORBIT_SIZES[o] for o in og)
            P[h, g] = total // ORBIT_SIZES[oh[0]]
    return P


@implements("graphlet_counts", "cpu")
@interruptible
@restores_threads
@fill_doc
def graphlet_counts(G, size=4, *, induced=True, threads=None, progress=False):
    """Counts of every connected graphlet on 2 to ``size`` vertices (exact, CPU); see
    :func:`graphmine.graphlet_counts`.

    {Parameters: G}
    size : {3, 4, 5}
    induced : bool
        Induced counts (default) or copies as subgraphs.
    {threads}
    progress : bool
        Show a progress bar on stderr.

    Returns
    -------
    ndarray of int64 of shape (3,), (9,) or (30,)
        Entry g: the count of graphlet G_g (:data:`GRAPHLET_NAMES`).

    Examples
    --------
    >>> import networkx as nx
    >>> graphlet_counts(nx.complete_graph(4)).tolist()
    [6, 0, 4, 0, 0, 0, 0, 0, 1]
    """
    size = _check_size(size, (3, 4, 5))
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    k = {3: 3, 4: 9, 5: 30}[size]
    if size == 3:
        d = G.degree.astype(np.int64)
        tri = int(call("count_triangles", G, threads=threads)) if G.n_edges else 0
        counts = np.array([G.n_edges, int((d * (d - 1) // 2).sum()) - 3 * tri, tri], np.int64)
    elif G.n_edges == 0:
        counts = np.zeros(k, np.int64)
    else:
        rows = _census(G, False, nthreads, progress) if size == 4 else _node_rows5(G, nthreads, progress)
        sums = rows.sum(axis=0)
        counts = np.array([sums[orbits[0]] // ORBIT_SIZES[orbits[0]] for orbits in GRAPHLET_ORBITS[:k]], np.int64)
    return counts if induced else _non_induced(counts)


@dataclass(frozen=True)
class GraphletEstimate:
    """Estimated graphlet counts with their standard errors and confidence intervals.

    ``numpy.asarray(result)`` gives the estimates. Counts computed exactly (the edges and the
    3-vertex graphlets) have a standard error of 0.

    Attributes
    ----------
    estimate : ndarray of float64
        Entry g: the estimated count of graphlet G_g (:data:`GRAPHLET_NAMES`).
    stderr : ndarray of float64
        Their standard errors.
    ci_low, ci_high : ndarray of float64
        Bounds of the confidence intervals at level ``confidence``: Wilson's score interval of
        the sampled proportion for the graphlets estimated from one proportion (induced 3-path,
        4-cycle, paw, diamond, 4-clique), the normal interval for the other 4-vertex ones, and
        Student's t interval for G9..G29 (degrees of freedom: the draws less the fitted terms),
        or with ``sampler='trees'`` Wilson's interval of each graphlet's pooled hit proportion
        (induced; the normal interval for copies).
    confidence : float
        The intervals' level.
    samples : int
        The 3-paths drawn (4-vertex estimate), the vertices (5-vertex) or the spanning trees
        (5-vertex, ``sampler='trees'``).
    seed : int
        The seed that reproduces them.
    induced : bool
        Induced counts or copies as subgraphs.

    Examples
    --------
    >>> import numpy as np
    >>> e = GraphletEstimate(np.array([3.0]), np.array([0.0]), np.array([3.0]), np.array([3.0]), 0.95,
    ...                      100, 7, True)
    >>> np.asarray(e).tolist(), e.to_dict()["seed"]
    ([3.0], 7)
    """

    estimate: np.ndarray
    stderr: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    confidence: float
    samples: int
    seed: int
    induced: bool

    def __array__(self, dtype=None, copy=None):
        return self.estimate if dtype is None else self.estimate.astype(dtype)

    def __len__(self):
        return self.estimate.shape[0]

    def to_dict(self):
        """JSON-serialisable form (arrays as lists)."""
        return {"estimate": self.estimate.tolist(), "stderr": self.stderr.tolist(), "ci_low": self.ci_low.tolist(),
                "ci_high": self.ci_high.tolist(), "confidence": self.confidence, "samples": self.samples,
                "seed": self.seed, "induced": self.induced, "graphlets": list(GRAPHLET_NAMES[:len(self)])}


def _wilson(hits, s, z):
    """Wilson's score interval of a binomial proportion."""
    p = hits / s
    centre = (p + z * z / (2 * s)) / (1 + z * z / s)
    half = z * np.sqrt(p * (1 - p) / s + z * z / (4 * s * s)) / (1 + z * z / s)
    return np.maximum(centre - half, 0.0), np.minimum(centre + half, 1.0)


# the largest number of 3-paths drawn in one call (memory and time are those of the draws only)
DEFAULT_SAMPLES = 1_000_000
# the vertices drawn for the 5-vertex estimate
DEFAULT_VERTEX_SAMPLES = 1_000
# the spanning trees drawn for the 5-vertex estimate with sampler='trees'
DEFAULT_TREE_SAMPLES = 1_000_000


def _joined5(exact, est, cov, induced):
    """G0..G8 exact and the estimates of G9..G29 with their covariance ``cov`` as one vector of
    30 counts and standard errors, induced or (the census map applied) copies."""
    full = np.concatenate([exact, est])
    full_cov = np.zeros((30, 30))
    full_cov[9:, 9:] = cov
    if not induced:
        P = np.zeros((30, 30))
        P[:9, :9] = _graphlet_patterns()
        P[9:, 9:] = GRAPHLET_PATTERNS5
        full = P @ full
        full_cov = P @ full_cov @ P.T
    return full, np.sqrt(np.maximum(np.diag(full_cov), 0.0))


def _sample5(G, samples, seed, induced, confidence, nthreads):
    """The 5-vertex estimate: G0..G8 exact, G9..G29 from drawn vertices, Student's t intervals."""
    df = 0
    if G.n_edges == 0:
        exact, est, cov = np.zeros(9), np.zeros(21), np.zeros((21, 21))
    else:
        rows4 = _census(G, False, nthreads, False)
        sums = rows4.sum(axis=0)
        exact = np.array([sums[o[0]] // ORBIT_SIZES[o[0]] for o in GRAPHLET_ORBITS[:9]], np.float64)
        est, cov, df, _ = _sample5_rows(G, nthreads, samples, seed, _rank_space, rows4)
    full, stderr = _joined5(exact, est, cov, induced)
    if df > 0:
        from scipy.special import stdtrit  # the t quantile: the draws' spread is itself estimated

        z = float(stdtrit(df, (1 + confidence) / 2))
    else:
        z = NormalDist().inv_cdf((1 + confidence) / 2)
    return GraphletEstimate(full, stderr, np.maximum(full - z * stderr, 0.0), full + z * stderr, float(confidence),
                            samples, int(seed), bool(induced))


def _exact4(G, nthreads):
    """G0..G8 exactly (float64) from the 4-vertex census."""
    if G.n_edges == 0:
        return np.zeros(9)
    sums = _census(G, False, nthreads, False).sum(axis=0)
    return np.array([sums[o[0]] // ORBIT_SIZES[o[0]] for o in GRAPHLET_ORBITS[:9]], np.float64)


def _sample5_trees(G, samples, seed, induced, confidence, nthreads):
    """The 5-vertex estimate from spanning trees: G0..G8 exact, G9..G29 from ``samples`` drawn
    copies of the 4-path, fork and 4-star (:mod:`graphmine.graphlets._trees5`); Wilson's interval
    of each graphlet's pooled hit proportion (induced), the normal interval (non-induced)."""
    from ._trees5 import sample_trees5

    exact = _exact4(G, nthreads)
    est, cov, pooled, draws, scale = sample_trees5(G, samples, seed, nthreads)[:5]
    full, stderr = _joined5(exact, est, cov, induced)
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    lo = np.maximum(full - z * stderr, 0.0)
    hi = full + z * stderr
    if induced:
        # the pooled hits' variance is at most the binomial one of their pooled proportion (the
        # types' rates differ): Wilson's interval of that proportion, conservative, not empty at 0 hits
        live = draws > 0
        wl, wh = _wilson(pooled[live], draws[live], z)
        lo[9:][live] = wl * draws[live] * scale[live]
        hi[9:][live] = wh * draws[live] * scale[live]
    return GraphletEstimate(full, stderr, lo, hi, float(confidence), samples, int(seed), bool(induced))


@interruptible
@restores_threads
@fill_doc
def sample_graphlet_counts(G, size=4, *, samples=None, seed=None, induced=True, confidence=0.95, threads=None,
                           sampler=None):
    """Graphlet counts estimated from uniformly drawn 3-paths (size 4), or from drawn spanning trees
    or the exact orbit counts of drawn vertices (size 5); see :func:`graphmine.graphlet_counts`.

    {Parameters: G}
    size : {4, 5}
    samples : int, optional
        3-paths to draw (size 4, default 1,000,000), or spanning trees (size 5, default
        1,000,000), or vertices (size 5 with ``sampler='vertices'``, default 1,000: those
        that would be drawn for certain, the hubs, counted exactly, the others drawn with
        replacement from a mixture of three weights (1 + the sum of the neighbours' degrees, the
        4-stars and the triangle-and-pair shapes at the vertex) and combined by a regression
        estimator with the mixture's shares as control variates;
        :func:`graphmine.graphlets._census5.sample5`).
    seed : int, optional
        Seed of the draws (default: drawn from fresh entropy and reported in the result).
    induced : bool
    confidence : float
        Level of the intervals, in (0, 1).
    {threads}
    sampler : {'trees', 'vertices'}, optional
        Size 5: drawn copies of the three spanning trees of 5 vertices
        (:mod:`graphmine.graphlets._trees5`; the default), or the exact orbit counts of drawn
        vertices.

    Returns
    -------
    GraphletEstimate
        The estimates of G0..G8 (G0..G2, the edges, 2-paths and triangles, exact), or of G0..G29
        (G0..G8 exact, Student's t intervals for G9..G29).

    Examples
    --------
    >>> import networkx as nx
    >>> e = sample_graphlet_counts(nx.complete_graph(5), samples=1000, seed=1)
    >>> float(e.estimate[8]), float(e.stderr[8])  # every 3-path of K5 spans a 4-clique: no error
    (5.0, 0.0)
    """
    size = _check_size(size, (4, 5))
    if sampler is not None:
        check_choice("sampler", sampler, ("vertices", "trees"))
        if size != 5:
            raise ParameterError(f"sampler chooses the 5-vertex estimate: give size=5, not {size!r}")
    trees = size == 5 and sampler in (None, "trees")
    samples = (DEFAULT_SAMPLES if size == 4 else DEFAULT_TREE_SAMPLES if trees else DEFAULT_VERTEX_SAMPLES) \
        if samples is None else check_int("samples", samples, 1)
    if not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise ParameterError(f"confidence must lie in (0, 1), got {confidence!r}")
    # drawn here when not given, so that the result can say it and the run be repeated
    seed = int(np.random.SeedSequence().entropy % (2 ** 63)) if seed is None else check_int("seed", seed, 0)
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    if trees:
        return _sample5_trees(G, samples, seed, induced, confidence, nthreads)
    if size == 5:
        return _sample5(G, samples, seed, induced, confidence, nthreads)
    d = G.degree.astype(np.int64)
    m = G.n_edges
    tri = int(call("count_triangles", G, threads=threads)) if m else 0
    exact = np.array([m, int((d * (d - 1) // 2).sum()) - 3 * tri, tri], np.float64)
    E = G.edges()
    w = (d[E[:, 0]] - 1) * (d[E[:, 1]] - 1)
    W = int(w.sum()) - 3 * tri  # the 3-paths: every triangle closes three of the drawn triples
    est = np.zeros(6)  # 3-path, 3-star, 4-cycle, paw, diamond, 4-clique
    cov = np.zeros((6, 6))
    hits = np.zeros(6, np.int64)
    if W > 0:
        cumw = np.cumsum(w)
        parts = _gk._sample_three_paths(G.indptr, G.indices, E[:, 0].copy(), E[:, 1].copy(), cumw, samples,
                                        np.uint64(seed % (2 ** 64)), nthreads)
        got = parts.sum(axis=0)  # redrawn, 3-path, 4-cycle, paw, diamond, 4-clique
        hits = np.array([got[1], 0, got[2], got[3], got[4], got[5]], np.int64)
    # estimates of the five graphlets with 3-paths: W p_H / c_H; the 3-star from the exact star count
    scale = np.array([W / c if c else 0.0 for c in THREE_PATHS])
    p = hits / samples
    direct = scale * p
    sigma = (np.diag(p) - np.outer(p, p)) / samples  # multinomial covariance of the proportions
    A = np.eye(6)
    stars = float((d * (d - 1) * (d - 2) // 6).sum())
    # 3-stars = sum C(d, 3) - paw - 2 diamond - 4 4-clique (their 3-stars)
    A[1] = 0.0
    A[1, 3], A[1, 4], A[1, 5] = -1.0, -2.0, -4.0
    S = np.diag(scale)
    est = A @ direct
    est[1] += stars
    cov = A @ S @ sigma @ S @ A.T
    full = np.concatenate([exact, est])
    full_cov = np.zeros((9, 9))
    full_cov[3:, 3:] = cov
    if not induced:
        P = _graphlet_patterns().astype(np.float64)
        full = P @ full
        full_cov = P @ full_cov @ P.T
    stderr = np.sqrt(np.maximum(np.diag(full_cov), 0.0))
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    lo = np.maximum(full - z * stderr, 0.0)
    hi = full + z * stderr
    if induced:
        wl, wh = _wilson(hits, samples, z)
        for j in (0, 2, 3, 4, 5):
            lo[3 + j], hi[3 + j] = scale[j] * wl[j], scale[j] * wh[j]
    return GraphletEstimate(full, stderr, lo, hi, float(confidence), samples, int(seed), bool(induced))
