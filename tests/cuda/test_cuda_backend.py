"""graphmine.cuda: the GPU kernels under numba's CUDA simulator, and the behaviour without a GPU.

The simulator must be switched on before numba.cuda is first imported, so the kernel checks run
in subprocesses (``SIM_PRELUDE`` + one of ``SIM_COUNTS``, ``SIM_BUILD``, ``SIM_BLOOM``) with
NUMBA_ENABLE_CUDASIM=1; the graphs are tiny because the simulator runs every GPU thread as a
Python thread. With GRAPHMINE_TEST_CUDA=real the same scripts
runs on the real GPU instead (on a machine with one).
"""

import os
import subprocess
import sys
import textwrap

import networkx as nx
import pytest

import graphmine as gm
from graphmine.core.exceptions import GraphmineError, ParameterError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REAL = os.environ.get("GRAPHMINE_TEST_CUDA") == "real"

# the simulator runs every GPU thread as a Python thread: the checks are cut into three scripts
# (each its own process and time limit), all starting with the same imports
SIM_PRELUDE = textwrap.dedent(r'''
    import math, os, sys
    import numpy as np
    import networkx as nx
    from hypothesis import given, settings, strategies as st, HealthCheck

    import graphmine as gm
    import graphmine.cuda as gc
    from graphmine.cliques import _cuda_launch as _exact
    from graphmine.cuda._bloom import DeviceBloomSketch
    from graphmine.cuda._device import device_graph
    from graphmine.exceptions import ParameterError, ResourceLimitError
    from graphmine.probgraph import NeighbourhoodSketch, count_triangles as est_triangles

    assert gc.is_available()

''')

SIM_COUNTS = textwrap.dedent(r'''
    def nx_cliques(H, k):
        return sum(1 for c in nx.enumerate_all_cliques(H) if len(c) == k)

    # bin thresholds: the defaults, and small ones that put arcs in every bin (thread, groups of 8,
    # warp, block per arc)
    BINS = [None, (1, 2, 4), (0, 0, 0), (2,), (0, 1)]

    def check_graph(H, ks=(4, 5)):
        G = gm.as_graph(H)
        tri = sum(nx.triangles(H).values()) // 3
        assert gm.count_triangles(G) == tri
        for b in BINS:
            assert _exact.count_triangles(G, "degree", 1, bounds=b) == tri, (b, tri)
        for hub_min in (0, 3, 10**9):  # every vertex a hub (bitmap kernel), some, none
            assert _exact.count_triangles(G, "degree", 1, bounds=(1, 2, 4), hub_min=hub_min) == tri, hub_min
            assert (_exact.triangles(G, 1, hub_min=hub_min) == gm.triangles(G)).all(), hub_min
        assert _exact.count_triangles(G, "degeneracy", 1, bounds=(1, 2, 4)) == tri
        assert gm.count_triangles(G, device="cuda") == tri
        assert gm.count_triangles(G, device="auto") == tri
        assert gm.count_cliques(G, 3, device="cuda", order="degeneracy") == tri
        pv = _exact.triangles(G, 1, bounds=(1, 2, 4))
        want = np.array([nx.triangles(H)[v] for v in sorted(H)], np.int64)
        assert (pv == want).all()
        assert (gm.triangles(G, device="cuda") == gm.triangles(G)).all()
        assert np.allclose(gm.clustering(G, device="cuda"), [nx.clustering(H)[v] for v in sorted(H)])
        assert math.isclose(gm.average_clustering(G, device="cuda"), nx.average_clustering(H), abs_tol=1e-12)
        assert math.isclose(gm.transitivity(G, device="cuda"), nx.transitivity(H), abs_tol=1e-12)
        for k in ks:
            want = nx_cliques(H, k)
            assert gm.count_cliques(G, k, device="cuda") == want == gm.count_cliques(G, k), (k, want)
        assert gm.count_cliques(G, 4, device="cuda", order="degree") == nx_cliques(H, 4)
        # per-vertex k-cliques against networkx's cliques, k = 3 .. 8
        idx = {v: i for i, v in enumerate(sorted(H))}
        cl = [[idx[v] for v in c] for c in nx.enumerate_all_cliques(H) if len(c) <= 8]
        for k in range(3, 9):
            want = np.zeros(G.n_nodes, np.int64)
            for c in cl:
                if len(c) == k:
                    want[c] += 1
            got = gc.clique_counts(G, k)
            assert (got == want).all(), (k, got, want)
            assert (gm.vertex_clique_counts(G, k, device="cuda") == want).all(), k
        return G

    # named graphs: complete, empty, edgeless, triangle-free, karate
    check_graph(nx.complete_graph(9), ks=(4, 6, 9, 10))
    check_graph(nx.empty_graph(5))
    check_graph(nx.star_graph(6))
    check_graph(nx.cycle_graph(7))
    check_graph(nx.karate_club_graph(), ks=(4, 5))
    for seed in range(1):
        check_graph(nx.gnp_random_graph(26, 0.45, seed=seed), ks=(4, 5, 6))
    # out-degrees > 64: bitmap rows of two words
    H = nx.complete_graph(80)
    H.remove_edges_from(list(H.edges)[::12])
    G = gm.as_graph(H)
    assert G.oriented("degeneracy").max_out_degree > 64
    assert gc.count_cliques(G, 4) == gm.count_cliques(G, 4)
    assert gc.count_triangles(G) == gm.count_triangles(G)

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(1, 22), st.lists(st.tuples(st.integers(0, 21), st.integers(0, 21)), max_size=110))
    def hypothesis_graphs(n, pairs):
        e = np.array([(a % n, b % n) for a, b in pairs], np.int64).reshape(-1, 2)
        G = gm.from_edges(e, n_nodes=n)
        assert gm.count_triangles(G, device="cuda") == gm.count_triangles(G)
        assert _exact.count_triangles(G, "degree", 1, bounds=(1, 2, 3)) == gm.count_triangles(G)
        assert _exact.count_triangles(G, "degree", 1, hub_min=2) == gm.count_triangles(G)
        assert (gm.triangles(G, device="cuda") == gm.triangles(G)).all()
        assert gm.count_cliques(G, 4, device="cuda") == gm.count_cliques(G, 4)
        assert gm.count_cliques(G, 5, device="cuda") == gm.count_cliques(G, 5)

    hypothesis_graphs()

''')

SIM_BUILD = textwrap.dedent(r'''
    # the device data is built once and cached on the graph; release frees it
    G = gm.as_graph(nx.karate_club_graph())
    gm.count_triangles(G, device="cuda")
    DG = G._cuda["degree"]
    gm.count_triangles(G, device="cuda")
    assert G._cuda["degree"] is DG and DG.nbytes > 0
    assert gc.release(G) == 1 and not hasattr(G, "_cuda")

    # the orientation built on the device: scan, radix sort, and the CPU's arrays exactly
    from numba import cuda
    from graphmine.cuda import _build
    from graphmine.cliques import _cuda_partition as _partition
    rng = np.random.default_rng(5)
    for m in (1, 7, 32 * 16, 32 * 16 + 1, 2500):
        a = rng.integers(0, 9, m).astype(np.int64)
        assert (_build.device_scan(cuda.to_device(a), m).copy_to_host() == np.cumsum(a) - a).all(), m
    for m, bits in ((2, 3), (33, 11), (1100, 21), (700, 40)):
        keys = rng.integers(0, 1 << bits, m).astype(np.int64)
        assert (_build.device_sort(cuda.to_device(keys), m, bits).copy_to_host()[:m] == np.sort(keys)).all(), m
    for H in (nx.karate_club_graph(), nx.gnp_random_graph(50, 0.25, seed=2), nx.star_graph(9), nx.empty_graph(4),
              nx.complete_graph(7)):
        G = gm.as_graph(H)
        optr, oind, rank = _build.orient_degree(G.indptr, G.indices)
        O = G.oriented("degree", relabel=True)
        assert (optr.copy_to_host() == O.indptr).all()
        assert (oind.copy_to_host()[:G.n_edges] == O.indices).all()
        assert (rank.copy_to_host()[:G.n_nodes] == O.rank).all()
        G = gm.as_graph(H)  # no host orientation: the device builds it
        tri = sum(nx.triangles(H).values()) // 3
        assert gm.count_triangles(G, device="cuda") == tri
        assert G._cuda["degree"].built_on == "gpu" and not G.has_orientation("degree", relabel=True)
        assert (gm.triangles(G, device="cuda") == np.array([nx.triangles(H)[v] for v in sorted(H)])).all()
    # the approximate degeneracy orientation peeled on the device (k-cliques): every edge once,
    # towards the higher rank, rows sorted, out-degrees within 2 (1 + eps) x the degeneracy
    from graphmine.cuda import _device
    from graphmine.cuda._device import PEELED
    _device.PEEL_MIN_EDGES = 0  # the simulator's graphs are far below the size rule
    for H in (nx.karate_club_graph(), nx.gnp_random_graph(50, 0.25, seed=2), nx.star_graph(9), nx.empty_graph(4),
              nx.complete_graph(7), nx.barabasi_albert_graph(60, 4, seed=1)):
        G = gm.as_graph(H)
        optr, oind, rank, rounds = _build.orient_peeled(G.indptr, G.indices)
        p, ix, rk = optr.copy_to_host(), oind.copy_to_host()[:G.n_edges], rank.copy_to_host()[:G.n_nodes]
        assert sorted(rk.tolist()) == list(range(G.n_nodes))
        arcs = set()
        for u in range(G.n_nodes):
            row = ix[p[u]:p[u + 1]]
            assert (np.diff(row) > 0).all() and (row > u).all(), u
            arcs |= {(u, int(w)) for w in row}
        assert arcs == {tuple(sorted((int(rk[a]), int(rk[b])))) for a, b in H.edges()}
        degeneracy = max(nx.core_number(H).values())
        assert np.diff(p).max(initial=0) <= 2 * (1 + _build.PEEL_EPS) * degeneracy, (np.diff(p).max(), degeneracy)
        assert 1 <= rounds <= G.n_nodes
    # a count without a host orientation peels on the device; per-vertex counts map back by rank
    H = nx.gnp_random_graph(50, 0.25, seed=2)
    G = gm.as_graph(H)
    four = [c for c in nx.enumerate_all_cliques(H) if len(c) == 4]
    assert gm.count_cliques(G, 4, device="cuda") == len(four)
    assert G._cuda[PEELED].built_on == "gpu" and not G.has_orientation("degeneracy", relabel=True)
    want = np.zeros(G.n_nodes, np.int64)
    for c in four:
        want[c] += 1
    assert (gc.clique_counts(G, 4) == want).all()
    # triangles over the peeled orientation too (order='degeneracy'), every bin and the hubs
    tri = sum(nx.triangles(H).values()) // 3
    for hub_min in (1, 10**9):
        assert _exact.count_triangles(G, "degeneracy", 1, bounds=(1, 2, 4), hub_min=hub_min) == tri, hub_min
    # two workers share the host's exact orientation, also after the one-GPU count peeled its own
    assert gc.count_cliques(G, 4, devices=[0, 0]) == len(four)
    assert "degeneracy" in G._cuda and G._cuda["degeneracy"].built_on == "host"
    # the host's orientation, where it exists, is copied instead of peeling
    G = gm.as_graph(H)
    G.oriented("degeneracy", relabel=True)
    assert gm.count_cliques(G, 4, device="cuda") == len(four) and PEELED not in G._cuda
    # below the size rule the host's order is built and copied
    _device.PEEL_MIN_EDGES = G.n_edges + 1
    G = gm.as_graph(H)
    assert gm.count_cliques(G, 4, device="cuda") == len(four) and PEELED not in G._cuda
    assert G._cuda["degeneracy"].built_on == "host"
    _device.PEEL_MIN_EDGES = 0
    # partitioned counts: several numbers of row ranges, bins and hubs forced
    for H in (nx.karate_club_graph(), nx.gnp_random_graph(50, 0.25, seed=2)):
        tri = sum(nx.triangles(H).values()) // 3
        for parts in (2, 5):  # 1 is the unpartitioned path, checked above
            for hub_min, b in ((None, None), (0, (1, 2, 4)), (10**9, (0, 1, 2))):
                got = _partition.count_triangles(gm.as_graph(H), "degree", 1, parts=parts, hub_min=hub_min, bounds=b)
                assert got == tri, (parts, hub_min, b, got, tri)
    # a memory cap too small for the graph: the count is partitioned (>= 4 ranges), exact
    H = nx.gnp_random_graph(40, 0.3, seed=4)
    G = gm.as_graph(H)
    os.environ["GRAPHMINE_GPU_MAX_BYTES"] = str(16 * (G.n_nodes + 1) + 7 * G.n_edges)
    tm = {}
    assert not _partition.fits_unpartitioned(G)
    assert _partition.count_triangles(G, "degree", 1, timings=tm) == sum(nx.triangles(H).values()) // 3
    assert tm["parts"] >= 4, tm
    assert gm.count_triangles(gm.as_graph(H), device="cuda") == sum(nx.triangles(H).values()) // 3
    del os.environ["GRAPHMINE_GPU_MAX_BYTES"]
    # device='auto': small graphs stay on the CPU, large ones (by the rule) go to the device
    assert not gc.use_cuda("auto", gm.as_graph(H), 3) and gc.use_cuda("auto")
    assert gc.auto_min_edges(4) <= gc.auto_min_edges(3) and gc.auto_min_edges(9) == gc.auto_min_edges(6)
    gc.warm_up(4).join()

''')

SIM_BLOOM = textwrap.dedent(r'''
    # Bloom sketches: the GPU builds the CPU's filters bit for bit, and the same estimate
    G = gm.as_graph(nx.gnp_random_graph(40, 0.3, seed=1))
    O = G.oriented("degree", relabel=True)
    DG = device_graph(G, "degree", 1)
    for words, wh, b in ((1, 0, 1), (2, 0, 2), (2, 1, 3)):
        S = NeighbourhoodSketch("bloom", "degree", O.indptr, O.indices, words, 0, b, 5, 1, hub_words=wh)
        D = DeviceBloomSketch(DG, "degree", words, wh, b, 5)
        assert (D.filters.copy_to_host() == S.filters).all()
        assert (D.hub_counts.copy_to_host() == S.hub_counts).all()
        if wh:
            assert (D.hubs.copy_to_host() == S.hubs).all()
    for kw in (dict(bits=128), dict(budget=0.5), dict(bits=64, hashes=2, exact_threshold=0),
               dict(budget=0.3, estimator="and"), dict(bits=192, estimator="limit", clamp=True),
               dict(bits=64, replicates=2)):
        a = est_triangles(G, method="bloom", seed=7, **kw)
        b = est_triangles(G, method="bloom", seed=7, device="cuda", **kw)
        assert math.isclose(a.estimate, b.estimate, rel_tol=1e-9), (kw, a.estimate, b.estimate)
        assert math.isclose(a.stderr, b.stderr, rel_tol=1e-9, abs_tol=1e-12), kw
        assert (a.estimated, a.saturated, a.params, a.budget) == (b.estimated, b.saturated, b.params, b.budget)
    t = gm.transitivity(G, method="bloom", seed=3, bits=128, device="cuda")
    assert math.isclose(t.estimate, gm.transitivity(G, method="bloom", seed=3, bits=128).estimate, rel_tol=1e-9)
    # filters holding whole sets exactly (no collisions possible: every term exact) give the count
    exact = gm.count_triangles(G)
    assert est_triangles(G, method="bloom", seed=1, bits=4096, exact_threshold=10**6, device="cuda").estimate == exact
    # what the GPU does not estimate: device='cuda' says so, 'auto' gives the CPU's estimate
    for call in (lambda d: est_triangles(G, method="khash", seed=2, device=d),
                 lambda d: gm.probgraph.count_cliques(G, 4, method="bloom", seed=2, device=d),
                 lambda d: gm.probgraph.triangles(G, seed=2, device=d),
                 lambda d: gm.probgraph.clustering(G, seed=2, device=d),
                 lambda d: gm.probgraph.average_clustering(G, seed=2, device=d)):
        try:
            call("cuda")
        except ParameterError as exc:
            assert "device='cpu'" in str(exc), exc
        else:
            raise AssertionError("no ParameterError")
    for call in (lambda d: est_triangles(G, method="khash", seed=2, device=d),
                 lambda d: gm.probgraph.count_cliques(G, 4, method="bloom", seed=2, device=d)):
        assert call("auto").estimate == call("cpu").estimate

    # more than the GPU holds: a clear error naming the sizes, before anything is allocated
    os.environ["GRAPHMINE_GPU_MAX_BYTES"] = "100"
    G = gm.as_graph(nx.karate_club_graph())
    try:
        gm.count_triangles(G, device="cuda")
    except ResourceLimitError as exc:
        assert "GPU memory" in str(exc) and "100 B" in str(exc), exc
    else:
        raise AssertionError("no ResourceLimitError")
    assert not hasattr(G, "_cuda") or not G._cuda
    del os.environ["GRAPHMINE_GPU_MAX_BYTES"]
''')

SIM_MULTI = textwrap.dedent(r'''
    # several GPUs (issue 24): the simulator has one device, so two or three workers on it
    # exercise the row split, the per-worker views and the host-side sums
    from graphmine.cliques import _cuda_multi as _multi, _cuda_partition as _partition
    from graphmine.exceptions import ParameterError

    def nx_cliques(H, k):
        return sum(1 for c in nx.enumerate_all_cliques(H) if len(c) == k)

    for H in (nx.karate_club_graph(), nx.gnp_random_graph(34, 0.3, seed=3), nx.star_graph(7), nx.empty_graph(3)):
        tri = sum(nx.triangles(H).values()) // 3
        pv = np.array([nx.triangles(H)[v] for v in sorted(H)], np.int64)
        for workers in ([0, 0], [0, 0, 0]):
            G = gm.as_graph(H)  # no host orientation: device 0 builds it, the workers view its rows
            tm = {}
            assert _multi.count_triangles(G, 1, workers, timings=tm) == tri, (workers, tri)
            assert len(tm["workers"]) == len(workers) and tm["cuts"][0] == 0 and tm["cuts"][-1] == G.n_nodes
            assert (gc.triangles(G, devices=workers) == pv).all()
            G = gm.as_graph(H)
            G.oriented("degree", relabel=True)  # the host's orientation, rows copied per worker
            assert gc.count_triangles(G, devices=workers) == tri
            assert gc.count_triangles(gm.as_graph(H), order="degeneracy", devices=workers) == tri
            assert _multi.count_triangles(gm.as_graph(H), 1, workers, bounds=(0, 1, 2), hub_min=1) == tri
            for k in (4, 5):
                assert gc.count_cliques(gm.as_graph(H), k, devices=workers) == nx_cliques(H, k), k
            got = gc.clique_counts(gm.as_graph(H), 4, devices=workers)
            assert (got == gc.clique_counts(gm.as_graph(H), 4)).all() and got.sum() == 4 * nx_cliques(H, 4)
    # row cuts of about equal work (per arc 1 + the shorter list): the heavy row alone; no arcs
    cuts = _multi.row_split(np.array([0, 3, 3, 4, 4]), np.array([1, 2, 3, 3]), 2, sample=1)
    assert cuts.tolist() == [0, 1, 4], cuts
    assert _multi.row_split(np.array([0, 0, 0]), np.array([], np.int32), 3).tolist() == [0, 2, 2, 2]
    # device ids: default every visible one; a missing one or a bad value is one clear error
    assert _multi.resolve_devices(None) == [0] and _multi.resolve_devices(0) == [0]
    for bad in ([1], [], [0, -1], "x", [0.5], [True]):
        try:
            gc.count_triangles(nx.karate_club_graph(), devices=bad)
        except ParameterError as exc:
            assert "devices" in str(exc), exc
        else:
            raise AssertionError(bad)
    # partitioned counts: the snake order sends p - 1 fewer blocks; blocks dealt to two workers
    for H in (nx.karate_club_graph(), nx.gnp_random_graph(50, 0.25, seed=2)):
        tri = sum(nx.triangles(H).values()) // 3
        G = gm.as_graph(H)
        tm = {}
        assert _partition.count_partitioned(G, "degree", 1, parts=4, timings=tm) == tri
        assert tm["pairs"] == 10 and tm["copies"] == 7, tm
        shares = [_partition.count_partitioned(G, "degree", 1, parts=5, blocks=b) for b in ([0, 4, 2], [1, 3])]
        assert sum(shares) == tri, shares
        os.environ["GRAPHMINE_GPU_MAX_BYTES"] = str(16 * (G.n_nodes + 1) + 7 * G.n_edges)
        tm = {}
        assert _multi.count_triangles(gm.as_graph(H), 1, [0, 0], timings=tm) == tri
        assert tm["parts"] >= 4 and len(tm["workers"]) == 2, tm
        del os.environ["GRAPHMINE_GPU_MAX_BYTES"]
    # the CLI's --devices
    import io, contextlib, json, tempfile
    from graphmine.cli import main
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.el")
        H = nx.karate_club_graph()
        with open(path, "w") as fh:
            fh.writelines(f"{a} {b}\n" for a, b in H.edges)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["count-cliques", path, "--device", "cuda", "--devices", "0,0", "--json", "-q"]) == 0
        assert json.loads(out.getvalue())["count"] == 45
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert main(["count-cliques", path, "--devices", "0"]) == 2
        assert "--devices applies to exact counts with --device cuda" in err.getvalue(), err.getvalue()

''')


def run_script(script, timeout=600):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if not REAL:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=timeout)


@pytest.mark.slow
@pytest.mark.parametrize("part", ["counts", "build", "bloom", "multi"])
def test_kernels_match_cpu_and_networkx(part):
    """Every CUDA kernel (simulated in CI) against graphmine's CPU kernels and networkx: exact and
    per-vertex counts; the device build, partitions and device='auto'; the Bloom sketches; several
    workers (issue 24's split and sums, two or three workers on the one simulated device)."""
    script = (SIM_PRELUDE + {"counts": SIM_COUNTS, "build": SIM_BUILD, "bloom": SIM_BLOOM, "multi": SIM_MULTI}[part]
              + 'print("ALL OK")\n')
    r = run_script(script)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-3000:] + r.stderr[-5000:]


def test_cpu_path_never_imports_cuda():
    script = ("import sys, networkx as nx, graphmine as gm\n"
              "H = nx.karate_club_graph()\n"
              "gm.count_triangles(H); gm.triangles(H); gm.count_cliques(H, 4); gm.clustering(H)\n"
              "gm.average_clustering(H); gm.transitivity(H); gm.count_triangles(H, device='cpu')\n"
              "gm.probgraph.count_triangles(H, method='bloom', seed=1)\n"

              "from graphmine import cli\n"
              "cli.main(['count-cliques', 'USAir', '-q', '--json'])\n"
              "print(sorted(m for m in sys.modules if m.startswith(('numba.cuda', 'numba_cuda', 'graphmine.cuda'))))\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"


def test_auto_on_a_small_graph_loads_no_cuda():
    """device='auto' below the rule's size counts on the CPU without importing numba.cuda."""
    script = ("import sys, networkx as nx, graphmine as gm\n"
              "H = nx.karate_club_graph()\n"
              "print(gm.count_triangles(H, device='auto'), gm.count_cliques(H, 4, device='auto'))\n"
              "print(sorted(m for m in sys.modules if m.startswith(('numba.cuda', 'numba_cuda'))))\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines() == ["45 11", "[]"]


def test_bad_device_names_the_choices():
    with pytest.raises(ParameterError, match="device must be one of"):
        gm.count_triangles(nx.complete_graph(4), device="gpu")
    with pytest.raises(ParameterError, match="device must be one of"):
        gm.count_cliques(nx.complete_graph(4), 4, device="GPU")
    with pytest.raises(ParameterError, match="k = 35"):
        gm.cuda.count_cliques(nx.complete_graph(4), 40)


def _no_gpu():
    import graphmine.cuda as gc

    if gc.is_available():
        pytest.skip("a CUDA device (or the simulator) is visible here")


def test_no_device_error():
    _no_gpu()
    from graphmine.cuda import NoCudaDeviceError

    H = nx.complete_graph(5)
    for call in (lambda: gm.count_triangles(H, device="cuda"), lambda: gm.triangles(H, device="cuda"),
                 lambda: gm.count_cliques(H, 4, device="cuda"), lambda: gm.clustering(H, device="cuda"),
                 lambda: gm.transitivity(H, device="cuda"),
                 lambda: gm.count_triangles(H, method="bloom", seed=1, device="cuda")):
        with pytest.raises(NoCudaDeviceError, match="no CUDA device visible") as info:
            call()
        assert isinstance(info.value, GraphmineError) and isinstance(info.value, RuntimeError)
    # 'auto' without a device is the CPU count
    assert gm.count_triangles(H, device="auto") == 10
    assert gm.count_cliques(H, 4, device="auto") == 5
    assert gm.probgraph.count_triangles(H, method="bloom", bits=512, seed=1, device="auto").estimate == 10


def test_no_device_error_names_the_extra_without_numba_cuda(monkeypatch):
    """Without the numba-cuda package (numba's own numba.cuda still imports), the error names the
    extra that installs it; with it, the message is the plain one."""
    _no_gpu()
    from graphmine.cuda import NoCudaDeviceError, _device

    monkeypatch.setattr(_device, "_has_numba_cuda", lambda: False)
    with pytest.raises(NoCudaDeviceError, match=r'no CUDA device visible.*pip install "graphmine\[cuda\]"'):
        gm.count_triangles(nx.complete_graph(4), device="cuda")
    monkeypatch.setattr(_device, "_has_numba_cuda", lambda: True)
    with pytest.raises(NoCudaDeviceError) as info:
        gm.count_triangles(nx.complete_graph(4), device="cuda")
    assert str(info.value) == "no CUDA device visible (device='cuda'); use device='cpu' or 'auto'"


def test_cli_device_cuda_without_gpu_exits_2(tmp_path):
    _no_gpu()
    path = tmp_path / "k4.el"
    path.write_text("0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    r = subprocess.run([sys.executable, "-m", "graphmine", "count-cliques", str(path), "--device", "cuda", "-q"],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert r.returncode == 2
    assert r.stdout == ""
    from importlib import metadata

    try:
        metadata.distribution("numba-cuda")
        hint = ""
    except metadata.PackageNotFoundError:       # a base install: the message names the extra
        hint = ('; the GPU kernels also need numba-cuda, which is not installed: pip install "graphmine[cuda]" '
                'on a machine with an NVIDIA GPU')
    assert r.stderr.strip().splitlines() == ["graphmine: error: no CUDA device visible (device='cuda'); "
                                             "use device='cpu' or 'auto'" + hint]
    r = subprocess.run([sys.executable, "-m", "graphmine", "count-cliques", str(path), "--device", "auto", "-q",
                        "--json"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert r.returncode == 0 and '"count": 4' in r.stdout, r.stderr


def test_cli_devices_option_errors(tmp_path, capsys):
    """--devices: GPU ids separated by commas, with --device cuda and an exact count only; a
    wrong value is one line and exit status 2 (no GPU needed: checked before any is asked for)."""
    from graphmine.cli import main

    path = tmp_path / "k4.el"
    path.write_text("0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n")
    for argv, want in (([str(path), "--device", "cuda", "--devices", "0,x"], "expected GPU ids separated by commas"),
                       ([str(path), "--devices", "0"], "--devices applies to exact counts with --device cuda"),
                       ([str(path), "--device", "cuda", "--devices", "0", "--method", "bloom"],
                        "--devices applies to exact counts with --device cuda"),
                       ([str(path), "--all-k", "--devices", "0"], "--devices")):
        try:
            code = main(["count-cliques", *argv])
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        assert code == 2 and out == "", (argv, code, out)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and " error: " in lines[0] and want in lines[0], (argv, err)
