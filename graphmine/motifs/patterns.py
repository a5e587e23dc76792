"""Motif definitions: a small connected pattern on k positions, its edges and deal-breakers.

A motif ``M`` is a pattern graph on positions ``0..k-1``. An *instance* of ``M`` in a graph ``G``
is a tuple ``x`` of k distinct vertices such that every motif edge ``(a, b)`` in ``E_M`` is an edge
``(x[a], x[b])`` of ``G``; for an *induced* instance no deal-breaker pair in ``E_{M,D}`` is an
edge either. Instances that differ by an automorphism of the pattern are the same instance; the
canonical tuple is the one that satisfies the symmetry-breaking order constraints
:attr:`Motif.order_constraints` (one representative per automorphism class).
"""

import itertools

import numpy as np

from .._runtime.docs import fill_doc, named
from ..core.exceptions import ParameterError

__all__ = ["Motif", "clique", "star", "path", "cycle", "motif_from_graph", "get_motif", "MOTIF_KINDS"]

# the named motif families that get_motif builds
MOTIF_KINDS = ("clique", "star", "path", "cycle")

#: the largest pattern the enumeration kernels and the automorphism search accept
MAX_K = 10


class Motif:
    """A motif pattern: k positions, motif edges ``E_M`` and deal-breaker edges ``E_{M,D}``.

    Build one with :func:`clique`, :func:`star`, :func:`path`, :func:`cycle` or
    :func:`motif_from_graph`.

    Parameters
    ----------
    k : int
        Number of motif vertices (2..10).
    edges : array_like of shape (e, 2)
        Motif edges between positions; the pattern must be connected.
    dealbreakers : array_like of shape (d, 2) or 'complement'
        Pairs of positions whose edge makes the motif impossible ('complement': every non-edge,
        i.e. the motif is induced).
    name : str
        A label for reports ('4-clique', ...).

    Attributes
    ----------
    edges, dealbreakers : ndarray of int64, shape (e, 2) / (d, 2), rows sorted with a < b
    automorphisms : ndarray of int64, shape (a, k)
        Every permutation of positions that maps ``edges`` onto itself and ``dealbreakers`` onto
        itself.
    order_constraints : ndarray of int64, shape (c, 2)
        Rows ``(a, b)`` meaning ``x[a] < x[b]``: each automorphism class of instances has exactly
        one tuple meeting them all.

    Examples
    --------
    >>> s = star(4)
    >>> s.edges.tolist(), s.dealbreakers.tolist()
    ([[0, 1], [0, 2], [0, 3]], [[1, 2], [1, 3], [2, 3]])
    >>> len(s.automorphisms), s.order_constraints.tolist()
    (6, [[1, 2], [1, 3], [2, 3]])
    """

    def __init__(self, k, edges, dealbreakers="complement", name="pattern"):
        k = _check_k(k, low=2)
        e = _pairs(edges, k, "edges")
        if e.shape[0] == 0:
            raise ParameterError("a motif needs at least one edge")
        if isinstance(dealbreakers, str):
            if dealbreakers != "complement":
                raise ParameterError(f"dealbreakers must be 'complement' or an array of pairs, got {dealbreakers!r}")
            present = {tuple(r) for r in e.tolist()}
            d = np.array([(a, b) for a, b in itertools.combinations(range(k), 2) if (a, b) not in present],
                         dtype=np.int64).reshape(-1, 2)
        else:
            d = _pairs(dealbreakers, k, "dealbreakers")
            if {tuple(r) for r in d.tolist()} & {tuple(r) for r in e.tolist()}:
                raise ParameterError("a pair cannot be both a motif edge and a deal-breaker")
        if not _connected(k, e):
            raise ParameterError("the motif pattern must be connected")
        self.k = k
        self.edges = e
        self.dealbreakers = d
        self.name = str(name)
        self.automorphisms = _automorphisms(k, e, d)
        self.order_constraints = _symmetry_breaking(k, self.automorphisms)
        self.match_order, self.match_parent = _matching_order(k, e)

    @property
    def n_edges(self):
        return int(self.edges.shape[0])

    def adjacency(self):
        """(k, k) bool matrices ``(edge, dealbreaker)`` between positions."""
        A = np.zeros((self.k, self.k), np.bool_)
        D = np.zeros((self.k, self.k), np.bool_)
        A[self.edges[:, 0], self.edges[:, 1]] = A[self.edges[:, 1], self.edges[:, 0]] = True
        if self.dealbreakers.size:
            D[self.dealbreakers[:, 0], self.dealbreakers[:, 1]] = True
            D[self.dealbreakers[:, 1], self.dealbreakers[:, 0]] = True
        return A, D

    def to_networkx(self):
        """The pattern as a ``networkx.Graph`` on positions 0..k-1."""
        import networkx as nx

        H = nx.Graph()
        H.add_nodes_from(range(self.k))
        H.add_edges_from(self.edges.tolist())
        return H

    def __repr__(self):
        return (f"Motif({self.name!r}, k={self.k}, edges={self.n_edges}, "
                f"dealbreakers={self.dealbreakers.shape[0]})")


def _check_k(k, low):
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise ParameterError(f"k must be an integer, got {k!r}")
    k = int(k)
    if not low <= k <= MAX_K:
        raise ParameterError(f"k must lie in {low}..{MAX_K}, got {k}")
    return k


def _pairs(pairs, k, what):
    arr = np.asarray(pairs, dtype=np.int64).reshape(-1, 2) if len(pairs) else np.empty((0, 2), np.int64)
    if arr.size and (arr.min() < 0 or arr.max() >= k):
        raise ParameterError(f"motif {what} must join positions 0..{k - 1}")
    if np.any(arr[:, 0] == arr[:, 1]):
        raise ParameterError(f"motif {what} must not contain self-loops")
    arr = np.sort(arr, axis=1)
    arr = np.unique(arr, axis=0)
    return arr


def _connected(k, e):
    adj = [[] for _ in range(k)]
    for a, b in e.tolist():
        adj[a].append(b)
        adj[b].append(a)
    seen = {0}
    stack = [0]
    while stack:
        for w in adj[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return len(seen) == k


def _automorphisms(k, e, d):
    """Permutations of positions preserving edges and deal-breakers (backtracking, k <= 10)."""
    E = np.zeros((k, k), np.int8)
    E[e[:, 0], e[:, 1]] = E[e[:, 1], e[:, 0]] = 1
    if d.size:
        E[d[:, 0], d[:, 1]] = E[d[:, 1], d[:, 0]] = 2
    deg = [tuple(sorted(E[i].tolist())) for i in range(k)]
    out = []
    perm = [-1] * k
    used = [False] * k

    def extend(i):
        if i == k:
            out.append(list(perm))
            return
        for c in range(k):
            if used[c] or deg[c] != deg[i]:
                continue
            if all(E[i, j] == E[c, perm[j]] for j in range(i)):
                perm[i] = c
                used[c] = True
                extend(i + 1)
                used[c] = False
        perm[i] = -1

    extend(0)
    return np.array(out, dtype=np.int64)


def _symmetry_breaking(k, autos):
    """Order constraints x[a] < x[b] leaving one tuple per automorphism class.

    Repeatedly take the largest orbit of the current group, require its first position to hold
    the smallest vertex of the orbit, and restrict the group to the stabiliser of that position.
    """
    group = [tuple(p) for p in autos.tolist()]
    cons = []
    while len(group) > 1:
        best, orbit_best = None, None
        for v in range(k):
            orbit = sorted({p[v] for p in group})
            if len(orbit) > 1 and (orbit_best is None or len(orbit) > len(orbit_best)):
                best, orbit_best = v, orbit
        for w in orbit_best:
            if w != best:
                cons.append((best, w))
        group = [p for p in group if p[best] == best]
    return np.array(cons, dtype=np.int64).reshape(-1, 2)


def _matching_order(k, e):
    """A BFS order over positions from the highest-degree one, and each position's parent."""
    adj = [[] for _ in range(k)]
    for a, b in e.tolist():
        adj[a].append(b)
        adj[b].append(a)
    start = max(range(k), key=lambda v: (len(adj[v]), -v))
    order, parent = [start], {start: -1}
    i = 0
    while i < len(order):
        v = order[i]
        i += 1
        for w in sorted(adj[v], key=lambda w: (-len(adj[w]), w)):
            if w not in parent:
                parent[w] = v
                order.append(w)
    return np.array(order, np.int64), np.array([parent[v] for v in order], np.int64)


# the docstring of the named motif constructors (clique, star, path, cycle): their own summary
# and example, and their smallest size, in one text
_NAMED_MOTIF_DOC = """{summary}

    Parameters
    ----------
    k : int
        Number of motif vertices, {low}..{high}.

    {{Returns: motif_returns}}

    Raises
    ------
    ParameterError
        ``k`` is not an integer in {low}..{high}.

    Examples
    --------
    {example}
    """


def _named_motif(kind, low, edges, dealbreakers, summary, *example):
    """The constructor ``kind(k)`` of a named motif family: it checks ``k`` (``low``..MAX_K) and
    returns the Motif on the pairs ``edges(k)`` with those ``dealbreakers``, named ``kind``; its
    docstring is :data:`_NAMED_MOTIF_DOC` with ``summary`` and the ``example`` lines."""
    def make(k):
        k = _check_k(k, low)
        return Motif(k, list(edges(k)), dealbreakers=dealbreakers, name=kind)

    return named(make, kind, _NAMED_MOTIF_DOC.format(summary=summary, low=low, high=MAX_K,
                                                      example="\n    ".join(example)))


clique = _named_motif(
    "clique", 2, lambda k: itertools.combinations(range(k), 2), [],
    "The k-clique: all pairs are motif edges, no deal-breakers.",
    ">>> clique(4).n_edges", "6")
star = _named_motif(
    "star", 2, lambda k: [(0, i) for i in range(1, k)], "complement",
    "The k-star: centre 0 joined to leaves 1..k-1; edges among leaves are deal-breakers.",
    ">>> s = star(3)", ">>> s.edges.tolist(), s.dealbreakers.tolist()", "([[0, 1], [0, 2]], [[1, 2]])")
path = _named_motif(
    "path", 2, lambda k: [(i, i + 1) for i in range(k - 1)], "complement",
    "The k-path 0-1-...-(k-1) (k vertices); every non-edge is a deal-breaker (induced path).",
    ">>> p = path(4)", ">>> p.edges.tolist(), p.dealbreakers.tolist()",
    "([[0, 1], [1, 2], [2, 3]], [[0, 2], [0, 3], [1, 3]])")
cycle = _named_motif(
    "cycle", 3, lambda k: [(i, (i + 1) % k) for i in range(k)], "complement",
    "The k-cycle 0-1-...-(k-1)-0; every chord is a deal-breaker (induced cycle).",
    ">>> c = cycle(4)", ">>> c.edges.tolist(), c.dealbreakers.tolist()",
    "([[0, 1], [0, 3], [1, 2], [2, 3]], [[0, 2], [1, 3]])")


def motif_from_graph(pattern, dealbreakers="complement", name="pattern"):
    """A motif from a small connected networkx graph (vertices relabelled 0..k-1 in sorted order).

    Parameters
    ----------
    pattern : networkx.Graph
        A connected graph on 2..10 vertices.
    dealbreakers : 'complement', None or iterable of vertex pairs of ``pattern``
        'complement' (default): the motif is induced; None: no deal-breakers.
    name : str, default 'pattern'
        The motif's label.

    Returns
    -------
    Motif
        The pattern on positions 0..k-1.

    Raises
    ------
    ParameterError
        A disconnected pattern, or one outside 2..10 vertices.

    Examples
    --------
    >>> import networkx as nx
    >>> m = motif_from_graph(nx.complete_bipartite_graph(2, 2))   # the 4-cycle
    >>> m.n_edges, len(m.automorphisms)
    (4, 8)
    """
    import networkx as nx

    if not isinstance(pattern, nx.Graph) or pattern.is_directed() or pattern.is_multigraph():
        raise ParameterError("pattern must be an undirected simple networkx.Graph")
    nodes = sorted(pattern.nodes(), key=repr) if not all(isinstance(v, (int, np.integer)) for v in pattern) \
        else sorted(pattern.nodes())
    pos = {v: i for i, v in enumerate(nodes)}
    if nx.number_of_selfloops(pattern):
        raise ParameterError("pattern must not contain self-loops")
    edges = [(pos[u], pos[v]) for u, v in pattern.edges()]
    if dealbreakers is None:
        db = []
    elif isinstance(dealbreakers, str):
        db = dealbreakers
    else:
        try:
            db = [(pos[u], pos[v]) for u, v in dealbreakers]
        except KeyError as exc:
            raise ParameterError(f"deal-breaker vertex {exc.args[0]!r} is not in the pattern") from None
    return Motif(len(nodes), edges, dealbreakers=db, name=name)


@fill_doc
def get_motif(kind, k):
    """The motif named ``kind`` on k vertices.

    Parameters
    ----------
    kind : {'clique', 'star', 'path', 'cycle'}
        One of :data:`MOTIF_KINDS`.
    k : int
        Number of motif vertices.

    {Returns: motif_returns}

    Raises
    ------
    ParameterError
        An unknown kind, or a size the kind does not allow.

    Examples
    --------
    >>> m = get_motif("cycle", 5)
    >>> m.name, m.n_edges
    ('cycle', 5)
    """
    makers = {"clique": clique, "star": star, "path": path, "cycle": cycle}
    if kind not in makers:
        raise ParameterError(f"motif must be one of {', '.join(MOTIF_KINDS)}, got {kind!r}")
    return makers[kind](k)
