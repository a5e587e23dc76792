"""The small-work path (graphmine/_primitives/small_work.py) against the kernel path and networkx: the same
graph (numbering, rows, statistics), the same counts, the same error messages."""

import io as _io
import warnings

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import graphmine as gm
from graphmine._primitives import small_work as sw
from graphmine.core.exceptions import GraphFormatError
from graphmine.core.graph import compact_ids


def _read(text, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gm.read_graph(_io.BytesIO(text.encode()), **kw)


def _both(monkeypatch, text, **kw):
    small = _read(text, **kw)
    with monkeypatch.context() as m:
        for name in ("SMALL_BYTES", "SMALL_EDGES", "SMALL_WORK", "SMALL_WORK_CACHED", "SMALL_WORK_COLD",
                     "SMALL_WORK_COMPILE"):
            m.setattr(sw, name, -1)
        kernel = _read(text, **kw)
    return small, kernel


def _same_graph(a, b):
    assert a.indptr.dtype == b.indptr.dtype and a.indices.dtype == b.indices.dtype
    assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
    assert (a.node_ids is None) == (b.node_ids is None)
    if a.node_ids is not None:
        assert np.array_equal(a.node_ids, b.node_ids)
    assert {k: v for k, v in a.input_stats.items() if k != "path"} == \
        {k: v for k, v in b.input_stats.items() if k != "path"}


edge_lists = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=120)
sparse_ids = st.lists(st.tuples(st.integers(0, 10**17), st.integers(0, 10**17)), min_size=1, max_size=30)
layouts = st.fixed_dictionaries({
    "sep": st.sampled_from([" ", "\t", "  ", " \t"]),
    "end": st.sampled_from(["\n", "\r\n"]),
    "trail": st.sampled_from(["", " ", "\t"]),
    "comments": st.booleans(),
    "blank": st.booleans(),
    "final_newline": st.booleans(),
})


def _text(edges, lay):
    lines = []
    if lay["comments"]:
        lines.append("# a comment, with commas, 1 2 3 and a sign -1")
        lines.append("% another")
    for i, (u, v) in enumerate(edges):
        lines.append(f"{u}{lay['sep']}{v}{lay['trail']}")
        if lay["blank"] and i % 7 == 3:
            lines.append("")
        if lay["comments"] and i % 11 == 5:
            lines.append("#mid")
    text = lay["end"].join(lines)
    return text + lay["end"] if lay["final_newline"] else text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edges=st.one_of(edge_lists, sparse_ids), lay=layouts)
def test_read_graph_same_as_kernels(monkeypatch, edges, lay):
    text = _text(edges, lay)
    small, kernel = _both(monkeypatch, text)
    _same_graph(small, kernel)
    # the clean parser accepted it and read the ids as written
    parsed = sw.parse_clean_ints(np.frombuffer(text.encode(), np.uint8))
    assert parsed is not None and parsed.tolist() == [list(e) for e in edges]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edges=edge_lists)
def test_unrelabelled_graph_same_as_kernels(monkeypatch, edges):
    # relabel=False: ids never used are isolated vertices
    small, kernel = _both(monkeypatch, _text(edges, {"sep": " ", "end": "\n", "trail": "", "comments": False,
                                                    "blank": False, "final_newline": True}), relabel=False)
    _same_graph(small, kernel)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edges=edge_lists)
def test_counts_match_networkx(monkeypatch, edges):
    H = nx.Graph()
    H.add_edges_from((u, v) for u, v in edges if u != v)
    G = gm.from_edges(np.array(edges), relabel=True)
    tri = sum(nx.triangles(H).values()) // 3
    assert gm.count_triangles(G) == tri
    assert gm.count_cliques(G, 3) == tri
    nodes = sorted(H.nodes)
    per = nx.triangles(H)
    got = gm.triangles(G)
    assert got.tolist() == [per.get(int(x), 0) for x in G.node_ids]
    for k in (4, 5):
        want = sum(1 for c in nx.enumerate_all_cliques(H) if len(c) == k)
        assert gm.count_cliques(G, k) == want
        assert gm.count_cliques(G, k, order="degeneracy") == want
    with monkeypatch.context() as m:
        for name in ("SMALL_EDGES", "SMALL_WORK", "SMALL_WORK_CACHED", "SMALL_WORK_COLD", "SMALL_WORK_COMPILE"):
            m.setattr(sw, name, -1)
        K = gm.from_edges(np.array(edges), relabel=True)
        assert gm.count_cliques(K, 4) == gm.count_cliques(G, 4)
    assert len(nodes) <= G.n_nodes


def test_clique_count_gives_up_over_budget():
    G = gm.from_edges(np.array([(u, v) for u in range(12) for v in range(u)]))  # K12
    O = G.oriented("degree", relabel=True)
    assert sw.clique_count(O.indptr, O.indices, 4, 1 << 20) == 495  # C(12, 4)
    assert sw.clique_count(O.indptr, O.indices, 4, 10) is None


@pytest.mark.parametrize("text", [
    "src dst\n1 2\n",          # a header: the kernel parser skips it with a warning
    "1,2\n2,3\n",              # commas
    "1 -2\n",                  # a sign
    "+1 2\n",
    "1 2\n3\n",                # one column
    "1 2#c\n",                 # a comment glued to an id
    "1234567890123456789 1\n",  # 19 digits
    "# only comments\n",
    "1 2\n\x01\n",
    "1 2 x\x01\n",             # a control byte in an ignored column
])
def test_unclean_text_goes_to_the_kernels(text):
    assert sw.parse_clean_ints(np.frombuffer(text.encode(), np.uint8)) is None


@pytest.mark.parametrize("text, edges", [
    ("1 2 0.5\n2 3\n", [[1, 2], [2, 3]]),            # a third column (weights)
    (" 1 2\n", [[1, 2]]),                            # a leading blank
    ("1 2\n \n2 3\n", [[1, 2], [2, 3]]),              # a line of blanks
    ("1 2\r3 4\n", [[1, 2]]),                         # a carriage return inside a line: a blank
    ("1 2 3 4\n", [[1, 2]]),
    ("  # c\n1 2 {}\n3 1 {'weight': 2}\n", [[1, 2], [3, 1]]),  # networkx.write_edgelist's data
    ("\t% c \x01\n5\t6 # note\n", [[5, 6]]),          # control bytes in a comment line
])
def test_blanks_and_extra_columns_stay_on_numpy(monkeypatch, text, edges):
    assert sw.parse_clean_ints(np.frombuffer(text.encode(), np.uint8)).tolist() == edges
    small, kernel = _both(monkeypatch, text)  # the kernel parser reads the same edges
    _same_graph(small, kernel)


names = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Z"), blacklist_characters=",#%"),
                min_size=1, max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edges=st.lists(st.tuples(names, names), min_size=1, max_size=60),
       sep=st.sampled_from([" ", "  "]), end=st.sampled_from(["\n", "\r\n"]),
       extra=st.sampled_from(["", " {}", " 1.5"]),
       comments=st.booleans())
def test_names_same_as_kernels_and_networkx(monkeypatch, edges, sep, end, extra, comments):
    lines = (["# u v"] if comments else []) + [f"{u}{sep}{v}{extra}" for u, v in edges]
    text = end.join(lines) + end
    assert sw.parse_clean_names(np.frombuffer(text.encode(), np.uint8)) is not None
    small, kernel = _both(monkeypatch, text, ids="str")
    _same_graph(small, kernel)
    # networkx's reader adds the vertices in the same order (its lines split at whitespace)
    H = nx.parse_edgelist([ln.split(None, 2)[0] + " " + ln.split(None, 2)[1] for ln in lines if ln[0] != "#"])
    assert list(small.node_ids) == list(H.nodes)
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    assert sorted(map(sorted, small.to_networkx().edges)) == sorted(map(sorted, H.edges))


@pytest.mark.parametrize("text", ["a\tb\n", "a,b\n", "a b\nc\n", "a #b\n", "a b\x01\n", "# only\n", ""])
def test_names_left_to_the_kernels(text):
    assert sw.parse_clean_names(np.frombuffer(text.encode(), np.uint8)) is None


def test_les_miserables_names_on_numpy(tmp_path, monkeypatch):
    path = tmp_path / "lm.el"
    nx.write_edgelist(nx.les_miserables_graph(), path, data=False)
    text = path.read_text()
    small, kernel = _both(monkeypatch, text, ids="str")
    _same_graph(small, kernel)
    H = nx.read_edgelist(path)
    assert list(small.node_ids) == list(H.nodes)
    assert gm.count_triangles(small) == sum(nx.triangles(H).values()) // 3


@pytest.mark.parametrize("text", ["1 2\n3\n", "1 2\n2 x\n", "1 2\n2 -3\n", "# c\n\n", "1 2\n99999999999999999999 1\n",
                                  "1 2\n2 3\x01\n"])
def test_error_messages_unchanged(monkeypatch, text):
    with pytest.raises(GraphFormatError) as small:
        _read(text)
    with monkeypatch.context() as m:
        m.setattr(sw, "SMALL_BYTES", -1)
        with pytest.raises(GraphFormatError) as kernel:
            _read(text)
    assert str(small.value) == str(kernel.value)


def test_header_still_skipped_with_a_warning():
    with pytest.warns(gm.SkippedLineWarning):
        G = gm.read_graph(_io.BytesIO(b"source target\n1 2\n2 3\n"))
    assert G.n_edges == 2


def test_compact_ids_same_as_kernel(monkeypatch):
    rng = np.random.default_rng(5)
    ids = rng.integers(0, 1000, 3000)
    new, node_ids = compact_ids(ids)
    monkeypatch.setattr(sw, "SMALL_EDGES", -1)
    knew, knode_ids = compact_ids(ids)
    assert new.dtype == knew.dtype and np.array_equal(new, knew) and np.array_equal(node_ids, knode_ids)
    assert np.array_equal(node_ids[new], ids)


def test_small_command_sets_no_kernel_up():
    # README's main command on a small graph: read, built and counted on numpy, so numba's
    # compiler is never set up (its registries, numba.np.arraymath, stay unloaded) and scipy.linalg
    # and cffi stay unimported
    import subprocess
    import sys

    script = ("import sys\n"
              "from graphmine.cli import main\n"
              "status = main(['count-cliques', 'ca-GrQc', '-k', '4', '--json'], program=True)\n"
              "print(status, sorted(m for m in ('numba.np.arraymath', 'scipy.linalg', 'cffi') if m in sys.modules))\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 0, r.stderr
    assert '"count": 329297' in lines[0] and lines[-1] == "0 []"


# -- per-vertex triangles: the hubs' bit rows and the other rows' pairs --------------------------

def _split_counts(O, lo):
    """triangles_per_vertex with the dense block forced to start at row lo (rank order)."""
    n = O.indptr.shape[0] - 1
    out = np.zeros(n, np.int64)
    row = np.repeat(np.arange(n, dtype=np.int64), np.diff(O.indptr))
    if lo < n:
        sw._dense_triangles(O.indptr, O.indices, row, lo, out)
    sw._wedge_triangles(O.indptr, O.indices, row, int(O.indptr[lo]), out)
    return out


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 150), density=st.floats(0.0, 0.6), seed=st.integers(0, 2**31), data=st.data())
def test_triangles_per_vertex_every_split_equals_networkx(n, density, seed, data):
    H = nx.gnp_random_graph(n, density, seed=seed)
    G = gm.as_graph(H)
    O = G.oriented("degree", relabel=True)
    want = [nx.triangles(H)[v] for v in range(n)]
    assert sw.triangles_per_vertex(O.indptr, O.indices)[O.rank].tolist() == want
    # every split point: all sparse (lo = n), all dense (0), block rows over one 64-bit word
    for lo in sorted({n, 0, max(n - 65, 0), data.draw(st.integers(0, n))}):
        assert _split_counts(O, lo)[O.rank].tolist() == want, lo


def test_triangles_per_vertex_binary_search_when_the_bitmap_is_too_large(monkeypatch):
    H = nx.powerlaw_cluster_graph(300, 4, 0.6, seed=3)
    O = gm.as_graph(H).oriented("degree", relabel=True)
    want = [nx.triangles(H)[v] for v in range(300)]
    monkeypatch.setattr(sw, "_BITMAP_BITS", 1000)  # no arc bitmap and no dense block
    assert sw._dense_split(O.indptr)[0] == 300
    assert sw.triangles_per_vertex(O.indptr, O.indices)[O.rank].tolist() == want
    monkeypatch.setattr(sw, "_BLOCK", 7)  # many blocks of candidates
    assert sw.triangles_per_vertex(O.indptr, O.indices)[O.rank].tolist() == want


def test_triangles_per_vertex_closed_forms():
    # K_n: C(n-1, 2) through every vertex; the dense block covers it all; a star has none
    for n in (1, 2, 3, 70, 130):
        O = gm.as_graph(nx.complete_graph(n)).oriented("degree", relabel=True)
        assert sw.triangles_per_vertex(O.indptr, O.indices).tolist() == [(n - 1) * (n - 2) // 2] * n
        assert sw._dense_split(O.indptr)[0] < n or n < 64
    O = gm.as_graph(nx.star_graph(50)).oriented("degree", relabel=True)
    assert not sw.triangles_per_vertex(O.indptr, O.indices).any()


def test_popcount_with_and_without_bitwise_count(monkeypatch):
    words = np.random.default_rng(5).integers(0, 2**63, size=(20, 3), dtype=np.int64).view(np.uint64)
    want = [sum(bin(int(w)).count("1") for w in r) for r in words]
    assert sw._popcount_rows(words).tolist() == want
    monkeypatch.delattr(np, "bitwise_count", raising=False)  # numpy < 2.0: a table of bytes
    assert sw._popcount_rows(words).tolist() == want


class _Kernel:
    def __init__(self, loaded):
        self.overloads = {"sig": None} if loaded else {}


def test_medium_graphs_built_on_numpy_until_the_kernel_is_there():
    m = sw.SMALL_EDGES + 1
    assert sw.numpy_build(sw.SMALL_EDGES, _Kernel(True))
    assert sw.numpy_build(m, _Kernel(False))  # no overloads, no cache entry (a plain object)
    assert not sw.numpy_build(m, _Kernel(True))  # loaded: the parallel build
    assert not sw.numpy_build(sw.MEDIUM_EDGES + 1, _Kernel(False))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edges=edge_lists)
def test_medium_numpy_build_same_as_kernel(monkeypatch, edges):
    from graphmine.core.graph import build_csr

    e = np.array(edges, np.int64)
    n = int(e.max()) + 1
    with monkeypatch.context() as m:
        m.setattr(sw, "SMALL_EDGES", 0)  # every graph 'medium': numpy while the kernel is not loaded
        m.setattr(sw, "numpy_build", lambda m_, kernel: True)
        small = build_csr(e[:, 0], e[:, 1], n)
        m.setattr(sw, "numpy_build", lambda m_, kernel: False)
        kernel = build_csr(e[:, 0], e[:, 1], n)
    for a, b in zip(small[:2], kernel[:2]):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert small[2] == kernel[2]
    H = nx.Graph([(u, v) for u, v in edges if u != v])
    assert small[1].shape[0] == 2 * H.number_of_edges()


@given(st.lists(st.integers(-2**40, 2**40), max_size=300))
def test_unique_ints_equals_numpy_unique(values):
    a = np.array(values, dtype=np.int64)
    assert sw.unique_ints(a).tolist() == np.unique(a).tolist()
    assert sw.unique_ints(a.reshape(-1, 1)).tolist() == np.unique(a).tolist()  # flattened, as np.unique does


@given(st.lists(st.integers(-5, 2**62), max_size=300))
def test_sort_queries_is_a_stable_argsort(values):
    q = np.array(values, dtype=np.int64)
    qs, order = sw.sort_queries(q)
    expect = np.argsort(q, kind="stable")
    assert order.tolist() == expect.tolist()  # ties keep their order: packed keys or argsort alike
    assert qs.tolist() == q[expect].tolist()
