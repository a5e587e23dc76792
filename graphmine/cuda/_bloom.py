"""Driver of the Bloom-sketch triangle estimate on the GPU (called by
:func:`graphmine.probgraph.count_triangles` with ``device='cuda'``)."""

import numpy as np

from .._primitives.estimators import bloom_tables
from ..probgraph.sketches import hash_seeds
from ._device import check_device_memory, cuda_module, device_graph
from .launch import SM_BLOCKS, _start, _stop, arc_sources, block_size, grid as _grid, quiet

__all__ = ["DeviceBloomSketch", "bloom_triangles"]


class DeviceBloomSketch:
    """Bloom sketches of the out-neighbourhoods of an orientation, held on the GPU.

    The attributes a result reports are those of
    :class:`~graphmine.probgraph.NeighbourhoodSketch`; ``filters``, ``hubs`` and ``hub_counts``
    are device arrays (``copy_to_host()`` gives the CPU sketch's arrays, bit for bit).
    """

    method = "bloom"

    def __init__(self, DG, order, words, hub_words, hashes, seed):
        cuda = cuda_module()
        from . import _bloom_kernels as BK

        n = DG.n
        if n > 2**32:
            from ..core.exceptions import ParameterError

            raise ParameterError(f"sketches hash vertex ids as 32-bit values; this graph has {n:,} vertices "
                                 "(more than 2**32): use method='exact'")
        self.scope = order
        self.seed = seed
        self.hashes = hashes
        self.bits = 64 * words
        self.k = 0
        self.hub_bits = 64 * hub_words
        self.hub_base = n - self.hub_bits if hub_words > 0 else n
        need = 8 * n * (words + hub_words + 1)
        check_device_memory(need, f"Bloom sketches of {n:,} vertices ({self.bits} bits each)",
                            "lower the budget or bits, or use device='cpu'")
        self.seeds = hash_seeds(seed, hashes)
        B = block_size()
        self.filters = cuda.device_array((max(n, 1), words), np.uint64)
        self.hubs = cuda.device_array((max(n, 1), hub_words), np.uint64)
        self.hub_counts = cuda.device_array(max(n, 1), np.int64)  # every row written by _bloom_build
        for a in (self.filters, self.hubs):
            if a.size:
                BK._zero[_grid(a.size, B), B](a)
        if n:
            BK._bloom_build[_grid(n, B), B](DG.optr, DG.oind, words, hub_words, self.hub_base,
                                            cuda.to_device(self.seeds), self.filters, self.hubs, self.hub_counts)
        ctab, vtab = bloom_tables(self.bits, hashes)
        self.ctab = ctab
        self.stab = np.sqrt(vtab)
        self.nbytes = 8 * n * (words + hub_words)
        csr_bytes = 8 * (n + DG.m)
        self.budget = self.nbytes / csr_bytes if csr_bytes else 0.0

    @property
    def words(self):
        return self.filters.shape[1]

    def params(self):
        return {"order": self.scope, "seed": self.seed, "bits": self.bits, "hashes": self.hashes,
                "words": self.words, "hub_bits": self.hub_bits}


def bloom_triangles(G, order, threads, words, hub_words, hashes, seed, est, clamp, thresh, timings=None):
    """(float64[7] as the CPU's ``_triangles_bloom_total``, the sketch) for one seed."""
    with quiet():
        return _bloom_triangles(G, order, threads, words, hub_words, hashes, seed, est, clamp, thresh, timings)


def _bloom_triangles(G, order, threads, words, hub_words, hashes, seed, est, clamp, thresh, timings):
    from . import _bloom_kernels as BK

    cuda = cuda_module()
    DG = device_graph(G, order, threads, peeled=False)  # the CPU's orientation: the CPU's filters, bit for bit
    S = DeviceBloomSketch(DG, order, words, hub_words, hashes, seed)
    out = np.zeros(7, np.float64)
    if DG.m == 0:
        return out, S
    src = arc_sources(DG)
    B = block_size()
    blocks = _grid(DG.m, B, SM_BLOCKS)
    part_f = cuda.device_array((blocks, 3), np.float64)
    part_i = cuda.device_array((blocks, 4), np.int64)
    t0, t1 = _start(timings)
    BK._bloom_triangles[blocks, B](DG.optr, DG.oind, src, est, bool(clamp), S.filters, S.bits, float(hashes),
                                   cuda.to_device(S.ctab), cuda.to_device(S.stab), S.hubs, S.hub_counts,
                                   thresh, part_f, part_i)
    _stop(timings, t0, t1)
    f = part_f.copy_to_host().sum(axis=0)
    i = part_i.copy_to_host().sum(axis=0)
    out[:] = [i[0], f[0], f[1], f[2], i[1], i[2], i[3]]
    return out, S
