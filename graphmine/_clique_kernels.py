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

from ._csr_kernels import _orient_relabel_serial


# Hot loops index with unsigned integers: numba then skips its negative-index wraparound test,
# which costs more than the lookup itself in these loops (measured 2.6x on triangle counting).
U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True)
def _triangles_part(optr, oind, t, nthreads, mark):
    """Triangles found from the vertices u = t, t + nthreads, ...; ``mark`` (uint8) is all zero on
    entry and exit. The inner loop adds marks instead of branching on them."""
    n = optr.shape[0] - 1
    c = 0
    for u in range(t, n, nthreads):
        a = np.uint64(optr[u])
        b = np.uint64(optr[u + 1])
        if b - a < np.uint64(2):
            continue
        for j in range(a, b):
            mark[np.uint64(oind[j])] = 1
        for j in range(a, b):
            v = np.uint64(oind[j])
            for l in range(np.uint64(optr[v]), np.uint64(optr[v + U1])):
                c += mark[np.uint64(oind[l])]
        for j in range(a, b):
            mark[np.uint64(oind[j])] = 0
    return c


@njit(cache=True)
def _triangles_credit_part(optr, oind, t, nthreads, mark, per_vertex):
    """As :func:`_triangles_part`, crediting every triangle to its three vertices. Each arc walk
    adds its 0/1 hit without a branch and u's and v's counts stay in registers, so the inner loop
    does one load, one add and one store whatever the hit rate."""
    n = optr.shape[0] - 1
    for u in range(t, n, nthreads):
        a = np.uint64(optr[u])
        b = np.uint64(optr[u + 1])
        if b - a < np.uint64(2):
            continue
        for j in range(a, b):
            mark[np.uint64(oind[j])] = 1
        cu = 0
        for j in range(a, b):
            v = np.uint64(oind[j])
            cv = 0
            for l in range(np.uint64(optr[v]), np.uint64(optr[v + U1])):
                w = np.uint64(oind[l])
                hit = mark[w]
                cv += hit
                per_vertex[w] += hit
            per_vertex[v] += cv
            cu += cv
        per_vertex[u] += cu
        for j in range(a, b):
            mark[np.uint64(oind[j])] = 0


@njit(cache=True, parallel=True)
def _triangles_total(optr, oind, nthreads):
    n = optr.shape[0] - 1
    total = 0
    for t in prange(nthreads):
        total += _triangles_part(optr, oind, t, nthreads, np.zeros(n, np.uint8))
    return total


@njit(cache=True)
def _triangles_total_serial(optr, oind):
    n = optr.shape[0] - 1
    return _triangles_part(optr, oind, 0, 1, np.zeros(n, np.uint8))


@njit(cache=True)
def _triangles_small(indptr, indices):
    """Rank by (degree, id), orient and count in one call: for small graphs the per-call
    overhead of separate steps outweighs the count itself."""
    n = indptr.shape[0] - 1
    # rank by (degree, id): a counting sort over the degrees
    maxdeg = 0
    for u in range(n):
        maxdeg = max(maxdeg, indptr[u + 1] - indptr[u])
    start = np.zeros(maxdeg + 2, np.int64)
    for u in range(n):
        start[indptr[u + 1] - indptr[u] + 1] += 1
    for d in range(maxdeg + 1):
        start[d + 1] += start[d]
    rank = np.empty(n, np.int64)
    for u in range(n):
        d = indptr[u + 1] - indptr[u]
        rank[u] = start[d]
        start[d] += 1
    optr, oind = _orient_relabel_serial(indptr, indices, rank)
    return _triangles_part(optr, oind, 0, 1, np.zeros(n, np.uint8))


@njit(cache=True, parallel=True)
def _triangles_per_vertex(optr, oind, nthreads):
    """Triangles through every vertex; each thread accumulates into its own row."""
    n = optr.shape[0] - 1
    part = np.zeros((nthreads, n), np.int64)
    for t in prange(nthreads):
        _triangles_credit_part(optr, oind, t, nthreads, np.zeros(n, np.uint8), part[t])
    out = np.zeros(n, np.int64)
    for t in range(nthreads):
        out += part[t]
    return out


@njit(cache=True)
def _triangles_per_vertex_serial(optr, oind):
    n = optr.shape[0] - 1
    out = np.zeros(n, np.int64)
    _triangles_credit_part(optr, oind, 0, 1, np.zeros(n, np.uint8), out)
    return out


@njit(cache=True)
def _intersect_into(a, na, b, lo, hi, out):
    """Write the sorted intersection of a[:na] and b[lo:hi] into out; return its size."""
    i = U0
    j = np.uint64(lo)
    ea = np.uint64(na)
    eb = np.uint64(hi)
    k = U0
    while i < ea and j < eb:
        x = a[i]
        y = b[j]
        if x < y:
            i += U1
        elif y < x:
            j += U1
        else:
            out[k] = x
            k += U1
            i += U1
            j += U1
    return np.int64(k)


@njit(cache=True)
def _intersect_count(a, na, b, lo, hi):
    """The size of the intersection of the sorted a[:na] and b[lo:hi]."""
    i = U0
    j = np.uint64(lo)
    ea = np.uint64(na)
    eb = np.uint64(hi)
    k = 0
    while i < ea and j < eb:
        x = a[i]
        y = b[j]
        if x < y:
            i += U1
        elif y < x:
            j += U1
        else:
            k += 1
            i += U1
            j += U1
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
def _cliques_total_serial(optr, oind, k, max_out):
    return _cliques_part_range(optr, oind, k, max_out, 0, optr.shape[0] - 1, 1)


@njit(cache=True)
def _cliques_part_range(optr, oind, k, max_out, first, hi, step):
    cand = np.empty((k - 1, max_out + 1), oind.dtype)
    size = np.zeros(k - 1, np.int64)
    pos = np.zeros(k - 1, np.int64)
    c = 0
    for u in range(first, hi, step):
        c += _cliques_from(u, optr, oind, k, cand, size, pos)
    return c


@njit(cache=True, parallel=True)
def _cliques_range(optr, oind, k, max_out, lo, hi, nthreads):
    """k-cliques whose lowest-ranked vertex lies in [lo, hi) (the whole count: [0, n); a batch of
    a run with progress: part of it); thread t takes roots lo + t, lo + t + nthreads, ..."""
    total = 0
    for t in prange(nthreads):
        total += _cliques_part_range(optr, oind, k, max_out, lo + t, hi, nthreads)
    return total
