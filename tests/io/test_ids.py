"""Ids as users have them: vertex names, networkx's files, headers, byte-order marks, binary
files, file objects, Matrix Market ids, directed inputs and the ids of every output."""

import bz2
import io
import json
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

import graphmine as gm
from graphmine._primitives import parse_kernels as pk
from graphmine.cli import build_parser, main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def per_vertex(G, values):
    return {v: int(c) for v, c in zip(G.node_ids.tolist(), values)}


# -- vertex names and networkx's edge lists ----------------------------------------------------

@pytest.mark.parametrize("data", [True, False])
def test_networkx_edgelist_round_trip(tmp_path, data):
    H = nx.les_miserables_graph()
    p = tmp_path / "lesmis.el"
    nx.write_edgelist(H, p, data=data)  # data=True writes "Napoleon Myriel {'weight': 1}"
    G = gm.read_graph(p, ids="str")
    assert G.n_nodes == H.number_of_nodes() and G.n_edges == H.number_of_edges()
    assert per_vertex(G, gm.triangles(G)) == nx.triangles(H)
    # vertices in the order networkx's own reader adds them
    assert G.node_ids.tolist() == list(nx.read_edgelist(p, data=data).nodes)
    assert G.node_ids.dtype == object and isinstance(G.node_ids[0], str)
    assert nx.utils.graphs_equal(G.to_networkx(), nx.Graph(H.edges()))


def test_networkx_edgelist_of_integer_nodes_reads_as_it_is(tmp_path):
    H = nx.karate_club_graph()  # its edges carry {'weight': ...}
    p = tmp_path / "karate.el"
    nx.write_edgelist(H, p)
    assert "{'weight'" in p.read_text().splitlines()[0]
    G = gm.read_graph(p)
    assert per_vertex(G, gm.triangles(G)) == {v: t for v, t in nx.triangles(H).items() if H.degree(v)}


def test_integer_mode_keeps_a_name_line_and_points_to_ids_str(tmp_path):
    p = tmp_path / "lesmis.el"
    nx.write_edgelist(nx.les_miserables_graph(), p)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the first line is not silently dropped as a header
        with pytest.raises(gm.GraphFormatError, match=r":1: expected an integer vertex id, found 'Napoleon'.*ids='str'"):
            gm.read_graph(p)


NAMES = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters=",#%"),
                min_size=1, max_size=6).filter(lambda s: s.split() == [s])


@given(st.lists(st.tuples(NAMES, NAMES), min_size=1, max_size=60), st.booleans())
def test_random_name_graphs_round_trip(tmp_path_factory, pairs, data):
    H = nx.Graph()
    H.add_edges_from(pairs)
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    H.remove_nodes_from([v for v in list(H) if H.degree(v) == 0])
    if H.number_of_edges() == 0:
        return
    p = tmp_path_factory.mktemp("names") / "g.el"
    nx.write_edgelist(H, p, data=data, encoding="utf-8")
    G = gm.read_graph(p, ids="str")
    assert sorted(G.node_ids.tolist()) == sorted(H.nodes)
    assert per_vertex(G, gm.triangles(G)) == nx.triangles(H)
    assert nx.utils.edges_equal(G.to_networkx().edges, H.edges)
    q = p.with_suffix(".out.gz")
    gm.write_edgelist(G, q)  # and graphmine's own writer, compressed
    B = gm.read_graph(q, ids="str")
    assert nx.utils.graphs_equal(B.to_networkx(), G.to_networkx())


def test_names_file_read_with_repeats_loops_and_separators(tmp_path):
    p = tmp_path / "g.csv"
    p.write_text("# comment\nb,a\na , c\r\nc\tb\t0.5\n\nb a\nd d\nx,y # trailing\n")
    G = gm.read_graph(p, ids="str")
    assert G.node_ids.tolist() == ["b", "a", "c", "d", "x", "y"]
    assert G.input_stats == {"input_edges": 6, "self_loops": 1, "duplicates": 1, "path": str(p)}
    assert per_vertex(G, gm.triangles(G)) == {"b": 1, "a": 1, "c": 1, "d": 0, "x": 0, "y": 0}
    assert gm.read_edges(p, ids="str").edges.tolist() == [
        ["b", "a"], ["a", "c"], ["c", "b"], ["b", "a"], ["d", "d"], ["x", "y"]]


def test_tab_separated_names_may_hold_spaces(tmp_path):
    p = tmp_path / "cities.tsv"
    p.write_text("# flights\nNew York\tBoston\t3\nBoston\tSan Francisco\nSan Francisco\tNew York\nParis\tLe Mans, FR\n")
    G = gm.read_graph(p, ids="str")
    H = nx.read_edgelist(p, delimiter="\t", data=False)
    assert G.node_ids.tolist() == list(H.nodes) == ["New York", "Boston", "San Francisco", "Paris", "Le Mans, FR"]
    assert per_vertex(G, gm.triangles(G)) == nx.triangles(H)
    # spaces around a tab-separated name are not part of it (networkx would keep them)
    p.write_text("New York \t Boston\nBoston\tSan Francisco \n  San Francisco\tNew York\n")
    assert gm.read_graph(p, ids="str").node_ids.tolist() == ["New York", "Boston", "San Francisco"]
    q = tmp_path / "bad.tsv"
    q.write_text("a\tb\nc d\n")  # tab-separated from its first line on
    with pytest.raises(gm.GraphFormatError, match=":2: expected two vertex names, found one column"):
        gm.read_graph(q, ids="str")


def test_names_first_line_is_data_and_header_true_skips_it(tmp_path):
    p = tmp_path / "g.el"
    p.write_text("source target\nsource x\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        G = gm.read_graph(p, ids="str")
    assert G.node_ids.tolist() == ["source", "target", "x"] and G.n_edges == 2
    assert gm.read_graph(p, ids="str", header=True).node_ids.tolist() == ["source", "x"]


@pytest.mark.parametrize("content, line, rule", [
    (b"a b\nc\n", 2, "two vertex names, found one column"),
    (b"a b\nc # d\n", 2, "one column"),
    (b"a b\n,c\n", 2, "empty field"),
    (b"a b\nc,,d\n", 2, "empty field"),
    (b"a b\nc d\x01\n", 2, "not a text edge list: control byte 0x01"),
    (b"a b\nc \xff\xfe\n", 2, "not UTF-8"),
    (b"# only\n\n", None, "no edge lines"),
])
def test_bad_name_files(tmp_path, content, line, rule):
    p = tmp_path / "bad.el"
    p.write_bytes(content)
    with pytest.raises(gm.GraphFormatError, match=rule) as info:
        gm.read_graph(p, ids="str")
    assert info.value.line == line and str(p) in str(info.value)
    assert "\\x" not in str(info.value)


def test_ids_parameter_checked(tmp_path):
    p = tmp_path / "g.el"
    p.write_text("a b\n")
    with pytest.raises(gm.ParameterError, match="ids must be"):
        gm.read_graph(p, ids="auto")
    with pytest.raises(gm.ParameterError, match="relabel=False"):
        gm.read_graph(p, ids="str", relabel=False)
    with pytest.raises(gm.ParameterError, match="weights"):
        gm.read_edges(p, ids="str", weights=True)


@pytest.mark.parametrize("threads", [1, 2])
def test_multichunk_names_match_a_reference(tmp_path, threads):
    rng = np.random.default_rng(5)
    words = np.array([f"n{i}é" if i % 7 == 0 else f"v{i:x}" for i in range(3000)], dtype=object)
    e = rng.integers(0, 3000, size=(120_000, 2))
    p = tmp_path / "big.el"
    p.write_text("".join(f"{a}\t{b}\n" for a, b in zip(words[e[:, 0]], words[e[:, 1]])), encoding="utf-8")
    assert p.stat().st_size > 1 << 20  # several chunks
    G = gm.read_graph(p, ids="str", threads=threads)
    order = list(dict.fromkeys(words[e.reshape(-1)].tolist()))  # first appearance
    assert G.node_ids.tolist() == order
    index = {w: i for i, w in enumerate(order)}
    ref = gm.from_edges([[index[words[a]], index[words[b]]] for a, b in e], n_nodes=len(order))
    assert G.indptr.tolist() == ref.indptr.tolist() and G.indices.tolist() == ref.indices.tolist()


def test_interning_is_exact_when_hashes_collide():
    # every hash equal: the byte comparison decides alone (names of up to 16 bytes are compared
    # in the table, longer ones against the file's bytes)
    long = b"0123456789abcdef"
    names = [b"ab", b"a", b"b", b"ab", b"ba", b"a", b"", b"ab", long + b"x", long, long + b"y", long + b"x",
             long + b"xy", long, long + b"y"]
    buf = np.frombuffer(b" ".join(names), np.uint8)
    starts = np.cumsum([0] + [len(x) + 1 for x in names[:-1]]).astype(np.int64)
    lens = np.array([len(x) for x in names], np.int32)
    for nparts in (1, 3):
        rep = pk._intern_tokens(buf, starts, lens, np.zeros(len(names), np.uint64), nparts)
        first = {}
        assert rep.tolist() == [first.setdefault(x, i) for i, x in enumerate(names)]


# -- headers ------------------------------------------------------------------------------------

def test_header_before_integer_data_is_skipped_and_said(tmp_path, capsys):
    p = tmp_path / "g.csv"
    p.write_text("# made by hand\nsource,target\n1,2\n2,3\n3,1\n")
    with pytest.warns(gm.SkippedLineWarning, match=r"g.csv:2: skipped the first line 'source,target' as a header"):
        G = gm.read_graph(p)
    assert G.n_edges == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gm.read_graph(p, header=True) == G  # asked for: nothing to say
    with pytest.raises(gm.GraphFormatError, match=":2: expected an integer vertex id"):
        gm.read_graph(p, header=False)
    code, out, err = run(capsys, "info", str(p), "--json")
    assert code == 0 and json.loads(out)["edges"] == 3
    assert err.splitlines() == [f"graphmine: warning: {p}:2: skipped the first line 'source,target' as a header "
                                "(column names before integer data)"]


def test_header_only_file_is_not_silently_empty(tmp_path):
    p = tmp_path / "g.csv"
    p.write_text("source,target\n")
    with pytest.raises(gm.GraphFormatError, match=":1: expected an integer vertex id, found 'source'"):
        gm.read_graph(p)


# -- byte-order marks, binary files, file objects ----------------------------------------------

def test_utf8_bom(tmp_path):
    p = tmp_path / "bom.el"
    p.write_bytes(b"\xef\xbb\xbf1 2\n2 3\n3 1\n")
    assert gm.count_triangles(gm.read_graph(p)) == 1
    q = tmp_path / "bomnames.el"
    q.write_bytes("\ufeffa b\nb c\nc a\n".encode("utf-8"))
    assert gm.read_graph(q, ids="str").node_ids.tolist() == ["a", "b", "c"]
    r = tmp_path / "bom.csv"
    r.write_bytes(b"\xef\xbb\xbfsource,target\n1,2\n")
    with pytest.warns(gm.SkippedLineWarning, match="'source,target'"):
        assert gm.read_graph(r).n_edges == 1
    u = tmp_path / "utf16.el"
    u.write_bytes("1 2\n".encode("utf-16"))
    with pytest.raises(gm.GraphFormatError, match="UTF-16"):
        gm.read_graph(u)


@pytest.mark.parametrize("ids", ["int", "str"])
def test_binary_file_message_has_no_raw_bytes(tmp_path, capsys, ids):
    p = tmp_path / "photo.el"
    p.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    with pytest.raises(gm.GraphFormatError) as info:
        gm.read_graph(p, ids=ids)
    msg = str(info.value)
    assert "not a text edge list" in msg
    assert "PNG" not in msg and "\\x" not in msg and all(ch.isprintable() for ch in msg)
    code, _, err = run(capsys, "info", str(p), "--ids", ids)
    assert code == 2 and err.count("\n") == 1 and "not a text edge list" in err


def test_file_objects(tmp_path):
    p = tmp_path / "g.el"
    p.write_text("1 2\n2 3\n3 1\n3 4\n")
    want = gm.read_graph(p)
    with open(p) as fh:
        assert gm.read_graph(fh) == want
    with open(p, "rb") as fh:
        assert gm.read_graph(fh) == want
    assert gm.read_graph(io.StringIO(p.read_text())) == want
    assert gm.read_graph(io.BytesIO(bz2.compress(p.read_bytes()))) == want
    assert gm.as_graph(io.StringIO("x y\ny z\n"), ids="str").node_ids.tolist() == ["x", "y", "z"]
    assert gm.read_edges(io.StringIO("5 6\n")).edges.tolist() == [[5, 6]]
    with pytest.raises(gm.GraphFormatError, match=r"<file object>:2: expected an integer"):
        gm.read_graph(io.StringIO("1 2\nx 3\n"))
    with open(p, "rb") as fh:
        with pytest.raises(gm.GraphFormatError, match=str(p)):
            gm.read_graph(fh, ids="str", header=True, format="mtx")


# -- Matrix Market -------------------------------------------------------------------------------

def test_matrix_market_ids_and_duplicates(tmp_path, capsys):
    H = nx.karate_club_graph()
    p = tmp_path / "k.mtx"
    scipy.io.mmwrite(p, sp.coo_matrix(nx.to_scipy_sparse_array(H)), symmetry="symmetric")
    G = gm.read_graph(p)
    assert G.node_ids.tolist() == list(range(1, 35))
    assert G.input_stats["duplicates"] == 0 and G.input_stats["input_edges"] == 78
    code, out, _ = run(capsys, "info", str(p), "--json")
    d = json.loads(out)
    assert code == 0 and d["duplicates"] == 0 and d["input_edges"] == 78 and (d["min_id"], d["max_id"]) == (1, 34)
    out_tsv = tmp_path / "t.tsv"
    code, _, _ = run(capsys, "triangles", str(p), "--out", str(out_tsv))
    rows = [line.split("\t") for line in out_tsv.read_text().splitlines()[1:]]
    ref = nx.triangles(H)
    assert {int(v): int(t) for v, t in rows} == {v + 1: ref[v] for v in H}  # the file's 1-based ids


def test_matrix_market_general_and_real_duplicates(tmp_path):
    p = tmp_path / "g.mtx"
    # a general file lists (1,2) and (2,1): read like an edge list, the reversed entry is a duplicate
    p.write_text("%%MatrixMarket matrix coordinate pattern general\n4 4 4\n1 2\n2 1\n2 3\n3 3\n")
    G = gm.read_graph(p)
    assert G.node_ids.tolist() == [1, 2, 3, 4] and G.n_edges == 2
    assert G.input_stats == {"input_edges": 4, "self_loops": 1, "duplicates": 1, "path": str(p)}
    q = tmp_path / "s.mtx"
    # a symmetric file that lists one entry twice (once per triangle): one real duplicate
    q.write_text("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n1 2\n3 2\n")
    assert gm.read_graph(q).input_stats["duplicates"] == 1
    r = tmp_path / "notmtx.txt"  # recognised by its first line whatever the name
    r.write_bytes(b"\xef\xbb\xbf" + q.read_bytes())
    assert gm.read_graph(r).node_ids.tolist() == [1, 2, 3]
    with open(q, "rb") as fh:
        assert gm.read_graph(fh) == gm.read_graph(q)
    w = tmp_path / "wide.mtx"
    w.write_text("%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 3\n")
    with pytest.raises(gm.GraphFormatError, match="square"):
        gm.read_graph(w)
    with pytest.raises(gm.ParameterError):
        gm.read_graph(q, ids="bad")


# -- directed graphs, multigraphs, asymmetric matrices -------------------------------------------

def test_directed_three_cycle_refused_unless_symmetrize():
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0)])
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.triangles(D)  # networkx refuses it too
    with pytest.raises(gm.GraphValueError, match="directed graph.*DiGraph.*symmetrize=True"):
        gm.as_graph(D)
    with pytest.raises(gm.GraphValueError, match="directed"):
        gm.count_triangles(D)
    G = gm.as_graph(D, symmetrize=True)
    assert gm.count_triangles(G) == 1 == sum(nx.triangles(D.to_undirected()).values()) // 3


def test_multigraphs_and_asymmetric_matrices():
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 0)])
    with pytest.raises(gm.GraphValueError, match="multigraph"):
        gm.as_graph(M)
    G = gm.as_graph(M, symmetrize=True)
    assert G.n_edges == 3 and G.input_stats["duplicates"] == 1
    with pytest.raises(gm.GraphValueError, match="directed multigraph"):
        gm.as_graph(nx.MultiDiGraph([(0, 1)]))
    A = sp.csr_array(np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]]))
    with pytest.raises(gm.GraphValueError, match=r"not symmetric: A\[0, 1\] is nonzero but A\[1, 0\]"):
        gm.as_graph(A)
    assert gm.count_triangles(gm.as_graph(A, symmetrize=True)) == 1
    S = A + A.T  # symmetric: every edge stored twice, which is not a duplicate
    assert gm.as_graph(S).input_stats == {"input_edges": 3, "self_loops": 0, "duplicates": 0}
    W = sp.csr_array(np.array([[0, 2.0], [5.0, 0]]))  # values differ, the pattern is symmetric
    assert gm.as_graph(W).n_edges == 1


def test_networkx_backend_keeps_networkx_rules():
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0)])
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.triangles(D, backend="graphmine")


# -- outputs keep the ids ----------------------------------------------------------------------

def test_to_networkx_keeps_ids(tmp_path):
    p = tmp_path / "g.el"
    p.write_text("10 30\n30 50\n50 10\n")
    G = gm.read_graph(p)
    assert sorted(G.to_networkx().nodes) == [10, 30, 50]
    assert sorted(G.to_networkx(original_ids=False).nodes) == [0, 1, 2]


def test_cli_outputs_keep_names(tmp_path, capsys):
    H = nx.les_miserables_graph()
    p = tmp_path / "lesmis.el"
    nx.write_edgelist(H, p)
    out = tmp_path / "t.tsv"
    code, _, err = run(capsys, "triangles", str(p), "--ids", "str", "--out", str(out))
    assert code == 0 and err == ""
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    assert {v: int(t) for v, t in rows} == nx.triangles(H)
    cl = tmp_path / "c.tsv"
    code, _, _ = run(capsys, "clustering", str(p), "--ids", "str", "--out", str(cl))
    rows = [line.split("\t") for line in cl.read_text().splitlines()[1:]]
    ref = nx.clustering(H)
    assert code == 0 and {v: float(c) for v, c in rows} == pytest.approx(ref)
    code, out_json, _ = run(capsys, "info", str(p), "--ids", "str", "--json")
    d = json.loads(out_json)
    assert d["id_type"] == "str" and d["nodes"] == 77 and (d["min_id"], d["max_id"]) == (min(H), max(H))
    code, _, err = run(capsys, "triangles", str(p))
    assert code == 2 and "--ids str" in err


def test_every_graph_reading_subcommand_has_ids():
    parser = build_parser()
    sub = next(a for a in parser._actions if hasattr(a, "choices") and isinstance(a.choices, dict))
    readers = [name for name, p in sub.choices.items()
               if any(a.dest == "file" for a in p._actions)]
    assert {"count-cliques", "triangles", "info", "clustering", "jarvis-patrick", "predict-motifs"} <= set(readers)
    for name in readers:
        ids = [a for a in sub.choices[name]._actions if "--ids" in a.option_strings]
        assert len(ids) == 1 and ids[0].choices == ["int", "str"] and ids[0].default == "int", name


NAMEY = st.lists(st.sampled_from(["a", "b", "é", "ab", " ", "\t", ",", "\n", "\r", "#", "%", "{}", "\x00", "\xff",
                                  "\ufeff", "\n1 2\n"]), max_size=60).map("".join)


@given(st.one_of(st.binary(max_size=300), NAMEY.map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_name_reader_never_raises_anything_else(tmp_path_factory, data):
    p = tmp_path_factory.mktemp("fuzz") / "g.el"
    p.write_bytes(data)
    try:
        G = gm.read_graph(p, ids="str")
    except gm.GraphFormatError as exc:
        assert str(p) in str(exc) and all(ch.isprintable() for ch in str(exc))
        return
    assert G.input_stats["input_edges"] <= data.count(b"\n") + 1
    assert all(isinstance(v, str) and v for v in G.node_ids)
