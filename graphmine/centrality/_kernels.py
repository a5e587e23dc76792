"""Kernels of graphmine.centrality._cpu: sums over neighbourhoods of a CSR graph.

Contract: ``indptr``/``indices`` a valid CSR (graphmine.Graph); ``share`` float64 of length n;
``out`` float64 of length n, written whole. Pull form (each vertex sums its own row), so every
parallel iteration writes its own slots and no atomics are needed.
"""

import numpy as np
from numba import njit, prange


@njit(cache=True, inline="always")
def _sum_rows(indptr, indices, share, out, lo, hi):
    """out[v] = the sum of share over v's neighbours, for v in lo..hi-1. Unsigned indices: numba
    then skips its negative-index test, which costs more than the gather itself here."""
    for v in range(lo, hi):
        s = 0.0
        for j in range(np.uint64(indptr[v]), np.uint64(indptr[v + 1])):
            s += share[np.uint64(indices[j])]
        out[v] = s


@njit(cache=True, inline="always")
def _row_of_arc(indptr, a):
    """The last row u with indptr[u] <= a, by bisection (inlined: np.searchsorted would compile
    six more functions)."""
    lo = 0
    hi = indptr.shape[0] - 1
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if indptr[mid] <= a:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def _neighbour_sums_serial(indptr, indices, share, out):
    _sum_rows(indptr, indices, share, out, 0, indptr.shape[0] - 1)


@njit(cache=True, parallel=True)
def _neighbour_sums(indptr, indices, share, out, nthreads):
    """Each thread sums one contiguous range of rows holding about 1 / nthreads of the arcs (rows
    interleaved between threads would share the cache lines of ``out``)."""
    n = indptr.shape[0] - 1
    m = indptr[n]
    for t in prange(nthreads):
        # rows lo..hi-1: from the row holding arc t * m / nthreads to the one holding the next
        # thread's first arc
        lo = 0 if t == 0 else _row_of_arc(indptr, t * m // nthreads)
        hi = n if t == nthreads - 1 else _row_of_arc(indptr, (t + 1) * m // nthreads)
        _sum_rows(indptr, indices, share, out, lo, hi)
