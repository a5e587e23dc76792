"""What every networkx adapter shares: the backend graph of an argument, the backend's settings,
networkx's result shapes and its self-loop rules.

The adapters themselves (``@implements(family, "networkx", name=...)``) live in the family
folders (``graphmine/<family>/_nx.py``); this module holds no family code.
"""

import numpy as np

from ..core.graph import Graph
from ..core.registry import call
from .convert import (NetworkXGraph, from_networkx, has_node, nbunch_indices, node_index, node_labels,
                      none_only_reason, self_loops)

__all__ = ["backend_graph", "settings", "approx", "per_node", "kept_node_dict", "with_int_zeros", "graph_without_self_loops",
           "refuse_self_loops", "identity_labels", "object_labels", "node_labels", "node_index", "has_node",
           "nbunch_indices", "self_loops", "NetworkXGraph"]


def backend_graph(G, name=None, **values):
    """The backend graph of ``G``.

    Parameters
    ----------
    G : networkx.Graph or Graph
        The graph networkx hands over (a backend graph after conversion) or a networkx graph.
    name : str, optional
        The networkx function called, for its arguments that graphmine supports only as None.
    **values
        Those arguments' values.

    Returns
    -------
    Graph
        ``G`` itself when it is a graphmine graph, else its conversion (cached on ``G``).

    Raises
    ------
    NotImplementedError
        One of ``values`` is not None (networkx then runs the call itself).

    Examples
    --------
    >>> import networkx as nx
    >>> backend_graph(nx.path_graph(3)).n_edges
    2
    """
    reason = none_only_reason(name, values)
    if reason is not None:
        raise NotImplementedError(reason)
    return G if isinstance(G, Graph) else from_networkx(G)


def settings():
    """The method and keywords that ``nx.config.backends.graphmine`` asks for.

    Returns
    -------
    tuple of (str, dict)
        ``'exact'`` or a sketch method, and the keywords for graphmine (``threads``; ``budget`` and
        ``seed`` under a sketch method). Defaults when the backend has no configuration.

    Examples
    --------
    >>> settings()[0]
    'exact'
    """
    import networkx as nx

    cfg = nx.config.backends.get("graphmine") if "graphmine" in nx.config.backends else None
    if cfg is None:
        return "exact", {"threads": None}
    kw = {"threads": cfg.threads}
    if cfg.method != "exact":
        if cfg.budget is not None:
            kw["budget"] = cfg.budget
        kw["seed"] = cfg.seed
    return cfg.method, kw


def approx(name, H, method, kw, **extra):
    """The sketch estimate of family ``name`` (the registry's 'sketch' back-end), as numbers.

    Parameters
    ----------
    name : str
        The family.
    H : Graph
        The graph.
    method : str
        A sketch method.
    kw : dict
        The keywords of :func:`settings`.
    **extra
        The family's own arguments.

    Returns
    -------
    float or ndarray
        The estimate's value.

    Examples
    --------
    >>> import networkx as nx
    >>> round(approx("count_triangles", backend_graph(nx.complete_graph(5)), "bloom", {"seed": 1, "budget": 1.0}))
    10
    """
    return call(name, H, method=method, **extra, **kw).estimate


def per_node(H, values, nodes):
    """networkx's result shape for per-node values.

    Parameters
    ----------
    H : Graph
        The backend graph.
    values : list
        One value per vertex.
    nodes : node, iterable of nodes or None
        networkx's ``nodes`` argument.

    Returns
    -------
    dict or value
        A dict over all nodes (``nodes`` None), the value of one node, or a dict over ``nodes``.

    Examples
    --------
    >>> import networkx as nx
    >>> H = backend_graph(nx.path_graph(3))
    >>> per_node(H, [1, 2, 3], None), per_node(H, [1, 2, 3], 1), per_node(H, [1, 2, 3], [2])
    ({0: 1, 1: 2, 2: 3}, 2, {2: 3})
    """
    labels = node_labels(H)
    if nodes is None:
        return dict(zip(labels, values))
    if has_node(H, nodes):
        return values[node_index(H)[nodes]]
    return {labels[i]: values[i] for i in nbunch_indices(H, nodes).tolist()}


def kept_node_dict(H, name, compute):
    """networkx's dict over every node of ``H`` of the values ``compute()`` gives, kept on a
    converted networkx graph under ``name``: later calls return a copy of it.

    networkx keeps the converted graph (``G.__networkx_cache__``) until ``G`` changes, so a later
    ``nx.triangles(G)`` on the unchanged graph gets the same dict; copying a dict takes a twentieth
    of building it from the labels and values (0.18 ms against 3.5 ms for email-Enron's 36,691
    string nodes), the most of such a call. One dict per function is kept (n entries, a small
    part of the networkx graph itself, whose adjacency dicts hold two entries per edge); on any
    other graph nothing is kept.

    Parameters
    ----------
    H : Graph
        The backend graph.
    name : str
        The networkx function the dict answers (for exact values only: an estimate of a sketch
        method is not kept).
    compute : callable
        Returns the list of values, one per vertex.

    Returns
    -------
    dict
        node -> value, a new dict the caller may change.

    Examples
    --------
    >>> import networkx as nx
    >>> H = backend_graph(nx.path_graph(3))
    >>> d = kept_node_dict(H, "degree", lambda: H.degree.tolist())
    >>> d["x"] = 0
    >>> kept_node_dict(H, "degree", lambda: None)
    {0: 1, 1: 2, 2: 1}
    """
    if not isinstance(H, NetworkXGraph):
        return dict(zip(node_labels(H), compute()))
    kept = H.__dict__.setdefault("_node_dicts", {})
    d = kept.get(name)
    if d is None:
        d = kept[name] = dict(zip(node_labels(H), compute()))
    return d.copy()


def with_int_zeros(values, zero):
    """``values`` as a list with an int 0 where ``zero`` is set, as networkx writes a ratio that is
    undefined or has a zero numerator.

    Parameters
    ----------
    values : ndarray of float64
        The ratios.
    zero : ndarray of bool
        Where networkx writes 0.

    Returns
    -------
    list

    Examples
    --------
    >>> import numpy as np
    >>> with_int_zeros(np.array([0.5, 0.0]), np.array([False, True]))
    [0.5, 0]
    """
    out = values.tolist()
    for i in np.flatnonzero(zero).tolist():
        out[i] = 0
    return out


def graph_without_self_loops(G):
    """The backend graph of ``G``, refused as networkx's ``core_number`` and ``k_truss`` refuse
    graphs with self-loops.

    Parameters
    ----------
    G : networkx.Graph or Graph
        The graph.

    Returns
    -------
    Graph
        The backend graph.

    Raises
    ------
    networkx.NetworkXNotImplemented
        ``G`` has a self-loop.

    Examples
    --------
    >>> import networkx as nx
    >>> graph_without_self_loops(nx.path_graph(3)).n_nodes
    3
    """
    H = backend_graph(G)
    if self_loops(H).any():
        import networkx as nx

        raise nx.NetworkXNotImplemented("Input graph has self loops which is not permitted; "
                                        "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    return H


def refuse_self_loops(H, name):
    """Leave a graph with self-loops to networkx (which counts a self-loop in the degree and as
    an edge to follow; graphmine's CSR has none).

    Parameters
    ----------
    H : Graph
        The backend graph.
    name : str
        The function, for the message.

    Raises
    ------
    NotImplementedError
        ``H`` has a self-loop.

    Examples
    --------
    >>> import networkx as nx
    >>> refuse_self_loops(backend_graph(nx.path_graph(3)), "pagerank")
    """
    if self_loops(H).any():
        raise NotImplementedError(f"graphmine's {name} is for graphs without self-loops")


def identity_labels(H):
    """Whether the networkx nodes are the vertex numbers 0..n-1 themselves (then a list of vertex
    numbers is a list of nodes, without a look-up per member).

    Parameters
    ----------
    H : Graph
        The backend graph.

    Returns
    -------
    bool

    Examples
    --------
    >>> import networkx as nx
    >>> identity_labels(backend_graph(nx.path_graph(3))), identity_labels(backend_graph(nx.Graph([("a", "b")])))
    (True, False)
    """
    ids = H.node_ids
    return ids.dtype.kind in "iu" and np.array_equal(ids, np.arange(ids.shape[0]))


def object_labels(H):
    """The networkx node of every vertex, in an object array (cached on a backend graph).

    Parameters
    ----------
    H : Graph
        The backend graph.

    Returns
    -------
    ndarray of object

    Examples
    --------
    >>> import networkx as nx
    >>> object_labels(backend_graph(nx.Graph([("a", "b")]))).tolist()
    ['a', 'b']
    """
    labels = getattr(H, "_object_labels", None)
    if labels is None:
        ids = H.node_ids
        labels = ids if ids.dtype == object else np.fromiter(node_labels(H), object, ids.shape[0])
        if isinstance(H, NetworkXGraph):
            H._object_labels = labels
    return labels
