"""Numba kernels of the streaming triangle estimators.

Contract. Vertices are compact ids 0..n-1 (:func:`_map_vertices` gives them), below 2**31.
Every estimator keeps its sample as a graph in arrays; an estimator with several independent
replicates holds one row of each array per replicate, and calls its kernel once per replicate and
batch with that row's views (the kernels release the GIL: the caller runs the replicates on its
threads, each replicate writing only its own rows):

* ``eu``, ``ev`` (length cap): the endpoints of the edge in each slot (``eu[s] = -1``: a free
  slot);
* ``nb``, ``sl`` (int32, length 16 cap + 16): a pool of adjacency blocks, one per vertex;
  ``vtx[x]`` = (start, capacity, degree) of vertex x's block. A block is an open-addressing hash
  table of the vertex's sampled neighbours (``nb[j]``: a neighbour, -1: empty; ``sl[j]``: the
  slot of that edge, apart so that the scans and probes read 4 bytes an entry; linear probing, at most half full; a deletion shifts its probe run back, so there are no
  tombstones). An edge {a, b} is found in the block of a, and the triangles of {a, b} by reading
  the smaller block in order and looking each neighbour up in the other: every probe stays inside
  one vertex's block, which for a hub is hot in the cache (a table of all the sampled edges
  would miss the cache on nearly every probe). A full block moves to the pool's top with twice
  the room; when the top is reached the pool is rebuilt from the slots (every block back to
  back, at most half full: at most 8 x the edges, so the moves that follow fit);
* ``c`` (int64 counters, the ``C_*`` indices), ``glob`` (the global counter, one element),
  ``loc`` (the per-vertex counters), ``rng`` (a splitmix64 state, one element: a replicate's
  random stream does not depend on the thread that runs it).

A kernel processes the events ``i..m-1`` of a batch ``(sg, u, v)`` (sign +1 insertion, -1
deletion) and returns where it stopped: at ``m``, or earlier when the sample needs more slots
(the exact counter, ThinkD-FAST: the caller grows the arrays and calls again) or when
``flag[0]`` turns non-zero (the state is then that after the events before the returned
index). Kernels never validate and never raise; they call no numpy function that can raise
(whose error paths numba would compile on a first run, as many functions again). The small
helpers are inlined; the three larger ones (a block's move, an edge's eviction, the count of the
triangles of an edge) are functions of their own, compiled once for every method (inlined in
every call site they would multiply the compile time).

Every event loop prefetches (``_ahead``): on a stream in random order the vertex rows and blocks
an event reads are rarely in the cache, and one event's loads depend on each other (row, then
block, then the probes), so the processor cannot overlap them; the prefetches of the events a few
places ahead let those misses overlap with the work of the current one.
"""

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

# counters (cnt[r, C_*])
C_SIZE = 0        # edges in the sample
C_TIME = 1        # insertions seen (TRIEST's t)
C_EDGES = 2       # edges of the graph now, as the stream says (|E(t)|)
C_DIN = 3         # uncompensated deletions of sampled edges (random pairing's c_b, TRIEST-FD's d_i)
C_DOUT = 4        # uncompensated deletions of edges not sampled (c_g, d_o)
C_DUP = 5         # insertions of an edge already sampled (skipped)
C_ABSENT = 6      # deletions of an edge known to be absent (skipped)
C_LOOPS = 7       # self-loops (skipped)
C_POPPED = 8      # WRS: edges that left the waiting room
C_WFILL = 9       # WRS: edges in the waiting room
C_WHEAD = 10      # WRS: ring position of the oldest edge of the waiting room
C_RFILL = 11      # WRS: edges in the reservoir
C_FOUND = 12      # triangles discovered (with a sampled pair of edges)
C_TOP = 13        # the adjacency pool's first unused entry
N_COUNTERS = 16

#: pool entries per edge slot (and a few more): the bound of :func:`_reserve`'s moves
POOL_PER_SLOT = 16
POOL_EXTRA = 16

_EMPTY = -1
_CHECK_EVERY = 16383  # events between two looks at the cancel flag (mask)


@njit(cache=True, inline="always")
def _hash(key, mask):
    x = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((x ^ (x >> np.uint64(29))) & np.uint64(mask))


@njit(cache=True, inline="always")
def _rand(state):
    """splitmix64: (next state, uniform float in [0, 1))."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return state, np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def _pick(x, n):
    """A uniform index in 0..n-1 from a uniform float x in [0, 1)."""
    j = np.int64(x * n)
    return n - 1 if j >= n else j


@intrinsic
def _prefetch(typingctx, arr, idx):
    """A hint to bring ``arr[idx]`` into the cache (LLVM's prefetch: no effect on any result,
    never faults)."""
    if not isinstance(arr, types.Array) or not isinstance(idx, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), i8p)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


@njit(cache=True, inline="always")
def _ahead(u, v, i, nb, vtx):
    """Prefetch what the events after event i will read: the vertex rows of event i + 8, and the
    two blocks of event i + 2 (the smaller one is scanned, the larger probed at random: on a
    random stream neither is in the cache, and the loads of one event depend on each other).
    Results do not change; it is 1.2x faster on a Kronecker stream."""
    m = u.shape[0]
    if i + 8 < m:
        _prefetch(vtx, 3 * u[i + 8])
        _prefetch(vtx, 3 * v[i + 8])
    if i + 2 < m:
        x = u[i + 2]
        y = v[i + 2]
        if vtx[x, 1] > vtx[y, 1]:
            x, y = y, x
        if vtx[x, 2] > 0:
            st = vtx[x, 0]
            _prefetch(nb, st + _hash(y, vtx[x, 1] - 1))
            for j in range(st, st + vtx[x, 1], 16):
                _prefetch(nb, j)
            if vtx[x, 2] > 8:
                for j in range(vtx[y, 0], vtx[y, 0] + vtx[y, 1], 16):
                    _prefetch(nb, j)


@njit(cache=True, inline="always")
def _pos(nb, sl, vtx, a, b):
    """The pool position of neighbour b in a's block, or -1."""
    if vtx[a, 2] == 0:
        return -1
    st = vtx[a, 0]
    mask = vtx[a, 1] - 1
    i = _hash(b, mask)
    while True:
        w = nb[st + i]
        if w == b:
            return st + i
        if w == _EMPTY:
            return -1
        i = (i + 1) & mask


@njit(cache=True, inline="always")
def _find(nb, sl, vtx, a, b):
    """The slot of the sampled edge {a, b}, or -1 (looked up in the smaller block)."""
    if vtx[a, 1] > vtx[b, 1]:
        a, b = b, a
    p = _pos(nb, sl, vtx, a, b)
    return -1 if p < 0 else np.int64(sl[p])


@njit(cache=True, inline="always")
def _insert(nb, sl, vtx, x, w, s):
    """Neighbour w (edge slot s) into x's block, which has room."""
    st = vtx[x, 0]
    mask = vtx[x, 1] - 1
    i = _hash(w, mask)
    while nb[st + i] != _EMPTY:
        i = (i + 1) & mask
    nb[st + i] = w
    sl[st + i] = s
    vtx[x, 2] += 1


@njit(cache=True, inline="always")
def _delete(nb, sl, vtx, x, p):
    """Remove the entry at pool position p of x's block; the entries after it in the probe run
    move back (no tombstones)."""
    st = vtx[x, 0]
    mask = vtx[x, 1] - 1
    i = p - st
    j = i
    while True:
        j = (j + 1) & mask
        k = nb[st + j]
        if k == _EMPTY:
            break
        home = _hash(k, mask)
        # the entry at j may move to i unless its home lies cyclically in (i, j]
        if i <= j:
            stays = i < home <= j
        else:
            stays = home > i or home <= j
        if not stays:
            nb[st + i] = k
            sl[st + i] = sl[st + j]
            i = j
    nb[st + i] = _EMPTY
    vtx[x, 2] -= 1


@njit(cache=True, inline="always")
def _rebuild(nb, sl, vtx, eu, ev, c):
    """Rewrite the pool from the slots: every vertex's block back to back, of the smallest power
    of two >= 2 x its degree (the room of the blocks left behind by moves is reclaimed)."""
    nv = vtx.shape[0]
    for x in range(nv):
        vtx[x, 2] = 0
    for s in range(eu.shape[0]):
        if eu[s] >= 0:
            vtx[eu[s], 2] += 1
            vtx[ev[s], 2] += 1
    top = 0
    for x in range(nv):
        d = vtx[x, 2]
        cap = 0
        if d > 0:
            cap = 2
            while cap < 2 * d:
                cap *= 2
        vtx[x, 0] = top
        vtx[x, 1] = cap
        vtx[x, 2] = 0
        top += cap
    for j in range(top):
        nb[j] = _EMPTY
    for s in range(eu.shape[0]):
        a = eu[s]
        if a >= 0:
            _insert(nb, sl, vtx, a, ev[s], s)
            _insert(nb, sl, vtx, ev[s], a, s)
    c[C_TOP] = top


@njit(cache=True, nogil=True)
def _reserve(x, nb, sl, vtx, eu, ev, c):
    """Room for one more neighbour in x's block (at most half full after it): the block moves to
    the pool's top with twice the room, after a rebuild when the top is reached. Returns whether
    the pool was rebuilt (blocks reserved before are then reserved again). After a rebuild the
    blocks take < 8 x the sampled edges n and a move < 8 x the vertex's degree, so the moves of
    an edge's two endpoints fit in 16 n + 16 entries."""
    d = vtx[x, 2]
    cap = vtx[x, 1]
    if 2 * (d + 1) <= cap:
        return False
    rebuilt = False
    ncap = 2 if cap == 0 else 2 * cap
    top = c[C_TOP]
    if top + ncap > nb.shape[0]:
        _rebuild(nb, sl, vtx, eu, ev, c)
        rebuilt = True
        d = vtx[x, 2]
        cap = vtx[x, 1]
        if 2 * (d + 1) <= cap:
            return True
        ncap = 2 if cap == 0 else 2 * cap
        top = c[C_TOP]
    st = vtx[x, 0]
    for j in range(top, top + ncap):
        nb[j] = _EMPTY
    vtx[x, 0] = top
    vtx[x, 1] = ncap
    vtx[x, 2] = 0
    for j in range(st, st + cap):
        w = nb[j]
        if w != _EMPTY:
            _insert(nb, sl, vtx, x, w, sl[j])
    c[C_TOP] = top + ncap
    return rebuilt


@njit(cache=True, inline="always")
def _add_edge(s, a, b, eu, ev, nb, sl, vtx, c):
    """Put edge {a, b} in the free slot s and in both endpoints' blocks."""
    _reserve(a, nb, sl, vtx, eu, ev, c)
    if _reserve(b, nb, sl, vtx, eu, ev, c):
        _reserve(a, nb, sl, vtx, eu, ev, c)
    eu[s] = a
    ev[s] = b
    _insert(nb, sl, vtx, a, b, s)
    _insert(nb, sl, vtx, b, a, s)


@njit(cache=True, nogil=True)
def _evict(s, eu, ev, nb, sl, vtx):
    """Remove the edge of slot s from both blocks; the slot becomes free."""
    a = eu[s]
    b = ev[s]
    _delete(nb, sl, vtx, a, _pos(nb, sl, vtx, a, b))
    _delete(nb, sl, vtx, b, _pos(nb, sl, vtx, b, a))
    eu[s] = -1


@njit(cache=True, inline="always")
def _remove_dense(s, n, eu, ev, nb, sl, vtx):
    """Remove the edge of slot s from a sample kept in slots 0..n-1: the edge of slot n-1 moves
    into s (its two block entries renamed), so that the slots stay dense for a uniform choice of
    a sampled edge."""
    _evict(s, eu, ev, nb, sl, vtx)
    last = n - 1
    if s != last:
        a = eu[last]
        b = ev[last]
        eu[s] = a
        ev[s] = b
        sl[_pos(nb, sl, vtx, a, b)] = s
        sl[_pos(nb, sl, vtx, b, a)] = s
        eu[last] = -1


@njit(cache=True, nogil=True)
def _count_common(a, b, wgt, nb, sl, vtx, loc):
    """Triangles {a, b, w} closed by two sampled edges {a, w}, {b, w}: ``wgt`` is added to the
    local counters of a, b and every such w; returns their number. The smaller block is read in
    order, each neighbour looked up in the other."""
    if vtx[a, 2] == 0 or vtx[b, 2] == 0:
        return 0
    if vtx[a, 1] > vtx[b, 1]:
        a, b = b, a
    found = 0
    st = vtx[a, 0]
    bst = vtx[b, 0]
    bmask = vtx[b, 1] - 1
    for j in range(st, st + vtx[a, 1]):
        w = nb[j]
        if w == _EMPTY or w == b:
            continue
        i = _hash(w, bmask)
        while True:
            k = nb[bst + i]
            if k == w:
                found += 1
                loc[w] += wgt
                break
            if k == _EMPTY:
                break
            i = (i + 1) & bmask
    if found:
        loc[a] += found * wgt
        loc[b] += found * wgt
    return found


# -- vertex ids ---------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _map_vertices(vk, vv, vids, nv, ids, out, i0):
    """Compact ids of ``ids[i0:]`` into ``out``: a known id gets its number, a new one the next
    (``vids[n] = id``). ``vk``/``vv``: open-addressing table id -> number (-1: empty), at most
    half full (``len(vids) == len(vk) // 2`` numbers); ``nv[0]``: ids numbered so far. Stops
    before a new id that does not fit and returns its index (``len(ids)`` when all are done)."""
    mask = vk.shape[0] - 1
    limit = vids.shape[0]
    n = nv[0]
    m = ids.shape[0]
    for i in range(i0, m):
        if i + 16 < m:  # the table is read at random: the lookups ahead overlap their misses
            h = _hash(ids[i + 16], mask)
            _prefetch(vk, h)
            _prefetch(vv, h)
        x = ids[i]
        h = _hash(x, mask)
        while True:
            k = vk[h]
            if k == x:
                out[i] = vv[h]
                break
            if k == _EMPTY:
                if n == limit:
                    nv[0] = n
                    return i
                vk[h] = x
                vv[h] = n
                vids[n] = x
                out[i] = n
                n += 1
                break
            h = (h + 1) & mask
    nv[0] = n
    return ids.shape[0]


# -- the exact counter -------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _exact_run(sg, u, v, i, eu, ev, nb, sl, vtx, glob, loc, c, keep, count, flag):
    """Exact counts: the sample is the whole graph. ``keep[i]`` = 1 for an event that changed
    the graph, 0 for a skipped one (self-loop, repeated insertion, deletion of an absent edge).
    ``count`` = False: maintain the graph only (a stream's clean-up)."""
    cap = eu.shape[0]
    n = c[C_SIZE]
    g = glob[0]
    m = sg.shape[0]
    while i < m:
        if (i & _CHECK_EVERY) == 0 and flag[0] != 0:
            break
        _ahead(u, v, i, nb, vtx)
        a = u[i]
        b = v[i]
        if a == b:
            c[C_LOOPS] += 1
            keep[i] = 0
            i += 1
            continue
        idx = _find(nb, sl, vtx, a, b)
        if sg[i] > 0:
            if idx != -1:
                c[C_DUP] += 1
                keep[i] = 0
                i += 1
                continue
            if n == cap:
                break  # the caller grows the arrays
            if count:
                f = _count_common(a, b, 1.0, nb, sl, vtx, loc)
                g += f
                c[C_FOUND] += f
            _add_edge(n, a, b, eu, ev, nb, sl, vtx, c)
            n += 1
            c[C_EDGES] += 1
            c[C_TIME] += 1
        else:
            if idx == -1:
                c[C_ABSENT] += 1
                keep[i] = 0
                i += 1
                continue
            _remove_dense(idx, n, eu, ev, nb, sl, vtx)
            n -= 1
            c[C_EDGES] -= 1
            if count:
                f = _count_common(a, b, -1.0, nb, sl, vtx, loc)
                g -= f
                c[C_FOUND] += f
        keep[i] = 1
        i += 1
    c[C_SIZE] = n
    glob[0] = g
    return i


# -- TRIEST-IMPR (insertions only) ---------------------------------------------------------------

@njit(cache=True, nogil=True)
def _triest_run(sg, u, v, i, M, eu, ev, nb, sl, vtx, glob, loc, c, rng, flag):
    m = sg.shape[0]
    n = c[C_SIZE]
    t = c[C_TIME]
    g = glob[0]
    st = rng[0]
    mm1 = float(M) * float(M - 1)
    while i < m:
        if (i & _CHECK_EVERY) == 0 and flag[0] != 0:
            break
        _ahead(u, v, i, nb, vtx)
        a = u[i]
        b = v[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        if _find(nb, sl, vtx, a, b) != -1:
            c[C_DUP] += 1
            continue
        t += 1
        # every triangle closed now is counted with the inverse of the probability that its two
        # other edges are both in the sample (De Stefani et al., TRIEST-IMPR)
        eta = (t - 1.0) * (t - 2.0) / mm1
        if eta < 1.0:
            eta = 1.0
        f = _count_common(a, b, eta, nb, sl, vtx, loc)
        g += f * eta
        c[C_FOUND] += f
        if t <= M:
            _add_edge(n, a, b, eu, ev, nb, sl, vtx, c)
            n += 1
        else:
            st, x = _rand(st)
            if x * t < M:  # keep with probability M / t, in place of a uniform sampled edge
                st, y = _rand(st)
                s = _pick(y, M)
                _evict(s, eu, ev, nb, sl, vtx)
                _add_edge(s, a, b, eu, ev, nb, sl, vtx, c)
    c[C_SIZE] = n
    c[C_TIME] = t
    c[C_EDGES] = t
    glob[0] = g
    rng[0] = st
    return i



# -- TRIEST-FD (random pairing) ------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _triest_fd_run(sg, u, v, i, M, eu, ev, nb, sl, vtx, glob, loc, c, rng, flag):
    m = sg.shape[0]
    n = c[C_SIZE]
    s_e = c[C_EDGES]
    di = c[C_DIN]
    do = c[C_DOUT]
    g = glob[0]
    st = rng[0]
    while i < m:
        if (i & _CHECK_EVERY) == 0 and flag[0] != 0:
            break
        _ahead(u, v, i, nb, vtx)
        a = u[i]
        b = v[i]
        sign = sg[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        idx = _find(nb, sl, vtx, a, b)
        if sign > 0:
            if idx != -1:
                c[C_DUP] += 1
                continue
            s_e += 1
            c[C_TIME] += 1
            take = False
            if di + do == 0:
                if n < M:
                    take = True
                else:
                    st, x = _rand(st)
                    if x * s_e < M:  # reservoir step: probability M / s
                        st, y = _rand(st)
                        j = _pick(y, n)
                        # the evicted edge's sampled triangles leave the counters
                        ra = eu[j]
                        rb = ev[j]
                        _remove_dense(j, n, eu, ev, nb, sl, vtx)
                        n -= 1
                        g -= _count_common(ra, rb, -1.0, nb, sl, vtx, loc)
                        take = True
            else:
                st, x = _rand(st)
                if x * (di + do) < di:  # pair with a deletion of a sampled edge
                    take = True
                    di -= 1
                else:
                    do -= 1
            if take:
                f = _count_common(a, b, 1.0, nb, sl, vtx, loc)
                g += f
                c[C_FOUND] += f
                _add_edge(n, a, b, eu, ev, nb, sl, vtx, c)
                n += 1
        else:
            if s_e == 0:
                c[C_ABSENT] += 1
                continue
            s_e -= 1
            if idx != -1:
                _remove_dense(idx, n, eu, ev, nb, sl, vtx)
                n -= 1
                g -= _count_common(a, b, -1.0, nb, sl, vtx, loc)
                di += 1
            else:
                do += 1
    c[C_SIZE] = n
    c[C_EDGES] = s_e
    c[C_DIN] = di
    c[C_DOUT] = do
    glob[0] = g
    rng[0] = st
    return i



# -- ThinkD-FAST (Bernoulli sampling) --------------------------------------------------------

@njit(cache=True, nogil=True)
def _thinkd_fast_run(sg, u, v, i, p, eu, ev, nb, sl, vtx, glob, loc, c, rng, flag):
    m = sg.shape[0]
    cap = eu.shape[0]
    n = c[C_SIZE]
    s_e = c[C_EDGES]
    g = glob[0]
    st = rng[0]
    wgt = 1.0 / (p * p)
    while i < m:
        if (i & _CHECK_EVERY) == 0 and flag[0] != 0:
            break
        _ahead(u, v, i, nb, vtx)
        if n == cap:
            break  # the caller grows the arrays
        a = u[i]
        b = v[i]
        sign = sg[i]
        if a == b:
            c[C_LOOPS] += 1
            i += 1
            continue
        idx = _find(nb, sl, vtx, a, b)
        if sign > 0:
            if idx != -1:
                c[C_DUP] += 1
                i += 1
                continue
            # count first (think), then sample: each triangle closed now is counted with the
            # inverse of the probability p^2 that its two other edges were both kept
            f = _count_common(a, b, wgt, nb, sl, vtx, loc)
            g += f * wgt
            c[C_FOUND] += f
            s_e += 1
            c[C_TIME] += 1
            st, x = _rand(st)
            if x < p:
                _add_edge(n, a, b, eu, ev, nb, sl, vtx, c)
                n += 1
        else:
            if s_e == 0:
                c[C_ABSENT] += 1
                i += 1
                continue
            f = _count_common(a, b, -wgt, nb, sl, vtx, loc)
            g -= f * wgt
            c[C_FOUND] += f
            s_e -= 1
            if idx != -1:
                _remove_dense(idx, n, eu, ev, nb, sl, vtx)
                n -= 1
        i += 1
    c[C_SIZE] = n
    c[C_EDGES] = s_e
    glob[0] = g
    rng[0] = st
    return i



# -- ThinkD-ACC (random pairing) ---------------------------------------------------------------

@njit(cache=True, nogil=True)
def _thinkd_acc_run(sg, u, v, i, M, eu, ev, nb, sl, vtx, glob, loc, c, rng, flag):
    m = sg.shape[0]
    n = c[C_SIZE]
    s_e = c[C_EDGES]
    cb = c[C_DIN]
    cg = c[C_DOUT]
    g = glob[0]
    st = rng[0]
    while i < m:
        if (i & _CHECK_EVERY) == 0 and flag[0] != 0:
            break
        _ahead(u, v, i, nb, vtx)
        a = u[i]
        b = v[i]
        sign = sg[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        idx = _find(nb, sl, vtx, a, b)
        if sign > 0 and idx != -1:
            c[C_DUP] += 1
            continue
        if sign < 0 and s_e == 0:
            c[C_ABSENT] += 1
            continue
        # count first: the sample is uniform among the s_e edges of the graph given its size n,
        # so two given edges are both in it with probability n (n - 1) / (s_e (s_e - 1))
        if n >= 2 and vtx[a, 2] > 0 and vtx[b, 2] > 0:
            if n >= s_e:
                wgt = 1.0
            else:
                wgt = (float(s_e) * float(s_e - 1)) / (float(n) * float(n - 1))
            if sign < 0:
                wgt = -wgt
            f = _count_common(a, b, wgt, nb, sl, vtx, loc)
            g += f * wgt
            c[C_FOUND] += f
        if sign > 0:
            s_e += 1
            c[C_TIME] += 1
            if cb + cg == 0:
                if n < M:
                    _add_edge(n, a, b, eu, ev, nb, sl, vtx, c)
                    n += 1
                else:
                    st, x = _rand(st)
                    if x * s_e < M:
                        st, y = _rand(st)
                        j = _pick(y, n)
                        _evict(j, eu, ev, nb, sl, vtx)
                        _add_edge(j, a, b, eu, ev, nb, sl, vtx, c)
            else:
                st, x = _rand(st)
                if x * (cb + cg) < cb:
                    _add_edge(n, a, b, eu, ev, nb, sl, vtx, c)
                    n += 1
                    cb -= 1
                else:
                    cg -= 1
        else:
            s_e -= 1
            if idx != -1:
                _remove_dense(idx, n, eu, ev, nb, sl, vtx)
                n -= 1
                cb += 1
            else:
                cg += 1
    c[C_SIZE] = n
    c[C_EDGES] = s_e
    c[C_DIN] = cb
    c[C_DOUT] = cg
    glob[0] = g
    rng[0] = st
    return i



# -- WRS (waiting room + reservoir, insertions only) -----------------------------------------------

@njit(cache=True, nogil=True)
def _wrs_run(sg, u, v, i, W, R, eu, ev, nb, sl, vtx, glob, loc, c, rng, inw, ring, res, flag):
    m = sg.shape[0]
    nw = c[C_WFILL]
    wh = c[C_WHEAD]
    nr = c[C_RFILL]
    mp = c[C_POPPED]
    used = c[C_SIZE]  # slots handed out so far (never more than W + R)
    g = glob[0]
    st = rng[0]
    while i < m:
        if (i & _CHECK_EVERY) == 0 and flag[0] != 0:
            break
        _ahead(u, v, i, nb, vtx)
        a = u[i]
        b = v[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        if _find(nb, sl, vtx, a, b) != -1:
            c[C_DUP] += 1
            continue
        c[C_TIME] += 1
        # count: an edge of the waiting room is there for sure; one in the reservoir is one of
        # the mp edges that left the room, each kept there with probability R / mp
        p1 = 1.0 if mp <= R else float(R) / float(mp)
        p2 = 1.0 if mp <= R else (float(R) * float(R - 1)) / (float(mp) * float(mp - 1))
        if vtx[a, 2] > 0 and vtx[b, 2] > 0:
            x0 = a
            y0 = b
            if vtx[x0, 1] > vtx[y0, 1]:
                x0, y0 = y0, x0
            found = 0
            add = 0.0
            b0 = vtx[x0, 0]
            for jj in range(b0, b0 + vtx[x0, 1]):
                w = nb[jj]
                if w != _EMPTY and w != y0:
                    q = _pos(nb, sl, vtx, y0, w)
                    if q != -1:
                        k = inw[sl[jj]] + inw[sl[q]]
                        wgt = 1.0 if k == 2 else (1.0 / p1 if k == 1 else 1.0 / p2)
                        loc[w] += wgt
                        add += wgt
                        found += 1
            if found:
                loc[x0] += add
                loc[y0] += add
                g += add
                c[C_FOUND] += found
        # sample: the new edge enters the waiting room; the oldest one leaves it for the
        # reservoir stage (reservoir sampling over the edges that left)
        if W == 0:  # no waiting room: the new edge itself goes to the reservoir stage
            mp += 1
            if nr < R:
                s = used
                used += 1
                _add_edge(s, a, b, eu, ev, nb, sl, vtx, c)
                inw[s] = 0
                res[nr] = s
                nr += 1
            else:
                st, x = _rand(st)
                if x * mp < R:
                    st, y = _rand(st)
                    s = res[_pick(y, R)]
                    _evict(s, eu, ev, nb, sl, vtx)
                    _add_edge(s, a, b, eu, ev, nb, sl, vtx, c)
            continue
        if nw < W:
            s = used
            used += 1
        else:
            o = ring[wh]  # the oldest edge of the room leaves it
            wh = (wh + 1) % W
            nw -= 1
            mp += 1
            if nr < R:
                res[nr] = o
                nr += 1
                inw[o] = 0
                s = used
                used += 1
            else:
                st, x = _rand(st)
                if x * mp < R:  # it replaces a uniform reservoir edge, whose slot the new edge takes
                    st, y = _rand(st)
                    j = _pick(y, R)
                    s = res[j]
                    _evict(s, eu, ev, nb, sl, vtx)
                    res[j] = o
                    inw[o] = 0
                else:  # it is dropped; the new edge takes its slot
                    s = o
                    _evict(s, eu, ev, nb, sl, vtx)
        _add_edge(s, a, b, eu, ev, nb, sl, vtx, c)
        inw[s] = 1
        ring[(wh + nw) % W] = s
        nw += 1
    c[C_WFILL] = nw
    c[C_WHEAD] = wh
    c[C_RFILL] = nr
    c[C_POPPED] = mp
    c[C_SIZE] = used
    c[C_EDGES] = c[C_TIME]
    glob[0] = g
    rng[0] = st
    return i



# -- GPS: graph priority sampling, in-stream estimation (insertions only) ---------------------------

@njit(cache=True, inline="always")
def _heap_down(heap, n, pr, h):
    """Sift heap position h down in the min-heap ``heap[:n]`` of slots keyed by ``pr[slot]``."""
    s = heap[h]
    key = pr[s]
    while True:
        j = 2 * h + 1
        if j >= n:
            break
        if j + 1 < n and pr[heap[j + 1]] < pr[heap[j]]:
            j += 1
        if pr[heap[j]] >= key:
            break
        heap[h] = heap[j]
        h = j
    heap[h] = s


@njit(cache=True, inline="always")
def _heap_up(heap, pr, h):
    """Sift heap position h up in the min-heap of slots keyed by ``pr[slot]``."""
    s = heap[h]
    key = pr[s]
    while h > 0:
        j = (h - 1) // 2
        if pr[heap[j]] <= key:
            break
        heap[h] = heap[j]
        h = j
    heap[h] = s


@njit(cache=True, nogil=True)
def _gps_run(sg, u, v, i, M, cw, eu, ev, nb, sl, vtx, glob, loc, c, rng, wt, pr, cov, heap, zv, flag):
    """Graph priority sampling with in-stream estimation. Per slot: ``wt`` the edge's weight
    (cw x the triangles it closed with sampled edges, + 1), ``pr`` its priority weight / u,
    ``cov`` the sum of the estimates of the triangles counted so far that contain it (for the
    covariance terms of the variance); ``heap``: the sampled slots, a min-heap by priority;
    ``zv`` = (z*, the largest priority dropped so far; the variance estimate)."""
    m = sg.shape[0]
    n = c[C_SIZE]
    g = glob[0]
    z = zv[0]
    var = zv[1]
    st = rng[0]
    while i < m:
        if (i & _CHECK_EVERY) == 0 and flag[0] != 0:
            break
        _ahead(u, v, i, nb, vtx)
        a = u[i]
        b = v[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        if _find(nb, sl, vtx, a, b) != -1:
            c[C_DUP] += 1
            continue
        c[C_TIME] += 1
        # estimate first: a triangle closed with sampled edges k1, k2 counts 1 / (q1 q2), their
        # inclusion probabilities q = min(1, weight / z*) now (an unbiased snapshot)
        found = 0
        add = 0.0
        if vtx[a, 2] > 0 and vtx[b, 2] > 0:
            x0 = a
            y0 = b
            if vtx[x0, 1] > vtx[y0, 1]:
                x0, y0 = y0, x0
            b0 = vtx[x0, 0]
            for jj in range(b0, b0 + vtx[x0, 1]):
                w = nb[jj]
                if w != _EMPTY and w != y0:
                    q = _pos(nb, sl, vtx, y0, w)
                    if q != -1:
                        s1 = sl[jj]
                        s2 = sl[q]
                        i1 = 1.0
                        i2 = 1.0
                        if z > wt[s1]:
                            i1 = z / wt[s1]
                        if z > wt[s2]:
                            i2 = z / wt[s2]
                        e = i1 * i2
                        # the variance: this triangle's own term, and its covariance with the
                        # triangles counted before that share edge k1 or k2 (Ahmed et al.)
                        var += e * (e - 1.0) + 2.0 * (cov[s1] * i2 * (i1 - 1.0) + cov[s2] * i1 * (i2 - 1.0))
                        cov[s1] += e
                        cov[s2] += e
                        loc[w] += e
                        add += e
                        found += 1
            if found:
                loc[x0] += add
                loc[y0] += add
                g += add
                c[C_FOUND] += found
        # then sample: weight and priority, the m highest priorities stay
        wk = cw * found + 1.0
        st, x = _rand(st)
        r = wk / (1.0 - x)  # 1 - x is uniform in (0, 1]
        grown = n < M
        if grown:
            s = n
            heap[n] = s
            n += 1
        else:
            s = heap[0]
            if r <= pr[s]:  # the new edge has the lowest priority: it is dropped
                if r > z:
                    z = r
                continue
            if pr[s] > z:
                z = pr[s]
            _evict(s, eu, ev, nb, sl, vtx)
        _add_edge(s, a, b, eu, ev, nb, sl, vtx, c)
        wt[s] = wk
        pr[s] = r
        cov[s] = add
        if grown:
            _heap_up(heap, pr, n - 1)
        else:  # the new edge took the root's slot
            _heap_down(heap, n, pr, 0)
    c[C_SIZE] = n
    c[C_EDGES] = c[C_TIME]
    glob[0] = g
    zv[0] = z
    zv[1] = var
    rng[0] = st
    return i
