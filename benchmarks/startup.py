"""Start-up of the command line: ``graphmine count-cliques ca-GrQc`` as a whole process against
``python -c "import numba"`` (the floor of any numba program) on this machine.

One warm-up run first fills numba's cache; then the two commands alternate, and the best of
``--repeat`` runs of each is compared (best-of, because other work on a shared machine only ever
adds time). A second table splits one run of the command into its phases, measured inside one
process (wall and CPU seconds), and lists the heavy packages it loaded. Nothing here asserts on
time.

    python benchmarks/startup.py [--repeat 7] [--file ca-GrQc] [-k 3]
    GRAPHMINE_ROOT=/path/to/other/checkout python benchmarks/startup.py   # the same for another tree
"""

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# the phases of `graphmine count-cliques FILE`, in one process, in the order the program runs them
PHASES = r"""
import json, sys, time
marks = [("start", time.perf_counter(), time.process_time())]
def mark(name):
    marks.append((name, time.perf_counter(), time.process_time()))
import numba
mark("import numba")
import graphmine.cli
mark("import graphmine.cli (+ argparse, json)")
try:
    from graphmine._startup import lean_numba_setup
except ImportError:  # a graphmine without it: numba sets itself up on the first read below
    pass
else:
    lean_numba_setup()
    mark("numba's compiler set-up (+ 1 cached kernel)")
from graphmine import datasets, io
try:
    from graphmine.dispatch import count_cliques
except ImportError:
    from graphmine.cliques import count_cliques
mark("import io, graph, dispatch, cliques (kernel modules)")
path = datasets.resolve(sys.argv[1])
G = io.read_graph(path, threads=1)
mark("read the file (first call: cached kernels load)")
io.read_graph(path, threads=1)
mark("read the file again (kernels loaded)")
count_cliques(G, int(sys.argv[2]))
mark("count (first call: cached kernels load)")
count_cliques(G, int(sys.argv[2]))
mark("count again (kernels loaded)")
# numba's first-call costs beyond the command: one more cached kernel (serial), a parallel kernel's
# first call (its cache load and the start of the thread pool), and its second call
first = len(marks)
try:
    import numpy as np
    from graphmine import _centrality_kernels as ck
    share, out = np.ones(G.n_nodes), np.empty(G.n_nodes)
    ck._neighbour_sums_serial(G.indptr, G.indices, share, out)
    mark("first call of one more cached serial kernel")
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    ck._neighbour_sums(G.indptr, G.indices, share, out, numba.config.NUMBA_NUM_THREADS)
    mark(f"first call of a cached parallel kernel ({numba.threading_layer()} pool starts)")
    ck._neighbour_sums(G.indptr, G.indices, share, out, numba.config.NUMBA_NUM_THREADS)
    mark("second call of the parallel kernel")
except ImportError:
    pass
heavy = ("scipy", "matplotlib", "torch", "sklearn", "tqdm", "networkx", "cffi", "pycparser")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in heavy)
print(json.dumps({"marks": marks, "loaded": loaded, "first": first}))
"""


def whole(cmd, env):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=env["PYTHONPATH"].split(os.pathsep)[0])
    t = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stderr.decode()}")
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7, help="runs of each command (best taken; default 7)")
    ap.add_argument("--file", default="ca-GrQc", help="graph file or shipped data set (default ca-GrQc)")
    ap.add_argument("-k", type=int, default=3, help="clique size (default 3)")
    args = ap.parse_args()

    # the graphmine of this checkout, or of GRAPHMINE_ROOT (to compare another checkout)
    root = os.environ.get("GRAPHMINE_ROOT", ROOT)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    program = [sys.executable, "-m", "graphmine", "count-cliques", args.file, "-k", str(args.k), "-q"]
    floor = [sys.executable, "-c", "import numba"]
    bare = [sys.executable, "-c", "pass"]
    whole(program, env)  # warm-up: numba's cache filled, files in the page cache
    times = {"program": [], "numba": [], "python": []}
    for _ in range(args.repeat):
        times["program"].append(whole(program, env))
        times["numba"].append(whole(floor, env))
        times["python"].append(whole(bare, env))
    best = {k: min(v) for k, v in times.items()}
    median = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    print(f"whole process, best (median) of {args.repeat} alternating runs, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'command':58s} {'best s':>8s} {'median s':>9s}")
    print(f"{'graphmine count-cliques ' + args.file + ' -k ' + str(args.k):58s} {best['program']:8.3f} "
          f"{median['program']:9.3f}")
    label = 'python -c "import numba"'
    print(f"{label:58s} {best['numba']:8.3f} {median['numba']:9.3f}")
    print(f"{'python -c pass':58s} {best['python']:8.3f} {median['python']:9.3f}")
    print(f"{'ratio graphmine / import numba':58s} {best['program'] / best['numba']:8.2f} "
          f"{median['program'] / median['numba']:9.2f}")

    r = subprocess.run([sys.executable, "-c", PHASES, args.file, str(args.k)], capture_output=True, text=True,
                       env=env, cwd=root)
    if r.returncode != 0:
        sys.exit(r.stderr)
    out = json.loads(r.stdout.strip().splitlines()[-1])
    marks, first = out["marks"], out["first"]
    print("\nphases of one run, in one process")
    print(f"{'phase':58s} {'wall s':>8s} {'cpu s':>8s}")
    for i, ((_, w0, c0), (name, w1, c1)) in enumerate(zip(marks, marks[1:])):
        if i + 1 == first:
            print(f"{'total':58s} {w1 - marks[0][1]:8.3f} {c1 - marks[0][2]:8.3f}")
            print("\nnumba's first-call costs (after the command's phases, same process)")
        print(f"{name:58s} {w1 - w0:8.3f} {c1 - c0:8.3f}")
    if first == len(marks):
        print(f"{'total':58s} {marks[-1][1] - marks[0][1]:8.3f} {marks[-1][2] - marks[0][2]:8.3f}")
    print(f"heavy packages loaded: {', '.join(sorted({m.split('.')[0] for m in out['loaded']})) or 'none'}"
          f" ({len(out['loaded'])} modules; import numba alone loads scipy's top package)")


if __name__ == "__main__":
    main()
