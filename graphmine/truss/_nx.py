"""networkx's k_truss computed by graphmine (the truss family's networkx adapter).

Each function takes networkx's arguments and returns networkx's results (dicts keyed by the
networkx nodes in networkx's order, plain Python numbers); the shared pieces are
:mod:`graphmine.nx_backend.adapt`. ``@implements(family, "networkx", name=...)`` declares each one
for networkx's dispatch (the generated table, :data:`graphmine.core.generated.NETWORKX`).
"""

import numpy as np

from .._runtime.docs import fill_doc
from ..core.registry import implements
from ..nx_backend.adapt import NetworkXGraph, graph_without_self_loops, settings
from . import k_truss as _k_truss

__all__ = ["k_truss"]


@implements("k_truss", "networkx", name="k_truss",
            note=("Edge supports by a parallel compiled kernel, then bucket peeling; graphs without "
                  "edge or node attributes."))
@fill_doc
def k_truss(G, k):
    """The k-truss, as ``networkx.k_truss`` (self-loops refused likewise): the subgraph on the
    edges that lie on at least k - 2 of its triangles, without isolated nodes, as a backend graph
    (networkx converts it back).

    {Parameters: nx_G}
    k : int
        The truss order; edges on at least k - 2 triangles remain.

    Returns
    -------
    NetworkXGraph
        The k-truss, with the original node labels.

    {Raises: nx_self_loops_raises}

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.nx_backend import to_networkx
    >>> sorted(to_networkx(k_truss(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 3)).edges)
    [(0, 1), (0, 2), (1, 2)]
    """
    H = graph_without_self_loops(G)
    T = _k_truss(H, k, threads=settings()[1]["threads"])
    graph_attrs = dict(H.graph) if isinstance(H, NetworkXGraph) else {}
    return NetworkXGraph(T.indptr, T.indices, T.node_ids, np.zeros(T.n_nodes, np.uint8), graph_attrs,
                         {"input_edges": T.n_edges, "self_loops": 0, "duplicates": 0})
