"""Every file graphmine writes goes through here: paths are checked before the work starts, and
data is written to a temporary file in the same folder that replaces the target only when
complete (a failed write leaves neither a partial file nor a temporary one behind)."""

import contextlib
import os
import tempfile

from .exceptions import OutputExistsError, OutputPathError

__all__ = ["check_output_path", "atomic_write"]


def check_output_path(path, force=False, *, flag="--force"):
    """Check that ``path`` can be written, before any work is done; return it as a str.

    Raises :class:`~graphmine.exceptions.OutputPathError` if the path is a directory, its folder
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
    graphmine.exceptions.OutputPathError: .../missing/out.tsv: the folder .../missing does not exist
    """
    path = os.fspath(path)
    if not path:
        raise OutputPathError("the output path is empty")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise OutputPathError(f"{path}: is a directory, expected a file path")
    if not os.path.isdir(folder):
        raise OutputPathError(f"{path}: the folder {os.path.dirname(path) or folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(f"{path}: the folder {folder} is not writable")
    if os.path.lexists(path) and not force:
        raise OutputExistsError(f"{path} exists; pass {flag} to replace it")
    return path


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
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, mode, **open_kwargs) as fh:
            yield fh
        if os.path.lexists(path) and not force:
            raise OutputExistsError(f"{path} appeared while it was being written; pass {flag} to replace it")
        # mkstemp creates 0600; give the file the permissions a plain open() would
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
