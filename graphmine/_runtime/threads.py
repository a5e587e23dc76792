"""Thread-count handling shared by every public function that runs a parallel kernel.

Kernels split their work into ``nthreads`` parts (an argument), so a call with ``threads=2``
needs numba's pool to run at least 2 threads while its kernels run. Numba's setting is process
state of the caller: :func:`restores_threads` puts it back after every public call, so
``count_triangles(G, threads=1)`` never slows down later calls.
"""

import functools
import sys
import threading

from ..core.exceptions import ParameterError

__all__ = ["resolve_threads", "restores_threads", "PARALLEL_KERNEL_LOCK"]

#: held while a parallel numba kernel runs on a thread of a threaded Dask worker: numba's fallback
#: threading layer (workqueue) must not be entered by two threads at once
PARALLEL_KERNEL_LOCK = threading.Lock()


def resolve_threads(threads):
    """Return the number of threads a kernel should use, and make numba's pool run that many.

    ``None`` means numba's current setting (all cores unless the caller lowered it with
    ``numba.set_num_threads``). Call it only inside a function decorated with
    :func:`restores_threads`, which restores numba's setting on return.
    """
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return numba.get_num_threads()
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
    if threads != numba.get_num_threads():
        numba.set_num_threads(threads)
    return threads


def _pool_threads():
    """numba's thread count, or None while numba has not started its thread pool (not imported
    yet, or no parallel kernel run and no setting made: the count is then numba's default, and
    asking for it would start the pool)."""
    par = sys.modules.get("numba.np.ufunc.parallel")
    if par is None or not getattr(par, "_is_initialized", False):
        return None
    return sys.modules["numba"].get_num_threads()


def restores_threads(func):
    """Decorator: numba's thread count after the call is what it was before (numba's default
    when its thread pool started during the call; a call whose work runs on numpy leaves numba
    unimported)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        before = _pool_threads()
        try:
            return func(*args, **kwargs)
        finally:
            now = _pool_threads()
            if now is not None:
                if before is None:
                    before = sys.modules["numba"].config.NUMBA_NUM_THREADS
                if now != before:
                    sys.modules["numba"].set_num_threads(before)

    return wrapper
