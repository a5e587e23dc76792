"""The 4-vertex graphlet census on a CUDA GPU against graphmine's census on the CPU cores.

For every graph: the per-vertex orbit counts (``gm.orbit_counts(G)``) and the global graphlet
counts (``gm.graphlet_counts(G)``) on ``--threads`` CPU threads and with ``device='cuda'``, each the
best of ``--repeat`` calls on a new ``Graph`` of the same CSR arrays (nothing kept from an earlier
call; the kernels compiled beforehand on a small graph), the ratio CPU / GPU, and whether the GPU's
counts equal the CPU's ('ok'). The GPU time is the whole call: transfers, the 4-cycle and 4-clique
launches of their families, the orbit rows and the copy back. ``--parts`` also times the two
parts that come from other families, the 4-cycles per vertex (``four_cycles``) and the 4-cliques
per vertex (``vertex_clique_counts(k=4)``), on the GPU and on the CPU threads, each checked equal.

    python benchmarks/gpu_graphlets.py [--graphs ca-GrQc,ca-HepTh,facebook_combined]
                                       [--scales 14,16,18] [--threads 16] [--repeat 3] [--parts]

Nothing here asserts on time.
"""

import argparse
import os
import time

import numpy as np

import graphmine as gm
from graphmine.io import datasets
from graphmine.io.generators import kronecker_graph


def fresh(G):
    """The same graph as a new object: nothing kept from an earlier call."""
    return gm.Graph.from_csr(G.indptr, G.indices)


def best(fn, G, repeat):
    t, value = float("inf"), None
    for _ in range(repeat):
        H = fresh(G)
        t0 = time.perf_counter()
        value = fn(H)
        t = min(t, time.perf_counter() - t0)
    return t, value


def load(spec, seed):
    if spec.startswith("kron"):
        return f"Kronecker {spec[4:]}", kronecker_graph(int(spec[4:]), seed=seed)
    if os.path.exists(spec):
        return os.path.basename(spec), gm.read_graph(spec)
    return spec, datasets.load(spec)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graphs", default="ca-GrQc,ca-HepTh,facebook_combined")
    p.add_argument("--scales", default="14,16,18", help="Kronecker scales (edge factor 16, seed --seed)")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--parts", action="store_true", help="also time the 4-cycle and 4-clique parts")
    args = p.parse_args(argv)

    from graphmine.cuda import is_available

    if not is_available():
        raise SystemExit("no CUDA GPU visible to numba: nothing to measure")
    # compile every kernel of both paths once, on a small graph
    W = kronecker_graph(8, seed=args.seed)
    t0 = time.perf_counter()
    gm.orbit_counts(W, device="cuda")
    gm.graphlet_counts(W, device="cuda")
    print(f"GPU first call (compiles) on Kronecker 8: {time.perf_counter() - t0:.2f} s")
    gm.orbit_counts(W, threads=args.threads)
    gm.graphlet_counts(W, threads=args.threads)

    specs = [s for s in args.graphs.split(",") if s] + [f"kron{s}" for s in args.scales.split(",") if s]
    print(f"\n4-vertex census, CPU {args.threads} threads vs GPU (whole call, best of {args.repeat})")
    print("| graph | vertices | edges | orbits CPU s | orbits GPU s | CPU/GPU | graphlets CPU s | graphlets GPU s"
          " | CPU/GPU | ok |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for spec in specs:
        name, G = load(spec, args.seed)
        tc, rc = best(lambda H: gm.orbit_counts(H, threads=args.threads), G, args.repeat)
        tg, rg = best(lambda H: gm.orbit_counts(H, device="cuda"), G, args.repeat)
        uc, gc = best(lambda H: gm.graphlet_counts(H, threads=args.threads), G, args.repeat)
        ug, gg = best(lambda H: gm.graphlet_counts(H, device="cuda"), G, args.repeat)
        ok = bool(np.array_equal(rc, rg) and np.array_equal(gc, gg))
        print(f"| {name} | {G.n_nodes:,} | {G.n_edges:,} | {tc:.4f} | {tg:.4f} | {tc / tg:.2f}x | {uc:.4f} | {ug:.4f}"
              f" | {uc / ug:.2f}x | {'ok' if ok else 'DIFFER'} |", flush=True)
    if args.parts:
        parts(specs, args)


def parts(specs, args):
    from graphmine.core.registry import call

    cases = [("4-cycles", lambda H, **kw: call("four_cycles", H, **kw)),
             ("4-cliques per vertex", lambda H, **kw: call("vertex_clique_counts", H, k=4, **kw))]
    print(f"\nparts of the census, CPU {args.threads} threads vs GPU (best of {args.repeat}, new graph objects)")
    print("| graph | part | CPU s | GPU s | CPU/GPU | ok |")
    print("|---|---|---|---|---|---|")
    for spec in specs:
        name, G = load(spec, args.seed)
        for label, fn in cases:
            tc, rc = best(lambda H: fn(H, threads=args.threads), G, args.repeat)
            tg, rg = best(lambda H: fn(H, device="cuda"), G, args.repeat)
            ok = bool(np.array_equal(rc, rg))
            print(f"| {name} | {label} | {tc:.4f} | {tg:.4f} | {tc / tg:.2f}x | {'ok' if ok else 'DIFFER'} |",
                  flush=True)


if __name__ == "__main__":
    main()
