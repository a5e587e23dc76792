"""graphmine: graph mining on a shared CSR core.

Exact and approximate (sketch-based) clique counting, clustering coefficients, similarity,
motif and link prediction, with a command-line interface ``graphmine``.

This package is the facade on top of the layers (see CONTRIBUTING.md): every name below is
loaded from its module on first use, so that ``import graphmine`` and each command of the CLI
load only what they use.
"""

from .exceptions import (GraphFormatError, GraphmineError, GraphValueError, MissingDependencyError,
                         NoImplementationError, OutputExistsError, OutputPathError, ParameterError, ResourceLimitError,
                         SketchSaturationWarning, SkippedLineWarning)

__version__ = "0.1.0"

# name -> (module, attribute; None for the module itself)
_LAZY = {
    "Graph": ("graphmine.graph", "Graph"),
    "OrientedGraph": ("graphmine.graph", "OrientedGraph"),
    "from_edges": ("graphmine.graph", "from_edges"),
    "as_graph": ("graphmine.validation", "as_graph"),
    "read_graph": ("graphmine.io", "read_graph"),
    "read_edges": ("graphmine.io", "read_edges"),
    "write_edgelist": ("graphmine.io", "write_edgelist"),
    "count_triangles": ("graphmine.dispatch", "count_triangles"),
    "triangles": ("graphmine.dispatch", "triangles"),
    "count_cliques": ("graphmine.dispatch", "count_cliques"),
    "clustering": ("graphmine.dispatch", "clustering"),
    "average_clustering": ("graphmine.dispatch", "average_clustering"),
    "transitivity": ("graphmine.dispatch", "transitivity"),
    "count_four_cycles": ("graphmine.dispatch", "count_four_cycles"),
    "four_cycles": ("graphmine.dispatch", "four_cycles"),
    "common_neighbor_centrality": ("graphmine.dispatch", "common_neighbor_centrality"),
    "registry": ("graphmine.registry", None),
    "count_all_cliques": ("graphmine.clique_census", "count_all_cliques"),
    "vertex_clique_counts": ("graphmine.clique_census", "vertex_clique_counts"),
    "edge_clique_counts": ("graphmine.clique_census", "edge_clique_counts"),
    "clique_clustering": ("graphmine.clique_census", "clique_clustering"),
    "clique_core_number": ("graphmine.clique_peeling", "clique_core_number"),
    "densest_clique_subgraph": ("graphmine.clique_peeling", "densest_clique_subgraph"),
    "maximal_cliques": ("graphmine.clique_enumeration", "maximal_cliques"),
    "count_maximal_cliques": ("graphmine.clique_enumeration", "count_maximal_cliques"),
    "node_clique_number": ("graphmine.clique_enumeration", "node_clique_number"),
    "enumerate_cliques": ("graphmine.clique_enumeration", "enumerate_cliques"),
    "clique_communities": ("graphmine.clique_enumeration", "clique_communities"),
    "truss_decomposition": ("graphmine.truss", "truss_decomposition"),
    "k_truss": ("graphmine.truss", "k_truss"),
    "datasets": ("graphmine.datasets", None),
    "graph": ("graphmine.graph", None),
    "io": ("graphmine.io", None),
    "validation": ("graphmine.validation", None),
    "cliques": ("graphmine.cliques", None),
    "cluster": ("graphmine.cluster", None),
    "centrality": ("graphmine.centrality", None),
    "dispatch": ("graphmine.dispatch", None),
    "generators": ("graphmine.generators", None),
    "probgraph": ("graphmine.probgraph", None),
    "cuda": ("graphmine.cuda", None),
    "distributed": ("graphmine.distributed", None),
    "motifs": ("graphmine.motifs", None),
    "science4cast": ("graphmine.science4cast", None),
    "similarity": ("graphmine.probgraph", "similarity"),
    "jarvis_patrick": ("graphmine.probgraph", "jarvis_patrick"),
    "choose_sketch": ("graphmine.probgraph", "choose_sketch"),
    "Estimate": ("graphmine.probgraph", "Estimate"),
}


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'graphmine' has no attribute {name!r}")
    import importlib

    from ._interrupt import interruptible

    module, attr = _LAZY[name]
    # imported on graphmine's worker thread: a Ctrl-C meanwhile never leaves numpy, numba or
    # scipy half imported in this process (graphmine/_interrupt.py)
    mod = interruptible(importlib.import_module)(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Graph", "OrientedGraph", "as_graph", "from_edges",
    "read_graph", "read_edges", "write_edgelist",
    "count_triangles", "triangles", "count_cliques",
    "clustering", "average_clustering", "transitivity", "count_four_cycles", "four_cycles",
    "common_neighbor_centrality",
    "count_all_cliques", "vertex_clique_counts", "edge_clique_counts", "clique_clustering",
    "clique_core_number", "densest_clique_subgraph", "maximal_cliques", "count_maximal_cliques",
    "node_clique_number", "enumerate_cliques", "clique_communities", "truss_decomposition", "k_truss",
    "datasets", "generators", "probgraph", "motifs", "science4cast",
    "similarity", "jarvis_patrick", "choose_sketch", "Estimate",
    "GraphmineError", "GraphFormatError", "GraphValueError", "ParameterError",
    "MissingDependencyError", "NoImplementationError", "OutputPathError", "OutputExistsError", "ResourceLimitError",
    "SketchSaturationWarning", "SkippedLineWarning",
]
