"""graphmine: graph mining on a shared CSR core.

Exact and approximate (sketch-based) clique counting, clustering coefficients, similarity,
motif and link prediction, with a command-line interface ``graphmine``.

This package is the facade on top of the layers (see CONTRIBUTING.md): every name below is
loaded from its module on first use, so that ``import graphmine`` and each command of the CLI
load only what they use. The names are the public function of every algorithm family and the
names modules offer in their ``__facade__``, listed by ``python -m graphmine.core.generate`` in
:mod:`graphmine.core.generated`.
"""

import sys

from .core import loader as _loader
from .core.exceptions import (GraphFormatError, GraphmineError, GraphValueError, MissingDependencyError,
                              NoImplementationError, OutputExistsError, OutputPathError, ParameterError,
                              ResourceLimitError, SketchSaturationWarning, SkippedLineWarning)

__version__ = "0.1.0"

# the packages loaded on first use as graphmine.<name>: the layers, the families, the back-ends and
# the components, and the modules users reach as graphmine.datasets / generators / registry
_SUBMODULES = {**{name: f"graphmine.{name}" for name in (
    "core", "io", "cliques", "cluster", "cycles", "truss", "centrality", "link_prediction", "probgraph", "cuda",
    "distributed", "nx_backend", "motifs", "science4cast", "streaming")},
    "datasets": "graphmine.io.datasets", "generators": "graphmine.io.generators", "events": "graphmine.io.events",
    "registry": "graphmine.core.registry"}
_EXCEPTIONS = ["GraphmineError", "GraphFormatError", "GraphValueError", "ParameterError", "MissingDependencyError",
               "NoImplementationError", "OutputPathError", "OutputExistsError", "ResourceLimitError",
               "SketchSaturationWarning", "SkippedLineWarning"]
_LAZY = {}  # name -> (module, attribute; None for the module itself), read on the first lookup


def _lazy():
    if not _LAZY:  # the generated table is read on the first lazy name, not by import graphmine
        from .core.generated import FACADE

        _LAZY.update({name: (module, name) for name, module in FACADE.items()})
        _LAZY.update({name: (module, None) for name, module in _SUBMODULES.items()})
    return _LAZY


def _import(name):
    """Import a module named by the declarations' table: the registry's importer (the facade is the
    layer above every family and back-end, so the registry itself imports none of them)."""
    import importlib

    return importlib.import_module(name)


_loader.IMPORT[0] = _import


class _MovedModules:
    """Serves ``import graphmine.<old>`` for the old flat layout's modules (graphmine/_moved.py):
    the module is the new home itself, with a DeprecationWarning."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        package, _, old = fullname.partition(".")
        if package != "graphmine":
            return None
        from ._moved import MOVED

        if old not in MOVED:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(fullname, _MovedModules)

    @staticmethod
    def create_module(spec):
        from ._moved import MOVED, warn

        old = spec.name.partition(".")[2]
        warn(old)
        return _import(MOVED[old])

    @staticmethod
    def exec_module(module):
        pass  # the new home is imported already


if not any(finder is _MovedModules for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules)


def __getattr__(name):
    if name == "__all__":
        from .core.generated import FACADE

        value = sorted(FACADE) + _EXCEPTIONS + ["datasets", "generators", "probgraph", "motifs", "science4cast",
                                                "streaming"]
        globals()[name] = value
        return value
    if name not in _lazy():
        from ._moved import MOVED

        if name not in MOVED:
            raise AttributeError(f"module 'graphmine' has no attribute {name!r}")
        return _import(f"graphmine.{name}")  # a module of the old flat layout (_MovedModules)
    from ._runtime.interrupt import interruptible

    module, attr = _LAZY[name]
    # imported on graphmine's worker thread: a Ctrl-C meanwhile never leaves numpy, numba or
    # scipy half imported in this process (graphmine/_runtime/interrupt.py)
    mod = interruptible(_import)(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_lazy()))
