"""Temporal closure prediction on ScHoLP data sets (Benson et al., PNAS 2018).

    python benchmarks/closure.py DIR [--datasets A B ...] [--threads 2] [--max-candidates N] [--json OUT]

DIR holds the ScHoLP data sets, one folder each (DIR/NAME/NAME-{nverts,simplices,times}.txt[.gz]).
For every data set: open triangles at the cut (the time of the item at 80 %), labelled by whether
they appear together in one item by the last item; every simple score and the LightGBM model
trained at cut - delta. Prints AUC-PR relative to random (ROC AUC in a second table) and whether
the model reaches the best single score. Never asserts on time.
"""

import argparse
import json
import os
import sys
import time

from graphmine.events import read_events
from graphmine.motifs.closure import CLOSURE_SCORES, predict_closure

DEFAULT = ("email-Enron", "contact-primary-school", "contact-high-school", "NDC-classes", "NDC-substances",
           "email-Eu", "tags-ask-ubuntu", "congress-bills", "threads-ask-ubuntu", "tags-math-sx")
SHORT = {"harmonic_mean": "HM", "geometric_mean": "GM", "arithmetic_mean": "AM", "common_neighbors": "CN",
         "jaccard": "Jac", "adamic_adar": "AA", "projected_pa": "PA", "simplicial_pa": "SPA", "katz": "Katz",
         "ppr": "PPR", "lightgbm": "LGBM", "logistic": "LR", "learned": "learned", "seam": "SEAM*"}


def _chosen(rec):
    sel = rec.get("selection")
    if not sel:
        return "LGBM (no earlier window)"
    return "+".join(SHORT.get(p, p) for p in sel["chosen"].split("+"))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir")
    p.add_argument("--datasets", nargs="+", default=list(DEFAULT))
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-candidates", type=int, default=200_000)
    p.add_argument("--motif", default="triangle", choices=("triangle", "clique4"))
    p.add_argument("--json", default=None, help="append one JSON record per data set to this file")
    p.add_argument("--seam", action="store_true",
                   help="also SEAM (gnn.closure.seam_closure) trained on a sample of the training window's "
                        "candidates, scored on a weighted sample of the test window's")
    p.add_argument("--seam-train", type=int, default=2000, help="SEAM's training sample (default 2000)")
    p.add_argument("--seam-test", type=int, default=4000, help="SEAM's test sample (default 4000)")
    p.add_argument("--seam-epochs", type=int, default=30)
    p.add_argument("--seam-max-nodes-per-hop", type=int, default=30,
                   help="SEAM's cap on new vertices per hop of a subgraph (default 30; the contact and e-mail "
                        "graphs are dense)")
    args = p.parse_args(argv)
    rows = []
    for name in args.datasets:
        path = os.path.join(args.dir, name)
        t0 = time.perf_counter()
        try:
            ev = read_events(path, threads=args.threads)
            t_read = time.perf_counter() - t0
            r = predict_closure(ev, motif=args.motif, max_candidates=args.max_candidates, seed=0,
                                threads=args.threads)
        except Exception as exc:  # noqa: BLE001 - one line per data set, the run goes on
            print(f"{name}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            continue
        task, train = r["task"], r["train_task"]
        rec = {"dataset": name, "n_nodes": ev.n_nodes, "n_items": ev.n_items, "motif": args.motif,
               "candidates": int(task.tuples.shape[0]), "sample_rate": task.info["sample_rate"],
               "positives": int(task.labels.sum()), "rate": r["positive_rate"],
               "train_candidates": int(train.tuples.shape[0]), "train_positives": int(train.labels.sum()),
               "scores": r["scores"], "skipped": r["skipped"], "read_s": t_read, "selection": r["selection"],
               "seconds": {k: round(v, 2) for k, v in r["seconds"].items()},
               "total_s": time.perf_counter() - t0}
        if args.seam:
            from gnn.closure import seam_closure

            try:
                sr = seam_closure(train, task, n_train=args.seam_train, n_test=args.seam_test, seed=0,
                                  epochs=args.seam_epochs, max_nodes_per_hop=args.seam_max_nodes_per_hop,
                                  threads=args.threads, device="cpu")
                rec["scores"]["seam"] = sr["seam"]
                rec["seam"] = sr
            except Exception as exc:  # noqa: BLE001 - one line per data set, the run goes on
                print(f"{name}: SEAM: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        rows.append(rec)
        if args.json:
            with open(args.json, "a") as fh:
                fh.write(json.dumps(rec) + "\n")
        print(f"{name}: {rec['candidates']} candidates, {rec['positives']} close, "
              f"{rec['total_s']:.1f} s", file=sys.stderr, flush=True)
    names = list(CLOSURE_SCORES) + ["lightgbm", "logistic", "learned"] + (["seam"] if args.seam else [])
    for metric, title in (("auc_pr_ratio", "AUC-PR / random"), ("roc_auc", "ROC AUC")):
        print(f"\n{title}\n")
        print("| data set | cand. | pos. | rate | " + " | ".join(SHORT[n] for n in names)
              + " | learned = (chosen on the past) | best single |")
        print("|---|---|---|---|" + "---|" * (len(names) + 2))
        for rec in rows:
            s = rec["scores"]
            single = {n: s[n][metric] for n in CLOSURE_SCORES if n in s}
            best = max(single, key=single.get)
            cells = [f"{s[n][metric]:.2f}" if n in s else "-" for n in names]
            print(f"| {rec['dataset']} | {rec['candidates']} | {rec['positives']} | {rec['rate']:.4f} | "
                  + " | ".join(cells) + f" | {_chosen(rec)} | {SHORT[best]} {single[best]:.2f} |")
    for model in ("learned", "lightgbm", "logistic"):
        wins = [rec["dataset"] for rec in rows if model in rec["scores"] and rec["scores"][model]["auc_pr_ratio"]
                >= max(rec["scores"][n]["auc_pr_ratio"] for n in CLOSURE_SCORES if n in rec["scores"])]
        print(f"\n{model} AUC-PR >= best single score on {len(wins)} of {len(rows)} data sets: {', '.join(wins) or '-'}")
    if args.seam:
        print("\nSEAM* (AUC-PR / random, ROC AUC) on its weighted test sample, beside the best single score on the "
              "same sample:")
        for rec in rows:
            if "seam" not in rec:
                continue
            sr = rec["seam"]
            best = max(sr["singles"], key=lambda n: sr["singles"][n]["auc_pr_ratio"])
            print(f"  {rec['dataset']}: train {sr['n_train']} ({sr['train_positives']} close), test {sr['n_test']} "
                  f"({sr['test_positives']} close): SEAM {sr['seam']['auc_pr_ratio']:.2f} / {sr['seam']['roc_auc']:.2f}, "
                  f"best single {SHORT[best]} {sr['singles'][best]['auc_pr_ratio']:.2f} / "
                  f"{sr['singles'][best]['roc_auc']:.2f} [{sr['seconds']:.0f} s]")
    print("\nseconds (read, candidates, scores, model incl. the training window's candidates and features):")
    for rec in rows:
        print(f"  {rec['dataset']}: read {rec['read_s']:.1f}, {rec['seconds']}, total {rec['total_s']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
