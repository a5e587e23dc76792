"""``graphmine count-motifs``: its counts are the library's, its files keep the input's vertex ids,
and every usage error is one line with status 2."""

import json

import networkx as nx
import numpy as np
import pytest

import graphmine as gm
from graphmine.cli import main


def _run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def graph_file(tmp_path):
    # sparse, shuffled integer ids: the files written must name the vertices by them
    H = nx.gnm_random_graph(30, 90, seed=5)
    ids = np.random.default_rng(1).permutation(1000)[:30] * 7 + 3
    path = tmp_path / "g.txt"
    path.write_text("".join(f"{ids[u]} {ids[v]}\n" for u, v in H.edges()))
    return path, H, ids


def test_counts_are_the_librarys(capsys, graph_file):
    path, H, _ = graph_file
    code, out, _ = _run(capsys, "count-motifs", str(path), "--json", "-q")
    assert code == 0
    got = json.loads(out)
    assert got["counts"] == gm.graphlet_counts(H).tolist() and got["graphlets"][8] == "4-clique"
    code, out, _ = _run(capsys, "count-motifs", str(path), "--json", "-q", "--non-induced", "--size", "3")
    assert json.loads(out)["counts"] == gm.graphlet_counts(H, 3, induced=False).tolist()
    code, out, _ = _run(capsys, "count-motifs", str(path), "-q")
    assert code == 0 and "4-clique" in out and "(exact, induced)" in out


def test_node_and_edge_orbit_files_keep_the_vertex_ids(capsys, graph_file, tmp_path):
    path, H, ids = graph_file
    want = gm.orbit_counts(H)
    out = tmp_path / "nodes.tsv"
    code, text, _ = _run(capsys, "count-motifs", str(path), "--out", str(out), "--json", "-q")
    assert code == 0 and json.loads(text)["counts"] == gm.graphlet_counts(H).tolist()
    rows = np.loadtxt(out, dtype=np.int64)
    assert out.read_text().startswith("# vertex\torbit0\t") and rows.shape == (30, 16)
    back = {int(r[0]): r[1:] for r in rows}
    assert all((back[int(ids[v])] == want[v]).all() for v in H)
    eout = tmp_path / "edges.tsv"
    code, text, _ = _run(capsys, "count-motifs", str(path), "--orbits", "edge", "--out", str(eout), "--json", "-q")
    assert code == 0 and json.loads(text)["counts"] == gm.graphlet_counts(H).tolist()  # from the edge orbits
    G = gm.as_graph(H)
    want = dict(zip(map(tuple, G.edges().tolist()), gm.orbit_counts(G, kind="edge")))
    rows = np.loadtxt(eout, dtype=np.int64)
    pos = {int(i): v for v, i in enumerate(ids)}
    assert rows.shape == (90, 14)
    for r in rows:
        u, v = sorted((pos[int(r[0])], pos[int(r[1])]))
        assert (want[(u, v)] == r[2:]).all()
    code, _, err = _run(capsys, "count-motifs", str(path), "--out", str(out), "-q")
    assert code == 2 and "exists" in err and len(err.strip().splitlines()) == 1


def test_sample_reports_errors_and_its_seed(capsys, graph_file):
    path, H, _ = graph_file
    code, out, _ = _run(capsys, "count-motifs", str(path), "--method", "sample", "--samples", "5000", "--seed", "4",
                        "--json", "-q")
    got = json.loads(out)
    assert code == 0 and got["seed"] == 4 and got["samples"] == 5000
    G = gm.read_graph(str(path))  # the draws follow the file graph's vertex order
    assert got["counts"] == gm.graphlet_counts(G, method="sample", samples=5000, seed=4).estimate.tolist()
    assert len(got["stderr"]) == 9 and all(lo <= c <= hi for lo, c, hi in zip(got["ci_low"], got["counts"],
                                                                               got["ci_high"]))
    code, out, _ = _run(capsys, "count-motifs", str(path), "--method", "sample", "--samples", "5000", "-q")
    assert code == 0 and "seed" in out and "95% CI" in out


def test_sample_trees(capsys, graph_file):
    path, _, _ = graph_file
    code, out, _ = _run(capsys, "count-motifs", str(path), "--size", "5", "--method", "sample", "--sampler", "trees",
                        "--samples", "20000", "--seed", "3", "--json", "-q")
    got = json.loads(out)
    assert code == 0 and got["sampler"] == "trees" and got["samples"] == 20000 and len(got["counts"]) == 30
    G = gm.read_graph(str(path))
    want = gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=20000, seed=3)
    assert got["counts"] == want.estimate.tolist() and got["ci_high"] == want.ci_high.tolist()
    code, out, _ = _run(capsys, "count-motifs", str(path), "--size", "5", "--method", "sample", "--sampler", "trees",
                        "--samples", "2000", "-q")
    assert code == 0 and "spanning trees" in out and "95% CI" in out
    # the default sampler at size 5 is the trees'; --sampler vertices draws vertices
    code, out, _ = _run(capsys, "count-motifs", str(path), "--size", "5", "--method", "sample",
                        "--samples", "20000", "--seed", "3", "--json", "-q")
    got = json.loads(out)
    assert code == 0 and got["sampler"] == "trees" and got["counts"] == want.estimate.tolist()
    assert gm.graphlet_counts(G, 5, method="sample", samples=20000, seed=3).estimate.tolist() == got["counts"]
    code, out, _ = _run(capsys, "count-motifs", str(path), "--size", "5", "--method", "sample", "--sampler", "vertices",
                        "--samples", "30", "--seed", "3", "--json", "-q")
    got = json.loads(out)
    vertices = gm.graphlet_counts(G, 5, method="sample", sampler="vertices", samples=30, seed=3)
    assert code == 0 and got["sampler"] == "vertices" and got["counts"] == vertices.estimate.tolist()


@pytest.mark.parametrize("argv, what", [
    (["--sampler", "trees", "--method", "sample"], "--size 5"),
    (["--sampler", "trees", "--size", "5"], "--size 5 --method sample"),
    (["--sampler", "edges", "--size", "5", "--method", "sample"], "invalid choice"),
    (["--orbits", "node"], "--out"),
    (["--seed", "3"], "--method sample"),
    (["--method", "sample", "--out", "x.tsv"], "exact only"),
    (["--size", "6"], "invalid choice"),
    (["--samples", "0", "--method", "sample"], "positive integer"),
])
def test_usage_errors_are_one_line(capsys, graph_file, argv, what):
    path, _, _ = graph_file
    code, _, err = _run(capsys, "count-motifs", str(path), *argv)
    assert code == 2 and what in err and len(err.strip().splitlines()) == 1


def test_missing_file_is_one_line(capsys, tmp_path):
    code, _, err = _run(capsys, "count-motifs", str(tmp_path / "absent.txt"))
    assert code == 2 and err.startswith("graphmine: error:") and len(err.strip().splitlines()) == 1
