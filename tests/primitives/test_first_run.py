"""First-run paths against the kernels they stand in for: serial twins of parallel sketch kernels
(the same result to the last bit), the bottom-k selection without np.partition, the literal-free
call sites (one compiled signature per helper)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphmine as gm
from graphmine._primitives import sketch_kernels as _sk
from graphmine._primitives import small_work as sw
from graphmine.probgraph import _approx_kernels as _ak
from graphmine.probgraph import counting, sketches


@pytest.fixture(scope="module")
def kron():
    return gm.generators.kronecker_graph(9, 16, seed=3)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), unique=True, max_size=80), st.integers(1, 40),
       st.integers(0, 2**31))
def test_bottomk_fill_keeps_the_k_smallest_hashes_sorted(elems, k, s):
    """Oracle: every hash computed one by one, sorted by numpy, the first k kept."""
    elems = np.array(elems, np.int64)
    seed = np.array([s, 2 * s + 1, s ^ 12345], np.uint64)
    row = np.zeros(k, np.uint32)
    got = _sk._bottomk_fill(row, elems, 0, elems.shape[0], seed, np.empty(1, np.uint32))
    hashes = np.sort(np.array([_sk._hash32.py_func(np.uint64(x), seed[0], seed[1], seed[2]) for x in elems],
                              np.uint64)).astype(np.uint32)
    keep = min(k, elems.shape[0])
    assert got == keep
    np.testing.assert_array_equal(row[:keep], hashes[:keep])
    assert np.all(row[keep:] == np.uint32(0xFFFFFFFF))


@pytest.mark.parametrize("wh", [0, 1])
@pytest.mark.parametrize("nthreads", [1, 2, 3])
def test_serial_hub_build_equals_the_parallel_kernel(kron, wh, nthreads):
    rank = counting.degree_rank(kron.degree)
    seeds = sketches.hash_seeds(5, 2)
    par = _sk._bloom_hub_build_ranked(kron.indptr, kron.indices, rank, wh, 2, seeds, nthreads)
    ser = _sk.bloom_hub_build_ranked_serial(kron.indptr, kron.indices, rank, wh, 2, seeds, nthreads)
    for a, b in zip(par[:4], ser[:4]):  # rows, hub counts, out-degrees, starts
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    start, dplus = par[3], par[2]
    for r in range(kron.n_nodes):  # the arcs (the slots past an out-degree are scratch)
        np.testing.assert_array_equal(par[4][start[r]:start[r] + dplus[r]], ser[4][start[r]:start[r] + dplus[r]])


@pytest.mark.parametrize("nthreads", [1, 2, 3])
@pytest.mark.parametrize("est, thresh, wh", [(0, 0, 0), (1, 6, 1), (2, 6, 1)])
def test_serial_bloom_triangles_equal_the_parallel_kernel_bit_for_bit(kron, nthreads, est, thresh, wh):
    rank = counting.degree_rank(kron.degree)
    R = sketches.NeighbourhoodSketch("bloom", "degree", kron.indptr, kron.indices, 2, 0, 2, 7, 1,
                                     hub_words=wh, rank=rank)
    args = (R.start, R.set_sizes, R.arcs, est, False, R.rows, wh, R.rows, wh, R.bits, 2, R.ctab, R.stab,
            R.hub_counts, thresh, nthreads)
    par = _ak._triangles_bloom_total(*args)
    ser = _ak.triangles_bloom_serial(*args)
    assert par.tolist() == ser.tolist()


@pytest.mark.parametrize("method, k", [("bloom", 3), ("bloom", 4), ("onehash", 4), ("khash", 5), ("kmv", 4)])
def test_public_estimate_is_the_same_on_either_path(monkeypatch, kron, method, k):
    """count_cliques and clustering with the serial twins forced and with the parallel kernels
    forced: the same estimates and standard errors for the same seed."""
    out = []
    for serial in (True, False):
        with monkeypatch.context() as m:
            m.setattr(counting, "serial_first", lambda kernel, arcs: serial)
            m.setattr(sketches, "serial_first", lambda kernel, arcs: serial)
            r = gm.count_cliques(kron, k, method=method, seed=11, threads=2)
            e, est, var, sat, _, _ = counting.edge_intersections(kron, method, seed=5, threads=2)
        out.append((r.estimate, r.stderr, est.tolist(), var.tolist(), sat.tolist()))
    assert out[0] == out[1]


@pytest.mark.parametrize("nthreads", [1, 2, 3])
def test_serial_bloom_build_equals_the_parallel_kernel(kron, nthreads):
    seeds = sketches.hash_seeds(9, 3)
    np.testing.assert_array_equal(_sk._bloom_build(kron.indptr, kron.indices, 3, seeds, nthreads),
                                  _sk.bloom_build_serial(kron.indptr, kron.indices, 3, seeds, nthreads))


def test_serial_first_only_for_small_uncompiled_kernels():
    class Fake:
        overloads = {}
        targetoptions = {"parallel": True}

    assert sw.serial_first(Fake(), 1000)
    assert not sw.serial_first(Fake(), sw.SERIAL_ARCS + 1)
    Fake.overloads = {"sig": None}
    assert not sw.serial_first(Fake(), 1000)


def test_sketch_helpers_compile_one_signature(kron):
    """The sketch paths call their helpers with typed values, never literal constants or the
    parfor's unsigned index: one compiled signature each (a second costs a compile)."""
    gm.count_cliques(kron, 3, method="bloom", seed=3, threads=2)
    gm.count_cliques(kron, 4, method="onehash", seed=3, threads=2)
    for f in (_ak._triangles_bloom_part, _ak._finish):
        assert len(f.signatures) <= 1, (f.__name__, f.signatures)  # none when loaded from the cache


def test_parse_kernels_compile_one_signature_for_every_source(tmp_path, monkeypatch):
    """A regular file (read into a writable array) and a compressed one (bytes, read-only) reach
    the parse kernels as the same type: one compiled signature each, the same edges."""
    import gzip

    from graphmine._primitives import parse_kernels as _pk

    monkeypatch.setattr(sw, "SMALL_BYTES", -1)  # the kernels, not the numpy reader
    text = "".join(f"{u} {v}\n" for u, v in [(0, 1), (1, 2), (2, 0), (2, 3)])
    (tmp_path / "g.el").write_text(text)
    with gzip.open(tmp_path / "g.el.gz", "wt") as fh:
        fh.write(text)
    plain = gm.read_edges(tmp_path / "g.el").edges
    packed = gm.read_edges(tmp_path / "g.el.gz").edges
    assert plain.tolist() == packed.tolist() == [[0, 1], [1, 2], [2, 0], [2, 3]]
    for f in (_pk._plan, _pk._parse_chunks):
        assert len(f.signatures) <= 1, (f.__name__, f.signatures)  # none when loaded from the cache


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0, -1.0, 1e300]) | st.floats(-5, 5), max_size=60))
def test_average_ranks_equal_scipys_rankdata(values):
    from scipy.stats import rankdata

    from graphmine._primitives.metrics import average_ranks

    assert average_ranks(values).tolist() == rankdata(np.array(values, np.float64)).tolist()


def test_average_ranks_with_nan_are_nan_as_in_scipy():
    from scipy.stats import rankdata

    from graphmine._primitives.metrics import average_ranks

    got, want = average_ranks([1.0, np.nan, 0.5]), rankdata([1.0, np.nan, 0.5])
    assert np.isnan(got).all() and np.isnan(want).all()


def test_motif_serial_twins_equal_the_parallel_kernels(monkeypatch, kron):
    """find_motifs, motif_edge_flags and the heuristic scores with the serial twins forced and
    with the parallel kernels forced: the same arrays."""
    from graphmine.motifs import clique, enumerate as en, heuristics as he
    from graphmine.motifs import find_motifs, motif_edge_flags

    out = []
    for serial in (True, False):
        with monkeypatch.context() as m:
            m.setattr(en, "serial_first", lambda kernel, arcs: serial)
            m.setattr(he, "serial_first", lambda kernel, arcs: serial)
            tuples = find_motifs(kron, clique(4), threads=2)
            flags = motif_edge_flags(kron, clique(4), tuples[:500], threads=2)
            us = np.arange(0, kron.n_nodes, 3, dtype=np.int64)
            pairs = np.stack([us, (us * 7 + 1) % kron.n_nodes], axis=1)
            scores = he._raw_scores(kron, pairs, 2)
        out.append((tuples, flags, scores))
    assert out[0][0].shape[0] > 0
    for a, b in zip(*out):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_work_budget_follows_what_the_kernels_first_call_costs():
    class Kernel:
        overloads = {}
        targetoptions = {"parallel": True}

    k = Kernel()
    assert sw.work_budget(k) == sw.SMALL_WORK_COMPILE  # no cache entry: a compile
    Kernel.overloads = {"sig": None}
    assert sw.work_budget(k) == sw.SMALL_WORK
    assert sw.SMALL_WORK < sw.SMALL_WORK_CACHED < sw.SMALL_WORK_COLD < sw.SMALL_WORK_COMPILE


def test_load_cached_kernels_loads_what_the_cache_holds_and_compiles_nothing(tmp_path):
    """In a fresh process with a cache filled by another: the kernels of a module are loaded
    (their overloads appear) without a compile event, and nothing else."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    fill = "from graphmine.motifs import _heuristic_kernels as h; import numpy as np; " \
           "h.pair_scores_serial(np.array([0, 1, 2]), np.array([1, 0], np.int32), np.array([1, 1]), " \
           "np.array([0]), np.array([1]), 1)"
    subprocess.run([sys.executable, "-c", fill], check=True, env=env)
    probe = ("from numba.core import event\n"
             "n = []\n"
             "class L(event.Listener):\n"
             "    def on_start(self, ev): n.append(ev.data['dispatcher'].py_func.__name__)\n"
             "    def on_end(self, ev): pass\n"
             "event.register('numba:compile', L())\n"
             "from graphmine.motifs import _heuristic_kernels as h\n"
             "from graphmine._runtime.startup import load_cached_kernels\n"
             "print(load_cached_kernels([h._pair_scores_part]), sorted(n), len(h._pair_scores_part.overloads))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["(1,", "1)", "[]", "1"]
