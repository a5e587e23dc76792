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
from conftest import edge_arrays

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
    (b"\x00\x01\x02\xff\xfe 1\n", 1, "integer vertex id"),
    (b"1 2 \x00\x00\x00\n", 1, "binary"),
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
    gm.write_edgelist(G, p, overwrite=True)
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
