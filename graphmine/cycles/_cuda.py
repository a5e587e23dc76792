"""4-cycles per vertex and in total on the GPU (numba-cuda): the device side of
:mod:`graphmine.cycles._cpu`, reached through ``graphmine.four_cycles(G, device='cuda')``.

Contract: the full symmetric CSR (sorted rows, no self-loops) copied to the device as it is. With
c(v, w) = |N(v) ∩ N(w)|, the number of two-hop paths v - u - w,

.. math::

    \\sum_{w \\ne v} c(v, w) (c(v, w) - 1) = 2 C_4(v).

One block per vertex v (a grid-stride loop over the blocks): its threads walk the two-hop paths
from v and count c(v, w) in the block's row of a dense counter (the CPU kernel's counter, one row
per block rather than per thread), then read each count back once while clearing it. The work of
a hub is spread over a block's threads; an earlier kernel of one thread per vertex, merging two
sorted rows per path, left a hub's thread running alone (3.2 s against the CPU's 0.01 s on
facebook_combined). Importing this module loads numba.cuda; the registry imports it on the
first GPU call only. Kernels never validate.
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


@cuda.jit(cache=True)
def _four_cycles(indptr, indices, counter, out):
    n = indptr.shape[0] - 1
    row, tid, T = cuda.blockIdx.x, cuda.threadIdx.x, cuda.blockDim.x
    total = cuda.shared.array(1, int64)
    for w in range(tid, n, T):
        counter[row, w] = 0
    for v in range(row, n, cuda.gridDim.x):
        if tid == 0:
            total[0] = 0
        cuda.syncthreads()
        a, b = indptr[v], indptr[v + 1]
        for i in range(a + tid, b, T):
            u = indices[i]
            for j in range(indptr[u], indptr[u + 1]):
                w = indices[j]
                if w != v:
                    cuda.atomic.add(counter, (row, w), 1)
        cuda.syncthreads()
        twice = int64(0)
        for i in range(a + tid, b, T):
            u = indices[i]
            for j in range(indptr[u], indptr[u + 1]):
                w = indices[j]
                if w != v:
                    # the first reader of w takes c(v, w) and clears it; later readers take 0
                    c = int64(cuda.atomic.exch(counter, (row, w), 0))
                    twice += c * (c - 1)
        cuda.atomic.add(total, 0, twice)
        cuda.syncthreads()
        if tid == 0:
            out[v] = total[0] // 2
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
    check_device_memory(8 * (n + 1) + G.indices.dtype.itemsize * G.indices.shape[0] + 8 * n,
                        f"the graph ({n:,} vertices, {G.n_edges:,} edges) and its 4-cycle counts")
    if n == 0:
        return np.zeros(0, np.int64)
    out = cu.device_array(n, np.int64)
    blocks = max(1, min(_grid(n, 1, cap=2048), _COUNTER_BYTES // (4 * n)))
    check_device_memory(4 * blocks * n, f"the 4-cycle counters ({blocks:,} x {n:,} int32)")
    counter = cu.device_array((blocks, n), np.int32)
    with quiet():
        _four_cycles[blocks, block_size()](cu.to_device(G.indptr), cu.to_device(G.indices), counter, out)
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
