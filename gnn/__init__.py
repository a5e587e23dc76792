"""Graph neural networks on torch-geometric for graphmine tasks.

``SEAM`` (motif prediction, a DGCNN over labelled enclosing subgraphs) and ``DGCNN`` are imported
lazily, so ``import gnn`` is fast and does not load torch.
"""

__all__ = ["SEAM", "DGCNN", "resolve_device"]


def __getattr__(name):
    if name in __all__:
        from . import seam

        return getattr(seam, name)
    raise AttributeError(f"module 'gnn' has no attribute {name!r}")
