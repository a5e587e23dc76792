"""The same workloads in two checkouts of graphmine, alternating: did a change move the speed?

Each round runs every workload once per checkout, A then B then B then A ..., each in its own
process (``PYTHONPATH`` set to the checkout, its own numba cache beside its sources): the process
loads the graph, calls the function once (compile or cache load), then times ``--repeat`` calls and
keeps the best. The table gives, per workload, the median over the rounds of each checkout's best,
and B / A. Nothing here asserts on time.

    python benchmarks/ab.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 3] [--repeat 5] [--threads 2]

The workloads use only names both layouts offer (``gm.<function>``, ``gm.datasets``,
``gm.generators``, ``graphmine.motifs``).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKLOADS = {
    "triangles, Kronecker 18": ("kron18", "gm.count_triangles(G, threads=T)"),
    "4-cliques, facebook_combined": ("facebook_combined", "gm.count_cliques(G, k=4, threads=T)"),
    "5-cliques, facebook_combined": ("facebook_combined", "gm.count_cliques(G, k=5, threads=T)"),
    "4-cliques, ca-HepTh": ("ca-HepTh", "gm.count_cliques(G, k=4, threads=T)"),
    "5-cliques, ca-HepTh": ("ca-HepTh", "gm.count_cliques(G, k=5, threads=T)"),
    "truss decomposition, facebook_combined": ("facebook_combined", "gm.truss_decomposition(G, threads=T)"),
    "link scores (all four), facebook_combined edges": (
        "facebook_combined", "link_scores(G, PAIRS, 'all', threads=T)"),
    "4-cycles, ca-HepTh": ("ca-HepTh", "gm.count_four_cycles(G, threads=T)"),
    "4-cycles per vertex, facebook_combined": ("facebook_combined", "gm.four_cycles(G, threads=T)"),
    "4-cycles per vertex, Kronecker 18": ("kron18", "gm.four_cycles(G, threads=T)"),
    "clustering, facebook_combined": ("facebook_combined", "gm.clustering(G, threads=T)"),
}

CHILD = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import numpy as np
import graphmine as gm
from graphmine.motifs import link_scores
graph, call, T, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if graph == "kron18":
    G = gm.as_graph(gm.generators.kronecker_graph(18, seed=1))
else:
    G = gm.as_graph(gm.datasets.load(graph))
PAIRS = G.edges()
result = eval(call)
best = float("inf")
for _ in range(repeat):
    t0 = time.perf_counter()
    eval(call)
    best = min(best, time.perf_counter() - t0)
print(json.dumps({"best": best}))
"""


def run(checkout, graph, call, threads, repeat):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(checkout))
    r = subprocess.run([sys.executable, "-c", CHILD, graph, call, str(threads), str(repeat)], capture_output=True,
                       text=True, env=env, cwd=os.path.abspath(checkout))
    if r.returncode != 0:
        raise SystemExit(f"{checkout}: {call} failed:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])["best"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="the first checkout (the baseline)")
    ap.add_argument("b", help="the second checkout")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default=None, help="run the workloads whose name contains this text")
    args = ap.parse_args(argv)
    chosen = {k: v for k, v in WORKLOADS.items() if args.only is None or args.only in k}
    times = {name: {"a": [], "b": []} for name in chosen}
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        for name, (graph, call) in chosen.items():
            for side in order:
                checkout = args.a if side == "a" else args.b
                times[name][side].append(run(checkout, graph, call, args.threads, args.repeat))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"{'workload':50s} {'A (s)':>9s} {'B (s)':>9s} {'B / A':>7s}")
    for name, t in times.items():
        a, b = statistics.median(t["a"]), statistics.median(t["b"])
        print(f"{name:50s} {a:9.4f} {b:9.4f} {b / a:7.2f}")
    print(f"A = {args.a}, B = {args.b}; median over {args.rounds} alternating rounds of the best of "
          f"{args.repeat} calls, {args.threads} threads, each in its own process after one warm-up call")


if __name__ == "__main__":
    main()
