"""Truss decomposition: the triangles on every edge (support), then edge peeling.

Contract: graphmine's CSR (rows sorted, no self-loops). Edge e is the e-th arc u -> v with u < v in
CSR order (the order of ``Graph.edges()``); ``eid`` maps every arc, both directions, to its edge.
Support counting intersects the two rows of every edge (galloping when one is much longer), in
chunks of rows of about equal work claimed dynamically. Peeling is the bucket method of
Batagelj & Zaversnik applied to edges (Wang & Cheng 2012): edges in buckets by current support,
the lowest taken first; removing (u, v) lowers the support of the two other edges of every
triangle on it that are still present, found by walking the shorter of the two rows and binary
searching the longer. Kernels never validate and never raise.
"""

import numpy as np
from numba import njit, prange

from ._clique_kernels import CHUNKS_PER_THREAD, _root_chunks
from ._setops import fetch_add, intersect_count, lower_bound


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


@njit(cache=True, parallel=True, nogil=True)
def _edge_support(indptr, indices, eid, nthreads):
    """Triangles on every edge."""
    n = indptr.shape[0] - 1
    sup = np.zeros(indices.shape[0] // 2, np.int64)
    nchunks = max(1, min(n, nthreads * CHUNKS_PER_THREAD))
    cuts = _root_chunks(indptr, 0, n, nchunks)
    counter = np.zeros(1, np.int64)
    for t in prange(nthreads):
        while True:
            i = fetch_add(counter, 0, 1)
            if i >= nchunks:
                break
            for u in range(cuts[i], cuts[i + 1]):
                for j in range(indptr[u], indptr[u + 1]):
                    v = indices[j]
                    if v > u and indptr[v + 1] - indptr[v] > 1 and indptr[u + 1] - indptr[u] > 1:
                        sup[eid[j]] = intersect_count(indices, indptr[u], indptr[u + 1], indices, indptr[v],
                                                      indptr[v + 1])
    return sup


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
    bins = np.zeros(top + 2, np.int64)
    for e in range(m):
        bins[sup[e] + 1] += 1
    for s in range(top + 1):
        bins[s + 1] += bins[s]
    order = np.empty(m, np.int64)
    pos = np.empty(m, np.int64)
    fill = bins.copy()
    for e in range(m):
        p = fill[sup[e]]
        order[p] = e
        pos[e] = p
        fill[sup[e]] += 1
    alive = np.ones(m, np.bool_)
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
        u = src[e]
        v = dst[e]
        if indptr[u + 1] - indptr[u] > indptr[v + 1] - indptr[v]:
            u, v = v, u
        lo = indptr[v]
        hi = indptr[v + 1]
        for j in range(indptr[u], indptr[u + 1]):
            w = indices[j]
            lo = lower_bound(indices, lo, hi, w)
            if lo == hi:
                break
            if indices[lo] != w:
                continue
            e1 = eid[j]
            e2 = eid[lo]
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
