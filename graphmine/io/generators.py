"""Seeded random graph generators for inputs larger than the shipped data sets.

All generators take ``seed`` (int or ``numpy.random.Generator``) and are reproducible.
"""

from .._runtime.docs import fill_doc
import numpy as np

from .._primitives.small_work import unique_ints
from ..core.exceptions import ParameterError, check_seed
from ..core.graph import from_edges

__all__ = ["kronecker_edges", "kronecker_graph", "erdos_renyi_graph", "planted_cliques_graph"]

GRAPH500 = (0.57, 0.19, 0.19)


@fill_doc
def kronecker_edges(scale, edge_factor=16, *, a=0.57, b=0.19, c=0.19, seed=None, permute=True):
    """Edges of an R-MAT / Kronecker graph with the Graph500 generator's parameters.

    Draws ``edge_factor * 2**scale`` edges over ``2**scale`` vertices: each edge picks one of
    the four quadrants of the adjacency matrix per bit, with probabilities a, b, c and
    1 - a - b - c. Vertex labels are randomly permuted (as Graph500 does) unless
    ``permute=False``. The result keeps self-loops and duplicates, like the generator's output.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices, in 1..40.
    edge_factor : int, default 16
        Edges drawn per vertex, >= 1.
    a, b, c : float, default 0.57, 0.19, 0.19
        Quadrant probabilities (Graph500's); non-negative with a + b + c <= 1.
    {rng_seed}
    permute : bool, default True
        Permute the vertex labels at random.

    Returns
    -------
    ndarray of int64, shape (edge_factor * 2**scale, 2)
        The drawn edges, endpoints in 0..2**scale - 1.

    Raises
    ------
    ParameterError
        ``scale``, ``edge_factor`` or the probabilities out of range.

    Examples
    --------
    >>> kronecker_edges(4, 2, seed=1).shape
    (32, 2)
    """
    if not (isinstance(scale, (int, np.integer)) and 1 <= scale <= 40):
        raise ParameterError(f"scale must be an integer in 1..40, got {scale!r}")
    if not (isinstance(edge_factor, (int, np.integer)) and edge_factor >= 1):
        raise ParameterError(f"edge_factor must be a positive integer, got {edge_factor!r}")
    d = 1.0 - a - b - c
    if min(a, b, c, d) < 0:
        raise ParameterError(f"a, b, c must be non-negative with a + b + c <= 1, got {a}, {b}, {c}")
    rng = check_seed(seed)
    m = int(edge_factor) << int(scale)
    u = np.zeros(m, np.int64)
    v = np.zeros(m, np.int64)
    for bit in range(scale):
        r = rng.random(m, dtype=np.float32)
        # quadrant: [0,a) top-left, [a,a+b) top-right, [a+b,a+b+c) bottom-left, rest bottom-right
        row = r >= a + b
        col = ((r >= a) & (r < a + b)) | (r >= a + b + c)
        u |= row.astype(np.int64) << bit
        v |= col.astype(np.int64) << bit
    if permute:
        perm = rng.permutation(1 << scale)
        u = perm[u]
        v = perm[v]
    return np.column_stack((u, v))


@fill_doc
def kronecker_graph(scale, edge_factor=16, *, seed=None, **kwargs):
    """A :class:`~graphmine.Graph` from :func:`kronecker_edges` (loops dropped, duplicates merged).

    Vertices that received no edge stay as isolated vertices, so ``n_nodes == 2**scale``.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices, in 1..40.
    edge_factor : int, default 16
        Edges drawn per vertex (fewer remain after merging).
    {rng_seed}
    **kwargs
        ``a``, ``b``, ``c`` and ``permute`` of :func:`kronecker_edges`.

    Returns
    -------
    Graph
        The simple undirected graph of the drawn edges.

    Examples
    --------
    >>> kronecker_graph(8, 8, seed=0).n_nodes
    256
    """
    return from_edges(kronecker_edges(scale, edge_factor, seed=seed, **kwargs), n_nodes=1 << scale)


@fill_doc
def erdos_renyi_graph(n, p=None, *, m=None, seed=None):
    """G(n, p) (each pair independently with probability p) or G(n, m) (m distinct edges).

    Parameters
    ----------
    n : int
        Number of vertices, >= 0.
    p : float, optional
        Edge probability in [0, 1]; give exactly one of ``p`` and ``m``.
    m : int, optional
        Number of edges, in 0..n(n-1)/2, drawn uniformly among all pairs.
    {rng_seed}

    Returns
    -------
    Graph
        A graph on ``n`` vertices.

    Raises
    ------
    ParameterError
        Both or neither of ``p`` and ``m``, or a value out of range.

    Examples
    --------
    >>> erdos_renyi_graph(100, m=250, seed=3).n_edges
    250
    """
    if (p is None) == (m is None):
        raise ParameterError("give exactly one of p (edge probability) and m (edge count)")
    n = int(n)
    if n < 0:
        raise ParameterError(f"n must be >= 0, got {n}")
    rng = check_seed(seed)
    pairs = n * (n - 1) // 2
    if p is not None:
        if not 0.0 <= p <= 1.0:
            raise ParameterError(f"p must lie in [0, 1], got {p}")
        m = rng.binomial(pairs, p) if pairs else 0
    m = int(m)
    if not 0 <= m <= pairs:
        raise ParameterError(f"m must lie in 0..{pairs} for n={n}, got {m}")
    # sample distinct pair indices, then decode index -> (i, j) with i < j
    chosen = np.empty(0, np.int64)
    while chosen.size < m:
        extra = rng.integers(0, pairs, size=int(1.2 * (m - chosen.size)) + 16, dtype=np.int64)
        chosen = unique_ints(np.concatenate((chosen, extra)))
    if chosen.size > m:
        chosen = rng.choice(chosen, size=m, replace=False)
    # row i holds pairs [i*n - i*(i+1)/2, ...): invert with the quadratic formula, then correct
    i = np.floor((2 * n - 1 - np.sqrt((2 * n - 1) ** 2 - 8 * chosen.astype(np.float64))) / 2).astype(np.int64)
    start = i * n - i * (i + 1) // 2
    i = np.where(start > chosen, i - 1, i)
    start = i * n - i * (i + 1) // 2
    nxt = (i + 1) * n - (i + 1) * (i + 2) // 2
    i = np.where(nxt <= chosen, i + 1, i)
    start = i * n - i * (i + 1) // 2
    j = chosen - start + i + 1
    return from_edges(np.column_stack((i, j)), n_nodes=n)


@fill_doc
def planted_cliques_graph(n, p, clique_sizes, *, seed=None):
    """G(n, p) with cliques of the given sizes planted on disjoint random vertex sets.

    Parameters
    ----------
    n : int
        Number of vertices.
    p : float
        Edge probability of the background G(n, p), in [0, 1].
    clique_sizes : sequence of int
        Sizes of the planted cliques, each >= 2, summing to at most ``n``.
    {rng_seed}

    Raises
    ------
    ParameterError
        A size below 2, or sizes that do not fit in ``n`` vertices.

    Returns
    -------
    G : Graph
    cliques : list of ndarray
        The planted vertex sets.

    Examples
    --------
    >>> G, cl = planted_cliques_graph(50, 0.0, [5, 4], seed=0)
    >>> G.n_edges
    16
    """
    rng = check_seed(seed)
    sizes = [int(s) for s in clique_sizes]
    if any(s < 2 for s in sizes) or sum(sizes) > n:
        raise ParameterError(f"clique sizes must be >= 2 and fit disjointly in n={n}, got {sizes}")
    base = erdos_renyi_graph(n, p, seed=rng)
    verts = rng.permutation(n)
    cliques, parts, off = [], [base.edges()], 0
    for s in sizes:
        c = np.sort(verts[off:off + s])
        off += s
        cliques.append(c)
        iu, ju = np.triu_indices(s, 1)
        parts.append(np.column_stack((c[iu], c[ju])))
    return from_edges(np.concatenate(parts), n_nodes=n), cliques
