"""Shared validation, the result record and the binary tree over processor ids."""

from dataclasses import dataclass

import numpy as np

from .exceptions import SpatialInputError, SpatialTypeError
from .layout import _check_layout
from .machine import Metrics

__all__ = ["Result"]

# Binary ufuncs that are associative (up to floating-point rounding), so a tree may regroup them.
_ASSOCIATIVE = {
    "add": np.add, "multiply": np.multiply, "maximum": np.maximum, "minimum": np.minimum,
    "fmax": np.fmax, "fmin": np.fmin, "logical_and": np.logical_and,
    "logical_or": np.logical_or, "logical_xor": np.logical_xor,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor, "gcd": np.gcd, "lcm": np.lcm,
}
_ALIASES = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum"}


@dataclass(frozen=True)
class Result:
    """What an algorithm computed and what it cost.

    Attributes
    ----------
    value : object
        The output (array or scalar) as read from the processors that hold it, equal to the
        numpy/scipy reference.
    metrics : Metrics
        Energy, words, depth, distance, messages, contention, rounds, peak local words,
        largest message.
    algorithm : str
        Name of the algorithm (as used by the report).
    n : int
        Problem size (elements; nonzeros for SpMV).
    n_processors : int
        Processors of the machine it ran on (``n`` rounded up to a power of two for the grid
        layouts).
    layout : str
        Processor layout of the contract.

    Examples
    --------
    >>> import spatial
    >>> r = spatial.reduce([3, 1, 4, 1, 5], "max")
    >>> int(r.value), r.algorithm, r.n, r.n_processors, r.layout, r.metrics.energy
    (5, 'reduce', 5, 8, 'z-order', 5)
    """

    value: object
    metrics: Metrics
    algorithm: str
    n: int
    n_processors: int
    layout: str


def resolve_op(op):
    """Return the associative numpy ufunc named by ``op`` (a ufunc or its name)."""
    if isinstance(op, str):
        name = _ALIASES.get(op, op)
        if name not in _ASSOCIATIVE:
            raise SpatialInputError(
                f"op {op!r} is not a known associative ufunc; use one of {sorted(_ASSOCIATIVE)}")
        return _ASSOCIATIVE[name]
    if not isinstance(op, np.ufunc):
        raise SpatialTypeError(f"op must be a numpy ufunc or its name, got {type(op).__name__}")
    if op.__name__ not in _ASSOCIATIVE:
        raise SpatialInputError(
            f"op np.{op.__name__} is not associative; a tree may only regroup associative "
            f"operators: {sorted(_ASSOCIATIVE)}")
    return op


def as_real_array(x, name, shape_ok, wanted):
    """``x`` as an ndarray of bool, int or float values whose shape passes ``shape_ok``.

    ``wanted`` names the shape in the error, e.g. ``"one-dimensional"``.
    """
    if hasattr(x, "toarray") and not isinstance(x, np.ndarray):
        raise SpatialTypeError(f"{name} must be a dense array, got a sparse matrix")
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as exc:
        raise SpatialTypeError(f"{name} cannot be read as an array: {exc}") from None
    if not shape_ok(arr.shape):
        raise SpatialInputError(f"{name} must be {wanted}, got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise SpatialTypeError(
            f"{name} must hold bool, int or float values, got dtype {arr.dtype}")
    return arr


def as_values(x, name="x", allow_nan=True, allow_empty=True):
    """Validate a one-dimensional real numeric input and return it as an ndarray."""
    arr = as_real_array(x, name, lambda shape: len(shape) == 1, "one-dimensional")
    if not allow_empty and arr.size == 0:
        raise SpatialInputError(f"{name} must hold at least one element, got an empty array")
    if not allow_nan and arr.dtype.kind == "f":
        nan = np.flatnonzero(np.isnan(arr))
        if nan.size:
            raise SpatialInputError(
                f"{name} contains NaN (first at index {nan[0]}); comparisons are undefined, "
                "so sorting and selection refuse it")
    return arr


def processors_for(n, layout):
    """Processors a layout needs for ``n`` elements: the next power of two (any n for a line)."""
    layout = _check_layout(layout)
    n = max(int(n), 1)
    if layout == "line":
        return n
    return 1 << (n - 1).bit_length()


def tree_levels(members):
    """Edges of the binary tree over the processor ids ``members``, bottom level first.

    The tree has fixed leaders: the leader of an aligned block of ``2**b`` ids is its first id,
    whether or not that processor is a member. On level ``b`` the leader of the right half of
    every aligned block of ``2**(b+1)`` ids sends to the leader of the block (the left half's
    leader), but only where the right half holds a member; leaders of parts without members
    stay silent, and leaders that are not members relay. A processor therefore knows its role
    from its id and from which messages reached it, the root is always processor 0, and the
    tree of a subset of members is a subtree (so a later sweep over fewer members is a pruned
    copy of the earlier one). In Z-order the halves are squares and half-squares, so a level-b
    hop is ``2**floor(b/2)`` long; over ``m`` members of ``n`` the tree costs ``O(sqrt(n m))``.

    Parameters
    ----------
    members : numpy.ndarray of int64
        Sorted, distinct processor ids.

    Returns
    -------
    list of (src, dst) int64 arrays
        One pair per level, ``b = 0, 1, ...`` up to the level where everything reaches 0.

    Examples
    --------
    >>> import numpy as np
    >>> [(s.tolist(), d.tolist()) for s, d in tree_levels(np.arange(4))]
    [([1, 3], [0, 2]), ([2], [0])]
    """
    levels = []
    blocks = members
    b = 0
    while blocks.size and (blocks.size > 1 or blocks[0] != 0):
        right = blocks[(blocks & 1) == 1]
        levels.append((right << b, (right - 1) << b))
        parent = blocks >> 1
        keep = np.ones(parent.size, dtype=bool)
        keep[1:] = parent[1:] != parent[:-1]
        blocks = parent[keep]
        b += 1
    return levels


def check_int(value, name, low=None, high=None):
    """An int parameter within ``[low, high]`` (inclusive), or a clear error."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SpatialTypeError(f"{name} must be an int, got {type(value).__name__}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise SpatialInputError(f"{name} must be in [{low}, {high}], got {value}")
    return value


def seed_rng(seed):
    """A numpy Generator from ``seed`` (None, int or Generator)."""
    if seed is None or isinstance(seed, (int, np.integer, np.random.Generator)):
        return np.random.default_rng(seed)
    raise SpatialTypeError(f"seed must be None, an int or a numpy Generator, got {seed!r}")


def blelloch_levels(members):
    """Pairs of Blelloch's tree over the processor ids ``members``, bottom level first.

    On level ``d`` every aligned block of ``2**(d+1)`` ids whose two halves both hold members
    pairs ``L``, the last member of its left half, with ``R``, the last member of its right half
    (the last member of the block). In the up-sweep ``L`` sends its running total to ``R``; in
    the down-sweep they exchange the block's prefix and the left total. A member is ``L`` of at
    most one pair, so each processor keeps one running word (Blelloch's in-place placement: the
    internal node's left total stays at the last id of its left half). For all ids ``0..n-1``
    the level-``d`` pairs are ``(i + 2**d - 1, min(i + 2**(d+1), n) - 1)``; in Z-order
    ``L -> R`` flips one bit of the id, a hop of ``2**floor(d/2)``.

    Parameters
    ----------
    members : numpy.ndarray of int64
        Sorted, distinct processor ids.

    Returns
    -------
    list of (L, R) int64 arrays
        One pair of arrays per level ``d = 0, 1, ...`` (empty where no block pairs up).

    Examples
    --------
    >>> [(a.tolist(), b.tolist()) for a, b in blelloch_levels(np.arange(6))]
    [([0, 2, 4], [1, 3, 5]), ([1], [3]), ([3], [5])]
    """
    levels = []
    if members.size < 2:
        return levels
    for d in range(int(members[-1]).bit_length()):
        half = members >> d
        last = np.flatnonzero(np.r_[half[1:] != half[:-1], True])
        hb = half[last]
        pair = np.zeros(hb.size, dtype=bool)
        pair[:-1] = ((hb[:-1] & 1) == 0) & (hb[1:] == hb[:-1] + 1)
        at = np.flatnonzero(pair)
        levels.append((members[last[at]], members[last[at + 1]]))
    return levels
