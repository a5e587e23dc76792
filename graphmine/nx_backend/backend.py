"""The networkx backend's functions: every implementation declared for the ``networkx`` back-end
(``@implements(family, "networkx", name=..., note=...)`` beside its code, in the family folders'
``_nx.py`` modules); the generated table (:data:`graphmine.core.generated.NETWORKX`, ``python -m
graphmine.core.generate``) names each function's module, so a call imports only the family it
runs.

A family that returns a graph (``@declare(..., returns_graph=True)``) returns a networkx graph
from the backend, whether networkx was called with ``backend="graphmine"`` or through
``nx.config.backend_priority``.
"""

import functools

from ..core import generated
from ..core.graph import Graph
from ..core.registry import networkx_function
from .convert import to_networkx

__all__ = ["function", "functions", "returning_networkx"]

_FUNCTIONS = {}  # name -> function(name), made once (pickle finds the same object)


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
    >>> from graphmine.truss._nx import k_truss
    >>> type(returning_networkx(k_truss)(nx.complete_graph(4), 3)).__name__
    'Graph'
    """
    @functools.wraps(function)
    def run(*args, **kwargs):
        result = function(*args, **kwargs)
        return to_networkx(result) if isinstance(result, Graph) else result
    # found (and pickled) as graphmine.nx_backend.<name>, which serves this same object
    run.__module__ = "graphmine.nx_backend"
    return run


def function(name):
    """graphmine's function for the networkx function ``name``, returning networkx graphs.

    Parameters
    ----------
    name : str
        A networkx function name of :data:`graphmine.core.generated.NETWORKX`.

    Returns
    -------
    callable

    Raises
    ------
    KeyError
        graphmine does not implement ``name``.

    Examples
    --------
    >>> function("triangles").__name__
    'triangles'
    """
    if name not in _FUNCTIONS:
        impl = networkx_function(name)
        _FUNCTIONS[name] = returning_networkx(impl) if generated.NETWORKX[name]["returns_graph"] else impl
    return _FUNCTIONS[name]


def functions():
    """{networkx function name: graphmine's implementation} of every declared networkx function
    (every family's adapters imported).

    Returns
    -------
    dict of str to callable

    Examples
    --------
    >>> "triangles" in functions()
    True
    """
    return {name: function(name) for name in generated.NETWORKX}
