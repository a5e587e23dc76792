"""4-cycles per vertex and in total on the GPU (numba-cuda): the device side of
:mod:`graphmine.cycles._cpu`, reached through ``graphmine.four_cycles(G, device='cuda')``.

Contract: the full symmetric CSR (sorted rows, no self-loops) copied to the device as it is; one
thread per vertex v in a grid-stride loop. With c(v, w) = |N(v) ∩ N(w)|, every two-hop path
v - u - w (w != v) adds c(v, w) - 1, and

.. math::

    \\sum_{u \\in N(v)} \\sum_{w \\in N(u) \\setminus \\{v\\}} (c(v, w) - 1)
    = \\sum_{w \\ne v} c(v, w) (c(v, w) - 1) = 2 C_4(v),

so a thread needs no scratch array (the CPU kernel's dense counter does not fit one per GPU
thread): the intersections are merges of two sorted rows. Importing this module loads numba.cuda;
the registry imports it on the first GPU call only. Kernels never validate.
"""

import numpy as np
from numba import cuda, int64

from .._runtime.docs import fill_doc
from .._primitives.setops import merge_count
from .._runtime.threads import restores_threads
from ..core.validation import as_graph
from ..core.registry import implements
from ..cuda.launch import block_size, check_device_memory, cuda_module, grid as _grid, quiet, require_device

__all__ = ["four_cycles", "count_four_cycles"]


# |row a:b ∩ row c:d| of two sorted rows: the CPU's merge, compiled for the device from the same
# Python function
_common = cuda.jit(device=True, inline=True)(merge_count.py_func)


@cuda.jit(cache=True)
def _four_cycles(indptr, indices, out):
    n = indptr.shape[0] - 1
    for v in range(cuda.grid(1), n, cuda.gridsize(1)):
        twice = int64(0)
        a, b = indptr[v], indptr[v + 1]
        for i in range(a, b):
            u = indices[i]
            for j in range(indptr[u], indptr[u + 1]):
                w = indices[j]
                if w != v:
                    twice += _common(indices, a, b, indices, indptr[w], indptr[w + 1]) - 1
        out[v] = twice // 2


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
    B = block_size()
    with quiet():
        _four_cycles[_grid(n, B), B](cu.to_device(G.indptr), cu.to_device(G.indices), out)
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
