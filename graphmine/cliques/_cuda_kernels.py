"""CUDA kernels (numba-cuda) for exact triangle and k-clique counting (the cliques family's GPU side).

Contract: ``optr``/``oind`` is the out-neighbourhood CSR of an acyclic orientation with ids
relabelled by rank (every arc u -> v has u < v, rows sorted), as the CPU kernels use. Kernels
never validate and never raise; counts are int64, summed per thread, reduced per block in shared
memory and added with one 64-bit atomic per block.

Triangles (edge-centric). Arc j = (u -> v) at position j of N+(u) closes the triangles
{u, v, w} with w in N+(v) ∩ N+(u)[after j] (the part of N+(u) before and at v cannot hold a
w > v). The work of an arc is the length s of the shorter of the two lists; every element of
the shorter list is looked up by binary search in the longer one, with the lower bound carried
forward (the elements come in increasing order). Skewed graphs make s range from 0 to thousands,
so arcs are split by s into bins (after the GPU literature's load balancing by bins): light arcs
(s <= 12) one thread each, in their CSR order (neighbouring threads share N+(u)); then groups of
8 threads (s <= 64), a warp (s <= 1024) and a block per arc, the lanes of a group taking every
8th / 32nd / ... element of the shorter list. The arc lists of the bins are built once per graph
on the device. (Staging the longer list in shared memory first was measured slower on Kronecker
graphs: most lists are searched only a few times.) The arcs of hubs, vertices u of large
out-degree whose out-neighbours (ids > u, so the top ranks) fit a bitmap of HUB_BITS ids, are
counted vertex by vertex instead: one block per hub marks N+(u) in shared memory and looks up
every w of every N+(v), v in N+(u), with one shared-memory access (no binary search).

k-cliques (vertex-centric, k >= 4). One block per vertex u (heaviest first): the subgraph
induced by N+(u) is built as a bitmap (row i: the positions j > i of N+(u) adjacent to the i-th
out-neighbour) in a per-block scratch area, and the (k - 1)-cliques of that DAG are counted by
word-parallel ANDs and popcounts; each thread takes the next row from a shared counter. k = 4
is sum over rows i and set bits j of i of popc(row_i & row_j); deeper levels keep their
candidate bitmaps on a per-thread stack.
"""

import numpy as np
from numba import cuda, int64, uint64

from ..cuda._device_kernels import _arc_sources, _lower_bound  # noqa: F401 (the drivers launch _arc_sources as K._arc_sources)

# Bins by s (lookups per arc): s <= BOUNDS[0] one thread, <= BOUNDS[1] GROUPS[1] threads, ...,
# above the last bound one block
BOUNDS = (12, 64, 1024)
GROUPS = (1, 8, 32)   # and a block for the last bin
MAXBINS = 8
# Hubs: vertices u with d+(u) > HUB_MIN whose out-neighbours (ids > u) fit a shared-memory bitmap
HUB_WORDS = 4096               # 32 KiB of uint64 words per block
HUB_BITS = 64 * HUB_WORDS
HUB_MIN = 64
BLOCK = 256     # largest block (the shared reduction array); a power of two
WARP = 32
MAXLEVEL = 32   # deepest clique DFS (k <= MAXLEVEL + 3)
U0 = np.uint64(0)
U1 = np.uint64(1)


# the CPU kernels' binary search, compiled for the device (one definition of it)


@cuda.jit(device=True, inline=True)
def _arc_lists(optr, oind, src, j):
    """(alo, ahi, blo, bhi): the rest of N+(u) after arc j, and N+(v)."""
    u = src[j]
    v = oind[j]
    return j + 1, optr[u + 1], optr[v], optr[v + 1]


@cuda.jit(device=True, inline=True)
def _count_common(oind, alo, ahi, blo, bhi, lane, step, pv, credit):
    """|oind[alo:ahi] ∩ oind[blo:bhi]| over the elements lane, lane + step, ... of the shorter
    list, looked up in the longer; with ``credit`` every common element w gets pv[w] += 1."""
    if ahi - alo > bhi - blo:
        alo, ahi, blo, bhi = blo, bhi, alo, ahi
    c = 0
    lo = blo
    i = alo + lane
    while i < ahi and lo < bhi:
        x = oind[i]
        lo = _lower_bound(oind, lo, bhi, x)
        if lo < bhi and oind[lo] == x:
            c += 1
            if credit:
                cuda.atomic.add(pv, x, 1)
        i += step
    return c


@cuda.jit(device=True, inline=True)
def _block_sum(c, out):
    """Add every thread's c into out[0] (one atomic per block); all threads must call it."""
    sh = cuda.shared.array(BLOCK, int64)
    t = cuda.threadIdx.x
    sh[t] = c
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            sh[t] += sh[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, sh[0])


@cuda.jit(cache=True)
def _pair_ptr(optr, lo_a, hi_a, lo_b, hi_b, two, out):
    """Row pointers of a partitioned count's pair: the rows of [lo_a, hi_a) of optr, then (when
    ``two``) those of [lo_b, hi_b), packed one after the other; every other row empty."""
    for u in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        x = optr[min(max(u, lo_a), hi_a)] - optr[lo_a]
        if two:
            x += optr[min(max(u, lo_b), hi_b)] - optr[lo_b]
        out[u] = x


@cuda.jit(device=True, inline=True)
def _is_hub(optr, u, hub_lo, hub_min):
    """Whether u's arcs go to :func:`_tri_hubs` (u >= hub_lo and d+(u) > hub_min)."""
    return u >= hub_lo and optr[u + 1] - optr[u] > hub_min


@cuda.jit(device=True, inline=True)
def _active(src, oind, j, rlo, rhi, clo, chi):
    """Whether arc j = u -> v is counted here: u in [rlo, rhi) and v in [clo, chi) (a partitioned
    count's block; the whole graph otherwise)."""
    u = src[j]
    v = oind[j]
    return u >= rlo and u < rhi and v >= clo and v < chi


@cuda.jit(device=True, inline=True)
def _arc_bin(optr, oind, src, j, bounds, hub_lo, hub_min, rlo, rhi, clo, chi):
    """The bin of arc j: the first b with s <= bounds[b] (len(bounds) when none); -1 for the arcs
    of hubs and arcs outside the block."""
    if _is_hub(optr, src[j], hub_lo, hub_min) or not _active(src, oind, j, rlo, rhi, clo, chi):
        return -1
    alo, ahi, blo, bhi = _arc_lists(optr, oind, src, j)
    s = min(ahi - alo, bhi - blo)
    b = 0
    while b < bounds.shape[0] and s > bounds[b]:
        b += 1
    return b


@cuda.jit(cache=True)
def _bin_counts(optr, oind, src, bounds, hub_lo, hub_min, rlo, rhi, clo, chi, counts):
    """counts[b] = number of arcs in bin b >= 1; shared counters per block."""
    sh = cuda.shared.array(MAXBINS, int64)
    t = cuda.threadIdx.x
    if t < MAXBINS:
        sh[t] = 0
    cuda.syncthreads()
    m = src.shape[0]  # the arcs to visit: all, or a partitioned count's first block
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        b = _arc_bin(optr, oind, src, j, bounds, hub_lo, hub_min, rlo, rhi, clo, chi)
        if b > 0:
            cuda.atomic.add(sh, b, 1)
    cuda.syncthreads()
    if t > 0 and t < MAXBINS:
        cuda.atomic.add(counts, t, sh[t])


@cuda.jit(cache=True)
def _bin_scatter(optr, oind, src, bounds, hub_lo, hub_min, rlo, rhi, clo, chi, fill, lists):
    """Write every arc of bin b >= 1 into ``lists`` at fill[b] (the next free slot of its bin)."""
    m = src.shape[0]  # the arcs to visit: all, or a partitioned count's first block
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        b = _arc_bin(optr, oind, src, j, bounds, hub_lo, hub_min, rlo, rhi, clo, chi)
        if b > 0:
            lists[cuda.atomic.add(fill, b, 1)] = j


@cuda.jit(device=True, inline=True)
def _arc_triangles(oind, src, j, alo, ahi, blo, bhi, lane, step, pv, credit):
    """Triangles on arc j = src[j] -> oind[j] whose lists are [alo, ahi) and [blo, bhi), this
    lane's share (lanes lane, lane + step, ...); with ``credit`` the arc's two ends get them too
    (the third vertices are credited by :func:`_count_common`)."""
    x = _count_common(oind, alo, ahi, blo, bhi, lane, step, pv, credit)
    if credit and x > 0:
        cuda.atomic.add(pv, src[j], x)
        cuda.atomic.add(pv, oind[j], x)
    return x


@cuda.jit(cache=True)
def _tri_light(optr, oind, src, light, hub_lo, hub_min, rlo, rhi, clo, chi, out, pv, credit):
    """Triangles on the light arcs, one thread per arc in CSR order (others are skipped)."""
    m = src.shape[0]  # the arcs to visit: all, or a partitioned count's first block
    c = int64(0)
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        alo, ahi, blo, bhi = _arc_lists(optr, oind, src, j)
        s = min(ahi - alo, bhi - blo)
        if (s > 0 and s <= light and not _is_hub(optr, src[j], hub_lo, hub_min)
                and _active(src, oind, j, rlo, rhi, clo, chi)):
            c += _arc_triangles(oind, src, j, alo, ahi, blo, bhi, 0, 1, pv, credit)
    _block_sum(c, out)


@cuda.jit(cache=True)
def _tri_group(optr, oind, src, arcs, group, out, pv, credit):
    """Triangles on the arcs listed in ``arcs``, ``group`` threads per arc (8, a warp or a block;
    ``group`` divides the block)."""
    tid = cuda.grid(1)
    lane = tid % group
    g = tid // group
    ngroups = cuda.gridsize(1) // group
    c = int64(0)
    for a in range(g, arcs.shape[0], ngroups):
        j = arcs[a]
        alo, ahi, blo, bhi = _arc_lists(optr, oind, src, j)
        c += _arc_triangles(oind, src, j, alo, ahi, blo, bhi, lane, group, pv, credit)
    _block_sum(c, out)


@cuda.jit(cache=True)
def _tri_hubs(optr, oind, hubs, clo, chi, out, pv, credit):
    """Triangles on the arcs of the hubs u (one block per hub): N+(u) as a bitmap in shared memory
    over the ids u + 1 .. n - 1 (at most HUB_BITS of them), then one warp per out-neighbour v
    tests every w of N+(v) with one shared-memory lookup (coalesced reads of N+(v)); only the
    out-neighbours v in [clo, chi) (a partitioned count's block; all otherwise)."""
    bm = cuda.shared.array(HUB_WORDS, uint64)
    n = optr.shape[0] - 1
    t = cuda.threadIdx.x
    T = cuda.blockDim.x
    lane = t % WARP
    warp = t // WARP
    nw = T // WARP
    c = int64(0)
    for h in range(cuda.blockIdx.x, hubs.shape[0], cuda.gridDim.x):
        u = hubs[h]
        a = optr[u]
        e = optr[u + 1]
        base = u + 1
        nwords = min(HUB_WORDS, (n - base + 63) >> 6)
        for q in range(t, nwords, T):
            bm[q] = U0
        cuda.syncthreads()
        for p in range(a + t, e, T):
            x = oind[p] - base
            cuda.atomic.or_(bm, x >> 6, U1 << np.uint64(x & 63))
        cuda.syncthreads()
        for p in range(a + warp, e, nw):
            v = oind[p]
            x = 0
            if v < clo or v >= chi:
                continue
            for q in range(optr[v] + lane, optr[v + 1], WARP):
                w = oind[q] - base
                if (bm[w >> 6] >> np.uint64(w & 63)) & U1:
                    x += 1
                    if credit:
                        cuda.atomic.add(pv, w + base, 1)
            c += x
            if credit and x > 0:
                cuda.atomic.add(pv, u, x)
                cuda.atomic.add(pv, v, x)
        cuda.syncthreads()
    _block_sum(c, out)


# -- k-cliques -------------------------------------------------------------------------------

@cuda.jit(device=True, inline=True)
def _low_bit(w):
    """(position of the lowest set bit of w, w without it); w != 0."""
    t = w & (~w + U1)
    return cuda.popc(t - U1), w ^ t


@cuda.jit(device=True, inline=True)
def _first_level(bm, blk, i, wd, stk, g, wi, rb):
    """Level 0 of a row's depth-first search: row i's set (from word i >> 6 on) copied to
    stk[g, 0:wd], its first word as the bits left to take."""
    first = i >> 6
    for q in range(first, wd):
        stk[g, q] = bm[blk, i * wd + q]
    wi[0] = first
    rb[0] = stk[g, first]


@cuda.jit(device=True, inline=True)
def _descend(bm, blk, wd, stk, g, wi, rb, lvl):
    """One step of a row's depth-first search at level lvl (level l holds its candidate set at
    stk[g, l * wd:], the word wi[l] it is at and that word's bits rb[l] not taken yet): take the
    next member jj and make level lvl + 1 the set ∩ row jj. Returns (the level to go on at, jj):
    (lvl + 1, jj) when that set is not empty, (lvl, jj) when it is, (lvl - 1, -1) when level
    lvl has no member left."""
    base = lvl * wd
    while rb[lvl] == U0 and wi[lvl] < wd - 1:
        wi[lvl] += 1
        rb[lvl] = stk[g, base + wi[lvl]]
    if rb[lvl] == U0:
        return lvl - 1, -1
    j, rest = _low_bit(rb[lvl])
    rb[lvl] = rest
    jj = wi[lvl] * 64 + j
    rj = jj * wd
    nb = base + wd
    fw = jj >> 6
    any_ = U0
    for q in range(fw, wd):
        w = stk[g, base + q] & bm[blk, rj + q]
        stk[g, nb + q] = w
        any_ |= w
    if any_ == U0:
        return lvl, jj
    wi[lvl + 1] = fw
    rb[lvl + 1] = stk[g, nb + fw]
    return lvl + 1, jj


@cuda.jit(device=True)
def _row_cliques(bm, blk, i, wd, r, stk, g, wi, rb):
    """Cliques of r more vertices inside row i's set (k - 1 = r + 1 vertices of N+(u) in all)."""
    rowi = i * wd
    first = i >> 6
    if r == 1:
        c = 0
        for q in range(first, wd):
            c += cuda.popc(bm[blk, rowi + q])
        return c
    if r == 2:
        return _pair_count(bm, blk, rowi, bm, blk, first, wd)
    # depth-first over levels 0 .. r - 2 (:func:`_descend`)
    _first_level(bm, blk, i, wd, stk, g, wi, rb)
    lvl = 0
    c = 0
    while lvl >= 0:
        if r - lvl == 2:
            c += _pair_count(stk, g, lvl * wd, bm, blk, wi[lvl], wd)
            lvl -= 1
        else:
            lvl, _ = _descend(bm, blk, wd, stk, g, wi, rb, lvl)
    return c


@cuda.jit(device=True)
def _pair_count(A, ai, off, bm, blk, first, wd):
    """Edges inside the set A[ai, off + first:off + wd] (words): for every member j,
    popc(set & row j of the bitmap) over the words from j's on. The set is a bitmap row
    (A = bm) or a level of a thread's DFS stack (A = stk)."""
    c = 0
    for q in range(first, wd):
        w = A[ai, off + q]
        while w != U0:
            j, w = _low_bit(w)
            jj = q * 64 + j
            rj = jj * wd
            for q2 in range(jj >> 6, wd):
                c += cuda.popc(A[ai, off + q2] & bm[blk, rj + q2])
    return c


@cuda.jit(device=True, inline=True)
def _induced_rows(optr, oind, a, d, wd, bm, blk, nxt):
    """The subgraph induced by N+(u) = oind[a:a + d] as bitmap rows of bm[blk]: row i holds the
    positions j > i adjacent to oind[a + i]; the threads take rows from the shared counter nxt[0]."""
    while True:
        i = cuda.atomic.add(nxt, 0, 1)
        if i >= d:
            break
        row = i * wd
        for q in range(wd):
            bm[blk, row + q] = U0
        x = oind[a + i]
        lo = a + i + 1
        hi = a + d
        for p in range(optr[x], optr[x + 1]):
            if lo >= hi:
                break
            lo = _lower_bound(oind, lo, hi, oind[p])
            if lo < hi and oind[lo] == oind[p]:
                pos = lo - a
                bm[blk, row + (pos >> 6)] |= U1 << np.uint64(pos & 63)
                lo += 1


# -- k-cliques through every vertex ----------------------------------------------------------

@cuda.jit(device=True)
def _row_cliques_pv(bm, blk, i, wd, r, stk, g, wi, rb, ch, oind, a, pv):
    """As :func:`_row_cliques` (cliques of r more vertices inside row i's set), crediting the
    vertices chosen inside the row: every clique adds 1 to each of its r vertices there (u and
    row i's own vertex are credited by the caller with the returned count). Depth-first over
    levels 0 .. r - 1 with no shortcut for the last two: level r - 1 is the leaf, where every
    member of the set closes one clique."""
    _first_level(bm, blk, i, wd, stk, g, wi, rb)
    lvl = 0
    c = 0
    while lvl >= 0:
        if lvl == r - 1:
            base = lvl * wd
            cnt = 0
            for q in range(wi[lvl], wd):
                w = stk[g, base + q]
                while w != U0:
                    j, w = _low_bit(w)
                    cuda.atomic.add(pv, oind[a + q * 64 + j], 1)
                    cnt += 1
            if cnt > 0:
                for l2 in range(lvl):
                    cuda.atomic.add(pv, oind[a + ch[l2]], cnt)
            c += cnt
            lvl -= 1
        else:
            nxt_lvl, jj = _descend(bm, blk, wd, stk, g, wi, rb, lvl)
            ch[lvl] = jj
            lvl = nxt_lvl
    return c


@cuda.jit(cache=True)
def _cliques(optr, oind, verts, k, bm, stk, out, pv, credit):
    """k-cliques (k >= 4) whose lowest vertex is one of ``verts`` (one block per vertex); with
    ``credit``, pv[x] += the k-cliques through x (ids of the oriented CSR; else pv is unused)."""
    nxt = cuda.shared.array(2, int64)
    wi = cuda.local.array(MAXLEVEL, int64)
    rb = cuda.local.array(MAXLEVEL, uint64)
    ch = cuda.local.array(MAXLEVEL, int64)
    t = cuda.threadIdx.x
    blk = cuda.blockIdx.x
    g = cuda.grid(1)
    r = k - 2
    c = int64(0)
    for vi in range(blk, verts.shape[0], cuda.gridDim.x):
        u = verts[vi]
        a = optr[u]
        d = optr[u + 1] - a
        wd = (d + 63) >> 6
        if t == 0:
            nxt[0] = 0
            nxt[1] = 0
        cuda.syncthreads()
        _induced_rows(optr, oind, a, d, wd, bm, blk, nxt)
        cuda.syncthreads()
        while True:
            i = cuda.atomic.add(nxt, 1, 1)
            if i >= d:
                break
            if credit:
                x = _row_cliques_pv(bm, blk, i, wd, r, stk, g, wi, rb, ch, oind, a, pv)
                if x > 0:
                    cuda.atomic.add(pv, oind[a + i], x)
                    cuda.atomic.add(pv, u, x)
            else:
                x = _row_cliques(bm, blk, i, wd, r, stk, g, wi, rb)
            c += x
        cuda.syncthreads()
    _block_sum(c, out)
