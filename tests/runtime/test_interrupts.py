"""Ctrl-C at random moments into the load and count of a ~100 MB edge list.

SIGINT lands on the ``graphmine`` program (a plain signal, as ``timeout -s INT`` sends, and to
the whole process group, as a terminal's Ctrl-C does), on a Python process using the library,
and on a run with ``--scheduler local:2``. Every run must end within 2 s of the signal: the
program with status 130 and the one line ``graphmine: interrupted`` (no traceback, no segfault,
no partial output file), the library with KeyboardInterrupt and a process that counts correctly
afterwards, its worker idle once the kernel step that was running has ended.

The moments are drawn with a fixed seed, uniformly over the time a complete run takes on this
machine (measured first), so they fall into the parallel read, the parse kernels, the CSR build,
the orientation and the count. ``GRAPHMINE_INTERRUPT_MOMENTS`` sets the number of moments of
each test (default: 30 for the program, 10 for the library, 5 with Dask; on a busy 2-core
machine the file takes about 9 minutes, the program's 30 about 3.5 of them).
"""

import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
PROGRAM = [sys.executable, "-m", "graphmine"]
LIMIT = 2.0  # seconds from the signal to the end of the process (or to KeyboardInterrupt)
IDLE_LIMIT = 8.0  # seconds from KeyboardInterrupt until the library's worker is idle (a loaded machine)


def _default_sigint():
    # a child started while SIGINT is ignored (pytest run in the background of a shell script, as
    # CI may) would keep ignoring it: Python installs its handler only over the default action
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _moments(default):
    return int(os.environ.get("GRAPHMINE_INTERRUPT_MOMENTS", default))


def write_edge_list(path, scale=19, edge_factor=16, seed=25):
    """A Kronecker (Graph500) edge list, fixed-width decimal ids, tab-separated: ~117 MB at
    scale 19 (written with numpy; a text formatter per line would take a minute)."""
    from graphmine.io.generators import kronecker_edges

    e = kronecker_edges(scale, edge_factor, seed=seed)
    w = len(str(2 ** scale - 1))
    powers = 10 ** np.arange(w - 1, -1, -1, dtype=np.int64)
    with open(path, "wb") as fh:
        for a in range(0, e.shape[0], 1 << 20):
            b = e[a:a + (1 << 20)]
            line = np.empty((b.shape[0], 2 * w + 2), np.uint8)
            line[:, :w] = b[:, :1] // powers % 10 + 48
            line[:, w] = 9
            line[:, w + 1:2 * w + 1] = b[:, 1:] // powers % 10 + 48
            line[:, -1] = 10
            fh.write(line.tobytes())
    return e


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """(path, seconds of a complete count-cliques run, seconds of a complete load)."""
    d = tmp_path_factory.mktemp("interrupts")
    path = str(d / "kron19.el")
    write_edge_list(path)
    # compile (or load from numba's cache) every kernel these runs use, then time a whole run
    warm = [PROGRAM + ["count-cliques", path, "-q"], PROGRAM + ["triangles", path, "-q", "--out", str(d / "t.tsv")],
            PROGRAM + ["info", path, "-q"]]
    for cmd in warm:
        r = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    # the fastest of three runs: one slow run (a busy machine) would draw moments past the ends
    # of the runs that follow, and the test would then interrupt too few of them
    return path, _fastest_run(warm[0]), _fastest_run(warm[2])


def _fastest_run(cmd, runs=3):
    times = []
    for _ in range(runs):
        t0 = time.monotonic()
        subprocess.run(cmd, env=ENV, capture_output=True, check=True)
        times.append(time.monotonic() - t0)
    return min(times)


def _summary(what, delays, measured="from SIGINT to the end"):
    d = np.sort(np.array(delays))
    print(f"\n{what}: {d.size} interrupts, seconds {measured}: median {np.median(d):.3f}, "
          f"90% {np.quantile(d, 0.9):.3f}, max {d.max():.3f}")


def _interrupt_program(cmd, moment, tmp, group=False):
    """Run ``cmd``, send SIGINT after ``moment`` s; (status, stdout, stderr, delay or None)."""
    out, err = open(tmp / "stdout", "w+"), open(tmp / "stderr", "w+")
    with out, err:
        p = subprocess.Popen(cmd, env=ENV, stdout=out, stderr=err, start_new_session=True,
                             preexec_fn=_default_sigint)
        time.sleep(moment)
        sent = time.monotonic()
        if p.poll() is not None:
            delay = None  # finished before the moment
        else:
            (os.killpg if group else os.kill)(p.pid, signal.SIGINT)
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            delay = time.monotonic() - sent
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read(), err.read(), delay


def _assert_interrupted(status, stdout, stderr, delay, label):
    assert status == 130, f"{label}: status {status}, stderr {stderr[-2000:]!r}"
    assert stderr == "graphmine: interrupted\n", f"{label}: {stderr[-2000:]!r}"
    assert stdout == "", label
    assert delay < LIMIT, f"{label}: ended {delay:.2f} s after the signal"


def test_program_interrupted_at_random_moments(big, tmp_path):
    path, whole, _ = big
    rng = random.Random(2025)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    delays, finished = [], 0
    for i in range(_moments(30)):
        # from 0.3 s: before that the interpreter itself starts (a signal during Python's own
        # start-up ends it with "Fatal Python error", whatever the program does)
        moment = rng.uniform(0.3, whole)
        cmd = [["count-cliques", path], ["triangles", path, "--out", str(out_dir / "t.tsv")],
               ["count-cliques", path, "-q", "--json"]][i % 3]
        status, stdout, stderr, delay = _interrupt_program(PROGRAM + cmd, moment, tmp_path, group=i % 2 == 1)
        label = f"{' '.join(cmd[:1])} interrupted at {moment:.3f} s"
        if delay is None or status == 0:
            # finished before the signal, or the signal came once the results were delivered
            # (file in place, result printed): then the run completes as if none had come
            finished += 1
            assert status == 0 and "interrupted" not in stderr, f"{label}: {stderr[-2000:]!r}"
            assert stdout.startswith(("triangles: ", '{"file"')), f"{label}: {stdout!r}"
            if "--out" in cmd:
                assert os.listdir(out_dir) == ["t.tsv"], label
        else:
            _assert_interrupted(status, stdout, stderr, delay, label)
            assert os.listdir(out_dir) == [], f"{label}: left {os.listdir(out_dir)}"
            delays.append(delay)
        for f in os.listdir(out_dir):
            os.remove(out_dir / f)
    assert finished <= len(delays) // 3  # the moments fall within the runs
    _summary("graphmine program", delays)


CHILD = r"""
import sys, time
import graphmine as gm
print("ready", flush=True)
try:
    G = gm.read_graph(sys.argv[1])
    print("loaded", flush=True)
    gm.count_cliques(G, 4)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
t0 = time.monotonic()
while True:  # the kernel step that was running when the signal came finishes, then nothing runs
    c = time.process_time()
    time.sleep(0.25)
    if time.process_time() - c < 0.03:
        break
print("idle_after", time.monotonic() - t0, flush=True)
import networkx as nx
print("after", gm.count_cliques(nx.gnp_random_graph(300, 0.1, seed=1), 4), flush=True)
"""


def test_library_interrupted_at_random_moments(big):
    import networkx as nx

    path, _, load = big
    H = nx.gnp_random_graph(300, 0.1, seed=1)
    expected = sum(1 for c in nx.enumerate_all_cliques(H) if len(c) == 4)
    rng = random.Random(7)
    delays, idle = [], []
    for i in range(_moments(10)):
        moment = rng.uniform(0.0, load + 3.0)  # the imports, the load, the orientation, the count
        p = subprocess.Popen([sys.executable, "-c", CHILD, path], env=ENV, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
        assert p.stdout.readline() == "ready\n"
        time.sleep(moment)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        lines = {}
        for line in p.stdout:
            name, *value = line.split()
            lines[name] = (time.monotonic() - sent, value)
        err = p.stderr.read()
        p.wait()
        label = f"interrupted at {moment:.3f} s"
        assert p.returncode == 0 and "Traceback" not in err, f"{label}: {err[-2000:]}"
        assert "finished" not in lines, label
        delay = lines["interrupted"][0]
        assert delay < LIMIT, f"{label}: KeyboardInterrupt {delay:.2f} s after the signal"
        # a kernel step takes < 1 s on an idle 2-core machine; the whole count would take minutes
        idle.append(float(lines["idle_after"][1][0]))
        assert idle[-1] < IDLE_LIMIT, f"{label}: still working {idle[-1]:.1f} s after KeyboardInterrupt"
        assert int(lines["after"][1][0]) == expected, label
        delays.append(delay)
    _summary("library", delays, "from SIGINT to KeyboardInterrupt")
    _summary("library", idle, "from KeyboardInterrupt until the process is idle")


def _group_alive(pgid):
    r = subprocess.run(["ps", "-eo", "pgid=,stat="], capture_output=True, text=True)
    return [ln for ln in r.stdout.splitlines() if ln.split()[0] == str(pgid) and not ln.split()[1].startswith("Z")]


# Known defect, kept visible: in a CI-like run one of five moments (1.44 s, while the local cluster's
# worker processes were still starting) ended in status 130 but with a spawned worker's partial
# traceback on stderr; the race is not understood yet, so the test may fail until it is fixed.
def test_dask_run_interrupted_at_random_moments(big, tmp_path):
    pytest.importorskip("distributed")
    path, whole, _ = big
    rng = random.Random(11)
    delays = []
    scratch = tmp_path / "tmp"  # the run's temporary folder: the workers' scratch space goes there
    scratch.mkdir()
    env = dict(ENV, TMPDIR=str(scratch))
    for i in range(_moments(5)):
        moment = rng.uniform(0.05, 1.5 * whole)  # cluster start, shard reading, counting
        cmd = PROGRAM + ["count-cliques", path, "--scheduler", "local:2"]
        out, err = open(tmp_path / "stdout", "w+"), open(tmp_path / "stderr", "w+")
        with out, err:
            p = subprocess.Popen(cmd, env=env, stdout=out, stderr=err, start_new_session=True,
                             preexec_fn=_default_sigint)
            time.sleep(moment)
            if p.poll() is not None:
                assert list(scratch.iterdir()) == [], "scratch space left by a finished run"
                continue
            sent = time.monotonic()
            os.killpg(p.pid, signal.SIGINT)  # as Ctrl-C at a terminal: the workers get it too
            p.wait(timeout=30)
            delay = time.monotonic() - sent
            time.sleep(1.0)
            left = _group_alive(p.pid)
            out.seek(0)
            err.seek(0)
            _assert_interrupted(p.returncode, out.read(), err.read(), delay, f"dask at {moment:.3f} s")
            assert left == [], f"worker processes left: {left}"
            assert list(scratch.iterdir()) == [], f"scratch space left behind: {list(scratch.iterdir())}"
            delays.append(delay)
    assert delays
    _summary("graphmine --scheduler local:2", delays)


BOXING = r"""
import os, random, signal, sys, threading, time
import numpy as np
from graphmine.graph import build_csr

rng = np.random.default_rng(1)
n = 1 << 18
src, dst = rng.integers(0, n, 1 << 22), rng.integers(0, n, 1 << 22)
build = build_csr if sys.argv[1] == "worker" else build_csr.__wrapped__
indptr, indices, _ = build(src, dst, n, 2)
t0 = time.monotonic()
build(src, dst, n, 2)
took = time.monotonic() - t0
pick = random.Random(5)
outcomes = {"completed": 0, "interrupted": 0}
for _ in range(int(sys.argv[2])):
    timer = threading.Timer(pick.uniform(0, took), os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        try:
            got = build(src, dst, n, 2)
        finally:
            timer.cancel()
            timer.join()  # a signal sent by now is handled inside this try
        assert np.array_equal(got[0], indptr) and np.array_equal(got[1], indices)
        result = "completed"
    except KeyboardInterrupt:
        result = "interrupted"
    outcomes[result] += 1
print(outcomes)
"""


def test_sigint_never_lands_in_a_kernels_return():
    # The cause of the segfaults (status 139) and of "SystemError: CPUDispatcher(...) returned a
    # result with an exception set": numba boxes a returned array through a Python function, in
    # which a pending SIGINT raises, unchecked by numba's code. On graphmine's worker thread no
    # signal is handled: every call completes or raises KeyboardInterrupt cleanly.
    r = subprocess.run([sys.executable, "-c", BOXING, "worker", "12"], env=ENV, capture_output=True, text=True,
                       preexec_fn=_default_sigint, timeout=600)
    assert r.returncode == 0 and "Error" not in r.stderr, r.stderr[-3000:]
    outcomes = eval(r.stdout.strip().splitlines()[-1])
    assert outcomes["completed"] + outcomes["interrupted"] == 12 and outcomes["interrupted"] > 0
