"""The 5-vertex graphlet estimate from sampled spanning trees (``sampler='trees'``).

Every connected 5-vertex graph has a spanning tree of at least one of three shapes: the 4-path P
(a - b - c - d - e), the fork F (centre c with leaves x, y and a long arm c - z - w) and the
4-star S (centre c, four leaves). Graphlet g holds t_g(T) spanning trees of type T
(:data:`TREE_COPIES`, the rows of G9, G10 and G11 in the census's map
``GRAPHLET_PATTERNS5``). For each type a *relaxed* set of configurations, in which every copy
of T in the graph appears exactly once and whose size W_T is a sum over centres, is sampled
uniformly:

* S: centre c, four distinct neighbours: :math:`W_S = \\sum_c \\binom{d_c}{4}`;
* F: centre c, a neighbour z, w in N(z) - c, and a pair {x, y} of c's other neighbours:
  :math:`W_F = \\sum_c \\binom{d_c - 1}{2} s_c` with :math:`s_c = \\sum_{z \\sim c} (d_z - 1)`;
* P: centre c, a pair {b, d} of its neighbours, a in N(b) - c, e in N(d) - c:
  :math:`W_P = \\sum_c (s_c^2 - \\sum_{b \\sim c} (d_b - 1)^2) / 2`.

A configuration with a repeated vertex (F: w in {x, y}; P: a = d, e = b or a = e) is a miss
(not drawn again); the others are the copies of T, and the induced graphlet on their 5
vertices is classified (:data:`MASK_GRAPHLET`). With n_T draws of type T of which h_{g,T} land
on graphlet g, :math:`W_T h_{g,T} / (n_T t_g(T))` is unbiased for the induced count C_g; they are
combined with the fixed weights :math:`\\propto n_T t_g(T) / W_T` (the inverse of their variances
while hits are rare), which gives :math:`\\hat C_g = \\sum_T h_{g,T} / Z_g` with
:math:`Z_g = \\sum_T n_T t_g(T) / W_T`, and the variance
:math:`\\sum_T n_T q_{g,T} (1 - q_{g,T}) / Z_g^2` (q = h / n_T, the hits' multinomial law per type).
"""

import itertools
import math

import numpy as np

from .._runtime.lazy import lazy_module
from ._census5 import GRAPHLET_PATTERNS5


@lazy_module
def _gk():
    from . import _kernels

    return _kernels


#: the tree types, in the kernel's order
TREE_TYPES = ("4-path", "fork", "4-star")

#: an edge list of each of G9..G29 on the vertices 0..4 (the numbering of graphmine.graphlets)
GRAPHLET_EDGES5 = (
    ((0, 1), (1, 2), (2, 3), (3, 4)),  # G9 4-path
    ((0, 2), (1, 2), (2, 3), (3, 4)),  # G10 fork
    ((0, 1), (0, 2), (0, 3), (0, 4)),  # G11 4-star
    ((0, 1), (1, 2), (0, 2), (1, 3), (2, 4)),  # G12 bull
    ((0, 1), (1, 2), (0, 2), (2, 3), (3, 4)),  # G13 triangle with a tail of two edges
    ((0, 1), (1, 2), (0, 2), (0, 3), (0, 4)),  # G14 cricket
    ((0, 1), (1, 2), (2, 3), (3, 4), (0, 4)),  # G15 5-cycle
    ((0, 1), (1, 2), (2, 3), (0, 3), (0, 4)),  # G16 banner
    ((0, 1), (1, 2), (2, 3), (0, 3), (0, 2), (0, 4)),  # G17 diamond, pendant at a degree-3 vertex
    ((0, 1), (0, 2), (1, 2), (0, 3), (0, 4), (3, 4)),  # G18 bowtie
    ((0, 1), (1, 2), (2, 3), (0, 3), (0, 2), (1, 4)),  # G19 diamond, pendant at a degree-2 vertex
    ((0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)),  # G20 K(2,3)
    ((0, 1), (1, 2), (2, 3), (0, 3), (0, 4), (1, 4)),  # G21 house
    ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)),  # G22 K(1,1,3)
    ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (3, 4)),  # G23 4-clique with a pendant
    ((0, 1), (1, 2), (2, 3), (0, 4), (1, 4), (2, 4), (3, 4)),  # G24 gem
    ((0, 1), (1, 2), (2, 3), (0, 3), (0, 4), (1, 4), (2, 4)),  # G25 4-wheel less a spoke
    ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (0, 4), (1, 4)),  # G26 4-clique, a vertex on two
    ((0, 1), (1, 2), (2, 3), (0, 3), (0, 4), (1, 4), (2, 4), (3, 4)),  # G27 4-wheel
    tuple(e for e in itertools.combinations(range(5), 2) if e != (3, 4)),  # G28 5-clique less an edge
    tuple(itertools.combinations(range(5), 2)),  # G29 5-clique
)

#: the 10 vertex pairs of a 5-vertex set in the order of the adjacency mask's bits
PAIRS5 = tuple(itertools.combinations(range(5), 2))


def _mask(edges):
    bits = 0
    for u, v in edges:
        bits |= 1 << PAIRS5.index((min(u, v), max(u, v)))
    return bits


def _canonical_all():
    """The canonical form of every 10-bit mask: the smallest mask over the 120 relabellings of the
    vertices (equal for isomorphic graphs), all masks at once."""
    perms = np.array(list(itertools.permutations(range(5))))
    # where each pair goes under each relabelling, as a bit weight
    weight = np.array([[1 << PAIRS5.index(tuple(sorted((p[u], p[v])))) for u, v in PAIRS5] for p in perms], np.int64)
    bits = (np.arange(1024)[:, None] >> np.arange(10)) & 1  # (1024, 10)
    return (bits @ weight.T).min(axis=1)


def _connected(mask):
    seen, todo = {0}, [0]
    while todo:
        u = todo.pop()
        for k, (a, b) in enumerate(PAIRS5):
            if mask >> k & 1 and u in (a, b):
                v = b if u == a else a
                if v not in seen:
                    seen.add(v)
                    todo.append(v)
    return len(seen) == 5


def _mask_table():
    canon_all = _canonical_all()
    canon = {int(canon_all[_mask(e)]): g for g, e in enumerate(GRAPHLET_EDGES5)}
    if len(canon) != 21:
        raise AssertionError("GRAPHLET_EDGES5 holds isomorphic graphlets")
    table = np.full(1024, -1, np.int64)
    for mask in range(1024):
        if _connected(mask):
            table[mask] = canon[int(canon_all[mask])]
    return table


#: graphlet index 0..20 (G9..G29) of every 10-bit adjacency mask over PAIRS5, -1 if disconnected
MASK_GRAPHLET = _mask_table()

#: TREE_COPIES[T][g]: spanning trees of type T (4-path, fork, 4-star) in graphlet G(9+g)
TREE_COPIES = np.array(GRAPHLET_PATTERNS5[:3], np.int64)


def _exact_total(approx, exact, big_term):
    """The exact sum of per-vertex weights as a Python int: ``exact`` (int64) where ``approx``
    (float64) says it fits, ``big_term(v)`` (a Python int) at the few vertices where it may not."""
    big = approx >= 2.0 ** 58  # int64 products below 6 x 2**58 stay exact
    total = int(exact[~big].astype(object).sum())
    return total + sum(big_term(int(v)) for v in np.flatnonzero(big))


def tree_weights(indptr, indices):
    """The relaxed sets' sizes, their per-centre cumulative weights and the per-arc cumulative
    (d_b - 1) of each row, for the graph's CSR (sorted rows, no self-loops).

    Returns (W, cw, arcw): W the three exact totals as Python ints (they pass 2**63 on large
    graphs) in the order of :data:`TREE_TYPES`; cw (3, n) float64 the cumulative per-centre
    weights (the kernel's centre draw: float64, so the draw's probabilities are off by relative
    errors of order 1e-16); arcw (2m,) int64, along each row the cumulative (d_b - 1) of its
    neighbours b."""
    n = indptr.shape[0] - 1
    deg = np.diff(indptr).astype(np.int64)
    dm1 = deg[indices] - 1
    arcw = np.cumsum(dm1)
    run = np.concatenate([[0], arcw])
    s = run[indptr[1:]] - run[indptr[:-1]]  # s_c = sum of (d_b - 1) over c's neighbours b
    arcw -= np.repeat(run[indptr[:-1]], deg)  # restart at every row
    run2 = np.concatenate([[0], np.cumsum(dm1 * dm1)])
    q = run2[indptr[1:]] - run2[indptr[:-1]]  # sum of (d_b - 1)^2
    df = deg.astype(np.float64)
    sf = s.astype(np.float64)
    # per centre, in the order of TREE_TYPES: 4-path, fork, 4-star
    approx = ((sf * sf - q.astype(np.float64)) / 2.0,
              (df - 1) * (df - 2) / 2.0 * sf,
              df * (df - 1) * (df - 2) * (df - 3) / 24.0)
    c2 = deg * (deg - 1) // 2
    exact = ((s * s - q) // 2,
             np.where(deg >= 3, (deg - 1) * (deg - 2) // 2, 0) * s,
             c2 * ((deg - 2) * (deg - 3) // 2) // 6)  # C(d, 2) C(d - 2, 2) = 6 C(d, 4)
    terms = (lambda v: (int(s[v]) ** 2 - int(q[v])) // 2,
             lambda v: math.comb(int(deg[v]) - 1, 2) * int(s[v]),
             lambda v: math.comb(int(deg[v]), 4))
    W = tuple(_exact_total(a, e, f) for a, e, f in zip(approx, exact, terms))
    cw = np.cumsum(np.stack(approx), axis=1) if n else np.zeros((3, 0))
    return W, cw, arcw


def split_draws(samples, W):
    """The draws of each type: equal shares (the remainder to the first types) among the types
    with copies to draw from (W_T > 0), none for the others."""
    live = [k for k in range(3) if W[k] > 0]
    counts = np.zeros(3, np.int64)
    for r, k in enumerate(live):
        counts[k] = samples // len(live) + (1 if r < samples % len(live) else 0)
    return counts


def combine_trees(hits, counts, W):
    """The estimates of G9..G29 from the hits (3, 21) of ``counts`` (3,) draws per type over the
    relaxed sets of sizes W. Returns (estimate (21,), covariance (21, 21), pooled hits (21,),
    pooled draws (21,), scale (21,)): estimate = pooled hits x scale, the pooled draws those of the
    types that hold the graphlet (for Wilson's interval of the pooled proportion)."""
    est = np.zeros(21)
    cov = np.zeros((21, 21))
    pooled = np.zeros(21)
    draws = np.zeros(21)
    scale = np.zeros(21)
    # Z_g = sum_T n_T t_g(T) / W_T; a type holding g without copies in the graph (W_T = 0) says C_g = 0
    Z = np.zeros(21)
    zero = np.zeros(21, bool)
    for k in range(3):
        has = TREE_COPIES[k] > 0
        if W[k] == 0:
            zero |= has
        elif counts[k]:
            Z += np.where(has, counts[k] * TREE_COPIES[k] / float(W[k]), 0.0)
    live = (Z > 0) & ~zero
    scale[live] = 1.0 / Z[live]
    for k in range(3):
        if W[k] == 0 or counts[k] == 0:
            continue
        has = (TREE_COPIES[k] > 0) & live
        h = np.where(has, hits[k], 0).astype(np.float64)
        qk = h / counts[k]
        pooled += h
        draws += np.where(has, counts[k], 0)
        # the multinomial covariance of one type's hit counts: n (diag(q) - q q^T)
        cov += counts[k] * (np.diag(qk) - np.outer(qk, qk))
    est = pooled * scale
    cov = cov * np.outer(scale, scale)
    return est, cov, pooled, draws, scale


def sample_trees5(G, samples, seed, nthreads):
    """Estimates of the induced counts of G9..G29 from ``samples`` drawn trees (see the module).
    Returns (estimate, covariance, pooled hits, pooled draws, scale, hits (3, 23), counts (3,), W)."""
    W, cw, arcw = tree_weights(G.indptr, G.indices)
    counts = split_draws(samples, W)
    if counts.sum():
        parts = _gk._sample_trees5(G.indptr, G.indices, cw, arcw, counts, MASK_GRAPHLET,
                                   np.uint64(seed % (2 ** 64)), nthreads)
        hits = parts.sum(axis=0)
    else:
        hits = np.zeros((3, 23), np.int64)
    est, cov, pooled, draws, scale = combine_trees(hits[:, :21], counts, W)
    return est, cov, pooled, draws, scale, hits, counts, W
