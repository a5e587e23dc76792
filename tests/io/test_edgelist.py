"""Readers: formats, compression, merging statistics, and clear errors on every bad input."""

import bz2
import gzip
import lzma
import os

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

import graphmine as gm
from tests.helpers import edge_arrays

EDGES = np.array([[1, 2], [2, 3], [3, 1], [3, 4], [4, 4], [2, 1]])


def reference(edges):
    H = nx.Graph()
    H.add_edges_from(map(tuple, edges.tolist()))
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return H


def same_graph(G, edges):
    H = reference(edges)
    ids = G.node_ids
    got = {tuple(sorted((int(ids[a]), int(ids[b])))) for a, b in G.edges()}
    want = {tuple(sorted(e)) for e in H.edges()}
    return got == want and G.n_nodes == len(np.unique(edges))


@pytest.mark.parametrize("sep", ["\t", " ", ",", " , ", "   \t "])
@pytest.mark.parametrize("comment", ["#", "%"])
def test_separators_and_comments(tmp_path, sep, comment):
    lines = [f"{comment} a header line", ""] + [f"{a}{sep}{b}" for a, b in EDGES] + [f"  {comment} trailing"]
    p = tmp_path / "g.txt"
    p.write_text("\n".join(lines) + "\n")
    G = gm.read_graph(p)
    assert same_graph(G, EDGES)
    assert G.input_stats["self_loops"] == 1 and G.input_stats["duplicates"] == 1


def test_extra_columns_ignored_or_kept(tmp_path):
    p = tmp_path / "w.txt"
    p.write_text("1 2 0.5 x\n2 3 2e-1\n3 1\n")
    G = gm.read_graph(p)
    assert G.n_edges == 3
    el = gm.read_edges(p, weights=True)
    assert el.edges.tolist() == [[1, 2], [2, 3], [3, 1]]
    assert el.weights.tolist() == pytest.approx([0.5, 0.2, 1.0])


@given(st.lists(st.floats(-1e200, 1e200, allow_nan=False, allow_subnormal=False), min_size=1, max_size=20),
       st.sampled_from(["{!r}", "{:e}", "{:+.6E}", "{:+f}", "{:.3f}"]))
def test_weights_parse_as_python_floats(tmp_path_factory, weights, form):
    """Signs, fractions and signed exponents of the weight column, against float() of the text."""
    texts = [form.format(w) for w in weights]
    p = tmp_path_factory.mktemp("w") / "w.txt"
    p.write_text("".join(f"{i} {i + 1} {t}\n" for i, t in enumerate(texts)))
    el = gm.read_edges(p, weights=True)
    assert el.weights.tolist() == pytest.approx([float(t) for t in texts], rel=1e-12, abs=1e-300)


def test_weights_whose_scale_passes_ten_to_the_308(tmp_path):
    """A mantissa of many digits with an exponent near -300 (17 digits and e-296 scale by 1e-312,
    past float's range) and subnormal weights parse as float() does, not as 0."""
    texts = ["1.1610036221807364e-296", "1e-320", "2.5e-310", "-7.25e-305", "123456789012345678e-330",
             "1e-400", "9.99e307", "1e309", "-1e309"]
    p = tmp_path / "w.txt"
    p.write_text("".join(f"{i} {i + 1} {t}\n" for i, t in enumerate(texts)))
    got = gm.read_edges(p, weights=True).weights.tolist()
    assert got == pytest.approx([float(t) for t in texts], rel=1e-12, abs=1e-330)
    assert got[0] != 0.0 and got[1] != 0.0


def test_zero_and_one_based_give_same_graph(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("0 1\n1 2\n2 0\n")
    b.write_text("1 2\n2 3\n3 1\n")
    Ga, Gb = gm.read_graph(a), gm.read_graph(b)
    assert Ga.indices.tolist() == Gb.indices.tolist()
    assert Gb.node_ids.tolist() == [1, 2, 3]
    assert gm.read_graph(b, relabel=False).n_nodes == 4


@pytest.mark.parametrize("suffix, opener", [(".gz", gzip.open), (".bz2", bz2.open), (".xz", lzma.open)])
def test_compressed(tmp_path, suffix, opener):
    p = tmp_path / ("g.txt" + suffix)
    with opener(p, "wt") as fh:
        fh.write("# c\n" + "\n".join(f"{a}\t{b}" for a, b in EDGES) + "\n")
    assert same_graph(gm.read_graph(p), EDGES)


def test_matrix_market(tmp_path):
    H = nx.karate_club_graph()
    p = tmp_path / "k.mtx"
    scipy.io.mmwrite(p, sp.coo_matrix(nx.to_scipy_sparse_array(H)), symmetry="symmetric")
    G = gm.read_graph(p)
    assert G.n_edges == H.number_of_edges()
    assert gm.count_triangles(G) == 45


def test_no_trailing_newline_and_crlf(tmp_path):
    p = tmp_path / "g.txt"
    p.write_bytes(b"1 2\r\n2 3\r\n3 1")
    assert gm.read_graph(p).n_edges == 3


def test_large_ids(tmp_path):
    big = 2**62 + 7
    p = tmp_path / "g.txt"
    p.write_text(f"{big} 5\n5 9223372036854775807\n")
    G = gm.read_graph(p)
    assert G.node_ids.tolist() == [5, big, 2**63 - 1]
    assert G.n_edges == 2


@pytest.mark.parametrize("content, line, rule", [
    (b"", None, "empty"),
    (b"# only a comment\n\n", None, "no edge lines"),
    (b"1 2\n3\n", 2, "one column"),
    (b"1 2\n3 \t\n4 5\n", 2, "one column"),
    (b"1 2\n2 x\n", 2, "integer vertex id"),
    (b"1 2\n2 3.5\n", 2, "integer vertex id"),
    (b"1 2\n\n-3 4\n", 3, "non-negative"),
    (b"1 2\n9223372036854775808 1\n", 2, "int64"),
    (b"1 2\n2 3\n99999999999999999999999 1\n", 3, "int64"),
    (b"\x00\x01\x02\xff\xfe 1\n", 1, "not a text edge list"),
    (b"1 2 \x00\x00\x00\n", 1, "not a text edge list"),
    (b"1 2\n\x01\x02\xff\xfe 1\n", 2, "not a text edge list"),
    (b"1 2\nfoo bar\n", 2, "integer vertex id"),
])
def test_bad_files_name_path_and_line(tmp_path, content, line, rule):
    p = tmp_path / "bad.txt"
    p.write_bytes(content)
    with pytest.raises(gm.GraphFormatError, match=rule) as info:
        gm.read_graph(p)
    assert info.value.line == line
    assert str(p) in str(info.value)
    if line is not None:
        assert f"{p}:{line}:" in str(info.value)


def test_missing_directory_and_bad_compression(tmp_path):
    with pytest.raises(gm.GraphFormatError, match="no such file"):
        gm.read_graph(tmp_path / "nope.txt")
    with pytest.raises(gm.GraphFormatError, match="directory"):
        gm.read_graph(tmp_path)
    p = tmp_path / "g.txt.gz"
    p.write_bytes(b"not gzip at all")
    with pytest.raises(gm.GraphFormatError, match="decompress"):
        gm.read_graph(p)
    q = tmp_path / "g.mtx"
    q.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n")
    with pytest.raises(gm.GraphFormatError, match="Matrix Market"):
        gm.read_graph(q)


@given(st.binary(max_size=300))
def test_reader_never_raises_anything_else_on_bytes(tmp_path_factory, data):
    p = tmp_path_factory.mktemp("fuzz") / "g.txt"
    p.write_bytes(data)
    try:
        G = gm.read_graph(p)
    except gm.GraphFormatError:
        return
    assert G.n_edges <= data.count(b"\n") + 1


TEXTY = st.lists(st.sampled_from(list("0123456789 \t,\n#%-+.eE\rx") + ["99999999999999999999", "\n1 2\n"]),
                 max_size=80).map("".join)


@given(TEXTY)
def test_reader_never_raises_anything_else_on_text(tmp_path_factory, text):
    p = tmp_path_factory.mktemp("fuzz") / "g.txt"
    p.write_text(text)
    try:
        gm.read_graph(p)
    except gm.GraphFormatError as exc:
        assert str(p) in str(exc)


@given(edge_arrays(max_nodes=40), st.sampled_from(["\t", " ", ","]))
def test_written_edge_lists_read_back(tmp_path_factory, data, sep):
    n, edges = data
    if len(edges) == 0:
        return
    p = tmp_path_factory.mktemp("rt") / "g.txt"
    p.write_text("".join(f"{a}{sep}{b}\n" for a, b in edges))
    G = gm.read_graph(p)
    assert same_graph(G, edges)
    if G.n_edges:
        q = p.with_suffix(".out.gz")
        gm.write_edgelist(G, q)
        assert gm.read_graph(q) == gm.from_edges(G.node_ids[G.edges()], relabel=True)


def test_write_refuses_to_overwrite(tmp_path):
    G = gm.as_graph(nx.path_graph(3))
    p = tmp_path / "g.txt"
    p.write_text("keep me\n")
    with pytest.raises(FileExistsError):
        gm.write_edgelist(G, p)
    assert p.read_text() == "keep me\n"
    gm.write_edgelist(G, p, force=True)
    assert gm.read_graph(p).n_edges == 2


def test_multichunk_parse_matches_single_chunk(tmp_path):
    # > 1 MiB so the parallel reader splits the text into chunks; comments inside chunks
    rng = np.random.default_rng(5)
    e = rng.integers(0, 5000, size=(120_000, 2))
    lines = [f"{a}\t{b}" for a, b in e]
    for i in range(0, len(lines), 997):
        lines[i] = "# comment " + lines[i]
    p = tmp_path / "big.txt"
    p.write_text("\n".join(lines) + "\n")
    kept = np.array([i % 997 != 0 for i in range(len(lines))])
    el = gm.read_edges(p)
    assert os.path.getsize(p) > (1 << 20)
    assert np.array_equal(el.edges, e[kept])


# --- the parallel reader and CSR build: every path against a slow, independent reference ---

def csr_reference(src, dst, n):
    """Symmetric CSR (sorted rows, no loops or duplicates) by Python sets."""
    rows = [set() for _ in range(n)]
    for a, b in zip(src.tolist(), dst.tolist()):
        if a != b:
            rows[a].add(b)
            rows[b].add(a)
    indptr = np.zeros(n + 1, np.int64)
    indptr[1:] = np.cumsum([len(r) for r in rows])
    indices = np.array([v for r in rows for v in sorted(r)], np.int64)
    return indptr, indices


def hub_edges(seed, n=20_000, m=40_000):
    """Skewed edges (hubs, one star larger than the merge scratch) plus both directions of each,
    sorted by source like a symmetrised file: rows of a few ascending runs, long and short."""
    rng = np.random.default_rng(seed)
    u = np.concatenate([(rng.pareto(1.2, m) * 30).astype(np.int64) % n, np.full(n, 17)])
    v = np.concatenate([rng.integers(0, n, m), np.arange(n)])
    e = np.concatenate([np.column_stack((u, v)), np.column_stack((v, u))])
    return e[np.lexsort((e[:, 1], e[:, 0]))]


@pytest.mark.slow
@pytest.mark.parametrize("order", ["sorted", "shuffled"])
def test_csr_build_matches_reference(order):
    from graphmine._primitives import csr_kernels as ck

    e = hub_edges(1)
    if order == "shuffled":
        e = e[np.random.default_rng(2).permutation(len(e))]
    n = int(e.max()) + 1
    want_ptr, want_ind = csr_reference(e[:, 0], e[:, 1], n)
    assert np.diff(want_ptr).max() > ck._MERGE_MAX  # a row too long for the merge scratch
    for dtype in (np.int32, np.int64):
        src, dst = e[:, 0].astype(dtype), e[:, 1].astype(dtype)
        for t in (1, 2, 3):
            indptr, indices, loops = ck._csr_from_pairs(src, dst, n, t)
            assert np.array_equal(indptr, want_ptr) and np.array_equal(indices, want_ind)
            assert indices.dtype == dtype and loops == int(np.sum(e[:, 0] == e[:, 1]))


@given(edge_arrays(max_nodes=300, max_edges=400), st.integers(1, 4))
def test_csr_build_any_edges_any_threads(data, threads):
    from graphmine._primitives import csr_kernels as ck

    n, edges = data
    indptr, indices, loops = ck._csr_from_pairs(edges[:, 0].copy(), edges[:, 1].copy(), n, threads)
    want_ptr, want_ind = csr_reference(edges[:, 0], edges[:, 1], n)
    assert np.array_equal(indptr, want_ptr) and np.array_equal(indices, want_ind)
    assert loops == int(np.sum(edges[:, 0] == edges[:, 1]))


@pytest.mark.parametrize("threads", [1, 2])
def test_renumbering_matches_unique(threads):
    from graphmine._primitives import csr_kernels as ck

    rng = np.random.default_rng(3)
    e = rng.integers(0, 50_000, size=(20_001, 2)) * 3 + 7
    size = int(e.max()) + 1
    node_ids, inverse = np.unique(e, return_inverse=True)
    src, dst = np.empty(len(e), np.int32), np.empty(len(e), np.int32)
    assert np.array_equal(ck._compact_pairs(e, size, src, dst, threads), node_ids)
    assert np.array_equal(np.column_stack((src, dst)), inverse.reshape(e.shape))
    out = np.empty(e.size, np.int64)
    assert np.array_equal(ck._compact_dense(e.reshape(-1), size, out, threads), node_ids)
    assert np.array_equal(out, inverse.reshape(-1))


def write_lines(p, lines):
    p.write_text("\n".join(lines) + "\n")
    return p


@pytest.mark.parametrize("threads", [1, 2])
def test_parallel_read_path_and_graph(tmp_path, monkeypatch, threads):
    # a small read threshold sends a small file through the parallel reads and many chunks
    from graphmine.io import edgelist as gio

    monkeypatch.setattr(gio, "_PARALLEL_READ_BYTES", 1)
    e = np.concatenate([hub_edges(4)] * 3)
    body = [f"{a}\t{b}" for a, b in e]
    body[5000] = "% a comment inside the data"
    keep = np.ones(len(e), bool)
    keep[5000] = False
    p = write_lines(tmp_path / "g.txt", ["# SNAP-style comment", "  ", "source\ttarget"] + body)
    assert os.path.getsize(p) > (1 << 20)  # split into 8 * threads chunks
    with pytest.warns(gm.SkippedLineWarning, match=r"g.txt:3: skipped the first line 'source\\ttarget'"):
        el = gm.read_edges(p, threads=threads)
    assert np.array_equal(el.edges, e[keep])
    G = gm.read_graph(p, threads=threads, header=True)
    e = e[keep]
    ids = np.unique(e)
    ptr, ind = csr_reference(np.searchsorted(ids, e[:, 0]), np.searchsorted(ids, e[:, 1]), len(ids))
    assert np.array_equal(G.node_ids, ids)
    assert np.array_equal(G.indptr, ptr) and np.array_equal(G.indices, ind)
    assert G.input_stats["input_edges"] == len(e)
    assert G.input_stats["duplicates"] == len(e) - G.input_stats["self_loops"] - G.n_edges
    # ids too sparse for the renumbering table, and relabel=False, give the same graph
    q = write_lines(tmp_path / "sparse.txt", [f"{a * 10**12}\t{b * 10**12}" for a, b in e])
    Gs = gm.read_graph(q, threads=threads)
    assert np.array_equal(Gs.node_ids, ids * 10**12) and np.array_equal(Gs.indices, G.indices)
    G0 = gm.read_graph(p, relabel=False, threads=threads, header=True)
    assert G0.n_nodes == ids[-1] + 1
    assert np.array_equal(G0.indices[G0.indptr[ids[0]]:G0.indptr[ids[0] + 1]], ids[ind[:ptr[1]]])


@pytest.mark.parametrize("threads", [1, 2])
def test_first_error_and_its_line_across_chunks(tmp_path, threads):
    lines = [f"{i}\t{i + 1}" for i in range(150_000)]
    lines[90_000] = "# a comment"
    lines[100_000] = "7 x"          # line 100_002 with the header below
    lines[140_000] = "-1 2"
    p = write_lines(tmp_path / "bad.txt", ["from to"] + lines)
    assert os.path.getsize(p) > (1 << 20)
    with pytest.raises(gm.GraphFormatError, match="integer vertex id, found 'x'") as info:
        gm.read_edges(p, threads=threads, header=True)
    assert info.value.line == 100_002
    lines[100_000] = "7 8"
    write_lines(p, ["from to"] + lines)
    with pytest.raises(gm.GraphFormatError, match="non-negative, found '-1'") as info:
        gm.read_graph(p, threads=threads, header=True)
    assert info.value.line == 140_002


@pytest.mark.parametrize("threads", [1, 2])
def test_weights_across_chunks(tmp_path, threads):
    rng = np.random.default_rng(6)
    e = rng.integers(0, 1000, size=(70_000, 2))
    w = np.round(rng.random(70_000) * 100, 3)
    lines = [f"{a} {b} {x} extra" if i % 3 else f"{a},{b}" for i, ((a, b), x) in enumerate(zip(e, w))]
    p = write_lines(tmp_path / "w.txt", lines)
    assert os.path.getsize(p) > (1 << 20)
    el = gm.read_edges(p, weights=True, threads=threads)
    assert np.array_equal(el.edges, e)
    assert el.weights == pytest.approx(np.where(np.arange(70_000) % 3 > 0, w, 1.0))
