r"""Enclosing subgraphs of motif candidates and their node labels (input of the SEAM GNN).

The enclosing subgraph of a candidate with vertices ``V_M`` is the subgraph of the observed graph
induced by the union of the h-hop neighbourhoods of ``V_M``, with the candidate's target motif
edges masked out. Two node labellings generalise SEAL's DRNL from 2 to k target vertices:

* *zero-one*: 1 for the motif vertices, 0 for the others;
* *distance*: the sorted vector of a node's distances to the k motif vertices (inside the
  subgraph, capped at ``dmax``, ``dmax + 1`` meaning farther or unreachable), numbered by its rank
  in the combinatorial number system, so equal multisets of distances get equal labels and the
  label does not depend on the order of the motif vertices:

.. math::

    \ell(v) = \sum_{i=1}^{k} \binom{a_i + i - 1}{i}, \qquad a_1 \le \dots \le a_k
    \text{ the sorted distances of } v,

a bijection onto ``0 .. C(dmax + 1 + k, k) - 1``.
"""

from .._runtime.docs import fill_doc
from math import comb

import numpy as np

from .._runtime.interrupt import interruptible
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError
from ..core.validation import as_graph
from . import _subgraph_kernels as _sk
from .enumerate import _check_motif, _check_tuples

__all__ = ["EnclosingSubgraphs", "enclosing_subgraphs", "distance_labels", "n_distance_labels",
           "zero_one_labels"]


class EnclosingSubgraphs:
    """The enclosing subgraphs of N candidates in flat arrays.

    Attributes
    ----------
    node_ptr : ndarray of int64, shape (N + 1,)
        Sample i owns nodes ``node_ptr[i]:node_ptr[i+1]``; its first k are the motif vertices.
    nodes : ndarray of int64
        Vertex ids in the observed graph.
    edge_ptr : ndarray of int64, shape (N + 1,)
        Sample i owns edges ``edge_ptr[i]:edge_ptr[i+1]``.
    edges : ndarray of int64, shape (E, 2)
        Local endpoints (indices into the sample's nodes, first < second), one row per edge.
    dist : ndarray of int64, shape (total nodes, k)
        Distance of every node to each motif vertex in its subgraph (``dmax + 1``: farther).
    k, hops, dmax : int
        Motif size, hops and distance cap of the extraction.

    Parameters
    ----------
    node_ptr, nodes, edge_ptr, edges, dist, k, hops, dmax
        The attributes, as :func:`enclosing_subgraphs` computes them.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import clique
    >>> S = enclosing_subgraphs(nx.complete_graph(4), clique(3), [[0, 1, 2]])
    >>> S.node_ptr.tolist(), S.k, S.hops, S.dmax
    ([0, 4], 3, 1, 3)
    """

    def __init__(self, node_ptr, nodes, edge_ptr, edges, dist, k, hops, dmax):
        self.node_ptr, self.nodes, self.edge_ptr, self.edges, self.dist = node_ptr, nodes, edge_ptr, edges, dist
        self.k, self.hops, self.dmax = k, hops, dmax

    def __len__(self):
        return self.node_ptr.shape[0] - 1

    def sample(self, i):
        """(nodes, local edges, dist) of sample i."""
        a, b = self.node_ptr[i], self.node_ptr[i + 1]
        c, d = self.edge_ptr[i], self.edge_ptr[i + 1]
        return self.nodes[a:b], self.edges[c:d], self.dist[a:b]

    def sizes(self):
        return np.diff(self.node_ptr)


@interruptible
@restores_threads
@fill_doc
def enclosing_subgraphs(G, motif, tuples, targets=None, *, hops=1, max_nodes_per_hop=None, dmax=None,
                        seed=0, threads=None):
    """Extract the enclosing subgraph of every candidate motif.

    {Parameters: motif_observed_G, motif, motif_tuples}
    targets : array_like of bool, shape (N, |E_M|), optional
        Motif edges to mask per sample (default: all motif edges).
    hops : int
        1 or 2 (or more).
    max_nodes_per_hop : int, optional
        Keep at most this many new vertices per hop (a seeded, reproducible choice).
    dmax : int, optional
        Distance cap of the labels (default ``2 * hops + 1``).
    seed : int, default 0
        Seed of the choice under ``max_nodes_per_hop``.
    {threads}

    Returns
    -------
    EnclosingSubgraphs
        The subgraphs in flat arrays.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import clique
    >>> G = nx.complete_graph(4)
    >>> S = enclosing_subgraphs(G, clique(3), [[0, 1, 2]])
    >>> nodes, edges, dist = S.sample(0)
    >>> nodes.tolist(), edges.tolist()                     # the triangle's edges are masked
    ([0, 1, 2, 3], [[0, 3], [1, 3], [2, 3]])
    >>> dist.tolist()
    [[0, 2, 2], [2, 0, 2], [2, 2, 0], [1, 1, 1]]
    """
    G = as_graph(G)
    motif = _check_motif(motif)
    t = _check_tuples(G, motif, tuples)
    N, k = t.shape
    if isinstance(hops, bool) or not isinstance(hops, (int, np.integer)) or hops < 0:
        raise ParameterError(f"hops must be a non-negative integer, got {hops!r}")
    if max_nodes_per_hop is not None and (not isinstance(max_nodes_per_hop, (int, np.integer)) or max_nodes_per_hop < 1):
        raise ParameterError(f"max_nodes_per_hop must be a positive integer or None, got {max_nodes_per_hop!r}")
    dmax = 2 * int(hops) + 1 if dmax is None else int(dmax)
    if dmax < 1:
        raise ParameterError(f"dmax must be >= 1, got {dmax}")
    if targets is None:
        targets = np.ones((N, motif.n_edges), np.bool_)
    targets = np.asarray(targets, dtype=np.bool_)
    if targets.shape != (N, motif.n_edges):
        raise ParameterError(f"targets must have shape ({N}, {motif.n_edges}), got {targets.shape}")
    tmask = np.zeros((N, k, k), np.bool_)
    E = motif.edges
    tmask[:, E[:, 0], E[:, 1]] = targets
    tmask[:, E[:, 1], E[:, 0]] = targets
    nthreads = resolve_threads(threads)
    mph = -1 if max_nodes_per_hop is None else int(max_nodes_per_hop)
    nn = np.zeros(N, np.int64)
    ne = np.zeros(N, np.int64)
    z = np.zeros(N, np.int64)
    _sk._enclosing(G.indptr, G.indices, t, tmask, int(hops), mph, int(seed), dmax, False,
                   np.empty(0, np.int64), np.empty((0, 2), np.int64), np.empty((0, k), np.int64), z, z, nn, ne,
                   nthreads)
    node_ptr = np.zeros(N + 1, np.int64)
    edge_ptr = np.zeros(N + 1, np.int64)
    np.cumsum(nn, out=node_ptr[1:])
    np.cumsum(ne, out=edge_ptr[1:])
    nodes = np.empty(node_ptr[-1], np.int64)
    edges = np.empty((edge_ptr[-1], 2), np.int64)
    dist = np.empty((node_ptr[-1], k), np.int64)
    _sk._enclosing(G.indptr, G.indices, t, tmask, int(hops), mph, int(seed), dmax, True, nodes, edges, dist,
                   node_ptr[:-1].copy(), edge_ptr[:-1].copy(), nn, ne, nthreads)
    return EnclosingSubgraphs(node_ptr, nodes, edge_ptr, edges, dist, k, int(hops), dmax)


def n_distance_labels(k, dmax):
    """Number of distinct distance labels: multisets of size k over 0..dmax+1.

    .. math:: \\binom{k + d_{max} + 1}{k}

    Parameters
    ----------
    k : int
        Motif size.
    dmax : int
        Distance cap.

    Returns
    -------
    int

    Examples
    --------
    >>> n_distance_labels(3, 3)  # C(7, 3)
    35
    """
    return comb(dmax + 1 + k, k)


def distance_labels(dist, dmax):
    """Distance labels (see the module docstring) of rows of distances to the k motif vertices.

    Parameters
    ----------
    dist : ndarray of int of shape (M, k)
        Distances of M nodes to the k motif vertices (``dmax + 1``: farther).
    dmax : int
        Distance cap.

    Returns
    -------
    ndarray of int64 of shape (M,)
        Labels in 0..n_distance_labels(k, dmax) - 1.

    Examples
    --------
    >>> import numpy as np
    >>> distance_labels(np.array([[0, 1, 1], [1, 0, 1], [2, 2, 2]]), dmax=3).tolist()
    [2, 2, 9]
    """
    d = np.minimum(np.sort(np.asarray(dist, np.int64), axis=1), dmax + 1)
    k = d.shape[1]
    b = d + np.arange(k)
    table = np.array([[comb(int(x), i + 1) for i in range(k)] for x in range(dmax + 2 + k)], np.int64)
    return table[b, np.arange(k)].sum(axis=1)


def zero_one_labels(S):
    """1 for the motif vertices of every enclosing subgraph, 0 for the others.

    Parameters
    ----------
    S : EnclosingSubgraphs
        The subgraphs.

    Returns
    -------
    ndarray of int64 of shape (total nodes,)
        The labels, aligned with ``S.nodes``.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import clique
    >>> zero_one_labels(enclosing_subgraphs(nx.complete_graph(4), clique(3), [[0, 1, 2]])).tolist()
    [1, 1, 1, 0]
    """
    lab = np.zeros(S.nodes.shape[0], np.int64)
    starts = S.node_ptr[:-1]
    lab[(starts[:, None] + np.arange(S.k)).reshape(-1)] = 1
    return lab
