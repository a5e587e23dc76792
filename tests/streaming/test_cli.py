"""graphmine stream-triangles: estimates along the stream, the final report, errors in one line,
Ctrl-C with the last estimate."""

import io
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from graphmine.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_exact_on_a_shipped_graph(capsys):
    status, out, _ = run(capsys, "stream-triangles", "Celegans", "--method", "exact", "--json", "-q")
    res = json.loads(out)
    assert status == 0 and res["estimate"] == 3241 and res["final"]  # datasets/README.md
    assert res["dropped"]["repeated_insertions"] == 211 and res["stderr"] == 0.0
    top = dict((k, v) for k, v in res["top"])
    assert len(top) == 10 and max(top.values()) == res["top"][0][1]


def test_estimates_every_n_events(capsys, tmp_path):
    p = tmp_path / "s.txt"
    rng = np.random.default_rng(1)
    edges = {tuple(sorted(e)) for e in rng.integers(0, 60, size=(900, 2)).tolist() if e[0] != e[1]}
    edges = sorted(edges)[:700]
    lines = [f"+ {a} {b}" for a, b in edges] + [f"- {a} {b}" for a, b in edges[:100]]
    p.write_text("\n".join(lines) + "\n")
    status, out, _ = run(capsys, "stream-triangles", str(p), "--memory", "200", "--every", "250", "--seed", "3",
                         "--threads", "2", "--json", "-q")
    rows = [json.loads(x) for x in out.splitlines()]
    assert status == 0 and [r["events"] for r in rows] == [250, 500, 750, 800]
    final = rows[-1]
    assert final["final"] and final["replicates"] == 2 and final["stderr"] > 0
    assert final["insertions"] == 700 and final["deletions"] == 100 and final["edges"] == 600
    status, out, _ = run(capsys, "stream-triangles", str(p), "--method", "exact", "--json", "-q")
    exact = json.loads(out)["estimate"]
    assert abs(final["estimate"] - exact) < 6 * final["stderr"] + 0.2 * exact
    status, out, _ = run(capsys, "stream-triangles", str(p), "--memory", "200", "--every", "400", "--seed", "3",
                         "-q")
    assert out.startswith("after 400 events: triangles ~") and "thinkd-acc, 1 sampler" in out


def test_gps_has_a_stderr_from_one_sampler(capsys):
    status, out, _ = run(capsys, "stream-triangles", "Celegans", "--method", "gps", "--memory", "3000", "--json", "-q")
    res = json.loads(out)
    assert status == 0 and res["method"] == "gps" and res["estimate"] == 3241 and res["stderr"] == 0.0  # all kept
    status, out, _ = run(capsys, "stream-triangles", "Celegans", "--method", "gps", "--memory", "300", "--seed", "2",
                         "-q")
    line = out.splitlines()[0]
    assert status == 0 and "stderr" in line and "[gps, 1 sampler of 300 edges, seed 2]" in line


def test_standard_input(capsys, monkeypatch):
    text = b"+ 1 2\n+ 2 3\n+ 3 1\n- 3 1\n- 3 1\n3 1\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    status, out, _ = run(capsys, "stream-triangles", "-", "--method", "exact", "--json", "-q")
    res = json.loads(out)
    assert status == 0 and res["estimate"] == 1 and res["dropped"]["absent_deletions"] == 1 and res["events"] == 5


def test_names_keep_the_file_ids(capsys, tmp_path):
    import networkx as nx

    H = nx.les_miserables_graph()
    p = tmp_path / "lesmis.el"
    nx.write_edgelist(H, p, data=False)
    status, out, _ = run(capsys, "stream-triangles", str(p), "--ids", "str", "--method", "exact", "--top", "3",
                         "--json", "-q")
    res = json.loads(out)
    tri = nx.triangles(H)
    assert status == 0 and res["estimate"] == sum(tri.values()) // 3
    assert [[name, float(tri[name])] for name, _ in res["top"]] == res["top"]
    assert [t for _, t in res["top"]] == sorted(tri.values(), reverse=True)[:3]


@pytest.mark.parametrize("argv,words", [
    (["-", "--method", "exact", "--ids", "str"], "--ids str needs a file"),
    (["Celegans"], "--memory K is required"),
    (["Celegans", "--method", "exact", "--memory", "5"], "exact keeps the whole graph"),
    (["-", "--memory", "5", "--format", "events"], "needs a file"),
    (["-", "--memory", "5", "--method", "thinkd-fast"], "needs --probability"),
    (["Celegans", "--memory", "5", "--probability", "0.5"], "thinkd-fast only"),
    (["nope.txt", "--memory", "5"], "nope.txt: no such file"),
])
def test_errors_in_one_line(capsys, argv, words):
    status, out, err = run(capsys, "stream-triangles", *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and words in err, err


def test_insert_only_method_on_deletions(capsys, tmp_path):
    p = tmp_path / "d.txt"
    p.write_text("+ 1 2\n+ 2 3\n- 1 2\n")
    for method in ("wrs", "gps"):
        status, _, err = run(capsys, "stream-triangles", str(p), "--method", method, "--memory", "10")
        assert status == 2 and f"{method} counts insertion-only streams" in err
    p.write_text("+ 1 2\n+ 2\n")
    status, _, err = run(capsys, "stream-triangles", str(p), "--memory", "10")
    assert status == 2 and "d.txt:2: expected two vertex ids" in err


@pytest.mark.slow
def test_ctrl_c_prints_the_last_estimate():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
    p = subprocess.Popen([sys.executable, "-m", "graphmine", "stream-triangles", "-", "--memory", "50", "--every",
                          "100", "--seed", "1", "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    rng = np.random.default_rng(0)
    p.stdin.write("".join(f"+ {a} {b}\n" for a, b in rng.integers(0, 30, size=(250, 2))).encode())
    p.stdin.flush()  # the stream stays open: a live stream
    assert json.loads(p.stdout.readline())["events"] == 100
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=30)  # standard input stays open: only the signal ends the program
    finally:
        p.kill()
    out, err = p.stdout.read(), p.stderr.read()
    last = json.loads(out.decode().splitlines()[-1])
    # an empty numba cache adds the first-compile note before it
    assert p.returncode == 130 and err.decode().splitlines()[-1] == "graphmine: interrupted"
    assert "Traceback" not in err.decode()
    assert last["interrupted"] and last["events"] > 100 and last["estimate"] > 0
