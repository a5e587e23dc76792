"""4-cycles (squares): the number of the whole graph and through every vertex.

The functions here dispatch on ``device=`` (:mod:`graphmine.core.registry`); the exact CPU count is
in ``_cpu.py`` with its Numba kernel in ``_kernels.py``.
"""

from .._runtime.docs import fill_doc
from ..core.registry import call, declare
from ._cpu import square_counts

__all__ = ["count_four_cycles", "four_cycles", "square_counts"]


@declare("number of 4-cycles (squares)")
@fill_doc
def count_four_cycles(G, *, method="exact", threads=None, device="cpu"):
    """The number of 4-cycles of ``G``.

    .. math:: C_4 = \\frac{1}{4} \\sum_v C_4(v)

    with :math:`C_4(v)` the cycles through v (:func:`four_cycles`).

    {Parameters: G, exact_method, threads, device}

    Returns
    -------
    int
        The number of cycles on four distinct vertices (each counted once, not per
        rotation or direction).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_four_cycles(nx.cycle_graph(4))
    1
    """
    return call("count_four_cycles", G, method=method, device=device, threads=threads)


@declare("4-cycles through every vertex")
@fill_doc
def four_cycles(G, *, method="exact", threads=None, device="cpu"):
    """The number of 4-cycles through every vertex (int64 array of length n).

    .. math:: C_4(v) = \\sum_{x \\ne v} \\binom{|N(v) \\cap N(x)|}{2}

    (each pair with c common neighbours is the diagonal of C(c, 2) cycles).

    {Parameters: G, exact_method, threads, device}

    Returns
    -------
    ndarray of int64 of shape (n,)
        The number of 4-cycles through each vertex; their sum is four times
        :func:`count_four_cycles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.four_cycles(nx.complete_bipartite_graph(2, 3)).tolist()
    [3, 3, 2, 2, 2]
    """
    return call("four_cycles", G, method=method, device=device, threads=threads)
