"""Kernels of graphmine.centrality._cpu: sums over neighbourhoods of a CSR graph.

Contract: ``indptr``/``indices`` a valid CSR (graphmine.Graph); ``share`` float64 of length n;
``out`` float64 of length n, written whole. Pull form (each vertex sums its own row), so every
parallel iteration writes its own slots and no atomics are needed.
"""

from numba import njit, prange


@njit(cache=True)
def _neighbour_sums_serial(indptr, indices, share, out):
    n = indptr.shape[0] - 1
    for v in range(n):
        s = 0.0
        for j in range(indptr[v], indptr[v + 1]):
            s += share[indices[j]]
        out[v] = s


@njit(cache=True, parallel=True)
def _neighbour_sums(indptr, indices, share, out, nthreads):
    n = indptr.shape[0] - 1
    for t in prange(nthreads):
        for v in range(t, n, nthreads):
            s = 0.0
            for j in range(indptr[v], indptr[v + 1]):
                s += share[indices[j]]
            out[v] = s
