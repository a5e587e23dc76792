"""Timestamped events: items (sets of vertices) at points in time, read from files.

An *item* is a set of vertices observed together at one time: a paper's concepts, a question's
tags, a bill's sponsors, an e-mail's sender and recipients, or one timestamped edge (an item of
two vertices). Every pair of vertices inside an item is one edge of the projected graph at that
time. :func:`read_events` reads three layouts:

* ``'edges'``: one timestamped edge per line, ``u v t``;
* ``'items'``: one item per line, ``t u1 u2 u3 ...`` (an item of one vertex is ``t u``);
* ``'scholp'``: the three files of the ScHoLP data sets (Benson et al., PNAS 2018),
  ``NAME-nverts.txt`` (vertices per item), ``NAME-simplices.txt`` (the items' vertices, one per
  line, item after item) and ``NAME-times.txt`` (one time per item), each possibly gzipped.

Columns are separated by blanks or commas; lines starting with ``#`` or ``%`` are comments. Times
are numbers (integers or decimals, in any unit: seconds, milliseconds, days; ``time_unit``
records which) or ISO dates ``YYYY-MM-DD`` (stored as days since 1970-01-01). Files are parsed by
parallel Numba kernels over their bytes; no Python code runs per line, and every bad row is
reported as :class:`~graphmine.GraphFormatError` naming the file and the line.

The result, :class:`TemporalEvents`, holds the items in CSR form (``item_ptr``, ``item_nodes``)
sorted stably by time, with the vertices renumbered 0..n-1 in increasing order of their original
ids (``node_ids``). Repeated vertices inside an item are merged; items of one vertex are kept
(they carry no pair but count for higher-order scores).
"""

import os

import numpy as np

from .._primitives.small_work import unique_ints
from . import _events_kernels as _ek
from .._primitives import parse_kernels as _pk
from .._primitives import small_work as _sw
from .._runtime.limits import check_allocation
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import GraphFormatError, ParameterError
from ..core.graph import Graph, build_csr, compact_ids
from .edgelist import read_bytes

__all__ = ["TemporalEvents", "read_events", "events_from_items", "TIME_UNITS", "DAYS_PER_UNIT",
           "SCHOLP_SUFFIXES"]

#: Accepted values of ``time_unit`` (None: numbers without a stated unit).
TIME_UNITS = ("s", "ms", "days", "date")
#: Days per time unit (a date counts in days since 1970-01-01).
DAYS_PER_UNIT = {"s": 1.0 / 86400.0, "ms": 1.0 / 86_400_000.0, "days": 1.0, "date": 1.0}
_UNIT_ALIASES = {"s": "s", "sec": "s", "second": "s", "seconds": "s", "ms": "ms", "milliseconds": "ms",
                 "d": "days", "day": "days", "days": "days", "date": "date", "dates": "date"}
#: The three files of a ScHoLP data set, by their name's ending.
SCHOLP_SUFFIXES = ("-nverts.txt", "-simplices.txt", "-times.txt")
_COMPRESSED = ("", ".gz", ".bz2", ".xz")
# longest string vertex id accepted (bytes)
_MAX_ID_BYTES = 256


class TemporalEvents:
    """Items of vertices at points in time, sorted by time (immutable).

    Build one with :func:`read_events` (files), :func:`events_from_items` (Python lists) or this
    constructor (arrays): items are sorted stably by time and repeated vertices inside an item
    merged, whatever order they come in.

    Parameters
    ----------
    item_ptr : array_like of int, shape (n_items + 1,)
        Item ``i`` holds ``item_nodes[item_ptr[i]:item_ptr[i + 1]]``.
    item_nodes : array_like of int
        Vertices 0..n-1.
    times : array_like of int or float, shape (n_items,)
    node_ids : array_like, optional
        Original id of every vertex (default ``arange(n)`` with n = largest vertex + 1).
    time_unit : {'s', 'ms', 'days', 'date'} or None
        What the times count ('date': days since 1970-01-01 read from ISO dates).
    path : str, optional
        The file the events came from, for messages (default None).

    Attributes
    ----------
    item_ptr : ndarray of int64, shape (n_items + 1,)
    item_nodes : ndarray of int64
        Compact vertex ids 0..n-1; each item's vertices sorted and distinct.
    times : ndarray of int64 or float64, shape (n_items,)
        Non-decreasing; items of equal time keep their input order.
    node_ids : ndarray
        ``node_ids[i]`` is vertex ``i``'s id in the input (int64, or str for string ids), in
        increasing order.
    n_nodes, n_items : int
    time_unit : str or None
    path : str or None
        The file read (None for events built in memory).

    Examples
    --------
    >>> ev = events_from_items([[30, 10], [10, 20, 20, 30], [40]], [5, 2, 9])
    >>> ev
    TemporalEvents(n_nodes=4, n_items=3, times 2..9)
    >>> ev.item_nodes.tolist(), ev.item_ptr.tolist(), ev.node_ids.tolist()
    ([0, 1, 2, 0, 2, 3], [0, 3, 5, 6], [10, 20, 30, 40])
    >>> u, v, t = ev.pairs()
    >>> list(zip(u.tolist(), v.tolist(), t.tolist()))
    [(0, 1, 2), (0, 2, 2), (1, 2, 2), (0, 2, 5)]
    """

    __slots__ = ("item_ptr", "item_nodes", "times", "node_ids", "time_unit", "path")

    def __init__(self, item_ptr, item_nodes, times, node_ids=None, time_unit=None, path=None, *,
                 _normalised=False):
        if not _normalised:
            item_ptr, item_nodes, times, node_ids = _normalise(item_ptr, item_nodes, times, node_ids)
        time_unit = _check_unit(time_unit)
        for name, arr in (("item_ptr", item_ptr), ("item_nodes", item_nodes), ("times", times),
                          ("node_ids", node_ids)):
            if arr.flags.writeable and arr.flags.owndata:
                arr.flags.writeable = False
            elif arr.flags.writeable:
                arr = arr.view()
                arr.flags.writeable = False
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "time_unit", time_unit)
        object.__setattr__(self, "path", None if path is None else str(path))

    def __setattr__(self, name, value):
        raise AttributeError("TemporalEvents is immutable")

    @property
    def n_nodes(self):
        return int(self.node_ids.shape[0])

    @property
    def n_items(self):
        return int(self.times.shape[0])

    @property
    def item_sizes(self):
        """Distinct vertices of every item (int64)."""
        return np.diff(self.item_ptr)

    @property
    def n_pairs(self):
        """Vertex pairs inside all items together (what :meth:`pairs` returns)."""
        k = self.item_sizes
        return int((k * (k - 1) // 2).sum())

    def __len__(self):
        return self.n_items

    def __repr__(self):
        span = f", times {self.times[0]}..{self.times[-1]}" if self.n_items else ""
        unit = f" ({self.time_unit})" if self.time_unit else ""
        return f"TemporalEvents(n_nodes={self.n_nodes}, n_items={self.n_items}{span}{unit})"

    def item(self, i):
        """The vertices (compact ids) of item ``i``, a read-only view."""
        i = int(i)
        if not -self.n_items <= i < self.n_items:
            raise ParameterError(f"item {i} is out of range 0..{self.n_items - 1}")
        i %= max(self.n_items, 1)
        return self.item_nodes[self.item_ptr[i]:self.item_ptr[i + 1]]

    @restores_threads
    def pairs(self, *, threads=None):
        """Every pair of vertices inside every item, with the item's time.

        Returns
        -------
        u, v : ndarray of int64
            ``u < v`` (compact ids); a pair appears once per item that holds it, items in time
            order.
        t : ndarray
            The item's time (dtype of :attr:`times`).
        """
        k = self.item_sizes
        counts = k * (k - 1) // 2
        offsets = np.zeros(self.n_items + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        m = int(offsets[-1])
        check_allocation(m * (16 + self.times.dtype.itemsize), f"the {m:,} vertex pairs of the items")
        u = np.empty(m, np.int64)
        v = np.empty(m, np.int64)
        t = np.empty(m, self.times.dtype)
        if m:
            resolve_threads(1 if m < 50_000 and threads is None else threads)
            _ek._item_pairs(self.item_ptr, self.item_nodes, offsets, self.times, u, v, t)
        return u, v, t

    def window(self, t_start=None, t_end=None):
        """The items with ``t_start <= t < t_end`` (None: unbounded), on the same vertices.

        The vertex numbering and ``node_ids`` stay those of the whole set (so results on
        different windows line up); ``item_nodes`` and ``times`` are views.

        Examples
        --------
        >>> ev = events_from_items([[1, 2], [2, 3], [3, 4]], [10, 20, 30])
        >>> ev.window(15, 30)
        TemporalEvents(n_nodes=4, n_items=1, times 20..20)
        """
        a, b = self._bounds(t_start, t_end)
        ptr = self.item_ptr[a:b + 1]
        lo = int(ptr[0]) if ptr.shape[0] else 0
        return TemporalEvents(ptr - lo, self.item_nodes[lo:int(ptr[-1]) if ptr.shape[0] else lo],
                              self.times[a:b], self.node_ids, self.time_unit, self.path, _normalised=True)

    def _bounds(self, t_start, t_end):
        a = 0 if t_start is None else int(np.searchsorted(self.times, t_start, side="left"))
        b = self.n_items if t_end is None else int(np.searchsorted(self.times, t_end, side="left"))
        return a, max(a, b)

    @restores_threads
    def graph(self, t_end=None, weighted=False, *, threads=None):
        """The projected graph of the items before ``t_end`` (all items when None).

        Every pair of vertices inside an item is an edge; the graph has all :attr:`n_nodes`
        vertices (with :attr:`node_ids`), also those without an edge before ``t_end``.

        Parameters
        ----------
        t_end : number, optional
        weighted : bool
            Also return the multiplicity of every edge (the number of items before ``t_end``
            that hold the pair), aligned with ``G.indices``.

        Returns
        -------
        Graph, or (Graph, ndarray of int64) when ``weighted``

        Examples
        --------
        >>> ev = events_from_items([[1, 2, 3], [1, 2], [3, 4]], [1, 2, 3])
        >>> G, w = ev.graph(t_end=3, weighted=True)
        >>> G.edges().tolist(), w.tolist()
        ([[0, 1], [0, 2], [1, 2]], [2, 1, 2, 1, 1, 1])
        """
        ev = self if t_end is None else self.window(None, t_end)
        u, v, _ = ev.pairs(threads=threads)
        indptr, indices, stats = build_csr(u, v, self.n_nodes, threads)
        G = Graph.from_csr(indptr, indices, self.node_ids, stats)
        if not weighted:
            return G
        n = np.int64(self.n_nodes)
        keys = np.sort(np.concatenate((u * n + v, v * n + u)))
        rows = np.repeat(np.arange(self.n_nodes, dtype=np.int64), np.diff(indptr))
        csr_keys = rows * n + indices.astype(np.int64)
        w = np.searchsorted(keys, csr_keys, side="right") - np.searchsorted(keys, csr_keys, side="left")
        return G, w.astype(np.int64)


def _check_unit(unit):
    if unit is None:
        return None
    key = str(unit).lower()
    if key not in _UNIT_ALIASES:
        raise ParameterError(f"time_unit must be one of {', '.join(TIME_UNITS)} or None, got {unit!r}")
    return _UNIT_ALIASES[key]


def _normalise(item_ptr, item_nodes, times, node_ids):
    """Validate arrays given by a caller; sort the items by time and merge repeated vertices."""
    try:
        ptr = np.asarray(item_ptr)
        nodes = np.asarray(item_nodes)
        times = np.asarray(times)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"events arrays cannot be read: {exc}") from None
    if ptr.ndim != 1 or ptr.shape[0] < 1 or ptr.dtype.kind not in "iu":
        raise ParameterError("item_ptr must be a 1-D integer array of length n_items + 1")
    if nodes.ndim != 1 or (nodes.size and nodes.dtype.kind not in "iu"):
        raise ParameterError("item_nodes must be a 1-D integer array")
    ptr = ptr.astype(np.int64)
    nodes = np.array(nodes, dtype=np.int64)  # a copy: sorted in place below
    if ptr[0] != 0 or ptr[-1] != nodes.shape[0] or np.any(np.diff(ptr) < 0):
        raise ParameterError("item_ptr must start at 0, be non-decreasing and end at len(item_nodes)")
    n_items = ptr.shape[0] - 1
    if times.ndim != 1 or times.shape[0] != n_items:
        raise ParameterError(f"times must have one entry per item ({n_items}), got shape {times.shape}")
    if times.dtype.kind in "iub":
        times = times.astype(np.int64)
    elif times.dtype.kind == "f":
        times = times.astype(np.float64)
        if not np.all(np.isfinite(times)):
            raise ParameterError("times must be finite")
    else:
        raise ParameterError(f"times must be numbers, got dtype {times.dtype}")
    if nodes.size and nodes.min() < 0:
        raise ParameterError(f"item_nodes must be vertex numbers >= 0, found {int(nodes.min())}")
    top = int(nodes.max()) + 1 if nodes.size else 0
    if node_ids is None:
        node_ids = np.arange(top, dtype=np.int64)
    else:
        node_ids = np.array(node_ids)
        if node_ids.ndim != 1 or node_ids.shape[0] < top:
            raise ParameterError(f"node_ids must be 1-D with an entry for every vertex (at least {top})")
    ptr, nodes, times = _shape_items(ptr, nodes, times)
    return ptr, nodes, times, node_ids


def _shape_items(ptr, nodes, times):
    """Sort every item's vertices, merge repeats, order the items stably by time."""
    if nodes.shape[0] <= _sw.SMALL_EDGES:  # numpy's sort: no kernel to compile or load
        return _shape_items_numpy(ptr, nodes, times)
    sizes = np.empty(ptr.shape[0] - 1, np.int64)
    _ek._sort_unique_items(ptr, nodes, sizes)
    if times.shape[0] < 2 or bool(np.all(times[1:] >= times[:-1])):
        order = np.arange(times.shape[0], dtype=np.int64)   # already in time order (usual in files)
    else:
        order = np.argsort(times, kind="stable")
    new_ptr = np.zeros(ptr.shape[0], np.int64)
    np.cumsum(sizes[order], out=new_ptr[1:])
    out = np.empty(int(new_ptr[-1]), np.int64)
    _ek._gather_items(ptr, nodes, order, new_ptr, out)
    return new_ptr, out, times[order]


def _shape_items_numpy(ptr, nodes, times):
    """:func:`_shape_items` by one sort of the keys (item, vertex)."""
    k = ptr.shape[0] - 1
    item = np.repeat(np.arange(k, dtype=np.int64), np.diff(ptr))
    width = int(nodes.max()) + 1 if nodes.size else 1
    key = unique_ints(item * width + nodes)  # sorted, repeats merged
    item, vertex = np.divmod(key, width)
    sizes = np.bincount(item, minlength=k).astype(np.int64)
    if times.shape[0] < 2 or bool(np.all(times[1:] >= times[:-1])):
        new_ptr = np.zeros(k + 1, np.int64)
        np.cumsum(sizes, out=new_ptr[1:])
        return new_ptr, vertex, times
    order = np.argsort(times, kind="stable")
    start = np.zeros(k + 1, np.int64)
    np.cumsum(sizes, out=start[1:])
    new_ptr = np.zeros(k + 1, np.int64)
    np.cumsum(sizes[order], out=new_ptr[1:])
    total = int(new_ptr[-1])
    at = np.repeat(start[order] - new_ptr[:-1], sizes[order]) + np.arange(total, dtype=np.int64)
    return new_ptr, vertex[at], times[order]


def events_from_items(items, times, *, time_unit=None):
    """:class:`TemporalEvents` from a list of items (each an iterable of vertex ids) and their times.

    Vertex ids may be any sortable values of one kind (integers, strings); they are numbered
    0..n-1 in increasing order.

    Parameters
    ----------
    items : iterable of iterables
        The vertex ids of every item.
    times : array_like of int or float, shape (n_items,)
        The time of every item.
    time_unit : {'s', 'ms', 'days', 'date'}, optional
        What the times count (default None: unstated).

    Returns
    -------
    TemporalEvents
        The items, sorted stably by time.

    Raises
    ------
    ParameterError
        ``times`` not one per item, or ids of mixed kinds.

    Examples
    --------
    >>> events_from_items([["b", "a"], ["c"]], [2.5, 1.0]).node_ids.tolist()
    ['a', 'b', 'c']
    """
    items = [list(it) for it in items]
    times = np.asarray(times)
    if times.ndim != 1 or times.shape[0] != len(items):
        raise ParameterError(f"times must have one entry per item ({len(items)}), got shape {times.shape}")
    sizes = np.fromiter((len(it) for it in items), np.int64, len(items))
    flat = [x for it in items for x in it]
    ptr = np.zeros(len(items) + 1, np.int64)
    np.cumsum(sizes, out=ptr[1:])
    if flat:
        try:
            node_ids, inverse = np.unique(np.asarray(flat), return_inverse=True)
        except TypeError:
            raise ParameterError("vertex ids must be of one sortable kind (all integers or all strings)") from None
    else:
        node_ids, inverse = np.empty(0, np.int64), np.empty(0, np.int64)
    if node_ids.dtype.kind in "iu":
        node_ids = node_ids.astype(np.int64)
    return TemporalEvents(ptr, inverse.reshape(-1).astype(np.int64), times, node_ids, time_unit)


# -- reading ----------------------------------------------------------------------------------------
_MESSAGES = {
    _ek.ERR_INT: "expected an integer vertex id, found {tok} (read with ids='str' for names)",
    _ek.ERR_NEGATIVE: "vertex ids must be non-negative integers, found {tok} (read with ids='str' to keep it)",
    _ek.ERR_TOO_LARGE: "vertex id {tok} does not fit in int64",
    _ek.ERR_TIME: "expected a time (a number{unit}), found {tok}",
    _ek.ERR_DATE: "expected a date YYYY-MM-DD, found {tok}",
    _ek.ERR_CONTROL: "control byte in {tok}: binary data, not a text file of events",
    _ek.ERR_LONG: "vertex id {tok}... is longer than " + str(_MAX_ID_BYTES) + " bytes",
}


# the event reader's field separators (and the newline): blank, tab, CR, comma, VT, FF
_EVENT_SEPARATORS = np.zeros(256, bool)
_EVENT_SEPARATORS[[32, 9, 13, 44, 11, 12, 10]] = True


class _Tokens:
    """The tokens of one text file: per data line its first byte and token count, per token its
    first and end byte."""

    def __init__(self, path, nthreads):
        data = read_bytes(path, what="file of events")
        self.path = "<stdin>" if path == "-" else path
        self.buf = np.frombuffer(data, dtype=np.uint8)
        if self.buf.shape[0] <= _sw.SMALL_BYTES:  # numpy: no kernel to compile or load
            self._numpy_tokens()
            return
        nchunks = 1 if self.buf.shape[0] < (1 << 20) else 8 * nthreads
        starts = _pk._chunk_starts(self.buf, 0, nchunks)
        lines, toks = _ek._count_tokens(self.buf, starts)
        loff = np.zeros(lines.shape[0] + 1, np.int64)
        toff = np.zeros(toks.shape[0] + 1, np.int64)
        np.cumsum(lines, out=loff[1:])
        np.cumsum(toks, out=toff[1:])
        nl, nt = int(loff[-1]), int(toff[-1])
        check_allocation(16 * nl + 16 * nt, f"the {nt:,} fields of {self.path}")
        self.line_start = np.empty(nl, np.int64)
        self.line_ntok = np.empty(nl, np.int64)
        self.tok_start = np.empty(nt, np.int64)
        self.tok_end = np.empty(nt, np.int64)
        _ek._record_tokens(self.buf, starts, loff, toff, self.line_start, self.line_ntok, self.tok_start,
                           self.tok_end)
        self.line_tok = np.zeros(nl + 1, np.int64)
        np.cumsum(self.line_ntok, out=self.line_tok[1:])
        if nl == 0:
            raise GraphFormatError("contains no data lines (only comments or blank lines)", self.path)

    def _numpy_tokens(self):
        """The kernels' tokens by numpy (small files): fields cut at blanks, commas, vertical
        tabs and form feeds; a field starting with ``#`` or ``%`` ends its line's data (a line
        that starts with one is a comment)."""
        buf = self.buf
        size = buf.shape[0]
        gap = _EVENT_SEPARATORS[buf] if size else np.zeros(0, bool)
        prev = np.ones(size, bool)
        prev[1:] = gap[:-1]
        nxt = np.ones(size, bool)
        nxt[:-1] = gap[1:]
        fs = np.flatnonzero(~gap & prev)
        fe = np.flatnonzero(~gap & nxt) + 1
        line = np.searchsorted(np.flatnonzero(buf == 10), fs)
        first = np.ones(fs.shape[0], bool)
        first[1:] = line[1:] != line[:-1]
        group = np.cumsum(first) - 1
        hashed = ((buf[fs] == 35) | (buf[fs] == 37)).astype(np.int64)
        seen = np.cumsum(hashed)
        before = (seen - hashed)[first]  # comment starts before each line's first field
        keep = seen - before[group] == 0  # fields before the line's first comment start
        fs, fe, line = fs[keep], fe[keep], line[keep]
        first = np.ones(fs.shape[0], bool)
        first[1:] = line[1:] != line[:-1]
        heads = np.flatnonzero(first)
        self.line_start = fs[heads]
        self.line_ntok = np.diff(np.append(heads, fs.shape[0])).astype(np.int64)
        self.tok_start, self.tok_end = fs, fe
        self.line_tok = np.zeros(heads.shape[0] + 1, np.int64)
        np.cumsum(self.line_ntok, out=self.line_tok[1:])
        if heads.shape[0] == 0:
            raise GraphFormatError("contains no data lines (only comments or blank lines)", self.path)

    def _numpy_ints(self, idx):
        """The values of the tokens ``idx`` when all are plain digits (at most 18), else None
        (the kernel parses them and names the first bad one)."""
        a, e = self.tok_start[idx], self.tok_end[idx]
        width = e - a
        if width.size == 0 or int(width.max()) > 18 or int(width.min()) < 1:
            return None
        digits = np.zeros(self.buf.shape[0] + 1, np.int64)
        np.cumsum((self.buf >= 48) & (self.buf <= 57), out=digits[1:])
        if not np.array_equal(digits[e] - digits[a], width):
            return None
        val = self.buf[a].astype(np.int64) - 48
        for k in range(1, int(width.max())):
            longer = np.flatnonzero(width > k)
            val[longer] = val[longer] * 10 + (self.buf[a[longer] + k].astype(np.int64) - 48)
        return val

    @property
    def n_lines(self):
        return self.line_start.shape[0]

    def line_no(self, byte):
        return int(_pk._line_of(self.buf, int(byte)))

    def fail_line(self, line_index, msg):
        raise GraphFormatError(msg, self.path, self.line_no(self.line_start[line_index]))

    def token_text(self, t):
        a, b = int(self.tok_start[t]), int(self.tok_end[t])
        return repr(bytes(self.buf[a:min(b, a + 40)]).decode("utf-8", "replace"))

    def fail_token(self, t, code, unit=""):
        raise GraphFormatError(_MESSAGES[code].format(tok=self.token_text(t), unit=unit), self.path,
                               self.line_no(self.tok_start[t]))

    def ints(self, idx):
        if self.buf.shape[0] <= _sw.SMALL_BYTES:
            out = self._numpy_ints(idx)
            if out is not None:
                return out
        out = np.empty(idx.shape[0], np.int64)
        err = np.zeros(idx.shape[0], np.int8)
        _ek._parse_int_tokens(self.buf, self.tok_start, self.tok_end, idx, out, err)
        bad = np.flatnonzero(err)
        if bad.size:
            self.fail_token(idx[bad[0]], int(err[bad[0]]))
        return out

    def strings(self, idx):
        lens = self.tok_end[idx] - self.tok_start[idx]
        width = int(min(max(int(lens.max()) if lens.size else 1, 1), _MAX_ID_BYTES))
        check_allocation(idx.shape[0] * width, f"the {idx.shape[0]:,} vertex names of {self.path}")
        out = np.zeros((idx.shape[0], width), np.uint8)
        err = np.zeros(idx.shape[0], np.int8)
        _ek._token_bytes(self.buf, self.tok_start, self.tok_end, idx, width, out, err)
        bad = np.flatnonzero(err)
        if bad.size:
            self.fail_token(idx[bad[0]], int(err[bad[0]]))
        return out.view(f"S{width}").reshape(-1)

    def looks_like_date(self, t):
        a, b = int(self.tok_start[t]), int(self.tok_end[t])
        return b - a == 10 and self.buf[a + 4] == 45 and self.buf[a + 7] == 45

    def times(self, idx, unit):
        """(times, unit) of the tokens idx: int64 when all are integers, else float64."""
        if unit is None and idx.size and self.looks_like_date(idx[0]):
            unit = "date"
        dates = unit == "date"
        if not dates and self.buf.shape[0] <= _sw.SMALL_BYTES:
            out = self._numpy_ints(idx)  # plain integer times (ScHoLP's milliseconds, years)
            if out is not None:
                return out, unit
        out_i = np.empty(idx.shape[0], np.int64)
        out_f = np.empty(idx.shape[0], np.float64)
        is_float = np.zeros(idx.shape[0], np.uint8)
        err = np.zeros(idx.shape[0], np.int8)
        _ek._parse_time_tokens(self.buf, self.tok_start, self.tok_end, idx, dates, out_i, out_f, is_float, err)
        bad = np.flatnonzero(err)
        if bad.size:
            hint = "" if dates else (" or, for every row, a date YYYY-MM-DD" if unit is None else f" in {unit}")
            self.fail_token(idx[bad[0]], int(err[bad[0]]), hint)
        if is_float.any():
            return out_f, unit
        return out_i, unit


def _vertex_ids(tok, idx, ids, nthreads):
    """(compact vertex numbers, node_ids) of the id tokens ``idx``."""
    if ids == "int":
        raw = tok.ints(idx)
        new, node_ids = compact_ids(raw, nthreads)
        return new.astype(np.int64), node_ids
    raw = tok.strings(idx)
    uniq, inverse = np.unique(raw, return_inverse=True)
    try:
        node_ids = np.char.decode(uniq, "utf-8")
    except UnicodeDecodeError:
        raise GraphFormatError("vertex names must be UTF-8 text", tok.path) from None
    return inverse.reshape(-1).astype(np.int64), node_ids


def _scholp_paths(path):
    """The (nverts, simplices, times) files of a ScHoLP data set given by its folder, the common
    prefix of its files, or any one of them; None when ``path`` names none of these."""
    path = os.fspath(path)
    if os.path.isdir(path):
        found = {}
        for f in sorted(os.listdir(path)):
            for s in SCHOLP_SUFFIXES:
                for c in _COMPRESSED:
                    if f.endswith(s + c):
                        found.setdefault(f[: -len(s + c)], []).append(s)
        complete = [p for p, got in found.items() if set(got) == set(SCHOLP_SUFFIXES)]
        if len(complete) != 1:
            what = "no complete" if not complete else f"{len(complete)}"
            lacks = "; ".join(f"{p!r} lacks " + ", ".join(f"{p}{s}" for s in SCHOLP_SUFFIXES if s not in got)
                              for p, got in sorted(found.items()) if set(got) != set(SCHOLP_SUFFIXES))
            raise GraphFormatError(f"{what} ScHoLP data set(s) (NAME-nverts.txt, NAME-simplices.txt, "
                                   f"NAME-times.txt) in the folder" + (f": {lacks}" if lacks and not complete else ""),
                                   path)
        prefix = os.path.join(path, complete[0])
    else:
        prefix = path
        for s in SCHOLP_SUFFIXES:
            for c in _COMPRESSED:
                if path.endswith(s + c):
                    prefix = path[: -len(s + c)]
    out = []
    for s in SCHOLP_SUFFIXES:
        cand = [prefix + s + c for c in _COMPRESSED if os.path.isfile(prefix + s + c)]
        if not cand:
            if prefix == path and not out:
                return None
            raise GraphFormatError(f"the ScHoLP data set {os.path.basename(prefix)!r} lacks its "
                                   f"{s[1:]} file ({prefix + s}[.gz])", path)
        out.append(cand[0])
    return tuple(out)


@restores_threads
def read_events(path, *, format="auto", time_unit=None, ids="int", threads=None):
    """Read timestamped events (edges or items of vertices) from a file or a ScHoLP data set.

    Parameters
    ----------
    path : str or PathLike
        A text file (gzip, bzip2 or xz compressed files are recognised by content; ``'-'``
        reads standard input) or, for ScHoLP data, the folder, the common prefix of the three
        files (``.../email-Enron/email-Enron``) or any one of them.
    format : {'auto', 'edges', 'items', 'scholp'}
        'edges': ``u v t`` per line; 'items': ``t u1 u2 ...`` per line; 'scholp': the three
        files. 'auto': 'scholp' for a folder or a path that names ScHoLP files; otherwise
        'edges' when every line has three columns and the first is not a date, else 'items'.
    time_unit : {'s', 'ms', 'days', 'date'} or None
        What the times count. 'date': every time is an ISO date ``YYYY-MM-DD`` (kept as days
        since 1970-01-01). None: dates if the first time is a date, else numbers without a
        stated unit. A numeric unit requires numbers and is recorded in the result.
    ids : {'int', 'str'}
        'int': vertex ids are non-negative integers; 'str': any token (names, negative numbers).
    threads : int, optional

    Returns
    -------
    TemporalEvents

    Raises
    ------
    GraphFormatError
        Missing, empty or unreadable files; a line with too few or too many columns, a bad vertex
        id or time (the message names the file and the line); ScHoLP files of inconsistent
        lengths.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "items.txt")
    >>> with open(p, "w") as fh:
    ...     _ = fh.write("# t vertices\\n2017-03-01 7 3 9\\n2016-12-31 3 5\\n2018-01-01 4\\n")
    >>> ev = read_events(p)
    >>> ev, ev.time_unit, ev.node_ids.tolist()
    (TemporalEvents(n_nodes=5, n_items=3, times 17166..17532 (date)), 'date', [3, 4, 5, 7, 9])
    >>> read_events(p, time_unit="s")
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.GraphFormatError: ...items.txt:2: expected a time (a number in s), found '2017-03-01'
    """
    if format not in ("auto", "edges", "items", "scholp"):
        raise ParameterError(f"format must be 'auto', 'edges', 'items' or 'scholp', got {format!r}")
    if ids not in ("int", "str"):
        raise ParameterError(f"ids must be 'int' or 'str', got {ids!r}")
    unit = _check_unit(time_unit)
    nthreads = resolve_threads(threads)
    path = os.fspath(path)
    if format in ("auto", "scholp") and path != "-":
        files = _scholp_paths(path) if (format == "scholp" or os.path.isdir(path) or not os.path.isfile(path)
                                         or any(s in os.path.basename(path) for s in SCHOLP_SUFFIXES)) else None
        if files is not None:
            return _read_scholp(files, path, unit, ids, nthreads)
        if format == "scholp":
            raise GraphFormatError("not a ScHoLP data set (NAME-nverts.txt, NAME-simplices.txt, "
                                   "NAME-times.txt)", path)
    if not os.path.exists(path) and path != "-":
        raise GraphFormatError("no such file", path)
    tok = _Tokens(path, nthreads)
    if format == "auto":
        three = bool(np.all(tok.line_ntok == 3))
        format = "edges" if three and not tok.looks_like_date(tok.line_tok[0]) else "items"
    if format == "edges":
        bad = np.flatnonzero(tok.line_ntok != 3)
        if bad.size:
            k = int(tok.line_ntok[bad[0]])
            tok.fail_line(bad[0], f"expected 3 columns (u v t), found {k}")
        first = tok.line_tok[:-1]
        id_idx = np.empty(2 * tok.n_lines, np.int64)
        id_idx[0::2] = first
        id_idx[1::2] = first + 1
        t_idx = first + 2
        ptr = np.arange(0, 2 * tok.n_lines + 1, 2, dtype=np.int64)
    else:
        bad = np.flatnonzero(tok.line_ntok < 2)
        if bad.size:
            tok.fail_line(bad[0], "expected a time and at least one vertex (t u1 u2 ...), found 1 column")
        t_idx = tok.line_tok[:-1]
        is_id = np.ones(int(tok.line_tok[-1]), bool)
        is_id[t_idx] = False
        id_idx = np.flatnonzero(is_id)
        ptr = np.zeros(tok.n_lines + 1, np.int64)
        np.cumsum(tok.line_ntok - 1, out=ptr[1:])
    times, unit = tok.times(t_idx, unit)
    nodes, node_ids = _vertex_ids(tok, id_idx, ids, nthreads)
    ptr, nodes, times = _shape_items(ptr, nodes, times)
    return TemporalEvents(ptr, nodes, times, node_ids, unit, tok.path, _normalised=True)


def _read_scholp(files, shown, unit, ids, nthreads):
    nv_path, sx_path, tm_path = files
    toks = []
    for f in files:
        tok = _Tokens(f, nthreads)
        bad = np.flatnonzero(tok.line_ntok != 1)
        if bad.size:
            tok.fail_line(bad[0], f"expected one number per line, found {int(tok.line_ntok[bad[0]])} columns")
        toks.append(tok)
    nv_tok, sx_tok, tm_tok = toks
    nverts = nv_tok.ints(np.arange(nv_tok.n_lines, dtype=np.int64))
    zero = np.flatnonzero(nverts == 0)
    if zero.size:
        nv_tok.fail_line(zero[0], "an item needs at least one vertex, found 0")
    if tm_tok.n_lines != nv_tok.n_lines:
        raise GraphFormatError(f"{tm_tok.n_lines} times for {nv_tok.n_lines} items (lines of {nv_path})", tm_path)
    total = int(nverts.sum())
    if sx_tok.n_lines != total:
        raise GraphFormatError(f"{sx_tok.n_lines} vertices, but the items of {nv_path} need {total}", sx_path)
    times, unit = tm_tok.times(np.arange(tm_tok.n_lines, dtype=np.int64), unit)
    nodes, node_ids = _vertex_ids(sx_tok, np.arange(sx_tok.n_lines, dtype=np.int64), ids, nthreads)
    ptr = np.zeros(nverts.shape[0] + 1, np.int64)
    np.cumsum(nverts, out=ptr[1:])
    ptr, nodes, times = _shape_items(ptr, nodes, times)
    prefix = sx_path[: sx_path.rfind(SCHOLP_SUFFIXES[1])]
    return TemporalEvents(ptr, nodes, times, node_ids, unit, prefix, _normalised=True)
