"""Clustering coefficients and transitivity on the GPU (the cluster family's 'cuda' back-end):
the triangles are counted on the device (:func:`graphmine.cuda.triangles`,
:func:`graphmine.cuda.count_triangles`), the divisions run on the host.

Reached through ``graphmine.clustering(G, device='cuda')`` and siblings; importing this module
loads no numba.cuda.
"""

from .._runtime.docs import fill_doc
from ..core.registry import implements
from ..cuda import count_triangles, triangles
from ._cpu import local_clustering, mean_clustering, transitivity_from_count

__all__ = ["clustering", "average_clustering", "transitivity"]


@implements("clustering", "cuda", methods=("exact",))
@fill_doc
def clustering(G, *, threads=None):
    """Local clustering coefficients from the GPU's per-vertex triangles.

    The triangles are counted on the GPU (:func:`graphmine.cuda.triangles`); the division by
    the pairs of neighbours runs on the host.

    Parameters
    ----------
    {registered_G, cuda_threads}

    Returns
    -------
    ndarray of float64 of shape (n,)
        The coefficients, as :func:`graphmine.clustering` computes them.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> G = gm.as_graph(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    >>> clustering(G).round(4).tolist() if gc.is_available() else [1.0, 1.0, 0.3333, 0.0]
    [1.0, 1.0, 0.3333, 0.0]
    """
    return local_clustering(triangles(G, threads=threads), G.degree)


@implements("average_clustering", "cuda", methods=("exact",))
@fill_doc
def average_clustering(G, *, count_zeros=True, threads=None):
    """The mean local clustering coefficient from the GPU's per-vertex triangles.

    The mean of :func:`clustering`.

    Parameters
    ----------
    {registered_G, count_zeros, cuda_threads}

    Returns
    -------
    float
        The mean of :func:`clustering`'s coefficients, in [0, 1].

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> G = gm.as_graph(nx.complete_graph(4))
    >>> average_clustering(G) if gc.is_available() else 1.0
    1.0
    """
    return mean_clustering(clustering(G, threads=threads), count_zeros)


@implements("transitivity", "cuda", methods=("exact",))
@fill_doc
def transitivity(G, *, threads=None):
    """Global transitivity from the GPU's triangle count.

    Three times :func:`graphmine.cuda.count_triangles` over the connected triples of the degrees.

    Parameters
    ----------
    {registered_G, cuda_threads}

    Returns
    -------
    float
        3 x triangles / connected triples (0 without triples).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> G = gm.as_graph(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    >>> transitivity(G) if gc.is_available() else 0.6
    0.6
    """
    return transitivity_from_count(count_triangles(G, threads=threads), G.degree)
