"""Finding motif instances in a graph: exact enumeration, capped sampling, membership tests."""

from .._runtime.docs import fill_doc
import numpy as np

from .._runtime.interrupt import interruptible
from .._primitives.small_work import serial_first
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError, check_seed
from ..core.validation import as_graph
from . import _enum_kernels as _k
from .patterns import Motif

__all__ = ["find_motifs", "count_motifs", "is_motif", "motif_edge_flags", "canonical_tuples"]


def _check_motif(motif):
    if not isinstance(motif, Motif):
        raise ParameterError(f"motif must be a graphmine.motifs.Motif, got {type(motif).__name__}")
    return motif


def _level_matrices(motif, induced):
    """Pattern constraints re-indexed by matching-order level."""
    order = motif.match_order
    A, D = motif.adjacency()
    L = np.zeros((motif.k, motif.k), np.bool_)
    if motif.order_constraints.size:
        L[motif.order_constraints[:, 0], motif.order_constraints[:, 1]] = True
    inv = np.empty(motif.k, np.int64)
    inv[order] = np.arange(motif.k)
    req = A[np.ix_(order, order)].copy()
    forb = D[np.ix_(order, order)].copy() if induced else np.zeros_like(req)
    lt = L[np.ix_(order, order)].copy()
    parent = np.array([inv[p] if p >= 0 else -1 for p in motif.match_parent], np.int64)
    return parent, req, forb, lt


@interruptible
@restores_threads
@fill_doc
def find_motifs(G, motif, *, induced=True, cap_per_root=None, max_steps=None, seed=None, threads=None):
    """Instances of ``motif`` in ``G``, one canonical tuple per instance.

    Each instance is found once, from the vertex at the first position of the motif's matching
    order (its *root*). Without caps the enumeration is exact; ``cap_per_root`` / ``max_steps``
    bound the instances kept and the candidate probes spent per root (for sampling positives on
    large graphs), and ``seed`` then rotates the order in which each root scans its candidates.

    {Parameters: G, motif}
    induced : bool, default True
        Require the deal-breaker pairs to be non-edges.
    cap_per_root, max_steps : int, optional
        Most instances kept and most candidate probes spent per root (default: no cap).
    seed : int, optional
        With caps: rotates each root's scan order (default None: no rotation).
    {threads}

    Returns
    -------
    ndarray of int64, shape (N, k)
        Row i holds the vertices at positions 0..k-1, ordered by root, then by search order.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import clique, star
    >>> find_motifs(nx.complete_graph(4), clique(3)).tolist()
    [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
    >>> len(find_motifs(nx.star_graph(4), star(3)))          # C(4, 2) leaf pairs
    6
    """
    G = as_graph(G)
    motif = _check_motif(motif)
    nthreads = resolve_threads(threads)
    cap = np.iinfo(np.int64).max if cap_per_root is None else _positive("cap_per_root", cap_per_root)
    steps = -1 if max_steps is None else _positive("max_steps", max_steps)
    parent, req, forb, lt = _level_matrices(motif, induced)
    n = G.n_nodes
    roots = np.arange(n, dtype=np.int64)
    if seed is None:
        rots = np.zeros(n, np.int64)
    else:
        rots = check_seed(seed).integers(0, 1 << 30, size=n, dtype=np.int64)
    k = motif.k
    counts = np.zeros(n, np.int64)
    dummy = np.empty((0, k), np.int64)
    run = _k._enumerate
    if serial_first(run, G.indices.shape[0]):
        run = _k.enumerate_serial
    run(G.indptr, G.indices, roots, rots, parent, req, forb, lt, cap, steps, False, dummy, np.zeros(n, np.int64),
        counts, nthreads)
    base = np.zeros(n, np.int64)
    np.cumsum(counts[:-1], out=base[1:])
    out = np.empty((int(counts.sum()), k), np.int64)
    run(G.indptr, G.indices, roots, rots, parent, req, forb, lt, cap, steps, True, out, base, counts, nthreads)
    res = np.empty_like(out)
    res[:, motif.match_order] = out
    return res


@fill_doc
def count_motifs(G, motif, *, induced=True, threads=None):
    """The number of instances of ``motif`` in ``G`` (exact enumeration).

    {Parameters: G, motif}
    induced : bool, default True
        Require the deal-breaker pairs to be non-edges.
    {threads}

    Returns
    -------
    int
        The number of instances (automorphic images counted once).

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import cycle
    >>> count_motifs(nx.complete_graph(5), cycle(4), induced=False)   # 5 * 3 four-cycles
    15
    """
    return int(find_motifs(G, motif, induced=induced, threads=threads).shape[0])


def _positive(name, v):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ParameterError(f"{name} must be a positive integer, got {v!r}")
    return int(v)


def _check_tuples(G, motif, tuples):
    t = np.asarray(tuples)
    if t.ndim != 2 or t.shape[1] != motif.k:
        raise ParameterError(f"tuples must have shape (N, {motif.k}) for this motif, got {t.shape}")
    if t.dtype.kind not in "iu":
        raise ParameterError(f"tuples must hold integer vertex ids, got dtype {t.dtype}")
    t = t.astype(np.int64)
    if t.size and (t.min() < 0 or t.max() >= G.n_nodes):
        raise ParameterError(f"tuple vertices must lie in 0..{G.n_nodes - 1}")
    # a repeated vertex is no motif occurrence (and would score a vertex's pair with itself)
    _check_distinct(t, "tuples")
    return np.ascontiguousarray(t)


def _check_distinct(t, name):
    """ParameterError naming the first row of the (N, k) id array ``t`` that repeats a vertex."""
    if t.shape[1] > 1:
        if t.shape[1] == 2:
            bad = np.flatnonzero(t[:, 0] == t[:, 1])  # a row sort would cost more than the scores
        else:
            s = np.sort(t, axis=1)
            bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
        if bad.size:
            raise ParameterError(f"{name} must hold distinct vertices per row; row {bad[0]} is "
                                 f"{t[bad[0]].tolist()} ({bad.size:,} such rows)")


@interruptible
@restores_threads
@fill_doc
def motif_edge_flags(G, motif, tuples, *, dealbreakers=False, threads=None):
    """Which motif edges (or deal-breaker pairs) of every tuple are edges of ``G``.

    {Parameters: G, motif, motif_tuples}
    dealbreakers : bool, default False
        Flag the deal-breaker pairs instead of the motif edges.
    {threads}

    Returns
    -------
    ndarray of bool, shape (N, |E_M|) (or (N, |E_{M,D}|) with ``dealbreakers=True``)
        Entry (i, j): the j-th pair of the pattern is an edge of ``G`` in tuple i.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import clique
    >>> motif_edge_flags(nx.path_graph(4), clique(3), [[0, 1, 2]]).tolist()  # edges 01, 02, 12
    [[True, False, True]]
    """
    G = as_graph(G)
    motif = _check_motif(motif)
    t = _check_tuples(G, motif, tuples)
    pairs = motif.dealbreakers if dealbreakers else motif.edges
    flags = _k._tuple_edge_flags
    if serial_first(flags, G.indices.shape[0] + t.shape[0]):
        flags = _k.tuple_edge_flags_serial
    return flags(G.indptr, G.indices, t, np.ascontiguousarray(pairs), resolve_threads(threads))


@fill_doc
def is_motif(G, motif, tuples, *, induced=True, threads=None):
    """Whether each tuple (distinct vertices, positions in motif order) is an instance in ``G``.

    {Parameters: G, motif, motif_tuples}
    induced : bool, default True
        Require the deal-breaker pairs to be non-edges.
    {threads}

    Returns
    -------
    ndarray of bool of shape (N,)
        Whether every motif edge (and, if induced, no deal-breaker) is present.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import star
    >>> is_motif(nx.path_graph(4), star(3), [[1, 0, 2], [0, 1, 2]]).tolist()
    [True, False]
    """
    G = as_graph(G)
    motif = _check_motif(motif)
    t = _check_tuples(G, motif, tuples)
    ok = motif_edge_flags(G, motif, t, threads=threads).all(axis=1)
    if induced and motif.dealbreakers.size:
        ok &= ~motif_edge_flags(G, motif, t, dealbreakers=True, threads=threads).any(axis=1)
    st = np.sort(t, axis=1)
    ok &= np.all(st[:, 1:] != st[:, :-1], axis=1)
    return ok


@fill_doc
def canonical_tuples(motif, tuples):
    """Map every tuple of distinct vertices to its canonical automorphic image.

    Two tuples denote the same motif instance iff their canonical forms are equal.

    {Parameters: motif, motif_tuples}

    Returns
    -------
    ndarray of int64 of shape (N, k)
        The image of each tuple that meets the motif's order constraints.

    Examples
    --------
    >>> from graphmine.motifs import clique, star
    >>> canonical_tuples(clique(3), [[5, 2, 9]]).tolist()
    [[2, 5, 9]]
    >>> canonical_tuples(star(3), [[5, 9, 2]]).tolist()        # the centre stays first
    [[5, 2, 9]]
    """
    motif = _check_motif(motif)
    t = np.asarray(tuples, dtype=np.int64).reshape(-1, motif.k)
    imgs = t[:, motif.automorphisms]                          # (N, A, k)
    ok = np.ones(imgs.shape[:2], np.bool_)
    for a, b in motif.order_constraints.tolist():
        ok &= imgs[:, :, a] < imgs[:, :, b]
    pick = np.argmax(ok, axis=1)
    return imgs[np.arange(t.shape[0]), pick]
