"""4-cycles (squares): their number, and the number through every vertex (exact, CPU).

A 4-cycle u - v - w - x - u has two diagonals, {u, w} and {v, x}; for a pair of vertices with
c common neighbours, C(c, 2) cycles have that pair as a diagonal. So

.. math::

    C_4(v) = \\sum_{x \\ne v} \\binom{|N(v) \\cap N(x)|}{2}, \\qquad
    C_4 = \\frac{1}{4} \\sum_v C_4(v)

(each cycle has four vertices). :func:`four_cycles` counts each cycle once, from its last vertex
v in the order by (degree, id): the common neighbours before v of v and a vertex w before v close
C(c, 2) cycles with diagonal v - w, each middle vertex lies on c - 1 of them; the walks cost the
sum over u of deg(u) times the neighbours of u after it, a fraction of the squared degrees on a
skewed graph. :func:`square_counts` walks every two-hop path from every vertex, which networkx's
``square_clustering`` needs for its denominators (:mod:`graphmine.cycles._kernels` holds both
kernels). The GPU's kernel is
:mod:`graphmine.cycles._cuda`; both are reached through ``graphmine.count_four_cycles(G,
device=...)``.
"""

import numpy as np

from .._runtime.docs import fill_doc
from .._runtime.lazy import lazy_module
from .._runtime.interrupt import interruptible
from .._runtime.limits import check_allocation
from .._runtime.threads import resolve_threads, restores_threads
from ..core.graph import SERIAL_EDGES
from ..core.validation import as_graph
from ..core.registry import implements

__all__ = ["count_four_cycles", "four_cycles", "square_counts"]


@lazy_module
def _cyk():
    # imported by the first count: importing the family (for square_counts' name) loads no numba
    from . import _kernels

    return _kernels


@implements("four_cycles", "cpu")
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
    return _four_cycles(as_graph(G), resolve_threads(threads))


def _four_cycles(G, nthreads):
    """The 4-cycles through every vertex, each cycle counted once from its last vertex in the
    degree order (the kernels' docstring): on a skewed graph far fewer two-hop paths than
    :func:`square_counts` walks for the same counts (the sum of deg(u) times the neighbours of u
    after it, against the sum of the squared degrees: 1.1 x 10^9 against 9.5 x 10^9 on Kronecker
    18)."""
    n = G.n_nodes
    if n == 0:
        return np.zeros(0, np.int64)
    O = G.oriented("degree", relabel=True, threads=nthreads)
    if nthreads == 1 or G.n_edges < SERIAL_EDGES:
        out = _cyk._cycles_ranked_serial(O.indptr, O.indices)
    else:
        check_allocation(8 * (3 * nthreads + 3) * n + 8 * G.n_edges, f"4-cycle counts on {nthreads} threads",
                         "use fewer threads")
        out = _cyk._cycles_ranked_parallel(O.indptr, O.indices, nthreads)
    return out[O.rank]


def _square_counts(G, nthreads):
    if nthreads == 1 or G.n_edges < SERIAL_EDGES:
        return _cyk._squares_serial(G.indptr, G.indices)
    check_allocation(16 * (nthreads + 2) * G.n_nodes, f"4-cycle counts on {nthreads} threads", "use fewer threads")
    return _cyk._squares_parallel(G.indptr, G.indices, nthreads)


@interruptible
@restores_threads
@fill_doc
def square_counts(G, *, threads=None):
    """The 4-cycles through every vertex and the denominators of square clustering.

    .. math:: q_v = \\sum_{u < w \\in N(v)} q_v(u, w), \\qquad
              p_v = \\sum_{u < w \\in N(v)} [a_v(u, w) + q_v(u, w)]

    with :math:`q_v(u, w)` the common neighbours of u and w other than v and :math:`a_v(u, w)`
    networkx's count of the other neighbours of u and w; the square clustering coefficient of v is
    :math:`q_v / p_v` (0 where :math:`p_v = 0`).

    {Parameters: G, threads}

    Returns
    -------
    squares, potential : ndarray of int64 of shape (n,)
        :math:`q_v` (also the number of 4-cycles through v) and :math:`p_v`.

    Examples
    --------
    >>> import networkx as nx
    >>> squares, potential = square_counts(nx.complete_bipartite_graph(2, 2))
    >>> squares.tolist(), potential.tolist()
    ([1, 1, 1, 1], [1, 1, 1, 1])
    """
    return _square_counts(as_graph(G), resolve_threads(threads))


@implements("count_four_cycles", "cpu")
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
