"""The shipped graphs (graphmine.io.datasets): sizes and input statistics as published."""


def test_shipped_graph_sizes(shipped):
    G = shipped["ca-GrQc"]
    assert (G.degree > 0).sum() == 5241 and G.n_edges == 14484
    assert G.input_stats["self_loops"] == 12
    assert (shipped["NS"].n_nodes, shipped["NS"].n_edges) == (1461, 2742)
