"""The Dask counts in two checkouts of graphmine, alternating: did moving the block tasks into the
family folders move their speed?

Each round runs the workloads once per checkout (A B, then B A, ...), each checkout in its own
process (``PYTHONPATH`` set to it, its own numba cache): a seeded Kronecker graph on a threaded
LocalCluster of 2 workers in ``--partitions`` row blocks, every count called once (compile or
cache load), then the best of ``--repeat`` calls. The table gives the median over the rounds of each
checkout's best and B / A. Nothing here asserts on time.

    python benchmarks/ab_dask.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 3] [--repeat 5] [--scale 15]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
import graphmine as gm
from graphmine.distributed import DistributedGraph, average_clustering, local_client, triangles

scale, partitions, repeat = map(int, sys.argv[1:4])
G = gm.generators.kronecker_graph(scale, 16, seed=1)
client = local_client(2, processes=False)
D = DistributedGraph(G, client, partitions=partitions)
jobs = {"triangles": lambda: D.count_triangles(), "4-cliques": lambda: D.count_cliques(4),
        "per-vertex triangles": lambda: triangles(D, client=client)[1].compute(),
        "average clustering": lambda: average_clustering(D, client=client)}
out = {}
for name, run in jobs.items():
    run()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    out[name] = best
print(json.dumps(out))
client.close()
client.cluster.close()
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", help="checkout A (the folder holding its graphmine/)")
    ap.add_argument("new", help="checkout B")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scale", type=int, default=15, help="Kronecker scale (2^scale vertices, edge factor 16)")
    ap.add_argument("--partitions", type=int, default=4)
    args = ap.parse_args()
    trees = {"A": os.path.abspath(args.old), "B": os.path.abspath(args.new)}
    caches = {k: tempfile.mkdtemp(prefix=f"graphmine-ab-{k}-") for k in trees}
    runs = {"A": [], "B": []}
    for r in range(args.rounds):
        for k in ("AB" if r % 2 == 0 else "BA"):
            env = dict(os.environ, PYTHONPATH=trees[k], NUMBA_CACHE_DIR=caches[k])
            res = subprocess.run([sys.executable, "-c", CHILD, str(args.scale), str(args.partitions), str(args.repeat)],
                                 env=env, capture_output=True, text=True, cwd=tempfile.gettempdir())
            if res.returncode:
                sys.exit(f"checkout {k} failed:\n{res.stderr[-2000:]}")
            runs[k].append(json.loads(res.stdout.strip().splitlines()[-1]))
    print(f"Kronecker {args.scale}, {args.partitions} blocks, 2 threaded workers; median of {args.rounds} rounds "
          f"of the best of {args.repeat}")
    for name in runs["A"][0]:
        a = statistics.median(x[name] for x in runs["A"])
        b = statistics.median(x[name] for x in runs["B"])
        print(f"{name:22s} A {a * 1000:8.1f} ms   B {b * 1000:8.1f} ms   B/A {b / a:5.2f}")


if __name__ == "__main__":
    main()
