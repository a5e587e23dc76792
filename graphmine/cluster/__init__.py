"""Clustering coefficients and transitivity, from the triangle counts.

The functions here dispatch on ``method=`` and ``device=`` (:mod:`graphmine.core.registry`); the
exact CPU computation is in ``_cpu.py``.
"""

from .._runtime.docs import fill_doc
from ..core.registry import call, declare
from ._cpu import local_clustering, mean_clustering, square_clustering, transitivity_from_count

__all__ = ["clustering", "average_clustering", "transitivity", "square_clustering", "local_clustering", "mean_clustering", "transitivity_from_count"]


@declare("local clustering coefficients")
@fill_doc
def clustering(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """Local clustering coefficient of every vertex.

    .. math:: c_v = \\frac{2 t_v}{d_v (d_v - 1)}

    with :math:`t_v` the triangles through :math:`v` and :math:`d_v` its degree; 0 when
    :math:`d_v < 2`.

    {Parameters: G, method, threads, device, sketch_kwargs}

    Returns
    -------
    ndarray of float64 of shape (n,), or ArrayEstimate
        The coefficients, in [0, 1].

    Notes
    -----
    {kept_results}

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    array([1.        , 1.        , 0.33333333, 0.        ])
    """
    return call("clustering", G, method=method, device=device, threads=threads, **kwargs)


@declare("mean local clustering coefficient")
@fill_doc
def average_clustering(G, *, count_zeros=True, method="exact", threads=None, device="cpu", **kwargs):
    """Mean local clustering coefficient, :math:`\\frac{1}{n} \\sum_v c_v`.

    See :func:`clustering` for :math:`c_v`.

    {Parameters: G, count_zeros, method, threads, device, sketch_kwargs}

    Returns
    -------
    float or Estimate
        The mean, in [0, 1] (0 for a graph without vertices to average over).

    Notes
    -----
    {kept_results}

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> round(gm.average_clustering(nx.karate_club_graph()), 4)
    0.5706
    """
    return call("average_clustering", G, method=method, device=device, count_zeros=count_zeros, threads=threads,
                **kwargs)


@declare("global transitivity")
@fill_doc
def transitivity(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """Global transitivity, the share of closed paths of length two.

    .. math:: \\tau = \\frac{3 T}{\\sum_v \\binom{d_v}{2}}

    with :math:`T` the number of triangles and :math:`d_v` the degrees (0 without such paths).

    {Parameters: G, method, threads, device, sketch_kwargs}

    Returns
    -------
    float or Estimate
        The transitivity, in [0, 1].

    Notes
    -----
    {kept_results}

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> round(gm.transitivity(nx.karate_club_graph()), 4)
    0.2557
    """
    return call("transitivity", G, method=method, device=device, threads=threads, **kwargs)
