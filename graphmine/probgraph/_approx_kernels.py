"""Approximate clique and intersection kernels over neighbourhood sketches.

Contract: ``optr``/``oind`` is an acyclic orientation (rows sorted), and the sketch arrays hold a
sketch of every out-neighbourhood N+(v) (Bloom rows ``F``, MinHash/bottom-k rows ``M`` with
their stored sizes ``S``; the arrays of the other kinds are 1 x 1 dummies). Every k-clique is
reached once from its lowest-ranked vertex u: the first k - 2 vertices are enumerated exactly
(sorted merges of out-neighbourhoods, as the exact kernel does), and the number of ways to
finish, |C ∩ N+(w)| for the candidate set C and each w in C, is estimated from sketches instead of
merged. For k = 3, C = N+(u) and its sketch is the stored one; deeper, a sketch of C is built on
the fly with the same hashes (or, for the multi-set AND estimator, the AND of the prefix's
filters). Estimates are summed as floats, never truncated per term.

Sketch rows are addressed as (2-D array, row) pairs, never sliced: a view inside a parallel
loop costs an atomic reference count per use. Bloom cardinalities come from lookup tables
``ctab``/``vtab`` indexed by the popcount. Work is split into ``nthreads`` interleaved vertex
sets; each thread has its own buffers and accumulates scalars. Kernels never validate and never
raise. Each kernel returns the sum of the estimates, the sum of their variances, the sum of their
standard deviations (a bound on the standard deviation of the sum whatever the correlations),
the number of saturated terms and the number of terms.
"""

import math

import numpy as np
from numba import njit, prange

from .._primitives.clique_kernels import _gather_marked
from .._primitives.setops import intersect_count, intersect_into, popcount
from .._primitives.estimators import (EST_AND, EST_OR, KIND_BLOOM, _clip, KIND_KHASH, KIND_KMV, bottomk_estimate, pair_bloom,
                          pair_bottomk, pair_khash)
from .._primitives.sketch_kernels import _bloom_insert, _bottomk_fill, _khash_fill

U1 = np.uint64(1)
U0 = np.uint64(0)


@njit(cache=True)
def _set_marks(mark, arcs, a, e, value):
    """mark[arcs[a:e]] = value (the out-neighbours of one apex, marked for exact small terms)."""
    for q in range(a, e):
        mark[np.uint64(arcs[q])] = value


@njit(cache=True)
def _count_marked(mark, arcs, lo, hi):
    """How many of arcs[lo:hi] are marked: an exact |N+(u) ∩ N+(v)| for a small N+(v)."""
    c = 0
    for q in range(lo, hi):
        if mark[np.uint64(arcs[q])]:
            c += 1
    return c


@njit(cache=True)
def _add_totals(out, exact, tot, var, sd, sat, nest, terms):
    """Add one part's sums to the float64[7] result (the layout of :func:`_cliques_sketch_total`)."""
    out[0] += exact
    out[1] += tot
    out[2] += var
    out[3] += sd
    out[4] += sat
    out[5] += nest
    out[6] += terms


@njit(cache=True)
def _finish(kind, est, clamp, C, s, level, u, optr, oind, F, M, S, nbits, b, seeds, ctab, vtab,
            tmpF, andF, tmpM, buf, H, hc, hbase, andH, mark, thresh):
    """Sum over w in C of |C ∩ N+(w)|: exactly where cheap, else estimated.

    A term is exact when d+(w) <= ``thresh`` (a marker lookup per element of N+(w) costs no more
    than comparing sketches; ``mark`` then holds C) or when neither set has an element outside
    the hub bitmap. Otherwise the hub part (bitmaps ``H``, AND-ed over the prefix in ``andH``) is
    counted exactly and the rest estimated from the sketches. Returns (exact count, estimate sum,
    variance sum, sd sum, saturated, estimated terms, terms).
    """
    exact = 0
    tot = 0.0
    var = 0.0
    sd = 0.0
    sat = 0
    nest = 0
    terms = 0
    sc = s
    wh = H.shape[1]
    # elements of C outside the hubs (the part held by the Bloom filters)
    cb = s
    if wh > 0:
        cb = 0
        for i in range(s):
            if C[i] < hbase:
                cb += 1
    if level > 0:
        if kind == KIND_BLOOM:
            if est != EST_AND:
                tmpF[0, :] = 0
                for i in range(s):
                    if C[i] < hbase:
                        _bloom_insert(tmpF[0], C[i], nbits, seeds)
        elif kind == KIND_KHASH:
            _khash_fill(tmpM[0], C, 0, s, seeds)
        else:
            sc = _bottomk_fill(tmpM[0], C, 0, s, seeds[0], buf)
    marked = level == 0  # N+(u) is marked by the caller
    for i in range(s):
        w = C[i]
        dw = optr[w + 1] - optr[w]
        if dw == 0:
            continue
        terms += 1
        if dw <= thresh:
            if not marked:
                for q in range(s):
                    mark[C[q]] = True
                marked = True
            for q in range(optr[w], optr[w + 1]):
                if mark[oind[q]]:
                    exact += 1
            continue
        dy = dw
        if wh > 0:
            h = 0
            for q in range(wh):
                h += popcount(andH[level, q] & H[w, q])
            exact += h
            dy = dw - hc[w]
            if cb == 0 or dy == 0:
                continue
        if kind == KIND_BLOOM:
            if level == 0:
                e, st_, z = pair_bloom(F, u, F, w, cb, dy, nbits, b, est, clamp, ctab, vtab)
            elif est == EST_AND:
                e, st_, z = pair_bloom(andF, level, F, w, cb, dy, nbits, b, est, clamp, ctab, vtab)
            else:
                e, st_, z = pair_bloom(tmpF, 0, F, w, cb, dy, nbits, b, est, clamp, ctab, vtab)
            # vtab holds standard deviations here (no square root per term)
            v = st_ * st_
        elif kind == KIND_KHASH:
            if level == 0:
                e, v, z = pair_khash(M, u, M, w, s, dw, clamp)
            else:
                e, v, z = pair_khash(tmpM, np.int64(0), M, w, s, dw, clamp)
            st_ = math.sqrt(v)
        else:
            if level == 0:
                e, v, z = pair_bottomk(M, u, S[u], M, w, S[w], s, dw, kind == KIND_KMV, clamp)
            else:
                e, v, z = pair_bottomk(tmpM, np.int64(0), sc, M, w, S[w], s, dw, kind == KIND_KMV, clamp)
            st_ = math.sqrt(v)
        tot += e
        var += v
        sd += st_
        sat += z
        if v > 0.0:
            nest += 1
    if marked and level > 0:
        for q in range(s):
            mark[C[q]] = False
    return exact, tot, var, sd, sat, nest, terms


@njit(cache=True)
def _cliques_from_sketch(u, optr, oind, k, cand, size, pos, kind, est, clamp, F, M, S, nbits, b,
                         seeds, ctab, vtab, tmpF, andF, tmpM, buf, mark, mark2, H, hc, hbase, andH,
                         thresh, out):
    """Add to ``out`` the k-cliques whose lowest-ranked vertex is u (depth-first, exact prefixes):
    out = [exact count, estimate sum, variance sum, sd sum, saturated, estimated terms, terms].

    N+(u) is held in the marker array ``mark``, so the first intersection N+(u) ∩ N+(w) costs
    d+(w) lookups instead of a merge; deeper ones are sorted merges (``mark2`` marks deeper
    candidate sets for the exact terms of the last level).
    """
    d = optr[u + 1] - optr[u]
    if d < k - 1:
        return
    for j in range(d):
        cand[0, j] = oind[optr[u] + j]
        mark[oind[optr[u] + j]] = True
    size[0] = d
    pos[0] = 0
    if kind == KIND_BLOOM and est == EST_AND:
        for q in range(andF.shape[1]):
            andF[0, q] = F[u, q]
    for q in range(H.shape[1]):
        andH[0, q] = H[u, q]
    level = np.int64(0)  # not a literal 0: _finish would compile once more for Literal[int](0)
    while level >= 0:
        need = k - (level + 1)
        if need == 2:
            ex, e, v, dv, st, ne, p = _finish(kind, est, clamp, cand[level], size[level], level, u, optr,
                                              oind, F, M, S, nbits, b, seeds, ctab, vtab, tmpF, andF,
                                              tmpM, buf, H, hc, hbase, andH,
                                              mark if level == 0 else mark2, thresh)
            _add_totals(out, ex, e, v, dv, st, ne, p)
            level -= 1
            continue
        if pos[level] >= size[level]:
            level -= 1
            continue
        w = cand[level, pos[level]]
        pos[level] += 1
        if level == 0:
            m = _gather_marked(oind, optr[w], optr[w + 1], mark, cand, 1)
        else:
            m = intersect_into(cand[level], np.int64(0), size[level], oind, optr[w], optr[w + 1], cand[level + 1])
        if m >= need - 1:
            size[level + 1] = m
            pos[level + 1] = 0
            if kind == KIND_BLOOM and est == EST_AND:
                for q in range(andF.shape[1]):
                    andF[level + 1, q] = andF[level, q] & F[w, q]
            for q in range(H.shape[1]):
                andH[level + 1, q] = andH[level, q] & H[w, q]
            level += 1
    for j in range(d):
        mark[oind[optr[u] + j]] = False


@njit(cache=True, inline="always")
def _sum_parts(parts):
    """The per-thread partial sums added up, thread by thread (explicit loops: a sum with an axis
    costs seconds of compile)."""
    total = np.zeros(parts.shape[1], np.float64)
    for t in range(parts.shape[0]):
        for j in range(parts.shape[1]):
            total[j] += parts[t, j]
    return total


@njit(cache=True)
def _cliques_sketch_part(optr, oind, k, max_out, kind, est, clamp, F, M, S, nbits, b, seeds, ctab, vtab, H, hc,
                         hbase, thresh, t, nthreads, out):
    """:func:`_cliques_sketch_total`'s sums over the apexes t, t + nthreads, ... added to ``out``
    (one thread's share, with its own buffers)."""
    n = optr.shape[0] - 1
    cand = np.empty((k - 1, max_out + 1), oind.dtype)
    size = np.zeros(k - 1, np.int64)
    pos = np.zeros(k - 1, np.int64)
    tmpF = np.zeros((1, F.shape[1]), np.uint64)
    andF = np.zeros((k - 1, F.shape[1]), np.uint64)
    andH = np.zeros((k - 1, H.shape[1]), np.uint64)
    tmpM = np.empty((1, M.shape[1]), np.uint32)
    buf = np.empty(max_out + 1, np.uint32)
    mark = np.zeros(n, np.bool_)
    mark2 = np.zeros(n, np.bool_)
    for u in range(t, n, nthreads):
        _cliques_from_sketch(u, optr, oind, k, cand, size, pos, kind, est, clamp, F, M, S, nbits, b,
                             seeds, ctab, vtab, tmpF, andF, tmpM, buf, mark, mark2, H, hc, hbase,
                             andH, thresh, out)


@njit(cache=True, parallel=True)
def _cliques_sketch_total(optr, oind, k, max_out, kind, est, clamp, F, M, S, nbits, b, seeds,
                          ctab, vtab, H, hc, hbase, thresh, nthreads):
    """Estimated number of k-cliques (k >= 3): float64[7] = [exact part, estimated part, variance
    sum, sd sum, saturated terms, estimated terms, terms]; the estimate is out[0] + out[1]."""
    parts = np.zeros((nthreads, 7), np.float64)
    for t in prange(nthreads):
        out = np.zeros(7, np.float64)
        # np.int64(t): the parfor's body is retyped with an unsigned t (a second compile)
        _cliques_sketch_part(optr, oind, k, max_out, kind, est, clamp, F, M, S, nbits, b, seeds, ctab, vtab, H,
                             hc, hbase, thresh, np.int64(t), nthreads, out)
        for j in range(7):  # explicit loops: a slice assignment or a sum with an axis costs seconds of compile
            parts[t, j] = out[j]
    return _sum_parts(parts)


def cliques_sketch_serial(optr, oind, k, max_out, kind, est, clamp, F, M, S, nbits, b, seeds, ctab, vtab, H, hc,
                          hbase, thresh, nthreads):
    """:func:`_cliques_sketch_total` on the calling thread, share after share: the same compiled
    part, the same sums in the same order (the same float64[7] to the last bit), without a
    parallel kernel's compile: for small graphs."""
    parts = np.zeros((nthreads, 7), np.float64)
    for t in range(nthreads):
        _cliques_sketch_part(optr, oind, k, max_out, kind, est, clamp, F, M, S, nbits, b, seeds, ctab, vtab, H, hc,
                             hbase, thresh, t, nthreads, parts[t])
    total = np.zeros(7, np.float64)
    for t in range(nthreads):  # in the order of _sum_parts
        total += parts[t]
    return total


@njit(cache=True, inline="always")
def _bloom_term(X, uu, v, q0, q1, F, u, du, dv, nbits, b, est, clamp, ctab, stab):
    """(estimate, standard deviation, saturated) of |N+(u) ∩ N+(v)| from Bloom filters: the OR
    estimator straight from words q0:q1 of rows uu and v of ``X`` (the hot case), the others
    through :func:`pair_bloom` on the filters ``F``."""
    if est == EST_OR:
        ones = 0
        for q in range(q0, q1):
            ones += popcount(X[uu, q] | X[v, q])
        e = du + dv - ctab[ones]
        st = stab[ones]
        z = 1 if ones >= nbits else 0
        if clamp or z:
            e = _clip(e, 0.0, float(min(du, dv)))
        return e, st, z
    return pair_bloom(F, u, F, np.int64(v), du, dv, nbits, b, est, clamp, ctab, stab)


@njit(cache=True)
def _pairs_sketch_part(us, vs, deg, kind, est, clamp, F, M, S, nbits, b, ctab, vtab, t, nthreads, out, var, sat):
    """:func:`_pairs_sketch` for the pairs t, t + nthreads, ..."""
    for i in range(t, us.shape[0], nthreads):
        u = us[i]
        v = vs[i]
        if kind == KIND_BLOOM:
            e, w, st = pair_bloom(F, u, F, v, deg[u], deg[v], nbits, b, est, clamp, ctab, vtab)
        elif kind == KIND_KHASH:
            e, w, st = pair_khash(M, u, M, v, deg[u], deg[v], clamp)
        else:
            e, w, st = pair_bottomk(M, u, S[u], M, v, S[v], deg[u], deg[v], kind == KIND_KMV, clamp)
        out[i] = e
        var[i] = w
        sat[i] = st != 0


@njit(cache=True, parallel=True)
def _pairs_sketch(us, vs, deg, kind, est, clamp, F, M, S, nbits, b, ctab, vtab, nthreads):
    """Estimated |N(u) ∩ N(v)| for every pair (us[i], vs[i]): (estimates, variances, saturated)."""
    m = us.shape[0]
    out = np.zeros(m, np.float64)
    var = np.zeros(m, np.float64)
    sat = np.zeros(m, np.bool_)
    for t in prange(nthreads):
        # np.int64(t): the parfor's body is retyped with an unsigned t (a second compile)
        _pairs_sketch_part(us, vs, deg, kind, est, clamp, F, M, S, nbits, b, ctab, vtab, np.int64(t), nthreads,
                           out, var, sat)
    return out, var, sat


def pairs_sketch_serial(us, vs, deg, kind, est, clamp, F, M, S, nbits, b, ctab, vtab, nthreads):
    """:func:`_pairs_sketch` on the calling thread (every pair by the same compiled code: the same
    arrays to the last bit), without a parallel kernel's compile: for small graphs."""
    m = us.shape[0]
    out, var, sat = np.zeros(m, np.float64), np.zeros(m, np.float64), np.zeros(m, np.bool_)
    for t in range(nthreads):
        _pairs_sketch_part(us, vs, deg, kind, est, clamp, F, M, S, nbits, b, ctab, vtab, t, nthreads, out, var, sat)
    return out, var, sat


@njit(cache=True, parallel=True)
def _pairs_exact(indptr, indices, us, vs, nthreads):
    """Exact |N(u) ∩ N(v)| for every pair (sorted merges)."""
    m = us.shape[0]
    out = np.zeros(m, np.int64)
    for t in prange(nthreads):
        for i in range(t, m, nthreads):
            u = us[i]
            v = vs[i]
            out[i] = intersect_count(indices, indptr[u], indptr[u + 1], indices, indptr[v], indptr[v + 1])
    return out


@njit(cache=True)
def _triangles_bloom_part(start, dplus, arcs, t, nthreads, est, clamp, H, wh, F, q0, nbits, b, ctab, stab, hc,
                          thresh, mark, out):
    """The triangle kernel for (split) Bloom sketches, the lean twin of the generic kernel for
    k = 3, for the vertices t, t + nthreads, ... Vertex u's out-neighbours are
    ``arcs[start[u]:start[u] + dplus[u]]`` (sorted or not), all arrays indexed alike; the hub
    bitmap of u is ``H[u, :wh]``, its Bloom filter ``F[u, q0:]``. Two layouts use it: the
    oriented CSR (``start = optr[:-1]``, separate ``H`` and ``F``, ``q0 = 0``) and the arcs of
    :func:`_bloom_hub_build_ranked` (``H`` and ``F`` the same rows, hub bitmap then filter,
    ``q0 = wh``: one estimate reads one run of memory; sorting those arcs costs more than it
    saves and prefetching the next sketches did not pay either).

    Per arc u -> v: d+(v) marker lookups where d+(v) <= ``thresh`` and both sets reach past the
    hubs, else an exact popcount over the hub bitmaps plus one Bloom estimate of the rest (none
    when either set lies in the hubs: the popcount is then the whole term). ``stab`` holds
    standard deviations. Hot loops index with unsigned integers (numba then skips its
    negative-index wraparound test).
    """
    n = dplus.shape[0]
    uwh = np.uint64(wh)
    uq0 = np.uint64(q0)
    wt = np.uint64(F.shape[1])
    Fb = F[:, q0:]  # the filters, for the estimators other than OR
    # typed counters and flags (np.int64(0), not 0): a literal argument compiles a helper once
    # more for Literal[int](0) / Literal[bool](True)
    exact = np.int64(0)
    tot = 0.0
    var = 0.0
    sd = 0.0
    sat = np.int64(0)
    nest = np.int64(0)
    terms = np.int64(0)
    for u in range(t, n, nthreads):
        uu = np.uint64(u)
        du = dplus[uu]
        if du < 2:
            continue
        a = np.uint64(start[uu])
        e_ = a + np.uint64(du)
        dub = du - hc[uu]
        marked = False
        for j in range(a, e_):
            v = np.uint64(arcs[j])
            dv = dplus[v]
            if dv == 0:
                continue
            terms += 1
            dvb = dv - hc[v]
            if dv <= thresh and dvb > 0 and dub > 0:
                if not marked:
                    _set_marks(mark, arcs, a, e_, np.bool_(True))
                    marked = True
                lo = np.uint64(start[v])
                exact += _count_marked(mark, arcs, lo, lo + np.uint64(dv))
                continue
            h = 0
            for q in range(uwh):
                h += popcount(H[uu, q] & H[v, q])
            exact += h
            if dub == 0 or dvb == 0:
                continue
            e, st, z = _bloom_term(F, uu, v, uq0, wt, Fb, u, dub, dvb, nbits, b, est, clamp, ctab, stab)
            tot += e
            var += st * st
            sd += st
            sat += z
            nest += 1
        if marked:
            _set_marks(mark, arcs, a, e_, np.bool_(False))
    _add_totals(out, exact, tot, var, sd, sat, nest, terms)


@njit(cache=True, parallel=True)
def _triangles_bloom_total(start, dplus, arcs, est, clamp, H, wh, F, q0, nbits, b, ctab, stab, hc, thresh,
                           nthreads):
    """Estimated triangles from split Bloom sketches of an orientation (the layouts of
    :func:`_triangles_bloom_part`); the same float64[7] as :func:`_cliques_sketch_total`."""
    n = dplus.shape[0]
    parts = np.zeros((nthreads, 7), np.float64)
    for t in prange(nthreads):
        out = np.zeros(7, np.float64)
        # np.int64(t): the parfor's body is retyped with an unsigned t, which would compile the
        # part a second time
        _triangles_bloom_part(start, dplus, arcs, np.int64(t), nthreads, est, clamp, H, wh, F, q0, nbits, b, ctab,
                              stab, hc, thresh, np.zeros(n, np.bool_), out)
        for j in range(7):  # explicit loops: a slice assignment or a sum with an axis costs seconds of compile
            parts[t, j] = out[j]
    return _sum_parts(parts)


def triangles_bloom_serial(start, dplus, arcs, est, clamp, H, wh, F, q0, nbits, b, ctab, stab, hc, thresh, nthreads):
    """:func:`_triangles_bloom_total` on the calling thread, part after part: the same compiled
    part function, the same parts summed in the same order, so the same float64[7] to the last
    bit, without a parallel kernel's compile (seconds more): for small graphs."""
    parts = np.zeros((nthreads, 7), np.float64)
    mark = np.zeros(dplus.shape[0], np.bool_)  # every part leaves it cleared
    for t in range(nthreads):
        _triangles_bloom_part(start, dplus, arcs, t, nthreads, est, clamp, H, wh, F, q0, nbits, b, ctab, stab, hc,
                              thresh, mark, parts[t])
    total = np.zeros(7, np.float64)
    for t in range(nthreads):  # in the order of _sum_parts
        total += parts[t]
    return total


@njit(cache=True, inline="always")
def _merge_branch_free(MA, a, sx, MB, c, sy, limit):
    """:func:`bottomk_merge` without data-dependent branches in the loop (a sorted row holds
    distinct values, so each step advances the side(s) holding the smaller value by a
    comparison's outcome, which a branch predictor cannot guess); one side's tail is then taken
    in one step. Returns (taken, common, last) as :func:`bottomk_merge` does."""
    i = 0
    j = 0
    taken = 0
    common = 0
    last = np.uint32(0)
    while taken < limit and i < sx and j < sy:
        x = MA[a, i]
        y = MB[c, j]
        le = np.int64(x <= y)
        ge = np.int64(y <= x)
        last = min(x, y)
        i += le
        j += ge
        common += le & ge
        taken += 1
    rem = limit - taken
    if rem > 0:
        if i < sx:
            t = min(rem, sx - i)
            last = MA[a, i + t - 1]
            taken += t
        elif j < sy:
            t = min(rem, sy - j)
            last = MB[c, j + t - 1]
            taken += t
    return taken, common, last


@njit(cache=True, inline="always")
def _pair_bottomk_lean(M, a, sx, c, sy, dx, dy, kmv, clamp):
    """:func:`pair_bottomk` over one sketch array with the branch-free merge (same values)."""
    k = M.shape[1]
    if sx == dx and sy == dy:
        taken, common, last = _merge_branch_free(M, a, sx, M, c, sy, sx + sy)
        return float(common), 0.0
    taken, common, last = _merge_branch_free(M, a, sx, M, c, sy, k)
    return bottomk_estimate(common, last, k, dx, dy, kmv, clamp)


@njit(cache=True)
def _triangles_bottomk_part(optr, oind, t, nthreads, kmv, clamp, M, S, thresh, mark, out):
    """The triangle kernel for bottom-k sketches (1-hash MinHash, KMV), the lean twin of the
    generic kernel for k = 3: per arc u -> v either d+(v) marker lookups (d+(v) <= thresh) or
    one estimate from a branch-free merge of the two sketches."""
    n = optr.shape[0] - 1
    exact = 0
    tot = 0.0
    var = 0.0
    sd = 0.0
    nest = 0
    terms = 0
    for u in range(t, n, nthreads):
        a = optr[u]
        e_ = optr[u + 1]
        d = e_ - a
        if d < 2:
            continue
        marked = False
        for j in range(a, e_):
            v = oind[j]
            lo = optr[v]
            hi = optr[v + 1]
            dv = hi - lo
            if dv == 0:
                continue
            terms += 1
            if dv <= thresh:
                if not marked:
                    _set_marks(mark, oind, a, e_, True)
                    marked = True
                exact += _count_marked(mark, oind, lo, hi)
                continue
            e, w = _pair_bottomk_lean(M, u, S[u], v, S[v], d, dv, kmv, clamp)
            tot += e
            var += w
            sd += math.sqrt(w)
            if w > 0.0:
                nest += 1
        if marked:
            _set_marks(mark, oind, a, e_, False)
    _add_totals(out, exact, tot, var, sd, 0, nest, terms)


@njit(cache=True, parallel=True)
def _triangles_bottomk_total(optr, oind, kmv, clamp, M, S, thresh, nthreads):
    """Estimated triangles from bottom-k sketches of the out-neighbourhoods; the same float64[7]
    as :func:`_cliques_sketch_total`."""
    n = optr.shape[0] - 1
    parts = np.zeros((nthreads, 7), np.float64)
    for t in prange(nthreads):
        out = np.zeros(7, np.float64)
        _triangles_bottomk_part(optr, oind, np.int64(t), nthreads, kmv, clamp, M, S, thresh, np.zeros(n, np.bool_), out)
        for j in range(7):  # explicit loops: a slice assignment or a sum with an axis costs seconds of compile
            parts[t, j] = out[j]
    return _sum_parts(parts)
