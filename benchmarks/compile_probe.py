"""Where a first run's compile time goes, per numba function.

Runs the README's main command, then each command given (default: the first-run commands of the
sketch and motif paths) as whole processes sharing one empty numba cache folder, each with a
listener on numba's compile events. Per command: wall and CPU seconds of the process, the number
of functions numba compiled, the CPU seconds of the outermost compiles, and the costliest functions
(inclusive CPU seconds: a kernel's time includes the helpers compiled inside it; ``depth`` 0 is a
compile started from Python). Nothing here asserts on time.

    python benchmarks/compile_probe.py [--top 12] [--keep DIR] [--only 'count-cliques ca-GrQc --method bloom']
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

COMMANDS = (
    "count-cliques ca-GrQc --method bloom",
    "count-cliques ca-GrQc -k 4 --method bloom",
    "clustering ca-GrQc --method bloom",
    "predict-motifs ca-GrQc --motif clique --k 4 --method heuristic",
)

# the same probe as benchmarks/startup.py --cold (a listener on numba's compile events)
from startup import PROBE  # noqa: E402  (this script's folder is on sys.path)


def probe(args, env, top):
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", PROBE, out] + args.split(), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode != 0:
        sys.exit(f"graphmine {args} failed:\n{r.stderr.decode()}")
    recs = json.load(open(out))
    os.unlink(out)
    outer = sum(c for _, _, _, c, d in recs if d == 0)
    print(f"\n== graphmine {args}\n   wall {wall:.2f} s, CPU {cpu:.2f} s, {len(recs)} functions compiled, "
          f"outermost compiles {outer:.2f} CPU s")
    for name, sig, w, c, d in sorted(recs, key=lambda x: -x[3])[:top]:
        print(f"   {c:6.2f}  d{d}  {name}  {sig[:70]}")
    # a function compiled for more than one signature: often a parfor body retyped with a uint64
    # loop index, or int32 and int64 index arrays of one kernel
    sigs = {}
    for name, sig, w, c, d in recs:
        if not name.startswith("numba."):
            sigs.setdefault(name, []).append((c, sig))
    for name, got in sorted(sigs.items()):
        if len(got) > 1:
            print(f"   compiled {len(got)} times ({sum(c for c, _ in got):.2f} CPU s inclusive): {name}")
    return wall, cpu, len(recs), outer


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--keep", help="numba cache folder to use (kept); default: a new empty one, removed")
    ap.add_argument("--only", action="append", help="a command (without 'graphmine'); repeatable")
    ap.add_argument("--no-readme", action="store_true", help="skip the README's main command first")
    a = ap.parse_args()
    cache = a.keep or tempfile.mkdtemp(prefix="numba-cache-")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=ROOT)
    rows = []
    try:
        cmds = ([] if a.no_readme else ["count-cliques ca-GrQc"]) + list(a.only or COMMANDS)
        for c in cmds:
            rows.append((c,) + probe(c, env, a.top))
    finally:
        if not a.keep:
            shutil.rmtree(cache, ignore_errors=True)
    print("\n| first run of | wall s | CPU s | functions | compile CPU s |\n|---|---|---|---|---|")
    for c, w, cpu, n, o in rows:
        print(f"| `graphmine {c}` | {w:.2f} | {cpu:.2f} | {n} | {o:.2f} |")


if __name__ == "__main__":
    main()
