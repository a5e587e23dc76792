"""4-cycles (graphmine.cycles._cpu, graphmine.cycles._cuda) against networkx's cycle listing and
closed forms; the GPU kernel under numba's CUDA simulator in its own process."""

import os
import subprocess
import sys
from math import comb

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphmine as gm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def oracle(H):
    """(total, per vertex) from networkx's own enumeration of the simple cycles of length 4."""
    per = np.zeros(H.number_of_nodes(), np.int64)
    total = 0
    for cycle in nx.simple_cycles(H, length_bound=4):
        if len(cycle) == 4:
            total += 1
            per[list(cycle)] += 1
    return total, per


graphs = st.integers(1, 14).flatmap(
    lambda n: st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40).map(
        lambda edges: (n, edges)))


def _nx(n, edges):
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from((u, v) for u, v in edges if u != v)
    return H


@settings(max_examples=60, deadline=None)
@given(graphs, st.sampled_from([1, 2]))
def test_cpu_matches_networkx(g, threads):
    H = _nx(*g)
    total, per = oracle(H)
    G = gm.as_graph(H)
    assert (gm.four_cycles(G, threads=threads) == per).all()
    assert gm.count_four_cycles(G, threads=threads) == total


def test_closed_forms():
    for a, b in ((2, 2), (3, 4), (5, 5)):
        assert gm.count_four_cycles(nx.complete_bipartite_graph(a, b)) == comb(a, 2) * comb(b, 2)
    assert gm.count_four_cycles(nx.complete_graph(6)) == 3 * comb(6, 4)
    assert gm.count_four_cycles(nx.cycle_graph(4)) == 1
    assert gm.count_four_cycles(nx.cycle_graph(5)) == 0
    assert gm.count_four_cycles(nx.empty_graph(0)) == 0
    assert gm.four_cycles(nx.complete_graph(4)).tolist() == [3, 3, 3, 3]


def test_parallel_path_on_a_larger_graph():
    # above the serial threshold: the threaded kernel against the serial one and networkx's
    # square-clustering numerator (the same quantity)
    H = nx.gnm_random_graph(600, 6000, seed=3)
    G = gm.as_graph(H)
    per = gm.four_cycles(G, threads=2)
    assert (per == gm.four_cycles(G, threads=1)).all()
    assert int(per.sum()) % 4 == 0
    sample = [0, 5, 17, 599]
    total, per_nx = oracle(H.subgraph(range(40)).copy())
    assert gm.count_four_cycles(H.subgraph(range(40)).copy()) == total
    for v in sample:
        nbrs = set(H[v])
        want = sum(comb(len(nbrs & set(H[w])), 2) for w in H if w != v)
        assert per[v] == want


def test_ranked_kernels_against_the_two_hop_count():
    # four_cycles counts each cycle once from its last vertex in the degree order; square_counts
    # walks every two-hop path from every vertex: two independent counts of the same numbers, on
    # skewed graphs above the serial threshold (the threaded kernel) and below it
    from graphmine.core.graph import SERIAL_EDGES
    from graphmine.cycles._cpu import square_counts

    for H in (nx.barabasi_albert_graph(4000, 16, seed=1), nx.powerlaw_cluster_graph(800, 6, 0.4, seed=2)):
        G = gm.as_graph(H)
        want = square_counts(G, threads=1)[0]
        for threads in (1, 2):
            assert (gm.four_cycles(G, threads=threads) == want).all()
    assert gm.as_graph(nx.barabasi_albert_graph(4000, 16, seed=1)).n_edges > SERIAL_EDGES


SIM = r'''
import networkx as nx, numpy as np, graphmine as gm
from graphmine.cuda import is_available
assert is_available()
rng = np.random.default_rng(5)
for n, p in ((0, 0.0), (1, 0.0), (7, 0.5), (30, 0.2), (25, 0.6)):
    H = nx.gnp_random_graph(n, p, seed=int(rng.integers(1 << 30)))
    G = gm.as_graph(H)
    cpu = gm.four_cycles(G)
    assert (gm.four_cycles(G, device="cuda") == cpu).all(), n
    assert gm.count_four_cycles(G, device="cuda") == gm.count_four_cycles(G) == int(cpu.sum()) // 4
assert gm.count_four_cycles(nx.complete_bipartite_graph(3, 4), device="cuda") == 18
# hubs and ties in the (degree, id) order the kernel counts each cycle from
for H in (nx.barabasi_albert_graph(60, 3, seed=2), nx.wheel_graph(9), nx.hypercube_graph(3)):
    G = gm.as_graph(H)
    assert (gm.four_cycles(G, device="cuda") == gm.four_cycles(G)).all()
print("ALL OK")
'''


def test_gpu_kernel_in_the_simulator():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               NUMBA_ENABLE_CUDASIM="1")
    r = subprocess.run([sys.executable, "-c", SIM], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=600)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-2000:] + r.stderr[-4000:]


def test_dask_blocks_match_networkx():
    pytest.importorskip("distributed")
    from graphmine.distributed import DistributedGraph, local_client

    client = local_client(2, processes=False)
    try:
        for seed, (n, p) in enumerate(((12, 0.4), (30, 0.15), (9, 0.0))):
            H = nx.gnp_random_graph(n, p, seed=seed)
            total, per = oracle(H)
            D = DistributedGraph(H, client, partitions=3)
            ids, counts = gm.four_cycles(D)
            assert (counts == per[np.asarray(ids, np.int64)]).all()
            assert gm.count_four_cycles(D) == total
    finally:
        client.close()
        client.cluster.close()
