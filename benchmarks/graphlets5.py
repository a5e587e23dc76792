"""The 5-vertex node-orbit census against ORCA: time and peak memory.

ORCA (Hočevar and Demšar, https://github.com/thocevar/orca) is not shipped: build it outside this
repository with one line (``g++ -O2 -std=c++11 -o orca orca.cpp``) and pass the program's path.
For each graph the script writes ORCA's input (``n m`` then the 0-based edges), runs ``orca node 5
IN OUT`` once, and reads the seconds ORCA reports for its own count (``total:``; the input read
and the output written excluded); a run past ``--orca-timeout`` processor seconds (600) is stopped and
its row has graphmine's seconds only. graphmine's ``orbit_counts(G, 5)`` runs in a child process per
graph and thread count (kernels compiled beforehand on a small graph, the graph built fresh, its
relabelling and the 4-vertex census included), best of ``--repeat``; the child reports the rise of
its peak resident memory over the run (``/proc/self/clear_refs`` resets the peak first) against
the result's own 8 x 73 x n bytes. The counts are checked against ORCA's file.

    python benchmarks/graphlets5.py --orca /tmp/orca/orca [--graphs ca-GrQc,ca-HepTh,facebook_combined]
        [--threads 1,2] [--repeat 1] [--orca-timeout 600]

With ``--estimate GRAPH`` it instead measures the 5-vertex estimate (``method='sample'``) on one
graph against its exact census: over ``--runs`` seeds (0, 1, ...), per graphlet counted at least
``--min-count`` times, the mean relative error, the median, and how many of the runs' 95%
intervals hold the exact count; and the estimate's time against the exact census's.

    python benchmarks/graphlets5.py --estimate ca-GrQc [--samples 500] [--runs 100] [--min-count 1000] [--replay]

With ``--replay`` the exact census is counted once and each seed's draw is replayed on it (the
estimator's own code with the drawn vertices' rows looked up; one real run is checked equal), for
the estimator and, beside it, the earlier one (the draw proportional to the 2-hop weight alone, the
draws' mean, a normal interval): the coverage of many seeds at the cost of the census.

With ``--stderr GRAPH`` it computes GRAPH's exact census once and, from every vertex's orbit
counts, the estimate's relative standard error in closed form at each of ``--sizes`` vertices,
for the earlier draw (plain and with the take-all stratum) and the estimator's large-sample error
(no draws made), and with ``--replay-runs R`` the rms error of R seeded draws replayed on it:

    python benchmarks/graphlets5.py --stderr kronecker-11 --sizes 300,1000,3000 --min-count 1000000 [--replay-runs 100]

With ``--trees GRAPH`` it measures the spanning-tree estimate (``sampler='trees'``) against GRAPH's
exact census: at each of ``--tree-samples`` draws over the matching ``--tree-runs`` seeds, per
graphlet counted at least ``--min-count`` times, the rms relative error, the mean stated relative
standard error and the coverage of the 95% intervals, with the processor seconds per run; and the
vertex sampler at ``--samples`` vertices over ``--vertex-runs`` seeds, with the trees' rms error
scaled to the vertex sampler's processor seconds (rms x sqrt(trees' s / vertices' s)):

    python benchmarks/graphlets5.py --trees kronecker-10 --tree-samples 100000,1000000,10000000
        --tree-runs 100,100,20 --samples 100 --vertex-runs 10 --min-count 1 --threads 2

With ``--trees-large GRAPHS`` it runs the spanning-tree estimate once per graph and size on graphs
too large to count exactly: wall and processor seconds (graph generation, the exact 4-vertex
census, the estimate), each graphlet's estimate and stated relative standard error, and three exact
checks: the 5-clique count (``count_cliques(G, 5)``), and the non-induced 4-star and 4-path totals
(sum_v C(d_v, 4); W_P - 4 C4 - sum over triangles of (2 (d_x + d_y + d_z) - 9), from the 4-vertex
census) against the estimate mapped to copies (``GRAPHLET_PATTERNS5 @ estimate``):

    python benchmarks/graphlets5.py --trees-large kronecker-16,kronecker-18,kronecker-20
        --tree-samples 10000000,100000000 --threads 2

With ``--tree-split GRAPH`` it works out, from GRAPH's exact census and the variance formula (no
draws), the spanning-tree estimate's relative standard error per graphlet at 10^6 draws for the
equal thirds used and for other fixed splits between the 4-path, fork and 4-star, with the split
that minimises the worst graphlet's:

    python benchmarks/graphlets5.py --tree-split kronecker-10

A graph named ``kronecker-S`` is graphmine's seeded Kronecker graph of scale S (edge factor 16,
seed 1), built in the run.

Nothing here asserts on time.
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import graphmine as gm  # noqa: E402


def _status(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


def load(name):
    """A shipped graph, or ``kronecker-S``: graphmine's seeded Kronecker graph of scale S (seed 1)."""
    if name.startswith("kronecker-"):
        from graphmine.io.generators import kronecker_graph

        return kronecker_graph(int(name.split("-")[1]), seed=1)
    return gm.datasets.load(name)


def child(name, threads, repeat, check):
    """Time orbit_counts(G, 5) in this process; print JSON (seconds, peak rise, counts file check)."""
    gm.orbit_counts(gm.from_edges(np.array([[0, 1], [1, 2], [2, 0], [2, 3], [3, 4]]), n_nodes=5), 5, threads=threads)
    best = None
    for _ in range(repeat):
        G = load(name)
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # reset the peak resident size to the current one
        except OSError:
            pass
        before = _status("VmRSS")
        t0, c0 = time.perf_counter(), time.process_time()
        out = gm.orbit_counts(G, 5, threads=threads)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        rise = _status("VmHWM") - before
        if best is None or seconds < best[0]:
            best = (seconds, cpu)
    same = None
    if check:
        same = bool((np.loadtxt(check, dtype=np.int64) == out).all())
    print(json.dumps({"seconds": best[0], "cpu": best[1], "rise": rise, "n": G.n_nodes, "same": same}))


def _replay(G, rows, samples, seed, plain):
    """One estimate replayed on the exact census ``rows`` (n, 73): the library's (``plain`` False:
    graphmine.graphlets._census5.sample5 with the drawn vertices' rows looked up, the same draws and
    arithmetic as a real run) or the earlier estimator (``plain``: the draw proportional to the
    2-hop weight alone, take-all stratum, the draws' mean, a normal interval). Returns (estimate
    (21,), low, high)."""
    from statistics import NormalDist

    from graphmine.graphlets import _census5, _cpu

    rp, ri, _reid, _split, orig = _cpu._rank_space(G)
    if not plain:
        from scipy.special import stdtrit

        est, cov, df, _ = _census5.sample5(G, 1, samples, seed, _cpu._rank_space, rows[:, :15],
                                           rows_of=lambda verts: rows[orig[verts]])
        z = float(stdtrit(df, 0.975)) if df > 0 else NormalDist().inv_cdf(0.975)
    else:
        n = G.n_nodes
        w = _census5._two_hop(rp, ri)
        hubs, left = _census5._take_all(w, samples)
        rest = np.ones(n, bool)
        rest[hubs] = False
        p = np.where(rest, w, 0.0)
        p /= max(p.sum(), 1.0)
        draws = np.random.default_rng(seed).choice(n, size=left, p=p) if left and rest.any() else np.zeros(0, np.int64)
        y = np.stack([rows[orig][:, list(o)].sum(axis=1) for o in _census5.GRAPHLET_ORBITS5], axis=1) / 5.0
        est = y[hubs].sum(axis=0)
        cov = np.zeros((21, 21))
        if draws.size:
            zz = y[draws] / p[draws][:, None]
            est = est + zz.mean(axis=0)
            if draws.size > 1:
                cov = np.cov(zz, rowvar=False, ddof=1) / draws.size
        z = NormalDist().inv_cdf(0.975)
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return est, np.maximum(est - z * se, 0.0), est + z * se


def estimate(name, samples, runs, min_count, threads, replay):
    """The sampling estimate's relative errors and interval coverage against the exact census; with
    ``replay``, the draws replayed on the exact census for this estimator and the earlier one."""
    G = load(name)
    gm.graphlet_counts(G, 5, method="sample", sampler="vertices", samples=2, seed=0, threads=threads)  # compiled beforehand
    t0, c0 = time.perf_counter(), time.process_time()
    if replay:
        rows = gm.orbit_counts(G, 5, threads=threads)
        exact = gm.graphlet_counts(G, 5, threads=threads).astype(np.float64)
    else:
        exact = gm.graphlet_counts(G, 5, threads=threads).astype(np.float64)
    exact_s, exact_cpu = time.perf_counter() - t0, time.process_time() - c0
    kinds = ("earlier", "now") if replay else ("now",)
    res = {k: ([], []) for k in kinds}
    secs = []
    for seed in range(runs):
        for kind in kinds:
            if replay:
                est, lo, hi = _replay(G, rows, samples, seed, kind == "earlier")
            else:
                t0, c0 = time.perf_counter(), time.process_time()
                r = gm.graphlet_counts(G, 5, method="sample", sampler="vertices", samples=samples, seed=seed, threads=threads)
                secs.append((time.perf_counter() - t0, time.process_time() - c0))
                est, lo, hi = r.estimate[9:], r.ci_low[9:], r.ci_high[9:]
            res[kind][0].append(est)
            res[kind][1].append((lo <= exact[9:]) & (exact[9:] <= hi))
    if replay:  # the replay is the real run: check one seed
        r = gm.graphlet_counts(G, 5, method="sample", sampler="vertices", samples=samples, seed=0, threads=threads)
        same = bool(np.allclose(r.estimate[9:], res["now"][0][0], rtol=1e-12, atol=0))
        print(f"{name}: n {G.n_nodes:,}, m {G.n_edges:,}; exact census {exact_s:.2f} s ({exact_cpu:.2f} processor s); "
              f"draws of {samples} vertices replayed on it over {runs} seeds (a real run's estimate equals the "
              f"replay's: {same}); load {os.getloadavg()[0]:.1f}")
    else:
        secs = np.array(secs)
        print(f"{name}: n {G.n_nodes:,}, m {G.n_edges:,}; exact census {exact_s:.2f} s ({exact_cpu:.2f} processor s); "
              f"estimate from {samples} vertices {np.median(secs[:, 0]):.2f} s ({np.median(secs[:, 1]):.2f} "
              f"processor s; medians of {runs} seeded runs); load {os.getloadavg()[0]:.1f}")
    names = gm.graphlets.GRAPHLET_NAMES
    kept = [g for g in range(21) if exact[9 + g] >= min_count]
    print(f"{len(kept)} graphlets counted at least {min_count:,} times; per estimator: mean relative error, "
          f"root mean square relative error, and the runs whose 95% interval holds the exact count")
    print(f"{'graphlet':<20s} {'exact':>14s} " + " ".join(f"{k + ': mean':>14s} {'rms':>7s} {'covers':>9s}"
                                                         for k in kinds))
    summary = {k: [] for k in kinds}
    for g in kept:
        cells = []
        for kind in kinds:
            est, cov = np.array(res[kind][0]), np.array(res[kind][1])
            rel = (est[:, g] - exact[9 + g]) / exact[9 + g]
            summary[kind].append((np.sqrt((rel ** 2).mean()), int(cov[:, g].sum())))
            cells.append(f"{np.abs(rel).mean():14.3%} {np.sqrt((rel ** 2).mean()):7.3%} "
                         f"{int(cov[:, g].sum()):>5d}/{runs}")
        print(f"{names[9 + g]:<20s} {exact[9 + g]:14,.0f} " + " ".join(cells))
    for kind in kinds:
        rms, cov = np.array(summary[kind]).T
        print(f"{kind}: coverage {int(cov.min())}..{int(cov.max())} of {runs} ({int((cov < 0.9 * runs).sum())} "
              f"graphlets below 90% of the runs); rms relative error max {rms.max():.2%}, "
              f"median {np.median(rms):.2%}")


def _trees(G, samples, seed, threads):
    t0, c0 = time.perf_counter(), time.process_time()
    r = gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=samples, seed=seed, threads=threads)
    return r, time.perf_counter() - t0, time.process_time() - c0


def trees_accuracy(name, sizes, runs, min_count, threads, vertex_samples, vertex_runs):
    """The spanning-tree estimate's errors and coverage against the exact census, and the vertex
    sampler's at equal processor seconds."""
    G = load(name)
    gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=10, seed=0, threads=threads)  # compiled
    t0, c0 = time.perf_counter(), time.process_time()
    exact = gm.graphlet_counts(G, 5, threads=threads).astype(np.float64)[9:]
    print(f"{name}: n {G.n_nodes:,}, m {G.n_edges:,}; exact census {time.perf_counter() - t0:.2f} s "
          f"({time.process_time() - c0:.2f} processor s) on {threads} threads; load {os.getloadavg()[0]:.2f}",
          flush=True)
    kept = [g for g in range(21) if exact[g] >= min_count]
    names = gm.graphlets.GRAPHLET_NAMES[9:]
    table = {}
    for samples, nruns in zip(sizes, runs):
        est, se, cover, cpu, wall = [], [], [], [], []
        for seed in range(nruns):
            r, w, c = _trees(G, samples, seed, threads)
            est.append(r.estimate[9:])
            se.append(r.stderr[9:])
            cover.append((r.ci_low[9:] <= exact) & (exact <= r.ci_high[9:]))
            cpu.append(c)
            wall.append(w)
        est, se, cover = np.array(est), np.array(se), np.array(cover)
        with np.errstate(divide="ignore", invalid="ignore"):
            rms = np.sqrt((((est - exact) / exact) ** 2).mean(axis=0))
            stated = (se / exact).mean(axis=0)
        table[samples] = (rms, stated, cover.mean(axis=0), np.median(cpu), np.median(wall), nruns)
        print(f"  {samples:,} trees: {np.median(cpu):.3f} processor s, {np.median(wall):.3f} s a run (medians of "
              f"{nruns}); load {os.getloadavg()[0]:.2f}", flush=True)
    vt = None
    if vertex_runs:
        est, cpu = [], []
        gm.graphlet_counts(G, 5, method="sample", sampler="vertices", samples=5, seed=0, threads=threads)
        for seed in range(vertex_runs):
            c0 = time.process_time()
            r = gm.graphlet_counts(G, 5, method="sample", sampler="vertices", samples=vertex_samples, seed=seed, threads=threads)
            cpu.append(time.process_time() - c0)
            est.append(r.estimate[9:])
        with np.errstate(divide="ignore", invalid="ignore"):
            vrms = np.sqrt((((np.array(est) - exact) / exact) ** 2).mean(axis=0))
        vt = (vrms, float(np.median(cpu)))
        print(f"  vertex sampler, {vertex_samples:,} vertices: {vt[1]:.3f} processor s a run (median of "
              f"{vertex_runs})", flush=True)
    print("per size of the tree sample: rms relative error / mean stated relative stderr / share of 95% intervals "
          "holding the exact count" + ("; last: the vertex sampler's rms error, and the trees' largest sample's "
                                      "rms scaled to its processor seconds" if vt else ""))
    head = f"{'graphlet':<20s} {'exact':>16s} " + " ".join(f"{f'{k:.0e}':>22s}" for k in sizes)
    print(head + (f" {'vertices':>9s} {'trees@=s':>9s}" if vt else ""))
    big = sizes[-1]
    for g in kept:
        cells = [f"{table[k][0][g]:7.2%} {table[k][1][g]:7.2%} {table[k][2][g]:6.0%}" for k in sizes]
        line = f"{names[g]:<20s} {exact[g]:16,.0f} " + " ".join(f"{c:>22s}" for c in cells)
        if vt:
            line += f" {vt[0][g]:9.2%} {table[big][0][g] * np.sqrt(table[big][3] / vt[1]):9.2%}"
        print(line)
    for k in sizes:
        rms, stated, cov = table[k][:3]
        print(f"{k:,} trees: rms relative error median {np.median(rms[kept]):.2%}, max {rms[kept].max():.2%}; "
              f"coverage {cov[kept].min():.0%}..{cov[kept].max():.0%} over {table[k][5]} runs")


def _four_path_copies(G, rows4, W_P):
    """Copies of the 4-path: W_P less the relaxed configurations with a repeated vertex (4 per
    4-cycle: a = e; per triangle x, y, z and its centre c: a = d or e = b, 2 (d_x + d_y + d_z) - 9)."""
    from graphmine.graphlets._cpu import ORBIT_SIZES

    sums = rows4.sum(axis=0)
    c4 = int(sums[8]) // 4 + int(sums[12]) // 2 + 3 * (int(sums[14]) // 4)  # 4-cycles in 4-cycles, diamonds, K4s
    d = np.diff(G.indptr).astype(np.int64)
    tri_deg = int((rows4[:, 3].astype(object) * d.astype(object)).sum())  # sum over triangles of d_x + d_y + d_z
    tri = int(sums[3]) // ORBIT_SIZES[3]
    return W_P - 4 * c4 - (2 * tri_deg - 9 * tri)


def trees_large(names, sizes, threads, clique_check=True):
    """The spanning-tree estimate on large graphs: times, stated errors, exact checks."""
    from math import comb

    from graphmine.graphlets import _census5, _cpu, _trees5

    gm.graphlet_counts(gm.from_edges(np.array([[0, 1], [1, 2], [2, 0], [2, 3], [3, 4]]), n_nodes=5), 5,
                       method="sample", sampler="trees", samples=10, seed=0, threads=threads)  # compiled
    P = np.array(_census5.GRAPHLET_PATTERNS5, np.float64)
    for name in names:
        t0, c0 = time.perf_counter(), time.process_time()
        G = load(name)
        print(f"{name}: n {G.n_nodes:,}, m {G.n_edges:,}, largest degree {int(np.diff(G.indptr).max()):,}; built in "
              f"{time.perf_counter() - t0:.1f} s ({time.process_time() - c0:.1f} processor s); load "
              f"{os.getloadavg()[0]:.2f}", flush=True)
        t0, c0 = time.perf_counter(), time.process_time()
        rows4 = _cpu._census(G, False, threads, False)
        print(f"  4-vertex census (exact G0..G8, part of every estimate): {time.perf_counter() - t0:.1f} s "
              f"({time.process_time() - c0:.1f} processor s)", flush=True)
        t0, c0 = time.perf_counter(), time.process_time()
        W = _trees5.tree_weights(G.indptr, G.indices)[0]
        print(f"  W_P {W[0]:.4e}, W_F {W[1]:.4e}, W_S {W[2]:.4e} in {time.perf_counter() - t0:.2f} s", flush=True)
        d = np.diff(G.indptr)
        stars = sum(comb(int(x), 4) for x in d)
        paths = _four_path_copies(G, rows4, W[0])
        print(f"  exact: 4-stars {stars:.6e}, 4-paths {paths:.6e} (copies)", flush=True)
        runs = []
        for samples in sizes:
            # the draws and their combination (the public call adds the 4-vertex census above)
            t0, c0 = time.perf_counter(), time.process_time()
            est, cov, _, _, _, hits, counts, _ = _trees5.sample_trees5(G, samples, 1, threads)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            se = np.sqrt(np.diag(cov))
            rel = np.divide(se, est, out=np.full(21, np.inf), where=est > 0)
            miss = hits[:, 21] / np.maximum(counts, 1)
            print(f"  {samples:,} trees on {threads} threads: {wall:.1f} s, {cpu:.1f} processor s "
                  f"({1e6 * cpu / samples:.2f} processor us a draw); misses P {miss[0]:.2%} F {miss[1]:.2%} "
                  f"S {miss[2]:.2%}; load {os.getloadavg()[0]:.2f}", flush=True)
            print(f"  {'graphlet':<20s} {'estimate':>12s} {'rel. stderr':>11s}")
            for g in range(21):
                print(f"  {gm.graphlets.GRAPHLET_NAMES[9 + g]:<20s} {est[g]:12.4e} {rel[g]:11.3%}")
            ok = [gm.graphlets.GRAPHLET_NAMES[9 + g] for g in range(21) if est[g] >= 1e6 and rel[g] <= 0.01]
            print(f"  count >= 1e6 and relative stderr <= 1%: {len(ok)} of {int((est >= 1e6).sum())}: {', '.join(ok)}")
            non, se_non = P @ est, np.sqrt(np.diag(P @ cov @ P.T))
            for label, g, exact in (("4-star copies", 2, stars), ("4-path copies", 0, paths)):
                print(f"  {label}: estimate {non[g]:.6e} +- {se_non[g]:.2e} against exact {exact:.6e} "
                      f"({(non[g] - exact) / max(se_non[g], 1e-300):+.2f} stderr)", flush=True)
            runs.append((samples, est[20], se[20]))
        if clique_check:  # last: on the largest graphs it takes longer than the estimates
            t0, c0 = time.perf_counter(), time.process_time()
            k5 = int(gm.count_cliques(G, 5, threads=threads))
            print(f"  exact 5-cliques {k5:,} ({time.perf_counter() - t0:.1f} s, {time.process_time() - c0:.1f} "
                  f"processor s)", flush=True)
            for samples, x, sx in runs:
                print(f"  {samples:,} trees: 5-cliques {x:.6e} +- {sx:.2e} ({(x - k5) / max(sx, 1e-300):+.2f} stderr)",
                      flush=True)


def tree_split(name, threads, draws=10 ** 6):
    """The tree estimate's relative standard errors at ``draws`` draws for fixed splits of the draws
    between the shapes, in closed form from the exact census (no draws made)."""
    from graphmine.graphlets import _trees5

    G = load(name)
    C = gm.graphlet_counts(G, 5, threads=threads)[9:].astype(np.float64)
    W = np.array(_trees5.tree_weights(G.indptr, G.indices)[0], np.float64)
    t = _trees5.TREE_COPIES.astype(np.float64)
    q = C[None, :] * t / W[:, None]  # each draw's chance of hitting g, per shape

    def rel(f):
        f = np.array(f)[:, None] * draws
        Z = (f * t / W[:, None]).sum(axis=0)
        return np.sqrt((f * q * (1 - q)).sum(axis=0)) / Z / np.where(C > 0, C, np.nan)

    grid = [(a, 1 - a - c, c) for a in np.arange(0.05, 0.95, 0.05) for c in np.arange(0.05, 0.951 - a, 0.05)]
    best = min(grid, key=lambda f: np.nanmax(rel(f)))
    print(f"{name}: W_P {W[0]:.4e}, W_F {W[1]:.4e}, W_S {W[2]:.4e}; relative standard errors at {draws:,} draws, "
          f"worst / median over the graphlets present")
    for f in [(1 / 3, 1 / 3, 1 / 3), (0.5, 0.25, 0.25), (0.7, 0.2, 0.1), best]:
        r = rel(f)
        print(f"  split P {f[0]:.2f}, F {f[1]:.2f}, S {f[2]:.2f}: {np.nanmax(r):.2%} / {np.nanmedian(r):.2%}"
              + ("  (the best on a 0.05 grid)" if f is best else ""))


def stderr_table(name, sizes, min_count, threads, runs):
    """The estimate's relative standard error per graphlet at each number of vertices, from the
    exact orbit counts of every vertex (the variance of the draw in closed form, no draws made):
    the plain draw proportional to the weight against the take-all stratum counted exactly; and
    the estimator used now (mixture draw, regression on its shares): its large-sample standard
    error in closed form (the residual spread of the best linear fit over all vertices) and the
    root mean square relative error of ``runs`` seeded draws replayed on the exact census."""
    from graphmine.graphlets import _census5, _cpu

    G = load(name)
    t0, c0 = time.perf_counter(), time.process_time()
    rows = gm.orbit_counts(G, 5, threads=threads)
    print(f"{name}: n {G.n_nodes:,}, m {G.n_edges:,}; exact census {time.perf_counter() - t0:.1f} s "
          f"({time.process_time() - c0:.1f} processor s), load {os.getloadavg()[0]:.1f}")
    y = np.stack([rows[:, list(o)].sum(axis=1) for o in _census5.GRAPHLET_ORBITS5], axis=1) / 5.0
    total = y.sum(axis=0)
    frequent = total >= min_count
    d = np.diff(G.indptr)
    w = 1.0 + np.bincount(np.repeat(np.arange(G.n_nodes), d), weights=d[G.indices], minlength=G.n_nodes)
    Q, q = _census5._mixture(_census5.proposal_weights(G.indptr, G.indices, rows[:, 3]))
    print(f"relative standard error over the {int(frequent.sum())} graphlets counted >= {min_count:,} times "
          f"(max / median); the vertices counted exactly; their share of the weight")
    for k in sizes:
        cells = []
        for take_all in (False, True):
            hubs, left = _census5._take_all(w, k) if take_all else (np.zeros(0, np.int64), k)
            rest = np.ones(G.n_nodes, bool)
            rest[hubs] = False
            if left == 0 or not rest.any():
                rse = np.zeros(21)
            else:
                p = w[rest] / w[rest].sum()
                var = ((y[rest] ** 2 / p[:, None]).sum(axis=0) - y[rest].sum(axis=0) ** 2) / left
                rse = np.sqrt(np.maximum(var, 0.0)) / np.maximum(total, 1.0)
            cells.append(f"{rse[frequent].max():7.2%} / {np.median(rse[frequent]):6.2%}"
                         + (f"  {hubs.size:6d} {w[hubs].sum() / w.sum():6.1%}" if take_all else ""))
        # now: the mixture's take-all stratum, then the regression's residual variance under the draw
        hubs, left = _census5._take_all(q, k)
        rest = np.ones(G.n_nodes, bool)
        rest[hubs] = False
        rse = np.zeros(21)
        if left and rest.any():
            p = q[rest] / q[rest].sum()
            z = y[rest] / p[:, None] - y[rest].sum(axis=0)
            u = Q[rest, 1:] / p[:, None] - Q[rest, 1:].sum(axis=0)
            beta = np.linalg.lstsq((u * p[:, None]).T @ u, (u * p[:, None]).T @ z, rcond=None)[0]
            var = (p[:, None] * (z - u @ beta) ** 2).sum(axis=0) / left
            rse = np.sqrt(np.maximum(var, 0.0)) / np.maximum(total, 1.0)
        cell = f"{rse[frequent].max():7.2%} / {np.median(rse[frequent]):6.2%}  {hubs.size:6d}"
        if runs:
            rp, ri, _reid, _split, orig = _cpu._rank_space(G)
            est = np.array([_census5.sample5(G, 1, k, seed, _cpu._rank_space, rows[:, :15],
                                             rows_of=lambda verts: rows[orig[verts]])[0] for seed in range(runs)])
            rms = np.sqrt((((est - total) / np.maximum(total, 1.0)) ** 2).mean(axis=0))
            cell += f"   replayed ({runs} seeds): {rms[frequent].max():7.2%} / {np.median(rms[frequent]):6.2%}"
        print(f"  {k:7d} vertices: plain {cells[0]}   take-all {cells[1]}   now {cell}", flush=True)


def run_orca(orca, path, out, limit):
    """ORCA's own seconds for ``orca node 5``, or None when it ran past ``limit`` processor seconds
    (stopped by the kernel: RLIMIT_CPU, so that a loaded machine's waits do not count)."""
    import resource
    import signal

    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit), int(limit) + 5))

    r = subprocess.run([orca, "node", "5", path, out], capture_output=True, text=True, preexec_fn=cap)
    if r.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return None
    if r.returncode:
        raise SystemExit(f"orca failed ({r.returncode}): {r.stderr[-2000:]}")
    return float(re.findall(r"total: ([0-9.]+) sec", r.stdout)[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--orca", default=None, help="ORCA's built program (without it: graphmine only)")
    ap.add_argument("--graphs", default="ca-GrQc,ca-HepTh,facebook_combined")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--orca-timeout", type=float, default=600.0,
                    help="stop ORCA after this many processor seconds (its row then has no ratio and no check)")
    ap.add_argument("--estimate", default=None, metavar="GRAPH", help="measure the sampling estimate on GRAPH")
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--min-count", type=int, default=1000)
    ap.add_argument("--stderr", default=None, metavar="GRAPH",
                    help="the estimate's standard error at each of --sizes vertices, from GRAPH's exact census")
    ap.add_argument("--sizes", default="300,1000,3000")
    ap.add_argument("--replay", action="store_true",
                    help="with --estimate: replay the draws on the exact census, this estimator and the earlier one")
    ap.add_argument("--replay-runs", type=int, default=0,
                    help="with --stderr: also the rms error of this many seeded draws replayed on the census")
    ap.add_argument("--trees", default=None, metavar="GRAPH",
                    help="the spanning-tree estimate against GRAPH's exact census, and the vertex sampler's")
    ap.add_argument("--tree-samples", default="100000,1000000,10000000")
    ap.add_argument("--tree-runs", default="100,100,20")
    ap.add_argument("--vertex-runs", type=int, default=10)
    ap.add_argument("--trees-large", default=None, metavar="GRAPHS",
                    help="the spanning-tree estimate on graphs too large to count exactly")
    ap.add_argument("--tree-split", default=None, metavar="GRAPH",
                    help="the tree estimate's errors for fixed splits of the draws, from GRAPH's exact census")
    ap.add_argument("--child", nargs=3, metavar=("GRAPH", "THREADS", "CHECK"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.trees:
        return trees_accuracy(args.trees, [int(k) for k in args.tree_samples.split(",")],
                              [int(k) for k in args.tree_runs.split(",")], args.min_count,
                              int(args.threads.split(",")[0]), args.samples, args.vertex_runs)
    if args.tree_split:
        return tree_split(args.tree_split, int(args.threads.split(",")[0]))
    if args.trees_large:
        return trees_large(args.trees_large.split(","), [int(k) for k in args.tree_samples.split(",")],
                           int(args.threads.split(",")[0]))
    if args.stderr:
        return stderr_table(args.stderr, [int(k) for k in args.sizes.split(",")], args.min_count,
                            int(args.threads.split(",")[0]), args.replay_runs)
    if args.estimate:
        return estimate(args.estimate, args.samples, args.runs, args.min_count, int(args.threads.split(",")[0]),
                        args.replay)
    if args.child:
        name, threads, check = args.child
        return child(name, int(threads), args.repeat, None if check == "-" else check)
    orca = os.path.abspath(os.path.expanduser(args.orca)) if args.orca else None
    threads = [int(t) for t in args.threads.split(",")]
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print("ORCA s: the processor seconds ORCA reports (clock()); gm Nt: wall seconds / processor seconds at N "
          "threads; ratio: wall / ORCA, and at 1 thread processor / ORCA (a loaded machine's fair ratio)")
    print(f"{'graph':<18s} {'n':>7s} {'m':>8s} {'ORCA s':>8s} " + " ".join(
        f"{'gm ' + str(t) + 't s':>15s} {'ratio':>11s}" for t in threads) + f" {'peak rise MB':>13s} {'8x73xn MB':>10s}")
    with tempfile.TemporaryDirectory() as work:
        for name in args.graphs.split(","):
            G = load(name)
            orca_s, check = None, "-"
            if orca:
                path = os.path.join(work, f"{name}.in")
                with open(path, "w") as f:
                    f.write(f"{G.n_nodes} {G.n_edges}\n")
                    np.savetxt(f, G.edges(), fmt="%d")
                check = os.path.join(work, f"{name}.out")
                orca_s = run_orca(orca, path, check, args.orca_timeout)
                if orca_s is None:
                    print(f"# {name}: ORCA stopped after {args.orca_timeout:.0f} processor s, not finished", flush=True)
                    check = "-"
            cells, rise, same = [], 0, []
            for t in threads:
                r = subprocess.run([sys.executable, os.path.abspath(__file__), "--repeat", str(args.repeat), "--child",
                                    name, str(t), check], capture_output=True, text=True)
                if r.returncode:
                    raise SystemExit(f"graphmine run failed: {r.stderr[-2000:]}")
                res = json.loads(r.stdout.strip().splitlines()[-1])
                rise = max(rise, res["rise"])
                same.append(res["same"])
                ratio = (f"{res['seconds'] / orca_s:5.2f}/{res['cpu'] / orca_s:5.2f}" if t == 1 else
                         f"{res['seconds'] / orca_s:11.2f}") if orca_s else f"{'-':>11s}"
                cells.append(f"{res['seconds']:7.2f}/{res['cpu']:7.2f} {ratio}")
            orca_cell = f"{orca_s:8.2f}" if orca_s else f"{'-':>8s}"
            print(f"{name:<18s} {G.n_nodes:7d} {G.n_edges:8d} {orca_cell} " + " ".join(cells)
                  + f" {rise / 2 ** 20:13.1f} {8 * 73 * G.n_nodes / 2 ** 20:10.1f}"
                  + ("" if not orca_s else f"  counts equal ORCA's: {all(same)}")
                  + f"  load {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
