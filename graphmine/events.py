"""Moved to :mod:`graphmine.io.events`; this alias goes in the next release."""
# graphmine-moved-module: an alias of its new home, not collected by the tests

from .io import events as _new
from ._moved import replace

replace(__name__, _new)
