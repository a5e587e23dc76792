"""Graphlet degree vectors (4-vertex node orbit counts) as features: held-out comparisons before and
after, on the shipped graphs.

    python benchmarks/orbit_features.py [--closure-graphs A B ...] [--motif-graphs A B ...]
        [--motifs clique3 ...] [--seeds 0 1 2] [--threads 2] [--json OUT]

Closure (:func:`graphmine.motifs.predict_closure`, ``orbits=False`` against ``orbits=True``): the
shipped graphs carry no times, so each becomes pairwise events, its edges one item each in a
seeded random order (time = position); the candidates are the wedges at the item at 80 %, a
wedge closing when its missing pair appears by the last item (a held-out link-prediction split
of a real graph). Both runs share the candidates, labels, seed and every other feature; the
models (LightGBM, logistic regression, and the learned predictor chosen on the past) differ only
by the 45 orbit columns. Printed: AUC-PR relative to random and ROC AUC of each model, before
and after, and the best simple score.

Motif scores (:func:`graphmine.motifs.evaluate_heuristics`): the seeded protocol of
``benchmarks/motifs.py`` (500 positives, test split); the best test ROC AUC of any heuristic
(link score x mode) with the five link scores, and with ``'orbit_cosine'`` added, and
``'orbit_cosine'``'s own best mode. Never asserts on time.
"""

import argparse
import json
import sys
import time

import numpy as np

import graphmine as gm
from graphmine.io.events import events_from_items
from graphmine.motifs import LINK_SCORES, ORBIT_LINK_SCORE, evaluate_heuristics, get_motif, motif_prediction_task
from graphmine.motifs.closure import CLOSURE_SCORES, predict_closure

CLOSURE_GRAPHS = ["USAir", "NS", "PB", "Yeast", "Celegans", "Power", "Router"]
MOTIF_GRAPHS = ["USAir", "NS", "PB", "Yeast", "Celegans", "Power", "Router"]
MOTIFS = ["clique3", "clique4", "star3", "star4"]
MODELS = ("lightgbm", "logistic", "learned")


def edge_events(G, seed):
    """The edges of G as pairwise items in a seeded random order (time = position)."""
    E = G.edges()
    order = np.random.default_rng(seed).permutation(E.shape[0])
    return events_from_items(E[order].tolist(), np.arange(E.shape[0], dtype=np.float64))


def closure(args, out):
    print("\nClosure of wedges (pairwise events in a random edge order; AUC-PR / random, ROC AUC)\n")
    print("| graph | cand. | pos. | " + " | ".join(f"{m} before | {m} after" for m in MODELS) + " | best single |")
    print("|---|---|---|" + "---|---|" * len(MODELS) + "---|")
    for name in args.closure_graphs:
        G = gm.datasets.load(name)
        ev = edge_events(G, 0)
        rec = {"part": "closure", "graph": name}
        for orbits in (False, True):
            t0 = time.perf_counter()
            r = predict_closure(ev, orbits=orbits, seed=0, threads=args.threads)
            rec["after" if orbits else "before"] = {m: r["scores"][m] for m in MODELS}
            rec[f"seconds_{'after' if orbits else 'before'}"] = time.perf_counter() - t0
        s = r["scores"]
        best = max((n for n in CLOSURE_SCORES if n in s), key=lambda n: s[n]["auc_pr_ratio"])
        rec.update(candidates=int(r["task"].tuples.shape[0]), positives=int(r["task"].labels.sum()),
                   best_single=(best, s[best]))
        cells = []
        for m in MODELS:
            for when in ("before", "after"):
                v = rec[when][m]
                cells.append(f"{v['auc_pr_ratio']:.3f} / {v['roc_auc']:.3f}")
        print(f"| {name} | {rec['candidates']} | {rec['positives']} | " + " | ".join(cells)
              + f" | {best} {s[best]['auc_pr_ratio']:.3f} / {s[best]['roc_auc']:.3f} |", flush=True)
        out.append(rec)


def motifs(args, out):
    print("\nMotif scores (test ROC AUC, mean over seeds): best heuristic without and with orbit_cosine, and "
          "orbit_cosine's best mode\n")
    print("| graph | motif | best before | best after | orbit_cosine alone |")
    print("|---|---|---|---|---|")
    for name in args.motif_graphs:
        G = gm.datasets.load(name)
        for mname in args.motifs:
            kind = mname.rstrip("0123456789")
            motif = get_motif(kind, int(mname[len(kind):]))
            before, after, alone = [], [], []
            for seed in args.seeds:
                task = motif_prediction_task(G, motif, n_positives=500, seed=seed)
                res = {k: v["auc"] for k, v in evaluate_heuristics(task, "test", links=LINK_SCORES + (ORBIT_LINK_SCORE,),
                                                                    threads=args.threads).items()}
                plain = [v for k, v in res.items() if not k.startswith(ORBIT_LINK_SCORE)]
                orbit = [v for k, v in res.items() if k.startswith(ORBIT_LINK_SCORE)]
                before.append(max(plain))
                after.append(max(plain + orbit))
                alone.append(max(orbit))
            rec = {"part": "motifs", "graph": name, "motif": mname, "seeds": list(args.seeds),
                   "best_before": before, "best_after": after, "orbit_alone": alone}
            out.append(rec)
            print(f"| {name} | {mname} | {np.mean(before):.4f} | {np.mean(after):.4f} | {np.mean(alone):.4f} |",
                  flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--closure-graphs", nargs="*", default=CLOSURE_GRAPHS)
    p.add_argument("--motif-graphs", nargs="*", default=MOTIF_GRAPHS)
    p.add_argument("--motifs", nargs="+", default=MOTIFS)
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--json", default=None, help="write the records (JSON lines) here")
    args = p.parse_args(argv)
    out = []
    if args.closure_graphs:
        closure(args, out)
    if args.motif_graphs:
        motifs(args, out)
    if args.json:
        with open(args.json, "w") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
