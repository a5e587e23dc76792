"""Readers and writers of graph files.

Edge lists (SNAP style and the like): one edge per line, two integer vertex ids separated by
whitespace, tabs or a comma; lines starting with ``#`` or ``%`` are comments; further columns
(weights, timestamps) are ignored or, for the third, kept as weights. Compressed files are read by
suffix (``.gz``, ``.bz2``, ``.xz``). Matrix Market files (``.mtx``) go through ``scipy.io``.

The text is parsed by a parallel Numba kernel over the file's bytes; no Python code runs per line.
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

from . import _parse_kernels as _pk
from ._interrupt import check as _check_interrupt, interruptible
from ._threads import resolve_threads, restores_threads
from .exceptions import GraphFormatError, ParameterError
from ._output import atomic_write, check_output_path
from .graph import Graph, compact_ids
from .graph import build_csr as _build_csr, check_vertex_count as _check_vertex_count

__all__ = ["EdgeList", "read_edges", "read_graph", "write_edgelist", "write_vertex_table", "read_bytes", "STDIN"]

_DECOMPRESS = {".gz": gzip.decompress, ".bz2": bz2.decompress, ".xz": lzma.decompress}

_MESSAGES = {
    _pk.ERR_NONNUMERIC: "expected an integer vertex id, found {tok}",
    _pk.ERR_ONE_COLUMN: "expected two vertex ids, found one column (truncated line?)",
    _pk.ERR_NEGATIVE: "vertex ids must be non-negative, found {tok}",
    _pk.ERR_TOO_LARGE: "vertex id {tok} does not fit in int64",
    _pk.ERR_BAD_WEIGHT: "expected a numeric weight in the third column, found {tok}",
    _pk.ERR_CONTROL: "control byte {byte} in the line: binary data, not an edge list",
}


@dataclass(frozen=True)
class EdgeList:
    """The edges of a file as read, before any merging.

    Attributes
    ----------
    edges : ndarray of int64, shape (m, 2)
        Vertex ids as written in the file.
    weights : ndarray of float64 or None
        Third column (1.0 where missing) when read with ``weights=True``.
    path : str
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


def _compression(data, path):
    for magic, comp in _MAGIC:
        if data[:len(magic)] == magic:
            return comp
    _, comp = _suffixes(path)
    return comp


def read_bytes(path, what="graph file"):
    """The bytes of a file (``'-'``: standard input), decompressed when they start with a gzip,
    bzip2 or xz header (or the name has that suffix); GraphFormatError for a missing, unreadable,
    undecodable or empty file (``what`` names the expected kind of file in messages)."""
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


def _read_text(path, nthreads):
    """The bytes of an edge-list file as a uint8 array, and the path to name in messages.

    A regular uncompressed file is read straight into one preallocated array, in parallel;
    standard input, pipes and compressed files go through :func:`read_bytes`.
    """
    import stat

    from ._limits import check_allocation

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


def _token_at(buf, pos):
    end = pos
    while end < buf.shape[0] and end - pos < 24 and buf[end] not in (9, 10, 13, 32, 44):
        end += 1
    return repr(bytes(buf[pos:end]).decode("utf-8", "replace"))


@interruptible
@restores_threads
def read_edges(path, *, weights=False, header=None, threads=None):
    """Read the edges of a text edge list without merging anything.

    Parameters
    ----------
    path : str or PathLike
        A file (compressed with gzip, bzip2 or xz, recognised by content) or ``'-'`` for
        standard input.
    weights : bool
        Keep the third column as float weights (1.0 on lines without one).
    header : bool, optional
        Whether the first line that is not a comment is a header to skip. Default: detected (a
        line whose first two fields start with a letter, such as ``source,target``).
    threads : int, optional

    Returns
    -------
    EdgeList

    Raises
    ------
    GraphFormatError
        For a missing, empty, undecodable or malformed file; the message names the line.

    Examples
    --------
    >>> import os, tempfile, graphmine as gm
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> with open(p, "w") as fh:
    ...     _ = fh.write("# a comment\\n1 2\\n2 3 0.5\\n")
    >>> gm.read_edges(p, weights=True).edges.tolist()
    [[1, 2], [2, 3]]
    """
    return _read_edges(os.fspath(path), weights, header, resolve_threads(threads))[0]


def _read_edges(path, weights, header, nthreads):
    """read_edges' work: (EdgeList, largest id)."""
    from ._limits import check_allocation

    buf, path = _read_text(path, nthreads)
    _check_interrupt()  # Ctrl-C is seen between the steps of a long read (graphmine/_interrupt.py)
    mode = 0 if header is False else 1 if header else 2
    starts, counts = _pk._plan(buf, mode, 1 if buf.shape[0] < (1 << 20) else 8 * nthreads)
    _check_interrupt()
    # pass 1 counted the edge lines of every chunk, pass 2 parses each chunk into its own rows
    offsets = np.zeros(counts.shape[0] + 1, np.int64)
    np.cumsum(counts, out=offsets[1:])
    total = int(offsets[-1])
    check_allocation(total * (24 if weights else 16), f"the {total:,} edges of {path}")
    edges = np.empty((total, 2), np.int64)
    w = np.empty(total if weights else 0, np.float64)
    written, errors, where, top = _pk._parse_chunks(buf, starts, offsets, edges, w, weights)
    bad = np.flatnonzero(errors)
    if bad.size:
        # chunks cover the file in order and each stops at its first error: the first failing
        # chunk holds the file's first bad line
        code = int(errors[bad[0]])
        pos = int(where[bad[0]])
        line = int(_pk._line_of(buf, pos))
        msg = _MESSAGES[code].format(tok=_token_at(buf, pos), byte=f"0x{int(buf[min(pos, buf.shape[0] - 1)]):02x}")
        raise GraphFormatError(msg, path, line)
    m = int(written.sum())
    if m == 0:
        raise GraphFormatError("contains no edge lines (only comments or blank lines)", path)
    if m != total:  # the two passes disagree on what an edge line is: a bug, never wrong rows
        raise RuntimeError(f"graphmine: {path}: counted {total} edge lines but parsed {m}")
    return EdgeList(edges, w if weights else None, path), int(top)


def _read_matrix_market(path, data):
    import scipy.io
    import scipy.sparse as sp

    try:
        A = scipy.io.mmread(_io.BytesIO(data))
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # scipy raises ValueError, IndexError, ... on malformed files
        raise GraphFormatError(f"not a valid Matrix Market file: {exc}", path) from None
    if not sp.issparse(A):
        A = sp.coo_array(A)
    return A


@interruptible
def read_graph(path, *, format=None, relabel=True, header=None, threads=None):
    """Read a graph file into a :class:`~graphmine.Graph`.

    Vertices are the ids that occur in the file, numbered in increasing id order (so 0- and
    1-based files give the same graph); ``G.node_ids`` maps back to the file's ids. Self-loops,
    duplicate and reversed duplicate edges are merged and counted in ``G.input_stats``.

    Parameters
    ----------
    path : str or PathLike
        Edge list (optionally compressed with gzip, bzip2 or xz), Matrix Market ``.mtx`` file,
        or ``'-'`` for an edge list on standard input.
    format : {'edgelist', 'mtx'}, optional
        Default: by suffix (``.mtx`` is Matrix Market, everything else an edge list).
    relabel : bool
        If False, vertex ``i`` is id ``i`` and n = largest id + 1 (ids never used become
        isolated vertices).
    header : bool, optional
        Skip the first non-comment line (default: only when it is detected as a header, see
        :func:`read_edges`).
    threads : int, optional

    Returns
    -------
    Graph

    Examples
    --------
    >>> import graphmine as gm
    >>> G = gm.read_graph(gm.datasets.path("USAir"))
    >>> G.n_nodes, G.n_edges
    (332, 2126)
    """
    path = os.fspath(path)
    base, _ = _suffixes(path)
    if format is None:
        format = "mtx" if base.endswith(".mtx") else "edgelist"
    if format not in ("edgelist", "mtx"):
        raise ParameterError(f"format must be 'edgelist' or 'mtx', got {format!r}")
    if format == "mtx":
        from .graph import from_scipy as _from_scipy

        G = _from_scipy(_read_matrix_market(path, read_bytes(path)), threads)
        G.input_stats["path"] = path
        return G
    return _graph_from_edge_file(path, relabel, header, threads)


@restores_threads
def _graph_from_edge_file(path, relabel, header, threads):
    from . import _csr_kernels as _ck
    from ._limits import check_allocation
    from .graph import index_dtype_for

    nthreads = resolve_threads(threads)
    el, top = _read_edges(path, False, header, nthreads)
    _check_interrupt()
    edges, shown = el.edges, el.path
    m = edges.shape[0]
    if relabel and top < max(8 * m, 1 << 20):
        # dense ids (the same rule as compact_ids): renumber through a table of top + 1 entries,
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
    return Graph(indptr, indices, node_ids, stats, _trusted=True)


def write_edgelist(G, path, *, original_ids=True, overwrite=False):
    """Write every undirected edge once (``u<TAB>v``, u < v) to a text file.

    Refuses to replace an existing file unless ``overwrite=True`` (raising
    :class:`~graphmine.exceptions.OutputPathError`, also a ``FileExistsError``-like ``OSError``).
    A ``.gz``/``.bz2``/``.xz`` suffix compresses. The file appears only when complete.
    """
    path = check_output_path(path, overwrite, flag="overwrite=True")
    e = G.edges()
    if original_ids:
        e = np.asarray(G.node_ids)[e]
    buf = _io.StringIO()
    np.savetxt(buf, e, fmt="%s", delimiter="\t")
    data = buf.getvalue().encode()
    _, comp = _suffixes(path)
    compress = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}.get(comp)
    with atomic_write(path, "wb", force=overwrite, flag="overwrite=True") as fh:
        fh.write(compress(data) if compress else data)


def write_vertex_table(G, path, columns, *, force=False):
    """Write one ``vertex<TAB>value...`` line per vertex (the graph's ``node_ids``) to a text file.

    ``columns`` maps a column name to an array of length ``G.n_nodes``; the first line is a
    ``# vertex<TAB>name...`` header. Refuses to replace an existing file unless ``force``; the
    file appears only when complete.

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
