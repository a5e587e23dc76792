"""Vertex centralities of the core (graphmine.centrality._cpu) against networkx, and networkx's
``pagerank`` / ``average_neighbor_degree`` dispatched to the graphmine backend."""

import networkx as nx
import numpy as np
import pytest

import graphmine as gm
from graphmine.centrality import _cpu as centrality
from graphmine.core.exceptions import ConvergenceError, ParameterError
from graphmine.nx_backend import BackendInterface


def _graphs():
    yield nx.Graph(nx.karate_club_graph().edges())  # without its edge weights
    yield nx.star_graph(5)
    H = nx.gnp_random_graph(60, 0.08, seed=3)
    H.add_nodes_from(range(60, 64))  # isolated vertices: dangling rank
    yield H
    yield nx.path_graph(7)


GRAPHS = list(_graphs())


@pytest.mark.parametrize("H", GRAPHS)
def test_pagerank_equals_networkx(H):
    G = gm.as_graph(H)
    ref = nx.pagerank(H, alpha=0.85, tol=1e-14, max_iter=1000, weight=None)
    assert np.allclose(centrality.pagerank(G, tol=1e-13, max_iter=1000), [ref[v] for v in H], atol=1e-12)
    ref = nx.pagerank(H, alpha=0.6, tol=1e-14, max_iter=1000, weight=None)
    assert np.allclose(centrality.pagerank(G, 0.6, tol=1e-13), [ref[v] for v in H], atol=1e-12)


@pytest.mark.parametrize("H", GRAPHS)
def test_average_neighbor_degree_and_core_number_equal_networkx(H):
    G = gm.as_graph(H)
    ref = nx.average_neighbor_degree(H)
    assert centrality.average_neighbor_degree(G).tolist() == [ref[v] for v in H]  # to the last bit
    ref = nx.core_number(H)
    assert centrality.core_number(G).tolist() == [ref[v] for v in H]


def test_serial_and_parallel_kernels_agree():
    G = gm.generators.kronecker_graph(12, 20, seed=1)  # above graph.SERIAL_EDGES
    assert G.n_edges > gm.graph.SERIAL_EDGES
    a = centrality.pagerank(G, threads=1)
    b = centrality.pagerank(G, threads=2)
    assert np.allclose(a, b, rtol=1e-12, atol=0)
    assert np.array_equal(centrality.average_neighbor_degree(G, threads=1),
                          centrality.average_neighbor_degree(G, threads=2))
    ref = np.zeros(G.n_nodes)  # slow reference: the definition
    deg = G.degree
    for v in np.flatnonzero(deg)[:200]:
        ref[v] = deg[G.neighbors(v)].sum() / deg[v]
    sel = np.flatnonzero(deg)[:200]
    assert np.array_equal(centrality.average_neighbor_degree(G)[sel], ref[sel])


def test_pagerank_errors_and_start_vector():
    G = gm.as_graph(nx.karate_club_graph())
    with pytest.raises(ConvergenceError, match="max_iter=0"):
        centrality.pagerank(G, max_iter=0)
    for bad in (1.5, -0.1, True):
        with pytest.raises(ParameterError, match="alpha"):
            centrality.pagerank(G, bad)
    with pytest.raises(ParameterError, match="nstart"):
        centrality.pagerank(G, nstart=np.zeros(G.n_nodes))
    start = np.arange(1, G.n_nodes + 1, dtype=float)
    assert np.allclose(centrality.pagerank(G, nstart=start), centrality.pagerank(G), atol=1e-10)
    assert centrality.pagerank(gm.as_graph(np.empty((0, 2), np.int64))).shape == (0,)


def test_science4cast_features_use_the_core():
    from graphmine.science4cast import features

    assert features.pagerank is centrality.pagerank
    assert features.average_neighbor_degree is centrality.average_neighbor_degree


# -- networkx backend ----------------------------------------------------------------------------

def _within_networkx_tolerance(got, ref, n, alpha=0.85, tol=1e-6):
    """networkx stops once an iteration changes the ranks by less than n * tol in L1 norm, so its
    result is within n * tol * alpha / (1 - alpha) of the exact ranks; graphmine stops when the
    change a power iteration would make is below the same bound, within n * tol / (1 - alpha)."""
    assert list(got) == list(ref)
    diff = sum(abs(got[v] - ref[v]) for v in ref)
    assert diff <= n * tol * (1 + alpha) / (1 - alpha), diff


@pytest.mark.parametrize("H", GRAPHS)
def test_backend_pagerank_equals_networkx(H):
    labelled = nx.relabel_nodes(H, {v: f"v{v}" for v in H})  # arbitrary hashable nodes
    for graph in (H, labelled):
        ref = nx.pagerank(graph)
        got = nx.pagerank(graph, backend="graphmine")
        assert all(type(x) is float for x in got.values())
        _within_networkx_tolerance(got, ref, len(H))
    nstart = {v: 1.0 + i for i, v in enumerate(H)}
    for kw in ({"alpha": 0.9, "tol": 1e-8, "nstart": nstart}, {"alpha": 0.95, "tol": 1e-10}, {"max_iter": 0}):
        if kw.get("max_iter") == 0:  # no iteration: neither converges
            with pytest.raises(nx.PowerIterationFailedConvergence):
                nx.pagerank(H, **kw, backend="graphmine")
            continue
        alpha, tol = kw["alpha"], kw["tol"]
        got = nx.pagerank(H, **kw, backend="graphmine")
        try:
            ref = nx.pagerank(H, **kw)
        except nx.PowerIterationFailedConvergence:
            # the star's rank oscillates: networkx's 100 iterations fall short where conjugate
            # gradients converge (within the bound of their stopping rule of the exact ranks)
            exact = nx.pagerank(H, alpha, tol=1e-15, max_iter=100000)
            assert sum(abs(got[v] - exact[v]) for v in H) <= len(H) * tol / (1 - alpha)
            continue
        _within_networkx_tolerance(got, ref, len(H), alpha, tol)


@pytest.mark.parametrize("H", GRAPHS)
def test_power_solver_is_networkx_step_for_step(H):
    """solver='power' runs networkx's iteration and stopping rule: equal up to the order of
    floating-point sums."""
    G = gm.as_graph(H)
    n = len(H)
    for kw in ({}, {"alpha": 0.9, "tol": 1e-8}, {"alpha": 0.95, "tol": 1e-10}):
        args = (G, kw.get("alpha", 0.85))
        opts = {"tol": n * kw.get("tol", 1e-6), "max_iter": 100, "solver": "power"}
        try:
            ref = nx.pagerank(H, **kw, weight=None)
        except nx.PowerIterationFailedConvergence:  # then the same iteration does not converge
            with pytest.raises(ConvergenceError):
                centrality.pagerank(*args, **opts)
            continue
        assert centrality.pagerank(*args, **opts).tolist() == pytest.approx([ref[v] for v in H], rel=1e-12,
                                                                             abs=1e-15)


@pytest.mark.parametrize("H", GRAPHS)
def test_backend_average_neighbor_degree_equals_networkx(H):
    assert nx.average_neighbor_degree(H, backend="graphmine") == nx.average_neighbor_degree(H)
    nodes = list(H)[::3] + ["absent"]
    got = nx.average_neighbor_degree(H, nodes=nodes, backend="graphmine")
    ref = nx.average_neighbor_degree(H, nodes=nodes)
    assert got == ref and list(got) == list(ref)


def test_backend_declines_what_it_does_not_compute_exactly():
    H = nx.karate_club_graph()  # its edges carry weights
    can = BackendInterface.can_run
    assert isinstance(can("pagerank", (H,), {}), str)
    assert can("pagerank", (H,), {"weight": None}) is True
    assert isinstance(can("average_neighbor_degree", (H,), {"weight": "weight"}), str)
    assert can("average_neighbor_degree", (H,), {}) is True
    P = nx.path_graph(5)
    assert can("pagerank", (P,), {}) is True
    assert isinstance(can("pagerank", (P,), {"personalization": {0: 1}}), str)
    assert isinstance(can("pagerank", (P, 0.85, None, 100, 1e-6, None, "weight", {0: 1}), {}), str)
    assert isinstance(can("average_neighbor_degree", (P, "in"), {}), str)
    assert isinstance(can("average_neighbor_degree", (P,), {"nodes": 2}), str)
    assert isinstance(can("pagerank", (nx.DiGraph(P),), {}), str)
    L = nx.path_graph(4)
    L.add_edge(2, 2)
    assert isinstance(can("pagerank", (L,), {}), str)
    assert isinstance(can("average_neighbor_degree", (L,), {}), str)
    # declined calls still give networkx's answers through its fallback
    _within_networkx_tolerance(nx.pagerank(H, weight=None, backend="graphmine"), nx.pagerank(H, weight=None),
                               len(H))


# -- conjugate gradients (solver='cg', the default) -------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.helpers import edge_arrays, nx_graph  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(edge_arrays(max_nodes=40), st.sampled_from([0.0, 0.3, 0.85, 0.99]), st.sampled_from([1e-6, 1e-10]))
def test_cg_is_within_tol_of_the_exact_ranks(data, alpha, tol):
    """The result is within tol of the exact PageRank in L1 norm, isolated vertices included. The
    oracle solves PageRank's linear system directly, x = alpha P^T x + (1 - alpha) / n (dangling rows
    of P uniform): networkx's power iteration run to 1e-15 can stall short of its own tolerance at
    alpha = 0.99."""
    n, edges = data
    A = nx.to_numpy_array(nx_graph(n, edges), nodelist=range(n), weight=None)
    out = A.sum(axis=1)
    P = np.where(out[:, None] > 0, A / np.maximum(out, 1.0)[:, None], 1.0 / n)
    exact = np.linalg.solve(np.eye(n) - alpha * P.T, np.full(n, (1.0 - alpha) / n))
    got = centrality.pagerank(gm.from_edges(edges, n_nodes=n), alpha, tol=tol, max_iter=1000)
    assert got.sum() == pytest.approx(1.0)
    assert np.abs(got - exact).sum() <= tol + 1e-12


def test_cg_and_power_agree_and_cg_takes_no_more_iterations(monkeypatch):
    G = gm.generators.kronecker_graph(11, 8, seed=2)
    H = G.to_networkx(original_ids=False)
    H.add_nodes_from(range(G.n_nodes))
    exact = nx.pagerank(H, tol=1e-15 / G.n_nodes, max_iter=10000, weight=None)
    exact = np.array([exact[v] for v in range(G.n_nodes)])
    sums = []
    real = centrality._neighbour_sums_into
    monkeypatch.setattr(centrality, "_neighbour_sums_into", lambda *a: sums.append(1) or real(*a))
    cg = centrality.pagerank(G, tol=1e-10)
    n_cg, sums[:] = len(sums), []
    power = centrality.pagerank(G, tol=1e-10, solver="power")
    assert np.abs(cg - exact).sum() <= 1e-10 and np.abs(power - exact).sum() <= 1e-9
    assert n_cg <= len(sums)  # never more (email-Enron: 41 against 142; an expander like this: 22 and 27)
    # a start vector changes the path, not the answer; alpha = 1 iterates (the system is singular)
    start = np.arange(1, G.n_nodes + 1, dtype=float)
    assert np.abs(centrality.pagerank(G, tol=1e-10, nstart=start) - exact).sum() <= 1e-10
    one = nx.pagerank(H, 1.0, tol=1e-15 / G.n_nodes, max_iter=10000, weight=None)
    assert np.allclose(centrality.pagerank(G, 1.0, tol=1e-13, max_iter=10000), [one[v] for v in range(G.n_nodes)],
                       atol=1e-10)
    with pytest.raises(ParameterError, match="solver"):
        centrality.pagerank(G, solver="jacobi")
    with pytest.raises(ConvergenceError, match="max_iter=3"):
        centrality.pagerank(G, tol=1e-12, max_iter=3)
