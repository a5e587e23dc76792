"""Start-up of the command line.

Warm (default): ``graphmine count-cliques ca-GrQc`` as a whole process against
``python -c "import numba"`` (the floor of any numba program) on this machine. One warm-up run
first fills numba's cache; then the two commands alternate, and the best of ``--repeat`` runs of
each is compared (best-of, because other work on a shared machine only ever adds time). A second
table splits one run of the command into its phases, measured inside one process (wall and CPU
seconds), and lists the heavy packages it loaded.

Cold (``--cold``): a user's first contact. A new virtual environment gets the checkout by a plain
``pip install .`` (timed: the build backend comes from the package index as usual, the dependencies from
the running interpreter's environment through a ``.pth`` file, so that pip finds them installed
and the package's own build and install is what is measured); then,
with numba's cache pointed at an empty folder, the README's main command and the other first-run
commands run one after the other as whole processes (each finds the cache the ones before it
left). Every process runs with a listener on numba's compile events: the table gives its wall and
CPU seconds (user + system, as ``/usr/bin/time`` reports them), the number of functions numba
compiled and the CPU seconds of those compiles (inclusive: a kernel's time includes the helpers
compiled inside it). ``--probe`` prints the compiled functions of every command, costliest first.

networkx backend (``--nx FILE``): ``nx.triangles(G, backend="graphmine")`` as the first call of a
fresh process (the backend's import included), with numba's cache warm and empty, against
networkx's own call (runs alternate; best and median); the phases of that first call; then the
first call on G(n, m) graphs of growing size in fresh processes, and both calls in warm
processes (numba not imported, then loaded) on small graphs with the conversion included: where
graphmine starts to win is ``should_run``'s threshold. With ``--calls N``: graphmine's first N
calls of each function of ``--functions`` in one fresh process (the numba cache warm), on the same
graph (networkx keeps the conversion, the conversion what it computed) or with ``--copies`` on a
new copy each call, against networkx's own call (wall and CPU ratios, best and median of
``--repeat`` processes). ``--string-nodes`` names the file's nodes "a<id>" (the conversion then
looks every neighbour up by name); a first line "n m" giving the number of edge lines after it is a
header and skipped. The processes may write the checkout's bytecode (``PYTHONDONTWRITEBYTECODE``
is dropped for them), as an installed package has it.

Nothing here asserts on time.

    python benchmarks/startup.py [--repeat 7] [--file ca-GrQc] [-k 3]
    python benchmarks/startup.py --cold [--probe 15] [--keep DIR]
    python benchmarks/startup.py --cold --all [--skip seam --skip dask] [--scholp DIR]   # every documented command
    python benchmarks/startup.py --cold --all --only motifs4 --only motifs5   # some of them, by label
    python benchmarks/startup.py --nx facebook_combined [--repeat 3] [--first-only]   # the networkx backend
    python benchmarks/startup.py --nx facebook_combined --calls 4 [--repeat 3]   # later calls of one process
    python benchmarks/startup.py --nx PATH/ca-HepPh.txt --string-nodes --calls 3 \
        --functions triangles,clustering,average_clustering [--copies]   # each call against networkx's
    python benchmarks/startup.py --dask ca-GrQc [--workers 2]            # a Dask worker's first task
    GRAPHMINE_ROOT=/path/to/other/checkout python benchmarks/startup.py [--cold]   # another tree
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import tempfile
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
    mark("lean numba set-up arranged (it comes with the first kernel)")
from graphmine import io
from graphmine.io import datasets
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
    from graphmine.centrality import _kernels as ck
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

# the first-run commands, in the order a new user meets them (README's main command first)
FIRST_RUNS = (
    ("count-cliques", "ca-GrQc"),
    ("count-cliques", "ca-GrQc", "-k", "4"),
    ("count-cliques", "ca-GrQc", "--method", "bloom"),
    ("clustering", "ca-GrQc"),
    ("predict-motifs", "ca-GrQc", "--motif", "clique", "--k", "4", "--method", "heuristic"),
)

# every documented command (README.md and docs/), in the order a user meets them, each as
# (label, arguments); {lm}, {parts}, {scholp} and {work} are files made by _inputs below: a string-id
# edge list (networkx's les_miserables_graph, 77 vertices), ca-GrQc in 4 shards, a ScHoLP data
# set (--scholp, else a generated one of email-Enron's shape), and the working folder
ALL_RUNS = (
    ("readme", ("count-cliques", "ca-GrQc")),
    ("k4", ("count-cliques", "ca-GrQc", "-k", "4")),
    ("all-k", ("count-cliques", "ca-GrQc", "--all-k", "--json")),
    ("info", ("info", "ca-GrQc")),
    ("triangles", ("triangles", "ca-GrQc", "--out", "{work}/counts.tsv", "--force")),
    ("clustering", ("clustering", "ca-GrQc")),
    ("str-ids", ("count-cliques", "{lm}", "--ids", "str")),
    ("bloom", ("count-cliques", "ca-GrQc", "--method", "bloom")),
    ("bloom-k4", ("count-cliques", "ca-GrQc", "-k", "4", "--method", "bloom", "--budget", "0.25", "--seed", "1")),
    ("heuristic", ("predict-motifs", "USAir", "--motif", "clique", "--k", "4", "--method", "heuristic")),
    ("dask", ("count-cliques", "{parts}/*.el", "--scheduler", "local:2")),
    ("s4c-build", ("science4cast", "build", "{scholp}", "--out", "{work}/events.pkl", "--force")),
    ("closure", ("predict-closure", "{scholp}", "--no-model")),
    ("s4c-generate", ("science4cast", "generate", "--out", "{work}/data.pkl", "--vertices", "20000", "--seed", "0",
                      "--force")),
    ("seam", ("predict-motifs", "USAir", "--motif", "clique", "--k", "4", "--method", "seam")),
    ("motifs4", ("count-motifs", "ca-GrQc", "--size", "4")),
    ("motifs5", ("count-motifs", "ca-GrQc", "--size", "5")),
    ("jarvis-patrick", ("jarvis-patrick", "ca-GrQc", "--similarity", "jaccard", "--tau", "0.3")),
    ("s4c-train", ("science4cast", "train", "{work}/data.pkl", "--model", "{work}/model.json", "--force")),
    ("s4c-predict", ("science4cast", "predict", "{work}/data.pkl", "--model", "{work}/model.json", "--out",
                     "{work}/submission.json", "--force")),
    ("s4c-evaluate", ("science4cast", "evaluate", "{work}/submission.json", "{work}/data.pkl")),
    ("stream", ("stream-triangles", "Celegans", "--memory", "500")),
)


def _inputs(work, scholp):
    """The files the documented commands read: {lm}, {parts}, {scholp} (see ALL_RUNS)."""
    import networkx as nx
    import numpy as np

    lm = os.path.join(work, "lm.el")
    nx.write_edgelist(nx.les_miserables_graph(), lm, data=False)
    parts = os.path.join(work, "parts")
    os.makedirs(parts, exist_ok=True)
    sys.path.insert(0, os.environ.get("GRAPHMINE_ROOT", ROOT))
    from graphmine.io import datasets

    lines = [ln for ln in open(datasets.resolve("ca-GrQc")) if ln.strip() and not ln.startswith("#")]
    for i in range(4):
        with open(os.path.join(parts, f"part{i}.el"), "w") as fh:
            fh.writelines(lines[i::4])
    if scholp is None:
        # email-Enron's shape (143 vertices, 10,883 items of 1-5 vertices, times in milliseconds),
        # vertices drawn with skewed weights: the reading and the candidates cost as on the real set
        rng = np.random.default_rng(0)
        scholp = os.path.join(work, "scholp")
        os.makedirs(scholp, exist_ok=True)
        sizes = rng.choice([1, 2, 3, 4, 5], p=[0.05, 0.55, 0.22, 0.12, 0.06], size=10883)
        weight = 1.0 / np.arange(1, 144) ** 0.8
        with open(os.path.join(scholp, "gen-nverts.txt"), "w") as fh:
            fh.write("".join(f"{k}\n" for k in sizes))
        with open(os.path.join(scholp, "gen-simplices.txt"), "w") as fh:
            for k in sizes:
                fh.write("".join(f"{v + 1}\n" for v in rng.choice(143, size=k, replace=False, p=weight / weight.sum())))
        times = np.sort(rng.integers(0, 10 ** 11, size=10883)) + 10 ** 12
        with open(os.path.join(scholp, "gen-times.txt"), "w") as fh:
            fh.write("".join(f"{t}\n" for t in times))
    return {"lm": lm, "parts": parts, "scholp": os.path.abspath(scholp), "work": work}


# the graphmine program with a listener on numba's compile events: every compile's function, its
# signature, its wall and CPU seconds (inclusive) and its nesting depth, written at exit
PROBE = r"""
import atexit, json, sys, time
from numba.core import event

out, sys.argv = sys.argv[1], ["graphmine"] + sys.argv[2:]
records, stack = [], []

class Compiles(event.Listener):
    def on_start(self, ev):
        stack.append((time.perf_counter(), time.process_time()))

    def on_end(self, ev):
        w0, c0 = stack.pop()
        f = ev.data["dispatcher"].py_func
        records.append((f"{f.__module__}.{f.__qualname__}", str(ev.data["args"]), time.perf_counter() - w0,
                        time.process_time() - c0, len(stack)))

event.register("numba:compile", Compiles())
atexit.register(lambda: json.dump(records, open(out, "w")))
from graphmine.cli import run
run()
"""


def _timed(cmd, env, cwd):
    """Run ``cmd``: (wall s, CPU s of the process and its children, exit status, stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, r.returncode, r.stderr.decode(errors="replace")


def _new_venv(root, where):
    """A new virtual environment in ``where`` with ``root`` installed by ``pip install .``:
    (its python, wall and CPU seconds of the install). The dependencies are the running
    interpreter's (a .pth file): pip finds them installed and downloads none."""
    subprocess.run([sys.executable, "-m", "venv", where], check=True)
    python = os.path.join(where, "bin", "python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    with open(os.path.join(site, "_dependencies.pth"), "w") as fh:
        fh.write(sysconfig.get_paths()["purelib"] + "\n")
    build = tempfile.mkdtemp(prefix="graphmine-src-")
    # a copy of the tracked files, as a source distribution would hold them (no caches, no venvs)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True).stdout
    for rel in filter(None, files.decode().split("\0")):
        dst = os.path.join(build, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.isfile(os.path.join(root, rel)):
            shutil.copy2(os.path.join(root, rel), dst)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    wall, cpu, status, err = _timed([python, "-m", "pip", "install", "-q", "."], env, build)
    shutil.rmtree(build, ignore_errors=True)
    if status != 0:
        sys.exit(f"pip install . failed:\n{err}")
    return python, wall, cpu


def cold(args):
    root = os.environ.get("GRAPHMINE_ROOT", ROOT)
    work = args.keep or tempfile.mkdtemp(prefix="graphmine-cold-")
    os.makedirs(work, exist_ok=True)
    python, install_wall, install_cpu = _new_venv(root, os.path.join(work, "venv"))
    cache = os.path.join(work, "numba-cache")
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache)
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    env.pop("PYTHONPATH", None)  # the installed package, not a checkout
    print(f"{root}: pip install . {install_wall:.1f} s wall, {install_cpu:.1f} s CPU; numba cache {cache} (empty)")
    print(f"{'first run of graphmine ...':58s} {'wall s':>7s} {'cpu s':>7s} {'compiled':>8s} "
          f"{'compile cpu s':>13s} {'said':>4s} {'load':>5s}")
    if args.all:
        files = _inputs(work, args.scholp)
        runs = [tuple(a.format(**files) for a in cmd) for label, cmd in ALL_RUNS
                if label not in args.skip and (not args.only or label in args.only)]
    else:
        runs = FIRST_RUNS
    rows = []
    for cmd in runs:
        out = os.path.join(work, "compiles.json")
        if os.path.exists(out):
            os.remove(out)
        load = os.getloadavg()[0]
        wall, cpu, status, err = _timed([python, "-c", PROBE, out, *cmd], env, work)
        if status != 0:
            sys.exit(f"graphmine {' '.join(cmd)} failed (status {status}):\n{err}")
        with open(out) as fh:
            records = json.load(fh)
        top = sum(r[3] for r in records if r[4] == 0)
        # the program said it compiles (README: a note on stderr whenever a kernel compiles)
        said = "compiling" in err
        shown = " ".join(os.path.basename(a) if os.sep in a else a for a in cmd)
        rows.append({"command": shown, "wall": wall, "cpu": cpu, "compiled": len(records),
                     "compile_cpu": top, "said": said, "load": load, "records": records,
                     "notes": [ln for ln in err.splitlines() if "compil" in ln]})
        print(f"{shown:58s} {wall:7.2f} {cpu:7.2f} {len(records):8d} {top:13.2f} "
              f"{'yes' if said else 'no' if records else '-':>4s} {load:5.1f}", flush=True)
    total = sum(r["compile_cpu"] for r in rows)
    print(f"{'all first runs':58s} {sum(r['wall'] for r in rows):7.2f} {sum(r['cpu'] for r in rows):7.2f} "
          f"{sum(r['compiled'] for r in rows):8d} {total:13.2f}")
    if args.probe:
        for r in rows:
            print(f"\n{r['command']}: the {args.probe} costliest compiles (inclusive CPU s, depth, function)")
            for name, sig, w, c, depth in sorted(r["records"], key=lambda x: -x[3])[:args.probe]:
                print(f"  {c:7.2f} {depth:2d} {name} {sig[:60]}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"root": root, "install_wall": install_wall, "install_cpu": install_cpu, "runs": rows}, fh)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)

# the networkx graph of an edge-list file, read in the processes below outside the timed calls:
# '#' and '%' comment lines, a first line "n m" (a header, as in GraphIO's ca-HepPh) skipped when m
# is the number of lines after it; nodes ints, or strings "a<id>" when the second argument is "1"
NX_READ = r"""
import networkx as nx

def read(path, strings):
    with open(path) as fh:
        rows = [line.split()[:2] for line in fh if line.strip() and line[0] not in "#%"]
    if len(rows) > 1 and rows[0][1].isdigit() and int(rows[0][1]) == len(rows) - 1:
        rows = rows[1:]
    H = nx.Graph()
    H.add_edges_from(((f"a{u}", f"a{v}") for u, v in rows) if strings else ((int(u), int(v)) for u, v in rows))
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return H
"""

# one fresh process: networkx reads the file, then one nx.triangles call, networkx's own or
# graphmine's (whose first call imports the backend, numpy and, where a kernel runs, numba)
NX_CALL = NX_READ + r"""
import json, sys, time
path, backend = sys.argv[1], sys.argv[2]
if path.startswith("gnm:"):
    m = int(path[4:])
    H = nx.gnm_random_graph(max(8, m // 4), m, seed=m)
else:
    H = read(path, sys.argv[3] == "1")
w, c = time.perf_counter(), time.process_time()
r = nx.triangles(H) if backend == "networkx" else nx.triangles(H, backend="graphmine")
print(json.dumps({"wall": time.perf_counter() - w, "cpu": time.process_time() - c, "sum": sum(r.values()),
                  "edges": H.number_of_edges(), "numba": "numba" in sys.modules}))
"""

# the same first call split into its phases, in one fresh process (wall and CPU seconds)
NX_PHASES = NX_READ + r"""
import json, sys, time
H = read(sys.argv[1], sys.argv[2] == "1")
marks = [("start", time.perf_counter(), time.process_time())]
def mark(name):
    marks.append((name, time.perf_counter(), time.process_time()))
import numpy as np
mark("import numpy (its BLAS threads start)")
from graphmine.nx_backend import interface
import graphmine.nx_backend as algorithms
from graphmine.nx_backend import convert
from graphmine._primitives import small_work as sw
mark("import the backend's modules")
G = convert.from_networkx(H)
mark("conversion (from_networkx: adjacency walk, ids, sorted rows)")
O = G.oriented("degree", relabel=True)
mark("degree orientation in rank space")
lo, work = sw._dense_split(O.indptr)
t = sw.triangles_per_vertex(O.indptr, O.indices)[O.rank]
mark(f"count: {O.indptr.shape[0] - 1 - lo} hubs' bit rows + the other rows' pairs")
r = dict(zip(convert.node_labels(G), t.tolist()))
mark("result dict")
K = nx.Graph(H)
w, c = time.perf_counter(), time.process_time()
nx.triangles(K, backend="graphmine")
marks.append(("(a second dispatched call on a copy: all of the above but the imports)",
              marks[-1][1] + time.perf_counter() - w, marks[-1][2] + time.process_time() - c))
print(json.dumps({"marks": marks, "numba": "numba" in sys.modules}))
"""

# in one process with the backend loaded (and, after a first call on a larger graph, numba and
# its kernels too unless --numpy-only): networkx's triangles against graphmine's (conversion
# included: a new networkx graph each call) on G(n, m) graphs
NX_SMALL = r"""
import json, sys, time
import networkx as nx
sizes, repeat, warm = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
nx.triangles(nx.gnm_random_graph(400, 2000, seed=1), backend="graphmine")  # backend loaded
if warm:  # a kernel's first call: numba imported, the kernels loaded
    import graphmine as gm
    gm.triangles(gm.as_graph(nx.gnm_random_graph(400, 2000, seed=1)), threads=1)
out = []
for m in sizes:
    base = nx.gnm_random_graph(max(8, m // 4), m, seed=m)
    best = {"networkx": 1e9, "graphmine": 1e9}
    for _ in range(repeat):
        for name in best:
            H = nx.Graph(base)  # no cached conversion
            t = time.perf_counter()
            nx.triangles(H) if name == "networkx" else nx.triangles(H, backend="graphmine")
            best[name] = min(best[name], time.perf_counter() - t)
    out.append({"edges": m, **best})
print(json.dumps(out))
"""


# later calls of one fresh process: graphmine's first, second, ... call of one networkx function,
# on the same graph each call (networkx keeps the converted graph in G.__networkx_cache__, and the
# converted graph what it computed: a user calling nx.triangles(G) again), or with "copies" on a
# new copy of it each call (so that neither answers: every call converts); or, with "networkx",
# networkx's own call in a process of its own
NX_CALLS = NX_READ + r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")  # networkx's note that it uses a cached conversion
path, strings, calls, name, mode = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3]), sys.argv[4], sys.argv[5]
fn = getattr(nx, name)
H = read(path, strings)
times = []
for _ in range(1 if mode == "networkx" else calls):
    K = nx.Graph(H) if mode == "copies" else H
    w, c = time.perf_counter(), time.process_time()
    r = fn(K) if mode == "networkx" else fn(K, backend="graphmine")
    times.append((time.perf_counter() - w, time.process_time() - c))
    time.sleep(0.2)  # the caller's own work between calls
value = r if isinstance(r, (int, float)) else [float(sum(r.values())), len(r)]
print(json.dumps({"times": times, "value": value, "nodes": H.number_of_nodes(), "edges": H.number_of_edges(),
                  "numba": "numba" in sys.modules}))
"""


def networkx_calls(args, path, env):
    """graphmine's first, second, ... call in one fresh process against networkx's own call in
    another, for every function of --functions; processes alternate, best and median of
    --repeat."""
    strings = "1" if args.string_nodes else "0"
    mode = "copies" if args.copies else "same"
    for name in args.functions.split(","):
        load = os.getloadavg()[0]
        nx_runs, gm_runs = [], []
        for _ in range(args.repeat):  # alternating, so that the machine's load falls on both alike
            nx_runs.append(_nx_run(NX_CALLS, [path, strings, "1", name, "networkx"], env))
            gm_runs.append(_nx_run(NX_CALLS, [path, strings, str(args.calls), name, mode], env))
        want = nx_runs[0]["value"]
        for r in nx_runs + gm_runs:  # the same result (sums of the values, their number)
            got = r["value"]
            assert (got == want if isinstance(want, int) else
                    all(abs(a - b) <= 1e-9 * max(1.0, abs(b)) for a, b in zip(*(
                        (x if isinstance(x, list) else [x]) for x in (got, want))))), (name, got, want)
        print(f"\nnx.{name} on {os.path.basename(path)} ({'string' if args.string_nodes else 'integer'} nodes, "
              f"{nx_runs[0]['nodes']:,} nodes, {nx_runs[0]['edges']:,} edges), graphmine's calls in one fresh "
              f"process, {'a new copy of the graph' if args.copies else 'the same graph'} each call; best "
              f"(median) of {args.repeat} processes alternating with networkx's; load average {load:.1f} before, "
              f"{os.getloadavg()[0]:.1f} after; numba imported: "
              f"{'yes' if any(r['numba'] for r in gm_runs) else 'no'}")
        print(f"{'call':10s} {'wall ms':>17s} {'cpu ms':>17s} {'x nx by wall':>14s} {'x nx by cpu':>14s}")

        def row(label, runs, i, base=None):
            w = [1e3 * r["times"][i][0] for r in runs]
            c = [1e3 * r["times"][i][1] for r in runs]
            bw, bc, mw, mc = min(w), min(c), _median(w), _median(c)
            cells = (f"{base[0] / bw:7.1f}x ({base[2] / mw:5.1f})  {base[1] / bc:7.1f}x ({base[3] / mc:5.1f})"
                     if base else "")
            print(f"{label:10s} {bw:8.1f} ({mw:7.1f}) {bc:8.1f} ({mc:7.1f}) {cells}")
            return bw, bc, mw, mc

        base = row("networkx", nx_runs, 0)
        for i in range(args.calls):
            row(f"graphmine {i + 1}", gm_runs, i, base)


def _nx_run(code, args, env):
    # run in the graphmine checkout measured: ``python -c`` puts the working folder first on the path
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                       cwd=env["PYTHONPATH"].split(os.pathsep)[0])
    if r.returncode != 0:
        sys.exit(r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])


def _median(values):
    values = sorted(values)
    return values[len(values) // 2]


def networkx_backend(args):
    """First calls of nx.triangles through the graphmine backend against networkx, fresh
    processes, numba's cache warm and empty; the phases of such a call; then the sizes where
    graphmine starts to win (should_run's threshold), in fresh and in warm processes."""
    root = os.environ.get("GRAPHMINE_ROOT", ROOT)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""),
               NETWORKX_AUTOMATIC_BACKENDS="", NETWORKX_BACKEND_PRIORITY="")
    # an installed package has its modules compiled to bytecode (networkx's and numpy's are): the
    # checkout's are too, by the warm-up call below, rather than compiled again in every process
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    path = os.path.abspath(args.nx)
    if not os.path.exists(path):
        sys.path.insert(0, root)
        from graphmine.io import datasets

        path = os.path.abspath(datasets.resolve(args.nx))
    strings = "1" if args.string_nodes else "0"
    _nx_run(NX_CALL, [path, "graphmine", strings], env)  # numba's cache filled, bytecode written
    if args.calls:
        return networkx_calls(args, path, env)
    load = os.getloadavg()[0]
    runs = {"networkx": [], "graphmine, warm cache": [], "graphmine, empty cache": []}
    for _ in range(args.repeat):  # alternating, so that the machine's load falls on all three alike
        for label in runs:
            e = dict(env)
            if label.endswith("empty cache"):
                e["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="graphmine-nx-cache-")
            runs[label].append(_nx_run(NX_CALL, [path, "networkx" if label == "networkx" else "graphmine", strings],
                                       e))
            if label.endswith("empty cache"):
                shutil.rmtree(e["NUMBA_CACHE_DIR"], ignore_errors=True)
    print(f"nx.triangles on {os.path.basename(path)}, fresh processes, {args.repeat} of each alternating "
          f"(load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)")
    base = runs["networkx"]
    print(f"{'call':24s} {'best wall':>9s} {'best cpu':>9s} {'med cpu':>8s} {'x by wall':>9s} {'x by cpu':>8s} "
          f"{'x med cpu':>9s} {'numba':>6s}  ({base[0]['edges']:,} edges)")
    bw, bc, mc = (min(r["wall"] for r in base), min(r["cpu"] for r in base), _median([r["cpu"] for r in base]))
    for label, rs in runs.items():
        assert all(r["sum"] == base[0]["sum"] for r in rs), label
        w, c, m = min(r["wall"] for r in rs), min(r["cpu"] for r in rs), _median([r["cpu"] for r in rs])
        print(f"{label:24s} {w:9.3f} {c:9.3f} {m:8.3f} {bw / w:8.2f}x {bc / c:7.2f}x {mc / m:8.2f}x "
              f"{'yes' if any(r['numba'] for r in rs) else 'no':>6s}")
    if args.first_only:
        return

    phases = [_nx_run(NX_PHASES, [path, strings], env) for _ in range(args.repeat)]
    print(f"\nphases of graphmine's first call (fresh process, median of {args.repeat}; "
          f"numba imported: {'yes' if any(p['numba'] for p in phases) else 'no'})")
    print(f"{'phase':66s} {'wall ms':>8s} {'cpu ms':>8s}")
    names = [m[0] for m in phases[0]["marks"]]
    for i in range(1, len(names)):
        w = _median([1e3 * (p["marks"][i][1] - p["marks"][i - 1][1]) for p in phases])
        c = _median([1e3 * (p["marks"][i][2] - p["marks"][i - 1][2]) for p in phases])
        print(f"{names[i]:66s} {w:8.1f} {c:8.1f}")

    sizes = [1000, 3000, 10000, 30000, 100000]
    print(f"\nfirst call in a fresh process on G(m/4, m) graphs (conversion and imports included; "
          f"best of {args.repeat})")
    print(f"{'edges':>7s} {'networkx ms':>12s} {'graphmine ms':>13s} {'x by wall':>9s} {'nx cpu ms':>10s} "
          f"{'gm cpu ms':>10s} {'x by cpu':>8s}")
    for m in sizes:
        best = {}
        for _ in range(args.repeat):
            for name in ("networkx", "graphmine"):
                r = _nx_run(NX_CALL, [f"gnm:{m}", name, "0"], env)
                old = best.get(name)
                best[name] = {"wall": min(r["wall"], old["wall"]) if old else r["wall"],
                              "cpu": min(r["cpu"], old["cpu"]) if old else r["cpu"]}
        nxr, gmr = best["networkx"], best["graphmine"]
        print(f"{m:7d} {1e3 * nxr['wall']:12.1f} {1e3 * gmr['wall']:13.1f} {nxr['wall'] / gmr['wall']:8.2f}x "
              f"{1e3 * nxr['cpu']:10.1f} {1e3 * gmr['cpu']:10.1f} {nxr['cpu'] / gmr['cpu']:7.2f}x")

    small_sizes = [25, 50, 100, 150, 200, 300, 400, 800, 1600, 3200]
    for warm, title in (("0", "backend loaded, numba not imported"), ("1", "numba and its kernels loaded")):
        small = _nx_run(NX_SMALL, [json.dumps(small_sizes), str(args.repeat), warm], env)
        print(f"\nsmall graphs, warm process ({title}), conversion included (should_run's threshold)")
        print(f"{'edges':>6s} {'networkx ms':>12s} {'graphmine ms':>13s} {'speed-up':>9s}")
        for r in small:
            print(f"{r['edges']:6d} {1e3 * r['networkx']:12.3f} {1e3 * r['graphmine']:13.3f} "
                  f"{r['networkx'] / r['graphmine']:8.2f}x")

# a LocalCluster's workers (processes) counting the triangles of a shipped graph twice: the first
# job pays every worker's first tasks (kernels compiled, or loaded from the cache they share),
# unless the cluster's start had the workers load them (graphmine.distributed.warm_up)
DASK_JOBS = r"""
import json, sys, time
from graphmine.io import datasets
from graphmine.distributed import count_cliques, local_client

path, workers, warm = datasets.resolve(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
t = time.perf_counter()
try:
    client = local_client(workers, warm=warm)
except TypeError:  # a graphmine without the warm-up
    client = local_client(workers)
start = time.perf_counter() - t
times = []
for _ in range(2):
    t = time.perf_counter()
    count = count_cliques(path, 3, client=client, partitions=workers, progress=False)
    times.append(time.perf_counter() - t)
cpu = sum(client.run(lambda: __import__("time").process_time()).values())
client.close(); client.cluster.close()
print(json.dumps({"start": start, "first": times[0], "second": times[1], "count": count, "worker_cpu": cpu}))
"""


def dask_workers(args):
    """A worker's first task: two jobs on a new LocalCluster, with numba's cache empty and
    then warm (the workers share it: the cache's folder is the same on one machine), the
    workers warmed up at the cluster's start or not."""
    root = os.environ.get("GRAPHMINE_ROOT", ROOT)
    cache = tempfile.mkdtemp(prefix="graphmine-dask-cache-")
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""), NUMBA_CACHE_DIR=cache)
    print(f"dask: {args.workers} worker processes, count_cliques({args.dask}, 3) twice on one cluster "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"{'numba cache':12s} {'warm-up':8s} {'cluster start s':>16s} {'first job s':>12s} {'second job s':>13s} "
          f"{'workers cpu s':>14s}")
    for label, warm in (("empty", "0"), ("warm", "0"), ("warm", "1")):
        r = _nx_run(DASK_JOBS, [args.dask, str(args.workers), warm], env)
        print(f"{label:12s} {'yes' if warm == '1' else 'no':8s} {r['start']:16.2f} {r['first']:12.2f} "
              f"{r['second']:13.2f} {r['worker_cpu']:14.2f}")
    shutil.rmtree(cache, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7, help="runs of each command (best taken; default 7)")
    ap.add_argument("--file", default="ca-GrQc", help="graph file or shipped data set (default ca-GrQc)")
    ap.add_argument("-k", type=int, default=3, help="clique size (default 3)")
    ap.add_argument("--cold", action="store_true", help="first runs in a new venv with an empty numba cache")
    ap.add_argument("--probe", type=int, default=0, metavar="N",
                    help="with --cold: list the N costliest compiles of every command")
    ap.add_argument("--all", action="store_true",
                    help="with --cold: every documented command (ALL_RUNS), not only the first five")
    ap.add_argument("--skip", action="append", default=[], metavar="LABEL",
                    help="with --all: leave out a command by its label (" + ", ".join(l for l, _ in ALL_RUNS) + ")")
    ap.add_argument("--only", action="append", default=[], metavar="LABEL",
                    help="with --all: run only these commands, by label (as --skip)")
    ap.add_argument("--scholp", default=None, metavar="DIR",
                    help="with --all: a ScHoLP data set (e.g. email-Enron's folder); default: a generated one")
    ap.add_argument("--keep", default=None, metavar="DIR", help="with --cold: work in DIR and keep it")
    ap.add_argument("--json", default=None, metavar="FILE", help="with --cold: write the figures to FILE")
    ap.add_argument("--nx", default=None, metavar="FILE",
                    help="first nx.triangles calls through the backend on FILE (or a shipped data set)")
    ap.add_argument("--first-only", action="store_true",
                    help="with --nx: only the first table (e.g. for an older checkout through GRAPHMINE_ROOT)")
    ap.add_argument("--calls", type=int, default=0, metavar="N",
                    help="with --nx: N calls in one fresh process (on the same graph) against networkx's")
    ap.add_argument("--copies", action="store_true",
                    help="with --nx --calls: every call on a new copy of the graph (every call converts)")
    ap.add_argument("--string-nodes", action="store_true",
                    help="with --nx: the file's nodes as strings ('a<id>') rather than ints")
    ap.add_argument("--functions", default="triangles", metavar="NAMES",
                    help="with --nx --calls: comma-separated networkx functions (default triangles; "
                         "e.g. triangles,clustering,average_clustering)")
    ap.add_argument("--dask", default=None, metavar="FILE",
                    help="a Dask worker's first task: two jobs on FILE, numba cache empty then warm")
    ap.add_argument("--workers", type=int, default=2, help="with --dask: worker processes (default 2)")
    args = ap.parse_args()
    if args.dask:
        return dask_workers(args)
    if args.cold:
        return cold(args)
    if args.nx:
        return networkx_backend(args)

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
