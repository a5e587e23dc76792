"""What networkx reads about the ``graphmine`` backend when it is imported.

networkx calls :func:`get_info` (entry point ``networkx.backend_info``) during ``import
networkx``, for every program that has graphmine installed. This package therefore sits outside
``graphmine`` and imports nothing but networkx's config class (inside :func:`get_info`): importing
``graphmine`` itself loads numba and would slow down every ``import networkx``. The algorithms
live in :mod:`graphmine.nx_backend` and are loaded on the first dispatched call; their names and
notes (:data:`FUNCTIONS`) are generated from the declarations beside graphmine's code
(``python -m graphmine.core.generate``).
"""

from ._generated import FUNCTIONS

__all__ = ["get_info", "FUNCTIONS", "METHODS"]

#: sketch methods of graphmine.probgraph (plus 'exact'), accepted by the ``method`` setting
METHODS = ("exact", "bloom", "khash", "onehash", "kmv")


def _config_class():
    # imported here, not at the top: networkx imports this module while it is itself importing,
    # and this module importing networkx first would be circular
    from networkx.utils.configs import Config

    class GraphmineConfig(Config):
        """Settings of networkx's ``graphmine`` backend (``nx.config.backends.graphmine``).

        Parameters
        ----------
        method : {'exact', 'bloom', 'khash', 'onehash', 'kmv'}
            How ``triangles``, ``clustering``, ``average_clustering`` and ``transitivity`` are
            computed: exactly (default) or estimated from neighbourhood sketches
            (graphmine.probgraph). Other functions are always exact.
        budget : float or None
            Sketch memory as a fraction of the graph's CSR (None: graphmine's default, 0.25).
        seed : int or None
            Seed of the sketches' hash functions (None: fresh randomness on every call).
        threads : int or None
            Threads for graphmine's kernels (None: all that numba was started with).
        """

        method: str = "exact"
        budget: float | None = None
        seed: int | None = None
        threads: int | None = None

        def _on_setattr(self, key, value):
            if key == "method" and value not in METHODS:
                raise ValueError(f"nx.config.backends.graphmine.method must be one of "
                                 f"{', '.join(map(repr, METHODS))}, got {value!r}")
            if key == "budget" and value is not None and (
                    isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1):
                raise ValueError(f"nx.config.backends.graphmine.budget must be a fraction of the graph's "
                                 f"size in (0, 1] or None, got {value!r}")
            if key in ("seed", "threads") and value is not None and (
                    isinstance(value, bool) or not isinstance(value, int) or value < (key == "threads")):
                rule = "a positive" if key == "threads" else "a non-negative"
                raise ValueError(f"nx.config.backends.graphmine.{key} must be {rule} integer or None, "
                                 f"got {value!r}")
            return value

    GraphmineConfig.__qualname__ = "GraphmineConfig"
    return GraphmineConfig


def get_info():
    """The backend description networkx reads at import (entry point ``networkx.backend_info``).

    Examples
    --------
    >>> from _graphmine_nx import get_info
    >>> info = get_info()
    >>> info["backend_name"], "triangles" in info["functions"], info["default_config"].method
    ('graphmine', True, 'exact')
    """
    return {
        "backend_name": "graphmine",
        "project": "graphmine",
        "package": "graphmine",
        "short_summary": "Compiled (Numba) triangle, clustering, link-prediction and core-number "
                         "kernels on a CSR graph, exact or sketch-based.",
        "functions": {name: {"additional_docs": doc} for name, doc in FUNCTIONS.items()},
        "default_config": _config_class()(method="exact", budget=None, seed=None, threads=None),
    }
