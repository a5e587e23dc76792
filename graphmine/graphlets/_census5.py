"""The 5-vertex node-orbit census on the CPU (orbits 15..72 in ORCA's numbering; orbits 0..14 come
from the 4-vertex census).

Method (Hočevar and Demšar 2014). For every vertex x the connected induced 4-vertex sets around
x are listed by x's 4-vertex orbit; each adds, to a counter named after a 5-vertex orbit, how
many fifth vertices w attach to a given subset of the set (a degree, a triangle count of an
edge, or a common-neighbour count, less the members of the set): :mod:`._kernels5`. The counter
of orbit o counts x's copies of o once per way the listing meets them (:data:`EQUATIONS`' divisor)
plus copies of denser orbits, never sparser ones, so the orbits follow from the densest (the
5-clique, counted from the listed 4-cliques) down, exactly, in integers.
"""

import numpy as np

from .._runtime.interrupt import cancel_flag, check as _check_interrupt
from .._runtime.lazy import lazy_module
from .._runtime.limits import check_allocation
from .._runtime.progress import progress_bar


@lazy_module
def _gk5():
    from . import _kernels5

    return _kernels5


#: the connected 5-vertex graphlets G9..G29 (Pržulj's numbering, ORCA's too)
GRAPHLET_NAMES5 = ("4-path", "fork", "4-star", "bull", "tailed-triangle", "cricket", "5-cycle", "banner",
                   "tailed-diamond-3", "bowtie", "tailed-diamond-2", "biclique-2-3", "house", "book-3",
                   "tailed-4-clique", "gem", "wheel-less-spoke", "4-clique-plus-2", "4-wheel", "5-clique-less-edge",
                   "5-clique")
#: the node orbits of G9..G29
GRAPHLET_ORBITS5 = ((15, 16, 17), (18, 19, 20, 21), (22, 23), (24, 25, 26), (27, 28, 29, 30), (31, 32, 33), (34,),
                    (35, 36, 37, 38), (39, 40, 41, 42), (43, 44), (45, 46, 47, 48), (49, 50), (51, 52, 53), (54, 55),
                    (56, 57, 58), (59, 60, 61), (62, 63, 64), (65, 66, 67), (68, 69), (70, 71), (72,))
#: the vertices of its graphlet that each node orbit 15..72 holds
ORBIT_SIZES5 = (2, 2, 1, 1, 2, 1, 1, 4, 1, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 5, 1, 1, 2, 1, 1, 2, 1, 1, 4, 1, 1, 1, 1, 2,
                3, 2, 2, 1, 2, 3, 2, 1, 3, 1, 2, 2, 1, 1, 2, 2, 1, 2, 2, 4, 1, 2, 3, 5)

#: GRAPHLET_PATTERNS5[h][g]: copies (spanning subgraphs) of G(9+h) in G(9+g), the map from induced
#: to non-induced counts of the 5-vertex graphlets (tests/graphlets derives it)
GRAPHLET_PATTERNS5 = (
    (1, 0, 0, 1, 2, 0, 5, 2, 2, 4, 4, 6, 7, 6, 6, 10, 14, 18, 24, 36, 60),
    (0, 1, 0, 2, 1, 2, 0, 2, 5, 4, 4, 6, 4, 12, 9, 10, 10, 20, 20, 36, 60),
    (0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 2, 1, 1, 0, 2, 1, 3, 5),
    (0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 2, 0, 1, 6, 6, 5, 4, 14, 12, 30, 60),
    (0, 0, 0, 0, 1, 0, 0, 0, 0, 4, 2, 0, 2, 0, 3, 6, 6, 12, 16, 30, 60),
    (0, 0, 0, 0, 0, 1, 0, 0, 2, 2, 0, 0, 0, 6, 3, 3, 0, 8, 4, 15, 30),
    (0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 2, 4, 6, 12),
    (0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 6, 2, 6, 3, 4, 8, 12, 16, 30, 60),
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 6, 3, 2, 0, 10, 4, 24, 60),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 2, 2, 6, 15),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 2, 2, 8, 8, 24, 60),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 2, 4, 10),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 4, 6, 12, 24, 60),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 3, 10),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 6, 20),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 4, 4, 18, 60),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 4, 9, 30),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 6, 30),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 15),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 10),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
)

#: (orbit o, divisor, ((coefficient, denser orbit), ...)): O_o = (f_o - sum coefficient x O) / divisor,
#: solved in this order (the relations of Hočevar and Demšar's 5-vertex system)
EQUATIONS = (
    (72, 4, ()),
    (71, 2, ((12, 72),)), (70, 1, ((4, 72),)), (69, 4, ((2, 71),)), (68, 1, ((2, 71),)),
    (67, 1, ((12, 72), (4, 71))), (66, 1, ((12, 72), (2, 71), (3, 70))), (65, 2, ((3, 70),)),
    (64, 1, ((2, 71), (4, 69), (1, 68))), (63, 1, ((3, 70), (2, 68))), (62, 2, ((1, 68),)),
    (61, 2, ((4, 71), (8, 69), (2, 67))), (60, 1, ((4, 71), (2, 68), (2, 67))),
    (59, 1, ((6, 70), (2, 68), (4, 65))), (58, 1, ((4, 72), (2, 71), (1, 67))),
    (57, 1, ((12, 72), (4, 71), (3, 70), (1, 67), (2, 66))), (56, 3, ((2, 65),)), (55, 3, ((2, 71), (2, 67))),
    (54, 2, ((3, 70), (1, 66), (2, 65))), (53, 1, ((2, 68), (2, 64), (2, 63))),
    (52, 2, ((2, 66), (2, 64), (1, 59))), (51, 1, ((2, 68), (2, 63), (4, 62))), (50, 3, ((1, 68), (2, 63))),
    (49, 2, ((1, 68), (1, 64), (2, 62))),
    (48, 1, ((4, 71), (8, 69), (2, 68), (2, 67), (2, 64), (2, 61), (1, 60))),
    (47, 1, ((3, 70), (2, 68), (1, 66), (1, 63), (1, 60))), (46, 1, ((3, 70), (2, 68), (2, 65), (1, 63), (1, 59))),
    (45, 1, ((2, 65), (2, 62), (3, 56))), (44, 4, ((1, 67), (2, 61))), (43, 2, ((2, 66), (1, 60), (1, 59))),
    (42, 1, ((2, 71), (4, 69), (2, 67), (2, 61), (3, 55))), (41, 1, ((2, 71), (1, 68), (2, 67), (1, 60), (3, 55))),
    (40, 1, ((6, 70), (2, 68), (2, 66), (4, 65), (1, 60), (1, 59), (4, 54))),
    (39, 2, ((4, 65), (1, 59), (6, 56))), (38, 1, ((1, 68), (1, 64), (2, 63), (1, 53), (3, 50))),
    (37, 1, ((2, 68), (2, 64), (2, 63), (4, 62), (1, 53), (1, 51), (4, 49))),
    (36, 1, ((1, 68), (2, 63), (2, 62), (1, 51), (3, 50))), (35, 2, ((1, 59), (2, 52), (2, 45))),
    (34, 2, ((1, 59), (2, 52), (1, 51))), (33, 2, ((1, 67), (2, 61), (3, 58), (4, 44), (2, 42))),
    (32, 2, ((2, 66), (1, 60), (1, 59), (2, 57), (2, 43), (2, 41), (1, 40))),
    (31, 1, ((2, 65), (1, 59), (3, 56), (1, 43), (2, 39))), (30, 1, ((1, 67), (1, 63), (2, 61), (1, 53), (4, 44))),
    (29, 1, ((2, 66), (2, 64), (1, 60), (1, 59), (1, 53), (2, 52), (2, 43))),
    (28, 1, ((2, 65), (2, 62), (1, 59), (1, 51), (1, 43))), (27, 2, ((1, 59), (1, 51), (2, 45))),
    (26, 1, ((2, 67), (2, 63), (2, 61), (6, 58), (1, 53), (2, 47), (2, 42))),
    (25, 2, ((2, 66), (2, 64), (1, 59), (2, 57), (2, 52), (1, 48), (1, 40))),
    (24, 1, ((4, 65), (4, 62), (1, 59), (6, 56), (1, 51), (2, 45), (2, 39))), (23, 4, ((1, 55), (1, 42), (2, 33))),
    (22, 3, ((2, 54), (1, 40), (1, 39), (1, 32), (2, 31))), (21, 1, ((3, 55), (3, 50), (2, 42), (2, 38), (2, 33))),
    (20, 1, ((2, 54), (2, 49), (1, 40), (1, 37), (1, 32))),
    (19, 1, ((4, 54), (4, 49), (1, 40), (2, 39), (1, 37), (2, 35), (2, 31))),
    (18, 2, ((1, 59), (1, 51), (2, 46), (2, 45), (2, 36), (2, 27), (1, 24))),
    (17, 2, ((1, 60), (1, 53), (1, 51), (1, 48), (1, 37), (2, 34), (2, 30))),
    (16, 1, ((1, 59), (2, 52), (1, 51), (2, 46), (2, 36), (2, 34), (1, 29))),
    (15, 1, ((1, 59), (2, 52), (1, 51), (2, 45), (2, 35), (2, 34), (2, 27))),
)
NODE_ORBITS5 = 73
# chunks of vertices per thread, claimed from a shared counter (hubs are far heavier than leaves)
_CHUNKS_PER_THREAD = 256
_BATCHES = 32


def _equation_arrays():
    orbit = np.array([e[0] for e in EQUATIONS], np.int64)
    div = np.array([e[1] for e in EQUATIONS], np.int64)
    ptr = np.zeros(len(EQUATIONS) + 1, np.int64)
    ptr[1:] = np.cumsum([len(e[2]) for e in EQUATIONS])
    coef = np.array([c for e in EQUATIONS for c, _ in e[2]], np.int64)
    of = np.array([o for e in EQUATIONS for _, o in e[2]], np.int64)
    return orbit, div, ptr, coef, of


def _two_hop(rp, ri):
    """Per rank-space vertex: 1 + the sum of its neighbours' degrees (a measure of its work)."""
    n = rp.shape[0] - 1
    deg = np.diff(rp)
    return np.bincount(np.repeat(np.arange(n), deg), weights=deg[ri], minlength=n) + 1.0


def _rows5(G, nthreads, progress, rank_space, verts, rows, out, what):
    """out[rows[i], 15:73] for the rank-space vertices verts[i] (chunks of about equal work)."""
    n, m = G.n_nodes, G.n_edges
    rp, ri, reid, _split, orig = rank_space(G)
    if rows is None:
        rows = orig
    mk = np.zeros((nthreads, n), np.uint8)
    tri = _gk5._edge_triangles(rp, ri, reid, m, mk, nthreads)
    scratch = np.zeros((6, nthreads, n), np.int32)
    stamps = np.zeros((nthreads, 7, n), np.int64)
    fs = np.zeros((nthreads, NODE_ORBITS5), np.int64)
    work = np.zeros(verts.shape[0] + 1, np.float64)
    np.cumsum(_two_hop(rp, ri)[verts], out=work[1:])
    k = verts.shape[0]
    nchunks = max(1, min(k, _CHUNKS_PER_THREAD * nthreads))
    bounds = np.unique(np.searchsorted(work, np.linspace(0, work[-1], nchunks + 1)).clip(0, k))
    bounds[0], bounds[-1] = 0, k
    nchunks = bounds.shape[0] - 1
    eq = _equation_arrays()
    cancel = cancel_flag()
    with progress_bar(progress, nchunks, what, unit="chunk") as bar:
        # one parallel region unless a bar is shown (its threads' start and join are not free; the
        # kernel polls the cancel flag between chunks either way)
        batches = 1 if bar.disable else min(_BATCHES, nchunks)
        steps = np.unique(np.linspace(0, nchunks, batches + 1).astype(np.int64))
        for c0, c1 in zip(steps[:-1], steps[1:]):
            _gk5._orbits5(c0, c1, bounds, verts, rows, rp, ri, reid, tri, mk, scratch[0], scratch[1], scratch[2],
                          scratch[3], scratch[4], scratch[5], stamps, fs, *eq, out, nthreads, cancel)
            _check_interrupt()
            bar.update(int(c1 - c0))
    return out


def census5(G, nthreads, progress, rank_space, census4):
    """The (n, 73) node orbit counts of the graphlets on up to 5 vertices. ``rank_space(G)``
    gives the degree-rank CSR, ``census4`` the (n, 15) 4-vertex rows (columns 0..14)."""
    n, m = G.n_nodes, G.n_edges
    # the result, the rank-space CSR with edge ids and t(e), and per thread: marks (1 byte), six
    # int32 rows of n and seven int64 rows of stamps and scratch
    check_allocation(8 * NODE_ORBITS5 * n + 8 * 15 * n + 8 * (4 * m + 3 * n) + nthreads * 81 * n,
                     f"the 5-vertex node orbit census on {nthreads} threads", "use fewer threads")
    out = np.zeros((n, NODE_ORBITS5), np.int64)
    out[:, :15] = census4
    if m == 0:
        return out
    return _rows5(G, nthreads, progress, rank_space, np.arange(n, dtype=np.int64), None, out, "5-vertex node orbits")


def _take_all(w, samples):
    """The take-all stratum of a draw proportional to ``w``: the vertices whose share of the weight
    left, times the draws left, is at least 1 (each would be drawn once or more on average), the
    largest weights first, until one does not qualify. Returns (their indices, the draws left)."""
    order = np.argsort(-w, kind="stable")
    rest = w.sum()
    k = 0
    while k < order.shape[0] and k < samples and (samples - k) * w[order[k]] >= rest:
        rest -= w[order[k]]
        k += 1
    return order[:k], samples - k


def proposal_weights(rp, ri, tri):
    """The three per-vertex weights whose mixture draws the vertices, for the CSR ``rp, ri`` and the
    triangles ``tri`` at every vertex: (w, star, cricket), each (n,) float64.

    w = 1 + the sum of the neighbours' degrees (the census's work at the vertex, and the 3-paths
    around it); star = C(d_v, 4) + the sum over neighbours u of C(d_u - 1, 3), the copies (as
    subgraphs) of the 4-star K1,4 that hold v; cricket = t_v C(d_v, 2) + the sum over neighbours u
    of t_u (d_u - 1), a triangle at a vertex with a pair of its neighbours, v at the centre or one
    of the pair (the shape of the cricket and of the denser graphlets around a hub). The last two
    put weight on the hubs' leaves, where the 4-star and cricket counts sit and w alone is thin."""
    n = rp.shape[0] - 1
    d = np.diff(rp).astype(np.float64)
    t = np.asarray(tri, np.float64)
    src = np.repeat(np.arange(n), np.diff(rp))

    def over_neighbours(x):
        return np.bincount(src, weights=x[ri], minlength=n)

    w = _two_hop(rp, ri)
    star = d * (d - 1) * (d - 2) * (d - 3) / 24.0 + over_neighbours((d - 1) * (d - 2) * (d - 3) / 6.0)
    cricket = t * d * (d - 1) / 2.0 + over_neighbours(t * (d - 1))
    return w, star, cricket


def _mixture(weights):
    """(Q, q): the (n, k) shares of the weights with a positive total, and their mean, the mixture
    the vertices are drawn from (every vertex keeps at least a third of its share of w)."""
    Q = np.stack([x / x.sum() for x in weights if x.sum() > 0], axis=1)
    return Q, Q.mean(axis=1)


#: fewer draws than this: the plain mean of the draws (the regression needs draws to fit)
_MIN_REGRESSION_DRAWS = 20


def combine(z, u):
    """The estimate of the drawn stratum's total and its covariance from the draws.

    ``z`` (k, g): each draw's value over its probability; ``u`` (k, c): its control variates over
    its probability less their known totals (mean 0 over the draws' distribution). With c = 0 or
    fewer than ``_MIN_REGRESSION_DRAWS`` draws: the mean of z, the sample covariance / k, and k - 1
    degrees of freedom. Otherwise the regression estimator: the intercept of the least-squares fit
    of z on (1, u), i.e. mean(z) - beta (mean(u) - 0) with beta fitted on the draws (bias of order
    1 / k, from beta's error), with the jackknife's covariance (leave-one-out intercepts from the
    leverages, no refits) and k - 1 - c degrees of freedom. Returns (estimate (g,), covariance
    (g, g), degrees of freedom)."""
    k, c = z.shape[0], u.shape[1]
    if k == 0:
        return np.zeros(z.shape[1]), np.zeros((z.shape[1], z.shape[1])), 0
    if c == 0 or k < _MIN_REGRESSION_DRAWS:
        cov = np.cov(z, rowvar=False, ddof=1).reshape(z.shape[1], z.shape[1]) / k if k > 1 else \
            np.zeros((z.shape[1], z.shape[1]))
        return z.mean(axis=0), cov, k - 1
    A = np.column_stack([np.ones(k), u])
    # scaled columns: the control variates' scale differs from 1's by many orders
    scale = np.maximum(np.abs(A).max(axis=0), 1e-300)
    As = A / scale
    inv = np.linalg.pinv(As.T @ As)
    coef = inv @ (As.T @ z)
    resid = z - As @ coef
    lever = np.einsum("ij,jk,ik->i", As, inv, As)
    # intercept(all) - intercept(without draw i) = row 0 of inv @ a_i times resid_i / (1 - h_i)
    delta = (As @ inv[:, 0])[:, None] * resid / np.maximum(1.0 - lever, 1e-12)[:, None] / scale[0]
    delta -= delta.mean(axis=0)
    return coef[0] / scale[0], (k - 1) / k * (delta.T @ delta), k - 1 - c


def sample5(G, nthreads, samples, seed, rank_space, census4, rows_of=None):
    """Estimates of the induced counts of G9..G29 from ``samples`` vertices. Vertex v's row sums
    y_v(g) over g's orbits add up to 5 x the count of g over all vertices.

    The draw: vertex v with probability q_v, the mean of the shares of v in three weights
    (:func:`proposal_weights`: the 2-hop weight w, and two that follow the 4-star and cricket
    counts onto the hubs' leaves; a defensive mixture, so that no vertex gets less than a third of
    its share of any of them). The vertices that it would draw with certainty anyway
    (:func:`_take_all`: the hubs) are counted exactly; the other draws fall with replacement on
    the rest, v with probability p_v (q_v renormalised), each drawn vertex's orbit counts exact.
    The mean of y_v(g) / (5 p_v) over them is an unbiased estimate of the rest's share (Hansen and
    Hurwitz); the estimate used is the regression estimator on top (:func:`combine`), with the
    mixture's shares s_j(v) / p_v as control variates, whose totals over the rest are known
    (Owen and Zhou's mixture with control variates): with them a vertex whose draw ratio is off
    for one graphlet is corrected by its ratios for the weights, and the draw cannot do much worse
    than the best single weight would. Its bias is of order 1 / (the draws), from the fitted
    coefficients: on kronecker-10 at 100 vertices the mean of 1,000 seeded estimates lies within
    0.7% of every count, against root-mean-square errors of up to 5% (docs/graphlets.md).

    ``census4``: the (n, 15) 4-vertex orbit rows of every vertex (triangles for the weights);
    ``rows_of(verts)``, if given, the (k, 73) rows of rank-space vertices in place of counting
    them (benchmarks/graphlets5.py replays the draws on an exact census with it). Returns
    (estimates (21,), their covariance (21, 21), degrees of freedom of the interval, distinct
    vertices counted)."""
    n = G.n_nodes
    rp, ri, _reid, _split, orig = rank_space(G)
    Q, q = _mixture(proposal_weights(rp, ri, census4[orig, 3]))
    hubs, draws_left = _take_all(q, samples)
    rest = np.ones(n, bool)
    rest[hubs] = False
    p = np.where(rest, q, 0.0)
    p /= max(p.sum(), 1e-300)
    draws = np.random.default_rng(seed).choice(n, size=draws_left, p=p) if draws_left and rest.any() else \
        np.zeros(0, np.int64)
    verts, inverse = np.unique(np.concatenate([hubs, draws]), return_inverse=True)
    if rows_of is None:
        out = np.zeros((verts.shape[0], NODE_ORBITS5), np.int64)
        _rows5(G, nthreads, False, rank_space, verts.astype(np.int64), np.arange(verts.shape[0], dtype=np.int64), out,
               "5-vertex orbits of the sampled vertices")
    else:
        out = rows_of(verts)
    y = np.stack([out[:, list(orbits)].sum(axis=1) for orbits in GRAPHLET_ORBITS5], axis=1).astype(np.float64)
    est = y[inverse[:hubs.shape[0]]].sum(axis=0) / 5.0
    pd = p[draws][:, None]
    # the first share is the mixture less the others: a control variate of its own would be collinear
    u = Q[draws, 1:] / pd - Q[rest, 1:].sum(axis=0)
    part, cov, df = combine(y[inverse[hubs.shape[0]:]] / (5.0 * pd), u)
    return est + part, cov, df, int(verts.shape[0])
