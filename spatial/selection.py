"""Rank selection (k-th smallest, median) with linear energy.

Contract: element ``i`` lives on processor ``i`` of a Z-order machine of ``2**ceil(log2 n)``
processors (non-power-of-two ``n`` is handled: the spare processors take no part); ``k`` starts at
processor 0 and the answer ends there.

``method="quickselect"`` (the energy-optimal one) never moves an element. Every processor draws a
random priority once (``seed``); the active elements (those still in the pivot interval) and
processor 0 form a sparse binary tree (:func:`spatial._common.tree_levels`). One round is

1. a down-sweep from processor 0 of the current pivot and the side chosen last round: each
   active element learns whether it stays active;
2. an up-sweep over the new active set of ``(#less, #equal)`` against the pivot, and the
   highest-priority active element below and above the pivot (6 words per message).

Processor 0 then knows where rank ``k`` lies: it stops, or picks the next pivot from the side
that holds rank ``k`` (a uniformly random active element, as the priorities of the survivors are
exchangeable). A tree over ``m`` of ``n`` processors costs ``O(sqrt(n m))`` energy (``m``
hops of at most ``sqrt(n/m)`` below the level where blocks hold one member each, ``n / 2**b``
above it), and the active set shrinks by a constant factor per round in expectation, so

.. math::

    \\mathbb{E}[E] = O\\Big(\\sum_t \\sqrt{n \\cdot n c^t}\\Big) = O(n), \\qquad
    \\text{depth} = O(\\log^2 n) \\text{ w.h.p.}

(``O(log n)`` rounds of two sweeps of depth ``log2 n``). ``method="sort"`` is the comparison:
bitonic :func:`spatial.sort` and one message from the rank-``k`` processor to processor 0,
``Theta(n^{3/2})`` energy.
"""

import numpy as np

from ._common import (Result, as_values, check_int, deliver, processors_for, seed_rng,
                      tree_levels)
from .collectives import tree_broadcast, tree_reduce
from .exceptions import SpatialInputError
from .machine import Machine
from .sorting import _pad_value, bitonic_records

__all__ = ["select", "median"]

_METHODS = ("quickselect", "sort")


def _best(a_key, a_val, b_key, b_val):
    # The candidate of higher priority (smaller random key) wins.
    take = b_key < a_key
    return np.where(take, b_key, a_key), np.where(take, b_val, a_val)


def _count_combine(a, b):
    lo = _best(a[3], a[4], b[3], b[4])
    hi = _best(a[5], a[6], b[5], b[6])
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2]) + lo + hi


def _quickselect(m, x, k, rng):
    """Rank-``k`` value of ``x`` (on processors ``0..n-1`` of ``m``); the answer ends on 0."""
    n = x.size
    p = m.n_processors
    prio = np.full(p, np.inf)
    prio[:n] = rng.random(n)
    vals = np.zeros(p, dtype=x.dtype)
    vals[:n] = x
    active = np.arange(n, dtype=np.int64)
    levels = tree_levels(active)
    # Round 0: an up-sweep elects the first pivot, the highest-priority element.
    cand = (prio.copy(), vals.copy())
    tree_reduce(m, levels, cand, lambda a, b: _best(a[0], a[1], b[0], b[1]))
    pivot = cand[1][0]
    while True:
        # Down-sweep of the pivot over the tree of the active set. Leaders know from the last
        # up-sweep which child subtrees still hold active elements, so the sweep is pruned to
        # them; a processor that hears nothing this round has dropped out.
        word = np.zeros(p, dtype=x.dtype)
        word[0] = pivot
        tree_broadcast(m, levels, (word,))
        v = vals[active]
        pv = word[active]
        is_less, is_equal, is_greater = v < pv, v == pv, v > pv
        # Up-sweep of the counts and of each side's highest-priority element (7 words).
        acc = (np.zeros(p, np.int64), np.zeros(p, np.int64), np.zeros(p, np.int64),
               np.full(p, np.inf), np.zeros(p, dtype=x.dtype),
               np.full(p, np.inf), np.zeros(p, dtype=x.dtype))
        acc[0][active] = is_less
        acc[1][active] = is_equal
        acc[2][active] = is_greater
        acc[3][active] = np.where(is_less, prio[active], np.inf)
        acc[4][active] = v
        acc[5][active] = np.where(is_greater, prio[active], np.inf)
        acc[6][active] = v
        tree_reduce(m, levels, acc, _count_combine)
        n_less, n_equal = int(acc[0][0]), int(acc[1][0])
        if k < n_less:
            active, pivot = active[is_less], acc[4][0]
        elif k < n_less + n_equal:
            return pivot
        else:
            k -= n_less + n_equal
            active, pivot = active[is_greater], acc[6][0]
        levels = tree_levels(active)


def _select_by_sort(m, x, k):
    n = x.size
    key = np.full(m.n_processors, _pad_value(x.dtype), dtype=x.dtype)
    key[:n] = x
    out, _ = bitonic_records(m, key)
    src = np.array([k], dtype=np.int64)
    return deliver(m, src, np.zeros(1, np.int64), out[src])[0]


def select(x, k, *, method="quickselect", seed=None):
    """The ``k``-th smallest element of ``x`` (``k = 0`` is the minimum), as ``np.partition``.

    Bounds (lower bound ``n - 1``: the answer depends on every element, so every processor but
    0 must send). ``method="quickselect"``, measured on random inputs (median, mean of 3 seeds):
    energy ``~ 18 n`` to ``22 n`` over ``2**10 .. 2**20`` (``Theta(n)`` expected; single runs
    vary from ``~ 13 n`` to ``~ 25 n`` with the random pivots), depth ``O(log^2 n)``: ``~ 250``
    at ``2**10``, ``~ 800`` at ``2**20`` (about ``2 (log2 n)^2``). ``method="sort"``:
    ``~ 7 n^{3/2}`` energy, depth ``L (L + 1) / 2 + 1``.

    Parameters
    ----------
    x : array_like, shape (n,)
        Values (any length ``>= 1``), bool, int or float; duplicates fine, NaN refused.
    k : int
        Rank, ``0 <= k < n``.
    method : {"quickselect", "sort"}
        The linear-energy algorithm or the sorting comparison.
    seed : int, numpy Generator or None
        Seed of the processors' random priorities (quickselect only; the answer never depends
        on it, the cost does).

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
    m = Machine(p, "z-order")
    if method == "quickselect":
        value = _quickselect(m, x, k, seed_rng(seed))
        name = "select"
    else:
        value = _select_by_sort(m, x, k)
        name = "select_sort"
    return Result(x.dtype.type(value), m.metrics, name, n, p, "z-order")


def median(x, *, method="quickselect", seed=None):
    """The median of ``x`` as ``np.median`` computes it (mean of the two middle values when
    ``n`` is even).

    Odd ``n``: one :func:`select`. Even ``n``: :func:`select` of the lower middle value ``a``,
    then one broadcast of ``a`` and one reduce of ``(#values <= a, smallest value > a)`` give the
    upper middle value (``Theta(n)`` more energy, ``2 log2 n`` more depth).

    Parameters
    ----------
    x : array_like, shape (n,)
        Values (``n >= 1``), NaN refused.
    method : {"quickselect", "sort"}
        As in :func:`select`.
    seed : int, numpy Generator or None
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
    m = Machine(p, "z-order")
    k = (n - 1) // 2
    if method == "quickselect":
        lower = _quickselect(m, x, k, seed_rng(seed))
    else:
        lower = _select_by_sort(m, x, k)
    if n % 2:
        value = np.mean(np.array([lower, lower]))
    else:
        levels = tree_levels(np.arange(n, dtype=np.int64))
        word = np.zeros(p, dtype=x.dtype)
        word[0] = lower
        tree_broadcast(m, levels, (word,))
        at_most = np.zeros(p, np.int64)
        at_most[:n] = x <= word[:n]
        big = np.full(p, _pad_value(x.dtype), dtype=x.dtype)
        big[:n] = np.where(x > word[:n], x, _pad_value(x.dtype))
        tree_reduce(m, levels, (at_most, big),
                    lambda a, b: (a[0] + b[0], np.minimum(a[1], b[1])))
        upper = lower if at_most[0] > n // 2 else big[0]
        value = np.mean(np.array([lower, upper]))
    return Result(np.float64(value), m.metrics, "median", n, p, "z-order")
