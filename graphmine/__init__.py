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

# the names loaded on first use: module -> the names it gives (its attributes of the same names)
_NAMES = {
    "graphmine.graph": ("Graph", "OrientedGraph", "from_edges"),
    "graphmine.validation": ("as_graph",),
    "graphmine.io": ("read_graph", "read_edges", "write_edgelist"),
    "graphmine.dispatch": ("count_triangles", "triangles", "count_cliques", "clustering", "average_clustering",
                           "transitivity", "count_four_cycles", "four_cycles", "common_neighbor_centrality",
                           "k_truss"),
    "graphmine.clique_census": ("count_all_cliques", "vertex_clique_counts", "edge_clique_counts",
                                "clique_clustering"),
    "graphmine.clique_peeling": ("clique_core_number", "densest_clique_subgraph"),
    "graphmine.clique_enumeration": ("maximal_cliques", "count_maximal_cliques", "node_clique_number",
                                     "enumerate_cliques", "clique_communities"),
    "graphmine.truss": ("truss_decomposition",),
    "graphmine.probgraph": ("similarity", "jarvis_patrick", "choose_sketch", "Estimate"),
}
# the submodules loaded on first use, as graphmine.<name>
_SUBMODULES = ("registry", "datasets", "graph", "io", "validation", "cliques", "cluster", "centrality", "dispatch",
               "generators", "probgraph", "cuda", "distributed", "motifs", "science4cast")
# name -> (module, attribute; None for the module itself)
_LAZY = {**{name: (module, name) for module, names in _NAMES.items() for name in names},
         **{name: (f"graphmine.{name}", None) for name in _SUBMODULES}}


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
