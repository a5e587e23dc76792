"""Progress bars of graphmine: tqdm on stderr, shown only where asked and only when stderr is a
terminal (tqdm's ``disable=None``), so logs and pipes stay clean."""

import sys

from .optional import require

__all__ = ["progress_bar"]


class _NoBar:
    """Stands in for a bar when none is asked for (needs no tqdm)."""

    disable = True

    def update(self, n=1):
        pass

    def set_postfix_str(self, s=""):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def progress_bar(enabled, total, desc, unit="it", scale=False, **options):
    """A tqdm bar on stderr if ``enabled`` and stderr is a terminal, else an inert stand-in.

    ``scale``: show counts with SI prefixes (for large counts such as pairs); further keywords go
    to tqdm (``bar_format``, ...).

    Examples
    --------
    >>> with progress_bar(False, 10, "work") as bar:
    ...     bar.update(10)
    >>> bar.disable
    True
    """
    if not enabled:
        return _NoBar()
    tqdm = require("tqdm", what="the progress bar").tqdm
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=None, leave=False,
                dynamic_ncols=True, unit_scale=scale, **options)
