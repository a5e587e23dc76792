"""Progress bars (graphmine's, tqdm on stderr) and the command line's log handler for Science4Cast.

A bar is shown only where asked (``progress=True``) and only when stderr is a terminal (tqdm's
``disable=None``), so logs and pipes stay clean; stage messages go to the ``logging`` logger
``graphmine.science4cast``, which the command line prints on stderr unless ``--quiet``.
"""

import contextlib
import logging
import sys

from .._runtime.optional import require
from .._runtime.progress import progress_bar

__all__ = ["LOGGER_NAME", "progress_bar", "log_to_stderr"]

LOGGER_NAME = "graphmine.science4cast"


class _StderrHandler(logging.Handler):
    """Writes each record as one line on the current ``sys.stderr``, above any progress bar."""

    def emit(self, record):
        try:
            msg = self.format(record)
            try:
                tqdm = require("tqdm").tqdm
            except ImportError:
                print(msg, file=sys.stderr, flush=True)
            else:
                tqdm.write(msg, file=sys.stderr)
                sys.stderr.flush()
        except Exception:  # noqa: BLE001 - logging's contract: never raise from emit
            self.handleError(record)


@contextlib.contextmanager
def log_to_stderr(enabled=True):
    """While active, print the ``graphmine.science4cast`` logger's INFO messages on stderr.

    The logger's level, propagation and handlers are restored afterwards (a command run inside
    a larger program leaves its logging set-up as it was).
    """
    if not enabled:
        yield
        return
    logger = logging.getLogger(LOGGER_NAME)
    handler = _StderrHandler(logging.INFO)
    handler.setFormatter(logging.Formatter("%(message)s"))
    level, propagate = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False   # the message is printed here; not again by a root handler
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate
