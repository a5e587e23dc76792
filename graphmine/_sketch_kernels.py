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

from ._setops import popcount

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
    n = indptr.shape[0] - 1
    out = np.zeros((n, words), np.uint64)
    nbits = 64 * words
    for t in prange(nthreads):
        for u in range(t, n, nthreads):
            row = out[u]
            for p in range(indptr[u], indptr[u + 1]):
                _bloom_insert(row, indices[p], nbits, seeds)
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


@njit(cache=True)
def _bottomk_fill(row, elems, lo, hi, seed, buf):
    """The k = len(row) smallest hash values of elems[lo:hi], sorted, into row; returns how many."""
    m = hi - lo
    for p in range(m):
        buf[p] = np.uint32(_hash32(elems[lo + p], seed[0], seed[1], seed[2]))
    k = row.shape[0]
    # only the k smallest are kept: select them in linear time, then sort those
    part = np.sort(buf[:m]) if m <= k else np.sort(np.partition(buf[:m], k - 1)[:k])
    s = min(m, k)
    for p in range(s):
        row[p] = part[p]
    for p in range(s, row.shape[0]):
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
    base = n - 64 * hub_words
    rows = np.zeros((n, hub_words + words), np.uint64)
    hw = np.uint64(hub_words)
    nb = np.uint64(64 * words)
    counts = np.zeros(n, np.int64)
    dplus = np.zeros(n, np.int64)
    start = np.empty(n, np.int64)
    arcs = np.empty(indices.shape[0], rank.dtype)
    for t in prange(nthreads):
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
    return rows, counts, dplus, start, arcs
