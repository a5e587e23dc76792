"""A scikit-learn compatible LightGBM classifier with pair-order symmetry.

:class:`LinkGBMClassifier` wraps ``lightgbm.train``: ``__init__`` stores hyper-parameters only,
``fit`` returns self, learned attributes end in ``_``. With ``swap_features`` (the column
permutation that turns the features of a pair (u, v) into those of (v, u), see
:func:`graphmine.science4cast.features.swap_permutation`) a prediction never depends on the
pair's order: by default (``symmetry='canonical'``) every row, in training and prediction, is put
in one canonical order (the larger of the row and its swapped copy, lexicographically over the
swapped column pairs), so each pair is predicted once; ``symmetry='average'`` trains on every row
and its swapped copy (the order-swap augmentation) and predicts the mean over both orders.

A fitted model is stored as LightGBM's own text model format inside a JSON document
(:meth:`LinkGBMClassifier.to_dict` / :meth:`LinkGBMClassifier.from_dict`); nothing is pickled.

scikit-learn (and lightgbm, for fitting and loading) are imported when the class is first used:
without them, ``LinkGBMClassifier`` raises
:class:`~graphmine.core.exceptions.MissingDependencyError` naming ``pip install "graphmine[ml]"``.
"""

__all__ = ["LinkGBMClassifier"]


def __getattr__(name):
    # the class derives from scikit-learn's BaseEstimator: define it only when it is asked for
    if name == "LinkGBMClassifier":
        from ._gbm import LinkGBMClassifier  # names the missing extra itself

        return LinkGBMClassifier
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)
