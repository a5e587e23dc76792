"""Link-prediction scores of many vertex pairs at once over a CSR graph.

Contract: graphmine CSR (rows sorted); ``us``/``vs`` are equal-length int64 arrays of vertices.
Each pair writes only its own row of the output, so the parallel loop is race-free. The sorted
merge that walks both neighbourhoods is :func:`graphmine._primitives.setops.intersect_degree_sums`. Never validates.
"""

import numpy as np
from numba import njit, prange

from .._primitives.setops import intersect_degree_sums

# columns of the score matrix
CN, JACCARD, AA, RA, PA = 0, 1, 2, 3, 4
N_SCORES = 5


@njit(cache=True)
def _pair_scores_part(indptr, indices, deg, us, vs, t, nthreads, out):
    """:func:`_pair_scores` for the pairs t, t + nthreads, ..."""
    for i in range(t, us.shape[0], nthreads):
        u = us[i]
        v = vs[i]
        du = indptr[u + 1] - indptr[u]
        dv = indptr[v + 1] - indptr[v]
        # (count, sum 1/log deg, sum 1/deg) of the common neighbours
        cn, aa, ra = intersect_degree_sums(indices, indptr[u], indptr[u + 1], indices, indptr[v], indptr[v + 1],
                                           deg)
        union = du + dv - cn
        out[i, CN] = cn
        out[i, JACCARD] = cn / union if union > 0 else 0.0
        out[i, AA] = aa
        out[i, RA] = ra
        out[i, PA] = float(du) * float(dv)


@njit(cache=True, parallel=True)
def _pair_scores(indptr, indices, deg, us, vs, nthreads):
    out = np.zeros((us.shape[0], N_SCORES), np.float64)
    for t in prange(nthreads):
        # np.int64(t): the parfor's body is retyped with an unsigned t (a second compile)
        _pair_scores_part(indptr, indices, deg, us, vs, np.int64(t), nthreads, out)
    return out


def pair_scores_serial(indptr, indices, deg, us, vs, nthreads):
    """:func:`_pair_scores` on the calling thread (every pair computed by the same compiled code:
    the same scores to the last bit), without a parallel kernel's compile: for small graphs."""
    out = np.zeros((us.shape[0], N_SCORES), np.float64)
    for t in range(nthreads):
        _pair_scores_part(indptr, indices, deg, us, vs, t, nthreads, out)
    return out
