"""Science4Cast on synthetic data of competition size: AUC of every model and time of every stage.

    python benchmarks/science4cast.py [--vertices 64719] [--pairs 1000000] [--seed 0] [--json OUT]
    python benchmarks/science4cast.py --scenarios [--size small|competition] [--only NAME ...] [--json OUT]

Generates a benchmark-format data set (64,719 concepts, ~1.8M rows by 2014, 1M pairs,
year_start 2014, years_delta 3, cutoff 0, min_edges 1), then: the pickle round trip, the features
of all pairs over 4 yearly snapshots (also on the first snapshot with >= 2M edges, the size the
issue names), training of the degree-only baseline and of the blended LightGBM models on the
data's past, prediction and the AUC of the baseline, each single model and the weighted
rank-average blend (weights fitted on held-out past pairs). Prints tables measured in this one run on this machine; asserts nothing about time.

``--scenarios``: for every scenario of ``graphmine.science4cast.generator.SCENARIOS`` (at the
``small`` size, 4,000 concepts and 100,000 pairs, by default; ``--size competition`` for 64,719 and
1M), trains the default blend and the degree-only baseline on the data's past and prints the AUC of
the blend, each of its members, the baseline and the simple scores (degree sum and product, degree
growth, common neighbours, Adamic-Adar, Jaccard), each with its stratified bootstrap standard
error (200 resamples), and the blend's margin over the best simple score and over its best member
with the standard error of that (paired) difference.
"""

import argparse
import json
import logging
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from graphmine.science4cast import (generate_benchmark, pair_features, read_benchmark, snapshot,  # noqa: E402
                                    write_benchmark)
from graphmine.science4cast.blend import roc_auc  # noqa: E402
from graphmine.science4cast.models import LinkPredictor  # noqa: E402


def scenarios(args):
    from graphmine.science4cast.blend import bootstrap_aucs
    from graphmine.science4cast.generator import SCENARIOS, generate_scenario
    from graphmine.science4cast.simple import SIMPLE_SCORES, simple_scores

    names = args.only or list(SCENARIOS)
    results = {}
    tick = time.perf_counter
    for name in names:
        t = tick()
        data = generate_scenario(name, args.size, seed=args.seed)
        t_gen = tick() - t
        t = tick()
        blend = LinkPredictor("blend", n_train_pairs=args.train_pairs, seed=args.seed, threads=args.threads).fit(data)
        base = LinkPredictor("baseline", n_train_pairs=args.train_pairs, seed=args.seed).fit(data)
        t_train = tick() - t
        t = tick()
        X = blend.features(data)
        t_feat = tick() - t
        t = tick()
        members = blend.predict_all(data, features=X)
        s_blend = blend.predict(data, members)
        t_pred = tick() - t
        cols = {"blend": s_blend}
        # trained members; the simple scores appear once, in their own columns below
        cols.update({f"member {k}": v for k, v in members.items() if not k.startswith("simple:")})
        cols["degree baseline"] = base.predict(data)
        from graphmine.science4cast.features import feature_names
        cols.update(simple_scores(X, feature_names(blend.n_snapshots)))
        y = data.solution
        keys = list(cols)
        boot = bootstrap_aucs(y, [cols[k] for k in keys], n_boot=200, seed=args.seed)
        auc = {k: roc_auc(y, cols[k]) for k in keys}
        se = dict(zip(keys, boot.std(axis=0, ddof=1)))
        best_simple = max(SIMPLE_SCORES, key=auc.get)
        # the blend's members: the trained models and the simple scores it gave a weight
        member_keys = [k for k in keys if k.startswith("member ")]
        member_keys += [k for k in SIMPLE_SCORES if (blend.weights_ or {}).get(f"simple:{k}", 0) > 0]
        best_member = max(member_keys, key=auc.get)
        ib, isim, imem = keys.index("blend"), keys.index(best_simple), keys.index(best_member)
        results[name] = {
            "auc": auc, "se": {k: float(v) for k, v in se.items()}, "positives": int(y.sum()), "pairs": int(y.shape[0]),
            "best_simple": best_simple, "best_member": best_member,
            "vs_simple": auc["blend"] - auc[best_simple], "vs_simple_se": float((boot[:, ib] - boot[:, isim]).std(ddof=1)),
            "vs_member": auc["blend"] - auc[best_member], "vs_member_se": float((boot[:, ib] - boot[:, imem]).std(ddof=1)),
            "weights": blend.weights_,
            "seconds": {"generate": t_gen, "train": t_train, "features": t_feat, "predict": t_pred}}
        r = results[name]
        print(f"{name}: {r['positives']} positives; blend {auc['blend']:.4f} +- {se['blend']:.4f}; best simple "
              f"{best_simple} {auc[best_simple]:.4f}; best member {best_member} {auc[best_member]:.4f}; weights "
              + ", ".join(f"{k} {v:.2f}" for k, v in (blend.weights_ or {}).items() if v > 0)
              + f" [gen {t_gen:.0f} s, train {t_train:.0f} s, features {t_feat:.1f} s, predict {t_pred:.1f} s]",
              flush=True)

    # one table: a row per scenario, AUC +- SE per column
    keys = list(dict.fromkeys(k for r in results.values() for k in r["auc"]))
    short = {k: k.replace("member ", "").replace("degree baseline", "baseline") for k in keys}
    print(f"\nAUC +- bootstrap SE ({args.size} size, seed {args.seed})")
    print("| scenario | pos | " + " | ".join(short[k] for k in keys) + " | blend - best simple | blend - best member |")
    print("|---" * (len(keys) + 4) + "|")
    for name, r in results.items():
        cells = [f"{r['auc'][k]:.3f} +- {r['se'][k]:.3f}" if k in r["auc"] else "" for k in keys]
        print(f"| {name} | {r['positives']} | " + " | ".join(cells)
              + f" | {r['vs_simple']:+.4f} +- {r['vs_simple_se']:.4f} ({r['best_simple']})"
              + f" | {r['vs_member']:+.4f} +- {r['vs_member_se']:.4f} |")
    mean = {k: float(np.mean([r["auc"][k] for r in results.values() if k in r["auc"]])) for k in keys}
    print("| mean | | " + " | ".join(f"{mean[k]:.3f}" for k in keys)
          + f" | {np.mean([r['vs_simple'] for r in results.values()]):+.4f} | "
          f"{np.mean([r['vs_member'] for r in results.values()]):+.4f} |")
    bad = [n for n, r in results.items() if r["vs_simple"] < -r["vs_simple_se"] or r["vs_member"] < -r["vs_member_se"]]
    print(f"scenarios where the blend is more than one SE below the best simple score or its best member: "
          f"{', '.join(bad) if bad else 'none'}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


def main():
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # the stage messages of graphmine.science4cast
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vertices", type=int, default=64719)
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--train-pairs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the results as JSON to this file")
    ap.add_argument("--scenarios", action="store_true", help="the scenario table instead (see above)")
    ap.add_argument("--size", default="small", choices=("small", "competition"), help="scenario size")
    ap.add_argument("--only", nargs="*", default=None, help="only these scenarios")
    ap.add_argument("--threads", type=int, default=None, help="threads for features and LightGBM")
    args = ap.parse_args()
    if args.scenarios:
        if args.train_pairs == 100_000 and args.size == "small":
            args.train_pairs = 20_000
        logging.getLogger().setLevel(logging.WARNING)
        return scenarios(args)

    times = {}
    tick = time.perf_counter
    t = tick()
    data = generate_benchmark(args.vertices, args.pairs, seed=args.seed)
    times["generate"] = tick() - t
    G = snapshot(data.graph, data.year_start, data.n_vertices)
    print(f"data: {data!r}; graph at {data.year_start}: {G.n_nodes} vertices, {G.n_edges} edges "
          f"({int((data.graph[:, 2] < 9130).sum())} rows)", flush=True)

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "data.pkl")
        t = tick()
        write_benchmark(data, path)
        data2 = read_benchmark(path)
        times["pickle write + read (restricted)"] = tick() - t
        assert np.array_equal(data2.graph, data.graph) and np.array_equal(data2.solution, data.solution)

    # feature throughput: warm the kernels on a few pairs, then time all pairs x 4 snapshots
    pair_features(data.graph, data.pairs[:100], data.year_start)
    t = tick()
    X, names = pair_features(data.graph, data.pairs, data.year_start, n_snapshots=4)
    times[f"features: {X.shape[0]} pairs x 4 snapshots at {data.year_start} ({G.n_edges} edges)"] = tick() - t
    year2m = next((y for y in range(data.year_start, data.year_start + data.years_delta + 1)
                   if snapshot(data.graph, y, data.n_vertices).n_edges >= 2_000_000), None)
    if year2m is not None:
        m2 = snapshot(data.graph, year2m, data.n_vertices).n_edges
        t = tick()
        pair_features(data.graph, data.pairs, year2m, n_snapshots=4)
        times[f"features: {X.shape[0]} pairs x 4 snapshots at {year2m} ({m2} edges)"] = tick() - t

    t = tick()
    base = LinkPredictor("baseline", n_train_pairs=args.train_pairs, seed=args.seed).fit(data)
    times["train degree baseline (MLP)"] = tick() - t
    t = tick()
    blend = LinkPredictor("blend", n_train_pairs=args.train_pairs, seed=args.seed, progress=True).fit(data)
    times[f"train blend ({len(blend.estimators_)} LightGBM models)"] = tick() - t
    t = tick()
    s_base = base.predict(data)
    times["predict baseline"] = tick() - t
    t = tick()
    scores = blend.predict_all(data, features=X)
    s_blend = blend.predict(data, scores)
    times["predict blend (features precomputed)"] = tick() - t
    print("blend weights (fitted on held-out past pairs): "
          + ", ".join(f"{k} {v:.2f}" for k, v in blend.weights_.items()), flush=True)

    y = data.solution
    aucs = {"degree baseline (MLP)": roc_auc(y, s_base)}
    for name, s in scores.items():
        aucs[f"LightGBM {name}"] = roc_auc(y, s)
    aucs["blend (weighted rank)"] = roc_auc(y, s_blend)

    print(f"\nAUC on {y.shape[0]} pairs ({int(y.sum())} positive), year_start {data.year_start}, "
          f"delta {data.years_delta}, cutoff {data.vertex_degree_cutoff}, min_edges {data.min_edges}")
    print(f"{'model':<28}{'AUC':>8}{'vs baseline':>14}")
    b = aucs["degree baseline (MLP)"]
    for k, v in aucs.items():
        print(f"{k:<28}{v:>8.4f}{v - b:>+14.4f}")
    singles = [v for k, v in aucs.items() if k.startswith("LightGBM")]
    gap = aucs["blend (weighted rank)"] - b
    print(f"blend - baseline = {gap:+.4f} (goal >= 0.05: {'met' if gap >= 0.05 else 'NOT met'}); "
          f"blend - best single = {aucs['blend (weighted rank)'] - max(singles):+.4f}")
    print(f"\n{'stage':<62}{'seconds':>10}")
    for k, v in times.items():
        print(f"{k:<62}{v:>10.1f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"auc": aucs, "seconds": times, "pairs": int(y.shape[0]), "positives": int(y.sum())}, fh,
                      indent=1)


if __name__ == "__main__":
    main()
