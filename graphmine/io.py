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
from dataclasses import dataclass

import numpy as np

from . import _parse_kernels as _pk
from ._threads import resolve_threads
from .exceptions import GraphFormatError, ParameterError
from .graph import Graph, _build_csr, compact_ids

__all__ = ["EdgeList", "read_edges", "read_graph", "write_edgelist"]

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


def read_bytes(path, what="graph file"):
    """The bytes of a file, decompressed by suffix; GraphFormatError for a missing, unreadable,
    undecodable or empty file (``what`` names the expected kind of file in messages)."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise GraphFormatError("no such file", path)
    if os.path.isdir(path):
        raise GraphFormatError(f"is a directory, not a {what}", path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise GraphFormatError(f"cannot read the file: {exc.strerror or exc}", path) from None
    _, comp = _suffixes(path)
    if comp:
        try:
            data = _DECOMPRESS[comp](data)
        except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
            raise GraphFormatError(f"cannot decompress as {comp[1:]}: {exc}", path) from None
    if len(data) == 0:
        raise GraphFormatError("the file is empty", path)
    return data


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


def read_edges(path, *, weights=False, threads=None):
    """Read the edges of a text edge list without merging anything.

    Parameters
    ----------
    path : str or PathLike
    weights : bool
        Keep the third column as float weights (1.0 on lines without one).
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
    nthreads = resolve_threads(threads)
    buf = np.frombuffer(data, dtype=np.uint8)
    starts = _chunk_starts(data, 1 if len(data) < (1 << 20) else 8 * nthreads)
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
    except Exception as exc:  # scipy raises ValueError, IndexError, ... on malformed files
        raise GraphFormatError(f"not a valid Matrix Market file: {exc}", path) from None
    if not sp.issparse(A):
        A = sp.coo_array(A)
    return A


def read_graph(path, *, format=None, relabel=True, threads=None):
    """Read a graph file into a :class:`~graphmine.Graph`.

    Vertices are the ids that occur in the file, numbered in increasing id order (so 0- and
    1-based files give the same graph); ``G.node_ids`` maps back to the file's ids. Self-loops,
    duplicate and reversed duplicate edges are merged and counted in ``G.input_stats``.

    Parameters
    ----------
    path : str or PathLike
        Edge list (optionally ``.gz``/``.bz2``/``.xz``) or Matrix Market ``.mtx`` file.
    format : {'edgelist', 'mtx'}, optional
        Default: by suffix (``.mtx`` is Matrix Market, everything else an edge list).
    relabel : bool
        If False, vertex ``i`` is id ``i`` and n = largest id + 1 (ids never used become
        isolated vertices).
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
        from .graph import _from_scipy

        G = _from_scipy(_read_matrix_market(path, read_bytes(path)), threads)
        G.input_stats["path"] = path
        return G
    el = read_edges(path, threads=threads)
    flat = el.edges.reshape(-1)
    if relabel:
        flat, node_ids = compact_ids(flat, threads)
        n = node_ids.shape[0]
    else:
        n = int(flat.max()) + 1
        node_ids = None
    pairs = flat.reshape(-1, 2)
    indptr, indices, stats = _build_csr(pairs[:, 0], pairs[:, 1], n, threads)
    stats["path"] = path
    return Graph(indptr, indices, node_ids, stats, _trusted=True)


def write_edgelist(G, path, *, original_ids=True, overwrite=False):
    """Write every undirected edge once (``u<TAB>v``, u < v) to a text file.

    Refuses to replace an existing file unless ``overwrite=True``. A ``.gz``/``.bz2``/``.xz``
    suffix compresses.
    """
    path = os.fspath(path)
    if os.path.exists(path) and not overwrite:
        raise FileExistsError(f"{path} exists; pass overwrite=True to replace it")
    e = G.edges()
    if original_ids:
        e = np.asarray(G.node_ids)[e]
    buf = _io.StringIO()
    np.savetxt(buf, e, fmt="%s", delimiter="\t")
    data = buf.getvalue().encode()
    _, comp = _suffixes(path)
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}.get(comp, open)
    tmp = path + ".tmp"
    with opener(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)
