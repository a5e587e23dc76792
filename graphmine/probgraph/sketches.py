"""Sketches of every vertex neighbourhood: Bloom filters, k-hash and 1-hash MinHash, KMV.

All sketches of a graph share one size and one set of seeded hash functions (AND/OR between
Bloom filters and position-wise MinHash comparisons need that). The size is a ``budget``: the
sketch memory as a fraction of the sketched CSR counted as 64 bits per row pointer and per
stored neighbour, 64 (n + nnz) bits — the knob of the ProbGraph paper — or given directly as
``bits`` (Bloom, rounded up to whole 64-bit words) or ``sketch_k`` (MinHash/KMV values, 32 bits
each).
"""

import math
import time

import numpy as np

from .._runtime.threads import resolve_threads, restores_threads
from .._runtime.limits import check_allocation
from .._primitives.small_work import serial_first
from ..core.exceptions import ParameterError, check_choice, check_int
from ..core.validation import as_graph
from .._primitives import sketch_kernels as _sk
from ..core.registry import SKETCH_METHODS, check_method
from .._primitives.estimators import KIND_BLOOM, KIND_KHASH, KIND_KMV, KIND_ONEHASH, bloom_tables

__all__ = ["METHODS", "ESTIMATORS", "NeighbourhoodSketch", "sketch_neighbourhoods", "DEFAULT_BUDGET", "MAX_HASHES",
           "check_estimator", "hash_seeds", "resolve_seed", "sketch_size"]

METHODS = SKETCH_METHODS  # the one list, in graphmine.core.registry
# sketch method -> its intersection estimators, the default first
ESTIMATORS = {"bloom": ("or", "and", "limit"), "khash": ("minhash",), "onehash": ("minhash",),
              "kmv": ("kmv",)}
KINDS = {"bloom": KIND_BLOOM, "khash": KIND_KHASH, "onehash": KIND_ONEHASH, "kmv": KIND_KMV}
SCOPES = ("all", "degree", "degeneracy")
DEFAULT_BUDGET = 0.25  # sketch memory as a fraction of the CSR's, when no size is given
MAX_HASHES = 16  # most hash functions of one Bloom filter


def check_estimator(method, estimator):
    """Validate the intersection ``estimator`` of a sketch ``method``, or pick its default.

    Parameters
    ----------
    method : str
        A checked sketch method (a key of :data:`ESTIMATORS`).
    estimator : str or None
        One of ``ESTIMATORS[method]``; None for the default (the first).

    Returns
    -------
    str
        The estimator.

    Raises
    ------
    ParameterError
        An estimator the method does not have.

    Examples
    --------
    >>> check_estimator("bloom", None), check_estimator("bloom", "limit")
    ('or', 'limit')
    """
    if estimator is None:
        return ESTIMATORS[method][0]
    if estimator not in ESTIMATORS[method]:
        raise ParameterError(f"estimator for method={method!r} must be one of "
                             f"{', '.join(map(repr, ESTIMATORS[method]))}, got {estimator!r}")
    return estimator


def resolve_seed(seed):
    """An int seed, drawn from fresh entropy when None (so the result can still be reproduced).

    Parameters
    ----------
    seed : int or None
        A non-negative integer, or None.

    Returns
    -------
    int
        ``seed``, or a random one in 0..2**63 - 1.

    Raises
    ------
    ParameterError
        A negative or non-integer seed.

    Examples
    --------
    >>> resolve_seed(7), 0 <= resolve_seed(None) < 2**63
    (7, True)
    """
    if seed is None:
        return int(np.random.default_rng().integers(2**63))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ParameterError(f"seed must be a non-negative integer or None, got {seed!r}")
    return int(seed)


def hash_seeds(seed, count):
    """Seeded parameters of ``count`` hash functions.

    Parameters
    ----------
    seed : int
        Seed of numpy's generator.
    count : int
        Number of hash functions.

    Returns
    -------
    ndarray of uint64 of shape (count, 3)
        Per function: an xor key and an offset below 2**32 and an odd multiplier below 2**32.

    Examples
    --------
    >>> h = hash_seeds(1, 2)
    >>> h.shape, h.dtype.name, (h[:, 1] % 2).tolist()
    ((2, 3), 'uint64', [1, 1])
    """
    rng = np.random.default_rng(seed)
    out = np.empty((count, 3), np.uint64)
    out[:, 0] = rng.integers(0, 2**32, count, dtype=np.uint64)
    out[:, 1] = rng.integers(0, 2**31, count, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    out[:, 2] = rng.integers(0, 2**32, count, dtype=np.uint64)
    return out


def sketch_size(method, n, nnz, budget=None, bits=None, sketch_k=None):
    """The size of every vertex's sketch for a CSR of n rows and nnz entries.

    With ``budget`` (default :data:`DEFAULT_BUDGET`) each vertex gets
    :math:`b = budget \\cdot 64 (n + nnz) / n` bits: b / 64 words of Bloom filter, or b / 32
    32-bit values (at least 3) of MinHash/KMV.

    Parameters
    ----------
    method : {'bloom', 'khash', 'onehash', 'kmv'}
        The sketch.
    n, nnz : int
        Rows and entries of the sketched CSR.
    budget : float, optional
        Fraction of the CSR's 64 (n + nnz) bits, in (0, 1].
    bits : int, optional
        Bloom filter bits (1..2**31), instead of ``budget``.
    sketch_k : int, optional
        MinHash/KMV values (1..2**20, >= 3 for KMV), instead of ``budget``.

    Returns
    -------
    words : int
        64-bit words of a Bloom filter (0 for the other methods).
    k : int
        Values of a MinHash/KMV sketch (0 for Bloom filters).

    Raises
    ------
    ParameterError
        More than one size given, a size that does not fit the method, or one out of range.

    Examples
    --------
    >>> sketch_size("bloom", 4, 12), sketch_size("kmv", 4, 12, budget=0.5), sketch_size("khash", 4, 12, sketch_k=8)
    ((1, 0), (0, 4), (0, 8))
    """
    given = [x is not None for x in (budget, bits, sketch_k)]
    if sum(given) > 1:
        raise ParameterError("give at most one of budget, bits and sketch_k")
    if method == "bloom" and sketch_k is not None:
        raise ParameterError("sketch_k sizes MinHash/KMV sketches; Bloom filters take bits")
    if method != "bloom" and bits is not None:
        raise ParameterError(f"bits sizes Bloom filters; method={method!r} takes sketch_k")
    if bits is not None:
        return (check_int("bits", bits, 1, 2**31) + 63) // 64, 0
    if sketch_k is not None:
        return 0, check_int("sketch_k", sketch_k, 3 if method == "kmv" else 1, 2**20)
    if budget is None:
        budget = DEFAULT_BUDGET
    if isinstance(budget, bool) or not isinstance(budget, (int, float, np.integer, np.floating)) \
            or not math.isfinite(budget) or budget <= 0:
        raise ParameterError(f"budget must be a positive number (fraction of the CSR size), got {budget!r}")
    if budget > 1:
        raise ParameterError(f"budget must be at most 1 (sketches as large as the graph), got {budget!r}: "
                             "a larger sketch saves nothing over method='exact'")
    per_vertex_bits = budget * 64.0 * (n + nnz) / max(n, 1)
    if method == "bloom":
        return max(1, int(per_vertex_bits // 64)), 0
    return 0, max(3, int(per_vertex_bits // 32))


class NeighbourhoodSketch:
    """Sketches of the neighbourhoods N(v) (scope 'all') or out-neighbourhoods N+(v).

    Attributes
    ----------
    method : str
    scope : {'all', 'degree', 'degeneracy'}
        Which sets were sketched: N(v), or N+(v) of that orientation.
    indptr, indices : ndarray
        The sketched CSR.
    set_sizes : ndarray of int64
        |set| of every vertex (exact).
    filters : ndarray of uint64, shape (n, words)
        Bloom filters (method 'bloom'); bit j of filter v is ``filters[v, j // 64] >> (j % 64) & 1``.
    values, stored : ndarray
        MinHash minima (uint32, shape (n, k)) or bottom-k hash values (sorted) and how many
        each row holds (methods 'khash', 'onehash', 'kmv').
    rank, rows, start, arcs : ndarray or None
        Bloom sketches of the degree orientation read straight from the full CSR (``rank``
        given; ``indptr``/``indices`` are then the full CSR): everything is indexed by rank
        (``rank[v]`` of vertex v, ids hashed by rank), ``rows`` holds every hub bitmap followed
        by its filter (``hubs`` and ``filters`` are views of it), and the out-neighbourhood of
        the vertex of rank r is ``arcs[start[r]:start[r] + set_sizes[r]]`` (ranks, unsorted).
        The sketches equal those of the relabelled orientation's CSR under the same seed.
    hubs, hub_counts : ndarray
        Split Bloom sketches (``hub_bits`` > 0, oriented scopes with ids relabelled by rank): an
        exact bitmap of the ``hub_bits`` largest ids ``>= hub_base`` (bit x - hub_base of row v
        is set iff x is in the set) and, in ``filters``, a Bloom filter of the other elements;
        ``hub_counts`` is the number of hub elements of every set. Intersections over the hubs
        are then exact popcounts and only the rest is estimated.
    bits, hashes, hub_bits, k, seed, budget, nbytes, seconds
        Sizes and seed of the sketch, its memory (bytes) and the time its build took.

    Parameters
    ----------
    method : {'bloom', 'khash', 'onehash', 'kmv'}
        The sketch.
    scope : {'all', 'degree', 'degeneracy'}
        Which sets ``indptr``/``indices`` hold.
    indptr, indices : ndarray
        The CSR of the sets to sketch (or, with ``rank``, the full CSR).
    words : int
        64-bit words of a Bloom filter (see :func:`sketch_size`).
    k : int
        Values of a MinHash/KMV sketch.
    hashes : int
        Hash functions of a Bloom filter.
    seed : int
        Seed of the hash functions.
    threads : int or None
        Threads of the build kernels.
    hub_words : int, default 0
        Words of the exact hub bitmap (Bloom, oriented scopes).
    rank : ndarray, optional
        The degree order's ranks: build the oriented sketches from the full CSR.

    Examples
    --------
    Built by :func:`sketch_neighbourhoods`, which checks its arguments:

    >>> import networkx as nx
    >>> S = sketch_neighbourhoods(nx.complete_graph(5), "kmv", seed=1)
    >>> S.method, S.scope, S.k, S.set_sizes.tolist()
    ('kmv', 'all', 3, [4, 4, 4, 4, 4])
    """

    @restores_threads
    def __init__(self, method, scope, indptr, indices, words, k, hashes, seed, threads, hub_words=0, rank=None):
        t0 = time.perf_counter()
        if indptr.shape[0] - 1 > 2**32:
            # the hash functions are bijections of 32-bit ids: more vertices would collide
            raise ParameterError(f"sketches hash vertex ids as 32-bit values; this graph has "
                                 f"{indptr.shape[0] - 1:,} vertices (more than 2**32): use method='exact'")
        nthreads = resolve_threads(threads)
        self.method = method
        self.scope = scope
        self.indptr = indptr
        self.indices = indices
        self.set_sizes = np.diff(indptr)
        self.seed = seed
        self.kind = KINDS[method]
        n = indptr.shape[0] - 1
        if method == "bloom":
            need = 8 * n * (words + hub_words) + 3 * 8 * (64 * words + 1)  # sketches and the three lookup tables
            if rank is not None:
                need += indices.nbytes + 24 * n  # the arcs, their starts, out-degrees and hub counts
        else:
            need = 4 * n * k * (2 if method in ("onehash", "kmv") else 1)
        check_allocation(need, f"{method} sketches of {n:,} vertices ({words * 64 if method == 'bloom' else k} "
                         f"{'bits' if method == 'bloom' else 'values'} each)", "lower the budget, bits or sketch_k")
        self.n = n
        self.filters = np.zeros((1, 1), np.uint64)
        self.values = np.zeros((1, 1), np.uint32)
        self.stored = np.zeros(1, np.int64)
        self.ctab = np.zeros(1, np.float64)
        self.vtab = np.zeros(1, np.float64)
        self.stab = np.zeros(1, np.float64)
        self.hubs = np.zeros((1, 0), np.uint64)
        self.hub_counts = np.zeros(n, np.int64)
        self.hub_bits = 0
        self.hub_base = n
        self.rank = self.rows = self.start = self.arcs = None
        nnz = indices.shape[0]
        if method == "bloom":
            self.hashes = hashes
            self.seeds = hash_seeds(seed, hashes)
            self.bits = 64 * words
            self.k = 0
            if rank is not None:
                self.rank = rank
                build = _sk._bloom_hub_build_ranked
                if serial_first(build, indices.shape[0]):
                    build = _sk.bloom_hub_build_ranked_serial
                self.rows, self.hub_counts, self.set_sizes, self.start, self.arcs = build(
                    indptr, indices, rank, hub_words, words, self.seeds, nthreads)
                self.hubs = self.rows[:, :hub_words]
                self.filters = self.rows[:, hub_words:]
                self.hub_bits = 64 * hub_words
                self.hub_base = n - self.hub_bits
                nnz = int(self.set_sizes.sum())
            elif hub_words > 0:
                self.hubs, self.filters, self.hub_counts = _sk._bloom_hub_build(
                    indptr, indices, hub_words, words, self.seeds, nthreads)
                self.hub_bits = 64 * hub_words
                self.hub_base = n - self.hub_bits
            else:
                build = _sk._bloom_build
                if serial_first(build, indices.shape[0]):
                    build = _sk.bloom_build_serial
                self.filters = build(indptr, indices, words, self.seeds, nthreads)
            self.ctab, self.vtab = bloom_tables(self.bits, hashes)
            self.stab = np.sqrt(self.vtab)
            self.nbytes = 8 * n * (words + hub_words)
        elif method == "khash":
            self.hashes = k
            self.k = k
            self.bits = 32 * k
            self.seeds = hash_seeds(seed, k)
            self.values = _sk._khash_build(indptr, indices, self.seeds, nthreads)
            self.nbytes = int(self.values.nbytes)
        else:
            self.hashes = 1
            self.k = k
            self.bits = 32 * k
            self.seeds = hash_seeds(seed, 1)
            max_deg = int(self.set_sizes.max()) if n else 0
            self.values, self.stored = _sk._bottomk_build(indptr, indices, k, self.seeds[0], max_deg, nthreads)
            self.nbytes = int(self.values.nbytes)
        csr_bytes = 8 * (n + nnz)
        self.budget = self.nbytes / csr_bytes if csr_bytes else 0.0
        self.seconds = time.perf_counter() - t0

    @property
    def words(self):
        return self.filters.shape[1] if self.method == "bloom" else 0

    def params(self):
        """The sketch parameters as a dict (what results report)."""
        p = {"order": self.scope, "seed": self.seed}
        if self.method == "bloom":
            p.update(bits=self.bits, hashes=self.hashes, words=self.words, hub_bits=self.hub_bits)
        else:
            p.update(k=self.k)
        return p

    @restores_threads
    def fill(self, threads=None):
        """Fraction of set bits of every Bloom filter."""
        if self.method != "bloom":
            raise ParameterError("fill is defined for Bloom filters only")
        return _sk._bloom_ones(self.filters, resolve_threads(threads)) / self.bits

    def expected_fill(self, size):
        """Expected fill of a filter holding ``size`` elements: 1 - (1 - 1/B)^(b size)."""
        return 1.0 - (1.0 - 1.0 / self.bits) ** (self.hashes * np.asarray(size, np.float64))

    def bloom_positions(self, x):
        """The bit positions element ``x`` sets in every filter (Bloom only; for interop/tests)."""
        if self.method != "bloom":
            raise ParameterError("bloom_positions is defined for Bloom filters only")
        row = np.zeros(self.words, np.uint64)
        _sk._bloom_insert(row, int(x), self.bits, self.seeds)
        bits = np.unpackbits(row.view(np.uint8), bitorder="little")
        return np.flatnonzero(bits)

    def __repr__(self):
        size = f"bits={self.bits}, hashes={self.hashes}" if self.method == "bloom" else f"k={self.k}"
        return (f"NeighbourhoodSketch({self.method!r}, scope={self.scope!r}, n={self.n}, {size}, "
                f"budget={self.budget:.3g}, nbytes={self.nbytes})")


def sketch_neighbourhoods(G, method="bloom", *, budget=None, bits=None, hashes=1, sketch_k=None,
                          seed=None, scope="all", threads=None):
    """Sketch every neighbourhood of ``G`` with one shared size and hash family.

    Parameters
    ----------
    G : Graph or anything :func:`graphmine.as_graph` accepts
    method : {'bloom', 'khash', 'onehash', 'kmv'}
    budget : float, optional
        Sketch memory as a fraction of the sketched CSR, 64 (n + nnz) bits (default 0.25 when
        neither ``bits`` nor ``sketch_k`` is given).
    bits : int, optional
        Bloom filter size B (rounded up to a multiple of 64).
    hashes : int
        Bloom hash functions b (1..16).
    sketch_k : int, optional
        MinHash hash functions (k-hash) or values kept (1-hash, KMV).
    seed : int, optional
        Seeds the hash functions; the same seed gives the same sketches.
    scope : {'all', 'degree', 'degeneracy'}
        Sketch N(v), or N+(v) of the degree / degeneracy orientation.
    threads : int, optional

    Returns
    -------
    NeighbourhoodSketch

    Examples
    --------
    >>> import networkx as nx
    >>> S = sketch_neighbourhoods(nx.karate_club_graph(), "bloom", bits=256, seed=1)
    >>> S.filters.shape, S.bits
    ((34, 4), 256)
    """
    G = as_graph(G)
    check_method(method, METHODS)
    check_choice("scope", scope, SCOPES)
    hashes = check_int("hashes", hashes, 1, MAX_HASHES)
    seed = resolve_seed(seed)
    if scope == "all":
        indptr, indices = G.indptr, G.indices
    else:
        O = G.oriented(scope, threads=threads)
        indptr, indices = O.indptr, O.indices
    words, k = sketch_size(method, G.n_nodes, indices.shape[0], budget, bits, sketch_k)
    return NeighbourhoodSketch(method, scope, indptr, indices, words, k, hashes, seed, threads)
