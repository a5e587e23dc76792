"""Estimators of |X ∩ Y| from two sketches (scalar Numba functions and their constants).

Each returns ``(estimate, variance, saturated)``; the variance is the estimator's own
(first-order) variance given the true sizes, evaluated at the estimate. ``dx``/``dy`` are the
exact set sizes (vertex degrees are known for free, so no sketch is needed for them).

Bloom filters (B bits, b hashes, a bit is empty after n insertions with probability
(1 - 1/B)^(b n) ~ exp(-b n / B)):

* cardinality  n ~ -(B/b) ln(1 - ones/B), variance (B/b^2)(e^t - 1 - t), t = b n / B;
* OR  |X ∩ Y| ~ |X| + |Y| - card(ones(F_X | F_Y));
* AND |X1 ∩ ... ∩ Xr| ~ card(ones(F_X1 & ... & F_Xr)) (biased upward by coincident bits);
* limit |X ∩ Y| ~ ones(F_X & F_Y) / b.

A filter with every bit set carries no count: the estimate uses ones = B - 1 (the largest
finite value, so the union is a lower bound) and the pair is reported as saturated.

MinHash: k-hash compares the j-th minima position by position, J ~ (# equal)/k; bottom-k uses
J ~ |bottom_k(S_X ∪ S_Y) ∩ S_X ∩ S_Y| / k (a sample without replacement of the union); both give
|X ∩ Y| = J (|X| + |Y|) / (1 + J). KMV: |X ∪ Y| ~ (k - 1)/U_(k) from the merged bottom-k, with
U_(k) the k-th smallest 32-bit hash / 2^32. A bottom-k sketch that holds both sets completely
gives the exact answer.
"""

import math

import numpy as np
from numba import njit

from .setops import popcount

KIND_BLOOM, KIND_KHASH, KIND_ONEHASH, KIND_KMV = 0, 1, 2, 3
EST_OR, EST_AND, EST_LIMIT, EST_MINHASH = 0, 1, 2, 3
TWO32 = 4294967296.0


@njit(cache=True, inline="always")
def bloom_cardinality(ones, nbits, b):
    """(estimate, variance, saturated) of the number of elements in a filter with ``ones`` set bits.

    Inverts E[ones] = B (1 - (1 - 1/B)^(b n)) exactly and removes the second-order (Jensen) bias
    of the logarithm, (e^t - 1 - t) / (2b): both are about one element per filter at the loads of
    interest, which matters because an intersection is a small difference of such estimates.
    """
    sat = 0
    o = float(ones)
    if ones >= nbits:
        o = nbits - 1.0
        sat = 1
    n = math.log1p(-o / nbits) / (b * math.log1p(-1.0 / nbits))
    t = b * n / nbits
    g = math.expm1(t) - t
    n -= g / (2.0 * b)
    var = (nbits / (b * b)) * g
    return n, var, sat


@njit(cache=True, inline="always")
def _clip(x, lo, hi):
    return lo if x < lo else (hi if x > hi else x)


def bloom_tables(nbits, b):
    """Lookup tables (estimate, variance) of :func:`bloom_cardinality` for ones = 0..B, so the
    kernels pay one load instead of three logarithms per intersection."""
    o = np.minimum(np.arange(nbits + 1, dtype=np.float64), nbits - 1.0)
    n = np.log1p(-o / nbits) / (b * np.log1p(-1.0 / nbits))
    t = b * n / nbits
    g = np.expm1(t) - t
    return n - g / (2.0 * b), (nbits / (b * b)) * g


@njit(cache=True, inline="always")
def pair_bloom(FA, a, FB, c, dx, dy, nbits, b, est, clamp, ctab, vtab):
    """|X ∩ Y| from Bloom filter rows FA[a] and FB[c] (2-D arrays indexed in place: no views)."""
    ones = 0
    if est == EST_OR:
        for w in range(FA.shape[1]):
            ones += popcount(FA[a, w] | FB[c, w])
        e = dx + dy - ctab[ones]
    else:
        for w in range(FA.shape[1]):
            ones += popcount(FA[a, w] & FB[c, w])
        e = ctab[ones]
        if est == EST_LIMIT:
            e = ones / b
    sat = 1 if ones >= nbits else 0
    if clamp or sat:
        e = _clip(e, 0.0, float(min(dx, dy)))
    return e, vtab[ones], sat


@njit(cache=True, inline="always")
def _intersection_from_jaccard(J, eq, k, dx, dy, fpc, clamp):
    e = J * (dx + dy) / (1.0 + J)
    # variance by the delta method; J smoothed so that J = 0 or 1 still has a spread
    Jv = (eq + 0.5) / (k + 1.0)
    g = (dx + dy) / ((1.0 + Jv) * (1.0 + Jv))
    var = g * g * Jv * (1.0 - Jv) / k * fpc
    if clamp:
        e = _clip(e, 0.0, float(min(dx, dy)))
    return e, var


@njit(cache=True)
def pair_khash(MA, a, MB, c, dx, dy, clamp):
    """|X ∩ Y| from k-hash MinHash rows MA[a], MB[c] (position by position)."""
    if dx == 0 or dy == 0:
        return 0.0, 0.0, 0
    k = MA.shape[1]
    eq = 0
    for j in range(k):
        if MA[a, j] == MB[c, j]:
            eq += 1
    e, var = _intersection_from_jaccard(eq / k, eq, k, dx, dy, 1.0, clamp)
    return e, var, 0


@njit(cache=True)
def bottomk_merge(MA, a, sx, MB, c, sy, limit):
    """Merge sorted bottom-k rows MA[a], MB[c] up to ``limit`` distinct values: (taken, common, last)."""
    i = 0
    j = 0
    taken = 0
    common = 0
    last = 0
    while taken < limit and (i < sx or j < sy):
        if j >= sy or (i < sx and MA[a, i] < MB[c, j]):
            last = MA[a, i]
            i += 1
        elif i >= sx or MB[c, j] < MA[a, i]:
            last = MB[c, j]
            j += 1
        else:
            last = MA[a, i]
            i += 1
            j += 1
            common += 1
        taken += 1
    return taken, common, last


@njit(cache=True)
def pair_bottomk(MA, a, sx, MB, c, sy, dx, dy, kmv, clamp):
    """|X ∩ Y| from bottom-k rows MA[a], MB[c] holding sx and sy values (1-hash MinHash or KMV)."""
    if dx == 0 or dy == 0:
        return 0.0, 0.0, 0
    k = MA.shape[1]
    if sx == dx and sy == dy:
        # both sets are held completely: the merge is an exact intersection
        taken, common, last = bottomk_merge(MA, a, sx, MB, c, sy, sx + sy)
        return float(common), 0.0, 0
    taken, common, last = bottomk_merge(MA, a, sx, MB, c, sy, k)
    e, var = bottomk_estimate(common, last, k, dx, dy, kmv, clamp)
    return e, var, 0


@njit(cache=True, inline="always")
def bottomk_estimate(common, last, k, dx, dy, kmv, clamp):
    """(estimate, variance) of |X ∩ Y| from the merge of two full bottom-k rows: KMV from the
    k-th smallest hash ``last`` of the union, 1-hash MinHash from the ``common`` share of it."""
    if kmv:
        U = (float(last) + 1.0) / TWO32
        union = (k - 1.0) / U
        e = dx + dy - union
        var = union * union / max(k - 2.0, 1.0)
        if clamp:
            e = _clip(e, 0.0, float(min(dx, dy)))
        return e, var
    J = common / k
    N = (dx + dy) / (1.0 + J)
    fpc = (N - k) / (N - 1.0) if N > k else 0.0
    fpc = max(fpc, 1.0 / k)
    return _intersection_from_jaccard(J, common, k, dx, dy, fpc, clamp)
