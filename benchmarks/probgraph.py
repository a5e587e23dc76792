"""Accuracy and speed of the sketch-based (ProbGraph) methods against graphmine's exact kernels.

For every graph (the shipped ones and dense Kronecker graphs), task (triangles, 4-cliques,
average clustering, Jarvis-Patrick), sketch and budget: seconds, speedup over the exact kernel
(both timed from a fresh Graph, so orientation and sketch construction are included) and
relative accuracy 1 - |approx - exact| / exact (Jarvis-Patrick: the fraction of edges whose
keep/drop decision agrees with the exact one). Every sketch is run with ``--seeds`` seeds
(independent sketches): the table gives the mean and the worst accuracy over them, and the
best time (best over seeds and repeats; the exact time is the best of ``--repeats``), since
one lucky seed says little. Prints a table, writes a CSV and a plot of accuracy against speedup
to benchmarks/out/. Times are measured back to back on one (possibly shared) machine; nothing
here asserts on them.

    python benchmarks/probgraph.py                 # the default grid
    python benchmarks/probgraph.py --quick         # small graphs only
    python benchmarks/probgraph.py --no-shipped --kronecker 16/64 --tasks triangles triangles-edges \
        --sketches bloom onehash --budgets 0.25 --seeds 3 --repeats 3 --threads 2
                                                   # the triangle goal on a dense graph, 2 threads
"""

import argparse
import csv
import os
import sys
import time
import warnings

import numpy as np

import graphmine as gm
from graphmine import probgraph as pg
from graphmine.core.graph import Graph

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
SKETCHES = ("bloom", "khash", "onehash", "kmv")


def fresh(G):
    """A copy without cached orientations, so each timed call pays for its own."""
    return Graph.from_csr(G.indptr, G.indices)


def times_of(fn, G, repeats):
    """(every time, the last value) of ``repeats`` calls, each on a fresh Graph."""
    times, value = [], None
    for _ in range(repeats):
        H = fresh(G)
        t0 = time.perf_counter()
        value = fn(H)
        times.append(time.perf_counter() - t0)
    return times, value


class EdgeSum:
    """The triangle count from full-neighbourhood sketches, (1/3) sum over edges uv of the
    estimated |N(u) ∩ N(v)| (no orientation), with its bound."""

    def __init__(self, per_vertex):
        self.estimate = float(per_vertex.estimate.sum() / 3)
        self.stderr = float(per_vertex.stderr.sum() / 3)
        self.saturated = per_vertex.saturated
        self.sketch_bytes = per_vertex.sketch_bytes


TASKS = ["triangles", "triangles-edges", "4-cliques", "clustering", "jarvis-patrick"]


def tasks(jp_tau, threads=None):
    th = threads

    def jp_exact(H):
        return pg.jarvis_patrick(H, jp_tau, measure="jaccard", threads=th).kept

    return {
        "triangles": (lambda H: gm.count_triangles(H, threads=th),
                      lambda H, m, b, s: pg.count_triangles(H, method=m, budget=b, seed=s, threads=th)),
        # the alternative without orientation: full-neighbourhood sketches summed over edges
        "triangles-edges": (lambda H: gm.count_triangles(H, threads=th),
                            lambda H, m, b, s: EdgeSum(pg.triangles(H, method=m, budget=b, seed=s, threads=th))),
        "4-cliques": (lambda H: gm.count_cliques(H, 4, threads=th),
                      lambda H, m, b, s: pg.count_cliques(H, 4, method=m, budget=b, seed=s, threads=th)),
        "clustering": (lambda H: gm.average_clustering(H, threads=th),
                       lambda H, m, b, s: pg.average_clustering(H, method=m, budget=b, seed=s, threads=th)),
        "jarvis-patrick": (jp_exact,
                           lambda H, m, b, s: pg.jarvis_patrick(H, jp_tau, measure="jaccard", method=m,
                                                                budget=b, seed=s, threads=th).kept),
    }


def accuracy(task, approx, exact):
    if task == "jarvis-patrick":
        return float(np.mean(approx == exact)) if exact.size else 1.0
    a = float(approx.estimate)
    return 1.0 - abs(a - exact) / exact if exact else float(a == 0)


def graphs(args):
    out = []
    if not args.no_shipped:
        for name in args.datasets or gm.datasets.names():
            out.append((name, lambda name=name: gm.datasets.load(name)))
    for spec in args.kronecker:
        scale, ef = (int(x) for x in spec.split("/"))
        out.append((f"kron{scale}/{ef}", lambda s=scale, e=ef: gm.generators.kronecker_graph(s, e, seed=1)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="shipped graphs and one small Kronecker graph")
    p.add_argument("--kronecker", nargs="*", default=["14/32", "14/64", "14/128", "16/64"],
                   help="Kronecker graphs as SCALE/EDGEFACTOR")
    p.add_argument("--no-shipped", action="store_true")
    p.add_argument("--datasets", nargs="*", default=None, help="shipped graphs to run (default: all)")
    p.add_argument("--budgets", type=float, nargs="*", default=[0.05, 0.1, 0.25, 0.33])
    p.add_argument("--sketches", nargs="*", default=list(SKETCHES))
    p.add_argument("--tasks", nargs="*", default=["triangles", "4-cliques", "clustering", "jarvis-patrick"],
                   choices=TASKS)
    p.add_argument("--threads", type=int, default=None, help="threads of every call (default: numba's setting)")
    p.add_argument("--max-exact-seconds", type=float, default=120.0,
                   help="skip a task on a graph whose exact run took longer than this")
    p.add_argument("--repeats", type=int, default=2, help="timed repetitions (best is kept)")
    p.add_argument("--seed", type=int, default=1, help="first seed")
    p.add_argument("--seeds", type=int, default=1, help="seeds per sketch and budget (mean and worst accuracy)")
    p.add_argument("--jp-tau", type=float, default=0.1)
    args = p.parse_args(argv)
    if args.quick:
        args.kronecker = ["12/64"]
        args.budgets = [0.05, 0.25]
    warnings.simplefilter("ignore", gm.SketchSaturationWarning)
    os.makedirs(OUT, exist_ok=True)
    # compile every kernel once before timing anything
    small = gm.generators.kronecker_graph(6, 8, seed=0)
    for task, (ex, ap) in tasks(args.jp_tau, args.threads).items():
        if task not in args.tasks:
            continue
        ex(small)
        for m in args.sketches:
            ap(small, m, 0.25, 0)
    rows = []
    for name, load in graphs(args):
        G = load()
        deg = G.degree
        avg = float(deg[deg > 0].mean()) if (deg > 0).any() else 0.0
        print(f"[probgraph] {name}: n={G.n_nodes} m={G.n_edges} avg degree {avg:.1f}", file=sys.stderr)
        for task, (ex, ap) in tasks(args.jp_tau, args.threads).items():
            if task not in args.tasks:
                continue
            ts_ex, v_ex = times_of(ex, G, args.repeats)
            t_ex = min(ts_ex)
            if t_ex > args.max_exact_seconds:
                print(f"[probgraph]   {task}: exact {t_ex:.1f} s > limit, skipped", file=sys.stderr)
            for m in args.sketches:
                for b in args.budgets:
                    reps = 1 if t_ex > args.max_exact_seconds else args.repeats
                    ts_ap, accs, est = [], [], []
                    for seed in range(args.seed, args.seed + args.seeds):
                        t, v_ap = times_of(lambda H: ap(H, m, b, seed), G, reps)
                        ts_ap += t
                        accs.append(accuracy(task, v_ap, v_ex))
                        est.append(v_ap)
                    t_ap = min(ts_ap)
                    extra = {}
                    if hasattr(v_ap, "stderr"):
                        extra = {"estimate": float(np.mean([e.estimate for e in est])),
                                 "stderr": float(np.mean([e.stderr for e in est])),
                                 "saturated": v_ap.saturated, "sketch_bytes": v_ap.sketch_bytes,
                                 "estimated": getattr(v_ap, "estimated", "")}
                    rows.append(dict(graph=name, n=G.n_nodes, m=G.n_edges, avg_degree=round(avg, 1), task=task,
                                     sketch=m, budget=b, exact_s=t_ex, exact_max_s=max(ts_ex), approx_s=t_ap,
                                     approx_max_s=max(ts_ap), speedup=t_ex / t_ap, threads=args.threads or "",
                                     accuracy=float(np.mean(accs)), worst=float(np.min(accs)),
                                     seeds=args.seeds, **extra))
                    r = rows[-1]
                    print(f"[probgraph]   {task:15s} {m:8s} s={b:<5g} {t_ap:8.3f} s  x{r['speedup']:6.2f}  "
                          f"acc mean {r['accuracy']:.4f} worst {r['worst']:.4f}", file=sys.stderr)
                if t_ex > args.max_exact_seconds:
                    break
    keys = ["graph", "n", "m", "avg_degree", "task", "sketch", "budget", "threads", "exact_s", "exact_max_s",
            "approx_s", "approx_max_s", "speedup",
            "accuracy", "worst", "seeds", "estimate", "stderr", "estimated", "saturated", "sketch_bytes"]
    path = os.path.join(OUT, "probgraph.csv")
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, keys)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in keys})
    # times: best of the repeats (and seeds), then the worst, which shows how shared the machine was
    print(f"{'graph':12s} {'avg deg':>7s} {'task':15s} {'sketch':8s} {'budget':>6s} {'exact s (max)':>15s} "
          f"{'approx s (max)':>15s} {'speedup':>8s} {'acc mean':>8s} {'worst':>8s} {'seeds':>5s}")
    for r in rows:
        print(f"{r['graph']:12s} {r['avg_degree']:7.1f} {r['task']:15s} {r['sketch']:8s} {r['budget']:6.2f} "
              f"{r['exact_s']:6.3f} ({r['exact_max_s']:6.3f}) {r['approx_s']:6.3f} ({r['approx_max_s']:6.3f}) "
              f"{r['speedup']:8.2f} {r['accuracy']:8.4f} {r['worst']:8.4f} {r['seeds']:5d}")
    plot(rows, os.path.join(OUT, "probgraph.png"))
    print(f"wrote {path} and {os.path.join(OUT, 'probgraph.png')}")


def plot(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    task_names = sorted({r["task"] for r in rows}, key=TASKS.index)
    fig, axes = plt.subplots(1, len(task_names), figsize=(4.2 * len(task_names), 3.8), squeeze=False)
    colours = dict(zip(SKETCHES, ["C0", "C1", "C2", "C3"]))
    for ax, task in zip(axes[0], task_names):
        for m in SKETCHES:
            sel = [r for r in rows if r["task"] == task and r["sketch"] == m]
            if not sel:
                continue
            dense = [r["avg_degree"] >= 64 for r in sel]
            x = [r["speedup"] for r in sel]
            y = [max(r["accuracy"], 0.0) for r in sel]
            ax.scatter([a for a, d in zip(x, dense) if d], [b for b, d in zip(y, dense) if d], c=colours[m],
                       marker="o", s=22, label=f"{m} (avg deg >= 64)")
            ax.scatter([a for a, d in zip(x, dense) if not d], [b for b, d in zip(y, dense) if not d],
                       facecolors="none", edgecolors=colours[m], marker="o", s=22, label=f"{m} (sparser)")
        ax.axvline(1.0, color="grey", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("speedup over exact (x)")
        ax.set_title(task)
    axes[0][0].set_ylabel("accuracy 1 - |approx - exact| / exact")
    axes[0][-1].legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=130)


if __name__ == "__main__":
    main()
