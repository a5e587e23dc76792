"""Bitonic sorting on the grid, and the displacement lower bound of sorting.

Contract: element ``i`` lives on processor ``i`` of the layout (Z-order for :func:`sort`,
row-major for the comparison); afterwards processor ``i`` holds the ``i``-th smallest. ``n`` that
is not a power of two is handled by padding to ``P = 2**ceil(log2 n)`` processors with
``+inf`` sentinels (the dtype's maximum for ints) that sort behind every value; the padding
processors take part in the network and their messages are counted.

Bitonic sorting runs ``L (L + 1) / 2`` compare-exchange steps (``L = log2 P``); in step ``(k, j)``
processors ``i`` and ``i xor 2**j`` swap their words (two messages) and keep the min or the max.
In Z-order bit ``j`` of the id is a hop of ``2**floor(j/2)``, so

.. math::

    E = P \\sum_{k=1}^{L} \\sum_{j=0}^{k-1} 2^{\\lfloor j/2 \\rfloor}
      = 7 P^{3/2} - O(P \\log P),
    \\qquad \\text{depth} = \\frac{L(L+1)}{2}.

In row-major order bit ``j < log2 width`` is a hop of ``2**j`` along a row, and the energy is
``~ (L/2 + 4) P^{3/2}``: a ``log n`` factor more.
"""

import numpy as np

from ._common import Result, as_values, processors_for
from .exceptions import SpatialInputError
from .layout import _check_layout, layout_coordinates
from .collectives import _machine

__all__ = ["sort", "sort_lower_bound"]

_SORT_LAYOUTS = ("z-order", "row-major")


def bitonic_records(m, key, payload=(), size=None, tmp="_in", base=0):
    """Sort the words of register ``key`` on processors ``base .. base+size-1`` ascending, in
    place (``base`` a multiple of ``size``, so the network's hops are those of ids ``0 ..
    size-1``).

    ``payload`` registers travel with their keys (one message carries the record: ``1 +
    len(payload)`` words). Every processor of the range must hold the key (pad with a sentinel
    that sorts last). Equal keys never swap. ``size`` is a power of two (default: all
    processors of ``m``). Each processor holds its record and the partner's: ``2 (1 +
    len(payload))`` words.
    """
    p = m.n_processors if size is None else int(size)
    levels = p.bit_length() - 1
    ids = np.arange(p, dtype=np.int64)
    names = (key,) + tuple(payload)
    procs = ids + base
    k = len(names)
    tmps = tuple(f"{tmp}{i}" for i in range(k))
    for lev in range(1, levels + 1):
        ascending = (ids >> lev) & 1 == 0
        for j in range(lev - 1, -1, -1):
            partner = procs ^ (1 << j)
            # Every processor sends its record to its partner and keeps the min or the max.
            m.send(procs, partner, names, into=tmps)
            keep_min = ((ids >> j) & 1 == 0) == ascending

            def step(*a, keep_min=keep_min):
                mine, theirs = a[0], a[k]
                take = np.where(keep_min, theirs < mine, theirs > mine)
                return tuple(np.where(take, a[k + i], a[i]) for i in range(k))

            m.local(step, names + tmps, names, procs=procs)
            m.free(tmps, procs)


def _pad_value(dtype):
    if dtype.kind == "f":
        return np.inf
    if dtype.kind == "b":
        return True
    return np.iinfo(dtype).max


def sort(x, *, layout="z-order", words=None, message_words=None):
    """Sort ``x`` ascending with a bitonic network on the grid.

    Bounds: energy ``Theta(n^{3/2})``, depth ``L (L + 1) / 2`` with ``L = ceil(log2 n)``. Measured
    in Z-order (random inputs; the network is oblivious, so every input of a size costs the
    same): ``208`` at ``n = 16``, ``6.85 n^{3/2}`` at ``2**16``, ``6.95 n^{3/2}`` at ``2**20``
    (one-word messages; two words a processor: its key and its partner's)
    (``7 n^{3/2}`` in the limit),
    ``~ 10`` times the displacement lower bound of a random permutation
    (:func:`sort_lower_bound`). Row-major: ``~ (L/2 + 4) n^{3/2}``, e.g. ``11.4 n^{3/2}`` at
    ``2**16``, ``14.0 n^{3/2}`` at ``2**20``.

    Parameters
    ----------
    x : array_like, shape (n,)
        Values (any length), bool, int or float. NaN is refused (comparisons are undefined).
    layout : {"z-order", "row-major"}
        Processor numbering of the contract: the Z-order network is the energy-optimal one, the
        row-major network is the comparison.
    words, message_words : int, optional
        Local memory and message size of the machine (defaults of :class:`Machine`).

    Returns
    -------
    Result
        ``value``: the sorted array, equal to ``np.sort(x)``.

    Raises
    ------
    SpatialInputError
        On NaN, a multi-dimensional ``x`` or a layout other than the two above.

    Examples
    --------
    >>> r = sort([3, -1, 2, 2, 0])
    >>> r.value.tolist(), r.n_processors, r.metrics.depth
    ([-1, 0, 2, 2, 3], 8, 6)
    >>> sort([4, 3, 2, 1]).metrics.energy      # 2x2 grid: 3 steps x 4 messages of length 1
    12
    """
    x = as_values(x, allow_nan=False)
    layout = _check_layout(layout)
    if layout not in _SORT_LAYOUTS:
        raise SpatialInputError(f"sort layout must be one of {_SORT_LAYOUTS}, got {layout!r}")
    n = x.size
    p = processors_for(n, layout)
    m = _machine(p, layout, words, message_words)
    name = "sort" if layout == "z-order" else "sort_rowmajor"
    if n <= 1:
        return Result(x.copy(), m.metrics, name, n, p, layout)
    key = np.full(p, _pad_value(x.dtype), dtype=x.dtype)
    key[:n] = x                         # the padding processors hold +inf sentinels
    m.load("key", key)
    bitonic_records(m, "key")
    return Result(m.read("key", np.arange(n)), m.metrics, name, n, p, layout)


def sort_lower_bound(x, layout="z-order"):
    """Energy every sort of ``x`` in ``layout`` must spend: the displacement bound.

    Each value must travel from its processor to the processor of its rank; with one element
    per message the messages carrying it form a path at least as long as that Manhattan
    distance. Equal values may be matched to their slots in any order, so per group of equal
    values the bound uses the cheapest matching of each coordinate separately (sorted x to
    sorted x, sorted y to sorted y), a lower bound on the cheapest Manhattan matching:

    .. math::

        E \\ge \\sum_{v} \\Big( \\sum_t |x^{src}_{(t)} - x^{dst}_{(t)}| + \\sum_t |y^{src}_{(t)}
        - y^{dst}_{(t)}| \\Big).

    For distinct values this is the exact total displacement: ``~ (2/3) n^{3/2}`` for a random
    permutation, and the reversal of a square grid costs ``~ n^{3/2}``.

    Parameters
    ----------
    x : array_like, shape (n,)
        The input (NaN refused).
    layout : {"z-order", "row-major"}
        The layout of the sort's contract.

    Returns
    -------
    int

    Examples
    --------
    >>> sort_lower_bound([3, 2, 1, 0])   # 2x2 Z-order: every value crosses the diagonal
    8
    >>> sort_lower_bound([1, 1, 1, 1])
    0
    """
    x = as_values(x, allow_nan=False)
    layout = _check_layout(layout)
    n = x.size
    if n <= 1:
        return 0
    px, py = layout_coordinates(processors_for(n, layout), layout)
    px, py = px[:n], py[:n]
    order = np.argsort(x, kind="stable")           # element order[r] goes to slot r
    sorted_vals = x[order]
    group = np.concatenate(([0], np.cumsum(sorted_vals[1:] != sorted_vals[:-1])))
    total = 0
    for coord in (px, py):
        src = coord[order]
        # Within a group of equal values match sources and slots in coordinate order.
        src_sorted = src[np.lexsort((src, group))]
        dst_sorted = coord[np.lexsort((coord, group))]
        total += int(np.abs(src_sorted - dst_sorted).sum())
    return total
