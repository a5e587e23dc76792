"""pytest's settings for the whole repository (the tests' own fixtures are in tests/conftest.py)."""

import os

# the old flat layout's modules are aliases of their new homes (graphmine/_moved.py): their doctests
# are collected once, from the new homes
_HERE = os.path.dirname(os.path.abspath(__file__))
collect_ignore = [os.path.join("graphmine", f) for f in sorted(os.listdir(os.path.join(_HERE, "graphmine")))
                  if f.endswith(".py") and "graphmine-moved-module" in open(os.path.join(_HERE, "graphmine", f),
                                                                        encoding="utf-8").read(400)]
