"""Moved: the families' functions are in their folders and offered as ``graphmine.<name>``; this
alias of :mod:`graphmine` goes in the next release."""
# graphmine-moved-module: an alias of its new home, not collected by the tests

import graphmine as _new

from ._moved import replace

replace(__name__, _new)
