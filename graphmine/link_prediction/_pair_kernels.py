"""Common neighbours of vertex pairs: |N(u) ∩ N(v)| and the sum of a vertex weight over them.

Contract: graphmine CSR (rows sorted, no self-loops); ``us``/``vs`` vertex indices in range.
Threads take the pairs t, t + nthreads, ... and write only their own slots. Rows of very
different lengths gallop (:mod:`graphmine._primitives.setops`). Kernels never validate. Used by the link
scores of the networkx backend and by :mod:`graphmine.link_prediction._cpu`.
"""

import numpy as np
from numba import njit, prange

from .._primitives.setops import intersect_count, intersect_sum


@njit(cache=True)
def _common(indices, a, b, c, d, weight, weighted):
    """|row a:b ∩ row c:d| and, if ``weighted``, the sum of ``weight`` over the common entries
    (in increasing vertex order); rows of very different lengths gallop (:mod:`graphmine._primitives.setops`)."""
    if weighted:
        return intersect_sum(indices, a, b, indices, c, d, weight)
    return intersect_count(indices, a, b, indices, c, d), 0.0


@njit(cache=True)
def _pairs_part(indptr, indices, us, vs, weight, weighted, t, nthreads, cn, wsum):
    for i in range(t, us.shape[0], nthreads):
        u = us[i]
        v = vs[i]
        cn[i], wsum[i] = _common(indices, indptr[u], indptr[u + 1], indptr[v], indptr[v + 1], weight,
                                 weighted)


@njit(cache=True)
def _pairs_serial(indptr, indices, us, vs, weight, weighted):
    cn = np.zeros(us.shape[0], np.int64)
    wsum = np.zeros(us.shape[0], np.float64)
    _pairs_part(indptr, indices, us, vs, weight, weighted, 0, 1, cn, wsum)
    return cn, wsum


@njit(cache=True, parallel=True)
def _pairs_parallel(indptr, indices, us, vs, weight, weighted, nthreads):
    cn = np.zeros(us.shape[0], np.int64)
    wsum = np.zeros(us.shape[0], np.float64)
    for t in prange(nthreads):
        _pairs_part(indptr, indices, us, vs, weight, weighted, t, nthreads, cn, wsum)
    return cn, wsum


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
