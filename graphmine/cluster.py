"""Clustering coefficients and transitivity from exact (or estimated) triangle counts.

.. math::

    c_v = \\frac{2 T(v)}{d_v (d_v - 1)}, \\qquad
    \\text{transitivity} = \\frac{3 T}{\\sum_v d_v (d_v - 1) / 2}
"""

import numpy as np

from .cliques import _approximate, triangles
from .exceptions import ParameterError
from .graph import as_graph

__all__ = ["clustering", "average_clustering", "transitivity"]


def _local(tri, deg):
    pairs = deg * (deg - 1)
    out = np.zeros(deg.shape[0], np.float64)
    nz = pairs > 0
    out[nz] = 2.0 * tri[nz] / pairs[nz]
    return out


def clustering(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """Local clustering coefficient of every vertex (0 for degree < 2), as a float array.

    ``device`` ('cpu', 'cuda', 'auto') as in :func:`graphmine.count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    array([1.        , 1.        , 0.33333333, 0.        ])
    """
    G = as_graph(G)
    if method != "exact":
        return _approximate("clustering", G, method, device=device, threads=threads, **kwargs)
    return _local(triangles(G, threads=threads, device=device, **kwargs), G.degree)


def average_clustering(G, *, count_zeros=True, method="exact", threads=None, device="cpu", **kwargs):
    """Mean local clustering coefficient.

    Parameters
    ----------
    count_zeros : bool
        As in networkx: if False, average only over vertices with a nonzero coefficient.
        Isolated vertices count as 0 when True; use ``G.degree > 0`` to average over vertices
        with an edge (the convention of the published SNAP figures).
    device : {'cpu', 'cuda', 'auto'}
        As in :func:`graphmine.count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> round(gm.average_clustering(nx.karate_club_graph()), 4)
    0.5706
    """
    G = as_graph(G)
    if method != "exact":
        return _approximate("average_clustering", G, method, device=device, count_zeros=count_zeros,
                            threads=threads, **kwargs)
    c = clustering(G, threads=threads, device=device, **kwargs)
    if not count_zeros:
        c = c[c > 0]
    return float(c.mean()) if c.size else 0.0


def transitivity(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """Global transitivity: 3 x triangles / connected triples.

    ``device`` ('cpu', 'cuda', 'auto') as in :func:`graphmine.count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> round(gm.transitivity(nx.karate_club_graph()), 4)
    0.2557
    """
    G = as_graph(G)
    if method != "exact":
        return _approximate("transitivity", G, method, device=device, threads=threads, **kwargs)
    if kwargs:
        raise ParameterError(f"unexpected keywords for method='exact': {sorted(kwargs)}")
    from .cliques import count_triangles

    d = G.degree.astype(np.float64)
    triples = float((d * (d - 1)).sum() / 2)
    return 3.0 * count_triangles(G, threads=threads, device=device) / triples if triples else 0.0
