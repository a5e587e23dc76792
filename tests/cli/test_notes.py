"""Notes and early refusals of the command line: the compile note on every first use that
compiles, --device with --scheduler, the GPU check before the load, a glob without --scheduler."""

import os

import pytest

from graphmine import commands
from graphmine.cli import main


class _Args:
    quiet = False


def test_compile_note_comes_when_a_kernel_compiles_and_only_once(capsys, monkeypatch):
    from numba import njit
    from numba.core import event

    # an earlier command in this process may have registered (and used up) the note already
    earlier = commands._COMPILE_NOTE.get("listener")
    if earlier is not None:
        event.unregister("numba:compile", earlier)
    monkeypatch.setattr(commands, "_COMPILE_NOTE", {})
    try:
        commands.note_first_compile(_Args())
        commands.note_first_compile(_Args())  # registered once

        @njit  # a kernel no cache holds: numba compiles it on its first call for each type
        def twice(x):
            return 2 * x

        assert twice(3) == 6 and twice(2.5) == 5.0
        err = capsys.readouterr().err
        assert err.count("graphmine: compiling kernels") == 1
    finally:
        event.unregister("numba:compile", commands._COMPILE_NOTE["listener"])
        if earlier is not None:
            event.register("numba:compile", earlier)


@pytest.mark.parametrize("argv, path", [
    (["count-cliques", "ca-GrQc", "--all-k"], "count-cliques --all-k"),
    (["count-cliques", "ca-GrQc", "-k", "4", "--method", "bloom"], "count-cliques --method sketch -k 4+"),
    (["count-cliques", "ca-GrQc", "--method", "bloom"], None),  # triangles: the short serial twin
    (["count-cliques", "parts/*.el", "--scheduler", "local:2"], "count-cliques --scheduler"),
    (["predict-closure", "events.txt", "--no-model"], "predict-closure"),
    (["predict-motifs", "USAir", "--motif", "clique", "--k", "4", "--method", "heuristic"],
     "predict-motifs --method heuristic"),
    (["science4cast", "build", "events.txt", "--out", "d.pkl"], None),  # the events read on numpy
    (["science4cast", "train", "d.pkl", "--model", "m.json"], "science4cast train"),
    (["science4cast", "predict", "d.pkl", "--model", "m.json", "--out", "s.json"], None),  # cached by train
    (["info", "ca-GrQc"], None),
    (["stream-triangles", "Celegans", "--memory", "500"], "stream-triangles"),
    (["count-motifs", "ca-GrQc"], "count-motifs --size 4"),
    (["count-motifs", "ca-GrQc", "--size", "3"], "count-motifs --size 4"),
    (["count-motifs", "ca-GrQc", "--size", "5"], "count-motifs --size 5"),
    (["count-motifs", "ca-GrQc", "--size", "5", "--method", "sample"], "count-motifs --size 5 --method sample"),
    (["count-motifs", "ca-GrQc", "--size", "5", "--method", "sample", "--sampler", "trees"],
     "count-motifs --size 5 --method sample"),
    (["count-motifs", "ca-GrQc", "--size", "5", "--method", "sample", "--sampler", "vertices"],
     "count-motifs --size 5"),
    (["count-motifs", "ca-GrQc", "--orbits", "edge", "--out", "e.tsv"], None),  # not measured: no estimate
])
def test_long_compiles_are_named_by_their_command_path(argv, path):
    from graphmine.cli import build_parser

    args = build_parser().parse_args(argv)
    assert commands.compile_path(args) == path
    line = commands.compile_note(path)
    assert line.startswith("graphmine: compiling kernels for their first use")
    if path is not None:
        seconds, what = commands.LONG_COMPILES[path]
        assert f"about {seconds} s ({what};" in line


def test_compile_note_gives_the_estimate_before_the_compile(capsys, monkeypatch):
    from numba import njit
    from numba.core import event

    from graphmine.cli import build_parser

    earlier = commands._COMPILE_NOTE.get("listener")
    if earlier is not None:
        event.unregister("numba:compile", earlier)
    monkeypatch.setattr(commands, "_COMPILE_NOTE", {})
    try:
        commands.note_first_compile(build_parser().parse_args(["count-cliques", "ca-GrQc", "--all-k"]))

        @njit
        def thrice(x):
            return 3 * x

        assert thrice(2) == 6
        err = capsys.readouterr().err
        seconds = commands.LONG_COMPILES["count-cliques --all-k"][0]
        assert err.count(f"first use: about {seconds} s") == 1
    finally:
        event.unregister("numba:compile", commands._COMPILE_NOTE["listener"])
        if earlier is not None:
            event.register("numba:compile", earlier)


def test_count_motifs_first_compile_says_its_estimate(capsys, monkeypatch):
    from numba import njit
    from numba.core import event

    from graphmine.cli import build_parser

    earlier = commands._COMPILE_NOTE.get("listener")
    if earlier is not None:
        event.unregister("numba:compile", earlier)
    monkeypatch.setattr(commands, "_COMPILE_NOTE", {})
    try:
        commands.note_first_compile(build_parser().parse_args(["count-motifs", "ca-GrQc", "--size", "5"]))

        @njit
        def four_times(x):
            return 4 * x

        assert four_times(2) == 8
        err = capsys.readouterr().err
        seconds, what = commands.LONG_COMPILES["count-motifs --size 5"]
        assert seconds > commands.LONG_COMPILES["count-motifs --size 4"][0]
        assert err.count(f"first use: about {seconds} s ({what};") == 1
    finally:
        event.unregister("numba:compile", commands._COMPILE_NOTE["listener"])
        if earlier is not None:
            event.register("numba:compile", earlier)


def test_dask_workers_compile_is_said_before_the_cluster_starts(capsys, monkeypatch):
    pytest.importorskip("distributed")
    from graphmine.distributed import cli as dcli

    class Stop(Exception):
        pass

    def no_cluster(spec):
        raise Stop  # the note must be out before any cluster starts

    monkeypatch.setattr(dcli, "scheduler_client", no_cluster)
    for cached, said in ((False, 1), (True, 0)):
        monkeypatch.setattr(commands, "kernels_cached", lambda module="", c=cached: c)
        with pytest.raises(Stop):
            main(["count-cliques", "USAir", "--scheduler", "local:1"])
        seconds = commands.LONG_COMPILES["count-cliques --scheduler"][0]
        assert capsys.readouterr().err.count(f"first use: about {seconds} s (every Dask worker") == said
    with pytest.raises(Stop):
        monkeypatch.setattr(commands, "kernels_cached", lambda module="": False)
        main(["count-cliques", "USAir", "--scheduler", "local:1", "-q"])
    assert "compiling" not in capsys.readouterr().err


def test_kernels_cached_reads_the_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not commands.kernels_cached("distributed._block_kernels")
    (tmp_path / "distributed_x").mkdir()
    (tmp_path / "distributed_x" / "_block_kernels._split_pairs-96.py311.nbi").write_bytes(b"")
    assert commands.kernels_cached("distributed._block_kernels")
    assert not commands.kernels_cached()


def test_no_compile_note_when_the_cache_serves(capsys, tmp_path):
    # the listener fires on numba's compile event, which a cache hit does not raise
    from numba.core import event

    seen = []

    class Count(event.Listener):
        def on_start(self, ev):
            seen.append(ev)

        def on_end(self, ev):
            pass

    p = tmp_path / "g.txt"
    p.write_text("0 1\n1 2\n2 0\n")
    assert main(["count-cliques", str(p)]) == 0  # compiled or cached: warm now
    capsys.readouterr()
    listener = Count()
    event.register("numba:compile", listener)
    try:
        assert main(["count-cliques", str(p)]) == 0
    finally:
        event.unregister("numba:compile", listener)
    assert seen == [] and "compiling" not in capsys.readouterr().err


def test_device_with_scheduler_is_refused(capsys):
    pytest.importorskip("distributed")
    assert main(["count-cliques", "USAir", "--device", "cuda", "--scheduler", "local:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("graphmine: error: --device cuda does not apply with --scheduler")


def test_gpu_check_comes_before_the_load(capsys, tmp_path):
    from graphmine.cuda import is_available

    if is_available():
        pytest.skip("a GPU (or numba's simulator) is visible")
    bad = tmp_path / "bad.el"
    bad.write_text("1 2\nx y z\n")  # the load would fail at line 2
    assert main(["count-cliques", str(bad), "--device", "cuda"]) == 2
    err = capsys.readouterr().err
    assert "cuda" in err.lower() and "bad.el" not in err


def test_glob_without_scheduler_gets_a_hint(capsys, tmp_path):
    pattern = os.path.join(str(tmp_path), "part-*.el")
    assert main(["count-cliques", pattern]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"graphmine: error: {pattern}: no such file (a pattern? FILE is one file here; count-cliques "
                   "reads a pattern of shards with --scheduler (e.g. --scheduler local))")
    assert main(["info", pattern]) == 2
    assert capsys.readouterr().err.strip().endswith("FILE is one file here; give one file)")


def _fresh(args, tmp_path):
    """``graphmine ARGS`` in a new process with an empty numba cache: (status, stdout, stderr)."""
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cache = tmp_path / "numba-cache"
    cache.mkdir(exist_ok=True)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "graphmine", *args], capture_output=True, text=True, env=env,
                       cwd=str(tmp_path))
    return r.returncode, r.stdout, r.stderr


def test_names_file_first_run_compiles_nothing(tmp_path):
    # a small file of vertex names is read on numpy: no kernel compiled, so no note
    import networkx as nx

    H = nx.les_miserables_graph()
    nx.write_edgelist(H, tmp_path / "lm.el", data=False)
    status, out, err = _fresh(["count-cliques", "lm.el", "--ids", "str", "--json"], tmp_path)
    assert status == 0, err
    import json

    assert json.loads(out)["count"] == sum(nx.triangles(H).values()) // 3
    assert "compiling" not in err
    assert not any(f.endswith(".nbi") for _, _, files in os.walk(tmp_path / "numba-cache") for f in files)


def test_science4cast_build_says_its_compile(tmp_path):
    # the events are read on numpy; the pairs of the items are one kernel: the note comes with it
    d = tmp_path / "set"
    d.mkdir()
    items = [(t, [t % 7, (3 * t) % 11, 12 + t % 3]) for t in range(1, 80)]
    (d / "x-nverts.txt").write_text("".join(f"{len(it)}\n" for _, it in items))
    (d / "x-simplices.txt").write_text("".join(f"{v}\n" for _, it in items for v in it))
    (d / "x-times.txt").write_text("".join(f"{t}\n" for t, _ in items))
    status, out, err = _fresh(["science4cast", "build", "set", "--out", "d.pkl", "--pairs", "50"], tmp_path)
    assert status == 0, err
    assert err.count("graphmine: compiling kernels for their first use") == 1
    status, out, err = _fresh(["science4cast", "build", "set", "--out", "d.pkl", "--pairs", "50", "--force"], tmp_path)
    assert status == 0 and "compiling" not in err  # the cache serves the second run
