"""Kernels of temporal closure prediction: the projected graph of a sequence of items, candidate
enumeration (open triangles, wedges, 4-sets one pair short), closure labels and local scores.

Contract: graphmine CSR (rows sorted, int64 here), items as ``item_ptr``/``item_nodes`` (int64,
every item's vertices distinct), the vertex -> item incidence ``node_ptr``/``node_items`` with each
vertex's items in increasing item index (items are sorted by time, so "the items of v before the
cut" is a prefix found by binary search). Candidate tuples are int64 rows; a candidate with a
missing pair stores it in columns 0 and 1. Parallel loops give thread ``t`` the rows
``t, t + nthreads, ...`` and each row writes only its own slots. Sampling keeps a candidate when
a splitmix64 hash of (seed, its vertices) falls below a threshold, so the sample does not depend
on the thread count or the enumeration order. Never validates, never raises.
"""

import numpy as np
from numba import njit, prange

from ..cliques._clique_kernels import sort3
from .._primitives.csr_kernels import _max_row
from .._primitives.setops import gallop, intersect_into, lower_bound

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

# columns of the local score matrix (_local_scores)
HM, GM, AM, CN, JACCARD, AA, PA, SPA = 0, 1, 2, 3, 4, 5, 6, 7
W_MIN, W_MEAN, W_MAX, D_MIN, D_MEAN, D_MAX, S_MIN, S_MEAN, S_MAX, C_MIN, C_MEAN, C_MAX = range(8, 20)
N_LOCAL = 20


@njit(cache=True, nogil=True)
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def tuple_hash(seed, a, b, c, d):
    """64 random bits of (seed, a, b, c, d); pass -1 for unused vertices."""
    h = _mix(np.uint64(seed) + _GOLDEN)
    h = _mix(h ^ np.uint64(a + 1))
    h = _mix(h ^ np.uint64(b + 1))
    h = _mix(h ^ np.uint64(c + 1))
    return _mix(h ^ np.uint64(d + 1))


# -- items and the projected graph -------------------------------------------------------------

@njit(cache=True, parallel=True, nogil=True)
def item_pair_keys(item_ptr, item_nodes, n_items, n_nodes, offsets, nthreads):
    """Key min(u, v) * n_nodes + max(u, v) of every vertex pair inside each of items 0..n_items-1."""
    out = np.empty(offsets[n_items], np.int64)
    for t in prange(nthreads):
        for i in range(t, n_items, nthreads):
            a = item_ptr[i]
            b = item_ptr[i + 1]
            pos = offsets[i]
            for x in range(a, b):
                u = item_nodes[x]
                for y in range(x + 1, b):
                    v = item_nodes[y]
                    out[pos] = u * n_nodes + v if u < v else v * n_nodes + u
                    pos += 1
    return out


@njit(cache=True, nogil=True)
def _item_range(node_ptr, node_items, v, lo, hi):
    """Positions [s, e) of the items of v with index in [lo, hi)."""
    a = node_ptr[v]
    b = node_ptr[v + 1]
    s = lower_bound(node_items, a, b, lo)
    return s, lower_bound(node_items, s, b, hi)


@njit(cache=True, nogil=True)
def _seek(x, s, e, v, used):
    """Gallop s forward to the first entry >= v of the sorted x[s:e] (positions only move
    forward); returns (s, state): 1 when x[s] == v (or the list is unused), 0 when v is absent,
    -1 when the list holds nothing >= v any more."""
    if not used:
        return s, 1
    s = gallop(x, s, e, v)
    if s >= e:
        return s, -1
    return s, 1 if x[s] == v else 0


@njit(cache=True, nogil=True)
def cooccur(node_ptr, node_items, a, b, c, d, lo, hi):
    """Whether one item with index in [lo, hi) holds a, b and (if >= 0) c and d: walk the
    shortest of their item lists and gallop in the others."""
    s0, e0 = _item_range(node_ptr, node_items, a, lo, hi)
    s1, e1 = _item_range(node_ptr, node_items, b, lo, hi)
    s2, e2 = _item_range(node_ptr, node_items, c, lo, hi) if c >= 0 else (0, 1)
    s3, e3 = _item_range(node_ptr, node_items, d, lo, hi) if d >= 0 else (0, 1)
    if e0 == s0 or e1 == s1 or e2 == s2 or e3 == s3:
        return False
    # the shortest list leads (swap it into slot 0)
    if e1 - s1 < e0 - s0:
        s0, e0, s1, e1 = s1, e1, s0, e0
    if c >= 0 and e2 - s2 < e0 - s0:
        s0, e0, s2, e2 = s2, e2, s0, e0
    if d >= 0 and e3 - s3 < e0 - s0:
        s0, e0, s3, e3 = s3, e3, s0, e0
    for p in range(s0, e0):
        it = node_items[p]
        s1, h1 = _seek(node_items, s1, e1, it, True)
        s2, h2 = _seek(node_items, s2, e2, it, c >= 0)
        s3, h3 = _seek(node_items, s3, e3, it, d >= 0)
        if h1 < 0 or h2 < 0 or h3 < 0:
            return False
        if h1 + h2 + h3 == 3:
            return True
    return False


@njit(cache=True, nogil=True)
def _adjacent(indptr, indices, a, b):
    """Whether b is in a's (or a in b's, the shorter) sorted row."""
    if indptr[a + 1] - indptr[a] > indptr[b + 1] - indptr[b]:
        a, b = b, a
    p = lower_bound(indices, indptr[a], indptr[a + 1], b)
    return p < indptr[a + 1] and indices[p] == b


@njit(cache=True, nogil=True)
def _weight(indptr, indices, weights, a, b):
    p = lower_bound(indices, indptr[a], indptr[a + 1], b)
    if p < indptr[a + 1] and indices[p] == b:
        return weights[p]
    return 0.0


@njit(inline="always")
def _open_pair(indptr, indices, seed, thr, sample, a, b, c, d):
    """Whether the candidate (a, b, c[, d]) with missing pair (a, b) is kept: the hash sample
    keeps it and a, b are not linked."""
    if sample and tuple_hash(seed, a, b, c, d) >= thr:
        return False
    return not _adjacent(indptr, indices, a, b)


@njit(inline="always")
def _put_row(out, r, a, b, c, d):
    """Row r of the candidate table ``out`` = (a, b, c[, d]); nothing when ``out`` is empty (the
    counting pass)."""
    if out.shape[0] == 0:
        return
    out[r, 0] = a
    out[r, 1] = b
    out[r, 2] = c
    if out.shape[1] > 3:
        out[r, 3] = d


# -- candidates --------------------------------------------------------------------------------

# What a pass over the common neighbours of each edge counts (a constant per kernel below).
_TRIANGLES = 0  # all triangles, per lowest (oriented) vertex
_OPEN_TRIANGLES = 1  # the open triangles kept by the sample
_COMMON_PAIRS = 2  # pairs of common neighbours of the edges (u, v), v > u
_OPEN_CLIQUE4 = 3  # the 4-sets one pair short kept by the samples


@njit(inline="always")
def _common_pass(ptr, idx, mode, node_ptr, node_items, n_past, seed, edge_thr, edge_sample, thr, sample, offsets,
                 out, nthreads):
    """Per vertex u, over its edges (u, v) (the triangle modes: every arc of the oriented rows
    ``ptr``/``idx``; the 4-set modes: v > u in the undirected rows), the common neighbours of u and
    v, counted or turned into candidates as ``mode`` says; with a non-empty ``out`` the candidates
    of u are written from ``offsets[u]``. The kernels pass ``mode`` as a constant, so after inlining
    each keeps only its own branch."""
    n = ptr.shape[0] - 1
    counts = np.zeros(n, np.int64)
    maxd = _max_row(ptr)
    for t in prange(nthreads):
        buf = np.empty(maxd + 1, np.int64)
        for u in range(t, n, nthreads):
            ra = ptr[u]
            rb = ptr[u + 1]
            k = 0
            for p in range(ra if mode <= _OPEN_TRIANGLES else lower_bound(idx, ra, rb, u + 1), rb):
                v = idx[p]
                if mode == _OPEN_CLIQUE4 and edge_sample and tuple_hash(seed + 1, u, v, -1, -1) >= edge_thr:
                    continue
                m = intersect_into(idx, ra, rb, idx, ptr[v], ptr[v + 1], buf)
                if mode == _TRIANGLES:
                    k += m
                elif mode == _COMMON_PAIRS:
                    k += m * (m - 1) // 2
                elif mode == _OPEN_TRIANGLES:
                    for q in range(m):
                        a, b, w = sort3(u, v, buf[q])
                        if sample and tuple_hash(seed, a, b, w, -1) >= thr:
                            continue
                        if cooccur(node_ptr, node_items, a, b, w, -1, 0, n_past):
                            continue
                        _put_row(out, offsets[u] + k, a, b, w, -1)
                        k += 1
                else:
                    for i in range(m):
                        a = buf[i]
                        for j in range(i + 1, m):
                            b = buf[j]
                            if _open_pair(ptr, idx, seed, thr, sample, a, b, u, v):
                                _put_row(out, offsets[u] + k, a, b, u, v)
                                k += 1
            counts[u] = k
    return counts


def triangle_counts(fptr, fidx, nthreads):
    """Triangles of the graph whose forward (degree-oriented) rows are fptr/fidx, per lowest vertex."""
    # the empty candidate table comes from numpy: allocated in the kernel, it would compile numba's
    # np.empty for a 2-D shape, which the triangle path needs nowhere else
    if nthreads == 1 and not _triangle_counts.overloads:  # one thread: the serial twin (see below)
        return _triangle_counts_serial(fptr, fidx, np.empty((0, 3), np.int64), 1)
    return _triangle_counts(fptr, fidx, np.empty((0, 3), np.int64), nthreads)


@njit(cache=True, parallel=True, nogil=True)
def _triangle_counts(fptr, fidx, no_rows, nthreads):
    return _common_pass(fptr, fidx, _TRIANGLES, fptr, fidx, 0, 0, np.uint64(0), False, np.uint64(0), False, fptr,
                        no_rows, nthreads)


@njit(cache=True, parallel=True, nogil=True)
def open_triangles(fptr, fidx, node_ptr, node_items, n_past, seed, thr, sample, offsets, out, nthreads):
    """Open triangles (all three pairs linked, never one item before index n_past) kept by the
    hash sample; per lowest (oriented) vertex: counts, and with a non-empty ``out`` the sorted
    triples written from ``offsets[u]``."""
    return _common_pass(fptr, fidx, _OPEN_TRIANGLES, node_ptr, node_items, n_past, seed, thr, False, thr, sample,
                        offsets, out, nthreads)


@njit(cache=True, parallel=True, nogil=True)
def edge_common_counts(indptr, indices, nthreads):
    """Per vertex u: sum over its neighbours v > u of C(|N(u) ∩ N(v)|, 2), the 4-sets that the
    edge (u, v) and two common neighbours span (closed 4-cliques included)."""
    return _common_pass(indptr, indices, _COMMON_PAIRS, indptr, indices, 0, 0, np.uint64(0), False, np.uint64(0),
                        False, indptr, np.empty((0, 4), np.int64), nthreads)


@njit(cache=True, parallel=True, nogil=True)
def open_clique4(indptr, indices, seed, edge_thr, edge_sample, thr, sample, offsets, out, nthreads):
    """4-sets {a, b, u, v} with five of their six pairs linked, (a, b) the missing one: per
    vertex u, over its edges (u, v), v > u, kept by the edge sample, and over pairs a < b of
    common neighbours kept by the candidate sample. Rows of ``out``: (a, b, u, v)."""
    return _common_pass(indptr, indices, _OPEN_CLIQUE4, indptr, indices, 0, seed, edge_thr, edge_sample, thr, sample,
                        offsets, out, nthreads)


@njit(cache=True, parallel=True, nogil=True)
def open_wedges(indptr, indices, seed, thr, sample, offsets, out, nthreads):
    """Wedges a - c - b with a, b not linked, kept by the hash sample; per centre c. Rows of
    ``out``: (a, b, c) with a < b (the missing pair first)."""
    n = indptr.shape[0] - 1
    counts = np.zeros(n, np.int64)
    for t in prange(nthreads):
        for c in range(t, n, nthreads):
            k = 0
            for i in range(indptr[c], indptr[c + 1]):
                a = indices[i]
                for j in range(i + 1, indptr[c + 1]):
                    b = indices[j]
                    if _open_pair(indptr, indices, seed, thr, sample, a, b, c, -1):
                        _put_row(out, offsets[c] + k, a, b, c, -1)
                        k += 1
            counts[c] = k
    return counts


# -- labels --------------------------------------------------------------------------------------

@njit(cache=True, parallel=True, nogil=True)
def closure_labels(tuples, simplex, node_ptr, node_items, lo, hi, nthreads):
    """1 where the candidate closes in items [lo, hi): all its vertices in one item (``simplex``)
    or its missing pair (columns 0, 1) in one item."""
    n, k = tuples.shape
    out = np.zeros(n, np.int8)
    for t in prange(nthreads):
        for i in range(t, n, nthreads):
            a = tuples[i, 0]
            b = tuples[i, 1]
            if simplex:
                c = tuples[i, 2]
                d = tuples[i, 3] if k > 3 else -1
                out[i] = cooccur(node_ptr, node_items, a, b, c, d, lo, hi)
            else:
                out[i] = cooccur(node_ptr, node_items, a, b, -1, -1, lo, hi)
    return out


# -- local scores ----------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _subset_common(indptr, indices, deg, x0, x1, x2, x3, mask, want_aa):
    """|∩ N(x_i)| over the vertices whose bit is set in mask (x3 = -1 when k = 3), and the sum of
    1 / log deg(z) over that intersection when want_aa: walk the shortest row, binary-search the rest."""
    best = -1
    bestd = 1 << 62
    for i in range(4):
        if mask & (1 << i):
            x = x0 if i == 0 else (x1 if i == 1 else (x2 if i == 2 else x3))
            d = indptr[x + 1] - indptr[x]
            if d < bestd:
                bestd = d
                best = x
    cnt = 0
    aa = 0.0
    for p in range(indptr[best], indptr[best + 1]):
        z = indices[p]
        ok = True
        for i in range(4):
            if not (mask & (1 << i)):
                continue
            x = x0 if i == 0 else (x1 if i == 1 else (x2 if i == 2 else x3))
            if x == best:
                continue
            q = lower_bound(indices, indptr[x], indptr[x + 1], z)
            if q >= indptr[x + 1] or indices[q] != z:
                ok = False
                break
        if ok:
            cnt += 1
            if want_aa and deg[z] > 1:
                aa += 1.0 / np.log(deg[z])
    return cnt, aa


@njit(cache=True, nogil=True)
def _popcount4(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


@njit(cache=True, parallel=True, nogil=True)
def local_scores(tuples, indptr, indices, weights, deg, sdeg, nthreads):
    """The local scores of every candidate (columns HM .. C_MAX), for k = 3 or 4 vertices.

    Means run over the candidate's linked pairs (weight > 0); CN, Jaccard and Adamic-Adar use the
    vertices adjacent to all k; PA multiplies the projected degrees, SPA the item counts; the
    component columns are min / mean / max of the linked pair weights, the degrees, the item
    counts and the pairwise common-neighbour counts."""
    n, k = tuples.shape
    out = np.zeros((n, N_LOCAL), np.float64)
    full = (1 << k) - 1
    for t in prange(nthreads):
        for r in range(t, n, nthreads):
            x0 = tuples[r, 0]
            x1 = tuples[r, 1]
            x2 = tuples[r, 2]
            x3 = tuples[r, 3] if k > 3 else -1
            # pair weights and pairwise common neighbours
            nl = 0
            inv = 0.0
            logs = 0.0
            s = 0.0
            wmin = np.inf
            wmax = 0.0
            cmin = np.inf
            cmax = 0.0
            csum = 0.0
            union = 0.0
            for m in range(1, full + 1):
                bits = _popcount4(m)
                if bits == 1:
                    i = 0 if m == 1 else (1 if m == 2 else (2 if m == 4 else 3))
                    x = x0 if i == 0 else (x1 if i == 1 else (x2 if i == 2 else x3))
                    union += deg[x]
                    continue
                cnt, aa = _subset_common(indptr, indices, deg, x0, x1, x2, x3, m, m == full)
                union += cnt if bits % 2 == 1 else -cnt
                if bits == 2:
                    i = -1
                    j = -1
                    for b in range(4):
                        if m & (1 << b):
                            if i < 0:
                                i = b
                            else:
                                j = b
                    xi = x0 if i == 0 else (x1 if i == 1 else (x2 if i == 2 else x3))
                    xj = x0 if j == 0 else (x1 if j == 1 else (x2 if j == 2 else x3))
                    w = _weight(indptr, indices, weights, xi, xj)
                    if w > 0:
                        nl += 1
                        inv += 1.0 / w
                        logs += np.log(w)
                        s += w
                        wmin = min(wmin, w)
                        wmax = max(wmax, w)
                    cmin = min(cmin, float(cnt))
                    cmax = max(cmax, float(cnt))
                    csum += cnt
                if m == full:
                    out[r, CN] = cnt
                    out[r, AA] = aa
            if nl > 0:
                out[r, HM] = nl / inv
                out[r, GM] = np.exp(logs / nl)
                out[r, AM] = s / nl
                out[r, W_MIN] = wmin
                out[r, W_MEAN] = s / nl
                out[r, W_MAX] = wmax
            out[r, JACCARD] = out[r, CN] / union if union > 0 else 0.0
            pa = 1.0
            spa = 1.0
            dmin = np.inf
            dmax = 0.0
            dsum = 0.0
            smin = np.inf
            smax = 0.0
            ssum = 0.0
            for i in range(k):
                x = x0 if i == 0 else (x1 if i == 1 else (x2 if i == 2 else x3))
                d = float(deg[x])
                sd = float(sdeg[x])
                pa *= d
                spa *= sd
                dmin = min(dmin, d)
                dmax = max(dmax, d)
                dsum += d
                smin = min(smin, sd)
                smax = max(smax, sd)
                ssum += sd
            out[r, PA] = pa
            out[r, SPA] = spa
            out[r, D_MIN] = dmin
            out[r, D_MEAN] = dsum / k
            out[r, D_MAX] = dmax
            out[r, S_MIN] = smin
            out[r, S_MEAN] = ssum / k
            out[r, S_MAX] = smax
            npairs = k * (k - 1) // 2
            out[r, C_MIN] = cmin
            out[r, C_MEAN] = csum / npairs
            out[r, C_MAX] = cmax
    return out


# -- serial twins ---------------------------------------------------------------------------------

def _serial_twin(kernel):
    """The serial twin of a parallel kernel above: its own Python function compiled without
    ``parallel=True`` (``prange`` runs as ``range``; called with nthreads = 1 it walks every row
    in order), under a name of its own so that numba caches it apart. Its compile skips numba's
    parfor passes, a few seconds of a first run's compile on a job that takes milliseconds."""
    import types

    f = kernel.py_func
    g = types.FunctionType(f.__code__, f.__globals__, f.__name__ + "_serial", f.__defaults__, f.__closure__)
    g.__qualname__ = f.__qualname__ + "_serial"
    g.__module__ = f.__module__
    g.__doc__ = f"Serial twin of :func:`{f.__name__}` (the same code without parallel=True)."
    return njit(cache=True, nogil=True)(g)


_triangle_counts_serial = _serial_twin(_triangle_counts)
open_triangles_serial = _serial_twin(open_triangles)
closure_labels_serial = _serial_twin(closure_labels)
local_scores_serial = _serial_twin(local_scores)
