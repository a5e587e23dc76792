"""graphmine: graph mining on a shared CSR core.

Exact and approximate (sketch-based) clique counting, clustering coefficients, similarity,
motif and link prediction, with a command-line interface ``graphmine``.
"""

from . import datasets, generators
from .cliques import count_cliques, count_triangles, triangles
from .cluster import average_clustering, clustering, transitivity
from .exceptions import (GraphFormatError, GraphmineError, GraphValueError, ParameterError,
                         SketchSaturationWarning)
from .graph import Graph, OrientedGraph, as_graph, from_edges
from .io import read_edges, read_graph, write_edgelist

__version__ = "0.1.0"

__all__ = [
    "Graph", "OrientedGraph", "as_graph", "from_edges",
    "read_graph", "read_edges", "write_edgelist",
    "count_triangles", "triangles", "count_cliques",
    "clustering", "average_clustering", "transitivity",
    "datasets", "generators",
    "GraphmineError", "GraphFormatError", "GraphValueError", "ParameterError",
    "SketchSaturationWarning",
]
