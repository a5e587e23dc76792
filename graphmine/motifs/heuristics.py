r"""Heuristic motif scores built from link-prediction scores (no training).

For a candidate motif with vertex tuple ``x`` the link score of a pair is one of Common Neighbours,
Jaccard, Adamic-Adar, Resource Allocation or Preferential Attachment on the *observed* graph.
CN, AA, RA and PA are divided by their maximum over the scored pairs, so every ``s(e)`` lies in
[0, 1]; a motif edge already present in the observed graph scores 1. With ``E_M`` the motif
edges and ``E_{M,D}`` the deal-breakers:

.. math::

    s_\perp(M) = \prod_{e \in E_M} s(e), \qquad
    s^*_\perp(M) = \prod_{e \in E_M} s(e) \prod_{d \in E_{M,D}} (1 - s(d)),

    s_C(M) = \sum_{e \in E_M} w_e\, s(e), \qquad
    s^*_C(M) = \frac{\sum_{e \in E_M} s(e) + \sum_{d \in E_{M,D}} (1 - s(d))}{|E_M| + |E_{M,D}|},

with convex weights ``w`` (default uniform). ``s^*_C`` is 0 when a deal-breaker edge is present.

One more link score, opt-in (not in :data:`LINK_SCORES`): ``'orbit_cosine'``, the cosine of the
two ends' graphlet degree vectors (their 15 node orbit counts of the 4-vertex census,
:func:`graphmine.orbit_counts`, on a log scale: :math:`x_o = \log(1 + c_o)`), in [0, 1]; it
says how alike the two vertices' positions in the graph are, near or far.
By the AM-GM inequality :math:`s_C \ge s_\perp` (and :math:`s^*_C \ge s^*_\perp`) for uniform
weights; the gap is what an independence assumption between the links gives away.
"""

from .._runtime.docs import fill_doc
import numpy as np

from .._runtime.interrupt import interruptible
from .._primitives.small_work import serial_first
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError
from ..core.graph import vertex_pairs
from ..core.validation import as_graph
from . import _heuristic_kernels as _hk
from ._enum_kernels import _tuple_edge_flags, tuple_edge_flags_serial
from .enumerate import _check_distinct, _check_motif, _check_tuples
from ..core.registry import declare

__all__ = ["LINK_SCORES", "ORBIT_LINK_SCORE", "MOTIF_MODES", "link_scores", "motif_scores", "heuristic_motif_scores",
           "evaluate_heuristics", "auc_ap"]

# the link scores: common neighbours, Jaccard, Adamic-Adar, resource allocation, degree product
LINK_SCORES = ("cn", "jaccard", "adamic_adar", "resource_allocation", "preferential_attachment")
#: the graphlet-degree similarity of the two ends, opt-in: in the held-out comparison of
#: docs/motifs.md it raised the best heuristic's test ROC AUC in 2 of 28 graph x motif cells, by
#: at most 0.005, and alone it was below the best heuristic in every cell
ORBIT_LINK_SCORE = "orbit_cosine"
#: independent product, with deal-breakers, correlation-aware sum, with deal-breakers
MOTIF_MODES = ("independent", "independent_db", "correlated", "correlated_db")
_COL = {"cn": _hk.CN, "jaccard": _hk.JACCARD, "adamic_adar": _hk.AA, "resource_allocation": _hk.RA,
        "preferential_attachment": _hk.PA}


def _orbit_cosine(G, p, nthreads):
    """The cosine of log(1 + orbit counts) of the two ends of every pair (0 where one end has no
    edge): numpy over the census's (n, 15) rows."""
    from ..graphlets import orbit_counts

    L = np.log1p(orbit_counts(G, 4, kind="node", threads=nthreads).astype(np.float64))
    norm = np.sqrt((L * L).sum(axis=1))
    num = (L[p[:, 0]] * L[p[:, 1]]).sum(axis=1)
    den = norm[p[:, 0]] * norm[p[:, 1]]
    out = np.zeros(p.shape[0])
    np.divide(num, den, out=out, where=den > 0)
    return np.minimum(out, 1.0)  # rounding may pass 1 for equal vectors


def _raw_scores(G, p, nthreads):
    scores = _hk._pair_scores
    if serial_first(scores, G.indices.shape[0] + p.shape[0]):
        scores = _hk.pair_scores_serial
    return scores(G.indptr, G.indices, G.degree, np.ascontiguousarray(p[:, 0]), np.ascontiguousarray(p[:, 1]),
                  nthreads)


@declare("Jaccard, Adamic-Adar, resource allocation, preferential attachment", cpu=True)
@interruptible
@restores_threads
@fill_doc
def link_scores(G, pairs, method="jaccard", *, threads=None):
    """Link-prediction scores of vertex pairs (unnormalised).

    {Parameters: G}
    pairs : array_like of shape (P, 2)
        Vertex pairs to score, each of two distinct vertices.
    method : str, default 'jaccard'
        One of :data:`LINK_SCORES`, :data:`ORBIT_LINK_SCORE` ('orbit_cosine', the cosine of the
        two ends' graphlet degree vectors), or 'all' for a dict of the :data:`LINK_SCORES`.
    {threads}

    Returns
    -------
    ndarray of float64 of shape (P,), or dict of str to ndarray
        The scores (a dict keyed by :data:`LINK_SCORES` for 'all').

    Raises
    ------
    GraphValueError
        ``pairs`` is not an array of vertex pairs of ``G``.
    ParameterError
        A pair joins a vertex to itself (the message names the row), or ``method`` is unknown.

    Examples
    --------
    >>> G = [(0, 2), (1, 2), (0, 3), (1, 3), (3, 4)]
    >>> link_scores(G, [[0, 1]], "cn").tolist(), link_scores(G, [[0, 1]], "jaccard").tolist()
    ([2.0], [1.0])
    """
    G = as_graph(G)
    p = vertex_pairs(pairs, G.n_nodes, name="pairs")
    # a vertex paired with itself has no link to predict (its Adamic-Adar term would divide by log 1)
    _check_distinct(p, "pairs")
    if method != "all" and method not in _COL and method != ORBIT_LINK_SCORE:
        raise ParameterError(f"method must be one of {', '.join(LINK_SCORES + (ORBIT_LINK_SCORE,))} or 'all', "
                             f"got {method!r}")
    if method == ORBIT_LINK_SCORE:
        return _orbit_cosine(G, p, resolve_threads(threads))
    raw = _raw_scores(G, p, resolve_threads(threads))
    if method == "all":
        return {m: raw[:, _COL[m]].copy() for m in LINK_SCORES}
    return raw[:, _COL[method]].copy()


@interruptible
@restores_threads
@fill_doc
def heuristic_motif_scores(G, motif, tuples, *, links=LINK_SCORES, modes=MOTIF_MODES, weights=None,
                           threads=None):
    """Every requested heuristic motif score of every tuple, computed in one pass.

    {Parameters: motif_observed_G, motif, motif_tuples}
    links : iterable of str, default LINK_SCORES
        Names from :data:`LINK_SCORES`, and :data:`ORBIT_LINK_SCORE` (opt-in: the graphlet degree
        vectors' cosine, in [0, 1] as it is, not scaled).
    modes : iterable of str, default MOTIF_MODES
        Names from :data:`MOTIF_MODES`; deal-breaker modes are skipped for motifs without
        deal-breakers.
    weights : array_like of shape (|E_M|,), optional
        Convex weights of the correlation-aware score (default uniform).
    {threads}

    Returns
    -------
    dict
        ``'<link>/<mode>'`` -> ndarray of shape (N,).

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import clique
    >>> heuristic_motif_scores(nx.complete_graph(4), clique(3), [[0, 1, 2]], links=["cn"], modes=["independent"])
    {'cn/independent': array([1.])}
    """
    G = as_graph(G)
    motif = _check_motif(motif)
    t = _check_tuples(G, motif, tuples)
    links = tuple(links)
    modes = tuple(modes)
    for l in links:
        if l not in _COL and l != ORBIT_LINK_SCORE:
            raise ParameterError(f"link score must be one of {', '.join(LINK_SCORES + (ORBIT_LINK_SCORE,))}, "
                                 f"got {l!r}")
    for m in modes:
        if m not in MOTIF_MODES:
            raise ParameterError(f"mode must be one of {', '.join(MOTIF_MODES)}, got {m!r}")
    me = motif.n_edges
    if weights is None:
        w = np.full(me, 1.0 / me)
    else:
        w = np.asarray(weights, np.float64)
        if w.shape != (me,) or np.any(w < 0) or not np.isclose(w.sum(), 1.0):
            raise ParameterError(f"weights must be {me} non-negative numbers summing to 1")
    nthreads = resolve_threads(threads)
    N = t.shape[0]
    E, D = motif.edges, motif.dealbreakers
    md = D.shape[0]
    allp = np.concatenate((E, D)) if md else E
    pairs = np.stack((t[:, allp[:, 0]], t[:, allp[:, 1]]), axis=-1).reshape(-1, 2)
    raw = _raw_scores(G, pairs, nthreads).reshape(N, allp.shape[0], _hk.N_SCORES)
    flags = _tuple_edge_flags
    if serial_first(flags, G.indices.shape[0] + t.shape[0]):
        flags = tuple_edge_flags_serial
    present = flags(G.indptr, G.indices, t, np.ascontiguousarray(allp), nthreads)
    out = {}
    for l in links:
        if l == ORBIT_LINK_SCORE:
            s = _orbit_cosine(G, pairs, nthreads).reshape(N, allp.shape[0])
        else:
            s = raw[:, :, _COL[l]].copy()
        if l not in ("jaccard", ORBIT_LINK_SCORE):
            absent = s[~present]
            top = absent.max() if absent.size else 0.0
            if top > 0:
                s /= top
        s[present] = 1.0
        se, sd = s[:, :me], s[:, me:]
        for m in modes:
            if m.endswith("_db") and md == 0:
                continue
            if m == "independent":
                v = se.prod(axis=1)
            elif m == "independent_db":
                v = se.prod(axis=1) * (1.0 - sd).prod(axis=1)
            elif m == "correlated":
                v = se @ w
            else:
                v = (se.sum(axis=1) + (1.0 - sd).sum(axis=1)) / (me + md)
                v[present[:, me:].any(axis=1)] = 0.0
            out[f"{l}/{m}"] = v
    return out


@fill_doc
def motif_scores(G, motif, tuples, link="jaccard", mode="correlated", *, weights=None, threads=None):
    """One heuristic motif score of every tuple (see the module docstring for the formulas).

    {Parameters: motif_observed_G, motif, motif_tuples}
    link : str, default 'jaccard'
        One of :data:`LINK_SCORES`.
    mode : str, default 'correlated'
        One of :data:`MOTIF_MODES`.
    weights : array_like of shape (|E_M|,), optional
        Convex weights of the correlation-aware score (default uniform).
    {threads}

    Returns
    -------
    ndarray of float64 of shape (N,)
        The score of each tuple, in [0, 1] (the link scores are scaled to [0, 1] first).

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import clique
    >>> G = nx.complete_graph(5)
    >>> G.remove_edges_from([(0, 1), (0, 2), (1, 2)])      # hide the triangle 0-1-2
    >>> motif_scores(G, clique(3), [[0, 1, 2]], "cn", "independent").tolist()
    [1.0]
    """
    res = heuristic_motif_scores(G, motif, tuples, links=(link,), modes=(mode,), weights=weights,
                                 threads=threads)
    key = f"{link}/{mode}"
    if key not in res:
        raise ParameterError(f"mode {mode!r} needs deal-breakers, and this {motif.name} has none")
    return res[key]


def auc_ap(labels, scores):
    r"""ROC AUC and average precision of ``scores`` against binary ``labels``.

    The AUC is the Mann-Whitney statistic (ties between a positive and a negative count one half);
    the average precision is the step-wise area under the precision-recall curve taken at every
    distinct score, as scikit-learn's ``average_precision_score`` defines it:

    .. math::

        \mathrm{AUC} = \frac{\sum_{i: y_i = 1} r_i - n_1 (n_1 + 1) / 2}{n_1 n_0}, \qquad
        \mathrm{AP} = \sum_t (R_t - R_{t-1}) P_t,

    with :math:`r_i` the mean rank of score :math:`i` and :math:`P_t, R_t` precision and recall
    of the pairs scoring at least the t-th largest distinct score (:math:`R_0 = 0`). The larger
    of the two label values is the positive class.

    Parameters
    ----------
    labels : array_like of shape (N,)
        Two distinct values (0/1, or any pair; the larger is positive).
    scores : array_like of float of shape (N,)
        Higher means more likely positive.

    Returns
    -------
    dict
        ``{'auc': float, 'ap': float}``.

    Examples
    --------
    >>> auc_ap([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    {'auc': 0.75, 'ap': 0.8333333333333333}
    """
    y = np.asarray(labels).reshape(-1)
    s = np.asarray(scores, dtype=np.float64).reshape(-1)
    if y.shape != s.shape:
        raise ParameterError(f"labels and scores differ in length: {y.shape[0]} and {s.shape[0]}")
    classes = np.unique(y)
    if classes.size < 2:
        raise ParameterError("AUC needs both positive and negative samples")
    if classes.size > 2:
        raise ParameterError(f"labels must take two values, got {classes.size}: {classes[:5].tolist()}")
    if np.isnan(s).any():
        raise ParameterError("scores contain NaN")
    from .._primitives.metrics import roc_auc  # the project's one rank-sum AUC

    pos = y == classes[1]
    n1 = int(pos.sum())
    auc = roc_auc(pos, s)
    # precision and recall at every distinct score, from the highest down
    order = np.argsort(-s, kind="mergesort")
    sd = s[order]
    last = np.append(np.flatnonzero(sd[1:] != sd[:-1]), s.shape[0] - 1)
    tp = np.cumsum(pos[order])[last]
    precision = tp / (last + 1.0)
    recall = tp / n1
    ap = float(np.sum(np.diff(recall, prepend=0.0) * precision))
    return {"auc": auc, "ap": ap}


@fill_doc
def evaluate_heuristics(task, split="test", *, links=LINK_SCORES, modes=MOTIF_MODES, threads=None):
    """AUC and AP of every heuristic motif score on one split of a :class:`MotifTask`.

    Parameters
    ----------
    task : MotifTask
        The experiment (:func:`motif_prediction_task`).
    split : {'train', 'val', 'test'}, default 'test'
        The samples to score.
    links, modes : iterable of str
        As in :func:`heuristic_motif_scores`.
    {threads}

    Returns
    -------
    dict
        ``'<link>/<mode>'`` -> ``{'auc': float, 'ap': float}``.

    Examples
    --------
    >>> from graphmine.io.generators import planted_cliques_graph
    >>> from graphmine.motifs import clique, motif_prediction_task
    >>> G, _ = planted_cliques_graph(200, 0.02, [8] * 6, seed=1)
    >>> task = motif_prediction_task(G, clique(4), n_positives=40, seed=0)
    >>> evaluate_heuristics(task, links=["cn"], modes=["independent"])
    {'cn/independent': {'auc': 0.6875, 'ap': 0.75}}
    """
    idx = task.indices(split)
    scores = heuristic_motif_scores(task.observed, task.motif, task.tuples[idx], links=links, modes=modes,
                                    threads=threads)
    y = task.labels[idx]
    return {name: auc_ap(y, s) for name, s in scores.items()}
