"""Broadcast, reduce and prefix scan on binary trees over the processors, and the tree steps
they are built from (public: use them in your own algorithms).

Contract: element ``i`` of the input lives on processor ``i`` of the layout (Z-order by default);
``n`` elements occupy processors ``0 .. n-1`` of a machine of ``2**ceil(log2 n)`` processors
(grid layouts) or ``n`` processors (``"line"``). Non-power-of-two ``n`` is handled: the unused
processors take no part and cost nothing. Broadcast starts at processor 0, reduce ends at
processor 0, scan leaves element ``i``'s prefix on processor ``i``. Every processor holds a
constant number of words throughout (``Metrics.max_words``: 2 for broadcast and reduce, 4 for
the scan).

Broadcast and reduce use the tree with fixed leaders (:func:`spatial._common.tree_levels`): on
level ``b`` the first processor of the right half of every aligned block of ``2**(b+1)`` ids and
the first processor of the block exchange one word. In Z-order these halves are the two halves
of a square or of a 2:1 rectangle, so the level-``b`` hop is ``2**floor(b/2)`` long and
``n / 2**(b+1)`` messages take it:

.. math::

    E_{\\text{broadcast}} = E_{\\text{reduce}} = \\sum_b \\frac{n}{2^{b+1}} 2^{\\lfloor b/2
    \\rfloor} \\to \\frac{3}{2} n, \\qquad \\text{depth} = \\lceil \\log_2 n \\rceil .

The scan is Blelloch's (:func:`spatial._common.blelloch_levels`): an up-sweep in which the last
processor of every left half sends its running total to the last processor of the block (the
same hops as reduce, ``1.5 n``), and a down-sweep in which they exchange the block's prefix and
the left total (two one-word messages per pair, ``3 n``; one where nothing precedes the block),
so energy ``4.5 n - O(sqrt n)`` and depth ``2 log2 n - 1``, with one running word per processor
instead of one saved subtotal per level.

In row-major order the first ``log2 sqrt(n)`` levels all run along rows with ``n/2`` energy
each, ``Theta(n log n)`` in total; on a ``1 x n`` line every level costs ``n/2``. Those are the
comparison variants (``layout="row-major"`` / ``"line"``).
"""

import numpy as np

from ._common import (Result, as_values, blelloch_levels, check_int, processors_for, resolve_op,
                      tree_levels)
from .exceptions import SpatialInputError, SpatialTypeError
from .layout import _check_layout
from .machine import Machine, _names

__all__ = ["broadcast", "reduce", "scan", "tree_broadcast", "tree_reduce", "tree_scan"]

_SCAN_METHODS = ("tree", "chain")


def _members(m, members):
    if members is None:
        return np.arange(m.n_processors, dtype=np.int64)
    members = m._ids(members, "members")
    if members.size > 1 and not (members[1:] > members[:-1]).all():
        members = np.unique(members)             # sorted and distinct, as the trees need
    return members


def _combiner(combine, k):
    if isinstance(combine, np.ufunc):
        if k != 1:
            raise SpatialInputError("a ufunc combines one register; pass a function for several")
        op = combine
        return lambda a, b: (op(a[0], b[0]),)
    if not callable(combine):
        raise SpatialTypeError(f"combine must be a ufunc or a callable, got {combine!r}")
    return combine


# -- tree steps on a machine ---------------------------------------------------------------
def _copy(*words):
    """A local step that stores its inputs unchanged (register to register)."""
    return words


def tree_broadcast(m, names, members=None, *, levels=None):
    """Copy processor 0's words of ``names`` to every member, down the fixed-leader tree.

    Leaders that are not members relay and keep nothing (processor 0 keeps its words).
    Energy ``~1.5 n`` per word over all
    ``n`` processors of a Z-order machine (``O(sqrt(n m))`` over ``m`` members), depth
    ``log2 n``.

    Parameters
    ----------
    m : Machine
    names : str or sequence of str
        Registers processor 0 holds (one message carries all of them).
    members : array_like of int, optional
        Processor ids to reach (default: all).
    levels : list, optional
        ``tree_levels(members)`` when already computed.

    Examples
    --------
    >>> m = Machine(16)
    >>> m.load("b", 7, procs=[0])
    >>> tree_broadcast(m, "b")
    >>> m.read("b").tolist() == [7] * 16, m.metrics.energy, m.metrics.depth
    (True, 18, 4)
    """
    names = _names(names, "names")
    members = _members(m, members) if levels is None or members is not None else None
    if levels is None:
        levels = tree_levels(members)
    for src, dst in reversed(levels):
        m.send(dst, src, names)
    if members is not None and levels:
        relay = np.zeros(m.n_processors, dtype=bool)
        for s, _ in levels:
            relay[s] = True
        relay[members] = False
        relay[0] = False                                             # processor 0 keeps its own
        relay = np.flatnonzero(relay)
        if relay.size:
            m.free(names, relay)


def tree_reduce(m, names, combine, members=None, *, levels=None, tmp="_in"):
    """Fold the members' words of ``names`` into processor 0, up the fixed-leader tree.

    On every level the right leader sends its words and forgets them; the left leader stores
    ``combine(left, right)`` (or the words received, when it is a relay holding nothing yet).
    The order of operands is kept, so ``combine`` needs to be associative, not commutative.
    The registers are consumed: afterwards only processor 0 holds them.

    Parameters
    ----------
    m : Machine
    names : str or sequence of str
        Registers every member holds (one message carries all of them).
    combine : numpy ufunc or callable
        A binary ufunc (one register) or ``combine(left, right) -> tuple`` of arrays, where
        ``left`` and ``right`` are tuples of arrays, one per register.
    members : array_like of int, optional
        Processor ids holding the words (default: all).
    levels : list, optional
        ``tree_levels(members)`` when already computed.
    tmp : str
        Prefix of the registers that receive (freed again).

    Examples
    --------
    >>> m = Machine(8)
    >>> m.load("v", [3, 1, 4, 1, 5, 9, 2, 6])
    >>> tree_reduce(m, "v", np.maximum)
    >>> int(m.read("v", [0])[0]), int(m.holds("v").sum()), m.metrics.energy
    (9, 1, 8)
    """
    names = _names(names, "names")
    k = len(names)
    tmps = tuple(f"{tmp}{i}" for i in range(k))
    comb = _combiner(combine, k)
    if levels is None:
        levels = tree_levels(_members(m, members))

    def both(*a):
        return tuple(comb(a[:k], a[k:]))

    for src, dst in levels:
        m.send(src, dst, names, into=tmps)
        m.free(names, src)
        had = m.holds(names[0], dst)
        if had.any():
            m.local(both, names + tmps, names, procs=dst[had])
        if not had.all():
            m.local(_copy, tmps, names, procs=dst[~had])
        m.free(tmps, dst)


def tree_scan(m, names, combine, members=None, *, into=None, total=None, levels=None,
              tmp="_in"):
    """Blelloch's exclusive scan of the members' words of ``names``, in place.

    Afterwards member ``u`` holds in ``into`` the fold, in id order, of the words of the members
    before it; a member with nothing before it holds no ``into`` word (no identity element is
    needed). Every processor keeps one running word per register (see
    :func:`spatial._common.blelloch_levels`): energy ``4.5 n - O(sqrt n)`` per word over all
    ``n`` processors of a Z-order machine, ``O(sqrt(n m))`` over ``m`` members; depth
    ``2 log2 n - 1``.

    Parameters
    ----------
    m : Machine
    names : str or sequence of str
        Registers every member holds (kept).
    combine : numpy ufunc or callable
        As in :func:`tree_reduce` (associative; the order of operands is kept).
    members : array_like of int, optional
        Processor ids taking part (default: all).
    into : str or sequence of str, optional
        Registers of the prefixes (default: the names with ``"_pre"`` appended).
    total : str or sequence of str, optional
        If given, the last member keeps the fold of all words there.
    levels : list, optional
        ``blelloch_levels(members)`` when already computed.
    tmp : str
        Prefix of the registers that receive (freed again).

    Examples
    --------
    >>> m = Machine(4)
    >>> m.load("x", [1, 2, 3, 4])
    >>> tree_scan(m, "x", np.add, into="pre")
    >>> m.holds("pre").tolist(), m.read("pre", [1, 2, 3]).tolist()
    ([False, True, True, True], [1, 3, 6])
    >>> m.metrics.energy, m.metrics.depth, m.metrics.max_words
    (7, 3, 3)
    """
    names = _names(names, "names")
    k = len(names)
    into = tuple(f"{n}_pre" for n in names) if into is None else _names(into, "into")
    if len(into) != k:
        raise SpatialInputError(f"into must name {k} register(s), got {into}")
    comb = _combiner(combine, k)
    members = _members(m, members)
    if levels is None:
        levels = blelloch_levels(members)
    tmps = tuple(f"{tmp}{i}" for i in range(k))
    acc = into

    def fold(*a):                     # stored words are the right operand: received op own
        return tuple(comb(a[k:], a[:k]))

    def fold_prefix(*a):              # own (the block prefix) op received (the left total)
        return tuple(comb(a[:k], a[k:]))

    if not members.size:
        return
    m.local(_copy, names, acc, procs=members)
    for L, R in levels:
        if L.size:
            m.send(L, R, acc, into=tmps)
            m.local(fold, acc + tmps, acc, procs=R)
            m.free(tmps, R)
    root = members[-1:]                  # the last member: the top of Blelloch's tree
    if total is not None:
        m.local(_copy, acc, _names(total, "total"), procs=root)
    m.free(acc, root)                     # nothing precedes the whole tree
    for L, R in reversed(levels):
        if not L.size:
            continue
        has = m.holds(acc[0], R)          # R knows whether its block has a prefix
        m.send(np.concatenate([L, R[has]]), np.concatenate([R, L[has]]), acc, into=tmps)
        if has.any():
            m.local(fold_prefix, acc + tmps, acc, procs=R[has])
            m.local(_copy, tmps, acc, procs=L[has])
        if not has.all():
            m.local(_copy, tmps, acc, procs=R[~has])
            m.free(acc, L[~has])
        m.free(tmps, np.concatenate([L, R]))


def _ufunc_combine(op):
    return lambda a, b: (op(a[0], b[0]),)


def _work_dtype(op, x):
    return op(x[:1], x[:1]).dtype


# -- public functions -----------------------------------------------------------------------
def broadcast(value, n, *, layout="z-order", words=None, message_words=None):
    """Copy one word from processor 0 to processors ``0 .. n-1``.

    Recursive halving (:func:`tree_broadcast`): on level ``b`` (top down) the first processor of
    every aligned block of ``2**(b+1)`` ids sends to the first processor of the block's right
    half.

    Bounds (lower bound ``n - 1``: every other processor must receive a message). Measured for
    ``n = 2**k`` in Z-order: energy ``(3/2) n - O(sqrt n)`` (``18`` at ``n = 16``, ratio
    ``1.50`` at ``2**20``), depth ``log2 n``, distance ``width + height - 2`` (the far corner),
    one word per processor. Row-major costs ``~ (n/4) log2 n`` and a line ``(n/2) log2 n``.

    Parameters
    ----------
    value : scalar
        The word held by processor 0.
    n : int
        Number of processors to reach (``>= 1``).
    layout : {"z-order", "row-major", "line"}
        Processor numbering of the contract.
    words, message_words : int, optional
        Local memory and message size of the machine (defaults of :class:`Machine`).

    Returns
    -------
    Result
        ``value``: array of ``n`` copies (the value as each processor holds it).

    Examples
    --------
    >>> r = broadcast(7, 16)
    >>> r.value.tolist() == [7] * 16, r.metrics.energy, r.metrics.depth, r.metrics.distance
    (True, 18, 4, 6)
    """
    n = check_int(n, "n", low=1)
    layout = _check_layout(layout)
    arr = np.asarray(value)
    if arr.ndim != 0:
        raise SpatialInputError(f"value must be a scalar (one word), got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise SpatialTypeError(f"value must be bool, int or float, got dtype {arr.dtype}")
    p = processors_for(n, layout)
    m = _machine(p, layout, words, message_words)
    m.load("b", arr, procs=[0])
    members = np.arange(n, dtype=np.int64)
    tree_broadcast(m, "b", members)
    name = "broadcast" if layout == "z-order" else f"broadcast_{layout.replace('-', '')}"
    return Result(m.read("b", members), m.metrics, name, n, p, layout)


def _machine(p, layout, words, message_words):
    kw = {}
    if words is not None:
        kw["words"] = words
    if message_words is not None:
        kw["message_words"] = message_words
    return Machine(p, layout, **kw)


def reduce(x, op=np.add, *, layout="z-order", words=None, message_words=None):
    """Combine ``x[0] op x[1] op ... op x[n-1]`` into processor 0.

    The reverse of :func:`broadcast`'s tree (:func:`tree_reduce`): the left processor of every
    pair applies ``op(left, right)``, so the order of operands is kept (non-commutative ops are
    fine).

    Bounds (lower bound ``n - 1``: every processor but 0 must send). Measured in Z-order: energy
    ``(3/2) n - O(sqrt n)``, depth ``ceil(log2 n)``, two words per processor; row-major
    ``~ (n/4) log2 n``, line ``(n/2) log2 n`` for powers of two.

    Parameters
    ----------
    x : array_like, shape (n,)
        Values, ``n >= 1``; bool, int or float (NaN propagates as in numpy).
    op : numpy ufunc or str
        An associative binary ufunc (``np.add``, ``np.maximum``, ``"min"``, ...).
    layout : {"z-order", "row-major", "line"}
        Processor numbering of the contract.
    words, message_words : int, optional
        Local memory and message size of the machine (defaults of :class:`Machine`).

    Returns
    -------
    Result
        ``value``: the reduction, equal to ``op.reduce(x)`` (up to float rounding order).

    Examples
    --------
    >>> r = reduce([3, 1, 4, 1, 5, 9, 2, 6], "max")
    >>> int(r.value), r.metrics.energy, r.metrics.depth
    (9, 8, 3)
    """
    op = resolve_op(op)
    x = as_values(x, allow_empty=False)
    layout = _check_layout(layout)
    n = x.size
    p = processors_for(n, layout)
    m = _machine(p, layout, words, message_words)
    members = np.arange(n, dtype=np.int64)
    m.load("v", x.astype(_work_dtype(op, x), copy=False), procs=members)
    tree_reduce(m, "v", op, members)
    name = "reduce" if layout == "z-order" else f"reduce_{layout.replace('-', '')}"
    return Result(m.read("v", [0])[0], m.metrics, name, n, p, layout)


def scan(x, op=np.add, *, exclusive=False, initial=None, layout="z-order", method="tree",
         words=None, message_words=None):
    """Prefix scan: element ``i`` gets ``x[0] op ... op x[i]`` (inclusive) or the same without
    ``x[i]`` (exclusive, with ``initial`` at ``i = 0``).

    ``method="tree"``: Blelloch's up-sweep and down-sweep (:func:`tree_scan`), every processor
    keeping one running word; the inclusive result is the exclusive prefix ``op`` its own
    element, computed locally. No identity element is needed. ``method="chain"``: processor
    ``i`` receives the running fold from ``i - 1``, combines it with its element and sends it
    on (:meth:`Machine.chain`; on ``layout="line"``: energy ``n - 1``, optimal, but depth
    ``n - 1``).

    Bounds (lower bound ``n - 1``: every processor but 0 must hear from processor 0). Measured
    for the tree in Z-order: energy ``4.5 n - O(sqrt n)`` (``48`` at ``n = 16``, ratio to
    ``n - 1`` ``4.50`` at ``2**20``), depth ``2 log2 n - 1``, distance ``<= 3 (width +
    height)``, at most 4 words per processor.

    Parameters
    ----------
    x : array_like, shape (n,)
        Values (any length, also 0); bool, int or float. NaN propagates as in numpy.
    op : numpy ufunc or str
        An associative binary ufunc; non-associative ones (``np.subtract``) are refused.
    exclusive : bool
        Exclusive instead of inclusive scan.
    initial : scalar, optional
        The exclusive scan's first entry; defaults to ``op.identity`` and is required for ops
        without one (``np.maximum``).
    layout : {"z-order", "row-major", "line"}
        Processor numbering of the contract.
    method : {"tree", "chain"}
        Tree (log depth) or chain (linear depth).
    words, message_words : int, optional
        Local memory and message size of the machine (defaults of :class:`Machine`).

    Returns
    -------
    Result
        ``value``: array of ``n`` prefixes, equal to ``op.accumulate(x)`` (shifted by one and
        led by ``initial`` when exclusive), up to float rounding order.

    Examples
    --------
    >>> r = scan([1, 2, 3, 4])
    >>> r.value.tolist(), r.metrics.energy, r.metrics.depth
    ([1, 3, 6, 10], 7, 3)
    >>> scan([5, 1, 7, 2], "max", exclusive=True, initial=0).value.tolist()
    [0, 5, 5, 7]
    """
    op = resolve_op(op)
    x = as_values(x)
    layout = _check_layout(layout)
    if method not in _SCAN_METHODS:
        raise SpatialInputError(f"method must be one of {_SCAN_METHODS}, got {method!r}")
    if exclusive:
        if initial is None:
            initial = op.identity
        if initial is None:
            raise SpatialInputError(
                f"exclusive scan with np.{op.__name__} needs initial=: the op has no identity")
    n = x.size
    p = processors_for(n, layout)
    m = _machine(p, layout, words, message_words)
    dtype = _work_dtype(op, x) if n else x.dtype
    name = "scan" if method == "tree" else "scan_chain"
    if n == 0:
        return Result(np.zeros(0, dtype=dtype), m.metrics, name, 0, p, layout)
    members = np.arange(n, dtype=np.int64)
    m.load("x", x.astype(dtype, copy=False), procs=members)
    if method == "chain":
        if exclusive:
            # Each processor keeps what it received: the fold of everything before it.
            m.chain(members, "x", into="pre", op=op, received=True)
        else:
            m.chain(members, "x", into="out", op=op)
            m.local(lambda v: v, "x", "out", procs=[0])
    else:
        tree_scan(m, "x", op, members, into="pre")
    if exclusive:
        m.load("out", np.asarray(initial).astype(dtype), procs=[0])
        if n > 1:
            m.local(lambda v: v, "pre", "out", procs=members[1:])
    elif method == "tree":
        has = m.holds("pre", members)
        m.local(lambda p_, v: op(p_, v), ["pre", "x"], "out", procs=members[has])
        m.local(lambda v: v, "x", "out", procs=members[~has])
    return Result(m.read("out", members), m.metrics, name, n, p, layout)
