"""k-trusses (graphmine.truss._cpu) against networkx, on Hypothesis graphs and a shipped graph; the GPU
peel (graphmine.truss._cuda) under numba's CUDA simulator in its own process, and its kernels
compiled for a real device."""

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

import graphmine as gm
from graphmine.truss._cpu import k_truss, truss_decomposition
from tests.helpers import edge_arrays, nx_graph

graphs = st.one_of(edge_arrays(), edge_arrays(dense=True, max_nodes=16))


@given(graphs, st.integers(-1, 7), st.sampled_from([1, 2]))
def test_k_truss_equals_networkx(data, k, threads):
    n, edges = data
    H = nx_graph(n, edges)
    G = gm.from_edges(edges, n_nodes=n)
    want = nx.k_truss(H, k)
    T = k_truss(G, k, threads=threads)
    assert T.node_ids.tolist() == list(want.nodes)
    got_edges = {frozenset(T.node_ids[e].tolist()) for e in T.edges()}
    assert got_edges == set(map(frozenset, want.edges))
    e, t = truss_decomposition(G, threads=threads)
    for kk in range(2, 8):
        inside = set(map(frozenset, nx.k_truss(H, kk).edges))
        assert {frozenset(x) for x in e[t >= kk].tolist()} == inside


@pytest.mark.parametrize("k", [4, 12])
def test_k_truss_real_graph(k):
    G = gm.datasets.load("ca-GrQc")
    H = G.to_networkx()
    want = nx.k_truss(H, k)
    T = k_truss(G, k, threads=2)
    assert T.node_ids.tolist() == sorted(want.nodes, key=list(H).index)
    assert {frozenset(T.node_ids[e].tolist()) for e in T.edges()} == set(map(frozenset, want.edges))


TRUSS_SIM = r'''
import networkx as nx, numpy as np, graphmine as gm
from graphmine.cuda import is_available
from graphmine.cuda._device import device_graph
from graphmine.truss._cuda import truss_alive
assert is_available()
rng = np.random.default_rng(3)
strip = nx.Graph([(i, i + 1) for i in range(11)] + [(i, i + 2) for i in range(10)])  # a strip of triangles
strip.add_edges_from(nx.complete_graph(range(20, 26)).edges)
graphs = [nx.empty_graph(3), nx.relabel_nodes(strip, {v: f"v{v}" for v in strip}),
          nx.gnp_random_graph(16, 0.5, seed=int(rng.integers(1 << 30)))]
for H in graphs:
    for k in (2, 3, 4, 5):
        got = gm.k_truss(H, k, device="cuda")
        W = nx.k_truss(H, k)
        assert got == gm.k_truss(H, k), k
        assert sorted(got.node_ids.tolist(), key=str) == sorted(W.nodes, key=str), k
        assert got.n_edges == W.number_of_edges(), k

def rounds(H, k):
    """The rounds of removing every edge below k - 2 at once (the last removes nothing)."""
    H, r = H.copy(), 0
    while True:
        r += 1
        dead = [(u, v) for u, v in H.edges if len(set(H[u]) & set(H[v])) < k - 2]
        if not dead:
            return r, H.number_of_edges()
        H.remove_edges_from(dead)


for H, k in ((strip, 4), (nx.power(nx.path_graph(14), 4), 6), (graphs[-1], 5)):
    live, r = truss_alive(device_graph(gm.as_graph(H), "degree", 1), k)
    assert (r, int(live.sum())) == rounds(H, k), (r, live.sum(), rounds(H, k))
print("ALL OK")
'''


@pytest.mark.slow
def test_k_truss_on_the_gpu_in_the_simulator():
    """The GPU's rounds (every edge below k - 2 at once) give networkx's k-truss, through the
    registry (``device='cuda'``), with node labels; the cascade of a strip of triangles takes
    several rounds."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""), NUMBA_ENABLE_CUDASIM="1")
    r = subprocess.run([sys.executable, "-c", TRUSS_SIM], capture_output=True, text=True, env=env, cwd=root,
                       timeout=600)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-2000:] + r.stderr[-4000:]


def test_k_truss_gpu_kernels_compile_for_the_device():
    """The simulator runs the kernels as Python; numba-cuda's compiler types them for a real GPU
    (PTX for compute capability 9.0, the H100/H200), with both index widths, no device needed."""
    cuda = pytest.importorskip("numba.cuda")
    from numba import types
    from graphmine.truss import _cuda as _truss

    for index in (types.int32, types.int64):
        try:
            ptx, _ = cuda.compile_ptx(_truss._supports.py_func, (types.int64[:], index[:], index[:], types.uint8[:],
                                                                  types.int32[:]), cc=(9, 0))
        except Exception as e:  # no NVVM library in this environment
            if "nvvm" in str(e).lower() or "NvvmSupportError" in type(e).__name__:
                pytest.skip(f"numba-cuda cannot compile here: {e}")
            raise
        assert "atom.global.add" in ptx
    ptx, _ = cuda.compile_ptx(_truss._peel.py_func, (types.uint8[:], types.int32[:], types.int64, types.int32[:]),
                              cc=(9, 0))
    assert ".entry" in ptx
