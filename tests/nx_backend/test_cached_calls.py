"""Later calls on one networkx graph: networkx keeps the converted graph (``G.__networkx_cache__``)
and the converted graph keeps its per-vertex triangles, which the adapters read directly. Every
call, first or later, gives networkx's results; a change of the graph gives the new graph's."""

import warnings

import networkx as nx
import pytest
from hypothesis import given

import graphmine.cliques._nx as cliques_nx
import graphmine.cluster._nx as cluster_nx
from graphmine.nx_backend import from_networkx
from graphmine.nx_backend.convert import node_index, node_labels
from tests.helpers import edge_arrays, nx_graph


def _labelled(H):
    """H with nodes renamed to strings, in H's node order."""
    return nx.relabel_nodes(H, {v: f"a{v}" for v in H}, copy=True)


def _calls(G, nodes):
    return {"triangles": nx.triangles(G, nodes, backend="graphmine"),
            "clustering": nx.clustering(G, nodes, backend="graphmine"),
            "average": nx.average_clustering(G, nodes, backend="graphmine"),
            "average_nonzero": _nonzero_average(G, nodes, "graphmine")}


def _networkx(G, nodes):
    return {"triangles": nx.triangles(G, nodes), "clustering": nx.clustering(G, nodes),
            "average": nx.average_clustering(G, nodes),
            "average_nonzero": _nonzero_average(G, nodes, "networkx")}


def _nonzero_average(G, nodes, backend):
    try:
        return nx.average_clustering(G, nodes, count_zeros=False, backend=backend)
    except ZeroDivisionError:  # no nonzero coefficient: networkx raises, and so must the backend
        return "ZeroDivisionError"


@given(edge_arrays())
def test_every_call_on_one_graph_equals_networkx(data):
    n, edges = data
    G = _labelled(nx_graph(n, edges))
    for nodes in (None, ["a0", f"a{n - 1}", "zz"]):
        want = _networkx(G, nodes)  # networkx skips a member of nodes that is not a node
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # networkx's note that it uses its cached conversion
            for _ in range(3):
                got = _calls(G, nodes)
                assert got == want  # exact: the same counts, the same floats in the same order


def test_later_calls_read_the_kept_counts(monkeypatch):
    G = _labelled(nx.powerlaw_cluster_graph(300, 5, 0.4, seed=3))
    want = _networkx(G, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nx.triangles(G, backend="graphmine") == want["triangles"]
        H = next(iter(G.__networkx_cache__["backends"]["graphmine"].values()))
        assert H.cached_result("triangles", None) is not None
        # neither the registry nor a count runs again: the kept counts answer every function
        fail = lambda *a, **k: pytest.fail("counted again")  # noqa: E731
        monkeypatch.setattr(cliques_nx, "_triangles", fail)
        monkeypatch.setattr(cluster_nx, "_triangles", fail)
        assert _calls(G, None) == want
        monkeypatch.undo()
        # networkx drops its cache when the graph changes: the next call converts and counts anew
        G.add_edges_from([("a0", "a1"), ("a1", "a2"), ("a2", "a0"), ("new", "a0"), ("new", "a1")])
        assert _calls(G, None) == _networkx(G, None)
        assert next(iter(G.__networkx_cache__["backends"]["graphmine"].values())) is not H


@pytest.mark.filterwarnings("ignore:.*cache")
@pytest.mark.parametrize("nodes", [["b", "a", "c", 3, (1, 2)], [3, "b", "a", "c", (1, 2)], [True, 2, 5, "x"]])
def test_mixed_nodes_keep_their_index(nodes):
    # a first node that is an int or not: either way the ids are objects and the index is the
    # conversion's, mapping every node to its vertex
    G = nx.Graph()
    G.add_nodes_from(nodes)
    G.add_edges_from([(nodes[0], nodes[1]), (nodes[1], nodes[2]), (nodes[2], nodes[0]), (nodes[2], nodes[3])])
    H = from_networkx(G)
    assert H.node_ids.dtype == object and node_labels(H) == list(G)
    assert node_index(H) == {v: i for i, v in enumerate(G)}
    assert nx.triangles(G, backend="graphmine") == nx.triangles(G)
    assert nx.clustering(G, backend="graphmine") == nx.clustering(G)


def test_kept_dicts_are_returned_as_copies():
    # the dicts of later calls are the caller's own: changing one changes no later result
    G = _labelled(nx.gnm_random_graph(60, 300, seed=5))
    want = _networkx(G, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(3):
            tri = nx.triangles(G, backend="graphmine")
            clu = nx.clustering(G, backend="graphmine")
            assert tri == want["triangles"] and clu == want["clustering"]
            assert list(tri) == list(G) and list(clu) == list(G)  # networkx's node order
            tri["a0"] = -1
            clu.clear()
