"""Distributed triangle counting on Dask against single-process graphmine, in one run.

Kronecker graphs (Graph500 parameters, edge factor 16, seed 1; self-loops and duplicate lines kept
as the generator writes them) are written as ``--shards`` text shards plus one whole file. The
single-process figure is ``read_graph`` + ``count_triangles`` on the whole file in a fresh
process (all threads); each distributed figure is a fresh LocalCluster of W single-threaded
worker processes building the row blocks from the shards and counting. Peak memory is the
high-water mark of a process's resident set (VmHWM), for the cluster the largest over its
workers, beside the mark of the same process after a tiny graph went through the same calls
(interpreter, numpy, numba with its kernels loaded, dask: the floor every process pays).

    python benchmarks/distributed.py [--scales 18,20] [--workers 1,2,4] [--shards 8]

Nothing here asserts on time.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# this file's name is the dask package's: keep its folder off the import path
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import numpy as np  # noqa: E402

SINGLE = r"""
import json, sys, time
import graphmine as gm

def hwm():
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM"))

# the floor: a small graph through the same calls first (numba's kernels loaded)
gm.count_triangles(gm.generators.kronecker_graph(8, 16, seed=2))
base = hwm()
t0 = time.perf_counter()
G = gm.read_graph(sys.argv[1])
t1 = time.perf_counter()
count = gm.count_triangles(G)
t2 = time.perf_counter()
print(json.dumps({"read": t1 - t0, "count": t2 - t1, "triangles": count, "n": G.n_nodes, "m": G.n_edges,
                  "base_kb": base, "peak_kb": hwm()}))
"""


def write_shards(edges, directory, shards):
    import pandas as pd

    paths = []
    for s, part in enumerate(np.array_split(edges, shards)):
        path = os.path.join(directory, f"part-{s:03d}.el")
        pd.DataFrame(part).to_csv(path, sep="\t", header=False, index=False)
        paths.append(path)
    whole = os.path.join(directory, "whole.el")
    pd.DataFrame(edges).to_csv(whole, sep="\t", header=False, index=False)
    return paths, whole


def single(whole):
    out = subprocess.run([sys.executable, "-c", SINGLE, whole], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _maxrss():
    # the high-water mark of this address space (ru_maxrss would carry the parent's peak over exec)
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM"))


def distributed_run(pattern, workers, partitions):
    from graphmine.distributed import DistributedGraph, local_client

    client = local_client(workers)
    try:
        # the floor: a small graph through the same tasks first (numba's kernels loaded everywhere)
        from graphmine.io.generators import kronecker_graph

        DistributedGraph(kronecker_graph(8, 16, seed=2), client, partitions=partitions, progress=False).count_triangles()
        base = max(client.run(_maxrss).values())
        t0 = time.perf_counter()
        D = DistributedGraph(pattern, client, partitions=partitions, progress=False)
        t1 = time.perf_counter()
        count = D.count_triangles()
        t2 = time.perf_counter()
        peak = max(client.run(_maxrss).values())
        return {"build": t1 - t0, "count": t2 - t1, "triangles": count, "n": D.n_nodes, "m": D.n_edges,
                "partitions": D.partitions, "base_kb": base, "peak_kb": peak}
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="18,20")
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--edge-factor", type=int, default=16)
    ap.add_argument("--partitions", default="auto",
                    help="row blocks: 'auto' (the number of workers) or an integer")
    args = ap.parse_args()
    from graphmine.io.generators import kronecker_edges

    rows = []
    print(f"# {os.cpu_count()} cores; {args.shards} shards; partitions {args.partitions}", flush=True)
    with tempfile.TemporaryDirectory() as d:
        # compile (or load) every kernel once, outside the timings: a graph above
        # graphmine.core.graph.SERIAL_EDGES, so that the parallel kernels are compiled too
        write_shards(kronecker_edges(13, args.edge_factor, seed=1), d, 2)
        single(os.path.join(d, "whole.el"))
        distributed_run(os.path.join(d, "part-*.el"), 1, 2)
    for scale in [int(s) for s in args.scales.split(",")]:
        with tempfile.TemporaryDirectory() as d:
            edges = kronecker_edges(scale, args.edge_factor, seed=1)
            write_shards(edges, d, args.shards)
            del edges
            ref = single(os.path.join(d, "whole.el"))
            ref_total = ref["read"] + ref["count"]
            rows.append((scale, "single process", "-", ref["read"], ref["count"], ref_total, 1.0,
                         ref["peak_kb"], ref["base_kb"], 1.0, "ref"))
            print(f"# scale {scale}: n={ref['n']:,} m={ref['m']:,} triangles={ref['triangles']:,}", flush=True)
            for w in [int(x) for x in args.workers.split(",")]:
                p = w if args.partitions == "auto" else int(args.partitions)
                r = distributed_run(os.path.join(d, "part-*.el"), w, p)
                total = r["build"] + r["count"]
                rows.append((scale, f"{w} workers", r["partitions"], r["build"], r["count"], total,
                             total / ref_total, r["peak_kb"], r["base_kb"], r["peak_kb"] / ref["peak_kb"],
                             "yes" if r["triangles"] == ref["triangles"] else "NO"))
                print(f"#   {w} workers done in {total:.1f} s", flush=True)
    print()
    print("| scale | run | P | read/build s | count s | total s | total / single | peak MiB | floor MiB "
          "| peak / single peak | above floor / single's | exact |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    single_row = {}
    for r in rows:
        if r[10] == "ref":
            single_row[r[0]] = r
        ref = single_row[r[0]]
        above = (r[7] - r[8]) / max(ref[7] - ref[8], 1)
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.2f} | {r[4]:.2f} | {r[5]:.2f} | {r[6]:.2f} | "
              f"{r[7] / 1024:.0f} | {r[8] / 1024:.0f} | {r[9]:.2f} | {above:.2f} | {r[10]} |")


if __name__ == "__main__":
    main()
