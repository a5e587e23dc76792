"""Distributed counting on Dask: every count against graphmine's single-process exact counts and
networkx, on shipped graphs and Hypothesis graphs split into random shards."""

import gzip
import json
import os

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphmine as gm
from graphmine.core.exceptions import GraphFormatError, GraphValueError, ParameterError

distributed = pytest.importorskip("distributed")
from graphmine.distributed import (DistributedGraph, average_clustering, count_cliques,  # noqa: E402
                                   count_triangles, local_client, triangles)

pytestmark = pytest.mark.slow  # every test starts or uses a Dask cluster of worker processes


def _cluster(processes):
    c = local_client(2, processes=processes)
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def client():
    yield from _cluster(False)


@pytest.fixture(scope="module")
def proc_client():
    yield from _cluster(True)


def write_shards(directory, edges, nshards, *, seed=0, empty=1, gz=False):
    """Write the (m, 2) edges in random order to ``nshards`` files plus ``empty`` empty ones."""
    rng = np.random.default_rng(seed)
    edges = np.asarray(edges, np.int64)
    where = rng.integers(0, nshards, edges.shape[0]) if edges.shape[0] else np.empty(0, np.int64)
    paths = []
    for s in range(nshards):
        part = edges[where == s]
        path = os.path.join(directory, f"part-{s:03d}.el" + (".gz" if gz and s == 0 else ""))
        text = "# shard %d\n" % s + "".join(f"{u}\t{v}\n" for u, v in part)
        if gz and s == 0:
            with gzip.open(path, "wt") as fh:
                fh.write(text)
        else:
            with open(path, "w") as fh:
                fh.write(text)
        paths.append(path)
    for s in range(empty):
        path = os.path.join(directory, f"part-empty-{s}.el")
        open(path, "w").close()
        paths.append(path)
    return paths


def original_edges(G):
    return G.node_ids[G.edges()]


# -- shipped graphs -------------------------------------------------------------------------

@pytest.mark.parametrize("name,nshards,partitions", [("USAir", 1, 1), ("USAir", 4, 3), ("ca-GrQc", 7, 4),
                                                     ("Celegans", 3, 2)])
def test_shipped_graphs_equal_single_process(client, tmp_path, name, nshards, partitions):
    # the file's lines as they are (self-loops, duplicates) spread over the shards
    G = gm.datasets.load(name)
    paths = write_shards(tmp_path, gm.read_edges(gm.datasets.path(name)).edges, nshards, seed=nshards, gz=True)
    D = DistributedGraph(str(tmp_path / "part-*"), client, partitions=partitions)
    assert (D.n_nodes, D.n_edges) == (G.n_nodes, G.n_edges)
    for key in ("input_edges", "self_loops", "duplicates"):
        assert D.input_stats[key] == G.input_stats[key]
    assert D.input_stats["shards"] == len(paths)
    assert D.count_triangles() == gm.count_triangles(G)
    assert D.count_cliques(4) == gm.count_cliques(G, 4)


def test_k4_k5_and_networkx(client):
    H = nx.les_miserables_graph()
    G = gm.as_graph(H)
    sizes = {}
    for c in nx.enumerate_all_cliques(H):
        if len(c) > 5:
            break
        sizes[len(c)] = sizes.get(len(c), 0) + 1
    D = DistributedGraph(G, client, partitions=3)
    for k in (3, 4, 5):
        assert D.count_cliques(k) == sizes[k] == gm.count_cliques(G, k)
    assert D.count_cliques(40) == 0


def test_per_vertex_triangles_and_clustering(client, tmp_path):
    G = gm.datasets.load("ca-GrQc")  # one vertex occurs in a self-loop only
    raw = gm.read_edges(gm.datasets.path("ca-GrQc")).edges
    write_shards(tmp_path, raw, 5, seed=3)
    D = DistributedGraph(str(tmp_path), client, partitions=3)
    ids, t = triangles(D)
    H = nx.Graph()
    H.add_nodes_from(np.unique(raw).tolist())
    H.add_edges_from((u, v) for u, v in raw.tolist() if u != v)
    nxt = nx.triangles(H)
    assert np.array_equal(ids.compute(), G.node_ids)
    assert t.compute().tolist() == [nxt[int(v)] for v in G.node_ids]
    assert average_clustering(D) == pytest.approx(nx.average_clustering(H), abs=1e-12)
    assert average_clustering(D, count_zeros=False) == pytest.approx(
        gm.average_clustering(G, count_zeros=False), abs=1e-12)


def test_graph_input_keeps_isolated_vertices(client):
    # isolated vertices count in the average clustering (count_zeros=True)
    G = gm.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)], n_nodes=6)
    assert average_clustering(G, client=client, partitions=2) == pytest.approx(gm.average_clustering(G))
    ids, t = triangles(G, client=client, partitions=4)
    assert t.compute().tolist() == [1, 1, 1, 0, 0, 0]


def test_more_partitions_than_vertices(client):
    D = DistributedGraph(nx.complete_graph(5), client, partitions=50)
    assert D.partitions == 5
    assert D.count_cliques(3) == 10 and D.count_cliques(4) == 5 and D.count_cliques(5) == 1


# -- Hypothesis: random graphs in random shards ----------------------------------------------

@st.composite
def sharded_graphs(draw):
    n = draw(st.integers(2, 24))
    # sparse original ids, spread far apart: compaction must renumber them
    ids = np.array(sorted(draw(st.sets(st.integers(0, 10**12), min_size=n, max_size=n))), np.int64)
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1, max_size=120))
    edges = ids[np.array(pairs, np.int64)]
    # duplicates and reversed duplicates across shards
    dup = draw(st.lists(st.integers(0, len(pairs) - 1), max_size=20))
    if dup:
        extra = edges[dup][:, ::-1]
        edges = np.concatenate([edges, extra])
    nshards = draw(st.integers(1, 5))
    partitions = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**16))
    return edges, nshards, partitions, seed


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(sharded_graphs())
def test_random_sharded_graphs(client, tmp_path_factory, case):
    edges, nshards, partitions, seed = case
    d = tmp_path_factory.mktemp("shards")
    write_shards(d, edges, nshards, seed=seed, empty=seed % 3)
    H = nx.Graph()
    H.add_nodes_from(np.unique(edges).tolist())  # a vertex of self-loops only is a vertex
    H.add_edges_from((int(u), int(v)) for u, v in edges if u != v)
    D = DistributedGraph(str(d), client, partitions=partitions)
    assert (D.n_nodes, D.n_edges) == (H.number_of_nodes(), H.number_of_edges())
    assert D.count_triangles() == sum(nx.triangles(H).values()) // 3
    cl = {}
    for c in nx.enumerate_all_cliques(H):
        cl[len(c)] = cl.get(len(c), 0) + 1
    assert D.count_cliques(4) == cl.get(4, 0)
    ids, t = triangles(D)
    nxt = nx.triangles(H)
    assert t.compute().tolist() == [nxt[int(v)] for v in ids.compute()]


# -- inputs and errors -----------------------------------------------------------------------

def test_all_empty_shards_is_an_error(client, tmp_path):
    for i in range(3):
        open(tmp_path / f"e{i}.el", "w").close()
    (tmp_path / "c.el").write_text("# only a comment\n\n")
    gzip.open(tmp_path / "z.el", "wt").close()  # compressed, empty once decompressed
    with pytest.raises(GraphFormatError, match="all 5 shards are empty"):
        count_triangles(str(tmp_path / "*.el"), client=client)


def test_bad_line_names_shard_and_line(client, tmp_path):
    write_shards(tmp_path, [(1, 2), (2, 3), (3, 1)], 2)
    bad = tmp_path / "part-bad.el"
    bad.write_text("1 2\n# comment\n7 x9\n")
    with pytest.raises(GraphFormatError, match=r"part-bad\.el:3: expected an integer vertex id, found 'x9'"):
        count_triangles(str(tmp_path / "part-*"), client=client)
    with pytest.raises(GraphFormatError, match=r"nope\.el: no such file"):
        count_triangles([str(tmp_path / "part-000.el"), str(tmp_path / "nope.el")], client=client)
    with pytest.raises(GraphFormatError, match="no files match"):
        count_triangles(str(tmp_path / "*.missing"), client=client)


def test_parameters_are_checked(client):
    with pytest.raises(ParameterError, match="k must be"):
        count_cliques(nx.complete_graph(4), 2, client=client)
    with pytest.raises(ParameterError, match="partitions"):
        count_triangles(nx.complete_graph(4), client=client, partitions=0)
    with pytest.raises(ParameterError, match="k = 3"):
        count_cliques(nx.complete_graph(4), 4, client=client, method="bloom")
    with pytest.raises(ParameterError, match="client must be"):
        count_triangles(nx.complete_graph(4), client="tcp://nowhere:1")


def test_dask_dataframe_input(client):
    import dask.dataframe as dd
    import pandas as pd

    G = gm.datasets.load("USAir")
    e = original_edges(G)
    df = dd.from_pandas(pd.DataFrame({"src": e[:, 0], "dst": e[:, 1]}), npartitions=4)
    assert count_triangles(df, client=client, partitions=3) == gm.count_triangles(G)
    bad = dd.from_pandas(pd.DataFrame({"src": [1, -2], "dst": [2, 3]}), npartitions=1)
    with pytest.raises(GraphValueError, match="partition 0, row 1: vertex ids must be non-negative"):
        count_triangles(bad, client=client)
    text = dd.from_pandas(pd.DataFrame({"src": ["a"], "dst": ["b"]}), npartitions=1)
    with pytest.raises(GraphValueError, match="integer vertex ids"):
        count_triangles(text, client=client)


def test_triangles_written_as_text_shards(client, tmp_path):
    G = gm.datasets.load("USAir")
    out = tmp_path / "tri"
    paths = triangles(G, client=client, partitions=3, output=out)
    assert len(paths) == 3
    rows = np.concatenate([np.loadtxt(p, dtype=np.int64, ndmin=2) for p in paths])
    assert np.array_equal(rows[:, 0], G.node_ids)
    assert np.array_equal(rows[:, 1], gm.triangles(G))
    with pytest.raises(FileExistsError, match=r"triangles-00000\.tsv exists; pass force=True"):
        triangles(G, client=client, partitions=3, output=out)
    assert triangles(G, client=client, partitions=3, output=out, force=True) == paths
    assert sorted(os.listdir(out)) == [os.path.basename(p) for p in paths]  # no temporary file left


# -- Bloom estimator -------------------------------------------------------------------------

def test_bloom_within_stated_error(client):
    G = gm.datasets.load("ca-GrQc")
    D = DistributedGraph(G, client, partitions=3)
    exact = gm.count_triangles(G)
    errs = {}
    for budget in (0.1, 1.0):
        errs[budget] = []
        for seed in range(4):
            est = count_triangles(D, method="bloom", budget=budget, seed=seed)
            assert est.ci[0] <= exact <= est.ci[1]
            assert est.params["partitions"] == 3 and est.method == "bloom"
            errs[budget].append(abs(est.estimate - exact))
    # ten times the bits: the error shrinks
    assert np.mean(errs[1.0]) < np.mean(errs[0.1])
    # the same seed gives the same estimate, whatever the number of row blocks
    a = count_triangles(D, method="bloom", seed=7)
    b = count_triangles(G, client=client, partitions=1, method="bloom", seed=7)
    assert a.estimate == pytest.approx(b.estimate, rel=1e-9)


# -- processes, a worker lost, the default cluster, the command line -------------------------

def test_worker_lost_between_build_and_count(proc_client, tmp_path):
    G = gm.datasets.load("ca-GrQc")
    write_shards(tmp_path, original_edges(G), 4, seed=5)
    D = DistributedGraph(str(tmp_path), proc_client, partitions=4)
    holders = proc_client.who_has(D.blocks)
    victim = next(iter(holders[D.blocks[0].key]))
    proc_client.restart_workers([victim])
    # the blocks that worker held are recomputed from the shards
    assert D.count_triangles() == gm.count_triangles(G)
    assert D.count_cliques(4) == gm.count_cliques(G, 4)


def test_default_cluster_is_started_and_closed(tmp_path, monkeypatch):
    from graphmine.distributed import graph as dgraph

    started = []

    def recording(*args, **kwargs):
        c = local_client(*args, **kwargs)
        started.append(c)
        return c

    monkeypatch.setattr(dgraph, "local_client", recording)
    write_shards(tmp_path, original_edges(gm.datasets.load("USAir")), 2)
    assert count_triangles(str(tmp_path)) == 12181
    (c,) = started
    assert len(c.cluster.workers) == 0 or c.cluster.status.name == "closed"
    assert c.status == "closed"


def test_cli_scheduler(tmp_path, capsys):
    from graphmine.cli import main

    G = gm.datasets.load("USAir")
    write_shards(tmp_path, original_edges(G), 3)
    assert main(["count-cliques", str(tmp_path / "part-*.el"), "--scheduler", "local:2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["count"] == 12181 and out["workers"] == 2 and out["nodes"] == G.n_nodes
    assert out["edges"] == G.n_edges and out["partitions"] == 2 and out["shards"] == 4
    assert main(["count-cliques", "x.el", "--scheduler", "nowhere"]) == 2
    assert "--scheduler must be" in capsys.readouterr().err
    assert main(["count-cliques", "x.el", "--scheduler", "local:0"]) == 2


def test_progress_bar_on_stderr_only(client, capsys):
    D = DistributedGraph(nx.karate_club_graph(), client, partitions=2, progress=True)
    assert D.count_triangles() == 45
    out = capsys.readouterr()
    assert out.out == "" and "100% Completed" in out.err


def test_blocks_merged_when_tasks_would_be_too_many(client, monkeypatch):
    from graphmine.cliques import _dask as clique_tasks

    G = gm.datasets.load("USAir")
    D = DistributedGraph(G, client, partitions=7)
    monkeypatch.setattr(clique_tasks, "MAX_TASKS", 10)  # 7^2, 7^3, 7^4 tasks -> 3, 2, 1 merged blocks
    asked, coarse = [], D.coarse_blocks
    monkeypatch.setattr(D, "coarse_blocks", lambda q: asked.append(q) or coarse(q))
    assert D.count_cliques(3) == gm.count_triangles(G)
    assert D.count_cliques(4) == gm.count_cliques(G, 4)
    assert D.count_cliques(5) == gm.count_cliques(G, 5)
    assert asked == [3, 2, 1]
    for q in asked:
        ranges = coarse(q)[0]
        assert len(ranges) == q and ranges[0][0] == 0 and ranges[-1][1] == G.n_nodes


def test_exact_count_refuses_sketch_settings(client):
    with pytest.raises(gm.ParameterError, match="unexpected keywords for method='exact': \\['budget'\\]"):
        count_triangles(gm.datasets.load("USAir"), client=client, budget=0.5)
    assert count_triangles(gm.datasets.load("USAir"), client=client) == 12181
