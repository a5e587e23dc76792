"""Clique-search kernels shared by the exact k-clique count (graphmine.cliques), the block tasks
of the Dask back-end and the sketch estimates of larger cliques.

Contract as in :mod:`graphmine.cliques._clique_kernels`: oriented CSR rows sorted by id, kernels
never validate and never raise.
"""

import numpy as np
from numba import njit

from .setops import intersect_into, lower_bound

__all__ = []

U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def _windowed_cliques(ptrs, inds, lo, hi, k, cand, size, pos, end, mark, credit, per_vertex, root):
    """k-cliques (k >= 3) through ``root`` by sorted lists (iterative depth-first search), the one
    list search of the CPU count (roots too wide for a bit matrix) and of distributed block tasks.

    ``cand[0, :size[0]]`` holds the root's out-neighbours, sorted by id; cand[l, :size[l]] the
    vertices adjacent to all l + 1 chosen vertices. The (l + 1)-th vertex after the root must lie
    in [lo[l + 1], hi[l + 1]) and its out-row is found in ``ptrs[l + 1]``/``inds[l + 1]``, local
    row ``w - lo[l + 1]`` (a task's row blocks; one CSR, one block, covers the whole graph). Once
    two more vertices are needed, the arcs inside the candidate set are counted against ``mark``
    (zeroed uint8 over the ids, zero again on return). With ``credit`` (k = 3 only) every triangle
    also adds one to ``per_vertex`` at each of its vertices. ``pos`` and ``end`` (k - 1 each) are
    the search's stacks.
    """
    nb = len(ptrs)
    zero = np.int64(0)  # not a literal 0: numba would compile the helpers once more for one
    pos[0] = lower_bound(cand[0], zero, size[0], lo[1])
    end[0] = lower_bound(cand[0], zero, size[0], hi[1])
    if pos[0] == end[0]:
        return 0
    count = 0
    level = 0
    while level >= 0:
        need = k - (level + 1)
        nxt = level + 1 if level + 1 < nb else nb - 1
        if need == 2:
            # last level: |C ∩ N+(w)| for every w of C in the next block, C marked once
            row = cand[level]
            s = size[level]
            for q in range(s):
                mark[np.uint64(row[q])] = 1
            ptr = ptrs[nxt]
            ind = inds[nxt]
            base = lo[level + 1]
            for i in range(pos[level], end[level]):
                w = row[i]
                rw = np.uint64(w - base)
                # unsigned indices: numba then skips its negative-index test
                ta = np.uint64(ptr[rw])
                tb = np.uint64(ptr[rw + U1])
                if credit:
                    for t in range(ta, tb):
                        x = np.uint64(ind[t])
                        if mark[x]:
                            count += 1
                            per_vertex[np.uint64(root)] += 1
                            per_vertex[np.uint64(w)] += 1
                            per_vertex[x] += 1
                else:
                    c = 0
                    for t in range(ta, tb):
                        c += mark[np.uint64(ind[t])]
                    count += c
            for q in range(s):
                mark[np.uint64(row[q])] = 0
            level -= 1
            continue
        if pos[level] >= end[level]:
            level -= 1
            continue
        w = cand[level, pos[level]]
        pos[level] += 1
        ptr = ptrs[nxt]
        rw = w - lo[level + 1]
        m = intersect_into(cand[level], zero, size[level], inds[nxt], ptr[rw], ptr[rw + 1], cand[level + 1])
        if m >= need - 1:
            p = lower_bound(cand[level + 1], zero, m, lo[level + 2])
            e = lower_bound(cand[level + 1], zero, m, hi[level + 2])
            if p < e:
                size[level + 1] = m
                pos[level + 1] = p
                end[level + 1] = e
                level += 1
    return count


@njit(cache=True, inline="always")
def _gather_marked(ind, a, b, mark, cand, row):
    """cand[row, :m] = the entries x of ind[a:b] with mark[x] set, in order; returns m."""
    m = 0
    for q in range(a, b):
        x = ind[q]
        if mark[x]:
            cand[row, m] = x
            m += 1
    return m
