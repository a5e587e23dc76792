"""The sketch back-end's registrations (:mod:`graphmine.core.registry`): estimates from neighbourhood
sketches on the CPU, for ``method`` 'bloom', 'khash', 'onehash' and 'kmv'.

Imported by the registry on the first call with a sketch method (never by ``import graphmine``).
"""

from functools import partial

from ..core.registry import implements
from . import counting

__all__ = []

# each family is estimated by the function of the same name in counting.py, on the CPU
implements("count_triangles", "sketch")(partial(counting.count_triangles, device="cpu"))
implements("triangles", "sketch")(partial(counting.triangles, device="cpu"))
implements("count_cliques", "sketch")(partial(counting.count_cliques, device="cpu"))
implements("clustering", "sketch")(partial(counting.clustering, device="cpu"))
implements("average_clustering", "sketch")(partial(counting.average_clustering, device="cpu"))
implements("transitivity", "sketch")(partial(counting.transitivity, device="cpu"))
