"""Drivers of the cliques family's CUDA kernels (``_cuda_kernels.py``): device data built once per
graph, launches, host results. Importing this module loads no numba.cuda (the first launch does).
"""

import numpy as np

from ..cuda.launch import check_device_memory, cuda_module, device_graph, device_memory as _gpu_limit

# the launch helpers are shared with every family's GPU code (graphmine.cuda.launch)
from ..cuda.launch import (SM_BLOCKS, arc_sources, block_size, grid as _grid, mark_phase as _phase, quiet,  # noqa: F401
                           simulated as _sim, start_timer as _start, stop_timer as _stop)



def hub_range(DG, hub_min):
    """(hub_lo, the hubs heaviest first as a device array, their number): vertices u >= hub_lo
    (whose out-neighbours fit the kernel's bitmap) with d+(u) > hub_min. Built once per graph."""
    from . import _cuda_kernels as K

    cuda = cuda_module()
    key = ("hubs", hub_min)
    if key not in DG.extra:
        hub_lo = max(DG.n - 1 - K.HUB_BITS, 0)
        rlo, rhi = DG.rows
        lo = max(hub_lo, rlo)
        d = np.diff(DG.hptr[lo:max(rhi, lo) + 1])
        hubs = lo + np.flatnonzero(d > hub_min)
        hubs = hubs[np.argsort(-d[hubs - lo], kind="stable")].astype(np.int64)
        DG.extra[key] = (hub_lo, cuda.to_device(hubs if hubs.size else np.zeros(1, np.int64)), int(hubs.size))
    return DG.extra[key]


def triangle_arcs(DG, bounds, hub_lo, hub_min):
    """Arc sources, and the arcs of bins 1.. (s > bounds[0]) of ``DG`` grouped by bin, with the
    bins' offsets (built on the device once per ``bounds``); the hubs' arcs are left out."""
    from . import _cuda_kernels as K

    cuda = cuda_module()
    key = ("tri", bounds, hub_lo, hub_min)
    if key not in DG.extra:
        src = arc_sources(DG)
        dbounds = cuda.to_device(np.asarray(bounds, np.int64))
        counts = cuda.to_device(np.zeros(K.MAXBINS, np.int64))
        B = block_size()
        if DG.m:
            K._bin_counts[_grid(DG.m, B), B](DG.optr, DG.oind, src, dbounds, hub_lo, hub_min, *DG.rows, *DG.cols,
                                             counts)
        c = counts.copy_to_host()[:len(bounds) + 1]
        offsets = np.concatenate([[0, 0], np.cumsum(c[1:])]).astype(np.int64)
        total = int(offsets[-1])
        itemsize = 4 if DG.m < 2**31 else 8
        check_device_memory(itemsize * total, f"the lists of {total:,} arcs of the triangle kernel's bins")
        lists = cuda.device_array(max(total, 1), np.int32 if itemsize == 4 else np.int64)
        if total:
            K._bin_scatter[_grid(DG.m, B), B](DG.optr, DG.oind, src, dbounds, hub_lo, hub_min, *DG.rows, *DG.cols,
                                              cuda.to_device(offsets[:-1].copy()), lists)
        DG.extra[key] = (lists, offsets)
    lists, offsets = DG.extra[key]
    return DG.extra["src"], lists, offsets


def triangle_launch(DG, per_vertex=False, bounds=None, timings=None, groups=None, hub_min=None):
    """Run the triangle kernels over ``DG``; returns (total, per-vertex device array or None).

    ``bounds`` and ``groups`` override the bins' thresholds and threads per arc
    (:data:`_kernels.BOUNDS`, :data:`_kernels.GROUPS`; the last bin has a block); ``timings`` (a dict)
    receives the kernel time in seconds (CUDA events; per bin as 'bin0', 'bin1', ..., 'hubs').
    ``hub_min``: out-degree above which a vertex of the top ranks is a hub (None: the default;
    ``n`` or more: no hubs).
    """
    from . import _cuda_kernels as K

    cuda = cuda_module()
    bounds = tuple(int(b) for b in (K.BOUNDS if bounds is None else bounds))
    B = block_size()
    groups = list(K.GROUPS if groups is None else groups)[:len(bounds)] + [B]
    hub_min = K.HUB_MIN if hub_min is None else int(hub_min)
    hub_lo, hubs, nhubs = hub_range(DG, hub_min)
    src, lists, offsets = triangle_arcs(DG, bounds, hub_lo, hub_min)
    out = cuda.to_device(np.zeros(1, np.int64))
    if per_vertex:
        check_device_memory(8 * DG.n, f"per-vertex counts of {DG.n:,} vertices")
        pv = cuda.to_device(np.zeros(max(DG.n, 1), np.int64))
    else:
        pv = cuda.to_device(np.zeros(1, np.int64))
    t0, t1 = _start(timings)
    if DG.m:
        K._tri_light[_grid(DG.m, B), B](DG.optr, DG.oind, src, bounds[0], hub_lo, hub_min, *DG.rows, *DG.cols, out,
                                        pv, per_vertex)
    _phase(timings, "bin0")
    for b in range(1, len(bounds) + 1):
        lo, hi = int(offsets[b]), int(offsets[b + 1])
        if hi > lo:
            g = groups[b]
            K._tri_group[_grid((hi - lo) * g, B, SM_BLOCKS), B](DG.optr, DG.oind, src, lists[lo:hi], g, out, pv,
                                                               per_vertex)
        _phase(timings, f"bin{b}")
    if nhubs:
        K._tri_hubs[_grid(nhubs, 1, SM_BLOCKS), B](DG.optr, DG.oind, hubs[:nhubs], *DG.cols, out, pv, per_vertex)
    _phase(timings, "hubs")
    if timings is not None:
        timings["hub_count"] = nhubs
        timings["bins"] = [DG.m - int(offsets[-1])] + [int(offsets[b + 1] - offsets[b])
                                                       for b in range(1, len(bounds) + 1)]
    _stop(timings, t0, t1)
    total = int(out.copy_to_host()[0])
    return total, (pv if per_vertex else None)


def count_triangles(G, order, threads, timings=None, bounds=None, groups=None, hub_min=None):
    """Exact triangles with the whole oriented CSR on the device (:mod:`graphmine.cliques._cuda_partition`
    counts graphs that do not fit)."""
    DG = device_graph(G, order, threads)
    return triangle_launch(DG, bounds=bounds, timings=timings, groups=groups, hub_min=hub_min)[0]


def triangles(G, threads, bounds=None, hub_min=None):
    DG = device_graph(G, "degree", threads)
    _, pv = triangle_launch(DG, per_vertex=True, bounds=bounds, hub_min=hub_min)
    out = pv.copy_to_host()[:DG.n]
    return out[DG.rank()]


def clique_vertices(DG, k):
    """Vertices with d+(u) >= k - 1, heaviest first (built once per graph: a host sort)."""
    cuda = cuda_module()
    if "verts" not in DG.extra:
        d = np.diff(DG.hptr)
        v = np.flatnonzero(d >= 3)
        v = v[np.argsort(-d[v], kind="stable")]
        DG.extra["verts"] = (cuda.to_device(v.astype(np.int64) if v.size else np.zeros(1, np.int64)),
                             d[v])
    dv, deg = DG.extra["verts"]
    # deg is sorted descending: the vertices that can root a k-clique are a prefix
    return dv, int(np.searchsorted(-deg, -(k - 1), side="right"))


def _clique_scratch(DG, k, nv, levels):
    """(blocks, bitmap scratch, DFS stacks of ``levels`` levels) of the k-clique kernels over nv
    root vertices, sized to the free memory."""
    cuda = cuda_module()
    B = block_size()
    wmax = (DG.max_out_degree + 63) // 64
    per_block = 8 * wmax * (DG.max_out_degree + B * levels)
    free, _ = _gpu_limit()
    blocks = _grid(nv, 1, SM_BLOCKS // 2)
    if free is not None:  # fewer blocks (each its own scratch) where the out-degrees are large
        blocks = max(1, min(blocks, free // 2 // per_block))
    bm_bytes = 8 * blocks * DG.max_out_degree * wmax
    stk_bytes = 8 * blocks * B * levels * wmax
    check_device_memory(bm_bytes + stk_bytes, f"the {k}-clique scratch (bitmaps of out-neighbourhoods of up to "
                                              f"{DG.max_out_degree:,} vertices)")
    bm = cuda.device_array((blocks, max(DG.max_out_degree * wmax, 1)), np.uint64)
    stk = cuda.device_array((blocks * B, levels * wmax), np.uint64)
    return blocks, bm, stk


def count_cliques(G, k, order, threads, timings=None):
    """Exact k-cliques for k >= 4 on the device."""
    from . import _cuda_kernels as K

    cuda = cuda_module()
    DG = device_graph(G, order, threads)
    if DG.max_out_degree < k - 1:
        return 0
    verts, nv = clique_vertices(DG, k)
    if nv == 0:
        return 0
    blocks, bm, stk = _clique_scratch(DG, k, nv, max(k - 3, 1))
    out = cuda.to_device(np.zeros(1, np.int64))
    unused = cuda.to_device(np.zeros(1, np.int64))
    t0, t1 = _start(timings)
    K._cliques[blocks, block_size()](DG.optr, DG.oind, verts[:nv], k, bm, stk, out, unused, False)
    _stop(timings, t0, t1)
    return int(out.copy_to_host()[0])


def clique_counts(G, k, order, threads, timings=None):
    """(total, per-vertex int64 array): the k-cliques (k >= 4) through every vertex, on the device."""
    from . import _cuda_kernels as K

    cuda = cuda_module()
    DG = device_graph(G, order, threads)
    if DG.max_out_degree < k - 1:
        return 0, np.zeros(G.n_nodes, np.int64)
    verts, nv = clique_vertices(DG, k)
    if nv == 0:
        return 0, np.zeros(G.n_nodes, np.int64)
    blocks, bm, stk = _clique_scratch(DG, k, nv, k - 2)
    check_device_memory(8 * DG.n, f"per-vertex counts of {DG.n:,} vertices")
    out = cuda.to_device(np.zeros(1, np.int64))
    pv = cuda.to_device(np.zeros(max(DG.n, 1), np.int64))
    t0, t1 = _start(timings)
    K._cliques[blocks, block_size()](DG.optr, DG.oind, verts[:nv], k, bm, stk, out, pv, True)
    _stop(timings, t0, t1)
    return int(out.copy_to_host()[0]), pv.copy_to_host()[:DG.n][DG.rank()]
