"""The modules of the old flat layout, kept for one release as aliases of their new homes.

``import graphmine.graph`` still works and gives :mod:`graphmine.core.graph` itself (so pickles
and ``isinstance`` checks keep working), with a :class:`DeprecationWarning` naming the new path.
No file stands for an old module: the facade (``graphmine/__init__.py``) puts a finder on
``sys.meta_path`` that serves the names of :data:`MOVED`.
"""

import sys
import warnings

__all__ = ["MOVED", "warn"]

#: old module (graphmine.<name>) -> its new home
MOVED = {
    "graph": "graphmine.core.graph", "validation": "graphmine.core.validation",
    "exceptions": "graphmine.core.exceptions", "registry": "graphmine.core.registry",
    "events": "graphmine.io.events", "datasets": "graphmine.io.datasets", "generators": "graphmine.io.generators",
    "clique_census": "graphmine.cliques.census", "clique_peeling": "graphmine.cliques.peeling",
    "clique_enumeration": "graphmine.cliques.enumeration", "dispatch": "graphmine",
    # the networkx adapters moved into their family folders; the backend's package serves each by name
    "nx_backend.algorithms": "graphmine.nx_backend",
}


def _caller_level():
    """The stacklevel of the first frame outside the import machinery and graphmine's finder
    (warnings.warn does not count the import machinery's frames itself)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and (frame.f_code.co_filename.startswith("<frozen importlib")
                                 or frame.f_globals.get("__name__") in ("graphmine", "importlib")):
        if not frame.f_code.co_filename.startswith("<frozen importlib"):
            level += 1
        frame = frame.f_back
    return level


def warn(old):
    """Warn that ``graphmine.<old>`` moved, at the line that imported it.

    Parameters
    ----------
    old : str
        A key of :data:`MOVED`.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     warn("graph")
    >>> str(seen[0].message)
    'graphmine.graph moved to graphmine.core.graph; the old name goes in the next release'
    """
    warnings.warn(f"graphmine.{old} moved to {MOVED[old]}; the old name goes in the next release",
                  DeprecationWarning, stacklevel=_caller_level())
