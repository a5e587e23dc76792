"""Exact triangle counts of graphs larger than the GPU's memory: the oriented CSR streamed
through the device in row blocks.

The rows of the degree-oriented CSR (ids relabelled by rank, built on the CPU) are cut into p
ranges R_0 < R_1 < ... of about equal arc counts. A triangle u < v < w is found from the arc
u -> v, N+(u) and N+(v); u lies in some R_a and v in some R_b with a <= b, and the rows of u and v
hold every w. So the count is the sum over the p (p + 1) / 2 pairs a <= b of the triangles on
the arcs from R_a to R_b, counted with only the rows of R_a and R_b on the device (a pair's CSR
keeps the global ids: rows outside the two ranges are empty). Each pair runs the unpartitioned
kernels (bins, hubs) restricted to its arcs; block a stays on the device while b runs over
p - 1, ..., a + 1, a, and block a + 1, left by the last of those pairs, moves to the front on
the device for the next a: the host sends p (p + 1) / 2 - (p - 1) blocks; the kernels visit only
block a's arcs (those that can count) and read both blocks' rows.
"""

import numpy as np

from ..core.exceptions import ResourceLimitError
from .._runtime.limits import format_bytes
from ..cuda.launch import DeviceGraph, cuda_module, device_memory as _gpu_limit

__all__ = ["plan", "count_triangles", "count_partitioned", "fits_unpartitioned"]

MAX_PARTS = 4096


def _bounds(indptr, p):
    """Row ranges (vertex ids) R_0 .. R_{p-1}: cuts of about m / p arcs each."""
    n = indptr.shape[0] - 1
    m = int(indptr[-1])
    cuts = np.searchsorted(indptr, np.linspace(0, m, p + 1)[1:-1], side="left")
    return np.unique(np.concatenate([[0], np.clip(cuts, 0, n), [n]])).astype(np.int64)


def _pair_bytes(indptr, bounds, itemsize):
    """The largest pair's device bytes (arcs of both blocks, their sources, the bin lists) and
    the fixed part (row pointers: the full and the pair's)."""
    sizes = np.diff(indptr[bounds])
    top2 = np.sort(sizes)[-2:].sum() if sizes.size > 1 else sizes.sum()
    return int(3 * itemsize * top2), 16 * indptr.shape[0]


def plan(indptr, itemsize, free, parts=None):
    """Row ranges for a partitioned count that fits in ``free`` bytes (or of ``parts`` ranges)."""
    n = indptr.shape[0] - 1
    if parts is not None:
        return _bounds(indptr, max(1, min(int(parts), max(n, 1))))
    p = 1
    while True:
        bounds = _bounds(indptr, p)
        var, fixed = _pair_bytes(indptr, bounds, itemsize)
        if free is None or var + fixed <= free:
            return bounds
        if p >= min(MAX_PARTS, max(n, 1)):
            raise ResourceLimitError(f"a partitioned count of {n:,} vertices and {int(indptr[-1]):,} arcs needs at "
                                     f"least {format_bytes(var + fixed)} of GPU memory, but only "
                                     f"{format_bytes(free)} is free; use device='cpu'")
        p = p + 1 if p < 16 else 2 * p  # the fewest ranges: every count up to 16, then doublings


def fits_unpartitioned(G):
    """Whether the unpartitioned triangle count of ``G`` fits the free GPU memory: the oriented
    CSR, the arc sources and the bins' arc lists (a graph already on the device does)."""
    if "degree" in G.__dict__.get("_cuda", {}):
        return True
    free, _ = _gpu_limit()
    return free is None or 8 * (G.n_nodes + 1) + 3 * G.indices.dtype.itemsize * G.n_edges <= free


def _pair_view(pptr, buf, src, n, lo_a, hi_a, lo_b, hi_b, m_pair, m_a, hptr):
    """The DeviceGraph of pair (a, b): global ids, rows of R_a then R_b in ``buf``. The arcs that
    can count are those of R_a's rows, the first m_a: the kernels visit those (``src`` has m_a
    entries, ``m`` is m_a) and read the rows of both blocks."""
    DG = DeviceGraph.__new__(DeviceGraph)
    DG.n, DG.m = n, m_a
    DG.hptr = hptr
    DG.optr, DG.oind = pptr, buf[:max(m_pair, 1)]
    DG._rank = None
    DG.rows, DG.cols = (lo_a, hi_a), (lo_b, hi_b)
    DG.built_on = "host"
    DG.extra = {"src": src[:max(m_a, 1)]}
    return DG


def count_triangles(G, order, threads, parts=None, timings=None, **launch):
    """Exact triangles of ``G`` on the GPU: the whole oriented CSR on the device when it fits the
    free memory (:func:`graphmine.cliques._cuda_launch.count_triangles`), else (or with ``parts`` given)
    streamed in row blocks (:func:`count_partitioned`)."""
    from ._cuda_launch import count_triangles as whole

    if parts is None and (order != "degree" or fits_unpartitioned(G)):
        try:
            return whole(G, order, threads, timings=timings, **launch)
        except ResourceLimitError:
            if "_cuda" in G.__dict__:
                G._cuda.pop(order, None)
    return count_partitioned(G, order, threads, parts=parts, timings=timings, **launch)


def _move_left(buf, src, dst, length):
    """buf[dst:dst + length] = buf[src:src + length] on the device, dst < src (regions may
    overlap: copied in chunks of src - dst elements, front to back)."""
    g = src - dst
    off = 0
    while off < length:
        c = min(g, length - off)
        buf[dst + off:dst + off + c].copy_to_device(buf[src + off:src + off + c])
        off += c


def count_partitioned(G, order, threads, parts=None, timings=None, blocks=None, **launch):
    """Exact triangles of ``G`` streamed through the GPU in row blocks (see the module).

    ``parts`` forces the number of row ranges; by default the fewest whose largest pair fits the
    free memory (``GRAPHMINE_GPU_MAX_BYTES`` caps it). ``blocks``: count only the pairs (a, b)
    whose first block a is listed (a share of the work, :mod:`graphmine.cliques._cuda_multi`; all by
    default). ``timings`` (a dict) receives 'parts', 'pairs', 'copies' (host-to-device block
    copies) and 'seconds'; ``launch`` goes to :func:`graphmine.cliques._cuda_launch.triangle_launch`
    (bins, hubs).

    For each a the pairs run b = p - 1 down to a + 1, then (a, a): the last pair leaves block
    a + 1 on the device right after block a, and when a + 1 is the next first block it is moved
    to the front on the device instead of being sent again (p - 1 fewer copies over the bus).
    The arc sources of block a are built once for all its pairs (a's rows come first in every
    pair's CSR).
    """
    import time

    from . import _cuda_kernels as K
    from ._cuda_launch import _grid, triangle_launch

    cuda = cuda_module()
    t0 = time.perf_counter()
    O = G.oriented(order, relabel=True, threads=threads)
    indptr, indices = O.indptr, O.indices
    n = indptr.shape[0] - 1
    free, _ = _gpu_limit()
    bounds = plan(indptr, indices.dtype.itemsize, free, parts)
    p = bounds.shape[0] - 1
    sizes = np.diff(indptr[bounds])
    cap = int(np.sort(sizes)[-2:].sum()) if p > 1 else int(sizes.sum())
    dptr = cuda.to_device(np.ascontiguousarray(indptr, np.int64))
    pptr = cuda.device_array(n + 1, np.int64)
    buf = cuda.device_array(max(cap, 1), indices.dtype)
    src = cuda.device_array(max(cap, 1), np.int32 if n < 2**31 else np.int64)
    from ._cuda_launch import block_size

    B = block_size()
    total = 0
    pairs = 0
    copies = 0
    after = None  # (block, offset) left on the device after block a by the last pair
    firsts = range(p) if blocks is None else sorted({int(a) for a in blocks if 0 <= int(a) < p})
    for a in firsts:
        lo_a, hi_a = int(bounds[a]), int(bounds[a + 1])
        s_a, e_a = int(indptr[lo_a]), int(indptr[hi_a])
        m_a = e_a - s_a
        if m_a == 0:
            after = None
            continue
        if after is not None and after[0] == a:
            _move_left(buf, after[1], 0, m_a)
        else:
            buf[:m_a].copy_to_device(np.ascontiguousarray(indices[s_a:e_a]))
            copies += 1
        after = None
        have_src = False
        for b in list(range(p - 1, a, -1)) + [a]:
            lo_b, hi_b = int(bounds[b]), int(bounds[b + 1])
            s_b, e_b = (int(indptr[lo_b]), int(indptr[hi_b])) if b > a else (0, 0)
            m_pair = m_a + (e_b - s_b)
            if e_b > s_b:
                buf[m_a:m_pair].copy_to_device(np.ascontiguousarray(indices[s_b:e_b]))
                copies += 1
                after = (b, m_a) if b == a + 1 else None
            K._pair_ptr[_grid(n + 1, B), B](dptr, lo_a, hi_a, lo_b, hi_b, b > a, pptr)
            DG = _pair_view(pptr, buf, src, n, lo_a, hi_a, lo_b, hi_b, m_pair, m_a, indptr)
            if not have_src:
                K._arc_sources[_grid(m_a, B), B](pptr, DG.extra["src"])
                have_src = True
            total += triangle_launch(DG, **launch)[0]
            pairs += 1
    if timings is not None:
        timings.update(parts=p, pairs=pairs, copies=copies, seconds=time.perf_counter() - t0)
    return total
