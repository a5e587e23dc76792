"""Optional dependencies: import them on first use, or say which extra installs them."""

import contextlib
import contextvars
import importlib

from ..core.exceptions import MissingDependencyError

__all__ = ["require", "required_by", "missing_message", "EXTRAS"]

# module -> (distribution name, extra of graphmine that installs it)
EXTRAS = {
    "sklearn": ("scikit-learn", "ml"),
    "lightgbm": ("lightgbm", "ml"),
    "torch": ("torch", "gnn"),
    "torch_geometric": ("torch-geometric", "gnn"),
    "tqdm": ("tqdm", None),
    "dask": ("dask", "dask"),
    "distributed": ("distributed", "dask"),
    "matplotlib": ("matplotlib", None),
}


def require(module, what=None):
    """Import ``module`` or raise :class:`MissingDependencyError` naming the extra.

    Parameters
    ----------
    module : str
        Top-level module name (``'sklearn'``, ``'torch'``, ...).
    what : str, optional
        What needs it, for the message (``'science4cast train'``).

    Examples
    --------
    >>> require("numpy").__name__
    'numpy'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and exc.name.split(".")[0] != module.split(".")[0]:
            raise  # the module exists but one of its own imports failed: show that
        raise MissingDependencyError(missing_message(module, what)) from None


# what the user called (a command, a public function), set by required_by; None outside one
_REQUIRED_BY = contextvars.ContextVar("graphmine_required_by", default=None)


@contextlib.contextmanager
def required_by(what):
    """While active, a missing optional dependency is said to be needed by ``what``.

    The import that finds a package missing is often a step deep inside (``gnn.resolve_device``,
    a model file's reader); the message should name what the user called instead: the command
    (``'graphmine predict-motifs --method seam'``) or the public function. The outermost
    ``required_by`` wins, since that is the call the user made.

    Parameters
    ----------
    what : str
        The command or public function, as the user would write it.

    Examples
    --------
    >>> try:
    ...     with required_by("graphmine some-command"):
    ...         require("no_such_module_here", what="an inner step")
    ... except ImportError as exc:
    ...     print(exc)
    graphmine some-command needs no_such_module_here, which is not installed: pip install no_such_module_here
    """
    token = _REQUIRED_BY.set(what) if _REQUIRED_BY.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _REQUIRED_BY.reset(token)


def missing_message(module, what=None):
    """'``what`` needs DIST, which is not installed: pip install "graphmine[EXTRA]"'; ``what`` is
    that of an active :func:`required_by` if there is one."""
    what = _REQUIRED_BY.get() or what
    dist, extra = EXTRAS.get(module.split(".")[0], (module, None))
    how = f'pip install "graphmine[{extra}]"' if extra else f"pip install {dist}"
    return f"{what or 'this'} needs {dist}, which is not installed: {how}"
