"""The CUDA device: finding it, checking its free memory, and the per-graph cache of device arrays.

Nothing here imports ``numba.cuda`` at module level: the CPU path of graphmine must never load the
CUDA machinery (start-up time, and no driver is needed). :func:`cuda_module` imports it on first
use; under ``NUMBA_ENABLE_CUDASIM=1`` (set before the first import) that is numba's simulator,
which is how the kernels are tested without a GPU.
"""

import os

import numpy as np

from .._runtime.limits import format_bytes
from ..core.exceptions import GraphmineError, MissingDependencyError, ResourceLimitError
from ..core.registry import DEVICES, check_device  # validated in the core; re-exported here

__all__ = ["NoCudaDeviceError", "DEVICES", "AUTO_MIN_EDGES", "auto_min_edges", "check_device", "cuda_module",
           "is_available", "use_cuda",
           "require_device", "preflight", "check_device_memory", "device_graph", "release"]

_STATE = {}


class NoCudaDeviceError(GraphmineError, RuntimeError):
    """``device='cuda'`` was asked for, but no CUDA device is visible to this process."""


def cuda_module():
    """``numba.cuda``, imported on first use.

    Returns
    -------
    module
        ``numba.cuda``.

    Raises
    ------
    MissingDependencyError
        numba-cuda is not installed (names the ``cuda`` extra).

    Examples
    --------
    >>> import graphmine.cuda as gc
    >>> cuda_module().__name__ if gc.is_available() else "numba.cuda"
    'numba.cuda'
    """
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

    Returns
    -------
    bool

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


# device='auto': the GPU counts exactly when the graph has at least this many edges (by k; the
# last entry for every larger k) and a device is visible. From whole processes on one H200 against
# its host's 16 cores (docs/gpu.md): below these sizes the CUDA start (about 1 s: import, context,
# kernels from the disk cache) costs more than the CPU's whole count. Triangles: the GPU lost at
# Kronecker 20 (15.7M edges, 1.47x the CPU's time) and won at 22 (64M, 0.68x); 4-cliques: lost at
# Kronecker 16 (0.9M edges), 5-cliques at 14 (0.2M); the CPU's count grows about 8x (k = 4) and
# 10x (k = 5) per two scales against the GPU's fixed second.
AUTO_MIN_EDGES = {3: 1 << 25, 4: 1 << 21, 5: 1 << 19, 6: 1 << 18}


def auto_min_edges(k):
    """The fewest edges for which ``device='auto'`` counts k-cliques on the GPU.

    Parameters
    ----------
    k : int
        Clique size (sizes beyond those measured take the largest one's rule).

    Returns
    -------
    int
        The edge count from :data:`AUTO_MIN_EDGES`, where the GPU's count was measured to win.

    Examples
    --------
    >>> auto_min_edges(3) == 2**25, auto_min_edges(9) == auto_min_edges(6)
    (True, True)
    """
    return AUTO_MIN_EDGES.get(k, AUTO_MIN_EDGES[max(AUTO_MIN_EDGES)])


def use_cuda(device, G=None, k=3):
    """Whether a call runs on the GPU.

    A graph below the size rule stays on the CPU without loading any CUDA machinery.

    Parameters
    ----------
    device : {'cpu', 'cuda', 'auto'}
        'cuda': yes (raising when no device is visible); 'auto': when a device is visible and,
        when ``G`` is given, it has at least :func:`auto_min_edges` (k) edges.
    G : Graph, optional
        The graph of the call.
    k : int, default 3
        Its clique size.

    Returns
    -------
    bool

    Raises
    ------
    NoCudaDeviceError
        ``device='cuda'`` without a visible device.
    ParameterError
        An unknown device.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> use_cuda("cpu"), use_cuda("auto", gm.as_graph(nx.path_graph(3)))
    (False, False)
    """
    device = check_device(device)
    if device == "cpu":
        return False
    if device == "auto":
        if G is not None and G.n_edges < auto_min_edges(k):
            return False
        return is_available()
    require_device()
    return True


def _has_numba_cuda():
    """Whether the numba-cuda package is installed (numba's own, older ``numba.cuda`` imports
    without it, so the import alone does not tell)."""
    from importlib import metadata

    try:
        metadata.distribution("numba-cuda")
    except metadata.PackageNotFoundError:
        return False
    return True


def require_device():
    """Raise unless a CUDA device (or numba's simulator) is visible.

    Raises
    ------
    NoCudaDeviceError
        No device is visible (names the ``cuda`` extra when numba-cuda is missing too).

    Examples
    --------
    >>> import graphmine.cuda as gc
    >>> require_device() if gc.is_available() else None
    """
    if not is_available():
        cuda_module()  # a missing package says so first
        hint = "" if _has_numba_cuda() else ('; the GPU kernels also need numba-cuda, which is not installed: '
                                             'pip install "graphmine[cuda]" on a machine with an NVIDIA GPU')
        raise NoCudaDeviceError("no CUDA device visible (device='cuda'); use device='cpu' or 'auto'" + hint)


def preflight():
    """Fail fast, before a long load, when ``device='cuda'`` cannot run here.

    Asks the driver library for its device count through ctypes instead of importing numba.cuda
    (a third of a second, which the ``graphmine`` program overlaps with the file read instead).
    Where the driver library cannot be opened, the full check (:func:`require_device`) names what
    is missing: the ``cuda`` extra or a visible device. Under numba's simulator it passes.

    Raises
    ------
    NoCudaDeviceError
        No device is visible.
    MissingDependencyError
        numba-cuda is not installed (names the ``cuda`` extra).

    Examples
    --------
    >>> import graphmine.cuda as gc
    >>> gc.preflight() if gc.is_available() else None  # raises NoCudaDeviceError without a GPU
    """
    if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0"):
        return
    import ctypes
    import sys

    try:
        lib = ctypes.CDLL("nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1")
        count = ctypes.c_int(0)
        ok = lib.cuInit(0) == 0 and lib.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0
    except (OSError, AttributeError):
        ok = False
    if not ok:
        require_device()


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
    """Raise unless ``nbytes`` fit in the GPU's free memory.

    Parameters
    ----------
    nbytes : int
        The bytes an allocation needs.
    what : str
        What they hold, for the message.
    hint : str, default "use device='cpu'"
        What to do instead, for the message.

    Raises
    ------
    ResourceLimitError
        ``nbytes`` exceed the free memory (the message names both sizes).

    Examples
    --------
    >>> check_device_memory(8, "one counter")
    """
    free, total = _gpu_limit()
    if free is not None and nbytes > free:
        raise ResourceLimitError(f"{what} needs {format_bytes(nbytes)} of GPU memory, but only "
                                 f"{format_bytes(free)} of {format_bytes(total)} is free; {hint}")


class DeviceGraph:
    """One orientation of a graph on the device: the oriented CSR and per-use data built once.

    ``optr`` (int64, n + 1), ``oind`` (int32 or int64, m) device arrays; ``hptr`` the row pointers
    on the host; ``rank()`` the host rank array (copied back on first use when the GPU built the
    orientation). ``src`` (arc sources) and the other entries of ``extra`` are filled by the
    kernels' drivers on first use. ``rows`` and ``cols`` restrict the arcs the triangle kernels
    count to sources in ``rows`` and targets in ``cols`` (id ranges; all by default): a
    partitioned count runs on such views.

    Parameters
    ----------
    optr, oind : device arrays
        The oriented CSR on the device.
    hptr : ndarray of int64
        The row pointers on the host.
    rank : ndarray or device array
        The id of every vertex in the oriented CSR.
    n, m : int, optional
        Vertices and arcs (default: from ``hptr`` and ``oind``).

    Attributes
    ----------
    n, m, optr, oind, hptr, max_out_degree, rows, cols, built_on, peel_rounds, extra
        As described above.

    Examples
    --------
    >>> import graphmine as gm, graphmine.cuda as gc
    >>> DG = device_graph(gm.as_graph([(0, 1), (1, 2)]), "degree", 1) if gc.is_available() else None
    >>> DG.m if DG is not None else 2
    2
    """

    def __init__(self, optr, oind, hptr, rank, n=None, m=None):
        self.n = hptr.shape[0] - 1 if n is None else n
        self.m = oind.shape[0] if m is None else m
        self.hptr = hptr
        d = np.diff(hptr)
        self.max_out_degree = int(d.max()) if d.size else 0
        self.optr = optr
        self.oind = oind
        self._rank = rank
        self.rows = (0, self.n)
        self.cols = (0, self.n)
        self.built_on = "host"
        self.peel_rounds = None  # rounds of the approximate degeneracy order built on the GPU
        self.extra = {}

    @classmethod
    def from_host(cls, O, cuda):
        optr = cuda.to_device(np.ascontiguousarray(O.indptr))
        oind = cuda.to_device(np.ascontiguousarray(O.indices))
        return cls(optr, oind, O.indptr, O.rank)

    def rank(self):
        """rank[v]: the id of vertex v in the oriented CSR (host int64 array)."""
        if not isinstance(self._rank, np.ndarray):
            self._rank = self._rank.copy_to_host()[:self.n].astype(np.int64)
        return self._rank

    @property
    def nbytes(self):
        total = self.optr.nbytes + self.oind.nbytes
        for v in self.extra.values():
            for a in (v if isinstance(v, tuple) else (v,)):
                total += getattr(a, "nbytes", 0)
        return total


def _build_on_gpu():
    """Whether the degree orientation is built on the GPU (GRAPHMINE_CUDA_BUILD=host: on the CPU)."""
    return os.environ.get("GRAPHMINE_CUDA_BUILD", "gpu") != "host"


# the cache entry of the approximate degeneracy orientation built on the device (k-cliques)
PEELED = "degeneracy (peeled on the GPU)"
# from this many edges a k-clique count without the host's degeneracy order peels one on the GPU.
# Measured on one H200 against its host (docs/gpu.md): the peel takes 7-14 ms up to about a
# million edges (4-5 rounds, two sorts), the CPU's one-pass order about 21 ns an edge: 5.1 ms at
# Kronecker 14 (213k edges; the peel 14.0 ms), 19.3 ms at Kronecker 16 (909k; 13.6 ms), 148 ms at
# Kronecker 18 (3.8M; 36 ms); they cross at about 650k edges
PEEL_MIN_EDGES = 1 << 19


def device_graph(G, order, threads, peeled=True):
    """The oriented CSR of ``G`` (ids relabelled by rank) on the device, built once and cached
    on the graph (:meth:`graphmine.Graph.backend_cache` ``('cuda')``).

    The degree orientation is built on the GPU from the host CSR (:mod:`graphmine.cuda._build`)
    unless the host already holds it (then it is copied) or the build does not fit. For
    ``order='degeneracy'`` the host's exact orientation is copied when the host holds it;
    otherwise (``peeled``, and at least :data:`PEEL_MIN_EDGES` edges) the GPU builds an
    approximate degeneracy orientation, whose counts are the same (every orientation of a total
    order gives each clique once); ``peeled=False`` always takes the host's (several GPUs must
    share one orientation).

    Parameters
    ----------
    G : Graph
        The graph.
    order : {'degree', 'degeneracy'}
        The orientation.
    threads : int
        Host threads for a host-side orientation.
    peeled : bool, default True
        Whether the GPU may build an approximate degeneracy orientation.

    Returns
    -------
    DeviceGraph
        The oriented CSR on the device.

    Raises
    ------
    ResourceLimitError
        The oriented graph does not fit in the GPU's memory.

    Examples
    --------
    >>> import graphmine as gm, graphmine.cuda as gc
    >>> device_graph(gm.as_graph([(0, 1), (1, 2)]), "degree", 1).m if gc.is_available() else 2
    2
    """
    cuda = cuda_module()
    cache = G.backend_cache("cuda")
    if order in cache:
        return cache[order]
    peel = order == "degeneracy" and peeled and G.n_edges >= PEEL_MIN_EDGES
    if peel and PEELED in cache:
        return cache[PEELED]
    what = f"the {order}-oriented graph ({G.n_nodes:,} vertices, {G.n_edges:,} edges)"
    check_device_memory(8 * (G.n_nodes + 1) + G.indices.dtype.itemsize * G.n_edges, what)
    DG = None
    if (order == "degree" or peel) and not G.has_orientation(order, relabel=True):
        DG = _build_device_graph(G, order)
    if DG is None:
        peel = False
        DG = DeviceGraph.from_host(G.oriented(order, relabel=True, threads=threads), cuda)
    cache[PEELED if peel else order] = DG
    return DG


def _build_device_graph(G, order):
    """The ``order`` ('degree', or 'degeneracy': approximate) orientation built on the GPU, or
    None where the build does not fit (or GRAPHMINE_CUDA_BUILD=host asks for the CPU's)."""
    # (the build's 64-bit keys hold two ids: n below 2**31)
    if not _build_on_gpu() or G.n_nodes >= 2**31:
        return None
    from . import _build

    free, _ = _gpu_limit()
    if free is not None and _build.build_bytes(G.n_nodes, 2 * G.n_edges, G.n_edges) > free:
        return None
    if order == "degree":
        optr, oind, rank = _build.orient_degree(G.indptr, G.indices)
        rounds = None
    else:
        optr, oind, rank, rounds = _build.orient_peeled(G.indptr, G.indices)
    DG = DeviceGraph(optr, oind, optr.copy_to_host(), rank, m=G.n_edges)
    DG.built_on = "gpu"
    DG.peel_rounds = rounds
    return DG


def release(G):
    """Free the device arrays cached on ``G`` (they are rebuilt on the next GPU call).

    Parameters
    ----------
    G : Graph
        A graph that may have been counted on the GPU.

    Returns
    -------
    int
        The number of cached device entries dropped (0 when nothing was cached).

    Examples
    --------
    >>> import graphmine as gm, graphmine.cuda as gc
    >>> gc.release(gm.as_graph([(0, 1)]))
    0
    """
    cache = G.drop_backend_cache("cuda")
    return len(cache)
