"""Distributed counting on Dask: triangles, k-cliques, per-vertex triangles, average clustering
and Bloom-filter triangle estimates for graphs held as edge-list shards (``pip install
"graphmine[dask]"``).

No process reads the whole input: the shards are parsed on the workers, the vertex ids compacted
by a distributed unique, the graph oriented by distributed degree counts and shuffled into P row
blocks of the oriented CSR, and counting runs as block tasks whose sums are reduced at the end.
Any ``distributed.Client`` works (a LocalCluster or a multi-machine cluster); without one, a
LocalCluster sized to the machine is started and closed. See docs/distributed.md.
"""

from .counting import VertexCounts, average_clustering, count_cliques, count_triangles, triangles
from .graph import DistributedGraph, expand_source, local_client, memory_per_worker, warm_up

__all__ = ["count_triangles", "count_cliques", "triangles", "average_clustering", "DistributedGraph",
           "VertexCounts", "local_client", "expand_source", "memory_per_worker",
           "warm_up"]
