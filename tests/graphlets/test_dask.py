"""The graphlet census on Dask (graphmine/graphlets/_dask.py) against the CPU census, which
tests/graphlets/test_census.py checks against a brute-force enumerator: node orbits and global
counts, on random graphs of every density cut into several blocks and on a shipped graph."""

import networkx as nx
import numpy as np
import pytest

import graphmine as gm
from graphmine.core.exceptions import GraphmineError

distributed = pytest.importorskip("distributed")
from graphmine.distributed import DistributedGraph, local_client  # noqa: E402

pytestmark = pytest.mark.slow  # a Dask cluster


@pytest.fixture(scope="module")
def client():
    c = local_client(2, processes=False)
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()


def _by_id(G, rows):
    """The CPU census's rows keyed by the graph's vertex ids."""
    ids = np.asarray(gm.as_graph(G).node_ids, np.int64)
    out = np.empty_like(rows)
    out[np.argsort(ids)] = rows
    return out  # row i: vertex id i (ids 0..n-1)


def _check(H, D):
    ids, counts = gm.orbit_counts(D)
    want = _by_id(H, gm.orbit_counts(H))
    assert counts.shape == (H.number_of_nodes(), 15)
    assert (counts == want[np.asarray(ids, np.int64)]).all()
    ids3, counts3 = gm.orbit_counts(D, 3)
    assert (counts3 == want[np.asarray(ids3, np.int64), :4]).all()
    for size in (3, 4):
        for induced in (True, False):
            assert (gm.graphlet_counts(D, size, induced=induced)
                    == gm.graphlet_counts(H, size, induced=induced)).all()


@pytest.mark.parametrize("n, p, seed, parts", [(12, 0.5, 0, 3), (30, 0.15, 1, 4), (40, 0.08, 2, 5),
                                               (16, 0.9, 3, 2), (25, 0.3, 4, 1)])
def test_node_orbits_and_counts_match_the_cpu(client, n, p, seed, parts):
    H = nx.gnp_random_graph(n, p, seed=seed)
    H.add_edge(0, 1)  # at least one edge
    _check(H, DistributedGraph(H, client, partitions=parts))


def test_structured_graphs(client):
    # hubs (a star inside a clique's neighbourhood), long paths, and isolated vertices
    H = nx.disjoint_union_all([nx.complete_graph(6), nx.star_graph(7), nx.path_graph(9), nx.cycle_graph(8),
                               nx.wheel_graph(7)])
    H.add_nodes_from(range(H.number_of_nodes(), H.number_of_nodes() + 3))
    H.add_edges_from([(0, 6), (3, 14), (20, 30)])
    _check(H, DistributedGraph(H, client, partitions=6))


def test_shipped_graph(client):
    G = gm.datasets.load("USAir")
    H = nx.Graph()
    H.add_nodes_from(range(G.n_nodes))
    H.add_edges_from(G.edges().tolist())
    _check(H, DistributedGraph(H, client, partitions=4))


def test_edge_orbits_decline_with_one_error(client):
    D = DistributedGraph(nx.cycle_graph(5), client, partitions=2)
    with pytest.raises(GraphmineError, match="per-edge orbit counts run on the CPU only"):
        gm.orbit_counts(D, kind="edge")


def test_edge_list_shards_keep_their_ids(client, tmp_path):
    # sparse, non-contiguous ids read from two shard files: rows come back under the files' ids
    H = nx.gnm_random_graph(40, 120, seed=5)
    relabel = {v: 7 * v + 3 for v in H}
    E = np.array([(relabel[u], relabel[v]) for u, v in H.edges()], np.int64)
    for s, part in enumerate(np.array_split(E, 2)):
        (tmp_path / f"part-{s}.el").write_text("".join(f"{u}\t{v}\n" for u, v in part))
    D = DistributedGraph(str(tmp_path), client, partitions=3)
    ids, counts = gm.orbit_counts(D)
    G = gm.as_graph(nx.relabel_nodes(H, relabel).subgraph([relabel[v] for v in H if H.degree(v)]))
    want = dict(zip(np.asarray(G.node_ids, np.int64).tolist(), gm.orbit_counts(G)))
    assert sorted(np.asarray(ids).tolist()) == sorted(want)
    assert all((counts[i] == want[int(v)]).all() for i, v in enumerate(np.asarray(ids)))
    assert (gm.graphlet_counts(D) == gm.graphlet_counts(G)).all()
