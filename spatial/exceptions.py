"""The exception hierarchy of :mod:`spatial`.

Every error the package raises on purpose derives from :class:`SpatialError`, itself a
:class:`graphmine.exceptions.GraphmineError`, so one ``except GraphmineError`` clause covers the
whole distribution; each subclass also derives from the built-in exception a caller would
otherwise catch, so ``except ValueError`` keeps working for code that does not know about this
package.
"""

from graphmine.exceptions import GraphmineError

__all__ = ["SpatialError", "SpatialInputError", "SpatialTypeError", "SpatialModelError"]


class SpatialError(GraphmineError):
    """Base class of all errors raised by :mod:`spatial`."""


class SpatialInputError(SpatialError, ValueError):
    """A value breaks an algorithm's contract (size, shape, NaN, rank, processor id, ...).

    The message names the parameter, the rule and the offending value.
    """


class SpatialTypeError(SpatialError, TypeError):
    """An argument has the wrong type (not an array, not a ufunc, not a sparse matrix, ...)."""


class SpatialModelError(SpatialError, RuntimeError):
    """An algorithm broke a rule of the Spatial Computer Model.

    Raised by :class:`spatial.Machine` when a processor sends or reads a word it does not hold,
    a message carries more words than ``message_words``, a processor would hold more than
    ``words`` words, or two messages of one round arrive at the same processor. The message
    names the processor and the round; both are kept as attributes.

    Attributes
    ----------
    processor : int or None
        The offending processor.
    round : int or None
        The round (number of :meth:`spatial.Machine.send` calls so far, counting the one that
        failed).
    """

    def __init__(self, message, processor=None, round=None):
        self.processor = None if processor is None else int(processor)
        self.round = None if round is None else int(round)
        super().__init__(message)
