"""Features of vertex pairs over several yearly snapshots of a temporal concept graph.

For a feature date ``year`` and ``n_snapshots`` = S, the snapshots are the graphs at the end of
``year, year - 1, ..., year - S + 1``; nothing after the end of ``year`` is read. Per snapshot:

* vertex properties of u and of v: degree ``deg`` (distinct neighbours), multigraph degree
  ``wdeg`` (rows), degree percentile ``pct`` (share of vertices of smaller degree), degree
  relative to the snapshot's mean degree ``rdeg``, PageRank ``pr`` (damping 0.85, scaled by n so
  that 1 is average) and average neighbour degree ``and``;
* pair properties: common neighbours ``cn``, Jaccard ``jac``
  :math:`|N(u) \\cap N(v)| / |N(u) \\cup N(v)|`, Adamic-Adar ``aa``
  :math:`\\sum_{w \\in N(u) \\cap N(v)} 1 / \\log d_w`, and the shortest-path length ``dist``
  capped at ``max_distance`` (``max_distance + 1`` means farther or unreachable).

The columns are all of these on the latest snapshot, plus ``deg_sum``, plus for every older
snapshot ``k`` the change since it (``d{k}_<name>`` = value now - value k years earlier): degree
growth and the other differences across snapshots. Column names ending in ``_u``/``_v`` swap when
the pair order is swapped (see :func:`swap_permutation`).
"""

from .._runtime.docs import fill_doc
import logging
import time

import numpy as np

from .._runtime.threads import resolve_threads, restores_threads
from ..centrality import average_neighbor_degree, pagerank
from ..core.exceptions import ParameterError
from ..core.graph import from_edges
from . import _feature_kernels as _fk
from ._progress import LOGGER_NAME, progress_bar
from .snapshots import edges_before, year_end_day

_log = logging.getLogger(LOGGER_NAME)

__all__ = ["pair_features", "feature_names", "swap_permutation", "pagerank", "average_neighbor_degree",
           "snapshot_pair_features"]

VERTEX = ("deg", "wdeg", "pct", "rdeg", "pr", "and")
PAIR = ("cn", "jac", "aa", "dist")
CHANGES = ("deg", "wdeg", "pct", "rdeg", "pr", "and")


def feature_names(n_snapshots=4):
    """Column names of :func:`pair_features` for ``n_snapshots`` snapshots.

    Parameters
    ----------
    n_snapshots : int, default 4
        Yearly snapshots.

    Returns
    -------
    list of str
        The names, in column order.

    Examples
    --------
    >>> feature_names(2)[:4], len(feature_names(4))
    (['deg_u', 'deg_v', 'wdeg_u', 'wdeg_v'], 65)
    """
    names = []
    for f in VERTEX:
        names += [f + "_u", f + "_v"]
    names += list(PAIR) + ["deg_sum"]
    for k in range(1, n_snapshots):
        for f in CHANGES:
            names += [f"d{k}_{f}_u", f"d{k}_{f}_v"]
        names += [f"d{k}_{f}" for f in PAIR]
    return names


def swap_permutation(names):
    """Column permutation that turns the features of (u, v) into those of (v, u).

    Parameters
    ----------
    names : list of str
        Column names (``*_u`` and ``*_v`` columns swap, the symmetric ones stay).

    Returns
    -------
    ndarray of int64
        ``X[:, perm]`` holds the features of the swapped pairs.

    Examples
    --------
    >>> swap_permutation(["deg_u", "deg_v", "cn"])
    array([1, 0, 2])
    """
    index = {n: i for i, n in enumerate(names)}
    perm = np.arange(len(names))
    for i, n in enumerate(names):
        if n.endswith("_u"):
            perm[i] = index[n[:-2] + "_v"]
        elif n.endswith("_v"):
            perm[i] = index[n[:-2] + "_u"]
    return perm


def _vertex_table(rows_before, n):
    G = from_edges(rows_before, n_nodes=n)
    deg = G.degree.astype(np.float64)
    wdeg = np.bincount(rows_before.reshape(-1), minlength=n).astype(np.float64)
    sdeg = np.sort(deg)
    pct = np.searchsorted(sdeg, deg, side="left") / max(n, 1)
    active = deg > 0
    mean = deg[active].mean() if active.any() else 1.0
    table = {"deg": deg, "wdeg": wdeg, "pct": pct, "rdeg": deg / mean, "pr": pagerank(G) * n,
             "and": average_neighbor_degree(G) / mean}
    return G, table


@restores_threads
@fill_doc
def snapshot_pair_features(G, pu, pv, max_distance=4, threads=None):
    """Common neighbours, Jaccard, Adamic-Adar and capped distance of pairs in one simple graph.

    Parameters
    ----------
    G : Graph
        The snapshot.
    pu, pv : ndarray of int64 of shape (P,)
        The pairs' vertices.
    max_distance : int, default 4
        Distances above it are reported as ``max_distance + 1``.
    {threads}

    Returns
    -------
    cn, jac, aa, dist : ndarrays (int64, float64, float64, int64)
        One value per pair.

    Examples
    --------
    >>> import numpy as np, networkx as nx, graphmine as gm
    >>> G = gm.as_graph(nx.path_graph(6))
    >>> cn, jac, aa, dist = snapshot_pair_features(G, np.array([0, 0, 0]), np.array([2, 3, 5]))
    >>> cn.tolist(), dist.tolist()
    ([1, 0, 0], [2, 3, 5])
    """
    if not 1 <= int(max_distance) <= 4:
        raise ParameterError(f"max_distance must lie in 1..4, got {max_distance}")
    nthreads = resolve_threads(threads)
    pu = np.ascontiguousarray(pu, dtype=np.int64)
    pv = np.ascontiguousarray(pv, dtype=np.int64)
    deg = G.degree
    inv_log = np.zeros(G.n_nodes)
    big = deg > 1
    inv_log[big] = 1.0 / np.log(deg[big])
    m = pu.shape[0]
    cn = np.empty(m, np.int64)
    jac = np.empty(m)
    aa = np.empty(m)
    dist = np.empty(m, np.int64)
    _fk._pair_features(G.indptr, G.indices, pu, pv, inv_log, int(max_distance), nthreads, cn, jac, aa, dist)
    return cn, jac, aa, dist


@fill_doc
def pair_features(graph, pairs, year, *, n_snapshots=4, max_distance=4, n_vertices=None, threads=None,
                  progress=False):
    """The feature matrix of ``pairs`` at the end of ``year`` (see the module docstring).

    Parameters
    ----------
    graph : ndarray (E, 3)
        Rows ``[v1, v2, t]``; rows at or after the end of ``year`` are ignored (no look-ahead).
    pairs : ndarray (P, 2)
        The vertex pairs to describe.
    year : int
        The feature date: the latest snapshot is the graph at the end of ``year``.
    n_snapshots : int
        Yearly snapshots ``year, year - 1, ...`` (at least 1).
    max_distance : int
        Cap of the shortest-path length (1..4).
    {s4c_n_vertices, threads}
    progress : bool
        A progress bar over the snapshots on stderr (when it is a terminal). Each snapshot is
        also logged (INFO) to the ``graphmine.science4cast`` logger.

    Returns
    -------
    X : ndarray of float32, shape (P, len(feature_names(n_snapshots)))
        One row per pair.
    names : list of str
        :func:`feature_names` of ``n_snapshots``.

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [1, 2, 20], [2, 3, 400], [3, 4, 800]])
    >>> X, names = pair_features(rows, np.array([[0, 2], [0, 3]]), 1991, n_snapshots=2)
    >>> row = [dict(zip(names, x.tolist())) for x in X]
    >>> row[0]["cn"], row[1]["dist"], row[1]["d1_dist"]   # vertex 3 was isolated in 1990: dist 5
    (1.0, 3.0, -2.0)
    """
    if isinstance(n_snapshots, bool) or not isinstance(n_snapshots, (int, np.integer)) or n_snapshots < 1:
        raise ParameterError(f"n_snapshots must be a positive integer, got {n_snapshots!r}")
    year_end_day(year - n_snapshots + 1)
    graph = np.asarray(graph)
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if pairs.size and pairs.min() < 0:
        raise ParameterError("pair vertex ids must be non-negative")
    n = int(graph[:, :2].max()) + 1 if graph.shape[0] else 0
    n = max(n, int(pairs.max()) + 1 if pairs.size else 0, n_vertices or 0)
    pu = np.ascontiguousarray(pairs[:, 0])
    pv = np.ascontiguousarray(pairs[:, 1])
    names = feature_names(n_snapshots)
    col = {nm: i for i, nm in enumerate(names)}
    X = np.empty((pairs.shape[0], len(names)), np.float32)
    latest = None
    with progress_bar(progress, n_snapshots, "features", unit="snapshot") as bar:
        for k in range(n_snapshots):
            t0 = time.perf_counter()
            G, table = _vertex_table(edges_before(graph, year - k), n)
            cn, jac, aa, dist = snapshot_pair_features(G, pu, pv, max_distance, threads)
            vals = {}
            for f in VERTEX:
                vals[f + "_u"] = table[f][pu]
                vals[f + "_v"] = table[f][pv]
            vals.update(cn=cn, jac=jac, aa=aa, dist=dist)
            if k == 0:
                latest = vals
                for nm, a in vals.items():
                    X[:, col[nm]] = a
                X[:, col["deg_sum"]] = vals["deg_u"] + vals["deg_v"]
            else:
                for nm, a in vals.items():
                    if nm[:-2] in CHANGES or nm in PAIR:
                        X[:, col[f"d{k}_{nm}"]] = latest[nm] - a
            bar.update(1)
            _log.info("features: snapshot %d (%d/%d): %d edges, %d pairs, %.1f s", year - k, k + 1, n_snapshots,
                      G.n_edges, pairs.shape[0], time.perf_counter() - t0)
    return X, names
