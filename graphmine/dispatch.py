"""The facade of the counting families: ``graphmine.count_triangles`` and siblings.

Each public function here *declares* its family in :mod:`graphmine.registry` (signature, argument
check, docs) and dispatches through it: ``method='exact'`` on ``device='cpu'`` runs the family
module named by ``cpu=`` (:mod:`graphmine.cliques`, :mod:`graphmine.cluster`,
:mod:`graphmine.cycles`, ...) without loading any component; the sketch methods, the GPU and the
Dask cluster are back-ends that register their implementations in their own packages, imported on
the first call that asks for them. ``graphmine info --backends`` prints what runs where.
"""

from ._docs import fill_doc
from .registry import call, declare

__all__ = ["count_triangles", "triangles", "count_cliques", "clustering", "average_clustering",
           "transitivity", "count_four_cycles", "four_cycles", "common_neighbor_centrality", "k_truss"]


def _family(summary, validate=None, **refs):
    """Declare the decorated facade function's family (its name) with the given implementations."""
    def deco(func):
        declare(func.__name__, validate=validate, summary=summary, **refs)
        return func
    return deco


def _check_k(kwargs):
    from .cliques import check_k

    kwargs["k"] = check_k(kwargs.get("k", 3))
    if not kwargs.get("progress"):
        kwargs.pop("progress", None)  # only the exact CPU count shows progress


@_family("number of triangles", cpu="graphmine.cliques:count_triangles")
@fill_doc
def count_triangles(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """The number of triangles of ``G``.

    .. math:: T = \\frac{1}{6} \\operatorname{tr}(A^3)

    where :math:`A` is the adjacency matrix.

    {Parameters: G, method, threads, device, sketch_kwargs}

    {Returns: count_or_estimate}

    Raises
    ------
    ParameterError
        An unknown ``method`` or ``device``, or options that the method does not take.
    NoImplementationError
        No back-end runs this method on this device.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_triangles(nx.complete_graph(5))
    10
    """
    return call("count_triangles", G, method=method, device=device, threads=threads, **kwargs)


@_family("triangles through every vertex", cpu="graphmine.cliques:triangles")
@fill_doc
def triangles(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """The number of triangles through every vertex (int64 array of length n).

    {Parameters: G, method, threads, device, sketch_kwargs}

    Returns
    -------
    ndarray of int64 of shape (n,), or ArrayEstimate
        ``t[v]``, the number of triangles that contain vertex ``v``; their sum is three times
        :func:`count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.triangles(nx.complete_graph(4))
    array([3, 3, 3, 3])
    """
    return call("triangles", G, method=method, device=device, threads=threads, **kwargs)


@_family("number of k-cliques (k >= 3)", _check_k, cpu="graphmine.cliques:count_cliques")
@fill_doc
def count_cliques(G, k=3, *, method="exact", order=None, threads=None, progress=False, device="cpu", **kwargs):
    """The number of k-cliques (complete subgraphs on k vertices) of ``G``, for any k >= 3.

    {Parameters: G, k, method, order, threads}
    progress : bool
        Exact k >= 4 on the CPU: show a progress bar on stderr (tqdm), the share of the time
        estimated from the rate so far.
    {device, sketch_kwargs}

    {Returns: count_or_estimate}

    Raises
    ------
    ParameterError
        ``k`` < 3, or an unknown ``method``, ``order`` or ``device``.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_cliques(nx.complete_graph(6), k=4)  # C(6, 4)
    15
    """
    return call("count_cliques", G, k=k, method=method, device=device, order=order, threads=threads,
                progress=progress, **kwargs)


@_family("local clustering coefficients", cpu="graphmine.cluster:clustering")
@fill_doc
def clustering(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """Local clustering coefficient of every vertex.

    .. math:: c_v = \\frac{2 t_v}{d_v (d_v - 1)}

    with :math:`t_v` the triangles through :math:`v` and :math:`d_v` its degree; 0 when
    :math:`d_v < 2`.

    {Parameters: G, method, threads, device, sketch_kwargs}

    Returns
    -------
    ndarray of float64 of shape (n,), or ArrayEstimate
        The coefficients, in [0, 1].

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    array([1.        , 1.        , 0.33333333, 0.        ])
    """
    return call("clustering", G, method=method, device=device, threads=threads, **kwargs)


@_family("mean local clustering coefficient", cpu="graphmine.cluster:average_clustering")
@fill_doc
def average_clustering(G, *, count_zeros=True, method="exact", threads=None, device="cpu", **kwargs):
    """Mean local clustering coefficient, :math:`\\frac{1}{n} \\sum_v c_v`.

    See :func:`clustering` for :math:`c_v`.

    {Parameters: G, count_zeros, method, threads, device, sketch_kwargs}

    Returns
    -------
    float or Estimate
        The mean, in [0, 1] (0 for a graph without vertices to average over).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> round(gm.average_clustering(nx.karate_club_graph()), 4)
    0.5706
    """
    return call("average_clustering", G, method=method, device=device, count_zeros=count_zeros, threads=threads,
                **kwargs)


@_family("global transitivity", cpu="graphmine.cluster:transitivity")
@fill_doc
def transitivity(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """Global transitivity, the share of closed paths of length two.

    .. math:: \\tau = \\frac{3 T}{\\sum_v \\binom{d_v}{2}}

    with :math:`T` the number of triangles and :math:`d_v` the degrees (0 without such paths).

    {Parameters: G, method, threads, device, sketch_kwargs}

    Returns
    -------
    float or Estimate
        The transitivity, in [0, 1].

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> round(gm.transitivity(nx.karate_club_graph()), 4)
    0.2557
    """
    return call("transitivity", G, method=method, device=device, threads=threads, **kwargs)


@_family("number of 4-cycles (squares)", cpu="graphmine.cycles:count_four_cycles",
         cuda="graphmine.cuda._cycles:count_four_cycles", dask="graphmine.distributed._cycles:count_four_cycles")
@fill_doc
def count_four_cycles(G, *, method="exact", threads=None, device="cpu"):
    """The number of 4-cycles of ``G``.

    .. math:: C_4 = \\frac{1}{4} \\sum_v C_4(v)

    with :math:`C_4(v)` the cycles through v (:func:`four_cycles`).

    {Parameters: G, exact_method, threads, device}

    Returns
    -------
    int
        The number of cycles on four distinct vertices (each counted once, not per
        rotation or direction).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_four_cycles(nx.cycle_graph(4))
    1
    """
    return call("count_four_cycles", G, method=method, device=device, threads=threads)


@_family("4-cycles through every vertex", cpu="graphmine.cycles:four_cycles", cuda="graphmine.cuda._cycles:four_cycles",
         dask="graphmine.distributed._cycles:four_cycles")
@fill_doc
def four_cycles(G, *, method="exact", threads=None, device="cpu"):
    """The number of 4-cycles through every vertex (int64 array of length n).

    .. math:: C_4(v) = \\sum_{x \\ne v} \\binom{|N(v) \\cap N(x)|}{2}

    (each pair with c common neighbours is the diagonal of C(c, 2) cycles).

    {Parameters: G, exact_method, threads, device}

    Returns
    -------
    ndarray of int64 of shape (n,)
        The number of 4-cycles through each vertex; their sum is four times
        :func:`count_four_cycles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.four_cycles(nx.complete_bipartite_graph(2, 3)).tolist()
    [3, 3, 2, 2, 2]
    """
    return call("four_cycles", G, method=method, device=device, threads=threads)


@_family("common-neighbour and centrality (CCPA) link scores",
         cpu="graphmine.link_prediction:common_neighbor_centrality")
@fill_doc
def common_neighbor_centrality(G, pairs=None, *, alpha=0.8, threads=None):
    """The common-neighbour and centrality (CCPA) score of vertex pairs (exact, CPU).

    See :func:`graphmine.link_prediction.common_neighbor_centrality`.

    {Parameters: G}
    pairs : array-like of shape (m, 2), optional
        Vertex indices of the pairs (default: every non-adjacent pair u < v).
    alpha : float, default 0.8
        Weight of the common neighbours against the distance term, in [0, 1].
    {threads}

    Returns
    -------
    us, vs : ndarray of int64 of shape (m,)
        The pairs' vertices.
    scores : ndarray of float64 of shape (m,)
        Their scores.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.common_neighbor_centrality(nx.complete_graph(5), [(0, 1)])[2].round(6).tolist()
    [3.4]
    """
    return call("common_neighbor_centrality", G, pairs, alpha=alpha, threads=threads)


@_family("the k-truss subgraph", cpu="graphmine.truss:k_truss", cuda="graphmine.cuda._truss:k_truss")
@fill_doc
def k_truss(G, k, *, threads=None, device="cpu"):
    """The k-truss of ``G``: the largest subgraph whose every edge lies on at least k - 2 of its
    triangles, isolated vertices removed (for k <= 2: every edge).

    On the CPU (:func:`graphmine.truss.k_truss`) the edges below k - 2 are peeled one at a time
    from a queue; on the GPU (``device='cuda'``, :mod:`graphmine.cuda._truss`) in rounds, every
    edge below k - 2 at once, until a round removes none: the same subgraph.

    {Parameters: G}
    k : int
    {threads}
    {device}

    {Returns: k_truss}

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> H = gm.k_truss(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 3)
    >>> H.node_ids.tolist(), H.n_edges
    ([0, 1, 2], 3)
    """
    return call("k_truss", G, k, device=device, threads=threads)


# Families served by their own modules (each function of a module below is the family's exact CPU
# implementation, of the same name) and by the networkx backend: declared here so that the support
# matrix and the backend's table read one list. None: the networkx backend's only.
_OWN_MODULES = {
    None: {"square_clustering": "square clustering coefficients", "list_triangles": "every triangle, listed"},
    "graphmine.motifs.heuristics": {
        "link_scores": "Jaccard, Adamic-Adar, resource allocation, preferential attachment"},
    "graphmine.centrality": {"core_number": "k-core number of every vertex", "pagerank": "PageRank",
                             "average_neighbor_degree": "mean degree of the neighbours"},
    "graphmine.clique_enumeration": {
        "maximal_cliques": "maximal cliques (Bron-Kerbosch)", "count_maximal_cliques": "number of maximal cliques",
        "enumerate_cliques": "every clique, by size", "node_clique_number": "largest clique at every vertex",
        "clique_communities": "k-clique communities (clique percolation)"},
    "graphmine.clique_census": {
        "count_all_cliques": "k-clique counts of every k at once",
        "vertex_clique_counts": "k-cliques through every vertex", "edge_clique_counts": "k-cliques through every edge"},
    "graphmine.clique_peeling": {"clique_core_number": "k-clique core numbers",
                                 "densest_clique_subgraph": "k-clique densest subgraph"},
    "graphmine.truss": {"truss_decomposition": "truss number of every edge"},
}
for _module, _families in _OWN_MODULES.items():
    for _name, _summary in _families.items():
        declare(_name, summary=_summary, **({} if _module is None else {"cpu": f"{_module}:{_name}"}))
