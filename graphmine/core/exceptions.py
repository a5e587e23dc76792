"""The exception hierarchy of graphmine.

Every error graphmine raises on purpose derives from :class:`GraphmineError`; each subclass also
derives from the built-in exception a caller would otherwise catch (``ValueError`` for bad values,
``FileNotFoundError`` is folded into :class:`GraphFormatError` for files, so one ``except`` clause
suffices for everything a file can do wrong).
"""

import numbers

__all__ = [
    "GraphmineError",
    "GraphFormatError",
    "GraphValueError",
    "ParameterError",
    "NoImplementationError",
    "MissingDependencyError",
    "OutputPathError",
    "OutputExistsError",
    "ResourceLimitError",
    "ConvergenceError",
    "SketchSaturationWarning",
    "SkippedLineWarning",
    "SpatialError",
    "SpatialInputError",
    "SpatialTypeError",
    "SpatialModelError",
    "warn_at_caller",
    "check_choice", "check_int", "check_seed",
]


class GraphmineError(Exception):
    """Base class of all errors raised by graphmine."""


class GraphFormatError(GraphmineError, ValueError):
    """A file or an in-memory input cannot be read as a graph.

    The message names the path and the line number (for files) and the rule that was broken.
    ``path`` and ``line`` are kept as attributes (``None`` where they do not apply).
    """

    def __init__(self, message, path=None, line=None):
        self.path = None if path is None else str(path)
        self.line = line
        prefix = ""
        if self.path is not None:
            prefix = f"{self.path}:{line}: " if line is not None else f"{self.path}: "
        super().__init__(prefix + message)


class GraphValueError(GraphmineError, ValueError):
    """A graph given in memory (edge array, matrix, networkx graph) breaks a rule of the CSR core."""


class ParameterError(GraphmineError, ValueError):
    """A parameter (k, budget, threads, method, ...) is out of its allowed range."""


class NoImplementationError(ParameterError):
    """No back-end of :mod:`graphmine.core.registry` can run a call: the message names the algorithm
    family, each back-end tried and why it declined (``graphmine info --backends`` lists what
    runs where)."""


class MissingDependencyError(GraphmineError, ImportError):
    """An optional dependency is not installed; the message names the extra that installs it."""


class OutputPathError(GraphmineError, OSError):
    """An output path cannot be written: it exists (and ``force`` was not given), its folder is
    missing or not writable, or it is a directory. Raised before any work starts."""


class OutputExistsError(OutputPathError, FileExistsError):
    """The output file exists and replacing it was not asked for (``--force``)."""


class ResourceLimitError(GraphmineError, MemoryError):
    """An input would need an allocation that cannot be sensible (the message gives the size)."""


class ConvergenceError(GraphmineError, RuntimeError):
    """An iterative method (PageRank's power iteration) did not reach its tolerance within its
    iteration limit."""


class SketchSaturationWarning(UserWarning):
    """A probabilistic sketch is (nearly) full, so its estimates lose accuracy."""


class SkippedLineWarning(UserWarning):
    """A reader skipped a line it was not told to skip: the first line of an edge list, detected
    as a header (column names followed by integer data). ``header=True`` or ``header=False``
    says it explicitly and silences this."""


# the Spatial Computer Model simulator (package spatial)

class SpatialError(GraphmineError):
    """Base class of all errors raised by :mod:`spatial` (the Spatial Computer Model simulator)."""


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


def check_choice(name, value, choices):
    """Validate an option that takes one of a few values.

    Parameters
    ----------
    name : str
        The option's name, for the message.
    value : object
        The value given.
    choices : tuple
        The allowed values (of one type; a value of another type is refused, so that an array
        or a number never compares equal to a name).

    Returns
    -------
    object
        ``value`` itself.

    Raises
    ------
    ParameterError
        ``value`` is not one of ``choices``; the message names the option, the choices and the
        value.

    Examples
    --------
    >>> check_choice("device", "cpu", ("cpu", "cuda"))
    'cpu'
    >>> check_choice("device", "gpu", ("cpu", "cuda"))
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.ParameterError: device must be one of 'cpu', 'cuda', got 'gpu'
    """
    if not any(isinstance(value, type(c)) and value == c for c in choices):
        raise ParameterError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


def check_int(name, value, low=None, high=None):
    """Validate an integer option (a bool is refused), within ``low..high`` where given.

    Parameters
    ----------
    name : str
        The option's name, for the message.
    value : object
        The value given: a Python or numpy integer.
    low, high : int, optional
        The smallest and the largest value allowed (default: no bound).

    Returns
    -------
    int
        ``value`` as a Python int.

    Raises
    ------
    ParameterError
        Not an integer, or out of bounds; the message names the option, the rule and the value.

    Examples
    --------
    >>> check_int("k", 4, 3)
    4
    >>> check_int("k", 2.0, 3)
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.ParameterError: k must be an integer >= 3, got 2.0
    >>> check_int("hashes", 17, 1, 16)
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.ParameterError: hashes must be an integer in 1..16, got 17
    """
    if (isinstance(value, bool) or not isinstance(value, numbers.Integral) or (low is not None and value < low)
            or (high is not None and value > high)):
        bounds = {(False, False): "", (True, False): f" >= {low}", (False, True): f" <= {high}",
                  (True, True): f" in {low}..{high}"}[low is not None, high is not None]
        raise ParameterError(f"{name} must be an integer{bounds}, got {value!r}")
    return int(value)


def check_seed(seed, name="seed"):
    """The numpy random generator of a ``seed`` option (a bool is refused).

    Parameters
    ----------
    seed : None, int, or numpy.random.Generator
        None for fresh entropy, a non-negative integer for a reproducible stream, or a
        generator, which is returned as it is (its state is shared with the caller).
    name : str, default "seed"
        The option's name, for the message.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    ParameterError
        Anything else; the message names the option and the value.

    Examples
    --------
    >>> check_seed(7).integers(1000, size=3).tolist() == check_seed(7).integers(1000, size=3).tolist()
    True
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.ParameterError: seed must be None, an integer >= 0 or a numpy Generator, got -1
    """
    import numpy as np

    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0):
        raise ParameterError(f"{name} must be None, an integer >= 0 or a numpy Generator, got {seed!r}")
    return np.random.default_rng(None if seed is None else int(seed))


def warn_at_caller(message, category=UserWarning):
    """Issue a warning attributed to the first caller outside graphmine.

    Whatever the depth of graphmine's own calls and decorators in between, the warning names
    the user's line, as ``stacklevel`` would for a direct call.

    Parameters
    ----------
    message : str
        The warning's text.
    category : type of Warning, default UserWarning
        Its class (:class:`SketchSaturationWarning`, ...).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     warn_at_caller("sketch full", SketchSaturationWarning)
    >>> seen[0].category.__name__, str(seen[0].message)
    ('SketchSaturationWarning', 'sketch full')
    """
    import os
    import sys
    import warnings

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # graphmine/
    worker_loop = os.path.join(package, "_runtime", "interrupt.py")
    frame, level, crossed = sys._getframe(1), 2, False  # stacklevel 2: the frame that called this function
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        if not crossed and os.path.abspath(frame.f_code.co_filename) == worker_loop:
            # graphmine's worker thread runs the call (graphmine/_runtime/interrupt.py): its caller is a
            # frame of the main thread, which no stacklevel reaches
            from .._runtime.interrupt import caller_frame

            frame, crossed = caller_frame(), True
            continue
        frame, level = frame.f_back, level + 1
    if not crossed:
        warnings.warn(message, category, stacklevel=level)
    elif frame is not None:
        import linecache

        g, filename = frame.f_globals, frame.f_code.co_filename
        # as warnings.warn does: no module_globals, with which CPython asks the module's loader for
        # its source at once, and the loader of a __main__ read from stdin, -c or the interactive
        # prompt (BuiltinImporter) raises ImportError ('__main__' is not a built-in module)
        # instead of returning None. linecache's lazy entry (a loader's source, e.g. from a zip)
        # still lets the shown warning quote the line, and linecache ignores a loader that fails.
        linecache.lazycache(filename, g)
        warnings.warn_explicit(message, category, filename, frame.f_lineno, module=g.get("__name__"),
                               registry=g.setdefault("__warningregistry__", {}))
    else:
        warnings.warn(message, category, stacklevel=2)
