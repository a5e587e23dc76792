"""SEAM on temporal closure candidates: the GNN trained on an earlier window's candidates.

A :class:`graphmine.motifs.ClosureTask` (open triangles or 4-sets at a cut, labelled by whether
they close in the next window) becomes a :class:`graphmine.motifs.MotifTask` over the past's
projected graph: the candidates are the samples, the motif is the clique on their vertices, and
the motif edges to predict are the candidate's pairs missing from the past (none for open
triangles, whose three pairs are linked: the subgraph is then the candidate's neighbourhood as it
is). The task carries the pair weights (how many past items two vertices shared) in
``info['edge_weights']`` and the closure features of every candidate
(:func:`graphmine.motifs.closure.closure_features` without the walk scores: the generalised means
of the pair weights, CN, Jaccard, AA, PA, SPA, their components and the recency features) in
``info['candidate_features']``. By default (``weighted=True``) SEAM uses both: the GCN layers
weight every subgraph edge by ``log(1 + w)`` and the closure features replace the unweighted
heuristic scores as the candidate-level input (which reaches the logit through a linear skip, so
the network can reproduce a weighted score's ranking and learn what the subgraph adds to it).
SEAM (:class:`gnn.SEAM`) is trained on a sample of the training window's candidates (80 %
training, 20 % validation for early stopping) and scores a sample of the test window's.

The closure data are imbalanced (often under 1 % close), so the samples are stratified: every
positive is kept with probability ``p1`` and every negative with ``p0`` (about ``n / 2``
positives, all where there are fewer, and negatives for the rest of ``n``). The training sample is used as drawn (balanced); the test sample's metrics weight
each candidate by ``1 / p`` of its class, so the average precision and ROC AUC estimate those of
the whole candidate set, and "AUC-PR relative to random" divides by the whole set's positive rate,
comparable with :func:`graphmine.motifs.predict_closure`'s table. The simple scores are reported
on the same weighted sample.
"""

import time

import numpy as np

from graphmine.core.exceptions import GraphValueError, ParameterError
from graphmine.core.graph import from_edges
from graphmine.motifs import MotifTask, clique
from graphmine.motifs.closure import ClosureTask, closure_features, closure_scores

__all__ = ["closure_motif_task", "stratified_sample", "weighted_closure_metrics", "seam_closure"]


def closure_motif_task(task, idx=None, split=None, recency=True):
    """The :class:`MotifTask` of a closure task's candidates ``idx`` (default all).

    Parameters
    ----------
    task : ClosureTask
        The closure candidates.
    idx : ndarray of int, optional
        The candidates to take (default: all).
    split : ndarray of int8, optional
        0 train, 1 validation, 2 test per chosen candidate (default: all test).
    recency : bool, default True
        The candidate features include the recency features (when the pairs met).

    Returns
    -------
    MotifTask
        The candidates as motif tuples over the projected past graph, their labels as targets.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from graphmine.motifs import closure_task
    >>> ev = SimpleNamespace(item_ptr=np.array([0, 2, 4, 6, 9]), item_nodes=np.array([0, 1, 1, 2, 0, 2, 0, 1, 2]),
    ...                      times=np.array([1.0, 2, 3, 5]), n_nodes=3)
    >>> mt = closure_motif_task(closure_task(ev, cut=3, delta=2))
    >>> mt.tuples.tolist(), mt.labels.tolist(), mt.targets.tolist(), mt.observed.n_edges
    ([[0, 1, 2]], [1], [[False, False, False]], 3)
    """
    if not isinstance(task, ClosureTask):
        raise ParameterError(f"closure_motif_task needs a ClosureTask, got {type(task).__name__}")
    idx = np.arange(task.tuples.shape[0]) if idx is None else np.asarray(idx, np.int64)
    p = task._past
    src = np.repeat(np.arange(p.n, dtype=np.int64), np.diff(p.indptr))
    keep = src < p.indices
    G = from_edges(np.stack((src[keep], p.indices[keep]), axis=1), n_nodes=p.n)
    tuples = np.ascontiguousarray(task.tuples[idx], dtype=np.int64)
    motif = clique(tuples.shape[1])
    # a motif edge is a target when the past lacks that pair
    keys = set((src[keep] * p.n + p.indices[keep]).tolist())
    u = np.minimum(tuples[:, motif.edges[:, 0]], tuples[:, motif.edges[:, 1]])
    v = np.maximum(tuples[:, motif.edges[:, 0]], tuples[:, motif.edges[:, 1]])
    targets = ~np.isin(u * p.n + v, np.fromiter(keys, np.int64, len(keys)))
    labels = task.labels[idx].astype(np.int8)
    split = np.full(idx.shape[0], 2, np.int8) if split is None else np.asarray(split, np.int8)
    kind = np.where(labels == 1, 0, 2).astype(np.int8)
    # the pair weights, keyed u * n + v (u < v): sorted, as the CSR rows and their columns are
    edge_keys = src[keep] * p.n + p.indices[keep]
    names, X = closure_features(task, walk=False, recency=recency)
    return MotifTask(G, G, motif, tuples, labels, kind, split, targets, np.zeros((0, 2), np.int64),
                     {"from": "closure", "cut": task.cut, "delta": task.delta,
                      "edge_weights": (edge_keys, p.weights[keep]), "candidate_features": (names, X[idx])})


def stratified_sample(labels, n, rng):
    """A stratified sample of about ``n`` candidates, with inverse-probability weights.

    Each positive is kept with probability p1 (about ``n / 2`` of them, all when there are
    fewer), each negative with p0 (about ``n`` minus that many).

    Parameters
    ----------
    labels : ndarray of 0/1
        The candidates' labels.
    n : int
        Sample size wanted.
    rng : numpy.random.Generator
        The random source.

    Returns
    -------
    indices : ndarray of int64
        The chosen candidates, increasing.
    weights : ndarray of float64
        ``1 / p`` of each one's class.

    Examples
    --------
    >>> idx, w = stratified_sample(np.array([0, 0, 0, 0, 1, 1, 0, 0]), 4, np.random.default_rng(0))
    >>> idx.tolist(), w.tolist()
    ([0, 1, 4, 5], [3.0, 3.0, 1.0, 1.0])"""
    y = np.asarray(labels)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y != 1)
    p1 = min(1.0, (n / 2) / max(pos.size, 1))
    p0 = min(1.0, (n - min(pos.size, n / 2)) / max(neg.size, 1))
    keep = np.concatenate((pos[rng.random(pos.size) < p1], neg[rng.random(neg.size) < p0]))
    keep.sort()
    w = np.where(y[keep] == 1, 1.0 / p1, 1.0 / p0)
    return keep, w


def weighted_closure_metrics(labels, scores, weights, rate):
    """Average precision, its ratio to the positive rate and ROC AUC on a weighted sample.

    Parameters
    ----------
    labels : ndarray of 0/1
        The sampled candidates' labels.
    scores : ndarray of float
        Their scores.
    weights : ndarray of float
        Their sample weights (:func:`stratified_sample`).
    rate : float
        The whole set's positive rate (the ratio's denominator).

    Returns
    -------
    dict
        ``{'auc_pr': float, 'auc_pr_ratio': float, 'roc_auc': float}``.

    Examples
    --------
    >>> weighted_closure_metrics(np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8]), np.ones(4), 0.5)
    {'auc_pr': 0.8333333333333333, 'auc_pr_ratio': 1.6666666666666665, 'roc_auc': 0.75}"""
    from graphmine._runtime.optional import require

    require("sklearn", what="gnn.closure.weighted_closure_metrics")
    from sklearn.metrics import average_precision_score, roc_auc_score

    ap = float(average_precision_score(labels, scores, sample_weight=weights))
    return {"auc_pr": ap, "auc_pr_ratio": ap / rate, "roc_auc": float(roc_auc_score(labels, scores,
                                                                                      sample_weight=weights))}


def seam_closure(train_task, test_task, *, n_train=2000, n_test=4000, weighted=True, recency=True, seed=0,
                 **seam_params):
    """Train SEAM on ``train_task``'s candidates (a sample), score ``test_task``'s (a sample).

    Parameters
    ----------
    train_task, test_task : ClosureTask
        The earlier window (its labels must end by the test's cut) and the one to predict.
    n_train, n_test : int
        Candidates sampled from each (stratified, see the module docstring).
    weighted : bool
        SEAM sees the pair weights (``edge_weights=True``, ``features='task'``: the closure
        features); False: the unweighted subgraphs and heuristic scores (SEAM's defaults).
    recency : bool
        With ``weighted``, the closure features include the recency features
        (:func:`graphmine.motifs.closure.closure_features`).
    seed : int
        Seed of the samples and of SEAM.
    **seam_params
        Passed to :class:`gnn.SEAM` (e.g. ``epochs``, ``hops``, ``threads``, ``device``).

    Returns
    -------
    dict
        ``{'seam': metrics, 'singles': {score: metrics}, 'n_train', 'train_positives', 'n_test',
        'test_positives', 'best_epoch', 'seconds'}``, metrics as :func:`weighted_closure_metrics` on the same
        weighted test sample.

    Examples
    --------
    >>> from graphmine.io.events import events_from_items
    >>> from graphmine.motifs import closure_task
    >>> rng = np.random.default_rng(0)
    >>> items = [rng.choice(40, rng.integers(2, 4), replace=False).tolist() for _ in range(3000)]
    >>> ev = events_from_items(items, list(range(3000)))
    >>> train, test = closure_task(ev, 2000, 500), closure_task(ev, 2500, 500)
    >>> r = seam_closure(train, test, n_train=100, n_test=100, epochs=2, threads=1, verbose=False)
    >>> sorted(r["seam"])
    ['auc_pr', 'auc_pr_ratio', 'roc_auc']
    """
    from graphmine._runtime.optional import required_by

    with required_by("gnn.closure.seam_closure"):   # not gnn.seam, imported on the user's behalf
        from gnn.seam import SEAM

    if train_task.cut + train_task.delta > test_task.cut:
        raise ParameterError(f"the training labels' window ends at {train_task.cut + train_task.delta}, after the "
                             f"test cut {test_task.cut}")
    rng = np.random.default_rng(seed)
    tr, _ = stratified_sample(train_task.labels, n_train, rng)
    ytr = train_task.labels[tr]
    if ytr.min(initial=1) == ytr.max(initial=0):
        raise GraphValueError(f"the training window's sample ({tr.size} candidates) is of one class")
    split = np.zeros(tr.size, np.int8)
    split[rng.random(tr.size) < 0.2] = 1
    for c in (0, 1):     # both splits need both classes
        for lab in (0, 1):
            if not ((split == c) & (ytr == lab)).any():
                split[np.flatnonzero(ytr == lab)[0 if c == 0 else -1]] = c
    te, w = stratified_sample(test_task.labels, n_test, rng)
    if test_task.labels[te].min(initial=1) == test_task.labels[te].max(initial=0):
        raise GraphValueError(f"the test window's sample ({te.size} candidates) is of one class")
    t0 = time.perf_counter()
    params = dict(verbose=False, seed=seed)
    if weighted:
        params.update(edge_weights=True, features="task")
    params.update(seam_params)
    m = SEAM(**params).fit(closure_motif_task(train_task, tr, split, recency))
    p = m.predict_proba(closure_motif_task(test_task, te, recency=recency), "test")
    seconds = time.perf_counter() - t0
    rate = test_task.positive_rate
    y = test_task.labels[te]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        singles = closure_scores(test_task)
    return {"seam": weighted_closure_metrics(y, p, w, rate),
            "singles": {k: weighted_closure_metrics(y, v[te], w, rate) for k, v in singles.items()},
            "n_train": int(tr.size), "train_positives": int(ytr.sum()), "n_test": int(te.size),
            "test_positives": int(y.sum()), "seconds": seconds, "best_epoch": m.best_epoch_}
