"""What networkx reads about the ``graphmine`` backend when it is imported.

networkx calls :func:`get_info` (entry point ``networkx.backend_info``) during ``import
networkx``, for every program that has graphmine installed. This package therefore sits outside
``graphmine`` and imports nothing but networkx's config class (inside :func:`get_info`): importing
``graphmine`` itself loads numba and would slow down every ``import networkx``. The algorithms
live in :mod:`graphmine.nx_backend` and are loaded on the first dispatched call.
"""

__all__ = ["get_info", "FUNCTIONS", "METHODS"]

#: sketch methods of graphmine.probgraph (plus 'exact'), accepted by the ``method`` setting
METHODS = ("exact", "bloom", "khash", "onehash", "kmv")

_APPROX = ("Set ``nx.config.backends.graphmine.method`` (``'bloom'``, ``'khash'``, "
           "``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a sketch-based estimate; "
           "the default, ``'exact'``, is exact.")
_UNDIRECTED = "Undirected graphs without weights; directed graphs, multigraphs and weights run in networkx."

#: networkx function name -> the note networkx adds to its docstring
FUNCTIONS = {
    "triangles": f"Exact per-node counts over the degree order: vectorised numpy while numba is not loaded "
                 f"and the graph is moderate (a fresh process imports no numba), else a Numba kernel. {_APPROX}",
    "clustering": f"Unweighted undirected clustering from exact triangle counts. {_APPROX}",
    "average_clustering": f"Unweighted undirected average clustering. {_APPROX}",
    "transitivity": f"Exact triangle count over the degree orientation. {_APPROX}",
    "square_clustering": "Exact, one compiled pass over the two-hop neighbourhoods.",
    "all_triangles": "Listed by a compiled kernel; the triangles (and each tuple) are those of "
                     "networkx, the order in which they are yielded may differ.",
    "jaccard_coefficient": f"Merged sorted neighbour lists in a parallel kernel. {_UNDIRECTED}",
    "adamic_adar_index": f"Merged sorted neighbour lists in a parallel kernel. {_UNDIRECTED}",
    "resource_allocation_index": f"Merged sorted neighbour lists in a parallel kernel. {_UNDIRECTED}",
    "preferential_attachment": f"Degree products, vectorised. {_UNDIRECTED}",
    "common_neighbor_centrality": "Common neighbours in a parallel kernel, distances by scipy's breadth-first "
                                  f"shortest paths from the pairs' first nodes. {_UNDIRECTED}",
    "core_number": "Bucket peeling (Matula-Beck) in a compiled kernel; undirected graphs.",
    "pagerank": "networkx's power iteration and stopping rule, the neighbourhood sums in a compiled "
                "kernel. Undirected graphs without edge weights or self-loops, no personalization "
                "or dangling vectors; the others run in networkx.",
    "average_neighbor_degree": "Exact neighbour-degree sums in a compiled kernel. Undirected graphs "
                               "without edge weights or self-loops; the others run in networkx.",
    "find_cliques": "Bron-Kerbosch with pivoting on the degeneracy order in a compiled kernel, in batches "
                    "(memory bounded by one search's candidate sets); without ``nodes``. The cliques are "
                    "those of networkx, their order (and the order within one) may differ.",
    "enumerate_all_cliques": "Compiled k-clique listing, one size after the other; the order within a "
                             "size may differ.",
    "node_clique_number": "From a compiled maximal-clique search; without ``cliques``.",
    "k_truss": "Edge supports by a parallel compiled kernel, then bucket peeling; graphs without edge or "
               "node attributes.",
    "k_clique_communities": "Clique percolation over the maximal cliques with a compiled union-find; "
                            "without ``cliques``. The communities are those of networkx, their order "
                            "may differ.",
}


def _config_class():
    # imported here, not at the top: networkx imports this module while it is itself importing,
    # and this module importing networkx first would be circular
    from networkx.utils.configs import Config

    class GraphmineConfig(Config):
        """Settings of networkx's ``graphmine`` backend (``nx.config.backends.graphmine``).

        Parameters
        ----------
        method : {'exact', 'bloom', 'khash', 'onehash', 'kmv'}
            How ``triangles``, ``clustering``, ``average_clustering`` and ``transitivity`` are
            computed: exactly (default) or estimated from neighbourhood sketches
            (graphmine.probgraph). Other functions are always exact.
        budget : float or None
            Sketch memory as a fraction of the graph's CSR (None: graphmine's default, 0.25).
        seed : int or None
            Seed of the sketches' hash functions (None: fresh randomness on every call).
        threads : int or None
            Threads for graphmine's kernels (None: all that numba was started with).
        """

        method: str = "exact"
        budget: float | None = None
        seed: int | None = None
        threads: int | None = None

        def _on_setattr(self, key, value):
            if key == "method" and value not in METHODS:
                raise ValueError(f"nx.config.backends.graphmine.method must be one of "
                                 f"{', '.join(map(repr, METHODS))}, got {value!r}")
            if key == "budget" and value is not None and (
                    isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1):
                raise ValueError(f"nx.config.backends.graphmine.budget must be a fraction of the graph's "
                                 f"size in (0, 1] or None, got {value!r}")
            if key in ("seed", "threads") and value is not None and (
                    isinstance(value, bool) or not isinstance(value, int) or value < (key == "threads")):
                rule = "a positive" if key == "threads" else "a non-negative"
                raise ValueError(f"nx.config.backends.graphmine.{key} must be {rule} integer or None, "
                                 f"got {value!r}")
            return value

    GraphmineConfig.__qualname__ = "GraphmineConfig"
    return GraphmineConfig


def get_info():
    """The backend description networkx reads at import (entry point ``networkx.backend_info``).

    Examples
    --------
    >>> from _graphmine_nx import get_info
    >>> info = get_info()
    >>> info["backend_name"], "triangles" in info["functions"], info["default_config"].method
    ('graphmine', True, 'exact')
    """
    return {
        "backend_name": "graphmine",
        "project": "graphmine",
        "package": "graphmine",
        "short_summary": "Compiled (Numba) triangle, clustering, link-prediction and core-number "
                         "kernels on a CSR graph, exact or sketch-based.",
        "functions": {name: {"additional_docs": doc} for name, doc in FUNCTIONS.items()},
        "default_config": _config_class()(method="exact", budget=None, seed=None, threads=None),
    }
