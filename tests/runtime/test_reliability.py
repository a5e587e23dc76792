"""Reliability of the core: global state left as found, memory checks, safe outputs, input forms
(standard input, compression by content, header lines), parameter checks of the CLI."""

import bz2
import gzip
import io
import json
import lzma
import os
import signal
import subprocess
import sys

import networkx as nx
import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphmine as gm
from graphmine._runtime.optional import require
from graphmine._runtime.output import atomic_write, check_output_path
from graphmine.cli import main


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


# --- global state -------------------------------------------------------------------------------

@pytest.fixture
def numba_threads():
    before = numba.get_num_threads()
    yield before
    numba.set_num_threads(before)


def _calls(G):
    return [
        lambda t: gm.count_triangles(G, threads=t),
        lambda t: gm.triangles(G, threads=t),
        lambda t: gm.count_cliques(G, 4, threads=t),
        lambda t: gm.average_clustering(G, threads=t),
        lambda t: gm.count_triangles(G, method="bloom", seed=1, threads=t),
        lambda t: gm.similarity(G, method="bloom", seed=1, threads=t),
        lambda t: gm.as_graph(np.asarray(G.edges()), threads=t),
    ]


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_threads_argument_leaves_numba_setting_as_found(numba_threads):
    G = gm.generators.kronecker_graph(10, 8, seed=1)
    for call in _calls(G):
        numba.set_num_threads(2)
        call(1)
        assert numba.get_num_threads() == 2
        numba.set_num_threads(1)
        call(2)  # raised for the call, lowered again afterwards
        assert numba.get_num_threads() == 1


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_default_threads_follow_the_callers_numba_setting(numba_threads):
    G = gm.datasets.load("PB")
    numba.set_num_threads(1)
    assert gm.count_triangles(G) == 101043
    assert numba.get_num_threads() == 1
    numba.set_num_threads(2)
    gm.count_triangles(G, threads=1)
    # a later default call runs with what the caller set (2 threads), with the same result
    assert gm.count_cliques(G, 4) == 422327 and numba.get_num_threads() == 2


def test_threads_restored_after_an_error(numba_threads):
    numba.set_num_threads(1)
    with pytest.raises(gm.ParameterError):
        gm.count_cliques(nx.complete_graph(4), k=2, threads=2)
    assert numba.get_num_threads() == 1


def test_no_global_rng_touched_by_sketches():
    G = gm.datasets.load("USAir")
    np.random.seed(123)
    state = np.random.get_state()[1].copy()
    gm.count_triangles(G, method="kmv")  # unseeded: draws its seed from fresh entropy
    gm.count_triangles(G, method="bloom", seed=3)
    assert np.array_equal(np.random.get_state()[1], state)


# --- memory and arrays -----------------------------------------------------------------------------

def test_huge_sparse_ids_refused_before_allocating_with_hint():
    with pytest.raises(gm.ResourceLimitError, match=r"relabel=True") as exc:
        gm.as_graph(np.array([[0, 10**12]]))
    assert "1,000,000,000,001 vertices" in str(exc.value) and "TiB" in str(exc.value)
    assert isinstance(exc.value, MemoryError) and isinstance(exc.value, gm.GraphmineError)
    G = gm.as_graph(np.array([[0, 10**12], [10**12, 5]]), relabel=True)
    assert (G.n_nodes, G.n_edges) == (3, 2)
    assert G.node_ids.tolist() == [0, 5, 10**12]


def test_memory_limit_is_the_machines_or_the_environments(monkeypatch, tmp_path):
    monkeypatch.setenv("GRAPHMINE_MAX_BYTES", "100000")
    with pytest.raises(gm.ResourceLimitError, match="97.7 KiB"):
        gm.from_edges([[0, 20000]])
    p = tmp_path / "g.txt"
    p.write_text("0 20000\n")
    with pytest.raises(gm.ResourceLimitError):
        gm.read_graph(p, relabel=False)
    assert gm.read_graph(p).n_nodes == 2  # ids compacted: nothing large


def test_sketch_sizes_checked_before_allocating():
    G = gm.datasets.load("USAir")
    with pytest.raises(gm.ResourceLimitError, match="bloom sketches of 332 vertices"):
        gm.count_triangles(G, method="bloom", bits=2**31)


def test_sketches_refuse_more_vertices_than_32_bit_hashes():
    from graphmine.probgraph.sketches import NeighbourhoodSketch

    # a zero-stride array: 2**32 + 1 rows without the memory
    indptr = np.broadcast_to(np.int64(0), (2**32 + 2,))
    with pytest.raises(gm.ParameterError, match="32-bit"):
        NeighbourhoodSketch("bloom", "all", indptr, np.zeros(0, np.int64), 1, 0, 1, 0, None)


def test_graph_does_not_freeze_or_share_the_callers_arrays():
    indptr = np.array([0, 1, 2])
    indices = np.array([1, 0], dtype=np.int32)
    ids = np.array([7, 9])
    G = gm.Graph(indptr, indices, ids)
    assert indptr.flags.writeable and indices.flags.writeable and ids.flags.writeable
    indices[:] = 0  # the caller's arrays stay the caller's
    ids[0] = -1
    assert G.indices.tolist() == [1, 0] and G.node_ids.tolist() == [7, 9]
    assert not G.indices.flags.writeable


def test_matrix_market_reader_does_not_hide_memory_errors(monkeypatch, tmp_path):
    import scipy.io

    q = tmp_path / "g.mtx"
    q.write_text("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 1\n")

    def boom(*a, **k):
        raise MemoryError("out of memory")

    monkeypatch.setattr(scipy.io, "mmread", boom)
    with pytest.raises(MemoryError):
        gm.read_graph(q)


# --- outputs ----------------------------------------------------------------------------------

def test_output_checks(tmp_path):
    target = tmp_path / "out.tsv"
    assert check_output_path(target) == str(target)
    target.write_text("keep me")
    with pytest.raises(gm.OutputExistsError, match="--force") as exc:
        check_output_path(target)
    assert isinstance(exc.value, FileExistsError)
    with pytest.raises(gm.OutputPathError, match="does not exist"):
        check_output_path(tmp_path / "missing" / "x")
    with pytest.raises(gm.OutputPathError, match="directory"):
        check_output_path(tmp_path)


def test_atomic_write_leaves_nothing_on_failure_and_keeps_other_files(tmp_path):
    target = tmp_path / "x.txt"
    (tmp_path / "x.txt.tmp").write_text("somebody's file")
    with pytest.raises(RuntimeError):
        with atomic_write(target, "w") as fh:
            fh.write("half")
            raise RuntimeError("disk full")
    assert sorted(os.listdir(tmp_path)) == ["x.txt.tmp"]
    assert (tmp_path / "x.txt.tmp").read_text() == "somebody's file"
    with atomic_write(target, "w") as fh:
        fh.write("whole")
    assert target.read_text() == "whole"
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    with pytest.raises(gm.OutputExistsError):
        with atomic_write(target, "w") as fh:
            fh.write("again")
    with atomic_write(target, "w", force=True) as fh:
        fh.write("forced")
    assert target.read_text() == "forced"
    assert sorted(os.listdir(tmp_path)) == ["x.txt", "x.txt.tmp"]


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


def test_write_edgelist_refuses_and_is_atomic(tmp_path):
    G = gm.datasets.load("USAir")
    p = tmp_path / "g.txt.gz"
    gm.write_edgelist(G, p)
    assert gm.read_graph(p).n_edges == G.n_edges
    with pytest.raises(FileExistsError, match="force=True"):
        gm.write_edgelist(G, p)
    with pytest.raises(gm.OutputPathError):
        gm.write_edgelist(G, tmp_path / "nope" / "g.txt")


@pytest.mark.parametrize("cmd", [["triangles"], ["clustering"],
                                 ["jarvis-patrick", "--tau", "0.3"]])
def test_cli_outputs_checked_before_work_and_never_overwritten(capsys, tmp_path, cmd, monkeypatch):
    import graphmine.commands as cli

    out = tmp_path / "res.tsv"
    load_input = cli.load_input

    def no_work(args):  # the graph must not even be read before the output path is checked
        raise AssertionError("the work started before the output path was checked")

    monkeypatch.setattr(cli, "load_input", no_work)
    code, _, err = run(capsys, *cmd, "USAir", "--out", str(tmp_path / "missing" / "res.tsv"))
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err
    out.write_text("precious")
    code, _, err = run(capsys, *cmd, "USAir", "--out", str(out))
    assert code == 2 and "--force" in err and out.read_text() == "precious"
    monkeypatch.setattr(cli, "load_input", load_input)
    code, _, _ = run(capsys, *cmd, "USAir", "--out", str(out), "--force")
    assert code == 0
    assert os.listdir(tmp_path) == ["res.tsv"]


def test_per_vertex_outputs_match_networkx(capsys, tmp_path):
    H = nx.read_edgelist(gm.datasets.path("USAir"), nodetype=int, data=False, comments="#")
    H.remove_edges_from(nx.selfloop_edges(H))
    tri, clu = tmp_path / "t.tsv", tmp_path / "c.tsv"
    assert run(capsys, "triangles", "USAir", "--out", str(tri))[0] == 0
    assert run(capsys, "clustering", "USAir", "--out", str(clu))[0] == 0
    t = dict(np.loadtxt(tri, dtype=np.int64, comments="#").tolist())
    c = {int(a): b for a, b in np.loadtxt(clu, comments="#").tolist()}
    assert t == nx.triangles(H)
    ref = nx.clustering(H)
    assert c.keys() == ref.keys() and all(abs(c[v] - ref[v]) < 1e-12 for v in ref)


# --- parameters -----------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,what", [
    (["count-cliques", "USAir", "--method", "bloom", "--budget", "5"], "--budget"),
    (["count-cliques", "USAir", "--method", "bloom", "--budget", "0"], "--budget"),
    (["count-cliques", "USAir", "-k", "2"], "-k"),
    (["count-cliques", "USAir", "--method", "bloom", "--seed", "-1"], "--seed"),
    (["clustering", "USAir", "--method", "bloom", "--replicates", "0"], "--replicates"),
    (["jarvis-patrick", "USAir", "--tau", "2"], "tau"),
    (["jarvis-patrick", "USAir", "--tau", "-0.5", "--similarity", "common"], "tau"),
])
def test_out_of_range_parameters_refused(capsys, argv, what):
    code, _, err = run(capsys, *argv)
    assert code == 2 and what in err and err.count("\n") == 1


def test_library_refuses_budget_above_one():
    with pytest.raises(gm.ParameterError, match="at most 1"):
        gm.count_triangles(gm.datasets.load("USAir"), method="bloom", budget=5)


def test_unseeded_run_reports_its_seed_and_repeats(capsys):
    code, out, _ = run(capsys, "count-cliques", "USAir", "--method", "bloom", "--json")
    d = json.loads(out)
    assert code == 0 and isinstance(d["seed"], int) and d["budget_requested"] == 0.25
    code, out2, _ = run(capsys, "count-cliques", "USAir", "--method", "bloom", "--json", "--seed", str(d["seed"]))
    assert json.loads(out2)["estimate"] == d["estimate"]
    code, out, _ = run(capsys, "count-cliques", "USAir", "--method", "bloom", "--budget", "0.25")
    assert f"budget 0.25 (" in out and "seed " in out


def test_progress_counts_equal_plain_counts():
    G = gm.datasets.load("PB")
    assert gm.count_cliques(G, 4, progress=True) == gm.count_cliques(G, 4) == 422327
    assert gm.count_cliques(G, 5, progress=True, threads=1) == 1377655


def test_missing_optional_dependency_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "lightgbm", None)  # as if not installed
    with pytest.raises(gm.MissingDependencyError, match=r'training needs lightgbm.*pip install "graphmine\[ml\]"'):
        require("lightgbm", "training")
    with pytest.raises(ImportError, match="pip install no_such_module_here"):
        require("no_such_module_here")


# --- input forms ----------------------------------------------------------------------------------

def _nx_of(text):
    H = nx.Graph()
    for line in text.splitlines():
        f = line.replace(",", " ").split()
        if len(f) >= 2 and f[0].isdigit():
            if f[0] != f[1]:
                H.add_edge(int(f[0]), int(f[1]))
    return H


def test_header_detected_and_line_numbers_kept(tmp_path):
    p = tmp_path / "g.csv"
    p.write_text("# exported\nsource,target\n1,2\n2,3\n3,1\n")
    G = gm.read_graph(p)
    assert G.n_edges == 3 and gm.count_triangles(G) == 1
    p.write_text("source,target\n1,2\n2,x\n")
    with pytest.raises(gm.GraphFormatError, match=r"g.csv:3: expected an integer"):
        gm.read_graph(p)
    # a numeric first line is data unless the caller says it is a header
    p.write_text("3 3\n1 2\n2 0\n")
    assert gm.read_graph(p).n_edges == 2
    assert gm.read_graph(p, header=True).n_edges == 2 and gm.read_graph(p, header=True).n_nodes == 3
    p.write_text("from to\n")  # names with no integer data after them: not taken for a header
    with pytest.raises(gm.GraphFormatError, match=r"g.csv:1: expected an integer vertex id, found 'from' .*--ids str"):
        gm.read_graph(p)
    p.write_text("1 x\n1 2\n")  # not a header: a bad edge line
    with pytest.raises(gm.GraphFormatError, match=":1:"):
        gm.read_graph(p)


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress])
def test_compression_recognised_by_content(tmp_path, compress):
    p = tmp_path / "edges.el"  # no suffix
    p.write_bytes(compress(open(gm.datasets.path("USAir"), "rb").read()))
    assert gm.count_triangles(gm.read_graph(p)) == 12181


def test_stdin_cli(tmp_path):
    data = gzip.compress(b"a b\n1 2\n2 3\n3 1\n3 4\n")
    r = subprocess.run([sys.executable, "-m", "graphmine", "count-cliques", "-", "--json"], input=data,
                       capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["count"] == 1
    r = subprocess.run([sys.executable, "-m", "graphmine", "info", "-"], input=b"1 2\n2 q\n",
                       capture_output=True, timeout=300)
    # the error is the one line besides a note that kernels compile (on a first use)
    lines = [ln for ln in r.stderr.decode().splitlines() if not ln.startswith("graphmine: compiling")]
    assert r.returncode == 2 and len(lines) == 1
    assert lines[0].startswith("graphmine: error: <stdin>:2: expected an integer vertex id, found 'q'")


HEADERS = st.sampled_from(["", "source,target\n", "# c\nfrom\tto\n", "u v w\n"])
LINES = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12), st.sampled_from([" ", "\t", ","])),
                 max_size=30).map(lambda es: "".join(f"{u}{s}{v}\n" for u, v, s in es))
JUNK = st.sampled_from(["", "", "", "1 x\n", "-3 4\n", "\x00\x01\n", "7\n"])


@settings(max_examples=40, deadline=None)
@given(HEADERS, LINES, JUNK, st.sampled_from([None, gzip.compress, bz2.compress, lzma.compress]),
       st.booleans())
def test_cli_fuzz_headers_compression_stdin(tmp_path_factory, header, body, junk, compress, stdin):
    text = header + body + junk
    raw = text.encode()
    raw = compress(raw) if compress else raw
    if stdin:
        path = "-"
    else:
        p = tmp_path_factory.mktemp("cli") / "graph"
        p.write_bytes(raw)
        path = str(p)
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        code = main(["count-cliques", path, "--json", "-q"])
    H = _nx_of(header + body)
    if junk or not body:  # a bad line, or no edge line at all (self-loops alone are a graph)
        assert code == 2
        assert err.getvalue().startswith("graphmine: error: ") and err.getvalue().count("\n") == 1
    else:
        assert code == 0, err.getvalue()
        assert json.loads(out.getvalue())["count"] == sum(nx.triangles(H).values()) // 3


def test_cli_turns_a_missing_optional_module_into_one_line(capsys, monkeypatch):
    import graphmine.cli as cli

    def needs_lightgbm(args):
        import lightgbm  # noqa: F401  (absent, as after a plain pip install)

    monkeypatch.setitem(sys.modules, "lightgbm", None)
    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    args = parser.parse_args(["info", "USAir"])
    monkeypatch.setattr(parser, "parse_args", lambda argv=None: args)
    monkeypatch.setattr(args, "func", needs_lightgbm)
    code, _, err = run(capsys, "info", "USAir")
    assert code == 2
    assert err == 'graphmine: error: info needs lightgbm, which is not installed: pip install "graphmine[ml]"\n'


def test_warnings_point_at_the_callers_line():
    import warnings

    G = gm.datasets.load("facebook_combined")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", gm.SketchSaturationWarning)
        gm.similarity(G, method="bloom", bits=64, seed=1)  # 64-bit filters of up to 1,045 neighbours fill up
    sat = [w for w in caught if issubclass(w.category, gm.SketchSaturationWarning)]
    assert sat and all(w.filename == __file__ for w in sat)


DELIVERY_SCRIPT = r"""
import os, signal, sys, time
from graphmine import cli
from graphmine._runtime import output as _output

when, path, out = sys.argv[1:]
begin = _output.begin_delivery
sent = []


def begin_delivery():  # a Ctrl-C just before, or just after, the command starts to deliver
    if when == "before" and not sent:
        sent.append(os.kill(os.getpid(), signal.SIGINT))
        time.sleep(0.5)  # the main thread takes the signal meanwhile
    begin()
    if when == "after" and not sent:
        sent.append(os.kill(os.getpid(), signal.SIGINT))
        time.sleep(0.5)


_output.begin_delivery = begin_delivery
sys.argv = ["graphmine", "triangles", path, "--out", out]
cli.run()
"""


@pytest.mark.parametrize("when", ["before", "after"])
def test_ctrl_c_at_the_moment_of_delivery(tmp_path, when):
    """Ctrl-C before the output file replaces its target: nothing written, status 130. Ctrl-C once
    it has: the results are complete and the program finishes them (status 0), instead of saying
    'interrupted' with the file in place."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = tmp_path / "t.tsv"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    r = subprocess.run([sys.executable, "-c", DELIVERY_SCRIPT, when, os.path.join(root, "datasets", "ca-GrQc.txt"),
                        str(out)], env=env, capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    if when == "before":
        assert (r.returncode, r.stdout, r.stderr) == (130, "", "graphmine: interrupted\n")
        assert os.listdir(tmp_path) == []
    else:
        assert r.returncode == 0 and r.stderr == "", r.stderr
        assert r.stdout.startswith("triangles: 48,260 ")
        lines = out.read_text().splitlines()
        assert len(lines) == 1 + 5242 and sum(int(x.split("\t")[1]) for x in lines[1:]) == 3 * 48260


def test_threads_decorator_in_a_process_without_numba():
    # a call that never imports numba leaves it unimported; one that imports numba and lowers its
    # thread count hands numba back at its default
    import subprocess
    import sys

    code = ("import sys\n"
            "from graphmine._runtime.threads import resolve_threads, restores_threads\n"
            "numpy_only = restores_threads(lambda: 1)\n"
            "lowered = restores_threads(lambda: resolve_threads(1))\n"
            "numpy_only()\n"
            "print('numba' in sys.modules)\n"
            "lowered()\n"
            "import numba\n"
            "print(numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "True"]
