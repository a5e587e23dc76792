"""Numba kernels that build and transform the CSR core.

Contract of every kernel here: inputs are already validated (ids in range, arrays contiguous);
kernels never validate and never raise. Thread counts are passed in explicitly so that the cached
machine code does not depend on the caller's thread setting.
"""

import numpy as np
from numba import njit, prange


# vertices per bucket of the CSR build: 2**shift, at most 2**16 so that a vertex's offset inside
# its bucket fits in a uint16 (6 bytes per arc in flight instead of 8 or 16)
_MAX_SHIFT = 16
# buckets wanted: enough for every thread to get a balanced share of the arcs, few enough that
# every thread's bucket counters stay in its cache
_BUCKETS = 4096


@njit(inline="always")
def _max_row(ptr):
    """The longest row of a CSR (0 for none)."""
    maxd = 0
    for u in range(ptr.shape[0] - 1):
        maxd = max(maxd, ptr[u + 1] - ptr[u])
    return maxd


@njit(cache=True, nogil=True)
def _bucket_shift(n):
    shift = 0
    while shift < _MAX_SHIFT and (n >> shift) > _BUCKETS:
        shift += 1
    return shift


@njit(cache=True, parallel=True, nogil=True)
def _upper_bucket_counts(src, dst, shift, nb, nthreads):
    """Arcs per (thread, bucket): thread t takes the t-th block of edges and counts the arc
    min(u, v) -> max(u, v) of every edge into the bucket of its source (self-loops skipped).

    Returns (counts of shape (nthreads, nb), number of self-loops).
    """
    m = src.shape[0]
    chunk = (m + nthreads - 1) // nthreads
    cnt = np.zeros((nthreads, nb), np.int64)
    loops = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        row = cnt[t]
        lp = 0
        for i in range(t * chunk, min(m, (t + 1) * chunk)):
            u = src[np.uint64(i)]
            v = dst[np.uint64(i)]
            if u == v:
                lp += 1
            else:
                row[min(u, v) >> shift] += 1
        loops[t] = lp
    return cnt, loops.sum()


@njit(cache=True, parallel=True, nogil=True)
def _scatter_upper_arcs(src, dst, shift, fill, arc_lo, arc_to, nthreads):
    """Counting sort of the arcs min -> max by bucket: fill[t, b] is thread t's next slot in
    bucket b, so no two threads write the same slot. An arc keeps its source as the offset in
    its bucket."""
    m = src.shape[0]
    chunk = (m + nthreads - 1) // nthreads
    mask = (1 << shift) - 1
    for t in prange(nthreads):
        f = fill[t]
        for i in range(t * chunk, min(m, (t + 1) * chunk)):
            u = src[np.uint64(i)]
            v = dst[np.uint64(i)]
            if u != v:
                a = min(u, v)
                b = a >> shift
                p = f[np.uint64(b)]
                arc_lo[np.uint64(p)] = a & mask
                arc_to[np.uint64(p)] = max(u, v)
                f[np.uint64(b)] = p + 1


@njit(cache=True, parallel=True, nogil=True)
def _lower_bucket_counts(rows, rowstart, deg, first, shift, n, nb, nthreads):
    """Per (thread, bucket) counts of the reversed upper arcs b -> a, thread t walking the
    sources a of its own buckets."""
    cnt = np.zeros((nthreads, nb), np.int64)
    for t in prange(nthreads):
        row = cnt[t]
        for a in range(min(n, first[t] << shift), min(n, first[t + 1] << shift)):
            s = rowstart[np.uint64(a)]
            for j in range(s, s + deg[np.uint64(a)]):
                row[rows[np.uint64(j)] >> shift] += 1
    return cnt


@njit(cache=True, parallel=True, nogil=True)
def _scatter_lower_arcs(rows, rowstart, deg, first, shift, n, fill, arc_lo, arc_to, nthreads):
    """Reversed arcs into their buckets. Threads hold increasing runs of sources and their slots
    in a bucket follow thread order, so every bucket receives its arcs by increasing source:
    the stable counting sort into rows then leaves each row sorted without sorting it."""
    mask = (1 << shift) - 1
    for t in prange(nthreads):
        f = fill[t]
        for a in range(min(n, first[t] << shift), min(n, first[t + 1] << shift)):
            s = rowstart[np.uint64(a)]
            for j in range(s, s + deg[np.uint64(a)]):
                v = rows[np.uint64(j)]
                b = v >> shift
                p = f[np.uint64(b)]
                arc_lo[np.uint64(p)] = v & mask
                arc_to[np.uint64(p)] = a
                f[np.uint64(b)] = p + 1


# rows up to this long are insertion-sorted; longer ones made of a few ascending runs (what
# a file sorted by source gives: the row's own block of lines between the lines naming it as a
# target) are merged through a per-thread scratch of _MERGE_MAX entries; others are sorted
_INSERTION_MAX = 24
_MERGE_RUNS = 4
_MERGE_MAX = 1 << 14


@njit(cache=True, inline="always")
def _insertion_sort(a, s, e):
    """Sort the short row a[s:e] in place (no call overhead, no scratch)."""
    for i in range(s + 1, e):
        x = a[np.uint64(i)]
        j = i - 1
        while j >= s and a[np.uint64(j)] > x:
            a[np.uint64(j + 1)] = a[np.uint64(j)]
            j -= 1
        a[np.uint64(j + 1)] = x


@njit(cache=True, inline="always")
def _sort_short_row(a, s, e):
    """Sort a[s:e] in place: insertion sort while the row is short (most rows; no call, no
    scratch), numpy's sort beyond :data:`_INSERTION_MAX` entries."""
    if e - s > _INSERTION_MAX:
        a[s:e].sort()
    else:
        _insertion_sort(a, s, e)


@njit(cache=True, nogil=True)
def _sort_row(a, s, e, tmp):
    """Sort a[s:e] in place, adapting to ascending runs already there."""
    if e - s <= _INSERTION_MAX:
        _insertion_sort(a, s, e)
        return
    runs = 1
    for i in range(s + 1, e):
        if a[np.uint64(i)] < a[np.uint64(i - 1)]:
            runs += 1
            if runs > _MERGE_RUNS:
                break
    if runs == 1:
        return
    if runs > _MERGE_RUNS or e - s > tmp.shape[0]:
        a[s:e].sort()
        return
    # merge the first run with the next one, again and again
    mid = s + 1
    while mid < e and a[np.uint64(mid)] >= a[np.uint64(mid - 1)]:
        mid += 1
    while mid < e:
        end = mid + 1
        while end < e and a[np.uint64(end)] >= a[np.uint64(end - 1)]:
            end += 1
        i = s
        j = mid
        k = 0
        while i < mid and j < end:
            if a[np.uint64(j)] < a[np.uint64(i)]:
                tmp[np.uint64(k)] = a[np.uint64(j)]
                j += 1
            else:
                tmp[np.uint64(k)] = a[np.uint64(i)]
                i += 1
            k += 1
        while i < mid:
            tmp[np.uint64(k)] = a[np.uint64(i)]
            i += 1
            k += 1
        # what is left of the second run is already in place
        for q in range(k):
            a[np.uint64(s + q)] = tmp[np.uint64(q)]
        mid = end


@njit(cache=True, inline="always")
def _sort_unique(a, s, e, tmp):
    """Sort a[s:e] in place, move its distinct values to a[s:s + k] and return k."""
    _sort_row(a, s, e, tmp)
    k = s
    for q in range(s, e):
        if k == s or a[np.uint64(q)] != a[np.uint64(k - 1)]:
            a[np.uint64(k)] = a[np.uint64(q)]
            k += 1
    return k - s


@njit(cache=True, parallel=True, nogil=True)
def _bucket_rows(arc_lo, arc_to, bstart, first, shift, n, rows, rowstart, deg, dedupe, nthreads):
    """Thread t turns buckets first[t]..first[t + 1] - 1 into rows: a stable counting sort by
    source inside the bucket (into ``rows``, same span as the bucket), then, if ``dedupe``,
    every row sorted and its duplicates dropped. rowstart[u] is where row u begins in ``rows``,
    deg[u] its length."""
    width = 1 << shift
    for t in prange(nthreads):
        pos = np.empty(width + 1, np.int64)
        tmp = np.empty(_MERGE_MAX, rows.dtype)
        for b in range(first[t], first[t + 1]):
            a0 = bstart[b]
            a1 = bstart[b + 1]
            lo = b << shift
            w = min(n, lo + width) - lo
            pos[:w + 1] = 0
            for p in range(a0, a1):
                pos[np.uint64(np.int64(arc_lo[np.uint64(p)]) + 1)] += 1
            for j in range(w):
                pos[np.uint64(j + 1)] += pos[np.uint64(j)]
            for j in range(w):
                rowstart[np.uint64(lo + j)] = a0 + pos[np.uint64(j)]
            for p in range(a0, a1):
                j = np.int64(arc_lo[np.uint64(p)])
                q = pos[np.uint64(j)]
                rows[np.uint64(a0 + q)] = arc_to[np.uint64(p)]
                pos[np.uint64(j)] = q + 1
            # pos[j] is now where row j ends
            for j in range(w):
                s = rowstart[np.uint64(lo + j)]
                if dedupe:
                    deg[np.uint64(lo + j)] = _sort_unique(rows, s, a0 + pos[np.uint64(j)], tmp)
                else:
                    deg[np.uint64(lo + j)] = a0 + pos[np.uint64(j)] - s


@njit(cache=True, parallel=True, nogil=True)
def _block_offsets(x, nthreads):
    """The first pass of a parallel prefix sum: with x cut into nthreads blocks of
    ceil(n / nthreads), part[t] = the sum of the blocks before block t (part[nthreads]: all)."""
    n = x.shape[0]
    chunk = (n + nthreads - 1) // nthreads
    part = np.zeros(nthreads + 1, np.int64)
    for t in prange(nthreads):
        s = 0
        for i in range(t * chunk, min(n, (t + 1) * chunk)):
            s += x[i]
        part[t + 1] = s
    for t in range(nthreads):
        part[t + 1] += part[t]
    return part


@njit(cache=True, parallel=True, nogil=True)
def _exclusive_sums(x, out, nthreads):
    """out[0] = 0, out[i + 1] = x[0] + ... + x[i], in two parallel passes over blocks."""
    n = x.shape[0]
    chunk = (n + nthreads - 1) // nthreads
    part = _block_offsets(x, nthreads)
    out[0] = 0
    for t in prange(nthreads):
        acc = part[t]
        for i in range(t * chunk, min(n, (t + 1) * chunk)):
            acc += x[i]
            out[i + 1] = acc
    return part[nthreads]


@njit(cache=True, parallel=True, nogil=True)
def _copy_rows(low, lowstart, lowdeg, up, upstart, updeg, indptr, out, first, shift, n, nthreads):
    """Pack every row (its smaller neighbours, then its larger ones) into the final indices;
    thread t copies the rows it built (warm caches)."""
    for t in prange(nthreads):
        for u in range(min(n, first[t] << shift), min(n, first[t + 1] << shift)):
            d = indptr[u]
            s = lowstart[u]
            for j in range(lowdeg[u]):
                out[d + j] = low[s + j]
            d += lowdeg[u]
            s = upstart[u]
            for j in range(updeg[u]):
                out[d + j] = up[s + j]


@njit(cache=True, nogil=True)
def _bucket_layout(cnt, nthreads):
    """Bucket starts and every thread's first slot in every bucket (slots in thread order)."""
    nb = cnt.shape[1]
    bstart = np.empty(nb + 1, np.int64)
    fill = np.empty((nthreads, nb), np.int64)
    acc = 0
    for b in range(nb):
        bstart[b] = acc
        for t in range(nthreads):
            fill[t, b] = acc
            acc += cnt[t, b]
    bstart[nb] = acc
    return bstart, fill


@njit(cache=True, nogil=True)
def _rows(src, dst, n, nthreads, arc_lo, arc_to, up, low):
    """Both halves of every row, in ``up`` (larger neighbours) and ``low`` (smaller ones); the
    arc buffers, ``up`` and ``low`` hold at least len(src) entries. Returns (shift, first,
    upstart, updeg, lowstart, lowdeg, indptr, self-loops) with indptr the final row offsets.

    First the arcs min(u, v) -> max(u, v): rows sorted and deduplicated. Then the distinct arcs
    reversed, fed in source order so that the stable bucket sort leaves every row sorted.
    """
    shift = _bucket_shift(n)
    nb = max(1, (n + (1 << shift) - 1) >> shift)
    cnt, loops = _upper_bucket_counts(src, dst, shift, nb, nthreads)
    bstart, fill = _bucket_layout(cnt, nthreads)
    total = bstart[nb]
    _scatter_upper_arcs(src, dst, shift, fill, arc_lo, arc_to, nthreads)
    first = np.empty(nthreads + 1, np.int64)
    for t in range(nthreads + 1):
        first[t] = np.searchsorted(bstart[:nb], total * t // nthreads)
    first[nthreads] = nb
    upstart = np.empty(n, np.int64)
    updeg = np.empty(n, np.int64)
    _bucket_rows(arc_lo, arc_to, bstart, first, shift, n, up, upstart, updeg, True, nthreads)
    cnt = _lower_bucket_counts(up, upstart, updeg, first, shift, n, nb, nthreads)
    lstart, fill = _bucket_layout(cnt, nthreads)
    _scatter_lower_arcs(up, upstart, updeg, first, shift, n, fill, arc_lo, arc_to, nthreads)
    lowstart = np.empty(n, np.int64)
    lowdeg = np.empty(n, np.int64)
    _bucket_rows(arc_lo, arc_to, lstart, first, shift, n, low, lowstart, lowdeg, False, nthreads)
    indptr = np.empty(n + 1, np.int64)
    _exclusive_sums(updeg + lowdeg, indptr, nthreads)
    return shift, first, upstart, updeg, lowstart, lowdeg, indptr, loops


def _csr_from_pairs(src, dst, n, nthreads):
    """The symmetric CSR of the edges (src[i], dst[i]): returns (indptr, indices, self-loops).

    Counting sorts in two levels, with no atomics and no per-thread O(n) counters: arcs go into
    buckets of 2**shift consecutive vertices (per-thread slots, so threads never share one),
    then each bucket, by one thread, into rows. First the arcs min(u, v) -> max(u, v): rows
    sorted (merging their ascending runs where they have few) and deduplicated in place. Then
    the distinct arcs reversed, fed in increasing source order so that the stable sort leaves
    the smaller neighbours sorted. Threads take contiguous runs of buckets holding equal shares
    of the arcs. Memory: 6 + 2 * itemsize bytes per edge in flight, plus O(n).

    The large buffers are numpy's (which asks the kernel for huge pages): first touches of
    fresh memory, not the arithmetic, dominate a build otherwise. The arc buffers serve both
    passes; two compiled calls in all (each costs a cache load on a process's first build).
    """
    m = src.shape[0]
    arc_lo = np.empty(m, np.uint16)
    arc_to = np.empty(m, src.dtype)
    up = np.empty(m, src.dtype)
    low = np.empty(m, src.dtype)
    shift, first, upstart, updeg, lowstart, lowdeg, indptr, loops = _rows(
        src, dst, n, nthreads, arc_lo, arc_to, up, low)
    del arc_lo, arc_to
    indices = np.empty(int(indptr[n]), src.dtype)
    _copy_rows(low, lowstart, lowdeg, up, upstart, updeg, indptr, indices, first, shift, n, nthreads)
    return indptr, indices, int(loops)


@njit(cache=True, parallel=True, nogil=True)
def _mark_present(ids, present, nthreads):
    """present[x] = 1 for every id x (threads may store the same 1 twice: harmless)."""
    m = ids.shape[0]
    chunk = (m + nthreads - 1) // nthreads
    for t in prange(nthreads):
        for i in range(t * chunk, min(m, (t + 1) * chunk)):
            present[np.uint64(ids[i])] = 1


@njit(cache=True, parallel=True, nogil=True)
def _dense_numbering(present, newid, nthreads):
    """newid[x] = number of present ids below x; returns the present ids in increasing order."""
    size = present.shape[0]
    chunk = (size + nthreads - 1) // nthreads
    part = _block_offsets(present, nthreads)
    node_ids = np.empty(part[nthreads], np.int64)
    for t in prange(nthreads):
        k = part[t]
        for x in range(t * chunk, min(size, (t + 1) * chunk)):
            newid[x] = k
            if present[x]:
                node_ids[k] = x
                k += 1
    return node_ids


@njit(cache=True, nogil=True)
def _compact_dense(ids, size, out, nthreads):
    """Renumber ids (all < size) to 0..k-1 in increasing id order, writing into ``out``;
    return the distinct ids (the new numbering's original ids)."""
    present = np.zeros(size, np.uint8)
    _mark_present(ids, present, nthreads)
    newid = np.empty(size, out.dtype)
    node_ids = _dense_numbering(present, newid, nthreads)
    _remap(ids, newid, out, nthreads)
    return node_ids


@njit(cache=True, parallel=True, nogil=True)
def _remap_pairs(edges, newid, src, dst, nthreads):
    m = edges.shape[0]
    chunk = (m + nthreads - 1) // nthreads
    for t in prange(nthreads):
        for i in range(t * chunk, min(m, (t + 1) * chunk)):
            src[i] = newid[np.uint64(edges[i, 0])]
            dst[i] = newid[np.uint64(edges[i, 1])]


@njit(cache=True, nogil=True)
def _compact_pairs(edges, size, src, dst, nthreads):
    """:func:`_compact_dense` for an (m, 2) edge array, writing the two endpoint columns into
    separate contiguous arrays (what the CSR build reads) in the same pass."""
    present = np.zeros(size, np.uint8)
    _mark_present(edges.reshape(-1), present, nthreads)
    newid = np.empty(size, src.dtype)
    node_ids = _dense_numbering(present, newid, nthreads)
    _remap_pairs(edges, newid, src, dst, nthreads)
    return node_ids


@njit(cache=True, parallel=True, nogil=True)
def _remap(ids, newid, out, nthreads):
    m = ids.shape[0]
    chunk = (m + nthreads - 1) // nthreads
    for t in prange(nthreads):
        for i in range(t * chunk, min(m, (t + 1) * chunk)):
            out[i] = newid[np.uint64(ids[i])]


@njit(cache=True, parallel=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, parallel=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
        _sort_short_row(out, a, c)


@njit(cache=True, nogil=True)
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
