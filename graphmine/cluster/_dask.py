"""The mean local clustering coefficient on a Dask cluster: the 'dask' back-end of
``graphmine.average_clustering`` (a :class:`~graphmine.distributed.DistributedGraph` passed to it).

The per-vertex triangles come from the triangle family's block tasks (``graphmine.triangles(D)``:
dask arrays, one chunk per row block) and the degrees from the graph's blocks; the coefficients
are summed chunk by chunk on the workers, so no process holds a value per vertex.
"""

from ..core.registry import implements
from ..cliques import triangles

__all__ = ["average_clustering"]


@implements("average_clustering", "dask", methods=("exact",))
def average_clustering(D, *, count_zeros=True):
    """The mean local clustering coefficient of a :class:`DistributedGraph`.

    .. math::

        C = \\frac{1}{n} \\sum_v \\frac{2 T(v)}{d_v (d_v - 1)}

    Parameters
    ----------
    D : DistributedGraph
    count_zeros : bool, default True
        Average over every vertex (vertices of degree < 2 count as 0), or over the vertices with a
        nonzero coefficient only.

    Returns
    -------
    float

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> G = nx.karate_club_graph()
    >>> D = DistributedGraph(G, client, partitions=2)
    >>> abs(gm.average_clustering(D) - nx.average_clustering(G)) < 1e-12
    True
    >>> client.close(); client.cluster.close()
    """
    import dask.array as da

    tri = triangles(D).values
    deg = D.vertex_counts(D.degrees).values
    ok = tri > 0  # implies degree >= 2
    coef = da.where(ok, 2.0 * tri / da.maximum(deg * (deg - 1.0), 1.0), 0.0)
    total, nonzero = D.client.compute([coef.sum(), ok.sum()], sync=True)
    denom = D.n_nodes if count_zeros else int(nonzero)
    return float(total) / denom if denom else 0.0
