"""Set operations on sorted integer rows and on bitsets: the one home of graphmine's common-neighbour
intersections.

A row is a slice ``x[xa:xb]`` of a sorted array (usually a CSR ``indices`` array), passed as the
array and its bounds so that no slice object is built in hot loops. Intersections merge two rows
of similar length and gallop (exponential, then binary search of the short row's entries in the
long row) when one row is more than :data:`SKEW` times longer, which turns a hub-leaf pair from
O(hub) into O(leaf log hub). Every variant visits the common entries in increasing order, so
floating-point sums come out the same whichever path runs.

The bitset helpers (``popcount``, ``lowest_bit``) compile to single machine instructions and
serve the dense local adjacency matrices of the k-clique kernels.

Kernels here never validate and never raise.
"""

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = [
    "SKEW",
    "lower_bound",
    "gallop",
    "intersect_count",
    "merge_count",
    "intersect_into",
    "intersect_positions",
    "intersect_sum",
    "intersect_degree_sums",
    "popcount",
    "lowest_bit",
    "fetch_add",
]

# Gallop instead of merging when one row is more than SKEW times longer than the other: a merge
# costs len(long) steps, galloping about len(short) * log2(len(long) / len(short)).
SKEW = 16


@njit(cache=True)
def lower_bound(x, lo, hi, v):
    """The first index i in [lo, hi) with x[i] >= v (hi if none): binary search."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if x[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def gallop(x, lo, hi, v):
    """As :func:`lower_bound`, probing lo + 1, lo + 3, lo + 7, ... first: O(log distance) when the
    answer lies near lo, as it does for the sorted queries of an intersection."""
    if lo >= hi or x[lo] >= v:
        return lo
    step = 1
    prev = lo
    while True:
        nxt = prev + step
        if nxt >= hi:
            return lower_bound(x, prev + 1, hi, v)
        if x[nxt] >= v:
            return lower_bound(x, prev + 1, nxt, v)
        prev = nxt
        step <<= 1


@njit(cache=True)
def _skewed(nx, ny):
    return nx * SKEW < ny or ny * SKEW < nx


@njit(cache=True)
def _gallop_count(s, sa, sb, g, ga, gb):
    """|s[sa:sb] ∩ g[ga:gb]| searching the short row's entries in the long row g."""
    c = 0
    j = ga
    for i in range(sa, sb):
        j = gallop(g, j, gb, s[i])
        if j == gb:
            break
        if g[j] == s[i]:
            c += 1
            j += 1
    return c


@njit(cache=True)
def intersect_count(x, xa, xb, y, ya, yb):
    """|x[xa:xb] ∩ y[ya:yb]| of two sorted rows."""
    if _skewed(xb - xa, yb - ya):
        if xb - xa < yb - ya:
            return _gallop_count(x, xa, xb, y, ya, yb)
        return _gallop_count(y, ya, yb, x, xa, xb)
    return merge_count(x, xa, xb, y, ya, yb)


@njit(cache=True)
def merge_count(x, xa, xb, y, ya, yb):
    """|x[xa:xb] ∩ y[ya:yb]| by a plain merge (no galloping; the GPU's kernels compile this same
    function for the device)."""
    c = 0
    i = xa
    j = ya
    while i < xb and j < yb:
        a = x[i]
        b = y[j]
        # branch-light merge: both cursors advance on a hit
        c += a == b
        i += a <= b
        j += b <= a
    return c


@njit(cache=True)
def _gallop_into(s, sa, sb, g, ga, gb, out):
    k = 0
    j = ga
    for i in range(sa, sb):
        j = gallop(g, j, gb, s[i])
        if j == gb:
            break
        if g[j] == s[i]:
            out[k] = s[i]
            k += 1
            j += 1
    return k


@njit(cache=True)
def intersect_into(x, xa, xb, y, ya, yb, out):
    """Write x[xa:xb] ∩ y[ya:yb] (sorted) into out[0:]; return its size. ``out`` must hold
    min(xb - xa, yb - ya) entries (the merge writes ahead of its hits)."""
    if _skewed(xb - xa, yb - ya):
        if xb - xa < yb - ya:
            return _gallop_into(x, xa, xb, y, ya, yb, out)
        return _gallop_into(y, ya, yb, x, xa, xb, out)
    k = 0
    i = xa
    j = ya
    while i < xb and j < yb:
        a = x[i]
        b = y[j]
        # branch-free: write speculatively, keep the write only on a hit
        out[k] = a
        k += a == b
        i += a <= b
        j += b <= a
    return k


@njit(cache=True)
def intersect_positions(x, xa, xb, y, ya, yb, out):
    """Write the offsets i - xa of the entries x[i] that also occur in y[ya:yb] into out[0:]
    (increasing); return their number. Used to renumber a neighbourhood's members locally.
    ``out`` must hold min(xb - xa, yb - ya) entries."""
    k = 0
    if (yb - ya) * SKEW < xb - xa:
        i = xa
        for j in range(ya, yb):
            i = gallop(x, i, xb, y[j])
            if i == xb:
                break
            if x[i] == y[j]:
                out[k] = i - xa
                k += 1
                i += 1
        return k
    if (xb - xa) * SKEW < yb - ya:
        j = ya
        for i in range(xa, xb):
            j = gallop(y, j, yb, x[i])
            if j == yb:
                break
            if y[j] == x[i]:
                out[k] = i - xa
                k += 1
                j += 1
        return k
    i = xa
    j = ya
    while i < xb and j < yb:
        a = x[i]
        b = y[j]
        out[k] = i - xa
        k += a == b
        i += a <= b
        j += b <= a
    return k


@njit(cache=True)
def _gallop_sum(s, sa, sb, g, ga, gb, w):
    c = 0
    total = 0.0
    j = ga
    for i in range(sa, sb):
        j = gallop(g, j, gb, s[i])
        if j == gb:
            break
        if g[j] == s[i]:
            c += 1
            total += w[s[i]]
            j += 1
    return c, total


@njit(cache=True)
def intersect_sum(x, xa, xb, y, ya, yb, w):
    """(|x[xa:xb] ∩ y[ya:yb]|, sum of w[z] over the common entries z, in increasing z)."""
    if _skewed(xb - xa, yb - ya):
        if xb - xa < yb - ya:
            return _gallop_sum(x, xa, xb, y, ya, yb, w)
        return _gallop_sum(y, ya, yb, x, xa, xb, w)
    c = 0
    total = 0.0
    i = xa
    j = ya
    while i < xb and j < yb:
        a = x[i]
        b = y[j]
        if a < b:
            i += 1
        elif b < a:
            j += 1
        else:
            c += 1
            total += w[a]
            i += 1
            j += 1
    return c, total


@njit(cache=True)
def _gallop_degree_sums(s, sa, sb, g, ga, gb, deg):
    c = 0
    aa = 0.0
    ra = 0.0
    j = ga
    for i in range(sa, sb):
        j = gallop(g, j, gb, s[i])
        if j == gb:
            break
        if g[j] == s[i]:
            c += 1
            dz = deg[s[i]]
            aa += 1.0 / np.log(dz)
            ra += 1.0 / dz
            j += 1
    return c, aa, ra


@njit(cache=True)
def intersect_degree_sums(x, xa, xb, y, ya, yb, deg):
    """(common count, sum of 1 / log deg[z], sum of 1 / deg[z]) over the common entries z: the
    common-neighbour, Adamic-Adar and resource-allocation scores at once. A common neighbour of
    two distinct vertices has degree >= 2, so log deg[z] > 0."""
    if _skewed(xb - xa, yb - ya):
        if xb - xa < yb - ya:
            return _gallop_degree_sums(x, xa, xb, y, ya, yb, deg)
        return _gallop_degree_sums(y, ya, yb, x, xa, xb, deg)
    c = 0
    aa = 0.0
    ra = 0.0
    i = xa
    j = ya
    while i < xb and j < yb:
        a = x[i]
        b = y[j]
        if a < b:
            i += 1
        elif b < a:
            j += 1
        else:
            c += 1
            dz = deg[a]
            aa += 1.0 / np.log(dz)
            ra += 1.0 / dz
            i += 1
            j += 1
    return c, aa, ra


def _as_int64(context, builder, value, bitwidth):
    if bitwidth < 64:
        return builder.zext(value, context.get_value_type(types.int64))
    return value


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an unsigned integer, as int64 (one ``popcnt`` instruction). The
    result is signed so that sums of counts stay int64 (numba widens uint64 + int64 to float)."""
    if not isinstance(x, types.Integer) or x.bitwidth > 64:
        return None

    def codegen(context, builder, sig, args):
        return _as_int64(context, builder, builder.ctpop(args[0]), x.bitwidth)

    return types.int64(x), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """The index of the lowest set bit of a non-zero unsigned integer, as int64 (one ``tzcnt``
    instruction)."""
    if not isinstance(x, types.Integer) or x.bitwidth > 64:
        return None

    def codegen(context, builder, sig, args):
        return _as_int64(context, builder, builder.cttz(args[0], cgutils.true_bit), x.bitwidth)

    return types.int64(x), codegen


@intrinsic
def fetch_add(typingctx, arr, idx, val):
    """Atomically add ``val`` to ``arr[idx]`` (1-D int64 array) and return the old value: the
    shared work counter of dynamically scheduled kernels."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and arr.ndim == 1):
        return None

    def codegen(context, builder, sig, args):
        aty = sig.args[0]
        ary = context.make_array(aty)(context, builder, args[0])
        i = context.cast(builder, args[1], sig.args[1], types.intp)
        v = context.cast(builder, args[2], sig.args[2], types.int64)
        ptr = cgutils.get_item_pointer(context, builder, aty, ary, [i])
        return builder.atomic_rmw("add", ptr, v, "monotonic")

    return types.int64(arr, idx, val), codegen
