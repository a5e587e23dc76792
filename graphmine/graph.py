"""Moved to :mod:`graphmine.core.graph`; this alias goes in the next release."""
# graphmine-moved-module: an alias of its new home, not collected by the tests

from .core import graph as _new
from ._moved import replace

replace(__name__, _new)
