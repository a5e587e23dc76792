"""Device helpers every family's CUDA kernels share: a binary search compiled for the device from
the CPU's, and the sources of the arcs of an oriented CSR.

Kernels never validate and never raise.
"""

from numba import cuda

from .._primitives.setops import lower_bound

# the first position of lo..hi-1 of a sorted array holding a value >= x: the CPU's search, compiled
# for the device from the same Python function
_lower_bound = cuda.jit(device=True, inline=True)(lower_bound.py_func)


@cuda.jit(cache=True)
def _arc_sources(optr, src):
    """src[j] = u for every arc j of N+(u) (one thread per arc, binary search of optr)."""
    m = src.shape[0]
    n = optr.shape[0] - 1
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        lo = 0
        hi = n
        while hi - lo > 1:  # the last u with optr[u] <= j
            mid = (lo + hi) >> 1
            if optr[mid] <= j:
                lo = mid
            else:
                hi = mid
        src[j] = lo
