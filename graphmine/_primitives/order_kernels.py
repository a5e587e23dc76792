"""The degeneracy order and its orientation in one pass over the arcs.

Contract: graphmine's CSR (``indptr`` int64, rows sorted, no duplicates, no self-loops, each edge
in both rows). :func:`_degeneracy_oriented` peels the vertices in the Matula-Beck bucket order
(Batagelj and Zaversnik's O(m) core decomposition: a vertex's core number is its bucket degree
when it is peeled) and, when asked to, writes the rank-space orientation while it peels: when the vertex of rank i is peeled, its neighbours still present are
its out-neighbours (row i holds as many), and each neighbour peeled before it, of rank r < i,
gets i appended to row r. Ranks are appended in increasing order, so every row comes out sorted
without a sort, and the separate passes of an order-then-orient (out-degrees by rank lookups, a
scatter by rank lookups) disappear. Serial: the peel is inherently sequential, and on graphs of a
few hundred thousand edges the whole pass takes a few milliseconds. Kernels never validate and
never raise.

:func:`_approx_degeneracy_rank` is the parallel alternative for large graphs on many threads: the
approximate degeneracy order of Goodrich and Pszona (ESA 2011; ArbCount's order): in each round
every vertex whose degree in the remaining graph is at most (1 + eps) times the remaining graph's
average degree leaves it; a vertex's rank is (round, id). Out-degrees are then at most (1 + eps)
times an average degree of a subgraph, so at most 2 (1 + eps) times the degeneracy, and the rounds
are O(log n / eps).
"""

import numpy as np
from numba import njit, prange

U1 = np.uint64(1)


@njit(cache=True, inline="always")
def _bucket_sort(key, top):
    """The items 0..len(key)-1 sorted by key (0 <= key <= top; counting sort, stable): (bins,
    order, pos), order the items by key, bins[s] where the block of key s starts in order
    (bins[top + 1] = len(key)) and pos the inverse of order. The start of both bucket peels
    (vertices by degree here, edges by support in graphmine/truss/_kernels.py)."""
    m = key.shape[0]
    bins = np.zeros(top + 2, np.int64)
    for e in range(m):
        bins[key[e] + 1] += 1
    for s in range(top + 1):
        bins[s + 1] += bins[s]
    order = np.empty(m, np.int64)
    pos = np.empty(m, np.int64)
    fill = bins.copy()
    for e in range(m):
        p = fill[key[e]]
        order[p] = e
        pos[e] = p
        fill[key[e]] += 1
    return bins, order, pos


@njit(cache=True, nogil=True)
def _degeneracy_oriented(indptr, indices, orient):
    """(rank, core, optr, oind): the degeneracy order (rank of every vertex), the core numbers,
    and with ``orient`` the orientation in rank space (row r: the sorted ranks of the later
    neighbours of the vertex of rank r; without it optr and oind are empty)."""
    n = indptr.shape[0] - 1
    deg = np.empty(n, np.int64)  # bucket key: the Matula-Beck degree (bounded below by the level)
    left = np.empty(n, np.int64)  # neighbours not peeled yet (the out-degree once peeled)
    maxdeg = 0
    for u in range(n):
        d = indptr[u + 1] - indptr[u]
        deg[u] = d
        left[u] = d
        if d > maxdeg:
            maxdeg = d
    # bins[d] = start of the block of vertices of current degree d in `vert`
    bins, vert, pos = _bucket_sort(deg, maxdeg)
    rank = np.empty(n, np.int64)
    for u in range(n):
        rank[u] = n  # not peeled yet
    core = np.empty(n, np.int64)
    optr = np.empty(n + 1 if orient else 1, np.int64)
    optr[0] = 0
    fill = np.empty(n if orient else 0, np.int64)  # next free slot of every row already started
    oind = np.empty(indices.shape[0] // 2 if orient else 0, indices.dtype)
    # unsigned subscripts: numba skips the negative-index test (about 30% of this loop's time)
    for i in range(n):
        u = np.uint64(vert[i])
        rank[u] = i
        du = deg[u]
        core[u] = du
        if orient:
            optr[i + 1] = optr[i] + left[u]
            fill[i] = optr[i]
        for j in range(np.uint64(indptr[u]), np.uint64(indptr[u + U1])):
            w = np.uint64(indices[j])
            r = rank[w]
            if r < i:
                # w was peeled before u: arc w -> u, appended in increasing order of i
                if orient:
                    slot = np.uint64(r)
                    oind[np.uint64(fill[slot])] = i
                    fill[slot] += 1
                continue
            left[w] -= 1
            dw = deg[w]
            if dw > du:
                # w moves from the front of its bucket to the one below
                pw = np.uint64(pos[w])
                pfirst = bins[np.uint64(dw)]
                x = np.uint64(vert[np.uint64(pfirst)])
                if x != w:
                    vert[pw] = x
                    pos[x] = pw
                    vert[np.uint64(pfirst)] = w
                    pos[w] = pfirst
                bins[np.uint64(dw)] += 1
                deg[w] = dw - 1
    return rank, core, optr, oind


@njit(cache=True, nogil=True)
def _peel_update(indptr, indices, alive, na, level, deg, r, t, nthreads):
    """Vertices alive[t], alive[t + nthreads], ... still in the graph lose the neighbours that
    left it in round r (each thread owns its vertices: no atomics)."""
    for i in range(t, na, nthreads):
        v = np.uint64(alive[i])
        if level[v] >= 0:
            continue
        c = 0
        for j in range(np.uint64(indptr[v]), np.uint64(indptr[v + U1])):
            if level[np.uint64(indices[j])] == r:
                c += 1
        deg[v] -= c


@njit(cache=True, parallel=True, nogil=True)
def _approx_degeneracy_rank(indptr, indices, eps, nthreads):
    """(rank, rounds): the Goodrich-Pszona order (rank by leaving round, then id) and its number
    of rounds. The marking and the list of the vertices still in the graph are serial passes
    over those vertices; the degree updates, a pass over their arcs, run on ``nthreads``."""
    n = indptr.shape[0] - 1
    deg = np.empty(n, np.int64)
    level = np.empty(n, np.int64)
    alive = np.empty(n, np.int64)
    total = 0
    for u in range(n):
        d = indptr[u + 1] - indptr[u]
        deg[u] = d
        level[u] = -1
        alive[u] = u
        total += d
    na = n
    r = 0
    while na > 0:
        # the minimum degree is at most the average: every round removes a vertex at least
        bound = (1.0 + eps) * total / na
        for i in range(na):
            v = alive[i]
            if deg[v] <= bound:
                level[v] = r
        for t in prange(nthreads):
            _peel_update(indptr, indices, alive, na, level, deg, r, t, nthreads)
        m = 0
        total = 0
        for i in range(na):
            v = alive[i]
            if level[v] < 0:
                alive[m] = v
                m += 1
                total += deg[v]
        na = m
        r += 1
    # rank by (round, id): the stable counting sort's position of every vertex
    return _bucket_sort(level, r - 1)[2], r
