"""Exact triangle and k-clique kernels over an acyclic orientation of the graph.

Contract: ``optr``/``oind`` is the out-neighbourhood CSR of an acyclic orientation (each
undirected edge appears once), rows sorted by vertex id. Every clique is then found exactly once,
from its lowest-ranked vertex. Kernels never validate and never raise. Counts are int64 and exact.

Load balance: the parallel kernels cut their work into many more chunks than threads and the
threads claim chunks one at a time from a shared atomic counter (dynamic scheduling), so a thread
that drew heavy chunks never holds the others up. Triangle chunks are equal ranges of arcs, not of
vertices, so a hub's arcs are spread over several chunks and threads; k-clique chunks are ranges of
roots of about equal estimated work, claimed from the heaviest end. Per-thread scratch is a bit
set over the vertices for triangles (n / 8 bytes) and O(k * d^2 / 64) words for k-cliques (d the
largest out-degree, at most the degeneracy). Each kernel has a serial twin for small graphs, where
waking a thread pool costs more than the count.

k-cliques: the subgraph induced by a root's out-neighbours becomes a dense bit matrix (the
degeneracy order keeps it small: one machine word per row for most roots), and the depth-first
search below the root ANDs rows and counts bits; the last two levels are counted, not listed.
"""

import numpy as np
from numba import njit, prange

from .._primitives.clique_kernels import _gather_marked, _windowed_cliques  # noqa: F401 (_gather_marked: the peeling kernels)
from .._primitives.csr_kernels import _orient_relabel_serial
from .._primitives.setops import SKEW, fetch_add, intersect_into, intersect_positions, lower_bound, lowest_bit, popcount

# Hot loops index with unsigned integers: numba then skips its negative-index wraparound test,
# which costs more than the lookup itself in these loops (measured 2.6x on triangle counting).
U0 = np.uint64(0)
U1 = np.uint64(1)

# Chunks per thread: enough that the last chunks claimed are small next to a thread's share.
CHUNKS_PER_THREAD = 64
# Roots with more out-neighbours than this count with sorted lists instead of a bit matrix
# (BITSET_MAX^2 / 8 bytes of scratch per thread).
BITSET_MAX = 2048


@njit(cache=True, inline="always")
def sort3(a, b, c):
    """The three values in increasing order (a triangle's vertices, say)."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


@njit(cache=True)
def _row_of_arc(optr, a):
    """The row holding arc a: the last u with optr[u] <= a (binary search)."""
    lo = 0
    hi = optr.shape[0] - 1
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if optr[mid] <= a:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True, inline="always")
def _row_span(optr, u, a, b):
    """(u, ra, rb, e) for the next piece of a chunk of arcs a..b-1 (a < b): u the row holding arc
    a (found from the given u on), [ra, rb) the whole row as uint64 offsets, e the end of the
    chunk's arcs in it (the next piece starts at e)."""
    while optr[u + 1] <= a:
        u += 1
    return u, np.uint64(optr[u]), np.uint64(optr[u + 1]), min(b, optr[u + 1])


@njit(cache=True)
def _mark_words(n):
    """A zeroed bit set over n vertices: n / 8 bytes per thread (a megabit graph: 128 KiB, which
    stays in a core's own cache where a byte per vertex would not)."""
    return np.zeros((n >> 6) + 1, np.uint64)


@njit(cache=True)
def _triangles_arcs(optr, oind, a, b, mark):
    """Triangles closed by the arcs a..b-1 (u -> v, v -> w with u -> w marked). The arcs of one
    chunk may start or end inside a row, so u's row is marked whole whenever the chunk enters it.
    ``mark`` (a bit set from :func:`_mark_words`) is all zero on entry and exit. The inner loop
    adds the tested bit instead of branching on it."""
    u = _row_of_arc(optr, a)
    c = U0  # unsigned, as the bits added: numba would widen a signed sum to float
    S6 = np.uint64(6)
    M63 = np.uint64(63)
    while a < b:
        u, ra, rb, e = _row_span(optr, u, a, b)
        if rb - ra >= np.uint64(2):
            for j in range(ra, rb):
                w = np.uint64(oind[j])
                mark[w >> S6] |= U1 << (w & M63)
            for j in range(np.uint64(a), np.uint64(e)):
                v = np.uint64(oind[j])
                for l in range(np.uint64(optr[v]), np.uint64(optr[v + U1])):
                    w = np.uint64(oind[l])
                    c += (mark[w >> S6] >> (w & M63)) & U1
            for j in range(ra, rb):
                mark[np.uint64(oind[j]) >> S6] = U0
        a = e
    return np.int64(c)


@njit(cache=True)
def _triangles_part(optr, oind, t, nthreads, mark):
    """Triangles found from the vertices u = t, t + nthreads, ... (a static split, for callers
    that list or partition by vertex); ``mark`` (uint8) is all zero on entry and exit."""
    n = optr.shape[0] - 1
    c = 0
    for u in range(t, n, nthreads):
        a = np.uint64(optr[u])
        b = np.uint64(optr[u + 1])
        if b - a < np.uint64(2):
            continue
        for j in range(a, b):
            mark[np.uint64(oind[j])] = 1
        for j in range(a, b):
            v = np.uint64(oind[j])
            for l in range(np.uint64(optr[v]), np.uint64(optr[v + U1])):
                c += mark[np.uint64(oind[l])]
        for j in range(a, b):
            mark[np.uint64(oind[j])] = 0
    return c


@njit(cache=True)
def _n_chunks(m, nthreads):
    return max(1, min(m, nthreads * CHUNKS_PER_THREAD))


@njit(cache=True, nogil=True, parallel=True)
def _triangles_total(optr, oind, nthreads, cancel):
    """Triangles, the arcs cut into equal chunks claimed dynamically. ``cancel[0] != 0`` (set by
    another thread: graphmine/_runtime/interrupt.py) stops the claims; the count is then partial."""
    n = optr.shape[0] - 1
    m = optr[n]
    nchunks = _n_chunks(m, nthreads)
    counter = np.zeros(1, np.int64)
    parts = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        mark = _mark_words(n)
        c = 0
        while True:
            i = fetch_add(counter, 0, 1)
            if i >= nchunks or fetch_add(cancel, 0, 0) != 0:  # an atomic read of the flag
                break
            c += _triangles_arcs(optr, oind, i * m // nchunks, (i + 1) * m // nchunks, mark)
        parts[t] = c
    return parts.sum()


@njit(cache=True, nogil=True)
def _triangles_total_serial(optr, oind):
    n = optr.shape[0] - 1
    return _triangles_arcs(optr, oind, 0, optr[n], _mark_words(n))


@njit(cache=True, nogil=True)
def _triangles_small(indptr, indices):
    """Rank by (degree, id), orient and count in one call: for small graphs the per-call
    overhead of separate steps outweighs the count itself."""
    n = indptr.shape[0] - 1
    # rank by (degree, id): a counting sort over the degrees
    maxdeg = 0
    for u in range(n):
        maxdeg = max(maxdeg, indptr[u + 1] - indptr[u])
    start = np.zeros(maxdeg + 2, np.int64)
    for u in range(n):
        start[indptr[u + 1] - indptr[u] + 1] += 1
    for d in range(maxdeg + 1):
        start[d + 1] += start[d]
    rank = np.empty(n, np.int64)
    for u in range(n):
        d = indptr[u + 1] - indptr[u]
        rank[u] = start[d]
        start[d] += 1
    optr, oind = _orient_relabel_serial(indptr, indices, rank)
    return _triangles_arcs(optr, oind, 0, optr[n], _mark_words(n))


@njit(cache=True)
def _triangles_credit_arcs(optr, oind, a, b, mark, per_vertex):
    """As :func:`_triangles_arcs`, crediting every triangle to its three vertices. Each arc walk
    adds its 0/1 hit without a branch and u's and v's counts stay in registers, so the inner loop
    does one load, one add and one store whatever the hit rate."""
    u = _row_of_arc(optr, a)
    while a < b:
        u, ra, rb, e = _row_span(optr, u, a, b)
        if rb - ra >= np.uint64(2):
            for j in range(ra, rb):
                mark[np.uint64(oind[j])] = 1
            cu = 0
            for j in range(np.uint64(a), np.uint64(e)):
                v = np.uint64(oind[j])
                cv = 0
                for l in range(np.uint64(optr[v]), np.uint64(optr[v + U1])):
                    w = np.uint64(oind[l])
                    hit = mark[w]
                    cv += hit
                    per_vertex[w] += hit
                per_vertex[v] += cv
                cu += cv
            per_vertex[u] += cu
            for j in range(ra, rb):
                mark[np.uint64(oind[j])] = 0
        a = e


@njit(cache=True, nogil=True, parallel=True)
def _triangles_per_vertex(optr, oind, nthreads, cancel):
    """Triangles through every vertex; each thread accumulates into its own row, chunks of arcs
    claimed dynamically (and ``cancel`` polled) as in :func:`_triangles_total`."""
    n = optr.shape[0] - 1
    m = optr[n]
    nchunks = _n_chunks(m, nthreads)
    counter = np.zeros(1, np.int64)
    part = np.zeros((nthreads, n), np.int64)
    for t in prange(nthreads):
        mark = np.zeros(n, np.uint8)
        while True:
            i = fetch_add(counter, 0, 1)
            if i >= nchunks or fetch_add(cancel, 0, 0) != 0:
                break
            _triangles_credit_arcs(optr, oind, i * m // nchunks, (i + 1) * m // nchunks, mark, part[t])
    out = np.zeros(n, np.int64)
    for t in range(nthreads):
        out += part[t]
    return out


@njit(cache=True, nogil=True)
def _triangles_per_vertex_serial(optr, oind):
    n = optr.shape[0] - 1
    out = np.zeros(n, np.int64)
    _triangles_credit_arcs(optr, oind, 0, optr[n], np.zeros(n, np.uint8), out)
    return out


@njit(cache=True, inline="always")
def _clique_step(cand, size, at, level, bottom, ptr, ind):
    """One step of a depth-first clique search over sorted candidate lists, levels ``bottom`` and
    up: cand[l, :size[l]] holds the vertices adjacent to all those chosen above level l, at[l] the
    next one to try. Backs up to the deepest level with a candidate left, takes it (w) and puts
    the later candidates of that level adjacent to w (row w of ``ptr``/``ind``) in
    cand[level + 1, :m]. Returns (level, w, m); level < bottom once the search is done."""
    while level >= bottom and at[level] >= size[level]:
        level -= 1
    if level < bottom:
        return level, -1, 0
    w = cand[level, at[level]]
    at[level] += 1
    m = intersect_into(cand[level], at[level], size[level], ind, ptr[w], ptr[w + 1], cand[level + 1])
    return level, w, m


@njit(cache=True)
def _cliques_lists(optr, oind, k, a, b, min_d, cand, size):
    """k-cliques whose lowest-ranked vertex lies in [a, b) and has more than ``min_d``
    out-neighbours (roots too wide for a bit matrix): the list search over the whole graph as
    one block."""
    n = optr.shape[0] - 1
    lo = np.zeros(k, np.int64)
    hi = np.zeros(k, np.int64)
    for level in range(k):
        hi[level] = n
    pos = np.zeros(k - 1, np.int64)
    end = np.zeros(k - 1, np.int64)
    mark = np.zeros(n, np.uint8)
    c = 0
    for u in range(a, b):
        d = optr[u + 1] - optr[u]
        if d > min_d:
            for j in range(d):
                cand[0, j] = oind[optr[u] + j]
            size[0] = d
            c += _windowed_cliques((optr,), (oind,), lo, hi, k, cand, size, pos, end, mark, False, size, u)
    return c


@njit(cache=True)
def _local_matrix(u, optr, oind, rows, W, pos):
    """rows[i, :W] = the bitset of u's out-neighbours (numbered 0..d-1 in row order) that the
    i-th out-neighbour points to: the subgraph induced by N+(u), an upper-triangular bit matrix
    since rows are sorted and the orientation follows the vertex order."""
    a = optr[u]
    b = optr[u + 1]
    d = b - a
    for i in range(d):
        v = oind[a + i]
        for w in range(W):
            rows[i, w] = U0
        m = intersect_positions(oind, a + i + 1, b, oind, optr[v], optr[v + 1], pos)
        for q in range(m):
            p = pos[q] + i + 1
            rows[i, p >> 6] |= U1 << np.uint64(p & 63)


@njit(cache=True)
def _local_matrix_one_word(u, optr, oind, rows, pos):
    """:func:`_local_matrix` for d <= 64: each row is built in a register by a branch-free merge
    (a hit ORs in its bit), galloping only when the out-neighbour's row is much the longer."""
    a = optr[u]
    b = optr[u + 1]
    for i in range(b - a):
        v = oind[a + i]
        x0 = a + i + 1
        y0 = optr[v]
        y1 = optr[v + 1]
        if (y1 - y0) > SKEW * (b - x0):
            m = intersect_positions(oind, x0, b, oind, y0, y1, pos)
            word = U0
            for q in range(m):
                word |= U1 << np.uint64(pos[q] + i + 1)
            rows[i, 0] = word
            continue
        word = U0
        p = x0
        j = y0
        while p < b and j < y1:
            x = oind[p]
            y = oind[j]
            word |= np.uint64(x == y) << np.uint64(p - a)
            p += x <= y
            j += y <= x
        rows[i, 0] = word


@njit(cache=True)
def _count_one_word(rows, d, k, cand, rem):
    """k-cliques of the root's subgraph (minus the root) when it has d <= 64 vertices: every set
    is one machine word. The last two levels are counted without listing them: a vertex v closes
    |cand & rows[v]| cliques when one vertex is missing, and the edges inside cand when two are."""
    full = ~U0 if d == 64 else (U1 << np.uint64(d)) - U1
    count = 0
    level = 0
    cand[0] = full
    rem[0] = full
    while level >= 0:
        r0 = rem[level]
        if r0 == U0:
            level -= 1
            continue
        v = lowest_bit(r0)
        rem[level] = r0 & (r0 - U1)
        nxt = cand[level] & rows[v, 0]
        r = k - 2 - level  # vertices still needed after picking v
        if r == 1:
            count += popcount(nxt)
        elif r == 2:
            x = nxt
            while x != U0:
                w = lowest_bit(x)
                x &= x - U1
                count += popcount(x & rows[w, 0])
        elif popcount(nxt) >= r:
            level += 1
            cand[level] = nxt
            rem[level] = nxt
    return count


@njit(cache=True)
def _count_words(rows, d, W, k, cand, rem, word):
    """As :func:`_count_one_word` for W = ceil(d / 64) > 1 words per set. A vertex's row only
    holds higher vertices, so every AND starts at its own word."""
    count = 0
    for w in range(W):
        cand[0, w] = ~U0
    if d & 63:
        cand[0, W - 1] = (U1 << np.uint64(d & 63)) - U1
    level = 0
    word[0] = 0
    rem[0] = cand[0, 0]
    while level >= 0:
        r0 = rem[level]
        while r0 == U0 and word[level] + 1 < W:
            word[level] += 1
            r0 = cand[level, word[level]]
        if r0 == U0:
            level -= 1
            continue
        wv = word[level]
        v = wv * 64 + lowest_bit(r0)
        rem[level] = r0 & (r0 - U1)
        r = k - 2 - level
        if r == 1:
            for w in range(wv, W):
                count += popcount(cand[level, w] & rows[v, w])
        elif r == 2:
            nl = level + 1
            for w in range(wv, W):
                cand[nl, w] = cand[level, w] & rows[v, w]
            for wx in range(wv, W):
                x = cand[nl, wx]
                while x != U0:
                    y = wx * 64 + lowest_bit(x)
                    x &= x - U1
                    c = popcount(x & rows[y, wx])
                    for w in range(wx + 1, W):
                        c += popcount(cand[nl, w] & rows[y, w])
                    count += c
        else:
            nl = level + 1
            c = 0
            for w in range(wv, W):
                z = cand[level, w] & rows[v, w]
                cand[nl, w] = z
                c += popcount(z)
            if c >= r:
                for w in range(wv):
                    cand[nl, w] = U0
                level = nl
                word[level] = wv
                rem[level] = cand[level, wv]
    return count


@njit(cache=True)
def _clique_scratch(oind, k, max_out):
    """One thread's buffers: the bit matrix, its stacks and the list fallback's."""
    dm = min(max_out, BITSET_MAX)
    W = max(1, (dm + 63) >> 6)
    rows = np.empty((dm, W), np.uint64)
    pos = np.empty(max(1, max_out), np.int64)
    cand = np.empty((k, W), np.uint64)
    stack = np.empty(k, np.uint64)
    rem = np.empty(k, np.uint64)
    word = np.empty(k, np.int64)
    wide = max_out > BITSET_MAX
    lcand = np.empty((k - 1, max_out + 1 if wide else 1), oind.dtype)
    lsize = np.zeros(k - 1, np.int64)
    return rows, pos, cand, stack, rem, word, lcand, lsize


@njit(cache=True)
def _root_chunks(optr, lo, hi, nchunks):
    """Cut the roots lo..hi-1 into nchunks ranges of about equal estimated work d+(u)^2 (the
    bit matrix of a root costs that much; the cliques below it grow with it)."""
    cost = np.empty(hi - lo + 1, np.float64)
    cost[0] = 0.0
    for u in range(lo, hi):
        d = float(optr[u + 1] - optr[u])
        cost[u - lo + 1] = cost[u - lo] + d * d + 1.0
    cuts = np.empty(nchunks + 1, np.int64)
    total = cost[hi - lo]
    for c in range(nchunks + 1):
        cuts[c] = lo + np.searchsorted(cost, total * c / nchunks)
    cuts[0] = lo
    cuts[nchunks] = hi
    return cuts


@njit(cache=True, inline="always")
def _root_plan(optr, lo, hi, nthreads):
    """(cuts, counter): a dynamic schedule of the roots lo..hi-1 for nthreads threads, the cuts of
    :func:`_root_chunks` (CHUNKS_PER_THREAD chunks a thread, at most one a root) and the shared
    counter that :func:`_claim_chunk` advances."""
    nchunks = max(1, min(hi - lo, nthreads * CHUNKS_PER_THREAD))
    return _root_chunks(optr, lo, hi, nchunks), np.zeros(1, np.int64)


@njit(cache=True, inline="always")
def _claim_chunk(counter, cuts):
    """(r0, r1): the roots r0..r1-1 of the next unclaimed chunk of a :func:`_root_plan`, from the
    high end, where a degeneracy order puts the dense core; (-1, -1) once all are claimed."""
    nchunks = cuts.shape[0] - 1
    i = fetch_add(counter, 0, 1)
    if i >= nchunks:
        return -1, -1
    j = nchunks - 1 - i
    return cuts[j], cuts[j + 1]


@njit(cache=True)
def _cliques_span(optr, oind, k, a, b, scratch):
    """k-cliques whose lowest-ranked vertex lies in [a, b)."""
    rows, pos, cand, stack, rem, word, lcand, lsize = scratch
    c = 0
    wide = 0
    for u in range(a, b):
        d = optr[u + 1] - optr[u]
        if d < k - 1:
            continue
        if d > rows.shape[0]:
            wide += 1
        elif d <= 64:
            _local_matrix_one_word(u, optr, oind, rows, pos)
            c += _count_one_word(rows, d, k, stack, rem)
        else:
            W = (d + 63) >> 6
            _local_matrix(u, optr, oind, rows, W, pos)
            c += _count_words(rows, d, W, k, cand, rem, word)
    if wide:
        # roots too wide for a bit matrix, in a second pass: a call to the list search inside
        # the loop above slows the common path (measured 1.8x on ca-GrQc)
        c += _cliques_lists(optr, oind, k, a, b, rows.shape[0], lcand, lsize)
    return c


@njit(cache=True, nogil=True)
def _cliques_serial(optr, oind, k, max_out, lo, hi):
    """k-cliques whose lowest-ranked vertex lies in [lo, hi), on the calling thread."""
    return _cliques_span(optr, oind, k, lo, hi, _clique_scratch(oind, k, max_out))


@njit(cache=True, nogil=True, parallel=True)
def _cliques_range(optr, oind, k, max_out, lo, hi, nthreads):
    """k-cliques whose lowest-ranked vertex lies in [lo, hi) (the whole count: [0, n); a batch of
    a run with progress: part of it). The roots are cut into chunks of about equal estimated work,
    claimed dynamically from the high end, where a degeneracy order puts the dense core."""
    cuts, counter = _root_plan(optr, lo, hi, nthreads)
    parts = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        scratch = _clique_scratch(oind, k, max_out)
        c = 0
        while True:
            r0, r1 = _claim_chunk(counter, cuts)
            if r0 < 0:
                break
            c += _cliques_span(optr, oind, k, r0, r1, scratch)
        parts[t] = c
    return parts.sum()


@njit(cache=True)
def _list_triangles(optr, oind):
    """Every triangle once, as rows (a, b, c) with a < b < c, from an acyclic orientation with
    sorted out-rows (two passes: the core's count, then write)."""
    n = optr.shape[0] - 1
    mark = np.zeros(n, np.uint8)
    out = np.empty((_triangles_part(optr, oind, 0, 1, mark), 3), np.int64)
    k = 0
    for u in range(n):
        for i in range(optr[u], optr[u + 1]):
            mark[oind[i]] = 1
        for i in range(optr[u], optr[u + 1]):
            v = oind[i]
            for j in range(optr[v], optr[v + 1]):
                w = oind[j]
                if mark[w]:
                    a, b, c = sort3(u, v, w)
                    out[k, 0] = a
                    out[k, 1] = b
                    out[k, 2] = c
                    k += 1
        for i in range(optr[u], optr[u + 1]):
            mark[oind[i]] = 0
    return out
