"""Triangle and k-clique counting on a CUDA GPU (graphmine.cuda) against graphmine on the CPU cores.

One run prints one table, measured on this machine: for every graph the CPU time (``threads``
cores, orientation cached: the second call), the GPU kernel time (CUDA events, device data
cached: best of ``--repeat``), the GPU end-to-end time of a first call on a fresh Graph object
(orientation on the CPU + transfer + arc binning + kernel; kernels already compiled), edges per
second of the kernel, and the ratio CPU / GPU kernel. Every GPU count is checked against the
CPU's ('ok' column). Then the Bloom-filter triangle estimate on the GPU (sketch build + estimate)
against the exact GPU kernel and the CPU estimate with the same seed.

    python benchmarks/gpu.py [--scales 16,18,20,22] [--clique-scales 16,18] [--threads 16]

Nothing here asserts on time.
"""

import argparse
import json
import sys
import time

import numpy as np

import graphmine as gm
import graphmine.cuda  # noqa: F401  (gm.cuda)
from graphmine.cliques import _cuda_launch
from graphmine.io import datasets
from graphmine.core.exceptions import GraphmineError
from graphmine.io.generators import kronecker_graph


def fresh(G):
    """The same graph as a new object: no cached orientation or device data."""
    return gm.Graph.from_csr(G.indptr, G.indices)


def best(fn, repeat):
    t, v = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        v = fn()
        t = min(t, time.perf_counter() - t0)
    return t, v


def gpu_kernel_time(run, repeat):
    """Best kernel time (CUDA events) of ``run(timings)``, and its result."""
    best_t, value = float("inf"), None
    for _ in range(repeat):
        tm = {}
        value = run(tm)
        best_t = min(best_t, tm["kernel"])
    return best_t, value


def measure(name, G, k, threads, repeat, rows):
    from numba import cuda

    from graphmine.cliques import _cuda_launch as _exact

    order = "degree" if k == 3 else "degeneracy"
    # CPU: kernels compiled and the orientation cached (as a user counting twice would see);
    # k >= 4 (seconds to minutes) once
    G.oriented(order, relabel=True, threads=threads)
    cpu_t, cpu = best(lambda: gm.count_cliques(G, k, threads=threads), repeat if k == 3 else 1)
    # GPU end to end on a fresh Graph: orientation, transfer, binning, kernel
    H = fresh(G)
    t0 = time.perf_counter()
    e2e = gm.count_cliques(H, k, device="cuda", threads=threads)
    cuda.synchronize()
    e2e_t = time.perf_counter() - t0
    if k == 3:
        kt, gpu = gpu_kernel_time(lambda tm: _exact.count_triangles(H, order, threads, timings=tm), repeat)
    else:
        kt, gpu = gpu_kernel_time(lambda tm: _exact.count_cliques(H, k, order, threads, timings=tm), repeat)
    ok = gpu == cpu == e2e
    row = dict(graph=name, n=G.n_nodes, m=G.n_edges, k=k, count=gpu, ok=ok, cpu_s=cpu_t, gpu_kernel_s=kt,
               gpu_e2e_s=e2e_t, edges_per_s=G.n_edges / kt, speedup=cpu_t / kt, speedup_e2e=cpu_t / e2e_t)
    rows.append(row)
    print(f"| {name} | {G.n_nodes:,} | {G.n_edges:,} | {k} | {gpu:,} | {'ok' if ok else 'MISMATCH cpu=' + str(cpu)} "
          f"| {cpu_t * 1e3:.1f} | {kt * 1e3:.2f} | {e2e_t * 1e3:.0f} | {G.n_edges / kt / 1e9:.3f} "
          f"| {cpu_t / kt:.1f}x |", flush=True)
    gm.cuda.release(H)
    return row


def bloom(name, G, threads, repeat, rows, budget=0.25, seed=1):
    from numba import cuda

    from graphmine.cliques import _cuda_launch as _exact
    from graphmine.probgraph import count_triangles as est

    exact = gm.count_triangles(G, threads=threads)
    kt, _ = gpu_kernel_time(lambda tm: _exact.count_triangles(G, "degree", threads, timings=tm), repeat)
    est(G, method="bloom", budget=budget, seed=seed, device="cuda", threads=threads)  # device data, compile

    def gpu_run():
        r = est(G, method="bloom", budget=budget, seed=seed, device="cuda", threads=threads)
        cuda.synchronize()
        return r

    gt, g = best(gpu_run, repeat)
    ct, c = best(lambda: est(G, method="bloom", budget=budget, seed=seed, threads=threads), repeat)
    acc = 1 - abs(g.estimate - exact) / exact
    agree = abs(g.estimate - c.estimate) / max(abs(c.estimate), 1.0)
    rows.append(dict(graph=name, m=G.n_edges, exact=exact, gpu_estimate=g.estimate, cpu_estimate=c.estimate,
                     accuracy=acc, cpu_gpu_rel_diff=agree, gpu_bloom_s=gt, gpu_exact_kernel_s=kt, cpu_bloom_s=ct,
                     budget_used=g.budget, estimated=g.estimated))
    print(f"| {name} | {G.n_edges:,} | {exact:,} | {g.estimate:,.0f} | {100 * acc:.2f}% | {agree:.1e} "
          f"| {gt * 1e3:.2f} | {kt * 1e3:.2f} | {ct * 1e3:.1f} | {g.budget:.3g} |", flush=True)


# (bounds, threads per arc, hub_min): the bins without hubs, and hubs from several out-degrees
SWEEP = [((12, 1024), (1, 32), 1 << 62), ((12, 64, 1024), (1, 8, 32), 1 << 62),
         ((6, 24, 96, 1024), (1, 4, 8, 32), 1 << 62), ((12, 64, 1024), (1, 8, 32), 32),
         ((12, 64, 1024), (1, 8, 32), 64), ((12, 64, 1024), (1, 8, 32), 128), ((12, 64, 1024), (1, 8, 32), 256),
         ((12, 64, 1024), (1, 8, 32), 1024)]


def sweep(scale, G, threads, repeat):
    """Triangle kernel times by bin thresholds and threads per arc (CUDA events, best of ``repeat``)."""
    from graphmine.cliques import _cuda_launch as _exact

    want = gm.count_triangles(G, threads=threads)
    print("\n| scale | bounds (s <=) | threads per arc | hubs: d+ > | hubs | arcs per bin | ms per bin, hubs "
          "| kernel ms | G edges/s | check |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for bounds, groups, hub_min in SWEEP:
        tms = []
        for _ in range(repeat):
            tm = {}
            got = _exact.count_triangles(G, "degree", threads, timings=tm, bounds=bounds, groups=groups,
                                         hub_min=hub_min)
            tms.append(tm)
        tm = min(tms, key=lambda x: x["kernel"])
        per = " / ".join(f"{tm.get(f'bin{b}', np.nan) * 1e3:.1f}" for b in range(len(bounds) + 1))
        per += f", {tm.get('hubs', np.nan) * 1e3:.1f}"
        hm = "off" if hub_min >= G.n_nodes else hub_min
        arcs = " / ".join(f"{x / 1e6:.1f}M" for x in tm["bins"])
        print(f"| {scale} | {bounds} | {groups} + block | {hm} | {tm['hub_count']:,} | {arcs} | {per} | {tm['kernel'] * 1e3:.2f} "
              f"| {G.n_edges / tm['kernel'] / 1e9:.3f} | {'ok' if got == want else 'MISMATCH'} |", flush=True)
    gm.cuda.release(G)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scales", default="16,18,20,22")
    p.add_argument("--clique-scales", default="16,18")
    p.add_argument("--cliques", default="4,5")
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--shipped", action="store_true", help="also the shipped graphs (datasets/)")
    p.add_argument("--sweep", default="", help="scales of a sweep over the triangle kernel's bin thresholds")
    p.add_argument("--warm-scale", type=int, default=10, help="graph that compiles the kernels first")
    p.add_argument("--bloom", default="16/64,18/16", help="Kronecker scale/edge factor of the Bloom rows")
    p.add_argument("--bloom-budgets", default="0.25", help="sketch budgets of the Bloom rows")
    p.add_argument("--json", default=None, help="write the rows to this file")
    args = p.parse_args(argv)
    try:
        ok = gm.cuda.is_available()
    except GraphmineError as exc:  # numba-cuda missing: the error names the extra
        raise SystemExit(f"benchmarks/gpu.py: {exc}") from None
    if not ok:
        raise SystemExit("benchmarks/gpu.py: no CUDA device visible; this benchmark needs an NVIDIA GPU "
                         "(NUMBA_ENABLE_CUDASIM=1 runs it in numba's simulator, slowly)")
    from numba import cuda

    name = "numba's CUDA simulator" if gm.cuda.launch.simulated() else cuda.get_current_device().name
    print(f"GPU: {name.decode() if isinstance(name, bytes) else name}; CPU threads: {args.threads}", flush=True)
    # compile every kernel once on a small graph
    W = kronecker_graph(args.warm_scale, 16, seed=args.seed)
    gm.count_cliques(W, 3, device="cuda"), gm.count_cliques(W, 4, device="cuda")
    gm.count_cliques(W, 5, device="cuda"), gm.triangles(W, device="cuda")
    gm.probgraph.count_triangles(W, method="bloom", seed=1, device="cuda")
    for k in (3, 4, 5):
        gm.count_cliques(W, k, threads=args.threads)
    gm.triangles(W, threads=args.threads), gm.probgraph.count_triangles(W, method="bloom", seed=1)
    rows, brows = [], []
    graphs = []
    for s in [int(x) for x in args.scales.split(",") if x]:
        t0 = time.perf_counter()
        G = kronecker_graph(s, 16, seed=args.seed)
        print(f"(generated Kronecker scale {s} in {time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
        graphs.append((f"kron{s}", s, G))
    if args.shipped:
        for name in datasets.names():
            graphs.append((name, 0, datasets.load(name)))
    made = {s: G for _, s, G in graphs if s}
    for s in [int(x) for x in args.sweep.split(",") if x]:
        sweep(s, made[s] if s in made else kronecker_graph(s, 16, seed=args.seed), args.threads, args.repeat)
    cscales = {int(x) for x in args.clique_scales.split(",") if x}
    print("\n| graph | n | m | k | count | check | CPU ms | GPU kernel ms | GPU e2e ms | G edges/s (kernel) "
          "| CPU / GPU kernel |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, s, G in graphs:
        measure(name, G, 3, args.threads, args.repeat, rows)
        if s in cscales or s == 0:
            for k in [int(x) for x in args.cliques.split(",") if x]:
                measure(name, G, k, args.threads, args.repeat, rows)
    # per-vertex counts on the GPU equal the CPU's
    for name, s, G in graphs:
        if s and s <= 20:
            pv_ok = bool((gm.triangles(G, device="cuda") == gm.triangles(G, threads=args.threads)).all())
            print(f"per-vertex triangles {name}: {'ok' if pv_ok else 'MISMATCH'}", flush=True)
            rows.append(dict(graph=name, per_vertex_ok=pv_ok))
    print("\n| graph | m | exact | GPU Bloom estimate | accuracy | GPU/CPU estimate rel. diff | GPU Bloom ms "
          "| GPU exact kernel ms | CPU Bloom ms | budget used |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for spec in [x for x in args.bloom.split(",") if x]:
        s, ef = (int(y) for y in spec.split("/"))
        B = kronecker_graph(s, ef, seed=args.seed)
        for budget in [float(x) for x in args.bloom_budgets.split(",")]:
            bloom(f"kron{s}/{ef}", B, args.threads, args.repeat, brows, budget=budget)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"exact": rows, "bloom": brows}, fh, indent=1, default=float)


if __name__ == "__main__":
    main()
