"""The modules of the old flat layout, kept for one release as aliases of their new homes.

``import graphmine.graph`` still works and gives :mod:`graphmine.core.graph` itself (so pickles
and ``isinstance`` checks keep working), with a :class:`DeprecationWarning` naming the new path.
Each old module is a two-line file that imports its new home and calls :func:`replace`.
"""

import sys
import warnings

__all__ = ["MOVED", "replace"]

#: old module (graphmine.<name>) -> its new home
MOVED = {
    "graph": "graphmine.core.graph", "validation": "graphmine.core.validation",
    "exceptions": "graphmine.core.exceptions", "registry": "graphmine.core.registry",
    "events": "graphmine.io.events", "datasets": "graphmine.io.datasets", "generators": "graphmine.io.generators",
    "clique_census": "graphmine.cliques.census", "clique_peeling": "graphmine.cliques.peeling",
    "clique_enumeration": "graphmine.cliques.enumeration", "dispatch": "graphmine",
}


def _caller_level():
    """The stacklevel of the first frame outside the import machinery and this alias."""
    frame, level = sys._getframe(3), 3
    while frame is not None and (frame.f_code.co_filename.startswith("<frozen importlib")
                                 or frame.f_globals.get("__name__", "").partition(".")[2] in MOVED):
        frame, level = frame.f_back, level + 1
    return level


def replace(name, module):
    """Make the old module ``name`` an alias of ``module`` (its new home), with a warning.

    Parameters
    ----------
    name : str
        The old module's dotted name (its ``__name__``).
    module : module
        The new home.

    Examples
    --------
    >>> import warnings, graphmine.core.graph
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     import graphmine.graph
    >>> graphmine.graph is graphmine.core.graph or seen[0].category is DeprecationWarning
    True
    """
    old = name.rpartition(".")[2]
    new = MOVED[old]
    warnings.warn(f"graphmine.{old} moved to {new}; the old name goes in the next release",
                  DeprecationWarning, stacklevel=_caller_level())
    sys.modules[name] = module
