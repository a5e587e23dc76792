"""SEAM with the heuristic motif scores as input features, and the choice of hops on validation AUC
(issue 12 item 4: SEAM should not lose to the heuristics it subsumes)."""

import networkx as nx
import numpy as np
import pytest

import graphmine as gm
from graphmine.io.generators import planted_cliques_graph
from graphmine.motifs import clique, evaluate_heuristics, motif_prediction_task, star

torch = pytest.importorskip("torch")
pytest.importorskip("torch_geometric")


def _nx_link_scores(H, u, v):
    """CN, Jaccard, AA, RA, PA of one pair, from networkx (the oracle)."""
    cn = len(list(nx.common_neighbors(H, u, v)))
    jac = next(iter(nx.jaccard_coefficient(H, [(u, v)])))[2]
    aa = next(iter(nx.adamic_adar_index(H, [(u, v)])))[2]
    ra = next(iter(nx.resource_allocation_index(H, [(u, v)])))[2]
    pa = next(iter(nx.preferential_attachment(H, [(u, v)])))[2]
    return {"cn": cn, "jaccard": jac, "adamic_adar": aa, "resource_allocation": ra, "preferential_attachment": pa}


def _oracle_features(task):
    """The motif scores of every candidate, from networkx link scores and the formulas of the docs."""
    H = task.observed.to_networkx()
    E, D = task.motif.edges, task.motif.dealbreakers
    pairs = np.concatenate((E, D)) if D.shape[0] else E
    raw = {l: np.zeros((len(task.tuples), len(pairs))) for l in _nx_link_scores(H, 0, 1)}
    present = np.zeros((len(task.tuples), len(pairs)), bool)
    for i, t in enumerate(task.tuples):
        for j, (a, b) in enumerate(pairs):
            u, v = int(t[a]), int(t[b])
            present[i, j] = H.has_edge(u, v)
            for l, s in _nx_link_scores(H, u, v).items():
                raw[l][i, j] = s
    out = {}
    me = E.shape[0]
    for l, s in raw.items():
        s = s.copy()
        if l != "jaccard":
            s /= s[~present].max()          # normalised over all the task's scored, absent pairs
        s[present] = 1.0
        se, sd = s[:, :me], s[:, me:]
        out[f"{l}/independent"] = se.prod(axis=1)
        out[f"{l}/correlated"] = se.mean(axis=1)
        if D.shape[0]:
            out[f"{l}/independent_db"] = se.prod(axis=1) * (1 - sd).prod(axis=1)
            v = (se.sum(axis=1) + (1 - sd).sum(axis=1)) / (me + D.shape[0])
            v[present[:, me:].any(axis=1)] = 0.0
            out[f"{l}/correlated_db"] = v
    return out


@pytest.mark.parametrize("motif", [clique(3), star(3)], ids=["clique3", "star3"])
def test_heuristic_features_match_networkx_scores(motif):
    from gnn import heuristic_features

    G, _ = planted_cliques_graph(120, 0.04, [6] * 5, seed=2)
    task = motif_prediction_task(G, motif, n_positives=25, seed=1)
    names, X = heuristic_features(task)
    oracle = _oracle_features(task)
    assert sorted(names) == sorted(oracle)
    assert len(names) == (20 if motif.dealbreakers.shape[0] else 10)
    for j, n in enumerate(names):
        np.testing.assert_allclose(X[:, j], oracle[n], rtol=1e-12, atol=1e-12, err_msg=n)
    # a split's rows are the same candidates' rows of the whole
    te = task.indices("test")
    np.testing.assert_array_equal(heuristic_features(task, "test")[1], X[te])


@pytest.fixture(scope="module")
def task():
    # planted 8-cliques in a sparse background: the hidden triangles' vertices share many
    # neighbours, so the heuristic scores rank them well (best test AUC 0.95) and a model that
    # ignores them has something to lose
    G, _ = planted_cliques_graph(400, 0.02, [8] * 25, seed=0)
    return motif_prediction_task(G, clique(3), n_positives=120, seed=0)


def test_seam_with_heuristic_features_is_at_least_the_best_heuristic(task):
    from gnn import SEAM

    heur = evaluate_heuristics(task, "test")
    best = max(s["auc"] for s in heur.values())           # the best of 10 scores, chosen on test
    m = SEAM(features="heuristic", epochs=8, patience=8, seed=0, threads=1, device="cpu", verbose=False).fit(task)
    auc = m.evaluate(task, "test")["auc"]
    assert auc >= best, (auc, best)
    assert len(m.feature_names_) == 10 and m.feature_mean_.shape == (20,)
    # the subgraph alone, same seed and schedule, stays below the heuristic here
    plain = SEAM(features=None, epochs=8, patience=8, seed=0, threads=1, device="cpu", verbose=False).fit(task)
    assert plain.evaluate(task, "test")["auc"] < best <= auc
    # the same seed gives the same model
    again = SEAM(features="heuristic", epochs=8, patience=8, seed=0, threads=1, device="cpu", verbose=False).fit(task)
    np.testing.assert_array_equal(m.predict_proba(task, "test"), again.predict_proba(task, "test"))


def test_select_seam_keeps_the_best_validation_auc_and_refits_the_same(task):
    from gnn import SEAM, select_seam

    cands = [{"hops": 1}, {"hops": 2, "max_nodes_per_hop": 20}]
    m = select_seam(task, cands, epochs=3, patience=3, seed=0, threads=1, device="cpu", verbose=False)
    vals = [c["val_auc"] for c in m.selection_]
    assert [c["hops"] for c in m.selection_] == [1, 2]
    assert m.best_val_auc_ == max(vals) and m.hops == cands[int(np.argmax(vals))]["hops"]
    # the chosen setting, fitted on its own, is the same model
    alone = SEAM(**cands[int(np.argmax(vals))], epochs=3, patience=3, seed=0, threads=1, device="cpu",
                 verbose=False).fit(task)
    np.testing.assert_array_equal(m.predict_proba(task, "test"), alone.predict_proba(task, "test"))
    with pytest.raises(gm.ParameterError, match="not a SEAM parameter"):
        select_seam(task, [{"hop": 1}])
    with pytest.raises(gm.ParameterError, match="non-empty"):
        select_seam(task, [])


def test_seam_features_save_load_and_errors(task, tmp_path):
    from gnn import SEAM

    m = SEAM(epochs=1, seed=0, threads=1, device="cpu", verbose=False).fit(task)
    assert m.features == "heuristic"
    m.save(tmp_path / "m.pt")
    back = SEAM.load(tmp_path / "m.pt")
    assert back.feature_names_ == m.feature_names_
    np.testing.assert_array_equal(back.predict_proba(task, None), m.predict_proba(task, None))
    plain = SEAM(features=None, epochs=1, seed=0, threads=1, device="cpu", verbose=False).fit(task)
    assert plain.feature_names_ == [] and plain.model_.skip is None
    with pytest.raises(gm.ParameterError, match="features"):
        SEAM(features="degrees").fit(task)
    # a model trained on clique features refuses a motif with deal-breakers (other features)
    star_task = motif_prediction_task(task.graph, star(3), n_positives=30, seed=0)
    with pytest.raises(gm.ParameterError, match="features"):
        m.predict_proba(star_task)


def test_cli_predict_motifs_features_and_select_match_the_library(tmp_path, capsys):
    import json

    from graphmine.cli import main
    from gnn import SEAM, select_seam

    G, _ = planted_cliques_graph(120, 0.04, [6] * 5, seed=2)
    path = tmp_path / "g.el"
    np.savetxt(path, G.edges(), fmt="%d")
    base = ["predict-motifs", str(path), "--motif", "clique", "--k", "3", "--method", "seam", "--positives", "25",
            "--epochs", "2", "--device", "cpu", "--seed", "1", "--json", "--quiet"]
    from graphmine.io.edgelist import read_graph

    task = motif_prediction_task(read_graph(path), clique(3), n_positives=25, seed=1)
    want = {
        ("--hops", "1"): SEAM(epochs=2, seed=1, device="cpu", verbose=False).fit(task),
        ("--hops", "1", "--features", "none"): SEAM(features=None, epochs=2, seed=1, device="cpu",
                                                    verbose=False).fit(task),
        # no --hops: the radius-1 and radius-2 fits, scores averaged (or the higher validation AUC)
        (): select_seam(task, combine="mean", epochs=2, seed=1, device="cpu", verbose=False),
        ("--combine", "best"): select_seam(task, epochs=2, seed=1, device="cpu", verbose=False),
        ("--combine", "mean", "--threads", "1"): select_seam(task, combine="mean", epochs=2, seed=1, device="cpu",
                                                             threads=1, verbose=False),
    }
    for extra, model in want.items():
        assert main(base + list(extra)) == 0
        got = json.loads(capsys.readouterr().out)["scores"]["seam"]["auc"]
        assert got == pytest.approx(model.evaluate(task, "test")["auc"], abs=1e-12), extra


def test_dgcnn_with_features_needs_them():
    from gnn import DGCNN

    torch.manual_seed(0)
    m = DGCNN(num_labels=4, sort_k=10, num_features=3)
    x = torch.tensor([0, 1, 2, 3])
    ei = torch.tensor([[0, 1, 2, 1, 2, 3], [1, 2, 3, 0, 1, 2]])
    batch = torch.zeros(4, dtype=torch.long)
    with pytest.raises(gm.ParameterError, match="feat of shape"):
        m(x, ei, batch)
    m.eval()
    f = torch.tensor([[0.5, -1.0, 2.0]])
    # the skip adds w·f + b to the logit: moving f along the skip's weights moves the logit
    base = m(x, ei, batch, f)
    with torch.no_grad():
        m.lin1.weight[:, -3:] = 0                     # only the skip sees the features now
        shifted = m(x, ei, batch, f + 1.0) - m(x, ei, batch, f)
    assert torch.allclose(shifted, m.skip.weight.sum().view(1), atol=1e-6)
    assert base.shape == (1,)
