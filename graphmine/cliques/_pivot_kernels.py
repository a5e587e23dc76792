"""Cliques of every size at once: the succinct clique tree by pivoting (Pivoter; Jain & Seshadhri,
WSDM 2020).

Contract: ``optr``/``oind`` is the out-neighbourhood CSR of the degeneracy orientation in rank
space (every arc goes from a smaller to a larger id, rows sorted), so a root u's out-neighbours
number at most the degeneracy D. Kernels never validate and never raise.

Below a root u the search works on the subgraph induced by N+(u) as a symmetric bit matrix. At a
node with candidate set P it picks the pivot p of P with the most neighbours in P and branches on
p (as a *pivot*: it may or may not join a clique) and on every non-neighbour of p in P (as a
*held* vertex: it is in every clique below), each time removing the branch vertex from P. Every
clique of the graph is then, in exactly one leaf, the set of held vertices H (the root included)
plus any subset of the pivots Q of that leaf, so a leaf with |H| = h and |Q| = q holds C(q, k - h)
k-cliques. The number of leaves is far below the number of cliques on dense graphs (a clique of
size s is one leaf, not 2^s cliques). A candidate set that is itself a clique (found while the pivot
is chosen: every member adjacent to all the others) ends its branch at once as one leaf whose
pivots are all its members.

Totals are exact: the kernels count leaves by (h, q) in int64 and the caller turns the histogram
into Python integers (counts of large cliques exceed 2^63). Per-vertex and per-edge counts are
float64 sums of binomials: exact while every count stays below 2^53. With a size limit K, held
sets larger than K are cut and a node whose held set reaches K is a leaf (its only clique of size
<= K is H itself), which is what makes fixed-k per-vertex counts cheap.

Work is split as in :mod:`graphmine.cliques._clique_kernels`: roots cut into chunks of about equal
estimated work, claimed dynamically from the heavy end; per-thread scratch is O(D^2 / 64) words
(the matrix and one candidate, branch and remainder set per tree level).
"""

import numpy as np
from numba import njit, prange

from ._clique_kernels import _claim_chunk, _local_matrix, _local_matrix_one_word, _root_plan
from .._primitives.setops import and_count, lower_bound, lowest_bit, lowest_member, member_degrees, popcount

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def _symmetric_matrix(u, optr, oind, rows, W, pos):
    """rows[i, :W] = the out-neighbours of u adjacent to its i-th out-neighbour, both ways."""
    d = optr[u + 1] - optr[u]
    if d <= 64:
        _local_matrix_one_word(u, optr, oind, rows, pos)
    else:
        _local_matrix(u, optr, oind, rows, W, pos)
    for i in range(d):
        wi = i >> 6
        bi = U1 << np.uint64(i & 63)
        for w in range(wi, W):
            x = rows[i, w]
            while x != U0:
                j = w * 64 + lowest_bit(x)
                x &= x - U1
                rows[j, wi] |= bi


@njit(cache=True, nogil=True)
def _choose_pivot(S, L, rows, W):
    """The member of S[L] with the most neighbours in S[L], or -1 if S[L] is a clique (then every
    member is a pivot of one leaf). A member adjacent to all the others ends the search once some
    member is not."""
    size = and_count(S, L, S, L, W)
    _, _, best, bp, least, _ = member_degrees(S, L, W, rows, S, L, W, -1, -1, size, -1, size - 1)
    return bp if least < size - 1 else -1


@njit(cache=True, nogil=True)
def _append_clique(S, L, W, chosen, pivot, depth):
    """Put the members of S[L] on the path as pivots; return the new depth."""
    for w in range(W):
        x = S[L, w]
        while x != U0:
            chosen[depth] = w * 64 + lowest_bit(x)
            pivot[depth] = True
            depth += 1
            x &= x - U1
    return depth


@njit(cache=True, nogil=True)
def _leaf(u, a, h, q, depth, chosen, pivot, oind, optr, hist, binom, K, Ke, pv, pe, held, piv):
    """Record a leaf: its (h, q) in the histogram, and its binomials per vertex and per edge."""
    hist[h, q] += 1
    if pv.shape[0] == 0 and pe.shape[0] == 0:
        return
    nh = 1
    nq = 0
    held[0] = -1  # the root, local index -1
    for l in range(depth):
        if pivot[l]:
            piv[nq] = chosen[l]
            nq += 1
        else:
            held[nh] = chosen[l]
            nh += 1
    top = min(K, h + q)
    if pv.shape[0] != 0:
        for i in range(nh):
            x = u if held[i] < 0 else oind[a + held[i]]
            for k in range(h, top + 1):
                pv[x, k] += binom[q, k - h]
        for i in range(nq):
            x = oind[a + piv[i]]
            for k in range(h + 1, top + 1):
                pv[x, k] += binom[q - 1, k - h - 1]
    if pe.shape[0] != 0 and h <= Ke:
        tope = min(Ke, h + q)
        # pairs of held vertices, then held-pivot, then pivot-pivot
        for s in range(3):
            lo = h + s
            if lo > tope:
                break
            na = nh if s < 2 else nq
            for i in range(na):
                li = held[i] if s < 2 else piv[i]
                nb = nh if s == 0 else nq
                for j in range(i + 1 if s != 1 else 0, nb):
                    lj = held[j] if s == 0 else piv[j]
                    x = min(li, lj)
                    y = max(li, lj)
                    if x < 0:
                        arc = a + y
                    else:
                        vx = oind[a + x]
                        arc = lower_bound(oind, optr[vx], optr[vx + 1], oind[a + y])
                    for k in range(lo, tope + 1):
                        pe[arc, k] += binom[q - s, k - lo]


@njit(cache=True, nogil=True)
def _sct_root(u, optr, oind, K, Ke, scratch, hist, binom, pv, pe):
    """Walk the succinct clique tree below root u (iteratively), recording its leaves."""
    rows, pos, S, Pc, R, chosen, pivot, hs, qs, piv_at, held, piv = scratch
    a = optr[u]
    d = optr[u + 1] - a
    if d == 0 or K == 1:
        _leaf(u, a, 1, 0, 0, chosen, pivot, oind, optr, hist, binom, K, Ke, pv, pe, held, piv)
        return
    W = (d + 63) >> 6
    _symmetric_matrix(u, optr, oind, rows, W, pos)
    for w in range(W):
        S[0, w] = ~U0
    if d & 63:
        S[0, W - 1] = (U1 << np.uint64(d & 63)) - U1
    hs[0] = 1
    qs[0] = 0
    level = 0
    p = _choose_pivot(S, 0, rows, W)
    if p < 0:
        _leaf(u, a, 1, d, _append_clique(S, 0, W, chosen, pivot, 0), chosen, pivot, oind, optr, hist, binom,
              K, Ke, pv, pe, held, piv)
        return
    piv_at[0] = p
    for w in range(W):
        R[0, w] = S[0, w] & ~rows[p, w]
        Pc[0, w] = S[0, w]
    while level >= 0:
        v = lowest_member(R, level, W)
        if v < 0:
            level -= 1
            continue
        R[level, v >> 6] &= ~(U1 << np.uint64(v & 63))
        is_pivot = v == piv_at[level]
        h = hs[level] + (0 if is_pivot else 1)
        q = qs[level] + (1 if is_pivot else 0)
        L = level + 1
        empty = True
        for w in range(W):
            z = Pc[level, w] & rows[v, w]
            S[L, w] = z
            if z != U0:
                empty = False
        Pc[level, v >> 6] &= ~(U1 << np.uint64(v & 63))
        if h > K:
            continue
        chosen[level] = v
        pivot[level] = is_pivot
        if empty or h == K:
            _leaf(u, a, h, q, L, chosen, pivot, oind, optr, hist, binom, K, Ke, pv, pe, held, piv)
            continue
        p = _choose_pivot(S, L, rows, W)
        if p < 0:
            size = 0
            for w in range(W):
                size += popcount(S[L, w])
            _leaf(u, a, h, q + size, _append_clique(S, L, W, chosen, pivot, L), chosen, pivot, oind, optr,
                  hist, binom, K, Ke, pv, pe, held, piv)
            continue
        hs[L] = h
        qs[L] = q
        piv_at[L] = p
        for w in range(W):
            R[L, w] = S[L, w] & ~rows[p, w]
            Pc[L, w] = S[L, w]
        level = L


@njit(cache=True, nogil=True)
def _sct_scratch(oind, max_out):
    dm = max(1, max_out)
    W = max(1, (dm + 63) >> 6)
    rows = np.zeros((dm, W), np.uint64)
    pos = np.empty(dm, np.int64)
    S = np.empty((dm + 1, W), np.uint64)
    Pc = np.empty((dm + 1, W), np.uint64)
    R = np.empty((dm + 1, W), np.uint64)
    chosen = np.empty(dm + 1, np.int64)
    pivot = np.zeros(dm + 1, np.bool_)
    hs = np.empty(dm + 1, np.int64)
    qs = np.empty(dm + 1, np.int64)
    piv_at = np.empty(dm + 1, np.int64)
    held = np.empty(dm + 2, np.int64)
    piv = np.empty(dm + 2, np.int64)
    return rows, pos, S, Pc, R, chosen, pivot, hs, qs, piv_at, held, piv


@njit(cache=True, nogil=True)
def _sct_span(optr, oind, K, Ke, lo, hi, scratch, hist, binom, pv, pe):
    for u in range(lo, hi):
        _sct_root(u, optr, oind, K, Ke, scratch, hist, binom, pv, pe)


@njit(cache=True, nogil=True)
def _sct_serial(optr, oind, max_out, K, Ke, binom, want_vertex, want_edge):
    """Leaf histogram (K + 1, max_out + 2), per-vertex (n, K + 1) and per-arc (arcs, Ke + 1)
    binomial sums (empty unless wanted), on one thread."""
    n = optr.shape[0] - 1
    hist = np.zeros((K + 1, max_out + 2), np.int64)
    pv = np.zeros((n if want_vertex else 0, K + 1), np.float64)
    pe = np.zeros((optr[n] if want_edge else 0, Ke + 1), np.float64)
    _sct_span(optr, oind, K, Ke, 0, n, _sct_scratch(oind, max_out), hist, binom, pv, pe)
    return hist, pv, pe


@njit(cache=True, parallel=True, nogil=True)
def _sct_parallel(optr, oind, max_out, K, Ke, binom, want_vertex, want_edge, nthreads):
    """As :func:`_sct_serial` on nthreads threads, each with its own histogram and sums."""
    n = optr.shape[0] - 1
    cuts, counter = _root_plan(optr, 0, n, nthreads)
    hists = np.zeros((nthreads, K + 1, max_out + 2), np.int64)
    pvs = np.zeros((nthreads, n if want_vertex else 0, K + 1), np.float64)
    pes = np.zeros((nthreads, optr[n] if want_edge else 0, Ke + 1), np.float64)
    for t in prange(nthreads):
        scratch = _sct_scratch(oind, max_out)
        while True:
            r0, r1 = _claim_chunk(counter, cuts)
            if r0 < 0:
                break
            _sct_span(optr, oind, K, Ke, r0, r1, scratch, hists[t], binom, pvs[t], pes[t])
    hist = hists[0].copy()
    pv = pvs[0].copy()
    pe = pes[0].copy()
    for t in range(1, nthreads):
        hist += hists[t]
        pv += pvs[t]
        pe += pes[t]
    return hist, pv, pe
