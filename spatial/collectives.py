"""Broadcast, reduce and prefix scan on a binary tree over the processors.

Contract: element ``i`` of the input lives on processor ``i`` of the layout (Z-order by default);
``n`` elements occupy processors ``0 .. n-1`` of a machine of ``2**ceil(log2 n)`` processors
(grid layouts) or ``n`` processors (``"line"``). Non-power-of-two ``n`` is handled: the unused
processors take no part and cost nothing. Broadcast starts at processor 0, reduce ends at
processor 0, scan leaves element ``i``'s prefix on processor ``i``.

The tree joins the two halves of every aligned block of ``2**(b+1)`` processor ids on level
``b`` (:func:`spatial._common.tree_levels`). In Z-order these halves are the two halves of a
square or of a 2:1 rectangle, so the tree halves the grid alternately in x and y; the level-``b``
hop is ``2**floor(b/2)`` long and ``n / 2**(b+1)`` messages take it:

.. math::

    E_{\\text{broadcast}} = E_{\\text{reduce}} = \\sum_b \\frac{n}{2^{b+1}} 2^{\\lfloor b/2
    \\rfloor} \\to \\frac{3}{2} n, \\qquad \\text{depth} = \\lceil \\log_2 n \\rceil .

In row-major order the first ``log2 sqrt(n)`` levels all run along rows with ``n/2`` energy
each, ``Theta(n log n)`` in total; on a ``1 x n`` line every level costs ``n/2``. Those are the
comparison variants (``layout="row-major"`` / ``"line"``).
"""

import numpy as np

from ._common import (Result, as_values, check_int, deliver, processors_for, resolve_op,
                      tree_levels)
from .exceptions import SpatialInputError
from .layout import _check_layout
from .machine import Machine

__all__ = ["broadcast", "reduce", "scan"]

_SCAN_METHODS = ("tree", "chain")


# -- kernels on a machine (shared with selection and SpMV) -----------------------------------
def tree_reduce(m, levels, acc, combine, present=None):
    """Up-sweep: fold the members' values into processor 0.

    ``acc`` (tuple of per-processor arrays) is updated in place; ``present`` marks processors
    holding a value (members; relaying leaders acquire one when they first receive). Returns
    per level the left subtotals ``(values, present)`` that a scan's down-sweep needs.
    """
    if present is None:
        present = np.ones(acc[0].shape[0], dtype=bool)
    saved = []
    for src, dst in levels:
        left = tuple(a[dst] for a in acc)
        had = present[dst]
        got = deliver(m, src, dst, tuple(a[src] for a in acc))
        saved.append((left, had))
        joined = combine(left, got)
        for a, j, g in zip(acc, joined, got):
            a[dst] = np.where(had, j, g)
        present[dst] = True
    return saved


def tree_broadcast(m, levels, vals):
    """Down-sweep: copy processor 0's entries of ``vals`` (tuple of arrays) to every member."""
    for src, dst in reversed(levels):
        got = deliver(m, dst, src, tuple(v[dst] for v in vals))
        for v, g in zip(vals, got):
            v[src] = g


def tree_scan(m, levels, vals, combine, present):
    """Up-sweep and down-sweep; returns ``(prefix, has)``: each member's exclusive prefix
    (tuple of arrays) and whether it has one (False for the first member)."""
    acc = tuple(v.copy() for v in vals)
    saved = tree_reduce(m, levels, acc, combine, present.copy())
    pre = tuple(np.zeros_like(v) for v in vals)
    has = np.zeros(vals[0].shape[0], dtype=bool)
    for (src, dst), (left, had) in zip(reversed(levels), reversed(saved)):
        # The right half's prefix: the block's prefix, then the left half's total (either may
        # be missing: nothing precedes the block, or the left half holds no member).
        hp = has[dst]
        msg = tuple(lv.copy() for lv in left)
        both = hp & had
        if both.any():
            joined = combine(tuple(p[dst[both]] for p in pre), tuple(lv[both] for lv in left))
            for mm, j in zip(msg, joined):
                mm[both] = j
        only_pre = hp & ~had
        for mm, p in zip(msg, pre):
            mm[only_pre] = p[dst[only_pre]]
        got = deliver(m, dst, src, msg)
        for p, g in zip(pre, got):
            p[src] = g
        has[src] = hp | had
    return pre, has


def _ufunc_combine(op):
    return lambda a, b: (op(a[0], b[0]),)


def _work_dtype(op, x):
    return op(x[:1], x[:1]).dtype


# -- public functions -----------------------------------------------------------------------
def broadcast(value, n, *, layout="z-order"):
    """Copy one word from processor 0 to processors ``0 .. n-1``.

    Recursive halving: on level ``b`` (top down) the first processor of every aligned block of
    ``2**(b+1)`` ids sends to the first processor of the block's right half.

    Bounds (lower bound ``n - 1``: every other processor must receive a message). Measured for
    ``n = 2**k`` in Z-order: energy ``(3/2) n - O(sqrt n)`` (``18`` at ``n = 16``, ratio
    ``1.50`` at ``2**20``), depth ``log2 n``, distance ``width + height - 2`` (the far corner).
    Row-major costs ``~ (n/4) log2 n`` and a line ``(n/2) log2 n``.

    Parameters
    ----------
    value : scalar
        The word held by processor 0.
    n : int
        Number of processors to reach (``>= 1``).
    layout : {"z-order", "row-major", "line"}
        Processor numbering of the contract.

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
    p = processors_for(n, layout)
    m = Machine(p, layout)
    held = np.zeros(p, dtype=arr.dtype)
    held[0] = arr
    tree_broadcast(m, tree_levels(np.arange(n, dtype=np.int64)), (held,))
    name = "broadcast" if layout == "z-order" else f"broadcast_{layout.replace('-', '')}"
    return Result(held[:n].copy(), m.metrics, name, n, p, layout)


def reduce(x, op=np.add, *, layout="z-order"):
    """Combine ``x[0] op x[1] op ... op x[n-1]`` into processor 0.

    The reverse of :func:`broadcast`'s tree: the left processor of every pair applies
    ``op(left, right)``, so the order of operands is kept (non-commutative ops are fine).

    Bounds (lower bound ``n - 1``: every processor but 0 must send). Measured in Z-order: energy
    ``(3/2) n - O(sqrt n)``, depth ``ceil(log2 n)``; row-major ``~ (n/4) log2 n``, line
    ``(n/2) log2 n`` for powers of two.

    Parameters
    ----------
    x : array_like, shape (n,)
        Values, ``n >= 1``; bool, int or float (NaN propagates as in numpy).
    op : numpy ufunc or str
        An associative binary ufunc (``np.add``, ``np.maximum``, ``"min"``, ...).
    layout : {"z-order", "row-major", "line"}
        Processor numbering of the contract.

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
    m = Machine(p, layout)
    acc = np.zeros(p, dtype=_work_dtype(op, x))
    acc[:n] = x
    present = np.zeros(p, dtype=bool)
    present[:n] = True
    tree_reduce(m, tree_levels(np.arange(n, dtype=np.int64)), (acc,), _ufunc_combine(op),
                present)
    name = "reduce" if layout == "z-order" else f"reduce_{layout.replace('-', '')}"
    return Result(acc[0], m.metrics, name, n, p, layout)


def scan(x, op=np.add, *, exclusive=False, initial=None, layout="z-order", method="tree"):
    """Prefix scan: element ``i`` gets ``x[0] op ... op x[i]`` (inclusive) or the same without
    ``x[i]`` (exclusive, with ``initial`` at ``i = 0``).

    ``method="tree"``: an up-sweep (:func:`reduce`'s tree, every left processor keeps its
    half's subtotal) and a down-sweep in which each left processor sends the right half its
    prefix (block prefix ``op`` left subtotal). No identity element is needed.
    ``method="chain"``: processor ``i`` receives the running prefix from ``i - 1`` and sends
    the next one to ``i + 1`` (on ``layout="line"``: energy ``n - 1``, optimal, but depth
    ``n - 1``).

    Bounds (lower bound ``n - 1``: every processor but 0 must hear from processor 0). Measured
    for the tree in Z-order: energy ``3 n - O(sqrt n)`` (ratio to ``n - 1``: ``3.00`` at
    ``2**20``), depth ``2 log2 n``, distance ``<= 2 (width + height)``.

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

    Returns
    -------
    Result
        ``value``: array of ``n`` prefixes, equal to ``op.accumulate(x)`` (shifted by one and
        led by ``initial`` when exclusive), up to float rounding order.

    Examples
    --------
    >>> r = scan([1, 2, 3, 4])
    >>> r.value.tolist(), r.metrics.energy, r.metrics.depth
    ([1, 3, 6, 10], 6, 4)
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
    m = Machine(p, layout)
    dtype = _work_dtype(op, x) if n else x.dtype
    name = "scan" if method == "tree" else "scan_chain"
    if n == 0:
        return Result(np.zeros(0, dtype=dtype), m.metrics, name, 0, p, layout)
    vals = np.zeros(p, dtype=dtype)
    vals[:n] = x
    if method == "chain":
        # The chain carries the running fold left to right: exactly op.accumulate's order.
        m.chain(np.arange(n, dtype=np.int64))
        inclusive = op.accumulate(vals[:n], dtype=dtype)
        if not exclusive:
            return Result(inclusive, m.metrics, name, n, p, layout)
        out = np.empty(n, dtype=dtype)
        out[0] = initial
        out[1:] = inclusive[:-1]
        return Result(out, m.metrics, name, n, p, layout)
    present = np.zeros(p, dtype=bool)
    present[:n] = True
    (pre,), has = tree_scan(m, tree_levels(np.arange(n, dtype=np.int64)), (vals,),
                            _ufunc_combine(op), present)
    pre, has = pre[:n], has[:n]
    if exclusive:
        out = pre.copy()
        out[~has] = initial
    else:
        out = vals[:n].copy()
        out[has] = op(pre[has], vals[:n][has])
    return Result(out, m.metrics, name, n, p, layout)
