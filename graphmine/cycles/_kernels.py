"""Kernels of the 4-cycle family (graphmine.cycles._cpu) and of square clustering (networkx backend).

Contract: ``indptr``/``indices`` is the full symmetric CSR (sorted rows, no self-loops); nothing
is validated. One pass over the two-hop paths of every vertex v counts
cnt[x] = |N(v) ∩ N(x)| for every x != v in a per-thread dense array (reset through the list of
touched entries); the 4-cycles through v are sum_x C(cnt[x], 2), one per opposite vertex x and
pair of middle vertices. Threads take the vertices t, t + nthreads, ... (hubs spread evenly).
"""

import numpy as np
from numba import njit, prange

from .._primitives.setops import intersect_count


@njit(cache=True)
def _squares_part(indptr, indices, t, nthreads, cnt, touched, squares, potential):
    """Square clustering terms of vertices v = t, t + nthreads, ...

    cnt[x] counts the paths v - u - x (u a neighbour of v, x != v), so cnt[x] = |N(v) ∩ N(x)|;
    the squares through v are sum_x cnt[x] (cnt[x] - 1) / 2 and the triangles sum_{u in N(v)}
    cnt[u]. ``cnt`` is all zero on entry and on exit.
    """
    n = indptr.shape[0] - 1
    for v in range(t, n, nthreads):
        dv = indptr[v + 1] - indptr[v]
        if dv < 2:
            continue
        ntouched = 0
        uw = 0
        for i in range(indptr[v], indptr[v + 1]):
            u = indices[i]
            uw += indptr[u + 1] - indptr[u]
            for j in range(indptr[u], indptr[u + 1]):
                x = indices[j]
                if x != v:
                    if cnt[x] == 0:
                        touched[ntouched] = x
                        ntouched += 1
                    cnt[x] += 1
        tri = 0
        for i in range(indptr[v], indptr[v + 1]):
            tri += cnt[indices[i]]
        sq = 0
        for k in range(ntouched):
            c = cnt[touched[k]]
            sq += c * (c - 1)
            cnt[touched[k]] = 0
        sq //= 2
        squares[v] = sq
        potential[v] = uw * (dv - 1) - dv * (dv - 1) - tri - sq


@njit(cache=True)
def _squares_serial(indptr, indices):
    n = indptr.shape[0] - 1
    squares = np.zeros(n, np.int64)
    potential = np.zeros(n, np.int64)
    _squares_part(indptr, indices, 0, 1, np.zeros(n, np.int64), np.empty(n, np.int64), squares,
                  potential)
    return squares, potential


@njit(cache=True, parallel=True)
def _squares_parallel(indptr, indices, nthreads):
    n = indptr.shape[0] - 1
    squares = np.zeros(n, np.int64)
    potential = np.zeros(n, np.int64)
    for t in prange(nthreads):
        _squares_part(indptr, indices, t, nthreads, np.zeros(n, np.int64), np.empty(n, np.int64),
                      squares, potential)
    return squares, potential


@njit(cache=True, nogil=True)
def _path_terms(lo_i, ptr_i, ind_i, lo_j, hi_j, ptr_j, ind_j, lo_k, hi_k, ptr_k, ind_k):
    """sum over the paths v - u - w (v, u, w in blocks i, j, k; w != v) of c(v, w) - 1, per v."""
    out = np.zeros(ptr_i.shape[0] - 1, np.int64)
    for a in range(ptr_i.shape[0] - 1):
        v = lo_i + a
        for x in range(ptr_i[a], ptr_i[a + 1]):
            u = ind_i[x]
            if u < lo_j or u >= hi_j:
                continue
            b = u - lo_j
            for y in range(ptr_j[b], ptr_j[b + 1]):
                w = ind_j[y]
                if w == v or w < lo_k or w >= hi_k:
                    continue
                c = w - lo_k
                out[a] += intersect_count(ind_i, ptr_i[a], ptr_i[a + 1], ind_k, ptr_k[c], ptr_k[c + 1]) - 1
    return out
