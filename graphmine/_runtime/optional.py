"""Optional dependencies: import them on first use, or say which extra installs them."""

import importlib

from ..core.exceptions import MissingDependencyError

__all__ = ["require", "missing_message", "EXTRAS"]

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


def missing_message(module, what=None):
    """'``what`` needs DIST, which is not installed: pip install "graphmine[EXTRA]"'."""
    dist, extra = EXTRAS.get(module.split(".")[0], (module, None))
    how = f'pip install "graphmine[{extra}]"' if extra else f"pip install {dist}"
    return f"{what or 'this'} needs {dist}, which is not installed: {how}"
