"""SEAM on closure candidates (gnn.closure): the MotifTask built from a ClosureTask against a
networkx recomputation, the stratified sample and its weighted metrics against the unweighted
ones, and one short training run."""

import networkx as nx
import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("torch_geometric")
pytest.importorskip("sklearn")

from graphmine.core.exceptions import ParameterError  # noqa: E402
from graphmine.motifs.closure import closure_task, evaluate_closure  # noqa: E402
from gnn.closure import (closure_motif_task, seam_closure, stratified_sample,  # noqa: E402
                         weighted_closure_metrics)
from tests.motifs.test_closure import events, synthetic  # noqa: E402

pytestmark = pytest.mark.slow  # torch, SEAM's closure task and one training run


def test_motif_task_is_the_unweighted_past_with_the_missing_pairs_as_targets():
    ev = synthetic(3, n=40, m=1500)
    for kind in ("open", "wedge"):
        task = closure_task(ev, 1000, 300, candidates=kind)
        mt = closure_motif_task(task)
        G = nx.Graph()
        G.add_nodes_from(range(ev.n_nodes))
        for i in range(np.searchsorted(ev.times, 1000, side="right")):
            it = ev.item_nodes[ev.item_ptr[i]:ev.item_ptr[i + 1]].tolist()
            G.add_edges_from((a, b) for a in it for b in it if a < b)
        assert mt.observed.n_edges == G.number_of_edges()
        assert np.array_equal(mt.tuples, task.tuples) and np.array_equal(mt.labels, task.labels)
        want = [[not G.has_edge(int(t[a]), int(t[b])) for a, b in mt.motif.edges.tolist()] for t in task.tuples]
        assert np.array_equal(mt.targets, np.array(want, bool).reshape(mt.targets.shape))
        assert mt.targets.sum(axis=1).max(initial=0) == (0 if kind == "open" else 1)
        assert (mt.split == 2).all()


def test_weighted_sample_estimates_the_whole_set():
    rng = np.random.default_rng(0)
    y = (rng.random(5000) < 0.05).astype(np.int8)
    s = y + rng.normal(0, 1, y.size)
    # a sample as large as the set keeps everything with weight 1: the plain metrics
    idx, w = stratified_sample(y, 2 * y.size, rng)
    assert idx.size == y.size and (w == 1).all()
    assert weighted_closure_metrics(y, s, w, y.mean()) == pytest.approx(evaluate_closure(y, s))
    # a smaller one keeps every positive here (fewer than n / 2) and about n - positives negatives,
    # reweighted by 1 / p
    idx, w = stratified_sample(y, 1000, rng)
    ys = y[idx]
    assert ys.sum() == y.sum() and 650 < (ys == 0).sum() < 830
    assert np.allclose(w[ys == 0], (y == 0).sum() / (1000 - y.sum()))
    whole, est = evaluate_closure(y, s), weighted_closure_metrics(ys, s[idx], w, y.mean())
    assert abs(est["roc_auc"] - whole["roc_auc"]) < 0.03 and abs(est["auc_pr"] - whole["auc_pr"]) < 0.05


@pytest.mark.slow
def test_seam_closure_trains_on_the_earlier_window():
    ev = synthetic(4, n=60, m=3000)
    train, test = closure_task(ev, 1800, 600), closure_task(ev, 2400, 600)
    r = seam_closure(train, test, n_train=300, n_test=10_000, seed=0, epochs=2, threads=1, device="cpu")
    assert r["n_test"] == test.labels.size and r["test_positives"] == int(test.labels.sum())
    # the whole test set with weight 1: the simple scores' figures are the plain ones
    from graphmine.motifs.closure import closure_scores

    gm = evaluate_closure(test.labels, closure_scores(test, ["geometric_mean"])["geometric_mean"])
    assert r["singles"]["geometric_mean"] == pytest.approx(gm)
    assert 0 <= r["seam"]["roc_auc"] <= 1 and r["seam"]["auc_pr_ratio"] > 0
    with pytest.raises(ParameterError, match="after the test cut"):
        seam_closure(test, train)
    with pytest.raises(ParameterError, match="ClosureTask"):
        closure_motif_task(events([[0, 1]], [1.0]))


def test_pair_weights_reach_the_subgraph_edges():
    """info['edge_weights'] are the past's co-occurrence counts (networkx), every subgraph edge gets
    log(1 + its count), and the candidate features are closure_features' rows."""
    from gnn.seam import SEAM, _subgraph_edge_weights
    from graphmine.motifs import enclosing_subgraphs
    from graphmine.motifs.closure import closure_features

    ev = synthetic(5, n=40, m=1200)
    task = closure_task(ev, 800, 300)
    mt = closure_motif_task(task)
    G = nx.Graph()
    for i in range(np.searchsorted(ev.times, 800, side="right")):
        it = ev.item_nodes[ev.item_ptr[i]:ev.item_ptr[i + 1]].tolist()
        for a in it:
            for b in it:
                if a < b:
                    w = G.get_edge_data(a, b, {"w": 0})["w"]
                    G.add_edge(a, b, w=w + 1)
    keys, w = mt.info["edge_weights"]
    want = sorted((min(a, b) * ev.n_nodes + max(a, b), d["w"]) for a, b, d in G.edges(data=True))
    assert keys.tolist() == [k for k, _ in want] and w.tolist() == [float(x) for _, x in want]
    S = enclosing_subgraphs(mt.observed, mt.motif, mt.tuples[:20], mt.targets[:20], hops=1)
    got = _subgraph_edge_weights(mt, S).numpy()
    pos = np.repeat(np.arange(len(S)), np.diff(S.edge_ptr))
    glob = S.nodes[S.node_ptr[pos][:, None] + S.edges]
    assert np.allclose(got, [np.log1p(G[int(a)][int(b)]["w"]) for a, b in glob])
    names, X = mt.info["candidate_features"]
    assert (names, X.tolist()) == (lambda r: (r[0], r[1].tolist()))(closure_features(task, walk=False))
    # a task without the weights or features is refused by name
    bare = closure_motif_task(task)
    bare.info = {}
    for kw, what in (({"edge_weights": True, "features": None}, "edge_weights"),
                     ({"features": "task"}, "candidate_features")):
        bare.split[:] = 0
        bare.split[-5:] = 1
        with pytest.raises(ParameterError, match=what):
            SEAM(epochs=1, verbose=False, threads=1, device="cpu", **kw).fit(bare)
    with pytest.raises(ParameterError, match="edge_weights must be"):
        SEAM(edge_weights="yes", epochs=1, verbose=False, device="cpu").fit(mt)
