"""The kernel whose first call makes numba set its compiler up (see graphmine/_startup.py)."""

from numba import njit


@njit(cache=True)
def _first_call(x):
    return x + 1
