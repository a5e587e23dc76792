"""Numba kernels that build and transform the CSR core.

Contract of every kernel here: inputs are already validated (ids in range, arrays contiguous);
kernels never validate and never raise. Thread counts are passed in explicitly so that the cached
machine code does not depend on the caller's thread setting.
"""

import numpy as np
from numba import njit, prange


@njit(cache=True, parallel=True)
def _upper_counts(src, dst, n, nthreads):
    """Per-thread counts of the edges each vertex u stores as min(u, v) (self-loops skipped).

    Thread t handles the t-th contiguous block of edges, so its writes go to row t only.
    Returns (counts of shape (nthreads, n), number of self-loops).
    """
    m = src.shape[0]
    chunk = (m + nthreads - 1) // nthreads
    cnt = np.zeros((nthreads, n), np.int64)
    loops = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        row = cnt[t]
        lp = 0
        for i in range(t * chunk, min(m, (t + 1) * chunk)):
            u = src[i]
            v = dst[i]
            if u == v:
                lp += 1
            elif u < v:
                row[u] += 1
            else:
                row[v] += 1
        loops[t] = lp
    return cnt, loops.sum()


@njit(cache=True, parallel=True)
def _scatter_upper(src, dst, start, out, nthreads):
    """Write max(u, v) into row min(u, v); start[t, u] is thread t's first slot in row u."""
    m = src.shape[0]
    chunk = (m + nthreads - 1) // nthreads
    for t in prange(nthreads):
        fill = start[t]
        for i in range(t * chunk, min(m, (t + 1) * chunk)):
            u = src[i]
            v = dst[i]
            if u < v:
                out[fill[u]] = v
                fill[u] += 1
            elif v < u:
                out[fill[v]] = u
                fill[v] += 1


@njit(cache=True, parallel=True)
def _sort_rows_count_unique(indptr, indices, nthreads):
    """Sort every row in place and return the number of distinct entries per row."""
    n = indptr.shape[0] - 1
    uniq = np.zeros(n, np.int64)
    for t in prange(nthreads):
        for u in range(t, n, nthreads):
            a = indptr[u]
            b = indptr[u + 1]
            if b - a > 1:
                indices[a:b].sort()
            c = 0
            for j in range(a, b):
                if j == a or indices[j] != indices[j - 1]:
                    c += 1
            uniq[u] = c
    return uniq


@njit(cache=True)
def _lower_counts(uptr, ubuf):
    """For every vertex, how many distinct smaller neighbours it has."""
    n = uptr.shape[0] - 1
    low = np.zeros(n, np.int64)
    for u in range(n):
        for j in range(uptr[u], uptr[u + 1]):
            if j == uptr[u] or ubuf[j] != ubuf[j - 1]:
                low[ubuf[j]] += 1
    return low


@njit(cache=True, parallel=True)
def _assemble_symmetric(uptr, ubuf, low, indptr, out, nthreads):
    """Final rows: smaller neighbours (ascending) followed by the distinct larger ones.

    The larger part is a parallel copy of the sorted upper rows; the smaller part is filled by
    one pass over u in increasing order, which writes every row's smaller neighbours in order.
    """
    n = uptr.shape[0] - 1
    for t in prange(nthreads):
        for u in range(t, n, nthreads):
            p = indptr[u] + low[u]
            for j in range(uptr[u], uptr[u + 1]):
                if j == uptr[u] or ubuf[j] != ubuf[j - 1]:
                    out[p] = ubuf[j]
                    p += 1
    fill = indptr[:n].copy()
    for u in range(n):
        for j in range(uptr[u], uptr[u + 1]):
            if j == uptr[u] or ubuf[j] != ubuf[j - 1]:
                v = ubuf[j]
                out[fill[v]] = u
                fill[v] += 1


@njit(cache=True)
def _csr_from_pairs(src, dst, n, nthreads):
    """The whole symmetric-CSR build in one compiled call (one cache entry to load, no Python
    between the steps): returns (indptr, indices, self-loops)."""
    cnt, loops = _upper_counts(src, dst, n, nthreads)
    uptr = np.zeros(n + 1, np.int64)
    for u in range(n):
        s = 0
        for t in range(nthreads):
            s += cnt[t, u]
        uptr[u + 1] = uptr[u] + s
    # slot of thread t in row u: row start + counts of the threads before t
    start = np.empty((nthreads, n), np.int64)
    for u in range(n):
        acc = uptr[u]
        for t in range(nthreads):
            start[t, u] = acc
            acc += cnt[t, u]
    ubuf = np.empty(uptr[n], src.dtype)
    _scatter_upper(src, dst, start, ubuf, nthreads)
    uniq = _sort_rows_count_unique(uptr, ubuf, nthreads)
    low = _lower_counts(uptr, ubuf)
    indptr = np.zeros(n + 1, np.int64)
    for u in range(n):
        indptr[u + 1] = indptr[u] + uniq[u] + low[u]
    indices = np.empty(indptr[n], src.dtype)
    _assemble_symmetric(uptr, ubuf, low, indptr, indices, nthreads)
    return indptr, indices, loops


@njit(cache=True)
def _compact_dense(ids, size, out, nthreads):
    """Renumber ids (all < size) to 0..k-1 in increasing id order, writing into ``out``;
    return the distinct ids (the new numbering's original ids)."""
    present = np.zeros(size, np.bool_)
    for i in range(ids.shape[0]):
        present[np.uint64(ids[i])] = True
    newid = np.empty(size, np.int64)
    k = 0
    for x in range(size):
        newid[x] = k
        if present[x]:
            k += 1
    node_ids = np.empty(k, np.int64)
    for x in range(size):
        if present[x]:
            node_ids[newid[x]] = x
    _remap(ids, newid, out, nthreads)
    return node_ids


@njit(cache=True, parallel=True)
def _remap(ids, newid, out, nthreads):
    m = ids.shape[0]
    chunk = (m + nthreads - 1) // nthreads
    for t in prange(nthreads):
        for i in range(t * chunk, min(m, (t + 1) * chunk)):
            out[i] = newid[np.uint64(ids[i])]


@njit(cache=True, parallel=True)
def _orient(indptr, indices, rank, nthreads):
    """Keep the arcs u -> v with rank[u] < rank[v]; rows stay sorted by vertex id."""
    n = indptr.shape[0] - 1
    outdeg = np.zeros(n + 1, np.int64)
    for t in prange(nthreads):
        for u in range(t, n, nthreads):
            c = 0
            ru = rank[u]
            for j in range(indptr[u], indptr[u + 1]):
                if rank[indices[j]] > ru:
                    c += 1
            outdeg[u + 1] = c
    optr = np.cumsum(outdeg)
    out = np.empty(optr[n], indices.dtype)
    for t in prange(nthreads):
        for u in range(t, n, nthreads):
            p = optr[u]
            ru = rank[u]
            for j in range(indptr[u], indptr[u + 1]):
                v = indices[j]
                if rank[v] > ru:
                    out[p] = v
                    p += 1
    return optr, out


@njit(cache=True)
def _degeneracy_order(indptr, indices):
    """Matula-Beck bucket peeling: return (rank of every vertex in the order, core numbers)."""
    n = indptr.shape[0] - 1
    deg = np.empty(n, np.int64)
    maxdeg = 0
    for u in range(n):
        deg[u] = indptr[u + 1] - indptr[u]
        if deg[u] > maxdeg:
            maxdeg = deg[u]
    # bin[d] = start of the block of vertices of current degree d in `vert`
    bins = np.zeros(maxdeg + 2, np.int64)
    for u in range(n):
        bins[deg[u] + 1] += 1
    for d in range(1, maxdeg + 2):
        bins[d] += bins[d - 1]
    start = bins.copy()
    vert = np.empty(n, np.int64)
    pos = np.empty(n, np.int64)
    for u in range(n):
        p = start[deg[u]]
        vert[p] = u
        pos[u] = p
        start[deg[u]] += 1
    core = np.empty(n, np.int64)
    rank = np.empty(n, np.int64)
    for i in range(n):
        u = vert[i]
        rank[u] = i
        core[u] = deg[u]
        for j in range(indptr[u], indptr[u + 1]):
            w = indices[j]
            if deg[w] > deg[u]:
                dw = deg[w]
                pw = pos[w]
                pfirst = bins[dw]
                x = vert[pfirst]
                if x != w:
                    vert[pw] = x
                    pos[x] = pw
                    vert[pfirst] = w
                    pos[w] = pfirst
                bins[dw] += 1
                deg[w] = dw - 1
    return rank, core


@njit(cache=True)
def _relabel_outdeg(indptr, indices, rank, inv, outdeg, t, nthreads):
    """outdeg[r + 1] = number of higher-ranked neighbours of inv[r], for r = t, t + nthreads, ..."""
    n = indptr.shape[0] - 1
    for r in range(t, n, nthreads):
        u = np.uint64(inv[r])
        c = 0
        for j in range(np.uint64(indptr[u]), np.uint64(indptr[u + np.uint64(1)])):
            if rank[np.uint64(indices[j])] > r:
                c += 1
        outdeg[r + 1] = c


@njit(cache=True)
def _relabel_scatter(indptr, indices, rank, inv, optr, out):
    """Targets x in increasing order, each appended to the rows of its lower-ranked neighbours:
    the rows come out sorted without sorting."""
    n = indptr.shape[0] - 1
    fill = optr[:n].copy()
    for x in range(n):
        w = np.uint64(inv[x])
        for j in range(np.uint64(indptr[w]), np.uint64(indptr[w + np.uint64(1)])):
            r = rank[np.uint64(indices[j])]
            if r < x:
                out[np.uint64(fill[r])] = x
                fill[r] += 1


@njit(cache=True, parallel=True)
def _orient_relabel(indptr, indices, rank, nthreads):
    """Orientation in rank space: vertex rank[u] gets the sorted ranks of u's higher-ranked
    neighbours. Vertices of similar degree become neighbours in memory, which the counting
    kernels' marker arrays and caches reward on skewed graphs."""
    n = indptr.shape[0] - 1
    inv = np.empty(n, np.int64)
    for u in range(n):
        inv[rank[u]] = u
    outdeg = np.zeros(n + 1, np.int64)
    for t in prange(nthreads):
        _relabel_outdeg(indptr, indices, rank, inv, outdeg, t, nthreads)
    optr = np.cumsum(outdeg)
    out = np.empty(optr[n], indices.dtype)
    for t in prange(nthreads):
        _relabel_rows(indptr, indices, rank, inv, optr, out, t, nthreads)
    return optr, out


@njit(cache=True)
def _relabel_rows(indptr, indices, rank, inv, optr, out, t, nthreads):
    """Rows r = t, t + nthreads, ... of the rank-space orientation, each gathered and sorted on
    its own (the serial scatter's order-preserving appends cannot be split over threads)."""
    n = indptr.shape[0] - 1
    for r in range(t, n, nthreads):
        u = np.uint64(inv[r])
        a = optr[r]
        c = a
        for j in range(np.uint64(indptr[u]), np.uint64(indptr[u + np.uint64(1)])):
            x = rank[np.uint64(indices[j])]
            if x > r:
                out[c] = x
                c += 1
        if c - a > 24:
            out[a:c].sort()
        else:  # short rows (most of them): insertion sort, no call overhead
            for i in range(a + 1, c):
                x = out[i]
                j = i - 1
                while j >= a and out[j] > x:
                    out[j + 1] = out[j]
                    j -= 1
                out[j + 1] = x


@njit(cache=True)
def _orient_relabel_serial(indptr, indices, rank):
    """:func:`_orient_relabel` on one thread, for graphs too small to wake a thread pool."""
    n = indptr.shape[0] - 1
    inv = np.empty(n, np.int64)
    for u in range(n):
        inv[rank[u]] = u
    outdeg = np.zeros(n + 1, np.int64)
    _relabel_outdeg(indptr, indices, rank, inv, outdeg, 0, 1)
    optr = np.cumsum(outdeg)
    out = np.empty(optr[n], indices.dtype)
    _relabel_scatter(indptr, indices, rank, inv, optr, out)
    return optr, out
