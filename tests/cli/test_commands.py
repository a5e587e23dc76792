"""The command line: output contents, JSON keys, and one-line errors with exit status 2."""

import json
import os
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

import graphmine as gm
from graphmine.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_count_cliques_default_is_triangles(capsys):
    code, out, _ = run(capsys, "count-cliques", gm.datasets.path("ca-GrQc"))
    assert code == 0
    assert "triangles: 48,260" in out


def test_count_cliques_json(capsys):
    code, out, _ = run(capsys, "count-cliques", gm.datasets.path("USAir"), "-k", "4", "--json", "--threads", "1")
    d = json.loads(out)
    assert code == 0
    assert d["k"] == 4 and d["method"] == "exact" and d["count"] == 61072
    assert d["seconds"] >= 0 and d["load_seconds"] >= 0
    assert d["file"] == gm.datasets.path("USAir")


def test_dataset_name_as_file(capsys):
    code, out, _ = run(capsys, "count-cliques", "Celegans", "--json")
    assert json.loads(out)["count"] == 3241


def test_info_json(capsys, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("# x\n1 2\n2 1\n2 3\n3 3\n1 3\n4 1\n")
    code, out, _ = run(capsys, "info", str(p), "--json")
    d = json.loads(out)
    H = nx.Graph([(1, 2), (2, 3), (1, 3), (4, 1)])
    assert (d["nodes"], d["edges"]) == (H.number_of_nodes(), H.number_of_edges())
    assert (d["self_loops"], d["duplicates"]) == (1, 1)
    assert d["max_degree"] == max(dict(H.degree()).values())
    code, out, _ = run(capsys, "info", str(p))
    assert "self-loops        1 dropped" in out and "duplicates        1 merged" in out


@pytest.mark.parametrize("content, expect", [
    (b"1 2\n3\n", "bad.txt:2: expected two vertex ids"),
    (b"", "the file is empty"),
    (b"1 -2\n", "bad.txt:1: vertex ids must be non-negative"),
])
def test_bad_file_one_line_exit_2(capsys, tmp_path, content, expect):
    p = tmp_path / "bad.txt"
    p.write_bytes(content)
    code, out, err = run(capsys, "count-cliques", str(p))
    assert code == 2 and out == ""
    # the first compile of the process is announced on a line of its own (README); the error is one line
    err = err.replace("graphmine: compiling kernels for their first use (numba caches them for later runs)\n", "")
    assert err.count("\n") == 1 and err.startswith("graphmine: error: ") and expect in err


def test_missing_file_and_bad_k(capsys, tmp_path):
    code, _, err = run(capsys, "info", str(tmp_path / "missing.el"))
    assert code == 2 and "no such file" in err
    with pytest.raises(SystemExit) as info:
        run(capsys, "count-cliques", gm.datasets.path("USAir"), "-k", "2")
    err = capsys.readouterr().err
    assert info.value.code == 2 and "-k: expected an integer >= 3" in err and err.count("\n") == 1
    code, _, err = run(capsys, "count-cliques", gm.datasets.path("USAir"), "--budget", "0.1")
    assert code == 2 and "approximate" in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["count-cliques"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["count-cliques", "x.el", "--threads", "0"])
    assert info.value.code == 2


def test_module_entry_point(tmp_path):
    p = tmp_path / "tri.el"
    p.write_text("0 1\n1 2\n2 0\n")
    r = subprocess.run([sys.executable, "-m", "graphmine", "count-cliques", str(p), "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["count"] == 1
    r = subprocess.run([sys.executable, "-m", "graphmine", "info", str(tmp_path)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 2 and r.stderr.strip().endswith("is a directory, not a graph file")
    assert "Traceback" not in r.stderr


def test_numpy_parse_threshold_follows_the_kernels_cache():
    from graphmine._primitives import small_work as sw

    class Kernel:
        overloads = {}

    k = Kernel()
    assert sw.numpy_parse(sw.SMALL_BYTES, [k]) and not sw.numpy_parse(sw.SMALL_BYTES + 1, [k])  # would compile
    Kernel.overloads = {"sig": None}  # loaded: numpy only up to the smaller size
    assert sw.numpy_parse(sw.SMALL_BYTES_CACHED, [k]) and not sw.numpy_parse(sw.SMALL_BYTES_CACHED + 1, [k])
    assert sw.SMALL_BYTES_CACHED < sw.SMALL_BYTES


def test_count_cliques_of_a_file_between_the_parse_thresholds(tmp_path, capsys, monkeypatch):
    # a clean file above SMALL_BYTES_CACHED and below SMALL_BYTES: the kernels or numpy parse it
    # (by the state of numba's cache); either way the graph is networkx's
    from graphmine._primitives import small_work as sw

    rng = np.random.default_rng(7)
    m = 260_000
    e = rng.integers(0, 60_000, size=(m, 2))
    e[: m // 2, 1] = e[: m // 2, 0] + rng.integers(1, 40, size=m // 2)  # some triangles and 4-cliques
    text = "# a comment line\n" + "\n".join(f"{a}\t{b}" for a, b in e.tolist()) + "\n"
    assert sw.SMALL_BYTES_CACHED < len(text) <= sw.SMALL_BYTES
    path = tmp_path / "mid.txt"
    path.write_text(text)
    H = nx.Graph()
    H.add_edges_from(e.tolist())
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    want = sum(1 for c in nx.enumerate_all_cliques(H) if len(c) == 4)
    outs = []
    for numpy_too in (False, True):
        with monkeypatch.context() as mp:
            if numpy_too:
                mp.setattr(sw, "SMALL_BYTES_CACHED", sw.SMALL_BYTES)
            code, out, _ = run(capsys, "count-cliques", str(path), "-k", "4", "--json", "--threads", "2")
        assert code == 0
        outs.append(json.loads(out))
    for d in outs:
        assert (d["count"], d["nodes"], d["edges"]) == (want, H.number_of_nodes(), H.number_of_edges())


def test_preload_loads_the_counts_kernels_from_the_cache_and_compiles_nothing(tmp_path):
    # a file of PRELOAD_BYTES or more: its count's kernels are loaded on a second thread while it
    # is read; in a fresh process after a first run (which fills the cache), no compile happens
    from graphmine.commands import PRELOAD_BYTES

    rng = np.random.default_rng(3)
    e = rng.integers(0, 20_000, size=(60_000, 2))
    text = "\n".join(f"{a} {b}" for a, b in e.tolist()) + "\n"
    assert len(text) >= PRELOAD_BYTES
    path = tmp_path / "big.txt"
    path.write_text(text)
    H = nx.Graph(e.tolist())
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    want = sum(1 for c in nx.enumerate_all_cliques(H) if len(c) == 4)
    probe = ("import sys\n"
             "from numba.core import event\n"
             "compiled = []\n"
             "class L(event.Listener):\n"
             "    def on_start(self, ev): compiled.append(ev.data['dispatcher'].py_func.__name__)\n"
             "    def on_end(self, ev): pass\n"
             "event.register('numba:compile', L())\n"
             "from graphmine import commands\n"
             "from graphmine.cli import build_parser\n"
             "from graphmine.cliques import warm_up\n"
             "args = build_parser().parse_args(['count-cliques', sys.argv[1], '-k', '4', '--threads', '2'])\n"
             "size = commands.input_bytes(args)\n"
             "assert size >= commands.PRELOAD_BYTES\n"
             "warm_up(4, threads=2, file_bytes=size).join()\n"
             "from graphmine.cliques import _clique_kernels as ck\n"
             "from graphmine._primitives import order_kernels as ok\n"
             "import graphmine as gm\n"
             "loaded = [len(ck._cliques_serial.overloads) > 0, len(ok._degeneracy_oriented.overloads) > 0]\n"
             "count = gm.count_cliques(gm.read_graph(sys.argv[1]), 4, threads=2)\n"
             "print(loaded, compiled, count)\n")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    subprocess.run([sys.executable, "-m", "graphmine", "count-cliques", str(path), "-k", "4", "--threads", "2"],
                   check=True, env=env, capture_output=True)  # fills numba's cache where it is empty
    out = subprocess.run([sys.executable, "-c", probe, str(path)], check=True, env=env, capture_output=True,
                         text=True).stdout.split("\n")[0]
    assert out == f"[True, True] [] {want}", out
