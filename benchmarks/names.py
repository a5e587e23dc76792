"""Reading vertex names (``ids='str'``) against integer ids, and against networkx.

Writes two edge lists of the same random graph into a temporary folder (removed at the end):
integer ids, and the same ids written as names (``user_<hex>``); times ``graphmine.read_graph``
on both (best of --repeat, after one untimed read that loads the compiled kernels) and
``networkx.read_edgelist`` once on the names.

    python benchmarks/names.py [--edges 1000000] [--vertices 200000] [--threads 1] [--repeat 5]

Nothing here asserts on time.
"""

import argparse
import os
import shutil
import tempfile
import time

import numpy as np

import graphmine as gm


def best_of(repeat, fn):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edges", type=int, default=1_000_000)
    ap.add_argument("--vertices", type=int, default=200_000)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-networkx", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    e = rng.integers(0, args.vertices, size=(args.edges, 2))
    folder = tempfile.mkdtemp(prefix="graphmine-names-")
    try:
        ints = os.path.join(folder, "ints.el")
        names = os.path.join(folder, "names.el")
        np.savetxt(ints, e, fmt="%d", delimiter=" ")
        words = np.array([f"user_{i:x}" for i in range(args.vertices)], dtype=object)
        with open(names, "w") as fh:
            fh.write("".join(f"{a} {b}\n" for a, b in zip(words[e[:, 0]], words[e[:, 1]])))
        rows = []
        for label, path, ids in (("graphmine, ids='int'", ints, "int"), ("graphmine, ids='str'", names, "str")):
            s = best_of(args.repeat, lambda: gm.read_graph(path, ids=ids, threads=args.threads))
            rows.append((label, os.path.getsize(path), s))
        if not args.no_networkx:
            import networkx as nx

            t0 = time.perf_counter()
            nx.read_edgelist(names)
            rows.append(("networkx.read_edgelist", os.path.getsize(names), time.perf_counter() - t0))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{args.edges:,} edges, {args.vertices:,} vertices, threads={args.threads or 'all'}")
    base = rows[0][2]
    for label, size, s in rows:
        print(f"{label:<24} {size / 1e6:7.1f} MB  {s:8.3f} s  {s / base:6.1f}x")


if __name__ == "__main__":
    main()
