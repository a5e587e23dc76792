"""Maximal cliques (Bron-Kerbosch with Tomita pivoting on the degeneracy order; Eppstein, Löffler &
Strash 2010) and the listing of all k-cliques.

Contract: ``indptr``/``indices`` is graphmine's CSR (rows sorted, no self-loops), ``rank`` a
degeneracy order. Every maximal clique is found once, from its lowest-ranked vertex v: the search
below v starts with candidates P = the later neighbours of v (at most the degeneracy D of them) and
excluded vertices X = its earlier neighbours, kept only where they touch P (an earlier neighbour
with no neighbour in P can never extend a clique that contains a member of P). Sets are bit sets
over P and over X: the adjacency inside P (D x D bits), from P to X and back (D x |X| bits), and
per tree level one P, one excluded-from-P, one excluded-from-X and one remainder set; memory is
O(D * (D + deg v) / 64) words per thread, bounded by the candidate sets, not by the number of
cliques. The search of a root keeps its whole state in those per-level sets (an explicit stack),
so the listing kernel can pause a search when its thread's output buffer is full and resume it
in the next call: parallel over roots, each thread with a bounded buffer. Kernels never validate
and never raise.

k-clique listing walks out-neighbourhoods of an acyclic orientation with sorted candidate lists.
"""

import numpy as np
from numba import njit, prange

from ._clique_kernels import CHUNKS_PER_THREAD, _clique_step, _root_chunks
from .._primitives.setops import WALK_ALL, fetch_add, intersect_positions, lowest_member, member_degrees

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def _bk_scratch(maxp, maxdeg):
    Wp = max(1, (maxp + 63) >> 6)
    Wx = max(1, (maxdeg + 63) >> 6)
    PP = np.zeros((max(1, maxp), Wp), np.uint64)
    PX = np.zeros((max(1, maxp), Wx), np.uint64)
    XP = np.zeros((max(1, maxdeg), Wp), np.uint64)
    Pb = np.empty((maxp + 1, Wp), np.uint64)
    XPb = np.empty((maxp + 1, Wp), np.uint64)
    XXb = np.empty((maxp + 1, Wx), np.uint64)
    Rm = np.empty((maxp + 1, Wp), np.uint64)
    chosen = np.empty(maxp + 1, np.int64)
    slot = np.empty(max(1, maxdeg), np.int64)
    plist = np.empty(max(1, maxdeg), np.int64)
    xlist = np.empty(max(1, maxdeg), np.int64)
    pos = np.empty(max(1, maxdeg), np.int64)
    return PP, PX, XP, Pb, XPb, XXb, Rm, chosen, slot, plist, xlist, pos


@njit(cache=True, inline="always")
def _narrow(S, L, rows, c, W):
    """S[L + 1, :W] = S[L, :W] & rows[c, :W]; whether that set is empty."""
    empty = True
    for w in range(W):
        z = S[L, w] & rows[c, w]
        S[L + 1, w] = z
        if z != U0:
            empty = False
    return empty


@njit(cache=True, nogil=True)
def _bk_pivot(L, Pb, XPb, XXb, PP, XP, Wp, Wx):
    """(pivot, is an X vertex): the vertex of P, X_P or X_X with the most neighbours in P."""
    _, _, best, bp, _, _ = member_degrees(Pb, L, Wp, PP, Pb, L, Wp, -1, -1, 0, -1, WALK_ALL)
    _, _, best, bp, _, _ = member_degrees(XPb, L, Wp, PP, Pb, L, Wp, best, bp, 0, -1, WALK_ALL)
    _, _, best, bx_p, _, _ = member_degrees(XXb, L, Wx, XP, Pb, L, Wp, best, -1, 0, -1, WALK_ALL)
    if bx_p >= 0:
        return bx_p, True
    return bp, False


@njit(cache=True, nogil=True)
def _bk_start(v, indptr, indices, rank, PP, PX, XP, Pb, XPb, XXb, Rm, slot, plist, xlist, pos):
    """Set up the search below root v (its bit sets at level 0, the remainder of the first pivot):
    returns (p, x, Wp, Wx), p = |P| and x = |X| at the root."""
    a = indptr[v]
    b = indptr[v + 1]
    rv = rank[v]
    p = 0
    x = 0
    for j in range(a, b):
        w = indices[j]
        if rank[w] > rv:
            slot[j - a] = p
            plist[p] = w
            p += 1
        else:
            slot[j - a] = -1 - x
            xlist[x] = w
            x += 1
    Wp = max(1, (p + 63) >> 6)
    Wx = max(1, (x + 63) >> 6)
    if p == 0:
        return p, x, Wp, Wx
    for i in range(p):
        for w in range(Wp):
            PP[i, w] = U0
        for w in range(Wx):
            PX[i, w] = U0
    for j in range(x):
        for w in range(Wp):
            XP[j, w] = U0
    for i in range(p):
        w0 = plist[i]
        m = intersect_positions(indices, a, b, indices, indptr[w0], indptr[w0 + 1], pos)
        for t in range(m):
            s = slot[pos[t]]
            if s >= 0:
                PP[i, s >> 6] |= U1 << np.uint64(s & 63)
            else:
                s = -1 - s
                PX[i, s >> 6] |= U1 << np.uint64(s & 63)
                XP[s, i >> 6] |= U1 << np.uint64(i & 63)
    for w in range(Wp):
        Pb[0, w] = ~U0
        XPb[0, w] = U0
    if p & 63:
        Pb[0, Wp - 1] = (U1 << np.uint64(p & 63)) - U1
    for w in range(Wx):
        z = U0
        for i in range(p):
            z |= PX[i, w]
        XXb[0, w] = z
    u, ux = _bk_pivot(0, Pb, XPb, XXb, PP, XP, Wp, Wx)
    for w in range(Wp):
        Rm[0, w] = Pb[0, w] & ~(XP[u, w] if ux else PP[u, w])
    return p, x, Wp, Wx


@njit(cache=True, nogil=True)
def _bk_search(v, L, p, Wp, Wx, PP, PX, XP, Pb, XPb, XXb, Rm, chosen, plist, maxsize, hist, out, nout, sizes,
               shared, ncl, stop):
    """Continue the search below root v (set up by :func:`_bk_start`) from level L. Without an
    output (``out`` empty) it counts the maximal cliques to the end (and, if ``maxsize`` is not
    empty, records the largest clique size at every member and a size histogram); with one it
    writes them (vertices to ``out[nout:]``, sizes to ``sizes[ncl:]``, and to ``shared[ncl:]`` the
    number of leading members each shares with the clique written before it in this call, 0 for
    the first: the levels above the lowest one chosen anew since then) and pauses, before
    choosing the next branch, once ``out`` has room for fewer than p + 1 more vertices (then it
    raises the shared flag ``stop[0]``) or another thread has raised that flag (looked at every
    256 steps): the levels 0..L of Pb/XPb/XXb/Rm/chosen are the whole state, so the call returns
    the level to resume from. Returns (level, -1 when the root is finished; count; nout; ncl)."""
    count = 0
    cap = out.shape[0]
    write = cap != 0
    steps = 0
    low = -1  # the lowest level chosen anew since the last clique written (-1: none written yet)
    while L >= 0:
        if write:
            if cap - nout < p + 1:
                fetch_add(stop, 0, 1)
                return L, count, nout, ncl
            steps += 1
            if (steps & 255) == 0 and fetch_add(stop, 0, 0) != 0:
                return L, count, nout, ncl
        c0 = lowest_member(Rm, L, Wp)
        if c0 < 0:
            L -= 1
            continue
        Rm[L, c0 >> 6] &= ~(U1 << np.uint64(c0 & 63))
        chosen[L] = c0
        if L < low:
            low = L
        nl = L + 1
        # the next level's candidates and excluded vertices: the neighbours of c0 among them
        pe = _narrow(Pb, L, PP, c0, Wp)
        xe = _narrow(XPb, L, PP, c0, Wp)
        xe = _narrow(XXb, L, PX, c0, Wx) and xe
        bit = U1 << np.uint64(c0 & 63)
        Pb[L, c0 >> 6] &= ~bit
        XPb[L, c0 >> 6] |= bit
        if pe:
            if xe:
                size = nl + 1
                count += 1
                if maxsize.shape[0] != 0:
                    hist[size] += 1
                    maxsize[v] = max(maxsize[v], size)
                    for l in range(nl):
                        y = plist[chosen[l]]
                        maxsize[y] = max(maxsize[y], size)
                if write:
                    out[nout] = v
                    for l in range(nl):
                        out[nout + 1 + l] = plist[chosen[l]]
                    nout += size
                    sizes[ncl] = size
                    # v and the members chosen above level `low` are the clique before's
                    shared[ncl] = low + 1 if low >= 0 else 0
                    low = nl
                    ncl += 1
            continue
        u, ux = _bk_pivot(nl, Pb, XPb, XXb, PP, XP, Wp, Wx)
        for w in range(Wp):
            Rm[nl, w] = Pb[nl, w] & ~(XP[u, w] if ux else PP[u, w])
        L = nl
    return L, count, nout, ncl


@njit(cache=True, nogil=True)
def _bk_root(v, indptr, indices, rank, scratch, maxsize, hist):
    """The number of maximal cliques whose lowest-ranked vertex is v (and, if ``maxsize`` is not
    empty, the largest clique size at every member and a histogram of sizes)."""
    PP, PX, XP, Pb, XPb, XXb, Rm, chosen, slot, plist, xlist, pos = scratch
    p, x, Wp, Wx = _bk_start(v, indptr, indices, rank, PP, PX, XP, Pb, XPb, XXb, Rm, slot, plist, xlist, pos)
    if p == 0:
        if x == 0:  # an isolated vertex is a maximal clique
            if maxsize.shape[0] != 0:
                maxsize[v] = max(maxsize[v], 1)
                hist[1] += 1
            return 1
        return 0
    empty = np.empty(0, np.int64)
    return _bk_search(v, 0, p, Wp, Wx, PP, PX, XP, Pb, XPb, XXb, Rm, chosen, plist, maxsize, hist, empty, 0,
                      empty, empty, 0, empty)[1]


@njit(cache=True, parallel=True, nogil=True)
def _maximal_count(indptr, indices, rank, maxp, maxdeg, want_sizes, nthreads):
    """(number of maximal cliques, largest maximal clique at every vertex, histogram of sizes);
    the last two only with want_sizes (else empty)."""
    n = indptr.shape[0] - 1
    nchunks = max(1, min(n, nthreads * CHUNKS_PER_THREAD))
    cuts = _root_chunks(indptr, 0, n, nchunks)
    counter = np.zeros(1, np.int64)
    parts = np.zeros(nthreads, np.int64)
    sizes = np.zeros((nthreads, n if want_sizes else 0), np.int64)
    hists = np.zeros((nthreads, maxp + 2), np.int64)
    for t in prange(nthreads):
        scratch = _bk_scratch(maxp, maxdeg)
        c = 0
        while True:
            i = fetch_add(counter, 0, 1)
            if i >= nchunks:
                break
            j = nchunks - 1 - i
            for v in range(cuts[j], cuts[j + 1]):
                c += _bk_root(v, indptr, indices, rank, scratch, sizes[t], hists[t])
        parts[t] = c
    best = np.zeros(n if want_sizes else 0, np.int64)
    for t in range(nthreads):
        for v in range(best.shape[0]):
            best[v] = max(best[v], sizes[t, v])
    hist = hists[0].copy()
    for t in range(1, nthreads):
        hist += hists[t]
    return parts.sum(), best, hist


@njit(cache=True, nogil=True)
def _bk_states(nthreads, maxp, maxdeg):
    """The resumable searches of :func:`_maximal_batch`, one per thread: the scratch of
    :func:`_bk_scratch` with a leading thread axis, and per thread (root, level, p, Wp, Wx),
    root -1 when the thread holds no search."""
    Wp = max(1, (maxp + 63) >> 6)
    Wx = max(1, (maxdeg + 63) >> 6)
    P1 = max(1, maxp)
    D1 = max(1, maxdeg)
    PP = np.zeros((nthreads, P1, Wp), np.uint64)
    PX = np.zeros((nthreads, P1, Wx), np.uint64)
    XP = np.zeros((nthreads, D1, Wp), np.uint64)
    Pb = np.empty((nthreads, maxp + 1, Wp), np.uint64)
    XPb = np.empty((nthreads, maxp + 1, Wp), np.uint64)
    XXb = np.empty((nthreads, maxp + 1, Wx), np.uint64)
    Rm = np.empty((nthreads, maxp + 1, Wp), np.uint64)
    chosen = np.empty((nthreads, maxp + 1), np.int64)
    slot = np.empty((nthreads, D1), np.int64)
    plist = np.empty((nthreads, D1), np.int64)
    xlist = np.empty((nthreads, D1), np.int64)
    pos = np.empty((nthreads, D1), np.int64)
    ctl = np.full((nthreads, 5), -1, np.int64)
    return PP, PX, XP, Pb, XPb, XXb, Rm, chosen, slot, plist, xlist, pos, ctl


@njit(cache=True, parallel=True, nogil=True)
def _maximal_batch(indptr, indices, rank, roots, counter, states, cap, nthreads):
    """The next batch of maximal cliques, every thread writing at most ``cap`` vertices (cap >=
    the degeneracy + 1) into its own buffer: a thread resumes the search it paused in the last
    call, then takes the next roots (``roots[counter[0]]``, a shared counter, so heavy roots can
    come first) until its buffer is full; then every thread pauses its search (``states``) for
    the next call, so that no thread waits for a slower one to fill its buffer. Returns
    (vertices, sizes of the cliques, leading members each clique shares with the one before it
    (0 where that one is another search's), number of threads that paused a search, whether every
    root is finished); memory is nthreads * 3 * cap words besides the states."""
    PP, PX, XP, Pb, XPb, XXb, Rm, chosen, slot, plist, xlist, pos, ctl = states
    n = roots.shape[0]
    outs = np.empty((nthreads, cap), np.int64)
    sz = np.empty((nthreads, cap), np.int64)
    sh = np.empty((nthreads, cap), np.int64)
    nouts = np.zeros(nthreads, np.int64)
    ncls = np.zeros(nthreads, np.int64)
    paused = np.zeros(nthreads, np.int64)
    empty = np.empty(0, np.int64)
    stop = np.zeros(1, np.int64)
    need = Pb.shape[1]  # the degeneracy + 1: the largest clique
    for t in prange(nthreads):
        out = outs[t]
        sizes = sz[t]
        shared = sh[t]
        nout = 0
        ncl = 0
        while True:
            if ctl[t, 0] < 0:
                if fetch_add(stop, 0, 0) != 0:
                    break
                if cap - nout < need:  # a new root's cliques may not fit
                    fetch_add(stop, 0, 1)
                    break
                i = fetch_add(counter, 0, 1)
                if i >= n:
                    break
                v = roots[i]
                p, x, Wp, Wx = _bk_start(v, indptr, indices, rank, PP[t], PX[t], XP[t], Pb[t], XPb[t], XXb[t], Rm[t],
                                         slot[t], plist[t], xlist[t], pos[t])
                if p == 0:
                    if x == 0:  # an isolated vertex is a maximal clique
                        out[nout] = v
                        nout += 1
                        sizes[ncl] = 1
                        shared[ncl] = 0
                        ncl += 1
                    continue
                ctl[t, 0] = v
                ctl[t, 1] = 0
                ctl[t, 2] = p
                ctl[t, 3] = Wp
                ctl[t, 4] = Wx
            v = ctl[t, 0]
            L, _, nout, ncl = _bk_search(v, ctl[t, 1], ctl[t, 2], ctl[t, 3], ctl[t, 4], PP[t], PX[t], XP[t], Pb[t],
                                         XPb[t], XXb[t], Rm[t], chosen[t], plist[t], empty, empty, out, nout, sizes,
                                         shared, ncl, stop)
            if L >= 0:
                ctl[t, 1] = L
                paused[t] = 1
                break
            ctl[t, 0] = -1
        nouts[t] = nout
        ncls[t] = ncl
    total = nouts.sum()
    verts = np.empty(total, np.int64)
    cl = np.empty(ncls.sum(), np.int64)
    shr = np.empty(ncls.sum(), np.int64)
    a = 0
    c = 0
    for t in range(nthreads):
        verts[a:a + nouts[t]] = outs[t, :nouts[t]]
        cl[c:c + ncls[t]] = sz[t, :ncls[t]]
        shr[c:c + ncls[t]] = sh[t, :ncls[t]]
        a += nouts[t]
        c += ncls[t]
    done = counter[0] >= n
    for t in range(nthreads):
        if ctl[t, 0] >= 0:
            done = False
    return verts, cl, shr, paused.sum(), done


@njit(cache=True, nogil=True)
def _shared_prefixes(verts, sizes, shared, tail_max):
    """Cut a batch of cliques (members one clique after another in ``verts``, ``sizes`` each) into
    runs that share a prefix: consecutive cliques of one search share the members chosen above
    their branch (facebook_combined: 52 of 55 on average), ``shared[i]`` of them between clique i
    and the one before (the search knows it: :func:`_bk_search`). A clique starts a new run where
    it shares fewer than its size - ``tail_max`` members with the clique before; a run's prefix is
    what all its cliques share with its first. Returns (cliques per run, prefix length per run,
    the prefixes' members one run after another, the members after the prefix of every clique
    one after another, and their number per clique)."""
    m = sizes.shape[0]
    runs = np.empty(m, np.int64)
    plen = np.empty(m, np.int64)
    first = np.empty(m, np.int64)  # offset of each run's first clique in verts
    nr = 0
    s = 0  # offset of clique i
    for i in range(m):
        z = sizes[i]
        j = min(shared[i], z)
        if i == 0 or j < z - tail_max:
            runs[nr] = 1
            plen[nr] = z
            first[nr] = s
            nr += 1
        else:
            runs[nr - 1] += 1
            if j < plen[nr - 1]:
                plen[nr - 1] = j
        s += z
    npre = 0
    nshared = 0
    for r in range(nr):
        npre += plen[r]
        nshared += runs[r] * plen[r]
    pre = np.empty(npre, verts.dtype)
    tails = np.empty(s - nshared, verts.dtype)
    tlen = np.empty(m, np.int64)
    q = 0
    i = 0
    s = 0
    nt = 0
    for r in range(nr):
        L = plen[r]
        for x in range(L):
            pre[np.uint64(q + x)] = verts[np.uint64(first[r] + x)]
        q += L
        for _ in range(runs[r]):
            z = sizes[i]
            for x in range(s + L, s + z):
                tails[np.uint64(nt)] = verts[np.uint64(x)]
                nt += 1
            tlen[i] = z - L
            s += z
            i += 1
    return runs[:nr], plen[:nr], pre, tails, tlen


@njit(cache=True, inline="always")
def _put_cliques(out, nout, path, depth, cand, row, m):
    """Write the m cliques path[:depth] + cand[row, i] from row nout of ``out`` (grown by doubling
    when full); returns (out, the new nout)."""
    if nout + m > out.shape[0]:
        grown = np.empty((max(2 * out.shape[0], nout + m), out.shape[1]), np.int64)
        grown[:nout] = out[:nout]
        out = grown
    for i in range(m):
        for l in range(depth):
            out[nout, l] = path[l]
        out[nout, depth] = cand[row, i]
        nout += 1
    return out, nout


@njit(cache=True, nogil=True)
def _list_cliques(optr, oind, k, lo, cap):
    """The k-cliques (k >= 2) found from roots lo, lo + 1, ... of an acyclic orientation until at
    least ``cap`` cliques are written (whole roots): ((count, k) vertices, next root). The last
    vertex of each clique is listed from the candidates of the level above it."""
    n = optr.shape[0] - 1
    maxd = 0
    for u in range(n):
        maxd = max(maxd, optr[u + 1] - optr[u])
    cand = np.empty((k, maxd + 1), oind.dtype)
    size = np.zeros(k, np.int64)
    at = np.zeros(k, np.int64)
    path = np.empty(k, np.int64)
    out = np.empty((max(cap, 1) + 16, k), np.int64)
    nout = 0
    u = lo
    while u < n and nout < cap:
        d = optr[u + 1] - optr[u]
        if d >= k - 1:
            path[0] = u
            for j in range(d):
                cand[1, j] = oind[optr[u] + j]
            if k == 2:
                out, nout = _put_cliques(out, nout, path, 1, cand, 1, d)
            size[1] = d
            at[1] = 0
            level = 1 if k > 2 else 0
            while True:
                level, w, m = _clique_step(cand, size, at, level, 1, optr, oind)
                if level < 1:
                    break
                path[level] = w
                if level == k - 2:
                    out, nout = _put_cliques(out, nout, path, k - 1, cand, level + 1, m)
                elif m >= k - 1 - level:
                    size[level + 1] = m
                    at[level + 1] = 0
                    level += 1
        u += 1
    return out[:nout], u


@njit(cache=True, nogil=True)
def _percolate(verts, offs, n, k):
    """k-clique percolation over cliques (verts/offs, every clique of >= k vertices): the root of
    every clique's class, cliques joined when they share k - 1 or more vertices (union-find with
    path halving; the cliques at each vertex from a counting sort; shared vertices counted per
    pair with a stamped counter)."""
    nc = offs.shape[0] - 1
    at = np.zeros(n + 1, np.int64)
    for i in range(verts.shape[0]):
        at[verts[i] + 1] += 1
    for v in range(n):
        at[v + 1] += at[v]
    fill = at[:n].copy()
    memb = np.empty(verts.shape[0], np.int64)
    for c in range(nc):
        for i in range(offs[c], offs[c + 1]):
            v = verts[i]
            memb[fill[v]] = c
            fill[v] += 1
    parent = np.arange(nc)
    cnt = np.zeros(nc, np.int64)
    stamp = np.full(nc, -1, np.int64)
    for c in range(nc):
        for i in range(offs[c], offs[c + 1]):
            v = verts[i]
            for j in range(at[v], at[v + 1]):
                d = memb[j]
                if d <= c:
                    continue
                if stamp[d] != c:
                    stamp[d] = c
                    cnt[d] = 0
                cnt[d] += 1
                if cnt[d] == k - 1:
                    a = c
                    while parent[a] != a:
                        parent[a] = parent[parent[a]]
                        a = parent[a]
                    b = d
                    while parent[b] != b:
                        parent[b] = parent[parent[b]]
                        b = parent[b]
                    if a != b:
                        parent[max(a, b)] = min(a, b)
    for c in range(nc):
        a = c
        while parent[a] != a:
            a = parent[a]
        parent[c] = a
    return parent
