"""Post-processing: blend several models' scores by (weighted) rank averaging.

Scores of different models live on different scales; the AUC depends only on the ranking, so each
score vector is turned into normalised ranks (ties share their mean rank) before averaging.

.. math::  s_i = \\sum_m w_m \\, \\frac{\\operatorname{rank}_m(i)}{P} \\Big/ \\sum_m w_m
"""

import numpy as np
from scipy.stats import rankdata

from ..exceptions import ParameterError

__all__ = ["rank_average", "roc_auc"]


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


def roc_auc(labels, scores):
    """Area under the ROC curve by the rank-sum (Mann-Whitney) formula; ties count one half.

    .. math:: \\mathrm{AUC} = \\frac{\\sum_{i: y_i = 1} r_i - n_1 (n_1 + 1) / 2}{n_1 n_0}

    Examples
    --------
    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    y = np.asarray(labels).reshape(-1)
    s = np.asarray(scores, dtype=np.float64).reshape(-1)
    if y.shape != s.shape:
        raise ParameterError(f"labels and scores differ in length: {y.shape[0]} and {s.shape[0]}")
    pos = y == 1
    n1 = int(pos.sum())
    n0 = y.shape[0] - n1
    if n1 == 0 or n0 == 0:
        raise ParameterError("the AUC needs at least one positive and one negative label")
    r = rankdata(s)
    return float((r[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))
