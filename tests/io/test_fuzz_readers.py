"""The readers fuzzed: random bytes and structured but malformed edge lists and Matrix Market files,
in both id modes, through the public readers (read_graph, read_edges, the Matrix Market path). Every
call returns a graph (or edge list) or raises a GraphmineError that names the input; no other
exception type. A regression case runs a script fed on standard input (``python -``), where a
warning issued on graphmine's worker thread once raised ImportError ('__main__' is not a built-in
module) from CPython's lookup of __main__'s source."""

import io
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import graphmine as gm
from graphmine.core.exceptions import GraphFormatError, GraphmineError
from graphmine.io import EdgeList

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# tokens a malformed edge line is made of: ids, bad ids, weights (NaN, inf), huge ints, unicode,
# NULs, quotes, networkx's trailing data, comment starts
TOKENS = st.sampled_from(["0", "1", "2", "17", "-1", "+3", "007", "1.5", "1e3", "0x1f", "nan", "NaN", "inf",
                          "-inf", "99999999999999999999999", str(2**63), str(2**63 - 1), "x", "source", "target",
                          "_id", "'q'", '"a"', "é", "日本", "\x00", "a\x00b", "#", "%", "#c", "%c", "{'weight': 1}",
                          "{}", "\ufeff", "\x7f", "\\", ""]) | st.text(max_size=6)
SEPARATORS = st.sampled_from([" ", "\t", ",", "  ", " \t", ", "])


@st.composite
def edge_text(draw):
    """An edge list of 0..8 lines of 0..5 columns, comments and blank lines among them."""
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["edge", "edge", "edge", "comment", "blank"]))
        if kind == "comment":
            lines.append(draw(st.sampled_from(["#", "%"])) + draw(st.text(max_size=10)))
        elif kind == "blank":
            lines.append(draw(st.sampled_from(["", " ", "\t", "\r"])))
        else:
            sep = draw(SEPARATORS)
            lines.append(sep.join(draw(st.lists(TOKENS, max_size=5))))
    end = draw(st.sampled_from(["\n", "\r\n", "\n\n", ""]))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines).encode("utf-8", "surrogatepass") + end.encode()


@st.composite
def matrix_market(draw):
    """A Matrix Market file whose header, size line or entries may not agree."""
    field = draw(st.sampled_from(["real", "integer", "pattern", "complex", "double", "bogus", ""]))
    symmetry = draw(st.sampled_from(["general", "symmetric", "skew-symmetric", "hermitian", "weird", ""]))
    fmt = draw(st.sampled_from(["coordinate", "array", "sparse"]))
    head = f"%%MatrixMarket matrix {fmt} {field} {symmetry}".rstrip()
    rows, cols = draw(st.integers(-1, 6)), draw(st.integers(-1, 6))
    nnz = draw(st.integers(-1, 8))
    size = draw(st.sampled_from([f"{rows} {cols} {nnz}", f"{rows} {cols}", f"{rows}", "x y z", "",
                                 f"{rows} {cols} {nnz} 4"]))
    entries = []
    for _ in range(draw(st.integers(0, 8))):
        cells = [str(draw(st.integers(-1, 8))) for _ in range(draw(st.integers(0, 4)))]
        if draw(st.booleans()):
            cells.append(draw(st.sampled_from(["1", "0", "2.5", "nan", "inf", "-inf", "x", "1e400"])))
        entries.append(" ".join(cells))
    comments = draw(st.lists(st.sampled_from(["%", "% comment", "%\x00"]), max_size=2))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return (bom + "\n".join([head, *comments, size, *entries]) + "\n").encode("utf-8")


def _check(call, data):
    """Run one read: a result, or a GraphmineError naming the input; any other exception fails."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")   # the header warning's path runs every time
        try:
            out = call(data)
        except GraphmineError as exc:
            msg = str(exc)
            assert msg.strip(), (data, type(exc))
            if isinstance(exc, GraphFormatError):
                assert exc.path is not None and msg.startswith(exc.path), (data, msg)
            return exc
    assert isinstance(out, (gm.Graph, EdgeList)), (data, type(out))
    if isinstance(out, gm.Graph):
        assert out.indptr.shape[0] == out.n_nodes + 1 and out.indices.shape[0] == 2 * out.n_edges
    else:
        assert out.edges.ndim == 2 and out.edges.shape[1] == 2
    return out


def _graph(ids, **kw):
    return lambda data: gm.read_graph(io.BytesIO(data), ids=ids, **kw)


def _edges(ids, **kw):
    return lambda data: gm.read_edges(io.BytesIO(data), ids=ids, **kw)


# the inputs whose header warning raised ImportError from a script fed on stdin
HEADER_CASES = [b"target\tsource\t\r\n1 'q'\ninf 1.5 _id",
                b"#c\t%c\n'q' target \t {'weight': 1}\n%c\t\tinf\t_id\n99999999999999999999999",
                b"target a b x {'weight': 1}\n99999999999999999999999,'q',{'weight': 1},%c\n",
                b"source,target\n1,2\n2,3\n"]


@FUZZ
@given(data=st.binary(max_size=200), ids=st.sampled_from(["int", "str"]))
def test_random_bytes(data, ids):
    _check(_graph(ids), data)
    _check(_edges(ids), data)


@settings(FUZZ, max_examples=25)   # up to four reads an example
@given(data=edge_text(), ids=st.sampled_from(["int", "str"]), header=st.sampled_from([None, True, False]))
@example(data=HEADER_CASES[0], ids="int", header=None)
@example(data=HEADER_CASES[3], ids="int", header=None)
@example(data=b"1 2\x00\n", ids="int", header=None)
@example(data=b"1 99999999999999999999999\n", ids="int", header=None)
def test_malformed_edge_lists(data, ids, header):
    _check(_graph(ids, header=header), data)
    _check(_edges(ids, header=header), data)
    if ids == "int":
        _check(_graph("int", header=header, relabel=False), data)
        _check(_edges("int", header=header, weights=True), data)


@FUZZ
@given(data=matrix_market(), ids=st.sampled_from(["int", "str"]))
@example(data=b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n", ids="int")
@example(data=b"%%MatrixMarket matrix coordinate pattern symmetric\n2 3 1\n1 2\n", ids="int")
# a dense matrix of 0 rows: scipy's reader divides by the row count (the process died of SIGFPE)
@example(data=b"%%MatrixMarket matrix array real general\n0 0\n", ids="int")
@example(data=b"%%MatrixMarket matrix array integer general\n0 3\n1\n", ids="str")
# a symmetric dense matrix of another shape: scipy's reader wrote its mirrored half out of bounds
@example(data=b"%%MatrixMarket matrix array real symmetric\n2 1\n1\n2\n", ids="int")
@example(data=b"%%MatrixMarket matrix array complex symmetric\n%\n1 2\n7 5 6 x\n2.5\n0\n", ids="str")
def test_malformed_matrix_market(data, ids):
    # found by content, and asked for by format='mtx'
    _check(_graph(ids), data)
    exc = _check(_graph(ids, format="mtx"), data)
    if data.startswith(b"%%MatrixMarket matrix array real symmetric\n2 1\n"):
        assert str(exc) == "<file object>: the matrix of a graph must be square, got shape 2 x 1"


@FUZZ
@given(data=st.one_of(st.binary(max_size=120), edge_text(), matrix_market()),
       suffix=st.sampled_from([".el", ".mtx", ".txt"]))
def test_malformed_files_by_path(data, suffix):
    # a path (format chosen by its name, then by content) rather than a file object
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "g" + suffix)
        with open(p, "wb") as fh:
            fh.write(data)
        for ids in ("int", "str"):
            exc = _check(lambda path: gm.read_graph(path, ids=ids), p)
            if isinstance(exc, GraphFormatError):
                assert p in str(exc)


# dense Matrix Market matrices that scipy's reader mishandles: 0 rows (SIGFPE), a symmetric one
# of another shape or with more values than it has (writes past its buffer: heap corruption)
SCIPY_CRASHES = [b"%%MatrixMarket matrix array real general\n0 0\n",
                 b"%%MatrixMarket matrix array integer general\n0 3\n1\n",
                 b"%%MatrixMarket matrix array real symmetric\n2 1\n1\n2\n",
                 b"%%MatrixMarket matrix array real skew-symmetric\n1 1\n7\n7\n7\n7\n7\n",
                 b"%%MatrixMarket matrix array complex hermitian\n2 2\n1 0\n2 0\n3 0\n4 0\n5 0\n6 0\n"]


def test_dense_matrix_market_files_scipy_mishandles():
    # in a process of its own, many times over: memory corruption shows as a crash, sooner or later
    code = f"CASES = {SCIPY_CRASHES!r}\n" + r"""
import io
import graphmine as gm
out = []
for _ in range(50):
    for data in CASES:
        try:
            G = gm.read_graph(io.BytesIO(data))
            out.append(f"graph {G.n_nodes} {G.n_edges}")
        except gm.GraphFormatError as exc:
            out.append(str(exc))
print("\n".join(out[:len(CASES)]))
"""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, (out.returncode, out.stderr[-2000:])
    assert out.stdout.splitlines() == [
        "graph 0 0",
        "<file object>: the matrix of a graph must be square, got shape 0 x 3",
        "<file object>: the matrix of a graph must be square, got shape 2 x 1",
        "<file object>: not a valid Matrix Market file: a skew-symmetric dense matrix of 1 x 1 has 0 values, "
        "found 5 lines of them",
        "<file object>: not a valid Matrix Market file: a hermitian dense matrix of 2 x 2 has 3 values, "
        "found 6 lines of them"]
    # the right number of values reads as the graph they describe
    G = _check(_graph("int"), b"%%MatrixMarket matrix array real symmetric\n3 3\n0\n1\n0\n0\n2\n0\n")
    assert (G.n_nodes, G.n_edges, sorted(map(tuple, G.edges().tolist()))) == (3, 2, [(0, 1), (1, 2)])


def test_known_answers_survive_the_fuzzed_paths():
    # the oracle for the accepting side: a clean file reads as the graph it describes
    G = _check(_graph("int"), b"# c\n1 2\n2 3\n\n3 1 0.5\n")
    assert (G.n_nodes, G.n_edges, G.node_ids.tolist()) == (3, 3, [1, 2, 3])
    G = _check(_graph("str"), "a b\nb é\n".encode())
    assert G.node_ids.tolist() == ["a", "b", "é"] and G.n_edges == 2
    G = _check(_graph("int"), b"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n")
    assert G.n_nodes == 3 and G.n_edges == 2
    el = _check(_edges("int", weights=True), b"1 2 0.5\n2 3\n")
    assert el.edges.tolist() == [[1, 2], [2, 3]] and el.weights.tolist() == [0.5, 1.0]
    # a NaN or inf weight is named, with its line
    exc = _check(_edges("int", weights=True), b"1 2 0.5\n2 3 nan\n")
    assert isinstance(exc, GraphFormatError) and str(exc) == ("<file object>:2: expected a numeric weight in the "
                                                              "third column, found 'nan'")


# -- a script fed on standard input -----------------------------------------------------------
_STDIN_SCRIPT = r"""
import io, warnings
import graphmine as gm
from graphmine.core.exceptions import GraphmineError, SkippedLineWarning

for data in CASES:
    for ids in ("int", "str"):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                G = gm.read_graph(io.BytesIO(data), ids=ids)
                result = f"graph {G.n_nodes} {G.n_edges}"
            except GraphmineError as exc:
                result = type(exc).__name__
        where = sorted({f"{w.category.__name__}@{w.filename}:{w.lineno}" for w in seen})
        print(ids, result, where)
"""


@pytest.mark.parametrize("how", [["-"], ["-c"]])
def test_a_script_on_stdin_sees_graph_format_errors_not_import_errors(how):
    script = f"CASES = {HEADER_CASES!r}\n" + _STDIN_SCRIPT
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    argv = [sys.executable, *how] + ([script] if how == ["-c"] else [])
    out = subprocess.run(argv, input=script if how == ["-"] else None, capture_output=True, text=True, env=env,
                         cwd=tempfile.gettempdir(), timeout=300)
    assert out.returncode == 0, out.stderr
    name = "<stdin>" if how == ["-"] else "<string>"
    # the warning names the script's read_graph line (the caller's), as it does from a file
    line = 1 + next(i for i, text in enumerate(script.splitlines()) if text.strip().startswith("G = gm.read_graph("))
    warned = [f"SkippedLineWarning@{name}:{line}"]
    assert out.stdout.splitlines() == [
        f"int GraphFormatError {warned}", "str GraphFormatError []",
        f"int GraphFormatError {warned}", "str GraphFormatError []",
        f"int GraphFormatError {warned}", "str graph 4 2 []",
        f"int graph 3 2 {warned}", "str graph 5 3 []"], out.stdout
