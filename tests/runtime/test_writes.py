"""Output files: proven writable before the work, one line on any write error, nothing partial
left behind; a closed standard output ends quietly."""

import os
import resource
import subprocess
import sys

import numpy as np
import pytest

import graphmine as gm
from graphmine._runtime.output import atomic_write, check_output_path
from graphmine.core.exceptions import OutputPathError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
PROGRAM = [sys.executable, "-m", "graphmine"]
GRAPH = gm.datasets.path("ca-GrQc")

# every command that writes a file, with the --out it is given (OUT stands for the path)
WRITERS = {
    "triangles": ["triangles", GRAPH, "--out", "OUT"],
    "clustering": ["clustering", GRAPH, "--out", "OUT"],
    "jarvis-patrick": ["jarvis-patrick", GRAPH, "--similarity", "jaccard", "--tau", "0.3", "--out", "OUT"],
    "science4cast generate": ["science4cast", "generate", "--vertices", "300", "--pairs", "400", "--seed", "1",
                              "--out", "OUT"],
}


def _run(argv, out, limit=None, **kw):
    argv = [out if a == "OUT" else a for a in argv]
    preexec = None
    if limit is not None:
        def preexec():  # a file-size limit: writes past it fail with EFBIG, as on a full disk
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run(PROGRAM + argv, env=ENV, capture_output=True, text=True, preexec_fn=preexec, **kw)


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_unwritable_folder_fails_before_the_work(name):
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc")
    r = _run(WRITERS[name], "/proc/x.tsv")
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("graphmine: error: /proc/x.tsv: cannot create a file in /proc"), r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_full_disk_is_one_line_and_leaves_nothing(name, tmp_path):
    out = str(tmp_path / "result.out")
    full = _run(WRITERS[name], out)  # the size of the complete output, as an oracle
    assert full.returncode == 0, full.stderr
    size = os.path.getsize(out)
    os.remove(out)
    r = _run(WRITERS[name], out, limit=size // 2)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.splitlines()
    assert lines[-1] == f"graphmine: error: {out}: cannot write the file: File too large", r.stderr
    assert "Traceback" not in r.stderr
    assert os.listdir(tmp_path) == []  # neither the file nor a temporary one


@pytest.mark.parametrize("argv", [["count-cliques", GRAPH, "--json"], ["info", GRAPH], ["triangles", GRAPH]])
def test_closed_stdout_ends_quietly(argv):
    # the reader goes away before the program writes (as `| head -c 0`, or head that has seen enough)
    p = subprocess.Popen(PROGRAM + argv, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait()
    assert p.returncode == 0 and err == "", err


def test_check_output_path_creates_and_removes_a_probe(tmp_path):
    target = tmp_path / "x.tsv"
    assert check_output_path(target) == str(target)
    assert os.listdir(tmp_path) == []
    with pytest.raises(OutputPathError, match="cannot create a file"):
        check_output_path("/proc/x.tsv")


def test_atomic_write_turns_os_errors_into_one_message(tmp_path):
    target = tmp_path / "x.bin"
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, hard))
    try:
        with pytest.raises(OutputPathError) as info:
            with atomic_write(target) as fh:
                fh.write(np.zeros(10_000, np.uint8).tobytes())
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert str(info.value) == f"{target}: cannot write the file: File too large"
    assert os.listdir(tmp_path) == []
