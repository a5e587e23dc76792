"""The exact dynamic counter against networkx after random insertions and deletions."""

import pickle

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmine.streaming import ExactTriangleCounter, StreamCleaner


@st.composite
def event_streams(draw, max_nodes=12, max_events=150):
    """Events (sign, u, v) over 0..n-1, with self-loops, repeated insertions and deletions of
    absent edges mixed in."""
    n = draw(st.integers(1, max_nodes))
    m = draw(st.integers(0, max_events))
    rows = draw(st.lists(st.tuples(st.sampled_from([1, 1, -1]), st.integers(0, n - 1), st.integers(0, n - 1)),
                         min_size=m, max_size=m))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def replay(events):
    """networkx graph after the events, and the skipped events by reason (a reference written
    out with Python sets)."""
    G = nx.Graph()
    skipped = {"self_loops": 0, "repeated_insertions": 0, "absent_deletions": 0}
    for sg, u, v in events.tolist():
        if u == v:
            skipped["self_loops"] += 1
        elif sg > 0:
            if G.has_edge(u, v):
                skipped["repeated_insertions"] += 1
            else:
                G.add_edge(u, v)
        elif G.has_edge(u, v):
            G.remove_edge(u, v)
        else:
            skipped["absent_deletions"] += 1
    return G, skipped


def check_against(ex, G, skipped, id_of=lambda x: x):
    tri = nx.triangles(G)
    assert ex.global_count() == sum(tri.values()) // 3
    ids, counts = ex.local_counts()
    got = dict(zip(ids.tolist(), counts.tolist()))
    for node, t in tri.items():
        assert got[id_of(node)] == t
    assert all(c == 0 for i, c in got.items() if i not in {id_of(x) for x in tri})  # vertices now isolated
    assert ex.skipped == skipped
    assert ex.edges == G.number_of_edges()


@given(event_streams())
def test_exact_counter_matches_networkx(events):
    ex = ExactTriangleCounter(capacity=2)  # tiny: the arrays grow on the way
    ex.feed(events)
    G, skipped = replay(events)
    check_against(ex, G, skipped)


@given(event_streams(max_nodes=80, max_events=300), st.integers(0, 2**40))
def test_arbitrary_ids_and_one_event_at_a_time(events, offset):
    # ids far from 0..n-1 (the map grows past its first 64 vertices), one update/delete per call
    ex = ExactTriangleCounter()
    for sg, u, v in events.tolist():
        (ex.update if sg > 0 else ex.delete)(u * 7919 + offset, v * 7919 + offset)
    G, skipped = replay(events)
    check_against(ex, G, skipped, id_of=lambda x: x * 7919 + offset)
    assert ex.events == events.shape[0]


@given(event_streams(), st.integers(1, 40))
def test_batches_and_pickling_resume(events, cut):
    whole = ExactTriangleCounter().feed(events)
    part = ExactTriangleCounter().feed(events[:cut])
    part = pickle.loads(pickle.dumps(part))
    part.feed(events[cut:])
    assert part.global_count() == whole.global_count()
    assert np.array_equal(part.local_counts()[1], whole.local_counts()[1])


def test_closed_forms():
    # K_n has C(n, 3) triangles, n - 1 choose 2 at each vertex; deleting all edges leaves none
    n = 30
    iu, ju = np.triu_indices(n, 1)
    ex = ExactTriangleCounter().feed(np.column_stack((iu, ju)))
    assert ex.global_count() == n * (n - 1) * (n - 2) // 6
    assert set(ex.local_counts()[1].tolist()) == {(n - 1) * (n - 2) // 2}
    ex.feed(np.column_stack((-np.ones_like(iu), ju, iu)))  # deleted, written the other way round
    assert ex.global_count() == 0 and ex.edges == 0 and not ex.local_counts()[1].any()


@given(event_streams())
def test_cleaner_keeps_what_changes_the_graph(events):
    c = StreamCleaner()
    half = events.shape[0] // 2
    parts = [c.clean(*events[:half].T), c.clean(*events[half:].T)]
    sg = np.concatenate([p[0] for p in parts])
    G, skipped = replay(events)
    assert c.dropped == skipped
    assert sg.shape[0] == events.shape[0] - sum(skipped.values())
    H, again = replay(np.column_stack([np.concatenate([p[i] for p in parts]) for i in range(3)]))
    assert sum(again.values()) == 0 and nx.utils.graphs_equal(G, H)


def test_bad_events_are_refused():
    from graphmine import ParameterError

    ex = ExactTriangleCounter()
    with pytest.raises(ParameterError, match="non-negative"):
        ex.feed([(1, -1, 2)])
    with pytest.raises(ParameterError, match=r"\+1 \(insertion\) or -1"):
        ex.feed([(2, 1, 2)])
    with pytest.raises(ParameterError, match="shape"):
        ex.feed(np.zeros((3, 4), np.int64))
    with pytest.raises(ParameterError, match="integers"):
        ex.feed(np.array([[1, 0.5, 2]]))
    assert ex.events == 0


def test_hubs_in_random_order_with_deletions():
    # hubs of sampled degree in the hundreds: blocks of many cache lines, read ahead of their
    # events (the prefetches), moved and rebuilt as they grow; counts still networkx's
    from graphmine.streaming import ThinkDAcc

    G = nx.barabasi_albert_graph(600, 12, seed=3)
    G.add_edges_from((0, v) for v in range(1, 600))  # one vertex adjacent to all
    e = np.array(list(G.edges()), dtype=np.int64)
    rng = np.random.default_rng(5)
    e = e[rng.permutation(len(e))]
    gone = rng.choice(len(e), len(e) // 5, replace=False)
    events = np.vstack([np.column_stack((np.ones(len(e), np.int64), e)),
                        np.column_stack((-np.ones(len(gone), np.int64), e[gone][:, ::-1]))])
    ex = ExactTriangleCounter().feed(events)
    H = G.copy()
    H.remove_edges_from(map(tuple, e[gone].tolist()))
    check_against(ex, H, {"self_loops": 0, "repeated_insertions": 0, "absent_deletions": 0})
    assert max(d for _, d in H.degree()) >= 400
    acc = ThinkDAcc(len(e), seed=1).feed(events, threads=1)  # the whole graph fits: exact
    assert acc.global_estimate() == ex.global_count()
    ids, loc = acc.local_estimates()
    assert dict(zip(ids.tolist(), loc.tolist())) == {v: float(t) for v, t in nx.triangles(H).items()}
