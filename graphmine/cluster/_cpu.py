"""Clustering coefficients and transitivity from exact triangle counts (CPU).

.. math::

    c_v = \\frac{2 T(v)}{d_v (d_v - 1)}, \\qquad
    \\text{transitivity} = \\frac{3 T}{\\sum_v d_v (d_v - 1) / 2}

These are the exact CPU implementations; :func:`graphmine.clustering` and its siblings (in
:mod:`graphmine.cluster`) add ``method=`` (sketch estimates) and ``device=`` (triangles counted
on a GPU) on top, through :func:`local_clustering`, :func:`mean_clustering` and
:func:`transitivity_from_count`.
"""

import numpy as np

from .._runtime.docs import fill_doc
from .._runtime.threads import resolve_threads, restores_threads
from ..cliques import count_triangles, triangles
from ..core.validation import as_graph
from ..core.registry import declare, implements
from ..cycles import square_counts

__all__ = ["clustering", "average_clustering", "transitivity", "square_clustering", "local_clustering",
           "mean_clustering", "transitivity_from_count"]


def _checked_graph(G, threads):
    """``G`` as a Graph, and ``threads`` refused here if bad (a kept result would skip the
    kernels that check it)."""
    if threads is not None:
        resolve_threads(threads)
    return as_graph(G)


def local_clustering(tri, degree):
    """Local clustering coefficients from per-vertex triangle counts ``tri`` and degrees (0 for
    degree < 2).

    Parameters
    ----------
    tri : ndarray of int64
        Triangles through every vertex.
    degree : ndarray of int64

    Returns
    -------
    ndarray of float64
        The coefficient of every vertex, in [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> local_clustering(np.array([1, 1, 1, 0]), np.array([2, 2, 3, 1]))
    array([1.        , 1.        , 0.33333333, 0.        ])
    """
    pairs = degree * (degree - 1)
    out = np.zeros(degree.shape[0], np.float64)
    nz = pairs > 0
    out[nz] = 2.0 * tri[nz] / pairs[nz]
    return out


@fill_doc
def mean_clustering(c, count_zeros=True):
    """The mean of local coefficients ``c`` (over the nonzero ones if ``count_zeros`` is False).

    Parameters
    ----------
    c : ndarray of float64
        Local clustering coefficients.
    {count_zeros}

    Returns
    -------
    float
        0.0 for an empty selection.

    Examples
    --------
    >>> import numpy as np
    >>> mean_clustering(np.array([1.0, 0.0, 0.5])), mean_clustering(np.array([1.0, 0.0, 0.5]), False)
    (0.5, 0.75)
    """
    if not count_zeros:
        c = c[c > 0]
    return float(c.mean()) if c.size else 0.0


def transitivity_from_count(n_triangles, degree):
    """3 x ``n_triangles`` / the connected triples of a graph with these degrees (0 without triples).

    Parameters
    ----------
    n_triangles : int or float
    degree : array-like of int

    Returns
    -------
    float
        The transitivity, in [0, 1] (0 without connected triples).

    Examples
    --------
    >>> import numpy as np
    >>> transitivity_from_count(1, np.array([2, 2, 3, 1]))
    0.6
    """
    d = np.asarray(degree, dtype=np.float64)
    triples = float((d * (d - 1)).sum() / 2)
    return 3.0 * n_triangles / triples if triples else 0.0


@implements("clustering", "cpu")
@restores_threads
@fill_doc
def clustering(G, *, threads=None):
    """Local clustering coefficient of every vertex (0 for degree < 2), as a float array.

    The per-vertex triangles of :func:`graphmine.triangles`, divided by the number of
    pairs of neighbours (:func:`local_clustering`).

    {Parameters: G, threads}

    Returns
    -------
    ndarray of float64
        ``c[v]`` in [0, 1] for every vertex v.

    Examples
    --------
    >>> import networkx as nx
    >>> clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    array([1.        , 1.        , 0.33333333, 0.        ])
    """
    G = _checked_graph(G, threads)
    return _kept_clustering(G, threads).copy()


def _kept_clustering(G, threads):
    """The local clustering coefficients of ``G``, kept on the graph (read-only), from the
    per-vertex triangles it keeps (:meth:`graphmine.Graph.cached_result`)."""
    return G.cached_result("clustering", lambda: local_clustering(triangles(G, threads=threads), G.degree))


@implements("average_clustering", "cpu")
@restores_threads
@fill_doc
def average_clustering(G, *, count_zeros=True, threads=None):
    """Mean local clustering coefficient.

    The mean of :func:`clustering` (:func:`mean_clustering`).

    {Parameters: G, count_zeros, threads}

    Returns
    -------
    float
        The mean coefficient, in [0, 1].

    Examples
    --------
    >>> import networkx as nx
    >>> round(average_clustering(nx.karate_club_graph()), 4)
    0.5706
    """
    G = _checked_graph(G, threads)
    key = "average_clustering" if count_zeros else "average_clustering_nonzero"
    return G.cached_result(key, lambda: mean_clustering(_kept_clustering(G, threads), count_zeros))


@implements("transitivity", "cpu")
@restores_threads
@fill_doc
def transitivity(G, *, threads=None):
    """Global transitivity: 3 x triangles / connected triples.

    From the triangle count of :func:`graphmine.count_triangles` and the degrees
    (:func:`transitivity_from_count`).

    {Parameters: G, threads}

    Returns
    -------
    float
        3 x triangles / connected triples, in [0, 1].

    Examples
    --------
    >>> import networkx as nx
    >>> round(transitivity(nx.karate_club_graph()), 4)
    0.2557
    """
    G = _checked_graph(G, threads)
    return G.cached_result("transitivity",
                           lambda: transitivity_from_count(count_triangles(G, threads=threads), G.degree))


@declare("square clustering coefficients", cpu=True)
@restores_threads
@fill_doc
def square_clustering(G, *, threads=None):
    """Square clustering coefficient of every vertex (as ``networkx.square_clustering``).

    .. math:: C_4(v) = \\frac{\\sum_{u < w \\in N(v)} q_v(u, w)}{\\sum_{u < w \\in N(v)} [a_v(u, w) + q_v(u, w)]}

    with :math:`q_v(u, w)` the common neighbours of u and w other than v and :math:`a_v(u, w)`
    networkx's count of the other neighbours of u and w (see :func:`graphmine.cycles.square_counts`).

    {Parameters: G, threads}

    Returns
    -------
    ndarray of float64 of shape (n,)
        The coefficients, in [0, 1] (0 where the denominator is 0).

    Notes
    -----
    {kept_results}

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.square_clustering(nx.complete_bipartite_graph(2, 3)).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0]
    """
    G = _checked_graph(G, threads)
    return G.cached_result("square_clustering", lambda: _square_clustering(G, threads)).copy()


def _square_clustering(G, threads):
    squares, potential = square_counts(G, threads=threads)
    c = np.zeros(squares.shape[0], np.float64)
    pos = potential > 0
    c[pos] = squares[pos] / potential[pos]
    return c
