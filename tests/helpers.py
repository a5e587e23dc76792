"""Helpers shared by the test modules: ``from tests.helpers import edge_arrays, nx_graph``. The fixtures
and the Hypothesis profiles are in conftest.py."""

import numpy as np
from hypothesis import strategies as st


@st.composite
def edge_arrays(draw, max_nodes=24, max_edges=120, dense=False):
    """(n, edges) with edges an (m, 2) int64 array over 0..n-1, loops and repeats included."""
    n = draw(st.integers(1, max_nodes))
    if dense:
        p = draw(st.floats(0.2, 0.9))
        seed = draw(st.integers(0, 2**32 - 1))
        rng = np.random.default_rng(seed)
        iu, ju = np.triu_indices(n, 1)
        keep = rng.random(iu.shape[0]) < p
        return n, np.column_stack((iu[keep], ju[keep])).astype(np.int64)
    m = draw(st.integers(0, max_edges))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=m, max_size=m))
    return n, np.array(pairs, dtype=np.int64).reshape(-1, 2)


def nx_graph(n, edges):
    import networkx as nx

    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from(map(tuple, edges.tolist()))
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return H
