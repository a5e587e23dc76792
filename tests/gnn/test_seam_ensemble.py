"""select_seam(combine='mean'): the radius fits' scores averaged (SEAMEnsemble), the command line's
default; every choice made on the validation split, none on the test split (issue 36)."""

import dataclasses

import numpy as np
import pytest

import graphmine as gm
from graphmine.io.generators import planted_cliques_graph
from graphmine.motifs import auc_ap, clique, motif_prediction_task

torch = pytest.importorskip("torch")
pytest.importorskip("torch_geometric")

CANDS = [{"hops": 1}, {"hops": 2, "max_nodes_per_hop": 20}]
FIT = dict(epochs=3, patience=3, seed=0, threads=1, device="cpu", verbose=False)


@pytest.fixture(scope="module")
def task():
    G, _ = planted_cliques_graph(300, 0.02, [7] * 15, seed=4)
    return motif_prediction_task(G, clique(3), n_positives=60, seed=0)


def _with_labels(task, split, rng):
    """The task with one split's labels redrawn (the graph, candidates and other splits unchanged)."""
    labels = task.labels.copy()
    idx = task.indices(split)
    labels[idx] = rng.permutation(labels[idx])[::-1]
    assert not np.array_equal(labels[idx], task.labels[idx])
    return dataclasses.replace(task, labels=labels)


def _untimed(table):
    return [{k: v for k, v in c.items() if k != "fit_seconds"} for c in table]


def test_mean_is_the_average_of_the_separately_fitted_candidates(task):
    from gnn import SEAM, SEAMEnsemble, select_seam

    e = select_seam(task, CANDS, combine="mean", **FIT)
    assert isinstance(e, SEAMEnsemble) and [m.hops for m in e.members_] == [1, 2]
    # oracle: the candidates fitted one by one, their probabilities averaged in numpy
    alone = [SEAM(**c, **FIT).fit(task) for c in CANDS]
    for split in ("val", "test", None):
        want = np.mean([m.predict_proba(task, split) for m in alone], axis=0)
        np.testing.assert_array_equal(e.predict_proba(task, split), want)
    y_val = task.labels[task.indices("val")]
    assert e.best_val_auc_ == auc_ap(y_val, e.predict_proba(task, "val"))["auc"]
    assert [c["val_auc"] for c in e.selection_] == [m.best_val_auc_ for m in alone]
    assert e.fit_seconds_ == pytest.approx(sum(c["fit_seconds"] for c in e.selection_))
    ev = e.evaluate(task, "test")
    assert ev == auc_ap(task.labels[task.indices("test")], e.predict_proba(task, "test"))
    # the same seed gives the same ensemble
    again = select_seam(task, CANDS, combine="mean", **FIT)
    np.testing.assert_array_equal(again.predict_proba(task, "test"), e.predict_proba(task, "test"))


@pytest.mark.parametrize("combine", ["best", "mean"])
def test_selection_reads_the_validation_labels_and_never_the_test_labels(task, combine):
    from gnn import select_seam

    rng = np.random.default_rng(0)
    ref = select_seam(task, CANDS, combine=combine, **FIT)
    # other test labels: the same fits, choice and scores
    other_test = _with_labels(task, "test", rng)
    got = select_seam(other_test, CANDS, combine=combine, **FIT)
    assert _untimed(got.selection_) == _untimed(ref.selection_)
    assert got.best_val_auc_ == ref.best_val_auc_
    np.testing.assert_array_equal(got.predict_proba(other_test, "test"), ref.predict_proba(task, "test"))
    # other validation labels: the validation AUCs the choice is made on change
    other_val = _with_labels(task, "val", rng)
    moved = select_seam(other_val, CANDS, combine=combine, **FIT)
    assert [c["val_auc"] for c in moved.selection_] != [c["val_auc"] for c in ref.selection_]


def test_ensemble_leaves_torch_state_as_found(task):
    from gnn import select_seam

    threads = torch.get_num_threads()
    rng = torch.get_rng_state()
    det = torch.are_deterministic_algorithms_enabled()
    e = select_seam(task, CANDS, combine="mean", **FIT)
    e.predict_proba(task, "test")
    assert torch.get_num_threads() == threads
    assert torch.equal(torch.get_rng_state(), rng)
    assert torch.are_deterministic_algorithms_enabled() == det


def test_combine_and_ensemble_errors(task):
    from gnn import SEAM, SEAMEnsemble, select_seam

    with pytest.raises(gm.ParameterError, match="combine must be one of"):
        select_seam(task, CANDS, combine="median", **FIT)
    with pytest.raises(gm.ParameterError, match="non-empty sequence of fitted SEAM"):
        SEAMEnsemble([])
    with pytest.raises(gm.ParameterError, match="non-empty sequence of fitted SEAM"):
        SEAMEnsemble([SEAM()])
    with pytest.raises(gm.ParameterError, match="non-empty sequence of fitted SEAM"):
        SEAMEnsemble(3)
    a = SEAM(**FIT).fit(task)
    b = SEAM(**FIT).fit(motif_prediction_task(task.graph, clique(4), n_positives=20, seed=0))
    with pytest.raises(gm.ParameterError, match="one motif size"):
        SEAMEnsemble([a, b])
