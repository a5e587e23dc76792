"""Motif prediction: motif patterns, instance enumeration, a seeded evaluation protocol and
heuristic motif scores built from link-prediction scores (no torch needed; the SEAM GNN lives in
the top-level ``gnn`` package).
"""

from .enumerate import canonical_tuples, count_motifs, find_motifs, is_motif, motif_edge_flags
from .patterns import MOTIF_KINDS, Motif, clique, cycle, get_motif, motif_from_graph, path, star

__all__ = [
    "Motif", "clique", "star", "path", "cycle", "motif_from_graph", "get_motif", "MOTIF_KINDS",
    "find_motifs", "count_motifs", "is_motif", "motif_edge_flags", "canonical_tuples",
]
