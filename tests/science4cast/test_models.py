"""Science4Cast models: scikit-learn checks, order symmetry, persistence, AUC, CLI."""

import json

import numpy as np
import pytest

pytest.importorskip("lightgbm")
pytest.importorskip("sklearn")

from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from graphmine.core.exceptions import GraphFormatError, ParameterError  # noqa: E402
from graphmine.science4cast import generate_benchmark, read_benchmark, write_benchmark  # noqa: E402
from graphmine.science4cast.baseline import DegreeBaseline  # noqa: E402
from graphmine.science4cast.blend import rank_average, roc_auc  # noqa: E402
from graphmine.science4cast.estimators import LinkGBMClassifier  # noqa: E402
from graphmine.science4cast.models import LinkPredictor  # noqa: E402

SMALL = [("deep", dict(n_estimators=60, num_leaves=15, min_child_samples=20), "all"),
         ("extra", dict(n_estimators=60, num_leaves=15, extra_trees=True, colsample_bytree=0.5), "all"),
         ("latest", dict(n_estimators=60, num_leaves=7), "latest")]


# scikit-learn's estimator checks, all of which apply (no skips needed): both classifiers take any
# number of features and classes. swap_features=None because the checks vary the feature count.
@parametrize_with_checks([LinkGBMClassifier(n_estimators=10, n_jobs=1), DegreeBaseline(max_iter=200)])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_swap_augmentation_makes_predictions_order_invariant():
    rng = np.random.default_rng(1)
    X = rng.random((600, 5))
    y = (X[:, 0] > 0.7 * X[:, 1] + 0.2).astype(int)   # an order-dependent rule
    perm = np.array([1, 0, 3, 2, 4])
    sym = LinkGBMClassifier(n_estimators=40, swap_features=perm, random_state=0, n_jobs=1).fit(X, y)
    assert np.array_equal(sym.predict_proba(X), sym.predict_proba(X[:, perm]))
    # the oracle can fail: without the augmentation the same model is order dependent
    plain = LinkGBMClassifier(n_estimators=40, random_state=0, n_jobs=1).fit(X, y)
    assert not np.allclose(plain.predict_proba(X), plain.predict_proba(X[:, perm]))
    with pytest.raises(ParameterError, match="permutation"):
        LinkGBMClassifier(swap_features=[0, 0, 1, 2, 3]).fit(X, y)
    with pytest.raises(ParameterError, match="involution"):
        LinkGBMClassifier(swap_features=[1, 2, 0, 3, 4]).fit(X, y)


def test_estimator_dict_round_trip_is_exact():
    rng = np.random.default_rng(2)
    X = rng.random((300, 4))
    y = (X.sum(axis=1) > 2).astype(int)
    est = LinkGBMClassifier(n_estimators=25, swap_features=[1, 0, 2, 3], n_jobs=1).fit(X, y)
    again = LinkGBMClassifier.from_dict(json.loads(json.dumps(est.to_dict())))
    assert np.array_equal(est.predict_proba(X), again.predict_proba(X))
    base = DegreeBaseline(random_state=0).fit(X, y)
    again = DegreeBaseline.from_dict(json.loads(json.dumps(base.to_dict())))
    assert np.allclose(base.predict_proba(X), again.predict_proba(X))


def test_degree_baseline_forward_pass_matches_scikit_learn():
    from sklearn.neural_network import MLPClassifier

    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 6))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    base = DegreeBaseline(hidden_layer_sizes=(8, 4), max_iter=300, random_state=5).fit(X, y)
    mlp = MLPClassifier(hidden_layer_sizes=(8, 4), max_iter=300, random_state=5, early_stopping=False)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mlp.fit((X - X.mean(0)) / X.std(0), y)
    assert np.allclose(base.predict_proba(X), mlp.predict_proba((X - X.mean(0)) / X.std(0)))


def test_rank_average_and_auc_against_references():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 500)
    a = rng.random(500) + 0.3 * y
    b = np.round(rng.random(500) * 5) + y          # with ties
    assert roc_auc(y, a) == pytest.approx(roc_auc_score(y, a))
    assert roc_auc(y, b) == pytest.approx(roc_auc_score(y, b))
    from scipy.stats import rankdata

    want = (2 * rankdata(a) + rankdata(b)) / 500 / 3
    assert np.allclose(rank_average([a, b], [2, 1]), want)
    assert np.allclose(rank_average([a]), rankdata(a) / 500)
    with pytest.raises(ParameterError):
        rank_average([a, b[:10]])
    with pytest.raises(ParameterError):
        roc_auc(np.zeros(5), np.arange(5))


@pytest.fixture(scope="module")
def data():
    return generate_benchmark(1500, 20000, year_start=2005, years_delta=3, seed=1)


@pytest.fixture(scope="module")
def fitted(data):
    blend = LinkPredictor("blend", models=SMALL, n_train_pairs=8000, seed=0).fit(data)
    base = LinkPredictor("baseline", n_train_pairs=8000, seed=0).fit(data)
    return blend, base


def test_blend_beats_the_degree_baseline_on_small_synthetic_data(data, fitted):
    blend, base = fitted
    y = data.solution
    scores = blend.predict_all(data)
    auc_blend = roc_auc(y, blend.predict(data, scores))
    auc_base = roc_auc(y, base.predict(data))
    assert auc_blend == pytest.approx(roc_auc_score(y, blend.predict(data, scores)))
    assert auc_blend > auc_base + 0.03, (auc_blend, auc_base)
    assert auc_blend > 0.75
    assert all(0.6 < roc_auc(y, s) for s in scores.values())


def test_predictions_are_order_invariant(data, fitted):
    blend, base = fitted
    swapped = read_like(data, pairs=data.pairs[:, ::-1].copy())
    assert np.array_equal(blend.predict(data), blend.predict(swapped))
    assert np.allclose(base.predict(data), base.predict(swapped))


def read_like(data, **over):
    from dataclasses import replace

    return replace(data, **over)


def test_training_ignores_the_future_rows_and_the_evaluation_pairs(data, fitted):
    from graphmine.science4cast import year_end_day

    blend, _ = fitted
    future = data.graph[:, 2] >= year_end_day(data.year_start)
    # no future rows, other pairs to predict and a scrambled solution: the models and the blend
    # weights (post-processing, fitted on held-out past pairs) must come out the same
    rng = np.random.default_rng(9)
    cut = read_like(data, graph=data.graph[~future], pairs=data.pairs[rng.permutation(data.pairs.shape[0])[:5000]],
                    solution=rng.integers(0, 2, 5000).astype(np.int8))
    again = LinkPredictor("blend", models=SMALL, n_train_pairs=8000, seed=0).fit(cut)
    assert again.weights_ == blend.weights_
    assert np.array_equal(again.predict(read_like(cut, pairs=data.pairs, solution=data.solution)),
                          blend.predict(data))


def test_blend_weights_are_fitted_on_held_out_past_pairs(fitted):
    blend, _ = fitted
    w = np.array(list(blend.weights_.values()))
    assert set(blend.weights_) == {name for name, *_ in SMALL}
    assert w.sum() == pytest.approx(1.0) and np.all(w >= 0)
    hold = blend.trained_on_["holdout"]
    assert 3500 < hold["n_pairs"] <= 4000 and 0 < hold["positives"] < hold["n_pairs"]   # n_train_pairs // 2
    assert hold["feature_year"] == blend.trained_on_["year_start"] - blend.trained_on_["years_delta"]
    equal = LinkPredictor("blend", models=SMALL[:2], blend_weights="equal")
    assert equal.blend_weights == "equal"
    with pytest.raises(ParameterError, match="blend_weights"):
        LinkPredictor("blend", blend_weights="best")
    with pytest.raises(ParameterError, match="window"):
        LinkPredictor("blend", models=[("old", {}, "all", 0)])


def test_fit_rank_weights_never_loses_to_the_best_member_on_its_pairs():
    from scipy.stats import rankdata

    from graphmine.science4cast.blend import fit_rank_weights

    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 3000)
    z = rng.normal(size=3000)
    scores = [z + 1.0 * y + rng.normal(size=3000), z + 0.8 * y + rng.normal(size=3000),
              rng.normal(size=3000) + 0.2 * y]
    w, auc = fit_rank_weights(y, scores, n_steps=20)
    assert w.sum() == pytest.approx(1.0) and np.all(w >= 0)
    # oracle: scikit-learn's AUC of the weighted rank average it returns
    assert auc == pytest.approx(roc_auc_score(y, sum(wi * rankdata(s) for wi, s in zip(w, scores))), abs=1e-5)
    assert auc >= max(roc_auc_score(y, s) for s in scores)
    assert w[0] > 0 and w[1] > 0            # two informative models with independent noise: both used
    assert fit_rank_weights(y, [scores[2], scores[0]], n_steps=1)[0].tolist() == [0.0, 1.0]
    with pytest.raises(ParameterError):
        fit_rank_weights(y[:10], scores)


def test_model_file_round_trip_and_no_overwrite(tmp_path, data, fitted):
    blend, base = fitted
    for lp in (blend, base):
        p = tmp_path / f"{lp.kind}.json"
        lp.save(p)
        doc = json.loads(p.read_text())
        assert doc["format"] == "graphmine.science4cast.model" and doc["kind"] == lp.kind
        again = LinkPredictor.load(p)
        assert np.allclose(again.predict(data), lp.predict(data))
        with pytest.raises(FileExistsError, match="force"):
            lp.save(p)
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    with pytest.raises(GraphFormatError, match="not a graphmine"):
        LinkPredictor.load(tmp_path / "bad.json")
    (tmp_path / "trunc.json").write_text((tmp_path / "blend.json").read_text()[:1000])
    with pytest.raises(GraphFormatError, match="JSON"):
        LinkPredictor.load(tmp_path / "trunc.json")


def test_feature_importances_cover_the_features(fitted):
    blend, _ = fitted
    names, imp = blend.feature_importances()
    assert len(names) == imp.shape[0] and imp.sum() == pytest.approx(1.0)
    assert imp[names.index("cn")] + imp[names.index("aa")] + imp[names.index("jac")] > 0.02


def _cli(args, capsys):
    from graphmine.cli import main

    rc = main(["science4cast", *map(str, args)])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_end_to_end(tmp_path, capsys):
    d, m, b = tmp_path / "d.pkl", tmp_path / "m.json", tmp_path / "b.json"
    s, sb = tmp_path / "s.json", tmp_path / "sb.json"
    rc, out, _ = _cli(["generate", "--out", d, "--vertices", 1200, "--pairs", 15000, "--year-start", 2005,
                       "--seed", 3], capsys)
    assert rc == 0 and "wrote" in out
    data = read_benchmark(d)
    assert data.pairs.shape == (15000, 2) and data.year_start == 2005 and data.min_edges == 1
    rc, _, err = _cli(["generate", "--out", d, "--vertices", 1200], capsys)
    assert rc == 2 and "exists; pass --force" in err
    assert _cli(["train", d, "--model", m, "--train-pairs", 4000], capsys)[0] == 0
    assert _cli(["train", d, "--model", b, "--baseline", "--train-pairs", 4000], capsys)[0] == 0
    rc, _, err = _cli(["train", d, "--model", m], capsys)
    assert rc == 2 and "--force" in err
    assert _cli(["predict", d, "--model", m, "--out", s], capsys)[0] == 0
    assert _cli(["predict", d, "--model", b, "--out", sb], capsys)[0] == 0
    order = json.loads(s.read_text())
    assert sorted(order) == list(range(15000))
    # the submission follows the model's scores, most likely first
    scores = LinkPredictor.load(m).predict(data)
    assert np.all(np.diff(scores[order]) <= 0)
    rc, out, _ = _cli(["evaluate", s, d, "--json"], capsys)
    auc = json.loads(out)["auc"]
    position_score = np.empty(15000)
    position_score[order] = -np.arange(15000)
    assert rc == 0 and auc == pytest.approx(roc_auc_score(data.solution, position_score))
    # tied model scores are ordered arbitrarily in a submission; otherwise it is the model's AUC
    assert auc == pytest.approx(roc_auc_score(data.solution, scores), abs=1e-3)
    rc, out, _ = _cli(["evaluate", sb, d, "--json"], capsys)
    assert auc > json.loads(out)["auc"]
    rc, out, _ = _cli(["evaluate", s, d], capsys)
    assert out.startswith("AUC ")
    # malformed submissions are refused with a message
    s.write_text(json.dumps(order[:-1] + [order[0]]))
    rc, _, err = _cli(["evaluate", s, d], capsys)
    assert rc == 2 and "more than once" in err
    s.write_text("[1, 2")
    rc, _, err = _cli(["evaluate", s, d], capsys)
    assert rc == 2 and "JSON" in err
    rc, _, err = _cli(["predict", d, "--model", tmp_path / "missing.json", "--out", tmp_path / "x.json"], capsys)
    assert rc == 2 and "no such model file" in err


def test_cli_competition_files_need_a_solution(tmp_path, capsys):
    from graphmine.science4cast import write_competition

    data = generate_benchmark(300, 500, year_start=2000, years_delta=2, seed=2)
    c, sol, sub = tmp_path / "c.pkl", tmp_path / "c_sol.pkl", tmp_path / "sub.json"
    write_competition(data, c, sol)
    sub.write_text(json.dumps(list(range(500))))
    rc, _, err = _cli(["evaluate", sub, c], capsys)
    assert rc == 2 and "--solution" in err
    rc, out, _ = _cli(["evaluate", sub, c, "--solution", sol, "--json"], capsys)
    want = roc_auc_score(data.solution, -np.arange(500))
    assert rc == 0 and json.loads(out)["auc"] == pytest.approx(want)
    write_benchmark(data, tmp_path / "b.pkl")


def test_simple_members_join_the_blend_and_survive_a_round_trip(tmp_path, data):
    from scipy.stats import rankdata

    from graphmine.science4cast.simple import SIMPLE_SCORES

    lp = LinkPredictor("blend", models=SMALL[:2], n_train_pairs=6000, simple_members=True, select=None,
                       seed=1).fit(data)
    assert set(lp.weights_) == {n for n, *_ in SMALL[:2]} | {f"simple:{k}" for k in SIMPLE_SCORES}
    scores = lp.predict_all(data)
    kept = [k for k, w in lp.weights_.items() if k.startswith("simple:")]
    assert set(kept) <= set(scores)
    # a simple member's scores are the simple score itself (common neighbours, by networkx)
    import networkx as nx

    from graphmine.science4cast import snapshot

    G = snapshot(data.graph, data.year_start, data.n_vertices).to_networkx()
    cn = [len(list(nx.common_neighbors(G, u, v))) for u, v in data.pairs[:300].tolist()]
    assert np.array_equal(scores["simple:cn"][:300], cn)
    # the blend is the weighted mean normalised rank of all members (a direct computation)
    w = np.array([lp.weights_[k] for k in scores])
    ref = sum(wi * rankdata(scores[k]) / len(scores[k]) for wi, k in zip(w, scores)) / w.sum()
    assert np.allclose(lp.predict(data, scores), ref)
    lp.save(tmp_path / "m.json")
    again = LinkPredictor.load(tmp_path / "m.json")
    assert again.simple_members and again.weights_ == lp.weights_
    assert np.allclose(again.predict(data), lp.predict(data, scores))


def test_temporal_selection_is_chosen_on_the_past_and_drives_the_prediction(tmp_path, data):
    import networkx as nx

    from graphmine.science4cast import snapshot
    from graphmine.science4cast.blend import rank_average
    from graphmine.science4cast.simple import SIMPLE_SCORES

    lp = LinkPredictor("blend", models=SMALL[:2], n_train_pairs=6000, seed=1).fit(data)
    sel = lp.selection_
    h, fy = data.years_delta, lp.trained_on_["feature_year"]
    # the probe is trained on the window before the held-out one and never sees year_start
    assert sel["probe_window"] == [fy - h, fy] and sel["probe_positives"] > 0
    assert set(sel["aucs"]) >= {"blend"} | {f"simple:{k}" for k in SIMPLE_SCORES}
    best = max(sel["aucs"], key=sel["aucs"].get)
    assert sel["chosen"] == (best if sel["aucs"][best] - sel["aucs"]["blend"] > sel["se_vs_blend"] else "blend")
    ref = LinkPredictor("blend", models=SMALL[:2], n_train_pairs=6000, select=None, seed=1).fit(data)
    blend = ref.predict(data)
    X = lp.features(data)
    G = snapshot(data.graph, data.year_start, data.n_vertices).to_networkx()
    aa = np.array([sum(1 / np.log(G.degree(w)) for w in nx.common_neighbors(G, u, v)) for u, v in data.pairs.tolist()])
    # each possible choice gives the documented predictor
    for chosen in ("blend", "simple:aa", "blend+simple:aa"):
        lp.selection_ = dict(sel, chosen=chosen)
        scores = lp.predict_all(data, features=X)
        got = lp.predict(data, scores)
        if chosen == "blend":
            assert np.allclose(got, blend)
        elif chosen == "simple:aa":
            assert np.allclose(got, aa)
            # a simple score alone needs no model at prediction time
            assert not any(k in scores for k, *_ in lp.estimators_)
        else:
            # (the ranks of the library's own AA: rounding in networkx's sum can reorder near-ties)
            assert np.allclose(scores["simple:aa"], aa)
            assert np.allclose(got, rank_average([blend, scores["simple:aa"]]))
    # the support check: the held-out AUC's bootstrap SE against the Hanley-McNeil closed form
    t = lp.trained_on_
    a, n1 = t["holdout_auc"], t["holdout"]["positives"]
    n0 = t["holdout"]["n_pairs"] - n1
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    hm = np.sqrt((a * (1 - a) + (n1 - 1) * (q1 - a * a) + (n0 - 1) * (q2 - a * a)) / (n1 * n0))
    assert 0.7 * hm < t["holdout_auc_se"] < 1.4 * hm
    assert t["supported"] == (t["holdout_auc_se"] <= 0.01)
    lp.save(tmp_path / "m.json")
    again = LinkPredictor.load(tmp_path / "m.json")
    assert again.selection_ == lp.selection_ and again.trained_on_["supported"] == t["supported"]
    assert np.allclose(again.predict(data), lp.predict(data))
    # a model file with a selection it cannot follow is refused
    import json

    doc = json.loads((tmp_path / "m.json").read_text())
    doc["selection"] = {"chosen": "simple:nonsense"}
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(GraphFormatError, match="unknown selection"):
        LinkPredictor.load(tmp_path / "bad.json")


def test_trim_keeps_the_first_rounds_and_survives_a_round_trip():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=600) > 0).astype(int)
    est = LinkGBMClassifier(n_estimators=30, num_leaves=7, random_state=0).fit(X, y)
    want = est.predict_proba(X, n_trees=12)
    # the first 12 rounds alone, by LightGBM's own raw scores
    raw = est.booster_.predict(X, num_iteration=12, raw_score=True)
    assert np.allclose(want[:, 1], 1 / (1 + np.exp(-raw)))
    assert est.trim(12).n_trees_ == 12
    assert np.allclose(est.predict_proba(X), want)
    again = LinkGBMClassifier.from_dict(json.loads(json.dumps(est.to_dict())))
    assert again.n_trees_ == 12 and np.allclose(again.predict_proba(X), want)
    with pytest.raises(ParameterError, match="n_trees must be in 1..12"):
        est.trim(13)


def test_members_are_cut_to_fewer_trees_only_where_the_held_out_pairs_allow(data):
    from graphmine.science4cast.models import TRIM_STEP

    lp = LinkPredictor("blend", models=SMALL[:2], n_train_pairs=6000, select=None, seed=1).fit(data)
    for name, est, which, _ in lp.estimators_:
        n = est.n_trees_
        assert 1 <= n <= 60 and (n % TRIM_STEP == 0 or n == 60)
