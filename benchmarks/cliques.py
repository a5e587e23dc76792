"""Triangle and k-clique counting: graphmine against networkx, NetworKit, igraph and compiled
references.

One run prints, measured on this machine:

1. a table of seconds and speedups (graphmine's time in the denominator) for triangles and
   4-cliques against networkx, NetworKit and igraph;
2. k-cliques against a kClist-style C/OpenMP lister (benchmarks/reference/kclist.c: degeneracy
   order, DAG, per-level induced subgraphs, dynamic schedule over vertices, every clique visited),
   both on ``--threads`` threads with identical counts: graphmine's in-process count with its
   degeneracy ordering included, against kClist's ordering + listing (its file reading excluded);
   best of ``--repeat`` alternating runs, with the slowest run to show the spread (the shipped
   facebook_combined, ca-HepTh, ca-GrQc and a Kronecker graph; email-Enron and ca-HepPh are not
   shipped with graphmine);
3. (``--only-family``) the rest of the clique family: counts of every clique size at once on shipped
   graphs and on a planted large clique (where listing one large size cannot finish), maximal
   cliques (networkx's ``find_cliques`` against the graphmine backend) and k-truss (networkx's
   ``k_truss`` against graphmine's) on a graph of about a million edges, with wall and CPU
   seconds (the 2-core machine is shared);
4. a whole-process comparison of ``graphmine count-cliques FILE`` against a plain C++/OpenMP
   ordered triangle count (benchmarks/reference/tc_ordered.cc) on a Kronecker edge list.

The C and C++ references are compiled with the system compiler if one is present, and shown as
'-' otherwise. ``--scaling`` instead prints the triangle counting step on 1, 2, 4, ... threads
(up to numba's thread count) on a Kronecker graph of ``--scaling-scale``.

    pip install networkit igraph     # the other libraries, for the benchmark only
    python benchmarks/cliques.py [--scales 16,17,18,19,20] [--threads 2] [--repeat 3]
    python benchmarks/cliques.py --only-kclist [--kclist-scale 18] [--threads 2]
    python benchmarks/cliques.py --scaling [--scaling-scale 20]
    python benchmarks/cliques.py --only-family [--all-k-graphs ca-HepTh] [--truss-scale 16] [--threads 2]
    python benchmarks/cliques.py --only-communities [--kcc-graphs ca-HepTh,ca-GrQc] [--kcc-k 4]
    python benchmarks/cliques.py --only-maximal [--maximal-graphs ca-HepTh,PATH] [--maximal-first 1000000]
    python benchmarks/cliques.py --only-truss [--truss-n 100000 --truss-p 2e-4 --truss-k 6]
    python benchmarks/cliques.py --only-orders [--order-graphs facebook_combined,kron16] [--order-ks 4,5]
    python benchmarks/cliques.py --only-kclist --arbcount PATH [--snap-files ca-HepPh.txt,email-Enron.txt]
                                 [--arb-ks 4,5,6] [--no-kclist]
    python benchmarks/cliques.py --anchors --arbcount PATH --pivoter PATH [--repeat 5]
                                 [--anchor-files facebook_combined,email-Enron.txt,ca-HepPh.txt] [--arb-ks 4,5,6]

``--anchors`` compares whole processes with a warm numba cache: ``graphmine count-cliques FILE -k K
--json --threads T`` against ArbCount on its own adjacency file, and ``--all-k`` against Pivoter
(bin/degeneracy_cliques of a built sjain12/Pivoter) on its own .edges file, converted here in a
temporary folder; alternating runs, wall and CPU seconds and each program's own counting time.

Libraries that are not installed, or graphs too large for a library within --budget seconds
(estimated from the previous graph), are shown as '-'. Nothing here asserts on time.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import graphmine as gm
from graphmine._runtime.interrupt import interruptible


def load_graph(spec):
    """A shipped data set by name, or an edge-list file by path (SNAP files; not shipped)."""
    if os.path.exists(spec):
        return gm.read_graph(spec)
    return gm.datasets.load(spec)


def graph_name(spec):
    return os.path.splitext(os.path.basename(spec))[0] if os.path.exists(spec) else spec


def cpu_time(fn, repeat):
    """(best wall seconds, CPU seconds of that run (all threads), value): on a shared machine the
    CPU seconds show the work where the wall time shows the wait for a core."""
    best, value = (float("inf"), 0.0), None
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        value = fn()
        t, c = time.perf_counter() - t0, time.process_time() - c0
        best = min(best, (t, c))
    return best[0], best[1], value


def best_time(fn, repeat):
    best, value = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t0)
    return best, value


def nx_triangles(G):
    import networkx as nx

    H = G.to_networkx()
    return lambda: sum(nx.triangles(H).values()) // 3


def nx_4cliques(G):
    import networkx as nx

    H = G.to_networkx()

    def run():
        c = 0
        for cl in nx.enumerate_all_cliques(H):
            if len(cl) == 4:
                c += 1
            elif len(cl) > 4:
                break
        return c
    return run


def nk_triangles(G, threads):
    import networkit as nk

    nk.setNumberOfThreads(threads)
    H = nk.Graph(G.n_nodes, weighted=False, directed=False)
    e = G.edges()
    H.addEdges((e[:, 0], e[:, 1]))
    H.indexEdges()
    return lambda: int(round(sum(nk.sparsification.TriangleEdgeScore(H).run().scores()) / 3))


def ig_triangles(G):
    import igraph as ig

    H = ig.Graph(n=G.n_nodes, edges=G.edges())
    return lambda: len(H.list_triangles())


def ig_4cliques(G):
    import igraph as ig

    H = ig.Graph(n=G.n_nodes, edges=G.edges())
    return lambda: len(H.cliques(4, 4))


def have(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def graphs(scales, edge_factor):
    for name in gm.datasets.names():
        yield name, gm.datasets.load(name)
    for s in scales:
        yield f"kron{s}-ef{edge_factor}", gm.generators.kronecker_graph(s, edge_factor, seed=1)


def write_edge_list(G, path):
    """Both directions of every edge, like a symmetrised Graph500 / SNAP edge list."""
    e = G.edges()
    both = np.concatenate([e, e[:, ::-1]])
    both = both[np.lexsort((both[:, 1], both[:, 0]))]
    with open(path, "w") as fh:
        for block in np.array_split(both, max(1, len(both) // 1_000_000)):
            fh.write("\n".join(f"{a}\t{b}" for a, b in block.tolist()))
            fh.write("\n")


def whole_process(args):
    """graphmine's CLI vs the C++ reference, start to finish, on one Kronecker edge list."""
    G = gm.generators.kronecker_graph(args.file_scale, args.edge_factor, seed=1)
    tmp = tempfile.mkdtemp(prefix="graphmine-bench-")
    path = os.path.join(tmp, f"kron{args.file_scale}.el")
    write_edge_list(G, path)
    size_mb = os.path.getsize(path) / 1e6
    rows = []
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    cmd = [sys.executable, "-m", "graphmine", "count-cliques", path, "--threads", str(args.threads), "--json"]
    subprocess.run(cmd, capture_output=True, env=env)  # fill numba's cache once
    best = None
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
        wall = time.perf_counter() - t0
        d = json.loads(r.stdout)
        if best is None or wall < best[0]:
            best = (wall, d["load_seconds"], d["seconds"], d["count"])
    rows.append(("graphmine count-cliques", *best))
    cxx = shutil.which("g++") or shutil.which("c++")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference", "tc_ordered.cc")
    if cxx:
        exe = os.path.join(tmp, "tc_ordered")
        subprocess.run([cxx, "-O3", "-march=native", "-fopenmp", src, "-o", exe], check=True)
        best = None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            r = subprocess.run([exe, path], capture_output=True, text=True, env=env, check=True)
            wall = time.perf_counter() - t0
            cnt, load_s, count_s = r.stdout.split()
            if best is None or wall < best[0]:
                best = (wall, float(load_s), float(count_s), int(cnt))
        rows.append(("C++/OpenMP ordered count", *best))
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"\nWhole process on kron{args.file_scale} (edge factor {args.edge_factor}, {size_mb:.0f} MB, "
          f"{G.n_edges:,} edges), {args.threads} threads, best of {args.repeat}:")
    print(f"{'program':28s} {'wall s':>8s} {'read+build s':>13s} {'count s':>8s} {'triangles':>12s}")
    for name, wall, load_s, count_s, cnt in rows:
        print(f"{name:28s} {wall:8.2f} {load_s:13.2f} {count_s:8.2f} {cnt:12,d}")
    if len(rows) == 2:
        print(f"graphmine / C++ wall-time ratio: {rows[0][1] / rows[1][1]:.2f}")


def compiler(*names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


KCLIST_CASES = (("facebook_combined", (4, 5, 6)), ("ca-HepTh", (4, 5)), ("ca-GrQc", (4, 5)))


def write_adjacency_graph(G, path):
    """GBBS's symmetric AdjacencyGraph text format (header, n, arcs, offsets, targets)."""
    with open(path, "w") as fh:
        fh.write(f"AdjacencyGraph\n{G.n_nodes}\n{G.indices.shape[0]}\n")
        fh.write("\n".join(map(str, G.indptr[:-1].tolist())) + "\n")
        fh.write("\n".join(map(str, G.indices.tolist())) + "\n")


def arbcount(exe, path, k, threads, rounds):
    """(count, best and slowest seconds) of ArbCount (GBBS Clique, Goodrich-Pszona order, eps 0.1):
    its ranking, filtering and counting per round, file reading excluded."""
    env = dict(os.environ, PARLAY_NUM_THREADS=str(threads))
    r = subprocess.run([exe, "-s", "-k", str(k), "-rounds", str(rounds), "--directType", "GOODRICHPSZONA",
                        "-e", "0.1", path], capture_output=True, text=True, env=env, check=True)
    times = [float(line.split()[-1]) for line in r.stdout.splitlines() if line.startswith("### Running Time:")]
    count = int(next(line.split()[-1] for line in r.stdout.splitlines() if line.startswith("count:")))
    return count, min(times), max(times)


@interruptible
def orient(H, threads):
    """The degeneracy orientation, computed on graphmine's worker thread like the counts."""
    return H.oriented("degeneracy", relabel=True, threads=threads)


def kclist_compare(args):
    """graphmine's k-clique count against the kClist-style reference, side by side."""
    cc = None if args.no_kclist else compiler("cc", "gcc", "clang")
    tmp = tempfile.mkdtemp(prefix="graphmine-kclist-")
    exe = None
    if cc:
        exe = os.path.join(tmp, "kclist")
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference", "kclist.c")
        subprocess.run([cc, "-O3", "-march=native", "-fopenmp", src, "-o", exe], check=True)
    wanted = [g for g in args.kclist_graphs.split(",") if g]
    cases = [(name, gm.datasets.load(name), str(gm.datasets.path(name)), ks) for name, ks in KCLIST_CASES
             if not wanted or name in wanted]
    for path in [p for p in args.snap_files.split(",") if p]:
        G = gm.read_graph(path)
        copy = os.path.join(tmp, graph_name(path) + ".el")
        write_edge_list(G, copy)  # the same form as the other graphs' files (no comment lines)
        cases.append((graph_name(path), G, copy, (4, 5, 6)))
    if args.kclist_scale:
        G = gm.generators.kronecker_graph(args.kclist_scale, args.edge_factor, seed=1)
        path = os.path.join(tmp, "kron.el")
        write_edge_list(G, path)
        cases.append((f"kron{args.kclist_scale}-ef{args.edge_factor}", G, path, (4,)))
    if args.no_kclist and args.arbcount:
        # graphmine alone in the kClist table: only the ArbCount table, with --arb-ks honoured
        arb_compare(args, cases)
        shutil.rmtree(tmp, ignore_errors=True)
        return
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    th = args.threads
    # load the serial and the parallel kernels from numba's cache (or compile them) before timing
    gm.count_cliques(gm.datasets.load("ca-GrQc"), 4, threads=th)
    gm.count_cliques(gm.datasets.load("facebook_combined"), 4, threads=th)
    print(f"\nk-cliques against kClist (C/OpenMP), {th} threads, best of {args.repeat} alternating runs "
          "(more, up to 1 s, for cases of milliseconds) [slowest]; seconds without file reading, "
          "ordering included (its share in parentheses)")
    print(f"{'graph':18s} {'k':>2s} {'count':>15s} {'graphmine s':>28s} {'kClist s':>28s} {'ratio':>6s} {'runs':>4s}")
    for gname, G, path, ks in cases:
        for k in ks:
            ours, ref = [], []
            count = None
            start = time.perf_counter()
            while len(ours) < args.repeat or (len(ours) < 50 and time.perf_counter() - start < 1.0):
                H = gm.Graph.from_csr(G.indptr, G.indices)  # no cached orientation
                t0 = time.perf_counter()
                # on graphmine's worker thread, as the count's own ordering: a parallel region
                # started from this thread has a second thread team, whose threads spin after it
                # and take the cores from the count's team (facebook k = 4: 0.15 s against 0.04 s)
                orient(H, th)
                t1 = time.perf_counter()
                count = gm.count_cliques(H, k, threads=th)
                t2 = time.perf_counter()
                ours.append((t2 - t0, t1 - t0))
                if exe:
                    r = subprocess.run([exe, str(k), path], capture_output=True, text=True, env=env, check=True)
                    cnt, _read_s, order_s, list_s = r.stdout.split()
                    if int(cnt) != count:
                        raise SystemExit(f"kClist counted {cnt} {k}-cliques on {gname}, graphmine {count}")
                    ref.append((float(order_s) + float(list_s), float(order_s)))

            def cell(times):
                if not times:
                    return f"{'-':>28s}"
                best = min(times)
                return f"{best[0]:9.4f} ({best[1]:7.4f}) [{max(times)[0]:7.4f}]"
            ratio = f"{min(ours)[0] / min(ref)[0]:6.2f}" if ref else f"{'-':>6s}"
            print(f"{gname:18s} {k:2d} {count:15,d} {cell(ours)} {cell(ref)} {ratio} {len(ours):4d}", flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    print("ratio = graphmine / kClist (best runs)")
    if args.arbcount:
        arb_compare(args, cases)


def arb_compare(args, cases):
    """graphmine's k-clique count against ArbCount (built elsewhere; its path in --arbcount)."""
    th = args.threads
    tmp = tempfile.mkdtemp(prefix="graphmine-arb-")
    # load the serial and the parallel kernels from numba's cache (or compile them) before timing
    gm.count_cliques(gm.datasets.load("ca-GrQc"), 4, threads=th)
    gm.count_cliques(gm.datasets.load("facebook_combined"), 4, threads=th)
    gm.count_cliques(gm.generators.kronecker_graph(14, 16, seed=1), 4, threads=th)  # parallel
    print(f"\nk-cliques against ArbCount (GBBS), {th} threads, best of {args.repeat} (ordering included, "
          "file reading excluded) [slowest]; ratio = graphmine / ArbCount")
    print(f"{'graph':18s} {'k':>2s} {'count':>15s} {'graphmine s':>20s} {'ArbCount s':>20s} {'ratio':>6s}")
    for gname, G, _path, ks in cases:
        path = os.path.join(tmp, "g.adj")
        write_adjacency_graph(G, path)
        for k in sorted(set(ks) | set(args.arb_ks)):
            if k not in args.arb_ks or G.n_edges > 2e6 and k > 4 and not args.arb_large_k:
                continue
            ours = []
            for _ in range(max(args.repeat, 5 if G.n_edges < 1e6 else 1)):
                H = gm.Graph.from_csr(G.indptr, G.indices)
                t0 = time.perf_counter()
                count = gm.count_cliques(H, k, threads=th)
                ours.append(time.perf_counter() - t0)
            c, best, worst = arbcount(args.arbcount, path, k, th, max(args.repeat, 5 if G.n_edges < 1e6 else 1))
            if c != count:
                raise SystemExit(f"ArbCount counted {c} {k}-cliques on {gname}, graphmine {count}")
            print(f"{gname:18s} {k:2d} {count:15,d} {min(ours):9.4f} [{max(ours):7.4f}] {best:9.4f} [{worst:7.4f}] "
                  f"{min(ours) / best:6.2f}", flush=True)
    shutil.rmtree(tmp, ignore_errors=True)


ANCHOR_FILES = "facebook_combined,/work/data/email-Enron.txt,/work/data/ca-HepPh.txt"


def anchor_input(spec, tmp):
    """(name, path graphmine reads, Graph) of a graph of the whole-process table: a shipped data set's
    file, or an edge list whose first line is an "n m" header (a count of the lines after it) copied
    without that line, which graphmine would take for an edge."""
    if not os.path.exists(spec):
        return spec, str(gm.datasets.path(spec)), gm.datasets.load(spec)
    with open(spec) as fh:
        lines = fh.read().splitlines()
    rows = [i for i, line in enumerate(lines) if line.strip() and line.lstrip()[0] not in "#%"]
    head = lines[rows[0]].split() if rows else []
    path = spec
    if len(head) == 2 and head[1].isdigit() and int(head[1]) == len(rows) - 1:
        path = os.path.join(tmp, os.path.basename(spec))
        with open(path, "w") as fh:
            fh.write("\n".join(lines[i] for i in rows[1:]) + "\n")
    return graph_name(spec), path, gm.read_graph(path)


def write_pivoter_edges(G, path):
    """Pivoter's .edges format: an "n m" line, then each edge once as "u v" (0-based)."""
    e = G.edges()
    e = e[e[:, 0] < e[:, 1]]
    with open(path, "w") as fh:
        fh.write(f"{G.n_nodes} {len(e)}\n")
        fh.write("\n".join(f"{a} {b}" for a, b in e.tolist()) + "\n")


class Unfinished(Exception):
    """A program of the whole-process table ran past --anchor-timeout."""


def anchors(args):
    """Whole processes, warm numba cache: the graphmine command against ArbCount (k-cliques, its
    own adjacency file) and Pivoter (all clique sizes, its own .edges file), alternating."""
    import resource
    import statistics

    th = args.threads
    tmp = tempfile.mkdtemp(prefix="graphmine-anchors-")
    arb_env = dict(os.environ, PARLAY_NUM_THREADS=str(th), OMP_NUM_THREADS=str(th))
    gm_env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(gm.__file__)))] + sys.path[1:]))
    script = os.path.join(os.path.dirname(sys.executable), "graphmine")  # the program a user runs
    gm_cmd = [script if os.path.exists(script) else sys.executable] + ([] if os.path.exists(script) else
                                                                       ["-m", "graphmine"]) + ["count-cliques"]

    def timed(argv, env=None, cwd=None):
        # the CPU seconds of the finished child (the whole process, every thread of it)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        try:
            r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=args.anchor_timeout)
        except subprocess.TimeoutExpired:
            raise Unfinished from None
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode:
            raise SystemExit(f"{' '.join(argv)} failed ({r.returncode}): {r.stderr.strip()[-300:]}")
        return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, r.stdout

    def ours(path, extra):
        wall, cpu, out = timed(gm_cmd + [path, *extra, "--json", "--threads", str(th), "--quiet"], env=gm_env)
        d = json.loads(out)
        return wall, cpu, d["seconds"], d.get("count", d.get("counts"))

    def arb(adj, k):
        wall, cpu, out = timed([args.arbcount, "-s", "-k", str(k), "-rounds", "1", "--directType", "GOODRICHPSZONA",
                                "-e", "0.1", adj], env=arb_env)
        lines = out.splitlines()
        reported = float(next(x.split()[-1] for x in lines if x.startswith("### Running Time:")))
        return wall, cpu, reported, int(next(x.split()[-1] for x in lines if x.startswith("count:")))

    def piv(edges):
        # Pivoter reads its binomial table from ./src/nCr.txt: it runs in its own folder
        root = os.path.dirname(os.path.dirname(os.path.abspath(args.pivoter)))
        wall, cpu, out = timed([os.path.abspath(args.pivoter), "-i", edges, "-t", "A", "-k", "0", "-d", "0"],
                               cwd=root)
        lines = out.splitlines()
        i = next(j for j, x in enumerate(lines) if x.startswith("time,"))
        reported = float(lines[i + 1].split(",")[0])  # clock(): CPU seconds of the count, reading excluded
        counts = {}
        for x in lines[i + 2:]:
            parts = x.split(",")
            if len(parts) == 2 and parts[0].strip().isdigit():
                counts[parts[0].strip()] = float(parts[1])
        return wall, cpu, reported, counts

    def alternate(a, b):
        """Samples of both, alternating, after a run of each (numba's cache, the file system's);
        rows whose first runs took over --anchor-long seconds get one more run of each. A
        program past --anchor-timeout seconds gives no sample (None)."""
        first = []
        for f in (a, b):
            try:
                first.append(f())
            except Unfinished:
                first.append(None)
        runs = ([], [])
        live = [i for i in (0, 1) if first[i] is not None]
        n = args.repeat if all(x is not None and x[0] < args.anchor_long for x in first) else 1
        for r in range(n):
            for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                if i in live:
                    try:
                        runs[i].append((a, b)[i]())
                    except Unfinished:
                        live.remove(i)
        return tuple(x if x else None for x in runs)

    def med(runs, i):
        return statistics.median(x[i] for x in runs)

    print(f"\nWhole processes, warm numba cache, {th} threads, median of {args.repeat} alternating runs "
          f"[fastest]; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("wall and CPU (all threads) seconds of the whole process; 'own s': the count's own time, file reading "
          "excluded (graphmine: JSON seconds; ArbCount: its Running Time; Pivoter: its clock() time)")
    print(f"{'graph':18s} {'k':>3s} {'count':>16s} | {'graphmine wall':>16s} {'CPU':>6s} {'own s':>6s} | "
          f"{'anchor wall':>16s} {'CPU':>6s} {'own s':>6s} | {'wall x':>6s} {'CPU x':>6s} {'own x':>6s}")
    inputs = [anchor_input(spec, tmp) for spec in args.anchor_files.split(",") if spec]

    def row(name, k, count, a, b):
        if a is None or b is None:
            done = a or b
            who = "graphmine" if a is None else "the anchor"
            print(f"{name:18s} {k:>3s} {count:>16s} | {who} did not finish within {args.anchor_timeout:g} s"
                  + (f"; the other: {med(done, 0):.3f} s wall, {med(done, 1):.3f} s CPU" if done else ""), flush=True)
            return
        print(f"{name:18s} {k:>3s} {count:>16s} | {med(a, 0):7.3f} [{min(x[0] for x in a):6.3f}] {med(a, 1):6.3f} "
              f"{med(a, 2):6.3f} | {med(b, 0):7.3f} [{min(x[0] for x in b):6.3f}] {med(b, 1):6.3f} {med(b, 2):6.3f} | "
              f"{med(a, 0) / med(b, 0):6.2f} {med(a, 1) / med(b, 1):6.2f} {med(a, 2) / med(b, 2):6.2f}", flush=True)

    if args.arbcount:
        for name, path, G in inputs:
            adj = os.path.join(tmp, name + ".adj")
            write_adjacency_graph(G, adj)
            for k in args.arb_ks:
                a, b = alternate(lambda: ours(path, ["-k", str(k)]), lambda: arb(adj, k))
                counts = {x[3] for x in (a or []) + (b or [])}
                if len(counts) > 1:
                    raise SystemExit(f"{k}-cliques of {name}: graphmine and ArbCount counted {sorted(counts)}")
                row(name, str(k), f"{counts.pop():,}" if counts else "-", a, b)
        print("anchor: ArbCount (GBBS Clique, Goodrich-Pszona order, eps 0.1, -rounds 1); "
              "x = graphmine / ArbCount (medians)")
    if args.pivoter:
        for name, path, G in inputs:
            if name not in args.pivoter_graphs.split(","):
                continue
            edges = os.path.join(tmp, name + ".edges")
            write_pivoter_edges(G, edges)
            a, b = alternate(lambda: ours(path, ["--all-k"]), lambda: piv(edges))
            if a is None or b is None:
                row(name, "all", "-", a, b)
                continue
            exact = a[0][3]
            for x in a + b:
                got = x[3]
                if set(got) - {"0"} != set(exact) or any(
                        abs(float(got[k]) - c) > (0 if c < 2 ** 53 else 1e-9 * c) for k, c in exact.items()):
                    raise SystemExit(f"all clique sizes of {name}: graphmine and Pivoter differ")
            row(name, "all", f"omega {max(map(int, exact))}", a, b)
        print("anchor: Pivoter (one thread; its counts are doubles: equal to graphmine's below 2^53, within "
              "1e-9 above); x = graphmine / Pivoter (medians)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    shutil.rmtree(tmp, ignore_errors=True)


def family(args):
    """The rest of the clique family side by side: all sizes at once, maximal cliques, k-truss."""
    from math import comb

    th = args.threads
    print(f"\nAll clique sizes at once (clique polynomials; the succinct clique tree past 2^92), {th} threads, best of {args.repeat} "
          "(first run: compile or cache load, shown apart)")
    print(f"{'graph':22s} {'edges':>9s} {'omega':>5s} {'first s':>8s} {'best s':>8s}  largest counts")
    G, planted = gm.generators.planted_cliques_graph(args.planted_n, args.planted_p, [args.planted_size], seed=1)
    cases = [(graph_name(spec), load_graph(spec)) for spec in args.all_k_graphs.split(",") if spec]
    cases.append((f"planted-K{args.planted_size}", G))
    for name, H in cases:
        t0 = time.perf_counter()
        counts = gm.count_all_cliques(H, threads=th)
        first = time.perf_counter() - t0
        best = min([first] + [best_time(lambda: gm.count_all_cliques(gm.Graph.from_csr(H.indptr, H.indices),
                                                                     threads=th), 1)[0]
                              for _ in range(args.repeat - 1)])
        top = max(range(len(counts)), key=lambda k: counts[k])
        print(f"{name:22s} {H.n_edges:9,d} {len(counts) - 1:5d} {first:8.2f} {best:8.2f}  "
              f"k=4: {counts[4] if len(counts) > 4 else 0:,}; most at k={top}: {counts[top]:.3e}", flush=True)
    s = args.planted_size
    print(f"planted-K{s}: listing the {s}-cliques one size at a time visits every clique of the planted one "
          f"on the way, more than C({s}, {s // 2}) = {comb(s, s // 2):.2e} search nodes")

    maximal(args)
    truss(args)
    communities(args)


def maximal(args):
    """Maximal cliques: networkx's find_cliques against the graphmine backend (lists of the
    networkx nodes), whole enumerations and a prefix of a stream networkx cannot finish."""
    import networkx as nx
    from itertools import islice

    th = args.threads
    nx.config.backends.graphmine.threads = th
    nx.config.warnings_to_ignore.add("cache")
    gm.count_maximal_cliques(gm.datasets.load("ca-GrQc"), threads=th)  # compile or load the kernels
    sum(1 for _ in gm.maximal_cliques(gm.datasets.load("ca-GrQc"), threads=th))
    print(f"\nMaximal cliques, {th} threads (the caller's thread converts, the search runs one batch ahead "
          "on the others); seconds wall [CPU of all threads], best of the runs")
    print(f"{'graph':18s} {'what':58s} {'s':>8s} {'CPU s':>8s} {'networkx / it':>14s}")
    for spec in [g for g in args.maximal_graphs.split(",") if g]:
        G = load_graph(spec)
        name = graph_name(spec)
        H = G.to_networkx()
        t_nx, c_nx, n_nx = cpu_time(lambda: sum(1 for _ in nx.find_cliques(H)), 1)
        Hc = H.copy()  # a graph without graphmine's conversion cached
        t_conv, c_conv, n_be = cpu_time(lambda: sum(1 for _ in nx.find_cliques(Hc, backend="graphmine")), 1)
        t_be, c_be, _ = cpu_time(lambda: sum(1 for _ in nx.find_cliques(Hc, backend="graphmine")), args.repeat)
        t_cnt, c_cnt, cnt = cpu_time(lambda: gm.count_maximal_cliques(G, threads=th), args.repeat)
        if not n_nx == n_be == cnt:
            raise SystemExit(f"maximal cliques of {name}: networkx {n_nx}, backend {n_be}, count {cnt}")
        for what, t, c in ((f"networkx find_cliques, all {n_nx:,} cliques", t_nx, c_nx),
                           ("nx.find_cliques(backend='graphmine'), with conversion", t_conv, c_conv),
                           ("nx.find_cliques(backend='graphmine'), conversion cached", t_be, c_be),
                           ("graphmine.count_maximal_cliques", t_cnt, c_cnt)):
            print(f"{name:18s} {what:58s} {t:8.3f} {c:8.3f} {t_nx / t:14.1f}", flush=True)
    first = args.maximal_first
    if first:
        # a prefix of each stream (not the same cliques: each lists in its own order), on a graph
        # whose maximal cliques networkx cannot list within a benchmark
        big = load_graph(args.maximal_prefix_graph)
        name = graph_name(args.maximal_prefix_graph)
        Hb = big.to_networkx()
        sum(1 for _ in islice(nx.find_cliques(Hb, backend="graphmine"), 10))  # convert and cache
        t_pb, c_pb, s_pb = cpu_time(lambda: sum(map(len, islice(nx.find_cliques(Hb, backend="graphmine"), first))),
                                    args.repeat)
        t_pn, c_pn, s_pn = cpu_time(lambda: sum(map(len, islice(nx.find_cliques(Hb), first))), 1)
        print(f"{name:18s} {f'networkx find_cliques, first {first:,} ({s_pn / first:.1f} vertices each)':58s} "
              f"{t_pn:8.3f} {c_pn:8.3f} {1.0:14.1f}")
        print(f"{name:18s} {f'backend, conversion cached, first {first:,} ({s_pb / first:.1f} each)':58s} "
              f"{t_pb:8.3f} {c_pb:8.3f} {t_pn / t_pb:14.1f}", flush=True)
    through = [int(v) for v in args.maximal_through.split(",") if v]
    if through:
        # the same cliques on both sides: every maximal clique through one vertex (find_cliques'
        # nodes argument), and the bare cost of handing them over as lists
        big = load_graph(args.maximal_prefix_graph)
        name = graph_name(args.maximal_prefix_graph)
        Hb = big.to_networkx()
        sum(1 for _ in islice(nx.find_cliques(Hb, backend="graphmine"), 10))  # convert and cache
        for v in through:
            t_n, c_n, s_n = cpu_time(lambda: sum(map(len, nx.find_cliques(Hb, [v]))), 1)
            count = sum(1 for _ in nx.find_cliques(Hb, [v], backend="graphmine"))
            t_b, c_b, s_b = cpu_time(lambda: sum(map(len, nx.find_cliques(Hb, [v], backend="graphmine"))),
                                     args.repeat)
            if s_n != s_b:
                raise SystemExit(f"cliques through {v}: networkx lists {s_n} members, the backend {s_b}")
            flat, ends = [], [0]
            for c in nx.find_cliques(Hb, [v], backend="graphmine"):
                flat += c
                ends.append(len(flat))
            t_l, c_l, _ = cpu_time(lambda: sum(map(len, map(flat.__getitem__, map(slice, ends[:-1], ends[1:])))),
                                   args.repeat)
            for what, t, c in ((f"networkx find_cliques(G, [{v}]), {count:,} ({s_n / count:.1f} each)", t_n, c_n),
                               (f"backend, the same cliques", t_b, c_b),
                               (f"the same lists sliced from one flat list (no search)", t_l, c_l)):
                print(f"{name:18s} {what:58s} {t:8.3f} {c:8.3f} {t_n / t:14.1f}", flush=True)


def orders(args):
    """The exact degeneracy order against the approximate one (Graph.oriented): build times from a
    fresh Graph, rounds, largest out-degrees, and the k-clique count on each cached orientation."""
    from graphmine._primitives import order_kernels as ok
    from graphmine.cliques import _cpu as family

    th = args.threads
    specs = [g for g in args.order_graphs.split(",") if g]
    print(f"\nOrientations for k-cliques, {th} threads, best of {args.repeat} (ms): exact degeneracy order "
          "(one serial pass) against the approximate one (parallel rounds); out-degree = largest")
    print(f"{'graph':18s} {'edges':>11s} {'exact':>9s} {'approx':>9s} {'rounds':>6s} {'out-degree':>11s} "
          f"{'k':>2s} {'count exact':>12s} {'count approx':>13s}")
    for spec in specs:
        if spec.startswith("kron"):
            G = gm.generators.kronecker_graph(int(spec[4:]), args.edge_factor, seed=1)
        else:
            G = load_graph(spec)
        name = graph_name(spec)
        ok._approx_degeneracy_rank(G.indptr, G.indices, 0.1, th)  # compile or load the kernels
        times = {o: 1e3 * cpu_time(lambda: gm.Graph.from_csr(G.indptr, G.indices).oriented(o, relabel=True,
                                                                                          threads=th), args.repeat)[0]
                 for o in ("degeneracy", "approx-degeneracy")}
        rounds = ok._approx_degeneracy_rank(G.indptr, G.indices, 0.1, th)[1]
        O = {o: G.oriented(o, relabel=True, threads=th) for o in times}
        for k in [int(k) for k in args.order_ks.split(",") if k]:
            counts = {o: 1e3 * cpu_time(lambda: family.count_cliques(G, k, order=o, threads=th), args.repeat)[0]
                      for o in times}
            print(f"{name:18s} {G.n_edges:11,d} {times['degeneracy']:9.1f} {times['approx-degeneracy']:9.1f} "
                  f"{rounds:6d} {O['degeneracy'].max_out_degree:5d}/{O['approx-degeneracy'].max_out_degree:<5d} "
                  f"{k:2d} {counts['degeneracy']:12.1f} {counts['approx-degeneracy']:13.1f}", flush=True)


def truss(args):
    """k-truss: networkx's k_truss against graphmine's, on a Graph and through the backend."""
    import networkx as nx

    th = args.threads
    if args.truss_scale:
        K = gm.generators.kronecker_graph(args.truss_scale, args.edge_factor, seed=1)
        gname = f"kron{args.truss_scale}-ef{args.edge_factor}"
    else:
        # G(n, p) with planted cliques: networkx's k_truss builds a set per edge endpoint, which on a
        # Kronecker graph's hubs takes it hours
        K, _ = gm.generators.planted_cliques_graph(args.truss_n, args.truss_p, [40, 30, 20], seed=1)
        gname = f"G({args.truss_n:,}, {args.truss_p:g})+K40,K30,K20"
    Hk = K.to_networkx()
    k = args.truss_k
    print(f"\nk-truss (k = {k}) on {gname} ({K.n_edges:,} edges), {th} threads")
    gm.k_truss(gm.generators.kronecker_graph(8, 8, seed=1), k, threads=th)  # compile or load
    nx.config.backends.graphmine.threads = th
    t_ours, c_ours, T = cpu_time(lambda: gm.k_truss(gm.Graph.from_csr(K.indptr, K.indices), k, threads=th),
                                 args.repeat)
    copies = iter([Hk.copy() for _ in range(args.repeat)])  # without graphmine's conversion cached
    t_be, c_be, Tb = cpu_time(lambda: nx.k_truss(next(copies), k, backend="graphmine"), args.repeat)
    t_nx, c_nx, Tn = cpu_time(lambda: nx.k_truss(Hk, k), 1)
    if set(map(frozenset, Tn.edges)) != {frozenset(e) for e in T.node_ids[T.edges()].tolist()}:
        raise SystemExit("k-truss: graphmine and networkx differ")
    print(f"{'what':52s} {'s':>8s} {'CPU s':>8s} {'networkx / it':>14s}")
    for what, t, c in ((f"networkx k_truss ({Tn.number_of_edges():,} edges left)", t_nx, c_nx),
                       ("nx.k_truss(backend='graphmine'), conversion included", t_be, c_be),
                       ("graphmine.k_truss on a Graph", t_ours, c_ours)):
        print(f"{what:52s} {t:8.3f} {c:8.3f} {t_nx / t:14.1f}", flush=True)


def truss_gpu(args):
    """k-truss on the GPU (rounds of removing every edge below k - 2 at once) against the CPU's
    queue peeling, on Kronecker graphs and the planted-clique graph."""
    from graphmine.cuda._device import device_graph
    from graphmine.truss._cuda import truss_alive

    th = args.threads
    gm.k_truss(gm.generators.kronecker_graph(8, 8, seed=1), 4, threads=th)  # compile or load
    gm.k_truss(gm.generators.kronecker_graph(8, 8, seed=1), 4, device="cuda")
    print(f"\nk-truss, CPU ({th} threads) against the GPU; seconds, best of {args.repeat}; a fresh Graph each run "
          "(orientation included), 'rounds only' on the device graph already built")
    print(f"{'graph':28s} {'edges':>11s} {'k':>3s} {'left':>11s} {'rounds':>6s} {'CPU s':>8s} {'GPU s':>8s} "
          f"{'rounds only':>11s} {'CPU / GPU':>9s}")
    specs = [f"kron{s}" for s in args.truss_gpu_scales.split(",") if s]
    for spec in specs + ["planted"]:
        if spec == "planted":
            K, _ = gm.generators.planted_cliques_graph(args.truss_n, args.truss_p, [40, 30, 20], seed=1)
            name = f"G({args.truss_n:,}, {args.truss_p:g})+K40,30,20"
        else:
            K = gm.generators.kronecker_graph(int(spec[4:]), args.edge_factor, seed=1)
            name = f"{spec}-ef{args.edge_factor}"
        for k in [int(x) for x in args.truss_gpu_ks.split(",")]:
            fresh = lambda: gm.Graph.from_csr(K.indptr, K.indices)
            t_cpu, _, T = cpu_time(lambda: gm.k_truss(fresh(), k, threads=th), args.repeat)
            t_gpu, _, Tg = cpu_time(lambda: gm.k_truss(fresh(), k, device="cuda"), args.repeat)
            if T != Tg:
                raise SystemExit(f"k-truss of {name}, k = {k}: the CPU and the GPU differ")
            DG = device_graph(K, "degree", th)
            t_r, _, (_, rounds) = cpu_time(lambda: truss_alive(DG, k), args.repeat)
            print(f"{name:28s} {K.n_edges:11,} {k:3d} {T.n_edges:11,} {rounds:6d} {t_cpu:8.3f} {t_gpu:8.3f} "
                  f"{t_r:11.4f} {t_cpu / t_gpu:9.2f}", flush=True)


def communities(args):
    """k-clique communities: networkx's k_clique_communities against the graphmine backend."""
    import networkx as nx

    th = args.threads
    for gname in args.kcc_graphs.split(","):
        G = gm.datasets.load(gname)
        H = G.to_networkx()
        k = args.kcc_k
        gm.clique_communities(gm.generators.kronecker_graph(8, 8, seed=1), k)  # compile or load
        nx.config.backends.graphmine.threads = th
        t_nx, want = best_time(lambda: set(nx.community.k_clique_communities(H, k)), 1)
        Hc = H.copy()  # a graph without graphmine's conversion cached
        t_be, got = best_time(lambda: set(nx.community.k_clique_communities(Hc, k, backend="graphmine")), 1)
        t_gm, groups = best_time(lambda: gm.clique_communities(G, k), args.repeat)
        if got != want or len(groups) != len(want):
            raise SystemExit(f"k-clique communities on {gname}: graphmine and networkx differ")
        print(f"\nk-clique communities (k = {k}) on {gname} ({G.n_edges:,} edges; {len(want):,} communities)")
        print(f"{'what':52s} {'s':>8s} {'networkx / it':>14s}")
        for what, t in (("networkx k_clique_communities", t_nx),
                        ("nx k_clique_communities(backend='graphmine'), with conversion", t_be),
                        ("graphmine.clique_communities on a Graph", t_gm)):
            print(f"{what:52s} {t:8.3f} {t_nx / t:14.1f}", flush=True)


def scaling(args):
    """The triangle counting step (orientation cached) on 1, 2, 4, ... threads."""
    import numba

    G = gm.generators.kronecker_graph(args.scaling_scale, args.edge_factor, seed=1)
    top = numba.config.NUMBA_NUM_THREADS
    threads = [t for t in (1, 2, 4, 8, 16, 32, 64, 128) if t <= top]
    G.oriented("degree", relabel=True, threads=top)
    gm.count_triangles(G, threads=top)  # load the kernels
    print(f"kron{args.scaling_scale}-ef{args.edge_factor}: {G.n_nodes:,} vertices, {G.n_edges:,} edges; "
          f"triangle counting step, best of {args.repeat}")
    print(f"{'threads':>7s} {'seconds':>8s} {'slowest':>8s} {'speedup':>8s}")
    base = None
    for t in threads:
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            count = gm.count_triangles(G, threads=t)
            times.append(time.perf_counter() - t0)
        base = base or min(times)
        print(f"{t:7d} {min(times):8.3f} {max(times):8.3f} {base / min(times):8.2f}", flush=True)
    print(f"triangles: {count:,}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="16,17,18,19,20", help="Kronecker scales (comma list)")
    ap.add_argument("--edge-factor", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--budget", type=float, default=120.0, help="skip a baseline expected to exceed this (s)")
    ap.add_argument("--file-scale", type=int, default=18, help="scale of the whole-process edge list")
    ap.add_argument("--k4-max-edges", type=float, default=5e6, help="skip 4-cliques on larger graphs")
    ap.add_argument("--kclist-scale", type=int, default=18, help="Kronecker scale of the kClist comparison (0: none)")
    ap.add_argument("--kclist-graphs", default="", help="shipped graphs of the kClist comparison (comma list; default all)")
    ap.add_argument("--skip-whole-process", action="store_true")
    ap.add_argument("--only-whole-process", action="store_true")
    ap.add_argument("--skip-kclist", action="store_true")
    ap.add_argument("--arbcount", default="", help="path of a built GBBS Clique program (ArbCount): also compare")
    ap.add_argument("--no-kclist", action="store_true", help="leave kClist out of the k-clique comparison (with --arbcount: print only the ArbCount table)")
    ap.add_argument("--arb-ks", default="4,5,6", help="k of the ArbCount comparison (comma list)")
    ap.add_argument("--anchors", action="store_true",
                    help="only the whole-process table against ArbCount (--arbcount) and Pivoter (--pivoter)")
    ap.add_argument("--pivoter", default="",
                    help="path of a built Pivoter (bin/degeneracy_cliques in its folder): all-k whole processes")
    ap.add_argument("--anchor-files", default=ANCHOR_FILES,
                    help="graphs of the whole-process table (shipped names or edge-list paths, comma list)")
    ap.add_argument("--pivoter-graphs", default="email-Enron,ca-HepPh", help="graphs of the Pivoter rows (names)")
    ap.add_argument("--anchor-long", type=float, default=10.0,
                    help="whole-process rows whose first runs take longer get one timed run of each")
    ap.add_argument("--anchor-timeout", type=float, default=300.0, help="a whole process past this many seconds stops")
    ap.add_argument("--arb-large-k", action="store_true",
                    help="also k > 4 on graphs of over 2M edges in the ArbCount comparison (long)")
    ap.add_argument("--snap-files", default="",
                    help="edge-list files (SNAP's ca-HepPh.txt, email-Enron.txt; not shipped) added to the "
                         "kClist and ArbCount comparisons (comma list)")
    ap.add_argument("--only-kclist", action="store_true")
    ap.add_argument("--scaling", action="store_true", help="only the triangle thread-scaling table")
    ap.add_argument("--only-family", action="store_true",
                    help="only all-sizes counting, maximal cliques and k-truss against networkx")
    ap.add_argument("--all-k-graphs", default="ca-HepTh,facebook_combined",
                    help="graphs of the all-sizes table (names or edge-list paths, comma list)")
    ap.add_argument("--planted-n", type=int, default=20000)
    ap.add_argument("--planted-p", type=float, default=0.0005)
    ap.add_argument("--planted-size", type=int, default=150)
    ap.add_argument("--maximal-graphs", default="ca-HepTh,ca-GrQc",
                    help="graphs (names or edge-list paths) whose maximal cliques both list whole (comma list)")
    ap.add_argument("--maximal-prefix-graph", default="facebook_combined")
    ap.add_argument("--maximal-first", type=int, default=1_000_000,
                    help="time the first N maximal cliques of --maximal-prefix-graph (0: skip)")
    ap.add_argument("--maximal-through", default="2334,1659",
                    help="vertices of --maximal-prefix-graph: time every maximal clique through each, "
                         "networkx and the backend listing the same cliques (comma list; empty: skip)")
    ap.add_argument("--truss-scale", type=int, default=0, help="Kronecker scale of the k-truss graph (0: planted)")
    ap.add_argument("--truss-n", type=int, default=100_000)
    ap.add_argument("--truss-p", type=float, default=2e-4)
    ap.add_argument("--truss-k", type=int, default=6)
    ap.add_argument("--only-truss-gpu", action="store_true", help="only the k-truss table of the CPU against the GPU")
    ap.add_argument("--truss-gpu-scales", default="16,18,20", help="Kronecker scales of the GPU k-truss table")
    ap.add_argument("--truss-gpu-ks", default="4,8", help="k of the GPU k-truss table (comma list)")
    ap.add_argument("--scaling-scale", type=int, default=20)
    ap.add_argument("--kcc-graphs", default="ca-HepTh,ca-GrQc", help="graphs of the k-clique communities table")
    ap.add_argument("--kcc-k", type=int, default=4)
    ap.add_argument("--only-communities", action="store_true", help="only the k-clique communities table")
    ap.add_argument("--only-maximal", action="store_true", help="only the maximal-clique table")
    ap.add_argument("--only-truss", action="store_true", help="only the k-truss table")
    ap.add_argument("--only-orders", action="store_true",
                    help="only the exact against the approximate degeneracy orientation")
    ap.add_argument("--order-graphs", default="facebook_combined,kron14,kron16",
                    help="graphs of the orientation table (names, paths, or kronS for a Kronecker graph)")
    ap.add_argument("--order-ks", default="4,5", help="k of the orientation table's counts")
    args = ap.parse_args()
    args.arb_ks = [int(k) for k in args.arb_ks.split(",") if k]
    scales = [int(s) for s in args.scales.split(",") if s]
    if args.anchors:
        anchors(args)
        return
    if args.only_whole_process:
        whole_process(args)
        return
    if args.only_kclist:
        kclist_compare(args)
        return
    if args.scaling:
        scaling(args)
        return
    if args.only_communities:
        communities(args)
        return
    if args.only_maximal:
        maximal(args)
        return
    if args.only_orders:
        orders(args)
        return
    if args.only_truss:
        truss(args)
        return
    if args.only_truss_gpu:
        truss_gpu(args)
        return
    if args.only_family:
        family(args)
        return

    libs = [("networkx", "networkx", lambda G: nx_triangles(G), lambda G: nx_4cliques(G)),
            ("networkit", "networkit", lambda G: nk_triangles(G, args.threads), None),
            ("igraph", "igraph", lambda G: ig_triangles(G), lambda G: ig_4cliques(G))]
    libs = [lib for lib in libs if have(lib[1])]
    # seconds per edge observed for each baseline, to skip hopeless runs on larger graphs
    rate = {}
    header = f"{'graph':18s} {'edges':>10s} {'task':>9s} {'count':>13s} {'graphmine s':>12s}"
    for name, *_ in libs:
        header += f" {name + ' s':>12s} {'ratio':>7s}"
    print(f"graphmine {gm.__version__}, {args.threads} threads, best of {args.repeat}; ratio = other / graphmine")
    print(header)
    for gname, G in graphs(scales, args.edge_factor):
        gm.count_triangles(G, threads=args.threads)  # load the kernels from numba's cache

        def fresh():
            # a Graph caches its orientations: time them too, as the other libraries' times do
            return gm.Graph.from_csr(G.indptr, G.indices)

        tasks = [("triangles", lambda: gm.count_triangles(fresh(), threads=args.threads), 2),
                 ("4-cliques", lambda: gm.count_cliques(fresh(), 4, threads=args.threads), 3)]
        for task, ours, idx in tasks[:1 if G.n_edges > args.k4_max_edges else 2]:
            t_ours, count = best_time(ours, args.repeat)
            line = f"{gname:18s} {G.n_edges:10,d} {task:>9s} {count:13,d} {t_ours:12.4f}"
            for lib in libs:
                make = lib[idx]
                key = (lib[0], task)
                if make is None or rate.get(key, 0) * G.n_edges > args.budget:
                    line += f" {'-':>12s} {'-':>7s}"
                    continue
                t, c = best_time(make(G), 1 if G.n_edges > 1e6 else args.repeat)
                if c != count:
                    raise SystemExit(f"{lib[0]} counted {c} {task} on {gname}, graphmine {count}")
                rate[key] = max(rate.get(key, 0), t / max(G.n_edges, 1) * (3 if task == "4-cliques" else 1))
                line += f" {t:12.4f} {t / t_ours:7.1f}"
            print(line, flush=True)
    if not args.skip_kclist:
        kclist_compare(args)
    if not args.skip_whole_process:
        whole_process(args)


if __name__ == "__main__":
    main()
