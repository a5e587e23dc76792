"""CUDA kernels (numba-cuda) for Bloom-filter sketches of out-neighbourhoods and the triangle
estimate from them.

Contract: as :mod:`graphmine._primitives.sketch_kernels` and ``_approx_kernels`` (the CPU twins):
``optr``/``oind`` is an oriented CSR with ids relabelled by rank, ``seeds`` the (xor, odd
multiplier, offset) triples of :func:`graphmine.probgraph.sketches.hash_seeds`. The hash and the
bit positions are the CPU's, in the same masked 64-bit integer arithmetic, so the same seed gives
bit-for-bit the same filters. The estimate is the CPU kernel's, term by term; only the order in
which the float terms are summed differs (per thread here, reduced on the host). Kernels never
validate and never raise.
"""

import numpy as np
from numba import cuda, float64, int64

from .._primitives import sketch_kernels as _sk
from .._primitives.estimators import EST_AND, EST_LIMIT, EST_OR  # noqa: F401 (the CPU's codes, one definition)
from .._primitives.sketch_kernels import LOW6, ONE, S6, S32
from ._device_kernels import _lower_bound

BLOCK = 256  # largest block (the shared reduction arrays); a power of two


# The CPU's seeded bijection of 32-bit integers, compiled for the device from the same Python
# function (its constants are the CPU module's), so the filters cannot drift apart.
_hash32 = cuda.jit(device=True, inline=True)(_sk._hash32.py_func)


@cuda.jit(cache=True)
def _zero(a):
    """a[:] = 0 for a 2-D array (device memory is not cleared on allocation)."""
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    w = a.shape[1]
    while i < a.shape[0] * w:
        a[i // w, i % w] = 0
        i += stride


@cuda.jit(cache=True)
def _bloom_build(optr, oind, words, hub_words, base, seeds, filters, hubs, counts):
    """Row u: the Bloom filter of N+(u) (elements < base when hub_words > 0), the exact bitmap of
    its elements >= base (bit x - base) and their number. One thread per row."""
    n = optr.shape[0] - 1
    nb = np.uint64(64 * words)
    u = cuda.grid(1)
    stride = cuda.gridsize(1)
    while u < n:
        c = 0
        for p in range(optr[u], optr[u + 1]):
            x = oind[p]
            if hub_words > 0 and x >= base:
                y = np.uint64(x - base)
                hubs[u, y >> S6] |= ONE << (y & LOW6)
                c += 1
            else:
                for j in range(seeds.shape[0]):
                    h = _hash32(x, seeds[j, 0], seeds[j, 1], seeds[j, 2])
                    pos = (h * nb) >> S32
                    filters[u, pos >> S6] |= ONE << (pos & LOW6)
        counts[u] = c
        u += stride


@cuda.jit(device=True, inline=True)
def _common(oind, alo, ahi, blo, bhi):
    """|oind[alo:ahi] ∩ oind[blo:bhi]|: every element of the second list binary-searched in the first."""
    c = 0
    lo = alo
    for i in range(blo, bhi):
        x = oind[i]
        lo = _lower_bound(oind, lo, ahi, x)
        if lo >= ahi:
            break
        if oind[lo] == x:
            c += 1
    return c


@cuda.jit(cache=True)
def _bloom_triangles(optr, oind, src, est, clamp, F, nbits, b, ctab, stab, H, hc, thresh, part_f, part_i):
    """Per block: [estimate sum, variance sum, sd sum] in part_f and [exact count, saturated,
    estimated terms, terms] in part_i, over the arcs j = thread, thread + stride, ... of its threads

    An arc u -> v with d+(u) >= 2 and d+(v) > 0 is a term: exact when d+(v) <= thresh, else the
    hub bitmaps' common bits (exact) plus a Bloom estimate of the rest (``stab``: standard
    deviations by number of ones)."""
    m = oind.shape[0]
    g = cuda.grid(1)
    stride = cuda.gridsize(1)
    wh = H.shape[1]
    wb = F.shape[1]
    exact = int64(0)
    sat = int64(0)
    nest = int64(0)
    terms = int64(0)
    tot = float64(0.0)
    var = float64(0.0)
    sd = float64(0.0)
    j = g
    while j < m:
        u = src[j]
        v = oind[j]
        a = optr[u]
        e_ = optr[u + 1]
        d = e_ - a
        lo = optr[v]
        hi = optr[v + 1]
        dv = hi - lo
        if d >= 2 and dv > 0:
            terms += 1
            if dv <= thresh:
                exact += _common(oind, a, e_, lo, hi)
            else:
                h = 0
                for q in range(wh):
                    h += cuda.popc(H[u, q] & H[v, q])
                exact += h
                du = d - hc[u]
                dvb = dv - hc[v]
                if du != 0 and dvb != 0:
                    ones = 0
                    if est == EST_OR:
                        for q in range(wb):
                            ones += cuda.popc(F[u, q] | F[v, q])
                        e = du + dvb - ctab[ones]
                    else:
                        for q in range(wb):
                            ones += cuda.popc(F[u, q] & F[v, q])
                        e = ctab[ones]
                        if est == EST_LIMIT:
                            e = ones / b
                    st = stab[ones]
                    z = 1 if ones >= nbits else 0
                    if clamp or z:
                        top = float64(min(du, dvb))
                        e = 0.0 if e < 0.0 else (top if e > top else e)
                    tot += e
                    var += st * st
                    sd += st
                    sat += z
                    nest += 1
        j += stride
    # per-block sums (shared-memory tree), one row of part_f / part_i per block
    shf = cuda.shared.array((BLOCK, 3), float64)
    shi = cuda.shared.array((BLOCK, 4), int64)
    t = cuda.threadIdx.x
    shf[t, 0] = tot
    shf[t, 1] = var
    shf[t, 2] = sd
    shi[t, 0] = exact
    shi[t, 1] = sat
    shi[t, 2] = nest
    shi[t, 3] = terms
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            for q in range(3):
                shf[t, q] += shf[t + s, q]
            for q in range(4):
                shi[t, q] += shi[t + s, q]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        for q in range(3):
            part_f[cuda.blockIdx.x, q] = shf[0, q]
        for q in range(4):
            part_i[cuda.blockIdx.x, q] = shi[0, q]
