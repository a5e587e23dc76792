"""Reliability of the learned components (issue 14): Science4Cast, motif prediction and SEAM.

* missing optional dependencies end in one line naming the extra (exit status 2), before any work;
* every output path is checked before the work, files are written complete or not at all, and
  nothing is replaced without force;
* no library call changes the caller's global state (torch threads and generators, numpy's and
  numba's global generators);
* SEAM models are saved and loaded without pickle;
* long work shows progress on stderr (bars only on a terminal), stage messages go through logging;
* every command-line option has a help text with its default.
"""

import argparse
import io
import json
import logging
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

from graphmine.core.exceptions import (GraphFormatError, MissingDependencyError, OutputExistsError, OutputPathError,
                                  ParameterError)
from graphmine.io.generators import planted_cliques_graph
from graphmine.motifs import auc_ap, clique, motif_prediction_task
from graphmine.science4cast import generate_benchmark, read_benchmark, write_benchmark, write_competition

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SMALL = [("tiny", dict(n_estimators=15, num_leaves=7), "all")]


def _cli(args, capsys):
    from graphmine.cli import main

    rc = main([str(a) for a in args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def _one_line_error(err, *needles):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("graphmine: error: "), err
    for n in needles:
        assert n in lines[0], (n, err)


def _block(monkeypatch, *modules):
    """Make ``import m`` fail for every module given, as if it were not installed."""
    for m in modules:
        monkeypatch.setitem(sys.modules, m, None)


class _TTY(io.StringIO):
    """A stderr that claims to be a terminal (tqdm draws bars only on one)."""

    def isatty(self):
        return True


@pytest.fixture(scope="module")
def s4c_data():
    return generate_benchmark(400, 2000, year_start=2000, years_delta=2, seed=0)


@pytest.fixture(scope="module")
def s4c_files(tmp_path_factory, s4c_data):
    pytest.importorskip("lightgbm")
    pytest.importorskip("sklearn")
    from graphmine.science4cast.models import LinkPredictor

    d = tmp_path_factory.mktemp("s4c")
    write_benchmark(s4c_data, d / "data.pkl")
    lp = LinkPredictor(models=SMALL, n_train_pairs=1500, seed=0).fit(s4c_data)
    lp.save(d / "model.json")
    return d / "data.pkl", d / "model.json", lp


# -- 1. ROC AUC and average precision without scikit-learn -------------------------------------
def test_auc_ap_hand_computed():
    # positives score 0.35 and 0.8; negatives 0.1 and 0.4: 3 of 4 positive-negative pairs ordered
    # right; precision at recall 1/2 is 1/1, at recall 1 is 2/3: AP = 1/2 + 1/2 * 2/3
    r = auc_ap([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert r["auc"] == pytest.approx(0.75) and r["ap"] == pytest.approx(0.5 + 1 / 3)
    # a tie between a positive and a negative counts one half; all tied: AP = prevalence
    assert auc_ap([0, 1], [0.5, 0.5]) == pytest.approx({"auc": 0.5, "ap": 0.5})
    assert auc_ap([1, 0, 0, 0], [2.0, 2.0, 2.0, 2.0])["ap"] == pytest.approx(0.25)
    assert auc_ap([True, False, False], [3, 1, 2]) == pytest.approx({"auc": 1.0, "ap": 1.0})


def test_auc_ap_match_scikit_learn_with_and_without_ties():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(14)
    checked = 0
    for trial in range(200):
        n = int(rng.integers(2, 80))
        y = rng.integers(0, 2, n)
        if y.min() == y.max():
            continue
        # every other trial draws from few distinct values: many ties
        s = rng.integers(0, int(rng.integers(1, 6)), n).astype(float) if trial % 2 else rng.normal(size=n)
        r = auc_ap(y, s)
        assert r["auc"] == pytest.approx(metrics.roc_auc_score(y, s), abs=1e-12)
        assert r["ap"] == pytest.approx(metrics.average_precision_score(y, s), abs=1e-12)
        checked += 1
    assert checked > 150


def test_auc_ap_refuses_bad_input():
    with pytest.raises(ParameterError, match="both positive and negative"):
        auc_ap([1, 1], [0.2, 0.3])
    with pytest.raises(ParameterError, match="two values"):
        auc_ap([0, 1, 2], [0.2, 0.3, 0.1])
    with pytest.raises(ParameterError, match="differ in length"):
        auc_ap([0, 1], [0.2])
    with pytest.raises(ParameterError, match="NaN"):
        auc_ap([0, 1], [0.2, np.nan])


def test_predict_motifs_heuristic_needs_no_scikit_learn(monkeypatch, capsys):
    _block(monkeypatch, "sklearn", "sklearn.metrics")
    rc, out, err = _cli(["predict-motifs", "USAir", "--motif", "clique", "--k", 4, "--method", "heuristic",
                         "--positives", 60, "--json"], capsys)
    assert rc == 0, err
    scores = json.loads(out)["scores"]
    assert len(scores) == 10 and all(0.5 < s["auc"] <= 1 and 0 < s["ap"] <= 1 for s in scores.values())


def test_predict_motifs_seam_without_torch_names_the_extra_before_any_work(monkeypatch, capsys, tmp_path):
    _block(monkeypatch, "torch", "torch_geometric")
    with pytest.raises(MissingDependencyError, match=r'pip install "graphmine\[gnn\]"'):
        from gnn import SEAM  # noqa: F401
    # the graph file does not exist: the missing extra is reported first, so no work was done
    rc, _, err = _cli(["predict-motifs", tmp_path / "missing.el", "--motif", "clique", "--k", 3,
                       "--method", "seam"], capsys)
    assert rc == 2
    _one_line_error(err, 'pip install "graphmine[gnn]"', "torch")


def test_science4cast_imports_and_missing_extras_in_a_fresh_interpreter():
    # a fresh process where scikit-learn, lightgbm and torch are absent, as after `pip install .`
    code = r"""
import sys
for m in ("sklearn", "lightgbm", "torch", "torch_geometric"):
    sys.modules[m] = None
import numpy as np
import graphmine.science4cast as s4c
from graphmine.science4cast.baseline import degree_features
from graphmine.science4cast.models import LinkPredictor
from graphmine.exceptions import MissingDependencyError
print(degree_features(np.array([[0, 1, 10]]), np.array([[0, 1]]), 1990, 1).tolist())
data = s4c.generate_benchmark(200, 300, year_start=2000, years_delta=2, seed=0)
for make in (lambda: LinkPredictor(models=[("t", {}, "all")]).fit(data),
             lambda: LinkPredictor("baseline").fit(data),
             lambda: __import__("graphmine.science4cast.estimators", fromlist=["x"]).LinkGBMClassifier,
             lambda: __import__("graphmine.science4cast.baseline", fromlist=["x"]).DegreeBaseline,
             lambda: __import__("gnn.seam")):
    try:
        make()
    except MissingDependencyError as exc:
        print("MISSING", exc)
"""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "[[0.6931471805599453, 0.6931471805599453]]"
    missing = [ln for ln in lines if ln.startswith("MISSING")]
    assert len(missing) == 5
    assert all('pip install "graphmine[ml]"' in ln for ln in missing[:4])
    assert 'pip install "graphmine[gnn]"' in missing[4]


def test_science4cast_train_and_predict_without_the_ml_extra(monkeypatch, capsys, tmp_path, s4c_files):
    data, model, _ = s4c_files
    out = tmp_path / "out.json"
    sklearn = sys.modules["sklearn"]
    _block(monkeypatch, "sklearn")
    # train: the data path does not exist, yet the missing extra is what is reported (checked first)
    rc, _, err = _cli(["science4cast", "train", tmp_path / "nothing.pkl", "--model", tmp_path / "m.json"], capsys)
    assert rc == 2
    _one_line_error(err, 'pip install "graphmine[ml]"', "scikit-learn")
    rc, _, err = _cli(["science4cast", "predict", data, "--model", model, "--out", out], capsys)
    assert rc == 2
    _one_line_error(err, 'pip install "graphmine[ml]"')
    assert not out.exists() and not (tmp_path / "m.json").exists()
    monkeypatch.setitem(sys.modules, "sklearn", sklearn)      # scikit-learn back, lightgbm missing
    _block(monkeypatch, "lightgbm")
    rc, _, err = _cli(["science4cast", "train", data, "--model", tmp_path / "m.json", "-q"], capsys)
    assert rc == 2
    _one_line_error(err, "lightgbm", 'pip install "graphmine[ml]"')
    rc, _, err = _cli(["science4cast", "predict", data, "--model", model, "--out", out, "-q"], capsys)
    assert rc == 2
    _one_line_error(err, "lightgbm", 'pip install "graphmine[ml]"')


def test_science4cast_predict_checks_the_model_file_before_the_data(capsys, tmp_path, s4c_files, monkeypatch):
    import graphmine.science4cast.io as s4c_io

    data, model, _ = s4c_files

    def no_reading(*a, **k):
        raise AssertionError("the data was read before the model file was checked")

    monkeypatch.setattr(s4c_io, "read_data", no_reading)
    doc = json.loads(model.read_text())
    bad = {"missing.json": None, "notjson.json": "{'format':", "other.json": json.dumps({"format": "x"})}
    doc["models"][0]["estimator"]["lightgbm_model"] = "tree\nnot a model"
    bad["corrupt_trees.json"] = json.dumps(doc)
    for name, text in bad.items():
        if text is not None:
            (tmp_path / name).write_text(text)
        rc, _, err = _cli(["science4cast", "predict", data, "--model", tmp_path / name,
                           "--out", tmp_path / "s.json", "-q"], capsys)
        assert rc == 2, name
        _one_line_error(err, name)
    assert not (tmp_path / "s.json").exists()


# -- 2. outputs checked first, written atomically, never replaced without force -------------------
def test_science4cast_outputs_are_checked_before_any_work(capsys, tmp_path, s4c_files, monkeypatch):
    import graphmine.science4cast.generator as gen
    import graphmine.science4cast.io as s4c_io

    data, model, _ = s4c_files

    def no_work(*a, **k):
        raise AssertionError("the work started before the output path was checked")

    monkeypatch.setattr(gen, "generate_benchmark", no_work)
    monkeypatch.setattr(s4c_io, "read_data", no_work)
    missing = tmp_path / "no_such_dir" / "x"
    for args in (["generate", "--out", missing], ["train", data, "--model", missing],
                 ["predict", data, "--model", model, "--out", missing]):
        rc, out, err = _cli(["science4cast", *args, "-q"], capsys)
        assert rc == 2 and out == ""
        _one_line_error(err, "does not exist")
    existing = tmp_path / "existing"
    existing.write_text("keep me")
    for args in (["generate", "--out", existing], ["train", data, "--model", existing],
                 ["predict", data, "--model", model, "--out", existing]):
        rc, _, err = _cli(["science4cast", *args, "-q"], capsys)
        assert rc == 2
        _one_line_error(err, "exists; pass --force")
    rc, _, err = _cli(["science4cast", "generate", "--out", tmp_path, "-q"], capsys)
    assert rc == 2
    _one_line_error(err, "is a directory")
    assert existing.read_text() == "keep me"
    assert sorted(os.listdir(tmp_path)) == ["existing"]


def test_science4cast_writers_are_atomic_and_refuse_to_overwrite(tmp_path, s4c_data, monkeypatch):
    import graphmine.science4cast.io as s4c_io

    p = tmp_path / "b.pkl"
    (tmp_path / "b.pkl.tmp").write_text("someone else's file")
    write_benchmark(s4c_data, p)
    assert read_benchmark(p).pairs.shape == (2000, 2)
    assert (tmp_path / "b.pkl.tmp").read_text() == "someone else's file"     # never clobbered
    with pytest.raises(OutputExistsError, match="force=True"):
        write_benchmark(s4c_data, p)
    before = p.read_bytes()

    def dies_half_way(obj, fh, protocol=None):
        fh.write(b"partial")
        raise OSError("disk full")

    monkeypatch.setattr(s4c_io.pickle, "dump", dies_half_way)
    with pytest.raises(OSError, match="disk full"):
        write_benchmark(s4c_data, p, force=True)
    monkeypatch.undo()
    assert p.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["b.pkl", "b.pkl.tmp"]            # no temporary left behind
    # a competition file and its solution: both paths are checked before either is written
    c, sol = tmp_path / "c.pkl", tmp_path / "c_sol.pkl"
    sol.write_text("old solution")
    with pytest.raises(OutputExistsError):
        write_competition(s4c_data, c, sol)
    assert not c.exists() and sol.read_text() == "old solution"
    with pytest.raises(OutputPathError, match="does not exist"):
        write_competition(s4c_data, c, tmp_path / "nodir" / "s.pkl")
    assert not c.exists()
    write_competition(s4c_data, c, sol, force=True)
    assert pickle.loads(sol.read_bytes()).tolist() == s4c_data.solution.tolist()


def test_model_save_is_atomic_and_refuses_to_overwrite(tmp_path, s4c_files, monkeypatch):
    from graphmine.science4cast import models

    _, _, lp = s4c_files
    p = tmp_path / "m.json"
    (tmp_path / "m.json.tmp").write_text("keep")
    lp.save(p)
    assert (tmp_path / "m.json.tmp").read_text() == "keep"
    with pytest.raises(OutputExistsError, match="force"):
        lp.save(p)
    with pytest.raises(OutputPathError, match="does not exist"):
        lp.save(tmp_path / "nodir" / "m.json")
    before = p.read_text()
    monkeypatch.setattr(models.json, "dump", lambda doc, fh: (fh.write("{"), 1 / 0))
    with pytest.raises(ZeroDivisionError):
        lp.save(p, force=True)
    monkeypatch.undo()
    assert p.read_text() == before and sorted(os.listdir(tmp_path)) == ["m.json", "m.json.tmp"]


def test_predict_writes_the_submission_atomically(tmp_path, s4c_files, s4c_data, capsys):
    data, model, lp = s4c_files
    s = tmp_path / "s.json"
    (tmp_path / "s.json.tmp").write_text("keep")
    rc, out, err = _cli(["science4cast", "predict", data, "--model", model, "--out", s, "-q"], capsys)
    assert rc == 0 and err == ""
    order = json.loads(s.read_text())
    scores = lp.predict(s4c_data)
    assert sorted(order) == list(range(2000)) and np.all(np.diff(scores[order]) <= 0)
    assert (tmp_path / "s.json.tmp").read_text() == "keep"
    rc, _, err = _cli(["science4cast", "predict", data, "--model", model, "--out", s, "--force", "-q"], capsys)
    assert rc == 0 and json.loads(s.read_text()) == order


# -- 3. no global state changed -------------------------------------------------------------------
@njit
def _numba_seed(s):
    np.random.seed(s)


@njit
def _numba_draw(n):
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.random()
    return out


def _splitmix64_reference(seed, n):
    """The published splitmix64 in Python integers (mod 2^64)."""
    mask = (1 << 64) - 1
    out, state = [], seed
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


def test_protocol_sampler_uses_its_own_generator():
    from graphmine.motifs._protocol_kernels import _splitmix64

    for seed in (0, 1, 2**63 + 5):
        state, got = np.uint64(seed), []
        for _ in range(5):
            state, z = _splitmix64(np.uint64(state))
            got.append(int(z))
        assert got == _splitmix64_reference(seed, 5)
    assert _splitmix64_reference(0, 1) == [0xE220A8397B1DCDAF]    # the reference's first output
    G, _ = planted_cliques_graph(200, 0.03, [7] * 6, seed=2)
    _numba_seed(1234)
    want = _numba_draw(6)
    _numba_seed(1234)
    _numba_draw(3)
    a = motif_prediction_task(G, clique(3), n_positives=30, hard_fraction=1.0, seed=5)
    assert a.info["n_hard"] > 0                  # the numba sampler ran
    np.testing.assert_array_equal(_numba_draw(3), want[3:])   # numba's global stream went on untouched
    b = motif_prediction_task(G, clique(3), n_positives=30, hard_fraction=1.0, seed=5)
    np.testing.assert_array_equal(a.tuples, b.tuples)
    c = motif_prediction_task(G, clique(3), n_positives=30, hard_fraction=1.0, seed=6)
    assert not np.array_equal(a.tuples, c.tuples)


@pytest.fixture(scope="module")
def seam_task():
    pytest.importorskip("torch")
    pytest.importorskip("torch_geometric")
    G, _ = planted_cliques_graph(150, 0.02, [7] * 6, seed=1)
    return motif_prediction_task(G, clique(3), n_positives=40, seed=0)


def _torch_snapshot(torch):
    return (torch.get_num_threads(), torch.random.get_rng_state().clone(), torch.is_grad_enabled(),
            torch.get_default_dtype(), torch.are_deterministic_algorithms_enabled(), np.random.get_state()[1].copy())


def _same(a, b):
    assert a[0] == b[0] and a[2:5] == b[2:5]
    assert a[1].equal(b[1]) and np.array_equal(a[5], b[5])


def test_seam_leaves_torch_and_numpy_global_state_alone(seam_task):
    import torch
    from gnn import SEAM

    threads = torch.get_num_threads()
    target = 1 if threads > 1 else 2
    torch.manual_seed(99)
    np.random.seed(7)
    before = _torch_snapshot(torch)
    a = SEAM(epochs=2, seed=3, threads=target, verbose=False).fit(seam_task)
    _same(before, _torch_snapshot(torch))
    pa = a.predict_proba(seam_task, None)
    _same(before, _torch_snapshot(torch))
    # the same seed gives the same model, whatever the caller's generators hold
    torch.manual_seed(12345)
    np.random.seed(1)
    b = SEAM(epochs=2, seed=3, threads=target, verbose=False).fit(seam_task)
    np.testing.assert_array_equal(pa, b.predict_proba(seam_task, None))
    # an error inside fit restores the settings too
    torch.manual_seed(99)
    before = _torch_snapshot(torch)
    with pytest.raises(ZeroDivisionError):
        broken = SEAM(epochs=1, seed=3, threads=target, verbose=False)
        broken._graphs = lambda task, idx: 1 / 0
        broken.fit(seam_task)
    _same(before, _torch_snapshot(torch))


# -- 4. SEAM save / load --------------------------------------------------------------------------
def test_seam_save_load_round_trip_and_errors(seam_task, tmp_path):
    import torch
    from gnn import SEAM

    m = SEAM(epochs=2, seed=0, threads=1, verbose=False).fit(seam_task)
    p = tmp_path / "seam.pt"
    m.save(p)
    before = _torch_snapshot(torch)
    again = SEAM.load(p)
    _same(before, _torch_snapshot(torch))
    np.testing.assert_array_equal(m.predict_proba(seam_task, None), again.predict_proba(seam_task, None))
    assert (again.sort_k_, again.best_epoch_, again.hops, again.labeling) == (m.sort_k_, m.best_epoch_, 1, "distance")
    with pytest.raises(OutputExistsError, match="force"):
        m.save(p)
    m.save(p, force=True)
    with pytest.raises(OutputPathError, match="does not exist"):
        m.save(tmp_path / "nodir" / "seam.pt")
    with pytest.raises(ParameterError, match="not fitted"):
        SEAM().save(tmp_path / "unfitted.pt")
    # missing, truncated, random bytes, another torch file, a pickle that would run code
    (tmp_path / "trunc.pt").write_bytes(p.read_bytes()[:200])
    (tmp_path / "noise.pt").write_bytes(np.random.default_rng(0).bytes(4096))
    torch.save({"weights": torch.zeros(3)}, tmp_path / "other.pt")
    with open(tmp_path / "evil.pt", "wb") as fh:
        fh.write(b"cos\nsystem\n(S'echo hacked'\ntR.")
    for name, match in (("missing.pt", "no such"), ("trunc.pt", "not a SEAM"), ("noise.pt", "not a SEAM"),
                        ("other.pt", "not a graphmine.seam"), ("evil.pt", "not a SEAM")):
        with pytest.raises(GraphFormatError, match=match):
            SEAM.load(tmp_path / name)
    # weights that do not fit the settings
    doc = torch.load(p, weights_only=True)
    cfg = json.loads(doc["config"])
    cfg["params"]["hidden"] = 16
    doc["config"] = json.dumps(cfg)
    torch.save(doc, tmp_path / "mismatch.pt")
    with pytest.raises(GraphFormatError, match="do not fit"):
        SEAM.load(tmp_path / "mismatch.pt")
    # a model for 3-vertex motifs refuses a 4-vertex task instead of failing deep inside torch
    G, _ = planted_cliques_graph(150, 0.02, [7] * 6, seed=1)
    task4 = motif_prediction_task(G, clique(4), n_positives=20, seed=0)
    with pytest.raises(ParameterError, match="3 vertices"):
        again.predict_proba(task4)


# -- 5. progress bars and logging ---------------------------------------------------------------
def test_feature_progress_bar_only_on_a_terminal_and_stages_logged(monkeypatch, caplog, s4c_data):
    from graphmine.science4cast import pair_features

    tty = _TTY()
    monkeypatch.setattr(sys, "stderr", tty)
    with caplog.at_level(logging.INFO, logger="graphmine.science4cast"):
        X, _ = pair_features(s4c_data.graph, s4c_data.pairs, 1999, n_snapshots=3, progress=True)
    assert "features:" in tty.getvalue() and "0/3 [" in tty.getvalue()   # the bar was drawn
    msgs = [r.getMessage() for r in caplog.records if r.name == "graphmine.science4cast"]
    assert [m.split(" (")[1][:3] for m in msgs] == ["1/3", "2/3", "3/3"]
    # not a terminal: no bar; and no print either (the messages went to the logger only)
    plain = io.StringIO()
    monkeypatch.setattr(sys, "stderr", plain)
    Y, _ = pair_features(s4c_data.graph, s4c_data.pairs, 1999, n_snapshots=3, progress=True)
    assert plain.getvalue() == "" and np.array_equal(X, Y)


def test_training_and_scoring_progress_bars(monkeypatch, s4c_data):
    pytest.importorskip("lightgbm")
    from graphmine.science4cast.models import LinkPredictor

    tty = _TTY()
    monkeypatch.setattr(sys, "stderr", tty)
    lp = LinkPredictor(models=SMALL, n_train_pairs=1500, seed=0, progress=True).fit(s4c_data)
    shown = tty.getvalue()
    assert "features:" in shown and "train tiny (1/1):" in shown and "/15 [" in shown
    scores = lp.predict(s4c_data)
    assert "score:" in tty.getvalue() and "/2.00k [" in tty.getvalue()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    quiet = LinkPredictor(models=SMALL, n_train_pairs=1500, seed=0).fit(s4c_data)
    np.testing.assert_array_equal(scores, quiet.predict(s4c_data))   # bars change nothing


def test_cli_stage_messages_and_quiet(capsys, tmp_path, s4c_files):
    data, model, _ = s4c_files
    logger = logging.getLogger("graphmine.science4cast")
    state = (list(logger.handlers), logger.level, logger.propagate)
    rc, _, err = _cli(["science4cast", "predict", data, "--model", model, "--out", tmp_path / "a.json"], capsys)
    assert rc == 0
    assert "read " in err and "features: snapshot" in err and "predict: model tiny scored 2000 pairs" in err
    assert "\r" not in err                       # stderr is not a terminal here: lines, no bars
    rc, _, err = _cli(["science4cast", "predict", data, "--model", model, "--out", tmp_path / "b.json",
                       "--quiet"], capsys)
    assert rc == 0 and err == ""
    assert (list(logger.handlers), logger.level, logger.propagate) == state   # logging set-up restored


# -- 6. help texts --------------------------------------------------------------------------------
def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield name, sub
                yield from ((f"{name} {n}", s) for n, s in _subparsers(sub))


def test_every_option_has_help_with_its_default():
    from graphmine.cli import build_parser

    subs = dict(_subparsers(build_parser()))
    checked = 0
    for cmd in ("science4cast generate", "science4cast train", "science4cast predict", "science4cast evaluate",
                "predict-motifs"):
        for action in subs[cmd]._actions:
            if isinstance(action, argparse._HelpAction) or not action.option_strings:
                continue
            assert action.help and action.help != argparse.SUPPRESS, (cmd, action.option_strings)
            takes_value = action.nargs != 0
            if takes_value or cmd.startswith("science4cast"):
                assert "default" in action.help or "required" in action.help, (cmd, action.option_strings)
            checked += 1
    assert checked >= 30
