"""Yearly snapshots of the temporal concept graph and the Science4Cast pair sampler.

Time is counted in days since 1990-01-01. The graph "at year Y" holds the rows with
``t < (date(Y, 12, 31) - date(1990, 1, 1)).days`` (the competition's definition, which leaves out
December 31 itself). A snapshot drops self-loop rows. As a simple graph it is a
:class:`graphmine.Graph`; as a multigraph every unordered pair carries the number of rows that
name it (its weight; the benchmark labels a pair positive when the weight reaches ``min_edges``).
The degree used by the sampler's ``vertex_degree_cutoff`` is the multigraph degree (rows incident
to the vertex), as in the benchmark's own code which sums the multigraph adjacency matrix.
"""

from .._runtime.docs import fill_doc
from datetime import date

import numpy as np
import scipy.sparse as sp

from .._primitives.small_work import sort_queries, unique_ints
from ..core.exceptions import ParameterError, check_int, check_seed
from ..core.graph import from_edges

__all__ = ["year_end_day", "edges_before", "snapshot", "snapshot_weights", "multigraph_degree",
           "pair_edge_counts", "sample_pairs", "training_pairs", "window_positives", "unconnected_pair_count",
           "MIN_YEAR", "MAX_YEAR", "MAX_DAY"]

ORIGIN = date(1990, 1, 1)
MIN_YEAR = 1990  # the first year of the day count (day 0 is 1990-01-01)
MAX_YEAR = 2200  # the last year a date may name
#: Largest day accepted in a data file: the end of MAX_YEAR.
MAX_DAY = (date(MAX_YEAR, 12, 31) - ORIGIN).days


def year_end_day(year):
    """The day (since 1990-01-01) before which a row belongs to the graph at ``year``.

    Parameters
    ----------
    year : int
        A year in MIN_YEAR..MAX_YEAR.

    Returns
    -------
    int
        The day number (since 1990-01-01) of December 31 of ``year``: rows of an earlier
        day belong to the graph at ``year``.

    Examples
    --------
    >>> year_end_day(1990), year_end_day(2014)
    (364, 9130)
    """
    year = int(year)
    if not MIN_YEAR - 1 <= year <= MAX_YEAR:
        raise ParameterError(f"year must lie in {MIN_YEAR - 1}..{MAX_YEAR}, got {year}")
    return (date(year, 12, 31) - ORIGIN).days


@fill_doc
def edges_before(graph, year):
    """The rows ``[v1, v2]`` of the graph at ``year``, self-loops dropped.

    {Parameters: s4c_graph, s4c_year}

    Returns
    -------
    ndarray of int64 of shape (m, 2)
        The endpoints of the rows before the end of ``year`` (repeats kept).

    Examples
    --------
    >>> import numpy as np
    >>> edges_before(np.array([[0, 1, 10], [1, 1, 20], [1, 2, 400]]), 1990).tolist()
    [[0, 1]]
    """
    graph = np.asarray(graph)
    keep = (graph[:, 2] < year_end_day(year)) & (graph[:, 0] != graph[:, 1])
    return np.ascontiguousarray(graph[keep, :2], dtype=np.int64)


def _n(graph, n_vertices):
    top = int(graph[:, :2].max()) + 1 if graph.shape[0] else 0
    if n_vertices is None:
        return top
    if n_vertices < top:
        raise ParameterError(f"n_vertices={n_vertices} is smaller than the largest vertex id + 1 ({top})")
    return int(n_vertices)


@fill_doc
def snapshot(graph, year, n_vertices=None):
    """The simple graph at the end of ``year`` as a :class:`graphmine.Graph` on 0..n-1.

    Repeated rows are merged and self-loops dropped; vertices keep their ids (no relabelling), so
    every snapshot of one data set has the same vertex set.

    {Parameters: s4c_graph, s4c_year, s4c_n_vertices}

    Returns
    -------
    Graph
        The simple graph of the rows before the end of ``year``.

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [1, 0, 20], [1, 2, 30], [2, 2, 40], [2, 3, 400]])
    >>> snapshot(rows, 1990), snapshot(rows, 1991)
    (Graph(n_nodes=4, n_edges=2), Graph(n_nodes=4, n_edges=3))
    """
    n = _n(graph, n_vertices)
    return from_edges(edges_before(graph, year), n_nodes=n)


@fill_doc
def snapshot_weights(graph, year, n_vertices=None):
    """The multigraph at the end of ``year``: symmetric ``csr_array`` of row counts (int64).

    Entry (u, v) is the pair weight that :func:`pair_edge_counts` gives one pair at a time.

    {Parameters: s4c_graph, s4c_year, s4c_n_vertices}

    Returns
    -------
    scipy.sparse.csr_array of int64 of shape (n, n)
        Entry (u, v): the rows joining u and v (either order) before the end of ``year``.

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [1, 0, 20], [1, 2, 30], [2, 2, 40]])
    >>> snapshot_weights(rows, 1990).toarray()
    array([[0, 2, 0],
           [2, 0, 1],
           [0, 1, 0]])
    """
    n = _n(graph, n_vertices)
    e = edges_before(graph, year)
    r = np.concatenate((e[:, 0], e[:, 1]))
    c = np.concatenate((e[:, 1], e[:, 0]))
    A = sp.coo_array((np.ones(r.shape[0], np.int64), (r, c)), shape=(n, n)).tocsr()
    A.sum_duplicates()
    return A


@fill_doc
def multigraph_degree(graph, year, n_vertices=None):
    """Rows incident to every vertex at the end of ``year`` (self-loops dropped).

    A row joining u and v counts for both, and a repeated row counts again.

    {Parameters: s4c_graph, s4c_year, s4c_n_vertices}

    Returns
    -------
    ndarray of int64 of shape (n,)
        The multigraph degree of every vertex.

    Examples
    --------
    >>> import numpy as np
    >>> multigraph_degree(np.array([[0, 1, 10], [1, 0, 20], [1, 2, 400]]), 1990).tolist()
    [2, 2, 0]
    """
    n = _n(graph, n_vertices)
    e = edges_before(graph, year)
    return np.bincount(e.reshape(-1), minlength=n).astype(np.int64)


def _keys(u, v, n):
    lo = np.minimum(u, v)
    hi = np.maximum(u, v)
    return lo * np.int64(n) + hi


@fill_doc
def pair_edge_counts(graph, pairs, year, n_vertices=None):
    """How many rows before the end of ``year`` join each pair (either order), int64.

    {Parameters: s4c_graph, s4c_pairs, s4c_year, s4c_n_vertices}

    Returns
    -------
    ndarray of int64 of shape (P,)
        Rows per pair.

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [1, 0, 20], [1, 2, 400]])
    >>> pair_edge_counts(rows, np.array([[1, 0], [1, 2], [0, 2]]), 1990)
    array([2, 0, 0])
    """
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    n = max(_n(graph, n_vertices), int(pairs.max()) + 1 if pairs.size else 0)
    e = edges_before(graph, year)
    keys = np.sort(_keys(e[:, 0], e[:, 1], n))
    qs, order = sort_queries(_keys(pairs[:, 0], pairs[:, 1], n))
    counts = np.empty(qs.shape[0], np.int64)
    counts[order] = np.searchsorted(keys, qs, side="right") - np.searchsorted(keys, qs, side="left")
    return counts


def _check_setting(year_start, years_delta, n_pairs, cutoff, min_edges):
    for name, val, lo in (("years_delta", years_delta, 1), ("n_pairs", n_pairs, 0),
                          ("vertex_degree_cutoff", cutoff, 0), ("min_edges", min_edges, 1)):
        check_int(name, val, lo)
    year_end_day(year_start)
    year_end_day(year_start + years_delta)


@fill_doc
def sample_pairs(graph, year_start, years_delta, n_pairs, vertex_degree_cutoff=0, min_edges=1, *,
                 n_vertices=None, seed=None):
    """Sample the pairs to predict, as the benchmark does, with their labels.

    Draws ``n_pairs`` distinct unordered pairs uniformly among the vertices whose multigraph
    degree at ``year_start`` is at least ``vertex_degree_cutoff``, keeping only pairs that are
    unconnected at ``year_start``. The label is 1 when the pair has at least ``min_edges`` rows by
    the end of ``year_start + years_delta``. The order within a pair is random.

    {Parameters: s4c_graph}
    year_start : int
        The feature date.
    years_delta : int
        Years from the feature date to the label date.
    n_pairs : int
        Pairs to draw.
    {s4c_cutoff, s4c_min_edges, s4c_n_vertices, rng_seed}

    Returns
    -------
    pairs : ndarray of int64, shape (n_pairs, 2)
        The drawn pairs.
    solution : ndarray of int8, shape (n_pairs,)
        Their labels.

    Raises
    ------
    ParameterError
        If fewer than ``n_pairs`` such pairs exist (the message gives the number).

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [1, 2, 20], [0, 2, 500], [2, 3, 30]])
    >>> pairs, sol = sample_pairs(rows, 1990, 1, 3, seed=0)
    >>> sorted(map(sorted, pairs.tolist())), int(sol[np.argsort(pairs.min(1) * 4 + pairs.max(1))][0])
    ([[0, 2], [0, 3], [1, 3]], 1)
    """
    _check_setting(year_start, years_delta, n_pairs, vertex_degree_cutoff, min_edges)
    graph = np.asarray(graph, dtype=np.int64)
    n = _n(graph, n_vertices)
    rng = check_seed(seed)
    deg = multigraph_degree(graph, year_start, n)
    elig = np.flatnonzero(deg >= vertex_degree_cutoff).astype(np.int64)
    e = edges_before(graph, year_start)
    connected = unique_ints(_keys(e[:, 0], e[:, 1], n))
    k = elig.shape[0]
    is_elig = np.zeros(n, bool)
    is_elig[elig] = True
    inside = connected[is_elig[connected // n] & is_elig[connected % n]]
    available = k * (k - 1) // 2 - inside.shape[0]
    if n_pairs > available:
        raise ParameterError(f"n_pairs={n_pairs} but only {available} unconnected pairs of vertices with "
                             f"degree >= {vertex_degree_cutoff} exist at {year_start}")
    if n_pairs > available // 4:
        # dense request: enumerate every candidate and choose without replacement
        i, j = np.triu_indices(k, 1)
        cand = _keys(elig[i], elig[j], n)
        cand = cand[~np.isin(cand, inside)]
        keys = rng.choice(cand, size=n_pairs, replace=False)
    else:
        keys = np.empty(0, np.int64)
        while keys.shape[0] < n_pairs:
            need = n_pairs - keys.shape[0]
            m = int(need * 1.3) + 16
            a = elig[rng.integers(0, k, m)]
            b = elig[rng.integers(0, k, m)]
            a, b = a[a != b], b[a != b]
            q = _keys(a, b, n)
            if connected.shape[0]:
                qs, order = sort_queries(q)
                pos = np.searchsorted(connected, qs)
                pos[pos == connected.shape[0]] = 0
                known = np.empty(q.shape[0], bool)
                known[order] = connected[pos] == qs
                q = q[~known]
            keys = np.concatenate((keys, q))
            _, first = np.unique(keys, return_index=True)
            keys = keys[np.sort(first)][:n_pairs]
    lo, hi = keys // n, keys % n
    swap = rng.random(keys.shape[0]) < 0.5
    pairs = np.column_stack((np.where(swap, hi, lo), np.where(swap, lo, hi)))
    counts = pair_edge_counts(graph, pairs, year_start + years_delta, n)
    return pairs, (counts >= min_edges).astype(np.int8)


@fill_doc
def unconnected_pair_count(graph, year, vertex_degree_cutoff=0, n_vertices=None):
    """How many unordered pairs of vertices with multigraph degree >= cutoff at ``year`` are
    unconnected at ``year`` (what :func:`sample_pairs` can draw from).

    {Parameters: s4c_graph, s4c_year, s4c_cutoff, s4c_n_vertices}

    Returns
    -------
    int
        The number of such pairs.

    Examples
    --------
    >>> import numpy as np
    >>> unconnected_pair_count(np.array([[0, 1, 10], [1, 2, 20], [2, 3, 30]]), 1990)
    3
    """
    graph = np.asarray(graph, dtype=np.int64)
    n = _n(graph, n_vertices)
    elig = multigraph_degree(graph, year, n) >= vertex_degree_cutoff
    k = int(elig.sum())
    e = edges_before(graph, year)
    keys = unique_ints(_keys(e[:, 0], e[:, 1], n))
    inside = int((elig[keys // n] & elig[keys % n]).sum()) if n else 0
    return k * (k - 1) // 2 - inside


@fill_doc
def window_positives(graph, year, horizon, vertex_degree_cutoff=0, min_edges=1, *, n_vertices=None):
    """The positives of the past window ``year - horizon -> year``: keys ``lo * n + hi`` (sorted,
    int64) of the pairs of vertices with multigraph degree >= cutoff at ``year - horizon`` that are
    unconnected at ``year - horizon`` and have at least ``min_edges`` rows by the end of ``year``.

    {Parameters: s4c_graph, s4c_label_year, s4c_horizon}
    {s4c_cutoff, s4c_min_edges, s4c_n_vertices}

    Returns
    -------
    ndarray of int64
        The keys of the positive pairs, sorted.

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [1, 2, 20], [0, 2, 500], [2, 3, 30]])
    >>> window_positives(rows, 1991, 1, n_vertices=4).tolist()   # pair (0, 2): 0 * 4 + 2
    [2]
    """
    graph = np.asarray(graph, dtype=np.int64)
    graph = graph[graph[:, 2] < year_end_day(year)]
    n = _n(graph, n_vertices)
    t0 = year - horizon
    elig = multigraph_degree(graph, t0, n) >= vertex_degree_cutoff
    old = edges_before(graph, t0)
    old_keys = unique_ints(_keys(old[:, 0], old[:, 1], n))
    new = edges_before(graph, year)
    new_keys, counts = np.unique(_keys(new[:, 0], new[:, 1], n), return_counts=True)
    pos = new_keys[(counts >= min_edges) & ~np.isin(new_keys, old_keys, assume_unique=True)]
    return pos[elig[pos // n] & elig[pos % n]] if n else pos


@fill_doc
def training_pairs(graph, year, horizon, n_pairs, vertex_degree_cutoff=0, min_edges=1, *,
                   positive_fraction=0.25, max_positives=None, exclude=None, n_vertices=None, seed=None):
    """Labelled pairs from the past for training: features at ``year - horizon``, labels at ``year``.

    Nothing after the end of ``year`` is read. Positives are a uniform sample of the eligible pairs
    (multigraph degree >= cutoff at ``year - horizon``) unconnected at ``year - horizon`` that
    reach ``min_edges`` rows by ``year`` (:func:`window_positives`); negatives come from
    :func:`sample_pairs` at ``year - horizon`` (labels 0 only; never more than exist). About
    ``positive_fraction`` of the pairs are positive (fewer if fewer positives exist, at most
    ``max_positives``). Pairs whose key ``lo * n + hi`` is in ``exclude`` (sorted int64, e.g. the
    pairs held out for the blend weights) are never drawn.

    {Parameters: s4c_graph, s4c_label_year, s4c_horizon}
    n_pairs : int
        Pairs to draw.
    {s4c_cutoff, s4c_min_edges}
    positive_fraction : float, default 0.25
        Share of positives asked for, in (0, 1).
    max_positives : int, optional
        Cap on the positives.
    exclude : ndarray of int64, optional
        Sorted keys of pairs never to draw.
    {s4c_n_vertices, rng_seed}

    Returns
    -------
    pairs : ndarray of int64, shape (p, 2)
        The pairs, shuffled.
    labels : ndarray of int8, shape (p,)
        1 for the positives.

    Raises
    ------
    ParameterError
        Settings out of range (``positive_fraction`` outside (0, 1), ...).

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [1, 2, 20], [0, 2, 500], [2, 3, 30], [1, 3, 400]])
    >>> pairs, labels = training_pairs(rows, 1991, 1, 4, n_vertices=4, seed=0)
    >>> pairs.tolist(), labels.tolist()
    ([[1, 3], [3, 0]], [1, 0])
    """
    _check_setting(year - horizon, horizon, n_pairs, vertex_degree_cutoff, min_edges)
    if not 0 < positive_fraction < 1:
        raise ParameterError(f"positive_fraction must lie in (0, 1), got {positive_fraction}")
    graph = np.asarray(graph, dtype=np.int64)
    graph = graph[graph[:, 2] < year_end_day(year)]   # nothing after the label date
    n = _n(graph, n_vertices)
    rng = check_seed(seed)
    t0 = year - horizon
    pos = window_positives(graph, year, horizon, vertex_degree_cutoff, min_edges, n_vertices=n)
    if exclude is not None and len(exclude):
        pos = pos[~np.isin(pos, exclude)]
    n_pos = min(pos.shape[0], int(round(n_pairs * positive_fraction)))
    if max_positives is not None:
        n_pos = min(n_pos, int(max_positives))
    pos = rng.choice(pos, size=n_pos, replace=False) if n_pos else pos[:0]
    n_neg_draw = min(n_pairs - n_pos, unconnected_pair_count(graph, t0, vertex_degree_cutoff, n))
    cand, lab = sample_pairs(graph, t0, horizon, n_neg_draw, vertex_degree_cutoff, min_edges,
                             n_vertices=n, seed=rng)
    neg = cand[lab == 0]
    if exclude is not None and len(exclude):
        neg = neg[~np.isin(_keys(neg[:, 0], neg[:, 1], n), exclude)]
    swap = rng.random(n_pos) < 0.5
    lo, hi = pos // n, pos % n
    pp = np.column_stack((np.where(swap, hi, lo), np.where(swap, lo, hi)))
    pairs = np.concatenate((pp, neg))
    labels = np.concatenate((np.ones(n_pos, np.int8), np.zeros(neg.shape[0], np.int8)))
    order = rng.permutation(pairs.shape[0])
    return pairs[order], labels[order]
