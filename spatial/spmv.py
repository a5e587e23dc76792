"""Sparse matrix-vector multiplication ``y = A @ x`` on the grid.

Contract (Z-order, ``P = 2**ceil(log2 max(nnz, rows, cols))`` processors): the ``t``-th stored
nonzero of ``A`` in row-major (CSR) order lives on processor ``t`` as ``(row, col, value)``;
``x[j]`` lives on processor ``j``; ``y[i]`` ends on processor ``i`` (processors of empty rows hold
0 without a message). Any shape, any nnz (also 0) is handled; duplicate entries are summed first
(as scipy does), explicit zeros stay nonzeros of the pattern.

``method="sort"`` (the spec's algorithm; no processor sends or receives more than one message
in any round):

1. bitonic sort of the nonzeros by ``(col, t)`` (Z-order, ``~ 7 P^{3/2}`` energy);
2. every processor tells its successor its column (``O(P)``), so the first nonzero of each
   column segment knows it leads; the leader fetches ``x[col]`` from processor ``col``
   (request and reply, ``<= 2 (w + h)`` each; one fetch per column, never one per nonzero);
3. a segmented scan copies ``x[col]`` to the whole segment (``O(P)``), the products are local;
4. each product returns to processor ``t`` (a permutation: one message each, ``<= (2/3)`` to
   ``1`` times ``P^{3/2}``), where rows are contiguous again;
5. a segmented scan sums each row (``O(P)``); the last nonzero of a row (told by its successor)
   sends ``y[i]`` to processor ``i``.

.. math::

    E = O(P^{3/2}) = O\\big(\\max(nnz, n)^{3/2}\\big), \\qquad
    \\text{depth} = \\frac{L(L+1)}{2} + 4 L + O(1), \\quad L = \\log_2 P .

``method="direct"`` (the comparison): each nonzero fetches ``x[col]`` itself and sends its
product straight to processor ``row``: energy ``sum_t 2 d(t, col_t) + d(t, row_t)`` (``~ 2 P^{3/2}``
for random patterns, *less* than sorting) and depth 3, but processor ``j`` answers as many
requests as column ``j`` has nonzeros, and processor ``i`` receives one message per nonzero of
row ``i``, all in one round (``Metrics.contention``): the contention the base model does not
charge and the sorted version avoids.
"""

import numpy as np

from ._common import Result, as_values, deliver, processors_for, tree_levels
from .collectives import tree_scan
from .exceptions import SpatialInputError, SpatialTypeError
from .machine import Machine
from .sorting import bitonic_records

__all__ = ["spmv", "spmv_lower_bound"]

_METHODS = ("sort", "direct")


def _as_csr(a, x):
    try:
        import scipy.sparse as sp
    except ImportError as exc:      # pragma: no cover - scipy is a dependency
        raise SpatialTypeError("spmv needs scipy for its sparse input") from exc
    if not sp.issparse(a):
        raise SpatialTypeError(f"A must be a scipy.sparse matrix or array, got {type(a).__name__}")
    if a.ndim != 2:
        raise SpatialInputError(f"A must be two-dimensional, got shape {a.shape}")
    if a.dtype.kind not in "biuf":
        raise SpatialTypeError(f"A must hold bool, int or float values, got dtype {a.dtype}")
    csr = sp.csr_matrix(a, copy=True)
    csr.sum_duplicates()
    csr.sort_indices()
    x = as_values(x, name="x")
    if x.size != csr.shape[1]:
        raise SpatialInputError(
            f"x must have one entry per column of A ({csr.shape[1]}), got length {x.size}")
    return csr, x


def _pattern(csr):
    rows = np.repeat(np.arange(csr.shape[0], dtype=np.int64), np.diff(csr.indptr))
    return rows, csr.indices.astype(np.int64), csr.data


def _segment_heads(m, key, n_used):
    """Processor ``q < n_used`` learns whether ``key[q-1] != key[q]`` (its predecessor tells it)."""
    q = np.arange(1, n_used, dtype=np.int64)
    got = deliver(m, q - 1, q, key[q - 1])
    head = np.ones(n_used, dtype=bool)
    head[1:] = got != key[1:n_used]
    return head


def _segment_tails(m, key, n_used):
    q = np.arange(0, n_used - 1, dtype=np.int64)
    got = deliver(m, q + 1, q, key[q + 1])
    tail = np.ones(n_used, dtype=bool)
    tail[:-1] = got != key[:n_used - 1]
    return tail


def _segmented(op):
    # The segmented operator on (flag, value): a set flag starts a new segment.
    def combine(a, b):
        return a[0] | b[0], np.where(b[0], b[1], op(a[1], b[1]))
    return combine


def _segmented_scan(m, flags, vals, op, n_used):
    """Inclusive segmented scan over processors ``0 .. n_used-1`` (segments start at flags)."""
    p = m.n_processors
    f = np.zeros(p, dtype=bool)
    f[:n_used] = flags
    v = np.zeros(p, dtype=vals.dtype)
    v[:n_used] = vals
    present = np.zeros(p, dtype=bool)
    present[:n_used] = True
    (pf, pv), has = tree_scan(m, tree_levels(np.arange(n_used, dtype=np.int64)), (f, v),
                              _segmented(op), present)
    out = v[:n_used].copy()
    use = has[:n_used] & ~f[:n_used]
    out[use] = op(pv[:n_used][use], v[:n_used][use])
    return out


def _spmv_sort(m, rows, cols, data, x, n_rows, dtype):
    nnz = data.size
    p = m.n_processors
    y = np.zeros(n_rows, dtype=dtype)
    if nnz == 0:
        return y
    t = np.arange(nnz, dtype=np.int64)
    # 1. Sort records (col, t | row, value) by column; padding keys sort last.
    key = np.full(p, np.iinfo(np.int64).max, dtype=np.int64)
    key[:nnz] = cols * p + t
    row_w = np.zeros(p, np.int64)
    row_w[:nnz] = rows
    val_w = np.zeros(p, dtype=dtype)
    val_w[:nnz] = data
    key, (row_w, val_w) = bitonic_records(m, key, (row_w, val_w))
    col_s, t_s = key[:nnz] // p, key[:nnz] % p
    # 2. Column leaders fetch x[col] (request, reply).
    head = _segment_heads(m, col_s, nnz)
    lead = np.flatnonzero(head).astype(np.int64)
    owner = col_s[lead]
    deliver(m, lead, owner, owner)
    xv = np.zeros(nnz, dtype=dtype)
    xv[lead] = deliver(m, owner, lead, x[owner].astype(dtype))
    # 3. Segmented copy of x[col] along each column segment; local products.
    xv = _segmented_scan(m, head, xv, lambda a, b: a, nnz)
    prod = val_w[:nnz] * xv
    # 4. Products return to processor t (rows contiguous again).
    back = np.zeros(nnz, dtype=dtype)
    back_row = np.zeros(nnz, dtype=np.int64)
    got_prod, got_row = deliver(m, np.arange(nnz, dtype=np.int64), t_s, (prod, row_w[:nnz]))
    back[t_s] = got_prod
    back_row[t_s] = got_row
    # 5. Segmented sum per row; the row's last nonzero sends y[i] home.
    rhead = _segment_heads(m, back_row, nnz)
    sums = _segmented_scan(m, rhead, back, np.add, nnz)
    tail = np.flatnonzero(_segment_tails(m, back_row, nnz)).astype(np.int64)
    y[back_row[tail]] = deliver(m, tail, back_row[tail], sums[tail])
    return y


def _spmv_direct(m, rows, cols, data, x, n_rows, dtype):
    nnz = data.size
    y = np.zeros(n_rows, dtype=dtype)
    if nnz == 0:
        return y
    t = np.arange(nnz, dtype=np.int64)
    deliver(m, t, cols, cols)
    xv = deliver(m, cols, t, x[cols].astype(dtype))
    prod = deliver(m, t, rows, data.astype(dtype) * xv)
    np.add.at(y, rows, prod)
    return y


def spmv(A, x, *, method="sort"):
    """``y = A @ x`` for a scipy.sparse ``A`` on a Z-order grid (see the module contract).

    Bounds (``P`` as in the contract, ``L = log2 P``): ``method="sort"``: energy
    ``O(P^{3/2})``, proved step by step in the module docstring (two sorts/permutations of
    ``Theta(P^{3/2})``, everything else ``O(P)``); measured on random patterns with ``nnz = P``
    (8 nonzeros per row): ``~ 7.6 P^{3/2}``, depth ``L(L+1)/2 + 4L + 5``. ``method="direct"``:
    ``~ 2.2 P^{3/2}`` energy and depth 3, with contention up to the largest row/column count.
    Lower bound: :func:`spmv_lower_bound`.

    Parameters
    ----------
    A : scipy.sparse matrix or array, shape (rows, cols)
        Bool, int or float entries.
    x : array_like, shape (cols,)
        The vector.
    method : {"sort", "direct"}
        The sort-based algorithm or the direct comparison.

    Returns
    -------
    Result
        ``value``: ``y`` (``rows`` entries), equal to ``A @ x`` (up to float rounding order);
        ``n`` is ``nnz``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> A = sp.csr_matrix(np.array([[2, 0, 1], [0, 0, 0], [0, 3, 4]]))
    >>> r = spmv(A, np.array([1, 10, 100]))
    >>> r.value.tolist(), r.n, r.n_processors
    ([102, 0, 430], 4, 4)
    """
    csr, x = _as_csr(A, x)
    if method not in _METHODS:
        raise SpatialInputError(f"method must be one of {_METHODS}, got {method!r}")
    n_rows, n_cols = csr.shape
    rows, cols, data = _pattern(csr)
    nnz = data.size
    p = processors_for(max(nnz, n_rows, n_cols, 1), "z-order")
    m = Machine(p, "z-order")
    dtype = np.result_type(csr.dtype, x.dtype)
    if dtype == np.bool_:
        dtype = np.dtype(np.int64)
    kernel = _spmv_sort if method == "sort" else _spmv_direct
    y = kernel(m, rows, cols, data, x, n_rows, dtype)
    return Result(y, m.metrics, "spmv" if method == "sort" else "spmv_direct", nnz, p,
                  "z-order")


def spmv_lower_bound(A):
    """A lower bound on the energy of every algorithm that computes ``A @ x`` in the contract.

    ``y[i]`` depends on every stored ``A[i, j]`` and on ``x[j]``. A processor holding an input
    that some output on *another* processor depends on must send at least one message, and a
    processor whose output depends on an input held elsewhere must receive one; each message
    costs at least 1. So

    .. math::

        E \\ge \\max(\\#\\text{processors that must send}, \\#\\text{processors that must
        receive}).

    This is ``Theta(nnz + rows)`` for patterns without structure, so the ratio of a sort-based
    algorithm's energy to it grows like ``sqrt(nnz)``; it is the bound that holds for every
    pattern (nonzeros next to their row and column can need little more).

    Parameters
    ----------
    A : scipy.sparse matrix or array

    Returns
    -------
    int

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> spmv_lower_bound(sp.csr_matrix(np.array([[2, 0, 1], [0, 0, 0], [0, 3, 4]])))
    3
    >>> spmv_lower_bound(sp.identity(4, format="csr"))   # nonzero t, x[t], y[t] share processor t
    0
    """
    csr, _ = _as_csr(A, np.zeros(A.shape[1]) if hasattr(A, "shape") and len(A.shape) == 2
                     else np.zeros(0))
    rows, cols, _ = _pattern(csr)
    nnz = rows.size
    n_rows, n_cols = csr.shape
    p = processors_for(max(nnz, n_rows, n_cols, 1), "z-order")
    t = np.arange(nnz, dtype=np.int64)
    must_send = np.zeros(p, dtype=bool)
    must_recv = np.zeros(p, dtype=bool)
    # Nonzero t (on processor t) feeds y[row] on processor row.
    far = rows != t
    must_send[t[far]] = True
    must_recv[rows[far]] = True
    # x[col] (on processor col) feeds y[row] on processor row.
    far = rows != cols
    must_send[cols[far]] = True
    must_recv[rows[far]] = True
    return int(max(must_send.sum(), must_recv.sum()))
