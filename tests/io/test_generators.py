"""Random graph generators (graphmine.io.generators): seeded, the asked-for sizes and shapes, planted
cliques present."""

import numpy as np
import pytest

import graphmine as gm


def test_generators():
    from graphmine.io.generators import (erdos_renyi_graph, kronecker_edges, kronecker_graph,
                                      planted_cliques_graph)

    assert np.array_equal(kronecker_edges(10, 4, seed=3), kronecker_edges(10, 4, seed=3))
    assert not np.array_equal(kronecker_edges(10, 4, seed=3), kronecker_edges(10, 4, seed=4))
    K = kronecker_graph(12, 16, seed=1)
    deg = np.sort(K.degree)[::-1]
    assert deg[0] > 20 * np.median(deg[deg > 0])  # R-MAT degrees are heavily skewed
    G = erdos_renyi_graph(300, m=1000, seed=2)
    assert G.n_edges == 1000
    H = G.to_networkx()
    assert H.number_of_nodes() == 300
    G, cliques = planted_cliques_graph(200, 0.01, [8, 6], seed=4)
    for c in cliques:
        assert gm.count_cliques(G.subgraph(c), len(c)) == 1
    assert gm.count_cliques(G, 8) >= 1
    with pytest.raises(gm.ParameterError):
        erdos_renyi_graph(10, 0.5, m=3)
