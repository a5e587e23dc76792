"""The networkx back-end's registrations (:mod:`graphmine.registry`): the networkx function that
runs each family, by name. :class:`~graphmine.nx_backend.interface.BackendInterface` takes its
functions from here, so a function is added to the backend by one line below (and its note in
``_graphmine_nx.FUNCTIONS``, which networkx reads at import).
"""

from ..registry import implementations, register
from . import algorithms

__all__ = ["FUNCTIONS", "functions"]

#: networkx function name -> the registry family it implements
FUNCTIONS = {
    "triangles": "triangles", "clustering": "clustering", "average_clustering": "average_clustering",
    "transitivity": "transitivity", "square_clustering": "square_clustering", "all_triangles": "list_triangles",
    "jaccard_coefficient": "link_scores", "adamic_adar_index": "link_scores",
    "resource_allocation_index": "link_scores", "preferential_attachment": "link_scores",
    "core_number": "core_number", "pagerank": "pagerank", "average_neighbor_degree": "average_neighbor_degree",
    "find_cliques": "maximal_cliques", "enumerate_all_cliques": "enumerate_cliques",
    "node_clique_number": "node_clique_number", "k_truss": "k_truss", "k_clique_communities": "clique_communities",
    "common_neighbor_centrality": "common_neighbor_centrality",
}

for _name, _family in FUNCTIONS.items():
    register(_family, "networkx", getattr(algorithms, _name), name=_name)


def functions():
    """{networkx function name: graphmine's implementation} of every registered function.

    Returns
    -------
    dict of str to callable

    Examples
    --------
    >>> "triangles" in functions()
    True
    """
    return {impl.name: impl.function for fam in set(FUNCTIONS.values()) for impl in implementations(fam, "networkx")}
