"""Temporal closure prediction on ScHoLP data sets (Benson et al., PNAS 2018).

    python benchmarks/closure.py DIR [--datasets A B ...] [--threads 2] [--max-candidates N] [--json OUT]
    python benchmarks/closure.py DIR --seam [--seam-only] [--seam-unweighted] ...
    python benchmarks/closure.py DIR --variants [--datasets A B ...]

DIR holds the ScHoLP data sets, one folder each (DIR/NAME/NAME-{nverts,simplices,times}.txt[.gz]).
For every data set: open triangles at the cut (the time of the item at 80 %), labelled by whether
they appear together in one item by the last item; every simple score and the LightGBM model
trained at cut - delta. Prints AUC-PR relative to random (ROC AUC in a second table) and whether
the model reaches the best single score. Never asserts on time.

``--variants``: a study of learned models beyond the default ones (not a selection: every
variant is scored on the test window, beside the best single score there). The closure features
of the candidates at cut - k delta (k = 0..3, where the past exists) train a logistic regression
(C = 1 and the strongly regularised C = 0.001) or the small monotone LightGBM on the latest
window (pool 1) or on the latest two or three stacked (pool 2, 3), on log features, on
per-window quantile ranks ("rank": every column replaced by its rank among that window's
candidates, so a model carries over when the scale of the weights and degrees drifts), or on
per-window standardised logs ("z"); and LightGBM's rank objective (rank_xendcg, random groups of
2,000 candidates). Prints AUC-PR / random per variant and how many data sets each reaches the
best single score on.
"""

import argparse
import json
import os
import sys
import time
import warnings

import numpy as np

from graphmine.io.events import read_events
from graphmine.motifs.closure import (_MONOTONE, CLOSURE_SCORES, closure_features, closure_task, default_cut,
                                      predict_closure)

DEFAULT = ("email-Enron", "contact-primary-school", "contact-high-school", "NDC-classes", "NDC-substances",
           "email-Eu", "tags-ask-ubuntu", "congress-bills", "threads-ask-ubuntu", "tags-math-sx")
SHORT = {"harmonic_mean": "HM", "geometric_mean": "GM", "arithmetic_mean": "AM", "common_neighbors": "CN",
         "jaccard": "Jac", "adamic_adar": "AA", "projected_pa": "PA", "simplicial_pa": "SPA", "katz": "Katz",
         "ppr": "PPR", "lightgbm": "LGBM", "logistic": "LR", "lightgbm+logistic": "LGBM+LR", "learned": "learned",
         "seam": "SEAM*"}


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
    p.add_argument("--seam-only", action="store_true", help="with --seam: the simple scores and SEAM only (no "
                   "LightGBM / logistic models and no past check)")
    p.add_argument("--seam-unweighted", action="store_true",
                   help="SEAM on the unweighted subgraphs with the heuristic scores (before the pair weights)")
    p.add_argument("--variants", action="store_true", help="the study of learned-model variants (see above)")
    p.add_argument("--no-recency", action="store_true",
                   help="the models (and SEAM) without the recency features (closure_features(recency=False))")
    args = p.parse_args(argv)
    if args.variants:
        return variants(args)
    rows = []
    for name in args.datasets:
        path = os.path.join(args.dir, name)
        t0 = time.perf_counter()
        try:
            ev = read_events(path, threads=args.threads)
            t_read = time.perf_counter() - t0
            r = predict_closure(ev, motif=args.motif, max_candidates=args.max_candidates, seed=0,
                                threads=args.threads, model=not args.seam_only, recency=not args.no_recency)
            if args.seam_only:
                task = r["task"]
                r["train_task"] = closure_task(ev, task.cut - task.delta, task.delta, motif=args.motif,
                                               max_candidates=args.max_candidates, seed=0, threads=args.threads)
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
                                  weighted=not args.seam_unweighted, recency=not args.no_recency,
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
    names = list(CLOSURE_SCORES) + ([] if args.seam_only else ["lightgbm", "logistic", "lightgbm+logistic",
                                                                "learned"]) \
        + (["seam"] if args.seam else [])
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
                  + " | ".join(cells) + f" | {'-' if args.seam_only else _chosen(rec)} | "
                  f"{SHORT[best]} {single[best]:.2f} |")
    for model in ("learned", "lightgbm", "logistic", "lightgbm+logistic"):
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


VARIANTS = (("LR", "log", 1, 1.0), ("LR", "log", 3, 1.0), ("LR C=0.001", "log", 1, 0.001),
            ("LR C=0.001", "log", 2, 0.001), ("LR", "rank", 3, 1.0), ("LR", "z", 3, 1.0),
            ("LGBM", "log", 1, None), ("LGBM", "rank", 1, None), ("LGBM", "rank", 3, None),
            ("xendcg", "log", 2, None))


def _variant_features(X, how):
    from scipy.stats import rankdata

    L = np.log1p(np.maximum(X, 0.0))
    if how == "log":
        return L
    if how == "rank":
        return np.column_stack([(rankdata(c) - 0.5) / max(c.size, 1) for c in X.T])
    sd = L.std(axis=0)
    return (L - L.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def _variant_scores(kind, C, Xtr, ytr, Xte, names, how, threads):
    import lightgbm as lgb
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    if kind.startswith("LR"):
        sc = StandardScaler().fit(Xtr)
        m = LogisticRegression(C=C, max_iter=3000).fit(sc.transform(Xtr), ytr)
        return m.predict_proba(sc.transform(Xte))[:, 1]
    mono = [_MONOTONE.get(n, 0) for n in names]
    common = dict(n_estimators=100, learning_rate=0.05, num_leaves=4, min_child_samples=100, monotone_constraints=mono,
                  random_state=0, n_jobs=threads, verbose=-1)
    if kind == "LGBM":
        m = lgb.LGBMClassifier(subsample=0.8, subsample_freq=1, colsample_bytree=0.8, **common)
        return m.fit(Xtr, ytr).predict_proba(Xte)[:, 1]
    order = np.random.default_rng(0).permutation(ytr.size)
    groups = [2000] * (ytr.size // 2000) + ([ytr.size % 2000] if ytr.size % 2000 else [])
    m = lgb.LGBMRanker(objective="rank_xendcg", **common).fit(Xtr[order], ytr[order], group=groups)
    return m.predict(Xte)


def variants(args):
    """The learned-model study of ``--variants`` (module docstring); prints one table."""
    from graphmine.motifs.closure import evaluate_closure

    table = []
    for name in args.datasets:
        t0 = time.perf_counter()
        ev = read_events(os.path.join(args.dir, name), threads=args.threads)
        cut, delta = default_cut(ev)
        wins = {}
        for k in range(4):
            c = cut - k * delta
            if c <= float(ev.times[0]):
                break
            task = closure_task(ev, c, delta, motif=args.motif, max_candidates=args.max_candidates, seed=0,
                                threads=args.threads)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                wins[k] = closure_features(task, threads=args.threads) + (task.labels,)
        names, X0, y0 = wins[0]
        # a walk score skipped in one window only: keep the columns every window has
        usable = [k for k in wins if all(n in wins[k][0] for n in names) and 0 < wins[k][2].sum() < wins[k][2].size]
        rate = float(y0.mean())
        single = {n: evaluate_closure(y0, X0[:, i])["auc_pr_ratio"] for i, n in enumerate(names) if n in CLOSURE_SCORES}
        best = max(single, key=single.get)
        row = {"dataset": name, "positives": int(y0.sum()), "rate": rate, "best": best, "best_ratio": single[best],
               "windows": {k: int(wins[k][2].sum()) for k in usable if k}, "variants": {}}
        for kind, how, pool, C in VARIANTS:
            use = [k for k in range(1, pool + 1) if k in usable]
            if len(use) < pool:
                continue
            Xtr = np.vstack([_variant_features(wins[k][1][:, [wins[k][0].index(n) for n in names]], how) for k in use])
            ytr = np.concatenate([wins[k][2] for k in use]).astype(np.int64)
            s = _variant_scores(kind, C, Xtr, ytr, _variant_features(X0, how), names, how, args.threads)
            row["variants"][f"{kind} {how} pool {pool}"] = evaluate_closure(y0, s)["auc_pr_ratio"]
        row["seconds"] = time.perf_counter() - t0
        table.append(row)
        print(f"{name}: {row['windows']} positives in the earlier windows, {row['seconds']:.0f} s", file=sys.stderr,
              flush=True)
        if args.json:
            with open(args.json, "a") as fh:
                fh.write(json.dumps(row) + "\n")
    keys = [f"{kind} {how} pool {pool}" for kind, how, pool, _ in VARIANTS]
    print("\nAUC-PR / random on the test window; pool k: trained on the k latest earlier windows stacked")
    print("| data set | pos. | earlier windows' positives | best single | " + " | ".join(keys) + " |")
    print("|---|---|---|---|" + "---|" * len(keys))
    for r in table:
        cells = [f"{r['variants'][k]:.2f}" if k in r["variants"] else "-" for k in keys]
        wins = ", ".join(str(v) for v in r["windows"].values())
        print(f"| {r['dataset']} | {r['positives']} | {wins} | {SHORT[r['best']]} {r['best_ratio']:.2f} | "
              + " | ".join(cells) + " |")
    reach = [sum(k in r["variants"] and r["variants"][k] >= r["best_ratio"] for r in table) for k in keys]
    print("| reaches the best single | | | | " + " | ".join(f"{n} of {sum(k in r['variants'] for r in table)}"
                                                        for n, k in zip(reach, keys)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
