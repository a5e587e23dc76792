"""The dispatching facade of the counting functions: ``graphmine.count_triangles`` and siblings.

``method='exact'`` on ``device='cpu'`` runs the exact families (:mod:`graphmine.cliques`,
:mod:`graphmine.cluster`) without loading any component. Every other case goes to
:mod:`graphmine.probgraph`, which estimates from neighbourhood sketches (``method`` 'bloom',
'khash', 'onehash', 'kmv') and places the work on a GPU through :mod:`graphmine.cuda`
(``device`` 'cuda', or 'auto' with a device visible). The components are imported on first use,
so counting exactly never loads them.
"""

from . import cliques as _cliques
from . import cluster as _cluster
from .exceptions import ParameterError
from .validation import as_graph

__all__ = ["count_triangles", "triangles", "count_cliques", "clustering", "average_clustering",
           "transitivity"]


def _exact_cpu(method, device, kwargs):
    """Whether the exact CPU family answers (refusing keywords that only estimates take)."""
    if method != "exact":
        return False
    if kwargs:
        raise ParameterError(f"unexpected keywords for method='exact': {sorted(kwargs)}")
    return device == "cpu"


def _component(name):
    from . import probgraph

    return getattr(probgraph, name)


def count_triangles(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """The number of triangles of ``G``.

    Parameters
    ----------
    G : Graph or anything :func:`graphmine.as_graph` accepts
    method : {'exact', 'bloom', 'khash', 'onehash', 'kmv'}
        'exact' counts; the others estimate from neighbourhood sketches and return an
        :class:`~graphmine.probgraph.Estimate` (keywords ``budget``, ``seed``, ... of
        :func:`graphmine.probgraph.count_triangles`).
    threads : int, optional
        Threads to use (default: all).
    device : {'cpu', 'cuda', 'auto'}
        Where to count: 'cuda' runs the kernels of :mod:`graphmine.cuda` on the GPU (raising
        :class:`~graphmine.cuda.NoCudaDeviceError` when none is visible), 'auto' picks the GPU
        when one is visible.

    Returns
    -------
    int (exact) or Estimate

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_triangles(nx.complete_graph(5))
    10
    """
    G = as_graph(G)
    if _exact_cpu(method, device, kwargs):
        return _cliques.count_triangles(G, threads=threads)
    return _component("count_triangles")(G, method=method, threads=threads, device=device, **kwargs)


def triangles(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """The number of triangles through every vertex (int64 array of length n).

    ``method`` and ``device`` as in :func:`count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.triangles(nx.complete_graph(4))
    array([3, 3, 3, 3])
    """
    G = as_graph(G)
    if _exact_cpu(method, device, kwargs):
        return _cliques.triangles(G, threads=threads)
    return _component("triangles")(G, method=method, threads=threads, device=device, **kwargs)


def count_cliques(G, k=3, *, method="exact", order=None, threads=None, progress=False, device="cpu", **kwargs):
    """The number of k-cliques (complete subgraphs on k vertices) of ``G``, for any k >= 3.

    Parameters
    ----------
    G : Graph or anything :func:`graphmine.as_graph` accepts
    k : int
        Clique size, >= 3.
    method : {'exact', 'bloom', 'khash', 'onehash', 'kmv'}
        See :func:`count_triangles`.
    order : {'degree', 'degeneracy'}, optional
        Orientation (default: degree for k = 3, degeneracy otherwise, whose out-degrees are
        bounded by the graph's degeneracy).
    threads : int, optional
    progress : bool
        Exact k >= 4 on the CPU: show a progress bar on stderr (tqdm), the share of the time
        estimated from the rate so far.
    device : {'cpu', 'cuda', 'auto'}
        See :func:`count_triangles`.

    Returns
    -------
    int (exact) or Estimate

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_cliques(nx.complete_graph(6), k=4)  # C(6, 4)
    15
    """
    k = _cliques.check_k(k)
    G = as_graph(G)
    if _exact_cpu(method, device, kwargs):
        return _cliques.count_cliques(G, k, order=order, threads=threads, progress=progress)
    return _component("count_cliques")(G, k, method=method, order=order, threads=threads, device=device,
                                       **kwargs)


def clustering(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """Local clustering coefficient of every vertex (0 for degree < 2), as a float array.

    ``method`` and ``device`` as in :func:`count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    array([1.        , 1.        , 0.33333333, 0.        ])
    """
    G = as_graph(G)
    if _exact_cpu(method, device, kwargs):
        return _cluster.clustering(G, threads=threads)
    return _component("clustering")(G, method=method, threads=threads, device=device, **kwargs)


def average_clustering(G, *, count_zeros=True, method="exact", threads=None, device="cpu", **kwargs):
    """Mean local clustering coefficient.

    Parameters
    ----------
    count_zeros : bool
        As in networkx: if False, average only over vertices with a nonzero coefficient.
        Isolated vertices count as 0 when True; use ``G.degree > 0`` to average over vertices
        with an edge (the convention of the published SNAP figures).
    method, device
        As in :func:`count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> round(gm.average_clustering(nx.karate_club_graph()), 4)
    0.5706
    """
    G = as_graph(G)
    if _exact_cpu(method, device, kwargs):
        return _cluster.average_clustering(G, count_zeros=count_zeros, threads=threads)
    return _component("average_clustering")(G, count_zeros=count_zeros, method=method, threads=threads,
                                            device=device, **kwargs)


def transitivity(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """Global transitivity: 3 x triangles / connected triples.

    ``method`` and ``device`` as in :func:`count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> round(gm.transitivity(nx.karate_club_graph()), 4)
    0.2557
    """
    G = as_graph(G)
    if _exact_cpu(method, device, kwargs):
        return _cluster.transitivity(G, threads=threads)
    return _component("transitivity")(G, method=method, threads=threads, device=device, **kwargs)
