"""The class behind :class:`graphmine.science4cast.baseline.DegreeBaseline`.

Imported only when the class is asked for (it derives from scikit-learn's ``BaseEstimator`` and
fits scikit-learn's MLP); see ``baseline``.
"""

from .._runtime.optional import require

require("sklearn", what="DegreeBaseline")

import numpy as np  # noqa: E402
from sklearn.base import BaseEstimator, ClassifierMixin  # noqa: E402

from ..core.exceptions import ParameterError  # noqa: E402
from ._gbm import _fit_inputs, _validate_data  # noqa: E402

__all__ = ["DegreeBaseline"]


class DegreeBaseline(ClassifierMixin, BaseEstimator):
    """Standardise, then a ReLU multi-layer perceptron.

    Parameters
    ----------
    hidden_layer_sizes : tuple of int, default (32, 16)
        Units of the hidden layers.
    max_iter : int, default 200
        Most training epochs.
    random_state : int or None, default None
        Seed of the initial weights and the batches.

    Attributes
    ----------
    mean_, scale_ : ndarray of float64
        The standardisation of the features learned by ``fit``.
    n_iter_ : int
        Epochs run.
    coefs_, intercepts_ : list of ndarray
        The network's weights.

    Examples
    --------
    >>> import numpy as np
    >>> from graphmine.science4cast.baseline import DegreeBaseline
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

        X, yi = _fit_inputs(self, X, y)
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
