"""Science4Cast pickles: round trips, the restricted unpickler, malformed files."""

import os
import pickle

import numpy as np
import pytest

from graphmine.core.exceptions import GraphFormatError, GraphmineError, ParameterError
from graphmine.science4cast import (Science4CastData, load_pickle, make_data, read_benchmark, read_competition,
                                    read_data, read_solution, write_benchmark, write_competition)
from graphmine.science4cast.snapshots import MAX_DAY

GRAPH = np.array([[0, 1, 10], [1, 2, 400], [2, 0, 800], [3, 3, 900], [1, 0, 1200]], dtype=np.int64)
PAIRS = np.array([[0, 3], [3, 1], [2, 3]], dtype=np.int64)
SOL = np.array([1, 0, 0])


def _dump(obj, path, protocol=4):
    with open(path, "wb") as fh:
        pickle.dump(obj, fh, protocol=protocol)
    return path


def _data():
    return make_data(GRAPH, PAIRS, 1991, 2, solution=SOL, vertex_degree_cutoff=1, min_edges=1)


def test_benchmark_round_trip(tmp_path):
    p = tmp_path / "b.pkl"
    write_benchmark(_data(), p)
    d = read_benchmark(p)
    assert np.array_equal(d.graph, GRAPH) and np.array_equal(d.pairs, PAIRS)
    assert d.solution.tolist() == SOL.tolist()
    assert (d.year_start, d.years_delta, d.vertex_degree_cutoff, d.min_edges) == (1991, 2, 1, 1)
    assert d.n_vertices == 4
    # the file is the 7-item list of the format, readable by plain pickle too
    with open(p, "rb") as fh:
        raw = pickle.load(fh)
    assert len(raw) == 7 and raw[3] == 1991 and raw[6] == 1


def test_competition_round_trip_with_solution(tmp_path):
    p, s = tmp_path / "c.pkl", tmp_path / "c_solution.pkl"
    write_competition(_data(), p, s)
    d = read_competition(p, s)
    assert np.array_equal(d.graph, GRAPH) and np.array_equal(d.pairs, PAIRS)
    assert d.solution.tolist() == SOL.tolist() and d.min_edges is None
    d2 = read_data(p)
    assert d2.solution is None and d2.year_start == 1991
    with open(p, "rb") as fh:
        assert len(pickle.load(fh)) == 4


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_files_written_by_plain_pickle(tmp_path, protocol):
    # numpy scalars, int32 arrays and a boolean solution, as other tools write them
    obj = [GRAPH.astype(np.int32), PAIRS.tolist(), np.bool_(SOL).astype(bool), np.int64(1991), np.int32(2),
           np.int64(0), 1]
    d = read_benchmark(_dump(obj, tmp_path / "x.pkl", protocol))
    assert d.graph.dtype == np.int64 and np.array_equal(d.graph, GRAPH)
    assert np.array_equal(d.pairs, PAIRS) and d.solution.tolist() == SOL.tolist()
    assert isinstance(d.year_start, int) and d.year_start == 1991 and d.years_delta == 2


class _Evil:
    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        return (os.system, (f"touch {self.target}",))


class _EvalEvil:
    def __reduce__(self):
        return (eval, ("__import__('os').getcwd()",))


def test_malicious_pickle_is_refused(tmp_path):
    marker = tmp_path / "pwned"
    p = _dump([_Evil(marker), PAIRS, 1991, 2], tmp_path / "evil.pkl")
    # plain pickle would run the command: prove the payload is live
    with pytest.raises(GraphFormatError, match="os.system|posix.system"):
        read_competition(p)
    assert not marker.exists()
    with pytest.raises(GraphFormatError, match="not allowed"):
        load_pickle(_dump(_EvalEvil(), tmp_path / "eval.pkl"))
    # a numpy function that is not an array constructor is refused too
    with pytest.raises(GraphFormatError, match="numpy.load"):
        load_pickle(_dump([np.load], tmp_path / "npload.pkl"))


def test_live_payload_would_run_under_plain_pickle(tmp_path):
    # the oracle for the test above: the same bytes do execute under pickle.load
    marker = tmp_path / "ran"
    p = _dump(_Evil(marker), tmp_path / "evil.pkl")
    with open(p, "rb") as fh:
        pickle.load(fh)
    assert marker.exists()


def _bench(**over):
    items = dict(g=GRAPH, p=PAIRS, s=SOL, ys=1991, yd=2, c=0, m=1)
    items.update(over)
    return [items[k] for k in ("g", "p", "s", "ys", "yd", "c", "m")]


@pytest.mark.parametrize("over, message", [
    (dict(g=GRAPH[:, :2]), r"shape \(rows, 3\)"),
    (dict(g=np.array([[0, -1, 5]])), "negative vertex id"),
    (dict(g=np.array([[0, 1, -5]])), "out of range"),
    (dict(g=np.array([[0, 1, MAX_DAY + 1]])), "out of range"),
    (dict(g=np.array([[0, 1, 2.5]])), "integers"),
    (dict(g=np.array([["a", "b", "c"]])), "integer array"),
    (dict(p=np.array([[1, 1], [0, 2]])), "with itself"),
    (dict(p=np.array([[0, -2]])), "negative vertex id"),
    (dict(p=np.array([0, 1, 2])), r"shape \(rows, 2\)"),
    (dict(s=np.array([1, 0])), "2 entries but there are 3 pairs"),
    (dict(s=np.array([0, 2, 1])), "only 0 and 1"),
    (dict(ys="2014"), "year_start must be an integer"),
    (dict(ys=1980), "year_start must lie in"),
    (dict(yd=0), "years_delta must lie in"),
    (dict(c=-1), "vertex_degree_cutoff"),
    (dict(m=0), "min_edges"),
    (dict(g=np.array([[0, 1, 5]], dtype=object)), "integer array"),
])
def test_malformed_benchmark_pickles(tmp_path, over, message):
    p = _dump(_bench(**over), tmp_path / "bad.pkl")
    with pytest.raises(GraphFormatError, match=message) as info:
        read_benchmark(p)
    assert str(p) in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, GraphmineError)


def test_malformed_files(tmp_path):
    with pytest.raises(GraphFormatError, match="no such file"):
        read_data(tmp_path / "missing.pkl")
    (tmp_path / "empty.pkl").write_bytes(b"")
    with pytest.raises(GraphFormatError, match="empty"):
        read_data(tmp_path / "empty.pkl")
    good = pickle.dumps(_bench(), protocol=4)
    (tmp_path / "cut.pkl").write_bytes(good[: len(good) // 2])
    with pytest.raises(GraphFormatError, match="not a valid pickle|corrupt"):
        read_data(tmp_path / "cut.pkl")
    with pytest.raises(GraphFormatError, match="4 .* or 7"):
        read_data(_dump(_bench()[:5], tmp_path / "five.pkl"))
    with pytest.raises(GraphFormatError, match="got dict"):
        read_data(_dump({"graph": GRAPH}, tmp_path / "dict.pkl"))
    with pytest.raises(GraphFormatError, match="4 items"):
        read_competition(_dump(_bench(), tmp_path / "seven.pkl"))
    with pytest.raises(GraphFormatError, match="7 items"):
        read_benchmark(_dump([GRAPH, PAIRS, 1991, 2], tmp_path / "four.pkl"))
    sol = _dump(np.array([0, 1]), tmp_path / "sol.pkl")
    with pytest.raises(GraphFormatError, match="2 entries"):
        read_competition(_dump([GRAPH, PAIRS, 1991, 2], tmp_path / "c.pkl"), sol)
    with pytest.raises(GraphFormatError, match="only 0 and 1"):
        read_solution(_dump(np.array([0, 3]), tmp_path / "sol3.pkl"))


def test_self_loops_are_kept_in_the_rows_and_dropped_in_snapshots():
    from graphmine.science4cast import snapshot

    d = _data()
    assert d.graph.shape[0] == 5  # the loop (3, 3) stays in the raw rows
    G = snapshot(d.graph, 1992, d.n_vertices)
    assert G.n_edges == 3 and G.degree[3] == 0


def test_writers_never_overwrite(tmp_path):
    p = tmp_path / "b.pkl"
    write_benchmark(_data(), p)
    before = p.read_bytes()
    with pytest.raises(FileExistsError, match="force"):
        write_benchmark(_data(), p)
    with pytest.raises(FileExistsError):
        write_competition(_data(), tmp_path / "new.pkl", p)
    assert p.read_bytes() == before and not (tmp_path / "new.pkl").exists()
    write_benchmark(_data(), p, force=True)
    incomplete = Science4CastData(GRAPH, PAIRS, 1991, 2)
    with pytest.raises(ParameterError, match="solution"):
        write_benchmark(incomplete, tmp_path / "x.pkl")
