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


def _first_data_line(data):
    """(start, end) byte offsets of the first line that is neither blank nor a comment."""
    pos, size = 0, len(data)
    while pos < size:
        end = data.find(b"\n", pos)
        end = size if end < 0 else end + 1
        stripped = data[pos:end].strip()
        if stripped and stripped[:1] not in (b"#", b"%"):
            return pos, end
        pos = end
    return None


def _is_header(line):
    """A header names its columns: its first two fields both start with a letter, ``_`` or a quote
    (``source,target``, ``"from" "to" weight``), which no edge line does."""
    fields = line.replace(b",", b" ").replace(b"\t", b" ").split()
    if len(fields) < 2:
        return False
    return all(f[:1].isalpha() or f[:1] in (b"_", b'"', b"'") for f in fields[:2])


def _chunk_starts(data, nchunks):
    """Offsets that split ``data`` into about ``nchunks`` pieces at line boundaries."""
    size = len(data)
    starts = [0]
    for c in range(1, nchunks):
        guess = max(size * c // nchunks, starts[-1])
        nl = data.find(b"\n", guess)
        if nl < 0:
            break
        if nl + 1 > starts[-1]:
            starts.append(nl + 1)
    starts.append(size)
    return np.unique(np.asarray(starts, dtype=np.int64))


def _token_at(buf, pos):
    end = pos
    while end < buf.shape[0] and end - pos < 24 and buf[end] not in (9, 10, 13, 32, 44):
        end += 1
    return repr(bytes(buf[pos:end]).decode("utf-8", "replace"))


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
    """
    path = os.fspath(path)
    data = read_bytes(path)
    if path == STDIN:
        path = "<stdin>"
    nthreads = resolve_threads(threads)
    buf = np.frombuffer(data, dtype=np.uint8)
    starts = _chunk_starts(data, 1 if len(data) < (1 << 20) else 8 * nthreads)
    first = _first_data_line(data) if header is not False else None
    if first is not None and (header or _is_header(data[first[0]:first[1]])):
        # parse from the line after the header; line numbers still count from the file's start
        starts = np.unique(np.concatenate([[first[1]], starts[starts > first[1]], [len(data)]])).astype(np.int64)
    edges, w, offsets, written, errors, where = _pk._parse_all(buf, starts, weights)
    bad = np.flatnonzero(errors)
    if bad.size:
        code = int(errors[bad[0]])
        pos = int(where[bad[0]])
        line = int(np.count_nonzero(buf[:pos] == 10)) + 1
        msg = _MESSAGES[code].format(tok=_token_at(buf, pos), byte=f"0x{int(buf[min(pos, buf.shape[0] - 1)]):02x}")
        raise GraphFormatError(msg, path, line)
    m = int(written.sum())
    if m == 0:
        raise GraphFormatError("contains no edge lines (only comments or blank lines)", path)
    # chunks were sized by their line counts; close the gaps left by comment and blank lines
    # (moving rows forward, in place; a file without such lines needs no copy at all)
    pos = 0
    for i in range(written.shape[0]):
        a, cnt = int(offsets[i]), int(written[i])
        if a != pos and cnt:
            edges[pos:pos + cnt] = edges[a:a + cnt]
            if weights:
                w[pos:pos + cnt] = w[a:a + cnt]
        pos += cnt
    edges = edges[:m]
    wts = w[:m] if weights else None
    return EdgeList(edges, wts, path)


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
    el = read_edges(path, header=header, threads=threads)
    flat = el.edges.reshape(-1)
    if relabel:
        flat, node_ids = compact_ids(flat, threads)
        n = node_ids.shape[0]
    else:
        n = int(flat.max()) + 1
        _check_vertex_count(n, el.edges.shape[0], threads)
        node_ids = None
    pairs = flat.reshape(-1, 2)
    indptr, indices, stats = _build_csr(pairs[:, 0], pairs[:, 1], n, threads)
    stats["path"] = el.path
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
