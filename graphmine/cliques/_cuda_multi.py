"""Exact counts spread over several GPUs of one host: row blocks of the oriented CSR per GPU.

Triangles (and per-vertex triangles): the ranks are cut into one range [lo, hi) per worker, of
about equal estimated work (:func:`row_split`: per arc, the shorter list of its intersection).
A worker counts the arcs u -> v with u in its range; it needs the rows of u and v, all of them
at ranks >= lo (v > u), so it holds the oriented CSR from row lo on: ``oind[optr[lo]:]`` with
the row pointers shifted by optr[lo] (the first worker's rows are the whole graph). The first
device builds the orientation (on the GPU, or copies the host's); the other devices receive
their tails from the host. Each worker runs the one-GPU kernels (bins, hubs) over its arcs;
the totals (and per-vertex arrays) are summed on the host. When a worker's rows do not fit its
device, the count is partitioned instead (:mod:`graphmine.cliques._cuda_partition`), the row blocks
dealt to the workers.

k-cliques (k >= 4): every device holds the whole degeneracy-oriented CSR (out-degrees bounded
by the degeneracy, the scratch sized per device); the root vertices, heaviest first, are dealt
round robin to the workers.

Workers run one Python thread per worker (each with its device's context current); under numba's
simulator they run one after the other (its kernels are not safe to run from two threads). A
device may be named twice (``devices=[0, 0]``): two workers on one GPU, which is how the split
and the combination are tested on a machine with one device.
"""

import numpy as np

from ..core.exceptions import ParameterError
from ..cuda.launch import DeviceGraph, cuda_module, device_graph

__all__ = ["resolve_devices", "is_multi", "row_split", "count_triangles", "triangles", "count_cliques",
           "clique_counts"]


def resolve_devices(devices):
    """The device ids to count on: every visible device for None, else the given ids (validated)."""
    cuda = cuda_module()
    visible = len(cuda.gpus)
    if devices is None:
        return list(range(max(visible, 1)))
    if isinstance(devices, (int, np.integer)) and not isinstance(devices, bool):
        devices = [devices]
    try:
        ids = [int(d) for d in devices]
        ok = all(not isinstance(d, bool) and int(d) == d for d in devices)
    except (TypeError, ValueError):
        ok = False
    if not ok or not ids:
        raise ParameterError(f"devices must be a non-empty list of GPU ids, got {devices!r}")
    bad = [d for d in ids if d < 0 or d >= visible]
    if bad:
        raise ParameterError(f"devices: no GPU {bad[0]} (visible GPUs: {visible}, ids 0 .. {visible - 1})")
    return ids


def is_multi(devices):
    """Whether ``devices`` (resolved) needs the multi-GPU path: anything but the one default device."""
    return devices != [0]


def row_split(indptr, indices, parts, sample=8):
    """Cuts lo_0 = 0 < lo_1 < ... < lo_parts = n of the rows into ``parts`` ranges of about equal
    work, estimated from every ``sample``-th arc u -> v as the triangle kernels spend it: a
    binned arc looks up the shorter list's s = min(d+(u), d+(v)) elements by binary search in
    the longer (s log2 of its length), a hub's arc reads N+(v) once (d+(v))."""
    from . import _cuda_kernels as K

    n = indptr.shape[0] - 1
    m = indices.shape[0]
    if m == 0:
        return np.array([0] + [n] * max(parts, 1), np.int64)
    if parts <= 1:
        return np.array([0, n], np.int64)
    d = np.diff(indptr)
    step = max(1, int(sample))
    j = np.arange(0, m, step, dtype=np.int64)
    # the row of every sampled arc: row u holds the multiples of step in [indptr[u], indptr[u + 1])
    u = np.repeat(np.arange(n, dtype=np.int64), np.diff(-(-np.asarray(indptr, np.int64) // step)))
    du, dv = d[u].astype(np.float64), d[indices[j]].astype(np.float64)
    hub = (u >= n - 1 - K.HUB_BITS) & (du > K.HUB_MIN)
    w = 1.0 + np.where(hub, dv, np.minimum(du, dv) * np.log2(2.0 + np.maximum(du, dv)))
    c = np.cumsum(w)
    at = np.searchsorted(c, np.linspace(0.0, c[-1], parts + 1)[1:-1], side="left")
    cuts = np.searchsorted(indptr, j[np.clip(at, 0, j.shape[0] - 1)], side="left")  # the next row start
    return np.concatenate([[0], np.clip(cuts, 0, n), [n]]).astype(np.int64)


_PRIMED = set()


def _prime(workers, what):
    """Load the kernels of ``what`` ('triangles', 'partitioned', 'cliques') on every device of
    ``workers`` from this thread, once per process: numba-cuda loads a kernel's module into a
    context on its first launch, and two threads doing that at once on one context collide."""
    from ..core.validation import as_graph
    from ..cuda.launch import simulated as _sim

    if _sim():
        return
    cuda = cuda_module()
    W = [(i, j) for i in range(8) for j in range(i + 1, 8) if (i + j) % 7]
    for dev in sorted(set(workers)):
        if (dev, what) in _PRIMED:
            continue
        with cuda.gpus[dev]:
            from . import _cuda_launch as _exact, _cuda_partition as _partition

            if what == "cliques":
                _exact.count_cliques(as_graph(W), 4, "degeneracy", 1)
                _exact.clique_counts(as_graph(W), 4, "degeneracy", 1)
            elif what == "partitioned":
                _partition.count_partitioned(as_graph(W), "degree", 1, parts=2, bounds=(0, 1, 2), hub_min=1)
            else:
                for hub_min in (1 << 40, 1):
                    G = as_graph(W)
                    G.oriented("degree", relabel=True)  # copied, not built: the build stays on device 0
                    _exact.triangle_launch(_tail(G, "degree", -1, 0, G.n_nodes, _host_orientation(G, "degree", 1, [])),
                                           per_vertex=True, bounds=(0, 1, 2), hub_min=hub_min)
        _PRIMED.add((dev, what))


def _run(workers, fn, serial=False):
    """fn(i, device) for every worker: one thread each on a GPU, in turn under the simulator (or
    with ``serial``: each worker's kernels timed alone). Returns the results in worker order;
    the first error is raised."""
    from ..cuda.launch import simulated as _sim

    cuda = cuda_module()

    def one(i, dev):
        with cuda.gpus[dev]:
            return fn(i, dev)

    if serial or _sim() or len(workers) == 1:
        return [one(i, d) for i, d in enumerate(workers)]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=len(workers), thread_name_prefix="graphmine-gpu") as ex:
        futs = [ex.submit(one, i, d) for i, d in enumerate(workers)]
        return [f.result() for f in futs]


def _base(G, order, threads, dev):
    """The whole oriented CSR on device ``dev`` (the caller made its context current), cached
    on the graph per device."""
    cache = G.__dict__.setdefault("_cuda", {})
    if dev == 0:
        # the one-GPU cache, shared with device='cuda' on GPU 0, but never the orientation peeled
        # on the GPU: every device must hold the host's, which the roots are dealt by
        return device_graph(G, order, threads, peeled=False)
    key = ("base", order, dev)
    if key not in cache:
        from ..cuda.launch import check_device_memory

        O = G.oriented(order, relabel=True, threads=threads)
        check_device_memory(8 * (G.n_nodes + 1) + O.indices.dtype.itemsize * G.n_edges,
                            f"the {order}-oriented graph ({G.n_nodes:,} vertices, {G.n_edges:,} edges)")
        cache[key] = DeviceGraph.from_host(O, cuda_module())
    return cache[key]


def _tail(G, order, dev, lo, hi, host):
    """Worker view of the oriented CSR: the rows from ``lo`` on (pointers shifted), its arcs
    those of rows [lo, hi). ``host``: (indptr, indices, rank) of the orientation, for a device
    other than device 0 (which views its one-GPU copy)."""
    from ..cuda.launch import check_device_memory

    cuda = cuda_module()
    cache = G.__dict__.setdefault("_cuda", {})
    key = ("rows", order, dev, lo, hi)
    if key in cache:
        return cache[key]
    indptr, indices, rank = host
    s, e = int(indptr[lo]), int(indptr[hi])
    n = indptr.shape[0] - 1
    if dev == 0 and order in cache:
        whole = cache[order]
        oind = whole.oind[s:] if whole.oind.shape[0] > s else whole.oind[:1]
    else:
        check_device_memory(8 * (n + 1) + indices.dtype.itemsize * (indices.shape[0] - s),
                            f"rows {lo:,} .. {n:,} of the {order}-oriented graph")
        oind = cuda.to_device(np.ascontiguousarray(indices[s:]) if indices.shape[0] > s else np.zeros(1, indices.dtype))
    optr = cuda.to_device(np.asarray(indptr, np.int64) - s)
    DG = DeviceGraph(optr, oind, indptr, rank, n=n, m=e - s)
    DG.rows = (lo, hi)
    cache[key] = DG
    return DG


def _host_orientation(G, order, threads, workers):
    """(indptr, indices, rank) of the orientation on the host: the host's own, or (the degree
    order, device 0 among the workers) the one-GPU copy's, built there and copied back."""
    if order != "degree" or G.has_orientation(order, relabel=True) or 0 not in workers:
        O = G.oriented(order, relabel=True, threads=threads)
        return O.indptr, O.indices, O.rank
    cuda = cuda_module()
    with cuda.gpus[0]:
        DG = device_graph(G, order, threads)
        if "host_oind" not in DG.extra:
            DG.extra["host_oind"] = DG.oind.copy_to_host()[:DG.m]
        return DG.hptr, DG.extra["host_oind"], DG.rank()


def _triangles(G, order, threads, workers, per_vertex, timings=None, serial=False, **launch):
    from ._cuda_launch import triangle_launch
    from ._cuda_partition import fits_unpartitioned

    cuda = cuda_module()
    with cuda.gpus[workers[0]]:
        fits = fits_unpartitioned(G)
    if not fits and order == "degree":
        if per_vertex:
            from ..cuda.launch import check_device_memory

            with cuda.gpus[workers[0]]:
                check_device_memory(8 * (G.n_nodes + 1) + 3 * G.indices.dtype.itemsize * G.n_edges,
                                    "per-vertex triangles (not partitioned)")
        return _partitioned(G, threads, workers, timings, serial=serial, **launch), None
    host = _host_orientation(G, order, threads, workers)
    cache = G.__dict__.setdefault("_cuda", {})
    key = ("cuts", order, len(workers))
    if key not in cache:
        cache[key] = row_split(host[0], host[1], len(workers))
    cuts = cache[key]
    n = host[0].shape[0] - 1

    def work(i, dev):
        DG = _tail(G, order, dev, int(cuts[i]), int(cuts[i + 1]), host)
        tm = {} if timings is not None else None
        total, pv = triangle_launch(DG, per_vertex=per_vertex, timings=tm, **launch)
        return total, (pv.copy_to_host()[:n] if per_vertex else None), tm

    if not serial:
        _prime(workers, "triangles")
    res = _run(workers, work, serial)
    if timings is not None:
        timings["workers"] = [r[2] for r in res]
        timings["cuts"] = cuts.tolist()
    total = sum(r[0] for r in res)
    if not per_vertex:
        return total, None
    pv = np.zeros(n, np.int64)
    for r in res:
        pv += r[1]
    return total, pv[host[2]]


def _partitioned(G, threads, workers, timings=None, serial=False, **launch):
    """A partitioned count with the row blocks a dealt to the workers (a and p - 1 - a together:
    block a pairs with p - a blocks)."""
    from ..cuda.launch import device_memory as _gpu_limit
    from ._cuda_partition import count_partitioned, plan

    cuda = cuda_module()
    O = G.oriented("degree", relabel=True, threads=threads)
    with cuda.gpus[workers[0]]:
        free, _ = _gpu_limit()
    p = plan(O.indptr, O.indices.dtype.itemsize, free).shape[0] - 1
    p = max(p, len(workers))
    W = len(workers)
    mine = [[] for _ in range(W)]
    for r in range((p + 1) // 2):  # pairs of blocks (r, p - 1 - r): p + 1 pairs each, dealt in turn
        for a in sorted({r, p - 1 - r}):
            mine[r % W].append(a)

    def work(i, dev):
        tm = {}
        total = count_partitioned(G, "degree", threads, parts=p, timings=tm, blocks=mine[i], **launch)
        return total, tm

    if not serial:
        _prime(workers, "partitioned")
    res = _run(workers, work, serial)
    if timings is not None:
        timings.update(parts=p, workers=[r[1] for r in res])
    return sum(r[0] for r in res)


def count_triangles(G, threads, workers, order="degree", timings=None, serial=False, **launch):
    """Exact triangles over the GPUs ``workers`` (device ids, a device may repeat). ``timings``
    (a dict) receives every worker's kernel timings ('workers') and the row cuts ('cuts');
    ``serial`` runs the workers one after the other (to time each alone)."""
    return _triangles(G, order, threads, workers, False, timings=timings, serial=serial, **launch)[0]


def triangles(G, threads, workers, **launch):
    """Triangles through every vertex (int64 array, the graph's ids) over the GPUs ``workers``."""
    return _triangles(G, "degree", threads, workers, True, **launch)[1]


def _cliques(G, k, order, threads, workers, per_vertex, timings=None, serial=False):
    from . import _cuda_kernels as K
    from ..cuda.launch import block_size, start_timer as _start, stop_timer as _stop
    from ._cuda_launch import _clique_scratch

    cuda = cuda_module()
    G.oriented(order, relabel=True, threads=threads)  # once, before the threads
    for dev in sorted(set(workers)):  # the copies too: two workers of one device share one
        with cuda.gpus[dev]:
            _base(G, order, threads, dev)
    n = G.n_nodes

    def work(i, dev):
        DG = _base(G, order, threads, dev)
        if DG.max_out_degree < k - 1:
            return 0, None, None
        d = np.diff(DG.hptr)
        v = np.flatnonzero(d >= k - 1)
        v = v[np.argsort(-d[v], kind="stable")][i::len(workers)].astype(np.int64)
        if v.size == 0:
            return 0, None, None
        verts = cuda.to_device(v)
        blocks, bm, stk = _clique_scratch(DG, k, v.size, (k - 2) if per_vertex else max(k - 3, 1))
        out = cuda.to_device(np.zeros(1, np.int64))
        tm = {} if timings is not None else None
        t0, t1 = _start(tm)
        pv = cuda.to_device(np.zeros(max(DG.n, 1) if per_vertex else 1, np.int64))
        K._cliques[blocks, block_size()](DG.optr, DG.oind, verts, k, bm, stk, out, pv, per_vertex)
        _stop(tm, t0, t1)
        return int(out.copy_to_host()[0]), (pv.copy_to_host()[:DG.n] if per_vertex else None), tm

    if not serial:
        _prime(workers, "cliques")
    res = _run(workers, work, serial)
    if timings is not None:
        timings["workers"] = [r[2] for r in res]
    total = sum(r[0] for r in res)
    if not per_vertex:
        return total, None
    pv = np.zeros(n, np.int64)
    for r in res:
        if r[1] is not None:
            pv += r[1]
    return total, pv[G.oriented(order, relabel=True, threads=threads).rank]


def count_cliques(G, k, order, threads, workers, timings=None, serial=False):
    """Exact k-cliques (k >= 4) over the GPUs ``workers`` (``timings``, ``serial`` as in
    :func:`count_triangles`)."""
    return _cliques(G, k, order, threads, workers, False, timings=timings, serial=serial)[0]


def clique_counts(G, k, order, threads, workers):
    """(total, per-vertex int64 array) of the k-cliques (k >= 4) over the GPUs ``workers``."""
    return _cliques(G, k, order, threads, workers, True)
