"""Rank selection (k-th smallest, median) with linear energy.

Contract: element ``i`` lives on processor ``i`` of a Z-order machine of ``2**ceil(log2 n)``
processors (non-power-of-two ``n`` is handled: the spare processors take no part); ``k`` starts
at processor 0 and the answer ends there.

``method="sample"`` (the energy-optimal one) keeps an *active set*, the elements that may still
be the answer (all of them at first), and processor 0 knows its size and the rank ``k`` within
it. A round:

1. every active processor samples itself with probability ``2**-e`` (its own coin; ``e`` is
   known: from ``n`` in the first round, sent with the last round's decision later), so about
   ``s`` elements are sampled (``s ~ sqrt(n) / 2``);
2. a Blelloch count over the sampled processors (:func:`spatial.tree_scan` over a sparse
   member set, ``O(sqrt(n s))``) gives each its rank ``r`` among them, and it sends its element
   to processor ``r``: the sample now fills the ``c`` first processors, a small square near
   processor 0, where a bitonic sort orders it (``O(s^{3/2})``);
3. processor 0 fetches the two sample elements of ranks ``(k + 1/2) c / m -+ (sqrt(c) + 1)``
   (``m`` the active count): pivots ``lo <= hi`` that bracket the answer with high
   probability;
4. ``(lo, hi)`` goes down the tree of the active set (two words), every active element
   classifies itself (below, between, above), and the three counts, packed into one word
   (21 bits each), come back up; on the way each leader records in one word which of its
   subtrees hold which class;
5. processor 0 picks the class holding rank ``k`` (when the bracket kept everything, e.g. two
   distinct values, the next round uses one pivot, ``lo = hi``, which always makes progress)
   and sends its choice and the next sampling
   exponent (one word) down the tree *pruned* to that class (the leaders' record says where
   it lives); an active processor that hears nothing drops out.

The between class holds about ``2 m / sqrt(c)`` elements, so the active set shrinks by a factor
``~sqrt(s)`` per round and a tree over ``m`` of ``n`` processors costs ``O(sqrt(n m))``: the
first round (``1.5 n`` per word: two words down, one up) dominates. When at most
``~sqrt(n) / 4`` elements remain, a last Blelloch count packs them into the first processors,
a bitonic sort orders them, and processor 0 fetches rank ``k``. Expected energy ``Theta(n)``,
depth ``O(log n)`` per round plus ``O(log^2 s)`` for the sample sort, and ``O(1)`` rounds for
``n`` up to ``2**20`` (``O(log log n)`` in general). Every processor holds at most 13 words.

``method="sort"`` is the comparison: bitonic :func:`spatial.sort` of everything, then processor
0 asks processor ``k`` for its element (request and reply), ``Theta(n^{3/2})`` energy.
"""

import math

import numpy as np

from ._common import Result, as_values, check_int, processors_for, seed_rng, tree_levels
from .collectives import _machine, tree_broadcast, tree_reduce, tree_scan
from .exceptions import SpatialInputError
from .sorting import bitonic_records

__all__ = ["select", "median"]

_METHODS = ("sample", "sort")


def _sentinels(dtype):
    if dtype.kind == "f":
        return -np.inf, np.inf
    info = np.iinfo(dtype)
    return info.min, info.max


def _work(x):
    # Words on the machine: float64 for floats, int64 for bools and ints.
    return x.astype(np.float64 if x.dtype.kind == "f" else np.int64, copy=False)


def _sample_size(p):
    return max(32, 1 << max(0, (p.bit_length() - 1) // 2 - 1))


def _compact_size(p):
    return max(32, 1 << max(0, (p.bit_length() - 1) // 2 - 2))


def _target(cnt, n, s):
    """Sample size for ``cnt`` active of ``n``: ``s`` at first, then ``s sqrt(cnt / n)`` (a
    sparser round is cheaper, so a smaller sample pays for itself)."""
    return max(32, int(s * math.sqrt(cnt / n)))


def _exponent(cnt, n, s):
    """Sampling probability ``2**-e`` that draws about ``_target`` of ``cnt`` elements."""
    t = _target(cnt, n, s)
    return max(0, int(math.floor(math.log2(cnt / t)))) if cnt > t else 0


def _pack_fields(n):
    """Bits per count and whether the three counts fit one 64-bit word."""
    bits = max(1, int(n).bit_length())
    return bits, 3 * bits <= 63


def _region(c, p):
    """The aligned block of ``2**ceil(log2 c)`` processors that touches the grid's centre (the
    last block of the first quadrant), or the first block when the machine is too small."""
    size = 1 << max(0, (c - 1).bit_length())
    base = p // 4 - size if 4 * size <= p else 0
    return base + np.arange(size, dtype=np.int64)


def _gather_sorted(m, members, reg, into, hi_sent):
    """Pack the words ``reg`` of ``members`` in id order into the block of processors at the
    grid's centre (:func:`_region`) and sort them there. Processor 0 ends up holding their
    number in register ``"c"``; returns the block."""
    c = members.size
    m.load("_one", 1, members)
    tree_scan(m, "_one", np.add, members, into="_rank", total="c")
    m.free("_one", members)
    first = members[~m.holds("_rank", members)]
    m.local(lambda: np.int64(0), (), "_rank", procs=first)
    # The last member holds the count; it tells processor 0 (local if it is processor 0).
    m.send(members[-1:], [0], "c")
    if members[-1] != 0:
        m.free("c", members[-1:])
    region = _region(c, m.n_processors)
    slots = region[0] + m.read("_rank", members)   # each member knows its rank: its target
    m.send(members, slots, reg, into=into)
    m.free("_rank", members)
    # Processor 0 tells the block the count, so the processors beyond it pad with +inf.
    tree_broadcast(m, "c", region)
    pads = region[c:]
    if pads.size:
        m.local(lambda: hi_sent, (), into, procs=pads)
    m.free("c", region[region != 0])
    bitonic_records(m, into, size=region.size, base=int(region[0]))
    return region


def _fetch(m, slot, reg, into):
    """Processor 0 asks processor ``slot`` for its word ``reg`` (request, reply)."""
    if slot == 0:
        m.local(lambda v: v, reg, into, procs=[0])
        return
    m.load("_req", slot, procs=[0])
    m.send([0], [slot], "_req")
    m.send([slot], [0], reg, into=into)
    m.free("_req", [0, slot])


def _count_up(m, members, levels, bits, packed):
    """Up-sweep of the class counts of the members (``"cls"`` in 0, 1, 2) into processor 0.

    Every leader records in ``"mask"`` which classes its right subtrees hold (3 bits per
    level), the knowledge that prunes the next broadcast. Returns the three counts.
    """
    names = ("cnt",) if packed else ("cnt0", "cnt1", "cnt2")
    if packed:
        m.local(lambda c: np.left_shift(np.int64(1), bits * c), "cls", "cnt", procs=members)
    else:
        m.local(lambda c: tuple((c == i).astype(np.int64) for i in range(3)), "cls", names,
                procs=members)
    tmps = tuple(f"_in{i}" for i in range(len(names)))
    mask = (1 << bits) - 1

    def present(*counts):
        if packed:
            c = counts[0]
            return [((c >> (bits * i)) & mask) > 0 for i in range(3)]
        return [c > 0 for c in counts]

    for b, (src, dst) in enumerate(levels):
        m.send(src, dst, names, into=tmps)
        m.free(names, src)
        had = m.holds(names[0], dst)
        fresh = dst[~m.holds("mask", dst)]
        if fresh.size:
            m.local(lambda: np.int64(0), (), "mask", procs=fresh)

        def record(mk, *c, b=b):
            bits3 = sum(p.astype(np.int64) << i for i, p in enumerate(present(*c)))
            return mk | (bits3 << (3 * b))

        m.local(record, ("mask",) + tmps, "mask", procs=dst)
        if had.any():
            m.local(lambda *a: tuple(a[i] + a[i + len(names)] for i in range(len(names))),
                    names + tmps, names, procs=dst[had])
        if not had.all():
            m.local(lambda *a: a, tmps, names, procs=dst[~had])
        m.free(tmps, dst)
    got = [int(v) for v in (m.read(nm, [0])[0] for nm in names)]
    m.free(names, [0])
    if packed:
        return [(got[0] >> (bits * i)) & mask for i in range(3)]
    return got


def _sample_select(m, x, k, rng, sample=None, compact=None):
    """Rank-``k`` value of ``x`` (on processors ``0..n-1`` of ``m``); the answer ends on 0 in
    register ``"ans"``."""
    n = x.size
    p = m.n_processors
    lo_sent, hi_sent = _sentinels(x.dtype)
    s = _sample_size(p) if sample is None else sample
    compact_at = _compact_size(p) if compact is None else compact
    bits, packed = _pack_fields(n)
    members = np.arange(n, dtype=np.int64)
    m.load("x", x, procs=members)
    m.load("k", k, procs=[0])
    m.load("m", n, procs=[0])
    e = _exponent(n, n, s)
    stalled = False
    while True:
        k = int(m.read("k", [0])[0])
        cnt = int(m.read("m", [0])[0])
        if cnt <= max(compact_at, 2 * _target(cnt, n, s)):
            region = _gather_sorted(m, members, "x", "fin", hi_sent)
            m.free("c", [0])
            _fetch(m, int(region[k]), "fin", "ans")
            m.free("fin", region)
            return
        # 1-2. Sample, pack the sample into the first processors, sort it there.
        sampled = members[rng.random(members.size) < 2.0 ** -e]
        if sampled.size:
            region = _gather_sorted(m, sampled, "x", "smp", hi_sent)
            c = sampled.size
            # 3. Pivots of ranks around k's expected place in the sample.
            rho = (k + 0.5) * c / cnt
            delta = math.sqrt(c) + 1.0      # two standard deviations (at most sqrt(c)/2)
            # Clamped to the sample: pivots are always elements, so a class of equal
            # elements ends the search (lo == hi) instead of bracketing it forever.
            if stalled:                    # the bracket held everything: one pivot
                delta = 0.0
            r_lo = min(max(int(math.floor(rho - delta)), 0), c - 1)
            r_hi = min(max(int(math.ceil(rho + delta)), 0), c - 1)
            if stalled:
                r_hi = r_lo
            m.free("c", [0])
            _fetch(m, int(region[r_lo]), "smp", "lo")
            _fetch(m, int(region[r_hi]), "smp", "hi")
            m.free("smp", region)
        else:                                  # nobody sampled (rare): no pivots this round
            m.load("lo", lo_sent, procs=[0])
            m.load("hi", hi_sent, procs=[0])
        # 4. Pivots down, classes and counts up.
        levels = tree_levels(members)
        tree_broadcast(m, ("lo", "hi"), members, levels=levels)
        m.local(lambda v, lo, hi: np.where(v < lo, 0, np.where(v > hi, 2, 1)),
                ("x", "lo", "hi"), "cls", procs=members)
        lo, hi = m.read("lo", [0])[0], m.read("hi", [0])[0]
        m.free(("lo", "hi"), members)
        below, between, above = _count_up(m, members, levels, bits, packed)
        # 5. Processor 0 decides; the choice goes down the pruned tree.
        if k < below:
            side, new_cnt = 0, below
        elif k < below + between:
            side, new_cnt, k = 1, between, k - below
        else:
            side, new_cnt, k = 2, above, k - below - between
        m.free(("lo", "hi"), [0])
        if side == 1 and lo == hi:            # every candidate equals the pivot
            m.load("ans", lo, procs=[0])
            m.free(("cls", "mask"))
            return
        stalled = new_cnt == cnt            # processor 0 remembers it (part of its "m" word)
        m.local(lambda: (np.int64(k), np.int64(new_cnt)), (), ("k", "m"), procs=[0])
        e = _exponent(new_cnt, n, s)
        cls = m.read("cls", members)
        new = members[cls == side]
        m.load("side", side | (e << 2), procs=[0])
        tree_broadcast(m, "side", new)
        m.free(("cls", "mask", "side"))
        members = new


def _select_by_sort(m, x, k):
    n = x.size
    _, hi_sent = _sentinels(x.dtype)
    members = np.arange(n, dtype=np.int64)
    m.load("x", x, procs=members)
    m.local(lambda v: v, "x", "key", procs=members)
    m.local(lambda: hi_sent, (), "key", procs=np.arange(n, m.n_processors))
    bitonic_records(m, "key")
    m.load("k", k, procs=[0])
    _fetch(m, k, "key", "ans")
    m.free(("key", "k"))


def select(x, k, *, method="sample", seed=None, words=None, message_words=None):
    """The ``k``-th smallest element of ``x`` (``k = 0`` is the minimum), as ``np.partition``.

    Bounds (lower bound ``n - 1``: the answer depends on every element, so every processor but
    0 must send). ``method="sample"``, measured on random inputs (median, mean of 3 seeds):
    energy ``~ 6.5 n`` at ``2**20`` (``Theta(n)`` expected), depth ``O(log n)`` per round with
    ``O(1)`` rounds in practice (see the module docstring), at most 13 words per processor.
    ``method="sort"``: ``~ 7 n^{3/2}`` energy, depth ``L (L + 1) / 2 + 2``.

    Parameters
    ----------
    x : array_like, shape (n,)
        Values (any length ``>= 1``), bool, int or float; duplicates fine, NaN refused.
    k : int
        Rank, ``0 <= k < n``.
    method : {"sample", "sort"}
        The linear-energy algorithm or the sorting comparison.
    seed : int, numpy Generator or None
        Seed of the processors' coins (``"sample"`` only; the answer never depends on it, the
        cost does).
    words, message_words : int, optional
        Local memory and message size of the machine (defaults of :class:`Machine`).

    Returns
    -------
    Result
        ``value``: ``np.partition(x, k)[k]``.

    Examples
    --------
    >>> r = select([5, -2, 9, 9, 0, 3, 7], 3, seed=1)
    >>> int(r.value), r.metrics.energy >= 6
    (5, True)
    """
    x = as_values(x, allow_nan=False, allow_empty=False)
    k = check_int(k, "k", low=0, high=x.size - 1)
    if method not in _METHODS:
        raise SpatialInputError(f"method must be one of {_METHODS}, got {method!r}")
    n = x.size
    p = processors_for(n, "z-order")
    m = _machine(p, "z-order", words, message_words)
    w = _work(x)
    if method == "sample":
        _sample_select(m, w, k, seed_rng(seed))
        name = "select"
    else:
        _select_by_sort(m, w, k)
        name = "select_sort"
    return Result(x.dtype.type(m.read("ans", [0])[0]), m.metrics, name, n, p, "z-order")


def median(x, *, method="sample", seed=None, words=None, message_words=None):
    """The median of ``x`` as ``np.median`` computes it (mean of the two middle values when
    ``n`` is even).

    Odd ``n``: one :func:`select`. Even ``n``: :func:`select` of the lower middle value ``a``,
    then one broadcast of ``a`` and one reduce of ``(#values <= a, smallest value > a)`` (two
    words) give the upper middle value (``4.5 n`` more energy, ``2 log2 n`` more depth).

    Parameters
    ----------
    x : array_like, shape (n,)
        Values (``n >= 1``), NaN refused.
    method : {"sample", "sort"}
        As in :func:`select`.
    seed : int, numpy Generator or None
        As in :func:`select`.
    words, message_words : int, optional
        As in :func:`select`.

    Returns
    -------
    Result
        ``value``: ``np.median(x)`` (a float64).

    Examples
    --------
    >>> float(median([4, 1, 3, 2], seed=0).value), float(median([3, 1, 2]).value)
    (2.5, 2.0)
    """
    x = as_values(x, allow_nan=False, allow_empty=False)
    if method not in _METHODS:
        raise SpatialInputError(f"method must be one of {_METHODS}, got {method!r}")
    n = x.size
    p = processors_for(n, "z-order")
    m = _machine(p, "z-order", words, message_words)
    w = _work(x)
    k = (n - 1) // 2
    if method == "sample":
        _sample_select(m, w, k, seed_rng(seed))
    else:
        _select_by_sort(m, w, k)
    lower = m.read("ans", [0])[0]
    if n % 2:
        value = np.mean(np.array([lower, lower]))
    else:
        members = np.arange(n, dtype=np.int64)
        _, hi_sent = _sentinels(w.dtype)
        levels = tree_levels(members)
        tree_broadcast(m, "ans", members, levels=levels)
        m.local(lambda v, a: ((v <= a).astype(np.int64), np.where(v > a, v, hi_sent)),
                ("x", "ans"), ("le", "gt"), procs=members)
        tree_reduce(m, ("le", "gt"), lambda a, b: (a[0] + b[0], np.minimum(a[1], b[1])),
                    members, levels=levels)
        at_most, big = m.read("le", [0])[0], m.read("gt", [0])[0]
        upper = lower if at_most > n // 2 else big
        value = np.mean(np.array([lower, upper]))
    return Result(np.float64(value), m.metrics, "median", n, p, "z-order")
