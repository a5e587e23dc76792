"""Motif-instance enumeration kernels (backtracking over a CSR graph).

Contract: ``indptr``/``indices`` is a graphmine CSR (rows sorted, symmetric, no self-loops).
Positions of the pattern are visited in a matching order (levels 0..k-1); level i > 0 takes its
vertex from the neighbours of its parent level's vertex. ``req[i, j]`` / ``forb[i, j]`` say that the
vertices of levels i and j must / must not be adjacent; ``lt[i, j]`` says level i's vertex must be
smaller than level j's (symmetry breaking: one tuple per automorphism class). Every root writes
only its own slots, so the parallel loop needs no synchronisation. Kernels never validate.
"""

import numpy as np
from numba import njit, prange


@njit(cache=True)
def _has_edge(indptr, indices, u, v):
    """Binary search for v in the (sorted) row of u, searching the shorter of the two rows."""
    if indptr[u + 1] - indptr[u] > indptr[v + 1] - indptr[v]:
        u, v = v, u
    lo = indptr[u]
    hi = indptr[u + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        w = indices[mid]
        if w < v:
            lo = mid + 1
        elif w > v:
            hi = mid
        else:
            return True
    return False


@njit(cache=True)
def _enumerate_part(indptr, indices, roots, rots, parent, req, forb, lt, cap, max_steps, write, out, base,
                    counts, t, nthreads):
    """:func:`_enumerate` for the roots t, t + nthreads, ... (one thread's share): per root, a
    backtracking search over the levels keeps at most ``cap`` instances and spends at most
    ``max_steps`` candidate probes. The search and the candidate test are written out in this one
    function (no helper calls besides :func:`_has_edge`) to keep the first run's compile small."""
    k = parent.shape[0]
    nr = roots.shape[0]
    x = np.empty(k, np.int64)
    ptr = np.empty(k, np.int64)  # ptr[level] is set on entering a level (np.zeros would compile more)
    for r in range(t, nr, nthreads):
        root = roots[r]
        rot = rots[r]
        b = base[r]
        x[0] = root
        if k == 1:
            if write:
                out[b, 0] = root
            counts[r] = 1
            continue
        level = 1
        ptr[1] = 0
        found = 0
        steps = 0
        while level >= 1:
            if found >= cap or (max_steps >= 0 and steps >= max_steps):
                break
            p = x[parent[level]]
            a = indptr[p]
            d = indptr[p + 1] - a
            if ptr[level] >= d:
                level -= 1
                continue
            w = np.int64(indices[a + (ptr[level] + rot) % d])
            ptr[level] += 1
            steps += 1
            # does w fit at this level (distinct, ordered, required / forbidden edges)?
            ok = True
            for j in range(level):
                y = x[j]
                if y == w or (lt[level, j] and not w < y) or (lt[j, level] and not y < w):
                    ok = False
                    break
                if req[level, j] or forb[level, j]:
                    e = _has_edge(indptr, indices, w, y)
                    if (req[level, j] and not e) or (forb[level, j] and e):
                        ok = False
                        break
            if not ok:
                continue
            x[level] = w
            if level == k - 1:
                if write:
                    for j in range(k):
                        out[b + found, j] = x[j]
                found += 1
            else:
                level += 1
                ptr[level] = 0
        counts[r] = found


@njit(cache=True, parallel=True)
def _enumerate(indptr, indices, roots, rots, parent, req, forb, lt, cap, max_steps, write, out, base,
               counts, nthreads):
    """Per root: count (write=False) or write (write=True, at out[base[r]:]) its instances."""
    for t in prange(nthreads):
        # np.int64(t): the parfor's body is retyped with an unsigned t (a second compile)
        _enumerate_part(indptr, indices, roots, rots, parent, req, forb, lt, cap, max_steps, write, out, base,
                        counts, np.int64(t), nthreads)


def enumerate_serial(indptr, indices, roots, rots, parent, req, forb, lt, cap, max_steps, write, out, base,
                     counts, nthreads):
    """:func:`_enumerate` on the calling thread, share after share (the same counts and rows),
    without a parallel kernel's compile: for small graphs."""
    for t in range(nthreads):
        _enumerate_part(indptr, indices, roots, rots, parent, req, forb, lt, cap, max_steps, write, out, base,
                        counts, t, nthreads)


@njit(cache=True)
def _tuple_edge_flags_part(indptr, indices, tuples, pairs, t, nthreads, flags):
    """:func:`_tuple_edge_flags` for the tuples t, t + nthreads, ..."""
    for i in range(t, tuples.shape[0], nthreads):
        for e in range(pairs.shape[0]):
            flags[i, e] = _has_edge(indptr, indices, tuples[i, pairs[e, 0]], tuples[i, pairs[e, 1]])


@njit(cache=True, parallel=True)
def _tuple_edge_flags(indptr, indices, tuples, pairs, nthreads):
    """flags[i, e] = whether (tuples[i, pairs[e, 0]], tuples[i, pairs[e, 1]]) is an edge."""
    flags = np.zeros((tuples.shape[0], pairs.shape[0]), np.bool_)
    for t in prange(nthreads):
        _tuple_edge_flags_part(indptr, indices, tuples, pairs, np.int64(t), nthreads, flags)
    return flags


def tuple_edge_flags_serial(indptr, indices, tuples, pairs, nthreads):
    """:func:`_tuple_edge_flags` on the calling thread (the same flags): for small graphs."""
    flags = np.zeros((tuples.shape[0], pairs.shape[0]), np.bool_)
    for t in range(nthreads):
        _tuple_edge_flags_part(indptr, indices, tuples, pairs, t, nthreads, flags)
    return flags
