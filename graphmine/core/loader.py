"""How the registry imports a module that a declaration names.

The registry (:mod:`graphmine.core.registry`) sits in the core and imports nothing above it; the
modules it needs (a family's public module, a back-end's implementations) are named by the
generated table and imported by the facade, ``graphmine/__init__.py``, which sets
:data:`IMPORT` when the package is imported (before any of its modules runs).
"""

__all__ = ["IMPORT", "load"]

#: [the function that imports a module by its dotted name], set by the facade
IMPORT = [None]


def load(name):
    """Import the module ``name`` (a name from :mod:`graphmine.core.generated`) through the facade.

    Parameters
    ----------
    name : str

    Returns
    -------
    module

    Examples
    --------
    >>> load("graphmine.cliques").__name__
    'graphmine.cliques'
    """
    return IMPORT[0](name)
