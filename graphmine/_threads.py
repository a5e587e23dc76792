"""Thread-count handling shared by every public function that runs a parallel kernel."""

import numba

from .exceptions import ParameterError

__all__ = ["resolve_threads"]


def resolve_threads(threads):
    """Return the number of threads a kernel should use.

    ``None`` means all threads numba was started with (``NUMBA_NUM_THREADS``, by default the
    number of cores). A kernel splits its work into exactly this many interleaved parts.
    """
    available = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return available
    if isinstance(threads, bool) or not isinstance(threads, (int,)) and not hasattr(threads, "__index__"):
        raise ParameterError(f"threads must be a positive integer, got {threads!r}")
    threads = int(threads)
    if threads < 1:
        raise ParameterError(f"threads must be >= 1, got {threads}")
    if threads > available:
        raise ParameterError(
            f"threads={threads} exceeds the {available} threads numba was started with "
            "(set NUMBA_NUM_THREADS before importing graphmine to raise it)"
        )
    numba.set_num_threads(threads)
    return threads
