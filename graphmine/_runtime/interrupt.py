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
  call's cancel flag and waits (at most WAIT_SECONDS) for the worker to stop at its next
  :func:`check` (between kernel calls and between batches of a long count), then re-raises
  KeyboardInterrupt. The process is usable at once: a later call queues behind a kernel that
  was still finishing, and no work goes on after that kernel.
* in the ``graphmine`` program (:func:`exit_on_interrupt`) nothing is waited for: the CLI prints
  ``graphmine: interrupted`` and exits with status 130 while the worker is still in its kernel.

Calls from a thread other than the main one (a Dask worker, a user's thread pool) and nested
calls run directly: no signal can be handled there anyway. The worker blocks SIGINT (so do the
numba threads it starts); the waiting main thread wakes every 0.1 s, because the kernel may hand
a process-wide SIGINT to a thread started before graphmine's (numpy's BLAS threads), which does
not wake it. Kernels with a dynamic chunk loop (the triangle counts) poll :func:`cancel_flag`
and stop within a chunk; the k-clique count runs in batches of about 0.2 s with a check between.
The ``graphmine`` program runs every command on the worker (graphmine/cli.py).
"""

import functools
import os
import signal
import sys
import threading

__all__ = ["interruptible", "check", "cancelled", "cancel_flag", "caller_frame", "exit_on_interrupt", "start_children", "kill_children",
           "Cancelled"]


class Cancelled(KeyboardInterrupt):
    """Raised by :func:`check` on the worker thread when the caller was interrupted."""


# how long an interrupted library call waits for the worker to reach its next check(); a
# kernel that runs longer finishes on its own and the worker then stops (a later call queues
# behind it)
WAIT_SECONDS = 1.0

_state = threading.local()  # on the worker: the job it runs
_lock = threading.Lock()
_worker = None
_wait_for_worker = True  # False in the graphmine program: exit at once


def exit_on_interrupt():
    """The ``graphmine`` program: on Ctrl-C stop waiting at once (the process is about to exit)."""
    global _wait_for_worker
    _wait_for_worker = False


def cancelled():
    """Whether the call running on this worker thread has been interrupted."""
    job = getattr(_state, "job", None)
    return job is not None and job.cancel.is_set()


def check():
    """Raise :class:`Cancelled` if the call running on this worker thread has been interrupted;
    a no-op elsewhere. Call it between kernel calls and between batches of long work."""
    job = getattr(_state, "job", None)
    if job is not None and job.cancel.is_set():
        raise Cancelled()


def caller_frame():
    """On the worker thread: the frame of the main thread that called the running job's function
    (a warning issued on the worker is attributed to it, see ``exceptions.warn_at_caller``);
    elsewhere None."""
    job = getattr(_state, "job", None)
    return None if job is None else job.caller


def cancel_flag():
    """An int64 array of one element that turns non-zero when the call running on this worker
    thread is interrupted: kernels with a chunk loop poll it (an atomic read) and stop early.
    Elsewhere a fresh array that stays zero."""
    import numpy as np

    job = getattr(_state, "job", None)
    if job is None:
        return np.zeros(1, np.int64)
    if job.flag is None:
        job.flag = np.zeros(1, np.int64)
        if job.cancel.is_set():
            job.flag[0] = 1
    return job.flag


class _Job:
    __slots__ = ("func", "args", "kwargs", "threads", "done", "cancel", "flag", "value", "error", "caller")

    def __init__(self, func, args, kwargs, threads):
        self.func, self.args, self.kwargs, self.threads = func, args, kwargs, threads
        self.done = threading.Event()
        self.cancel = threading.Event()
        self.flag = None  # the kernels' view of cancel (cancel_flag)
        self.value = self.error = None
        self.caller = None  # the main thread's frame that made the call (warnings point there)

    def interrupt(self):
        self.cancel.set()
        flag = self.flag
        if flag is not None:
            flag[0] = 1

    def run(self):
        try:
            if self.threads is not None:
                import numba

                if numba.get_num_threads() != self.threads:
                    numba.set_num_threads(self.threads)
            self.value = self.func(*self.args, **self.kwargs)
        except BaseException as exc:  # handed to the caller as it is
            self.error = exc
        finally:
            self.args = self.kwargs = self.caller = None
            self.done.set()


class _Worker:
    """One daemon thread that runs jobs one at a time, in the order submitted."""

    def __init__(self):
        import collections

        self._jobs = collections.deque()
        self._ready = threading.Condition()
        threading.Thread(target=self._loop, name="graphmine-worker", daemon=True).start()

    def _loop(self):
        # SIGINT is for the main thread only (numba's pool, started from here, inherits the mask)
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        while True:
            with self._ready:
                while not self._jobs:
                    self._ready.wait()
                job = self._jobs.popleft()
            _state.job = job
            try:
                job.run()
            finally:
                _state.job = None

    def submit(self, job):
        with self._ready:
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
        if _worker is None:
            _worker = _Worker()
        return _worker


def _wait(event, timeout):
    """``event.wait(timeout)`` on the main thread, where a Ctrl-C may land inside it.

    CPython runs the SIGINT handler between two bytecodes: when that is inside
    ``Condition.wait``, just after it released the event's lock, the KeyboardInterrupt leaves
    ``wait`` and the ``with`` block around it releases the lock a second time, so the caller gets
    ``RuntimeError: release unlocked lock`` with the KeyboardInterrupt as its context. The lock
    is released either way; the interrupt is what happened, so it is what this raises.
    """
    try:
        return event.wait(timeout)
    except RuntimeError as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            raise exc.__context__ from None
        raise


def _run(func, args, kwargs):
    job = _Job(func, args, kwargs, _numba_threads())
    job.caller = sys._getframe(2)  # _run <- the decorator's wrapper <- the caller
    _get_worker().submit(job)
    try:
        # with a timeout: a SIGINT that the kernel hands to another thread without SIGINT
        # blocked (numpy's BLAS threads) does not wake this one; its flag is seen within 0.1 s
        while not _wait(job.done, 0.1):
            pass
    except KeyboardInterrupt:
        job.interrupt()
        if _wait_for_worker:
            _wait(job.done, WAIT_SECONDS)  # the worker stops at its next check()
        raise
    if job.error is not None:
        error, job.error = job.error, None
        raise error
    return job.value


def interruptible(func):
    """Decorator: run ``func`` on the worker thread when called from the main thread, so that
    Ctrl-C is seen at once and never lands inside a kernel (see the module's docstring)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if getattr(_state, "job", None) is not None or threading.current_thread() is not threading.main_thread():
            return func(*args, **kwargs)
        return _run(func, args, kwargs)

    return wrapper


def start_children(start):
    """``start()``, which starts worker processes (a Dask LocalCluster), such that those
    processes never take a Ctrl-C while Ctrl-C still interrupts the caller at once.

    A Ctrl-C at a terminal goes to the whole process group: each worker would print its own
    KeyboardInterrupt traceback (about 115 lines for two workers), or a worker still starting
    would print one from Python's start-up, while the caller shuts them down anyway. A signal
    blocked in the thread that starts a process stays blocked in that process across exec, and
    Python does not unblock it; threads inherit the mask of the thread that creates them. So
    ``start`` runs with SIGINT blocked: on this thread if it is not the main one (the main thread
    still takes the signal), else on a helper thread while the main thread waits, ready for it.
    """
    if not hasattr(signal, "pthread_sigmask"):
        return start()
    # multiprocessing starts its resource tracker with SIGINT blocked and then *unblocks* it on
    # the calling thread (Dask's event-loop thread, which goes on to start the workers): started
    # here first, it is already running there and that thread keeps the mask it inherits
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    if threading.current_thread() is not threading.main_thread():
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
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
    try:  # the helper inherits the blocked signal; the main thread unblocks it at once
        threading.Thread(target=job, name="graphmine-start", daemon=True).start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    while not _wait(done, 0.05):  # a Ctrl-C raises KeyboardInterrupt here (or runs the caller's handler)
        pass
    if "error" in box:
        raise box.pop("error")
    return box.pop("value")


def _descendants():
    """This process's descendants as {pid: cmdline}, from /proc (Linux); None elsewhere."""
    if not os.path.isdir("/proc/self/task"):
        return None
    parent = {}
    cmdline = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline[int(entry)] = f.read()
        except OSError:  # ended meanwhile
            continue
        # the command name, in parentheses, may hold spaces: the fields follow its last ')'
        parent[int(entry)] = int(stat[stat.rindex(b")") + 2:].split()[1])
    found, frontier = {}, {os.getpid()}
    while frontier:
        frontier = {pid for pid, ppid in parent.items() if ppid in frontier and pid not in found}
        found.update((pid, cmdline[pid]) for pid in frontier)
    return found


def kill_children():
    """Kill this process's worker processes (a local Dask cluster's nannies and workers) at once:
    after Ctrl-C, instead of a graceful shutdown of workers in mid-task.

    The whole tree is stopped (SIGSTOP) before any of it is killed: a nanny killed while it
    starts its worker would leave that worker reading its start-up data from a closed pipe, and
    the worker would print a traceback after the program has said it was interrupted. Stopped
    processes start nothing and print nothing; SIGKILL then ends them. multiprocessing's resource
    trackers are left to remove the cluster's semaphores once their pipes close.
    """
    tree = _descendants()
    if tree is None:
        mp = sys.modules.get("multiprocessing")
        for child in mp.active_children() if mp is not None else ():
            try:
                child.kill()
            except (OSError, ValueError, AttributeError):
                pass
        return
    stopped = set()
    while True:  # until no stopped process had started another one meanwhile
        todo = {pid for pid, cmd in tree.items() if pid not in stopped and b"resource_tracker" not in cmd}
        if not todo:
            break
        for pid in todo:
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
        stopped |= todo
        tree = _descendants()
    for pid in stopped:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
