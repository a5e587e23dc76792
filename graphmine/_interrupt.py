"""Ctrl-C during long work: seen at once, never inside a kernel's return.

Why the work runs on another thread. Python runs a signal's handler in the main thread, at the
next bytecode that thread executes. A Numba kernel that returns an array runs one Python
function on its way out (numba fetches the ``ndarray`` type through
``numba.core.serialize._numba_unpickle`` while boxing the result), so a SIGINT that arrives
during a kernel raises KeyboardInterrupt *inside* that boxing; numba's generated code does not
check for it and either passes a NULL type on (a segfault, status 139) or returns the array with
the exception still set (``SystemError: CPUDispatcher(...) returned a result with an exception
set``). A thread other than the main one never runs signal handlers, so kernels called there are
safe; and with ``nogil=True`` kernels the main thread, waiting for the worker, handles Ctrl-C
at once.

:func:`interruptible` decorates the public functions that do long work (reading a graph, building
or orienting a CSR, counts, sketches). Their body runs on one long-lived worker thread while the
main thread waits:

* in a library call (Python, notebooks) the main thread, on KeyboardInterrupt, raises the
  cancel flag and waits for the worker to stop at its next :func:`check` (between kernel calls
  and between batches of a long count), then re-raises KeyboardInterrupt: the process is usable
  at once, with no kernel left burning CPU. A second Ctrl-C stops the waiting.
* in the ``graphmine`` program (:func:`exit_on_interrupt`) nothing is waited for: the CLI prints
  ``graphmine: interrupted`` and exits with status 130 while the worker is still in its kernel.

Calls from a thread other than the main one (a Dask worker, a user's thread pool) and nested
calls run directly: no signal can be handled there anyway.
"""

import functools
import signal
import threading

__all__ = ["interruptible", "check", "cancelled", "exit_on_interrupt", "start_children", "kill_children",
           "Cancelled"]


class Cancelled(KeyboardInterrupt):
    """Raised by :func:`check` on the worker thread when the caller was interrupted."""


_state = threading.local()
_cancel = threading.Event()
_lock = threading.Lock()
_worker = None
_wait_for_worker = True  # False in the graphmine program: exit at once


def exit_on_interrupt():
    """The ``graphmine`` program: on Ctrl-C stop waiting at once (the process is about to exit)."""
    global _wait_for_worker
    _wait_for_worker = False


def cancelled():
    """Whether the call running on this worker has been interrupted."""
    return _cancel.is_set() and getattr(_state, "on_worker", False)


def check():
    """Raise :class:`Cancelled` if the call running on this worker has been interrupted (call it
    between kernel calls and between batches of long work)."""
    if _cancel.is_set() and getattr(_state, "on_worker", False):
        raise Cancelled()


class _Worker:
    """One daemon thread that runs one job at a time."""

    def __init__(self):
        self._jobs = []
        self._ready = threading.Condition()
        self.busy = False
        self.thread = threading.Thread(target=self._loop, name="graphmine-worker", daemon=True)
        self.thread.start()

    def _loop(self):
        _state.on_worker = True
        # SIGINT is for the main thread only (numba's pool, started from here, inherits the mask)
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        while True:
            with self._ready:
                while not self._jobs:
                    self._ready.wait()
                job = self._jobs.pop()
            job()

    def submit(self, job):
        with self._ready:
            self.busy = True
            self._jobs.append(job)
            self._ready.notify()


def _numba_threads():
    """The caller's numba thread count (thread-local in numba), or None while numba has not
    started its thread pool (the worker then has the same default)."""
    import sys

    par = sys.modules.get("numba.np.ufunc.parallel")
    if par is None or not getattr(par, "_is_initialized", False):
        return None
    import numba

    return numba.get_num_threads()


def _get_worker():
    global _worker
    with _lock:
        if _worker is None or _worker.busy:  # none yet, or one left running by a second Ctrl-C
            _worker = _Worker()
        return _worker


def _run(func, args, kwargs):
    threads = _numba_threads()
    done = threading.Event()
    box = {}

    def job():
        try:
            if threads is not None:
                import numba

                if numba.get_num_threads() != threads:
                    numba.set_num_threads(threads)
            box["value"] = func(*args, **kwargs)
        except BaseException as exc:  # handed to the caller as it is
            box["error"] = exc
        finally:
            worker.busy = False
            done.set()

    worker = _get_worker()
    _cancel.clear()
    worker.submit(job)
    try:
        done.wait()
    except KeyboardInterrupt:
        _cancel.set()
        if _wait_for_worker:
            try:
                done.wait()  # the worker stops at its next check() or kernel return
            finally:
                _cancel.clear()
        raise
    error = box.pop("error", None)
    if error is not None:
        try:
            raise error
        finally:
            error = None
    return box.pop("value")


def interruptible(func):
    """Decorator: run ``func`` on the worker thread when called from the main thread, so that
    Ctrl-C is seen at once and never lands inside a kernel (see the module's docstring)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if getattr(_state, "on_worker", False) or threading.current_thread() is not threading.main_thread():
            return func(*args, **kwargs)
        return _run(func, args, kwargs)

    return wrapper


def start_children(start):
    """``start()``, which starts worker processes (a Dask LocalCluster), such that those
    processes ignore SIGINT while Ctrl-C still interrupts the caller at once.

    A Ctrl-C at a terminal goes to the whole process group: each worker would print its own
    KeyboardInterrupt traceback (about 115 lines for two workers) while the caller shuts them
    down anyway. A process started while SIGINT is ignored keeps ignoring it (a disposition of
    SIG_IGN survives exec, and Python then installs no handler). So SIGINT is ignored while
    ``start`` runs on a helper thread, and blocked: a blocked signal stays pending even when
    ignored, and the main thread takes it with ``sigtimedwait`` and raises KeyboardInterrupt.
    Elsewhere than in the main thread of a POSIX process, ``start()`` is called as it is.
    """
    if (not hasattr(signal, "sigtimedwait") or threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        return start()
    box = {}
    done = threading.Event()

    def job():
        try:
            box["value"] = start()
        except BaseException as exc:
            box["error"] = exc
        finally:
            done.set()

    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    interrupted = False
    try:
        threading.Thread(target=job, name="graphmine-start", daemon=True).start()
        while not done.is_set():
            if signal.sigtimedwait({signal.SIGINT}, 0.05) is not None:
                interrupted = True
                break
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    if interrupted:
        raise KeyboardInterrupt
    if "error" in box:
        raise box.pop("error")
    return box.pop("value")


def kill_children():
    """Kill this process's multiprocessing children (a local Dask cluster's workers) at once:
    after Ctrl-C, instead of a graceful shutdown of workers in mid-task."""
    import sys

    mp = sys.modules.get("multiprocessing")
    if mp is None:
        return
    for child in mp.active_children():
        try:
            child.kill()
        except (OSError, ValueError, AttributeError):
            pass
