"""SEAM across seeds: the SEAL graphs x {3,4,5}-cliques x seeds 0-4, SEAM's mean vs the best heuristic's.

For every (graph, clique size, seed) the seeded protocol of :func:`graphmine.motifs.motif_prediction_task`
is built (500 positives, as many negatives, 80/10/10 split), every heuristic motif score is evaluated
on the test split and SEAM (hops 1, heuristic input features, 50 epochs with early stopping on the
validation AUC; with ``--seam mean`` the command line's default instead: fits of hops 1 and 2, their
scores averaged, the fit of the higher validation AUC recorded beside it) is trained and evaluated
on the same test split. The table gives, per cell, SEAM's
mean ± sd test ROC AUC over the seeds run, the best heuristic's mean ± sd (the heuristic with the
highest mean test AUC in that cell, i.e. picked on the test split) and the mean number of test
samples; a cell meets the bar when SEAM's mean >= the best heuristic's mean, and cells with fewer
than 50 test samples are marked as such.

The runs are spread over worker processes (one torch thread each; ``--cuda-workers`` of them on the
GPU). Jobs start in order of expected cost (largest graphs first) and none starts after ``--budget``
seconds, so a run cut short keeps whole jobs; every finished job is appended to ``--raw`` at once.

Examples::

    # the whole grid on 16 cores and a GPU (the eighth graph, Ecoli, from an edge-list file)
    python benchmarks/seam_seeds.py --workers 16 --cuda-workers 2 --extra Ecoli=data/Ecoli.txt \
        --budget 330 --raw seeds.jsonl --out seeds.md
    # a small check on 2 cores
    python benchmarks/seam_seeds.py --graphs USAir --motifs clique3 --seeds 0 1 --workers 2 --epochs 3
    # the command line's default SEAM (radius 1 and 2, scores averaged) on 2 cores, issue 36
    python benchmarks/seam_seeds.py --graphs USAir --motifs clique4 --seeds 0 1 2 --workers 2 --seam mean
    # the table from records already written
    python benchmarks/seam_seeds.py --merge seeds.jsonl
"""

import argparse
import json
import multiprocessing as mp
import os
import queue
import sys
import time

import numpy as np

GRAPHS = ["USAir", "NS", "PB", "Yeast", "Celegans", "Power", "Router"]
MOTIFS = ["clique3", "clique4", "clique5"]
# relative SEAM training cost per graph (earlier runs), used only to start the largest jobs first
_COST = {"PB": 5.0, "Ecoli": 5.0, "Yeast": 2.5, "USAir": 2.0, "Celegans": 1.2, "Power": 0.5, "Router": 0.5, "NS": 0.4}
MIN_TEST = 50


def _load(graph, extra):
    import graphmine as gm

    return gm.read_graph(extra[graph]) if graph in extra else gm.datasets.load(graph)


def run_job(graph, motif, seed, device, args, extra, cache):
    import graphmine.motifs as gmm
    from gnn import SEAM, select_seam

    if graph not in cache:
        cache.clear()
        cache[graph] = _load(graph, extra)
    G = cache[graph]
    k = int(motif[len("clique"):])
    t0 = time.perf_counter()
    task = gmm.motif_prediction_task(G, gmm.get_motif("clique", k), n_positives=args.max_samples, seed=seed)
    rec = {"graph": graph, "motif": motif, "seed": seed, "n_positives": task.info["n_positives"],
           "n_test": int(task.indices("test").size), "task_seconds": time.perf_counter() - t0}
    rec["heuristics"] = {n: s["auc"] for n, s in gmm.evaluate_heuristics(task, "test").items()}
    cpu0 = time.process_time()
    if args.seam == "hops1":
        m = SEAM(hops=1, epochs=args.epochs, patience=args.patience, device=device, seed=seed, threads=1,
                 verbose=False).fit(task)
        ev = m.evaluate(task, "test")
        rec.update({"seam_best_epoch": m.best_epoch_, "seam_epochs_run": len(m.history_), "device": str(m.device_)})
    else:
        # the command line's default: fits of hops 1 and 2, scores averaged; the same fits give the
        # other choice (the fit of the higher validation AUC), recorded beside it
        m = select_seam(task, combine="mean", epochs=args.epochs, patience=args.patience, device=device,
                        seed=seed, threads=1, verbose=False)
        ev = m.evaluate(task, "test")
        vals = [c["val_auc"] for c in m.selection_]
        members = [s.evaluate(task, "test")["auc"] for s in m.members_]
        rec.update({"seam_val_aucs": vals, "seam_member_aucs": members,
                    "seam_best": members[int(np.argmax(vals))],   # argmax: ties keep the earlier, as select_seam
                    "device": str(m.members_[0].device_)})
    rec.update({"seam": ev["auc"], "seam_ap": ev["ap"], "seam_seconds": m.fit_seconds_,
                "seam_cpu_seconds": time.process_time() - cpu0})
    return rec


def _worker(jobs, results, device, args, extra, deadline):
    import graphmine as gm

    cache = {}
    while True:
        try:
            graph, motif, seed = jobs.get(timeout=5)
        except queue.Empty:
            break
        if time.time() > deadline:
            break
        try:
            rec = run_job(graph, motif, seed, device, args, extra, cache)
        except gm.GraphmineError as exc:   # e.g. too few cliques of this size
            rec = {"graph": graph, "motif": motif, "seed": seed, "skipped": str(exc)}
        results.put(rec)
    results.put(None)


def table(records, graphs, motifs, seeds):
    """The markdown table: per (graph, motif) SEAM mean ± sd vs the best heuristic's (picked on test)."""
    lines = ["| graph | motif | seeds run | test samples (mean) | best heuristic (on test) | best heuristic AUC "
             "| SEAM AUC | SEAM - best | SEAM >= best? |",
             "|---|---|---|---|---|---|---|---|---|"]
    met = below = small = missing = 0
    gaps, notes = [], []
    for g in graphs:
        for mo in motifs:
            rs = [r for r in records if r["graph"] == g and r["motif"] == mo and "seam" in r]
            sk = [r for r in records if r["graph"] == g and r["motif"] == mo and "skipped" in r]
            if not rs:
                why = f"skipped: {sk[0]['skipped']}" if sk else f"not run (0 of {len(seeds)} seeds)"
                lines.append(f"| {g} | {mo} | 0 | - | - | - | - | - | {why} |")
                missing += 1
                continue
            names = list(rs[0]["heuristics"])
            means = {n: np.mean([r["heuristics"][n] for r in rs]) for n in names}
            best = max(names, key=lambda n: means[n])
            hb = [r["heuristics"][best] for r in rs]
            sv = [r["seam"] for r in rs]
            nt = np.mean([r["n_test"] for r in rs])
            d = np.mean(sv) - np.mean(hb)
            if nt < MIN_TEST:
                verdict = f"n/a (< {MIN_TEST} test samples)"
                small += 1
            elif d >= 0:
                verdict = "yes"
                met += 1
            else:
                verdict = f"no, by {-d:.3f}"
                below += 1
                gaps.append(-d)
            seeds_run = "".join(str(r["seed"]) for r in sorted(rs, key=lambda r: r["seed"]))
            lines.append(f"| {g} | {mo} | {len(rs)} ({seeds_run}) | {nt:.0f} | {best} | {np.mean(hb):.3f} ± "
                         f"{np.std(hb):.3f} | {np.mean(sv):.3f} ± {np.std(sv):.3f} | {d:+.3f} | {verdict} |")
            if all("seam_best" in r for r in rs):
                bv = [r["seam_best"] for r in rs]
                per_seed = ", ".join(f"seed {r['seed']}: {r['seam']:.3f} (best-val fit {r['seam_best']:.3f}, "
                                     f"{best} {r['heuristics'][best]:.3f})"
                                     for r in sorted(rs, key=lambda r: r["seed"]))
                notes.append(f"{g} {mo}: the fit of the higher validation AUC alone {np.mean(bv):.3f} ± "
                             f"{np.std(bv):.3f}; {per_seed}")
    secs = [r["seam_seconds"] for r in records if "seam_seconds" in r]
    devs = sorted({r["device"] for r in records if "device" in r})
    lines += ["", f"Cells with >= {MIN_TEST} test samples: SEAM's mean >= the best heuristic's in {met}, below in "
                  f"{below}" + (f" (by {min(gaps):.3f} to {max(gaps):.3f})" if gaps else "")
              + f"; {small} cells with fewer test samples; {missing} cells without a run.",
              f"SEAM trainings: {len(secs)} on {', '.join(devs) or '-'}"
              + (f", median {np.median(secs):.1f} s, total {np.sum(secs):.0f} s." if secs else ".")]
    cpu = [r["seam_cpu_seconds"] for r in records if "seam_cpu_seconds" in r]
    if cpu:
        lines.append(f"Processor seconds per SEAM job (all its fits): median {np.median(cpu):.1f}, "
                     f"max {np.max(cpu):.1f}.")
    lines += [f"* {n}" for n in notes]
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graphs", nargs="+", default=None, help="default: the seven shipped SEAL graphs + --extra")
    p.add_argument("--extra", nargs="*", default=[], help="NAME=PATH: more graphs read from edge-list files")
    p.add_argument("--motifs", nargs="+", default=MOTIFS)
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    p.add_argument("--epochs", type=int, default=50)
    p.add_argument("--patience", type=int, default=10)
    p.add_argument("--seam", default="hops1", choices=["hops1", "mean"],
                   help="hops1: one fit of radius 1; mean: the command line's default (fits of radius 1 and "
                        "2, scores averaged), with the fit of the higher validation AUC recorded beside it")
    p.add_argument("--max-samples", type=int, default=500, help="positives per task (negatives as many)")
    p.add_argument("--workers", type=int, default=2, help="worker processes (one torch thread each)")
    p.add_argument("--cuda-workers", type=int, default=0, help="how many of the workers train on the GPU")
    p.add_argument("--budget", type=float, default=None, help="start no job after this many seconds")
    p.add_argument("--raw", default=None, help="append one JSON line per finished job to this file")
    p.add_argument("--out", default=None, help="write the markdown table here")
    p.add_argument("--merge", nargs="+", default=None, help="only tabulate these JSON-lines files")
    args = p.parse_args(argv)
    extra = dict(e.split("=", 1) for e in args.extra)
    graphs = args.graphs or GRAPHS + [g for g in extra if g not in GRAPHS]

    if args.merge:
        records = [json.loads(line) for f in args.merge for line in open(f) if line.strip()]
        if args.graphs is None:
            graphs = list(dict.fromkeys(r["graph"] for r in records))
    else:
        # compile the Numba kernels once (cached on disk) before the workers start
        run_job(graphs[0], args.motifs[0], 0, "cpu", argparse.Namespace(**{**vars(args), "epochs": 1}), extra, {})
        jobs_list = [(g, m, s) for s in args.seeds for g in graphs for m in args.motifs]
        jobs_list.sort(key=lambda j: -_COST.get(j[0], 1.0) * (1 + 0.1 * int(j[1][len("clique"):])))
        ctx = mp.get_context("spawn")
        jobs, results = ctx.Queue(), ctx.Queue()
        for j in jobs_list:
            jobs.put(j)
        t_start = time.time()
        deadline = t_start + args.budget if args.budget else float("inf")
        procs = [ctx.Process(target=_worker, args=(jobs, results, "cuda" if i < args.cuda_workers else "cpu",
                                                   args, extra, deadline)) for i in range(args.workers)]
        for pr in procs:
            pr.start()
        records, done = [], 0
        while done < len(procs):
            rec = results.get()
            if rec is None:
                done += 1
                continue
            records.append(rec)
            if args.raw:
                with open(args.raw, "a") as fh:
                    fh.write(json.dumps(rec) + "\n")
            msg = rec.get("skipped") or (f"SEAM {rec['seam']:.3f} best heuristic "
                                         f"{max(rec['heuristics'].values()):.3f} ({rec['seam_seconds']:.0f} s, "
                                         f"{rec['device']})")
            print(f"[{time.time() - t_start:5.0f} s] {rec['graph']} {rec['motif']} seed {rec['seed']}: {msg}",
                  file=sys.stderr, flush=True)
        for pr in procs:
            pr.join()
        print(f"{len(records)} of {len(jobs_list)} jobs in {time.time() - t_start:.0f} s", file=sys.stderr)
    text = ("# SEAM across seeds (test ROC AUC, mean ± sd over seeds)\n\n"
            + table(records, graphs, args.motifs, args.seeds) + "\n")
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
