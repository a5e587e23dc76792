"""The Science4Cast pipeline: train on the data's own past, predict the future, save safely.

:class:`LinkPredictor` with ``kind='blend'`` trains several :class:`LinkGBMClassifier` settings
on pairs from the past and blends their scores by a weighted rank average; ``kind='baseline'``
trains the degree-only :class:`DegreeBaseline`. Training never reads a row at or after the end of
``year_start``: features are computed at ``year_start - window * years_delta``, labels are the
links that appear by ``year_start - (window - 1) * years_delta`` (see
:func:`~graphmine.science4cast.snapshots.training_pairs`); ``window`` 1 is the latest past
window, 2 the one before it (a model that has seen a different stretch of the graph's growth).

Post-processing: the blend weights are fitted by greedy ensemble selection
(:func:`~graphmine.science4cast.blend.fit_rank_weights`) on held-out pairs of the latest past
window (features at ``year_start - years_delta``, labels at ``year_start``), which no model is
trained on; the pairs to be predicted are never used. The simple scores (degree sum and product,
degree growth, common neighbours, Adamic-Adar, Jaccard) are candidates of that selection beside
the trained models with ``simple_members=True``, so where the held-out window favours a simple
score the blend takes it. The members are then cut to the fewest trees (a multiple of 10) whose
held-out AUC is within 0.002 of their best: prediction time is proportional to the trees.

Model selection (``select='temporal'``, the default): a window the blend learns from can behave
unlike the window it predicts (on real data: a burst of new items, another school day), so the
final predictor is chosen by how a model trained on one past window carries over to the next. The
members are trained once more one window earlier and scored on the held-out pairs beside every
simple score and their equal rank average with the best one; the blend stays unless one of those
beats it there by more than the paired bootstrap SE. Everything is chosen on the past.

Prediction scores every pair once per model (the models put each pair in a canonical order, see
:class:`~graphmine.science4cast.estimators.LinkGBMClassifier`), with all cores unless ``threads``
says otherwise; :meth:`LinkPredictor.predict` logs the time of the features and of the models.

Model files are JSON (format ``graphmine.science4cast.model``, version 1): the settings, the
feature names, what the model was trained on, and for every LightGBM model its text model format
as a string (the MLP baseline as weight lists). Loading a model never unpickles anything.

Training and prediction need the ``ml`` extra (scikit-learn; lightgbm for the blend): without it
they raise :class:`~graphmine.core.exceptions.MissingDependencyError` naming
``pip install "graphmine[ml]"`` before any work. Stages are logged (INFO) to the
``graphmine.science4cast`` logger; ``progress=True`` adds progress bars on stderr.
"""

import json
import logging
import os
import time

import numpy as np

from .._primitives.small_work import unique_ints
from .._runtime.optional import require
from .._runtime.output import atomic_write, check_output_path
from ..core.exceptions import GraphFormatError, ParameterError, check_seed, warn_at_caller
from ._progress import LOGGER_NAME, progress_bar
from .features import feature_names, pair_features, swap_permutation
from .io import _FORCE, read_json
from .snapshots import (MIN_YEAR, multigraph_degree, training_pairs, unconnected_pair_count, window_positives,
                        year_end_day)

__all__ = ["LinkPredictor", "DEFAULT_MODELS", "MODEL_FORMAT", "require_ml", "MIN_WINDOW_POSITIVES",
           "MIN_HOLDOUT_POSITIVES", "FEW_POSITIVES", "MAX_AUC_SE"]

#: A past window with fewer positives than this makes training try wider windows (features
#: further back, the same label date).
MIN_WINDOW_POSITIVES = 20
#: The blend weights are fitted on held-out pairs only when both the held-out pairs and the
#: training pool keep at least this many positives; otherwise the members blend with equal weights.
MIN_HOLDOUT_POSITIVES = 20
#: Members are cut to the fewest trees (a multiple of TRIM_STEP) whose held-out AUC is within
#: TRIM_TOLERANCE of the best: prediction time is proportional to the trees.
TRIM_STEP = 10
TRIM_TOLERANCE = 0.002
#: With fewer positives than this in the training window the blend trains one member only (the
#: compact model, which has fewer features to overfit).
FEW_POSITIVES = 100
#: A trained blend is claimed only when the past supports it: the final predictor's AUC on the
#: held-out past pairs has a bootstrap standard error (200 stratified resamples) of at most this.
#: Above it (a handful of positives) no difference of 0.01 AUC from a simple score could be shown;
#: ``trained_on_['supported']`` is then False, with a warning naming the positives found.
MAX_AUC_SE = 0.01

_log = logging.getLogger(LOGGER_NAME)
# rows per LightGBM prediction call while a progress bar is shown (the bar moves per chunk)
_PREDICT_CHUNK = 1 << 16

# the format tag written into saved models (checked when one is loaded)
MODEL_FORMAT = "graphmine.science4cast.model"

#: The blended LightGBM settings: (name, hyper-parameters, feature columns used[, past window]).
DEFAULT_MODELS = (
    ("gbm_63_leaves", dict(n_estimators=100, learning_rate=0.1, num_leaves=63, min_child_samples=50,
                           subsample=0.8, subsample_freq=1, colsample_bytree=0.8, reg_lambda=1.0), "all"),
    # few features (degrees, their growth, CN, AA, Jaccard, distance): less to overfit to the
    # dynamics of the past window when the data's dynamics differ
    ("gbm_compact", dict(n_estimators=100, learning_rate=0.1, num_leaves=31, min_child_samples=50,
                         subsample=0.8, subsample_freq=1, colsample_bytree=0.8, reg_lambda=1.0), "compact"),
)


def require_ml(kind="blend", what="Science4Cast models"):
    """Import what a model of ``kind`` needs (scikit-learn; lightgbm for 'blend').

    Parameters
    ----------
    kind : {'blend', 'baseline'}, default 'blend'
        The model.
    what : str, default 'Science4Cast models'
        What needs them, for the message.

    Raises
    ------
    MissingDependencyError
        A package is missing; the message names the ``ml`` extra.

    Examples
    --------
    >>> require_ml("baseline")
    """
    require("sklearn", what=what)
    if kind != "baseline":
        require("lightgbm", what=what)


def _spec(model):
    """(name, params, columns, window) of a model setting given with or without its window."""
    if len(model) not in (3, 4):
        raise ParameterError(f"a model setting is (name, params, columns[, window]), got {model!r}")
    name, params, which = model[:3]
    window = int(model[3]) if len(model) == 4 else 1
    if window < 1:
        raise ParameterError(f"the training window of model {name!r} must be >= 1, got {window}")
    return name, dict(params), which, window


def _pair_keys(pairs, n):
    lo, hi = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
    return lo.astype(np.int64) * np.int64(n) + hi


#: The 'compact' feature selection: degrees, their growth, the simple pair scores and the distance.
COMPACT = ("deg", "pct", "cn", "aa", "jac", "dist", "deg_sum")


def _columns(names, which):
    if which == "all":
        return np.arange(len(names))
    if which == "latest":
        return np.array([i for i, n in enumerate(names) if not (n[0] == "d" and n[1].isdigit())])
    if which == "compact":
        def base(n):
            n = n.split("_", 1)[1] if n[0] == "d" and n[1].isdigit() else n
            return n[:-2] if n.endswith(("_u", "_v")) else n
        return np.array([i for i, n in enumerate(names) if base(n) in COMPACT])
    raise ParameterError(f"feature selection must be 'all', 'latest' or 'compact', got {which!r}")


def _select(X, names, which):
    # 'all' needs no copy of a possibly large matrix
    return X if which == "all" else X[:, _columns(names, which)]


class LinkPredictor:
    """Train on a Science4Cast data set's past and score its pairs.

    Parameters
    ----------
    kind : {'blend', 'baseline'}
        The rank-averaged LightGBM models, or the degree-only MLP baseline.
    models : sequence of (name, params, columns[, window]), optional
        LightGBM settings for ``kind='blend'`` (default :data:`DEFAULT_MODELS`); columns is
        'all' or 'latest' (only the latest snapshot's features); window (default 1) is the past
        window trained on: features at ``year_start - window * years_delta``, labels
        ``years_delta`` years later.
    n_snapshots : int
        Yearly snapshots per feature vector.
    max_distance : int
        Cap of the shortest-path feature.
    n_train_pairs : int
        Training pairs sampled from the past (before augmentation).
    positive_fraction : float
        Share of positives among the training pairs.
    blend_weights : {'fit', 'equal'}
        'fit': rank-average weights by greedy ensemble selection on held-out past pairs (see the
        module docstring); 'equal': a plain rank average.
    simple_members : bool
        With fitted weights, the simple scores of :mod:`~graphmine.science4cast.simple` (degree
        sum and product, degree growth, common neighbours, Adamic-Adar, Jaccard) are candidates of
        the greedy selection beside the trained models (named ``simple:<score>``): where the data
        of the held-out window favours a simple score, the blend takes it. Off by default: on the
        scenario benchmark it helps where degrees alone predict (pure preferential attachment,
        +0.004 AUC) but costs 0.007 where the held-out window overrates the simple scores (weak
        triadic closure).
    n_holdout_pairs : int or None
        Held-out past pairs for fitting the weights (default ``n_train_pairs // 2``).
    select : {'temporal', None}
        'temporal' (the default): after training, choose the final predictor by a rolling-origin
        check on the past alone. The blend's members are trained once more on the window before
        the held-out one (labels at the held-out window's feature date) and scored on the held-out
        pairs beside every simple score and the equal rank average of that probe blend and the
        best simple score. The predictor with the highest held-out AUC replaces the blend when it
        beats the probe blend there by more than the paired bootstrap SE of the difference
        (:attr:`selection_`): a simple score, or that rank average with the blend trained on the
        latest window. This asks how a model trained on one window carries over
        to the next, the question prediction asks. Skipped (the blend is kept) when no held-out
        pairs exist or the earlier window has pairs of one class. None: always the blend.
    seed : int
        Seed of the pair samples and the models.
    threads : int or None
        Threads for the feature kernels and LightGBM.
    progress : bool
        Progress bars on stderr (when it is a terminal): feature snapshots, boosting rounds of
        every model, and pairs scored. The stages are logged (INFO) to the
        ``graphmine.science4cast`` logger either way.

    Attributes
    ----------
    estimators_ : list
        The fitted models, with their names and columns.
    weights_ : dict of str to float
        Rank-average weight of every model.
    selection_ : dict or None
        The temporal check of ``select``: candidates and their scores.
    trained_on_ : dict
        The dates of the training window (``year_start``, ``years_delta``, ``feature_year``,
        ...).

    Examples
    --------
    >>> from graphmine.science4cast import generate_benchmark
    >>> data = generate_benchmark(400, 2000, year_start=2000, years_delta=2, seed=0)
    >>> small = [("tiny", dict(n_estimators=20), "all")]
    >>> lp = LinkPredictor(models=small, n_train_pairs=2000, seed=0).fit(data)
    >>> lp.predict(data).shape
    (2000,)
    """

    def __init__(self, kind="blend", models=None, *, n_snapshots=4, max_distance=4, n_train_pairs=200000,
                 positive_fraction=0.25, blend_weights="fit", n_holdout_pairs=None, simple_members=False,
                 select="temporal", seed=0, threads=None, progress=False):
        if kind not in ("blend", "baseline"):
            raise ParameterError(f"kind must be 'blend' or 'baseline', got {kind!r}")
        if blend_weights not in ("fit", "equal"):
            raise ParameterError(f"blend_weights must be 'fit' or 'equal', got {blend_weights!r}")
        if select not in ("temporal", None):
            raise ParameterError(f"select must be 'temporal' or None, got {select!r}")
        self.select = select
        self.kind = kind
        self.models = [_spec(m) for m in (DEFAULT_MODELS if models is None else models)]
        self.blend_weights = blend_weights
        self.simple_members = bool(simple_members)
        self.n_holdout_pairs = None if n_holdout_pairs is None else int(n_holdout_pairs)
        if kind == "blend" and not self.models:
            raise ParameterError("a blend needs at least one model setting")
        self.n_snapshots = int(n_snapshots)
        self.max_distance = int(max_distance)
        self.n_train_pairs = int(n_train_pairs)
        self.positive_fraction = float(positive_fraction)
        self.seed = seed
        self.threads = threads
        self.progress = progress
        self.estimators_ = None
        self.weights_ = None
        self.selection_ = None
        self.trained_on_ = None
        self._degraded = []

    # -- helpers ---------------------------------------------------------------------------------
    def _say(self, msg):
        _log.info("%s", msg)

    def _lgb_threads(self):
        # one LightGBM thread unless asked: OpenMP spinning on busy shared cores is slower
        return 1 if self.threads is None else int(self.threads)

    def _setting(self, data):
        """(cutoff, min_edges): the data's own, or inferred from its pairs (cutoff) and 1."""
        min_edges = 1 if data.min_edges is None else int(data.min_edges)
        if data.vertex_degree_cutoff is not None:
            return int(data.vertex_degree_cutoff), min_edges
        if data.pairs.shape[0] == 0:
            return 0, min_edges
        deg = multigraph_degree(data.graph, data.year_start, data.n_vertices)
        return int(deg[data.pairs].min()), min_edges

    def _features(self, graph, pairs, year, n):
        if self.kind == "baseline":
            from .baseline import degree_features

            return degree_features(graph, pairs, year, 3, n_vertices=n)
        X, _ = pair_features(graph, pairs, year, n_snapshots=self.n_snapshots, max_distance=self.max_distance,
                             n_vertices=n, threads=self.threads, progress=self.progress)
        return X

    # -- training and prediction ----------------------------------------------------------------
    def fit(self, data):
        """Train on ``data``'s past (rows before the end of ``data.year_start`` only). Returns self.

        Where the past gives few positives, training degrades instead of failing, each step with
        a warning (also recorded in ``trained_on_['degraded']``): a wider past window when the
        latest has fewer than :data:`MIN_WINDOW_POSITIVES` positives; one member instead of the
        blend below :data:`FEW_POSITIVES`; equal blend weights when the held-out pairs or the
        training pool would keep fewer than :data:`MIN_HOLDOUT_POSITIVES` positives (the held-out
        pairs are drawn first and never drawn for training). It fails, with a ParameterError
        naming the positives of every past window tried, only when no usable past window has a
        positive pair. The blend trained is claimed as supported by the past
        (``trained_on_['supported']``) only when its AUC on the held-out past pairs has a bootstrap
        SE of at most :data:`MAX_AUC_SE` (0.01); otherwise a warning names the positives found and
        the held-out SE (a handful of positives cannot show a gain of 0.01 over a simple score).
        The SE is measured on the past, never on the pairs to predict.
        """
        require_ml(self.kind, "LinkPredictor.fit")
        from ._gbm import LinkGBMClassifier
        from ._mlp import DegreeBaseline

        year, h = int(data.year_start), int(data.years_delta)
        n = data.n_vertices
        past = data.graph[data.graph[:, 2] < year_end_day(year)]
        cutoff, min_edges = self._setting(data)
        rng = check_seed(self.seed)
        self.estimators_ = []
        self.selection_ = None
        self._degraded = []
        held = None
        horizon, n_window_pos = self._choose_window(past, year, h, cutoff, min_edges, n)
        if self.kind == "baseline":
            got = self._training_set(past, year, horizon, cutoff, min_edges, n, rng)
            if got is None:
                raise ParameterError(f"the past window {year - horizon} -> {year} gives training pairs of one "
                                     "class only; nothing to train on")
            pairs, labels, X = got
            t1 = time.perf_counter()
            est = DegreeBaseline(random_state=self.seed).fit(np.vstack((X, X[:, _swap6(X.shape[1])])),
                                                             np.concatenate((labels, labels)))
            self.estimators_.append(("baseline", est, None, None))
            self._say(f"train: degree baseline fitted [{time.perf_counter() - t1:.1f} s]")
            n_pairs, n_pos = pairs.shape[0], int(labels.sum())
        else:
            from .blend import fit_rank_weights

            names = feature_names(self.n_snapshots)
            n_pairs = n_pos = 0
            models = list(self.models)
            if n_window_pos < FEW_POSITIVES and len(models) > 1:
                keep = next((m for m in models if m[2] == "compact"), models[0])
                self._degrade(f"only {n_window_pos} positive pairs in the past window {year - horizon} -> {year}: "
                              f"training one member ({keep[0]}) instead of {len(models)}")
                models = [keep]
            fit_weights = self.blend_weights == "fit" and (len(models) > 1 or self.simple_members)
            held_keys = None
            if fit_weights:
                # held-out pairs of the latest past window for the post-processing weights; they
                # are drawn first (with at most half of the window's positives) and excluded from
                # every training sample
                n_hold = self.n_train_pairs // 2 if self.n_holdout_pairs is None else self.n_holdout_pairs
                # a small graph: leave half of the unconnected pairs (the negatives) for training
                n_hold = min(n_hold, unconnected_pair_count(past, year - horizon, cutoff, n) // 2)
                quota = n_window_pos // 2
                if quota < MIN_HOLDOUT_POSITIVES:
                    self._degrade(f"only {n_window_pos} positive pairs in the past window {year - horizon} -> "
                                  f"{year}: too few to hold some out, the members blend with equal weights")
                else:
                    held = self._training_set(past, year, horizon, cutoff, min_edges, n, rng, n_hold, "held-out",
                                              max_positives=quota)
                    if held is None:
                        self._degrade("the held-out past pairs are of one class: the members blend with equal "
                                      "weights")
                    else:
                        held_keys = unique_ints(_pair_keys(held[0], n))
            for i, (name, params, which, window) in enumerate(models):
                # every model gets its own sample of past pairs: the blend then also averages out
                # the sampling noise of the training sets (bagging)
                label_year = year - (window - 1) * h
                got = self._training_set(past, label_year, horizon if window == 1 else h, cutoff, min_edges, n,
                                         rng, exclude=held_keys)
                if got is None:
                    self._degrade(f"model {name}: its past window ({label_year - h} -> {label_year}) gives "
                                  "pairs of one class only; the blend goes without it")
                    continue
                pairs, labels, X = got
                n_pairs += pairs.shape[0]
                n_pos += int(labels.sum())
                t1 = time.perf_counter()
                cols = _columns(names, which)
                sub = [names[i] for i in cols]
                est = LinkGBMClassifier(swap_features=swap_permutation(sub), random_state=self.seed + i,
                                        n_jobs=self._lgb_threads(), **params)
                rounds = int(params.get("n_estimators", est.n_estimators))
                with progress_bar(self.progress, rounds, f"train {name} ({i + 1}/{len(models)})",
                                  unit="round") as bar:
                    est.fit(_select(X, names, which), labels, callbacks=None if bar.disable else [lambda env: bar.update(1)])
                self.estimators_.append((name, est, which, window))
                self._say(f"train: model {name} fitted [{time.perf_counter() - t1:.1f} s]")
            if not self.estimators_:
                raise ParameterError(f"no model could be trained: the past window {year - horizon} -> {year} has "
                                     f"{n_window_pos} positive pairs, but every training sample (without the "
                                     f"{0 if held is None else held[0].shape[0]} held-out pairs) was of one class")
            if held is not None:
                self._trim_members(held, names)
            self.weights_ = {name: 1.0 / len(self.estimators_) for name, *_ in self.estimators_}
            if held is not None and (len(self.estimators_) > 1 or self.simple_members):
                _, hl, hX = held
                hs = {name: est.predict_proba(_select(hX, names, which))[:, 1] for name, est, which, _ in self.estimators_}
                if self.simple_members:
                    hs.update(_simple(hX, names))
                w, auc = fit_rank_weights(hl, list(hs.values()))
                self.weights_ = {name: float(wi) for name, wi in zip(hs, w)}
                self._say("train: blend weights on held-out past pairs: "
                          + ", ".join(f"{k} {v:.2f}" for k, v in self.weights_.items()) + f" (AUC {auc:.4f})")
            if self.select == "temporal" and held is not None:
                self.selection_ = self._select_temporal(past, year - horizon, horizon, cutoff, min_edges, n, rng,
                                                        held, names)
            support = self._support(held, names, n_window_pos, year - horizon, year)
        self.trained_on_ = {"year_start": year, "years_delta": h, "feature_year": year - horizon,
                            "vertex_degree_cutoff": cutoff, "min_edges": min_edges,
                            "n_pairs": int(n_pairs), "positives": int(n_pos), "n_vertices": n,
                            "window_positives": int(n_window_pos), "degraded": list(self._degraded)}
        if self.kind == "blend":
            self.trained_on_.update(support)
        if held is not None:
            self.trained_on_["holdout"] = {"n_pairs": int(held[0].shape[0]), "positives": int(held[1].sum()),
                                           "feature_year": year - horizon}
        return self

    def _support(self, held, names, n_window_pos, t0, t1):
        """``{'supported', 'holdout_auc', 'holdout_auc_se'}``: whether the held-out past pairs
        measure the final predictor's AUC to a bootstrap SE of at most :data:`MAX_AUC_SE`; when
        not, a warning names the positives found (see ``fit``)."""
        from .blend import bootstrap_aucs, roc_auc

        if held is None:
            self._degrade(f"the past gives too few positives to support a trained blend: {n_window_pos} positive "
                          f"pairs in the window {t0} -> {t1}, too few to hold some out and measure the blend's AUC "
                          f"to a bootstrap SE of {MAX_AUC_SE}; the predictor is not a supported trained blend")
            return {"supported": False, "holdout_auc": None, "holdout_auc_se": None}
        _, hl, hX = held
        hs = {name: est.predict_proba(_select(hX, names, which))[:, 1] for name, est, which, _ in self.estimators_}
        hs.update(_simple(hX, names))
        s = self.predict(None, scores=hs)
        auc = float(roc_auc(hl, s))
        se = float(bootstrap_aucs(hl, [s], n_boot=200, seed=self.seed)[:, 0].std(ddof=1))
        if se > MAX_AUC_SE:
            self._degrade(f"the past gives too few positives to support a trained blend: {n_window_pos} positive "
                          f"pairs in the window {t0} -> {t1}, {int(hl.sum())} of them held out; the held-out AUC "
                          f"{auc:.3f} has a bootstrap SE of {se:.3f} > {MAX_AUC_SE}, so no gain over the simple "
                          "scores can be shown; the predictor is not a supported trained blend")
        return {"supported": se <= MAX_AUC_SE, "holdout_auc": auc, "holdout_auc_se": se}

    def _trim_members(self, held, names):
        """Cut every member to the fewest boosting rounds (a multiple of :data:`TRIM_STEP`) whose
        held-out AUC is within :data:`TRIM_TOLERANCE` of the best of any multiple: prediction
        time is proportional to the trees."""
        from .blend import roc_auc

        _, hl, hX = held
        for name, est, which, _ in self.estimators_:
            Xs = _select(hX, names, which)
            n = est.n_trees_
            steps = sorted(set(range(TRIM_STEP, n, TRIM_STEP)) | {n})
            aucs = [roc_auc(hl, est.predict_proba(Xs, n_trees=k)[:, 1]) for k in steps]
            keep = next(k for k, a in zip(steps, aucs) if a >= max(aucs) - TRIM_TOLERANCE)
            if keep < n:
                est.trim(keep)
                self._say(f"train: model {name} cut to {keep} of {n} trees (held-out AUC {aucs[steps.index(keep)]:.4f}, "
                          f"best {max(aucs):.4f})")

    def _select_temporal(self, past, year, h, cutoff, min_edges, n, rng, held, names):
        """The rolling-origin choice of the final predictor (see ``select``), or None if not possible.

        ``year``: the held-out pairs' feature date, which is the probe's label date; ``h``: the window
        length; ``held``: the held-out (pairs, labels, features)."""
        from .blend import bootstrap_aucs, rank_average, roc_auc
        from .simple import SIMPLE_SCORES

        if year - h - self.n_snapshots + 1 < MIN_YEAR - 1 or not past.shape[0] or \
                int(past[:, 2].min()) >= year_end_day(year - h):
            self._say(f"train: no window before {year - h} -> {year} for the temporal check: the blend is kept")
            return None
        got = self._training_set(past, year, h, cutoff, min_edges, n, rng, what="probe")
        if got is None:
            self._say(f"train: the probe window {year - h} -> {year} gives pairs of one class: the blend is kept")
            return None
        from ._gbm import LinkGBMClassifier

        _, labels, X = got
        _, hl, hX = held
        probe = []
        for i, (name, est0, which, _) in enumerate(self.estimators_):
            params = next(p for m, p, *_ in self.models if m == name)
            sub = [names[j] for j in _columns(names, which)]
            est = LinkGBMClassifier(swap_features=swap_permutation(sub), random_state=self.seed + i,
                                    n_jobs=self._lgb_threads(), **params)
            est.fit(_select(X, names, which), labels)
            probe.append(est.predict_proba(_select(hX, names, which))[:, 1])
        cand = {"blend": rank_average(probe) if len(probe) > 1 else probe[0]}
        simple = _simple(hX, names)
        cand.update(simple)
        aucs = {k: float(roc_auc(hl, v)) for k, v in cand.items()}
        best_simple = max((f"simple:{k}" for k in SIMPLE_SCORES), key=aucs.get)
        cand[f"blend+{best_simple}"] = rank_average([cand["blend"], simple[best_simple]])
        aucs[f"blend+{best_simple}"] = float(roc_auc(hl, cand[f"blend+{best_simple}"]))
        # the learned blend stays unless another predictor beats it on the held-out pairs by more
        # than the paired bootstrap SE of the difference (few held-out positives: the blend stays)
        keys = list(aucs)
        boot = bootstrap_aucs(hl, [cand[k] for k in keys], n_boot=200, seed=self.seed)
        best = max(aucs, key=aucs.get)
        se = float((boot[:, keys.index(best)] - boot[:, 0]).std(ddof=1)) if best != "blend" else 0.0
        chosen = best if aucs[best] - aucs["blend"] > se else "blend"
        self._say(f"train: temporal check (probe trained {year - h} -> {year}, scored on the held-out pairs): "
                  + ", ".join(f"{k} {v:.4f}" for k, v in aucs.items()) + f"; chosen: {chosen}")
        return {"chosen": chosen, "aucs": aucs, "se_vs_blend": se, "probe_window": [year - h, year],
                "probe_pairs": int(labels.shape[0]), "probe_positives": int(labels.sum())}

    def _degrade(self, msg):
        # a warning only, not a stage message too: the command line prints warnings as one line
        # 'graphmine: warning: ...', and a logged copy printed the same text a second time
        self._degraded.append(msg)
        warn_at_caller(msg)

    def _choose_window(self, past, year, h, cutoff, min_edges, n):
        """(horizon, positives) of the past window to train on: the latest (features at
        ``year - h``), or, with fewer than MIN_WINDOW_POSITIVES positives there, the first wider
        window (features at ``year - k * h``, k = 2, 3, ...) that has that many (else the one with
        the most). Raises ParameterError, naming every window's positives, if none has any."""
        found = []
        k = 1
        first_day = int(past[:, 2].min()) if past.shape[0] else None
        while True:
            t0 = year - k * h
            # usable: every feature snapshot exists and the graph at t0 has a row
            if t0 - self.n_snapshots + 1 < MIN_YEAR - 1 or first_day is None or first_day >= year_end_day(t0):
                break
            p = int(window_positives(past, year, k * h, cutoff, min_edges, n_vertices=n).shape[0])
            found.append((k * h, p))
            if p >= MIN_WINDOW_POSITIVES:
                break
            k += 1
        if not found or max(p for _, p in found) == 0:
            tried = ", ".join(f"{year - H} -> {year}: {p}" for H, p in found) or "none (no rows before "\
                f"{year - h})"
            raise ParameterError(f"no positive pair in any usable past window (features -> labels: positives, "
                                 f"degree >= {cutoff}, min_edges {min_edges}): {tried}; nothing to train on")
        horizon, p = next(((H, p) for H, p in found if p >= MIN_WINDOW_POSITIVES), max(found, key=lambda x: x[1]))
        if horizon != h:
            self._degrade(f"only {found[0][1]} positive pairs in the latest past window {year - h} -> {year}: "
                          f"training on the wider window {year - horizon} -> {year} ({p} positives)")
        return horizon, p

    def _training_set(self, past, year, h, cutoff, min_edges, n, rng, n_pairs=None, what="training", *,
                      max_positives=None, exclude=None):
        """(pairs, labels, features) of a past window, or None when the pairs are of one class."""
        t0 = time.perf_counter()
        n_pairs = self.n_train_pairs if n_pairs is None else n_pairs
        pairs, labels = training_pairs(past, year, h, n_pairs, cutoff, min_edges,
                                       positive_fraction=self.positive_fraction, max_positives=max_positives,
                                       exclude=exclude, n_vertices=n, seed=rng)
        if labels.min(initial=1) == labels.max(initial=0):
            return None
        self._say(f"train: {pairs.shape[0]} {what} pairs from the past ({int(labels.sum())} positive), "
                  f"features at {year - h}, labels at {year} [{time.perf_counter() - t0:.1f} s]")
        return pairs, labels, self._features(past, pairs, year - h, n)

    def _check_fitted(self):
        if self.estimators_ is None:
            raise ParameterError("this LinkPredictor is not fitted; call fit(data) or load a model file")

    def features(self, data):
        """The feature matrix of ``data.pairs`` at ``data.year_start`` that :meth:`predict_all` uses."""
        n = max(data.n_vertices, (self.trained_on_ or {}).get("n_vertices", 0))
        return self._features(data.graph, data.pairs, int(data.year_start), n)

    def predict_all(self, data, features=None):
        """Scores of ``data.pairs`` from every model (dict name -> ndarray), features at year_start.

        Every LightGBM model scores each pair once (in canonical pair order), with ``threads``
        LightGBM threads (default: all cores). The simple scores that are members of the blend
        (``simple:<score>`` in :attr:`weights_`) come last.
        ``features``: the output of :meth:`features` for this data, if already computed.
        """
        self._check_fitted()
        X = self.features(data) if features is None else features
        out = {}
        names = feature_names(self.n_snapshots)
        # the baseline scores both pair orders: twice the rows
        ests = [e for e in self.estimators_ if self._needed(e[0])]
        rows = X.shape[0] * sum(2 if which is None else 1 for _, _, which, _ in ests)
        with progress_bar(self.progress, rows, "score", unit="pair", scale=True) as bar:
            for name, est, which, _ in ests:
                t0 = time.perf_counter()
                if hasattr(est, "n_jobs"):
                    # prediction splits into independent rows: all cores unless told otherwise
                    est.n_jobs = self.threads
                if which is None:
                    # the baseline was trained on both orders: average its predictions of both
                    swapped = X[:, _swap6(X.shape[1])]
                    out[name] = 0.5 * (_proba(est, X, bar) + _proba(est, swapped, bar))
                else:
                    out[name] = _proba(est, _select(X, names, which), bar)
                self._say(f"predict: model {name} scored {X.shape[0]} pairs [{time.perf_counter() - t0:.1f} s]")
        if self.kind == "blend":
            chosen = (self.selection_ or {}).get("chosen", "blend")
            want = {k for k in (self.weights_ or {}) if k.startswith("simple:")}
            want |= {k for k in _SIMPLE_KEYS if chosen.endswith(k)}
            if want:
                out.update((k, v) for k, v in _simple(X, names).items() if k in want)
        return out

    def _needed(self, name):
        """Whether the prediction needs model ``name``: not when the selection chose a simple
        score alone, nor when its blend weight is 0 (another member takes all the weight)."""
        chosen = (self.selection_ or {}).get("chosen", "blend")
        if self.kind == "blend" and chosen.startswith("simple:"):
            return False
        w = self.weights_ or {}
        return len(self.estimators_) == 1 or w.get(name, 1.0) > 0

    def predict(self, data, scores=None):
        """One score per pair (higher: more likely): the weighted rank average of the models
        (weights :attr:`weights_`, fitted on held-out past pairs), or the baseline's score."""
        from .blend import rank_average

        self._check_fitted()
        if scores is None:
            t0 = time.perf_counter()
            X = self.features(data)
            t1 = time.perf_counter()
            scores = self.predict_all(data, features=X)
            t2 = time.perf_counter()
            self._say(f"predict: {X.shape[0]} pairs: features {t1 - t0:.1f} s, models {t2 - t1:.1f} s")
        chosen = (self.selection_ or {}).get("chosen", "blend") if self.kind == "blend" else "blend"
        if chosen.startswith("simple:"):
            return scores[chosen]
        weights = self.weights_ or {}
        # the blend's members: those of positive weight (with no weights, the trained models)
        members = {k: v for k, v in scores.items() if (weights.get(k, 0) > 0 if weights else
                                                        not k.startswith("simple:"))}
        members = members or {k: v for k, v in scores.items() if not k.startswith("simple:")}
        blend = next(iter(members.values())) if len(members) == 1 else \
            rank_average(list(members.values()), [weights.get(k, 1.0) for k in members])
        if chosen == "blend":
            return blend
        # 'blend+simple:<score>': the equal rank average of the blend and that score
        return rank_average([blend, scores[chosen[len("blend+"):]]])

    def feature_importances(self):
        """(feature names, mean normalised gain over the blended models)."""
        self._check_fitted()
        if self.kind != "blend":
            raise ParameterError("feature importances exist for the LightGBM blend only")
        names = feature_names(self.n_snapshots)
        total = np.zeros(len(names))
        for _, est, which, _ in self.estimators_:
            imp = est.feature_importances_
            total[_columns(names, which)] += imp / max(imp.sum(), 1e-300)
        return names, total / len(self.estimators_)

    # -- persistence -----------------------------------------------------------------------------
    def save(self, path, *, force=False):
        """Write the model as JSON; refuses to replace an existing file unless ``force=True``."""
        self._check_fitted()
        path = check_output_path(path, force, flag=_FORCE)
        doc = {"format": MODEL_FORMAT, "version": 1, "kind": self.kind, "n_snapshots": self.n_snapshots,
               "max_distance": self.max_distance, "n_train_pairs": self.n_train_pairs,
               "positive_fraction": self.positive_fraction, "blend_weights": self.blend_weights,
               "n_holdout_pairs": self.n_holdout_pairs, "simple_members": self.simple_members, "seed": self.seed,
               "weights": self.weights_, "select": self.select, "selection": self.selection_,
               "feature_names": feature_names(self.n_snapshots) if self.kind == "blend" else None,
               "trained_on": self.trained_on_,
               "models": [{"name": name, "columns": which, "window": window, "estimator": est.to_dict()}
                          for name, est, which, window in self.estimators_]}
        with atomic_write(path, "w", force=force, flag=_FORCE) as fh:
            json.dump(doc, fh)

    @classmethod
    def load(cls, path, *, threads=None, progress=False):
        """Read a model file written by :meth:`save` (checked whole: a model that loads can predict).

        Raises
        ------
        GraphFormatError
            The file is missing, unreadable, not JSON, or not a valid model file.
        MissingDependencyError
            scikit-learn (and lightgbm, for a blend) is not installed.
        """
        path = os.fspath(path)
        doc = read_json(path, "model file")
        if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT or doc.get("version") != 1:
            raise GraphFormatError(f"not a {MODEL_FORMAT} version 1 file", path)
        require_ml("baseline" if doc.get("kind") == "baseline" else "blend", "LinkPredictor.load")
        from ._gbm import LinkGBMClassifier
        from ._mlp import DegreeBaseline
        try:
            lp = cls(doc["kind"], models=[(m["name"], m["estimator"]["params"], m["columns"], m.get("window") or 1)
                                          for m in doc["models"] if m["columns"] is not None],
                     n_snapshots=doc["n_snapshots"], max_distance=doc["max_distance"],
                     n_train_pairs=doc["n_train_pairs"], positive_fraction=doc["positive_fraction"],
                     blend_weights=doc.get("blend_weights", "equal"), n_holdout_pairs=doc.get("n_holdout_pairs"),
                     simple_members=doc.get("simple_members", False), select=doc.get("select"),
                     seed=doc["seed"], threads=threads, progress=progress)
            lp.trained_on_ = doc["trained_on"]
            sel = doc.get("selection")   # files written before the temporal check: the blend
            if sel is not None and (not isinstance(sel, dict) or not isinstance(sel.get("chosen"), str)
                                    or sel["chosen"] not in ("blend",) + _SIMPLE_KEYS
                                    + tuple(f"blend+{k}" for k in _SIMPLE_KEYS)):
                raise ValueError(f"unknown selection {sel!r}")
            lp.selection_ = sel
            weights = doc.get("weights")   # files without weights: a plain rank average
            lp.weights_ = None if weights is None else {str(k): float(v) for k, v in weights.items()}
            lp.estimators_ = []
            for m in doc["models"]:
                kind = DegreeBaseline if doc["kind"] == "baseline" else LinkGBMClassifier
                est = kind.from_dict(m["estimator"])
                if kind is LinkGBMClassifier:
                    est.n_jobs = lp._lgb_threads()
                lp.estimators_.append((m["name"], est, m["columns"], m.get("window")))
        except (KeyError, TypeError, ValueError, AttributeError, ParameterError) as exc:
            raise GraphFormatError(f"malformed model file: {exc}", path) from None
        return lp


_SIMPLE_KEYS = tuple(f"simple:{k}" for k in ("deg_sum", "deg_prod", "deg_growth", "cn", "aa", "jac"))


def _simple(X, names):
    """The simple scores of feature rows as blend members (dict ``simple:<score>`` -> scores)."""
    from .simple import simple_scores

    return {f"simple:{k}": v for k, v in simple_scores(X, names).items()}


def _proba(est, X, bar):
    """Positive-class probabilities of ``X``, in chunks that move ``bar`` while it is shown."""
    if bar.disable:
        return est.predict_proba(X)[:, 1]
    out = np.empty(X.shape[0])
    for a in range(0, X.shape[0], _PREDICT_CHUNK):
        b = min(a + _PREDICT_CHUNK, X.shape[0])
        out[a:b] = est.predict_proba(X[a:b])[:, 1]
        bar.update(b - a)
    return out


def _swap6(k):
    """Swap permutation of the baseline's columns (u, v alternate)."""
    perm = np.arange(k)
    perm[0::2], perm[1::2] = np.arange(1, k, 2), np.arange(0, k, 2)
    return perm
