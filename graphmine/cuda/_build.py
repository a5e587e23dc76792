"""The degree-ordered oriented CSR built on the GPU from a graph's host CSR.

One copy of the host CSR (``indptr``, ``indices``) to the device, then ranks, orientation,
relabelling and row sorting there (:mod:`graphmine.cuda._build_kernels`); what comes back to the
host is the oriented row pointers (n + 1 integers, for the drivers' host-side choices). The result
equals :meth:`graphmine.Graph.oriented` ('degree', relabel=True) array for array.

For the k-clique kernels the same steps orient by an approximate degeneracy order instead
(:func:`orient_peeled`: rounds of peeling on the device, as ArbCount orders on the CPU), which the
host's exact degeneracy order (a sequential peel) would otherwise have to provide.

The two sorts are the kernels' own radix sort, or CuPy's (``cupy.sort``, CUB's radix sort) with
``GRAPHMINE_CUDA_SORT=cupy``; docs/gpu.md has the measurements.
"""

import math
import os

import numpy as np

from ..core.graph import APPROX_DEGENERACY_EPS

__all__ = ["device_scan", "device_sort", "orient_degree", "orient_peeled", "build_bytes", "sort_backend",
           "PEEL_EPS"]


def _sim():
    from numba.core import config

    return bool(config.ENABLE_CUDASIM)


def _threads():
    return 32 if _sim() else 256


def _grid(items, per_block, cap=1 << 20):
    if _sim():
        cap = 2
    return max(1, min(cap, math.ceil(items / per_block)))


def _tiles(m):
    from . import _build_kernels as BK

    return max(1, math.ceil(m / (_threads() * BK.ITEMS)))


def device_scan(a, m, out=None):
    """Exclusive prefix sums of the int64 device array a[0:m], into ``out`` (default: in place).

    Examples
    --------
    >>> import numpy as np, graphmine.cuda as gc
    >>> if gc.is_available():
    ...     from numba import cuda
    ...     list(device_scan(cuda.to_device(np.array([3, 1, 2, 0])), 4).copy_to_host())
    ... else:
    ...     [0, 3, 4, 6]
    [0, 3, 4, 6]
    """
    from . import _build_kernels as BK

    from numba import cuda

    out = a if out is None else out
    if m == 0:
        return out
    T = _threads()
    nb = _tiles(m)
    sums = cuda.device_array(nb, np.int64)
    BK._tile_sums[nb, T](a, m, sums)
    BK._scan_top[1, T](sums, nb)
    BK._tile_scan[nb, T](a, m, sums, out)
    return out


def sort_backend():
    """'numba' (the radix sort of :mod:`graphmine.cuda._build_kernels`), or 'cupy' when
    GRAPHMINE_CUDA_SORT=cupy asks for it (on a real GPU). CuPy's sort builds Kronecker 22's
    orientation 55 ms faster, but importing CuPy costs more than that in a fresh process
    (docs/gpu.md)."""
    want = os.environ.get("GRAPHMINE_CUDA_SORT", "numba")
    if want != "cupy" or _sim():
        return "numba"
    try:
        import cupy  # noqa: F401
    except Exception:
        if want == "cupy":
            from ..core.exceptions import MissingDependencyError

            raise MissingDependencyError("GRAPHMINE_CUDA_SORT=cupy needs CuPy, which is not installed") from None
        return "numba"
    return "cupy"


def device_sort(keys, m, bits, scratch=None):
    """Sort the non-negative int64 keys[0:m] (all below 2**bits); returns the sorted device array
    (``keys`` or ``scratch``, or a new array from CuPy)."""
    from . import _build_kernels as BK

    from numba import cuda

    if m <= 1:
        return keys
    if sort_backend() == "cupy":
        import cupy

        out = cupy.sort(cupy.asarray(keys)[:m])
        return cuda.as_cuda_array(out)
    T = _threads()
    nb = _tiles(m)
    hist = cuda.device_array(BK.RADIX * nb, np.int64)
    a = keys
    b = cuda.device_array(m, np.int64) if scratch is None else scratch
    for shift in range(0, bits, BK.RADIX_BITS):
        BK._radix_hist[nb, T](a, m, shift, hist, nb)
        device_scan(hist, BK.RADIX * nb)
        BK._radix_scatter[nb, T](a, m, shift, hist, nb, b)
        a, b = b, a
    return a


def build_bytes(n, nnz, m_out):
    """Device bytes the build needs at its peak (the host CSR, degrees, levels, keys and their
    sort scratch)."""
    idx = 4 if n < 2**31 else 8
    return 8 * (n + 1) + idx * nnz + 8 * (n + 1) * 5 + 16 * max(m_out, n) + idx * m_out


# the approximate degeneracy order's slack, the CPU's (Graph.oriented('approx-degeneracy')): a
# round removes every vertex of degree at most (1 + PEEL_EPS) times the average, so out-degrees
# stay below 2 (1 + PEEL_EPS) times the degeneracy, in O(log n / PEEL_EPS) rounds
PEEL_EPS = APPROX_DEGENERACY_EPS


def orient_degree(indptr, indices):
    """(optr, oind, rank) on the device: the degree-ordered oriented CSR relabelled by rank,
    from the host CSR of an undirected graph. The caller checks :func:`build_bytes` against the
    free memory (graphmine.cuda._device.device_graph)."""
    return _orient(indptr, indices, None)[:3]


def orient_peeled(indptr, indices, eps=PEEL_EPS):
    """(optr, oind, rank, rounds) on the device: the CSR oriented by an approximate degeneracy
    order, built there by rounds of peeling (:mod:`graphmine.cuda._build_kernels`); every
    out-degree is at most 2 (1 + eps) times the degeneracy. For the k-clique kernels, whose
    scratch grows with the largest out-degree; the counts do not depend on the order."""
    return _orient(indptr, indices, eps)


def _peel_levels(dptr, dind, deg, n, eps):
    """(level, rounds): the round in which each vertex leaves the graph (``deg`` is consumed)."""
    from numba import cuda

    from . import _build_kernels as BK

    T = _threads()
    level = cuda.to_device(np.full(max(n, 1), -1, np.int64))
    sums = cuda.device_array(2, np.int64)
    zero = np.zeros(2, np.int64)
    g = _grid(n, T)
    r = 0
    while True:
        sums.copy_to_device(zero)
        BK._remaining_degree_sums[g, T](level[:n], deg, sums)
        total, alive = (int(x) for x in sums.copy_to_host())
        if alive == 0:
            return level, r
        BK._peel_round[g, T](level[:n], deg, r, (1.0 + eps) * total / alive)
        BK._peel_neighbours[g, T](dptr, dind, level[:n], deg, r)
        r += 1


def _orient(indptr, indices, eps):
    """(optr, oind, rank, rounds): the degree order (``eps`` None; rounds None) or the peeled one."""
    from numba import cuda

    from . import _build_kernels as BK

    n = indptr.shape[0] - 1
    nnz = indices.shape[0]
    m_out = nnz // 2
    itype = np.int32 if n < 2**31 else np.int64
    bits = max(1, int(n - 1).bit_length()) if n > 1 else 1
    mask = (1 << bits) - 1
    T = _threads()
    dptr = cuda.to_device(np.ascontiguousarray(indptr, dtype=np.int64))
    dind = cuda.to_device(np.ascontiguousarray(indices))
    rank = cuda.device_array(max(n, 1), itype)
    optr = cuda.device_array(n + 1, np.int64)
    if n == 0:
        optr.copy_to_device(np.zeros(1, np.int64))
        return optr, cuda.device_array(1, itype), rank, (None if eps is None else 0)
    # ranks: sort deg << bits | v (degrees < n, so 2 * bits bits), or level << bits | v
    keys = cuda.device_array(max(n, m_out), np.int64)
    scratch = cuda.device_array(max(n, m_out), np.int64)
    deg = cuda.device_array(n, np.int64)
    BK._degrees[_grid(n, T), T](dptr, deg)
    rounds = None
    if eps is None:
        BK._keys_with_ids[_grid(n, T), T](deg, bits, keys[:n])
        s = device_sort(keys, n, 2 * bits, scratch)
    else:
        level, rounds = _peel_levels(dptr, dind, deg, n, eps)
        BK._keys_with_ids[_grid(n, T), T](level[:n], bits, keys[:n])
        s = device_sort(keys, n, bits + max(1, int(rounds).bit_length()), scratch)
        del level
    del deg
    BK._ranks[_grid(n, T), T](s, mask, rank[:n])
    # out-degrees (per vertex and per rank), row starts of the unsorted arcs, and optr
    odeg = cuda.device_array(n + 1, np.int64)
    BK._out_degrees[_grid(n, T), T](dptr, dind, rank[:n], odeg[:n], optr[:n])
    odeg[n:].copy_to_device(np.zeros(1, np.int64))
    optr[n:].copy_to_device(np.zeros(1, np.int64))
    device_scan(odeg, n + 1)
    device_scan(optr, n + 1)
    oind = cuda.device_array(max(m_out, 1), itype)
    if m_out:
        BK._arc_keys[_grid(n, T), T](dptr, dind, rank[:n], odeg, bits, keys)
        del dind, dptr, odeg
        s = device_sort(keys, m_out, 2 * bits, scratch)
        BK._low_ids[_grid(m_out, T), T](s, mask, oind)
    return optr, oind, rank, rounds
