"""The CUDA device: finding it, checking its free memory, and the per-graph cache of device arrays.

Nothing here imports ``numba.cuda`` at module level: the CPU path of graphmine must never load the
CUDA machinery (start-up time, and no driver is needed). :func:`cuda_module` imports it on first
use; under ``NUMBA_ENABLE_CUDASIM=1`` (set before the first import) that is numba's simulator,
which is how the kernels are tested without a GPU.
"""

import os

import numpy as np

from .._limits import format_bytes
from ..exceptions import GraphmineError, MissingDependencyError, ParameterError, ResourceLimitError

__all__ = ["NoCudaDeviceError", "DEVICES", "check_device", "cuda_module", "is_available", "use_cuda",
           "require_device", "check_device_memory", "device_graph", "release"]

DEVICES = ("cpu", "cuda", "auto")

_STATE = {}


class NoCudaDeviceError(GraphmineError, RuntimeError):
    """``device='cuda'`` was asked for, but no CUDA device is visible to this process."""


def check_device(device):
    """Validate ``device`` (one of 'cpu', 'cuda', 'auto')."""
    if not isinstance(device, str) or device not in DEVICES:
        raise ParameterError(f"device must be one of {', '.join(map(repr, DEVICES))}, got {device!r}")
    return device


def cuda_module():
    """``numba.cuda`` (imported on first use), or raise naming the extra that installs it."""
    if "cuda" not in _STATE:
        try:
            from numba import cuda
        except ImportError:
            raise MissingDependencyError('device="cuda" needs numba-cuda, which is not installed: '
                                         'pip install "graphmine[cuda]"') from None
        _STATE["cuda"] = cuda
    return _STATE["cuda"]


def is_available():
    """Whether a CUDA device (or numba's simulator) is visible; False when numba-cuda is missing.

    Examples
    --------
    >>> import graphmine.cuda as gc
    >>> isinstance(gc.is_available(), bool)
    True
    """
    if "available" not in _STATE:
        try:
            cuda = cuda_module()
            ok = bool(cuda.is_available())
        except Exception:  # a broken driver or toolkit counts as no device
            ok = False
        _STATE["available"] = ok
    return _STATE["available"]


def use_cuda(device):
    """True to run on the GPU: 'cuda' (raising when none is visible) or 'auto' with one visible."""
    device = check_device(device)
    if device == "cpu":
        return False
    if device == "auto":
        return is_available()
    require_device()
    return True


def require_device():
    if not is_available():
        cuda_module()  # a missing package says so first
        raise NoCudaDeviceError("no CUDA device visible (device='cuda'); use device='cpu' or 'auto'")


def _gpu_limit():
    """(free bytes, total bytes) of the device; GRAPHMINE_GPU_MAX_BYTES caps what may be used."""
    cuda = cuda_module()
    try:
        free, total = cuda.current_context().get_memory_info()
    except Exception:  # the simulator has no memory to report
        free = total = None
    cap = os.environ.get("GRAPHMINE_GPU_MAX_BYTES")
    if cap:
        cap = int(cap)
        free = cap if free is None else min(free, cap)
        total = cap if total is None else total
    return free, total


def check_device_memory(nbytes, what, hint="use device='cpu'"):
    """Raise :class:`ResourceLimitError` naming the sizes if ``nbytes`` exceed the GPU's free memory."""
    free, total = _gpu_limit()
    if free is not None and nbytes > free:
        raise ResourceLimitError(f"{what} needs {format_bytes(nbytes)} of GPU memory, but only "
                                 f"{format_bytes(free)} of {format_bytes(total)} is free; {hint}")


class DeviceGraph:
    """One orientation of a graph on the device: the oriented CSR and per-use data built once.

    ``optr`` (int64, n + 1), ``oind`` (int32 or int64, m) as on the host; ``src`` (arc sources)
    and the other entries of ``extra`` are filled by the kernels' drivers on first use.
    """

    def __init__(self, O, cuda):
        self.n = O.indptr.shape[0] - 1
        self.m = O.indices.shape[0]
        self.max_out_degree = O.max_out_degree
        self.host = O
        self.optr = cuda.to_device(np.ascontiguousarray(O.indptr))
        self.oind = cuda.to_device(np.ascontiguousarray(O.indices))
        self.extra = {}

    @property
    def nbytes(self):
        total = self.optr.nbytes + self.oind.nbytes
        for v in self.extra.values():
            for a in (v if isinstance(v, tuple) else (v,)):
                total += getattr(a, "nbytes", 0)
        return total


def device_graph(G, order, threads):
    """The oriented CSR of ``G`` (ids relabelled by rank) on the device, copied once and cached
    on the graph (``G._cuda``; the Graph is otherwise immutable)."""
    cuda = cuda_module()
    cache = G.__dict__.setdefault("_cuda", {})
    if order not in cache:
        O = G.oriented(order, relabel=True, threads=threads)
        need = O.indptr.nbytes + O.indices.nbytes
        check_device_memory(need, f"the {order}-oriented graph ({G.n_nodes:,} vertices, {G.n_edges:,} edges)")
        cache[order] = DeviceGraph(O, cuda)
    return cache[order]


def release(G):
    """Free the device arrays cached on ``G`` (they are rebuilt on the next GPU call).

    Examples
    --------
    >>> import graphmine as gm, graphmine.cuda as gc
    >>> gc.release(gm.as_graph([(0, 1)]))
    0
    """
    cache = G.__dict__.pop("_cuda", {})
    return len(cache)
