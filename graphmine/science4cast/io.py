"""Readers and writers of the Science4Cast competition and benchmark pickles.

Formats (exactly those of the competition; see ``docs/science4cast.md``):

* competition pickle: ``[full_dynamic_graph_sparse, unconnected_vertex_pairs, year_start,
  years_delta]`` and, in a file of its own, the solution: a 0/1 array with one entry per pair;
* benchmark pickle (7 items): ``[full_dynamic_graph_sparse, unconnected_vertex_pairs,
  unconnected_vertex_pairs_solution, year_start, years_delta, vertex_degree_cutoff, min_edges]``.

``full_dynamic_graph_sparse`` is an (E, 3) integer array of rows ``[v1, v2, t]`` with ``t`` the
day (since 1990-01-01) of the first co-mention of two concepts in a paper.

Pickles are read with a restricted unpickler that resolves only the globals numpy needs to
rebuild arrays and scalars (and ``_codecs.encode`` for protocol-2 bytes); every other global
(``os.system``, ``builtins.eval``, ...) is refused before it can be called, so a crafted file
cannot run code. Lists, ints, floats, bools and strings are pickle primitives and need no global.
Everything read is then validated: shapes, integer ids >= 0, days in ``0..MAX_DAY``, pairs
without self-pairs and 0/1 solutions. Self-loop rows in the graph are legal (the real data has a
few) and are dropped when a snapshot is built.
"""

import io as _io
import json
import os
import pickle
from dataclasses import dataclass

import numpy as np

from .._runtime.docs import fill_doc
from .._runtime.output import atomic_write, check_output_path
from ..core.exceptions import GraphFormatError, ParameterError
from ..io.edgelist import read_bytes
from .snapshots import MAX_DAY, MAX_YEAR, MIN_YEAR

__all__ = ["Science4CastData", "load_pickle", "make_data", "read_data", "read_competition", "read_benchmark",
           "read_solution", "write_competition", "write_benchmark", "write_solution"]


def _numpy_globals():
    try:
        from numpy._core import multiarray as ma
        from numpy._core import numeric as nu
    except ImportError:  # numpy < 2
        from numpy.core import multiarray as ma
        from numpy.core import numeric as nu
    import _codecs

    table = {("numpy", "ndarray"): np.ndarray, ("numpy", "dtype"): np.dtype,
             ("_codecs", "encode"): _codecs.encode}
    for mod in ("numpy.core.multiarray", "numpy._core.multiarray"):
        table[(mod, "_reconstruct")] = ma._reconstruct
        table[(mod, "scalar")] = ma.scalar
    for mod in ("numpy.core.numeric", "numpy._core.numeric"):
        table[(mod, "_frombuffer")] = nu._frombuffer
    # dtype classes that numpy 2 pickles by name (numpy.dtypes.Int64DType, ...)
    for name in dir(np.dtypes):
        cls = getattr(np.dtypes, name)
        if isinstance(cls, type) and name.endswith("DType") and name != "ObjectDType":
            table[("numpy.dtypes", name)] = cls
    return table


_ALLOWED = None


class _RestrictedUnpickler(pickle.Unpickler):
    """Resolves only the numpy array/scalar reconstructors; refuses every other global."""

    def find_class(self, module, name):
        global _ALLOWED
        if _ALLOWED is None:
            _ALLOWED = _numpy_globals()
        try:
            return _ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(
                f"global '{module}.{name}' is not allowed (only numpy arrays and scalars, lists, "
                "ints and floats may appear in a Science4Cast pickle)") from None

    def persistent_load(self, pid):
        raise pickle.UnpicklingError("persistent ids are not allowed in a Science4Cast pickle")


def read_json(path, what):
    """A JSON document from ``path``; GraphFormatError naming ``what`` if it is missing or not JSON."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise GraphFormatError(f"no such {what}", path)
    try:
        with open(path) as fh:
            return json.load(fh)
    except (OSError, ValueError) as exc:
        raise GraphFormatError(f"not a JSON {what}: {exc}", path) from None


def load_pickle(path):
    """Unpickle a file admitting only numpy arrays and scalars, lists, ints, floats and strings.

    Parameters
    ----------
    path : str or PathLike
        The pickle.

    Returns
    -------
    object
        The unpickled value.

    Raises
    ------
    GraphFormatError
        For a missing or unreadable file, a truncated or corrupt pickle, or a pickle that names
        any other global (the message names it; nothing from the file is called).

    Examples
    --------
    >>> import os, pickle, tempfile
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "evil.pkl")
    >>> with open(p, "wb") as fh:
    ...     _ = fh.write(b"cos\\nsystem\\n(S'echo hacked'\\ntR.")
    >>> load_pickle(p)
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.GraphFormatError: ...global 'os.system' is not allowed...
    """
    path = os.fspath(path)
    data = read_bytes(path, what="pickle")
    try:
        return _RestrictedUnpickler(_io.BytesIO(data)).load()
    except pickle.UnpicklingError as exc:
        raise GraphFormatError(f"refused or corrupt pickle: {exc}", path) from None
    except (EOFError, ValueError, TypeError, AttributeError, IndexError, KeyError,
            OverflowError, MemoryError, UnicodeDecodeError) as exc:
        raise GraphFormatError(f"not a valid pickle ({type(exc).__name__}: {exc})", path) from None


@dataclass
class Science4CastData:
    """One Science4Cast data set: the temporal graph, the pairs to rank and their setting.

    Attributes
    ----------
    graph : ndarray of int64, shape (E, 3)
        Rows ``[v1, v2, t]`` (``full_dynamic_graph_sparse``).
    pairs : ndarray of int64, shape (P, 2)
        ``unconnected_vertex_pairs``.
    year_start, years_delta : int
        The pairs are unconnected at the end of ``year_start``; labels are the links of the
        next ``years_delta`` years.
    solution : ndarray of int8 or None
        0/1 label per pair (None for a competition file read without its solution).
    vertex_degree_cutoff, min_edges : int or None
        The benchmark's sampling setting (None when unknown).

    Examples
    --------
    >>> import numpy as np
    >>> make_data(np.array([[0, 1, 10], [1, 2, 400]]), np.array([[0, 2]]), 1990, 1, solution=np.array([1]))
    Science4CastData(rows=2, pairs=1, positives=1, year_start=1990, years_delta=1, vertex_degree_cutoff=None, min_edges=None)
    """

    graph: np.ndarray
    pairs: np.ndarray
    year_start: int
    years_delta: int
    solution: object = None
    vertex_degree_cutoff: object = None
    min_edges: object = None

    @property
    def n_vertices(self):
        """Largest vertex id in the graph or the pairs, plus one."""
        top = -1
        if self.graph.shape[0]:
            top = int(self.graph[:, :2].max())
        if self.pairs.shape[0]:
            top = max(top, int(self.pairs.max()))
        return top + 1

    def __repr__(self):
        pos = "" if self.solution is None else f", positives={int(np.sum(self.solution))}"
        return (f"Science4CastData(rows={self.graph.shape[0]}, pairs={self.pairs.shape[0]}{pos}, "
                f"year_start={self.year_start}, years_delta={self.years_delta}, "
                f"vertex_degree_cutoff={self.vertex_degree_cutoff}, min_edges={self.min_edges})")


# -- validation ---------------------------------------------------------------------------------
def _fail(msg, path):
    if path is None:
        raise ParameterError(msg)
    raise GraphFormatError(msg, path)


def _int_array(obj, name, path, ncols):
    if isinstance(obj, list):
        try:
            obj = np.asarray(obj)
        except ValueError:
            _fail(f"{name} must be a rectangular array", path)
    if not isinstance(obj, np.ndarray):
        _fail(f"{name} must be a numpy array, got {type(obj).__name__}", path)
    arr = obj
    if arr.size == 0 and ncols is not None:
        arr = arr.reshape(0, ncols)
    if ncols is not None and (arr.ndim != 2 or arr.shape[1] != ncols):
        _fail(f"{name} must have shape (rows, {ncols}), got {arr.shape}", path)
    if ncols is None and arr.ndim != 1:
        _fail(f"{name} must be one-dimensional, got shape {arr.shape}", path)
    if arr.dtype.kind in "iu":
        if arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
            _fail(f"{name} has a value that does not fit in int64", path)
        return np.ascontiguousarray(arr, dtype=np.int64)
    if arr.dtype.kind == "b":
        return arr.astype(np.int64)
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            _fail(f"{name} must hold integers (found a fractional or non-finite value)", path)
        if arr.size and np.abs(arr).max() >= 2.0**62:
            _fail(f"{name} has a value that does not fit in int64", path)
        return arr.astype(np.int64)
    _fail(f"{name} must be an integer array, got dtype {arr.dtype}", path)


def _scalar_int(obj, name, path, lo, hi):
    if isinstance(obj, (bool, np.bool_)) or not isinstance(obj, (int, np.integer, float, np.floating)):
        _fail(f"{name} must be an integer, got {type(obj).__name__} {obj!r}", path)
    if isinstance(obj, (float, np.floating)) and (not np.isfinite(obj) or obj != int(obj)):
        _fail(f"{name} must be an integer, got {obj!r}", path)
    v = int(obj)
    if not lo <= v <= hi:
        _fail(f"{name} must lie in {lo}..{hi}, got {v}", path)
    return v


def _validate(graph, pairs, year_start, years_delta, solution, cutoff, min_edges, path):
    graph = _int_array(graph, "full_dynamic_graph_sparse", path, 3)
    pairs = _int_array(pairs, "unconnected_vertex_pairs", path, 2)
    if graph.size and graph[:, :2].min() < 0:
        row = int(np.flatnonzero((graph[:, :2] < 0).any(axis=1))[0])
        _fail(f"full_dynamic_graph_sparse row {row} has a negative vertex id: {graph[row].tolist()}", path)
    if graph.size and (graph[:, 2].min() < 0 or graph[:, 2].max() > MAX_DAY):
        row = int(np.flatnonzero((graph[:, 2] < 0) | (graph[:, 2] > MAX_DAY))[0])
        _fail(f"full_dynamic_graph_sparse row {row} has day {int(graph[row, 2])} out of range "
              f"0..{MAX_DAY} (days since 1990-01-01)", path)
    if pairs.size and pairs.min() < 0:
        row = int(np.flatnonzero((pairs < 0).any(axis=1))[0])
        _fail(f"unconnected_vertex_pairs row {row} has a negative vertex id: {pairs[row].tolist()}", path)
    if pairs.size and np.any(pairs[:, 0] == pairs[:, 1]):
        row = int(np.flatnonzero(pairs[:, 0] == pairs[:, 1])[0])
        _fail(f"unconnected_vertex_pairs row {row} pairs a vertex with itself: {pairs[row].tolist()}", path)
    year_start = _scalar_int(year_start, "year_start", path, MIN_YEAR, MAX_YEAR)
    years_delta = _scalar_int(years_delta, "years_delta", path, 1, MAX_YEAR - year_start)
    if solution is not None:
        solution = _int_array(solution, "solution", path, None)
        if solution.shape[0] != pairs.shape[0]:
            _fail(f"the solution has {solution.shape[0]} entries but there are {pairs.shape[0]} pairs", path)
        if solution.size and (solution.min() < 0 or solution.max() > 1):
            _fail("the solution must hold only 0 and 1", path)
        solution = solution.astype(np.int8)
    if cutoff is not None:
        cutoff = _scalar_int(cutoff, "vertex_degree_cutoff", path, 0, 2**62)
    if min_edges is not None:
        min_edges = _scalar_int(min_edges, "min_edges", path, 1, 2**62)
    return Science4CastData(graph, pairs, year_start, years_delta, solution, cutoff, min_edges)


def make_data(graph, pairs, year_start, years_delta, solution=None, vertex_degree_cutoff=None,
              min_edges=None):
    """Validate in-memory arrays into a :class:`Science4CastData`.

    Parameters
    ----------
    graph : array_like of int of shape (E, 3)
        Rows ``[v1, v2, t]``.
    pairs : array_like of int of shape (P, 2)
        The pairs to rank.
    year_start, years_delta : int
        The setting.
    solution : array_like of 0/1 of shape (P,), optional
        The labels.
    vertex_degree_cutoff, min_edges : int, optional
        The sampling setting, when known.

    Returns
    -------
    Science4CastData
        The checked data set.

    Raises
    ------
    ParameterError
        Arrays of the wrong shape or values, or a setting out of range.

    Examples
    --------
    >>> import numpy as np
    >>> make_data(np.array([[0, 1, 10]]), np.array([[0, 1]]), 1990, 1).pairs.shape
    (1, 2)
    """
    return _validate(graph, pairs, year_start, years_delta, solution, vertex_degree_cutoff,
                     min_edges, None)


# -- readers -------------------------------------------------------------------------------------
def _as_list(obj, path):
    if isinstance(obj, tuple):
        obj = list(obj)
    if not isinstance(obj, list):
        raise GraphFormatError(f"expected a list of 4 (competition) or 7 (benchmark) items, "
                               f"got {type(obj).__name__}", path)
    return obj


def read_competition(path, solution_path=None):
    """Read a competition pickle ``[graph, pairs, year_start, years_delta]``.

    Parameters
    ----------
    path : str or PathLike
        The competition pickle.
    solution_path : str or PathLike, optional
        The separate solution pickle (a 0/1 array with one entry per pair).

    Returns
    -------
    Science4CastData
        The data set (``solution`` None without ``solution_path``).

    Raises
    ------
    GraphFormatError
        A missing, corrupt or malformed file, naming it.

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> d = make_data(np.array([[0, 1, 10], [1, 2, 400]]), np.array([[0, 2]]), 1990, 1, solution=np.array([1]))
    >>> t = tempfile.mkdtemp()
    >>> write_competition(d, os.path.join(t, "c.pkl"), os.path.join(t, "s.pkl"))
    >>> read_competition(os.path.join(t, "c.pkl"), os.path.join(t, "s.pkl")).solution.tolist()
    [1]
    """
    path = os.fspath(path)
    obj = _as_list(load_pickle(path), path)
    if len(obj) != 4:
        raise GraphFormatError(f"a competition pickle has 4 items [graph, pairs, year_start, "
                               f"years_delta], this one has {len(obj)}", path)
    data = _validate(obj[0], obj[1], obj[2], obj[3], None, None, None, path)
    if solution_path is not None:
        sol = read_solution(solution_path)
        if sol.shape[0] != data.pairs.shape[0]:
            raise GraphFormatError(f"the solution has {sol.shape[0]} entries but {path} has "
                                   f"{data.pairs.shape[0]} pairs", os.fspath(solution_path))
        data.solution = sol
    return data


def read_benchmark(path):
    """Read a benchmark pickle ``[graph, pairs, solution, year_start, years_delta,
    vertex_degree_cutoff, min_edges]``.

    Parameters
    ----------
    path : str or PathLike
        The benchmark pickle.

    Returns
    -------
    Science4CastData
        The data set with its solution and sampling setting.

    Raises
    ------
    GraphFormatError
        The file is missing, is not a 7-item benchmark pickle, or holds malformed arrays.

    Examples
    --------
    See :func:`write_benchmark`.

    >>> read_benchmark("no/such.pkl")
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.GraphFormatError: ...
    """
    path = os.fspath(path)
    obj = _as_list(load_pickle(path), path)
    if len(obj) != 7:
        raise GraphFormatError(f"a benchmark pickle has 7 items [graph, pairs, solution, year_start, "
                               f"years_delta, vertex_degree_cutoff, min_edges], this one has {len(obj)}",
                               path)
    g, p, s, ys, yd, c, m = obj
    return _validate(g, p, ys, yd, s, c, m, path)


def read_data(path, solution_path=None):
    """Read either format, told apart by the number of items (4: competition, 7: benchmark).

    Parameters
    ----------
    path : str or PathLike
        The pickle.
    solution_path : str or PathLike, optional
        A competition file's separate solution.

    Returns
    -------
    Science4CastData
        The data set.

    Raises
    ------
    GraphFormatError
        A missing or malformed file.

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> d = make_data(np.array([[0, 1, 10], [1, 2, 400]]), np.array([[0, 2]]), 1990, 1)
    >>> path = os.path.join(tempfile.mkdtemp(), "c.pkl")
    >>> write_competition(d, path)
    >>> read_data(path)
    Science4CastData(rows=2, pairs=1, year_start=1990, years_delta=1, vertex_degree_cutoff=None, min_edges=None)
    """
    path = os.fspath(path)
    obj = _as_list(load_pickle(path), path)
    if len(obj) == 7:
        if solution_path is not None:
            raise ParameterError("a benchmark pickle carries its own solution; do not pass solution_path")
        g, p, s, ys, yd, c, m = obj
        return _validate(g, p, ys, yd, s, c, m, path)
    if len(obj) == 4:
        return read_competition(path, solution_path)
    raise GraphFormatError(f"expected a list of 4 (competition) or 7 (benchmark) items, got {len(obj)}",
                           path)


def read_solution(path):
    """Read a solution pickle: a 0/1 array (or list) with one entry per pair.

    Parameters
    ----------
    path : str or PathLike
        The solution file (written by :func:`write_solution` or the benchmark's tools).

    Returns
    -------
    ndarray of int8
        The labels.

    Raises
    ------
    GraphFormatError
        A missing file, or values other than 0 and 1.

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "s.pkl")
    >>> write_solution(np.array([0, 1, 1]), path)
    >>> read_solution(path).tolist()
    [0, 1, 1]
    """
    path = os.fspath(path)
    obj = load_pickle(path)
    sol = _int_array(obj, "solution", path, None)
    if sol.size and (sol.min() < 0 or sol.max() > 1):
        raise GraphFormatError("the solution must hold only 0 and 1", path)
    return sol.astype(np.int8)


# -- writers -------------------------------------------------------------------------------------
_FORCE = "force=True (CLI: --force)"


def _write(obj, path, force):
    # a temporary file beside the target replaces it only once complete
    with atomic_write(path, "wb", force=force, flag=_FORCE) as fh:
        pickle.dump(obj, fh, protocol=4)


def write_competition(data, path, solution_path=None, *, force=False):
    """Write ``[graph, pairs, year_start, years_delta]`` (and the solution to its own file).

    Both paths are checked before either file is written; existing files are replaced only with
    ``force=True`` (:class:`~graphmine.core.exceptions.OutputExistsError`, a ``FileExistsError``).

    Parameters
    ----------
    data : Science4CastData
        The data set.
    path : str or PathLike
        The competition pickle to write.
    solution_path : str or PathLike, optional
        Where to write the solution (needs ``data.solution``).
    force : bool, default False
        Replace existing files.

    Raises
    ------
    OutputExistsError
        A file exists (without ``force``).

    Examples
    --------
    See :func:`read_competition`.

    >>> import os, tempfile, numpy as np
    >>> d = make_data(np.array([[0, 1, 10]]), np.array([[0, 1]]), 1990, 1)
    >>> write_competition(d, os.path.join(tempfile.mkdtemp(), "c.pkl"))
    """
    if solution_path is not None and data.solution is None:
        raise ParameterError("the data has no solution to write")
    for p in (path, solution_path):
        if p is not None:
            check_output_path(p, force, flag=_FORCE)
    if solution_path is not None and os.path.abspath(os.fspath(path)) == os.path.abspath(os.fspath(solution_path)):
        raise ParameterError(f"the data and its solution would both be written to {os.fspath(path)}")
    _write([data.graph, data.pairs, int(data.year_start), int(data.years_delta)], path, force)
    if solution_path is not None:
        _write(np.asarray(data.solution, dtype=np.int64), solution_path, force)


@fill_doc
def write_solution(solution, path, *, force=False):
    """Write a 0/1 solution array as a pickle (existing files replaced only with ``force=True``).

    Parameters
    ----------
    solution : array_like of 0/1
        One label per pair.
    {s4c_pickle, force}

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is False.

    Examples
    --------

    >>> import os, tempfile
    >>> write_solution([1, 0], os.path.join(tempfile.mkdtemp(), "s.pkl"))
    """
    _write(np.asarray(solution, dtype=np.int64), path, force)


@fill_doc
def write_benchmark(data, path, *, force=False):
    """Write the 7-item benchmark pickle. Needs the solution, cutoff and min_edges.

    Existing files are replaced only with ``force=True``; the file appears complete or not at all.

    Parameters
    ----------
    data : Science4CastData
        A data set with ``solution``, ``vertex_degree_cutoff`` and ``min_edges``.
    {s4c_pickle, force}

    Raises
    ------
    ParameterError
        The data set lacks the solution or the sampling setting.
    OutputExistsError
        The file exists (without ``force``).

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> d = make_data(np.array([[0, 1, 10], [1, 2, 400]]), np.array([[0, 2]]), 1990, 1,
    ...               solution=np.array([0]), vertex_degree_cutoff=0, min_edges=1)
    >>> p = os.path.join(tempfile.mkdtemp(), "b.pkl")
    >>> write_benchmark(d, p)
    >>> read_benchmark(p)
    Science4CastData(rows=2, pairs=1, positives=0, year_start=1990, years_delta=1, vertex_degree_cutoff=0, min_edges=1)
    """
    missing = [n for n, v in (("solution", data.solution), ("vertex_degree_cutoff", data.vertex_degree_cutoff),
                              ("min_edges", data.min_edges)) if v is None]
    if missing:
        raise ParameterError(f"a benchmark pickle needs {', '.join(missing)}")
    _write([data.graph, data.pairs, np.asarray(data.solution, dtype=np.int64), int(data.year_start),
            int(data.years_delta), int(data.vertex_degree_cutoff), int(data.min_edges)], path, force)
