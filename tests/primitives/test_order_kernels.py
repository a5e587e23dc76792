"""The degeneracy order and orientation kernels (graphmine._primitives.order_kernels, csr_kernels)
against each other, networkx's core numbers and the definition of a degeneracy order."""

import networkx as nx
import numpy as np
from hypothesis import given

import graphmine as gm
from tests.helpers import edge_arrays, nx_graph


@given(edge_arrays(dense=True), edge_arrays())
def test_degeneracy_order_and_orientation_in_one_pass(dense, sparse):
    """The one-pass peel-and-orient kernel behind ``oriented('degeneracy', relabel=True)``, the
    degeneracy rank and ``core_number``: the orientation against the parallel gather-and-sort of
    the same rank (another code path), on int32 and int64 ids; the core numbers against networkx;
    every vertex has at most its core number of later neighbours (a degeneracy order)."""
    from graphmine._primitives import csr_kernels as csr, order_kernels as order

    for n, edges in (dense, sparse):
        G = gm.from_edges(edges, n_nodes=n)
        rank, core, optr, oind = order._degeneracy_oriented(G.indptr, G.indices, True)
        optr0, oind0 = csr._orient_relabel(G.indptr, G.indices, rank, 2)
        assert np.array_equal(optr, optr0) and np.array_equal(oind, oind0)
        assert oind.dtype == G.indices.dtype and np.array_equal(np.sort(rank), np.arange(n))
        wide = order._degeneracy_oriented(G.indptr, G.indices.astype(np.int64), True)
        assert wide[3].dtype == np.int64
        assert all(np.array_equal(a, b) for a, b in zip(wide, (rank, core, optr, oind)))
        lean = order._degeneracy_oriented(G.indptr, G.indices, False)
        assert np.array_equal(lean[0], rank) and np.array_equal(lean[1], core) and lean[3].size == 0
        want = nx.core_number(nx_graph(n, edges))
        assert core.tolist() == [want[v] for v in range(n)] == G.core_number().tolist()
        later = np.diff(optr)[rank]  # later neighbours of every vertex
        assert all(later[v] <= core[v] for v in range(n))
        O = G.oriented("degeneracy", relabel=True, threads=2)
        assert np.array_equal(O.rank, rank) and np.array_equal(O.indices, oind)
        assert np.array_equal(gm.Graph.from_csr(G.indptr, G.indices).oriented("degeneracy").rank, rank)
