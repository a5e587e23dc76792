"""Vertex centrality: PageRank, the mean degree of the neighbours and k-core numbers.

Each function is the family's exact CPU implementation (``_cpu.py``, kernels in ``_kernels.py``)
and is offered as ``graphmine.<name>``.
"""

from ._cpu import average_neighbor_degree, core_number, pagerank

__all__ = ["pagerank", "average_neighbor_degree", "core_number"]
