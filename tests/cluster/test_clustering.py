"""Local clustering, average clustering and transitivity (graphmine.cluster._cpu) against networkx."""

import numpy as np
import pytest
import networkx as nx
from hypothesis import given

import graphmine as gm
from tests.helpers import edge_arrays, nx_graph


@given(edge_arrays())
def test_clustering_equals_networkx(data):
    n, edges = data
    H = nx_graph(n, edges)
    G = gm.from_edges(edges, n_nodes=n)
    cl = nx.clustering(H)
    assert np.allclose(gm.clustering(G), [cl[v] for v in range(n)])
    assert gm.average_clustering(G) == pytest.approx(nx.average_clustering(H))
    assert gm.average_clustering(G, count_zeros=False) == pytest.approx(
        nx.average_clustering(H, count_zeros=False) if any(cl.values()) else 0.0)
    assert gm.transitivity(G) == pytest.approx(nx.transitivity(H))


def test_transitivity_of_a_shipped_graph_against_networkx(shipped):
    G = shipped["Yeast"]
    assert gm.transitivity(G) == pytest.approx(nx.transitivity(G.to_networkx()))
