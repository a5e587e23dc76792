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
    "intersect_supports",
    "popcount",
    "lowest_bit",
    "lowest_member",
    "fetch_add",
    "WALK_ALL",
    "and_count",
    "meets",
    "member_degrees",
    "members_meeting",
    "or_rows",
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


@njit(cache=True, inline="always")
def _credit(z, i, j, w, deg, sup, s1, s2):
    """A common entry z at positions i and j of the two rows: the sums and supports of
    :func:`_intersect` (numba prunes the branches of the ``None`` arrays)."""
    if w is not None:
        s1 += w[z]
    if deg is not None:
        dz = deg[z]
        s1 += 1.0 / np.log(dz)
        s2 += 1.0 / dz
    if sup is not None:
        fetch_add(sup, i, 1)
        fetch_add(sup, j, 1)
    return s1, s2


@njit(cache=True, inline="always")
def _intersect(x, xa, xb, y, ya, yb, out, pos, w, sup, deg, plain):
    """The one merge/gallop driver behind the ``intersect_*`` functions: visits the common entries
    z of x[xa:xb] and y[ya:yb] in increasing order and returns (count, sum, sum). What it does at
    a hit depends on which of the optional arrays are given (numba prunes the branches of the
    ``None`` ones at compile time, so each caller gets a loop of its own): ``out`` receives z,
    ``pos`` the offset of z in x[xa:], ``w`` adds w[z] to the first sum, ``deg`` adds
    1 / log deg[z] to the first and 1 / deg[z] to the second, ``sup`` (int64, x and y the same
    array) gets one added atomically at both positions of z. ``plain`` (a constant: True where
    none of w, sup, deg is given) picks the branch-free merge; numba prunes the other loop.

    Self-contained but for the inlined :func:`_credit` (the search is written out), so that each
    ``intersect_*`` function compiles as one function: the first use of a kernel pays for one,
    not six."""
    c = 0
    s1 = 0.0
    s2 = 0.0
    nx_ = xb - xa
    ny_ = yb - ya
    if nx_ * SKEW < ny_ or ny_ * SKEW < nx_:
        # gallop: each entry of the short row s searched in the long row g from where the last one
        # was found, by steps 1, 2, 4, ... and then bisection; one loop for both orders (a flag,
        # not two copies: numba would compile each copy)
        x_short = nx_ < ny_
        sa, sb = (xa, xb) if x_short else (ya, yb)
        lo = ya if x_short else xa
        gb = yb if x_short else xb
        for i in range(sa, sb):
            z = x[i] if x_short else y[i]
            step = 1
            hi = lo
            while hi < gb and (y[hi] if x_short else x[hi]) < z:
                lo = hi + 1
                hi = lo + step
                step <<= 1
            if hi > gb:
                hi = gb
            while lo < hi:
                mid = (lo + hi) >> 1
                if (y[mid] if x_short else x[mid]) < z:
                    lo = mid + 1
                else:
                    hi = mid
            if lo == gb:
                break
            if (y[lo] if x_short else x[lo]) == z:
                if out is not None:
                    out[c] = z
                if pos is not None:
                    pos[c] = (i if x_short else lo) - xa
                s1, s2 = _credit(z, i, lo, w, deg, sup, s1, s2)
                c += 1
                lo += 1
        return c, s1, s2
    i = xa
    j = ya
    # a constant flag, not `w is None and ...`: numba prunes an `is None` test only where the
    # argument is None (an array's test is compiled both ways), and a chain of them not at all
    if plain:
        while i < xb and j < yb:
            a = x[i]
            b = y[j]
            # branch-free: write speculatively, keep the write only on a hit
            if out is not None:
                out[c] = a
            if pos is not None:
                pos[c] = i - xa
            c += a == b
            i += a <= b
            j += b <= a
        return c, s1, s2
    while i < xb and j < yb:
        a = x[i]
        b = y[j]
        if a < b:
            i += 1
        elif b < a:
            j += 1
        else:
            c += 1
            s1, s2 = _credit(a, i, j, w, deg, sup, s1, s2)
            i += 1
            j += 1
    return c, s1, s2


@njit(cache=True)
def intersect_count(x, xa, xb, y, ya, yb):
    """|x[xa:xb] ∩ y[ya:yb]| of two sorted rows."""
    return _intersect(x, xa, xb, y, ya, yb, None, None, None, None, None, True)[0]


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
def intersect_into(x, xa, xb, y, ya, yb, out):
    """Write x[xa:xb] ∩ y[ya:yb] (sorted) into out[0:]; return its size. ``out`` must hold
    min(xb - xa, yb - ya) entries (the merge writes ahead of its hits)."""
    return _intersect(x, xa, xb, y, ya, yb, out, None, None, None, None, True)[0]


@njit(cache=True)
def intersect_positions(x, xa, xb, y, ya, yb, out):
    """Write the offsets i - xa of the entries x[i] that also occur in y[ya:yb] into out[0:]
    (increasing); return their number. Used to renumber a neighbourhood's members locally.
    ``out`` must hold min(xb - xa, yb - ya) entries."""
    return _intersect(x, xa, xb, y, ya, yb, None, out, None, None, None, True)[0]


@njit(cache=True)
def intersect_sum(x, xa, xb, y, ya, yb, w):
    """(|x[xa:xb] ∩ y[ya:yb]|, sum of w[z] over the common entries z, in increasing z)."""
    c, total, _ = _intersect(x, xa, xb, y, ya, yb, None, None, w, None, None, False)
    return c, total


@njit(cache=True)
def intersect_supports(x, xa, xb, ya, yb, sup):
    """Add one atomically to ``sup`` (int64, indexed like x) at both positions of every common
    entry of two rows x[xa:xb] and x[ya:yb] of one array; return their number (the triangle
    supports of the truss decomposition)."""
    return _intersect(x, xa, xb, x, ya, yb, None, None, None, sup, None, False)[0]


@njit(cache=True)
def intersect_degree_sums(x, xa, xb, y, ya, yb, deg):
    """(common count, sum of 1 / log deg[z], sum of 1 / deg[z]) over the common entries z: the
    common-neighbour, Adamic-Adar and resource-allocation scores at once. A common neighbour of
    two distinct vertices has degree >= 2, so log deg[z] > 0."""
    return _intersect(x, xa, xb, y, ya, yb, None, None, None, None, deg, False)


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


@njit(cache=True, inline="always")
def lowest_member(S, row, W):
    """The smallest member of the multi-word bit set S[row, :W] (64 members a word), or -1 if
    it is empty."""
    for w in range(W):
        x = S[row, w]
        if x:
            return w * 64 + lowest_bit(x)
    return -1


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


# -- members of multi-word bit sets ------------------------------------------------------------
# A bit set is a row S[r, :W] of a 2-D uint64 array, 64 members a word (member i: bit i & 63 of
# word i >> 6). The walks below visit the members in increasing order, one ``tzcnt`` each, and are
# inlined, so a caller's constant arguments fold away.

# a ``stop`` for member_degrees that no degree reaches: walk every member
WALK_ALL = 1 << 62
_U0 = np.uint64(0)
_U1 = np.uint64(1)


@njit(cache=True, inline="always")
def and_count(A, ra, B, rb, W):
    """|A[ra, :W] & B[rb, :W]|: the members two bit sets share."""
    c = 0
    for z in range(W):
        c += popcount(A[ra, z] & B[rb, z])
    return c


@njit(cache=True, inline="always")
def meets(A, ra, B, rb, W):
    """Whether A[ra, :W] and B[rb, :W] share a member (stops at the first common word)."""
    for z in range(W):
        if A[ra, z] & B[rb, z] != _U0:
            return True
    return False


@njit(cache=True, inline="always")
def member_degrees(S, rs, W, rows, T, rt, Wt, best, bp, least, lp, stop):
    """Degrees inside T of the members of S: over the members i of S[rs, :W], in increasing order,
    c_i = |rows[i, :Wt] & T[rt, :Wt]|.

    Returns (members, sum of c_i, best, bp, least, lp): bp is the first member whose c_i is the
    largest and above the given ``best`` (else best, bp come back as given), lp the first whose c_i
    is the smallest and below the given ``least``. The walk ends early, its sums partial, as soon
    as best >= stop > least (``WALK_ALL``: never).
    """
    n = 0
    total = 0
    for w in range(W):
        x = S[rs, w]
        while x != _U0:
            i = w * 64 + lowest_bit(x)
            x &= x - _U1
            c = and_count(rows, i, T, rt, Wt)
            n += 1
            total += c
            if c > best:
                best = c
                bp = i
            if c < least:
                least = c
                lp = i
            if best >= stop and least < stop:
                return n, total, best, bp, least, lp
    return n, total, best, bp, least, lp


@njit(cache=True, inline="always")
def or_rows(S, rs, W, rows, T, rt, out, ro):
    """out[ro, :W] |= rows[i, :W] & T[rt, :W] for every member i of S[rs, :W]: the members of T
    adjacent to some member of S."""
    for w in range(W):
        x = S[rs, w]
        while x != _U0:
            i = w * 64 + lowest_bit(x)
            x &= x - _U1
            for y in range(W):
                out[ro, y] |= rows[i, y] & T[rt, y]


@njit(cache=True, inline="always")
def members_meeting(S, rs, W, rows, T, rt, out, ro):
    """out[ro, :W] = the members i of S[rs, :W] whose row rows[i, :W] meets T[rt, :W]; returns how
    many members do not."""
    alone = 0
    for w in range(W):
        out[ro, w] = _U0
    for w in range(W):
        x = S[rs, w]
        while x != _U0:
            i = w * 64 + lowest_bit(x)
            x &= x - _U1
            if meets(rows, i, T, rt, W):
                out[ro, w] |= _U1 << np.uint64(i & 63)
            else:
                alone += 1
    return alone
