"""Graph neural networks on torch-geometric for graphmine tasks.

``SEAM`` (motif prediction, a DGCNN over labelled enclosing subgraphs), ``SEAMEnsemble``, ``DGCNN``,
``heuristic_features`` and ``select_seam`` are imported
lazily, so ``import gnn`` is fast and does not load torch; without torch or torch-geometric,
using them raises :class:`graphmine.core.exceptions.MissingDependencyError` naming the ``gnn`` extra.
"""

__all__ = ["SEAM", "SEAMEnsemble", "DGCNN", "resolve_device", "heuristic_features", "select_seam"]


def __getattr__(name):
    if name in __all__:
        from graphmine._runtime.optional import require

        require("torch", what=f"gnn.{name}")
        require("torch_geometric", what=f"gnn.{name}")
        from . import seam

        return getattr(seam, name)
    raise AttributeError(f"module 'gnn' has no attribute {name!r}")
