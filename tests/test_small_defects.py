"""Small defects a new user met: a warning of `science4cast train` printed twice, messages of a
missing extra that named an internal function, and the one keyword (`force`) for replacing a file."""

import pytest

from graphmine.cli import main


# -- science4cast train: a warning is printed once --------------------------------------------
def test_train_prints_a_degraded_training_warning_once(tmp_path, capsys):
    # 300 vertices: too few past positives to support a trained blend (a warning); before, the
    # warning came twice, once as the stage line 'train: ...' and once as 'graphmine: warning: ...'
    pytest.importorskip("lightgbm")
    data, model = tmp_path / "d.pkl", tmp_path / "m.json"
    assert main(["science4cast", "generate", "--out", str(data), "--vertices", "300", "--pairs", "200",
                 "--year-start", "2000", "--delta", "2", "--seed", "1", "--quiet"]) == 0
    capsys.readouterr()
    for quiet in ([], ["--quiet"]):
        assert main(["science4cast", "train", str(data), "--model", str(model), "--train-pairs", "500",
                     "--force", *quiet]) == 0
        out, err = capsys.readouterr()
        assert out.startswith(f"wrote {model}: blend model")
        lines = err.splitlines()
        said = [line for line in lines if "too few positives to support a trained blend" in line]
        assert len(said) == 1, lines
        assert said[0].startswith("graphmine: warning: the past gives too few positives to support a trained "
                                  "blend: 2178 positive pairs in the window 1998 -> 2000, 62 of them held out")
        # the stage messages are still there unless --quiet, and only the warning with it
        stages = [line for line in lines if line.startswith("train: ")]
        assert (stages == []) if quiet else any(s.startswith("train: temporal check") for s in stages)
        if quiet:
            assert lines == said
