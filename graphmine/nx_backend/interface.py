"""The object networkx loads for the ``graphmine`` backend (entry point ``networkx.backends``).

networkx asks :meth:`BackendInterface.can_run` before every dispatched call; a string answer is
the reason graphmine declines (networkx then runs its own code when fallback is on, or marks the
test xfail in its test suite). :meth:`BackendInterface.should_run` is asked only for automatic
dispatch (``nx.config.backend_priority``) and declines calls where converting the graph would cost
more than networkx's own run.
"""

import sys
from itertools import chain

from ..core.graph import Graph
from ..core.generated import NETWORKX
from .backend import function
from .convert import NONE_ONLY, from_networkx, none_only_reason, to_networkx, unsupported

__all__ = ["BackendInterface"]

# position of the ``nodes`` and ``weight`` arguments in networkx's signatures
_NODES = {"triangles": 1, "clustering": 1, "average_clustering": 1, "square_clustering": 1}
# functions whose weight argument (position) defaults to an attribute name: graphmine runs them when
# no edge carries that attribute (every weight is then networkx's default, 1)
_WEIGHT_ATTRIBUTE = {"pagerank": 6, "average_neighbor_degree": 4}
# the link-prediction scores (ebunch at position 1): the functions registered for that family
_LINK = tuple(name for name, entry in NETWORKX.items() if entry["family"] == "link_scores")
# should_run: below this many edges a conversion and graphmine's call cost more than networkx's
# whole run (nx.triangles on G(n, m) graphs with n = m / 4, best of 15, warm process, 2-core
# machine, load 3.5-4: numba not imported 0.78x at 400 edges, 1.03x at 600, 1.07x at 1200, 1.9x
# at 3200; numba and its kernels loaded 0.70x at 400, 0.78x at 800, 1.05x at 1200, 2.0x at 3200;
# `python benchmarks/startup.py --nx FILE` measures it)
SMALL_GRAPH_EDGES = 1000
# should_run in a process that has not imported numpy: the call would import it (0.13-0.2 s of
# CPU with its BLAS threads' start), more than networkx's whole count below this many edges
# (first calls in fresh processes on the same graphs, median CPU of 5: 0.59x at 40,000 edges,
# 0.78x at 60,000, 1.04x at 80,000, 1.22x at 100,000)
NUMPY_START_EDGES = 100_000
# should_run: scoring fewer than n_edges / this many pairs is cheaper in networkx than a conversion
FEW_PAIRS_RATIO = 64


def _argument(args, kwargs, name, position, default=None):
    if position < len(args):
        return args[position]
    return kwargs.get(name, default)


def _has_edge_attribute(G, attr):
    """Whether some edge of the networkx graph ``G`` carries the attribute ``attr``."""
    return any(attr in data for _, _, data in G.edges(data=True))


def _has_edge_data(G):
    """Whether some edge of the networkx graph ``G`` carries data (its data dicts looked at in C
    loops: k_truss asks for every attribute, and a Python loop over a million edges costs more
    than the truss)."""
    adj = G._adj
    if type(adj) is dict:
        return any(chain.from_iterable(map(dict.values, adj.values())))
    return any(data for _, _, data in G.edges(data=True))


def _has_node_data(G):
    """Whether some node of the networkx graph ``G`` carries data."""
    nodes = G._node
    return any(nodes.values()) if type(nodes) is dict else any(data for _, data in G.nodes(data=True))


def _declines(name, G, args, kwargs):
    """The reason graphmine cannot run ``pagerank`` or ``average_neighbor_degree`` exactly as
    networkx would, or None."""
    weight = _argument(args, kwargs, "weight", _WEIGHT_ATTRIBUTE[name],
                       "weight" if name == "pagerank" else None)
    if weight is not None and not isinstance(G, Graph) and _has_edge_attribute(G, weight):
        return f"graphmine computes unweighted {name} only (edges carry {weight!r})"
    if not isinstance(G, Graph) and G.number_of_nodes() and any(True for _ in _self_loop_edges(G)):
        return f"graphmine's {name} is for graphs without self-loops"
    if name == "pagerank":
        return None
    if _argument(args, kwargs, "source", 1, "out") != "out" or _argument(args, kwargs, "target", 2, "out") != "out":
        return "source and target apply to directed graphs, which networkx computes"
    nodes = _argument(args, kwargs, "nodes", 3)
    if nodes is not None and not isinstance(G, Graph) and nodes in G:
        return "one node is left to networkx"
    return None


def _self_loop_edges(G):
    import networkx as nx

    return nx.selfloop_edges(G)


def _is_cached(G):
    cache = getattr(G, "__networkx_cache__", None)
    return bool(cache and cache.get("backends", {}).get("graphmine"))


class _Functions(type):
    """Looks an algorithm up on first use: networkx asks the interface for ``nx.<name>``'s
    implementation by attribute, and only that family's adapters are imported."""

    def __getattr__(cls, name):
        if name not in NETWORKX:
            raise AttributeError(name)
        fn = function(name)
        setattr(cls, name, staticmethod(fn))
        return fn

    def __dir__(cls):
        return sorted(set(super().__dir__()) | set(NETWORKX))


class BackendInterface(metaclass=_Functions):
    """networkx's view of graphmine: conversions, dispatch decisions and the algorithms.

    networkx finds it through the ``networkx.backends`` entry point; its static methods
    ``convert_from_nx``, ``convert_to_nx`` and ``can_run`` and one attribute per function of
    :data:`graphmine.core.generated.NETWORKX` are all networkx asks of a backend.

    Examples
    --------
    >>> import networkx as nx
    >>> BackendInterface.convert_from_nx(nx.Graph([("a", "b"), ("b", "c"), ("c", "c")]))
    NetworkXGraph(n_nodes=3, n_edges=2, self_loops=1)
    >>> nx.triangles(nx.complete_graph(4), backend="graphmine")
    {0: 3, 1: 3, 2: 3, 3: 3}
    """

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                        graph_name=None):
        """A graphmine graph of an undirected simple networkx graph (structure only)."""
        if isinstance(G, Graph):
            return G
        if edge_attrs and all(default == 1 for default in edge_attrs.values()) and not any(
                _has_edge_attribute(G, attr) for attr in edge_attrs):
            edge_attrs = None  # no edge carries a weight: every weight is the default 1
        if preserve_edge_attrs and not _has_edge_data(G):
            preserve_edge_attrs = False  # nothing to keep (k_truss asks to keep everything)
        if preserve_node_attrs and not _has_node_data(G):
            preserve_node_attrs = False
        if edge_attrs or node_attrs or preserve_edge_attrs or preserve_node_attrs:
            raise NotImplementedError("graphmine's backend graphs keep no edge or node attributes")
        return from_networkx(G, preserve_graph_attrs=preserve_graph_attrs)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        """A networkx graph for a graphmine graph; any other result is returned as it is."""
        if isinstance(obj, Graph):
            return to_networkx(obj)
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """True, or the reason graphmine cannot compute this call.

        Examples
        --------
        >>> import networkx as nx
        >>> BackendInterface.can_run("clustering", (nx.DiGraph([(0, 1)]),), {})
        "graphmine's kernels are for undirected graphs"
        """
        G = _argument(args, kwargs, "G", 0)
        if not isinstance(G, Graph):
            reason = unsupported(G)
            if reason is not None:
                return reason
        if name in NONE_ONLY:
            given = {a: _argument(args, kwargs, a, pos) for a, pos in NONE_ONLY[name][0].items()}
            reason = none_only_reason(name, given)
            if reason is not None:
                return reason
        if name in _WEIGHT_ATTRIBUTE:
            reason = _declines(name, G, args, kwargs)
            if reason is not None:
                return reason
        if name == "k_truss" and not isinstance(G, Graph) and (_has_edge_data(G) or _has_node_data(G)):
            return "graphmine's k_truss keeps no edge or node attributes"
        return True

    @staticmethod
    def should_run(name, args, kwargs):
        """True, or why converting the graph for this call would cost more than it saves."""
        G = _argument(args, kwargs, "G", 0)
        if isinstance(G, Graph) or _is_cached(G):
            return True
        m = G.number_of_edges()
        if m < SMALL_GRAPH_EDGES:
            return f"the graph has fewer than {SMALL_GRAPH_EDGES} edges; networkx is faster than a conversion"
        if m < NUMPY_START_EDGES and "numpy" not in sys.modules:
            return (f"numpy is not imported yet: its import costs more than networkx's run on fewer than "
                    f"{NUMPY_START_EDGES} edges")
        if name in _NODES:
            nodes = _argument(args, kwargs, "nodes", _NODES[name])
            if nodes is not None and nodes in G:
                return "one node: networkx is faster than converting the whole graph"
        if name in _LINK:
            ebunch = _argument(args, kwargs, "ebunch", 1)
            if isinstance(ebunch, (list, tuple, set, frozenset, dict)) and len(ebunch) * FEW_PAIRS_RATIO < m:
                return "few pairs: networkx is faster than converting the whole graph"
        return True

    @staticmethod
    def on_start_tests(items):
        """Called by networkx's test suite run against this backend, to mark tests as xfail.

        No test needs a mark: networkx's suite passes with ``NETWORKX_FALLBACK_TO_NX=True``, and
        without fallback every test of a function graphmine runs on an undirected unweighted graph
        passes; the others are declined by :meth:`can_run` and networkx marks them xfail itself.
        """
