"""A lean start and a quick exit for the ``graphmine`` program.

On the first kernel call of a process numba sets up its compiler: it loads its typing and
lowering registries, and two of those probe optional packages that no graphmine kernel uses:
``numba.np.arraymath`` imports ``scipy.linalg`` to find BLAS for ``np.dot``/``np.linalg`` in
kernels (about 0.25 s of a 1 s command), and ``numba.core.typing.cffi_utils`` builds a ``cffi.FFI``
and with it cffi's C parser (about 0.2 s). :func:`lean_numba_setup` lets that setup happen with both
packages hidden, so the program does not pay for them, and only when a kernel is first compiled or
loaded (a small graph's command runs on numpy, see graphmine/_primitives/small_work.py, and never sets numba's
compiler up: 0.3 s of CPU saved); it is used by the command line program only (a process that
may later compile kernels of its own keeps numba's full setup), and only when the setup has not
happened yet. Python code may import scipy.linalg and cffi afterwards as
usual; only numba kernels compiled in that process cannot use BLAS or cffi, which no graphmine
kernel does (tests/cli/test_layout.py checks that none calls them). The program also loads its
kernels from numba's cache without that setup at all (see :func:`_lean_cache_loads`): only a
compile, a cache miss, pays it.

:func:`quick_exit` ends the program without Python's interpreter teardown: once numba has loaded
cached kernels, freeing its compiler's objects and modules at exit takes longer than the counting
itself (0.3-0.6 s on a busy 2-core machine). The streams are flushed, logging is shut down and the
atexit handlers run, as on a normal exit; only the teardown that follows them is skipped.
"""

import atexit
import logging
import os
import sys

__all__ = ["lean_numba_setup", "lean_cache_loads", "quick_exit", "HIDDEN", "load_cached_kernels", "preload", "in_background"]

# the packages numba's setup probes for, and what it would use them for
HIDDEN = {"scipy.linalg": "BLAS for np.dot / np.linalg in kernels", "cffi": "cffi functions in kernels"}


def _to_hide(name):
    """The outermost package of ``name`` not imported yet (hiding it hides ``name``), or None."""
    parts = name.split(".")
    for i in range(1, len(parts) + 1):
        if ".".join(parts[:i]) not in sys.modules:
            return ".".join(parts[:i])
    return None


def _lean_listener():
    """The listener of :func:`lean_numba_setup` (numba imported only when it is made)."""
    from numba.core import event

    class LeanSetup(_LeanSetup, event.Listener):
        def on_start(self, ev):  # both statuses go through notify
            pass

        def on_end(self, ev):
            pass

    return LeanSetup()


class _LeanSetup:
    """A listener on numba's compiler lock, which numba takes around every compile and every load
    from its cache, so before its one-time setup: while the first holder has it (and any thread
    waiting meanwhile), the packages of HIDDEN not imported yet are hidden."""

    def __init__(self):
        import threading

        self.lock = threading.Lock()
        self.depth = 0
        self.hidden = []
        self.done = False

    def notify(self, ev):
        from numba.core.event import EventStatus

        with self.lock:
            if self.done:
                return
            if ev.status == EventStatus.START:
                if self.depth == 0 and "numba.np.arraymath" not in sys.modules:
                    self.hidden = [h for h in map(_to_hide, HIDDEN) if h is not None]
                    for name in self.hidden:
                        sys.modules[name] = None  # `import name` raises ImportError: numba goes without it
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth == 0:
                    for name in self.hidden:
                        if sys.modules.get(name, 0) is None:
                            del sys.modules[name]
                    self.hidden = []
                    # set up now: nothing more to hide (the listener stays registered, idle:
                    # numba is broadcasting to its list at this moment)
                    self.done = "numba.np.arraymath" in sys.modules


_LEAN = []  # the listener, once registered


def lean_numba_setup():
    """Let numba's one-time compiler setup, whenever it comes (the first kernel compiled or loaded
    from the cache in this process; a command whose work runs on numpy never pays it), happen with
    scipy.linalg and cffi hidden, when neither the setup nor those packages has been loaded yet."""
    if "numba.np.arraymath" in sys.modules or _LEAN:  # set up already (its registries import it)
        return
    from numba.core import event

    _LEAN.append(_lean_listener())
    event.register("numba:compiler_lock", _LEAN[0])
    _lean_cache_loads()


def _lean_cache_loads():
    """Load kernels from numba's cache without setting numba's compiler up.

    Before each load from its cache numba refreshes its target context: it imports and installs
    every typing and lowering registry of its compiler (0.2-0.4 s of CPU, more than the loads of
    all the kernels of a command together). A compiled kernel needs none of them: its machine code
    is linked against numba's runtime (NRT) and its helpers only, and a kernel of ``parallel=True``
    starts the threading layer itself when it is loaded. So the program's loads initialize the
    runtime and leave the registries alone; a compile (a cache miss) refreshes the context as
    always (numba's compiler does so before every compile), so nothing that compiles goes without
    them. Uses numba's cache objects, which are not a public API: where they differ from what is
    expected here, numba's own load stays.
    """
    try:
        from numba.core.caching import Cache
        from numba.core.runtime import rtsys
    except ImportError:  # another numba's layout
        return
    full = Cache.__dict__.get("load_overload")
    if full is None or getattr(full, "_graphmine_lean", False) or not hasattr(Cache, "_load_overload") \
            or not hasattr(Cache, "_guard_against_spurious_io_errors"):
        return

    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)  # the runtime the kernels call (once per process)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        # None when the guard swallows an error: numba then compiles, and refreshes first

    load_overload._graphmine_lean = True
    load_overload.__doc__ = full.__doc__
    Cache.load_overload = load_overload
    _defer_extensions()


def _defer_extensions():
    """Leave numba's extensions (the ``numba_extensions`` entry points of installed packages) to
    its compiler setup. Before a kernel's first call numba looks them up, which reads the metadata
    of every installed distribution (60 ms of CPU with 177 of them on the 2-core machine); they
    add types and implementations for the compiler, which a kernel loaded from the cache and
    called with arrays and numbers does not use, and the setup before any compile initializes
    them as before (numba's CPU context calls the same ``init_all`` when it refreshes)."""
    try:
        from numba.core import dispatcher, entrypoints
    except ImportError:
        return
    base = getattr(dispatcher, "_DispatcherBase", None)
    hook = getattr(base, "_compilation_chain_init_hook", None) if base is not None else None
    if hook is None or getattr(hook, "_graphmine_lean", False) or not hasattr(entrypoints, "init_all"):
        return

    def _compilation_chain_init_hook(self):
        pass  # entrypoints.init_all() runs with the compiler's setup (CPUContext.refresh)

    _compilation_chain_init_hook._graphmine_lean = True
    base._compilation_chain_init_hook = _compilation_chain_init_hook


def lean_cache_loads():
    """Whether this process loads kernels from numba's cache without numba's compiler setup
    (:func:`lean_numba_setup` made it so).

    Examples
    --------
    >>> lean_cache_loads() in (True, False)
    True
    """
    if not _LEAN:
        return False
    from numba.core.caching import Cache

    return getattr(Cache.__dict__.get("load_overload"), "_graphmine_lean", False)


def quick_exit(status, *, cleanup=True):
    """Exit the process with ``status`` after flushing the streams, shutting logging down and
    running the atexit handlers, skipping the interpreter's teardown. ``cleanup=False`` skips
    the atexit handlers too (after Ctrl-C: a Dask cluster's handler would try a graceful close
    of workers in mid-task, and print their tracebacks; the workers end with this process)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    if cleanup:
        logging.shutdown()
        atexit._run_exitfuncs()
    os._exit(status if isinstance(status, int) else 1)


def load_cached_kernels(kernels, keep=None):
    """Load into this process every signature of the numba ``kernels`` (``@njit`` functions called
    from Python) that numba's cache holds for this source and this CPU, compiling nothing:
    (kernels loaded, signatures loaded).

    A kernel's first call in a process finds its compiled code in numba's cache (10-50 ms each,
    more for parallel kernels); a Dask worker pays that in its first tasks, one kernel after the
    other. Called when a worker starts, the loads happen before any task arrives. The cache's
    index names the signatures held (the same key numba checks on a call: this numba, this CPU,
    the function's bytecode); a kernel with no fresh entry is left to compile on first use. Uses
    numba's cache objects, which are not a public API: where they differ, nothing is loaded.
    ``keep``, a predicate on a signature's argument types, chooses among the signatures held
    (default: every one).
    """
    loaded = sigs = 0
    for disp in kernels:
        try:
            cache = disp._cache
            index = cache._cache_file._load_index()
            codegen = disp.targetctx.codegen()
            magic = codegen.magic_tuple()
            fresh = [key[0] for key in index if key[1] == magic and
                     key[2] == cache._index_key(key[0], codegen)[2] and (keep is None or keep(key[0]))]
        except (AttributeError, TypeError, IndexError, OSError):  # no cache, or another numba's layout
            continue
        done = 0
        for sig in fresh:
            if sig not in disp.overloads:
                disp.compile(sig)  # found in the cache: a load, not a compile
                done += 1
        loaded += done > 0
        sigs += done
    return loaded, sigs


def in_background(work, name):
    """Start a daemon thread that runs ``work()``; an error in it is dropped, since the caller's own
    later call (a count, a kernel call) meets it again and reports it.

    Parameters
    ----------
    work : callable
        Called with no arguments on the new thread.
    name : str
        The thread's name.

    Returns
    -------
    threading.Thread
        The started thread; ``join()`` waits for ``work``.

    Examples
    --------
    >>> in_background(lambda: None, "example").join()
    """
    import threading

    def run():
        try:
            work()
        except Exception:  # noqa: BLE001 - the caller's own call says what fails
            pass

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


def preload(kernels, keep=None):
    """Start a thread (a daemon, :func:`in_background`) that loads, with :func:`load_cached_kernels`,
    the numba kernels that ``kernels()`` returns (it imports their modules, on that thread too), the
    signatures that ``keep`` accepts (default: all those held). Nothing is compiled;
    a kernel call that comes while its load is under way waits for it (numba's compiler lock).
    Errors are left to the kernels' callers, which meet them again.

    Examples
    --------
    >>> preload(lambda: []).join()
    """
    def work():
        # numba types an array argument in Python the first time it meets its kind, and that
        # first typeof imports numpy.ma (about 30 ms of CPU; facebook_combined's 4-clique count
        # itself takes 20 ms): here it overlaps the read instead of delaying the count
        import numpy.ma  # noqa: F401

        load_cached_kernels(kernels(), keep)

    return in_background(work, "graphmine-preload")
