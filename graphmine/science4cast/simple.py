"""Simple link scores of a pair, read off its feature row: the references every model must beat.

* ``deg_sum`` :math:`d_u + d_v` and ``deg_prod`` :math:`d_u d_v` (preferential attachment);
* ``deg_growth`` :math:`(d_u - d_u^{-1}) + (d_v - d_v^{-1})`: new neighbours in the last year;
* ``cn`` common neighbours, ``aa`` Adamic-Adar, ``jac`` Jaccard.

All on the latest snapshot of :func:`~graphmine.science4cast.features.pair_features`.
"""

import numpy as np

from ..core.exceptions import ParameterError

__all__ = ["SIMPLE_SCORES", "simple_scores"]

#: Names of the simple scores, in the order :func:`simple_scores` returns them.
SIMPLE_SCORES = ("deg_sum", "deg_prod", "deg_growth", "cn", "aa", "jac")


def simple_scores(X, names):
    """The simple scores of every row of a feature matrix (dict name -> float64 array).

    Parameters
    ----------
    X : ndarray, shape (P, F)
        Rows of :func:`~graphmine.science4cast.features.pair_features`.
    names : list of str
        Its column names (two snapshots or more are needed for ``deg_growth``).

    Returns
    -------
    dict of str to ndarray of float64 of shape (P,)
        One array per score of :data:`SIMPLE_SCORES` that the columns allow.

    Examples
    --------
    >>> import numpy as np
    >>> from graphmine.science4cast import pair_features
    >>> rows = np.array([[0, 1, 10], [1, 2, 20], [2, 3, 400], [1, 3, 500]])
    >>> X, names = pair_features(rows, np.array([[0, 2], [0, 3]]), 1991, n_snapshots=2)
    >>> {k: v.tolist() for k, v in simple_scores(X, names).items() if k in ("deg_prod", "deg_growth", "cn")}
    {'deg_prod': [2.0, 2.0], 'deg_growth': [1.0, 2.0], 'cn': [1.0, 1.0]}
    """
    col = {n: i for i, n in enumerate(names)}
    need = ("deg_u", "deg_v", "d1_deg_u", "d1_deg_v", "cn", "aa", "jac")
    missing = [n for n in need if n not in col]
    if missing:
        raise ParameterError(f"the feature columns lack {missing} (simple scores need two snapshots or more)")
    X = np.asarray(X)
    f = {n: X[:, col[n]].astype(np.float64) for n in need}
    return {"deg_sum": f["deg_u"] + f["deg_v"], "deg_prod": f["deg_u"] * f["deg_v"],
            "deg_growth": f["d1_deg_u"] + f["d1_deg_v"], "cn": f["cn"], "aa": f["aa"], "jac": f["jac"]}
