"""k-clique cores and densest k-clique subgraphs (graphmine.cliques.peeling) against threshold removal
and brute force; the parameter checks of the peeling, truss and listing calls."""

from fractions import Fraction
from itertools import combinations
from math import comb

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

import graphmine as gm
from graphmine.cliques.peeling import clique_core_number, densest_clique_subgraph
from graphmine.cliques.enumeration import count_maximal_cliques, maximal_cliques, node_clique_number
from graphmine.truss._cpu import k_truss, truss_decomposition
from tests.helpers import edge_arrays, nx_graph


def core_reference(H, k):
    """k-clique core numbers by iterated threshold removal (no peeling order)."""
    core = dict.fromkeys(H, 0)
    c = 1
    while True:
        S = set(H)
        changed = True
        while changed:
            changed = False
            sub = H.subgraph(S)
            deg = dict.fromkeys(S, 0)
            for cl in nx.enumerate_all_cliques(sub):
                if len(cl) == k:
                    for v in cl:
                        deg[v] += 1
            drop = {v for v in S if deg[v] < c}
            if drop:
                S -= drop
                changed = True
        if not S:
            return core
        for v in S:
            core[v] = c
        c += 1


@given(edge_arrays(dense=True, max_nodes=14), st.sampled_from([2, 3, 4]))
def test_clique_cores_equal_threshold_removal(data, k):
    n, edges = data
    H = nx_graph(n, edges)
    got = clique_core_number(gm.from_edges(edges, n_nodes=n), k)
    ref = core_reference(H, k)
    assert got.tolist() == [ref[v] for v in range(n)]
    if k == 2:
        assert got.tolist() == [nx.core_number(H)[v] for v in range(n)]


def densest_brute_force(H, k):
    best = Fraction(0)
    for r in range(1, H.number_of_nodes() + 1):
        for S in combinations(H, r):
            c = sum(1 for cl in nx.enumerate_all_cliques(H.subgraph(S)) if len(cl) == k)
            best = max(best, Fraction(c, r))
    return best


@given(edge_arrays(dense=True, max_nodes=9), st.sampled_from([2, 3, 4]), st.sampled_from([0.5, 0.05]))
def test_densest_subgraph_against_brute_force(data, k, eps):
    n, edges = data
    H = nx_graph(n, edges)
    G = gm.from_edges(edges, n_nodes=n)
    best = densest_brute_force(H, k)
    r = densest_clique_subgraph(G, k, method="exact")
    assert r.exact and Fraction(r.cliques, len(r.vertices)) == best
    sub = sum(1 for cl in nx.enumerate_all_cliques(H.subgraph(r.vertices.tolist())) if len(cl) == k)
    assert sub == r.cliques
    a = densest_clique_subgraph(G, k, method="approx", eps=eps, max_iter=500)
    assert a.upper_bound >= float(best) - 1e-12 and a.density <= float(best) + 1e-12
    assert a.density * (1 + eps) >= a.upper_bound - 1e-12
    sub = sum(1 for cl in nx.enumerate_all_cliques(H.subgraph(a.vertices.tolist())) if len(cl) == k)
    assert sub == a.cliques and a.density == pytest.approx(sub / len(a.vertices))


def test_named_graphs():
    K = nx.karate_club_graph()
    assert count_maximal_cliques(K) == len(list(nx.find_cliques(K)))
    G, cl = gm.generators.planted_cliques_graph(300, 0.02, [25], seed=2)
    r = densest_clique_subgraph(G, 4, method="approx", eps=0.05)
    assert r.density * 1.05 >= r.upper_bound >= comb(25, 4) / 25
    e = densest_clique_subgraph(G, 4)  # few enough cliques for the exact method
    assert e.exact and e.density >= r.density and e.density >= comb(25, 4) / 25
    assert node_clique_number(G).max() == 25
    assert truss_decomposition(G)[1].max() == 25


@pytest.mark.parametrize("call", [
    lambda: clique_core_number(nx.path_graph(3), 1),
    lambda: densest_clique_subgraph(nx.path_graph(3), 3, method="fast"),
    lambda: densest_clique_subgraph(nx.path_graph(3), 3, eps=0),
    lambda: k_truss(nx.path_graph(3), 2.5),
    lambda: list(maximal_cliques(nx.path_graph(3), batch=0)),
])
def test_bad_arguments(call):
    with pytest.raises(gm.ParameterError):
        call()
