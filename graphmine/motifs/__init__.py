"""Motif prediction: motif patterns, instance enumeration, a seeded evaluation protocol and
heuristic motif scores built from link-prediction scores (no torch needed; the SEAM GNN lives in
the top-level ``gnn`` package), and temporal closure prediction on timestamped items.
"""

from .closure import (CLOSURE_MOTIFS, CLOSURE_SCORES, ORBIT_FEATURES, ClosureModel, ClosureTask, closure_features,
                      closure_scores, closure_task, default_cut, evaluate_closure, predict_closure)
from .enumerate import canonical_tuples, count_motifs, find_motifs, is_motif, motif_edge_flags
from .heuristics import (LINK_SCORES, MOTIF_MODES, ORBIT_LINK_SCORE, auc_ap, evaluate_heuristics,
                         heuristic_motif_scores, link_scores, motif_scores)
from .patterns import MOTIF_KINDS, Motif, clique, cycle, get_motif, motif_from_graph, path, star
from .protocol import SPLITS, MotifTask, motif_prediction_task
from .subgraphs import (EnclosingSubgraphs, distance_labels, enclosing_subgraphs, n_distance_labels,
                        zero_one_labels)

__all__ = [
    "Motif", "clique", "star", "path", "cycle", "motif_from_graph", "get_motif", "MOTIF_KINDS",
    "find_motifs", "count_motifs", "is_motif", "motif_edge_flags", "canonical_tuples",
    "MotifTask", "motif_prediction_task", "SPLITS",
    "LINK_SCORES", "ORBIT_LINK_SCORE", "MOTIF_MODES", "link_scores", "motif_scores", "heuristic_motif_scores",
    "evaluate_heuristics", "auc_ap",
    "ClosureTask", "ClosureModel", "closure_task", "closure_scores", "closure_features", "evaluate_closure",
    "predict_closure", "default_cut", "CLOSURE_SCORES", "CLOSURE_MOTIFS", "ORBIT_FEATURES",
    "EnclosingSubgraphs", "enclosing_subgraphs", "distance_labels", "n_distance_labels", "zero_one_labels",
]
