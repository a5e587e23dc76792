"""Kernels of the networkx backend: CSR rows from networkx's adjacency (square clustering is
:mod:`graphmine.cycles._kernels`'s),
triangle listing, common neighbours of vertex pairs, pair adjacency (triangles per vertex are
:mod:`graphmine.cliques._clique_kernels`'s).

Contract: graphmine CSR (rows sorted, no self-loops) or its acyclic orientation; work is split as
``for u in range(t, n, nthreads)`` and every thread writes only its own slots, so the ``prange``
over threads is race-free. Kernels never validate.
"""

import numpy as np
from numba import njit, prange

from ..cliques._clique_kernels import _list_triangles, _triangles_part, sort3  # noqa: F401 (all_triangles)
from .._primitives.csr_kernels import _sort_short_row
from ..link_prediction._pair_kernels import _pairs_parallel, _pairs_serial  # noqa: F401 (link scores' common neighbours)


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
