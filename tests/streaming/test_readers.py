"""Stream readers: every layout in stream order, cleaning counted, malformed lines named."""

import gzip
import io
import sys

import numpy as np
import pytest

from graphmine import GraphFormatError, ParameterError
from graphmine.streaming import EdgeStream, iter_signed_chunks, parse_signed, read_stream, with_deletions


def write(tmp_path, name, text, compress=False):
    p = tmp_path / name
    data = text.encode()
    p.write_bytes(gzip.compress(data) if compress else data)
    return str(p)


def rows(s):
    return s.events().tolist()


def test_edge_list_in_file_order(tmp_path):
    p = write(tmp_path, "g.txt", "# a SNAP list\n5 9\n9 5\n7 7\n9 3 0.5\n3 5\n", compress=True)
    s = read_stream(p)
    assert rows(s) == [[1, 5, 9], [1, 9, 3], [1, 3, 5]]
    assert s.dropped == {"self_loops": 1, "repeated_insertions": 1, "absent_deletions": 0}
    raw = read_stream(p, clean=False)
    assert len(raw) == 5 and raw.dropped["repeated_insertions"] == 0


def test_header_line(tmp_path):
    # GraphIO's lists start with "n m", which reads as an edge unless skipped
    p = write(tmp_path, "h.txt", "4 3\n0 1\n1 2\n2 0\n")
    assert rows(read_stream(p, header=True)) == [[1, 0, 1], [1, 1, 2], [1, 2, 0]]
    assert rows(read_stream(p))[0] == [1, 4, 3]
    with pytest.raises(ParameterError, match="header= is for 'edges' files"):
        read_stream(write(tmp_path, "s.txt", "+ 1 2\n"), header=True)


def test_named_vertices(tmp_path):
    p = write(tmp_path, "n.txt", "bob amy\namy cid\ncid bob\n")
    s = read_stream(p, ids="str")
    assert [[s.labels[a], s.labels[b]] for _, a, b in rows(s)] == [["bob", "amy"], ["amy", "cid"], ["cid", "bob"]]
    with pytest.raises(ParameterError, match="integer ids"):
        read_stream(p, format="signed", ids="str")


def test_signed_lines(tmp_path):
    p = write(tmp_path, "s.txt", "% signed\n+ 1 2\n+\t2 3 17\n3 1\n- 1 2\n- 1 2\n+ 1 2\n")
    s = read_stream(p)  # detected from the first data line
    assert rows(s) == [[1, 1, 2], [1, 2, 3], [1, 3, 1], [-1, 1, 2], [1, 1, 2]]
    assert s.dropped["absent_deletions"] == 1 and s.peak_edges() == 3


@pytest.mark.parametrize("text,line,words", [
    ("+ 1 2\n+ 3\n", 2, "expected two vertex ids"),
    ("+ 1 2\n\n-\n", 3, "expected two vertex ids"),
    ("+ 1 2\n- -4 5\n", 2, "non-negative, found '-4'"),
    ("1 2\nx 3\n", 2, "integer vertex id, found 'x'"),
    ("1 2\n3 99999999999999999999\n", 2, "does not fit in int64"),
    ("1 2 \x00\x01\n", 1, "binary data"),
])
def test_malformed_lines_name_file_and_line(tmp_path, text, line, words):
    p = write(tmp_path, "bad.txt", text)
    with pytest.raises(GraphFormatError, match=f"bad.txt:{line}: .*{words}"):
        read_stream(p, format="signed")
    with pytest.raises(GraphFormatError, match=f"bad.txt:{line}: "):
        for _ in iter_signed_chunks(open(p, "rb"), "bad.txt", block=3):
            pass


@pytest.mark.slow  # compiles graphmine.io.events' kernels (about 13 s on an empty cache)
def test_timestamped_events_in_time_order(tmp_path):
    p = write(tmp_path, "t.txt", "10 20 5\n20 30 1\n30 10 5\n10 20 9\n40 10 3\n")
    s = read_stream(p, format="events")
    assert rows(s) == [[1, 20, 30], [1, 10, 40], [1, 10, 20], [1, 10, 30]]  # ties in file order
    assert s.times.tolist() == [1, 3, 5, 5] and s.dropped["repeated_insertions"] == 1
    assert rows(read_stream(p))[:2] == [[1, 10, 20], [1, 20, 30]]  # 'auto' ignores a third column: file order


@pytest.mark.slow  # compiles graphmine.io.events' kernels (about 13 s on an empty cache)
def test_scholp_simplices_as_pair_insertions(tmp_path):
    d = tmp_path / "toy"
    d.mkdir()
    (d / "toy-nverts.txt").write_text("3\n2\n1\n2\n")
    (d / "toy-simplices.txt").write_text("7\n8\n9\n9\n7\n5\n8\n5\n")
    (d / "toy-times.txt").write_text("20\n10\n30\n40\n")
    s = read_stream(str(d))
    # time 10: {7, 9}; time 20: {7, 8, 9} (7-9 again: dropped); time 30: a lone vertex; 40: {5, 8}
    assert rows(s) == [[1, 7, 9], [1, 7, 8], [1, 8, 9], [1, 5, 8]]
    assert s.times.tolist() == [10, 20, 20, 40] and s.dropped["repeated_insertions"] == 1
    assert rows(read_stream(str(d / "toy-times.txt"))) == rows(s)


def test_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"+ 4 5\n- 4 5\n")))
    assert rows(read_stream("-")) == [[1, 4, 5], [-1, 4, 5]]


def test_live_chunks_keep_line_numbers():
    data = b"".join(b"+ %d %d\n" % (i, i + 1) for i in range(1000)) + b"+ 1\n"
    got = []
    with pytest.raises(GraphFormatError, match="<stdin>:1001: expected two vertex ids"):
        for sg, u, v in iter_signed_chunks(io.BytesIO(data), block=100):
            got.extend(u.tolist())
    assert got == list(range(len(got))) and len(got) > 900
    # a last line without its newline is read too
    assert [u.tolist() for _, u, _ in iter_signed_chunks(io.BytesIO(b"1 2\n3 4"), block=64)] == [[1], [3]]


def test_missing_and_empty(tmp_path):
    with pytest.raises(GraphFormatError, match="no such file"):
        read_stream(str(tmp_path / "nope.txt"))
    p = write(tmp_path, "c.txt", "# only a comment\n")
    with pytest.raises(GraphFormatError, match="no events"):
        read_stream(p, format="signed")
    with pytest.raises(ParameterError, match="format must be one of"):
        read_stream(p, format="csv")


def test_with_deletions_deletes_after_insertion():
    m = 500
    s = EdgeStream(np.ones(m, np.int64), np.arange(m), np.arange(m) + 1)
    d = with_deletions(s, 0.2, seed=3)
    assert d.deletions == 100 and d.insertions == m
    first = {}
    for i, (sg, u, v) in enumerate(rows(d)):
        if sg > 0:
            first[u] = i
        else:
            assert first[u] < i
    assert sum(d.cleaned().dropped.values()) == 0  # a valid stream
    with pytest.raises(ParameterError, match="insertion-only"):
        with_deletions(d, 0.1)


def test_parse_signed_examples():
    sg, u, v = parse_signed(b"+ 1 2\n-\t3,4\n5 6 # note\n")
    assert (sg.tolist(), u.tolist(), v.tolist()) == ([1, -1, 1], [1, 3, 5], [2, 4, 6])
