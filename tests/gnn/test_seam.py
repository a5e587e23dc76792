"""SEAM (gnn package): import hygiene, device choice, determinism and accuracy on planted motifs."""

import subprocess
import sys

import numpy as np
import pytest

import graphmine as gm
from graphmine.io.generators import planted_cliques_graph
from graphmine.motifs import clique, motif_prediction_task

torch = pytest.importorskip("torch")
pytest.importorskip("torch_geometric")


def test_import_gnn_does_not_load_torch():
    code = "import sys, gnn; assert 'torch' not in sys.modules; print(gnn.__all__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "SEAM" in out.stdout


def test_resolve_device():
    from gnn import resolve_device

    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    assert resolve_device("cpu").type == "cpu"
    with pytest.raises(gm.ParameterError):
        resolve_device("not-a-device")


@pytest.fixture(scope="module")
def task():
    G, _ = planted_cliques_graph(500, 0.01, [10] * 20, seed=3)
    return motif_prediction_task(G, clique(4), n_positives=60, seed=0)


def test_seam_learns_planted_cliques_and_is_deterministic(task, capsys):
    from gnn import SEAM

    a = SEAM(epochs=6, patience=6, seed=0, threads=1, device="cpu").fit(task)
    assert "SEAM epoch" in capsys.readouterr().err          # progress on stderr
    ev = a.evaluate(task, "test")
    assert ev["auc"] > 0.9
    assert 1 <= a.best_epoch_ <= 6 and len(a.history_) <= 6
    assert a.sort_k_ >= 10
    b = SEAM(epochs=6, patience=6, seed=0, threads=1, device="cpu", verbose=False).fit(task)
    np.testing.assert_array_equal(a.predict_proba(task, "test"), b.predict_proba(task, "test"))


def test_seam_zero_one_labels_and_errors(task):
    from gnn import SEAM

    m = SEAM(labeling="zero_one", epochs=1, seed=1, threads=1, verbose=False).fit(task)
    p = m.predict_proba(task, None)
    assert p.shape == (len(task.labels),) and np.all((p >= 0) & (p <= 1))
    with pytest.raises(gm.ParameterError):
        SEAM(labeling="drnl2").fit(task)
    with pytest.raises(gm.ParameterError):
        SEAM().predict_proba(task)


class _Terminal:
    """A stderr that says it is a terminal (tqdm draws its bars on terminals only)."""

    def __init__(self):
        self.parts = []

    def write(self, s):
        self.parts.append(s)
        return len(s)

    def flush(self):
        pass

    def isatty(self):
        return True

    @property
    def text(self):
        return "".join(self.parts)


def test_progress_bars_with_time_estimates_on_a_terminal(task, monkeypatch):
    pytest.importorskip("tqdm")
    from gnn import SEAM, select_seam

    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    m = SEAM(epochs=3, patience=3, seed=0, threads=1, device="cpu").fit(task)
    text = err.text
    # tqdm's bar: the fit's name, epochs done of all, elapsed<remaining, the validation AUC
    assert "SEAM fit" in text and "3/3" in text and "<" in text and "val AUC" in text
    assert "SEAM epoch" not in text  # the bar stands in for the lines an epoch
    assert len(m.history_) == 3
    err.parts.clear()
    select_seam(task, [{"hops": 1}, {"hops": 1, "hidden": 16}], epochs=2, seed=0, threads=1, device="cpu")
    text = err.text
    assert "SEAM selection" in text and "2/2" in text and "SEAM fit 2/2 (hops 1)" in text
