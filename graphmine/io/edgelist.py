"""Readers and writers of graph files.

Edge lists (SNAP style and the like): one edge per line, two vertex ids separated by whitespace,
tabs or a comma; lines starting with ``#`` or ``%`` are comments; further columns (weights,
timestamps, networkx's ``{'weight': 1}``) are ignored or, for a numeric third column, kept as
weights. Vertex ids are non-negative integers, or any names with ``ids='str'`` (without blanks
or commas, or without tabs in a tab-separated file). Compressed files
are read by content (gzip, bzip2, xz); a UTF-8 byte-order mark is skipped. Matrix Market files
(``.mtx``, or any file starting with ``%%MatrixMarket``) go through ``scipy.io``.

The first line that is not a comment is skipped as a header only when it cannot be data: with
integer ids, when it names columns (its first two fields start with a letter, ``_`` or a quote)
and the next line starts with a digit; the skip is announced by a :class:`SkippedLineWarning`.
With ``ids='str'`` every line is data unless ``header=True``.

The text is parsed by parallel Numba kernels over the file's bytes; no Python code runs per line.
Every problem is reported as :class:`~graphmine.GraphFormatError` naming the path, the line and the
rule.
"""

import bz2
import gzip
import io as _io
import lzma
import os
import zlib
from dataclasses import dataclass

import numpy as np

from .._primitives import parse_kernels as _pk
from .._primitives import small_work as _sw
from .._runtime.interrupt import check as _check_interrupt, interruptible
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import GraphFormatError, ParameterError, SkippedLineWarning, warn_at_caller
from .._runtime.output import atomic_write, check_output_path, force_or_overwrite
from ..core.graph import Graph, compact_ids
from ..core.graph import build_csr as _build_csr, check_vertex_count as _check_vertex_count

__all__ = ["EdgeList", "read_edges", "read_graph", "write_edgelist", "write_vertex_table", "read_bytes", "STDIN",
           "ID_TYPES"]

_DECOMPRESS = {".gz": gzip.decompress, ".bz2": bz2.decompress, ".xz": lzma.decompress}

#: the values of ``ids``: integer vertex ids, or names (any text without blanks or commas)
ID_TYPES = ("int", "str")

_NAMES_HINT = " (vertex names? read them with ids='str'; on the command line: --ids str)"

_MESSAGES = {
    _pk.ERR_NONNUMERIC: "expected an integer vertex id, found {tok}",
    _pk.ERR_ONE_COLUMN: "expected two vertex ids, found one column (truncated line?)",
    _pk.ERR_NEGATIVE: "vertex ids must be non-negative, found {tok}",
    _pk.ERR_TOO_LARGE: "vertex id {tok} does not fit in int64",
    _pk.ERR_BAD_WEIGHT: "expected a numeric weight in the third column, found {tok}",
    _pk.ERR_CONTROL: "not a text edge list: control byte {byte} (binary data)",
    _pk.ERR_EMPTY_NAME: "expected a vertex name, found an empty field",
}

_BINARY = "not a text edge list: binary data ({what})"


@dataclass(frozen=True)
class EdgeList:
    """The edges of a file as read, before any merging.

    Attributes
    ----------
    edges : ndarray of shape (m, 2)
        Vertex ids as written in the file: int64, or ``str`` objects when read with
        ``ids='str'``.
    weights : ndarray of float64 or None
        Third column (1.0 where missing) when read with ``weights=True``.
    path : str
        The file read (``'<stdin>'`` for standard input).

    Examples
    --------
    >>> import io
    >>> el = read_edges(io.StringIO("1 2\\n2 3\\n"))
    >>> el.edges.tolist()
    [[1, 2], [2, 3]]
    """

    edges: np.ndarray
    weights: object
    path: str


def _suffixes(path):
    name = os.path.basename(str(path)).lower()
    comp = next((s for s in _DECOMPRESS if name.endswith(s)), None)
    base = name[: -len(comp)] if comp else name
    return base, comp


# compressed formats are recognised by their first bytes, whatever the file is called
_MAGIC = ((b"\x1f\x8b", ".gz"), (b"BZh", ".bz2"), (b"\xfd7zXZ\x00", ".xz"))

#: the path that means standard input
STDIN = "-"

_BOM = b"\xef\xbb\xbf"


def _compression(data, path):
    for magic, comp in _MAGIC:
        if data[:len(magic)] == magic:
            return comp
    _, comp = _suffixes(path)
    return comp


def _is_file_object(source):
    return hasattr(source, "read") and not isinstance(source, (str, bytes, os.PathLike))


def _source_name(source):
    """The name of a path or file object in messages ('<file object>' where it has none)."""
    if _is_file_object(source):
        name = getattr(source, "name", None)
        return name if isinstance(name, str) else "<file object>"
    path = os.fspath(source)
    return "<stdin>" if path == STDIN else path


def _read_object(fh, name):
    """The bytes of a text or binary file object."""
    try:
        data = fh.read()
    except UnicodeDecodeError as exc:
        raise GraphFormatError(f"cannot decode the text ({exc.reason} at byte {exc.start}); open the file "
                               "in binary mode ('rb') to let graphmine read its bytes", name) from None
    except (OSError, ValueError) as exc:  # a closed file, a file opened for writing
        raise GraphFormatError(f"cannot read the file object: {exc}", name) from None
    if isinstance(data, str):
        return data.encode("utf-8", "surrogateescape")
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise GraphFormatError(f"the file object's read() returned {type(data).__name__}, not text or bytes", name)


def read_bytes(path, what="graph file"):
    """The bytes of a file, decompressed when they start with a gzip, bzip2 or xz header.

    A name with such a suffix is decompressed too.

    Parameters
    ----------
    path : str, PathLike or file object
        The file; ``'-'`` is standard input; a text or binary file object is read from its
        position.
    what : str, default 'graph file'
        The expected kind of file, for messages.

    Returns
    -------
    bytes
        The (decompressed) content.

    Raises
    ------
    GraphFormatError
        A missing, unreadable, undecodable or empty file, naming the path.

    Examples
    --------
    >>> import gzip, io
    >>> read_bytes(io.BytesIO(gzip.compress(b"0 1\\n")))
    b'0 1\\n'
    """
    if _is_file_object(path):
        name = _source_name(path)
        data = _read_object(path, name)
        path = name
    else:
        path = os.fspath(path)
        if path == STDIN:
            import sys

            try:
                data = sys.stdin.buffer.read()
            except (OSError, AttributeError, ValueError) as exc:
                raise GraphFormatError(f"cannot read standard input: {exc}", "<stdin>") from None
            path = "<stdin>"
        else:
            if not os.path.exists(path):
                raise GraphFormatError("no such file", path)
            if os.path.isdir(path):
                raise GraphFormatError(f"is a directory, not a {what}", path)
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError as exc:
                raise GraphFormatError(f"cannot read the file: {exc.strerror or exc}", path) from None
    comp = _compression(data, path)
    if comp:
        try:
            data = _DECOMPRESS[comp](data)
        except (OSError, EOFError, lzma.LZMAError, ValueError, zlib.error) as exc:
            raise GraphFormatError(f"cannot decompress as {comp[1:]}: {exc}", path) from None
    if len(data) == 0:
        raise GraphFormatError("the file is empty", path)
    return data


# below this size a file is read by one thread (a thread pool costs more than it saves)
_PARALLEL_READ_BYTES = 1 << 26


def _pread_all(fd, buf, nthreads):
    """Fill ``buf`` with the file's bytes from offset 0, ``nthreads`` reads at a time (the copy
    out of the page cache runs in parallel: os.preadv releases the GIL). Returns the number of
    bytes read before the first short read (less than len(buf) if the file shrank meanwhile)."""
    size = buf.shape[0]
    view = memoryview(buf)

    def part(a, b):
        got = a
        while got < b:
            k = os.preadv(fd, [view[got:b]], got)
            if k == 0:
                break
            got += k
        return got

    if nthreads == 1 or size < _PARALLEL_READ_BYTES:
        return part(0, size)
    from concurrent.futures import ThreadPoolExecutor

    bounds = [size * i // nthreads for i in range(nthreads + 1)]
    with ThreadPoolExecutor(nthreads) as pool:
        ends = list(pool.map(part, bounds[:-1], bounds[1:]))
    for end, b in zip(ends, bounds[1:]):
        if end < b:
            return end
    return size


def _read_raw(source, nthreads):
    """The bytes of a file as a uint8 array, and the name to use in messages.

    A regular uncompressed file is read straight into one preallocated array, in parallel;
    standard input, pipes, file objects and compressed files go through :func:`read_bytes`.
    """
    import stat

    from .._runtime.limits import check_allocation

    if _is_file_object(source):
        name = _source_name(source)
        return np.frombuffer(read_bytes(source), dtype=np.uint8), name
    path = os.fspath(source)
    if path != STDIN and hasattr(os, "preadv"):
        try:
            st = os.stat(path)
        except OSError:
            st = None
        if st is not None and stat.S_ISREG(st.st_mode) and st.st_size > 0:
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            except OSError as exc:
                raise GraphFormatError(f"cannot read the file: {exc.strerror or exc}", path) from None
            try:
                head = os.pread(fd, 8, 0)
                if not _compression(head, path):
                    check_allocation(st.st_size, f"reading {path}")
                    buf = np.empty(st.st_size, np.uint8)
                    got = _pread_all(fd, buf, nthreads)
                    if got == 0:
                        raise GraphFormatError("the file is empty", path)
                    return (buf if got == buf.shape[0] else buf[:got]), path
            except OSError as exc:
                raise GraphFormatError(f"cannot read the file: {exc.strerror or exc}", path) from None
            finally:
                os.close(fd)
    data = read_bytes(path)
    return np.frombuffer(data, dtype=np.uint8), ("<stdin>" if path == STDIN else path)


def _text(buf, name):
    """The text of an edge list: a UTF-8 byte-order mark skipped (a view: line numbers are
    unchanged), binary data and UTF-16/32 text refused with one line; returned read-only."""
    if buf.shape[0] >= 3 and bytes(buf[:3]) == _BOM:
        buf = buf[3:]
        if buf.shape[0] == 0:
            raise GraphFormatError("the file is empty", name)
    head = bytes(buf[:4])
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or head in (b"\x00\x00\xfe\xff",):
        raise GraphFormatError("not a text edge list in UTF-8 or ASCII: it starts with a UTF-16/32 byte-order "
                               "mark (save it as UTF-8)", name)
    # read-only whatever the source: bytes from a pipe or a compressed file are, a regular file's
    # array is not, and numba compiles each parse kernel once per flag (4-8 s of CPU each)
    buf = buf.view()
    buf.flags.writeable = False
    nul = np.flatnonzero(buf[:1 << 16] == 0)  # text has no NUL bytes; binary files have them early
    if nul.size:
        raise GraphFormatError(_BINARY.format(what="a NUL byte"), name, int(_pk._line_of(buf, int(nul[0]))))
    return buf


def _token_at(buf, pos):
    """The field starting at ``pos`` as shown in messages (quoted, at most 24 characters), or
    None when it is not printable text."""
    end = pos
    while end < buf.shape[0] and end - pos < 24 and buf[end] not in (9, 10, 13, 32, 44):
        end += 1
    raw = bytes(buf[pos:end])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start > 0 and end - pos >= 24 and exc.start >= len(raw) - 3:
            text = raw[:exc.start].decode("utf-8")  # a character cut by the 24-byte limit
        else:
            return None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        return None
    return repr(text)


def _raise_parse_error(buf, name, code, pos, names=False):
    line = int(_pk._line_of(buf, pos))
    tok = _token_at(buf, pos)
    byte = f"0x{int(buf[min(pos, buf.shape[0] - 1)]):02x}"
    if code in (_pk.ERR_NONNUMERIC, _pk.ERR_NEGATIVE, _pk.ERR_TOO_LARGE, _pk.ERR_BAD_WEIGHT) and tok is None:
        raise GraphFormatError(_BINARY.format(what="bytes that are not text"), name, line)
    msg = _MESSAGES[code].format(tok=tok, byte=byte)
    if names and code == _pk.ERR_ONE_COLUMN:
        msg = msg.replace("vertex ids", "vertex names")
    if code == _pk.ERR_NONNUMERIC and (tok[1:2].isalpha() or tok[1:2] == "_"):
        msg += _NAMES_HINT
    raise GraphFormatError(msg, name, line)


def _check_ids(ids):
    if ids not in ID_TYPES:
        raise ParameterError(f"ids must be 'int' (integer vertex ids) or 'str' (vertex names), got {ids!r}")


@interruptible
@restores_threads
def read_edges(path, *, weights=False, header=None, ids="int", threads=None):
    """Read the edges of a text edge list without merging anything.

    Parameters
    ----------
    path : str, PathLike or file object
        A file (compressed with gzip, bzip2 or xz, recognised by content), ``'-'`` for
        standard input, or an open text or binary file object.
    weights : bool
        Keep the third column as float weights (1.0 on lines without one); integer ids only.
    header : bool, optional
        Whether the first line that is not a comment is a header to skip. Default: with integer
        ids, skipped only when it names columns (its first two fields start with a letter, such as
        ``source,target``) and the next line starts with a digit, with a
        :class:`~graphmine.SkippedLineWarning`; with ``ids='str'``, never.
    ids : {'int', 'str'}
        Non-negative integer vertex ids (default), or names compared as bytes (UTF-8): any text
        without blanks or commas, or, in a file whose first edge line holds a tab, any text
        without tabs (``New York<TAB>Boston``). A name cannot start with ``#`` or ``%`` (comments).
    threads : int, optional

    Returns
    -------
    EdgeList

    Raises
    ------
    GraphFormatError
        For a missing, empty, binary or malformed file; the message names the line.

    Examples
    --------
    >>> import os, tempfile, graphmine as gm
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> with open(p, "w") as fh:
    ...     _ = fh.write("# a comment\\n1 2\\n2 3 0.5\\n")
    >>> gm.read_edges(p, weights=True).edges.tolist()
    [[1, 2], [2, 3]]
    >>> with open(p, "w") as fh:
    ...     _ = fh.write("Valjean Javert {'weight': 1}\\nJavert Fantine {}\\n")
    >>> gm.read_edges(p, ids="str").edges.tolist()
    [['Valjean', 'Javert'], ['Javert', 'Fantine']]
    """
    _check_ids(ids)
    nthreads = resolve_threads(threads)
    buf, name = _read_raw(path, nthreads)
    buf = _text(buf, name)
    if ids == "str":
        if weights:
            raise ParameterError("weights=True reads integer-id files only (ids='int')")
        tokens, names = _parse_names(buf, name, header, nthreads)
        return EdgeList(names[tokens].reshape(-1, 2), None, name)
    return _parse_ints(buf, name, weights, header, nthreads)[0]


def _plan(buf, name, mode, nthreads):
    """The chunks of the text and their edge-line counts; warns when a header was detected and
    skipped (``mode`` 2)."""
    starts, counts = _pk._plan(buf, mode, 1 if buf.shape[0] < (1 << 20) else 8 * nthreads)
    if mode == 2 and starts[0] > 0:
        lo = int(starts[0])
        line = int(_pk._line_of(buf, lo - 1))
        text = bytes(buf[:lo]).rstrip(b"\r\n").rsplit(b"\n", 1)[-1].decode("utf-8", "replace").strip()
        if len(text) > 60:
            text = text[:57] + "..."
        warn_at_caller(f"{name}:{line}: skipped the first line {text!r} as a header (column names before "
                       "integer data)", SkippedLineWarning)
    offsets = np.zeros(counts.shape[0] + 1, np.int64)
    np.cumsum(counts, out=offsets[1:])
    return starts, offsets


def _parse_ints(buf, name, weights, header, nthreads):
    """Integer edge lines: (EdgeList, largest id)."""
    from .._runtime.limits import check_allocation

    _check_interrupt()  # Ctrl-C is seen between the steps of a long read (graphmine/_runtime/interrupt.py)
    if not weights and header is not True and _sw.numpy_parse(buf.shape[0], (_pk._plan, _pk._parse_chunks)):
        # a small clean file: numpy's vectorised parse, no kernel to compile or load (any other
        # text, errors included, goes through the kernels below)
        edges = _sw.parse_clean_ints(buf)
        if edges is not None:
            return EdgeList(edges, None, name), int(edges.max())
    mode = 0 if header is False else 1 if header else 2
    starts, offsets = _plan(buf, name, mode, nthreads)
    _check_interrupt()
    # pass 1 counted the edge lines of every chunk, pass 2 parses each chunk into its own rows
    total = int(offsets[-1])
    check_allocation(total * (24 if weights else 16), f"the {total:,} edges of {name}")
    edges = np.empty((total, 2), np.int64)
    w = np.empty(total if weights else 0, np.float64)
    written, errors, where, top = _pk._parse_chunks(buf, starts, offsets, edges, w, weights)
    bad = np.flatnonzero(errors)
    if bad.size:
        # chunks cover the file in order and each stops at its first error: the first failing
        # chunk holds the file's first bad line
        _raise_parse_error(buf, name, int(errors[bad[0]]), int(where[bad[0]]))
    m = int(written.sum())
    if m == 0:
        raise GraphFormatError("contains no edge lines (only comments or blank lines)", name)
    if m != total:  # the two passes disagree on what an edge line is: a bug, never wrong rows
        raise RuntimeError(f"graphmine: {name}: counted {total} edge lines but parsed {m}")
    return EdgeList(edges, w if weights else None, name), int(top)


def _parse_names(buf, name, header, nthreads):
    """Edge lines of vertex names: (vertex of every token (2m int64: token 2i and 2i + 1 are the
    ends of edge i), the names as an object array of str). Vertices are numbered in the order in
    which their names first occur, as networkx's ``read_edgelist`` adds them. When the first edge
    line holds a tab, fields are separated by tabs only, so that names may hold spaces."""
    from .._runtime.limits import check_allocation

    if not header and buf.shape[0] <= _sw.SMALL_BYTES:
        # a small clean file: numpy's sort numbers the names, no kernel to compile or load
        clean = _sw.parse_clean_names(buf)
        if clean is not None:
            vertex, first, length = clean
            return vertex, _decode_names(buf, name, first, length)
    starts, offsets = _plan(buf, name, 1 if header else 0, nthreads)
    total = int(offsets[-1])
    ltype = np.int32 if buf.shape[0] < 2**31 else np.int64
    # token starts, lengths and hashes, then the interning's representatives and the numbering
    check_allocation(total * 2 * (8 + np.dtype(ltype).itemsize + 8 + 8 + 8), f"the {total:,} edges of {name}")
    tstart = np.empty(2 * total, np.int64)
    tlen = np.empty(2 * total, ltype)
    hashes = np.empty(2 * total, np.uint64)
    # a file whose first edge line holds a tab is tab-separated: names may hold spaces ("New York")
    s, e = _pk._first_data_line(buf, int(starts[0]))
    tabs = bool(s >= 0 and np.any(buf[s:e] == 9))
    written, errors, where = _pk._tokenise_chunks(buf, starts, offsets, tstart, tlen, hashes, tabs)
    bad = np.flatnonzero(errors)
    if bad.size:
        _raise_parse_error(buf, name, int(errors[bad[0]]), int(where[bad[0]]), names=True)
    m = int(written.sum())
    if m == 0:
        raise GraphFormatError("contains no edge lines (only comments or blank lines)", name)
    if m != total:
        raise RuntimeError(f"graphmine: {name}: counted {total} edge lines but parsed {m}")
    # one part of the hash space per thread (small files: one part, no thread pool)
    rep = _pk._intern_tokens(buf, tstart, tlen, hashes, 1 if total < (1 << 15) else nthreads)
    del hashes
    tokens = np.arange(2 * total, dtype=np.int64)
    first = np.flatnonzero(rep == tokens)  # first occurrences, in file order
    vertex = tokens  # reused: the vertex number of each first occurrence, then of every token
    vertex[first] = np.arange(first.shape[0], dtype=np.int64)
    vertex = vertex[rep]
    return vertex, _decode_names(buf, name, tstart[first], tlen[first].astype(np.int64))


def _decode_names(buf, name, starts, lengths):
    """The names at buf[starts[j]:starts[j] + lengths[j]] as an object array of str: gathered
    into one newline-separated byte string (no name holds a newline), decoded and split once."""
    k = starts.shape[0]
    size = int(lengths.sum())
    begin = np.cumsum(lengths) - lengths  # where each name starts in the gathered bytes
    step = np.arange(size, dtype=np.int64)
    out = np.full(size + k, 10, np.uint8)
    out[step + np.repeat(np.arange(k, dtype=np.int64), lengths)] = buf[step + np.repeat(starts - begin, lengths)]
    try:
        text = out.tobytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        j = int(np.searchsorted(begin + np.arange(k) + lengths, exc.start))  # the name holding the byte
        line = int(_pk._line_of(buf, int(starts[j])))
        raise GraphFormatError("not a text edge list: a vertex name that is not UTF-8 text", name, line) from None
    names = np.empty(k, dtype=object)
    names[:] = text.split("\n")[:k]
    return names


def _matrix_market(data, name, threads):
    """The graph of a Matrix Market file: vertex ids 1..n (the file's), every entry an undirected
    edge. A symmetric (skew, hermitian) file lists each off-diagonal entry once, so only its
    stored triangle is counted (the mirrored half scipy adds is not a duplicate); a general file
    is read like an edge list: (i, j) and (j, i) are one edge, the second counted as a duplicate."""
    import scipy.io
    import scipy.sparse as sp

    from ..core.graph import index_dtype_for

    if data[:3] == _BOM:
        data = data[3:]
    try:
        info = scipy.io.mminfo(_io.BytesIO(data))
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # scipy raises ValueError, IndexError, ... on malformed files
        raise GraphFormatError(f"not a valid Matrix Market file: {exc}", name) from None
    rows, cols, symmetry = info[0], info[1], info[5]
    # checked before scipy reads the values of a dense ('array') matrix: its reader does not check
    # their number against a symmetric matrix's size or shape and writes past its buffer (heap
    # corruption, a crash later), and divides by the row count (0 rows: the process dies of SIGFPE)
    if rows != cols:
        raise GraphFormatError(f"the matrix of a graph must be square, got shape {rows} x {cols}", name)
    if info[3] == "array":
        found = sum(1 for ln in data.split(b"\n")[1:] if ln.strip() and not ln.lstrip().startswith(b"%")) - 1
        want = {"general": rows * rows, "skew-symmetric": rows * (rows - 1) // 2}.get(symmetry, rows * (rows + 1) // 2)
        if found != want:
            raise GraphFormatError(f"not a valid Matrix Market file: a {symmetry} dense matrix of {rows} x {rows} "
                                   f"has {want} values, found {found} lines of them", name)
    try:
        A = sp.coo_array((0, 0)) if rows == 0 else scipy.io.mmread(_io.BytesIO(data))
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:
        raise GraphFormatError(f"not a valid Matrix Market file: {exc}", name) from None
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise GraphFormatError(f"the matrix of a graph must be square, got shape {A.shape[0]} x {A.shape[1]}",
                               name)
    C = sp.coo_array(A)
    keep = C.data != 0
    if symmetry != "general":
        keep &= C.row >= C.col
    n = A.shape[0]
    itype = index_dtype_for(n)
    indptr, indices, stats = _build_csr(C.row[keep].astype(itype), C.col[keep].astype(itype), n, threads)
    stats["path"] = name
    return Graph.from_csr(indptr, indices, np.arange(1, n + 1, dtype=np.int64), stats)


def _is_matrix_market(head):
    head = bytes(head)
    if head.startswith(_BOM):
        head = head[len(_BOM):]
    return head[:14].lower() == b"%%matrixmarket"


@interruptible
@restores_threads
def read_graph(path, *, format=None, relabel=True, header=None, ids="int", threads=None):
    """Read a graph file into a :class:`~graphmine.Graph`.

    Vertices are the ids that occur in the file, numbered in increasing id order (so 0- and
    1-based files give the same graph), or with ``ids='str'`` in the order their names first
    occur; ``G.node_ids`` maps back to the file's ids (int64, or an object array of ``str``).
    A Matrix Market file's vertices are its rows, with ids 1..n. Self-loops, duplicate and
    reversed duplicate edges are merged and counted in ``G.input_stats``.

    Parameters
    ----------
    path : str, PathLike or file object
        Edge list (optionally compressed with gzip, bzip2 or xz), Matrix Market file, ``'-'`` for
        an edge list on standard input, or an open text or binary file object
        (``open(p)``, ``open(p, 'rb')``, ``io.StringIO``).
    format : {'edgelist', 'mtx'}, optional
        Default: Matrix Market for a ``.mtx`` name or a file starting with ``%%MatrixMarket``,
        otherwise an edge list.
    relabel : bool
        If False, vertex ``i`` is id ``i`` and n = largest id + 1 (ids never used become
        isolated vertices); integer ids only.
    header : bool, optional
        Skip the first non-comment line (default: only when it cannot be data, see
        :func:`read_edges`).
    ids : {'int', 'str'}
        Integer vertex ids (default) or vertex names (any text without blanks or commas, such as
        the files of ``networkx.write_edgelist``, whose trailing ``{...}`` data is ignored). A
        Matrix Market file's ids are its row numbers whatever ``ids`` says.
    threads : int, optional

    Returns
    -------
    Graph

    Examples
    --------
    >>> import io, graphmine as gm
    >>> G = gm.read_graph(gm.datasets.path("USAir"))
    >>> G.n_nodes, G.n_edges
    (332, 2126)
    >>> G = gm.read_graph(io.StringIO("Napoleon Myriel {'weight': 1}\\nMyriel Baptistine {}\\n"), ids="str")
    >>> G.node_ids.tolist(), G.n_edges
    (['Napoleon', 'Myriel', 'Baptistine'], 2)
    """
    _check_ids(ids)
    name = _source_name(path)
    if format not in (None, "edgelist", "mtx"):
        raise ParameterError(f"format must be 'edgelist' or 'mtx', got {format!r}")
    if format is None and _suffixes(name)[0].endswith(".mtx"):
        format = "mtx"
    if format == "mtx":
        return _matrix_market(read_bytes(path), name, threads)
    nthreads = resolve_threads(threads)
    buf, name = _read_raw(path, nthreads)
    if format is None and _is_matrix_market(buf[:20]):
        return _matrix_market(buf.tobytes(), name, threads)
    if ids == "str" and not relabel:
        raise ParameterError("relabel=False needs integer vertex ids (ids='int')")
    return _graph_from_edge_text(_text(buf, name), name, relabel, header, ids, threads, nthreads)


def _graph_from_edge_text(buf, shown, relabel, header, ids, threads, nthreads):
    from .._primitives import csr_kernels as _ck
    from .._runtime.limits import check_allocation
    from ..core.graph import index_dtype_for

    if ids == "str":
        tokens, node_ids = _parse_names(buf, shown, header, nthreads)
        _check_interrupt()
        n = node_ids.shape[0]
        itype = index_dtype_for(n)
        src, dst = tokens[0::2].astype(itype), tokens[1::2].astype(itype)
        del tokens
        m = src.shape[0]
    else:
        el, top = _parse_ints(buf, shown, False, header, nthreads)
        _check_interrupt()
        edges = el.edges
        m = edges.shape[0]
        if relabel and _sw.dense_ids(top, 2 * m) and m <= _sw.SMALL_EDGES:
            flat, node_ids = _sw.compact_dense(edges.reshape(-1), top + 1, index_dtype_for(top + 1))
            n = node_ids.shape[0]
            src, dst = flat[0::2], flat[1::2]
        elif relabel and _sw.dense_ids(top, 2 * m):
            # dense ids (compact_ids's rule): renumber through a table of top + 1 entries,
            # writing the two endpoint columns as the contiguous arrays the CSR build reads
            itype = index_dtype_for(top + 1)
            src, dst = np.empty(m, itype), np.empty(m, itype)
            node_ids = _ck._compact_pairs(edges, top + 1, src, dst, nthreads)
            n = node_ids.shape[0]
        elif relabel:
            flat, node_ids = compact_ids(edges.reshape(-1), nthreads)
            n = node_ids.shape[0]
            src, dst = flat[0::2], flat[1::2]
        else:
            n = top + 1
            _check_vertex_count(n, m, nthreads)
            node_ids = None
            src, dst = edges[:, 0], edges[:, 1]
        del edges, el  # the int64 edges go before the CSR build allocates (unless still viewed)
    _check_interrupt()
    # the build's arc and row buffers, the final indices, five per-vertex arrays
    itemsize = np.dtype(index_dtype_for(n)).itemsize
    check_allocation(m * (2 + 5 * itemsize) + 40 * n, f"the graph of {shown} ({m:,} edges)")
    # ``threads`` as given: build_csr keeps a small graph on one thread unless told otherwise
    indptr, indices, stats = _build_csr(src, dst, n, threads)
    stats["path"] = shown
    return Graph.from_csr(indptr, indices, node_ids, stats)


def write_edgelist(G, path, *, original_ids=True, force=False, overwrite=None):
    """Write every undirected edge once (``u<TAB>v``, u < v) to a text file.

    Refuses to replace an existing file unless ``force=True`` (raising
    :class:`~graphmine.core.exceptions.OutputPathError`, also a ``FileExistsError``-like ``OSError``).
    A ``.gz``/``.bz2``/``.xz`` suffix compresses. The file appears only when complete.

    Parameters
    ----------
    G : Graph
        The graph to write.
    path : str or PathLike
        The output file.
    original_ids : bool, default True
        Write the graph's ``node_ids`` (the file's ids) instead of the vertex numbers 0..n-1.
    force : bool, default False
        Replace an existing file.
    overwrite : bool, optional
        Deprecated old name of ``force`` (a :class:`DeprecationWarning`); removed in the next release.

    Raises
    ------
    OutputPathError
        The file exists (without ``force``) or its folder is missing or not writable.

    Examples
    --------
    >>> import os, tempfile, graphmine as gm
    >>> G = gm.from_edges([[10, 20], [20, 30]], relabel=True)
    >>> p = os.path.join(tempfile.mkdtemp(), "g.el")
    >>> gm.write_edgelist(G, p)
    >>> print(open(p).read(), end="")
    10	20
    20	30
    """
    force = force_or_overwrite(force, overwrite, "write_edgelist")
    path = check_output_path(path, force, flag="force=True")
    e = G.edges()
    if original_ids:
        e = np.asarray(G.node_ids)[e]
    buf = _io.StringIO()
    np.savetxt(buf, e, fmt="%s", delimiter="\t")
    data = buf.getvalue().encode()
    _, comp = _suffixes(path)
    compress = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}.get(comp)
    with atomic_write(path, "wb", force=force, flag="force=True") as fh:
        fh.write(compress(data) if compress else data)


def write_vertex_table(G, path, columns, *, force=False):
    """Write one ``vertex<TAB>value...`` line per vertex (the graph's ``node_ids``) to a text file.

    ``columns`` maps a column name to an array of length ``G.n_nodes``; the first line is a
    ``# vertex<TAB>name...`` header. Refuses to replace an existing file unless ``force``; the
    file appears only when complete.

    Parameters
    ----------
    G : Graph
        The graph whose ``node_ids`` name the rows.
    path : str or PathLike
        The output file.
    columns : dict of str to array_like
        Column name -> one value per vertex.
    force : bool, default False
        Replace an existing file.

    Raises
    ------
    OutputPathError
        The file exists (without ``force``) or cannot be written.

    Examples
    --------
    >>> import os, tempfile, graphmine as gm
    >>> G = gm.from_edges([[10, 20], [20, 30], [30, 10]], relabel=True)
    >>> p = os.path.join(tempfile.mkdtemp(), "t.tsv")
    >>> write_vertex_table(G, p, {"triangles": gm.triangles(G)})
    >>> print(open(p).read(), end="")
    # vertex    triangles
    10    1
    20    1
    30    1
    """
    names = list(columns)
    cols = [np.asarray(G.node_ids)] + [np.asarray(columns[c]) for c in names]
    with atomic_write(path, "w", force=force) as fh:
        fh.write("# vertex\t" + "\t".join(names) + "\n")
        step = 1 << 16  # lines formatted in blocks: bounded memory, no Python call per value
        for a in range(0, G.n_nodes, step):
            rows = zip(*(c[a:a + step].tolist() for c in cols))
            fh.write("".join("\t".join(map(_format_value, r)) + "\n" for r in rows))


def _format_value(x):
    return repr(x) if isinstance(x, float) else str(x)
