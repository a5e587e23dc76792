"""Reading and writing graphs: edge lists and Matrix Market files
(:mod:`~graphmine.io.edgelist`), timestamped items (:mod:`~graphmine.io.events`), the shipped
data sets (:mod:`~graphmine.io.datasets`) and seeded generators (:mod:`~graphmine.io.generators`).

The readers and writers of edge lists are importable from here (``graphmine.io.read_graph``).
"""

from .edgelist import EdgeList, ID_TYPES, STDIN, read_bytes, read_edges, read_graph, write_edgelist, write_vertex_table

__all__ = ["EdgeList", "read_edges", "read_graph", "write_edgelist", "write_vertex_table", "read_bytes", "STDIN",
           "ID_TYPES"]
#: the names graphmine offers as graphmine.<name>
__facade__ = ("read_graph", "read_edges", "write_edgelist")
