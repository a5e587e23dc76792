"""The CSR core: contract, converters, orientations, the one validator."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

import graphmine as gm
from graphmine.core.graph import _check_csr
from tests.helpers import edge_arrays, nx_graph


def test_hand_computed_small_graph():
    G = gm.from_edges([[0, 1], [1, 0], [1, 2], [2, 2], [3, 1], [1, 3]])
    assert G.n_nodes == 4 and G.n_edges == 3
    assert G.indptr.tolist() == [0, 1, 4, 5, 6]
    assert G.indices.tolist() == [1, 0, 2, 3, 1, 1]
    assert G.indptr.dtype == np.int64 and G.indices.dtype == np.int32
    assert G.input_stats == {"input_edges": 6, "self_loops": 1, "duplicates": 2}
    assert G.degree.tolist() == [1, 3, 1, 1]
    assert G.edges().tolist() == [[0, 1], [1, 2], [1, 3]]


def test_arrays_are_read_only():
    G = gm.as_graph(nx.path_graph(4))
    with pytest.raises(ValueError):
        G.indices[0] = 3
    with pytest.raises(ValueError):
        G.indptr[0] = 1


@given(edge_arrays())
def test_csr_contract_matches_networkx(data):
    n, edges = data
    G = gm.from_edges(edges, n_nodes=n)
    _check_csr(G.indptr, G.indices)
    H = nx_graph(n, edges)
    A = nx.to_scipy_sparse_array(H, nodelist=range(n), format="csr")
    A.sort_indices()
    assert G.indptr.tolist() == A.indptr.tolist()
    assert G.indices.tolist() == A.indices.tolist()
    loops = int((edges[:, 0] == edges[:, 1]).sum()) if edges.size else 0
    assert G.input_stats["self_loops"] == loops
    assert G.input_stats["duplicates"] == len(edges) - loops - H.number_of_edges()


@given(edge_arrays())
def test_input_forms_agree(data):
    n, edges = data
    G = gm.from_edges(edges, n_nodes=n)
    H = nx_graph(n, edges)
    assert gm.as_graph(H) == G
    A = sp.coo_array((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n)) if len(edges) else sp.coo_array((n, n))
    assert gm.as_graph(A, symmetrize=True).indices.tolist() == G.indices.tolist()
    assert gm.as_graph(G.to_scipy()) == G
    assert nx.utils.graphs_equal(G.to_networkx(), H)
    assert nx.utils.graphs_equal(G.to_networkx(original_ids=False), H)


def test_file_and_relabel_agree(tmp_path):
    edges = np.array([[10, 30], [30, 50], [50, 10], [50, 70]])
    p = tmp_path / "g.el"
    p.write_text("\n".join(f"{a} {b}" for a, b in edges) + "\n")
    G_file = gm.read_graph(p)
    G_arr = gm.from_edges(edges, relabel=True)
    assert G_file == G_arr
    assert G_file.node_ids.tolist() == [10, 30, 50, 70]
    assert gm.as_graph(str(p)) == G_file
    H = G_file.to_networkx(original_ids=True)
    assert sorted(H.edges()) == [(10, 30), (10, 50), (30, 50), (50, 70)]


def test_networkx_labels_kept():
    H = nx.Graph([("a", "b"), ("b", "c")])
    G = gm.as_graph(H)
    assert list(G.node_ids) == ["a", "b", "c"]
    assert G.n_edges == 2
    D = nx.DiGraph([(0, 1), (1, 0), (1, 2)])
    with pytest.raises(gm.GraphValueError, match="directed graph.*symmetrize=True"):
        gm.as_graph(D)
    assert gm.as_graph(D, symmetrize=True).n_edges == 2


@given(edge_arrays(dense=True), st.sampled_from(["degree", "degeneracy", "approx-degeneracy"]), st.booleans())
def test_orientation_is_acyclic_and_complete(data, order, relabel):
    n, edges = data
    G = gm.from_edges(edges, n_nodes=n)
    O = G.oriented(order, relabel=relabel)
    assert O.indices.shape[0] == G.n_edges
    src = np.repeat(np.arange(n), np.diff(O.indptr))
    if relabel:
        assert np.all(src < O.indices)
        inv = np.argsort(O.rank)
        back = {tuple(sorted((int(inv[a]), int(inv[b])))) for a, b in zip(src, O.indices)}
    else:
        assert np.all(O.rank[src] < O.rank[O.indices])
        back = {tuple(sorted((int(a), int(b)))) for a, b in zip(src, O.indices)}
    assert back == {tuple(e) for e in G.edges().tolist()}
    for r in range(n):
        row = O.indices[O.indptr[r]:O.indptr[r + 1]]
        assert np.all(np.diff(row) > 0)
    if order == "degeneracy":
        core = G.core_number()
        assert O.max_out_degree <= (core.max() if n else 0)


@given(edge_arrays(dense=True), st.sampled_from([1, 2]))
def test_approximate_degeneracy_order_rounds(data, nthreads):
    """The approximate order against a slow reference of its rounds (every vertex whose degree in
    the remaining graph is at most 1.1 times the remaining average leaves together), its ranks
    (round, then id), and its out-degree bound: 2.2 times networkx's largest core number."""
    from graphmine._primitives import order_kernels as ok

    n, edges = data
    G = gm.from_edges(edges, n_nodes=n)
    H = nx_graph(n, edges)
    level, left, r = {}, set(range(n)), 0
    while left:
        deg = {v: sum(1 for w in H[v] if w in left) for v in left}
        bound = 1.1 * sum(deg.values()) / len(left)
        out = {v for v in left if deg[v] <= bound}
        level.update(dict.fromkeys(out, r))
        left -= out
        r += 1
    rank, rounds = ok._approx_degeneracy_rank(G.indptr, G.indices, 0.1, nthreads)
    assert rounds == r
    assert rank.tolist() == np.argsort(np.argsort([level[v] * n + v for v in range(n)], kind="stable")).tolist()
    O = G.oriented("approx-degeneracy", relabel=True, threads=nthreads)
    assert np.array_equal(O.rank, rank)
    core = max(nx.core_number(H).values(), default=0)
    assert O.max_out_degree <= 2.2 * core


@given(edge_arrays())
def test_core_number_matches_networkx(data):
    n, edges = data
    G = gm.from_edges(edges, n_nodes=n)
    ref = nx.core_number(nx_graph(n, edges))
    assert G.core_number().tolist() == [ref[v] for v in range(n)]


def test_int64_indices_accepted():
    G = gm.as_graph(nx.karate_club_graph())
    G64 = gm.Graph(G.indptr, G.indices, index_dtype=np.int64)
    assert G64.indices.dtype == np.int64
    assert G64.indices.tolist() == G.indices.tolist()


def test_subgraph():
    G = gm.as_graph(nx.complete_graph(6))
    S = G.subgraph([1, 3, 5])
    assert S.n_nodes == 3 and S.n_edges == 3
    assert S.node_ids.tolist() == [1, 3, 5]
    assert G.subgraph([]).n_nodes == 0
    with pytest.raises(gm.GraphValueError, match="0..n-1"):
        G.subgraph([0, 6])


@given(edge_arrays(), st.data())
def test_subgraph_equals_networkx(data, draw):
    """The induced subgraph of any vertex list (repeats and any order), against networkx's, and
    a valid CSR (the graph's checker)."""
    n, edges = data
    G = gm.from_edges(edges, n_nodes=n)
    vs = draw.draw(st.lists(st.integers(0, n - 1), max_size=n + 3))
    S = G.subgraph(vs)
    keep = sorted(set(vs))
    assert S.node_ids.tolist() == keep
    got = {frozenset((int(S.node_ids[a]), int(S.node_ids[b]))) for a, b in S.edges()}
    assert got == set(map(frozenset, nx_graph(n, edges).subgraph(keep).edges))
    _check_csr(S.indptr, S.indices)


@pytest.mark.parametrize("bad, rule", [
    (np.array([[0, 1, 2]]), "shape"),
    (np.array([[0, -1]]), "non-negative"),
    (np.array([[0.5, 1.0]]), "integers"),
    (np.array([[0, np.nan]]), "integers"),
    (np.array([["a", "b"]]), "integers"),
    (sp.coo_array((3, 4)), "square"),
])
def test_validator_rejects_bad_input(bad, rule):
    with pytest.raises(gm.GraphValueError, match=rule):
        gm.as_graph(bad)


def test_one_reader_of_vertex_pairs():
    # the edges of from_edges and the pairs of the scores and similarities are read by vertex_pairs
    from graphmine.core.graph import vertex_pairs
    from graphmine.link_prediction._cpu import common_neighbor_centrality
    from graphmine.motifs import link_scores
    from graphmine.probgraph import similarity

    got = vertex_pairs(np.array([[3.0, 1.0], [0.0, 2.0]]), 4, name="pairs")
    assert got.dtype == np.int64 and got.flags.c_contiguous and got.tolist() == [[3, 1], [0, 2]]
    assert vertex_pairs([]).shape == (0, 2)
    G = nx.path_graph(4)
    for score in (lambda p: link_scores(G, p), lambda p: similarity(G, pairs=p),
                  lambda p: common_neighbor_centrality(G, p)):
        with pytest.raises(gm.GraphValueError, match=r"pairs: row 1 \(2, 4\) names a vertex outside 0..3"):
            score([[0, 1], [2, 4]])
        with pytest.raises(gm.GraphValueError, match=r"pairs must have shape \(m, 2\), got \(3,\)"):
            score([0, 1, 2])
        with pytest.raises(gm.GraphValueError, match="pairs: vertex ids must be integers"):
            score([[0, 1.5]])
    # the same pairs in any accepted form give the same scores
    assert np.array_equal(link_scores(G, [[0, 2], [1, 3]], method="jaccard"),
                          link_scores(G, np.array([[0.0, 2.0], [1.0, 3.0]]), method="jaccard"))
    assert link_scores(G, [[0, 2]], method="jaccard").tolist() == [nx.jaccard_coefficient(G, [(0, 2)]).__next__()[2]]


def test_constructor_checks_contract():
    with pytest.raises(gm.GraphValueError, match="strictly increasing"):
        gm.Graph([0, 2, 3, 4], [2, 1, 0, 0])
    with pytest.raises(gm.GraphValueError, match="self-loops"):
        gm.Graph([0, 1], [0])
    with pytest.raises(gm.GraphValueError, match="symmetric"):
        gm.Graph([0, 1, 1], [1])
    with pytest.raises(gm.GraphValueError, match="n_nodes"):
        gm.from_edges([[0, 5]], n_nodes=3)


def test_errors_are_value_errors():
    assert issubclass(gm.GraphFormatError, ValueError)
    assert issubclass(gm.GraphFormatError, gm.GraphmineError)
    assert issubclass(gm.ParameterError, ValueError)


@pytest.mark.parametrize("nthreads", [1, 3, 4])
def test_parallel_relabelled_orientation_equals_serial_scatter(nthreads):
    # the row-gathering kernel (4+ threads on big graphs) against the order-preserving serial
    # scatter, on a skewed graph whose long rows take the sort path and short ones the insertion
    from graphmine._primitives import csr_kernels as k
    from graphmine.io.generators import kronecker_edges

    G = gm.from_edges(kronecker_edges(12, 16, seed=3))
    rank = G._rank("degree")
    ptr, ind = k._orient_relabel(G.indptr, G.indices, rank, nthreads)
    sptr, sind = k._orient_relabel_serial(G.indptr, G.indices, rank)
    assert (np.diff(sptr) > 24).any() and ((np.diff(sptr) > 1) & (np.diff(sptr) <= 24)).any()
    assert np.array_equal(ptr, sptr) and np.array_equal(ind, sind) and ind.dtype == sind.dtype


def test_from_csr_takes_the_arrays_as_they_are():
    # no copy and no check, only frozen; the checking constructor copies and has no bypass
    H = gm.as_graph(nx.karate_club_graph())
    indptr, indices = H.indptr.copy(), H.indices.copy()
    G = gm.Graph.from_csr(indptr, indices, input_stats={"input_edges": 78})
    assert np.shares_memory(G.indptr, indptr) and np.shares_memory(G.indices, indices)
    assert not indptr.flags.writeable and not indices.flags.writeable
    assert G.n_edges == 78 and G.input_stats == {"input_edges": 78}
    assert np.array_equal(G.node_ids, np.arange(34))
    assert gm.count_triangles(G) == sum(nx.triangles(nx.karate_club_graph()).values()) // 3
    # int64 indices of a small graph become int32, as the constructor makes them
    assert gm.Graph.from_csr(H.indptr, H.indices.astype(np.int64)).indices.dtype == np.int32
    C = gm.Graph(H.indptr, H.indices)
    assert not np.shares_memory(C.indices, H.indices)
    with pytest.raises(TypeError):
        gm.Graph(H.indptr, H.indices, _trusted=True)


# -- the results cache (Graph.cached_result) -------------------------------------------------------

def test_cached_result_computes_once_and_freezes_arrays():
    G = gm.as_graph(nx.karate_club_graph())
    calls = []

    def compute():
        calls.append(1)
        return G.degree * 2

    first = G.cached_result("double", compute)
    again = G.cached_result("double", compute)
    assert calls == [1] and again is first and np.array_equal(first, 2 * G.degree)
    with pytest.raises(ValueError):
        first[0] = 7  # read-only: nobody can change what later calls get
    assert G.cached_result("absent", None) is None and "absent" not in G.cached_result_keys()
    assert G.cached_result("number", lambda: 3) == 3 and G.cached_result("number", None) == 3
    assert G.result_cache_nbytes == first.nbytes + gm.core.graph.RESULT_CACHE_VALUE_BYTES
    G.drop_cached_results()
    assert G.cached_result_keys() == [] and G.result_cache_nbytes == 0
    G.cached_result("double", compute)
    assert calls == [1, 1]


def test_cached_result_stays_within_its_bound():
    """The cache never holds more than max(nbytes, RESULT_CACHE_MIN_BYTES); past it the least
    recently used values go, and a value larger than the bound alone is returned, not kept."""
    from graphmine.core.graph import RESULT_CACHE_MIN_BYTES

    G = gm.generators.kronecker_graph(12, 8, seed=1)
    limit = G.result_cache_limit
    assert limit == max(G.nbytes, RESULT_CACHE_MIN_BYTES) and limit == G.nbytes
    n = G.n_nodes
    for i in range(40):  # far more per-vertex arrays than fit
        G.cached_result(f"a{i}", lambda: np.zeros(n))
        if i == 1:
            G.cached_result("a0", None)  # used: a0 is now the most recent, a1 the oldest
        assert G.result_cache_nbytes <= limit
    keys = G.cached_result_keys()
    assert keys[-1] == "a39" and "a1" not in keys and len(keys) == limit // (8 * n)
    big = G.cached_result("big", lambda: np.zeros(limit // 8 + 1))
    assert big.shape == (limit // 8 + 1,) and "big" not in G.cached_result_keys()
    assert G.cached_result_keys() == keys  # nothing evicted for a value that is not kept
    small = gm.as_graph([(0, 1)])
    assert small.result_cache_limit == RESULT_CACHE_MIN_BYTES


def test_pickle_and_copies_leave_the_results_cache_behind():
    import copy
    import pickle

    G = gm.as_graph(nx.karate_club_graph())
    tri = gm.triangles(G)
    G.oriented("degree", relabel=True)
    assert "triangles" in G.cached_result_keys()
    for H in (pickle.loads(pickle.dumps(G)), copy.deepcopy(G), copy.copy(G)):
        assert H == G and H.cached_result_keys() == []
        assert np.array_equal(gm.triangles(H), tri)  # counted again, the same
        assert H.cached_result_keys() == ["triangles"]
    assert G.cached_result_keys() == ["triangles"]
    # a graph pickled before the cache existed (no _results in its state) loads with an empty one
    state = G.__getstate__()
    del state["_results"]
    old = gm.Graph.__new__(gm.Graph)
    old.__setstate__(state)
    assert old.cached_result_keys() == [] and np.array_equal(gm.triangles(old), tri)


def test_small_orientations_use_numpy_within_the_kernels_price(monkeypatch):
    """Rank-space orientations of small graphs: numpy while numba is not imported or while numpy's
    work in this process stays within what loading the kernel costs, then the kernel; both build
    the same arrays."""
    from graphmine.core import graph as core
    from graphmine._primitives import csr_kernels, small_work

    H = nx.gnm_random_graph(300, 2000, seed=5)
    G = gm.as_graph(H)
    want = G.oriented("degree", relabel=True)
    ran = []
    serial = csr_kernels._orient_relabel_serial
    monkeypatch.setattr(csr_kernels, "_orient_relabel_serial",
                        type("K", (), {"overloads": {}, "__call__": lambda self, *a: ran.append(1) or serial(*a)})())
    monkeypatch.setattr(core, "_ORIENT_NUMPY_SPENT", [0])
    monkeypatch.setattr(small_work, "work_budget", lambda kernel: 3 * 2 * G.n_edges)
    for i in range(5):  # three fit the budget, then the kernel
        O = gm.Graph.from_csr(G.indptr, G.indices).oriented("degree", relabel=True)
        assert np.array_equal(O.indptr, want.indptr) and np.array_equal(O.indices, want.indices)
        assert len(ran) == max(0, i - 2)
