"""networkx's ``graphmine`` backend for the clique listings and k-truss (find_cliques,
enumerate_all_cliques, node_clique_number, k_truss): the same results as networkx's own, and the
calls it declines or refuses."""

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import edge_arrays, nx_graph

graphs = st.one_of(edge_arrays(), edge_arrays(dense=True, max_nodes=16))


@given(graphs, st.booleans())
def test_networkx_backend_equals_networkx(data, strings):
    from graphmine.nx_backend import BackendInterface as B

    n, edges = data
    H = nx_graph(n, edges)
    if strings:
        H = nx.relabel_nodes(H, {v: f"v{n - 1 - v}" for v in H})
    assert set(map(frozenset, B.find_cliques(H))) == set(map(frozenset, nx.find_cliques(H)))
    got = list(B.enumerate_all_cliques(H))
    assert [len(c) for c in got] == sorted(map(len, got))
    assert sorted(map(sorted, got)) == sorted(map(sorted, nx.enumerate_all_cliques(H)))
    assert B.node_clique_number(H) == nx.node_clique_number(H)
    nodes = list(H)[:3]
    assert B.node_clique_number(H, nodes) == nx.node_clique_number(H, nodes)
    if nodes:
        assert B.node_clique_number(H, nodes[0]) == nx.node_clique_number(H, nodes[0])
    for k in (2, 3, 4):
        T = B.convert_to_nx(B.k_truss(H, k))
        W = nx.k_truss(H, k)
        assert list(T.nodes) == list(W.nodes) and set(map(frozenset, T.edges)) == set(map(frozenset, W.edges))


def test_networkx_backend_declines_and_refuses():
    from graphmine.nx_backend import BackendInterface as B

    H = nx.complete_graph(4)
    assert isinstance(B.can_run("node_clique_number", (H,), {"cliques": [[0, 1]]}), str)
    W = nx.complete_graph(4)
    W.add_edge(0, 1, weight=2)
    assert isinstance(B.can_run("k_truss", (W, 3), {}), str)
    assert B.can_run("k_truss", (H, 3), {}) is True and B.can_run("find_cliques", (H,), {}) is True
    H.add_edge(0, 0)
    with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
        B.k_truss(H, 3)
    assert nx.k_truss(nx.complete_graph(5), 4, backend="graphmine").number_of_edges() == 10
