"""Sparse matrix-vector multiplication ``y = A @ x`` on the grid.

Contract (Z-order, ``P = 2**ceil(log2 max(nnz, rows, cols))`` processors): the ``t``-th stored
nonzero of ``A`` in row-major (CSR) order lives on processor ``t`` as ``(row, col, value)``;
``x[j]`` lives on processor ``j``; ``y[i]`` ends on processor ``i`` (processors of empty rows hold
0 without a message). Any shape, any nnz (also 0) is handled; duplicate entries are summed first
(as scipy does), explicit zeros stay nonzeros of the pattern.

``method="sort"`` (the spec's algorithm; no processor receives more than one message in any
round, and every processor holds at most 12 words):

1. bitonic sort of one-word keys ``(col, t)`` (Z-order, ``~ 7 P^{3/2}`` energy); the values stay
   home on processor ``t``;
2. every processor tells its successor its key (``O(P)``), so the first key of each column
   segment knows it leads; the leader fetches ``x[col]`` from processor ``col`` (request and
   reply, ``<= 2 (w + h)`` each; one fetch per column, so a processor answers at most one);
3. a segmented scan (Blelloch's, on ``(flag, value)`` pairs: two-word messages, ``~ 9 P``)
   copies ``x[col]`` to the whole segment;
4. each copy of ``x[col]`` returns to its nonzero's home ``t`` (a permutation: one message each,
   ``<= (2/3)`` to ``1`` times ``P^{3/2}``), which multiplies locally; rows are contiguous there;
5. a segmented scan sums each row (``~ 9 P``); the last nonzero of a row (told by its successor)
   sends ``y[i]`` to processor ``i``.

.. math::

    E = O(P^{3/2}) = O\\big(\\max(nnz, n)^{3/2}\\big), \\qquad
    \\text{depth} = \\frac{L(L+1)}{2} + 4 L + O(1), \\quad L = \\log_2 P .

``method="direct"`` (the comparison): each nonzero fetches ``x[col]`` itself and sends its
product straight to processor ``row``: energy ``sum_t 2 d(t, col_t) + d(t, row_t)`` (``~ 2.2
P^{3/2}`` for random patterns, *less* than sorting). With one message into a processor per
round (the model's bounded fan-in), the ``r``-th nonzero of a column asks in round ``r`` and
the ``r``-th product of a row arrives in round ``r``: depth about twice the largest column
count plus the largest row count, which the sorted version does not pay.
"""

import numpy as np

from ._common import Result, as_values, processors_for
from .collectives import _machine, tree_scan
from .exceptions import SpatialInputError, SpatialTypeError
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


def _neighbour_flags(m, reg, n_used, direction, flag):
    """Processor ``q < n_used`` stores in ``flag`` whether its word of ``reg`` differs from its
    predecessor's (``direction=-1``: a segment starts at ``q``) or successor's (``+1``: a
    segment ends at ``q``), after one message between neighbours. Returns the flags (each
    processor's own knowledge, read for the control flow)."""
    q = np.arange(n_used, dtype=np.int64)
    src, dst = (q[:-1], q[1:]) if direction < 0 else (q[1:], q[:-1])
    m.send(src, dst, reg, into="_nb")
    m.local(lambda a, b: a != b, ("_nb", reg), flag, procs=dst)
    end = q[:1] if direction < 0 else q[-1:]
    m.local(lambda: True, (), flag, procs=end)
    m.free("_nb", dst)
    return m.read(flag, q)


def _segmented(op):
    # The segmented operator on (flag, value): a set flag starts a new segment.
    def combine(a, b):
        return a[0] | b[0], np.where(b[0], b[1], op(a[1], b[1]))
    return combine


def _segmented_scan(m, flag, val, op, n_used, out):
    """Inclusive segmented scan of ``val`` over processors ``0 .. n_used-1`` (segments start
    where ``flag`` is set, and processor 0 starts one): Blelloch's scan on ``(flag, value)``
    pairs, two words a message."""
    members = np.arange(n_used, dtype=np.int64)
    tree_scan(m, (flag, val), _segmented(op), members, into=("_pf", "_pv"))
    has = m.holds("_pv", members)
    m.local(lambda f, v, pv: np.where(f, v, op(pv, v)), (flag, val, "_pv"), out,
            procs=members[has])
    m.local(lambda v: v, val, out, procs=members[~has])
    m.free(("_pf", "_pv"), members)


def _spmv_sort(m, nnz, n_rows, dtype):
    p = m.n_processors
    t = np.arange(nnz, dtype=np.int64)
    # 1. Sort the keys (col, t) by column; processors without a nonzero hold a sentinel.
    m.local(lambda ids, c: c * p + ids, "col", "key", procs=t, with_ids=True)
    m.local(lambda: np.iinfo(np.int64).max, (), "key", procs=np.arange(nnz, p))
    bitonic_records(m, "key")
    # 2. Column leaders (the first key of each column) fetch x[col]: request, reply. Columns
    # are distinct across leaders, so every processor answers at most one request.
    m.local(lambda k: k // p, "key", "kc", procs=t)
    head = _neighbour_flags(m, "kc", nnz, -1, "hd")
    lead = t[head]
    owner = m.read("kc", lead)
    m.local(lambda ids: ids, (), "_rq", procs=lead, with_ids=True)
    m.send(lead, owner, "_rq")
    m.send(owner, lead, "xv", into="xc")
    m.free("_rq", np.union1d(lead, owner))
    # 3. A segmented copy spreads x[col] over the column's keys.
    m.local(lambda: np.zeros((), dtype=dtype), (), "xc", procs=t[~head])
    _segmented_scan(m, "hd", "xc", lambda a, b: a, nnz, "xcol")
    m.free(("hd", "xc", "kc"), t)
    # 4. x[col] returns to the nonzero's home t (a permutation: one message each).
    home = m.read("key", t) % p
    m.send(t, home, "xcol", into="xt")
    m.free(("xcol", "key"), t)
    m.local(lambda v, xt: v * xt, ("val", "xt"), "prod", procs=t)
    m.free("xt", t)
    # 5. Rows are contiguous again: a segmented sum; each row's last nonzero sends y home.
    _neighbour_flags(m, "row", nnz, -1, "rh")
    tail = _neighbour_flags(m, "row", nnz, +1, "rt")
    _segmented_scan(m, "rh", "prod", np.add, nnz, "sum")
    m.free(("rh", "rt", "prod"), t)
    ends = t[tail]
    rows = m.read("row", ends)
    m.send(ends, rows, "sum", into="y")
    m.free("sum", t)
    return rows


def _spmv_direct(m, nnz, n_rows, dtype):
    t = np.arange(nnz, dtype=np.int64)
    cols = m.read("col", t)
    rows = m.read("row", t)
    # Bounded fan-in: the r-th nonzero of column j asks j (and gets its answer) in round r,
    # the r-th nonzero of row i delivers its product to i in round r.
    occ_c = _occurrence(cols)
    occ_r = _occurrence(rows)
    m.local(lambda ids: ids, (), "_rq", procs=t, with_ids=True)
    for r in range(int(occ_c.max(initial=-1)) + 1):
        ask = t[occ_c == r]
        m.send(ask, cols[ask], "_rq", into="_rq_in")
        m.send(cols[ask], ask, "xv", into="xt")
        m.free("_rq_in", cols[ask])
    m.free("_rq", t)
    m.local(lambda v, xt: v * xt, ("val", "xt"), "prod", procs=t)
    m.free("xt", t)
    touched = np.unique(rows)
    m.local(lambda: np.zeros((), dtype=dtype), (), "y", procs=touched)
    for r in range(int(occ_r.max(initial=-1)) + 1):
        give = t[occ_r == r]
        dst = rows[give]
        local = give == dst
        m.send(give[~local], dst[~local], "prod", into="_in")
        m.local(lambda y, v: y + v, ("y", "_in"), "y", procs=dst[~local])
        m.free("_in", dst[~local])
        if local.any():
            m.local(lambda y, v: y + v, ("y", "prod"), "y", procs=give[local])
    m.free("prod", t)
    return touched


def _occurrence(keys):
    """For each entry, how many earlier entries have the same key."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    start = np.r_[0, np.flatnonzero(k[1:] != k[:-1]) + 1]
    run = np.repeat(start, np.diff(np.r_[start, k.size]))
    occ = np.empty(keys.size, dtype=np.int64)
    occ[order] = np.arange(keys.size) - run
    return occ


def spmv(A, x, *, method="sort", words=None, message_words=None):
    """``y = A @ x`` for a scipy.sparse ``A`` on a Z-order grid (see the module contract).

    Bounds (``P`` as in the contract, ``L = log2 P``): ``method="sort"``: energy
    ``O(P^{3/2})``, proved step by step in the module docstring (two sorts/permutations of
    ``Theta(P^{3/2})``, everything else ``O(P)``); measured on random patterns with ``nnz = P``
    (8 nonzeros per row): ``~ 7.9 P^{3/2}``, depth ``L(L+1)/2 + 4L + 5``, 12 words a
    processor. ``method="direct"``: ``~ 2.2 P^{3/2}`` energy, depth ``~ 2 max column count + max
    row count`` (bounded fan-in), 7 words.
    Lower bound: :func:`spmv_lower_bound`.

    Parameters
    ----------
    A : scipy.sparse matrix or array, shape (rows, cols)
        Bool, int or float entries.
    x : array_like, shape (cols,)
        The vector.
    method : {"sort", "direct"}
        The sort-based algorithm or the direct comparison.
    words, message_words : int, optional
        Local memory and message size of the machine (defaults of :class:`Machine`).

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
    m = _machine(p, "z-order", words, message_words)
    dtype = np.result_type(csr.dtype, x.dtype)
    if dtype == np.bool_:
        dtype = np.dtype(np.int64)
    t = np.arange(nnz, dtype=np.int64)
    m.load("row", rows, procs=t)
    m.load("col", cols, procs=t)
    m.load("val", data.astype(dtype), procs=t)
    m.load("xv", x.astype(dtype), procs=np.arange(n_cols))
    got = np.zeros(0, np.int64)
    if nnz:
        kernel = _spmv_sort if method == "sort" else _spmv_direct
        got = kernel(m, nnz, n_rows, dtype)
    # Processors of rows without a nonzero hold 0 without a message.
    empty = np.setdiff1d(np.arange(n_rows), got)
    m.local(lambda: np.zeros((), dtype=dtype), (), "y", procs=empty)
    y = m.read("y", np.arange(n_rows)).astype(dtype, copy=False)
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
