"""k-clique peeling: remove the vertex of least key, where key = load + the k-cliques through it
among the vertices still present, until none is left.

Contract: graphmine's CSR (rows sorted, no self-loops), ``cur0`` the exact k-cliques through
every vertex, ``load`` int64 (zero for plain peeling; Greedy++'s accumulated loads otherwise).
Keys sit in an indexed binary heap (ties broken by vertex number); removing v lists the
(k-1)-cliques of its remaining neighbourhood by depth-first search over sorted candidate lists,
the last vertex counted, not listed: every member of such a clique loses one k-clique. The total
work is one listing of the k-cliques plus a heap update per decrement. Kernels never validate
and never raise.
"""

import numpy as np
from numba import njit

from .._primitives.clique_kernels import _gather_marked
from ._clique_kernels import _clique_step


@njit(cache=True, nogil=True)
def _less(key, a, b):
    return key[a] < key[b] or (key[a] == key[b] and a < b)


@njit(cache=True, nogil=True)
def _sift_up(heap, pos, key, i):
    x = heap[i]
    while i > 0:
        p = (i - 1) >> 1
        y = heap[p]
        if not _less(key, x, y):
            break
        heap[i] = y
        pos[y] = i
        i = p
    heap[i] = x
    pos[x] = i


@njit(cache=True, nogil=True)
def _sift_down(heap, pos, key, i, size):
    x = heap[i]
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and _less(key, heap[c + 1], heap[c]):
            c += 1
        if not _less(key, heap[c], x):
            break
        heap[i] = heap[c]
        pos[heap[c]] = i
        i = c
    heap[i] = x
    pos[x] = i


@njit(cache=True, nogil=True)
def _lower(x, c, cur, key, heap, pos):
    cur[x] -= c
    key[x] -= c
    _sift_up(heap, pos, key, pos[x])


@njit(cache=True, nogil=True)
def _clique_peel(indptr, indices, k, cur0, load):
    """(removal order, k-cliques through each removed vertex at its removal)."""
    n = indptr.shape[0] - 1
    cur = cur0.copy()
    key = load + cur
    heap = np.arange(n)
    pos = np.arange(n)
    for i in range(n // 2 - 1, -1, -1):
        _sift_down(heap, pos, key, i, n)
    alive = np.ones(n, np.bool_)
    maxdeg = 0
    for u in range(n):
        maxdeg = max(maxdeg, indptr[u + 1] - indptr[u])
    cand = np.empty((max(k - 1, 1), maxdeg + 1), indices.dtype)
    size = np.zeros(max(k - 1, 1), np.int64)
    at = np.zeros(max(k - 1, 1), np.int64)
    path = np.empty(max(k - 1, 1), np.int64)
    order = np.empty(n, np.int64)
    gone = np.empty(n, np.int64)
    for step in range(n):
        v = heap[0]
        last = n - step - 1
        heap[0] = heap[last]
        pos[heap[0]] = 0
        if last > 0:
            _sift_down(heap, pos, key, 0, last)
        order[step] = v
        gone[step] = cur[v]
        alive[v] = False
        if cur[v] == 0:
            continue
        s = _gather_marked(indices, indptr[v], indptr[v + 1], alive, cand, 0)
        if k == 2:
            for i in range(s):
                _lower(cand[0, i], 1, cur, key, heap, pos)
            continue
        size[0] = s
        at[0] = 0
        level = 0
        while True:
            level, w, m = _clique_step(cand, size, at, level, 0, indptr, indices)
            if level < 0:
                break
            path[level] = w
            if level + 2 == k - 1:
                if m > 0:
                    for i in range(m):
                        _lower(cand[level + 1, i], 1, cur, key, heap, pos)
                    for l in range(level + 1):
                        _lower(path[l], m, cur, key, heap, pos)
            elif m >= k - 2 - level:
                size[level + 1] = m
                at[level + 1] = 0
                level += 1
    return order, gone
