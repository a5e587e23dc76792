"""The 4-vertex graphlet census on the GPU (numba-cuda): per-vertex orbit counts and global graphlet
counts, reached through ``graphmine.orbit_counts(G, device='cuda')`` and
``graphmine.graphlet_counts(G, device='cuda')``.

The same combinatorial census as the CPU's (:mod:`graphmine.graphlets._cpu`): per vertex, 15
non-induced pattern counts from degrees, edge triangle counts, 4-cycles, 4-cliques and a sum over
triangles, turned into the induced orbit counts by the integer inverse of the pattern matrix. The
4-cycles and 4-cliques through every vertex come from the cycles and cliques families' GPU
implementations through the registry (the 4-cliques on the peeled degeneracy orientation of
:func:`graphmine.cuda.launch.device_graph` for large graphs); the rest is three launches over the
full CSR (``_cuda_kernels.py``). Node orbits of graphlets on up to 4 vertices only: edge orbits
and other sizes are declined, so that ``device='cuda'`` names the reason and ``device='auto'``
falls back to the CPU. Importing this module loads numba.cuda; the registry imports it on the
first GPU call only.
"""

import numpy as np

from .._runtime.docs import fill_doc
from .._runtime.progress import progress_bar
from .._runtime.threads import restores_threads
from ..core.registry import call, implements
from ..core.validation import as_graph
from ..cuda.launch import block_size, check_device_memory, cuda_module, grid as _grid, quiet, require_device
from . import _cuda_kernels as K
from ._cpu import GRAPHLET_ORBITS, NODE_ORBITS, NODE_PATTERNS, ORBIT_SIZES, _inverse, _non_induced

__all__ = ["orbit_counts_on_gpu", "graphlet_counts_on_gpu"]


def _node_orbits_four(G, kwargs):
    """The GPU's part of the rule: node orbits of graphlets on up to 4 vertices."""
    size = kwargs.get("size", 4)
    if size != 4 or isinstance(size, bool):
        return f"counts graphlets on up to 4 vertices (size=4) on the GPU, got size={size!r}"
    if kwargs.get("kind", "node") != "node":
        return f"counts node orbits (kind='node') on the GPU, got kind={kwargs.get('kind')!r}"
    return True


def _census(G, progress):
    """The (n, 15) induced node-orbit counts of ``G`` (a Graph with edges), on the GPU."""
    require_device()
    cu = cuda_module()
    n, m = G.n_nodes, G.n_edges
    slots = G.indices.shape[0]
    # the CSR, t(e) per slot, six int64 vectors (opposite sums, s, t, 4-cycles, 4-cliques) and the rows
    check_device_memory(8 * (n + 1) + G.indices.dtype.itemsize * slots + 8 * slots + 8 * 5 * n
                        + 8 * NODE_ORBITS * n, f"the graph ({n:,} vertices, {m:,} edges) and its 4-vertex orbit counts")
    B = block_size()
    with progress_bar(progress, 4, "4-vertex node orbits on the GPU", unit="step") as bar, quiet():
        indptr = cu.to_device(G.indptr)
        indices = cu.to_device(G.indices)
        tri = cu.device_array(slots, np.int64)
        opposite = cu.to_device(np.zeros(n, np.int64))
        K._edge_pass[_grid(slots, B), B](indptr, indices, tri, opposite)
        sv = cu.device_array(n, np.int64)
        tv = cu.device_array(n, np.int64)
        K._vertex_sums[_grid(n, B), B](indptr, indices, tri, sv, tv)
        bar.update(1)
        # the two counts that need a listing, from their families' GPU kernels
        cycles = cu.to_device(np.ascontiguousarray(call("four_cycles", G, device="cuda"), np.int64))
        bar.update(1)
        cliques = cu.to_device(np.ascontiguousarray(call("vertex_clique_counts", G, k=4, device="cuda"), np.int64))
        bar.update(1)
        out = cu.device_array((n, NODE_ORBITS), np.int64)
        minv = cu.to_device(_inverse(NODE_PATTERNS))
        K._orbit_rows[_grid(n, B), B](indptr, indices, tri, sv, tv, opposite, cycles, cliques, minv, out)
        rows = out.copy_to_host()
        bar.update(1)
    return rows


@implements("orbit_counts", "cuda", methods=("exact",), can_run=_node_orbits_four)
@restores_threads
@fill_doc
def orbit_counts_on_gpu(G, size=4, *, kind="node", threads=None, progress=False):
    """The 4-vertex node orbit counts of every vertex, counted on the GPU; see
    :func:`graphmine.orbit_counts`.

    {Parameters: registered_G}
    size : {4}
        Graphlets on up to 4 vertices (the rule declines other sizes).
    kind : {'node'}
        Node orbits (the rule declines edge orbits).
    {cuda_unused_threads}
    progress : bool, default False
        Show the census's steps on stderr.

    Returns
    -------
    ndarray of int64 of shape (n, 15)
        Row v, column o: the number of induced graphlets in which vertex v is in orbit o (ORCA's
        numbering), equal to the CPU's.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> G = gm.as_graph(nx.complete_graph(4))
    >>> [int(x) for x in orbit_counts_on_gpu(G)[0]] if gc.is_available() else [3, 0, 0, 3] + [0] * 10 + [1]
    [3, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    G = as_graph(G)
    if G.n_edges == 0:
        return np.zeros((G.n_nodes, NODE_ORBITS), np.int64)
    return _census(G, progress)


@implements("graphlet_counts", "cuda", methods=("exact",), can_run=_node_orbits_four)
@restores_threads
@fill_doc
def graphlet_counts_on_gpu(G, size=4, *, induced=True, threads=None, progress=False):
    """Counts of the connected graphlets on 2 to 4 vertices, from the GPU's census; see
    :func:`graphmine.graphlet_counts`.

    {Parameters: registered_G}
    size : {4}
        Graphlets on up to 4 vertices (the rule declines other sizes).
    induced : bool, default True
        Induced counts, or copies as subgraphs.
    {cuda_unused_threads}
    progress : bool, default False
        Show the census's steps on stderr.

    Returns
    -------
    ndarray of int64 of shape (9,)
        Entry g: the count of graphlet G_g (:data:`graphmine.graphlets.GRAPHLET_NAMES`).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> G = gm.as_graph(nx.cycle_graph(4))  # 4 edges, 4 induced 2-paths, one 4-cycle
    >>> [int(x) for x in graphlet_counts_on_gpu(G)] if gc.is_available() else [4, 4, 0, 0, 0, 1, 0, 0, 0]
    [4, 4, 0, 0, 0, 1, 0, 0, 0]
    """
    G = as_graph(G)
    counts = np.zeros(9, np.int64)  # G0..G8, the graphlets on up to 4 vertices
    if G.n_edges:
        sums = _census(G, progress).sum(axis=0)
        # every graphlet has ORBIT_SIZES[o] of its vertices in its orbit o
        counts = np.array([sums[orbits[0]] // ORBIT_SIZES[orbits[0]] for orbits in GRAPHLET_ORBITS[:9]], np.int64)
    return counts if induced else _non_induced(counts)
