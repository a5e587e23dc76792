"""Numba kernels of the streaming triangle estimators.

Contract. Vertices are compact ids 0..n-1 (:func:`_map_vertices` gives them); ids stay below
2**31, so an edge ``a < b`` is the key ``a << 32 | b``. Every estimator keeps its sample as a
graph in arrays; an estimator with several independent replicates holds one row of each array
per replicate, and calls its kernel once per replicate and batch with that row's views (the
kernels release the GIL: the caller runs the replicates on its threads, each replicate writing
only its own rows):

* ``tk``, ``ts`` (length H, a power of two >= 2 x capacity): an open-addressing hash table with
  linear probing, edge key -> slot (-1: empty); deletions shift the probe run back, so there are
  no tombstones;
* ``eu``, ``ev`` (length cap): the endpoints of the edge in each slot;
* ``adj`` (shape (8 cap, 2)): a pool of adjacency blocks, one per vertex, entries (neighbour,
  half-edge); ``vtx[x]`` = (start, capacity, degree) of vertex x's block; half-edge ``2s`` is the
  entry of slot s in the block of ``eu[s]``, ``2s + 1`` in that of ``ev[s]``, and ``hp[h]`` is
  where half-edge h sits in the pool. A full block moves to the pool's top with twice the room;
  when the top is reached the pool is compacted. Blocks are read in order (no pointer chasing);
* ``c`` (int64 counters, the ``C_*`` indices), ``glob`` (the global counter, one element),
  ``loc`` (the per-vertex counters), ``rng`` (a splitmix64 state, one element: a replicate's
  random stream does not depend on the thread that runs it).

A kernel processes the events ``i..m-1`` of a batch ``(sg, u, v)`` (sign +1 insertion, -1
deletion) and returns where it stopped: at ``m``, or earlier when the sample needs more slots
(the exact counter, ThinkD-FAST: the caller grows the arrays and calls again) or when
``flag[0]`` turns non-zero (the state is then that after the events before the returned
index). Kernels never validate and never raise.

Triangles of an edge {a, b} in the sample: the half-edges of the endpoint of smaller sampled
degree are walked and the edge to the other endpoint looked up in the hash table
(:func:`_count_common`), min(deg a, deg b) probes.
"""

import numpy as np
from numba import njit

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

_EMPTY = np.int64(-1)
_CHECK_EVERY = 16383  # events between two looks at the cancel flag (mask)


@njit(cache=True, inline="always")
def _hash(key, mask):
    x = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((x ^ (x >> np.uint64(29))) & np.uint64(mask))


@njit(cache=True, inline="always")
def _edge_key(a, b):
    if a > b:
        a, b = b, a
    return (a << 32) | b


@njit(cache=True, inline="always")
def _find(tk, key):
    """The table index holding ``key``, or -1."""
    mask = tk.shape[0] - 1
    i = _hash(key, mask)
    while True:
        k = tk[i]
        if k == key:
            return i
        if k == _EMPTY:
            return -1
        i = (i + 1) & mask


@njit(cache=True, inline="always")
def _put(tk, ts, key, slot):
    mask = tk.shape[0] - 1
    i = _hash(key, mask)
    while tk[i] != _EMPTY:
        i = (i + 1) & mask
    tk[i] = key
    ts[i] = slot


@njit(cache=True)
def _drop_at(tk, ts, i):
    """Remove table entry i; the entries after it in the probe run move back (no tombstones)."""
    mask = tk.shape[0] - 1
    j = i
    while True:
        j = (j + 1) & mask
        k = tk[j]
        if k == _EMPTY:
            break
        home = _hash(k, mask)
        # the entry at j may move to i unless its home lies cyclically in (i, j]
        if i <= j:
            stays = i < home <= j
        else:
            stays = home > i or home <= j
        if not stays:
            tk[i] = k
            ts[i] = ts[j]
            i = j
    tk[i] = _EMPTY


@njit(cache=True, inline="always")
def _rand(state):
    """splitmix64: (next state, uniform float in [0, 1))."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return state, np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _compact(adj, vtx, hp):
    """Rewrite the pool with every vertex's block back to back, each of the smallest power of
    two >= max(2, degree); returns the pool's new top. Called when a block must move and the
    pool has no room left at its top (the old blocks left behind are reclaimed)."""
    tmp = np.empty((adj.shape[0], 2), np.int64)
    top = 0
    for x in range(vtx.shape[0]):
        d = vtx[x, 2]
        if d == 0:
            vtx[x, 0] = 0
            vtx[x, 1] = 0
            continue
        cap = 2
        while cap < d:
            cap *= 2
        st = vtx[x, 0]
        for j in range(d):
            tmp[top + j, 0] = adj[st + j, 0]
            tmp[top + j, 1] = adj[st + j, 1]
            hp[adj[st + j, 1]] = top + j
        vtx[x, 0] = top
        vtx[x, 1] = cap
        top += cap
    adj[:top] = tmp[:top]  # the free room inside blocks is copied too: never read
    return top


@njit(cache=True)
def _append(x, w, h, adj, vtx, hp, c):
    """Add neighbour w (half-edge h) to vertex x's block, moving the block to a block twice its
    size at the pool's top when it is full (the pool holds 8 x the slots: after a compaction
    the live blocks take at most 4 x, so the move always fits)."""
    d = vtx[x, 2]
    if d == vtx[x, 1]:
        cap = max(2, 2 * vtx[x, 1])
        top = c[C_TOP]
        if top + cap > adj.shape[0]:
            top = _compact(adj, vtx, hp)
            cap = max(2, 2 * vtx[x, 1]) if d == vtx[x, 1] else 0
        if cap:
            st = vtx[x, 0]
            for j in range(d):
                adj[top + j, 0] = adj[st + j, 0]
                adj[top + j, 1] = adj[st + j, 1]
                hp[adj[top + j, 1]] = top + j
            vtx[x, 0] = top
            vtx[x, 1] = cap
            top += cap
        c[C_TOP] = top
    pos = vtx[x, 0] + d
    adj[pos, 0] = w
    adj[pos, 1] = h
    hp[h] = pos
    vtx[x, 2] = d + 1


@njit(cache=True)
def _add_edge(s, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c):
    """Put edge {a, b} (key ``key``) in slot s: endpoints, both adjacency blocks, the table."""
    eu[s] = a
    ev[s] = b
    _append(a, b, 2 * s, adj, vtx, hp, c)
    _append(b, a, 2 * s + 1, adj, vtx, hp, c)
    _put(tk, ts, key, s)


@njit(cache=True)
def _evict(s, tk, ts, eu, ev, hp, adj, vtx):
    """Remove the edge of slot s (the slot stays, free): in each endpoint's block the last
    entry moves into its place."""
    for j in range(2):
        h = 2 * s + j
        x = eu[s] if j == 0 else ev[s]
        pos = hp[h]
        last = vtx[x, 0] + vtx[x, 2] - 1
        adj[pos, 0] = adj[last, 0]
        adj[pos, 1] = adj[last, 1]
        hp[adj[pos, 1]] = pos
        vtx[x, 2] -= 1
    _drop_at(tk, ts, _find(tk, _edge_key(eu[s], ev[s])))


@njit(cache=True)
def _remove_dense(s, n, tk, ts, eu, ev, hp, adj, vtx):
    """Remove the edge of slot s from a sample kept in slots 0..n-1: the edge of slot n-1 moves
    into s (its two block entries renamed), so that the slots stay dense for a uniform choice of
    a sampled edge."""
    _evict(s, tk, ts, eu, ev, hp, adj, vtx)
    last = n - 1
    if s != last:
        eu[s] = eu[last]
        ev[s] = ev[last]
        for j in range(2):
            pos = hp[2 * last + j]
            adj[pos, 1] = 2 * s + j
            hp[2 * s + j] = pos
        ts[_find(tk, _edge_key(eu[s], ev[s]))] = s


@njit(cache=True)
def _count_common(a, b, wgt, tk, adj, vtx, loc):
    """Triangles {a, b, w} closed by two sampled edges {a, w}, {b, w}: ``wgt`` is added to the
    local counters of a, b and every such w; returns their number. The block of the endpoint of
    smaller degree is read in order, the other edge looked up in the table."""
    if vtx[a, 2] == 0 or vtx[b, 2] == 0:
        return 0
    if vtx[a, 2] > vtx[b, 2]:
        a, b = b, a
    found = 0
    st = vtx[a, 0]
    for j in range(st, st + vtx[a, 2]):
        w = adj[j, 0]
        if w != b and _find(tk, _edge_key(b, w)) != -1:
            found += 1
            loc[w] += wgt
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
    for i in range(i0, ids.shape[0]):
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


@njit(cache=True, nogil=True)
def _rebuild_edges(tk, ts, eu, ev, size):
    """Fill the empty tables ``tk``/``ts`` (rows: replicates) with the edges of slots
    ``0..size[r]-1`` (after the slot arrays grew)."""
    for r in range(tk.shape[0]):
        for s in range(size[r]):
            _put(tk[r], ts[r], _edge_key(eu[r, s], ev[r, s]), s)


# -- the exact counter -------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _exact_run(sg, u, v, i, tk, ts, eu, ev, hp, adj, vtx, glob, loc, c, keep, count, flag):
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
        a = u[i]
        b = v[i]
        if a == b:
            c[C_LOOPS] += 1
            keep[i] = 0
            i += 1
            continue
        key = _edge_key(a, b)
        idx = _find(tk, key)
        if sg[i] > 0:
            if idx != -1:
                c[C_DUP] += 1
                keep[i] = 0
                i += 1
                continue
            if n == cap:
                break  # the caller grows the arrays
            if count:
                f = _count_common(a, b, 1.0, tk, adj, vtx, loc)
                g += f
                c[C_FOUND] += f
            _add_edge(n, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
            n += 1
            c[C_EDGES] += 1
            c[C_TIME] += 1
        else:
            if idx == -1:
                c[C_ABSENT] += 1
                keep[i] = 0
                i += 1
                continue
            _remove_dense(ts[idx], n, tk, ts, eu, ev, hp, adj, vtx)
            n -= 1
            c[C_EDGES] -= 1
            if count:
                f = _count_common(a, b, -1.0, tk, adj, vtx, loc)
                g -= f
                c[C_FOUND] += f
        keep[i] = 1
        i += 1
    c[C_SIZE] = n
    glob[0] = g
    return i


# -- TRIEST-IMPR (insertions only) ---------------------------------------------------------------

@njit(cache=True, nogil=True)
def _triest_run(sg, u, v, i, M, tk, ts, eu, ev, hp, adj, vtx, glob, loc, c, rng, flag):
    m = sg.shape[0]
    n = c[C_SIZE]
    t = c[C_TIME]
    g = glob[0]
    st = rng[0]
    mm1 = float(M) * float(M - 1)
    while i < m:
        if (i & _CHECK_EVERY) == 0 and flag[0] != 0:
            break
        a = u[i]
        b = v[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        key = _edge_key(a, b)
        if _find(tk, key) != -1:
            c[C_DUP] += 1
            continue
        t += 1
        # every triangle closed now is counted with the inverse of the probability that its two
        # other edges are both in the sample (De Stefani et al., TRIEST-IMPR)
        eta = max(1.0, (t - 1.0) * (t - 2.0) / mm1)
        f = _count_common(a, b, eta, tk, adj, vtx, loc)
        g += f * eta
        c[C_FOUND] += f
        if t <= M:
            _add_edge(n, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
            n += 1
        else:
            st, x = _rand(st)
            if x * t < M:  # keep with probability M / t, in place of a uniform sampled edge
                st, y = _rand(st)
                s = min(np.int64(y * M), M - 1)
                _evict(s, tk, ts, eu, ev, hp, adj, vtx)
                _add_edge(s, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
    c[C_SIZE] = n
    c[C_TIME] = t
    c[C_EDGES] = t
    glob[0] = g
    rng[0] = st
    return i



# -- TRIEST-FD (random pairing) ------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _triest_fd_run(sg, u, v, i, M, tk, ts, eu, ev, hp, adj, vtx, glob, loc, c, rng, flag):
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
        a = u[i]
        b = v[i]
        sign = sg[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        key = _edge_key(a, b)
        idx = _find(tk, key)
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
                        j = min(np.int64(y * n), n - 1)
                        # the evicted edge's sampled triangles leave the counters
                        ra = eu[j]
                        rb = ev[j]
                        _remove_dense(j, n, tk, ts, eu, ev, hp, adj, vtx)
                        n -= 1
                        g -= _count_common(ra, rb, -1.0, tk, adj, vtx, loc)
                        take = True
            else:
                st, x = _rand(st)
                if x * (di + do) < di:  # pair with a deletion of a sampled edge
                    take = True
                    di -= 1
                else:
                    do -= 1
            if take:
                f = _count_common(a, b, 1.0, tk, adj, vtx, loc)
                g += f
                c[C_FOUND] += f
                _add_edge(n, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
                n += 1
        else:
            if s_e == 0:
                c[C_ABSENT] += 1
                continue
            s_e -= 1
            if idx != -1:
                _remove_dense(ts[idx], n, tk, ts, eu, ev, hp, adj, vtx)
                n -= 1
                g -= _count_common(a, b, -1.0, tk, adj, vtx, loc)
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
def _thinkd_fast_run(sg, u, v, i, p, tk, ts, eu, ev, hp, adj, vtx, glob, loc, c, rng, flag):
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
        if n == cap:
            break  # the caller grows the arrays
        a = u[i]
        b = v[i]
        sign = sg[i]
        if a == b:
            c[C_LOOPS] += 1
            i += 1
            continue
        key = _edge_key(a, b)
        idx = _find(tk, key)
        if sign > 0:
            if idx != -1:
                c[C_DUP] += 1
                i += 1
                continue
            # count first (think), then sample: each triangle closed now is counted with the
            # inverse of the probability p^2 that its two other edges were both kept
            f = _count_common(a, b, wgt, tk, adj, vtx, loc)
            g += f * wgt
            c[C_FOUND] += f
            s_e += 1
            c[C_TIME] += 1
            st, x = _rand(st)
            if x < p:
                _add_edge(n, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
                n += 1
        else:
            if s_e == 0:
                c[C_ABSENT] += 1
                i += 1
                continue
            f = _count_common(a, b, -wgt, tk, adj, vtx, loc)
            g -= f * wgt
            c[C_FOUND] += f
            s_e -= 1
            if idx != -1:
                _remove_dense(ts[idx], n, tk, ts, eu, ev, hp, adj, vtx)
                n -= 1
        i += 1
    c[C_SIZE] = n
    c[C_EDGES] = s_e
    glob[0] = g
    rng[0] = st
    return i



# -- ThinkD-ACC (random pairing) ---------------------------------------------------------------

@njit(cache=True, nogil=True)
def _thinkd_acc_run(sg, u, v, i, M, tk, ts, eu, ev, hp, adj, vtx, glob, loc, c, rng, flag):
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
        a = u[i]
        b = v[i]
        sign = sg[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        key = _edge_key(a, b)
        idx = _find(tk, key)
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
            f = _count_common(a, b, wgt, tk, adj, vtx, loc)
            g += f * wgt
            c[C_FOUND] += f
        if sign > 0:
            s_e += 1
            c[C_TIME] += 1
            if cb + cg == 0:
                if n < M:
                    _add_edge(n, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
                    n += 1
                else:
                    st, x = _rand(st)
                    if x * s_e < M:
                        st, y = _rand(st)
                        j = min(np.int64(y * n), n - 1)
                        _evict(j, tk, ts, eu, ev, hp, adj, vtx)
                        _add_edge(j, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
            else:
                st, x = _rand(st)
                if x * (cb + cg) < cb:
                    _add_edge(n, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
                    n += 1
                    cb -= 1
                else:
                    cg -= 1
        else:
            s_e -= 1
            if idx != -1:
                _remove_dense(ts[idx], n, tk, ts, eu, ev, hp, adj, vtx)
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
def _wrs_run(sg, u, v, i, W, R, tk, ts, eu, ev, hp, adj, vtx, glob, loc, c, rng, inw, ring, res, flag):
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
        a = u[i]
        b = v[i]
        i += 1
        if a == b:
            c[C_LOOPS] += 1
            continue
        key = _edge_key(a, b)
        if _find(tk, key) != -1:
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
            if vtx[x0, 2] > vtx[y0, 2]:
                x0, y0 = y0, x0
            found = 0
            add = 0.0
            b0 = vtx[x0, 0]
            for jj in range(b0, b0 + vtx[x0, 2]):
                w = adj[jj, 0]
                if w != y0:
                    j = _find(tk, _edge_key(y0, w))
                    if j != -1:
                        k = inw[adj[jj, 1] >> 1] + inw[ts[j]]
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
                _add_edge(s, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
                inw[s] = 0
                res[nr] = s
                nr += 1
            else:
                st, x = _rand(st)
                if x * mp < R:
                    st, y = _rand(st)
                    s = res[min(np.int64(y * R), R - 1)]
                    _evict(s, tk, ts, eu, ev, hp, adj, vtx)
                    _add_edge(s, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
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
                    j = min(np.int64(y * R), R - 1)
                    s = res[j]
                    _evict(s, tk, ts, eu, ev, hp, adj, vtx)
                    res[j] = o
                    inw[o] = 0
                else:  # it is dropped; the new edge takes its slot
                    s = o
                    _evict(s, tk, ts, eu, ev, hp, adj, vtx)
        _add_edge(s, a, b, key, tk, ts, eu, ev, hp, adj, vtx, c)
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

