"""graphmine's triangle kernel side by side with the GroupTC authors' harness, same graph, same GPU.

The harness (the public GitHub repository Nanqipro/GroupTC-HS-BS) is built outside this
repository; pass the path of its ``main`` binary with ``--harness``. For every Kronecker scale this
writes ``kronecker_graph(scale, 16, seed=1)`` in the harness's input format (a directory holding
``begin.bin``: uint64 row offsets, ``source.bin`` and ``adjacent.bin``: uint32 endpoints, each
undirected edge once with u < v), a config enabling the chosen approaches, runs the harness and
reads its "avg kernel use" and "Triangle count" lines; then times graphmine's kernels on the same
graph (device data cached, CUDA events around the kernel sequence, best of ``--repeat``).

    python benchmarks/gpu_grouptc.py --harness /path/to/GroupTC-HS-BS/bin/main --scales 20,22 \
        --approaches GroupTC-OPT,GroupTC,TRUST,H-INDEX --json rows.json

Needs a CUDA GPU and numba-cuda. Nothing here asserts on time.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

import graphmine as gm
from graphmine.io.generators import kronecker_graph

APPROACHES = ("Bisson", "Fox", "Green", "GroupTC", "GroupTC-OPT", "GroupTC-Cuckoo", "GroupTC-HASH",
              "GroupTC-HASH-V2", "H-INDEX", "Hu", "Polak", "TC-Check", "TRUST", "TriCore")


def write_harness_graph(G, folder):
    """The harness's binary CSR of G's edges u < v (see the module)."""
    os.makedirs(folder, exist_ok=True)
    indptr, indices = G.indptr, G.indices
    n = G.n_nodes
    src = np.repeat(np.arange(n, dtype=np.uint32), np.diff(indptr))
    keep = indices > src
    src, adj = src[keep], indices[keep].astype(np.uint32)
    begin = np.zeros(n + 1, np.uint64)
    np.cumsum(np.bincount(src, minlength=n), out=begin[1:])
    begin.tofile(os.path.join(folder, "begin.bin"))
    src.tofile(os.path.join(folder, "source.bin"))
    adj.tofile(os.path.join(folder, "adjacent.bin"))
    return int(adj.shape[0])


def write_config(path, data_dir, log_dir, datasets, approaches, iterations):
    lines = ["[comm]", f"dataset_file_path = {data_dir}/", f"log_file_path = {log_dir}/",
             f"datasets_1 = {','.join(datasets)}", "datasets_2 = ", "multi_device = false",
             "preprocessing_iterations = 1", "device = 0", "log_level = info"]
    lines += [f"{a} = {'true' if a in approaches else 'false'}" for a in APPROACHES]
    for a in APPROACHES:
        lines += [f"[{a}]", f"iteration_count = {iterations}", "device = 0"]
        if a == "H-INDEX":
            lines += ["grid_size = 1024", "block_size = 1024", "buckets = 32", "select_thread_group = 0",
                      "select_partition = 0"]
        if a == "Green":
            lines += ["thread_count = 512", "threads_per_intsctn = 32"]
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def parse_harness(out):
    """{approach: (count, avg kernel seconds)} from the harness's log lines, in order."""
    res = {}
    current = None
    for line in out.splitlines():
        m = re.search(r"Run algorithm (\S+)", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"avg kernel use ([0-9.]+) s", line)
        if m and current:
            res.setdefault(current, {})["seconds"] = float(m.group(1))
        m = re.search(r"Triangle count (\d+)", line)
        if m and current:
            res.setdefault(current, {})["count"] = int(m.group(1))
    return res


def graphmine_kernel(G, repeat, threads, **launch):
    from graphmine.cliques import _cuda_launch as _exact

    best, got = None, None
    for _ in range(repeat):
        tm = {}
        with _exact.quiet():
            got = _exact.count_triangles(G, "degree", threads, timings=tm, **launch)
        best = tm["kernel"] if best is None else min(best, tm["kernel"])
    return got, best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--harness", required=True, help="path of the GroupTC-HS-BS harness's built main binary")
    ap.add_argument("--scales", default="20,22")
    ap.add_argument("--approaches", default="GroupTC-OPT,GroupTC")
    ap.add_argument("--iterations", type=int, default=10, help="the harness's iteration_count")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--hub-min", default="", help="extra graphmine rows with these hub thresholds (comma list)")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if not os.path.isfile(args.harness):
        raise SystemExit(f"benchmarks/gpu_grouptc.py: no harness binary at {args.harness!r} (--harness)")
    import graphmine.cuda as gc

    if not gc.is_available():
        raise SystemExit("benchmarks/gpu_grouptc.py: no CUDA device visible")
    approaches = [a for a in args.approaches.split(",") if a]
    bad = [a for a in approaches if a not in APPROACHES]
    if bad:
        raise SystemExit(f"benchmarks/gpu_grouptc.py: unknown approach {bad[0]!r} (one of {', '.join(APPROACHES)})")
    rows = []
    W = kronecker_graph(10, 16, seed=1)
    gc.count_triangles(W)  # kernels loaded
    with tempfile.TemporaryDirectory() as work:
        print("| graph | edges | triangles | graphmine kernel ms | G edges/s | "
              + " | ".join(f"{a} ms" for a in approaches) + " | graphmine / best other |")
        print("|---|---|---|---|---|" + "---|" * len(approaches) + "---|")
        for s in [int(x) for x in args.scales.split(",") if x]:
            G = kronecker_graph(s, 16, seed=1)
            want = gm.count_triangles(G, threads=args.threads)
            name = f"kron{s}"
            m = write_harness_graph(G, os.path.join(work, "data", name))
            cfg = os.path.join(work, f"config-{name}.ini")
            os.makedirs(os.path.join(work, "log"), exist_ok=True)
            write_config(cfg, os.path.join(work, "data"), os.path.join(work, "log"), [name], approaches,
                         args.iterations)
            t0 = time.perf_counter()
            r = subprocess.run([args.harness, f"-config={cfg}"], capture_output=True, text=True,
                               timeout=args.timeout)
            wall = time.perf_counter() - t0
            other = parse_harness(r.stdout + r.stderr)
            if r.returncode:
                print(f"harness exit status {r.returncode}:\n{(r.stdout + r.stderr)[-3000:]}", file=sys.stderr)
            got, kern = graphmine_kernel(G, args.repeat, args.threads)
            extra = []
            for h in [int(x) for x in args.hub_min.split(",") if x]:
                g2, k2 = graphmine_kernel(G, args.repeat, args.threads, hub_min=h)
                extra.append(dict(hub_min=h, count=g2, kernel_s=k2))
            gc.release(G)
            row = dict(scale=s, edges=m, triangles=want, graphmine_count=got, graphmine_kernel_s=kern,
                       harness=other, harness_wall_s=wall, harness_status=r.returncode, hub_rows=extra)
            rows.append(row)
            cells = []
            for a in approaches:
                o = other.get(a, {})
                if "seconds" not in o:
                    cells.append("(no result)")
                    continue
                ok = "" if o.get("count") == want else f" (count {o.get('count')}, wrong)"
                cells.append(f"{o['seconds'] * 1e3:.2f}{ok}")
            right = [o["seconds"] for a, o in other.items() if a in approaches and o.get("count") == want
                     and "seconds" in o]
            ratio = f"{min(right) / kern:.2f}x faster" if right and kern <= min(right) else (
                f"{kern / min(right):.2f}x the time" if right else "-")
            print(f"| Kronecker {s} | {m:,} | {want:,}{'' if got == want else ' (graphmine MISMATCH)'} | "
                  f"{kern * 1e3:.2f} | {m / kern / 1e9:.2f} | " + " | ".join(cells) + f" | {ratio} |", flush=True)
            for e in extra:
                print(f"  graphmine hub_min={e['hub_min']}: {e['kernel_s'] * 1e3:.2f} ms "
                      f"({'ok' if e['count'] == want else 'MISMATCH'})", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
