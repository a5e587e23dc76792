"""Kernels of the graphlet census (graphmine.graphlets._cpu): 4-vertex orbit counts per vertex
and per edge, and the 3-path sampler.

Contract: the census kernels work on the graph relabelled by degree rank (vertex ``rank[v]`` of
:func:`_rank_space`, ties by id), whose full CSR ``rp``/``ri`` has sorted rows: in row v the
neighbours below v come first (``rp[v]:split[v]``), those above after. ``reid[p]`` is the edge id
(position in the graph's u < v edge order) of slot p. Nothing is validated.

The census needs, per edge e: its triangles t(e), and from the subgraphs that cannot be counted
from local degrees: 4-cycles and 4-cliques through every vertex or edge, and a sum over the
triangles of a vertex (or edge) of the triangle counts of their other edges. Two passes:

1. every edge {u, v} with u < v is intersected from v's row (marked) by scanning u's row: t(e)
   (and the degree sum of the common neighbours); the same scan counts, for every w < v, the
   paths v - u - w, so the 4-cycles whose highest vertex is v are C(paths(v, w), 2) with w
   opposite v (each cycle once, at its highest vertex: Chiba and Nishizeki's bound, O(m sqrt m)
   in degree order), and a second walk credits the middle vertices (edges);
2. the triangles v < u < w are listed from the out-neighbourhoods (the rows' upper parts), each
   once from its lowest vertex, and the 4-cliques above v counted from a bit matrix of v's
   out-neighbourhood (a 4-clique {v, u, w, x} is a common neighbour x of a local edge u - w).

Counts landing on other vertices than the one being processed go to per-thread buffers
``buf[t]``, summed at the end. The threads claim chunks of vertices (about equal numbers of
arcs, hubs first) from a shared counter, and stop early when ``cancel[0]`` turns non-zero.
The per-vertex (per-edge) counts of each orbit's non-induced pattern are then formed from these
and degree terms, and the induced orbit counts are ``minv @`` those (``minv`` the inverse of the
unit upper-triangular matrix that says how many copies of each pattern every induced graphlet
holds; graphmine/graphlets/_cpu.py).
"""

import numpy as np
from numba import njit, prange

from .._primitives.setops import and_count, fetch_add, lower_bound

U0 = np.uint64(0)
U1 = np.uint64(1)

# the 15 per-vertex (12 per-edge) counts a census row holds
NODE_ORBITS = 15
EDGE_ORBITS = 12


@njit(cache=True, nogil=True)
def _rank_space(indptr, indices):
    """The graph relabelled by degree rank (ties by id): (rp, ri, reid, split, orig), rows sorted,
    ``reid`` the edge id of every slot (edges numbered in the original graph's order of (u, v),
    u < v), ``orig[r]`` the vertex of rank r. Serial and linear (a counting sort of the degrees,
    no searches): a few per cent of the census's time on one thread even for the largest graphs,
    and no thread pool to wake for the small ones."""
    n = indptr.shape[0] - 1
    slots = indices.shape[0]
    maxd = 0
    for u in range(n):
        maxd = max(maxd, indptr[u + 1] - indptr[u])
    first = np.zeros(maxd + 2, np.int64)  # first rank of each degree
    for u in range(n):
        first[indptr[u + 1] - indptr[u] + 1] += 1
    for d in range(maxd + 1):
        first[d + 1] += first[d]
    orig = np.empty(n, np.int64)
    rank = np.empty(n, np.int64)
    for u in range(n):
        r = first[indptr[u + 1] - indptr[u]]
        first[indptr[u + 1] - indptr[u]] += 1
        orig[r] = u
        rank[u] = r
    # edge ids: edge (u, w), u < w, is met in u's row in id order, and its twin slots in w's row
    # (w's lower neighbours, first in the row and sorted) are met in the same order
    oeid = np.empty(slots, np.int64)
    twin = indptr[:-1].copy()
    e = 0
    for u in range(n):
        for k in range(indptr[u], indptr[u + 1]):
            w = indices[k]
            if w > u:
                oeid[k] = e
                oeid[twin[w]] = e
                twin[w] += 1
                e += 1
    rp = np.empty(n + 1, np.int64)
    rp[0] = 0
    for r in range(n):
        u = orig[r]
        rp[r + 1] = rp[r] + (indptr[u + 1] - indptr[u])
    # scatter the rows in increasing order of the new ids: every new row comes out sorted, its
    # lower neighbours first
    ri = np.empty(slots, indices.dtype)
    reid = np.empty(slots, np.int64)
    fill = rp[:-1].copy()
    split = rp[:-1].copy()
    for r in range(n):
        w = orig[r]
        for k in range(indptr[w], indptr[w + 1]):
            row = rank[indices[k]]
            ri[fill[row]] = r
            reid[fill[row]] = oeid[k]
            fill[row] += 1
            if r < row:
                split[row] += 1
    return rp, ri, reid, split, orig


@njit(cache=True, nogil=True)
def _pass1_vertex(v, rp, ri, reid, split, tri, dsum, buf, mark, cnt, touched, edges):
    """Pass 1 at v: t(e) and the common neighbours' degree sum of the edges to v's lower
    neighbours, and the 4-cycles whose highest vertex is v. ``mark`` is -1 and ``cnt`` 0 at every
    vertex on entry and on exit (int32: a thread's scratch stays small next to the caches)."""
    lo = rp[v]
    hi = rp[v + 1]
    mid = split[v]
    if mid == lo:
        return
    for p in range(lo, hi):
        mark[ri[p]] = 0
    nt = 0
    for p in range(lo, mid):
        u = ri[p]
        tc = 0
        ds = 0
        q = rp[u]
        end = rp[u + 1]
        # u's row below v: common neighbours and the 2-paths v - u - w; v itself; above v:
        # common neighbours only. Branch-free counting: mark[w] + 1 is 1 at v's neighbours, else 0,
        # and a vertex met for the first time is listed by moving the list's end past it
        while True:
            w = ri[q]
            if w >= v:
                break
            hit = mark[w] + 1
            tc += hit
            if edges:
                ds += hit * (rp[w + 1] - rp[w])
            c = cnt[w]
            touched[nt] = w
            nt += c == 0
            cnt[w] = c + 1
            q += 1
        for q in range(q + 1, end):
            w = ri[q]
            hit = mark[w] + 1
            tc += hit
            if edges:
                ds += hit * (rp[w + 1] - rp[w])
        e = reid[p]
        tri[e] = tc
        if edges:
            dsum[e] = ds
    for p in range(lo, hi):
        mark[ri[p]] = -1
    if not edges:
        for k in range(nt):
            w = touched[k]
            c = np.int64(cnt[w])
            pairs = c * (c - 1) // 2
            buf[0, v] += pairs
            buf[0, w] += pairs
    # the middle vertices (edges) of the cycles: each 2-path v - u - w is in cnt[w] - 1 of them
    for p in range(lo, mid):
        u = ri[p]
        x = 0
        for q in range(rp[u], rp[u + 1]):
            w = ri[q]
            if w >= v:
                break
            x += np.int64(cnt[w]) - 1
            if edges:
                buf[0, reid[q]] += np.int64(cnt[w]) - 1
        if edges:
            buf[0, reid[p]] += x
        else:
            buf[0, u] += x
    for k in range(nt):
        cnt[touched[k]] = 0


@njit(cache=True, nogil=True)
def _pass2_vertex(v, rp, ri, reid, split, tri, buf, mark, bits, tl, edges):
    """Pass 2 at v: the triangles v < y < z and the 4-cliques above v. Credits buf[2] with the
    triangle-count sums (per vertex: the opposite edge's t - 1; per edge: the other two edges'
    t - 1 each) and buf[1] with 4-cliques.

    The out-neighbours of v become a dense bit matrix ``bits`` (local ids 0..k-1, row i the
    local neighbours of the i-th): a local edge y - z is a triangle v, y, z, and the common local
    neighbours of its ends are the 4-cliques {v, y, z, x}, counted by one AND and popcount per
    word, never listed. ``mark`` is -1 on entry and exit."""
    lo = split[v]
    hi = rp[v + 1]
    k = hi - lo
    if k < 2:
        return
    W = (k + 63) >> 6
    top = ri[hi - 1]
    for i in range(k):
        mark[ri[lo + i]] = i
        tl[i] = 0
        for w in range(W):
            bits[i, w] = U0
    for i in range(k):
        y = ri[lo + i]
        for q in range(split[y], rp[y + 1]):
            z = ri[q]
            if z > top:
                break
            j = mark[z]
            if j >= 0:
                bits[i, j >> 6] |= U1 << np.uint64(j & 63)
                bits[j, i >> 6] |= U1 << np.uint64(i & 63)
    total = 0
    for i in range(k):
        y = ri[lo + i]
        e_vy = reid[lo + i]
        t_vy = tri[e_vy]
        for q in range(split[y], rp[y + 1]):
            z = ri[q]
            if z > top:
                break
            j = mark[z]
            if j < 0:
                continue
            e_vz = reid[lo + j]
            e_yz = reid[q]
            t_vz = tri[e_vz]
            t_yz = tri[e_yz]
            if edges:
                buf[2, e_vy] += t_vz + t_yz - 2
                buf[2, e_vz] += t_vy + t_yz - 2
                buf[2, e_yz] += t_vy + t_vz - 2
            else:
                buf[2, v] += t_yz - 1
                buf[2, y] += t_vz - 1
                buf[2, z] += t_vy - 1
            if t_vy >= 2 and t_vz >= 2 and t_yz >= 2:  # else no fourth vertex meets all three
                c = and_count(bits, i, bits, j, W)
                if c:
                    tl[i] += c
                    tl[j] += c
                    total += c
                    if edges:
                        buf[1, e_yz] += c
    if total:
        # local vertex i is in tl[i] / 2 local triangles (4-cliques with v), v in total / 3
        for i in range(k):
            c = tl[i] >> 1
            if c:
                if edges:
                    buf[1, reid[lo + i]] += c
                else:
                    buf[1, ri[lo + i]] += c
        if not edges:
            buf[1, v] += total // 3
    for i in range(k):
        mark[ri[lo + i]] = -1


@njit(cache=True, nogil=True, parallel=True)
def _census_pass(phase, c0, c1, bounds, rp, ri, reid, split, tri, dsum, buf, scratch, bits, tl, edges, nthreads,
                 cancel):
    """Run pass ``phase`` (1 or 2) over the vertex chunks c0..c1-1 (chunk c: vertices
    bounds[c]..bounds[c+1]-1), claimed from the last (the hubs) down. ``scratch[t]`` (int32) holds
    thread t's marks (row 0, -1 when idle), counters (row 1, 0 when idle) and list (row 2);
    ``bits[t]`` and ``tl[t]`` its bit matrix and counts (max out-degree rows)."""
    counter = np.zeros(1, np.int64)
    for tt in prange(nthreads):
        t = np.int64(tt)  # prange's index is unsigned: one signature for the helpers
        while True:
            k = fetch_add(counter, 0, 1)
            if k >= c1 - c0 or fetch_add(cancel, 0, 0) != 0:
                break
            c = c1 - 1 - k
            for v in range(bounds[c], bounds[c + 1]):
                if phase == 1:
                    _pass1_vertex(v, rp, ri, reid, split, tri, dsum, buf[t], scratch[t, 0], scratch[t, 1],
                                  scratch[t, 2], edges)
                else:
                    _pass2_vertex(v, rp, ri, reid, split, tri, buf[t], scratch[t, 0], bits[t], tl[t], edges)


@njit(cache=True, nogil=True)
def _apply(minv, raw, out, row):
    """out[row] = M @ raw (the induced counts from the non-induced ones), M given by its non-zero
    entries: minv[k] = (i, j, M[i, j]), ordered by i (under half of the triangle is non-zero)."""
    k = 0
    nnz = minv.shape[0]
    while k < nnz:
        i = minv[k, 0]
        s = 0
        while k < nnz and minv[k, 0] == i:
            s += minv[k, 2] * raw[minv[k, 1]]
            k += 1
        out[row, i] = s


@njit(cache=True, nogil=True)
def _vertex_sums(rp, ri, reid, tri, tv, sv, t, nthreads):
    """tv[v] (triangles at v) and sv[v] (2-paths from v) for v = t, t + nthreads, ..."""
    n = rp.shape[0] - 1
    for v in range(t, n, nthreads):
        s = 0
        tt = 0
        for p in range(rp[v], rp[v + 1]):
            s += rp[ri[p] + 1] - rp[ri[p]] - 1
            tt += tri[reid[p]]
        sv[v] = s
        tv[v] = tt // 2


@njit(cache=True, nogil=True)
def _orbit_rows(rp, ri, reid, split, orig, tri, dsum, acc, tv, sv, edges, minv, out, t, nthreads):
    """The orbit counts of the vertices v = t, t + nthreads, ... (of the edges to their lower
    neighbours): the non-induced pattern counts, then ``minv`` applied."""
    n = rp.shape[0] - 1
    raw = np.empty(NODE_ORBITS, np.int64)
    for v in range(t, n, nthreads):
        d = rp[v + 1] - rp[v]
        if edges:
            for p in range(rp[v], split[v]):
                u = ri[p]
                e = reid[p]
                du = rp[u + 1] - rp[u]
                te = tri[e]
                raw[0] = du + d - 2
                raw[1] = te
                raw[2] = sv[u] + sv[v] - (du - 1) - (d - 1) - 2 * te
                raw[3] = (du - 1) * (d - 1) - te
                raw[4] = (du - 1) * (du - 2) // 2 + (d - 1) * (d - 2) // 2
                raw[5] = acc[0, e]
                raw[6] = tv[u] + tv[v] - 2 * te
                raw[7] = dsum[e] - 2 * te
                raw[8] = te * (du + d - 4)
                raw[9] = acc[2, e]
                raw[10] = te * (te - 1) // 2
                raw[11] = acc[1, e]
                _apply(minv, raw[:EDGE_ORBITS], out, e)
        else:
            tt = tv[v]
            s_paths = 0
            s_star = 0
            s_tail = 0
            s_tri_deg = 0
            s_diag = 0
            for p in range(rp[v], rp[v + 1]):
                a = ri[p]
                da = rp[a + 1] - rp[a]
                ta = tri[reid[p]]
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
            raw[8] = acc[0, v]
            raw[9] = s_tail
            raw[10] = s_tri_deg
            raw[11] = tt * (d - 2)
            raw[12] = acc[2, v]
            raw[13] = s_diag
            raw[14] = acc[1, v]
            _apply(minv, raw, out, orig[v])


@njit(cache=True, nogil=True, parallel=True)
def _census_finish(rp, ri, reid, split, orig, tri, dsum, buf, edges, minv, nthreads):
    """The orbit counts: (n, 15) per vertex in the original order, or (m, 12) per edge in edge-id
    order, from the passes' results (``buf`` is summed into buf[0] here)."""
    n = rp.shape[0] - 1
    m = tri.shape[0]
    size = buf.shape[2]
    tv = np.empty(n, np.int64)
    sv = np.empty(n, np.int64)
    for tt in prange(nthreads):  # the two independent steps in one region
        t = np.int64(tt)  # prange's index is unsigned: one signature for the helpers
        for c in range(3):
            for i in range(t * size // nthreads, (t + 1) * size // nthreads):
                for b in range(1, buf.shape[0]):
                    buf[0, c, i] += buf[b, c, i]
        _vertex_sums(rp, ri, reid, tri, tv, sv, t, nthreads)
    out = np.empty((m, EDGE_ORBITS) if edges else (n, NODE_ORBITS), np.int64)
    for tt in prange(nthreads):
        t = np.int64(tt)  # prange's index is unsigned: one signature for the helpers
        _orbit_rows(rp, ri, reid, split, orig, tri, dsum, buf[0], tv, sv, edges, minv, out, t, nthreads)
    return out


@njit(cache=True, nogil=True)
def _census_serial(rp, ri, reid, split, orig, edges, minv, maxout):
    """The whole census on one thread, no thread pool woken (small graphs): the passes over every
    vertex and the orbit counts, as :func:`_census_pass` and :func:`_census_finish`."""
    n = rp.shape[0] - 1
    m = ri.shape[0] // 2
    tri = np.zeros(m, np.int64)
    dsum = np.zeros(m if edges else 0, np.int64)
    buf = np.zeros((3, m if edges else n), np.int64)
    mark = np.full(n, -1, np.int32)
    cnt = np.zeros(n, np.int32)
    touched = np.empty(n, np.int32)
    tl = np.empty(maxout, np.int64)
    bits = np.empty((maxout, (maxout + 63) >> 6), np.uint64)
    for v in range(n):
        _pass1_vertex(v, rp, ri, reid, split, tri, dsum, buf, mark, cnt, touched, edges)
    for v in range(n):
        _pass2_vertex(v, rp, ri, reid, split, tri, buf, mark, bits, tl, edges)
    tv = np.empty(n, np.int64)
    sv = np.empty(n, np.int64)
    zero, one = np.int64(0), np.int64(1)  # not literals: the parallel driver's signatures serve
    _vertex_sums(rp, ri, reid, tri, tv, sv, zero, one)
    out = np.empty((m, EDGE_ORBITS) if edges else (n, NODE_ORBITS), np.int64)
    _orbit_rows(rp, ri, reid, split, orig, tri, dsum, buf, tv, sv, edges, minv, out, zero, one)
    return out


# -- sampling -------------------------------------------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def _mix(z):
    """splitmix64's finaliser: a 64-bit hash of a counter."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def _unit(base, j):
    """A uniform double in [0, 1), draw j of the sample whose stream starts at ``base``: counters
    hashed, so that a sample's draws depend on the seed and its index only (not on the thread
    that makes it)."""
    return float(_mix(base + _GOLDEN * np.uint64(j + 1)) >> _S11) * _TO_UNIT


@njit(cache=True, inline="always")
def _adjacent(indptr, indices, a, b):
    """Whether a ~ b: a binary search in the shorter row."""
    if indptr[a + 1] - indptr[a] > indptr[b + 1] - indptr[b]:
        a, b = b, a
    hi = indptr[a + 1]
    k = lower_bound(indices, indptr[a], hi, np.int64(b))
    return k < hi and indices[k] == b


@njit(cache=True, nogil=True, parallel=True)
def _sample_three_paths(indptr, indices, eu, ev, cumw, samples, seed, nthreads):
    """Draw ``samples`` 3-paths uniformly and count the induced graphlet on each path's vertices.

    A draw takes edge u - v with probability (d_u - 1)(d_v - 1) / W, then a in N(u) - v and b in
    N(v) - u uniformly; a == b (a triangle, no path) is drawn again, so the paths kept are
    uniform over the graph's 3-paths. Columns: 0 the redrawn triples, 1 path, 2 4-cycle, 3 paw,
    4 diamond, 5 4-clique. Returns the counts per thread."""
    total = float(cumw[cumw.shape[0] - 1])
    out = np.zeros((nthreads, 6), np.int64)
    for tt in prange(nthreads):
        t = np.int64(tt)  # prange's index is unsigned: one signature for the helpers
        for i in range(t, samples, nthreads):
            base = _mix(seed + _GOLDEN * np.uint64(i + 1))
            j = 0
            while True:
                r = int(_unit(base, j) * total)
                e = lower_bound(cumw, np.int64(0), cumw.shape[0], np.int64(r + 1))
                u = eu[e]
                v = ev[e]
                du = indptr[u + 1] - indptr[u]
                dv = indptr[v + 1] - indptr[v]
                # a uniform neighbour other than the partner: the last entry stands in for it
                a = indices[indptr[u] + int(_unit(base, j + 1) * (du - 1))]
                if a == v:
                    a = indices[indptr[u + 1] - 1]
                b = indices[indptr[v] + int(_unit(base, j + 2) * (dv - 1))]
                if b == u:
                    b = indices[indptr[v + 1] - 1]
                j += 3
                if a != b:
                    break
                out[t, 0] += 1
            chord_a = _adjacent(indptr, indices, a, v)
            chord_b = _adjacent(indptr, indices, b, u)
            close = _adjacent(indptr, indices, a, b)
            extra = int(chord_a) + int(chord_b) + int(close)
            if extra == 0:
                out[t, 1] += 1
            elif extra == 1:
                out[t, 2 if close else 3] += 1
            elif extra == 2:
                out[t, 4] += 1
            else:
                out[t, 5] += 1
    return out


@njit(cache=True, nogil=True, parallel=True)
def _sample_trees5(indptr, indices, cw, arcw, counts, table, seed, nthreads):
    """Draw copies of the three spanning trees of 5 vertices and classify the induced graphlet on
    each copy's vertices (graphmine.graphlets._trees5).

    ``cw[T]`` (3, n) float64: the cumulative weight of every vertex as the centre of tree type T
    (0 the 4-path, 1 the fork, 2 the 4-star); ``arcw`` (2m,) int64: along each row, the cumulative
    (d_b - 1) of its neighbours b; ``counts[T]`` the draws of type T (draws 0.. of type 0, then
    type 1, then 2); ``table`` (1024,) the graphlet index 0..20 of a 10-bit adjacency mask over
    the pairs (0,1), (0,2), (0,3), (0,4), (1,2), (1,3), (1,4), (2,3), (2,4), (3,4), -1 if
    disconnected. A configuration is uniform over the type's relaxed set (the tree's shape
    with repeated vertices allowed where noted); one with a repeated vertex is a miss. Returns
    (nthreads, 3, 23) int64: hits per graphlet in columns 0..20, misses in 21, and in 22 the
    4-path's centre draws that drew the same neighbour twice (redrawn)."""
    n = indptr.shape[0] - 1
    out = np.zeros((nthreads, 3, 23), np.int64)
    n0 = counts[0]
    n1 = n0 + counts[1]
    samples = n1 + counts[2]
    for tt in prange(nthreads):
        t = np.int64(tt)  # prange's index is unsigned: one signature for the helpers
        vs = np.empty(5, np.int64)
        pick = np.empty(4, np.int64)
        for i in range(t, samples, nthreads):
            typ = 0 if i < n0 else (1 if i < n1 else 2)
            base = _mix(seed + _GOLDEN * np.uint64(i + 1))
            row = cw[typ]
            # the centre: the first vertex whose cumulative weight exceeds a uniform point
            r = _unit(base, 0) * row[n - 1]
            lo = 0
            hi = n
            while lo < hi:
                mid = (lo + hi) >> 1
                if row[mid] <= r:
                    lo = mid + 1
                else:
                    hi = mid
            c = min(lo, n - 1)
            while c > 0 and row[c] == row[c - 1]:  # r rounded up to the total: the last weighted vertex
                c -= 1
            p0 = indptr[c]
            dc = indptr[c + 1] - p0
            j = 1
            mask = 0
            if typ == 2:
                # the 4-star: four distinct neighbours, a uniform ordered draw without replacement
                for k in range(4):
                    x = int(_unit(base, j) * (dc - k))
                    j += 1
                    q = 0
                    while q < k and pick[q] <= x:  # skip the positions taken (kept sorted)
                        x += 1
                        q += 1
                    for s in range(k, q, -1):
                        pick[s] = pick[s - 1]
                    pick[q] = x
                vs[0] = c
                for k in range(4):
                    vs[k + 1] = indices[p0 + pick[k]]
                mask = 0b1111  # c joined to every leaf
            elif typ == 1:
                # the fork: long arm c - z - w with z drawn with weight d_z - 1, w uniform in N(z) - c;
                # the leaves {x, y}: two distinct neighbours of c other than z
                sc = arcw[p0 + dc - 1]
                r2 = int(_unit(base, j) * sc)
                pz = lower_bound(arcw, p0, p0 + dc, np.int64(r2 + 1)) - p0
                z = indices[p0 + pz]
                dz = indptr[z + 1] - indptr[z]
                w = indices[indptr[z] + int(_unit(base, j + 1) * (dz - 1))]
                if w == c:
                    w = indices[indptr[z + 1] - 1]  # the last entry stands in for c
                a = int(_unit(base, j + 2) * (dc - 1))
                b = int(_unit(base, j + 3) * (dc - 2))
                if b >= a:
                    b += 1
                if a >= pz:
                    a += 1
                if b >= pz:
                    b += 1
                x = indices[p0 + a]
                y = indices[p0 + b]
                if w == x or w == y:
                    out[t, 1, 21] += 1
                    continue
                vs[0] = c
                vs[1] = z
                vs[2] = w
                vs[3] = x
                vs[4] = y
                mask = 0b1 | 0b100 | 0b1000 | 0b10000  # c-z, c-x, c-y, z-w
            else:
                # the 4-path a - b - c - d - e: (b, d) ordered with weight (d_b - 1)(d_d - 1), drawn
                # again while b == d, then a in N(b) - c and e in N(d) - c uniformly
                sc = arcw[p0 + dc - 1]
                while True:
                    r2 = int(_unit(base, j) * sc)
                    pb = lower_bound(arcw, p0, p0 + dc, np.int64(r2 + 1))
                    r2 = int(_unit(base, j + 1) * sc)
                    pd = lower_bound(arcw, p0, p0 + dc, np.int64(r2 + 1))
                    j += 2
                    if pb != pd:
                        break
                    out[t, 0, 22] += 1
                b = indices[pb]
                d = indices[pd]
                db = indptr[b + 1] - indptr[b]
                dd = indptr[d + 1] - indptr[d]
                a = indices[indptr[b] + int(_unit(base, j) * (db - 1))]
                if a == c:
                    a = indices[indptr[b + 1] - 1]
                e = indices[indptr[d] + int(_unit(base, j + 1) * (dd - 1))]
                if e == c:
                    e = indices[indptr[d + 1] - 1]
                if a == d or e == b or a == e:
                    out[t, 0, 21] += 1
                    continue
                vs[0] = c
                vs[1] = b
                vs[2] = d
                vs[3] = a
                vs[4] = e
                mask = 0b1 | 0b10 | 0b100000 | 0b100000000  # c-b, c-d, b-a, d-e
            # the pairs not in the tree: an adjacency test each
            bit = 0
            for u in range(4):
                for v in range(u + 1, 5):
                    if not (mask >> bit) & 1 and _adjacent(indptr, indices, vs[u], vs[v]):
                        mask |= 1 << bit
                    bit += 1
            out[t, typ, table[mask]] += 1
    return out
