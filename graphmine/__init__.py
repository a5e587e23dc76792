"""graphmine: graph mining on a shared CSR core.

Exact and approximate (sketch-based) clique counting, clustering coefficients, similarity,
motif and link prediction, with a command-line interface ``graphmine``.
"""

from . import datasets, generators
from .cliques import count_cliques, count_triangles, triangles
from .cluster import average_clustering, clustering, transitivity
from .exceptions import (GraphFormatError, GraphmineError, GraphValueError, MissingDependencyError,
                         OutputExistsError, OutputPathError, ParameterError, ResourceLimitError,
                         SketchSaturationWarning)
from .graph import Graph, OrientedGraph, as_graph, from_edges
from .io import read_edges, read_graph, write_edgelist

__version__ = "0.1.0"

# components loaded on first use, so `import graphmine` (and the CLI) start fast
_LAZY = {
    "probgraph": ("graphmine.probgraph", None),
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

    module, attr = _LAZY[name]
    mod = importlib.import_module(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "Graph", "OrientedGraph", "as_graph", "from_edges",
    "read_graph", "read_edges", "write_edgelist",
    "count_triangles", "triangles", "count_cliques",
    "clustering", "average_clustering", "transitivity",
    "datasets", "generators", "probgraph", "motifs", "science4cast",
    "similarity", "jarvis_patrick", "choose_sketch", "Estimate",
    "GraphmineError", "GraphFormatError", "GraphValueError", "ParameterError",
    "MissingDependencyError", "OutputPathError", "OutputExistsError", "ResourceLimitError",
    "SketchSaturationWarning",
]
