"""Refuse allocations that cannot be sensible, with a message giving the size, before making them."""

import os

from ..core.exceptions import ResourceLimitError

__all__ = ["physical_memory", "check_allocation", "format_bytes"]


def physical_memory():
    """Bytes of physical memory of this machine (None where the platform does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def format_bytes(n):
    """``1536`` -> ``'1.5 KiB'``.

    Examples
    --------
    >>> format_bytes(3 * 2**30)
    '3.0 GiB'
    """
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def check_allocation(nbytes, what, hint=""):
    """Raise :class:`~graphmine.core.exceptions.ResourceLimitError` if ``nbytes`` exceed physical memory.

    ``what`` says what the memory is for; ``hint`` how to avoid it. The limit can be changed with
    the environment variable ``GRAPHMINE_MAX_BYTES`` (bytes).
    """
    limit = os.environ.get("GRAPHMINE_MAX_BYTES")
    limit = int(limit) if limit else physical_memory()
    if limit is not None and nbytes > limit:
        msg = f"{what} would need {format_bytes(nbytes)}, more than the {format_bytes(limit)} of memory here"
        raise ResourceLimitError(msg + (f"; {hint}" if hint else ""))
