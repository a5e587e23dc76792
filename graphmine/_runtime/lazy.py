"""Modules imported on their first use, for the paths that must not load Numba.

A kernel module imports numba at its top (0.3-0.4 s of CPU on the 2-core machine); a module
that only sometimes calls a kernel (the CSR core, the networkx backend) names it with
:func:`lazy_module`, so that a call whose work runs on numpy never imports numba. The import
statement stays in the source, inside the decorated function (tests/package/test_layers.py reads it),
and runs on the first attribute access.
"""

__all__ = ["lazy_module"]


class _LazyModule:
    """Stands for the module that ``load()`` returns; imports it on first attribute access."""

    __slots__ = ("_load", "_module")

    def __init__(self, load):
        self._load = load
        self._module = None

    def __getattr__(self, name):
        module = self._module
        if module is None:
            module = self._module = self._load()
        return getattr(module, name)

    def __repr__(self):
        state = "not imported" if self._module is None else repr(self._module)
        return f"<lazy module {self._load.__name__}: {state}>"


def lazy_module(load):
    """Decorator: a stand-in for the module that the function ``load`` imports and returns.

    Parameters
    ----------
    load : callable
        A function of no arguments whose body imports the module and returns it.

    Returns
    -------
    object
        Attribute access on it imports the module once and reads the module's attribute.

    Examples
    --------
    >>> @lazy_module
    ... def _json():
    ...     import json
    ...     return json
    >>> _json.dumps([1])
    '[1]'
    """
    return _LazyModule(load)
