"""networkx's triangle and clique functions computed by graphmine (the cliques family's networkx adapters).

Each function takes networkx's arguments and returns networkx's results (dicts keyed by the
networkx nodes in networkx's order, plain Python numbers); the shared pieces are
:mod:`graphmine.nx_backend.adapt`. ``@implements(family, "networkx", name=...)`` declares each one
for networkx's dispatch (the generated table, :data:`graphmine.core.generated.NETWORKX`).
"""

from .._runtime.docs import fill_doc
from .._runtime.lazy import lazy_module
from ..core.registry import implements
from ..nx_backend.adapt import (approx, backend_graph, identity_labels, kept_node_dict, nbunch_indices, node_index,
                                node_labels, object_labels, per_node, settings)
import numpy as np

from . import triangles as _triangles

__all__ = ["triangles", "all_triangles", "find_cliques", "enumerate_all_cliques", "node_clique_number", "k_clique_communities"]


# the kernels and the clique search are imported by the first function that uses them: a triangle
# count that numpy does (a fresh process, a moderate graph) then loads neither them nor numba
@lazy_module
def _maximal():
    from . import enumeration

    return enumeration


@lazy_module
def _k():
    from . import _clique_kernels

    return _clique_kernels


def _exact_triangles(H, threads):
    """The triangles through every vertex (exact; the family counts moderate work on numpy while
    numba is not imported), read-only.

    networkx keeps the converted graph in ``G.__networkx_cache__``, and the graph keeps the counts
    of an earlier call (:meth:`graphmine.Graph.cached_result`): those are read directly, without
    the registry's dispatch and the hand-off to the worker thread (together 1-2 ms of a 2 ms call
    on ca-HepPh, more on a loaded machine where the worker waits for a core)."""
    kept = H.cached_result("triangles", None)
    return kept if kept is not None else _triangles(H, threads=threads)


def triangle_counts(H, method, kw):
    if method == "exact":
        return _exact_triangles(H, kw["threads"])
    return np.rint(approx("triangles", H, method, kw)).astype(np.int64)


@implements("triangles", "networkx", name="triangles",
            note=("Exact per-node counts over the degree order: vectorised numpy while numba is not "
                  "loaded and the graph is moderate (a fresh process imports no numba), else a "
                  "Numba kernel. Set ``nx.config.backends.graphmine.method`` (``'bloom'``, "
                  "``'khash'``, ``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a "
                  "sketch-based estimate; the default, ``'exact'``, is exact."))
@fill_doc
def triangles(G, nodes=None):
    """Triangles through each node, as ``networkx.triangles``.

    {Parameters: nx_G, nx_nodes}

    Returns
    -------
    dict of node to int, or int
        Triangles through each node (estimates rounded to ints under a sketch method).

    Examples
    --------
    >>> import networkx as nx
    >>> triangles(nx.complete_graph(4)), triangles(nx.complete_graph(4), 0)
    ({0: 3, 1: 3, 2: 3, 3: 3}, 3)
    """
    H = backend_graph(G)
    method, kw = settings()
    if nodes is None and method == "exact":
        return kept_node_dict(H, "triangles", lambda: triangle_counts(H, method, kw).tolist())
    return per_node(H, triangle_counts(H, method, kw).tolist(), nodes)


@implements("list_triangles", "networkx", name="all_triangles",
            note=("Listed by a compiled kernel; the triangles (and each tuple) are those of "
                  "networkx, the order in which they are yielded may differ."))
@fill_doc
def all_triangles(G, nbunch=None):
    """Every triangle once as a tuple of three nodes, as ``networkx.all_triangles``.

    The nodes of a tuple come in networkx's order (node order; the members of ``nbunch`` first);
    the order in which the triangles are yielded may differ from networkx's.

    {Parameters: nx_G}
    nbunch : node or iterable of nodes, optional
        Only the triangles that contain one of these nodes (default: all triangles).

    Yields
    ------
    tuple of three nodes
        A triangle.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(all_triangles(nx.complete_graph(4)))
    [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    """
    H = backend_graph(G)
    labels = node_labels(H)
    if nbunch is not None:
        sel = np.array(list(dict.fromkeys(nbunch_indices(H, nbunch).tolist())), np.int64)
    O = H.oriented("degree")
    tri = _k._list_triangles(O.indptr, O.indices)
    if nbunch is not None:
        pos = np.full(H.n_nodes, -1, np.int64)
        pos[sel] = np.arange(sel.shape[0])
        tri = tri[(pos[tri] >= 0).any(axis=1)]
        key = np.where(pos[tri] >= 0, pos[tri], sel.shape[0] + tri)
        tri = np.take_along_axis(tri, np.argsort(key, axis=1, kind="stable"), axis=1)
    for a, b, c in tri.tolist():
        yield labels[a], labels[b], labels[c]


@implements("maximal_cliques", "networkx", name="find_cliques",
            note=("Bron-Kerbosch with pivoting on the degeneracy order in a compiled kernel, in "
                  "batches (memory bounded by one search's candidate sets); without ``nodes``. The "
                  "cliques are those of networkx, their order (and the order within one) may "
                  "differ."))
@fill_doc
def find_cliques(G, nodes=None):
    """Every maximal clique once, as ``networkx.find_cliques``: an iterator of lists of nodes
    from a compiled, parallel Bron-Kerbosch search in bounded batches, one batch ahead in a
    helper thread; the order of the cliques and within them differs.

    {Parameters: nx_G}
    nodes : list of nodes, optional
        Only the maximal cliques containing all of these nodes (searched in the subgraph on
        their common neighbours); ValueError, as networkx, when they do not form a clique.

    Yields
    ------
    list of nodes
        A maximal clique.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(map(sorted, find_cliques(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))))
    [[0, 1, 2], [2, 3]]
    """
    H = backend_graph(G)
    if nodes is not None and len(nodes):
        if H.n_nodes == 0:  # networkx yields nothing for an empty graph, whatever the nodes
            return iter(())
        index = node_index(H)
        if any(u not in index for u in nodes):
            raise ValueError(f"The given `nodes` {nodes} do not form a clique")
        nodes = [index[u] for u in nodes]
    return _maximal.maximal_cliques(H, nodes=nodes, threads=settings()[1]["threads"], labels=object_labels(H))


@implements("enumerate_cliques", "networkx", name="enumerate_all_cliques",
            note=("Compiled k-clique listing, one size after the other; the order within a size may "
                  "differ."))
@fill_doc
def enumerate_all_cliques(G):
    """Every clique by increasing size, as ``networkx.enumerate_all_cliques`` (the order within a
    size differs).

    {Parameters: nx_G}

    Yields
    ------
    list of nodes
        A clique; sizes 1, 2, 3, ... in turn.

    Examples
    --------
    The cliques hold networkx's nodes, whatever they are:

    >>> import networkx as nx
    >>> list(enumerate_all_cliques(nx.Graph([("a", "b"), ("b", "c"), ("c", "a")])))
    [['a'], ['b'], ['c'], ['a', 'b'], ['a', 'c'], ['b', 'c'], ['a', 'b', 'c']]
    """
    H = backend_graph(G)
    if identity_labels(H):
        yield from _maximal.enumerate_cliques(H)
        return
    labels = node_labels(H)
    for clique in _maximal.enumerate_cliques(H):
        yield [labels[v] for v in clique]


@implements("node_clique_number", "networkx", name="node_clique_number",
            note=("From a compiled maximal-clique search; without ``cliques``."))
@fill_doc
def node_clique_number(G, nodes=None, cliques=None, separate_nodes=False):
    """The size of the largest maximal clique containing each node, as
    ``networkx.node_clique_number`` (without ``cliques``).

    {Parameters: nx_G, nx_nodes, nx_cliques}
    separate_nodes : bool, default False
        Ignored, as networkx ignores it without ``cliques``.

    Returns
    -------
    dict of node to int, or int
        The size of the largest clique containing each node.

    Examples
    --------
    >>> import networkx as nx
    >>> node_clique_number(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    {0: 3, 1: 3, 2: 3, 3: 2}
    """
    H = backend_graph(G, "node_clique_number", cliques=cliques)
    values = _maximal.node_clique_number(H, threads=settings()[1]["threads"]).tolist()
    return per_node(H, values, nodes)


@implements("clique_communities", "networkx", name="k_clique_communities",
            note=("Clique percolation over the maximal cliques with a compiled union-find; without "
                  "``cliques``. The communities are those of networkx, their order may differ."))
@fill_doc
def k_clique_communities(G, k, cliques=None):
    """The k-clique communities, as ``networkx``'s ``k_clique_communities`` (without ``cliques``):
    a generator of frozensets of nodes, by clique percolation over the maximal cliques in a
    compiled union-find (the order of the communities differs).

    {Parameters: nx_G}
    k : int
        Clique size, >= 2.
    {nx_cliques}

    Yields
    ------
    frozenset of nodes
        A community: the union of k-cliques that share k - 1 nodes pairwise along a chain.

    Raises
    ------
    networkx.NetworkXError
        ``k`` < 2.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(map(sorted, k_clique_communities(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 3)))
    [[0, 1, 2]]
    """
    import networkx as nx

    H = backend_graph(G, "k_clique_communities", cliques=cliques)
    if k < 2:
        raise nx.NetworkXError(f"k={k}, k must be greater than 1.")
    groups = _maximal.clique_communities(H, k)
    if identity_labels(H):
        yield from (frozenset(g.tolist()) for g in groups)
        return
    labels = node_labels(H)
    for g in groups:
        yield frozenset(labels[v] for v in g.tolist())
