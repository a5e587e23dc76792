"""Numba kernels of the Dask graph's construction tasks (:mod:`graphmine.distributed._tasks`):
splitting edges by row block and grouping them into sorted CSR rows.

Contract: vertex blocks are id ranges ``bounds[b] <= v < bounds[b + 1]`` of the compacted ids; a
row block is the CSR of its vertices' rows (``ptr`` int64 of local rows, ``ind`` global ids,
every row sorted). Kernels run serially inside one task (the cluster runs tasks in parallel),
release the GIL so that threaded workers run side by side, never validate and never raise.
"""

import numpy as np
from numba import njit

from .._primitives.setops import lower_bound


@njit(cache=True, nogil=True)
def _split_pairs(src, dst, bounds, canonical):
    """Group the pairs (src[i], dst[i]) by the vertex block of their first end (a counting
    sort: two passes, no comparison sort). With ``canonical``, pairs are first written as
    (min, max) and self-loops dropped. Returns (pairs int64[m', 2] grouped by block, offsets of
    the groups int64[P + 1], dropped self-loops)."""
    nb = bounds.shape[0] - 1
    m = src.shape[0]
    blk = np.empty(m, np.int64)
    starts = np.zeros(nb + 1, np.int64)
    loops = 0
    for i in range(m):
        a = src[i]
        b = dst[i]
        if canonical:
            if a == b:
                blk[i] = -1
                loops += 1
                continue
            if b < a:
                a = b
        blk[i] = lower_bound(bounds, 0, nb + 1, a + 1) - 1
        starts[blk[i] + 1] += 1
    for j in range(nb):
        starts[j + 1] += starts[j]
    out = np.empty((m - loops, 2), np.int64)
    fill = starts[:nb].copy()
    for i in range(m):
        k = blk[i]
        if k < 0:
            continue
        a = src[i]
        b = dst[i]
        if canonical and b < a:
            a, b = b, a
        p = fill[k]
        out[p, 0] = a
        out[p, 1] = b
        fill[k] = p + 1
    return out, starts, loops


@njit(cache=True, nogil=True)
def _group_rows(rows, cols, nrows, dedupe):
    """CSR of the pairs (rows[i], cols[i]), rows in 0..nrows-1: a counting sort by row, then every
    row sorted (and, with ``dedupe``, its repeated entries dropped). Returns (ptr, entries)."""
    m = rows.shape[0]
    ptr = np.zeros(nrows + 1, np.int64)
    for i in range(m):
        ptr[rows[i] + 1] += 1
    for r in range(nrows):
        ptr[r + 1] += ptr[r]
    out = np.empty(m, cols.dtype)
    fill = ptr[:nrows].copy()
    for i in range(m):
        r = rows[i]
        out[fill[r]] = cols[i]
        fill[r] += 1
    new = np.zeros(nrows + 1, np.int64)
    w = 0
    for r in range(nrows):
        a = ptr[r]
        b = ptr[r + 1]
        if b - a > 1:
            out[a:b].sort()
        # compact in place: w <= j, and out[j - 1] is intact when out[j] is compared with it
        for j in range(a, b):
            if dedupe and j > a and out[j] == out[j - 1]:
                continue
            out[w] = out[j]
            w += 1
        new[r + 1] = w
    return new, out[:w]
