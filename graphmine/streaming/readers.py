"""Edge streams as users have them: files read in order, standard input as it arrives.

An :class:`EdgeStream` is a sequence of events (sign, u, v): +1 inserts the edge {u, v}, -1
deletes it. :func:`read_stream` reads

* ``'edges'``: an edge list (two vertex ids per line, further columns ignored) in file order,
  every line an insertion;
* ``'events'``: timestamped edges ``u v t`` (:func:`graphmine.io.events.read_events`), in time
  order (ties: file order);
* ``'scholp'``: a ScHoLP data set (``NAME-nverts.txt``, ``-simplices.txt``, ``-times.txt``):
  every pair of vertices of a simplex inserted at the simplex's time;
* ``'signed'``: lines ``+ u v`` and ``- u v`` (a line without a sign inserts), further columns
  ignored.

Streams are *cleaned* by default: a self-loop, an insertion of an edge already in the graph (a
repeated contact, the reverse of an edge of an undirected list, a pair of a later simplex) and
a deletion of an edge not in the graph are dropped and counted (:attr:`EdgeStream.dropped`),
so that the estimators see a graph that changes one edge at a time. Cleaning keeps the graph's
current edges in a hash set (about 40 bytes per edge).

:func:`iter_signed_chunks` parses a file object as its bytes arrive (standard input as a live
stream), and :class:`StreamCleaner` cleans such chunks as they come. Malformed lines are reported
as :class:`~graphmine.GraphFormatError` naming the file and the line.
"""

import os

import numpy as np

from .._primitives import parse_kernels as _pk
from .._runtime.lazy import lazy_module
from ..core.exceptions import GraphFormatError, ParameterError, check_choice, check_int, check_seed
from .estimators import ExactTriangleCounter, as_events

__all__ = ["EdgeStream", "read_stream", "StreamCleaner", "iter_signed_chunks", "parse_signed", "with_deletions",
           "FORMATS"]

#: the layouts :func:`read_stream` reads ('auto' picks one from the path and the first line)
FORMATS = ("auto", "edges", "events", "scholp", "signed")


@lazy_module
def _rk():
    from . import _reader_kernels

    return _reader_kernels


_MESSAGES = {
    _pk.ERR_NONNUMERIC: "expected an integer vertex id, found {tok}",
    _pk.ERR_ONE_COLUMN: "expected two vertex ids, found fewer (truncated line?)",
    _pk.ERR_NEGATIVE: "vertex ids must be non-negative, found {tok}",
    _pk.ERR_TOO_LARGE: "vertex id {tok} does not fit in int64",
    _pk.ERR_CONTROL: "not a text stream: control byte (binary data)",
}


class EdgeStream:
    """A stream of edge events, in order.

    Parameters
    ----------
    signs : array_like of int
        +1 (insertion) or -1 (deletion) per event.
    u, v : array_like of int
        The edge's endpoints (non-negative ids).
    times : array_like, optional
        The events' times (read from ``u v t`` files and ScHoLP data).
    path : str, optional
        The file read, for messages.
    dropped : dict, optional
        Events dropped by cleaning, by reason.
    labels : array_like, optional
        ``labels[id]`` names vertex ``id`` (for files with named vertices: the ids are then
        0..n-1).

    Attributes
    ----------
    signs, u, v : ndarray of int64
    times : ndarray or None
    path : str or None
    dropped : dict
        ``self_loops``, ``repeated_insertions``, ``absent_deletions``: events removed by cleaning.
    labels : ndarray or None
    insertions, deletions : int
        Events of each kind.

    Examples
    --------
    >>> s = EdgeStream([1, 1, -1], [0, 1, 0], [1, 2, 1])
    >>> s, len(s), s.peak_edges()
    (EdgeStream(3 events: 2 insertions, 1 deletions), 3, 2)
    >>> s.events().tolist()
    [[1, 0, 1], [1, 1, 2], [-1, 0, 1]]
    """

    def __init__(self, signs, u, v, times=None, path=None, dropped=None, labels=None):
        sg, uu, vv = as_events(_Triple(signs, u, v))
        self.signs, self.u, self.v = sg, uu, vv
        self.times = None if times is None else np.asarray(times)
        if self.times is not None and self.times.shape != sg.shape:
            raise ParameterError(f"times must have one entry per event ({sg.shape[0]}), got {self.times.shape}")
        self.path = None if path is None else str(path)
        self.dropped = {"self_loops": 0, "repeated_insertions": 0, "absent_deletions": 0, **(dropped or {})}
        self.labels = None if labels is None else np.asarray(labels)

    def __len__(self):
        return int(self.signs.shape[0])

    @property
    def insertions(self):
        return int(np.count_nonzero(self.signs > 0))

    @property
    def deletions(self):
        return int(np.count_nonzero(self.signs < 0))

    def __repr__(self):
        return f"EdgeStream({len(self)} events: {self.insertions} insertions, {self.deletions} deletions)"

    def events(self):
        """The events as an ``(m, 3)`` int64 array of rows (sign, u, v).

        Returns
        -------
        ndarray of int64
        """
        return np.column_stack((self.signs, self.u, self.v))

    def peak_edges(self):
        """The largest number of edges the graph has at any point of the stream (for a cleaned
        stream; insertions minus deletions so far, at its maximum).

        Returns
        -------
        int
        """
        return int(np.cumsum(self.signs).max()) if len(self) else 0

    def slice(self, start, stop):
        """The events ``start..stop-1`` as a stream (views of the arrays).

        Parameters
        ----------
        start, stop : int

        Returns
        -------
        EdgeStream
        """
        t = None if self.times is None else self.times[start:stop]
        return EdgeStream(self.signs[start:stop], self.u[start:stop], self.v[start:stop], t, self.path,
                          self.dropped, self.labels)

    def cleaned(self):
        """This stream without self-loops, insertions of edges present and deletions of edges
        absent (counted in :attr:`dropped`, added to those already there).

        Returns
        -------
        EdgeStream
        """
        keep = ExactTriangleCounter()._valid(self.signs, self.u, self.v)
        d = dict(self.dropped)
        loops = self.u == self.v
        d["self_loops"] += int(np.count_nonzero(loops))
        d["repeated_insertions"] += int(np.count_nonzero(~keep & ~loops & (self.signs > 0)))
        d["absent_deletions"] += int(np.count_nonzero(~keep & ~loops & (self.signs < 0)))
        t = None if self.times is None else self.times[keep]
        return EdgeStream(self.signs[keep], self.u[keep], self.v[keep], t, self.path, d, self.labels)


class _Triple:
    __slots__ = ("signs", "u", "v")

    def __init__(self, signs, u, v):
        self.signs, self.u, self.v = signs, u, v


def parse_signed(data, name="<bytes>", first_line=1):
    """Parse ``[+|-] u v`` lines (a line without a sign inserts; further columns are ignored).

    Parameters
    ----------
    data : bytes or ndarray of uint8
        Whole lines of text.
    name : str
        The source, for messages.
    first_line : int
        The number of the first line of ``data`` in its source, for messages.

    Returns
    -------
    sign, u, v : ndarray of int64

    Raises
    ------
    GraphFormatError
        A malformed line, naming the source and the line.

    Examples
    --------
    >>> sg, u, v = parse_signed(b"+ 1 2\\n# comment\\n- 1 2\\n3 4 1700000000\\n")
    >>> sg.tolist(), u.tolist(), v.tolist()
    ([1, -1, 1], [1, 1, 3], [2, 2, 4])
    >>> parse_signed(b"+ 1 2\\n* 3 4\\n", "s.txt")
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.GraphFormatError: s.txt:2: expected an integer vertex id, found '*'
    """
    buf = np.frombuffer(data, np.uint8) if isinstance(data, (bytes, bytearray, memoryview)) else data
    n = int(np.count_nonzero(buf == 10)) + 1
    sg = np.empty(n, np.int64)
    u = np.empty(n, np.int64)
    v = np.empty(n, np.int64)
    k, err, pos = _rk._parse_signed(buf, sg, u, v)
    if err != _pk.OK:
        line = first_line + int(np.count_nonzero(buf[:pos] == 10))
        raise GraphFormatError(_MESSAGES[err].format(tok=_token(buf, pos)), name, line)
    return sg[:k].copy(), u[:k].copy(), v[:k].copy()


def _token(buf, pos):
    end = pos
    while end < buf.shape[0] and end - pos < 40 and buf[end] not in (9, 10, 13, 32, 44):
        end += 1
    return repr(bytes(buf[pos:end]).decode("utf-8", "replace"))


def iter_signed_chunks(stream, name="<stdin>", block=1 << 16):
    """Parse a file object of ``[+|-] u v`` lines as its bytes arrive (a live stream).

    Each read returns what is there (at most ``block`` bytes, waiting only when nothing is), so
    a pipe's events are yielded soon after they are written.

    Parameters
    ----------
    stream : file object
        Opened for reading (``sys.stdin``, a pipe, a file); its raw file descriptor is read
        where it has one.
    name : str
        The source, for messages.
    block : int
        Bytes read at most at a time.

    Yields
    ------
    sign, u, v : ndarray of int64
        The events of the whole lines read so far that were not yielded yet.

    Raises
    ------
    GraphFormatError
        A malformed line, naming the source and the line.

    Examples
    --------
    >>> import io
    >>> [u.tolist() for _, u, _ in iter_signed_chunks(io.BytesIO(b"1 2\\n- 1 2\\n"), block=4)]
    [[1], [1]]
    """
    block = check_int("block", block, 1)
    raw = getattr(stream, "buffer", stream)
    try:
        fd = raw.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None

    def read():
        if fd is not None:
            return os.read(fd, block)
        data = raw.read1(block) if hasattr(raw, "read1") else raw.read(block)
        return data.encode() if isinstance(data, str) else data

    tail = b""
    line = 1
    while True:
        data = read()
        if not data:
            break
        data = tail + data
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            tail = data
            continue
        whole, tail = data[:cut], data[cut:]
        sg, u, v = parse_signed(whole, name, line)
        line += whole.count(b"\n")
        if sg.shape[0]:
            yield sg, u, v
    if tail.strip():
        sg, u, v = parse_signed(tail, name, line)
        if sg.shape[0]:
            yield sg, u, v


class StreamCleaner:
    """Cleans events as they come: self-loops, insertions of an edge present and deletions of an
    edge absent are dropped and counted (the graph's current edges are kept, about 40 bytes
    each).

    Attributes
    ----------
    dropped : dict
        ``self_loops``, ``repeated_insertions``, ``absent_deletions`` so far.

    Examples
    --------
    >>> c = StreamCleaner()
    >>> sg, u, v = c.clean([1, 1, -1, -1], [1, 2, 1, 1], [2, 2, 2, 2])
    >>> sg.tolist(), c.dropped
    ([1, -1], {'self_loops': 1, 'repeated_insertions': 0, 'absent_deletions': 1})
    """

    def __init__(self):
        self._graph = ExactTriangleCounter()

    def clean(self, signs, u, v):
        """The events of a batch that change the graph.

        Parameters
        ----------
        signs, u, v : array_like of int

        Returns
        -------
        sign, u, v : ndarray of int64
        """
        sg, uu, vv = as_events(_Triple(signs, u, v))
        keep = self._graph._valid(sg, uu, vv)
        return sg[keep], uu[keep], vv[keep]

    @property
    def dropped(self):
        return {"self_loops": self._graph.skipped["self_loops"],
                "repeated_insertions": self._graph.skipped["repeated_insertions"],
                "absent_deletions": self._graph.skipped["absent_deletions"]}


def _head(path, size=1 << 16):
    """The first bytes of a file, decompressed (gzip, bzip2, xz by content)."""
    import bz2
    import gzip
    import lzma

    try:
        with open(path, "rb") as fh:
            head = fh.read(size)
        for magic, opener in ((b"\x1f\x8b", gzip.open), (b"BZh", bz2.open), (b"\xfd7zXZ\x00", lzma.open)):
            if head.startswith(magic):
                with opener(path, "rb") as fh:
                    return fh.read(size)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise GraphFormatError(f"cannot read the file: {exc}", path) from None
    return head


def _detect(path):
    """'scholp', 'signed' or 'edges' from the path and the first data line."""
    from ..io.events import SCHOLP_SUFFIXES

    if os.path.isdir(path) or any(s in os.path.basename(path) for s in SCHOLP_SUFFIXES):
        return "scholp"
    if not os.path.exists(path):
        if any(os.path.exists(path + s) or os.path.exists(path + s + ".gz") for s in SCHOLP_SUFFIXES):
            return "scholp"
        raise GraphFormatError("no such file", path)
    head = _head(path)
    for raw in head.split(b"\n"):
        line = raw.strip()
        if not line or line[:1] in (b"#", b"%"):
            continue
        return "signed" if line[:1] in (b"+", b"-") else "edges"
    return "edges"


def read_stream(path, *, format="auto", clean=True, ids="int", header=None, time_unit=None, threads=None):
    """Read an edge stream from a file (or standard input, ``'-'``), in stream order.

    Parameters
    ----------
    path : str or PathLike
        The file (gzip, bzip2, xz recognised by content), a ScHoLP data set (its folder, the
        common prefix of its files or one of them), or ``'-'`` for standard input (read to its
        end; see :func:`iter_signed_chunks` for a live stream).
    format : {'auto', 'edges', 'events', 'scholp', 'signed'}
        'edges': two ids per line, in file order (further columns ignored); 'events': ``u v t``
        lines in time order; 'scholp': a ScHoLP data set, every pair of every simplex at its
        time; 'signed': ``+ u v`` / ``- u v`` lines. 'auto': 'scholp' for ScHoLP paths,
        'signed' when the first data line starts with a sign, else 'edges' (a third column is
        *not* read as a time: give ``format='events'`` for that).
    clean : bool
        Drop (and count) self-loops, insertions of an edge present and deletions of an edge
        absent (default True).
    ids : {'int', 'str'}
        Vertex ids as integers, or names ('edges' and 'events' only): the stream's ids are then
        0..n-1 and :attr:`EdgeStream.labels` names them.
    header : bool, optional
        'edges' only: whether the first line that is not a comment is a header to skip (True
        for an ``n m`` first line, which reads as an edge otherwise); default as
        :func:`graphmine.read_edges` decides.
    time_unit : str, optional
        For 'events' and 'scholp' (:func:`graphmine.io.events.read_events`).
    threads : int, optional
        Threads of the file parsers.

    Returns
    -------
    EdgeStream

    Raises
    ------
    GraphFormatError
        A missing or malformed file, naming the file and the line.
    ParameterError
        An unknown format, or names with 'signed' or 'scholp'.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "s.txt")
    >>> with open(p, "w") as fh:
    ...     _ = fh.write("+ 1 2\\n+ 2 3\\n+ 2 1\\n- 1 3\\n- 1 2\\n")
    >>> s = read_stream(p)
    >>> s.events().tolist(), s.dropped["repeated_insertions"], s.dropped["absent_deletions"]
    ([[1, 1, 2], [1, 2, 3], [-1, 1, 2]], 1, 1)
    """
    check_choice("format", format, FORMATS)
    check_choice("ids", ids, ("int", "str"))
    path = os.fspath(path)
    if format == "auto":
        format = "signed" if path == "-" else _detect(path)
    if ids == "str" and format in ("signed", "scholp"):
        raise ParameterError(f"ids='str' reads 'edges' and 'events' files; {format!r} streams have integer ids")
    if header is not None and format != "edges":
        raise ParameterError(f"header= is for 'edges' files; this stream is read as {format!r}")
    times = labels = None
    shown = "<stdin>" if path == "-" else path
    if format == "signed":
        from ..io.edgelist import read_bytes

        sg, u, v = parse_signed(read_bytes(path, what="stream file"), shown)
        if sg.shape[0] == 0:
            raise GraphFormatError("contains no events (only comments or blank lines)", shown)
    elif format == "edges":
        from ..io.edgelist import read_edges

        el = read_edges(path, header=header, ids=ids, threads=threads)
        e = el.edges
        if ids == "str":
            labels, inv = np.unique(e.reshape(-1).astype(str), return_inverse=True)
            e = inv.reshape(-1, 2)
        u, v = e[:, 0].astype(np.int64), e[:, 1].astype(np.int64)
        sg = np.ones(u.shape[0], np.int64)
    else:
        from ..io.events import read_events

        ev = read_events(path, format="edges" if format == "events" else "scholp", ids=ids, time_unit=time_unit,
                         threads=threads)
        cu, cv, times = ev.pairs(threads=threads)
        if ev.node_ids.dtype.kind in "iu":
            u, v = ev.node_ids[cu].astype(np.int64), ev.node_ids[cv].astype(np.int64)
        else:
            u, v, labels = cu, cv, ev.node_ids
        sg = np.ones(u.shape[0], np.int64)
        shown = ev.path or shown
    s = EdgeStream(sg, u, v, times, shown, labels=labels)
    return s.cleaned() if clean else s


def with_deletions(stream, fraction, *, seed=None):
    """The stream with a fraction of its inserted edges deleted later, at random times.

    Each chosen insertion gets a deletion of the same edge at a position drawn uniformly after it
    (the deletions of the ThinkD experiments: a stream with a given share of deletions).

    Parameters
    ----------
    stream : EdgeStream
        A cleaned insertion-only stream.
    fraction : float
        The share of insertions later deleted, in [0, 1].
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    EdgeStream
        ``len(stream) + k`` events (k deletions); times are dropped.

    Raises
    ------
    ParameterError
        A fraction out of range, or a stream that deletes already.

    Examples
    --------
    >>> s = with_deletions(EdgeStream([1] * 4, [0, 1, 2, 3], [1, 2, 3, 0]), 0.5, seed=1)
    >>> len(s), s.deletions
    (6, 2)
    """
    if not isinstance(stream, EdgeStream):
        raise ParameterError("with_deletions takes an EdgeStream")
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 <= fraction <= 1:
        raise ParameterError(f"fraction must be a number in [0, 1], got {fraction!r}")
    if stream.deletions:
        raise ParameterError("with_deletions takes an insertion-only stream")
    rng = check_seed(seed)
    m = len(stream)
    k = int(round(fraction * m))
    chosen = np.sort(rng.choice(m, size=k, replace=False)) if k else np.zeros(0, np.int64)
    # a deletion goes after its insertion: at a uniform point among the gaps after it; sorting by
    # (position, kind) puts it after the insertions at that point
    when = chosen + np.floor(rng.random(k) * (m - chosen)).astype(np.int64)
    pos = np.concatenate((np.arange(m, dtype=np.float64), when + 0.5))
    order = np.argsort(pos, kind="stable")
    sg = np.concatenate((stream.signs, -np.ones(k, np.int64)))[order]
    u = np.concatenate((stream.u, stream.u[chosen]))[order]
    v = np.concatenate((stream.v, stream.v[chosen]))[order]
    return EdgeStream(sg, u, v, None, stream.path, stream.dropped, stream.labels)
