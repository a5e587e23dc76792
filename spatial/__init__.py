"""A simulator of the Spatial Computer Model and energy-optimal algorithms on it.

Processors on a 2D grid exchange messages that cost their Manhattan length. The
:class:`Machine` accounts energy (total length), depth (longest chain of dependent messages),
distance (longest chain by length), message count and contention for algorithms written as
rounds of vectorised sends. On top of it: :func:`broadcast`, :func:`reduce`, :func:`scan`,
:func:`select` / :func:`median`, :func:`sort`, :func:`spmv` and :func:`matmul` (Cannon), each
with its layout contract, its measured bound and (most) a naive comparison variant, and :func:`run_report` (also
``python -m spatial report``) for energy-depth tables, fitted exponents and plots.

Examples
--------
>>> import numpy as np, spatial
>>> r = spatial.scan(np.arange(16))
>>> bool((r.value == np.cumsum(np.arange(16))).all()), r.metrics.energy, r.metrics.depth
(True, 48, 7)
"""

from ._common import Result
from ._common import blelloch_levels, tree_levels
from .collectives import broadcast, reduce, scan, tree_broadcast, tree_reduce, tree_scan
from .exceptions import SpatialError, SpatialInputError, SpatialModelError, SpatialTypeError
from .layout import LAYOUTS, grid_shape, layout_coordinates, morton_decode, morton_encode
from .machine import DEFAULT_MESSAGE_WORDS, DEFAULT_WORDS, Machine, Metrics
from .matmul import matmul, matmul_lower_bound
from .selection import median, select
from .sorting import sort, sort_lower_bound
from .spmv import spmv, spmv_lower_bound

__all__ = [
    "Machine", "Metrics", "Result", "DEFAULT_WORDS", "DEFAULT_MESSAGE_WORDS",
    "broadcast", "reduce", "scan", "select", "median", "sort", "spmv", "matmul",
    "sort_lower_bound", "spmv_lower_bound", "matmul_lower_bound",
    "tree_broadcast", "tree_reduce", "tree_scan", "tree_levels", "blelloch_levels",
    "LAYOUTS", "grid_shape", "layout_coordinates", "morton_encode", "morton_decode",
    "SpatialError", "SpatialInputError", "SpatialTypeError", "SpatialModelError",
]
