"""The organisers' style baseline: a small neural network on vertex degrees only.

Features of a pair (u, v): ``log(1 + degree)`` of u and of v in the last three yearly snapshots
(6 numbers), standardised; a multi-layer perceptron (scikit-learn, ReLU) classifies them. It sees
the degrees and their growth but nothing about the pair's neighbourhood, which is what the
gradient-boosted models add. The fitted network is stored as plain weight lists in JSON.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from ..exceptions import ParameterError
from .estimators import _fit_inputs, _validate_data

__all__ = ["DegreeBaseline", "degree_features"]


def degree_features(graph, pairs, year, n_snapshots=3, n_vertices=None):
    """``log(1 + degree)`` of both vertices at the end of ``year, year - 1, ...`` (P x 2S, float64).

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [0, 2, 400]])
    >>> np.expm1(degree_features(rows, np.array([[0, 2]]), 1991, n_snapshots=2)).round(6).tolist()
    [[2.0, 1.0, 1.0, 0.0]]
    """
    from .snapshots import edges_before
    from ..graph import from_edges

    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    graph = np.asarray(graph)
    n = max(int(graph[:, :2].max()) + 1 if graph.shape[0] else 0, int(pairs.max()) + 1 if pairs.size else 0,
            n_vertices or 0)
    cols = []
    for k in range(n_snapshots):
        deg = from_edges(edges_before(graph, year - k), n_nodes=n).degree
        cols += [np.log1p(deg[pairs[:, 0]]), np.log1p(deg[pairs[:, 1]])]
    return np.column_stack(cols).astype(np.float64)


class DegreeBaseline(ClassifierMixin, BaseEstimator):
    """Standardise, then a ReLU multi-layer perceptron.

    Parameters
    ----------
    hidden_layer_sizes : tuple of int
    max_iter : int
    random_state : int or None

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 2)); y = (X[:, 0] > 0).astype(int)
    >>> DegreeBaseline(random_state=0).fit(X, y).score(X, y) > 0.9
    True
    """

    def __init__(self, hidden_layer_sizes=(32, 16), max_iter=200, random_state=None):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        from sklearn.neural_network import MLPClassifier

        from sklearn.utils.multiclass import check_classification_targets

        X, y = _fit_inputs(self, X, y)
        check_classification_targets(y)
        self.classes_, yi = np.unique(y, return_inverse=True)
        if self.classes_.shape[0] < 2:
            raise ValueError(f"needs samples of at least 2 classes, got one class: {self.classes_[0]!r}")
        self.mean_ = X.mean(axis=0)
        scale = X.std(axis=0)
        self.scale_ = np.where(scale > 0, scale, 1.0)
        mlp = MLPClassifier(hidden_layer_sizes=tuple(self.hidden_layer_sizes), max_iter=int(self.max_iter),
                            early_stopping=X.shape[0] >= 1000, random_state=self.random_state)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            mlp.fit((X - self.mean_) / self.scale_, yi)
        self.n_iter_ = mlp.n_iter_
        self.coefs_ = [c.copy() for c in mlp.coefs_]
        self.intercepts_ = [b.copy() for b in mlp.intercepts_]
        return self

    def predict_proba(self, X):
        """The network's output: logistic for two classes, softmax for more."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "coefs_")
        X = _validate_data(self, X, reset=False)
        h = (X - self.mean_) / self.scale_
        for i, (W, b) in enumerate(zip(self.coefs_, self.intercepts_)):
            h = h @ W + b
            if i < len(self.coefs_) - 1:
                h = np.maximum(h, 0.0)
        if h.shape[1] == 1:
            p = 1.0 / (1.0 + np.exp(-np.clip(h[:, 0], -500, 500)))
            return np.column_stack((1.0 - p, p))
        h = np.exp(h - h.max(axis=1, keepdims=True))
        return h / h.sum(axis=1, keepdims=True)

    def predict(self, X):
        p = self.predict_proba(X)
        return self.classes_[np.argmax(p, axis=1)]

    def to_dict(self):
        return {"params": {"hidden_layer_sizes": list(self.hidden_layer_sizes), "max_iter": int(self.max_iter),
                           "random_state": self.random_state},
                "classes": self.classes_.tolist(), "mean": self.mean_.tolist(), "scale": self.scale_.tolist(),
                "coefs": [c.tolist() for c in self.coefs_], "intercepts": [b.tolist() for b in self.intercepts_]}

    @classmethod
    def from_dict(cls, d):
        try:
            p = dict(d["params"])
            p["hidden_layer_sizes"] = tuple(p["hidden_layer_sizes"])
            est = cls(**p)
            est.classes_ = np.asarray(d["classes"])
            est.mean_ = np.asarray(d["mean"], dtype=np.float64)
            est.scale_ = np.asarray(d["scale"], dtype=np.float64)
            est.coefs_ = [np.asarray(c, dtype=np.float64) for c in d["coefs"]]
            est.intercepts_ = [np.asarray(b, dtype=np.float64) for b in d["intercepts"]]
            est.n_features_in_ = est.mean_.shape[0]
        except (KeyError, TypeError, ValueError) as exc:
            raise ParameterError(f"not a DegreeBaseline description: {exc}") from None
        return est
