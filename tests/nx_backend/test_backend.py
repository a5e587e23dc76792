"""networkx's ``graphmine`` backend: dispatched results equal networkx's own (the oracle) on
Hypothesis graphs with arbitrary hashable nodes, isolated nodes and self-loops; ``nodes=`` and
``ebunch=`` honoured; sketch methods through ``nx.config``; ``gm.Graph`` as a backend graph;
conversions; dispatch decisions; the installed entry points.

networkx's own test suite runs against the backend in CI (``.ci/run``).
"""

import json
import math
import os
import subprocess
import sys
from importlib.metadata import EntryPoint, entry_points

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import graphmine as gm
from graphmine.cliques import _clique_kernels as _ck
from graphmine.cycles import _kernels as _cyk
from graphmine.nx_backend import BackendInterface, NetworkXGraph, from_networkx, to_networkx
from graphmine.link_prediction import _pair_kernels as _pk
from graphmine.nx_backend import _kernels as _k

ROOT = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)
PER_NODE = ("triangles", "clustering", "square_clustering")
LINKS = ("jaccard_coefficient", "adamic_adar_index", "resource_allocation_index",
         "preferential_attachment")


ENTRY_POINTS = {("networkx.backends", "graphmine.nx_backend.interface:BackendInterface"),
                ("networkx.backend_info", "_graphmine_nx:get_info")}


def _installed():
    return {(group, ep.value) for group in ("networkx.backends", "networkx.backend_info")
            for ep in entry_points(group=group, name="graphmine")}


@pytest.fixture(scope="module", autouse=True)
def backend():
    """The backend as networkx sees it. If this environment's install predates the entry points
    (test_entry_points_installed then fails), register them the way networkx's loader does."""
    backends = nx.utils.backends
    saved = (dict(backends.backends), dict(backends.backend_info), nx.config.backends,
             backends._dispatchable.__call__, set(nx.config.warnings_to_ignore))
    if "graphmine" not in backends.backends:
        from _graphmine_nx import get_info

        backends.backends["graphmine"] = EntryPoint(
            "graphmine", "graphmine.nx_backend.interface:BackendInterface", "networkx.backends")
        info = get_info()
        backends.backend_info["graphmine"] = info
        nx.config.backends = nx.utils.Config(graphmine=info["default_config"], **nx.config.backends)
        backends._dispatchable.__call__ = backends._dispatchable._call_if_any_backends_installed
    # every call below converts a fresh graph or wants the cache; networkx warns on each cache hit
    nx.config.warnings_to_ignore.add("cache")
    yield
    backends.backends.clear()
    backends.backends.update(saved[0])
    backends.backend_info.clear()
    backends.backend_info.update(saved[1])
    nx.config.backends = saved[2]
    backends._dispatchable.__call__ = saved[3]
    nx.config.warnings_to_ignore = saved[4]


# -- graphs ------------------------------------------------------------------------------------

LABELS = {
    "str": st.text(alphabet="abcdefgh", min_size=1, max_size=3),
    "tuple": st.tuples(st.integers(-3, 3), st.sampled_from("xyz")),
    "int": st.integers(-10**12, 10**12),
    "mixed": st.one_of(st.text(alphabet="pq", min_size=1, max_size=2), st.tuples(st.integers(0, 3)),
                       st.integers(100, 120), st.frozensets(st.integers(0, 2), max_size=2)),
}


@st.composite
def labelled_graphs(draw, max_nodes=16):
    """An nx.Graph with hashable nodes of one family, in random insertion order; self-loops,
    isolated nodes and (for small n) dense parts included."""
    kind = draw(st.sampled_from(sorted(LABELS)))
    nodes = draw(st.lists(LABELS[kind], min_size=1, max_size=max_nodes, unique=True))
    n = len(nodes)
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n + 4))
    G = nx.Graph()
    G.graph["name"] = kind
    G.add_nodes_from(nodes)
    G.add_edges_from((nodes[i], nodes[j]) for i, j in pairs)
    return G


def _same(a, b, tol=0.0):
    """networkx-equal results: same keys in the same order, same types, values within tol."""
    if isinstance(b, dict):
        assert isinstance(a, dict) and list(a) == list(b)
        for k in b:
            _same(a[k], b[k], tol)
        return
    assert type(a) is type(b), (a, b)
    if isinstance(b, float) and tol:
        assert math.isclose(a, b, rel_tol=tol, abs_tol=tol), (a, b)
    else:
        assert a == b


def _outcome(f):
    try:
        return "ok", f()
    except Exception as exc:  # both sides must fail the same way
        return "error", type(exc)


def _node_args(G, data):
    nodes = list(G)
    picks = [None, nodes[0], data.draw(st.lists(st.sampled_from(nodes), max_size=5)),
             nodes[:2] + ["not a node", ("nor", "this")]]
    return picks


@given(labelled_graphs(), st.data())
def test_per_node_functions_equal_networkx(G, data):
    for name in PER_NODE:
        f = getattr(nx, name)
        for nodes in _node_args(G, data):
            _same(f(G, nodes, backend="graphmine"), f(G, nodes))
    for nodes in (None, list(G)[::2]):
        for count_zeros in (True, False):
            expect = _outcome(lambda: nx.average_clustering(G, nodes, count_zeros=count_zeros))
            got = _outcome(lambda: nx.average_clustering(G, nodes, count_zeros=count_zeros, backend="graphmine"))
            assert got[0] == expect[0]
            _same(got[1], expect[1])
    _same(nx.transitivity(G, backend="graphmine"), nx.transitivity(G))


@given(labelled_graphs(), st.data())
def test_triangles_listing_and_core_number_equal_networkx(G, data):
    def tri_sets(gen):
        out = [frozenset(t) for t in gen]
        assert len(out) == len(set(out))  # each triangle once
        return set(out)

    assert tri_sets(nx.all_triangles(G, backend="graphmine")) == tri_sets(nx.all_triangles(G))
    sub = data.draw(st.lists(st.sampled_from(list(G)), max_size=4))
    got = list(nx.all_triangles(G, sub, backend="graphmine"))
    assert tri_sets(got) == tri_sets(nx.all_triangles(G, sub))
    order = {v: i for i, v in enumerate(dict.fromkeys(sub))}
    for t in got:  # networkx's tuples start at their nbunch member that comes first in nbunch
        assert t[0] == min((v for v in t if v in order), key=order.get)
    if nx.number_of_selfloops(G):
        with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
            nx.core_number(G, backend="graphmine")
    else:
        _same(nx.core_number(G, backend="graphmine"), nx.core_number(G))


@given(labelled_graphs(), st.data())
def test_link_prediction_equals_networkx(G, data):
    nodes = list(G)
    ebunch = data.draw(st.lists(st.tuples(st.sampled_from(nodes), st.sampled_from(nodes)), max_size=12))
    for name in LINKS:
        f = getattr(nx, name)
        for bunch in (None, ebunch):
            expect = _outcome(lambda: list(f(G, bunch)))
            got = _outcome(lambda: list(f(G, bunch, backend="graphmine")))
            assert got[0] == expect[0], (name, got, expect)
            if got[0] == "error":
                assert got[1] is expect[1]
                continue
            got, expect = got[1], expect[1]
            if bunch is None:  # networkx walks a set: compare as unordered pairs
                key = lambda t: frozenset(t[:2])  # noqa: E731
                got, expect = dict(zip(map(key, got), got)), dict(zip(map(key, expect), expect))
                assert got.keys() == expect.keys()
                got, expect = [got[k][2] for k in expect], [expect[k][2] for k in expect]
            else:
                assert [t[:2] for t in got] == ebunch
                got, expect = [t[2] for t in got], [t[2] for t in expect]
            for a, b in zip(got, expect):
                _same(a, b, tol=1e-12)


def test_link_prediction_errors_as_networkx():
    G = nx.path_graph(["a", "b", "c"])
    with pytest.raises(nx.NodeNotFound, match="Node z not in G"):
        nx.jaccard_coefficient(G, [("a", "b"), ("a", "z")], backend="graphmine")
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.jaccard_coefficient(nx.DiGraph(G), backend="graphmine")
    # a node with itself: its degree-1 neighbour makes networkx divide by log(1)
    with pytest.raises(ZeroDivisionError):
        list(nx.adamic_adar_index(G, [("b", "b")]))
    with pytest.raises(ZeroDivisionError):
        list(nx.adamic_adar_index(G, [("b", "b")], backend="graphmine"))


def test_hand_computed_values():
    # triangle 0-1-2 with a pendant 3 and a self-loop at 3
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 3)])
    assert nx.triangles(G, backend="graphmine") == {0: 1, 1: 1, 2: 1, 3: 0}
    assert nx.clustering(G, backend="graphmine") == {0: 1.0, 1: 1.0, 2: 1 / 3, 3: 0}
    assert nx.transitivity(G, backend="graphmine") == 3 / 5
    # Jaccard of 0 and 3: N(0) = {1, 2}, N(3) = {2, 3} (the self-loop), common {2}, union 3
    assert list(nx.jaccard_coefficient(G, [(0, 3)], backend="graphmine")) == [(0, 3, 1 / 3)]
    # preferential attachment counts the self-loop twice in deg(3) = 3
    assert list(nx.preferential_attachment(G, [(0, 3)], backend="graphmine")) == [(0, 3, 6)]
    C4 = nx.cycle_graph(4)
    assert nx.square_clustering(C4, backend="graphmine") == {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0}


# -- graphmine graphs as backend graphs, conversions --------------------------------------------

def test_graphmine_graph_is_a_backend_graph():
    H = gm.datasets.load("USAir")  # node_ids: the file's ids
    G = H.to_networkx(original_ids=True)
    assert H.__networkx_backend__ == "graphmine"
    # no backend= and no conversion: networkx's own code cannot read a gm.Graph
    _same(nx.triangles(H), nx.triangles(G))
    _same(nx.clustering(H), nx.clustering(G))
    _same(nx.average_clustering(H), nx.average_clustering(G))
    _same(nx.core_number(H), nx.core_number(G))
    v = int(H.node_ids[5])
    assert nx.triangles(H, v) == nx.triangles(G, v)
    assert nx.utils.graphs_equal(BackendInterface.convert_to_nx(H), G)


@given(labelled_graphs())
def test_conversion_round_trip(G):
    H = BackendInterface.convert_from_nx(G, preserve_graph_attrs=True)
    assert isinstance(H, NetworkXGraph) and H.n_nodes == len(G)
    assert H.n_edges == G.number_of_edges() - nx.number_of_selfloops(G)
    assert int(H.loops.sum()) == nx.number_of_selfloops(G) == H.input_stats["self_loops"]
    assert np.all(np.diff(H.indptr) == [len(set(G[v]) - {v}) for v in G])
    back = BackendInterface.convert_to_nx(H)
    assert list(back) == list(G)
    assert {frozenset(e) for e in back.edges} == {frozenset(e) for e in G.edges}
    assert back.graph == G.graph
    assert BackendInterface.convert_to_nx({"a": 1}) == {"a": 1}  # results pass through


@pytest.mark.slow
def test_serial_and_parallel_kernels_agree():
    G = gm.generators.kronecker_graph(12, 16, seed=3).to_networkx()
    H = from_networkx(G, threads=1)
    adj = G._adj
    rawptr = np.concatenate(([0], np.cumsum([len(a) for a in adj.values()]))).astype(np.int64)
    raw = np.fromiter((x for a in adj.values() for x in a), np.int64)
    rng = np.random.default_rng(0)
    for u in range(len(G)):  # rows in random order: both sorts (short rows, long rows) run
        rng.shuffle(raw[rawptr[u]:rawptr[u + 1]])
    assert np.diff(rawptr).max() > 32
    for rows in (lambda out: _k._rows_serial(rawptr, raw, H.indptr, out),
                 lambda out: _k._rows_parallel(rawptr, raw, H.indptr, out, 2)):
        out = np.empty_like(H.indices)
        rows(out)
        assert np.array_equal(out, H.indices)
    assert H == gm.as_graph(G)  # the core's own (per-edge) networkx reader
    # common neighbours of random pairs (hubs with leaves included) against set intersections
    rng = np.random.default_rng(1)
    us, vs = rng.integers(0, len(G), 3000), rng.integers(0, len(G), 3000)
    weight = rng.random(len(G))
    nodes = list(G)
    common = [set(G[nodes[u]]) & set(G[nodes[v]]) for u, v in zip(us, vs)]
    for cn, wsum in (_pk._pairs_serial(H.indptr, H.indices, us, vs, weight, True),
                     _pk._pairs_parallel(H.indptr, H.indices, us, vs, weight, True, 2)):
        assert cn.tolist() == [len(c) for c in common]
        assert np.allclose(wsum, [weight[sorted(c)].sum() for c in common], rtol=1e-12, atol=0)
    # triangles per vertex (the core's kernels, which the backend calls) against networkx's own
    O = H.oriented("degree", relabel=True)
    tri = list(nx.triangles(G, backend="networkx").values())
    assert _ck._triangles_per_vertex_serial(O.indptr, O.indices)[O.rank].tolist() == tri
    assert _ck._triangles_per_vertex(O.indptr, O.indices, 2, np.zeros(1, np.int64))[O.rank].tolist() == tri
    sq = _cyk._squares_serial(H.indptr, H.indices)
    par = _cyk._squares_parallel(H.indptr, H.indices, 2)
    assert np.array_equal(sq[0], par[0]) and np.array_equal(sq[1], par[1])


def test_integer_nodes_any_order_map_to_their_vertices():
    G = nx.Graph()
    G.add_nodes_from([10**15, -4, 7, 3])
    G.add_edges_from([(7, -4), (3, 10**15), (3, 7), (-4, 3)])
    H = from_networkx(G)
    assert H.node_ids.dtype.kind == "i" and H.node_ids.tolist() == list(G)
    assert nx.utils.edges_equal(to_networkx(H).edges, G.edges)


def test_from_networkx_refuses_directed_and_multigraphs():
    for G in (nx.DiGraph([(0, 1)]), nx.MultiGraph([(0, 1)])):
        with pytest.raises(NotImplementedError, match="undirected simple"):
            from_networkx(G)


# -- dispatch decisions and configuration -----------------------------------------------------

def test_can_run_declines_with_reasons():
    can = BackendInterface.can_run
    assert can("triangles", (nx.path_graph(3),), {}) is True
    assert "undirected" in can("clustering", (nx.DiGraph([(0, 1)]),), {})
    assert "multigraph" in can("clustering", (nx.MultiGraph([(0, 1)]),), {})
    assert "unweighted" in can("clustering", (nx.path_graph(3),), {"weight": "w"})
    assert "unweighted" in can("average_clustering", (nx.path_graph(3), None, "w"), {})
    with pytest.raises(NotImplementedError):
        nx.clustering(nx.path_graph(3), weight="weight", backend="graphmine")
    with pytest.raises(NotImplementedError):
        nx.clustering(nx.DiGraph([(0, 1)]), backend="graphmine")


def test_none_only_arguments_declined_and_refused_alike():
    # one table (NONE_ONLY) serves can_run and the functions: each argument it lists, given by
    # keyword or at its position in networkx's signature, is declined with the reason, and the
    # function itself raises NotImplementedError with the same reason
    import inspect

    import graphmine.nx_backend as algorithms
    from graphmine.nx_backend.convert import NONE_ONLY

    G = nx.path_graph(4)
    for name, (arguments, reason) in NONE_ONLY.items():
        nx_function = getattr(nx, name, None) or getattr(nx.community, name)
        params = [a for a in inspect.signature(nx_function).parameters if a not in ("backend", "backend_kwargs")]
        signature = inspect.signature(getattr(algorithms, name))
        assert list(signature.parameters) == params
        required = {a: 3 for a, p in signature.parameters.items() if p.default is p.empty and a != "G"}  # k
        for argument, position in arguments.items():
            assert params[position] == argument
            assert BackendInterface.can_run(name, (G,), {argument: {0: 1}}) == reason
            positional = (G,) + (None,) * (position - 1) + ({0: 1},)
            assert BackendInterface.can_run(name, positional, {}) == reason
            with pytest.raises(NotImplementedError, match=reason.replace("(", r"\(").replace(")", r"\)")):
                result = getattr(algorithms, name)(G, **required, **{argument: {0: 1}})
                list(result) if inspect.isgenerator(result) else result


def test_backend_functions_have_networkx_names_and_signatures():
    # the link scores are made by one function from their data: each still has networkx's name,
    # parameters and defaults (networkx's own function is the oracle), its own qualified name in
    # this module (doctest, pickle and the dispatch look it up by them) and its own docstring
    import inspect
    import pickle

    import graphmine.nx_backend as algorithms
    from graphmine.core.generated import NETWORKX as FUNCTIONS

    def parameters(function):
        return [(p.name, p.default) for p in inspect.signature(function).parameters.values()
                if p.name not in ("backend", "backend_kwargs")]

    for name in FUNCTIONS:
        ours = getattr(algorithms, name)
        home = "graphmine.nx_backend" if FUNCTIONS[name]["returns_graph"] else FUNCTIONS[name]["module"]
        assert (ours.__name__, ours.__qualname__, ours.__module__) == (name, name, home)
        assert parameters(ours) == parameters(getattr(nx, name, None) or getattr(nx.community, name)), name
        assert pickle.loads(pickle.dumps(ours)) is ours
        assert ">>> " in ours.__doc__
    for name in LINKS:
        doc = getattr(algorithms, name).__doc__
        assert f"``networkx.{name}``" in doc and f"{name}(nx." in doc


def test_should_run_declines_small_work_unless_converted():
    should = BackendInterface.should_run
    small, big = nx.path_graph(10), nx.gnm_random_graph(300, 1500, seed=1)
    assert "fewer than" in should("triangles", (small,), {})
    assert should("triangles", (big,), {}) is True
    assert "one node" in should("triangles", (big, 0), {})
    assert "few pairs" in should("jaccard_coefficient", (big, [(0, 1)]), {})
    nx.triangles(big, backend="graphmine")  # converts and caches
    assert should("jaccard_coefficient", (big, [(0, 1)]), {}) is True
    assert should("triangles", (gm.as_graph(small),), {}) is True


def test_should_run_declines_where_numpy_would_be_imported(monkeypatch):
    from graphmine.nx_backend import interface

    should = BackendInterface.should_run
    G = nx.gnm_random_graph(500, 2000, seed=1)
    assert should("triangles", (G,), {}) is True
    monkeypatch.delitem(sys.modules, "numpy")  # a process that has not imported numpy yet
    assert "numpy is not imported" in should("triangles", (G,), {})
    monkeypatch.setattr(interface, "NUMPY_START_EDGES", 2000)
    assert should("triangles", (G,), {}) is True


def test_automatic_dispatch_by_priority_uses_the_cache():
    G = nx.gnm_random_graph(400, 2000, seed=2)
    expect = nx.triangles(G)
    with nx.config(backend_priority=["graphmine"]):
        assert nx.triangles(G) == expect
        cached = G.__networkx_cache__["backends"]["graphmine"]
        H = next(iter(cached.values()))
        assert isinstance(H, NetworkXGraph)
        assert nx.clustering(G) == nx.clustering(G, backend="networkx")
        assert next(iter(G.__networkx_cache__["backends"]["graphmine"].values())) is H


def test_sketch_methods_through_config_return_plain_numbers():
    G = gm.datasets.load("ca-GrQc").to_networkx(original_ids=True)
    exact = {f: getattr(nx, f)(G, backend="graphmine")
             for f in ("triangles", "clustering", "average_clustering", "transitivity")}
    cfg = nx.config.backends.graphmine
    assert cfg.method == "exact"
    with cfg(method="bloom", budget=1.0, seed=7):
        approx = {f: getattr(nx, f)(G, backend="graphmine") for f in exact}
        again = nx.transitivity(G, backend="graphmine")
    assert cfg.method == "exact"
    assert list(approx["triangles"]) == list(G)
    assert all(type(x) is int for x in approx["triangles"].values())
    assert all(type(x) is float for x in approx["clustering"].values())
    assert type(approx["average_clustering"]) is float and type(approx["transitivity"]) is float
    assert again == approx["transitivity"]  # same seed, same answer
    # the largest budget (sketches as large as the CSR); over seeds 7..11 the errors measured
    # at most 1.7% (triangles), 1.7% (transitivity) and 3.3% (average clustering)
    tri = sum(approx["triangles"].values()) / sum(exact["triangles"].values())
    assert abs(tri - 1) < 0.03
    assert abs(approx["transitivity"] / exact["transitivity"] - 1) < 0.03
    assert abs(approx["average_clustering"] / exact["average_clustering"] - 1) < 0.05
    with pytest.raises(ValueError, match="method must be one of"):
        cfg.method = "fast"
    with pytest.raises(ValueError, match="budget"):
        cfg.budget = -1
    with pytest.raises(ValueError, match="budget"):
        cfg.budget = 5


# -- packaging ---------------------------------------------------------------------------------

def test_entry_points_installed():
    assert _installed() == ENTRY_POINTS, (
        "graphmine's networkx entry points are not installed in this environment: "
        "run `pip install -e .` (entry points are written at install time)")


def test_backend_info_imports_nothing_heavy():
    code = ("import sys, networkx as nx; from _graphmine_nx import get_info; "
            "info = get_info(); "
            "heavy = sorted(m for m in ('numba', 'graphmine') if m in sys.modules); "
            "print(heavy, info['default_config'].method)")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout.split()
    assert out == ["[]", "exact"]


# -- the first call of a fresh process -----------------------------------------------------------

FRESH = r"""
import json, sys
import networkx as nx
from networkx.utils import backends
from importlib.metadata import EntryPoint
if "graphmine" not in backends.backends:  # an install that predates the entry points
    from _graphmine_nx import get_info
    backends.backends["graphmine"] = EntryPoint(
        "graphmine", "graphmine.nx_backend.interface:BackendInterface", "networkx.backends")
    backends.backend_info["graphmine"] = get_info()
    nx.config.backends = nx.utils.Config(graphmine=get_info()["default_config"], **nx.config.backends)
    backends._dispatchable.__call__ = backends._dispatchable._call_if_any_backends_installed
nx.config.warnings_to_ignore.add("cache")
G = nx.relabel_nodes(nx.powerlaw_cluster_graph(400, 5, 0.5, seed=1), lambda v: 3 * v + 1000)
G.add_edge(1000, 1000)
out = {f: getattr(nx, f)(G, backend="graphmine") == getattr(nx, f)(G, backend="networkx")
       for f in ("triangles", "clustering", "average_clustering", "transitivity")}
out["numba"] = "numba" in sys.modules
out["kernels"] = sorted(m for m in sys.modules if m.startswith("graphmine.") and m.endswith("_kernels"))
print(json.dumps(out))
"""


def test_first_call_in_a_fresh_process_imports_no_numba():
    # the triangle family on a moderate graph runs on numpy: neither numba nor a kernel module
    # is imported, and the results are networkx's (integer ids not 0..n-1, a self-loop)
    env = dict(os.environ, PYTHONPATH=os.path.abspath(ROOT))
    r = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out == {"triangles": True, "clustering": True, "average_clustering": True,
                   "transitivity": True, "numba": False, "kernels": []}


def test_numpy_path_and_kernel_path_agree(monkeypatch):
    # numba is loaded in this process: the backend's triangles go through the kernels; the numpy
    # count of the triangle family (forced: numba taken for not imported) gives the same dict,
    # while its total work stays within what a kernel's first call costs
    from graphmine._primitives import small_work as sw
    from graphmine.cliques import _cpu as cliques
    import graphmine.nx_backend as algorithms

    G = nx.powerlaw_cluster_graph(300, 6, 0.5, seed=4)
    H = from_networkx(G)
    assert cliques._cold_small_work(H, None) is None  # numba imported: kernels decide
    kernel = algorithms.triangles(H)
    assert kernel == nx.triangles(G)
    monkeypatch.setattr(cliques, "_numba_loaded", lambda: False)  # as in a process without numba
    monkeypatch.setattr(cliques, "_COLD_SPENT", [0])
    assert cliques._cold_small_work(H, 1) is None  # a thread count asked for: the kernels
    O = cliques._cold_small_work(H, None)
    work = sw.triangle_work(O.indptr, O.indices)
    assert work > 0 and cliques._COLD_SPENT == [work]
    numpy_counts = sw.triangles_per_vertex(O.indptr, O.indices)[O.rank]
    assert dict(zip(G, numpy_counts.tolist())) == kernel
    assert cliques._cold_small_work(H, None) is not None and cliques._COLD_SPENT == [2 * work]
    monkeypatch.setattr(cliques, "_COLD_SPENT", [sw.SMALL_WORK_COLD - work + 1])
    assert cliques._cold_small_work(H, None) is None  # numpy's work would pass the kernel's cost


def test_table_and_sort_id_maps_agree():
    # ids a little larger than n (the table) and ids far apart or negative (the sort)
    for ids in ([5, 90, 7, 3, 40], [10**12, 4, 7, 3, 9], [-5, 0, 8, 3, 2]):
        G = nx.Graph()
        G.add_nodes_from(ids)
        G.add_edges_from([(ids[0], ids[1]), (ids[1], ids[2]), (ids[2], ids[0]), (ids[3], ids[4]),
                          (ids[4], ids[0]), (ids[3], ids[3])])
        H = from_networkx(G)
        assert H.node_ids.tolist() == ids
        assert nx.utils.edges_equal(to_networkx(H).edges, G.edges)
        assert nx.triangles(G, backend="graphmine") == nx.triangles(G)
