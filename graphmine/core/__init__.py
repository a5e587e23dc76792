"""The CSR core every family and component stands on.

:mod:`~graphmine.core.graph` (the immutable ``Graph`` and ``OrientedGraph``, builders, orientation),
:mod:`~graphmine.core.validation` (``as_graph``, the one validator into the core),
:mod:`~graphmine.core.exceptions` (the exception hierarchy) and :mod:`~graphmine.core.registry`
(algorithm families x back-ends). Importing this package imports none of them.
"""

__all__ = []
