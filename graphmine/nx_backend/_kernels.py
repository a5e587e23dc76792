"""Kernels of the networkx backend: CSR rows from networkx's adjacency, square clustering,
triangle listing, common neighbours of vertex pairs, pair adjacency (triangles per vertex are
:mod:`graphmine._clique_kernels`'s).

Contract: graphmine CSR (rows sorted, no self-loops) or its acyclic orientation; work is split as
``for u in range(t, n, nthreads)`` and every thread writes only its own slots, so the ``prange``
over threads is race-free. Kernels never validate.
"""

import numpy as np
from numba import njit, prange

from .._clique_kernels import _triangles_part
from .._setops import intersect_count, intersect_sum


@njit(cache=True)
def _sort_row(a, lo, hi):
    """Sort a[lo:hi] in place: insertion sort for short rows (most rows), else numpy's sort."""
    if hi - lo > 32:
        a[lo:hi].sort()
        return
    for i in range(lo + 1, hi):
        x = a[i]
        j = i - 1
        while j >= lo and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def _fill_rows(rawptr, raw, indptr, out, t, nthreads):
    """Rows u = t, t + nthreads, ...: copy raw[rawptr[u]:rawptr[u+1]] without u itself into
    out[indptr[u]:indptr[u+1]] and sort it (networkx keeps neighbours in insertion order)."""
    n = rawptr.shape[0] - 1
    for u in range(t, n, nthreads):
        k = indptr[u]
        ordered = True
        last = -1
        for i in range(rawptr[u], rawptr[u + 1]):
            x = raw[i]
            if x != u:
                out[k] = x
                k += 1
                if x < last:
                    ordered = False
                last = x
        if not ordered:  # graphs read from sorted edge lists mostly arrive in order
            _sort_row(out, indptr[u], k)


@njit(cache=True)
def _rows_serial(rawptr, raw, indptr, out):
    _fill_rows(rawptr, raw, indptr, out, 0, 1)


@njit(cache=True, parallel=True)
def _rows_parallel(rawptr, raw, indptr, out, nthreads):
    for t in prange(nthreads):
        _fill_rows(rawptr, raw, indptr, out, t, nthreads)


@njit(cache=True)
def _adjacent(indptr, indices, us, vs):
    """1 where v is a neighbour of u (binary search in u's sorted row), else 0."""
    out = np.zeros(us.shape[0], np.uint8)
    for i in range(us.shape[0]):
        row = indices[indptr[us[i]]:indptr[us[i] + 1]]
        j = np.searchsorted(row, vs[i])
        if j < row.shape[0] and row[j] == vs[i]:
            out[i] = 1
    return out


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


@njit(cache=True)
def _list_triangles(optr, oind):
    """Every triangle once, as rows (a, b, c) with a < b < c, from an acyclic orientation with
    sorted out-rows (two passes: the core's count, then write)."""
    n = optr.shape[0] - 1
    mark = np.zeros(n, np.uint8)
    out = np.empty((_triangles_part(optr, oind, 0, 1, mark), 3), np.int64)
    k = 0
    for u in range(n):
        for i in range(optr[u], optr[u + 1]):
            mark[oind[i]] = 1
        for i in range(optr[u], optr[u + 1]):
            v = oind[i]
            for j in range(optr[v], optr[v + 1]):
                w = oind[j]
                if mark[w]:
                    a, b, c = u, v, w
                    if a > b:
                        a, b = b, a
                    if b > c:
                        b, c = c, b
                    if a > b:
                        a, b = b, a
                    out[k, 0] = a
                    out[k, 1] = b
                    out[k, 2] = c
                    k += 1
        for i in range(optr[u], optr[u + 1]):
            mark[oind[i]] = 0
    return out


@njit(cache=True)
def _common(indices, a, b, c, d, weight, weighted):
    """|row a:b ∩ row c:d| and, if ``weighted``, the sum of ``weight`` over the common entries
    (in increasing vertex order); rows of very different lengths gallop (:mod:`graphmine._setops`)."""
    if weighted:
        return intersect_sum(indices, a, b, indices, c, d, weight)
    return intersect_count(indices, a, b, indices, c, d), 0.0


@njit(cache=True)
def _pairs_part(indptr, indices, us, vs, weight, weighted, t, nthreads, cn, wsum):
    for i in range(t, us.shape[0], nthreads):
        u = us[i]
        v = vs[i]
        cn[i], wsum[i] = _common(indices, indptr[u], indptr[u + 1], indptr[v], indptr[v + 1], weight,
                                 weighted)


@njit(cache=True)
def _pairs_serial(indptr, indices, us, vs, weight, weighted):
    cn = np.zeros(us.shape[0], np.int64)
    wsum = np.zeros(us.shape[0], np.float64)
    _pairs_part(indptr, indices, us, vs, weight, weighted, 0, 1, cn, wsum)
    return cn, wsum


@njit(cache=True, parallel=True)
def _pairs_parallel(indptr, indices, us, vs, weight, weighted, nthreads):
    cn = np.zeros(us.shape[0], np.int64)
    wsum = np.zeros(us.shape[0], np.float64)
    for t in prange(nthreads):
        _pairs_part(indptr, indices, us, vs, weight, weighted, t, nthreads, cn, wsum)
    return cn, wsum
