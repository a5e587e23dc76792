"""Rank selection (k-th smallest, median) with linear energy.

Contract: element ``i`` lives on processor ``i`` of a Z-order machine of ``2**ceil(log2 n)``
processors (non-power-of-two ``n`` is handled: the spare processors take no part); ``k`` starts
at processor 0 and the answer ends there.

``method="sample"`` (the energy-optimal one) keeps an *active set*, the elements that may still
be the answer (all of them at first), and processor 0 knows its size ``m`` and the rank ``k``
within it. A round:

1. a *sample* of about ``t = max(32, s sqrt(m / n))`` active elements (``s ~ sqrt(n) / 2``), each
   drawn by its own coin of probability ``2**-e``, is packed by a Blelloch count over the
   sampled processors (:func:`spatial.tree_scan` over a sparse member set, ``O(sqrt(n t))``)
   into the block of processors at the grid's centre and sorted there by a bitonic network
   (``O(t^{3/2})``);
2. processor 0 fetches the sample elements of ranks ``(k + 1/2) c / m -+ (sqrt(c) + 1)`` (``c``
   the sample's size): pivots ``lo <= hi`` that bracket the answer with high probability (two
   standard deviations of a sample rank each side);
3. the pivots go down the tree of the active set *in one word* (rounded outward to float32 for
   floats, so the bracket only widens; two int32 for ints; two words when they do not fit),
   every active element classifies itself (below, between, above), and the three counts,
   packed into one word (21 bits each; three words for ``n >= 2**21``), come back up; each
   leader records in one word which of its subtrees hold which class;
4. meanwhile the between class, which holds rank ``k`` w.h.p., draws the next round's sample
   (every processor can compute its sampling exponent from the current one), so when
   processor 0 finds rank ``k`` between the pivots, the next pivots themselves tell the
   between class it stays: they go down the tree pruned to it (the leaders' record says where
   it lives) and an active processor that hears nothing has dropped out. When rank ``k`` fell
   outside the bracket (or the bracket kept everything, e.g. two distinct values: then the
   next round uses one pivot, ``lo = hi``, which always makes progress) processor 0 sends its
   choice and the sampling exponent (one word) down the tree pruned to the chosen class, and
   that class samples afresh.

The between class holds about ``2 m / sqrt(c)`` elements, so the active set shrinks by a factor
``~sqrt(t) / 2`` per round, and a tree over ``m`` of ``n`` processors costs ``O(sqrt(n m))``:
the first round (``1.5 n`` for the pivot word down, ``1.5 n`` for the count word up) dominates.
When at most ``2 t`` (and at least 32) elements remain, a last Blelloch count packs them into
the centre block, a bitonic sort orders them, and processor 0 fetches rank ``k``. Expected
energy ``Theta(n)``; depth ``O(log n)`` per round plus ``O(log^2 s)`` for the sample sort, with
``O(1)`` rounds for ``n`` up to ``2**20`` (``O(log log n)`` in general). Every processor holds at
most 11 words; messages carry at most 2 words.

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


def _pivot_word(m, dtype):
    """Processor 0 packs its pivots ``lo <= hi`` into the word ``"piv"`` when they fit in one
    64-bit word: floats rounded outward to float32 (the bracket only widens, so nothing is
    lost), ints as two int32; ``lo == hi`` travels exactly as ``[v, v]`` in two words only when
    it does not fit. Returns the pivots every member will use."""
    lo, hi = m.read("lo", [0])[0], m.read("hi", [0])[0]
    if dtype.kind == "f":
        with np.errstate(over="ignore"):
            lo32, hi32 = np.float32(lo), np.float32(hi)
        if lo32 > lo:
            lo32 = np.nextafter(lo32, np.float32(-np.inf))
        if hi32 < hi:
            hi32 = np.nextafter(hi32, np.float32(np.inf))
        if lo == hi and (lo32 != lo or hi32 != hi):
            return lo, hi                      # an exact single pivot: two words
        word = (np.int64(lo32.view(np.uint32)) << 32) | np.int64(hi32.view(np.uint32))
        lo, hi = np.float64(lo32), np.float64(hi32)
    else:
        info = np.iinfo(np.int32)
        if not (info.min <= lo and hi <= info.max):
            return lo, hi
        word = (np.int64(lo) << 32) | (np.int64(hi) & 0xFFFFFFFF)
    m.load("piv", word, procs=[0])
    m.local(lambda: (lo, hi), (), ("lo", "hi"), procs=[0])
    return lo, hi


def _unpack(word, dtype):
    """The pivots of :func:`_pivot_word`'s packed words (element-wise)."""
    word = np.asarray(word, dtype=np.int64)
    high = (word >> 32).astype(np.int64)
    low = word & 0xFFFFFFFF
    if dtype.kind == "f":
        return (high.astype(np.uint32).view(np.float32).astype(np.float64),
                low.astype(np.uint32).view(np.float32).astype(np.float64))
    return high.astype(np.int32).astype(np.int64), low.astype(np.uint32).view(
        np.int32).astype(np.int64)


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


def _pivot_ranks(k, cnt, c, stalled):
    """Sample ranks of the pivots for rank ``k`` of ``cnt`` from a sorted sample of ``c``."""
    rho = (k + 0.5) * c / cnt
    delta = 0.0 if stalled else math.sqrt(c) + 1.0   # two standard deviations (<= sqrt(c)/2)
    # Clamped to the sample: pivots are always elements, so a class of equal elements ends
    # the search (lo == hi) instead of bracketing it forever; after a round that kept
    # everything (e.g. two distinct values) one pivot (lo == hi) always makes progress.
    r_lo = min(max(int(math.floor(rho - delta)), 0), c - 1)
    r_hi = r_lo if stalled else min(max(int(math.ceil(rho + delta)), 0), c - 1)
    return r_lo, r_hi


def _sample_select(m, x, k, rng, sample=None, compact=None):
    """Rank-``k`` value of ``x`` (on processors ``0..n-1`` of ``m``); the answer ends on 0 in
    register ``"ans"``."""
    n = x.size
    p = m.n_processors
    lo_sent, hi_sent = _sentinels(x.dtype)
    s = _sample_size(p) if sample is None else sample
    compact_at = _compact_size(p) if compact is None else compact

    def ahead_exponent(e):
        # Every processor can compute this: the active count is about cnt ~ t 2**e with
        # t = max(32, s sqrt(cnt / n)) (so cnt ~ 32 2**e or s**2 4**e / n, capped at n), and
        # the between class keeps about 2 (sqrt(t) + 1) / t of it.
        est = min(float(n), max(32.0 * 2.0 ** e, s * s * 4.0 ** e / n))
        t = _target(est, n, s)
        return _exponent(max(1.0, est * 2 * (math.sqrt(t) + 1) / t), n, s)

    bits, packed = _pack_fields(n)
    members = np.arange(n, dtype=np.int64)
    m.load("x", x, procs=members)
    m.load("k", k, procs=[0])
    m.load("m", n, procs=[0])
    e = _exponent(n, n, s)
    stalled = False
    spec = None             # the sorted sample of the next round, drawn ahead (block, count)
    announced = True        # whether the members know they are members
    while True:
        k = int(m.read("k", [0])[0])
        cnt = int(m.read("m", [0])[0])
        if cnt <= max(compact_at, 2 * _target(cnt, n, s)):
            if spec is not None:
                m.free("smp", spec[0])
                m.free("c", [0])
            if not announced:                  # they must know to take part
                m.load("side", 1, procs=[0])
                tree_broadcast(m, "side", members)
                m.free("side")
            region = _gather_sorted(m, members, "x", "fin", hi_sent)
            m.free("c", [0])
            _fetch(m, int(region[k]), "fin", "ans")
            m.free("fin", region)
            return
        # 1-3. A sorted sample at the grid's centre; processor 0 fetches two pivots from it.
        if spec is None:
            sampled = members[rng.random(members.size) < 2.0 ** -e]
            spec = (_gather_sorted(m, sampled, "x", "smp", hi_sent), sampled.size) \
                if sampled.size else None
        if spec is not None:
            region, c = spec
            m.free("c", [0])
            r_lo, r_hi = _pivot_ranks(k, cnt, c, stalled)
            _fetch(m, int(region[r_lo]), "smp", "lo")
            _fetch(m, int(region[r_hi]), "smp", "hi")
            m.free("smp", region)
        else:                                  # nobody sampled (rare): no pivots this round
            m.load("lo", lo_sent, procs=[0])
            m.load("hi", hi_sent, procs=[0])
        spec = None
        # 4. Pivots down the tree pruned to the members (one word when they pack); a
        # processor of the last round's active set that hears nothing has dropped out.
        levels = tree_levels(members)
        lo, hi = _pivot_word(m, x.dtype)
        names = ("piv",) if m.holds("piv", [0])[0] else ("lo", "hi")
        tree_broadcast(m, names, members, levels=levels)
        if names == ("piv",):
            m.local(lambda w: _unpack(w, x.dtype), "piv", ("lo", "hi"), procs=members)
        m.local(lambda v, lo, hi: np.where(v < lo, 0, np.where(v > hi, 2, 1)),
                ("x", "lo", "hi"), "cls", procs=members)
        m.free(("lo", "hi", "piv"), members)
        # The next round's sample, drawn ahead from the between class (it holds rank k w.h.p.).
        e_next = ahead_exponent(e)
        cls = m.read("cls", members)
        ahead = members[(cls == 1) & (rng.random(members.size) < 2.0 ** -e_next)]
        if ahead.size:
            spec = (_gather_sorted(m, ahead, "x", "smp", hi_sent), ahead.size)
        # 5. Counts up; processor 0 decides.
        below, between, above = _count_up(m, members, levels, bits, packed)
        if k < below:
            side, new_cnt = 0, below
        elif k < below + between:
            side, new_cnt, k = 1, between, k - below
        else:
            side, new_cnt, k = 2, above, k - below - between
        m.free(("lo", "hi", "piv"), [0])
        if side == 1 and lo == hi:            # every candidate equals the pivot
            m.load("ans", lo, procs=[0])
            m.free(("cls", "mask", "smp", "c"))
            return
        stalled = new_cnt == cnt            # processor 0 remembers it (part of its "m" word)
        m.local(lambda: (np.int64(k), np.int64(new_cnt)), (), ("k", "m"), procs=[0])
        new = members[cls == side]
        if side == 1 and spec is not None and not stalled:
            e, announced = e_next, False      # the next pivots tell the members
        else:
            # Missed (rank k fell outside the bracket) or stalled: the choice goes down the
            # tree pruned to the chosen class, with the sampling exponent, and it samples anew.
            if spec is not None:
                m.free("smp", spec[0])
                m.free("c", [0])
                spec = None
            e = _exponent(new_cnt, n, s)
            m.load("side", side | (e << 2), procs=[0])
            tree_broadcast(m, "side", new)
            m.free("side")
            announced = True
        m.free(("cls", "mask"))
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
    energy ``~ 6.3 n`` at ``2**20``, ``~ 9.5 n`` at ``2**16``, ``~ 17 n`` at ``2**12``
    (``Theta(n)`` expected; the constant falls as the sample grows), depth ``~ 550`` at
    ``2**20`` (``O(log n)`` per round, a few rounds, see the module docstring), at most 11
    words per processor.
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
