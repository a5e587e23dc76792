"""networkx's link-prediction scores computed by graphmine (the link_prediction family's networkx adapters).

Each function takes networkx's arguments and returns networkx's results (dicts keyed by the
networkx nodes in networkx's order, plain Python numbers); the shared pieces are
:mod:`graphmine.nx_backend.adapt`. ``@implements(family, "networkx", name=...)`` declares each one
for networkx's dispatch (the generated table, :data:`graphmine.core.generated.NETWORKX`).
"""

from operator import itemgetter

import numpy as np

from .._runtime.docs import fill_doc, named
from .._runtime.lazy import lazy_module
from .._runtime.threads import resolve_threads, restores_threads
from ..core.graph import SERIAL_EDGES
from ..core.registry import implements
from ..nx_backend.adapt import backend_graph, node_index, node_labels, self_loops, settings, with_int_zeros
from . import common_neighbor_centrality as _common_neighbor_centrality, non_edges as _non_edges

__all__ = ["jaccard_coefficient", "adamic_adar_index", "resource_allocation_index", "preferential_attachment", "common_neighbor_centrality"]


@lazy_module
def _pk():
    from . import _pair_kernels

    return _pair_kernels


# pairs scored per kernel call when ebunch is None (all non-edges, produced lazily)
_BLOCK = 1 << 16


def _ebunch_vertices(H, ebunch):
    """(first nodes, second nodes, u vertices, v vertices) of the pairs, raising networkx's
    errors (NodeNotFound, in networkx's order; ValueError for a pair of another length)."""
    import networkx as nx

    index = node_index(H)
    pairs = list(ebunch)
    try:
        if pairs and set(map(len, pairs)) != {2}:
            raise TypeError
        # (not zip(*pairs): one call with P arguments and P iterators, slow under the garbage
        # collector when the heap holds a large networkx graph)
        first = list(map(itemgetter(0), pairs))
        second = list(map(itemgetter(1), pairs))
        us = np.fromiter(map(index.__getitem__, first), np.int64, count=len(pairs))
        vs = np.fromiter(map(index.__getitem__, second), np.int64, count=len(pairs))
        return first, second, us, vs
    except (TypeError, KeyError):
        pass  # an odd pair or a missing node: walk the pairs as networkx does, for its error
    for u, v in pairs:
        for node in (u, v):
            try:
                index[node]
            except (KeyError, TypeError):
                raise nx.NodeNotFound(f"Node {node} not in G.") from None
    raise AssertionError("unreachable: every pair was valid")


def _vertex_terms(H, kind):
    """(self-loops, networkx's degrees, per-vertex weight of a common neighbour) for ``kind``,
    computed once per call rather than once per block of pairs."""
    loops = self_loops(H)
    nxdeg = H.degree + 2 * loops.astype(np.int64)  # networkx counts a self-loop twice in the degree
    weight = np.zeros(H.n_nodes, np.float64)
    many = nxdeg > 1  # a common neighbour of u != v has degree >= 2
    if kind == "adamic_adar_index":
        weight[many] = 1.0 / np.log(nxdeg[many])
    elif kind == "resource_allocation_index":
        weight[many] = 1.0 / nxdeg[many]
    return loops, nxdeg, weight


def _score_values(H, us, vs, kind, nthreads, terms):
    """networkx's values for vertex pairs: Python floats, ints where networkx gives ints."""
    loops, nxdeg, weight = terms
    d = H.degree
    if kind == "preferential_attachment":
        return (nxdeg[us] * nxdeg[vs]).tolist()
    same = us == vs
    val = np.empty(us.shape[0], np.float64)
    # networkx returns 0 (an int) for an empty sum (AA, RA) and for an empty union (Jaccard)
    int_zero = np.zeros(us.shape[0], bool)
    diff = np.flatnonzero(~same)
    if diff.size:
        u, v = np.ascontiguousarray(us[diff]), np.ascontiguousarray(vs[diff])
        weighted = kind != "jaccard_coefficient"
        if nthreads == 1 or diff.size * 16 < SERIAL_EDGES:
            cn, wsum = _pk._pairs_serial(H.indptr, H.indices, u, v, weight, weighted)
        else:
            cn, wsum = _pk._pairs_parallel(H.indptr, H.indices, u, v, weight, weighted, nthreads)
        if kind == "jaccard_coefficient":
            union = d[u] + d[v] - cn
            looped = np.flatnonzero(loops[u] | loops[v])
            if looped.size:
                # N(u) with the self-loop counts u itself, unless u is already a neighbour of v
                apart = 1 - _pk._adjacent(H.indptr, H.indices, u[looped], v[looped]).astype(np.int64)
                union[looped] += (loops[u[looped]] + loops[v[looped]]) * apart
            val[diff] = np.divide(cn, union, out=np.zeros(diff.size), where=union > 0)
            int_zero[diff] = union == 0
        else:
            val[diff] = wsum
            int_zero[diff] = cn == 0
    for i in np.flatnonzero(same).tolist():
        # a node with itself: the common neighbours are N(u) (networkx removes u and v)
        u = us[i]
        nbrs = H.indices[H.indptr[u]:H.indptr[u + 1]]
        if kind == "jaccard_coefficient":
            union = nbrs.shape[0] + int(loops[u])
            val[i] = nbrs.shape[0] / union if union else 0.0
            int_zero[i] = union == 0
            continue
        int_zero[i] = nbrs.shape[0] == 0
        if kind == "adamic_adar_index":
            w = nxdeg[nbrs]
            if np.any(w == 1):
                # networkx divides by log(1) = 0 here
                raise ZeroDivisionError("float division by zero")
            val[i] = float(np.sum(1.0 / np.log(w)))
        else:
            val[i] = float(np.sum(1.0 / nxdeg[nbrs]))
    return with_int_zeros(val, int_zero)


def _non_edge_blocks(H):
    """All vertex pairs i < j that are not edges, in blocks of about _BLOCK pairs."""
    n = H.n_nodes
    us, vs, size = [], [], 0
    for i in range(n - 1):
        nb = H.indices[H.indptr[i]:H.indptr[i + 1]]
        free = np.ones(n - i - 1, bool)
        free[nb[nb > i] - (i + 1)] = False
        js = np.flatnonzero(free) + (i + 1)
        if js.size:
            us.append(np.full(js.size, i, np.int64))
            vs.append(js)
            size += js.size
        if size >= _BLOCK or (i == n - 2 and size):
            yield np.concatenate(us), np.concatenate(vs)
            us, vs, size = [], [], 0


@restores_threads
def _link_prediction(G, ebunch, kind):
    H = backend_graph(G)
    nthreads = resolve_threads(settings()[1]["threads"])
    labels = node_labels(H)
    terms = _vertex_terms(H, kind)
    if ebunch is None:
        return ((labels[u], labels[v], s)
                for us, vs in _non_edge_blocks(H)
                for u, v, s in zip(us.tolist(), vs.tolist(),
                                   _score_values(H, us, vs, kind, nthreads, terms)))
    first, second, us, vs = _ebunch_vertices(H, ebunch)
    # the pairs' own objects, as networkx yields them (a lazy iterator of tuples, like networkx's)
    return zip(first, second, _score_values(H, us, vs, kind, nthreads, terms))


@implements("common_neighbor_centrality", "networkx", name="common_neighbor_centrality",
            note=("Common neighbours in a parallel kernel, distances by scipy's breadth-first "
                  "shortest paths from the pairs' first nodes. Undirected graphs without weights; "
                  "directed graphs, multigraphs and weights run in networkx."))
@fill_doc
def common_neighbor_centrality(G, ebunch=None, alpha=0.8):
    """Common-neighbour and centrality (CCPA) score of node pairs, as
    ``networkx.common_neighbor_centrality`` (:func:`graphmine.link_prediction._cpu.common_neighbor_centrality`).

    .. math:: s(u, v) = \\alpha |N(u) \\cap N(v)| + (1 - \\alpha) \\frac{n}{d(u, v)}

    with :math:`d(u, v)` the shortest-path distance.

    {Parameters: nx_G, nx_ebunch}
    alpha : float, default 0.8
        Weight of the common neighbours against the distance term, in [0, 1].

    Returns
    -------
    iterator of (u, v, float)
        One ``(u, v, score)`` tuple per pair, as networkx yields them.

    Raises
    ------
    networkx.NetworkXAlgorithmError
        The graph has self-loops.

    Examples
    --------
    >>> import networkx as nx
    >>> [(u, v, round(p, 6)) for u, v, p in common_neighbor_centrality(nx.complete_graph(5), [(0, 1)])]
    [(0, 1, 3.4)]
    """
    H = backend_graph(G)
    labels = node_labels(H)
    if ebunch is None:
        us, vs = _non_edges(H)
        first = [labels[u] for u in us.tolist()]
        second = [labels[v] for v in vs.tolist()]
    else:
        first, second, us, vs = _ebunch_vertices(H, ebunch)
    loop = np.flatnonzero(us == vs)
    stop = int(loop[0]) if loop.size else us.shape[0]
    _, _, scores = _common_neighbor_centrality(H, np.stack([us[:stop], vs[:stop]], axis=1).reshape(-1, 2),
                                                        alpha=alpha, threads=settings()[1]["threads"])
    values = scores.astype(np.int64).tolist() if alpha == 1 else scores.tolist()

    def pairs():
        yield from zip(first[:stop], second[:stop], values)
        if stop < len(first):
            import networkx as nx

            raise nx.NetworkXAlgorithmError("Self loops are not supported")
    return pairs()


# networkx's neighbourhood scores that _link_prediction computes, one function each: its name, what
# it is, s(u, v) and an example (a call on a small graph and its result); every other line of the
# docstring is the same for the four (_LINK_SCORE_DOC)
_LINK_SCORE_DOC = """{what} of node pairs, as ``networkx.{name}``.

    .. math:: s(u, v) = {formula}

    {{nx_link_sections}}

    Examples
    --------
    >>> import networkx as nx
    >>> {example}
    {result}
    """


def _link_score_function(name, what, formula, example, result):
    """The backend's function ``name``: networkx's signature ``(G, ebunch=None)``, its name and
    qualified name (networkx's backend interface and doctest find it by them; its module is this
    one) and the filled :data:`_LINK_SCORE_DOC`."""
    def score(G, ebunch=None):
        return _link_prediction(G, ebunch, name)

    return named(score, name, _LINK_SCORE_DOC.format(name=name, what=what, formula=formula, example=example,
                                                     result=result))


# what the networkx backend says of the three merged-neighbour-list scores
_MERGED_ROWS = ("Merged sorted neighbour lists in a parallel kernel. Undirected graphs without weights; "
                "directed graphs, multigraphs and weights run in networkx.")


jaccard_coefficient = _link_score_function(
    "jaccard_coefficient", "Jaccard coefficient", r"\frac{|N(u) \cap N(v)|}{|N(u) \cup N(v)|}",
    "list(jaccard_coefficient(nx.cycle_graph(4), [(0, 2), (1, 3)]))", "[(0, 2, 1.0), (1, 3, 1.0)]")


adamic_adar_index = _link_score_function(
    "adamic_adar_index", "Adamic-Adar index", r"\sum_{w \in N(u) \cap N(v)} \frac{1}{\log d_w}",
    "[(u, v, round(p, 6)) for u, v, p in adamic_adar_index(nx.complete_graph(5), [(0, 1)])]", "[(0, 1, 2.164043)]")


resource_allocation_index = _link_score_function(
    "resource_allocation_index", "Resource allocation index", r"\sum_{w \in N(u) \cap N(v)} \frac{1}{d_w}",
    "list(resource_allocation_index(nx.complete_graph(5), [(0, 1)]))", "[(0, 1, 0.75)]")


preferential_attachment = _link_score_function(
    "preferential_attachment", "Degree product", "d_u d_v",
    "list(preferential_attachment(nx.star_graph(3), [(1, 2), (0, 1)]))", "[(1, 2, 1), (0, 1, 3)]")

implements("link_scores", "networkx", name="jaccard_coefficient", note=_MERGED_ROWS)(jaccard_coefficient)
implements("link_scores", "networkx", name="adamic_adar_index", note=_MERGED_ROWS)(adamic_adar_index)
implements("link_scores", "networkx", name="resource_allocation_index", note=_MERGED_ROWS)(resource_allocation_index)
implements("link_scores", "networkx", name="preferential_attachment",
           note=("Degree products, vectorised. Undirected graphs without weights; directed graphs, "
                 "multigraphs and weights run in networkx."))(preferential_attachment)
