"""networkx's core numbers, PageRank and mean neighbour degrees computed by graphmine (the centrality family's networkx adapters).

Each function takes networkx's arguments and returns networkx's results (dicts keyed by the
networkx nodes in networkx's order, plain Python numbers); the shared pieces are
:mod:`graphmine.nx_backend.adapt`. ``@implements(family, "networkx", name=...)`` declares each one
for networkx's dispatch (the generated table, :data:`graphmine.core.generated.NETWORKX`).
"""

import numpy as np

from .._runtime.docs import fill_doc
from ..core.exceptions import ConvergenceError
from ..core.registry import implements
from ..nx_backend.adapt import (backend_graph, graph_without_self_loops, has_node, nbunch_indices, node_labels,
                                refuse_self_loops, settings)
from . import average_neighbor_degree as _average_neighbor_degree, pagerank as _pagerank

__all__ = ["core_number", "pagerank", "average_neighbor_degree"]


@implements("core_number", "networkx", name="core_number",
            note=("Bucket peeling (Matula-Beck) in a compiled kernel; undirected graphs."))
@fill_doc
def core_number(G):
    """Core number of every node, as ``networkx.core_number`` (self-loops refused likewise).

    {Parameters: nx_G}

    Returns
    -------
    dict of node to int
        The largest k such that the node lies in the k-core.

    {Raises: nx_self_loops_raises}

    Examples
    --------
    >>> import networkx as nx
    >>> core_number(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    {0: 2, 1: 2, 2: 2, 3: 1}
    """
    H = graph_without_self_loops(G)
    return dict(zip(node_labels(H), H.core_number().tolist()))


@implements("pagerank", "networkx", name="pagerank",
            note=("networkx's power iteration and stopping rule, the neighbourhood sums in a "
                  "compiled kernel. Undirected graphs without edge weights or self-loops, no "
                  "personalization or dangling vectors; the others run in networkx."))
@fill_doc
def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight",
             dangling=None):
    """PageRank of every node, as ``networkx.pagerank`` on an undirected unweighted graph.

    The same power iteration and stopping rule as networkx (L1 change below ``n * tol``, raising
    ``PowerIterationFailedConvergence`` after ``max_iter`` iterations); ``personalization`` and
    ``dangling`` vectors, edge weights and self-loops are left to networkx (the backend's
    ``can_run`` declines them).

    {Parameters: nx_G}
    alpha : float, default 0.85
        Damping factor.
    personalization : None
        Not supported (networkx runs calls with one).
    max_iter : int, default 100
        Most power iterations.
    tol : float, default 1e-6
        Stop when the L1 change is below ``n * tol``.
    nstart : dict of node to float, optional
        Starting values (normalised; default uniform).
    weight : str, default 'weight'
        Ignored on a graph without edge weights (the backend declines weighted graphs).
    dangling : None
        Not supported.

    Returns
    -------
    dict of node to float
        The PageRank of each node; the values sum to 1.

    Raises
    ------
    networkx.PowerIterationFailedConvergence
        No convergence within ``max_iter`` iterations.

    Examples
    --------
    >>> import networkx as nx
    >>> {v: round(p, 4) for v, p in pagerank(nx.star_graph(3)).items()}
    {0: 0.4797, 1: 0.1734, 2: 0.1734, 3: 0.1734}
    """
    import networkx as nx

    H = backend_graph(G, "pagerank", personalization=personalization, dangling=dangling)
    refuse_self_loops(H, "pagerank")
    labels = node_labels(H)
    n = H.n_nodes
    if n == 0:
        return {}
    x0 = None
    if nstart is not None:
        x0 = np.array([nstart.get(v, 0) for v in labels], dtype=np.float64)
    try:
        x = _pagerank(H, alpha, tol=n * tol, max_iter=max_iter, nstart=x0,
                                 threads=settings()[1]["threads"])
    except ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(labels, x.tolist()))


@implements("average_neighbor_degree", "networkx", name="average_neighbor_degree",
            note=("Exact neighbour-degree sums in a compiled kernel. Undirected graphs without edge "
                  "weights or self-loops; the others run in networkx."))
@fill_doc
def average_neighbor_degree(G, source="out", target="out", nodes=None, weight=None):
    """Average degree of each node's neighbours, as ``networkx.average_neighbor_degree`` on an
    undirected unweighted graph (the same correctly rounded quotients).

    {Parameters: nx_G}
    source, target : {'out'}
        Directions of directed graphs; only 'out' (networkx's default) is accepted.
    {nx_nodes, nx_weight}

    Returns
    -------
    dict of node to float
        The mean degree of each node's neighbours (0.0 for an isolated node).

    Raises
    ------
    networkx.NetworkXError
        ``source`` or ``target`` other than 'out'.

    Examples
    --------
    >>> import networkx as nx
    >>> average_neighbor_degree(nx.path_graph(4))
    {0: 2.0, 1: 1.5, 2: 1.5, 3: 2.0}
    """
    import networkx as nx

    if source != "out" or target != "out":
        raise nx.NetworkXError("source and target arguments are only supported for directed graphs")
    H = backend_graph(G)
    refuse_self_loops(H, "average_neighbor_degree")
    values = _average_neighbor_degree(H, threads=settings()[1]["threads"]).tolist()
    labels = node_labels(H)
    if nodes is None:
        return dict(zip(labels, values))
    if has_node(H, nodes):  # networkx iterates G.degree(nodes), which is a number for one node
        raise NotImplementedError("average_neighbor_degree of one node is left to networkx")
    return {labels[i]: values[i] for i in nbunch_indices(H, nodes).tolist()}
