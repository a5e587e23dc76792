"""Clique counts of every size by clique polynomials: split the dense parts into the components of
their complement.

Contract: ``optr``/``oind`` is the out-neighbourhood CSR of the degeneracy orientation in rank
space (as in :mod:`graphmine.cliques._pivot_kernels`). Kernels never validate and never raise.

The clique polynomial of a vertex set S is F_S(x) = sum over the cliques C of G[S] of x^|C|. Below
a root u the search computes F of N+(u) on the local bit matrix, using three identities:

- if the complement of G[S] falls apart into components S_1, ..., S_r (every vertex of one is
  adjacent to every vertex of the others), then F_S = F_{S_1} * ... * F_{S_r}; a vertex adjacent
  to all the others of S (a complement component of one vertex) gives the factor 1 + x;
- a component whose complement has maximum degree <= 2 is a path or a cycle of the complement,
  whose polynomials are closed forms (P_L = P_{L-1} + x P_{L-2}; C_L = P_{L-1} + x P_{L-3});
- otherwise branch. Where the component is dense (complement density < 1/2) on the vertex v with
  the most non-neighbours: F_S = F_{S - v} + x F_{S cap N(v)} (removing v splits the complement
  fastest); where it is sparse, by Pivoter's pivot rule on the vertex p with the most neighbours:
  F_S = (1 + x) F_{S cap N(p)} + sum_i x F_{S_i cap N(v_i)} over the non-neighbours v_i of p,
  S_i = S minus p, v_1, ..., v_{i-1}.

On dense graphs (facebook_combined's large near-cliques) the product rule turns the many leaves of
the succinct clique tree into sums over few small factors. A size budget (``top``,
lowered by one on each x-branch) cuts the polynomials and the search as the size limit does.

Coefficients are kept in two channels: modulo 2^64 (uint64 arithmetic, exact) and in float64 (for
the magnitude: sums and products of non-negative numbers, relative error far below 2^-30). The
caller rebuilds each exact count from the residue and the float where the float proves the count
unique (below 2^92), and counts the other way otherwise.

Per-thread scratch: the local complement matrix (D^2 / 64 words), five bit sets per level and two
polynomials per level, O(D * K) numbers.
"""

import numpy as np
from numba import njit, prange

from ._clique_kernels import _claim_chunk, _root_plan
from ._pivot_kernels import _symmetric_matrix
from .._primitives.setops import WALK_ALL, lowest_bit, lowest_member, member_degrees, members_meeting, or_rows

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def _mul_into(pu, pf, plen, r, f, top):
    """Polynomial slot r *= slot f, truncated at degree top (in place, from the top down)."""
    la = plen[r]
    lb = plen[f]
    ln = min(la + lb - 1, top + 1)
    for k in range(ln - 1, -1, -1):
        su = U0
        sf = 0.0
        for j in range(max(0, k - la + 1), min(k, lb - 1) + 1):
            su += pu[r, k - j] * pu[f, j]
            sf += pf[r, k - j] * pf[f, j]
        pu[r, k] = su
        pf[r, k] = sf
    plen[r] = ln


@njit(cache=True, nogil=True)
def _add_shifted(pu, pf, plen, f, c, shift, top):
    """Slot f += x^shift * slot c, truncated at degree top."""
    lc = min(plen[c] + shift, top + 1)
    for k in range(plen[f], lc):
        pu[f, k] = U0
        pf[f, k] = 0.0
    for k in range(shift, lc):
        pu[f, k] += pu[c, k - shift]
        pf[f, k] += pf[c, k - shift]
    plen[f] = max(plen[f], lc)


@njit(cache=True, nogil=True)
def _set_table(pu, pf, plen, s, tu, tf, row, top):
    """Slot s = row of a closed-form table, truncated at degree top."""
    ln = min(row + 1, top + 1)
    for k in range(ln):
        pu[s, k] = tu[row, k]
        pf[s, k] = tf[row, k]
    plen[s] = ln


# states of a level of the search
_ENTER = 0
_NEXT = 1
_PIVOT_FIRST = 2
_PIVOT_LOOP = 3
_PIVOT_CHILD = 4
_BIN_FIRST = 5
_BIN_SECOND = 6


@njit(cache=True, nogil=True)
def _solve(top0, comp, W, sets, rest, cset, pset, iset, state, tops, pu, pf, plen, binu, binf, pathu, pathf):
    """Slot 0 = the clique polynomial of sets[0], truncated at degree top0 (>= 0). Level L works
    on sets[L] into slot 2L (its factor in slot 2L + 1); a child level's result is slot 2L + 2."""
    L = 0
    state[0] = _ENTER
    tops[0] = top0
    while L >= 0:
        r = 2 * L
        f = r + 1
        c = r + 2
        top = tops[L]
        st = state[L]
        if st == _ENTER:
            if top == 0:
                pu[r, 0] = U1
                pf[r, 0] = 1.0
                plen[r] = 1
                L -= 1
                continue
            # rest: the members with a complement neighbour in the set; the z others are adjacent
            # to all, a factor 1 + x each
            z = members_meeting(sets, L, W, comp, sets, L, rest, L)
            _set_table(pu, pf, plen, r, binu, binf, z, top)
            state[L] = _NEXT
        elif st == _NEXT:
            seed = lowest_member(rest, L, W)
            if seed < 0:
                L -= 1
                continue
            # the complement component of seed within rest
            for w in range(W):
                cset[L, w] = U0
                iset[L, w] = U0
            cset[L, seed >> 6] = U1 << np.uint64(seed & 63)
            iset[L, seed >> 6] = cset[L, seed >> 6]
            grow = True
            while grow:
                for w in range(W):
                    pset[L, w] = U0
                or_rows(iset, L, W, comp, rest, L, pset, L)
                grow = False
                for w in range(W):
                    nw = pset[L, w] & ~cset[L, w]
                    iset[L, w] = nw
                    cset[L, w] |= nw
                    if nw != U0:
                        grow = True
            for w in range(W):
                rest[L, w] &= ~cset[L, w]
            # complement degrees inside the component: size, twice its edges, the extremes
            size, e2, dmax, vmax, dmin, vmin = member_degrees(cset, L, W, comp, cset, L, W, -1, -1, 1 << 30, -1,
                                                              WALK_ALL)
            if dmax <= 2:
                if e2 == 2 * size:  # a cycle of the complement
                    _set_table(pu, pf, plen, f, pathu, pathf, size - 1, top)
                    _set_table(pu, pf, plen, c, pathu, pathf, size - 3, top)
                    _add_shifted(pu, pf, plen, f, c, 1, top)
                else:
                    _set_table(pu, pf, plen, f, pathu, pathf, size, top)
                _mul_into(pu, pf, plen, r, f, top)
                continue
            if 2 * e2 > size * (size - 1):
                # sparse: pivot on vmin (kept in pset[L] as C - vmin), then its non-neighbours
                for w in range(W):
                    sets[L + 1, w] = cset[L, w] & ~comp[vmin, w]
                    pset[L, w] = cset[L, w]
                    iset[L, w] = comp[vmin, w] & cset[L, w]
                sets[L + 1, vmin >> 6] &= ~(U1 << np.uint64(vmin & 63))
                pset[L, vmin >> 6] &= ~(U1 << np.uint64(vmin & 63))
                state[L] = _PIVOT_FIRST
                tops[L + 1] = top
            else:
                # dense: vmax out (first child), then vmax in with its neighbours
                for w in range(W):
                    sets[L + 1, w] = cset[L, w]
                    iset[L, w] = U0
                sets[L + 1, vmax >> 6] &= ~(U1 << np.uint64(vmax & 63))
                iset[L, vmax >> 6] = U1 << np.uint64(vmax & 63)
                state[L] = _BIN_FIRST
                tops[L + 1] = top
            state[L + 1] = _ENTER
            L += 1
        elif st == _PIVOT_FIRST:
            plen[f] = 0
            _add_shifted(pu, pf, plen, f, c, 0, top)
            _add_shifted(pu, pf, plen, f, c, 1, top)
            state[L] = _PIVOT_LOOP
        elif st == _PIVOT_LOOP:
            v = lowest_member(iset, L, W)
            if v < 0:
                _mul_into(pu, pf, plen, r, f, top)
                state[L] = _NEXT
                continue
            bv = U1 << np.uint64(v & 63)
            iset[L, v >> 6] &= ~bv
            pset[L, v >> 6] &= ~bv
            for y in range(W):
                sets[L + 1, y] = pset[L, y] & ~comp[v, y]
            state[L] = _PIVOT_CHILD
            tops[L + 1] = top - 1
            state[L + 1] = _ENTER
            L += 1
        elif st == _PIVOT_CHILD:
            _add_shifted(pu, pf, plen, f, c, 1, top)
            state[L] = _PIVOT_LOOP
        elif st == _BIN_FIRST:
            plen[f] = 0
            _add_shifted(pu, pf, plen, f, c, 0, top)
            v = -1
            for w in range(W):
                if iset[L, w] != U0:
                    v = w * 64 + lowest_bit(iset[L, w])
            for w in range(W):
                sets[L + 1, w] = cset[L, w] & ~comp[v, w]
            sets[L + 1, v >> 6] &= ~(U1 << np.uint64(v & 63))
            state[L] = _BIN_SECOND
            tops[L + 1] = top - 1
            state[L + 1] = _ENTER
            L += 1
        else:  # _BIN_SECOND
            _add_shifted(pu, pf, plen, f, c, 1, top)
            _mul_into(pu, pf, plen, r, f, top)
            state[L] = _NEXT


@njit(cache=True, nogil=True)
def _poly_scratch(max_out, top):
    dm = max(1, max_out)
    W = max(1, (dm + 63) >> 6)
    rows = np.zeros((dm, W), np.uint64)
    comp = np.zeros((dm, W), np.uint64)
    pos = np.empty(dm, np.int64)
    sets = np.empty((dm + 2, W), np.uint64)
    rest = np.empty((dm + 2, W), np.uint64)
    cset = np.empty((dm + 2, W), np.uint64)
    pset = np.empty((dm + 2, W), np.uint64)
    iset = np.empty((dm + 2, W), np.uint64)
    pu = np.zeros((2 * dm + 6, top + 1), np.uint64)
    pf = np.zeros((2 * dm + 6, top + 1), np.float64)
    plen = np.zeros(2 * dm + 6, np.int64)
    state = np.zeros(dm + 2, np.int64)
    tops = np.zeros(dm + 2, np.int64)
    return rows, comp, pos, sets, rest, cset, pset, iset, state, tops, pu, pf, plen


@njit(cache=True, nogil=True)
def _poly_root(u, optr, oind, top, scratch, binu, binf, pathu, pathf, totu, totf):
    """Add x * F(N+(u)) (cut at degree top + 1) to the totals."""
    rows, comp, pos, sets, rest, cset, pset, iset, state, tops, pu, pf, plen = scratch
    d = optr[u + 1] - optr[u]
    totu[1] += U1
    totf[1] += 1.0
    if d == 0 or top == 0:
        return
    W = (d + 63) >> 6
    _symmetric_matrix(u, optr, oind, rows, W, pos)
    for i in range(d):
        for w in range(W):
            comp[i, w] = ~rows[i, w]
        comp[i, i >> 6] &= ~(U1 << np.uint64(i & 63))
        if d & 63:
            comp[i, W - 1] &= (U1 << np.uint64(d & 63)) - U1
    for w in range(W):
        sets[0, w] = ~U0
    if d & 63:
        sets[0, W - 1] = (U1 << np.uint64(d & 63)) - U1
    _solve(top, comp, W, sets, rest, cset, pset, iset, state, tops, pu, pf, plen, binu, binf, pathu, pathf)
    for k in range(1, plen[0]):
        totu[k + 1] += pu[0, k]
        totf[k + 1] += pf[0, k]


@njit(cache=True, parallel=True, nogil=True)
def _poly_counts(optr, oind, max_out, K, binu, binf, pathu, pathf, nthreads):
    """(counts mod 2^64, float64 counts) of the k-cliques, k = 0..K (k = 0 left zero), on nthreads
    threads claiming root chunks of about equal estimated work from the heavy end."""
    n = optr.shape[0] - 1
    top = K - 1
    cuts, counter = _root_plan(optr, 0, n, nthreads)
    tu = np.zeros((nthreads, K + 1), np.uint64)
    tf = np.zeros((nthreads, K + 1), np.float64)
    for t in prange(nthreads):
        scratch = _poly_scratch(max_out, top)
        while True:
            r0, r1 = _claim_chunk(counter, cuts)
            if r0 < 0:
                break
            for u in range(r0, r1):
                _poly_root(u, optr, oind, top, scratch, binu, binf, pathu, pathf, tu[t], tf[t])
    totu = tu[0].copy()
    totf = tf[0].copy()
    for t in range(1, nthreads):
        totu += tu[t]
        totf += tf[t]
    return totu, totf


@njit(cache=True, nogil=True)
def _poly_counts_serial(optr, oind, max_out, K, binu, binf, pathu, pathf):
    """:func:`_poly_counts` on one thread, root after root: the same counts (the residues exactly,
    the floats up to the order of their sums), without the parallel kernel's first compile
    (numba's parfor passes: several seconds) for a first run on a small graph."""
    n = optr.shape[0] - 1
    top = K - 1
    scratch = _poly_scratch(max_out, top)
    totu = np.zeros(K + 1, np.uint64)
    totf = np.zeros(K + 1, np.float64)
    for u in range(n):
        _poly_root(u, optr, oind, top, scratch, binu, binf, pathu, pathf, totu, totf)
    return totu, totf
