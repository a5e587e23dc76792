"""Motif-prediction benchmark: heuristic motif scores (independent vs correlation-aware) vs SEAM.

For every graph, motif and seed the seeded protocol of :func:`graphmine.motifs.motif_prediction_task`
is built once and shared by all methods; the test-split ROC AUC is recorded. Results are appended
as JSON lines (one per graph/motif/seed) and summarised as markdown tables (mean ± std over seeds).

Examples::

    # the full table (7 graphs x {3,4,5}-clique, {3,4,5}-star x 3 seeds)
    python benchmarks/motifs.py --device auto --raw benchmarks/results/motifs_raw.jsonl \
        --out benchmarks/results/motifs.md
    # a small CPU run
    python benchmarks/motifs.py --graphs USAir --motifs clique3 star3 --seeds 0 --epochs 5 \
        --max-samples 100 --out /tmp/m.md
    # merge JSON-lines files written by several processes into one table
    python benchmarks/motifs.py --merge a.jsonl b.jsonl --out benchmarks/results/motifs.md
    # ... and set them beside the records of an earlier SEAM (same graphs, motifs and seeds)
    python benchmarks/motifs.py --merge after.jsonl --before before.jsonl --out benchmarks/results/motifs.md

SEAM runs with the heuristic motif scores as input features (``--features heuristic``, the
default; ``--features none`` for the subgraph alone) and, with ``--select``, as the best of
hops 1 and 2 on the validation AUC (:func:`gnn.select_seam`). "Best heuristic" in the
before/after table is the best test AUC of any heuristic (any link score, any mode) in the cell.
"""

import argparse
import json
import os
import sys
import time

import numpy as np

GRAPHS = ["USAir", "NS", "PB", "Yeast", "Celegans", "Power", "Router"]
MOTIFS = ["clique3", "clique4", "clique5", "star3", "star4", "star5"]
LINKS = {"cn": "CN", "jaccard": "Jac", "adamic_adar": "AA", "resource_allocation": "RA",
         "preferential_attachment": "PA"}


def parse_motif(text):
    for kind in ("clique", "star", "path", "cycle"):
        if text.startswith(kind):
            return kind, int(text[len(kind):])
    raise SystemExit(f"unknown motif {text!r} (use e.g. clique4, star5)")


def run_one(G, graph, motif_name, seed, args):
    import graphmine.motifs as gmm

    kind, k = parse_motif(motif_name)
    motif = gmm.get_motif(kind, k)
    t0 = time.perf_counter()
    task = gmm.motif_prediction_task(G, motif, n_positives=args.max_samples, seed=seed)
    rec = {"graph": graph, "motif": motif_name, "seed": seed, "n_positives": task.info["n_positives"],
           "n_test": int(task.indices("test").size), "n_hard": task.info["n_hard"],
           "removed_edges": int(task.removed_edges.shape[0]), "task_seconds": time.perf_counter() - t0}
    t0 = time.perf_counter()
    rec["heuristics"] = {n: s["auc"] for n, s in gmm.evaluate_heuristics(task, "test").items()}
    rec["heuristic_seconds"] = time.perf_counter() - t0
    if not args.no_seam:
        from gnn import SEAM, select_seam

        params = dict(epochs=args.epochs, patience=args.patience, lr=args.lr, device=args.device, seed=seed,
                      threads=args.torch_threads, verbose=args.verbose,
                      features=None if args.features == "none" else args.features)
        if args.select:
            m = select_seam(task, **params)
            seconds = sum(c["fit_seconds"] for c in m.selection_)
            rec["seam_selection"] = m.selection_
        else:
            m = SEAM(hops=args.hops, max_nodes_per_hop=args.max_nodes_per_hop, **params).fit(task)
            seconds = m.fit_seconds_
        ev = m.evaluate(task, "test")
        rec.update({"seam": ev["auc"], "seam_ap": ev["ap"], "seam_seconds": seconds, "seam_val_auc": m.best_val_auc_,
                    "seam_best_epoch": m.best_epoch_, "seam_epochs_run": len(m.history_), "seam_hops": m.hops,
                    "seam_features": args.features, "device": str(m.device_)})
    return rec


def fmt(vals):
    vals = np.asarray(vals, float)
    if vals.size == 0:
        return "–"
    return f"{vals.mean():.3f} ± {vals.std():.3f}"


def best_any(rs):
    """(name, mean test AUC) of the heuristic with the best mean over the records of one cell."""
    names = rs[0]["heuristics"].keys()
    b = max(names, key=lambda n: np.mean([r["heuristics"][n] for r in rs]))
    return b, float(np.mean([r["heuristics"][b] for r in rs]))


def short_name(n):
    link, mode = n.split("/")
    return LINKS[link] + ("" if mode == "independent" else f", {mode}")


def before_after(before, after):
    """SEAM before vs after against the best heuristic, on the (graph, motif, seed) runs in both."""
    key = lambda r: (r["graph"], r["motif"], r["seed"])
    b = {key(r): r for r in before if "seam" in r}
    a = {key(r): r for r in after if "seam" in r}
    common = sorted(set(a) & set(b))
    cells = {}
    for k in common:
        cells.setdefault(k[:2], []).append(k)
    order_g = {g: i for i, g in enumerate(GRAPHS)}
    order_m = {m: i for i, m in enumerate(MOTIFS)}
    lines = ["## SEAM before and after the heuristic input features (test ROC AUC, mean over seeds)", "",
             "Before: SEAM over the labelled subgraph alone (h = 1). After: the same network with the "
             "heuristic motif scores as input features, hops 1 or 2 chosen on the validation AUC. "
             "Best heuristic: the best mean test AUC of any link score in any mode, in the same runs "
             "(the heuristics do not change). Below = SEAM's mean under the best heuristic's; "
             "runs below = seeds where SEAM is under that heuristic in that run.", "",
             "| graph | motif | seeds | best heuristic | SEAM before | SEAM after | below before | below after "
             "| runs below before | runs below after | hops after |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    n_below = [0, 0]
    n_runs_below = [0, 0]
    n_runs = 0
    for c in sorted(cells, key=lambda c: (order_g.get(c[0], 99), c[0], order_m.get(c[1], 99), c[1])):
        ks = cells[c]
        ra, rb = [a[k] for k in ks], [b[k] for k in ks]
        name, h = best_any(ra)
        sb, sa = np.mean([r["seam"] for r in rb]), np.mean([r["seam"] for r in ra])
        wb = sum(r["seam"] < r["heuristics"][name] for r in rb)
        wa = sum(r["seam"] < r["heuristics"][name] for r in ra)
        n_below[0] += sb < h
        n_below[1] += sa < h
        n_runs_below[0] += wb
        n_runs_below[1] += wa
        n_runs += len(ks)
        hops = "/".join(str(r.get("seam_hops", "?")) for r in ra)
        lines.append(f"| {c[0]} | {c[1]} | {len(ks)} | {h:.3f} ({short_name(name)}) | {sb:.3f} | {sa:.3f} | "
                     f"{'**yes**' if sb < h else 'no'} | {'**yes**' if sa < h else 'no'} | {wb} | {wa} | {hops} |")
    lines += ["", f"Cells where SEAM's mean is below the best heuristic: {n_below[0]} of {len(cells)} before, "
                  f"{n_below[1]} after; runs: {n_runs_below[0]} of {n_runs} before, {n_runs_below[1]} after. "
                  f"Mean SEAM AUC {np.mean([b[k]['seam'] for k in common]):.3f} before, "
                  f"{np.mean([a[k]['seam'] for k in common]):.3f} after."]
    return "\n".join(lines) + "\n"


def summarise(records):
    """Markdown tables from the JSON records."""
    cells = {}
    for r in records:
        cells.setdefault((r["graph"], r["motif"]), []).append(r)
    order_g = {g: i for i, g in enumerate(GRAPHS)}
    order_m = {m: i for i, m in enumerate(MOTIFS)}
    keys = sorted(cells, key=lambda c: (order_g.get(c[0], 99), c[0], order_m.get(c[1], 99), c[1]))
    lines = ["## Summary: best heuristic of each family vs SEAM (test ROC AUC, mean ± std over seeds)", "",
             "Best = the link score with the highest mean AUC over the seeds in that family. "
             "Gain = (SEAM − best independent) / best independent.", "",
             "| graph | motif | seeds | pos / test | best independent s⊥ | best s⊥ with deal-breakers "
             "| best correlation-aware | SEAM | gain vs s⊥ |",
             "|---|---|---|---|---|---|---|---|---|"]
    gains = []
    for c in keys:
        rs = cells[c]
        names = rs[0]["heuristics"].keys()

        def best(mode_filter):
            cand = [n for n in names if mode_filter(n.split("/")[1])]
            if not cand:
                return None, []
            b = max(cand, key=lambda n: np.mean([r["heuristics"][n] for r in rs]))
            return b, [r["heuristics"][b] for r in rs]

        bi, vi = best(lambda m: m == "independent")
        bd, vd = best(lambda m: m == "independent_db")
        bc, vc = best(lambda m: m.startswith("correlated"))
        seam = [r["seam"] for r in rs if "seam" in r]
        gain = ""
        if seam and vi:
            g = (np.mean(seam) - np.mean(vi)) / np.mean(vi) * 100
            gains.append(g)
            gain = f"{g:+.1f}%"
        short = lambda n: "" if n is None else f" ({LINKS[n.split('/')[0]]}{'' if n.endswith('independent') else ', ' + n.split('/')[1]})"
        lines.append(f"| {c[0]} | {c[1]} | {len(rs)} | {int(np.mean([r['n_positives'] for r in rs]))} / "
                     f"{int(np.mean([r['n_test'] for r in rs]))} | {fmt(vi)}{short(bi)} | "
                     f"{fmt(vd) + short(bd) if bd else '–'} | {fmt(vc)}{short(bc)} | {fmt(seam)} | {gain} |")
    if gains:
        lines += ["", f"Average gain of SEAM over the best independent heuristic: {np.mean(gains):+.1f}% "
                      f"(median {np.median(gains):+.1f}%, {sum(g >= 10 for g in gains)} of {len(gains)} cells "
                      f">= +10%, {sum(g < 0 for g in gains)} cells where SEAM is worse)."]
    lines += ["", "## Every link score: independent s⊥ / correlation-aware s_C (mean test AUC)", "",
              "For stars the correlation-aware column is s*_C (with deal-breakers).", "",
              "| graph | motif | " + " | ".join(LINKS.values()) + " | SEAM |",
              "|---|---|" + "---|" * (len(LINKS) + 1)]
    for c in keys:
        rs = cells[c]
        row = []
        for l in LINKS:
            ind = np.mean([r["heuristics"][f"{l}/independent"] for r in rs])
            cm = f"{l}/correlated_db" if f"{l}/correlated_db" in rs[0]["heuristics"] else f"{l}/correlated"
            cor = np.mean([r["heuristics"][cm] for r in rs])
            row.append(f"{ind:.3f} / {cor:.3f}")
        seam = [r["seam"] for r in rs if "seam" in r]
        lines.append(f"| {c[0]} | {c[1]} | " + " | ".join(row) + f" | {np.mean(seam):.3f} |" if seam else
                     f"| {c[0]} | {c[1]} | " + " | ".join(row) + " | – |")
    secs = [r["seam_seconds"] for r in records if "seam_seconds" in r]
    if secs:
        devs = sorted({r["device"] for r in records if "device" in r})
        lines += ["", f"SEAM training: {len(secs)} runs on {', '.join(devs)}, median {np.median(secs):.1f} s, "
                      f"total {np.sum(secs) / 60:.1f} min."]
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graphs", nargs="+", default=GRAPHS)
    p.add_argument("--motifs", nargs="+", default=MOTIFS, help="e.g. clique3 star5 path4 cycle4")
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    p.add_argument("--epochs", type=int, default=50)
    p.add_argument("--patience", type=int, default=10)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--hops", type=int, default=1)
    p.add_argument("--max-nodes-per-hop", type=int, default=None)
    p.add_argument("--device", default="auto")
    p.add_argument("--torch-threads", type=int, default=2)
    p.add_argument("--max-samples", type=int, default=500, help="positives per task (negatives as many)")
    p.add_argument("--features", default="heuristic", choices=["heuristic", "none"],
                   help="SEAM's candidate-level input features (default: the heuristic motif scores)")
    p.add_argument("--select", action="store_true",
                   help="SEAM with hops 1 or 2 (2: at most 100 new vertices per hop), chosen on validation AUC")
    p.add_argument("--before", nargs="+", default=None,
                   help="JSON-lines records of an earlier SEAM: add a before/after table of the runs in both")
    p.add_argument("--no-seam", action="store_true", help="heuristics only")
    p.add_argument("--verbose", action="store_true", help="SEAM progress per epoch")
    p.add_argument("--raw", default=None, help="append one JSON line per run to this file")
    p.add_argument("--out", default=None, help="write the markdown tables here")
    p.add_argument("--merge", nargs="+", default=None, help="only summarise these JSON-lines files")
    args = p.parse_args(argv)

    header = ""
    if args.merge:
        records = [json.loads(line) for f in args.merge for line in open(f) if line.strip()]
        header = (f"Merged from {', '.join(args.merge)}"
                  + (f" (before: {', '.join(args.before)})" if args.before else "") + ".\n\n")
    else:
        import graphmine as gm

        records = []
        for graph in args.graphs:
            G = gm.datasets.load(graph)
            # seeds outermost: a run cut short still has every cell, with fewer seeds
            for seed in args.seeds:
                for motif in args.motifs:
                    t0 = time.perf_counter()
                    try:
                        rec = run_one(G, graph, motif, seed, args)
                    except gm.GraphmineError as exc:   # e.g. too few instances of the motif
                        print(f"{graph} {motif} seed {seed}: skipped ({exc})", file=sys.stderr, flush=True)
                        continue
                    records.append(rec)
                    if args.raw:
                        with open(args.raw, "a") as fh:
                            fh.write(json.dumps(rec) + "\n")
                    bi = max(v for n, v in rec["heuristics"].items() if n.endswith("/independent"))
                    print(f"{graph:9s} {motif:8s} seed {seed}: best s⊥ {bi:.3f}  SEAM {rec.get('seam', float('nan')):.3f}"
                          f"  ({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
        header = (f"Command: `python benchmarks/motifs.py {' '.join(argv if argv is not None else sys.argv[1:])}`\n\n")
    text = "# Motif prediction results\n\n" + header
    if args.before:
        before = [json.loads(line) for f in args.before for line in open(f) if line.strip()]
        text += before_after(before, records) + "\n"
    text += summarise(records)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
