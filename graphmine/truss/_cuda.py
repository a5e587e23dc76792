"""The k-truss on the GPU (numba-cuda): the device side of :func:`graphmine.k_truss`, reached
through ``graphmine.k_truss(G, k, device='cuda')``.

Contract: the degree-oriented CSR of the graph on the device (:func:`device_graph`, shared with the
triangle and clique counts), one ``alive`` byte and one support per arc. A round counts, for every
live arc, the triangles of live arcs: each triangle u < v < w once, at its arc u -> v, by a merge
of the rest of N+(u) with N+(v), crediting its three arcs (u -> v, u -> w, v -> w) with atomics;
then every live arc on fewer than k - 2 such triangles dies at once. An edge below k - 2 in a
graph stays below in every subgraph, so removing all of them in one round is what the
one-at-a-time peeling removes, and the rounds end when one removes nothing: the k-truss is what
lives. The host only reads one flag per round and the live arcs at the end. Importing this module
loads numba.cuda; the registry imports it on the first GPU call only. Kernels never validate.
"""

import numpy as np
from numba import cuda, int32

from .._runtime.docs import fill_doc
from .._runtime.threads import restores_threads
from ..core.exceptions import check_int
from ..core.graph import rank_space_arcs
from ..core.validation import as_graph
from ..core.registry import implements
from ..cuda.launch import (arc_sources, block_size, check_device_memory, cuda_module, device_graph, grid as _grid,
                           quiet, require_device)

__all__ = ["k_truss"]


@cuda.jit(cache=True)
def _supports(optr, oind, src, alive, sup):
    """sup[a] += the triangles of live arcs through every live arc a (sup zero before)."""
    m = oind.shape[0]
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        if alive[j] == 0:
            continue
        u = src[j]
        v = oind[j]
        i = j + 1  # the out-neighbours of u after v (rows are sorted)
        ihi = optr[u + 1]
        l = optr[v]
        lhi = optr[v + 1]
        c = int32(0)
        while i < ihi and l < lhi:
            a = oind[i]
            b = oind[l]
            if a < b:
                i += 1
            elif a > b:
                l += 1
            else:
                if alive[i] != 0 and alive[l] != 0:
                    c += 1
                    cuda.atomic.add(sup, i, 1)
                    cuda.atomic.add(sup, l, 1)
                i += 1
                l += 1
        if c != 0:
            cuda.atomic.add(sup, j, c)


@cuda.jit(cache=True)
def _peel(alive, sup, need, changed):
    """Every live arc with sup < need dies (changed[0] = 1 if one does); sup is zeroed for the
    next round."""
    for j in range(cuda.grid(1), alive.shape[0], cuda.gridsize(1)):
        if alive[j] != 0 and sup[j] < need:
            alive[j] = 0
            changed[0] = 1
        sup[j] = 0


def truss_alive(DG, k):
    """The live arcs of ``DG``'s k-truss (host bool array over its arcs) and the number of rounds."""
    cu = cuda_module()
    m = DG.m
    check_device_memory(5 * m + 8, f"the supports and flags of {m:,} arcs")
    alive = cu.to_device(np.ones(max(m, 1), np.uint8))
    sup = cu.to_device(np.zeros(max(m, 1), np.int32))
    changed = cu.to_device(np.zeros(1, np.int32))
    B = block_size()
    grid = _grid(m, B)
    rounds = 0
    zero = np.zeros(1, np.int32)
    with quiet():
        src = arc_sources(DG)
        while m:
            rounds += 1
            _supports[grid, B](DG.optr, DG.oind, src, alive, sup)
            changed.copy_to_device(zero)
            _peel[grid, B](alive, sup, k - 2, changed)
            if changed.copy_to_host()[0] == 0:
                break
    return alive.copy_to_host()[:m].astype(bool), rounds


@implements("k_truss", "cuda")
@restores_threads
@fill_doc
def k_truss(G, k, *, method="exact", threads=None):
    """The k-truss of ``G``, peeled on the GPU: the largest subgraph whose every edge lies on at
    least k - 2 of its triangles, isolated vertices removed (for k <= 2: every edge).

    {Parameters: G}
    k : int
    {exact_method}
    threads : int, optional
        Threads of the host's part (the degree orientation where the GPU does not build it).

    {Returns: k_truss}

    Examples
    --------
    >>> import networkx as nx, graphmine.cuda as gc
    >>> from graphmine.truss._cuda import k_truss
    >>> G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    >>> k_truss(G, 3).n_edges if gc.is_available() else 3
    3
    """
    k = check_int("k", k)
    G = as_graph(G)
    if k <= 2:
        return G.edge_subgraph(G.edges())
    require_device()
    DG = device_graph(G, "degree", threads)
    live, _ = truss_alive(DG, k)
    tails, heads = rank_space_arcs(DG.hptr, DG.oind.copy_to_host()[:DG.m], DG.rank())
    return G.edge_subgraph(np.column_stack((tails[live], heads[live])))
