"""Post-processing: blend several models' scores by (weighted) rank averaging.

Scores of different models live on different scales; the AUC depends only on the ranking, so each
score vector is turned into normalised ranks (ties share their mean rank) before averaging.

.. math::  s_i = \\sum_m w_m \\, \\frac{\\operatorname{rank}_m(i)}{P} \\Big/ \\sum_m w_m

The weights come from :func:`fit_rank_weights`: greedy ensemble selection with replacement
(Caruana et al., ICML 2004) on held-out labelled pairs, never on the pairs to be predicted.
"""

import numpy as np
from scipy.stats import rankdata

from .._primitives.metrics import roc_auc
from ..core.exceptions import ParameterError, check_seed

__all__ = ["rank_average", "roc_auc", "fit_rank_weights", "bootstrap_aucs"]


def rank_average(scores, weights=None):
    """Blend score vectors by their weighted mean normalised rank.

    Parameters
    ----------
    scores : sequence of array_like, each of shape (P,)
    weights : sequence of float, optional (default: equal weights)

    Returns
    -------
    ndarray of float64, shape (P,), in (0, 1]

    Examples
    --------
    >>> rank_average([[0.1, 0.9, 0.5], [10, 20, 30]])
    array([0.33333333, 0.83333333, 0.83333333])
    """
    if len(scores) == 0:
        raise ParameterError("rank_average needs at least one score vector")
    mats = [np.asarray(s, dtype=np.float64).reshape(-1) for s in scores]
    p = mats[0].shape[0]
    if any(m.shape[0] != p for m in mats):
        raise ParameterError(f"score vectors differ in length: {[m.shape[0] for m in mats]}")
    if weights is None:
        weights = np.ones(len(mats))
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (len(mats),) or np.any(weights < 0) or weights.sum() <= 0:
        raise ParameterError(f"weights must be {len(mats)} non-negative numbers with a positive sum")
    out = np.zeros(p)
    for w, m in zip(weights, mats):
        out += w * rankdata(m) / max(p, 1)
    return out / weights.sum()


def fit_rank_weights(labels, scores, n_steps=25):
    """Rank-average weights chosen by greedy ensemble selection on held-out labelled pairs.

    Starting from nothing, each of ``n_steps`` steps adds one copy of the model whose addition
    gives the rank average of the highest AUC on ``labels`` (ties: the earlier model); a model's
    weight is its share of the selections up to the step whose blend had the highest held-out AUC.
    The first step picks the best single model, so the blend is never worse on the held-out pairs
    than its best member.

    .. math:: w_m = \\frac{\\#\\{t \\le T : m_t = m\\}}{T},\\quad
              m_t = \\arg\\max_m \\mathrm{AUC}\\Big(\\sum_{s<t} r_{m_s} + r_m\\Big)

    Parameters
    ----------
    labels : array_like of 0/1, shape (P,)
        Labels of held-out pairs (pairs no model was trained on and that are not to be predicted).
    scores : sequence of array_like, each of shape (P,)
        Every model's scores of those pairs.
    n_steps : int
        Selection steps (the weights are multiples of 1 / k for some k <= n_steps).

    Returns
    -------
    weights : ndarray of float64, shape (len(scores),), summing to 1
    auc : float
        Held-out AUC of the weighted rank average.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> w, auc = fit_rank_weights(y, [[0.1, 0.2, 0.9, 0.8, 0.3, 0.7], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]])
    >>> w.tolist(), auc
    ([1.0, 0.0], 1.0)
    """
    if len(scores) == 0:
        raise ParameterError("fit_rank_weights needs at least one score vector")
    n_steps = int(n_steps)
    if n_steps < 1:
        raise ParameterError(f"n_steps must be at least 1, got {n_steps}")
    y = np.asarray(labels).reshape(-1)
    ranks = [rankdata(np.asarray(s, dtype=np.float64).reshape(-1)) for s in scores]
    if any(r.shape != y.shape for r in ranks):
        raise ParameterError(f"labels ({y.shape[0]}) and score vectors ({[r.shape[0] for r in ranks]}) "
                             "differ in length")
    counts = np.zeros(len(ranks))
    total = np.zeros(y.shape[0])
    best_auc, best_counts = -1.0, None
    for _ in range(n_steps):
        aucs = [roc_auc(y, total + r) for r in ranks]
        m = int(np.argmax(aucs))
        counts[m] += 1
        total += ranks[m]
        if aucs[m] > best_auc:
            best_auc, best_counts = aucs[m], counts.copy()
    return best_counts / best_counts.sum(), float(best_auc)


def bootstrap_aucs(labels, scores, n_boot=200, seed=None):
    """ROC AUCs of several score vectors on stratified bootstrap resamples of the pairs.

    Every resample draws ``n1`` positives and ``n0`` negatives with replacement (the class sizes
    stay fixed, so no resample lacks a class); all score vectors are scored on the same resamples,
    so differences between columns are paired. The standard error of each AUC is the standard
    deviation of its column, ``bootstrap_aucs(...).std(axis=0, ddof=1)``. Each resample costs
    O(P) per score vector (the scores are sorted once; a resample only re-weights pairs).

    Parameters
    ----------
    labels : array_like of 0/1, shape (P,)
    scores : sequence of array_like, each of shape (P,)
    n_boot : int
        Resamples (at least 2).
    seed : int or numpy.random.Generator

    Returns
    -------
    ndarray of float64, shape (n_boot, len(scores))

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400); s = y + rng.normal(0, 1, 400)
    >>> a = bootstrap_aucs(y, [s, -s], n_boot=50, seed=1)
    >>> a.shape, bool(np.allclose(a[:, 0] + a[:, 1], 1.0)), 0.01 < float(a[:, 0].std(ddof=1)) < 0.05
    ((50, 2), True, True)
    """
    y = np.asarray(labels).reshape(-1)
    n_boot = int(n_boot)
    if n_boot < 2:
        raise ParameterError(f"n_boot must be at least 2, got {n_boot}")
    mats = [np.asarray(s, dtype=np.float64).reshape(-1) for s in scores]
    if any(m.shape != y.shape for m in mats):
        raise ParameterError(f"labels ({y.shape[0]}) and score vectors ({[m.shape[0] for m in mats]}) "
                             "differ in length")
    pos_idx = np.flatnonzero(y == 1)
    neg_idx = np.flatnonzero(y != 1)
    if pos_idx.shape[0] == 0 or neg_idx.shape[0] == 0:
        raise ParameterError("the AUC needs at least one positive and one negative label")
    rng = check_seed(seed)
    p = y.shape[0]
    # per score: the sort order, the tie group of every sorted pair and the sorted labels
    prep = []
    for m in mats:
        order = np.argsort(m, kind="stable")
        sm = m[order]
        group = np.concatenate(([0], np.cumsum(sm[1:] != sm[:-1]))) if p else np.empty(0, np.int64)
        prep.append((order, group, (y[order] == 1), int(group[-1]) + 1))
    out = np.empty((n_boot, len(mats)))
    n1, n0 = pos_idx.shape[0], neg_idx.shape[0]
    for b in range(n_boot):
        w = np.bincount(rng.choice(pos_idx, n1), minlength=p) + np.bincount(rng.choice(neg_idx, n0), minlength=p)
        for k, (order, group, is_pos, n_groups) in enumerate(prep):
            ws = w[order]
            wpos = np.bincount(group, np.where(is_pos, ws, 0), minlength=n_groups)
            wneg = np.bincount(group, np.where(is_pos, 0, ws), minlength=n_groups)
            below = np.cumsum(wneg) - wneg
            # a positive beats every negative of a lower score and half of those tied with it
            out[b, k] = float((wpos * (below + 0.5 * wneg)).sum()) / (n1 * n0)
    return out
