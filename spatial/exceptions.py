"""The errors of :mod:`spatial`, defined in graphmine's one exception hierarchy
(:mod:`graphmine.core.exceptions`) and re-exported here.

Every error the package raises on purpose derives from :class:`SpatialError`, itself a
:class:`graphmine.core.exceptions.GraphmineError`, so one ``except GraphmineError`` clause covers the
whole distribution; each subclass also derives from the built-in exception a caller would
otherwise catch, so ``except ValueError`` keeps working for code that does not know about this
package.
"""

from graphmine.core.exceptions import SpatialError, SpatialInputError, SpatialModelError, SpatialTypeError

__all__ = ["SpatialError", "SpatialInputError", "SpatialTypeError", "SpatialModelError"]
