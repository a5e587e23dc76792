"""Processor layouts: which grid coordinates hold element ``i`` of an input.

A machine of ``P = 2**L`` processors is a ``height x width`` grid with ``width = 2**ceil(L/2)``
and ``height = 2**floor(L/2)``: square when ``L`` is even, twice as wide as high when ``L`` is
odd (the spec's square generalised to every power of two, so sizes ``2**8 .. 2**20`` all run).

Three layouts number the processors; element ``i`` of an input lives on processor ``i``:

``"z-order"``
    Morton order: the bits of ``i`` alternate between ``x`` (even bits) and ``y`` (odd bits).
    Every aligned block of ``4**j`` consecutive indices is a ``2**j x 2**j`` square, which is why
    tree algorithms and bitonic sorting are energy-optimal in it.
``"row-major"``
    ``i = y * width + x``. Consecutive indices run along a row; a tree over indices therefore
    pays long horizontal hops on every level (an extra ``log n`` factor).
``"line"``
    A ``1 x P`` row (any ``P``, not only powers of two): the one-dimensional reference.

Converting between row-major and Z-order costs Theta(n^{3/2}) energy on the machine, so an
algorithm's layout is part of its contract; the functions here are the free, host-side maps.
"""

import numpy as np

from .exceptions import SpatialInputError, SpatialTypeError

__all__ = [
    "LAYOUTS",
    "grid_shape",
    "morton_encode",
    "morton_decode",
    "layout_coordinates",
]

# processor layouts: a Z-order (Morton) grid, a row-major grid, or a line
LAYOUTS = ("z-order", "row-major", "line")

# Bit-spreading masks for 32-bit coordinates (interleave with zeros).
_MASKS = (
    (16, 0x0000FFFF0000FFFF),
    (8, 0x00FF00FF00FF00FF),
    (4, 0x0F0F0F0F0F0F0F0F),
    (2, 0x3333333333333333),
    (1, 0x5555555555555555),
)
# The inverse steps: gather every other bit back into the low half.
_COMPACT_MASKS = (
    (1, 0x3333333333333333),
    (2, 0x0F0F0F0F0F0F0F0F),
    (4, 0x00FF00FF00FF00FF),
    (8, 0x0000FFFF0000FFFF),
    (16, 0x00000000FFFFFFFF),
)


def _check_layout(layout):
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise SpatialInputError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    return layout


def _log2_exact(p, name="n_processors"):
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
        raise SpatialTypeError(f"{name} must be an int, got {type(p).__name__}")
    p = int(p)
    if p < 1 or p & (p - 1):
        raise SpatialInputError(f"{name} must be a power of two >= 1 for this layout, got {p}")
    return p.bit_length() - 1


def grid_shape(n_processors, layout="z-order"):
    """Return the grid ``(height, width)`` of a machine with ``n_processors`` processors.

    Parameters
    ----------
    n_processors : int
        Number of processors: a power of two for ``"z-order"`` and ``"row-major"``, any positive
        integer for ``"line"``.
    layout : {"z-order", "row-major", "line"}
        Processor numbering.

    Returns
    -------
    tuple of int
        ``(height, width)``.

    Examples
    --------
    >>> grid_shape(16), grid_shape(32), grid_shape(5, "line")
    ((4, 4), (4, 8), (1, 5))
    """
    layout = _check_layout(layout)
    if layout == "line":
        if isinstance(n_processors, bool) or not isinstance(n_processors, (int, np.integer)):
            raise SpatialTypeError(
                f"n_processors must be an int, got {type(n_processors).__name__}")
        if n_processors < 1:
            raise SpatialInputError(f"n_processors must be >= 1, got {n_processors}")
        return 1, int(n_processors)
    lg = _log2_exact(n_processors)
    return 1 << (lg // 2), 1 << ((lg + 1) // 2)


def _spread(v):
    v = v.astype(np.uint64)
    for shift, mask in _MASKS:
        v = (v | (v << np.uint64(shift))) & np.uint64(mask)
    return v


def _compact(v):
    v = v & np.uint64(0x5555555555555555)
    for shift, mask in _COMPACT_MASKS:
        v = (v | (v >> np.uint64(shift))) & np.uint64(mask)
    return v


def morton_encode(x, y):
    """Z-order index of grid points ``(x, y)``: ``x`` fills the even bits, ``y`` the odd bits.

    Parameters
    ----------
    x, y : array_like of int
        Non-negative coordinates below ``2**31``.

    Returns
    -------
    numpy.ndarray of int64

    Examples
    --------
    >>> morton_encode([0, 1, 0, 1, 2], [0, 0, 1, 1, 0]).tolist()
    [0, 1, 2, 3, 4]
    """
    x = np.asarray(x)
    y = np.asarray(y)
    if (x.size and x.min() < 0) or (y.size and y.min() < 0):
        raise SpatialInputError("morton_encode needs non-negative coordinates")
    return (_spread(x) | (_spread(y) << np.uint64(1))).astype(np.int64)


def morton_decode(index):
    """Grid point ``(x, y)`` of Z-order indices (the inverse of :func:`morton_encode`).

    Parameters
    ----------
    index : array_like of int
        Non-negative Z-order indices.

    Returns
    -------
    x, y : numpy.ndarray of int64

    Examples
    --------
    >>> x, y = morton_decode([0, 1, 2, 3, 7, 8])
    >>> x.tolist(), y.tolist()
    ([0, 1, 0, 1, 3, 0], [0, 0, 1, 1, 1, 2])
    """
    i = np.asarray(index)
    if i.size and i.min() < 0:
        raise SpatialInputError("morton_decode needs non-negative indices")
    u = i.astype(np.uint64)
    return _compact(u).astype(np.int64), _compact(u >> np.uint64(1)).astype(np.int64)


def layout_coordinates(n_processors, layout="z-order"):
    """Coordinates ``(x, y)`` of processors ``0 .. n_processors - 1`` in ``layout``.

    Parameters
    ----------
    n_processors : int
        Number of processors (a power of two except for ``"line"``).
    layout : {"z-order", "row-major", "line"}
        Processor numbering.

    Returns
    -------
    x, y : numpy.ndarray of int64
        Column and row of each processor.

    Examples
    --------
    >>> x, y = layout_coordinates(8, "row-major")
    >>> x.tolist(), y.tolist()
    ([0, 1, 2, 3, 0, 1, 2, 3], [0, 0, 0, 0, 1, 1, 1, 1])
    >>> layout_coordinates(8, "z-order")[0].tolist()
    [0, 1, 0, 1, 2, 3, 2, 3]
    """
    height, width = grid_shape(n_processors, layout)
    idx = np.arange(int(n_processors), dtype=np.int64)
    if layout == "z-order":
        return morton_decode(idx)
    return idx % width, idx // width
