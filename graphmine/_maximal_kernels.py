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
cliques. Kernels never validate and never raise.

k-clique listing walks out-neighbourhoods of an acyclic orientation with sorted candidate lists.
"""

import numpy as np
from numba import njit, prange

from ._clique_kernels import CHUNKS_PER_THREAD, _root_chunks
from ._setops import fetch_add, intersect_into, intersect_positions, lowest_bit, lowest_member, popcount

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
def _push_offset(offs, noff, nout):
    """Append ``nout`` after offs[noff] (doubling ``offs`` when full): (offs, noff + 1)."""
    if noff + 1 >= offs.shape[0]:
        grown = np.empty(2 * offs.shape[0], offs.dtype)
        grown[:noff + 1] = offs[:noff + 1]
        offs = grown
    noff += 1
    offs[noff] = nout
    return offs, noff


@njit(cache=True, inline="always")
def _most_in_p(S, L, W, rows, Pb, Wp, best, bp):
    """(best, bp) updated with the member u of the set S[L, :W] whose row rows[u] has the most
    members in P = Pb[L, :Wp], if it beats ``best`` (bp is -1 while none has)."""
    for w in range(W):
        x = S[L, w]
        while x != U0:
            u = w * 64 + lowest_bit(x)
            x &= x - U1
            c = 0
            for z in range(Wp):
                c += popcount(Pb[L, z] & rows[u, z])
            if c > best:
                best = c
                bp = u
    return best, bp


@njit(cache=True, nogil=True)
def _bk_pivot(L, Pb, XPb, XXb, PP, XP, Wp, Wx):
    """(pivot, is an X vertex): the vertex of P, X_P or X_X with the most neighbours in P."""
    best, bp = _most_in_p(Pb, L, Wp, PP, Pb, Wp, -1, -1)
    best, bp = _most_in_p(XPb, L, Wp, PP, Pb, Wp, best, bp)
    best, bx_p = _most_in_p(XXb, L, Wx, XP, Pb, Wp, best, -1)
    if bx_p >= 0:
        return bx_p, True
    return bp, False


@njit(cache=True, nogil=True)
def _bk_root(v, indptr, indices, rank, scratch, mode, maxsize, hist, out, nout, offs, noff):
    """The maximal cliques whose lowest-ranked vertex is v. mode 0: count them (and, if maxsize
    is not empty, record the largest clique size at every member and a size histogram); mode 1:
    also write them to out/offs (grown as needed). Returns (count, out, nout, offs, noff)."""
    PP, PX, XP, Pb, XPb, XXb, Rm, chosen, slot, plist, xlist, pos = scratch
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
    count = 0
    if p == 0:
        if x == 0:  # an isolated vertex is a maximal clique
            count = 1
            if maxsize.shape[0] != 0:
                maxsize[v] = max(maxsize[v], 1)
                hist[1] += 1
            if mode == 1:
                if nout + 1 > out.shape[0]:
                    grown = np.empty(2 * out.shape[0] + 1, out.dtype)
                    grown[:nout] = out[:nout]
                    out = grown
                out[nout] = v
                nout += 1
                offs, noff = _push_offset(offs, noff, nout)
        return count, out, nout, offs, noff
    Wp = (p + 63) >> 6
    Wx = max(1, (x + 63) >> 6)
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
    L = 0
    u, ux = _bk_pivot(0, Pb, XPb, XXb, PP, XP, Wp, Wx)
    for w in range(Wp):
        Rm[0, w] = Pb[0, w] & ~(XP[u, w] if ux else PP[u, w])
    while L >= 0:
        c0 = lowest_member(Rm, L, Wp)
        if c0 < 0:
            L -= 1
            continue
        Rm[L, c0 >> 6] &= ~(U1 << np.uint64(c0 & 63))
        chosen[L] = c0
        nl = L + 1
        pe = True
        xe = True
        for w in range(Wp):
            z = Pb[L, w] & PP[c0, w]
            Pb[nl, w] = z
            if z != U0:
                pe = False
            z = XPb[L, w] & PP[c0, w]
            XPb[nl, w] = z
            if z != U0:
                xe = False
        for w in range(Wx):
            z = XXb[L, w] & PX[c0, w]
            XXb[nl, w] = z
            if z != U0:
                xe = False
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
                if mode == 1:
                    if nout + size > out.shape[0]:
                        grown = np.empty(2 * out.shape[0] + size, out.dtype)
                        grown[:nout] = out[:nout]
                        out = grown
                    out[nout] = v
                    for l in range(nl):
                        out[nout + 1 + l] = plist[chosen[l]]
                    nout += size
                    offs, noff = _push_offset(offs, noff, nout)
            continue
        u, ux = _bk_pivot(nl, Pb, XPb, XXb, PP, XP, Wp, Wx)
        for w in range(Wp):
            Rm[nl, w] = Pb[nl, w] & ~(XP[u, w] if ux else PP[u, w])
        L = nl
    return count, out, nout, offs, noff


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
        out = np.empty(0, np.int64)
        offs = np.zeros(1, np.int64)
        c = 0
        while True:
            i = fetch_add(counter, 0, 1)
            if i >= nchunks:
                break
            j = nchunks - 1 - i
            for v in range(cuts[j], cuts[j + 1]):
                r = _bk_root(v, indptr, indices, rank, scratch, 0, sizes[t], hists[t], out, 0, offs, 0)
                c += r[0]
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
def _maximal_list(indptr, indices, rank, maxp, maxdeg, lo, cap):
    """The maximal cliques of roots lo, lo + 1, ... until at least ``cap`` vertices are written
    (whole roots only): (vertices, offsets of the cliques, next root)."""
    n = indptr.shape[0] - 1
    scratch = _bk_scratch(maxp, maxdeg)
    out = np.empty(cap + maxp + 1, np.int64)
    offs = np.zeros(cap // 2 + 2, np.int64)
    nout = 0
    noff = 0
    empty = np.empty(0, np.int64)
    v = lo
    while v < n and nout < cap:
        r = _bk_root(v, indptr, indices, rank, scratch, 1, empty, empty, out, nout, offs, noff)
        out = r[1]
        nout = r[2]
        offs = r[3]
        noff = r[4]
        v += 1
    return out[:nout], offs[:noff + 1], v


@njit(cache=True, nogil=True)
def _list_cliques(optr, oind, k, lo, cap):
    """The k-cliques (k >= 2) found from roots lo, lo + 1, ... of an acyclic orientation until at
    least ``cap`` cliques are written (whole roots): ((count, k) vertices, next root)."""
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
            size[1] = d
            at[1] = 0
            level = 1
            while level >= 1:
                if at[level] >= size[level]:
                    level -= 1
                    continue
                w = cand[level, at[level]]
                at[level] += 1
                path[level] = w
                if level == k - 1:
                    if nout >= out.shape[0]:
                        grown = np.empty((2 * out.shape[0], k), np.int64)
                        grown[:nout] = out[:nout]
                        out = grown
                    for l in range(k):
                        out[nout, l] = path[l]
                    nout += 1
                    continue
                m = intersect_into(cand[level], at[level], size[level], oind, optr[w], optr[w + 1], cand[level + 1])
                if m >= k - 1 - level:
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
