"""The sketch back-end's registrations (:mod:`graphmine.registry`): estimates from neighbourhood
sketches on the CPU, for ``method`` 'bloom', 'khash', 'onehash' and 'kmv'.

Imported by the registry on the first call with a sketch method (never by ``import graphmine``).
"""

from functools import partial

from ..registry import register
from . import counting

__all__ = ["FAMILIES"]

#: the families this back-end estimates (each by the function of the same name in counting.py)
FAMILIES = ("count_triangles", "triangles", "count_cliques", "clustering", "average_clustering", "transitivity")

for _name in FAMILIES:
    register(_name, "sketch", partial(getattr(counting, _name), device="cpu"))
