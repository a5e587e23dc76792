"""Hashing and sketch-building kernels for neighbourhood sketches.

Contract: ``indptr``/``indices`` is a CSR (full or oriented), rows hold distinct vertex ids
< 2**32. Every row is sketched independently, so rows are split over ``nthreads`` interleaved
parts and each iteration writes its own output row. Kernels never validate and never raise.

Hashes: ``_hash32(x, a, c, d)`` is a bijection of the 32-bit integers for every seed triple
(xor, multiplication by an odd constant, the murmur3 finaliser, addition), so distinct vertices
never collide in MinHash/KMV sketches and a sketch that holds a whole set is exact. Bloom
positions come from a hash mapped onto ``[0, B)`` by a multiply-shift (no modulo bias worth
speaking of, and no garbage high bits: everything is computed in masked 64-bit words).
"""

import numpy as np
from numba import njit, prange

from .setops import popcount

M32 = np.uint64(0xFFFFFFFF)
S6 = np.uint64(6)
S13 = np.uint64(13)
S16 = np.uint64(16)
S32 = np.uint64(32)
LOW6 = np.uint64(63)
ONE = np.uint64(1)
C1 = np.uint64(0x85EBCA6B)
C2 = np.uint64(0xC2B2AE35)
EMPTY32 = np.uint32(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _hash32(x, a, c, d):
    """A seeded bijection of 32-bit integers (returned in a uint64)."""
    h = ((np.uint64(x) & M32) ^ a) & M32
    h = (h * c) & M32
    h ^= h >> S16
    h = (h * C1) & M32
    h ^= h >> S13
    h = (h * C2) & M32
    h ^= h >> S16
    return (h + d) & M32


@njit(cache=True, inline="always")
def _bloom_insert(row, x, nbits, seeds):
    """Set the b = len(seeds) bits of element x in a filter row of nbits bits."""
    nb = np.uint64(nbits)
    for j in range(seeds.shape[0]):
        h = _hash32(x, seeds[j, 0], seeds[j, 1], seeds[j, 2])
        pos = (h * nb) >> S32
        row[pos >> S6] |= ONE << (pos & LOW6)


@njit(cache=True, parallel=True)
def _bloom_build(indptr, indices, words, seeds, nthreads):
    """Bloom filters of every row: uint64[n, words], b = len(seeds) hashes, B = 64 * words."""
    out = np.zeros((indptr.shape[0] - 1, words), np.uint64)
    for t in prange(nthreads):
        # np.int64(t): the parfor's body is retyped with an unsigned t (a second compile)
        _bloom_rows(indptr, indices, 64 * words, seeds, np.int64(t), nthreads, out)
    return out


@njit(cache=True)
def _bloom_rows(indptr, indices, nbits, seeds, t, nthreads, out):
    """The Bloom filters of the rows t, t + nthreads, ... into ``out``."""
    for u in range(t, indptr.shape[0] - 1, nthreads):
        row = out[u]
        for p in range(indptr[u], indptr[u + 1]):
            _bloom_insert(row, indices[p], nbits, seeds)


def bloom_build_serial(indptr, indices, words, seeds, nthreads):
    """:func:`_bloom_build` on the calling thread (the same filters), without a parallel
    kernel's compile: for small graphs."""
    out = np.zeros((indptr.shape[0] - 1, words), np.uint64)
    for t in range(nthreads):
        _bloom_rows(indptr, indices, 64 * words, seeds, t, nthreads, out)
    return out


@njit(cache=True, parallel=True)
def _bloom_ones(filters, nthreads):
    """Set bits of every filter row."""
    n = filters.shape[0]
    out = np.zeros(n, np.int64)
    for t in prange(nthreads):
        for u in range(t, n, nthreads):
            c = 0
            for w in range(filters.shape[1]):
                c += popcount(filters[u, w])
            out[u] = c
    return out


@njit(cache=True, inline="always")
def _khash_fill(row, elems, lo, hi, seeds):
    """k-hash MinHash of elems[lo:hi] into row (one minimum per seeded hash)."""
    for j in range(seeds.shape[0]):
        a = seeds[j, 0]
        c = seeds[j, 1]
        d = seeds[j, 2]
        best = np.uint64(0xFFFFFFFF)
        for p in range(lo, hi):
            h = _hash32(elems[p], a, c, d)
            if h < best:
                best = h
        row[j] = np.uint32(best)


@njit(cache=True, parallel=True)
def _khash_build(indptr, indices, seeds, nthreads):
    """k-hash MinHash of every row: uint32[n, k] (0xFFFFFFFF for empty rows)."""
    n = indptr.shape[0] - 1
    k = seeds.shape[0]
    out = np.empty((n, k), np.uint32)
    for t in prange(nthreads):
        for u in range(t, n, nthreads):
            _khash_fill(out[u], indices, indptr[u], indptr[u + 1], seeds)
    return out


@njit(cache=True, inline="always")
def _sift_down(h, i, s):
    """Restore the max-heap h[0:s] below position i."""
    x = h[i]
    while True:
        c = 2 * i + 1
        if c >= s:
            break
        if c + 1 < s and h[c + 1] > h[c]:
            c += 1
        if h[c] <= x:
            break
        h[i] = h[c]
        i = c
    h[i] = x


@njit(cache=True)
def _bottomk_fill(row, elems, lo, hi, seed, buf):
    """The k = len(row) smallest hash values of elems[lo:hi], sorted, into row; returns how many.

    A max-heap of the k smallest seen so far (a value below its top replaces it), then a heap
    sort: O(m + k log k) expected for random hashes, and plain loops (np.partition and np.sort
    cost about 10 s of compile on the 2-core machine). The k smallest of distinct values are one
    set, so the row is the same whatever the selection method. ``buf`` (scratch of the callers)
    is not needed.
    """
    m = hi - lo
    k = row.shape[0]
    s = min(m, k)
    for p in range(s):
        row[p] = np.uint32(_hash32(elems[lo + p], seed[0], seed[1], seed[2]))
    for i in range(s // 2 - 1, -1, -1):
        _sift_down(row, i, s)
    for p in range(s, m):
        x = np.uint32(_hash32(elems[lo + p], seed[0], seed[1], seed[2]))
        if x < row[0]:
            row[0] = x
            _sift_down(row, 0, s)
    for e in range(s - 1, 0, -1):  # heap sort: the largest to the end
        x = row[0]
        row[0] = row[e]
        row[e] = x
        _sift_down(row, 0, e)
    for p in range(s, k):
        row[p] = EMPTY32
    return s


@njit(cache=True, parallel=True)
def _bottomk_build(indptr, indices, k, seed, max_deg, nthreads):
    """Bottom-k (1-hash MinHash / KMV) sketch of every row: uint32[n, k] sorted, and sizes."""
    n = indptr.shape[0] - 1
    out = np.empty((n, k), np.uint32)
    sizes = np.zeros(n, np.int64)
    for t in prange(nthreads):
        buf = np.empty(max(max_deg, 1), np.uint32)
        for u in range(t, n, nthreads):
            sizes[u] = _bottomk_fill(out[u], indices, indptr[u], indptr[u + 1], seed, buf)
    return out, sizes


@njit(cache=True, parallel=True)
def _bloom_hub_build(indptr, indices, hub_words, words, seeds, nthreads):
    """Split sketches of every row: an exact bitmap of the ``64 * hub_words`` largest ids (the
    hubs, ids >= n - 64 * hub_words; bit x - base) and a Bloom filter of the other elements.

    Returns (hub bitmaps uint64[n, hub_words], filters uint64[n, words], hub elements per row).
    """
    n = indptr.shape[0] - 1
    base = n - 64 * hub_words
    hubs = np.zeros((n, hub_words), np.uint64)
    out = np.zeros((n, words), np.uint64)
    counts = np.zeros(n, np.int64)
    nbits = 64 * words
    for t in prange(nthreads):
        for u in range(t, n, nthreads):
            row = out[u]
            c = 0
            for p in range(indptr[u], indptr[u + 1]):
                x = indices[p]
                if x >= base:
                    y = np.uint64(x - base)
                    hubs[u, y >> S6] |= ONE << (y & LOW6)
                    c += 1
                else:
                    _bloom_insert(row, x, nbits, seeds)
            counts[u] = c
    return hubs, out, counts


@njit(cache=True)
def _bloom_hub_ranked_rows(indptr, indices, rank, hub_words, words, seeds, t, nthreads, rows, counts, dplus,
                           start, arcs):
    """The rows of :func:`_bloom_hub_build_ranked` of the vertices t, t + nthreads, ... (each
    vertex writes its own row and its own slots only)."""
    n = indptr.shape[0] - 1
    base = n - 64 * hub_words
    hw = np.uint64(hub_words)
    nb = np.uint64(64 * words)
    for u in range(t, n, nthreads):
        ru = rank[u]
        a = indptr[u]
        d = 0
        for p in range(a, indptr[u + 1]):
            x = rank[indices[p]]
            arcs[a + d] = x
            d += np.int64(x > ru)
        row = rows[ru]
        c = 0
        for p in range(a, a + d):
            x = arcs[p]
            if x >= base:
                y = np.uint64(x - base)
                row[y >> S6] |= ONE << (y & LOW6)
                c += 1
            else:
                for q in range(seeds.shape[0]):
                    h = _hash32(x, seeds[q, 0], seeds[q, 1], seeds[q, 2])
                    pos = (h * nb) >> S32
                    row[hw + (pos >> S6)] |= ONE << (pos & LOW6)
        counts[ru] = c
        dplus[ru] = d
        start[ru] = a


def _bloom_hub_ranked_alloc(n, nnz, hub_words, words, dtype):
    """The outputs of :func:`_bloom_hub_build_ranked`, allocated by numpy (rows zeroed)."""
    return (np.zeros((n, hub_words + words), np.uint64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.empty(n, np.int64), np.empty(nnz, dtype))


def bloom_hub_build_ranked_serial(indptr, indices, rank, hub_words, words, seeds, nthreads):
    """:func:`_bloom_hub_build_ranked` on the calling thread, part after part (the same arrays),
    with one small serial kernel: for small graphs whose parallel kernel is not compiled yet."""
    out = _bloom_hub_ranked_alloc(indptr.shape[0] - 1, indices.shape[0], hub_words, words, rank.dtype)
    for t in range(nthreads):
        _bloom_hub_ranked_rows(indptr, indices, rank, hub_words, words, seeds, t, nthreads, *out)
    return out


@njit(cache=True, parallel=True)
def _bloom_hub_build_ranked(indptr, indices, rank, hub_words, words, seeds, nthreads):
    """Split sketches of the out-neighbourhoods N+(v) = {w in N(v): rank[w] > rank[v]} read
    straight from the full CSR, with the arcs they hold, in one pass and without an oriented
    CSR (no prefix sum over the out-degrees, no sorted rows).

    Everything is indexed by rank and elements are hashed and stored by rank, so with the same
    seeds the rows equal those of :func:`_bloom_hub_build` over the orientation relabelled by
    ``rank``. Hubs are the ranks >= n - 64 * hub_words. The arcs of the vertex of rank r are
    ``arcs[start[r]:start[r] + dplus[r]]`` (ranks, unsorted), written over the first entries
    of its row's slot in a copy the size of ``indices``: the test rank[w] > rank[v] is a coin
    flip for the branch predictor, so every neighbour is written and the end advances by the
    test's outcome. Each row holds the hub bitmap (``hub_words`` words) followed by the Bloom
    filter (``words``), so one estimate reads one run of memory. Returns (rows, hub elements
    per row, out-degrees, start, arcs).
    """
    n = indptr.shape[0] - 1
    rows = np.zeros((n, hub_words + words), np.uint64)
    counts = np.zeros(n, np.int64)
    dplus = np.zeros(n, np.int64)
    start = np.empty(n, np.int64)
    arcs = np.empty(indices.shape[0], rank.dtype)
    for t in prange(nthreads):
        # np.int64(t): the parfor's body is retyped with an unsigned t (a second compile)
        _bloom_hub_ranked_rows(indptr, indices, rank, hub_words, words, seeds, np.int64(t), nthreads, rows, counts,
                               dplus, start, arcs)
    return rows, counts, dplus, start, arcs
