"""Numba kernels of the triangle and k-clique block tasks on a Dask cluster
(:mod:`graphmine.cliques._dask`).

Contract: a row block is the out-neighbourhood CSR of the vertices ``lo <= u < hi`` of an acyclic
(degree) orientation: ``ptr`` (int64, hi - lo + 1, local rows) and ``ind`` (global vertex ids,
every row sorted by id). A block task holds only the blocks it names: ``ptrs[l]``/``inds[l]`` is
the block in which the l-th vertex of a clique (in orientation order) must lie, ``lo[l]``/``hi[l]``
its id range; the last vertex of a clique is only counted, never expanded, so its row is not
needed. Since rows are sorted by id and blocks are id ranges, the candidates of the next vertex
that lie in the next block form one contiguous run of the candidate array (two binary searches).
Every k-clique is found exactly once, in the task of the blocks of its first k - 1 vertices.

Kernels run serially inside one task (the cluster runs tasks in parallel), release the GIL so
that threaded workers run side by side, never validate and never raise. Counts are exact int64;
the set intersections are graphmine's sorted merges (:mod:`graphmine._primitives.clique_kernels`),
and the last level uses a marker array over the global ids (n bytes per running task).
"""

import numpy as np
from numba import njit

from .._primitives.clique_kernels import _windowed_cliques
from .._primitives.estimators import pair_bloom


@njit(cache=True, nogil=True)
def _block_cliques(ptrs, inds, lo, hi, k, max_out, mark, credit, per_vertex):
    """k-cliques (k >= 3) whose first k - 1 vertices, in orientation order, lie in the blocks
    ``0 .. k - 2`` of the task. With ``credit`` (k = 3 only), every triangle found also adds one
    to ``per_vertex`` (length n, global ids) at each of its three vertices.

    ``mark`` is a zeroed uint8 array of length n; it is zero again on return.
    """
    ptr0 = ptrs[0]
    ind0 = inds[0]
    cand = np.empty((k - 1, max_out + 1), ind0.dtype)
    size = np.zeros(k - 1, np.int64)
    pos = np.zeros(k - 1, np.int64)
    end = np.zeros(k - 1, np.int64)
    count = 0
    for r in range(hi[0] - lo[0]):
        a = ptr0[r]
        d = ptr0[r + 1] - a
        if d < k - 1:
            continue
        for j in range(d):
            cand[0, j] = ind0[a + j]
        size[0] = d
        count += _windowed_cliques(ptrs, inds, lo, hi, k, cand, size, pos, end, mark, credit, per_vertex,
                                   lo[0] + r)
    return count


@njit(cache=True, nogil=True)
def _block_bloom_triangles(ptr, ind, lo, F, outdeg, nbits, b, est, clamp, ctab, stab):
    """Estimated triangles with the apex in one row block, from the Bloom filters ``F`` of every
    out-neighbourhood (rows by global id) and the out-degrees of every vertex: per arc u -> w,
    |N+(u) ∩ N+(w)| from the pair of filters. ``stab`` holds standard deviations.

    Returns float64[5]: estimate sum, variance sum, sd sum, saturated terms, estimated terms.
    """
    tot = 0.0
    var = 0.0
    sd = 0.0
    sat = 0
    nest = 0
    nrows = ptr.shape[0] - 1
    for r in range(nrows):
        a = ptr[r]
        e_ = ptr[r + 1]
        du = e_ - a
        if du < 2:
            continue
        u = lo + r
        for j in range(a, e_):
            w = np.int64(ind[j])
            dw = outdeg[w]
            if dw == 0:
                continue
            e, st, z = pair_bloom(F, u, F, w, du, dw, nbits, b, est, clamp, ctab, stab)
            tot += e
            var += st * st
            sd += st
            sat += z
            nest += 1
    out = np.zeros(5, np.float64)
    out[0] = tot
    out[1] = var
    out[2] = sd
    out[3] = sat
    out[4] = nest
    return out
