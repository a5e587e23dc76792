"""What every family's GPU code shares: the device and its memory checks, launch sizes, timing
events and the arcs' sources, over the oriented CSR the device keeps per graph
(:func:`device_graph`). Importing this module loads no numba.cuda (the first launch does).
"""

import contextlib
import math
import time
import warnings

import numpy as np

from ._device import DeviceGraph, _gpu_limit, check_device_memory, cuda_module, device_graph, require_device

__all__ = ["SM_BLOCKS", "quiet", "block_size", "grid", "arc_sources", "check_device_memory", "cuda_module",
           "device_graph", "require_device", "device_memory", "simulated", "DeviceGraph", "start_timer", "mark_phase",
           "stop_timer", "orient_peeled"]


def device_memory():
    """The device's free and total memory in bytes.

    ``GRAPHMINE_GPU_MAX_BYTES`` caps both (a test, or a share of a device held by others).

    Returns
    -------
    tuple of (int or None, int or None)
        (free, total); None where the simulator has none to report.

    Examples
    --------
    >>> import graphmine.cuda as gc
    >>> len(device_memory()) if gc.is_available() else 2
    2
    """
    return _gpu_limit()


def orient_peeled(indptr, indices):
    """Orient a CSR on the device by an approximate degeneracy order (rounds of peeling).

    Every out-degree is at most 2 (1 + eps) times the degeneracy; the k-clique kernels' scratch
    grows with the largest out-degree, their counts do not depend on the order.

    Parameters
    ----------
    indptr, indices : ndarray
        The symmetric CSR on the host.

    Returns
    -------
    tuple
        (optr, oind, rank, rounds): the oriented CSR and the ranks on the device, and the rounds.

    Examples
    --------
    >>> import graphmine as gm, graphmine.cuda as gc
    >>> G = gm.as_graph([(0, 1), (1, 2), (2, 0)])
    >>> len(orient_peeled(G.indptr, G.indices)) if gc.is_available() else 4
    4
    """
    from . import _build

    return _build.orient_peeled(indptr, indices)


def simulated():
    """Whether the kernels run in numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``).

    Returns
    -------
    bool

    Examples
    --------
    >>> isinstance(simulated(), bool)
    True
    """
    return _sim()


SM_BLOCKS = 132 * 16  # resident blocks to fill a whole device (an H200's 132 multiprocessors, 16 each)


@contextlib.contextmanager
def quiet():
    """Silence numba's low-occupancy warnings: small graphs launch small grids on purpose.

    Yields
    ------
    None
        Inside the block the warnings are off.

    Examples
    --------
    >>> with quiet():
    ...     pass
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*will likely result in GPU under-utilization")
        yield


def _sim():
    from numba.core import config

    return bool(config.ENABLE_CUDASIM)


def block_size():
    """Threads per block: 256 on a GPU; 32 under the simulator, which runs a thread per thread.

    Returns
    -------
    int

    Examples
    --------
    >>> block_size() in (32, 256)
    True
    """
    return 32 if _sim() else 256


def start_timer(timings):
    """Start timing kernels: CUDA events on a GPU, the wall clock under the simulator.

    Parameters
    ----------
    timings : dict or None
        Where :func:`stop_timer` writes the seconds (None: no timing).

    Returns
    -------
    tuple
        The start marks, for :func:`stop_timer`.

    Examples
    --------
    >>> start_timer(None)
    (None, None)
    """
    if timings is None:
        return None, None
    if _sim():
        return time.perf_counter(), None
    cuda = cuda_module()
    t0, t1 = cuda.event(), cuda.event()
    t0.record()
    return t0, t1


def mark_phase(timings, name):
    """Mark the end of one kernel of a sequence (``timings[name]`` after :func:`stop_timer`).

    Parameters
    ----------
    timings : dict or None
        As given to :func:`start_timer`.
    name : str
        The kernel's name in ``timings``.

    Examples
    --------
    >>> mark_phase(None, "bin0")
    """
    if timings is None or _sim():
        return
    ev = cuda_module().event()
    ev.record()
    timings.setdefault("_events", []).append((name, ev))


def stop_timer(timings, t0, t1):
    """Write the kernels' seconds into ``timings``: ``'kernel'`` in all, and one per phase.

    Parameters
    ----------
    timings : dict or None
        As given to :func:`start_timer`.
    t0, t1
        What :func:`start_timer` returned.

    Examples
    --------
    >>> import time
    >>> tm = {}
    >>> stop_timer(tm, time.perf_counter(), None)
    >>> tm["kernel"] >= 0
    True
    """
    if timings is None:
        return
    if t1 is None:
        timings["kernel"] = time.perf_counter() - t0
        return
    cuda = cuda_module()
    t1.record()
    t1.synchronize()
    timings["kernel"] = cuda.event_elapsed_time(t0, t1) / 1000.0
    prev = t0
    for name, ev in timings.pop("_events", []):
        timings[name] = cuda.event_elapsed_time(prev, ev) / 1000.0
        prev = ev


def grid(items, per_block, cap=1 << 20):
    """Blocks of a grid-stride launch over ``items`` items.

    Parameters
    ----------
    items : int
        Work items (vertices, arcs).
    per_block : int
        Items per block (:func:`block_size` threads).
    cap : int, default 2**20
        Most blocks (grid-stride loops cover the rest).

    Returns
    -------
    int
        At least 1; 2 at most under the simulator.

    Examples
    --------
    >>> grid(1000, 256, cap=8) in (2, 4)
    True
    """
    if _sim():
        cap = 2  # the simulator runs every thread as a Python thread: few blocks, grid-stride loops
    return max(1, min(cap, math.ceil(items / per_block)))


def arc_sources(DG):
    """The source u of every arc of ``DG`` (built on the device once and kept on it).

    Parameters
    ----------
    DG : DeviceGraph
        The oriented graph on the device (:func:`device_graph`).

    Returns
    -------
    numba.cuda device array of int32 or int64

    Examples
    --------
    >>> import graphmine as gm, graphmine.cuda as gc
    >>> DG = device_graph(gm.as_graph([(0, 1), (1, 2)]), "degree", 1) if gc.is_available() else None
    >>> (arc_sources(DG).copy_to_host()[:2].tolist() if DG is not None else [0, 1]) in ([0, 1], [1, 0])
    True
    """
    from . import _device_kernels as K

    cuda = cuda_module()
    if "src" not in DG.extra:
        itemsize = 4 if DG.n < 2**31 else 8
        check_device_memory(itemsize * DG.m, f"the arc sources of {DG.m:,} arcs")
        src = cuda.device_array(max(DG.m, 1), np.int32 if itemsize == 4 else np.int64)
        if DG.m:
            K._arc_sources[grid(DG.m, block_size()), block_size()](DG.optr, src)
        DG.extra["src"] = src
    return DG.extra["src"]


# the cuda package's own modules use the short names
_start, _phase, _stop = start_timer, mark_phase, stop_timer
