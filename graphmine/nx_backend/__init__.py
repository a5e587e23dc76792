"""graphmine as a networkx backend: ``nx.triangles(G, backend="graphmine")``.

networkx finds the backend through two entry points: ``networkx.backends`` ->
:class:`~graphmine.nx_backend.interface.BackendInterface` (loaded on the first dispatched call)
and ``networkx.backend_info`` -> ``_graphmine_nx.get_info`` (read at ``import networkx``, so it
imports nothing heavy). The dispatched functions (the family folders' ``_nx.py`` modules, looked up
by name in the generated table and imported on first use) take networkx's arguments and return
networkx's results; networkx graphs are converted once
(:func:`from_networkx`) and the conversion is cached in ``G.__networkx_cache__``. A
:class:`graphmine.Graph` is itself a backend graph, so ``nx.triangles(gm_graph)`` runs graphmine
without conversion, with the graph's ``node_ids`` as the networkx nodes.

Examples
--------
>>> import networkx as nx
>>> from graphmine.nx_backend import BackendInterface
>>> BackendInterface.triangles(nx.complete_graph(4))
{0: 3, 1: 3, 2: 3, 3: 3}
"""

from .convert import NetworkXGraph, from_networkx, to_networkx
from .interface import BackendInterface

__all__ = ["BackendInterface", "NetworkXGraph", "from_networkx", "to_networkx",
           "triangles", "clustering", "average_clustering", "transitivity", "square_clustering",
           "all_triangles", "jaccard_coefficient", "adamic_adar_index", "resource_allocation_index",
           "preferential_attachment", "core_number", "pagerank", "average_neighbor_degree",
           "find_cliques", "enumerate_all_cliques", "node_clique_number", "k_truss",
           "k_clique_communities", "common_neighbor_centrality"]


def __getattr__(name):
    # graphmine.nx_backend.triangles and siblings: the adapters, from their family folders
    from ..core.generated import NETWORKX

    if name in NETWORKX:
        from .backend import function

        return function(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
