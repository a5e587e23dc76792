"""Truss decomposition: the triangles on every edge (support), then edge peeling.

Contract: graphmine's CSR (rows sorted, no self-loops). Edge e is the e-th arc u -> v with u < v in
CSR order (the order of ``Graph.edges()``); ``eid`` maps every arc, both directions, to its edge.
Supports are counted once, on the degree orientation in rank space (each triangle once, from its
first vertex, in chunks of rows of about equal work claimed dynamically), and read back per edge
for the decomposition. Peeling is the bucket method of
Batagelj & Zaversnik applied to edges (Wang & Cheng 2012): edges in buckets by current support,
the lowest taken first; removing (u, v) lowers the support of the two other edges of every
triangle on it that are still present, found by walking the shorter of the two rows and binary
searching the longer (:func:`_common_positions`, shared by both peels). One k-truss needs no
truss numbers: only the edges below k - 2 are peeled, from a queue. Kernels
never validate and never raise.
"""

import numpy as np
from numba import njit, prange

from ..cliques._clique_kernels import _claim_chunk, _root_plan
from .._primitives.csr_kernels import _max_row
from .._primitives.order_kernels import _bucket_sort
from .._primitives.setops import fetch_add, intersect_supports, lower_bound


@njit(cache=True, nogil=True)
def _edge_ids(indptr, indices):
    """(eid of every arc, source of every edge, target of every edge)."""
    n = indptr.shape[0] - 1
    eid = np.empty(indices.shape[0], np.int64)
    m = 0
    for u in range(n):
        for j in range(indptr[u], indptr[u + 1]):
            if indices[j] > u:
                eid[j] = m
                m += 1
    src = np.empty(m, np.int64)
    dst = np.empty(m, np.int64)
    for u in range(n):
        for j in range(indptr[u], indptr[u + 1]):
            v = indices[j]
            if v > u:
                src[eid[j]] = u
                dst[eid[j]] = v
            else:
                eid[j] = eid[lower_bound(indices, indptr[v], indptr[v + 1], u)]
    return eid, src, dst


@njit(cache=True, nogil=True)
def _common_positions(indptr, indices, u, v, pu, pv):
    """The triangles on edge (u, v): the common neighbours w of u and v, found by walking the
    shorter of the two rows and binary searching the longer. Returns their number c, with the
    positions of the w (increasing) in the shorter row in pu[:c] and in the longer in pv[:c]."""
    if indptr[u + 1] - indptr[u] > indptr[v + 1] - indptr[v]:
        u, v = v, u
    lo = indptr[v]
    hi = indptr[v + 1]
    c = 0
    for j in range(indptr[u], indptr[u + 1]):
        w = indices[j]
        lo = lower_bound(indices, lo, hi, w)
        if lo == hi:
            break
        if indices[lo] == w:
            pu[c] = j
            pv[c] = lo
            c += 1
    return c


@njit(cache=True, nogil=True)
def _truss_peel(indptr, indices, eid, src, dst, sup0, stop):
    """Truss number of every edge (support at removal + 2, the level never decreasing). With
    ``stop`` >= 0 the peeling ends once the lowest support reaches ``stop``; the edges left then
    get truss number stop + 2 (a lower bound: enough to extract the (stop + 2)-truss)."""
    m = sup0.shape[0]
    sup = sup0.copy()
    truss = np.zeros(m, np.int64)
    if m == 0:
        return truss
    top = 0
    for e in range(m):
        top = max(top, sup[e])
    bins, order, pos = _bucket_sort(sup, top)
    alive = np.ones(m, np.bool_)
    pu = np.empty(_max_row(indptr), np.int64)
    pv = np.empty_like(pu)
    for i in range(m):
        e = order[i]
        s = sup[e]
        if stop >= 0 and s >= stop:
            for r in range(i, m):
                truss[order[r]] = stop + 2
            return truss
        truss[e] = s + 2
        alive[e] = False
        if s == 0:
            continue  # on no triangle any more: nothing to lower
        for q in range(_common_positions(indptr, indices, src[e], dst[e], pu, pv)):
            e1 = eid[pu[q]]
            e2 = eid[pv[q]]
            if alive[e1] and alive[e2]:
                for f in (e1, e2):
                    sf = sup[f]
                    if sf > s:
                        first = bins[sf]
                        g = order[first]
                        if g != f:
                            pf = pos[f]
                            order[first] = f
                            pos[f] = first
                            order[pf] = g
                            pos[g] = pf
                        bins[sf] += 1
                        sup[f] = sf - 1
    return truss


@njit(cache=True, parallel=True, nogil=True)
def _oriented_support(optr, oind, nthreads):
    """Triangles on every arc of an acyclic orientation in rank space (every arc u -> v has
    u < v, rows sorted), each triangle u < v < w found once, from u, by merging the part of
    N+(u) after v with N+(v): the supports of the edges, indexed by arc."""
    n = optr.shape[0] - 1
    sup = np.zeros(oind.shape[0], np.int64)
    cuts, counter = _root_plan(optr, 0, n, nthreads)
    for t in prange(nthreads):
        while True:
            r0, r1 = _claim_chunk(counter, cuts)
            if r0 < 0:
                break
            for u in range(r0, r1):
                a0 = optr[u]
                a1 = optr[u + 1]
                if a1 - a0 < 2:
                    continue
                for a in range(a0, a1 - 1):
                    v = oind[a]
                    # the triangles u -> v, u -> w, v -> w of arc a = u -> v: one on each arc
                    # (atomically: the arcs of a triangle lie in rows other threads walk)
                    c = intersect_supports(oind, a + 1, a1, optr[v], optr[v + 1], sup)
                    if c:
                        fetch_add(sup, a, c)
    return sup


@njit(cache=True, nogil=True)
def _arc_of(optr, oind, rank, a, b):
    """The arc of edge {a, b} (vertex numbers) in the orientation in rank space."""
    ra = rank[a]
    rb = rank[b]
    if ra > rb:
        ra, rb = rb, ra
    return lower_bound(oind, optr[ra], optr[ra + 1], rb)


@njit(cache=True, parallel=True, nogil=True)
def _edge_support(optr, oind, rank, src, dst, arc_sup, nthreads):
    """Triangles on every edge e = (src[e], dst[e]) (vertex numbers), read from the supports of
    the arcs of the orientation in rank space (``arc_sup``, from :func:`_oriented_support`)."""
    m = src.shape[0]
    sup = np.empty(m, np.int64)
    for t in prange(nthreads):
        for e in range(t, m, nthreads):
            sup[e] = arc_sup[_arc_of(optr, oind, rank, src[e], dst[e])]
    return sup


@njit(cache=True, nogil=True)
def _k_truss_peel(indptr, indices, optr, oind, rank, sup, need):
    """Whether each arc of the orientation is not in the (need + 2)-truss, the orientation in
    rank space beside the graph's CSR in vertex numbers: the edges of support below
    ``need`` are queued and removed one by one; removing u -> v destroys each triangle u, v, w
    whose other two edges are not removed yet (w from the shorter of the two rows, binary
    searched in the longer), lowering their supports, and queues an edge once its support drops
    below ``need``. Edges whose triangles are all gone are removed without a look at their rows.
    ``sup`` is overwritten."""
    n = optr.shape[0] - 1
    m = oind.shape[0]
    src = np.empty(m, np.int64)
    for u in range(n):
        for a in range(optr[u], optr[u + 1]):
            src[a] = u
    order = np.empty(n, np.int64)  # vertex of every rank
    for x in range(n):
        order[rank[x]] = x
    dead = np.zeros(m, np.bool_)
    gone = np.zeros(m, np.bool_)
    queue = np.empty(m, np.int64)
    qt = 0
    for e in range(m):
        if sup[e] < need:
            dead[e] = True
            queue[qt] = e
            qt += 1
    pu = np.empty(_max_row(indptr), np.int64)
    pv = np.empty_like(pu)
    qh = 0
    while qh < qt:
        e = queue[qh]
        qh += 1
        gone[e] = True
        if sup[e] <= 0:
            continue
        u = order[src[e]]
        v = order[oind[e]]
        for q in range(_common_positions(indptr, indices, u, v, pu, pv)):
            w = indices[pu[q]]
            e1 = _arc_of(optr, oind, rank, u, w)
            e2 = _arc_of(optr, oind, rank, v, w)
            if gone[e1] or gone[e2]:
                continue
            for f in (e1, e2):
                sup[f] -= 1
                if not dead[f] and sup[f] < need:
                    dead[f] = True
                    queue[qt] = f
                    qt += 1
    return dead
