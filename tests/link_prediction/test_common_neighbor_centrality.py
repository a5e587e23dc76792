"""Common neighbour centrality (graphmine.link_prediction._cpu, the CCPA family) against networkx,
directly and through networkx's dispatch to the graphmine backend."""

import math

import networkx as nx
import pytest

import graphmine as gm


def test_common_neighbor_centrality_against_networkx():
    for H in (nx.karate_club_graph(), nx.disjoint_union(nx.path_graph(4), nx.cycle_graph(5)),
              nx.gnp_random_graph(30, 0.15, seed=2)):
        for alpha in (0.8, 0.3, 1.0, 0.0):
            want = {(u, v): p for u, v, p in nx.common_neighbor_centrality(H, alpha=alpha)}
            us, vs, s = gm.common_neighbor_centrality(H, alpha=alpha)
            got = {(int(u), int(v)): float(x) for u, v, x in zip(us, vs, s)}
            assert set(map(frozenset, got)) == set(map(frozenset, want))
            for (u, v), p in want.items():
                q = got.get((u, v), got.get((v, u)))
                assert math.isclose(p, q, rel_tol=1e-12, abs_tol=1e-12), (u, v, p, q)
            # through networkx's dispatch to the graphmine backend
            back = {(u, v): p for u, v, p in nx.common_neighbor_centrality(H, alpha=alpha, backend="graphmine")}
            assert back.keys() | {(v, u) for u, v in back} >= want.keys()
            for (u, v), p in back.items():
                assert math.isclose(p, want.get((u, v), want.get((v, u))), rel_tol=1e-12, abs_tol=1e-12)


def test_common_neighbor_centrality_errors():
    with pytest.raises(gm.GraphValueError, match="self-loop"):
        gm.common_neighbor_centrality(nx.path_graph(3), [(1, 1)])
    with pytest.raises(gm.GraphValueError, match="outside"):
        gm.common_neighbor_centrality(nx.path_graph(3), [(0, 7)])
    with pytest.raises(nx.NetworkXAlgorithmError):
        list(nx.common_neighbor_centrality(nx.path_graph(3), [(0, 2), (1, 1)], backend="graphmine"))
    with pytest.raises(nx.NodeNotFound):
        nx.common_neighbor_centrality(nx.path_graph(3), [(0, 9)], backend="graphmine")
