"""Drivers of the exact CUDA kernels: device data built once per graph, launches, host results."""

import math
import time

import numpy as np

from ._device import check_device_memory, cuda_module, device_graph

SM_BLOCKS = 132 * 16  # enough resident blocks for a full H200 (132 multiprocessors)


def _sim():
    from numba.core import config

    return bool(config.ENABLE_CUDASIM)


def block_size():
    """Threads per block: 256 on a GPU; 32 under the simulator, which runs a thread per thread."""
    return 32 if _sim() else 256


def _start(timings):
    """Kernel timing: CUDA events on a GPU, the wall clock under the simulator."""
    if timings is None:
        return None, None
    if _sim():
        return time.perf_counter(), None
    cuda = cuda_module()
    t0, t1 = cuda.event(), cuda.event()
    t0.record()
    return t0, t1


def _stop(timings, t0, t1):
    if timings is None:
        return
    if t1 is None:
        timings["kernel"] = time.perf_counter() - t0
        return
    t1.record()
    t1.synchronize()
    timings["kernel"] = cuda_module().event_elapsed_time(t0, t1) / 1000.0


def _grid(items, per_block, cap=1 << 20):
    if _sim():
        cap = 2  # the simulator runs every thread as a Python thread: few blocks, grid-stride loops
    return max(1, min(cap, math.ceil(items / per_block)))


def arc_sources(DG):
    """The source u of every arc of ``DG`` (built on the device once)."""
    from . import _kernels as K

    cuda = cuda_module()
    if "src" not in DG.extra:
        itemsize = 4 if DG.n < 2**31 else 8
        check_device_memory(itemsize * DG.m, f"the arc sources of {DG.m:,} arcs")
        src = cuda.device_array(max(DG.m, 1), np.int32 if itemsize == 4 else np.int64)
        if DG.m:
            K._arc_sources[_grid(DG.m, block_size()), block_size()](DG.optr, src)
        DG.extra["src"] = src
    return DG.extra["src"]


def triangle_arcs(DG, light, heavy):
    """Arc sources and the medium/heavy arc lists of ``DG`` (built on the device once)."""
    from . import _kernels as K

    cuda = cuda_module()
    key = ("tri", light, heavy)
    if key not in DG.extra:
        src = arc_sources(DG)
        counts = cuda.to_device(np.zeros(3, np.int64))
        B = block_size()
        if DG.m:
            K._bin_counts[_grid(DG.m, B), B](DG.optr, DG.oind, src, light, heavy, counts)
        c = counts.copy_to_host()
        check_device_memory(4 * int(c[1] + c[2]), f"the lists of {int(c[1] + c[2]):,} medium and heavy arcs")
        medium = cuda.device_array(max(int(c[1]), 1), np.int32 if DG.m < 2**31 else np.int64)
        heavy_ = cuda.device_array(max(int(c[2]), 1), medium.dtype)
        if c[1] + c[2]:
            fill = cuda.to_device(np.zeros(3, np.int64))
            K._bin_scatter[_grid(DG.m, B), B](DG.optr, DG.oind, src, light, heavy, fill, medium, heavy_)
        DG.extra[key] = (medium, heavy_, int(c[1]), int(c[2]))
    medium, heavy_, nm, nh = DG.extra[key]
    return DG.extra["src"], medium, heavy_, nm, nh


def triangle_launch(DG, per_vertex=False, light=None, heavy=None, timings=None):
    """Run the three triangle kernels over ``DG``; returns (total, per-vertex device array or None).

    ``timings`` (a dict) receives the kernel time in seconds, measured with CUDA events.
    """
    from . import _kernels as K

    cuda = cuda_module()
    light = K.LIGHT if light is None else light
    heavy = K.HEAVY if heavy is None else heavy
    B = block_size()
    src, medium, heavy_arcs, nm, nh = triangle_arcs(DG, light, heavy)
    out = cuda.to_device(np.zeros(1, np.int64))
    if per_vertex:
        check_device_memory(8 * DG.n, f"per-vertex counts of {DG.n:,} vertices")
        pv = cuda.to_device(np.zeros(max(DG.n, 1), np.int64))
    else:
        pv = cuda.to_device(np.zeros(1, np.int64))
    t0, t1 = _start(timings)
    if DG.m:
        K._tri_light[_grid(DG.m, B), B](DG.optr, DG.oind, src, light, out, pv, per_vertex)
    if nm:
        K._tri_group[_grid(nm * K.WARP, B, SM_BLOCKS), B](DG.optr, DG.oind, src, medium[:nm], K.WARP, out, pv,
                                                         per_vertex)
    if nh:
        K._tri_group[_grid(nh, 1, SM_BLOCKS), B](DG.optr, DG.oind, src, heavy_arcs[:nh], B, out, pv, per_vertex)
    _stop(timings, t0, t1)
    total = int(out.copy_to_host()[0])
    return total, (pv if per_vertex else None)


def count_triangles(G, order, threads, timings=None, **bins):
    DG = device_graph(G, order, threads)
    return triangle_launch(DG, timings=timings, **bins)[0]


def triangles(G, threads, **bins):
    DG = device_graph(G, "degree", threads)
    _, pv = triangle_launch(DG, per_vertex=True, **bins)
    out = pv.copy_to_host()[:DG.n]
    return out[DG.host.rank]


def clique_vertices(DG, k):
    """Vertices with d+(u) >= k - 1, heaviest first (built once per graph: a host sort)."""
    cuda = cuda_module()
    if "verts" not in DG.extra:
        d = np.diff(DG.host.indptr)
        v = np.flatnonzero(d >= 3)
        v = v[np.argsort(-d[v], kind="stable")]
        DG.extra["verts"] = (cuda.to_device(v.astype(np.int64) if v.size else np.zeros(1, np.int64)),
                             d[v])
    dv, deg = DG.extra["verts"]
    # deg is sorted descending: the vertices that can root a k-clique are a prefix
    return dv, int(np.searchsorted(-deg, -(k - 1), side="right"))


def count_cliques(G, k, order, threads, timings=None):
    """Exact k-cliques for k >= 4 on the device."""
    from . import _kernels as K

    cuda = cuda_module()
    DG = device_graph(G, order, threads)
    if DG.max_out_degree < k - 1:
        return 0
    verts, nv = clique_vertices(DG, k)
    if nv == 0:
        return 0
    B = block_size()
    blocks = _grid(nv, 1, SM_BLOCKS // 2)
    wmax = (DG.max_out_degree + 63) // 64
    levels = max(k - 3, 1)
    bm_bytes = 8 * blocks * DG.max_out_degree * wmax
    stk_bytes = 8 * blocks * B * levels * wmax
    check_device_memory(bm_bytes + stk_bytes, f"the {k}-clique scratch (bitmaps of out-neighbourhoods of up to "
                                              f"{DG.max_out_degree:,} vertices)")
    bm = cuda.device_array((blocks, max(DG.max_out_degree * wmax, 1)), np.uint64)
    stk = cuda.device_array((blocks * B, levels * wmax), np.uint64)
    out = cuda.to_device(np.zeros(1, np.int64))
    t0, t1 = _start(timings)
    K._cliques[blocks, B](DG.optr, DG.oind, verts[:nv], k, bm, stk, out)
    _stop(timings, t0, t1)
    return int(out.copy_to_host()[0])
