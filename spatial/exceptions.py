"""The exception hierarchy of :mod:`spatial`.

Every error the package raises on purpose derives from :class:`SpatialError`; each subclass also
derives from the built-in exception a caller would otherwise catch, so ``except ValueError`` keeps
working for code that does not know about this package.
"""

__all__ = ["SpatialError", "SpatialInputError", "SpatialTypeError"]


class SpatialError(Exception):
    """Base class of all errors raised by :mod:`spatial`."""


class SpatialInputError(SpatialError, ValueError):
    """A value breaks an algorithm's contract (size, shape, NaN, rank, processor id, ...).

    The message names the parameter, the rule and the offending value.
    """


class SpatialTypeError(SpatialError, TypeError):
    """An argument has the wrong type (not an array, not a ufunc, not a sparse matrix, ...)."""
