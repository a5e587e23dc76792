"""Every file graphmine writes goes through here: paths are checked before the work starts, and
data is written to a temporary file in the same folder that replaces the target only when
complete (a failed write leaves neither a partial file nor a temporary one behind).

The check creates and removes a file in the target's folder: ``os.access`` says yes to root on
``/proc`` or ``/sys`` and knows nothing of read-only mounts, full disks or quotas. Any OSError
while writing becomes one :class:`~graphmine.core.exceptions.OutputPathError` naming the path and the
reason.
"""

import contextlib
import os
import shutil
import sys
import tempfile
import threading

from ..core.exceptions import OutputExistsError, OutputPathError, ParameterError, warn_at_caller

__all__ = ["remove_temporary_files", "track_temporary", "untrack_temporary", "check_output_path", "atomic_write",
           "force_or_overwrite", "silence_stdout", "begin_delivery", "reset_delivery", "claim_interrupt",
           "DeliveringStream", "write_partial", "set_interrupt_report", "print_interrupt_report"]


def check_output_path(path, force=False, *, flag="--force"):
    """Check that ``path`` can be written, before any work is done; return it as a str.

    Raises :class:`~graphmine.core.exceptions.OutputPathError` if the path is a directory, its folder
    does not exist or is not writable, or the file exists and ``force`` is false (``flag`` names
    the option that allows replacing it).

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> check_output_path(os.path.join(d, "out.tsv")) == os.path.join(d, "out.tsv")
    True
    >>> check_output_path(os.path.join(d, "missing", "out.tsv"))
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.OutputPathError: .../missing/out.tsv: the folder .../missing does not exist
    """
    path = os.fspath(path)
    if not path:
        raise OutputPathError("the output path is empty")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise OutputPathError(f"{path}: is a directory, expected a file path")
    if not os.path.isdir(folder):
        raise OutputPathError(f"{path}: the folder {os.path.dirname(path) or folder} does not exist")
    if os.path.lexists(path) and not force:
        raise OutputExistsError(f"{path} exists; pass {flag} to replace it")
    # prove the folder writable the way the write will use it: create a file there, remove it
    try:
        fd, probe = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputPathError(f"{path}: cannot create a file in {folder}: {_reason(exc)}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.remove(probe)
    return path


def force_or_overwrite(force, overwrite, function):
    """The ``force`` of a writer that also takes ``overwrite``, its deprecated old name.

    ``force`` is graphmine's one keyword for replacing an existing file (``--force`` on the
    command line); ``overwrite=`` still works for one release, with a :class:`DeprecationWarning`
    naming ``force`` (attributed to the caller's line). ``overwrite`` is None when not given.

    Examples
    --------
    >>> import warnings
    >>> force_or_overwrite(True, None, "write_edgelist")
    True
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     force_or_overwrite(False, True, "write_edgelist")
    True
    >>> print(seen[0].message)
    write_edgelist: overwrite= is deprecated and will be removed in the next release; use force= instead
    """
    if overwrite is None:
        return bool(force)
    if force:
        raise ParameterError(f"{function}: give force= only (overwrite= is its deprecated old name)")
    warn_at_caller(f"{function}: overwrite= is deprecated and will be removed in the next release; use force= "
                   "instead", DeprecationWarning)
    return bool(overwrite)


def _reason(exc):
    """The OS's words for ``exc`` ('No space left on device')."""
    return exc.strerror or str(exc)


@contextlib.contextmanager
def atomic_write(path, mode="wb", *, force=False, flag="--force", **open_kwargs):
    """Open a temporary file beside ``path`` for writing; on success it replaces ``path``.

    The temporary file is created by :mod:`tempfile` in the target's folder (so the final
    :func:`os.replace` is atomic and never clobbers another file); on any error it is removed and
    ``path`` is left untouched. ``force`` as in :func:`check_output_path`, checked again at the end.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "x.txt")
    >>> with atomic_write(p, "w") as fh:
    ...     _ = fh.write("hello")
    >>> open(p).read()
    'hello'
    """
    path = check_output_path(path, force, flag=flag)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputPathError(f"{path}: cannot create a file in {folder}: {_reason(exc)}") from None
    _TEMPORARY.add(tmp)
    try:
        with os.fdopen(fd, mode, **open_kwargs) as fh:
            yield fh
        if os.path.lexists(path) and not force:
            raise OutputExistsError(f"{path} appeared while it was being written; pass {flag} to replace it")
        # mkstemp creates 0600; give the file the permissions a plain open() would
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        begin_delivery()
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, OutputPathError):
            raise OutputPathError(f"{path}: cannot write the file: {_reason(exc)}") from None
        raise
    finally:
        _TEMPORARY.discard(tmp)


# the temporary files being written now: a program interrupted mid-write removes them on its way
# out (it exits without unwinding the thread that writes)
_TEMPORARY = set()


def remove_temporary_files():
    """Remove the temporary files of writes still in progress and the scratch folders still in use
    (the ``graphmine`` program's exit on Ctrl-C)."""
    for tmp in list(_TEMPORARY):
        with contextlib.suppress(OSError):
            if os.path.isdir(tmp) and not os.path.islink(tmp):
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                os.remove(tmp)


def track_temporary(path):
    """Have the program's exit on Ctrl-C remove ``path`` (a file or a scratch folder) unless
    :func:`untrack_temporary` is called first."""
    _TEMPORARY.add(path)


def untrack_temporary(path):
    """Forget a path given to :func:`track_temporary` (it was removed, or is kept)."""
    _TEMPORARY.discard(path)


def silence_stdout():
    """Point standard output at the null device: the reader of a pipe went away (``| head``),
    and the flush at exit must not fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


# The program's commit point. A Ctrl-C before a command starts to deliver its results ends it
# with nothing written; once it replaces an output file or prints a result line, the results are
# complete, and a Ctrl-C arriving in the microseconds before the process exits must not end it
# half-delivered (the file in place, "interrupted" printed, status 130). The lock makes the two
# exclusive: the program's handler claims it and exits holding it, or finds delivery begun.
_delivery = threading.RLock()  # re-entrant: the handler may run on a thread inside begin_delivery
_delivering = False


def begin_delivery():
    """Mark that the running command delivers its results from now on (see :func:`claim_interrupt`)."""
    global _delivering
    with _delivery:
        _delivering = True


def reset_delivery():
    """A new command starts: nothing delivered yet."""
    global _delivering
    with _delivery:
        _delivering = False
        _REPORT.clear()


# A command that prints partial results as it goes (graphmine stream-triangles: an estimate every
# N events of a stream that may never end) writes them with write_partial, which does not begin
# delivery: Ctrl-C still ends it, and the program's way out then prints the command's last
# partial result, set by set_interrupt_report.
_REPORT = []  # the text to print if the running command is interrupted now (at most one)


def _raw_stdout():
    out = sys.stdout
    return out._stream if isinstance(out, DeliveringStream) else out


def write_partial(text):
    """Print a line of partial results on standard output without beginning delivery (a Ctrl-C
    still ends the command), and flush it."""
    out = _raw_stdout()
    if out is not None:
        out.write(text + "\n")
        out.flush()


def set_interrupt_report(text):
    """The running command's last partial result, printed if it is interrupted (None: nothing)."""
    _REPORT[:] = [] if text is None else [text]


def print_interrupt_report():
    """Print the interrupted command's last partial result, if it set one (the program's way out
    on Ctrl-C)."""
    if _REPORT:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            write_partial(_REPORT[0])


def claim_interrupt():
    """For the ``graphmine`` program's Ctrl-C handler: True if the command has delivered nothing
    (the lock is then kept: the process ends without delivering), False if delivery has begun (the
    command finishes and the signal is ignored)."""
    _delivery.acquire()
    if _delivering:
        _delivery.release()
        return False
    return True


class DeliveringStream:
    """Standard output of the ``graphmine`` program: its first write begins delivery (commands
    print only their results there; progress and warnings go to standard error)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        if text:
            begin_delivery()
        return self._stream.write(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self._stream, name)
