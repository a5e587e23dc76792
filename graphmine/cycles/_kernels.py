"""Kernels of the 4-cycle family (graphmine.cycles._cpu) and of square clustering (networkx backend).

Contract: ``indptr``/``indices`` is the full symmetric CSR (sorted rows, no self-loops); nothing
is validated. One pass over the two-hop paths of every vertex v counts
cnt[x] = |N(v) ∩ N(x)| for every x != v in a per-thread dense array (reset through the list of
touched entries); the 4-cycles through v are sum_x C(cnt[x], 2), one per opposite vertex x and
pair of middle vertices. Threads take the vertices t, t + nthreads, ... (hubs spread evenly).

The 4-cycles per vertex alone (:func:`_cycles_ranked_serial`, :func:`_cycles_ranked_parallel`)
walk the rank-space orientation of the degree order instead (``Graph.oriented('degree',
relabel=True)``, every arc from a smaller to a larger id, rows sorted) and its in-rows: each
cycle once, from its last vertex, results in rank space with one row of counters per thread.
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


# -- 4-cycles per vertex, each counted once ---------------------------------------------------------

@njit(cache=True, nogil=True)
def _in_rows(optr, oind):
    """The in-neighbourhoods of a rank-space orientation (every arc goes from a smaller to a larger
    id): scattered in increasing order of the tails, so every row comes out sorted."""
    n = optr.shape[0] - 1
    iptr = np.zeros(n + 1, np.int64)
    for j in range(oind.shape[0]):
        iptr[oind[j] + 1] += 1
    for r in range(n):
        iptr[r + 1] += iptr[r]
    iind = np.empty(oind.shape[0], oind.dtype)
    fill = iptr[:-1].copy()
    for t in range(n):
        for j in range(optr[t], optr[t + 1]):
            h = oind[j]
            iind[fill[h]] = t
            fill[h] += 1
    return iptr, iind


@njit(cache=True, nogil=True)
def _cycles_part(optr, oind, iptr, iind, t, nthreads, cnt, touched, out):
    """The 4-cycles whose last vertex v (in rank space) is t, t + nthreads, ...: credits added to
    ``out`` (rank space). The neighbours of u before v are u's in-row and the head of its out-row
    below v (rows sorted). ``cnt`` is all zero on entry and on exit."""
    n = optr.shape[0] - 1
    for v in range(t, n, nthreads):
        if iptr[v + 1] - iptr[v] < 2:
            continue
        ntouched = 0
        for i in range(iptr[v], iptr[v + 1]):
            u = iind[i]
            for j in range(iptr[u], iptr[u + 1]):
                w = iind[j]
                if cnt[w] == 0:
                    touched[ntouched] = w
                    ntouched += 1
                cnt[w] += 1
            for j in range(optr[u], optr[u + 1]):
                w = oind[j]
                if w >= v:
                    break
                if cnt[w] == 0:
                    touched[ntouched] = w
                    ntouched += 1
                cnt[w] += 1
        # a middle vertex u lies on c(v, w) - 1 of the cycles with diagonal v - w
        for i in range(iptr[v], iptr[v + 1]):
            u = iind[i]
            mid = 0
            for j in range(iptr[u], iptr[u + 1]):
                mid += cnt[iind[j]] - 1
            for j in range(optr[u], optr[u + 1]):
                w = oind[j]
                if w >= v:
                    break
                mid += cnt[w] - 1
            out[u] += mid
        total = 0
        for k in range(ntouched):
            w = touched[k]
            c = cnt[w]
            cnt[w] = 0
            if c > 1:
                out[w] += c * (c - 1) // 2
                total += c * (c - 1) // 2
        out[v] += total


@njit(cache=True, nogil=True)
def _cycles_ranked_serial(optr, oind):
    n = optr.shape[0] - 1
    iptr, iind = _in_rows(optr, oind)
    out = np.zeros(n, np.int64)
    _cycles_part(optr, oind, iptr, iind, 0, 1, np.zeros(n, np.int64), np.empty(n, np.int64), out)
    return out


@njit(cache=True, parallel=True)
def _cycles_ranked_parallel(optr, oind, nthreads):
    n = optr.shape[0] - 1
    iptr, iind = _in_rows(optr, oind)
    outs = np.zeros((nthreads, n), np.int64)
    for t in prange(nthreads):
        _cycles_part(optr, oind, iptr, iind, t, nthreads, np.zeros(n, np.int64), np.empty(n, np.int64),
                     outs[t])
    out = np.zeros(n, np.int64)
    for t in range(nthreads):
        for r in range(n):
            out[r] += outs[t, r]
    return out
