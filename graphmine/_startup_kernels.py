"""The kernel whose first call makes numba set its compiler up (see graphmine/_startup.py)."""

from numba import njit

__all__ = ["first_call"]


@njit(cache=True)
def first_call(x):
    return x + 1
