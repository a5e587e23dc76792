"""Exact triangle and k-clique kernels over an acyclic orientation of the graph.

Contract: ``optr``/``oind`` is the out-neighbourhood CSR of an acyclic orientation (each
undirected edge appears once), rows sorted by vertex id. Every clique is then found exactly once,
from its lowest-ranked vertex. Work is split into ``nthreads`` interleaved vertex sets
(u = t, t + T, ...), one per thread, which balances skewed degree distributions without a
dynamic scheduler and gives every thread its own marker array.
Each kernel has a serial twin for small graphs, where waking a thread pool costs more than
the count. Kernels never validate and never raise. Counts are int64 and exact.
"""

import numpy as np
from numba import njit, prange


@njit(cache=True)
def _triangles_part(optr, oind, t, nthreads, mark, per_vertex):
    """Triangles found from the vertices u = t, t + nthreads, ...; ``mark`` is all False on entry
    and exit. If ``per_vertex`` has length n, each triangle is also credited to its 3 vertices."""
    n = optr.shape[0] - 1
    credit = per_vertex.shape[0] == n
    c = 0
    for u in range(t, n, nthreads):
        a = optr[u]
        b = optr[u + 1]
        if b - a < 2:
            continue
        for j in range(a, b):
            mark[oind[j]] = True
        for j in range(a, b):
            v = oind[j]
            for l in range(optr[v], optr[v + 1]):
                w = oind[l]
                if mark[w]:
                    c += 1
                    if credit:
                        per_vertex[u] += 1
                        per_vertex[v] += 1
                        per_vertex[w] += 1
        for j in range(a, b):
            mark[oind[j]] = False
    return c


@njit(cache=True, parallel=True)
def _triangles_total(optr, oind, nthreads):
    n = optr.shape[0] - 1
    total = 0
    none = np.zeros(0, np.int64)
    for t in prange(nthreads):
        total += _triangles_part(optr, oind, t, nthreads, np.zeros(n, np.bool_), none)
    return total


@njit(cache=True)
def _triangles_total_serial(optr, oind):
    n = optr.shape[0] - 1
    return _triangles_part(optr, oind, 0, 1, np.zeros(n, np.bool_), np.zeros(0, np.int64))


@njit(cache=True, parallel=True)
def _triangles_per_vertex(optr, oind, nthreads):
    """Triangles through every vertex; each thread accumulates into its own row."""
    n = optr.shape[0] - 1
    part = np.zeros((nthreads, n), np.int64)
    for t in prange(nthreads):
        _triangles_part(optr, oind, t, nthreads, np.zeros(n, np.bool_), part[t])
    out = np.zeros(n, np.int64)
    for t in range(nthreads):
        out += part[t]
    return out


@njit(cache=True)
def _triangles_per_vertex_serial(optr, oind):
    n = optr.shape[0] - 1
    out = np.zeros(n, np.int64)
    _triangles_part(optr, oind, 0, 1, np.zeros(n, np.bool_), out)
    return out


@njit(cache=True)
def _intersect_into(a, na, b, lo, hi, out):
    """Write the sorted intersection of a[:na] and b[lo:hi] into out; return its size."""
    i = 0
    j = lo
    k = 0
    while i < na and j < hi:
        x = a[i]
        y = b[j]
        if x < y:
            i += 1
        elif y < x:
            j += 1
        else:
            out[k] = x
            k += 1
            i += 1
            j += 1
    return k


@njit(cache=True)
def _intersect_count(a, na, b, lo, hi):
    i = 0
    j = lo
    k = 0
    while i < na and j < hi:
        x = a[i]
        y = b[j]
        if x < y:
            i += 1
        elif y < x:
            j += 1
        else:
            k += 1
            i += 1
            j += 1
    return k


@njit(cache=True)
def _cliques_from(u, optr, oind, k, cand, size, pos):
    """k-cliques whose lowest-ranked vertex is u (iterative depth-first search).

    cand[l, :size[l]] holds the vertices adjacent to all l + 1 chosen vertices; once two more
    vertices are needed, the remaining edges inside the candidate set are counted directly.
    """
    d = optr[u + 1] - optr[u]
    if d < k - 1:
        return 0
    for j in range(d):
        cand[0, j] = oind[optr[u] + j]
    size[0] = d
    pos[0] = 0
    count = 0
    level = 0
    while level >= 0:
        need = k - (level + 1)
        if need == 2:
            row = cand[level]
            s = size[level]
            for i in range(s):
                v = row[i]
                count += _intersect_count(row, s, oind, optr[v], optr[v + 1])
            level -= 1
            continue
        if pos[level] >= size[level]:
            level -= 1
            continue
        v = cand[level, pos[level]]
        pos[level] += 1
        m = _intersect_into(cand[level], size[level], oind, optr[v], optr[v + 1], cand[level + 1])
        if m >= need - 1:
            size[level + 1] = m
            pos[level + 1] = 0
            level += 1
    return count


@njit(cache=True)
def _cliques_part(optr, oind, k, max_out, t, nthreads):
    n = optr.shape[0] - 1
    cand = np.empty((k - 1, max_out + 1), oind.dtype)
    size = np.zeros(k - 1, np.int64)
    pos = np.zeros(k - 1, np.int64)
    c = 0
    for u in range(t, n, nthreads):
        c += _cliques_from(u, optr, oind, k, cand, size, pos)
    return c


@njit(cache=True, parallel=True)
def _cliques_total(optr, oind, k, max_out, nthreads):
    total = 0
    for t in prange(nthreads):
        total += _cliques_part(optr, oind, k, max_out, t, nthreads)
    return total


@njit(cache=True)
def _cliques_total_serial(optr, oind, k, max_out):
    return _cliques_part(optr, oind, k, max_out, 0, 1)
