"""Scores of rankings shared by the components (motif prediction, link prediction)."""

import numpy as np
from scipy.stats import rankdata

from .exceptions import ParameterError

__all__ = ["roc_auc"]


def roc_auc(labels, scores):
    """Area under the ROC curve by the rank-sum (Mann-Whitney) formula; ties count one half.

    .. math:: \\mathrm{AUC} = \\frac{\\sum_{i: y_i = 1} r_i - n_1 (n_1 + 1) / 2}{n_1 n_0}

    Parameters
    ----------
    labels : array_like of shape (N,)
        0/1 (or two values; the larger is positive).
    scores : array_like of float of shape (N,)
        Higher means more likely positive.

    Returns
    -------
    float
        The AUC, in [0, 1].

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
