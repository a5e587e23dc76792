"""Kernels of the 5-vertex node-orbit census (graphmine.graphlets._census5).

Contract: the degree-rank CSR of :func:`graphmine.graphlets._cpu._rank_space` (``rp``/``ri``
full rows, sorted; ``reid`` the edge id of every slot), ``tri[e]`` the triangles on edge e
(:func:`_edge_triangles`). Nothing is validated.

For every vertex x the kernel lists the connected induced 4-vertex sets {x, a, b, c} with x in
each 4-vertex orbit (each set once per role assignment below), and for each adds to counters
``f[o]`` the number of fifth vertices w attached to a given subset of the set, read from degrees,
triangle counts of edges and common-neighbour counts. Such a counter counts every induced
5-vertex graphlet H around x once per way the listing meets it, so it is a fixed combination of
x's orbit counts in H with denser graphlets (more edges) only besides the orbit it is named
after; the system is solved from the densest orbit down (``eq_*`` arrays, see _census5.py).
The K5 counter is the common neighbours of the listed 4-cliques.

Hubs: sets whose counters need no common neighbours of three vertices are counted, not listed
(the 3-star and the paw centred at x from per-neighbour sums over N(x) & N(a): ``sx``, ``dsx``
and the 4-cliques on x and a, ``k4``; the pairs of a's neighbours outside N[x] from each one's
degree among them), so no vertex costs the cube of its degree; the listed 4-cliques, diamonds and
4-cycles scan the row of their lowest-rank vertex, and the lists ``la`` (N(x) & N(a)) and ``lc``
(N(a) & N(b) outside N[x]) stand in for second passes over long rows.

Common-neighbour counts come from marks instead of tables: per x, bit 1 of ``mk`` marks N(x), per
a bit 2 marks N(a), per b a stamp marks N(b) (``sb[v]`` equal to the current value of a per-thread
counter, so that no pass clears it), with the triangle counts of those edges in ``tx``, ``ta``,
``tb``; ``cx[v]`` and ``ca[v]`` count the 2-paths from x and from a to v (``ca`` stamped too). A
count over three vertices one of which is unmarked is one scan of that vertex's row.
"""

import numpy as np
from numba import njit, prange

from .._primitives.setops import fetch_add

ORBITS5 = 73


@njit(cache=True, nogil=True, parallel=True)
def _edge_triangles(rp, ri, reid, m, mk, nthreads):
    """tri[e]: the common neighbours of the ends of edge e (``mk[t]`` thread t's zeroed marks)."""
    n = rp.shape[0] - 1
    tri = np.zeros(m, np.int64)
    for tt in prange(nthreads):
        t = np.int64(tt)
        mark = mk[t]
        for u in range(t, n, nthreads):
            for p in range(rp[u], rp[u + 1]):
                mark[ri[p]] = 1
            for p in range(rp[u], rp[u + 1]):
                v = ri[p]
                if v > u:
                    c = 0
                    for q in range(rp[v], rp[v + 1]):
                        c += mark[ri[q]]
                    tri[reid[p]] = c
            for p in range(rp[u], rp[u + 1]):
                mark[ri[p]] = 0
    return tri


@njit(cache=True, nogil=True)
def _vertex5(x, rp, ri, reid, tri, mk, tx, ta, tb, cx, ca, k4, sb, sc, sx, dsx, la, lc, ctr, f):
    """The counters f[15..72] of vertex x (f[72]: 4 x its K5s); ``mk`` and ``cx`` left clean. N(b)
    and the 2-paths from a are stamped instead of marked (``sb[v]``, ``sc[v]`` equal to the current
    value of the counter ``ctr[0]``), so that they need no clearing pass."""
    stb = np.int64(-1)
    for o in range(ORBITS5):
        f[o] = 0
    x0, x1 = rp[x], rp[x + 1]
    dx = x1 - x0
    tx2 = np.int64(0)  # 2 x the triangles at x
    wx = np.int64(0)  # the degrees of x's neighbours
    for p in range(x0, x1):
        v = ri[p]
        mk[v] |= 1
        tx[v] = tri[reid[p]]
        tx2 += tx[v]
        wx += rp[v + 1] - rp[v]
    # per neighbour a: the 2-paths from x, and over N(x) & N(a) the sums of t(x, .) and of degrees
    for p in range(x0, x1):
        a = ri[p]
        s = np.int64(0)
        sd = np.int64(0)
        for q in range(rp[a], rp[a + 1]):
            v = ri[q]
            cx[v] += 1
            if mk[v] & 1:
                s += tx[v]
                sd += rp[v + 1] - rp[v]
        sx[a] = s
        dsx[a] = sd
    for p in range(x0, x1):
        a = ri[p]
        a0, a1 = rp[a], rp[a + 1]
        da = a1 - a0
        txa = tx[a]
        nla = 0  # la[:nla]: N(x) & N(a), in rank order
        for q in range(a0, a1):
            v = ri[q]
            mk[v] |= 2
            ta[v] = tri[reid[q]]
            if mk[v] & 1:
                la[nla] = v
                nla += 1
        ctr[0] += 1
        sa = ctr[0]
        for q in range(a0, a1):
            b = ri[q]
            for r in range(rp[b], rp[b + 1]):
                v = ri[r]
                if sc[v] != sa:
                    sc[v] = sa
                    ca[v] = 1
                else:
                    ca[v] += 1
        # b a neighbour of x: x in a 4-clique, diamond, 4-cycle, paw, 3-path (middle) or 3-star (centre)
        for j in range(x0, x1):
            b = ri[j]
            if b == a:
                continue
            adjab = (mk[b] & 2) != 0
            b0, b1 = rp[b], rp[b + 1]
            db = b1 - b0
            txb = tx[b]
            # a, b not adjacent and b after a: nothing to list (the pair is taken in the other order,
            # its lower-rank row b scanned)
            if not adjab and j > p:
                continue
            # c a neighbour of b only: paw with x of degree 2, 3-path a - x - b - c; the same pass
            # stamps N(b)
            ctr[0] += 1
            stb = ctr[0]
            nlc = 0  # lc[:nlc]: N(a) & N(b) outside N[x]
            for r in range(b0, b1):
                c = ri[r]
                mc = mk[c]
                sb[c] = stb
                tb[c] = tri[reid[r]]
                if mc == 2 and c != x:
                    lc[nlc] = c
                    nlc += 1
                if c == x or mc & 3:  # x, a and their neighbours (a is one of x's)
                    continue
                if adjab:
                    f[52] += ca[c] - 1
                    f[43] += tri[reid[r]]
                    f[32] += db - 3
                    f[29] += rp[c + 1] - rp[c] - 1
                    f[25] += da - 2
                else:
                    f[17] += da - 1
            # c in N(x) & N(a): 4-clique ({a, b, c} once, c the lowest rank, a before b), diamond with x
            # of degree 3 (c before b: the smaller row scanned); the paw with x the centre (c in N(x)
            # outside N(a) and N(b)) and the 3-star with x the centre (after the loop) by counting
            if adjab:
                nxab = 0
                s3t = np.int64(0)
                s3d = np.int64(0)
                ncl = 0
                for i in range(nla):
                    c = la[i]
                    if c == b:
                        continue
                    dc = rp[c + 1] - rp[c]
                    txc = tx[c]
                    if sb[c] == stb:
                        nxab += 1
                        s3t += txc
                        s3d += dc
                        if j > p and c < a:
                            ncl += 1
                            k4[a] += 1
                            k4[b] += 1
                            k4[c] += 1
                            nabc = 0
                            nxac = 0
                            nxbc = 0
                            nall = 0
                            for r in range(rp[c], rp[c + 1]):
                                mv = mk[ri[r]]
                                if mv & 2 and sb[ri[r]] == stb:
                                    nabc += 1
                                    if mv & 1:
                                        nall += 1
                                if mv & 3 == 3:
                                    nxac += 1
                                if mv & 1 and sb[ri[r]] == stb:
                                    nxbc += 1
                            f[72] += nall
                            f[71] += nxac + nxbc - 3
                            f[70] += nabc - 1
                            f[67] += txa + txb + txc - 6
                            f[66] += ta[b] + ta[c] + tb[c] - 6
                            f[58] += dx - 3
                            f[57] += da + db + dc - 9
                    elif c < b:
                        nxbc = 0
                        nabc = 0
                        nbc = 0
                        for r in range(rp[c], rp[c + 1]):
                            mv = mk[ri[r]]
                            if sb[ri[r]] == stb:
                                nbc += 1
                                if mv & 1:
                                    nxbc += 1
                                if mv & 2:
                                    nabc += 1
                        f[69] += nxbc - 1
                        f[68] += nabc - 1
                        f[64] += nbc - 2
                        f[61] += txb + txc - 2
                        f[60] += ta[b] + ta[c] - 2
                        f[55] += txa - 2
                        f[48] += db + dc - 4
                        f[42] += dx - 3
                        f[41] += da - 3
                f[71] += nxab * ncl
                if j > p:
                    # c in N(x) outside N(a) and N(b), by inclusion and exclusion
                    nc = dx - txa - txb + nxab
                    f[44] += tx2 - sx[a] - sx[b] + s3t
                    f[33] += (dx - 3) * nc
                    f[30] += wx - dsx[a] - dsx[b] + s3d - nc
                    f[26] += (da + db - 4) * nc
            # c a neighbour of a and b, not of x: diamond with x of degree 2, 4-cycle; of a only: the
            # 3-path b - x - a - c (counted)
            if j > p or not adjab:
                for i in range(nlc):
                    c = lc[i]
                    tac = ta[c]
                    dc = rp[c + 1] - rp[c]
                    nabc = 0
                    if tac > 1 or (tac > 0 and not adjab):
                        for r in range(rp[c], rp[c + 1]):
                            if mk[ri[r]] & 2 and sb[ri[r]] == stb:
                                nabc += 1
                    if adjab:
                        f[65] += nabc
                        f[63] += cx[c] - 2
                        f[59] += tac + tb[c] - 2
                        f[54] += ta[b] - 2
                        f[47] += dx - 2
                        f[46] += dc - 2
                        f[40] += da + db - 6
                    else:
                        f[62] += nabc
                        f[53] += txa + txb
                        f[51] += tac + tb[c]
                        f[50] += cx[c] - 2
                        f[49] += ca[b] - 2
                        f[38] += dx - 2
                        f[37] += da + db - 4
                        f[36] += dc - 2
                if not adjab:
                    f[17] += (da - 1 - txa - nlc) * (db - 1)
        # b a neighbour of a, not of x: paw with x the tail, 3-star leaf, 3-path end. The pairs {b, c}
        # of such neighbours (S = N(a) outside N[x]) are counted, not listed: the edges of S, and per
        # b its degree in S and the triangles on those edges
        e2 = np.int64(0)  # 2 x the edges of S
        tr2 = np.int64(0)  # 2 x the triangles on S's edges
        sdeg = np.int64(0)  # the degrees of S
        sdd = np.int64(0)  # per edge of S the degrees of its ends
        stt = np.int64(0)  # per edge bc of S: t(ab) + t(ac)
        k56 = np.int64(0)  # per edge bc of S the common neighbours of a, b and c
        for q in range(a0, a1):
            b = ri[q]
            if b == x or mk[b] & 1:
                continue
            b0, b1 = rp[b], rp[b + 1]
            db = b1 - b0
            tab = tri[reid[q]]
            ctr[0] += 1
            stb = ctr[0]
            degs = 0
            # c a neighbour of b only: 3-path with x an end (the same pass marks N(b))
            for r in range(b0, b1):
                c = ri[r]
                mc = mk[c]
                sb[c] = stb
                tb[c] = tri[reid[r]]
                if mc == 2:  # c in S (x cannot be one of b's)
                    degs += 1
                    tr2 += tb[c]
                if mc & 3:  # a, x's neighbours and a's
                    continue
                f[35] += ca[c] - 1
                f[34] += cx[c]
                f[27] += tb[c]
                f[18] += db - 2
                f[16] += dx - 1
                f[15] += rp[c + 1] - rp[c] - 1
            e2 += degs
            sdeg += db
            sdd += db * degs
            stt += tab * degs
            if tab > 1 and degs > 0:
                # 4-cliques {a, b, c, w} with bc an edge of S (c the lower rank, its row scanned)
                for r in range(b0, b1):
                    c = ri[r]
                    if c > b:
                        break
                    if mk[c] == 2 and ta[c] > 1:
                        for r2 in range(rp[c], rp[c + 1]):
                            if mk[ri[r2]] & 2 and sb[ri[r2]] == stb:
                                k56 += 1
        ns = da - 1 - txa
        es = e2 // 2
        ind = ns * (ns - 1) // 2 - es
        f[56] += k56
        f[45] += tr2 // 2 - es
        f[39] += stt - 2 * es
        f[31] += (da - 3) * es
        f[28] += (dx - 1) * es
        f[24] += sdd - 4 * es
        f[22] += (da - 3) * ind
        f[20] += (dx - 1) * ind
        f[19] += (ns - 1) * sdeg - sdd - 2 * ind
        for q in range(a0, a1):
            mk[ri[q]] &= 1
    # the 3-star with x the centre: per neighbour a, the non-adjacent pairs of N(x) outside a and its
    # neighbours (the edges among N(x) & N(a) are the 4-cliques on x and a, k4[a])
    tx1 = tx2 // 2
    i3 = np.int64(0)
    i3d = np.int64(0)
    for p in range(x0, x1):
        a = ri[p]
        ra = dx - 1 - tx[a]
        i2 = ra * (ra - 1) // 2 - tx1 + sx[a] - k4[a]
        i3 += i2
        i3d += (rp[a + 1] - rp[a]) * i2
    f[23] += (dx - 3) * (i3 // 3)
    f[21] += i3d - i3
    for p in range(x0, x1):
        a = ri[p]
        mk[a] = 0
        k4[a] = 0
        for q in range(rp[a], rp[a + 1]):
            cx[ri[q]] = 0


@njit(cache=True, nogil=True, parallel=True)
def _orbits5(c0, c1, bounds, verts, rows, rp, ri, reid, tri, mk, tx, ta, tb, cx, ca, k4, stamps, fs, eq_orbit, eq_div,
             eq_ptr, eq_coef, eq_of, out, nthreads, cancel):
    """out[rows[i], 15:73]: the 5-vertex orbit counts of the rank-space vertices x = verts[i] of
    chunks c0..c1-1 (chunk c: i in bounds[c]..bounds[c+1]-1), claimed from the last down. Row t of
    the scratch arrays is thread t's (``mk``, ``cx`` and ``k4`` zero on entry and exit; ``stamps[t]``
    (7, n) int64 zero on the first call: N(b)'s stamps, the 2-paths' stamps, the counter, four rows
    of per-vertex scratch). The system: for i in order, orbit
    ``eq_orbit[i]`` = (f - sum of eq_coef[k] x orbit eq_of[k], k in eq_ptr[i]:eq_ptr[i+1]) / eq_div[i]."""
    counter = np.zeros(1, np.int64)
    for tt in prange(nthreads):
        t = np.int64(tt)  # prange's index is unsigned: one signature for the helpers
        f = fs[t]
        while True:
            k = fetch_add(counter, 0, 1)
            if k >= c1 - c0 or fetch_add(cancel, 0, 0) != 0:
                break
            c = c1 - 1 - k
            for i0 in range(bounds[c], bounds[c + 1]):
                x = verts[i0]
                _vertex5(x, rp, ri, reid, tri, mk[t], tx[t], ta[t], tb[t], cx[t], ca[t], k4[t], stamps[t, 0],
                         stamps[t, 1], stamps[t, 3], stamps[t, 4], stamps[t, 5], stamps[t, 6],
                         stamps[t, 2, :1], f)
                for i in range(eq_orbit.shape[0]):
                    o = eq_orbit[i]
                    s = f[o]
                    for e in range(eq_ptr[i], eq_ptr[i + 1]):
                        s -= eq_coef[e] * f[eq_of[e]]
                    f[o] = s // eq_div[i]
                row = rows[i0]
                for o in range(15, ORBITS5):
                    out[row, o] = f[o]
