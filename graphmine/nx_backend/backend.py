"""The networkx backend's functions: every implementation declared for the ``networkx`` back-end
(``@implements(family, "networkx", name=..., note=...)`` beside its code in
:mod:`graphmine.nx_backend.algorithms`); the generated table (:mod:`graphmine.core.generated`,
``python -m graphmine.core.generate``) lists the same names for networkx's entry point.

A family that returns a graph (``@declare(..., returns_graph=True)``) returns a networkx graph
from the backend, whether networkx was called with ``backend="graphmine"`` or through
``nx.config.backend_priority``.
"""

import functools

from ..core import generated
from ..core.graph import Graph
from ..core.registry import declared
from . import algorithms  # noqa: F401 (declares the functions: @implements(..., "networkx"))
from .convert import to_networkx

__all__ = ["functions", "returning_networkx"]


def returning_networkx(function):
    """``function`` with a graphmine graph among its results converted to a networkx graph.

    Parameters
    ----------
    function : callable
        A backend function whose family returns a graph.

    Returns
    -------
    callable
        The same function (name, signature, docstring) returning a networkx graph.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.nx_backend import algorithms
    >>> type(returning_networkx(algorithms.k_truss)(nx.complete_graph(4), 3)).__name__
    'Graph'
    """
    @functools.wraps(function)
    def run(*args, **kwargs):
        result = function(*args, **kwargs)
        return to_networkx(result) if isinstance(result, Graph) else result
    return run


def functions():
    """{networkx function name: graphmine's implementation} of every declared networkx function.

    Returns
    -------
    dict of str to callable

    Examples
    --------
    >>> "triangles" in functions()
    True
    """
    out = {}
    for impl in declared("networkx"):
        returns_graph = generated.FAMILIES[impl.family]["returns_graph"]
        out[impl.name] = returning_networkx(impl.function) if returns_graph else impl.function
    return out
