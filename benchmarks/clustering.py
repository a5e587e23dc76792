"""Local clustering: graphmine against NetworKit, in one process, on one machine.

For each graph, graphmine's ``count_triangles``, ``triangles``, ``clustering`` and
``average_clustering`` against NetworKit's ``LocalClusteringCoefficient(turbo=True)`` (local
clustering, the per-vertex triangles inside it) and its ``TriangleEdgeScore`` (the triangles of
every edge: NetworKit's triangle count), both on ``--threads`` threads:

- graphmine "new graph": a new ``Graph`` of the same CSR arrays for every run, so that nothing
  kept on a graph helps (neither the degree orientation nor the results cache of
  ``Graph.cached_result``): the comparison with NetworKit, whose runs each build what they need;
- graphmine "kept": the same call again on one graph (the results cache answers it);
- the ratio graphmine / NetworKit (below 1: graphmine is faster), of the "new graph" times.

Before the rounds, graphmine's per-vertex count runs until its kernel is loaded (on a small graph
it counts on numpy until that work would have paid for loading or compiling the kernel; with an
empty numba cache that is dozens of calls, each 7-15x the kernel's time): the rounds compare the
steady state. Runs alternate between the libraries (one run of each call per round, ``--repeat``
rounds, after one warm-up round, a pause of 50 ms after each call so that the previous call's
OpenMP threads have stopped spinning) and the best (and median) of the rounds is shown, with the best
CPU time of the process during the call (every thread's: the work done, which other processes on
the machine change least; graphmine counts graphs under 2^18 edges on one thread, so on a quiet
machine its wall time is about its CPU time, and NetworKit's at best its CPU time over the
threads); the machine's load average is printed
beside each graph, since other processes share its cores. The results are compared too (the
largest difference between the two libraries' coefficients, and whether the triangle counts
agree). Nothing here asserts on time.

    pip install networkit          # the `bench` extra; for the benchmark only
    python benchmarks/clustering.py [--graphs facebook_combined,PATH/ca-HepPh.txt,PATH/email-Enron.txt,kron18]
                                    [--threads 2] [--repeat 7]

A graph is a shipped data set's name, an edge-list file (SNAP's ca-HepPh.txt and
email-Enron.txt are not shipped; a first line "n m" naming the number of lines after it is a
header, as in GraphIO's ca-HepPh) or ``kronN`` (``graphmine.io.generators.kronecker_graph(N,
seed=1)``, edge factor 16).
"""

import argparse
import os
import time

import numpy as np

import graphmine as gm


def count_header(path):
    """Whether the file's first line is "n m" with m the number of lines after it (GraphIO's
    header, as in its ca-HepPh), which the reader would otherwise take for an edge."""
    with open(path) as fh:
        first = fh.readline().split()
        rest = sum(1 for line in fh if line.strip())
    return len(first) == 2 and all(x.isdigit() for x in first) and int(first[1]) == rest


def load_graph(spec):
    """A shipped data set by name, an edge-list file by path, or kronN."""
    if os.path.exists(spec):
        return os.path.splitext(os.path.basename(spec))[0], gm.read_graph(spec, header=count_header(spec) or None)
    if spec.startswith("kron") and spec[4:].isdigit():
        return f"Kronecker {spec[4:]}", gm.generators.kronecker_graph(int(spec[4:]), seed=1)
    return spec, gm.datasets.load(spec)


def networkit_graph(G):
    import networkit as nk

    e = G.edges()
    H = nk.Graph(G.n_nodes, weighted=False, directed=False)
    H.addEdges((e[:, 0].astype(np.uint64), e[:, 1].astype(np.uint64)))
    H.indexEdges()  # TriangleEdgeScore needs edge ids
    return H


def warm_up(G, threads, limit=400):
    """Run graphmine's per-vertex count on new graphs of ``G``'s arrays until its kernel is loaded:
    the number of calls that took.

    graphmine counts a small graph's triangles on numpy while the work done so stays below what
    loading the kernel would cost (a compile when numba's cache is empty: dozens of calls on
    these graphs, each 7-15x the kernel's time); the rounds measure the steady state after it."""
    from graphmine.cliques import _clique_kernels as ck  # which kernels are loaded: not a public API

    kernels = (ck._triangles_per_vertex, ck._triangles_per_vertex_serial)
    calls = 0
    while not any(k.overloads for k in kernels) and calls < limit:
        gm.triangles(gm.Graph.from_csr(G.indptr, G.indices), threads=threads)
        calls += 1
    return calls


# seconds between two calls (outside the timed calls)
PAUSE = 0.05


def rounds(calls, repeat):
    """{name: best seconds} over ``repeat`` rounds of one run of every call each (after one
    warm-up round), and {name: the last value}."""
    times = {name: [] for name in calls}
    cpu = {name: [] for name in calls}
    values = {}
    for r in range(repeat + 1):
        for name, fn in calls.items():
            t0, c0 = time.perf_counter(), time.process_time()
            values[name] = fn()
            t, c = time.perf_counter() - t0, time.process_time() - c0
            if r:
                times[name].append(t)
                cpu[name].append(c)
            # an OpenMP pool (NetworKit's, numba's) spins for a while after its parallel region
            # (libgomp's default: 300,000 spins), taking a core from the next call and, as the
            # same process's threads, adding to its CPU time: let it go to sleep first
            time.sleep(PAUSE)
    best = {name: min(t) for name, t in times.items()}
    median = {name: sorted(t)[len(t) // 2] for name, t in times.items()}
    best_cpu = {name: min(c) for name, c in cpu.items()}
    return best, median, best_cpu, values


def load():
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", default="facebook_combined,/work/data/snap/ca-HepPh.txt,"
                                        "/work/data/snap/email-Enron.txt,kron18",
                    help="comma-separated graphs: shipped names, edge-list paths or kronN "
                         "(paths that do not exist are skipped with a note)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)

    import networkit as nk

    nk.setNumberOfThreads(args.threads)
    th = args.threads
    print(f"threads {th}, best of {args.repeat} alternating rounds; NetworKit {nk.__version__}; "
          f"times in ms; ratio = graphmine (new graph) / NetworKit")
    rows = []
    for spec in args.graphs.split(","):
        if "/" in spec and not os.path.exists(spec):
            print(f"(skipped {spec}: no such file)")
            continue
        name, G = load_graph(spec)
        H = networkit_graph(G)
        warm = warm_up(G, th)
        before = load()

        def fresh():
            return gm.Graph.from_csr(G.indptr, G.indices)

        def nk_lcc():
            a = nk.centrality.LocalClusteringCoefficient(H, turbo=True)
            a.run()
            return a.scores()

        def nk_edge_triangles():
            a = nk.sparsification.TriangleEdgeScore(H)
            a.run()
            return a.scores()

        calls = {
            "gm count_triangles": lambda: gm.count_triangles(fresh(), threads=th),
            "nk TriangleEdgeScore": nk_edge_triangles,
            "gm triangles": lambda: gm.triangles(fresh(), threads=th),
            "gm clustering": lambda: gm.clustering(fresh(), threads=th),
            "gm average_clustering": lambda: gm.average_clustering(fresh(), threads=th),
            "nk LCC turbo": nk_lcc,
            "gm triangles kept": lambda: gm.triangles(G, threads=th),
            "gm clustering kept": lambda: gm.clustering(G, threads=th),
            "gm average_clustering kept": lambda: gm.average_clustering(G, threads=th),
        }
        best, median, best_cpu, values = rounds(calls, args.repeat)
        # the results: the coefficients against NetworKit's, the triangle count against its edges'
        diff = float(np.abs(np.asarray(values["nk LCC turbo"]) - values["gm clustering"]).max(initial=0.0))
        same = int(round(float(np.sum(values["nk TriangleEdgeScore"])))) == 3 * values["gm count_triangles"]
        ms = {k: 1e3 * v for k, v in best.items()}
        med = {k: 1e3 * v for k, v in median.items()}
        cpu = {k: 1e3 * v for k, v in best_cpu.items()}
        lcc = ms["nk LCC turbo"]
        print(f"\n{name}: {G.n_nodes:,} vertices, {G.n_edges:,} edges; load average {before} -> {load()}; "
              f"{warm} warm-up calls until the per-vertex kernel was loaded")
        print(f"  {'':26} {'ms':>9} {'ratio':>7} {'median ms':>10} {'ratio':>7} {'cpu ms':>8} {'ratio':>7}")
        for k, base in (("nk TriangleEdgeScore", None), ("gm count_triangles", "nk TriangleEdgeScore"),
                        ("nk LCC turbo", None), ("gm triangles", "nk LCC turbo"),
                        ("gm clustering", "nk LCC turbo"), ("gm average_clustering", "nk LCC turbo")):
            cells = (f"{ms[k] / ms[base]:7.2f} {med[k]:10.2f} {med[k] / med[base]:7.2f} {cpu[k]:8.2f} "
                     f"{cpu[k] / cpu[base]:7.2f}") if base else f"{'':7} {med[k]:10.2f} {'':7} {cpu[k]:8.2f}"
            kept = f"   kept: {ms[k + ' kept']:.3f}" if k + " kept" in ms else ""
            print(f"  {k:26} {ms[k]:9.2f} {cells}{kept}")
        print(f"  largest |coefficient difference| {diff:.1e}; triangle counts equal: {same}")
        rows.append((name, ms, diff, same))

    print("\nsummary (ms; ratio to NetworKit's LocalClusteringCoefficient(turbo=True)):")
    print(f"{'graph':20} {'nk LCC':>8} {'triangles':>16} {'clustering':>16} {'average':>16} {'count':>9} "
          f"{'nk edge':>9}")
    for name, ms, diff, same in rows:
        lcc = ms["nk LCC turbo"]
        cells = " ".join(f"{ms[k]:8.2f} ({ms[k] / lcc:4.2f})" for k in
                         ("gm triangles", "gm clustering", "gm average_clustering"))
        print(f"{name:20} {lcc:8.2f} {cells} {ms['gm count_triangles']:9.2f} {ms['nk TriangleEdgeScore']:9.2f}")


if __name__ == "__main__":
    main()
