"""Dense matrix multiplication ``C = A @ B`` by Cannon's algorithm.

Contract (row-major layout): ``A``, ``B`` are ``N x N``; processor ``(x, y) = (j, i)`` of an
``N' x N'`` grid (``N'`` the next power of two ``>= N``, processor id ``i N' + j``) holds
``A[i, j]`` and ``B[i, j]`` and ends with ``C[i, j]``; processors outside the ``N x N`` corner
take no part. Every processor holds at most 4 words.

Cannon's algorithm: skew ``A`` (row ``i`` rotated left by ``i``) and ``B`` (column ``j`` rotated
up by ``j``), so processor ``(i, j)`` holds ``A[i, k]`` and ``B[k, j]`` with ``k = (i + j) mod N``;
then ``N`` times: multiply-accumulate locally, rotate ``A`` left by one and ``B`` up by one. A
rotation moves ``N - 1`` words of each row one step and one word ``N - 1`` steps back (the grid is
no torus), ``2 N (N - 1)`` energy per matrix, so

.. math::

    E = \\underbrace{2 \\cdot 2 N (N - 1)(N - 1)}_{\\text{rotations}}
      + \\underbrace{2 \\sum_{i} \\sum_{j} d_{\\text{skew}}}_{\\le\\, N^3}
      = \\Theta(N^3) = \\Theta(n^{3/2}), \\qquad \\text{depth} = 2 N,

with ``n = N^2`` elements per matrix: the ``Theta(N^3)`` energy and ``Theta(N)`` depth of the
systolic reference in the model's table. (A processor receives one message per round, so the
``A`` and ``B`` rotations of a step are two rounds, and the model's rule that a send depends on
everything its sender received before chains them: depth ``2 N``, not ``N``.) The 2.5D variant
trades memory for energy by replicating the inputs ``c`` times: ``c`` words a processor on the
``n`` processors of this contract, so it is outside the constant-memory model (not
implemented).
"""

import numpy as np

from ._common import Result, as_real_array
from .collectives import _machine
from .exceptions import SpatialInputError

__all__ = ["matmul", "matmul_lower_bound"]


def _as_square(a, name):
    return as_real_array(a, name, lambda shape: len(shape) == 2 and shape[0] == shape[1] >= 1,
                         "a square matrix (N x N, N >= 1)")


def matmul(A, B, *, words=None, message_words=None):
    """``C = A @ B`` for square dense matrices by Cannon's algorithm (see the module contract).

    Bounds (``n = N**2``): energy ``Theta(N^3) = Theta(n^{3/2})``, measured ``4.60 N^3`` at
    ``N = 128`` (``4 N^3`` for the rotations, about ``N^3 / 2`` for the skews); depth ``2 N``;
    4 words a processor. Lower bound:
    :func:`matmul_lower_bound`.

    Parameters
    ----------
    A, B : array_like, shape (N, N)
        Bool, int or float entries (bools multiply as ints).
    words, message_words : int, optional
        Local memory and message size of the machine (defaults of :class:`Machine`).

    Returns
    -------
    Result
        ``value``: ``A @ B``; ``n`` is ``N**2``, the layout ``"row-major"``.

    Examples
    --------
    >>> r = matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]])
    >>> r.value.tolist(), r.metrics.energy, r.metrics.depth
    ([[19, 22], [43, 50]], 12, 4)
    """
    a = _as_square(A, "A")
    b = _as_square(B, "B")
    if a.shape != b.shape:
        raise SpatialInputError(f"A and B must have the same shape, got {a.shape} and {b.shape}")
    N = a.shape[0]
    dtype = np.result_type(a.dtype, b.dtype)
    if dtype == np.bool_:
        dtype = np.dtype(np.int64)
    side = 1 << (N - 1).bit_length()
    p = side * side
    m = _machine(p, "row-major", words, message_words)
    i, j = np.divmod(np.arange(N * N, dtype=np.int64), N)
    ids = i * side + j

    def at(r, c):
        return (r % N) * side + (c % N)

    m.load("a", a.astype(dtype).ravel(), procs=ids)
    m.load("b", b.astype(dtype).ravel(), procs=ids)
    m.load("c", np.zeros((), dtype=dtype), procs=ids)

    def rotate(reg, dst):
        m.send(ids, dst, reg, into="_in")
        m.local(lambda v: v, "_in", reg, procs=ids)
        m.free("_in", ids)

    rotate("a", at(i, j - i))                 # skew: row i left by i
    rotate("b", at(i - j, j))                 # skew: column j up by j
    for step in range(N):
        m.local(lambda c, x, y: c + x * y, ("c", "a", "b"), "c", procs=ids)
        if step < N - 1:
            rotate("a", at(i, j - 1))
            rotate("b", at(i - 1, j))
    c = m.read("c", ids).reshape(N, N)
    return Result(c, m.metrics, "matmul", N * N, p, "row-major")


def matmul_lower_bound(N):
    """A lower bound on the energy of every algorithm for ``N x N`` products in the contract.

    ``C[i, j]`` depends on the ``2 N - 1`` other processors of row ``i`` and column ``j``: for
    ``N >= 2`` every processor must receive at least one message and every processor must send
    one, so ``E >= N**2``. (Cannon's ``Theta(N^3)`` is what one word per message and constant
    memory cost; this bound only certifies that no run is below it.)

    Parameters
    ----------
    N : int
        Matrix order.

    Returns
    -------
    int
        ``N**2`` (0 for ``N < 2``).

    Examples
    --------
    >>> matmul_lower_bound(4), matmul_lower_bound(1)
    (16, 0)
    """
    N = int(N)
    return N * N if N >= 2 else 0
