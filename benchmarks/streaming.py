"""Streaming triangle estimators: unbiasedness, accuracy and speed, against the ThinkD jar.

Sections (each prints a table; nothing here asserts):

1. unbiasedness: over ``--unbiased-seeds`` independent samplers (seeds) on a real graph in a
   seeded random order with 20% deletions (ca-HepTh, shipped; the insertion-only methods on the
   stream without deletions), the mean global estimate against the exact count, in standard
   errors of that mean;
2. accuracy: on every stream (email-Enron and ca-HepPh edges in a seeded random order, with and
   without 20% deletions, and a Kronecker stream) and memory budget (a share of the stream's
   edges), ``--seeds`` seeds each: the mean absolute relative error of the global count and the
   mean local error :math:`\\frac{1}{|V|}\\sum_v |x_v - \\hat x_v| / (x_v + 1)` (ThinkD's) of
   graphmine's ThinkD-ACC and of the ThinkD jar's ACC (its BatchAcc, run with the same budget
   and as many trials); graphmine's local error is given for its unbiased estimates and for
   them clipped at 0 (the jar's local estimates are never negative); then graphmine's
   estimators at the same *total* memory on 2 threads (two samplers of half the memory each,
   averaged, or one sampler of all the memory: at equal total memory one sample twice as large
   has the lower variance, since a triangle is counted when two of its edges are sampled); and
   on the insertion-only streams GPS (one sampler of all the memory) for every triangle weight c
   of ``--gps-c``, its error and ratio to the jar's ACC; ``--deletions 0`` keeps to those streams;
3. throughput: events per second on one thread, same stream and memory, graphmine's ThinkD-ACC
   (in-memory events, and end to end from its text file) against the jar (the steady-state
   time of one trial: the difference of a run of 1 and of ``--speed-trials`` trials, divided;
   a trial reads its file, so that is the jar's end-to-end figure), at 2 threads, and the exact
   counter's throughput and memory;
4. temporal locality: WRS against TRIEST-IMPR at equal memory (``--temporal-budgets``) on
   ScHoLP data sets in time order (``--scholp FOLDER ...``: every pair of every simplex inserted
   at its time, repeats of a pair present dropped) and on the real graphs in file order and in a
   random order;
5. first run: ``graphmine stream-triangles`` in a fresh process with an empty numba cache:
   seconds and functions compiled;
6. throughput on the insertion-only streams: GPS (every ``--gps-c``) and ThinkD-ACC, one
   thread, against the jar's ACC, and the bytes each keeps per sampled edge;
7. where ThinkD-ACC's time goes (the stream of section 3, one thread, processor seconds, runs
   alternated): the whole feed; the feed with the count of the triangles taken out (a copy of
   the kernel compiled here with its call of the count replaced by 0: the sample's upkeep and the
   vertex map alone); and the count alone against one fixed sample (the sample left at the end
   of the stream, every insertion of the stream intersected through the package's own count) in
   the stream's order and grouped by the endpoint whose block is probed (each hub's block then
   read by many intersections in a row: what is left is not misses on the probed block).

    python benchmarks/streaming.py --thinkd /work/ext/thinkd --data /work/data/snap
    python benchmarks/streaming.py --thinkd /work/ext/thinkd --enron DIR/email-Enron.txt \
        --hepph DIR/ca-HepPh.txt --scholp DIR/scholp/email-Enron DIR/scholp/NDC-classes
    python benchmarks/streaming.py --quick          # small streams, few seeds, no jar

``--thinkd DIR`` names the folder of a built ThinkD (``ThinkD-2.0.jar`` and a fastutil jar);
``--data DIR`` the folder of SNAP's ``email-Enron.txt`` and ``ca-HepPh.txt``, or ``--enron`` and
``--hepph`` each file (a first line ``n m``, GraphIO's header, is skipped); the shipped ca-HepTh
and facebook_combined stand in for them when none is given. Nothing is downloaded.
"""

import argparse
import glob
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import graphmine as gm
import graphmine.streaming as gs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shuffled(stream, seed):
    perm = np.random.default_rng(seed).permutation(len(stream))
    return gs.EdgeStream(stream.signs[perm], stream.u[perm], stream.v[perm])


def graph_files(args):
    """[(name, path)] of the real graphs given (--enron, --hepph, or --data DIR)."""
    out = []
    for name, fname, given in (("email-Enron", "email-Enron.txt", args.enron), ("ca-HepPh", "ca-HepPh.txt", args.hepph)):
        path = given or (os.path.join(args.data, fname) if args.data else None)
        if path and os.path.exists(path):
            out.append((name, path))
    return out


def read_graph_stream(path):
    """The edge list in file order; a first line ``n m`` whose m is the number of lines after it
    (GraphIO's header) is skipped rather than read as an edge."""
    with open(path) as f:
        first = f.readline().split()
        rest = sum(1 for line in f if line.strip() and not line.startswith(("#", "%")))
    header = len(first) == 2 and all(x.isdigit() for x in first) and int(first[1]) == rest
    return gs.read_stream(path, header=True if header else None)


def load_streams(args):
    """[(name, insertion-only stream in a seeded random order)]."""
    out = [] if args.kron_only else [(name, shuffled(read_graph_stream(path), 1)) for name, path in graph_files(args)]
    if not out and not args.kron_only:  # the shipped graphs stand in
        for name in ("ca-HepTh", "facebook_combined"):
            out.append((name, shuffled(gs.read_stream(gm.datasets.path(name)), 1)))
    if args.kronecker:
        e = gm.generators.kronecker_edges(args.kronecker, 16, seed=1)
        s = gs.EdgeStream(np.ones(e.shape[0], np.int64), e[:, 0], e[:, 1]).cleaned()
        out.append((f"Kronecker {args.kronecker}", shuffled(s, 1)))
    return out


def exact_of(stream):
    ex = gs.ExactTriangleCounter().feed(stream)
    ids, loc = ex.local_estimates()
    return ex.global_estimate(), ids, loc


def errors(globals_, locals_, exact, exact_loc):
    """(mean absolute relative error of the global count, its standard error, mean local error)."""
    rel = np.abs(np.asarray(globals_) - exact) / max(exact, 1)
    local = np.mean(np.abs(np.asarray(locals_) - exact_loc[None, :]) / (exact_loc[None, :] + 1), axis=1)
    return float(rel.mean()), float(rel.std(ddof=1) / math.sqrt(len(rel))) if len(rel) > 1 else 0.0, \
        float(local.mean())


def jar_rates(args, stream, M, tmp):
    """The ThinkD jar's ThinkD-ACC steady-state rates on ``stream`` with M edges (events per wall
    second, per processor second): a run of --speed-trials trials less a run of one (which holds
    the JVM's start and the file's read), per trial; and the one run's rate (events per wall
    second). NaN without --thinkd."""
    if not args.thinkd:
        return float("nan"), float("nan"), float("nan")
    m = len(stream)
    jar_in = os.path.join(tmp, "jar_input.tsv")
    write_jar_input(stream, jar_in)
    t1, c1 = run_jar(args.thinkd, "acc", jar_in, M, 1, os.path.join(tmp, "jar_t"))
    tk, ck = run_jar(args.thinkd, "acc", jar_in, M, args.speed_trials, os.path.join(tmp, "jar_t"))
    return m / ((tk - t1) / (args.speed_trials - 1)), m / ((ck - c1) / (args.speed_trials - 1)), m / t1


def table(header, rows):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h))
              for i, h in enumerate(header)]
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))
    print(flush=True)


# -- 1 ------------------------------------------------------------------------------------------
def unbiasedness(args, results):
    base = shuffled(gs.read_stream(gm.datasets.path("ca-HepTh")), 7)
    dele = gs.with_deletions(base, 0.2, seed=7)
    memory = int(0.05 * len(base))
    print(f"1. unbiasedness: ca-HepTh ({len(base):,} edges) in a random order, 20% deletions "
          f"({len(dele):,} events); memory {memory:,} edges; {args.unbiased_seeds} seeds per method")
    rows = []
    for method in gs.METHODS[:-1]:
        stream = base if method in ("triest", "wrs", "gps") else dele
        exact = exact_of(stream)[0]
        kw = {"probability": memory / stream.peak_edges()} if method == "thinkd-fast" else {}
        est = gs.make_estimator(method, memory, seed=2024, replicates=args.unbiased_seeds, **kw)
        t0 = time.perf_counter()
        est.feed(stream, threads=args.threads)
        took = time.perf_counter() - t0
        reps = est.replicate_estimates()
        se = reps.std(ddof=1) / math.sqrt(len(reps))
        z = (reps.mean() - exact) / se
        # GPS's in-stream standard error of one sampler against the samplers' spread
        own = f"{math.sqrt(est.replicate_variances().mean()):,.1f} / {reps.std(ddof=1):,.1f}" if method == "gps" else "-"
        rows.append([method, "20% deletions" if stream is dele else "insertions", f"{exact:,.0f}",
                     f"{reps.mean():,.1f}", f"{se:,.1f}", f"{z:+.2f}", "yes" if abs(z) <= 2 else "NO", f"{took:.2f}",
                     own])
        results.setdefault("unbiasedness", []).append(
            {"method": method, "exact": exact, "mean": float(reps.mean()), "stderr": float(se), "z": float(z)})
    table(["method", "stream", "exact", "mean", "stderr of mean", "z", "within 2 se", "seconds",
           "one sampler's stderr (rms of in-stream) / sd over seeds"], rows)


# -- 2 ------------------------------------------------------------------------------------------
def run_jar(thinkd, kind, path, param, trials, out):
    jars = [os.path.join(thinkd, "ThinkD-2.0.jar")] + sorted(glob.glob(os.path.join(thinkd, "fastutil*.jar")))
    cls = {"acc": "thinkd.BatchAcc", "fast": "thinkd.BatchFast"}[kind]
    shutil.rmtree(out, ignore_errors=True)
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(["java", "-cp", ":".join(jars), cls, path, out, str(param), str(trials)],
                       capture_output=True, text=True)
    took = time.perf_counter() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"the ThinkD jar failed: {r.stderr[-500:]}")
    # (wall seconds, processor seconds of the JVM: all its threads, the collector's and compiler's too)
    return took, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)


def read_jar(out, trials, ids):
    """(global estimates, local estimates aligned with ``ids``) of the jar's trials."""
    index = {int(v): i for i, v in enumerate(ids)}
    g, loc = [], np.zeros((trials, len(ids)))
    for t in range(trials):
        with open(os.path.join(out, f"global{t}.txt")) as f:
            g.append(float(f.read().split()[-1]))
        with open(os.path.join(out, f"local{t}.txt")) as f:
            next(f)
            for line in f:
                node, val = line.split()
                j = index.get(int(node))
                if j is not None:
                    loc[t, j] = float(val)
    return np.array(g), loc


def write_jar_input(stream, path):
    with open(path, "w") as f:
        np.savetxt(f, np.column_stack((stream.u, stream.v, stream.signs)), fmt="%d", delimiter="\t")


def accuracy(args, streams, tmp, results):
    print(f"2. accuracy: {args.seeds} seeds per cell; global = mean |estimate - exact| / exact (± its standard "
          f"error over the seeds), local = ThinkD's mean local error; 'x2 threads' = two samplers of half the "
          f"memory each, averaged (equal total memory)")
    rows = []
    for name, base in streams:
        seeds = args.kron_seeds if name.startswith("Kronecker") else args.seeds
        for share in args.deletions:
            stream = gs.with_deletions(base, share, seed=3) if share else base
            exact, ids, exact_loc = exact_of(stream)
            jar_in = os.path.join(tmp, "jar_input.tsv")
            if args.thinkd:
                write_jar_input(stream, jar_in)
            for budget in args.budgets:
                M = max(4, int(budget * len(base)))
                label = f"{name}{' +20% del' if share else ''}"
                cell = {"stream": label, "events": len(stream), "exact": exact, "budget": budget, "memory": M}
                # graphmine ThinkD-ACC, one sampler per seed
                est = gs.ThinkDAcc(M, seed=11, replicates=seeds).feed(stream, threads=args.threads)
                acc = errors(est.replicate_estimates(), est.replicate_local_estimates(), exact, exact_loc)
                clipped = errors(est.replicate_estimates(), est.replicate_local_estimates(clip=True), exact,
                                 exact_loc)[2]
                cell["graphmine_acc"] = acc
                cell["graphmine_acc_local_clipped"] = clipped
                jar = (float("nan"),) * 3
                if args.thinkd:
                    out = os.path.join(tmp, "jar_out")
                    cell["jar_seconds"] = run_jar(args.thinkd, "acc", jar_in, M, seeds, out)[0]
                    jg, jl = read_jar(out, seeds, ids)
                    jar = errors(jg, jl, exact, exact_loc)
                    cell["jar_acc"] = jar
                # equal total memory on 2 threads: two samplers of M/2, averaged
                pair = {}
                methods = ("thinkd-acc", "thinkd-fast", "triest-fd") + (() if share else ("triest", "wrs", "gps"))
                for method in methods:
                    half = max(4, M // 2)
                    kw = {"probability": min(1.0, half / stream.peak_edges())} if method == "thinkd-fast" else {}
                    e2 = gs.make_estimator(method, half, seed=13, replicates=2 * seeds, **kw)
                    e2.feed(stream, threads=args.threads)
                    g2 = e2.replicate_estimates().reshape(2, seeds).mean(axis=0)
                    l2 = e2.replicate_local_estimates().reshape(2, seeds, -1).mean(axis=0)
                    pair[method] = errors(g2, l2, exact, exact_loc)
                cell["two_samplers_half_memory"] = dict(pair)
                # the other use of 2 threads at equal total memory: one sampler of M (its estimate
                # is the same whichever thread counts its intersections)
                pair["thinkd-acc x1 (M)"] = acc
                # GPS (insertions only): one sampler of M per seed, for every triangle weight c
                gps = {}
                for c in ([] if share else args.gps_c):
                    eg = gs.GPS(M, seed=17, replicates=seeds, triangle_weight=c).feed(stream, threads=args.threads)
                    gps[c] = errors(eg.replicate_estimates(), eg.replicate_local_estimates(), exact, exact_loc)
                    pair[f"gps x1 (M) c={c:g}"] = gps[c]
                    # the in-stream standard error against the error seen over the seeds
                    cell.setdefault("gps_stderr_check", {})[f"{c:g}"] = {
                        "rms_error": float(np.sqrt(np.mean((eg.replicate_estimates() - exact) ** 2))),
                        "rms_stderr": float(np.sqrt(np.mean(eg.replicate_variances())))}
                cell["gps_one_sampler"] = {f"{c:g}": v for c, v in gps.items()}
                best = min(pair, key=lambda m: pair[m][0])
                cell["best_equal_memory"] = [best, pair[best][0]]
                ref = jar[0] if args.thinkd else acc[0]
                rows.append([label, f"{budget:.0%}", f"{M:,}", f"{acc[0]:.4f} ± {acc[1]:.4f}",
                             f"{acc[2]:.4f} / {clipped:.4f}",
                             f"{jar[0]:.4f} ± {jar[1]:.4f}", f"{jar[2]:.4f}",
                             f"{best} {pair[best][0]:.4f}", f"{pair[best][0] / ref:.2f}",
                             " ".join(f"c={c:g}: {v[0]:.4f} ({v[0] / ref:.2f}x)" for c, v in gps.items()) or "-"])
                results.setdefault("accuracy", []).append(cell)
                print("   ", " | ".join(rows[-1]), flush=True)
    print()
    table(["stream", "budget", "M", "graphmine ACC global", "local (unbiased / clipped at 0)", "jar ACC global",
           "local",
           "best at equal total memory (2 x M/2 or 1 x M)", "ratio to jar ACC" if args.thinkd else "ratio to ACC",
           "GPS x1 (M) global (ratio to jar ACC)" if args.thinkd else "GPS x1 (M) global (ratio to ACC)"], rows)


# -- 3 ------------------------------------------------------------------------------------------
def timed_feed(make, stream, threads, repeats=3):
    """(best wall seconds, the estimator, best processor seconds of this process)."""
    best = cpu = float("inf")
    for _ in range(repeats):
        est = make()
        c0 = time.process_time()
        t0 = time.perf_counter()
        est.feed(stream, threads=threads)
        best = min(best, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return best, est, cpu


def state_bytes(est):
    return sum(v.nbytes for v in vars(est).values() if isinstance(v, np.ndarray)) + \
        sum(v.nbytes for v in vars(est._vmap).values() if isinstance(v, np.ndarray))


def throughput(args, streams, tmp, results):
    print("3. throughput (events per second; best of 3 runs for graphmine; ThinkD-ACC with the memory at 10% of "
          "the edges, on the stream with 20% deletions)")
    rows = []
    for name, base in streams:
        stream = gs.with_deletions(base, 0.2, seed=3)
        M = int(0.1 * len(base))
        gs.ThinkDAcc(M, seed=1).feed(stream.slice(0, 1000), threads=1)  # compiled or loaded before timing
        one, _, one_cpu = timed_feed(lambda: gs.ThinkDAcc(M, seed=1), stream, 1)
        two, _, _ = timed_feed(lambda: gs.ThinkDAcc(M, seed=1, replicates=2), stream, 2)
        signed = os.path.join(tmp, "signed.txt")
        with open(signed, "w") as f:
            f.write("".join(f"{'+' if s > 0 else '-'} {u} {v}\n" for s, u, v in stream.events().tolist()))
        t0 = time.perf_counter()
        gs.estimate_triangles(gs.read_stream(signed, threads=1), M, method="thinkd-acc", seed=1, threads=1)
        e2e = time.perf_counter() - t0
        ex_t, ex, _ = timed_feed(lambda: gs.ExactTriangleCounter(), stream, 1, repeats=1)
        m = len(stream)
        row = {"stream": name, "events": m, "memory": M, "graphmine_1_thread": m / one,
               "graphmine_1_thread_cpu": m / one_cpu,
               "graphmine_2_threads_2_samplers": 2 * m / two, "graphmine_end_to_end": m / e2e,
               "exact": m / ex_t, "exact_bytes_per_edge": state_bytes(ex) / max(ex.edges, 1)}
        jar, jar_cpu, jar_one = jar_rates(args, stream, M, tmp)
        if args.thinkd:
            row["jar_steady_state"], row["jar_steady_state_cpu"] = jar, jar_cpu
            row["jar_one_run"] = jar_one
        results.setdefault("throughput", []).append(row)
        rows.append([name, f"{m:,}", f"{m / one:,.0f}", f"{2 * m / two:,.0f}", f"{m / e2e:,.0f}",
                     f"{jar:,.0f}", f"{(m / one) / jar:.1f}x" if args.thinkd else "-",
                     f"{m / one_cpu:,.0f}", f"{jar_cpu:,.0f}", f"{(m / one_cpu) / jar_cpu:.1f}x" if args.thinkd else "-",
                     f"{m / ex_t:,.0f}", f"{row['exact_bytes_per_edge']:.0f}"])
    table(["stream", "events", "1 thread", "2 threads (2 samplers, sampler-events/s)", "end to end (read+clean+1 "
           "thread)", "jar ACC (per trial, steady)", "1 thread / jar", "1 thread per CPU second",
           "jar per CPU second (all its threads)", "ratio (CPU)", "exact counter", "exact bytes/edge"], rows)


def _without_count():
    """ThinkD-ACC's kernel with the count of the triangles taken out (for timing only)."""
    import inspect

    from numba import njit

    import graphmine.streaming._kernels as K
    src = inspect.getsource(K._thinkd_acc_run.py_func)
    call = "f = _count_common(a, b, wgt, nb, sl, vtx, loc)"
    assert call in src, "the kernel's count call changed: update _without_count"
    ns = dict(vars(K))
    exec(src.replace(call, "f = 0").replace("@njit(cache=True, nogil=True)\n", ""), ns)
    return njit(nogil=True)(ns["_thinkd_acc_run"])


def _count_all():
    from numba import njit

    import graphmine.streaming._kernels as K
    count_common = K._count_common

    @njit(nogil=True)
    def count_all(order, a, b, nb, sl, vtx, loc):
        found = 0
        for t in range(order.shape[0]):
            q = order[t]
            found += count_common(a[q], b[q], 1.0, nb, sl, vtx, loc)
        return found

    return count_all


def time_parts(args, streams, tmp, results):
    print("7. where ThinkD-ACC's time goes (one thread, processor seconds, memory 10% of the edges, 20% deletions; "
          "runs alternated, each figure the least of the runs)")
    bare = _without_count()
    count_all = _count_all()
    rows = []
    for name, base in streams:
        stream = gs.with_deletions(base, 0.2, seed=3)
        M = int(0.1 * len(base))

        def make(kernel):
            est = gs.ThinkDAcc(M, seed=1)
            if kernel is not None:
                est._run_one = lambda r, sg, u, v, i, flag: kernel(sg, u, v, i, est.memory, *est._rows(r), flag)
            return est

        for kernel in (None, bare):
            make(kernel).feed(stream.slice(0, 1000), threads=1)  # compiled or loaded before timing
        full = upkeep = float("inf")
        for _ in range(args.speed_trials):
            for kernel in (None, bare):
                est = make(kernel)
                c0 = time.process_time()
                est.feed(stream, threads=1)
                dt = time.process_time() - c0
                if kernel is None:
                    full, last = min(full, dt), est
                else:
                    upkeep = min(upkeep, dt)
        # the count alone, against the sample left at the end, for every insertion of the stream
        ins = stream.events()
        ins = ins[ins[:, 0] > 0]
        a, b = last._map(ins[:, 1], ins[:, 2])
        nb, sl, vtx = last._nb[0], last._sl[0], last._vtx[0]
        cap = vtx[:, 1]
        probed = np.where(cap[a] > cap[b], a, b)  # the larger block is probed, the smaller read in order
        grouped = np.lexsort((np.where(cap[a] > cap[b], b, a), probed))
        in_order = np.arange(a.shape[0])
        loc = np.zeros(vtx.shape[0])
        count_all(in_order[:10], a, b, nb, sl, vtx, loc)
        best = {"stream order": float("inf"), "grouped by the probed block": float("inf")}
        found = {}
        for _ in range(args.speed_trials):
            for label, order in (("stream order", in_order), ("grouped by the probed block", grouped)):
                c0 = time.process_time()
                found[label] = count_all(order, a, b, nb, sl, vtx, loc)
                best[label] = min(best[label], time.process_time() - c0)
        assert found["stream order"] == found["grouped by the probed block"]
        deg = vtx[:, 2]
        both = (deg[a] > 0) & (deg[b] > 0)
        smaller = np.where(cap[a] > cap[b], b, a)[both]
        entries, lookups = int(cap[smaller].sum()), int(deg[smaller].sum())
        row = {"stream": name, "events": len(stream), "memory": M, "feed": full, "feed_without_count": upkeep,
               "count_fixed_sample_stream_order": best["stream order"],
               "count_fixed_sample_grouped": best["grouped by the probed block"], "intersections": int(a.shape[0]),
               "entries_read": entries, "lookups": lookups}
        results.setdefault("time_parts", []).append(row)
        rows.append([name, f"{len(stream):,}", f"{M:,}", f"{full:.2f}", f"{upkeep:.2f}", f"{a.shape[0]:,}",
                     f"{best['stream order']:.2f}", f"{best['grouped by the probed block']:.2f}",
                     f"{entries:,}", f"{lookups:,}"])
    table(["stream", "events", "M", "feed", "feed without the count", "intersections (fixed sample)",
           "count, stream order", "count, grouped by probed block", "block entries read", "lookups"], rows)


def throughput_insertions(args, streams, tmp, results):
    print("6. throughput on the insertion-only streams (events per second, one thread, best of 3 runs; memory 10% "
          "of the edges): GPS and graphmine's ThinkD-ACC against the jar's ACC (steady state of one trial)")
    rows = []
    for name, stream in streams:
        M = int(0.1 * len(stream))
        m = len(stream)
        row = {"stream": name, "events": m, "memory": M}
        gs.GPS(M, seed=1).feed(stream.slice(0, 1000), threads=1)  # compiled or loaded before timing
        gs.ThinkDAcc(M, seed=1).feed(stream.slice(0, 1000), threads=1)
        cells = []
        for label, make in [(f"gps c={c:g}", lambda c=c: gs.GPS(M, seed=1, triangle_weight=c)) for c in args.gps_c] + \
                [("thinkd-acc", lambda: gs.ThinkDAcc(M, seed=1))]:
            wall, est, cpu = timed_feed(make, stream, 1)
            row[label] = {"wall": m / wall, "cpu": m / cpu, "bytes_per_sampled_edge": state_bytes(est) / M}
            cells.append((label, m / wall, m / cpu, state_bytes(est) / M))
        jar, jar_cpu, _ = jar_rates(args, stream, M, tmp)
        if args.thinkd:
            row["jar_steady_state"], row["jar_steady_state_cpu"] = jar, jar_cpu
        results.setdefault("throughput_insertions", []).append(row)
        for label, wall, cpu, nbytes in cells:
            rows.append([name, f"{m:,}", f"{M:,}", label, f"{wall:,.0f}", f"{cpu:,.0f}", f"{nbytes:.0f}",
                         f"{jar:,.0f}", f"{jar_cpu:,.0f}", f"{wall / jar:.1f}x" if args.thinkd else "-",
                         f"{cpu / jar_cpu:.1f}x" if args.thinkd else "-"])
    table(["stream", "events", "M", "method", "events/s", "events per CPU second", "bytes per sampled edge",
           "jar ACC", "jar per CPU second", "ratio (wall)", "ratio (CPU)"], rows)


# -- 4 ------------------------------------------------------------------------------------------
def temporal(args, results):
    cases = [("ScHoLP " + os.path.basename(f.rstrip("/")) + " (time order)", gs.read_stream(f, format="scholp"))
             for f in args.scholp]
    for name, path in graph_files(args):
        s = read_graph_stream(path)
        cases.append((f"{name} (file order)", s))
        cases.append((f"{name} (random order)", shuffled(s, 5)))
    if not cases:
        s = gs.read_stream(gm.datasets.path("ca-HepTh"))
        cases = [("ca-HepTh (file order)", s), ("ca-HepTh (random order)", shuffled(s, 5))]
    print(f"4. temporal locality: WRS (waiting room 10%) against TRIEST-IMPR at equal memory M (a share of the "
          f"stream's edges), {args.seeds} seeds; global = mean |estimate - exact| / exact (± its standard error), "
          f"local = ThinkD's mean local error")
    rows = []
    for name, s in cases:
        exact, ids, loc = exact_of(s)
        for budget in args.temporal_budgets:
            M = max(10, int(budget * len(s)))
            out = {}
            for method in ("triest", "wrs"):
                e = gs.make_estimator(method, M, seed=17, replicates=args.seeds).feed(s, threads=args.threads)
                out[method] = errors(e.replicate_estimates(), e.replicate_local_estimates(), exact, loc)
            for c in args.gps_c:
                e = gs.GPS(M, seed=17, replicates=args.seeds, triangle_weight=c).feed(s, threads=args.threads)
                out[f"gps c={c:g}"] = errors(e.replicate_estimates(), e.replicate_local_estimates(), exact, loc)
            gps = " ".join(f"{k[4:]}: {v[0]:.4f}" for k, v in out.items() if k.startswith("gps"))
            rows.append([name, f"{len(s):,}", f"{exact:,.0f}", f"{budget:.0%}", f"{M:,}",
                         f"{out['triest'][0]:.4f} ± {out['triest'][1]:.4f}", f"{out['wrs'][0]:.4f} ± {out['wrs'][1]:.4f}",
                         f"{out['wrs'][0] / out['triest'][0]:.2f}", f"{out['triest'][2]:.4f}", f"{out['wrs'][2]:.4f}",
                         gps])
            print("   ", " | ".join(rows[-1]), flush=True)
            results.setdefault("temporal", []).append({"stream": name, "edges": len(s), "exact": exact,
                                                       "budget": budget, "memory": M, "triest": out["triest"],
                                                       "wrs": out["wrs"],
                                                       "gps": {k: v for k, v in out.items() if k.startswith("gps")}})
    print()
    table(["stream", "edges", "triangles", "budget", "M", "TRIEST global", "WRS global", "WRS / TRIEST",
           "TRIEST local", "WRS local", "GPS global (one sampler of M, by c)"], rows)


# -- 5 ------------------------------------------------------------------------------------------
FIRST_RUN = r"""
import sys, time
t0 = time.perf_counter()
from numba.core import event
compiled = []
class L(event.Listener):
    def on_start(self, ev):
        compiled.append(str(ev.data["dispatcher"].py_func.__qualname__))
    def on_end(self, ev):
        pass
event.register("numba:compile", L())
from graphmine.cli import main
status = main(sys.argv[1:])
print("FIRST_RUN", time.perf_counter() - t0, len(compiled), len(set(compiled)), ",".join(sorted(set(compiled))),
      file=sys.stderr)
sys.exit(status)
"""


def first_run(args, results):
    print("5. first run of graphmine stream-triangles in a fresh process, empty numba cache")
    rows = []
    for argv in (["Celegans", "--memory", "500", "-q"], ["-", "--memory", "500", "-q"]):
        cache = tempfile.mkdtemp(prefix="gm_numba_")
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=ROOT)
        stdin = "".join(f"+ {i} {i + 1}\n+ {i} {i + 2}\n" for i in range(2000)) if argv[0] == "-" else None
        for label in ("empty cache", "cached"):
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, "-c", FIRST_RUN, "stream-triangles", *argv], capture_output=True,
                               text=True, env=env, input=stdin)
            took = time.perf_counter() - t0
            line = [x for x in r.stderr.splitlines() if x.startswith("FIRST_RUN")]
            _, inner, n, distinct, names = (line[0].split(" ", 4) + [""])[:5] if line else ("", "nan", "?", "?", "")
            rows.append([" ".join(argv[:3]), label, f"{took:.2f}", f"{float(inner):.2f}", distinct])
            results.setdefault("first_run", []).append({"argv": argv, "cache": label, "seconds": took,
                                                        "compiled": names.split(",") if names else []})
        shutil.rmtree(cache, ignore_errors=True)
    table(["command", "numba cache", "process seconds", "inside Python", "functions compiled"], rows)
    print("   compiled:", results["first_run"][0]["compiled"])
    print()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--thinkd", default=None, help="folder of a built ThinkD (ThinkD-2.0.jar, fastutil*.jar)")
    p.add_argument("--data", default=None, help="folder of SNAP's email-Enron.txt and ca-HepPh.txt")
    p.add_argument("--enron", default=None, help="email-Enron edge list (SNAP's email-Enron.txt; over --data)")
    p.add_argument("--hepph", default=None, help="ca-HepPh edge list (SNAP's, or GraphIO's with its 'n m' first "
                   "line; over --data)")
    p.add_argument("--scholp", default=[], nargs="+", metavar="FOLDER",
                   help="ScHoLP data sets (folders) for the temporal comparison, each in time order")
    p.add_argument("--temporal-budgets", type=float, nargs="+", default=[0.05, 0.1, 0.2],
                   help="memory budgets of section 4, shares of the stream's edges")
    p.add_argument("--seeds", type=int, default=30)
    p.add_argument("--kron-seeds", type=int, default=None, help="seeds on the Kronecker stream (default --seeds)")
    p.add_argument("--unbiased-seeds", type=int, default=100)
    p.add_argument("--budgets", type=float, nargs="+", default=[0.01, 0.05, 0.1])
    p.add_argument("--deletions", type=float, nargs="+", default=[0.0, 0.2],
                   help="shares of deleted edges of the streams of section 2 (0: insertions only)")
    p.add_argument("--gps-c", type=float, nargs="+", default=[0.0, 1.0, 3.0, 9.0],
                   help="GPS's triangle weights c compared in section 2 (insertion-only streams)")
    p.add_argument("--kronecker", type=int, default=18, help="scale of the Kronecker stream (0: none)")
    p.add_argument("--kron-only", action="store_true", help="the Kronecker stream only (no real graphs)")
    p.add_argument("--speed-trials", type=int, default=5)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--sections", default="123456")
    p.add_argument("--json", default=None, help="also write the figures to this file")
    p.add_argument("--quick", action="store_true", help="shipped graphs, 5 seeds, no Kronecker, one budget")
    args = p.parse_args()
    if args.quick:
        args.seeds, args.unbiased_seeds, args.kronecker, args.budgets = 5, 30, 0, [0.05]
    if args.kron_seeds is None:
        args.kron_seeds = args.seeds
    if args.thinkd and not os.path.exists(os.path.join(args.thinkd, "ThinkD-2.0.jar")):
        p.error(f"--thinkd: no ThinkD-2.0.jar in {args.thinkd}")
    print(f"graphmine {gm.__version__}, python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"threads {args.threads}\n")
    results = {}
    tmp = tempfile.mkdtemp(prefix="gm_stream_bench_")
    try:
        if "1" in args.sections:
            unbiasedness(args, results)
        streams = load_streams(args) if set("2367") & set(args.sections) else []
        if "2" in args.sections:
            accuracy(args, streams, tmp, results)
        if "3" in args.sections:
            throughput(args, streams, tmp, results)
        if "6" in args.sections:
            throughput_insertions(args, streams, tmp, results)
        if "7" in args.sections:
            time_parts(args, streams, tmp, results)
        if "4" in args.sections:
            temporal(args, results)
        if "5" in args.sections:
            first_run(args, results)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
