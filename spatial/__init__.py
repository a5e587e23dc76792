"""A simulator of the Spatial Computer Model and energy-optimal algorithms on it.

Processors on a 2D grid hold a constant number of words each and exchange messages that cost
words x Manhattan length. The :class:`Machine` holds every processor's words (registers: numpy
arrays indexed by processor) and enforces the model: a processor sends only words it holds,
messages and local memories have a size limit, a processor receives one message per round;
it accounts energy, words, depth (longest chain of dependent messages), distance (the same
chain by length), messages, contention and peak local memory. Algorithms are rounds of
vectorised sends and element-wise local steps; :func:`tree_broadcast`, :func:`tree_reduce` and
:func:`tree_scan` are the tree steps to build new ones from. On top of them:
:func:`broadcast`, :func:`reduce`, :func:`scan`, :func:`select` / :func:`median`,
:func:`sort`, :func:`spmv` and :func:`matmul` (Cannon), each with its layout contract, its
measured bound and (most) a naive comparison variant; :func:`spatial.report.run_report` (also
``python -m spatial report``) for energy-depth tables, ratio-checked bounds and plots;
:mod:`spatial.trace` (also ``python -m spatial trace``) for traffic heat maps, critical chains
and message logs of single runs.

Examples
--------
>>> import numpy as np, spatial
>>> r = spatial.scan(np.arange(16))
>>> bool((r.value == np.cumsum(np.arange(16))).all()), r.metrics.energy, r.metrics.depth
(True, 48, 7)
"""

from ._common import Result, blelloch_levels, tree_levels
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
