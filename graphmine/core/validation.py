"""The one validator of graphmine: :func:`as_graph` turns every accepted input into a
:class:`~graphmine.Graph`.

It sits above both the CSR type (:mod:`graphmine.core.graph`) and the file readers
(:mod:`graphmine.io.edgelist`), so that neither of those needs the other in both directions: ``io`` builds
graphs with ``graph``'s public constructors, and a path given here goes to ``io``.
"""

import numbers
import os
import sys

from .._runtime.docs import fill_doc
from .exceptions import ParameterError
from .graph import Graph, from_edges, from_networkx, from_scipy

__all__ = ["as_graph", "check_k"]
#: the names graphmine offers as graphmine.<name>
__facade__ = ("as_graph",)


def _is_scipy_sparse(data):
    # a scipy sparse matrix can exist only once scipy is loaded: no import of scipy for other inputs
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(data)


def _is_file_object(data):
    return hasattr(data, "read") and not isinstance(data, (str, bytes, os.PathLike))


def as_graph(data, *, threads=None, relabel=None, symmetrize=False, **read_kwargs):
    """Turn any accepted input into a :class:`Graph` (the one validator of graphmine).

    Parameters
    ----------
    data : Graph, array_like (m, 2), scipy sparse matrix/array, networkx graph, str, PathLike or file object
        * an (m, 2) integer edge array: vertices 0..max id (see :func:`from_edges`);
        * a square scipy sparse matrix with a symmetric nonzero pattern: that pattern, diagonal
          dropped;
        * an undirected simple networkx Graph: vertex ``i`` is the i-th node of ``data.nodes``
          and ``node_ids`` holds the node labels;
        * a path or an open file object: read with :func:`graphmine.read_graph` (extra keywords
          go there, such as ``ids='str'``).
    threads : int, optional
        Threads for building the CSR.
    relabel : bool, optional
        For edge arrays and files: number only the ids that occur, in increasing order, keeping
        the ids in ``node_ids`` (default: False for edge arrays, True for files). Use it for
        edge arrays with large sparse ids.
    symmetrize : bool
        Accept a directed or multi- networkx graph, or a matrix whose pattern is not symmetric,
        as the undirected simple graph of its edges (u and v adjacent wherever an edge or arc
        joins them, parallel edges merged). Without it they are refused: their triangles are
        not an undirected graph's. Edge arrays and files are undirected edge lists anyway.
    **read_kwargs
        Keywords of :func:`graphmine.read_graph`, for paths and files only.

    Returns
    -------
    Graph

    Raises
    ------
    GraphValueError
        For a directed graph, a multigraph or an asymmetric matrix without ``symmetrize``, and
        for edge arrays that break the rules of :func:`from_edges`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.as_graph(nx.petersen_graph())
    Graph(n_nodes=10, n_edges=15)
    >>> gm.as_graph(nx.DiGraph([(0, 1), (1, 2), (2, 0)]), symmetrize=True)
    Graph(n_nodes=3, n_edges=3)
    """
    if isinstance(data, Graph):
        return data
    if isinstance(data, (str, os.PathLike)) or _is_file_object(data):
        if relabel is not None:
            read_kwargs["relabel"] = relabel
        # the reader (and its parsing kernels, which import numba) loads with the first file
        from ..io.edgelist import read_graph

        return read_graph(data, threads=threads, **read_kwargs)
    if read_kwargs:
        raise ParameterError(f"keywords {sorted(read_kwargs)} only apply when reading a file")
    sparse = _is_scipy_sparse(data)
    if sparse or (type(data).__module__ or "").startswith("networkx"):
        if relabel is not None:
            raise ParameterError("relabel applies to edge arrays and files only")
        if sparse:
            return from_scipy(data, threads, symmetrize=symmetrize)
        return from_networkx(data, threads, symmetrize=symmetrize)
    return from_edges(data, relabel=bool(relabel), threads=threads)


@fill_doc
def check_k(k):
    """Check a clique size.

    {Parameters: k}

    Returns
    -------
    int
        ``k`` as a Python int.

    {Raises: clique_k_raises}

    Examples
    --------
    >>> check_k(4)
    4
    """
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ParameterError(f"k must be an integer >= 3, got {k!r}")
    if k < 3:
        raise ParameterError(f"k must be >= 3 (k = 1, 2 are the vertex and edge counts), got {k}")
    return int(k)
