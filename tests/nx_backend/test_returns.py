"""Every function of the networkx backend, called both ways (``backend="graphmine"`` and through
``nx.config.backend_priority``), returns what networkx returns: the same type and the same values."""

import collections.abc
import functools
import types

import networkx as nx
import pytest

from graphmine.core import generated
from graphmine.nx_backend import BackendInterface

G = nx.gnm_random_graph(150, 1200, seed=7)  # above the backend's small-graph rule, so it runs
PAIRS = [(0, 1), (2, 3), (4, 5), (10, 20)]

# networkx function -> (its positional arguments after the graph, its keywords); every function of
# the backend has an entry (a new one fails test_every_function_is_called until it is added)
CALLS = {
    "triangles": ((), {}), "clustering": ((), {}), "average_clustering": ((), {}), "transitivity": ((), {}),
    "square_clustering": ((), {}), "all_triangles": ((), {}),
    "jaccard_coefficient": ((PAIRS,), {}), "adamic_adar_index": ((PAIRS,), {}),
    "resource_allocation_index": ((PAIRS,), {}), "preferential_attachment": ((PAIRS,), {}),
    "common_neighbor_centrality": ((PAIRS,), {}),
    "core_number": ((), {}), "pagerank": ((), {}), "average_neighbor_degree": ((), {}),
    "find_cliques": ((), {}), "enumerate_all_cliques": ((), {}), "node_clique_number": ((), {}),
    "k_truss": ((4,), {}), "k_clique_communities": ((3,), {}),
}


def _function(name):
    return getattr(nx, name, None) or getattr(nx.community, name)


def _plain(value):
    """A comparable form of a result: graphs by nodes and edges, floats rounded, iterators listed
    and sorted (the backend's order may differ where networkx's documentation allows it)."""
    if isinstance(value, nx.Graph):
        return ("graph", type(value), sorted(value.nodes()), sorted(map(sorted, value.edges())))
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return sorted(map(_plain, value))
    if isinstance(value, collections.abc.Iterator):
        return ("iterator", sorted((_plain(sorted(v) if isinstance(v, list) else v) for v in value), key=repr))
    return value


def test_every_function_is_called():
    assert set(CALLS) == set(generated.NETWORKX)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_both_call_styles_return_networkx_results(name, monkeypatch):
    args, kwargs = CALLS[name]
    want = _function(name)(G, *args, backend="networkx", **kwargs)
    ran = []
    ours = getattr(BackendInterface, name)

    @functools.wraps(ours)
    def counted(*a, **k):
        ran.append(name)
        return ours(*a, **k)

    monkeypatch.setattr(BackendInterface, name, counted)
    explicit = _function(name)(G, *args, backend="graphmine", **kwargs)
    # k_truss returns a graph: networkx orders its backends by the generators' priority
    with nx.config.backend_priority(algos=["graphmine"], generators=["graphmine"]):
        prioritised = _function(name)(G, *args, **kwargs)
    assert ran == [name, name], "graphmine did not run the call both times"
    for got in (explicit, prioritised):
        if isinstance(want, types.GeneratorType):  # networkx documents an iterator
            assert isinstance(got, collections.abc.Iterator), type(got)
        elif isinstance(want, dict):  # a dict (networkx's node_clique_number is a defaultdict)
            assert isinstance(got, dict), type(got)
        else:  # graphs and scalars: networkx's own type
            assert type(got) is type(want), (type(got), type(want))
    want = _plain(want)
    for got in (explicit, prioritised):
        got = _plain(got)
        if name == "pagerank":
            # networkx's tolerance: it stops once an iteration changes the ranks by less than
            # n * tol (L1), within n * tol * alpha / (1 - alpha) of the exact ranks; graphmine's
            # conjugate gradients stop within n * tol of them
            n, tol, alpha = G.number_of_nodes(), 1e-6, 0.85
            assert got.keys() == want.keys()
            assert sum(abs(got[k] - want[k]) for k in got) <= n * tol * (1 + alpha) / (1 - alpha)
        else:
            assert got == want


def test_k_truss_returns_a_networkx_graph_both_ways():
    # the defect this guards against: with backend= the backend's own graph came back
    H0 = nx.k_truss(nx.complete_graph(6), 5)
    H = nx.k_truss(nx.complete_graph(6), 5, backend="graphmine")
    assert type(H) is nx.Graph and nx.utils.graphs_equal(H, H0) and len(H) == 6 and H.number_of_edges() == 15
