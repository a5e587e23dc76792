"""networkx's clustering functions computed by graphmine (the cluster family's networkx adapters).

Each function takes networkx's arguments and returns networkx's results (dicts keyed by the
networkx nodes in networkx's order, plain Python numbers); the shared pieces are
:mod:`graphmine.nx_backend.adapt`. ``@implements(family, "networkx", name=...)`` declares each one
for networkx's dispatch (the generated table, :data:`graphmine.core.generated.NETWORKX`).
"""

import numpy as np

from .._runtime.docs import fill_doc
from .._runtime.threads import restores_threads
from ..cliques import count_triangles as _count_triangles, triangles as _triangles
from ..core.registry import implements
from ..cycles import square_counts
from ..nx_backend.adapt import approx, backend_graph, kept_node_dict, per_node, settings, with_int_zeros

__all__ = ["clustering", "average_clustering", "transitivity", "square_clustering"]


def _clustering_values(H, method, kw):
    if method != "exact":
        return np.asarray(approx("clustering", H, method, kw), np.float64).tolist()
    tri = H.cached_result("triangles", None)  # kept by an earlier call: no dispatch, no hand-off
    if tri is None:
        tri = _triangles(H, threads=kw["threads"])
    d = H.degree
    pairs = d * (d - 1)
    c = np.zeros(H.n_nodes, np.float64)
    nz = tri > 0
    c[nz] = (2 * tri[nz]) / pairs[nz]
    return with_int_zeros(c, ~nz)


@implements("clustering", "networkx", name="clustering",
            note=("Unweighted undirected clustering from exact triangle counts. Set "
                  "``nx.config.backends.graphmine.method`` (``'bloom'``, ``'khash'``, "
                  "``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a sketch-based "
                  "estimate; the default, ``'exact'``, is exact."))
@fill_doc
def clustering(G, nodes=None, weight=None):
    """Local clustering coefficients (unweighted, undirected), as ``networkx.clustering``.

    {Parameters: nx_G, nx_nodes, nx_weight}

    Returns
    -------
    dict of node to float, or float
        The coefficients, an int 0 where the node is on no triangle (as networkx writes it).

    Examples
    --------
    >>> import networkx as nx
    >>> clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    {0: 1.0, 1: 1.0, 2: 0.3333333333333333, 3: 0}
    """
    H = backend_graph(G, "clustering", weight=weight)
    method, kw = settings()
    if nodes is None and method == "exact":
        return kept_node_dict(H, "clustering", lambda: _clustering_values(H, method, kw))
    return per_node(H, _clustering_values(H, method, kw), nodes)


@implements("average_clustering", "networkx", name="average_clustering",
            note=("Unweighted undirected average clustering. Set "
                  "``nx.config.backends.graphmine.method`` (``'bloom'``, ``'khash'``, "
                  "``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a sketch-based "
                  "estimate; the default, ``'exact'``, is exact."))
@fill_doc
def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """Mean local clustering coefficient, as ``networkx.average_clustering``.

    The mean is summed in node order, so it equals networkx's to the last bit.

    {Parameters: nx_G}
    nodes : iterable of nodes, optional
        Average over these nodes only (default: all).
    {nx_weight}
    count_zeros : bool, default True
        If False, average only over the nodes with a nonzero coefficient.

    Returns
    -------
    float
        The mean coefficient.

    Raises
    ------
    ZeroDivisionError
        No node to average over (an empty graph, or no nonzero coefficient with
        ``count_zeros=False``), as networkx raises.

    Examples
    --------
    >>> import networkx as nx
    >>> average_clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    0.58333
    """
    H = backend_graph(G, "average_clustering", weight=weight)
    method, kw = settings()
    if method != "exact" and nodes is None:
        return float(approx("average_clustering", H, method, kw, count_zeros=count_zeros))
    if nodes is None:
        # every node: the values in node order, without the dict that clustering() would build;
        # the mean kept on the graph (networkx's own order of summation, so its own key)
        key = f"networkx average_clustering count_zeros={bool(count_zeros)}"
        return H.cached_result(key, lambda: _mean(_clustering_values(H, method, kw), count_zeros))
    return _mean(clustering(H, nodes).values(), count_zeros)


def _mean(c, count_zeros):
    """networkx's mean of the coefficients ``c``, summed in their order."""
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


@implements("transitivity", "networkx", name="transitivity",
            note=("Exact triangle count over the degree orientation. Set "
                  "``nx.config.backends.graphmine.method`` (``'bloom'``, ``'khash'``, "
                  "``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a sketch-based "
                  "estimate; the default, ``'exact'``, is exact."))
@fill_doc
def transitivity(G):
    """3 x triangles / connected triples, as ``networkx.transitivity`` (0 without triangles).

    {Parameters: nx_G}

    Returns
    -------
    float or int
        The transitivity, in [0, 1] (an int 0 without triangles, as networkx).

    Examples
    --------
    >>> import networkx as nx
    >>> transitivity(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    0.6
    """
    H = backend_graph(G)
    method, kw = settings()
    if method != "exact":
        return float(approx("transitivity", H, method, kw))
    T = _count_triangles(H, threads=kw["threads"])
    if T == 0:
        return 0
    d = H.degree
    # exact integers, one correctly rounded division: networkx's value to the last bit
    return 6 * T / int((d * (d - 1)).sum())


@implements("square_clustering", "networkx", name="square_clustering",
            note=("Exact, one compiled pass over the two-hop neighbourhoods."))
@restores_threads
@fill_doc
def square_clustering(G, nodes=None):
    """Squares clustering coefficient, as ``networkx.square_clustering``.

    .. math:: C_4(v) = \\frac{\\sum_{u < w \\in N(v)} q_v(u, w)}{\\sum_{u < w \\in N(v)} [a_v(u, w) + q_v(u, w)]}

    with :math:`q_v(u, w)` the common neighbours of u and w other than v and
    :math:`a_v(u, w)` networkx's count of the other neighbours of u and w.

    {Parameters: nx_G, nx_nodes}

    Returns
    -------
    dict of node to float, or float
        The coefficients, in [0, 1].

    Examples
    --------
    >>> import networkx as nx
    >>> square_clustering(nx.complete_bipartite_graph(2, 2))
    {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0}
    """
    H = backend_graph(G)
    squares, potential = square_counts(H, threads=settings()[1]["threads"])
    c = np.zeros(H.n_nodes, np.float64)
    pos = potential > 0
    c[pos] = squares[pos] / potential[pos]
    return per_node(H, with_int_zeros(c, ~pos), nodes)
