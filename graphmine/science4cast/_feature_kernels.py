"""Numba kernels of the per-pair features (one snapshot at a time).

Contract: ``indptr``/``indices`` is a graphmine CSR (rows sorted, symmetric, no self-loops);
``pu``/``pv`` hold vertex ids in 0..n-1. Pairs are split into ``nthreads`` interleaved sets
(p = t, t + T, ...), one per thread; each thread owns a stamp array for the capped breadth-first
search, so no pair ever clears memory. Kernels never validate and never raise.
"""

import numpy as np
from numba import njit, prange

from .._primitives.setops import intersect_sum, lower_bound


@njit(cache=True)
def _common_stats(indices, a, b, c, d, inv_log_deg):
    """Common neighbours of rows indices[a:b] and indices[c:d] and their Adamic-Adar sum."""
    return intersect_sum(indices, a, b, indices, c, d, inv_log_deg)


@njit(cache=True)
def _contains(indices, a, b, x):
    i = lower_bound(indices, a, b, x)
    return i < b and indices[i] == x


@njit(cache=True)
def _two_hop_volume(indptr, indices, u):
    s = 0
    for j in range(indptr[u], indptr[u + 1]):
        x = indices[j]
        s += indptr[x + 1] - indptr[x]
    return s


@njit(cache=True)
def _two_hops_marked(indptr, indices, u, mark, stamp):
    """Whether a neighbour of a neighbour of u carries ``stamp`` in ``mark`` (stops at the first)."""
    for j in range(indptr[u], indptr[u + 1]):
        x = indices[j]
        for l in range(indptr[x], indptr[x + 1]):
            if mark[indices[l]] == stamp:
                return True
    return False


@njit(cache=True)
def _capped_distance(indptr, indices, u, v, cn, mark, stamp, max_distance):
    """Shortest-path length between u and v if it is <= max_distance, else max_distance + 1.

    Bidirectional: level 1 on both sides gives distances 1 and 2 (``cn`` common neighbours);
    distance 3 marks the larger neighbourhood and scans two hops from the smaller side, stopping
    at the first hit; distance 4 marks two hops from the side with the smaller two-hop volume and
    scans two hops from the other side. ``mark`` holds stamps; ``stamp`` and ``stamp + 1`` must be
    unused in it.
    """
    if u == v:
        return 0
    du = indptr[u + 1] - indptr[u]
    dv = indptr[v + 1] - indptr[v]
    far = max_distance + 1
    if du == 0 or dv == 0:
        return far
    if _contains(indices, indptr[u], indptr[u + 1], v):
        return 1
    if max_distance < 2:
        return far
    if cn > 0:
        return 2
    if max_distance < 3:
        return far
    big = u
    small = v
    if dv > du:
        big = v
        small = u
    for j in range(indptr[big], indptr[big + 1]):
        mark[indices[j]] = stamp
    if _two_hops_marked(indptr, indices, small, mark, stamp):
        return 3
    if max_distance < 4:
        return far
    a = u
    b = v
    if _two_hop_volume(indptr, indices, v) < _two_hop_volume(indptr, indices, u):
        a = v
        b = u
    s2 = stamp + 1
    for j in range(indptr[a], indptr[a + 1]):
        x = indices[j]
        for l in range(indptr[x], indptr[x + 1]):
            mark[indices[l]] = s2
    if _two_hops_marked(indptr, indices, b, mark, s2):
        return 4
    return far


@njit(cache=True, parallel=True)
def _pair_features(indptr, indices, pu, pv, inv_log_deg, max_distance, nthreads,
                   cn_out, jac_out, aa_out, dist_out):
    n = indptr.shape[0] - 1
    m = pu.shape[0]
    for t in prange(nthreads):
        mark = np.zeros(n, np.int64)
        stamp = 1
        for p in range(t, m, nthreads):
            u = pu[p]
            v = pv[p]
            cn, aa = _common_stats(indices, indptr[u], indptr[u + 1], indptr[v], indptr[v + 1], inv_log_deg)
            du = indptr[u + 1] - indptr[u]
            dv = indptr[v + 1] - indptr[v]
            union = du + dv - cn
            cn_out[p] = cn
            aa_out[p] = aa
            jac_out[p] = cn / union if union > 0 else 0.0
            dist_out[p] = _capped_distance(indptr, indices, u, v, cn, mark, stamp, max_distance)
            stamp += 2


@njit(cache=True, parallel=True)
def _canonical_pair_rows(X, first, second, nthreads):
    """Swap, in place, the ``first``/``second`` columns of every row whose first differing pair of
    them has ``X[first] < X[second]``: afterwards a row and its swapped copy are the same row."""
    m = X.shape[0]
    k = first.shape[0]
    for t in prange(nthreads):
        for p in range(t, m, nthreads):
            swap = False
            for j in range(k):
                a = X[p, first[j]]
                b = X[p, second[j]]
                if a != b:
                    swap = a < b
                    break
            if swap:
                for j in range(k):
                    a = X[p, first[j]]
                    X[p, first[j]] = X[p, second[j]]
                    X[p, second[j]] = a
