"""networkx alone against networkx dispatching to graphmine (``backend="graphmine"``).

For every graph and function one run prints: networkx's own time, the backend's first call on a
fresh networkx graph (conversion to graphmine's CSR included), a second call (the conversion is
cached in ``G.__networkx_cache__``), the conversion alone, and nx-parallel where it implements the
function (``pip install nx-parallel``; only ``square_clustering`` of these). Ratios are networkx's
time over the backend's. Numba's compiled kernels are loaded once before timing (a one-off cost
per process, reported separately), so "first call" is the cost on a new graph in a warm process.

    python benchmarks/networkx_backend.py [--scales 16,17] [--threads 2] [--repeat 3] [--budget 120]

A networkx run expected to take longer than --budget seconds (from the previous graph) is shown
as '-'. Nothing here asserts on time.
"""

import argparse
import gc
import time

import networkx as nx

import graphmine as gm
from graphmine.nx_backend import from_networkx

FUNCTIONS = ("triangles", "clustering", "average_clustering", "transitivity", "square_clustering",
             "jaccard_coefficient")
# link prediction on every edge of the graph (an explicit ebunch; all non-edges would be O(n^2))
LINK = ("jaccard_coefficient",)


def timed(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def call(name, H, ebunch, **kw):
    f = getattr(nx, name)
    if name in LINK:
        return lambda: list(f(H, ebunch, **kw))
    return lambda: f(H, **kw)


def warm_up():
    """Load every compiled kernel the backend uses (numba's on-disk cache) once per process."""
    t0 = time.perf_counter()
    # a small graph for the serial kernels, one above graphmine.core.graph.SERIAL_EDGES for the parallel
    for G in (nx.gnm_random_graph(60, 300, seed=0),
              gm.generators.erdos_renyi_graph(20_000, m=60_000, seed=0).to_networkx()):
        for name in FUNCTIONS:
            call(name, G, list(G.edges)[:1000], backend="graphmine")()
    return time.perf_counter() - t0


def graphs(scales, edge_factor, only):
    """(name, graph) of the datasets and Kronecker scales; with ``only``, just those named (the
    others are neither loaded nor generated)."""
    for name in gm.datasets.names():
        if not only or name in only:
            yield name, gm.datasets.load(name)
    for s in scales:
        if not only or f"Kronecker {s}" in only:
            yield f"Kronecker {s}", gm.generators.kronecker_graph(s, edge_factor, seed=1)


def load_parallel():
    """True if nx-parallel is installed and loads with this networkx, else the reason it is not."""
    if "parallel" not in nx.utils.backends.backends:
        return "not installed"
    try:
        nx.utils.backends._load_backend("parallel")
    except Exception as exc:  # an nx-parallel built for another networkx
        return f"installed but does not load with networkx {nx.__version__}: {type(exc).__name__}: {exc}"
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="16,17", help="Kronecker scales (comma list, '' for none)")
    ap.add_argument("--edge-factor", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--budget", type=float, default=120.0, help="skip a networkx run expected to exceed this (s)")
    ap.add_argument("--functions", default=",".join(FUNCTIONS))
    ap.add_argument("--graphs", default="", help="only these graphs (comma list of names)")
    args = ap.parse_args()
    scales = [int(s) for s in args.scales.split(",") if s]
    functions = args.functions.split(",")
    only = set(filter(None, args.graphs.split(",")))
    nx.config.warnings_to_ignore.add("cache")
    nx.config.backends.graphmine.threads = args.threads
    parallel = load_parallel()
    if parallel is True:
        nx.config.backends.parallel.n_jobs = args.threads
    else:
        print(f"nx-parallel: {parallel}")
    print(f"numba kernels loaded in {warm_up():.2f} s (once per process); threads={args.threads}")
    print()
    print("| graph | edges | function | networkx s | first call s | ratio | cached s | ratio | conversion s | nx-parallel s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    per_edge = {}  # networkx seconds per edge, to skip runs over budget
    for gname, G in graphs(scales, args.edge_factor, only):
        H = G.to_networkx(original_ids=True)
        ebunch = ([tuple(e) for e in G.node_ids[G.edges()].tolist()]
                  if any(name in LINK for name in functions) else None)
        m = G.n_edges
        conv = timed(lambda: from_networkx(H, threads=args.threads), args.repeat)
        for name in functions:
            def first():
                H.__networkx_cache__.clear()
                return call(name, H, ebunch, backend="graphmine")()
            t_first = timed(first, args.repeat)
            t_cached = timed(call(name, H, ebunch, backend="graphmine"), args.repeat)
            if per_edge.get(name, 0.0) * m > args.budget:
                t_nx = None
            else:
                # once, then the remaining repeats only if they fit in a quarter of the budget
                t_nx = timed(call(name, H, ebunch), 1)
                if t_nx * (args.repeat - 1) < args.budget / 4:
                    t_nx = min(t_nx, timed(call(name, H, ebunch), args.repeat - 1))
                per_edge[name] = t_nx / m
            t_par = None
            if parallel is True and name in nx.utils.backends.backend_info["parallel"].get("functions", {}):
                if t_nx is not None:
                    t_par = timed(call(name, H, ebunch, backend="parallel"), 1)
            nxs = "-" if t_nx is None else f"{t_nx:.3g}"
            r1 = "-" if t_nx is None else f"{t_nx / t_first:.0f}x"
            r2 = "-" if t_nx is None else f"{t_nx / t_cached:.0f}x"
            par = "-" if t_par is None else f"{t_par:.3g}"
            print(f"| {gname} | {m:,} | {name} | {nxs} | {t_first:.3g} | {r1} | {t_cached:.3g} | {r2} | {conv:.3g} | {par} |",
                  flush=True)
        del H
        gc.collect()


if __name__ == "__main__":
    main()
