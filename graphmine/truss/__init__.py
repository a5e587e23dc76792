"""k-trusses: the truss number of every edge and the k-truss subgraph.

:func:`k_truss` dispatches on ``device=`` (:mod:`graphmine.core.registry`); the CPU peeling is in
``_cpu.py`` with its Numba kernels in ``_kernels.py``.
"""

from .._runtime.docs import fill_doc
from ..core.registry import call, declare
from ._cpu import truss_decomposition

__all__ = ["k_truss", "truss_decomposition"]


@declare("the k-truss subgraph", returns_graph=True)
@fill_doc
def k_truss(G, k, *, threads=None, device="cpu"):
    """The k-truss of ``G``: the largest subgraph whose every edge lies on at least k - 2 of its
    triangles, isolated vertices removed (for k <= 2: every edge).

    On the CPU (:func:`graphmine.truss._cpu.k_truss`) the edges below k - 2 are peeled one at a time
    from a queue; on the GPU (``device='cuda'``, :mod:`graphmine.truss._cuda`) in rounds, every
    edge below k - 2 at once, until a round removes none: the same subgraph.

    {Parameters: G}
    k : int
    {threads}
    {device}

    {Returns: k_truss}

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> H = gm.k_truss(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 3)
    >>> H.node_ids.tolist(), H.n_edges
    ([0, 1, 2], 3)
    """
    return call("k_truss", G, k, device=device, threads=threads)
