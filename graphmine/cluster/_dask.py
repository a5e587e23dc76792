"""The mean local clustering coefficient on a Dask cluster: the 'dask' back-end of
``graphmine.average_clustering`` (a :class:`~graphmine.distributed.DistributedGraph` passed to it).

The per-vertex triangles come from the triangle family's block tasks (``graphmine.triangles(D)``:
dask arrays, one chunk per row block) and the degrees from the graph's blocks; one task per block
sums its coefficients, so no process holds a value per vertex.
"""

import numpy as np

from ..core.registry import implements
from ..cliques import triangles

__all__ = ["average_clustering"]


def _block_sums(tri, deg):
    """(sum of the local clustering coefficients of a block, vertices with a nonzero one)."""
    ok = tri > 0  # implies degree >= 2
    coef = 2.0 * tri[ok] / (deg[ok] * (deg[ok] - 1.0))
    return float(coef.sum()), int(np.count_nonzero(ok))


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
    import dask

    # one task per row block on its chunk of triangles and its degrees (a whole dask-array
    # expression over the blocks cost a third more)
    tri = triangles(D).values  # held while the tasks run: it holds the blocks' futures
    chunks = tri.to_delayed().ravel()
    sums = D.client.compute([dask.delayed(_block_sums)(t, d) for t, d in zip(chunks, D.degrees)], sync=True)
    total = sum(s for s, _ in sums)
    denom = D.n_nodes if count_zeros else sum(c for _, c in sums)
    return total / denom if denom else 0.0
