"""The graphlet census against ORCA and igraph: 4-vertex orbit counts per vertex (and per edge).

ORCA (Hočevar and Demšar, https://github.com/thocevar/orca) is not shipped: build it outside this
repository with one line (``g++ -O2 -std=c++11 -o orca orca.cpp``) and pass the program's path.
For each graph the script writes ORCA's input (``n m`` then the edges), runs ``orca node 4 IN
OUT`` (and ``orca edge 4``) and reads the seconds ORCA reports for its own count (``total:``:
``clock()``, the processor time of the count, the input read and the output written excluded;
printed to 0.01 s, so the mean of ``--orca-repeat`` runs) and the processor time of its whole
process. graphmine's ``orbit_counts`` is timed in this process on a freshly built graph (its
relabelling included; numba's kernels compiled beforehand) at each thread count: wall-clock
seconds, best of ``--repeat`` runs (more while under ``--min-seconds`` have been spent), and at
one thread also its processor seconds (``time.process_time``, the measure of ORCA's own
seconds, which a busy machine inflates less). The ratios are graphmine's seconds over ORCA's
own; the counts are checked against ORCA's file. igraph's ``motifs_randesu`` (sizes 3 and 4,
global counts) is timed against ``graphmine.graphlet_counts`` on the graphs up to
``--igraph-max-edges`` edges, its counts checked too. Last, the 3-path sampling estimate's error
against the exact counts.

    python benchmarks/graphlets.py --orca /tmp/orca/orca [--graphs ca-GrQc,ca-HepTh,facebook_combined,kron16]
        [--threads 1,2] [--repeat 5] [--kinds node,edge] [--igraph-max-edges 100000] [--samples 1000000]

``--memory GRAPHS`` instead measures, for each graph and each size of ``--memory-sizes``, the
census in a fresh process: the wall seconds of ``orbit_counts`` (node orbits) and of
``graphlet_counts`` at the first of ``--threads``, and the peak resident memory (``ru_maxrss``)
after loading the graph and after each count (the warm-up's peak reset through
``/proc/self/clear_refs`` where Linux allows it), the growth set against the 8 x orbits x n bytes of
the int64 result. ``--coverage RUNS`` measures the 3-path estimate's relative errors and the share
of its 95% intervals covering the exact counts over seeded runs (seeds 1..RUNS, ``--samples``
paths each) on the graphs of ``--graphs``.

``erN`` (``--memory`` only) names G(n, m) with N vertices and 3N edges, seed 1. ``kronS`` names graphmine's seeded Kronecker graph of scale S (edge factor 16, seed 1; kron16 has
908,860 edges). Nothing here asserts on time.
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import graphmine as gm  # noqa: E402


def load(name):
    if name.startswith("kron"):
        from graphmine.io.generators import kronecker_graph

        return kronecker_graph(int(name[4:]), 16, seed=1)
    return gm.datasets.load(name)


def best(fn, repeat, min_seconds=0.0):
    """(least wall seconds, least processor seconds, result) of at least ``repeat`` runs, more
    while under ``min_seconds`` have been spent (at most 100)."""
    walls, cpus = [], []
    start = time.perf_counter()
    while len(walls) < repeat or (time.perf_counter() - start < min_seconds and len(walls) < 100):
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus), out


def run_orca(orca, kind, path, out):
    """(ORCA's own count seconds, its process's processor seconds, counts) of one ORCA run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([orca, kind, "4", path, out], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode:
        raise SystemExit(f"orca failed ({r.returncode}): {r.stderr[-2000:]}")
    own = float(re.search(r"total:\s*([\d.]+)", r.stdout).group(1))
    return own, cpu, np.loadtxt(out, dtype=np.int64, ndmin=2)


# one fresh process per measurement: its peak RSS is its own (kernels loaded before the graph,
# so that the growth over the load is the count's)
MEMORY_PROBE = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
import graphmine as gm
name, size, threads = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
from graphmine.io.generators import erdos_renyi_graph
# both kernels loaded: the serial one (small graphs) and the parallel one (50,000 edges and more)
for H in (gm.as_graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)]), erdos_renyi_graph(20000, m=60000, seed=1)):
    gm.orbit_counts(H, size, threads=threads)
    gm.graphlet_counts(H, size, threads=threads)
del H
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
try:  # the warm-up's peak forgotten (Linux 4.0 and later): the peaks below are the graph's and the count's
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
except OSError:
    pass
base = rss()
t0 = time.perf_counter()
if name.startswith("kron"):
    from graphmine.io.generators import kronecker_graph
    G = kronecker_graph(int(name[4:]), 16, seed=1)
elif name.startswith("er"):  # erN: G(n, m) with N vertices and 3N edges, seed 1
    G = erdos_renyi_graph(int(name[2:]), m=3 * int(name[2:]), seed=1)
else:
    G = gm.datasets.load(name)
load_s, loaded = time.perf_counter() - t0, rss()
t0 = time.perf_counter()
orbits = gm.orbit_counts(G, size, threads=threads)
orbit_s, after_orbits = time.perf_counter() - t0, rss()
del orbits
t0 = time.perf_counter()
gm.graphlet_counts(G, size, threads=threads)
json.dump(dict(n=G.n_nodes, m=G.n_edges, load_s=load_s, orbit_s=orbit_s, global_s=time.perf_counter() - t0,
               base=base, loaded=loaded, after_orbits=after_orbits, after_global=rss()), sys.stdout)
"""


def memory(args):
    threads = int(args.threads.split(",")[0])
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, {threads} thread(s); one fresh process "
          "per row; RSS in MB (peak: after the kernels load, after the graph, after orbit_counts, after "
          "graphlet_counts); 'orbit growth' = peak after orbit_counts - peak after the graph; result = 8 x orbits x n")
    print(f"{'graph':<18} {'size':>4} {'n':>9} {'m':>10} {'load s':>7} {'orbits s':>9} {'global s':>9} {'RSS base':>8} "
          f"{'graph':>8} {'orbits':>8} {'global':>8} {'growth':>8} {'result':>8} {'ratio':>6}")
    for name in args.memory.split(","):
        for size in (int(s) for s in args.memory_sizes.split(",")):
            r = subprocess.run([sys.executable, "-c", MEMORY_PROBE, ROOT, name, str(size), str(threads)],
                               capture_output=True, text=True)
            if r.returncode:
                raise SystemExit(f"{name} size {size} failed: {r.stderr[-2000:]}")
            d = json.loads(r.stdout)
            orbits = 15 if size == 4 else 73 if size == 5 else 4
            result = 8 * orbits * d["n"]
            growth = d["after_orbits"] - d["loaded"]
            mb = 1 << 20
            print(f"{name:<18} {size:>4} {d['n']:>9} {d['m']:>10} {d['load_s']:>7.2f} {d['orbit_s']:>9.2f} "
                  f"{d['global_s']:>9.2f} {d['base'] / mb:>8.1f} {d['loaded'] / mb:>8.1f} {d['after_orbits'] / mb:>8.1f} "
                  f"{d['after_global'] / mb:>8.1f} {growth / mb:>8.1f} {result / mb:>8.1f} {growth / result:>6.2f}",
                  flush=True)
    print(f"# load average {os.getloadavg()[0]:.2f}")


def coverage(args, graphs):
    print(f"# 3-path sampling: {args.coverage} runs (seeds 1..{args.coverage}) of {args.samples:,} paths; per 4-vertex "
          "graphlet the exact count, the median and largest |error| / exact, and the share of the 95% intervals "
          "holding the exact count")
    print(f"{'graph':<18} {'graphlet':>9} {'exact':>12} {'median rel':>10} {'max rel':>9} {'coverage':>8}")
    for name, G in graphs.items():
        exact = gm.graphlet_counts(G)
        runs = [gm.graphlet_counts(G, method="sample", samples=args.samples, seed=s) for s in range(1, args.coverage + 1)]
        est = np.array([r.estimate for r in runs])
        lo, hi = np.array([r.ci_low for r in runs]), np.array([r.ci_high for r in runs])
        for g in range(3, 9):
            rel = np.abs(est[:, g] - exact[g]) / max(exact[g], 1)
            cover = np.mean((lo[:, g] <= exact[g]) & (exact[g] <= hi[:, g]))
            print(f"{name:<18} {gm.graphlets.GRAPHLET_NAMES[g]:>9} {exact[g]:>12} {np.median(rel):>10.2e} "
                  f"{rel.max():>9.2e} {cover:>8.2f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--orca", default=None, help="ORCA's built program (without it: graphmine and igraph only)")
    ap.add_argument("--graphs", default="ca-GrQc,ca-HepTh,facebook_combined,kron16")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--kinds", default="node,edge")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--min-seconds", type=float, default=2.0,
                    help="graphmine: repeat runs until this many seconds are spent (at most 100 runs)")
    ap.add_argument("--orca-repeat", type=int, default=3,
                    help="ORCA runs per graph on graphs under --orca-max-repeat edges (its own seconds averaged)")
    ap.add_argument("--orca-max-repeat", type=int, default=200_000, help="larger graphs: one ORCA run")
    ap.add_argument("--igraph-max-edges", type=int, default=100_000,
                    help="time igraph's motifs_randesu on graphs up to this many edges (facebook_combined's "
                         "size-4 census takes igraph minutes)")
    ap.add_argument("--samples", type=int, default=1_000_000, help="3-paths of the sampling table (0: none)")
    ap.add_argument("--memory", default=None, metavar="GRAPHS",
                    help="instead: wall seconds and peak RSS of the census of these graphs, one fresh process each")
    ap.add_argument("--memory-sizes", default="4", help="--memory: graphlet sizes (4, 5)")
    ap.add_argument("--coverage", type=int, default=0, metavar="RUNS",
                    help="instead: the 3-path estimate's errors and 95%% interval coverage over RUNS seeded runs")
    args = ap.parse_args()
    if args.memory:
        return memory(args)
    if args.coverage:
        return coverage(args, {name: load(name) for name in args.graphs.split(",")})
    orca = os.path.abspath(os.path.expanduser(args.orca)) if args.orca else None
    if orca and not (os.path.isfile(orca) and os.access(orca, os.X_OK)):
        raise SystemExit(f"benchmarks/graphlets.py: --orca {orca}: no executable file there")
    threads = [int(t) for t in args.threads.split(",")]
    kinds = args.kinds.split(",")
    work = tempfile.mkdtemp(prefix="graphmine-graphlets-")
    gm.orbit_counts(gm.as_graph([(0, 1), (1, 2), (2, 0), (2, 3)]))  # compile (or load) the kernels
    graphs = {name: load(name) for name in args.graphs.split(",")}
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; seconds: graphmine the least of "
          f"{args.repeat} or more runs (wall, and processor at 1 thread), ORCA the mean of its own count's seconds "
          f"over {args.orca_repeat} runs (1 above {args.orca_max_repeat:,} edges) and its process's least processor "
          "seconds; ratios: graphmine / ORCA's own")
    head = f"{'graph':<18} {'n':>8} {'m':>9} {'kind':>4} " + " ".join(f"{f'gm {t}t':>8}" for t in threads)
    head += f" {'1t cpu':>8}" if 1 in threads else ""
    if orca:
        head += f" {'ORCA':>8} {'ORCA run':>8} " + " ".join(f"{f'ratio {t}t':>8}" for t in threads)
        head += f" {'cpu 1t':>8}" if 1 in threads else ""
        head += "  same"
    print(head)
    for name, G in graphs.items():
        path = os.path.join(work, f"{name}.in")
        with open(path, "w") as f:
            f.write(f"{G.n_nodes} {G.n_edges}\n")
            np.savetxt(f, G.edges(), fmt="%d")  # ORCA's edge rows then follow G.edges(), as graphmine's
        for kind in kinds:
            row = f"{name:<18} {G.n_nodes:>8} {G.n_edges:>9} {kind:>4} "
            ours = {}
            for t in threads:
                # a fresh graph each run: the degree-ordered relabelling is timed too
                ours[t] = best(lambda: gm.orbit_counts(gm.Graph.from_csr(G.indptr, G.indices), kind=kind, threads=t),
                               args.repeat, args.min_seconds)
            row += " ".join(f"{ours[t][0]:>8.4f}" for t in threads)
            row += f" {ours[1][1]:>8.4f}" if 1 in threads else ""
            if orca:
                runs = [run_orca(orca, kind, path, os.path.join(work, f"{name}.{kind}.out"))
                        for _ in range(args.orca_repeat if G.n_edges <= args.orca_max_repeat else 1)]
                # ORCA prints its seconds to 0.01: the mean of its runs, not the least
                own, cpu = float(np.mean([r[0] for r in runs])), min(r[1] for r in runs)
                same = all((ours[t][2] == runs[0][2]).all() for t in threads)
                row += f" {own:>8.3f} {cpu:>8.3f} " + " ".join(f"{ours[t][0] / own:>8.3f}" for t in threads)
                row += f" {ours[1][1] / own:>8.3f}" if 1 in threads else ""
                row += f"  {'yes' if same else 'NO'}"
            print(row, flush=True)
    print(f"# load average {os.getloadavg()[0]:.2f}")

    try:
        import igraph
    except ImportError:
        igraph = None
        print("\n# igraph not installed (pip install python-igraph): its table is left out")
    if igraph is not None:
        print(f"\n{'graph':<18} {'size':>4} {'graphmine':>9} {'igraph':>9} {'ratio':>7}  same")
        for name, G in graphs.items():
            if G.n_edges > args.igraph_max_edges:
                continue
            g = igraph.Graph(n=G.n_nodes, edges=G.edges().tolist())
            for size in (3, 4):
                t_gm, _, ours = best(lambda: gm.graphlet_counts(gm.Graph.from_csr(G.indptr, G.indices), size),
                                     args.repeat, args.min_seconds)
                t_ig, _, theirs = best(lambda: g.motifs_randesu(size=size), 1)
                # igraph's classes of connected graphs by their sorted degrees, as graphmine's numbering
                key = {(2, (1, 1, 2)): 1, (3, (2, 2, 2)): 2, (3, (1, 1, 2, 2)): 3, (3, (1, 1, 1, 3)): 4,
                       (4, (2, 2, 2, 2)): 5, (4, (1, 2, 2, 3)): 6, (5, (2, 2, 3, 3)): 7, (6, (3, 3, 3, 3)): 8}
                same = True
                for cls, c in enumerate(theirs):
                    if not np.isnan(c):
                        h = igraph.Graph.Isoclass(size, cls)
                        same &= ours[key[(h.ecount(), tuple(sorted(h.degree())))]] == c
                print(f"{name:<18} {size:>4} {t_gm:>9.3f} {t_ig:>9.3f} {t_gm / t_ig:>7.4f}  {'yes' if same else 'NO'}",
                      flush=True)

    if args.samples:
        print(f"\n# 3-path sampling, {args.samples:,} paths, seed 1: time, and the largest |error| / exact and "
              "|error| / stderr over the 4-vertex graphlets")
        print(f"{'graph':<18} {'sample s':>8} {'exact s':>8} {'max rel err':>11} {'max z':>6}")
        for name, G in graphs.items():
            t_ex, _, exact = best(lambda: gm.graphlet_counts(gm.Graph.from_csr(G.indptr, G.indices)), 1)
            t_s, _, est = best(lambda: gm.graphlet_counts(G, method="sample", samples=args.samples, seed=1), 1)
            err = np.abs(est.estimate - exact)[3:]
            rel = (err / np.maximum(exact[3:], 1)).max()
            z = (err / np.where(est.stderr[3:] > 0, est.stderr[3:], np.inf)).max()
            print(f"{name:<18} {t_s:>8.3f} {t_ex:>8.3f} {rel:>11.2e} {z:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
