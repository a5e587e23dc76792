"""CUDA kernels (numba-cuda) of the 4-vertex node-orbit census (graphmine.graphlets._cuda).

Contract: the full symmetric CSR ``indptr``/``indices`` of the graph (sorted rows, no self-loops)
as the host holds it, in the input's vertex order; grid-stride loops; counts are int64. Kernels
never validate and never raise.

The census needs per vertex v the non-induced pattern counts of :mod:`graphmine.graphlets._cpu`:
degree terms, the triangle count t(e) of every edge, 4-cycles and 4-cliques through v (counted by
the cycles and cliques families' own GPU kernels), and the sum over the triangles at v of
t(opposite edge) - 1. Three launches:

1. :func:`_edge_pass`, one thread per slot p = (u -> w) with u < w: t(uw) = |N(u) ∩ N(w)|,
   written to both slots of the edge; every common neighbour x is the vertex opposite uw in the
   triangle {u, w, x}, so it gets t(uw) - 1 (one atomic per triangle and edge, three per
   triangle). The intersections walk the shorter row and binary-search the longer one with the
   lower bound carried forward (a hub's row is never scanned whole for a low-degree partner).
2. :func:`_vertex_sums`, one thread per vertex: s(v) = sum of (d(a) - 1) over neighbours a, and
   t(v) = half the sum of t(e) over v's slots.
3. :func:`_orbit_rows`, one thread per vertex: the 15 non-induced counts from 1, 2 and the
   4-cycle and 4-clique counts, then the induced counts ``minv @ raw`` (``minv`` the integer
   inverse of the census's unit upper-triangular pattern matrix).
"""

from numba import cuda, int64

from ..cuda._device_kernels import _lower_bound

NODE_ORBITS = 15


@cuda.jit(device=True, inline=True)
def _common(indices, alo, ahi, blo, bhi, acc, add):
    """|indices[alo:ahi] ∩ indices[blo:bhi]| (sorted rows): every element of the shorter row is
    looked up in the longer, the lower bound carried forward; with ``add`` != 0 every common
    element x also gets acc[x] += add."""
    if ahi - alo > bhi - blo:
        alo, ahi, blo, bhi = blo, bhi, alo, ahi
    c = 0
    lo = blo
    i = alo
    while i < ahi and lo < bhi:
        x = indices[i]
        lo = _lower_bound(indices, lo, bhi, x)
        if lo < bhi and indices[lo] == x:
            c += 1
            if add != 0:
                cuda.atomic.add(acc, x, add)
        i += 1
    return c


@cuda.jit(cache=True)
def _edge_pass(indptr, indices, tri, opposite):
    """tri[p] = t(e) at both slots of every edge; opposite[x] += t(e) - 1 for every triangle
    {u, w, x} and its edge e = uw (``opposite`` zeroed on entry)."""
    n = indptr.shape[0] - 1
    slots = indices.shape[0]
    for p in range(cuda.grid(1), slots, cuda.gridsize(1)):
        # the row of slot p: the last u with indptr[u] <= p
        u = _lower_bound(indptr, 0, n + 1, p + 1) - 1
        w = indices[p]
        if w < u:
            continue  # the edge's other slot counts it
        alo = indptr[u]
        ahi = indptr[u + 1]
        blo = indptr[w]
        bhi = indptr[w + 1]
        c = _common(indices, alo, ahi, blo, bhi, opposite, 0)
        tri[p] = c
        tri[_lower_bound(indices, blo, bhi, u)] = c
        if c > 1:
            _common(indices, alo, ahi, blo, bhi, opposite, c - 1)


@cuda.jit(cache=True)
def _vertex_sums(indptr, indices, tri, sv, tv):
    """sv[v] = the 2-paths starting at v, tv[v] = the triangles at v."""
    n = indptr.shape[0] - 1
    for v in range(cuda.grid(1), n, cuda.gridsize(1)):
        s = int64(0)
        t = int64(0)
        for p in range(indptr[v], indptr[v + 1]):
            a = indices[p]
            s += indptr[a + 1] - indptr[a] - 1
            t += tri[p]
        sv[v] = s
        tv[v] = t // 2


@cuda.jit(cache=True)
def _orbit_rows(indptr, indices, tri, sv, tv, opposite, cycles, cliques, minv, out):
    """out[v] = minv @ (the 15 non-induced pattern counts of v) (the formulas of
    :mod:`graphmine.graphlets._cpu`; ``cycles`` and ``cliques`` the 4-cycles and 4-cliques through
    every vertex)."""
    n = indptr.shape[0] - 1
    raw = cuda.local.array(NODE_ORBITS, int64)
    for v in range(cuda.grid(1), n, cuda.gridsize(1)):
        d = int64(indptr[v + 1] - indptr[v])
        tt = tv[v]
        s_paths = int64(0)
        s_star = int64(0)
        s_tail = int64(0)
        s_tri_deg = int64(0)
        s_diag = int64(0)
        for p in range(indptr[v], indptr[v + 1]):
            a = indices[p]
            da = int64(indptr[a + 1] - indptr[a])
            ta = tri[p]
            s_paths += sv[a]
            s_star += (da - 1) * (da - 2) // 2
            s_tail += tv[a] - ta
            s_tri_deg += ta * (da - 2)
            s_diag += ta * (ta - 1) // 2
        raw[0] = d
        raw[1] = sv[v]
        raw[2] = d * (d - 1) // 2
        raw[3] = tt
        raw[4] = s_paths - d * (d - 1) - 2 * tt
        raw[5] = (d - 1) * sv[v] - 2 * tt
        raw[6] = s_star
        raw[7] = d * (d - 1) * (d - 2) // 6
        raw[8] = cycles[v]
        raw[9] = s_tail
        raw[10] = s_tri_deg
        raw[11] = tt * (d - 2)
        raw[12] = opposite[v]
        raw[13] = s_diag
        raw[14] = cliques[v]
        for i in range(NODE_ORBITS):
            s = int64(0)
            for j in range(i, NODE_ORBITS):
                s += minv[i, j] * raw[j]
            out[v, i] = s
