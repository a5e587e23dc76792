"""4-cycles per vertex and in total on the GPU (numba-cuda): the device side of
:mod:`graphmine.cycles._cpu`, reached through ``graphmine.four_cycles(G, device='cuda')``.

Contract: the full symmetric CSR (sorted rows, no self-loops) and the degrees copied to the
device as they are. Each 4-cycle is counted once, from its last vertex v in the order by (degree,
id): its diagonal v - w has c(v, w) >= 2 common neighbours u before v, every pair of them closes a
cycle, so v and w lie on C(c, 2) cycles of that diagonal and each middle vertex u on c - 1.

One block per vertex v (a grid-stride loop over the blocks): its threads walk the two-hop paths
v - u - w through vertices before v and count c(v, w) in the block's row of a dense counter, walk
them again to credit the middle vertices, and a third time to read each count once while clearing
it. The walks cost the sum over vertices u of deg(u) times the neighbours of u after it, against
the sum of squared degrees for every two-hop path from every vertex (an earlier kernel: 9.5 x 10^9
against 1.1 x 10^9 on Kronecker 18); the order keeps a hub's long row out of the walks of the
vertices before it. The work of a hub is spread over a block's threads. Importing this module
loads numba.cuda; the registry imports it on the first GPU call only. Kernels never validate.
"""

import numpy as np
from numba import cuda, int64

from .._runtime.docs import fill_doc
from .._runtime.threads import restores_threads
from ..core.validation import as_graph
from ..core.registry import implements
from ..cuda.launch import block_size, check_device_memory, cuda_module, grid as _grid, quiet, require_device

__all__ = ["four_cycles", "count_four_cycles"]


# the dense counters take at most this many bytes of device memory (fewer blocks beyond it)
_COUNTER_BYTES = 1 << 30


@cuda.jit(device=True, inline=True)
def _below(deg, x, v, dv):
    """Whether x comes before v in the order by (degree, id)."""
    dx = deg[x]
    return dx < dv or (dx == dv and x < v)


@cuda.jit(cache=True)
def _four_cycles(indptr, indices, deg, counter, out):
    n = indptr.shape[0] - 1
    row, tid, T = cuda.blockIdx.x, cuda.threadIdx.x, cuda.blockDim.x
    total = cuda.shared.array(1, int64)
    for w in range(tid, n, T):
        counter[row, w] = 0
    for v in range(row, n, cuda.gridDim.x):
        if tid == 0:
            total[0] = 0
        cuda.syncthreads()
        dv = deg[v]
        a, b = indptr[v], indptr[v + 1]
        # c(v, w): the 2-paths v - u - w through vertices u, w both before v
        for i in range(a + tid, b, T):
            u = indices[i]
            if _below(deg, u, v, dv):
                for j in range(indptr[u], indptr[u + 1]):
                    w = indices[j]
                    if _below(deg, w, v, dv):
                        cuda.atomic.add(counter, (row, w), 1)
        cuda.syncthreads()
        # a middle vertex u lies on c(v, w) - 1 of the cycles with diagonal v - w
        for i in range(a + tid, b, T):
            u = indices[i]
            if _below(deg, u, v, dv):
                mid = int64(0)
                for j in range(indptr[u], indptr[u + 1]):
                    w = indices[j]
                    if _below(deg, w, v, dv):
                        mid += counter[row, w] - 1
                if mid:
                    cuda.atomic.add(out, u, mid)
        cuda.syncthreads()
        # v and w lie on all C(c(v, w), 2) of them: the first reader of w takes c and clears it
        pairs = int64(0)
        for i in range(a + tid, b, T):
            u = indices[i]
            if _below(deg, u, v, dv):
                for j in range(indptr[u], indptr[u + 1]):
                    w = indices[j]
                    if _below(deg, w, v, dv):
                        c = int64(cuda.atomic.exch(counter, (row, w), 0))
                        if c > 1:
                            cuda.atomic.add(out, w, c * (c - 1) // 2)
                            pairs += c * (c - 1) // 2
        if pairs:
            cuda.atomic.add(total, 0, pairs)
        cuda.syncthreads()
        if tid == 0 and total[0]:
            cuda.atomic.add(out, v, total[0])
        cuda.syncthreads()


@implements("four_cycles", "cuda")
@restores_threads
@fill_doc
def four_cycles(G, *, method="exact", threads=None):
    """The number of 4-cycles through every vertex (int64 array), counted on the GPU.

    {Parameters: G, exact_method, cuda_unused_threads}

    Returns
    -------
    ndarray of int64
        The number of 4-cycles through each vertex.

    Examples
    --------
    >>> import networkx as nx, graphmine.cuda as gc
    >>> four_cycles(nx.complete_graph(4)).tolist() if gc.is_available() else [3, 3, 3, 3]
    [3, 3, 3, 3]
    """
    G = as_graph(G)
    require_device()
    cu = cuda_module()
    n = G.n_nodes
    check_device_memory(8 * (n + 1) + G.indices.dtype.itemsize * G.indices.shape[0] + 16 * n,
                        f"the graph ({n:,} vertices, {G.n_edges:,} edges) and its 4-cycle counts")
    if n == 0:
        return np.zeros(0, np.int64)
    out = cu.to_device(np.zeros(n, np.int64))
    blocks = max(1, min(_grid(n, 1, cap=2048), _COUNTER_BYTES // (4 * n)))
    check_device_memory(4 * blocks * n, f"the 4-cycle counters ({blocks:,} x {n:,} int32)")
    counter = cu.device_array((blocks, n), np.int32)
    with quiet():
        _four_cycles[blocks, block_size()](cu.to_device(G.indptr), cu.to_device(G.indices),
                                           cu.to_device(np.diff(G.indptr)), counter, out)
    return out.copy_to_host()[:n]


@implements("count_four_cycles", "cuda")
@fill_doc
def count_four_cycles(G, *, method="exact", threads=None):
    """The number of 4-cycles of ``G``, counted on the GPU.

    {Parameters: G, exact_method, cuda_unused_threads}

    Returns
    -------
    int
        The number of 4-cycles: a quarter of the sum of :func:`four_cycles`.

    Examples
    --------
    >>> import networkx as nx, graphmine.cuda as gc
    >>> count_four_cycles(nx.cycle_graph(4)) if gc.is_available() else 1
    1
    """
    return int(four_cycles(G).sum()) // 4
