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


# -- results kept on the graph (Graph.cached_result) -------------------------------------------------

def _networkx_answers(H, n):
    cl = nx.clustering(H)
    sq = nx.square_clustering(H)
    return {"triangles": [nx.triangles(H)[v] for v in range(n)], "clustering": [cl[v] for v in range(n)],
            "square_clustering": [sq[v] for v in range(n)], "average": nx.average_clustering(H),
            "transitivity": nx.transitivity(H), "count": sum(nx.triangles(H).values()) // 3}


@given(edge_arrays())
def test_kept_results_equal_networkx_on_every_call(data):
    """Per-vertex triangles are counted once and feed the rest; every call, first or later and
    in any order, gives networkx's values, and changing a returned array changes nothing later."""
    n, edges = data
    H = nx_graph(n, edges)
    want = _networkx_answers(H, n)
    G = gm.from_edges(edges, n_nodes=n)
    for _ in range(2):
        tri = gm.triangles(G)
        assert tri.tolist() == want["triangles"]
        c = gm.clustering(G)
        assert np.allclose(c, want["clustering"])
        assert gm.average_clustering(G) == pytest.approx(want["average"])
        assert gm.transitivity(G) == pytest.approx(want["transitivity"])
        assert gm.count_triangles(G) == want["count"]
        sq = gm.square_clustering(G)
        assert np.allclose(sq, want["square_clustering"])
        for arr in (tri, c, sq):  # the caller's arrays are their own, writable copies
            assert arr.flags.writeable
            arr[:] = 7
    assert set(G.cached_result_keys()) == {"triangles", "clustering", "average_clustering", "transitivity",
                                           "triangle_count", "square_clustering"}
    assert G.result_cache_nbytes <= G.result_cache_limit


def test_second_calls_do_not_count_again(monkeypatch):
    """clustering, average_clustering, transitivity and count_triangles after triangles reuse its
    counts: no kernel, no numpy count runs again."""
    import graphmine.cliques._cpu as family

    H = nx.gnm_random_graph(400, 3000, seed=2)
    G = gm.as_graph(H)
    counted = []
    real = family._vertex_triangles
    monkeypatch.setattr(family, "_vertex_triangles", lambda *a: counted.append(1) or real(*a))
    tri = gm.triangles(G, threads=1)
    monkeypatch.setattr(family, "_cold_small_work", lambda *a: pytest.fail("counted again"))
    monkeypatch.setattr(family, "_small_count", lambda *a: pytest.fail("counted again"))
    gm.clustering(G, threads=2)
    gm.average_clustering(G, count_zeros=False)
    assert gm.count_triangles(G) == int(tri.sum()) // 3 == sum(nx.triangles(H).values()) // 3
    assert gm.transitivity(G) == pytest.approx(nx.transitivity(H))
    assert gm.average_clustering(G, count_zeros=False) == pytest.approx(nx.average_clustering(H, count_zeros=False))
    assert counted == [1]
    # a bad thread count is refused even when the answer is kept
    for f in (gm.triangles, gm.clustering, gm.average_clustering, gm.transitivity, gm.count_triangles,
              gm.square_clustering):
        with pytest.raises(gm.ParameterError, match="threads"):
            f(G, threads=0)


def test_kept_results_stay_bounded_on_a_sparse_graph():
    """On a path (mean degree 2) the CSR holds 16 bytes a vertex, so the per-vertex arrays do not
    all fit: the least recently used go, and later calls still give networkx's values."""
    H = nx.path_graph(20000)
    G = gm.as_graph(H)
    for _ in range(2):
        assert not gm.triangles(G).any()
        assert not gm.clustering(G).any()
        assert not gm.square_clustering(G).any()
        assert G.result_cache_nbytes <= G.result_cache_limit < 3 * 8 * G.n_nodes
    assert gm.average_clustering(G) == 0.0 and gm.transitivity(G) == 0.0
