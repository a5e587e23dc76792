"""4-cycles (squares): their number, and the number through every vertex (exact, CPU).

A 4-cycle u - v - w - x - u has two diagonals, {u, w} and {v, x}; for a pair of vertices with
c common neighbours, C(c, 2) cycles have that pair as a diagonal. So

.. math::

    C_4(v) = \\sum_{x \\ne v} \\binom{|N(v) \\cap N(x)|}{2}, \\qquad
    C_4 = \\frac{1}{4} \\sum_v C_4(v)

(each cycle has four vertices). The kernel (:mod:`graphmine._cycle_kernels`) is the one that
gives networkx's ``square_clustering`` its numerator. The GPU's kernel is
:mod:`graphmine.cuda._cycles`; both are reached through ``graphmine.count_four_cycles(G,
device=...)``.
"""

from . import _cycle_kernels as _cyk
from ._docs import fill_doc
from ._interrupt import interruptible
from ._limits import check_allocation
from ._threads import resolve_threads, restores_threads
from .graph import SERIAL_EDGES
from .validation import as_graph

__all__ = ["count_four_cycles", "four_cycles"]


@interruptible
@restores_threads
@fill_doc
def four_cycles(G, *, threads=None):
    """The number of 4-cycles through every vertex (int64 array of length n; exact, CPU).

    Every diagonal pair of a cycle is counted from both of its ends.

    {Parameters: G, threads}

    Returns
    -------
    ndarray of int64
        Entry v counts the 4-cycles (as vertex sets with their cyclic order) that contain v.

    Examples
    --------
    >>> import networkx as nx
    >>> four_cycles(nx.complete_graph(4))  # K4 has three 4-cycles, each through every vertex
    array([3, 3, 3, 3])
    """
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    if nthreads == 1 or G.n_edges < SERIAL_EDGES:
        return _cyk._squares_serial(G.indptr, G.indices)[0]
    check_allocation(16 * (nthreads + 2) * G.n_nodes, f"4-cycle counts on {nthreads} threads", "use fewer threads")
    return _cyk._squares_parallel(G.indptr, G.indices, nthreads)[0]


@fill_doc
def count_four_cycles(G, *, threads=None):
    """The number of 4-cycles of ``G`` (exact, CPU).

    The sum of :func:`four_cycles` divided by four: each cycle has four vertices.

    {Parameters: G, threads}

    Returns
    -------
    int
        The number of 4-cycles.

    Examples
    --------
    >>> import networkx as nx
    >>> count_four_cycles(nx.complete_bipartite_graph(3, 3))  # C(3, 2) ** 2
    9
    """
    return int(four_cycles(G, threads=threads).sum()) // 4
