"""Whole process: ``graphmine count-cliques FILE`` against GAPBS's ``tc`` on GAPBS's own Kronecker files.

GAPBS (https://github.com/sbeamer/gapbs) is not shipped: build its ``tc`` and ``converter``
outside this repository (``make tc converter`` in a checkout of it) and pass their paths. For each
scale the script writes GAPBS's Kronecker graph (``converter -g S -k 16 -e FILE``), then times,
alternately, the whole ``graphmine count-cliques FILE --json`` process and ``tc -f FILE -s -n 1``
(read, build, one trial), checks that the counts agree, and prints the ratios; on one scale
(``--scaling``) it also prints graphmine's load and count steps per thread count, and first the
start-up of ``graphmine count-cliques ca-GrQc`` against ``python -c "import numba"``.

    python benchmarks/gapbs.py --tc ~/gapbs/tc --converter ~/gapbs/converter [--scales 18,20,22]
        [--repeat 3] [--scaling 20]

Nothing here asserts on time.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, env=None):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - t0
    if r.returncode:
        raise SystemExit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr[-2000:]}")
    return seconds, r.stdout


def program(path, name):
    """The absolute path of a built GAPBS program, or exit naming what is missing."""
    path = os.path.abspath(os.path.expanduser(path))
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise SystemExit(f"benchmarks/gapbs.py: --{name} {path}: no executable file there (build GAPBS's "
                         f"{name} first: make {name})")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tc", required=True, help="GAPBS's built tc program")
    ap.add_argument("--converter", required=True, help="GAPBS's built converter program")
    ap.add_argument("--scales", default="18,20,22")
    ap.add_argument("--repeat", type=int, default=3, help="alternating runs per scale (default 3)")
    ap.add_argument("--scaling", type=int, default=20, help="scale of the thread table (0: none)")
    ap.add_argument("--threads", default="1,2,4,8,16", help="thread counts of the table")
    ap.add_argument("--dir", default=None, help="where the edge lists go (default: a temporary folder)")
    args = ap.parse_args()

    work = args.dir or tempfile.mkdtemp(prefix="graphmine-gapbs-")
    tc, converter = program(args.tc, "tc"), program(args.converter, "converter")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    gm = [sys.executable, "-m", "graphmine", "count-cliques"]

    timed(gm + ["ca-GrQc", "-q"], env)  # fills numba's cache
    start = min(timed(gm + ["ca-GrQc", "-q"], env)[0] for _ in range(5))
    numba = min(timed([sys.executable, "-c", "import numba"], env)[0] for _ in range(5))
    print(f"start-up: count-cliques ca-GrQc {start:.3f} s, import numba {numba:.3f} s, ratio {start / numba:.2f}")

    print(f"{'scale':>5} {'GB':>6} {'graphmine s':>11} {'load':>6} {'count':>6} {'GAPBS s':>8} "
          f"{'read':>6} {'build':>6} {'trial':>6} {'ratio':>6}")
    for s in (int(x) for x in args.scales.split(",")):
        path = os.path.join(work, f"kron{s}.el")
        timed([converter, "-g", str(s), "-k", "16", "-e", path])
        timed(gm + [path, "-q"], env)  # the page cache and this graph's kernels warm
        for _ in range(args.repeat):
            tg, out = timed(gm + [path, "--json", "-q"], env)
            tb, ref = timed([tc, "-f", path, "-s", "-n", "1", "-a"])
            j = json.loads(out)
            steps = dict(re.findall(r"(Read|Build|Trial) Time:\s+([\d.]+)", ref))
            count = int(re.search(r"(\d+) triangles", ref).group(1))
            if count != j["count"]:
                raise SystemExit(f"counts differ on scale {s}: graphmine {j['count']}, GAPBS {count}")
            print(f"{s:>5} {os.path.getsize(path) / 1e9:6.2f} {tg:11.2f} {j['load_seconds']:6.2f} "
                  f"{j['seconds']:6.2f} {tb:8.2f} {float(steps['Read']):6.2f} {float(steps['Build']):6.2f} "
                  f"{float(steps['Trial']):6.2f} {tg / tb:6.2f}", flush=True)
        if s == args.scaling:
            print(f"scale {s} per thread count (best of 2): threads, load s, count s, count speed-up")
            base = None
            for t in (int(x) for x in args.threads.split(",")):
                runs = [json.loads(timed(gm + [path, "--json", "-q", "--threads", str(t)], env)[1])
                        for _ in range(2)]
                load = min(r["load_seconds"] for r in runs)
                count = min(r["seconds"] for r in runs)
                base = base or count
                print(f"  {t:>3} {load:7.3f} {count:7.3f} {base / count:6.2f}x", flush=True)
        os.remove(path)
    if args.dir is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
