"""Kernels of the networkx conversion: CSR rows from networkx's adjacency (the adapters' kernels
are their families').

Contract: graphmine CSR (rows sorted, no self-loops) or its acyclic orientation; work is split as
``for u in range(t, n, nthreads)`` and every thread writes only its own slots, so the ``prange``
over threads is race-free. Kernels never validate.
"""

import numpy as np
from numba import njit, prange

from .._primitives.csr_kernels import _sort_short_row


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
            _sort_short_row(out, indptr[u], k)


@njit(cache=True)
def _rows_serial(rawptr, raw, indptr, out):
    _fill_rows(rawptr, raw, indptr, out, 0, 1)


@njit(cache=True, parallel=True)
def _rows_parallel(rawptr, raw, indptr, out, nthreads):
    for t in prange(nthreads):
        _fill_rows(rawptr, raw, indptr, out, t, nthreads)
