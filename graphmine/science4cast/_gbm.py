"""The class behind :class:`graphmine.science4cast.estimators.LinkGBMClassifier`.

Imported only when the class is asked for (it derives from scikit-learn's ``BaseEstimator``), so
``import graphmine.science4cast`` needs neither scikit-learn nor lightgbm; see ``estimators``.
"""

from .._runtime.optional import require

require("sklearn", what="LinkGBMClassifier")

import numpy as np  # noqa: E402
from sklearn.base import BaseEstimator, ClassifierMixin  # noqa: E402

from .._runtime.threads import resolve_threads, restores_threads  # noqa: E402
from ..core.exceptions import ParameterError  # noqa: E402

__all__ = ["LinkGBMClassifier"]


def _validate_data(est, X, y=None, reset=True, dtype=np.float64):
    dtype = list(dtype) if isinstance(dtype, tuple) else dtype
    try:
        from sklearn.utils.validation import validate_data
    except ImportError:  # scikit-learn < 1.6
        if y is None:
            return est._validate_data(X, reset=reset, dtype=dtype)
        return est._validate_data(X, y, reset=reset, dtype=dtype)
    if y is None:
        return validate_data(est, X, reset=reset, dtype=dtype)
    return validate_data(est, X, y, reset=reset, dtype=dtype)


def _fit_inputs(est, X, y):
    """Validated ``X`` and the class index of every label; sets ``est.classes_``."""
    from sklearn.utils.multiclass import check_classification_targets

    if y is None:
        raise ValueError(f"{type(est).__name__} requires y to be passed, but the target y is None")
    X, y = _validate_data(est, X, y)
    check_classification_targets(y)
    est.classes_, yi = np.unique(y, return_inverse=True)
    if est.classes_.shape[0] < 2:
        raise ValueError(f"needs samples of at least 2 classes, got one class: {est.classes_[0]!r}")
    return X, yi


@restores_threads
def canonical_rows(X, perm, threads=None):
    """A copy of ``X`` whose every row is the larger of itself and ``row[perm]``, comparing the
    swapped column pairs (i, perm[i]), i < perm[i], in column order; so ``canonical_rows(X[:, perm])``
    equals ``canonical_rows(X)``."""
    from ._feature_kernels import _canonical_pair_rows

    first = np.flatnonzero(perm > np.arange(perm.shape[0])).astype(np.int64)
    X = np.array(X, order="C", copy=True)
    _canonical_pair_rows(X, first, perm[first].astype(np.int64), resolve_threads(threads))
    return X


class LinkGBMClassifier(ClassifierMixin, BaseEstimator):
    """Gradient-boosted trees (LightGBM), optionally independent of the pair order.

    Parameters
    ----------
    n_estimators, learning_rate, num_leaves, max_depth, min_child_samples : LightGBM settings
    subsample, subsample_freq, colsample_bytree, reg_lambda, extra_trees : LightGBM settings
    swap_features : array_like of int or None
        Permutation of the columns that swaps the two vertices of a pair. None: the rows are used
        as they are.
    symmetry : {'canonical', 'average'}
        How a prediction is made independent of the pair's order when ``swap_features`` is set.
        'canonical': every row (in fit and predict) is replaced by the larger, lexicographically
        over the swapped column pairs, of itself and its swapped copy, so one prediction per pair
        suffices. 'average': train on every row and its swapped copy, predict the mean over both
        orders (two predictions per pair).
    random_state : int or None
    n_jobs : int or None
        LightGBM threads (None: LightGBM's default).

    Attributes
    ----------
    classes_, n_features_in_, booster_, feature_importances_ (gain)

    Examples
    --------
    >>> import numpy as np
    >>> from graphmine.science4cast.estimators import LinkGBMClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((400, 3)); y = (X[:, 0] + X[:, 1] > 1).astype(int)
    >>> clf = LinkGBMClassifier(n_estimators=30, swap_features=[1, 0, 2], random_state=0).fit(X, y)
    >>> p = clf.predict_proba(X)[:, 1]
    >>> bool(np.allclose(p, clf.predict_proba(X[:, [1, 0, 2]])[:, 1])), clf.score(X, y) > 0.9
    (True, True)
    """

    def __init__(self, n_estimators=200, learning_rate=0.05, num_leaves=31, max_depth=-1,
                 min_child_samples=20, subsample=1.0, subsample_freq=0, colsample_bytree=1.0,
                 reg_lambda=0.0, extra_trees=False, swap_features=None, symmetry="canonical", random_state=None,
                 n_jobs=None):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.max_depth = max_depth
        self.min_child_samples = min_child_samples
        self.subsample = subsample
        self.subsample_freq = subsample_freq
        self.colsample_bytree = colsample_bytree
        self.reg_lambda = reg_lambda
        self.extra_trees = extra_trees
        self.swap_features = swap_features
        self.symmetry = symmetry
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _perm(self, n_features):
        if self.swap_features is None:
            return None
        perm = np.asarray(self.swap_features, dtype=np.int64).reshape(-1)
        if perm.shape[0] != n_features or not np.array_equal(np.sort(perm), np.arange(n_features)):
            raise ParameterError(f"swap_features must be a permutation of the {n_features} feature columns "
                                 f"(X has {n_features} feature(s)), got {perm.shape[0]} entries")
        if not np.array_equal(perm[perm], np.arange(n_features)):
            raise ParameterError("swap_features must be an involution (swapping twice restores the order)")
        if self.symmetry not in ("canonical", "average"):
            raise ParameterError(f"symmetry must be 'canonical' or 'average', got {self.symmetry!r}")
        return perm

    def _canonical(self, X, perm):
        return canonical_rows(X, perm, None if self.n_jobs is None else int(self.n_jobs))

    def _lgb_params(self, n_classes):
        params = {
            "learning_rate": float(self.learning_rate), "num_leaves": int(self.num_leaves),
            "max_depth": int(self.max_depth), "min_data_in_leaf": int(self.min_child_samples),
            "bagging_fraction": float(self.subsample), "bagging_freq": int(self.subsample_freq),
            "feature_fraction": float(self.colsample_bytree), "lambda_l2": float(self.reg_lambda),
            "extra_trees": bool(self.extra_trees), "verbosity": -1, "force_row_wise": True, "seed": 0 if self.random_state is None else int(self.random_state),
        }
        if self.n_jobs is not None:
            params["num_threads"] = int(self.n_jobs)
        if n_classes == 2:
            params["objective"] = "binary"
        else:
            params.update(objective="multiclass", num_class=n_classes)
        return params

    def fit(self, X, y, sample_weight=None, callbacks=None):
        """Fit on ``X`` (and its swapped copy when ``swap_features`` is set). Returns self.

        ``callbacks``: LightGBM callbacks, called after every boosting round (e.g. a progress bar).
        """
        lgb = require("lightgbm", what="LinkGBMClassifier")
        from sklearn.utils.validation import _check_sample_weight

        X, yi = _fit_inputs(self, X, y)
        perm = self._perm(X.shape[1])
        w = None
        if sample_weight is not None:
            w = _check_sample_weight(sample_weight, X, dtype=np.float64)
            if np.any(w < 0) or w.sum() <= 0:
                raise ValueError("sample weights must be non-negative with a positive sum")
        if perm is not None and self.symmetry == "canonical":
            X = self._canonical(X, perm)
        elif perm is not None:
            X = np.vstack((X, X[:, perm]))
            yi = np.concatenate((yi, yi))
            w = None if w is None else np.concatenate((w, w))
        ds = lgb.Dataset(X, label=yi, weight=w, params={"verbosity": -1})
        self.booster_ = lgb.train(self._lgb_params(self.classes_.shape[0]), ds,
                                  num_boost_round=int(self.n_estimators), callbacks=callbacks)
        return self

    def _raw_proba(self, X, n_trees=None):
        kw = {} if self.n_jobs is None else {"num_threads": int(self.n_jobs)}
        if n_trees is not None:
            kw["num_iteration"] = int(n_trees)
        p = self.booster_.predict(X, **kw)
        if self.classes_.shape[0] == 2:
            return np.column_stack((1.0 - p, p))
        return p

    def predict_proba(self, X, n_trees=None):
        """Class probabilities, independent of the pair order when ``swap_features`` is set.

        ``n_trees``: use only the first that many boosting rounds (default: all)."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "booster_")
        # float32 features go to LightGBM as they are (it reads them natively: no float64 copy)
        X = _validate_data(self, X, reset=False, dtype=(np.float64, np.float32))
        perm = self._perm(X.shape[1])
        if perm is not None and self.symmetry == "canonical":
            return self._raw_proba(self._canonical(X, perm), n_trees)
        p = self._raw_proba(X, n_trees)
        if perm is not None:
            p = 0.5 * (p + self._raw_proba(X[:, perm], n_trees))
        return p

    @property
    def n_trees_(self):
        """Boosting rounds in the fitted model (fewer than ``n_estimators`` after :meth:`trim`)."""
        return int(self.booster_.current_iteration())

    def trim(self, n_trees):
        """Keep only the first ``n_trees`` boosting rounds (a cheaper model). Returns self."""
        lgb = require("lightgbm", what="LinkGBMClassifier")

        n_trees = int(n_trees)
        if not 1 <= n_trees <= self.n_trees_:
            raise ParameterError(f"n_trees must be in 1..{self.n_trees_}, got {n_trees}")
        if n_trees < self.n_trees_:
            self.booster_ = lgb.Booster(model_str=self.booster_.model_to_string(num_iteration=n_trees))
        return self

    def predict(self, X):
        p = self.predict_proba(X)
        return self.classes_[np.argmax(p, axis=1)]

    @property
    def feature_importances_(self):
        """Total gain of the splits on each feature."""
        return self.booster_.feature_importance(importance_type="gain")

    # -- safe persistence --------------------------------------------------------------------
    def to_dict(self):
        """A JSON-serialisable description: parameters, classes and the LightGBM text model."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "booster_")
        params = self.get_params()
        if params["swap_features"] is not None:
            params["swap_features"] = [int(i) for i in np.asarray(params["swap_features"]).reshape(-1)]
        return {"params": params, "classes": self.classes_.tolist(), "n_features_in": int(self.n_features_in_),
                "lightgbm_model": self.booster_.model_to_string()}

    @classmethod
    def from_dict(cls, d):
        """Rebuild a fitted classifier from :meth:`to_dict`'s output."""
        lgb = require("lightgbm", what="LinkGBMClassifier")

        try:
            params = dict(d["params"])
            params.setdefault("symmetry", "average")   # files written before 'canonical' existed
            est = cls(**params)
            est.classes_ = np.asarray(d["classes"])
            est.n_features_in_ = int(d["n_features_in"])
            est.booster_ = lgb.Booster(model_str=d["lightgbm_model"])
        except (KeyError, TypeError, lgb.basic.LightGBMError) as exc:
            raise ParameterError(f"not a LinkGBMClassifier description: {exc}") from None
        return est
