"""Small event files are read on numpy (graphmine/io/events.py: tokens, integer ids and times, the
items' shape): the same events as the kernels' reader, on random files of every layout."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from graphmine._primitives import small_work as sw
from graphmine.core.exceptions import GraphFormatError
from graphmine.io.events import read_events


def _both(monkeypatch, path, **kw):
    small = read_events(path, **kw)
    with monkeypatch.context() as m:
        m.setattr(sw, "SMALL_BYTES", -1)
        m.setattr(sw, "SMALL_EDGES", -1)
        kernel = read_events(path, **kw)
    return small, kernel


def _same(a, b):
    for x, y in ((a.item_ptr, b.item_ptr), (a.item_nodes, b.item_nodes), (a.times, b.times), (a.node_ids, b.node_ids)):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    assert a.time_unit == b.time_unit


items = st.lists(st.tuples(st.integers(0, 10**6), st.lists(st.integers(0, 30), min_size=1, max_size=5)),
                 min_size=1, max_size=40)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=items, sep=st.sampled_from([" ", "\t", ", ", "  "]), comment=st.booleans(), trailing=st.booleans())
def test_items_and_scholp_same_as_kernels(tmp_path_factory, monkeypatch, rows, sep, comment, trailing):
    d = tmp_path_factory.mktemp("ev")
    lines = (["# t u1 u2 ..."] if comment else []) + [
        sep.join(map(str, [t, *it])) + (" # note" if trailing else "") for t, it in rows]
    p = os.path.join(d, "items.txt")
    with open(p, "w") as fh:
        fh.write("\n".join(lines) + "\n\n")
    small, kernel = _both(monkeypatch, p, format="items")
    _same(small, kernel)
    # the items as written, each sorted and merged, stably by time
    order = sorted(range(len(rows)), key=lambda i: rows[i][0])
    want = [sorted(set(rows[i][1])) for i in order]
    got = [small.node_ids[small.item_nodes[small.item_ptr[i]:small.item_ptr[i + 1]]].tolist() for i in range(len(rows))]
    assert got == want and small.times.tolist() == [rows[i][0] for i in order]
    # the same items as a ScHoLP data set
    s = os.path.join(d, "set")
    os.makedirs(s)
    with open(os.path.join(s, "x-nverts.txt"), "w") as fh:
        fh.write("".join(f"{len(it)}\n" for _, it in rows))
    with open(os.path.join(s, "x-simplices.txt"), "w") as fh:
        fh.write("".join(f"{v}\n" for _, it in rows for v in it))
    with open(os.path.join(s, "x-times.txt"), "w") as fh:
        fh.write("".join(f"{t}\n" for t, _ in rows))
    small, kernel = _both(monkeypatch, s)
    _same(small, kernel)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50), st.integers(0, 99)), min_size=1, max_size=40),
       ids=st.sampled_from(["int", "str"]))
def test_edges_same_as_kernels(tmp_path_factory, monkeypatch, rows, ids):
    p = os.path.join(tmp_path_factory.mktemp("ev"), "edges.txt")
    with open(p, "w") as fh:
        fh.write("".join(f"{u} {v} {t}\n" for u, v, t in rows))
    small, kernel = _both(monkeypatch, p, ids=ids)
    _same(small, kernel)


@pytest.mark.parametrize("text", ["1 2 -3\n", "1 2 x\n", "+1 2 3\n", "1 2 3.5\n", "2016-01-01 1 2\n", "# c\n\n"])
def test_other_text_goes_to_the_kernels(tmp_path, monkeypatch, text):
    p = tmp_path / "e.txt"
    p.write_text(text)
    try:
        small = read_events(str(p))
    except GraphFormatError as exc:
        with monkeypatch.context() as m:
            m.setattr(sw, "SMALL_BYTES", -1)
            with pytest.raises(GraphFormatError) as kernel:
                read_events(str(p))
        assert str(kernel.value) == str(exc)
    else:
        with monkeypatch.context() as m:
            m.setattr(sw, "SMALL_BYTES", -1)
            m.setattr(sw, "SMALL_EDGES", -1)
            _same(small, read_events(str(p)))
