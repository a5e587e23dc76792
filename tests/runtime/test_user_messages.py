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


# -- a missing extra is said to be needed by what the user called ------------------------------
_MISSING = r"""
import json, sys
for m in ("torch", "torch_geometric", "sklearn", "lightgbm", "dask", "distributed"):
    sys.modules[m] = None          # as after a plain `pip install graphmine`
from graphmine.cli import main
from graphmine.core.exceptions import MissingDependencyError
from graphmine.science4cast.models import MODEL_FORMAT

tmp = sys.argv[1]
model = tmp + "/m.json"
with open(model, "w") as fh:
    json.dump({"format": MODEL_FORMAT, "version": 1, "kind": "blend"}, fh)
for argv in (["predict-motifs", "USAir", "--motif", "clique", "--k", "3", "--method", "seam"],
             ["science4cast", "train", tmp + "/none.pkl", "--model", tmp + "/out.json"],
             ["science4cast", "predict", tmp + "/none.pkl", "--model", model, "--out", tmp + "/s.json"],
             ["count-cliques", "USAir", "--scheduler", "local:1"]):
    assert main(argv) == 2, argv
    print("---", file=sys.stderr)


def seam_closure():
    from gnn.closure import seam_closure
    seam_closure(None, None)


def weighted_metrics():
    from gnn.closure import weighted_closure_metrics
    weighted_closure_metrics([0, 1], [0.2, 0.7], [1, 1], 0.5)


def load():
    from graphmine.science4cast.models import LinkPredictor
    LinkPredictor.load(model)


for call in (seam_closure, weighted_metrics, load):
    try:
        call()
    except MissingDependencyError as exc:
        print(f"MISSING {exc}")
"""


def test_missing_extras_name_the_command_or_public_function(tmp_path):
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", _MISSING, str(tmp_path)], capture_output=True, text=True,
                         env=env, cwd=str(tmp_path), timeout=300)
    assert out.returncode == 0, out.stderr
    errors = [e.strip() for e in out.stderr.split("---")[:-1]]
    assert errors == [
        'graphmine: error: graphmine predict-motifs --method seam needs torch, which is not installed: '
        'pip install "graphmine[gnn]"',
        'graphmine: error: graphmine science4cast train needs scikit-learn, which is not installed: '
        'pip install "graphmine[ml]"',
        'graphmine: error: graphmine science4cast predict needs scikit-learn, which is not installed: '
        'pip install "graphmine[ml]"',
        'graphmine: error: graphmine count-cliques --scheduler needs distributed, which is not installed: '
        'pip install "graphmine[dask]"']
    assert out.stdout.splitlines() == [
        'MISSING gnn.closure.seam_closure needs torch, which is not installed: pip install "graphmine[gnn]"',
        'MISSING gnn.closure.weighted_closure_metrics needs scikit-learn, which is not installed: '
        'pip install "graphmine[ml]"',
        'MISSING LinkPredictor.load needs scikit-learn, which is not installed: pip install "graphmine[ml]"']


def test_required_by_the_outermost_call_wins(monkeypatch):
    import sys

    from graphmine._runtime.optional import require, required_by
    from graphmine.core.exceptions import MissingDependencyError

    monkeypatch.setitem(sys.modules, "lightgbm", None)
    with pytest.raises(MissingDependencyError) as exc:
        with required_by("graphmine science4cast train"), required_by("LinkPredictor.fit"):
            require("lightgbm", what="an inner step")
    assert str(exc.value) == ('graphmine science4cast train needs lightgbm, which is not installed: '
                              'pip install "graphmine[ml]"')
    # outside: the require's own words again
    with pytest.raises(MissingDependencyError, match="^an inner step needs lightgbm"):
        require("lightgbm", what="an inner step")


# -- one keyword, force, for replacing a file; overwrite= a deprecated alias ------------------
def test_write_edgelist_force_and_the_deprecated_overwrite(tmp_path):
    import warnings

    import graphmine as gm
    from graphmine.core.exceptions import OutputExistsError, ParameterError

    G = gm.from_edges([[10, 20], [20, 30]], relabel=True)
    p = tmp_path / "g.el"
    p.write_text("keep me\n")
    with pytest.raises(OutputExistsError, match=r"g\.el exists; pass force=True to replace it"):
        gm.write_edgelist(G, p)
    assert p.read_text() == "keep me\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # force= itself warns of nothing
        gm.write_edgelist(G, p, force=True)
    assert p.read_text() == "10\t20\n20\t30\n"
    # the old name still works for one release, with a DeprecationWarning naming force= at this line
    p.write_text("keep me\n")
    with pytest.warns(DeprecationWarning, match=r"write_edgelist: overwrite= is deprecated .* use force=") as seen:
        gm.write_edgelist(G, p, original_ids=False, overwrite=True)
    assert p.read_text() == "0\t1\n1\t2\n"
    assert len(seen) == 1 and seen[0].filename == __file__
    with pytest.warns(DeprecationWarning), pytest.raises(OutputExistsError, match="pass force=True"):
        gm.write_edgelist(G, p, overwrite=False)
    assert p.read_text() == "0\t1\n1\t2\n"
    with pytest.raises(ParameterError, match="give force= only"):
        gm.write_edgelist(G, p, force=True, overwrite=True)


def test_distributed_triangles_force_and_the_deprecated_overwrite(tmp_path):
    pytest.importorskip("distributed")
    import os

    import graphmine as gm
    from graphmine.distributed import local_client, triangles
    from graphmine.core.exceptions import OutputExistsError

    G = gm.datasets.load("Celegans")
    out = tmp_path / "tri"
    client = local_client(1, processes=False)
    try:
        paths = triangles(G, client=client, partitions=2, output=out)
        with pytest.raises(OutputExistsError, match=r"triangles-00000\.tsv exists; pass force=True"):
            triangles(G, client=client, partitions=2, output=out)
        assert triangles(G, client=client, partitions=2, output=out, force=True) == paths
        with pytest.warns(DeprecationWarning, match=r"triangles: overwrite= is deprecated .* use force="):
            assert triangles(G, client=client, partitions=2, output=out, overwrite=True) == paths
    finally:
        client.close()
        client.cluster.close()
    assert sorted(os.listdir(out)) == [os.path.basename(p) for p in paths]


def test_no_public_writer_takes_overwrite_alone():
    # force is the keyword everywhere; overwrite survives only beside it, as the deprecated alias
    import importlib
    import inspect

    for name in ("graphmine.io", "graphmine.distributed.counting", "graphmine.science4cast.io",
                 "graphmine.science4cast.models"):
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            for f in [obj] + [v for k, v in vars(obj).items() if not k.startswith("_")] if inspect.isclass(obj) \
                    else [obj]:
                f = getattr(f, "__func__", f)
                if callable(f) and not inspect.isclass(f):
                    try:
                        params = inspect.signature(f).parameters
                    except (TypeError, ValueError):
                        continue
                    assert "overwrite" not in params or "force" in params, (name, attr, f)
