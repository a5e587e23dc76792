"""graphmine.io.events: reading timestamped edges, items and ScHoLP triples; pairs, windows and the
projected graph against networkx and hand-computed values."""

import gzip
import itertools
import os

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmine.io.events import TemporalEvents, events_from_items, read_events
from graphmine.core.exceptions import GraphFormatError, ParameterError


def _write(tmp_path, name, text, compress=False):
    p = tmp_path / name
    data = text.encode()
    p.write_bytes(gzip.compress(data) if compress else data)
    return str(p)


def _items(ev):
    """Items as (time, tuple of original ids) in the events' order."""
    ids = ev.node_ids
    return [(ev.times[i].item(), tuple(ids[ev.item(i)].tolist())) for i in range(ev.n_items)]


def test_edges_file_by_hand(tmp_path):
    p = _write(tmp_path, "e.txt", "# u v t\n10 20 5\n20 30 1\n\n10 10 3\n30,10,5\n")
    ev = read_events(p)
    assert ev.n_nodes == 3 and ev.n_items == 4
    assert ev.node_ids.tolist() == [10, 20, 30]
    # sorted stably by time; the self-loop row is an item of one vertex
    assert _items(ev) == [(1, (20, 30)), (3, (10,)), (5, (10, 20)), (5, (10, 30))]
    assert ev.times.dtype == np.int64 and ev.time_unit is None
    u, v, t = ev.pairs()
    assert list(zip(u.tolist(), v.tolist(), t.tolist())) == [(1, 2, 1), (0, 1, 5), (0, 2, 5)]


def test_items_file_with_dates_strings_and_repeats(tmp_path):
    p = _write(tmp_path, "i.txt", "2020-01-02 b a a\n2019-12-31 c\n2020-01-02 a c b d\n")
    ev = read_events(p, ids="str")
    assert ev.time_unit == "date"
    assert ev.node_ids.tolist() == ["a", "b", "c", "d"]
    day = (np.datetime64("2020-01-02") - np.datetime64("1970-01-01")).astype(int)
    assert _items(ev) == [(int(day) - 2, ("c",)), (int(day), ("a", "b")), (int(day), ("a", "b", "c", "d"))]
    assert ev.n_pairs == 1 + 6


def test_float_times_and_units(tmp_path):
    p = _write(tmp_path, "f.txt", "1 2 0.5\n2 3 1e1\n", compress=True)
    ev = read_events(p, time_unit="seconds")
    assert ev.times.dtype == np.float64 and ev.times.tolist() == [0.5, 10.0] and ev.time_unit == "s"


@pytest.mark.parametrize("text, fmt, kw, line, words", [
    ("1 2 3\n4 5\n", "edges", {}, 2, "expected 3 columns"),
    ("1 2 3\n4 x 5\n", "auto", {}, 2, "expected an integer vertex id, found 'x'"),
    ("1 2 3\n4 -5 5\n", "auto", {}, 2, "non-negative"),
    ("1 2 3\n4 5 soon\n", "auto", {}, 2, "expected a time"),
    ("2020-01-01 1 2\n2020-02-30 4\n", "auto", {}, 2, "expected a date YYYY-MM-DD, found '2020-02-30'"),
    ("1 2 3\n# c\n7\n", "items", {}, 3, "at least one vertex"),
    ("1 2 3\n4 5 2020-01-01\n", "auto", {"time_unit": "s"}, 2, "a number in s"),
    ("1 2 3\n4 5 \x01\n", "auto", {}, 2, "control byte"),
])
def test_bad_rows_name_file_and_line(tmp_path, text, fmt, kw, line, words):
    p = _write(tmp_path, "bad.txt", text)
    with pytest.raises(GraphFormatError) as exc:
        read_events(p, format=fmt, **kw)
    assert f"bad.txt:{line}:" in str(exc.value) and words in str(exc.value)
    assert exc.value.line == line


def test_missing_and_empty(tmp_path):
    with pytest.raises(GraphFormatError, match="no such file"):
        read_events(str(tmp_path / "nope.txt"))
    with pytest.raises(GraphFormatError, match="no data lines"):
        read_events(_write(tmp_path, "c.txt", "# only\n\n"))
    with pytest.raises(ParameterError):
        read_events(_write(tmp_path, "ok.txt", "1 2 3\n"), time_unit="weeks")


def _scholp(tmp_path, name="toy", compress=False, nverts=(3, 2, 1, 4), simplices=(1, 2, 3, 2, 4, 9, 1, 3, 4, 5),
            times=(10, 15, 12, 21)):
    d = tmp_path / name
    d.mkdir()
    ext = ".gz" if compress else ""
    for suffix, vals in (("nverts", nverts), ("simplices", simplices), ("times", times)):
        _write(d, f"{name}-{suffix}.txt{ext}", "".join(f"{x}\n" for x in vals), compress)
    return str(d)


@pytest.mark.parametrize("compress", [False, True])
def test_scholp_any_path(tmp_path, compress):
    d = _scholp(tmp_path, compress=compress)
    ext = ".gz" if compress else ""
    want = [(10, (1, 2, 3)), (12, (9,)), (15, (2, 4)), (21, (1, 3, 4, 5))]
    for p in (d, os.path.join(d, "toy"), os.path.join(d, f"toy-times.txt{ext}"),
              os.path.join(d, f"toy-nverts.txt{ext}")):
        assert _items(read_events(p)) == want


def test_scholp_inconsistent(tmp_path):
    d = _scholp(tmp_path, "short", simplices=(1, 2, 3, 2, 4))
    with pytest.raises(GraphFormatError, match="5 vertices, but the items"):
        read_events(d)
    d = _scholp(tmp_path, "zero", nverts=(3, 0, 1, 6))
    with pytest.raises(GraphFormatError, match=r"zero-nverts.txt:2: an item needs at least one vertex"):
        read_events(d)
    (tmp_path / "partial").mkdir()
    _write(tmp_path / "partial", "p-nverts.txt", "1\n")
    with pytest.raises(GraphFormatError, match="no complete ScHoLP"):
        read_events(str(tmp_path / "partial"))


def test_window_and_immutability():
    ev = events_from_items([[1, 2], [2, 3], [3, 4], [1, 4]], [10, 20, 20, 30])
    w = ev.window(20, 30)
    assert w.n_items == 2 and w.n_nodes == 4 and w.times.tolist() == [20, 20]
    assert _items(w) == [(20, (2, 3)), (20, (3, 4))]
    assert np.shares_memory(w.item_nodes, ev.item_nodes)
    assert ev.window(40).n_items == 0 and ev.window(None, 11).n_items == 1
    with pytest.raises(AttributeError):
        ev.times = None
    with pytest.raises(ValueError):
        ev.times[0] = 3


def _nx_projection(items, times, t_end):
    H = nx.Graph()
    for it, t in zip(items, times):
        if t_end is not None and t >= t_end:
            continue
        for a, b in itertools.combinations(sorted(set(it)), 2):
            w = H.get_edge_data(a, b, {"w": 0})["w"]
            H.add_edge(a, b, w=w + 1)
    return H


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 12), min_size=1, max_size=6), st.integers(0, 9)),
                min_size=1, max_size=30), st.one_of(st.none(), st.integers(0, 10)))
def test_graph_matches_networkx(rows, t_end):
    items = [r[0] for r in rows]
    times = [r[1] for r in rows]
    ev = events_from_items(items, times)
    G, w = ev.graph(t_end=t_end, weighted=True)
    H = _nx_projection(items, times, t_end)
    ids = ev.node_ids
    got = {(int(ids[a]), int(ids[b])) for a, b in G.edges().tolist()}
    assert got == {tuple(sorted(e)) for e in H.edges()}
    rows_of = np.repeat(np.arange(G.n_nodes), np.diff(G.indptr))
    for r, c, x in zip(rows_of.tolist(), G.indices.tolist(), w.tolist()):
        assert H[int(ids[r])][int(ids[c])]["w"] == x
    # the pair list: one row per item and pair, in time order
    u, v, t = ev.pairs()
    want = sorted((tt, a, b) for it, tt in zip(items, times)
                  for a, b in itertools.combinations(sorted(set(it)), 2))
    assert sorted(zip(t.tolist(), ids[u].tolist(), ids[v].tolist())) == want
    assert np.all(np.diff(t) >= 0) and np.all(u < v)


def test_file_round_trip_against_items(tmp_path):
    rng = np.random.default_rng(1)
    items = [rng.integers(0, 50, rng.integers(1, 6)).tolist() for _ in range(300)]
    times = rng.integers(0, 100, 300).tolist()
    p = _write(tmp_path, "r.txt", "".join(f"{t} " + " ".join(map(str, it)) + "\n" for it, t in zip(items, times)))
    a, b = read_events(p), events_from_items(items, times)
    for name in ("item_ptr", "item_nodes", "times", "node_ids"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_constructor_validates():
    with pytest.raises(ParameterError, match="item_ptr"):
        TemporalEvents([0, 3], [0, 1], [1])
    with pytest.raises(ParameterError, match="one entry per item"):
        TemporalEvents([0, 2], [0, 1], [1, 2])
    ev = TemporalEvents([0, 2, 3], [1, 1, 0], [5.0, 1.0])
    assert ev.item_nodes.tolist() == [0, 1] and ev.item_ptr.tolist() == [0, 1, 2]
