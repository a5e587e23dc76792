"""Science4Cast on synthetic data of competition size: AUC of every model and time of every stage.

    python benchmarks/science4cast.py [--vertices 64719] [--pairs 1000000] [--seed 0] [--json OUT]
    python benchmarks/science4cast.py --scenarios [--size small|competition] [--only NAME ...] [--json OUT]
    python benchmarks/science4cast.py --real DIR [--pairs 100000] [--train-pairs 20000] [--only NAME ...]
    python benchmarks/science4cast.py --real DIR --variants [--only NAME ...]

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

``--real DIR``: every complete ScHoLP data set in the folder DIR (one sub-folder per data set, as
in the GitHub repository arbenson/ScHoLP-Data, read by ``graphmine.io.events.read_events``) becomes a
benchmark by ``graphmine.science4cast.build.build_benchmark``: every pair inside an item is a row
at the item's time, times mapped linearly onto 1994-01-01 .. 2020-12-30 (``--time-map rank``: by
the items' rank in time), year_start = the last complete year minus years_delta, years_delta 3,
vertex_degree_cutoff 5, min_edges 1, ``--pairs`` unconnected pairs (fewer where fewer exist).
The default blend is trained on each data set's past and the table gives the AUC ± the bootstrap
SE of the blend, each member and every simple score, the blend's margin over the best simple
score, and the feature and model times of the prediction. A data set that cannot train
prints one line with the positives found in its past windows; one whose pairs hold no positive is
trained but has no AUC.

``--real DIR --variants``: a study, not a selection (every variant is scored on the target pairs):
one LightGBM member (the compact setting's hyper-parameters) on all features or the compact
ones, raw or rank-normalised per window (every column replaced by its quantile among that
window's negatives, the target's among all its pairs: a model trained one window earlier then
sees the same scale when degrees and counts grow), trained on the latest usable past window
(pool 1, the window ``LinkPredictor`` trains on) or on the latest two or three stacked (pool 2, 3:
more positives); its AUC minus the best simple score's.
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


def _scholp_sets(folder):
    """(name, path) of every sub-folder of ``folder`` that holds a complete ScHoLP data set."""
    from graphmine.io.events import SCHOLP_SUFFIXES

    out = []
    for name in sorted(os.listdir(folder)):
        d = os.path.join(folder, name)
        if not os.path.isdir(d):
            continue
        files = os.listdir(d)
        if all(any(f.startswith(name + s) for f in files) for s in SCHOLP_SUFFIXES):
            out.append((name, d))
    return out


def real(args):
    import warnings

    from graphmine.io.events import read_events
    from graphmine.core.exceptions import GraphmineError
    from graphmine.science4cast.blend import bootstrap_aucs
    from graphmine.science4cast.build import build_benchmark
    from graphmine.science4cast.features import feature_names
    from graphmine.science4cast.models import _select
    from graphmine.science4cast.simple import SIMPLE_SCORES, simple_scores

    sets = [(n, d) for n, d in _scholp_sets(args.real) if not args.only or n in args.only]
    if not sets:
        sys.exit(f"no complete ScHoLP data set (NAME/NAME-nverts.txt, -simplices.txt, -times.txt) under {args.real}")
    tick = time.perf_counter
    results, lines = {}, []
    for name, path in sets:
        t = tick()
        ev = read_events(path)
        t_read = tick() - t
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t = tick()
            data, _ = build_benchmark(ev, years_delta=args.delta, vertex_degree_cutoff=args.cutoff, min_edges=1,
                                      n_pairs=args.pairs, seed=args.seed, time_map=args.time_map)
            t_build = tick() - t
            try:
                t = tick()
                blend = LinkPredictor("blend", n_train_pairs=args.train_pairs, seed=args.seed,
                                      threads=args.threads).fit(data)
                t_train = tick() - t
            except GraphmineError as exc:
                line = f"{name}: does not train: {exc}"
                print(line, flush=True)
                lines.append(line)
                results[name] = {"trained": False, "error": str(exc), "rows": int(data.graph.shape[0]),
                                 "positives": int(data.solution.sum())}
                continue
        notes = [str(w.message) for w in caught]
        y = data.solution
        info = {"trained": True, "year_start": data.year_start, "vertices": ev.n_nodes, "items": ev.n_items, "rows": int(data.graph.shape[0]),
                "pairs": int(y.shape[0]), "positives": int(y.sum()), "window_positives": blend.trained_on_["window_positives"],
                "feature_year": blend.trained_on_["feature_year"], "notes": notes, "weights": blend.weights_,
                "supported": blend.trained_on_["supported"], "holdout_auc_se": blend.trained_on_["holdout_auc_se"],
                "members": [m for m, *_ in blend.estimators_]}
        # wall and CPU seconds (all threads) of the two halves of a prediction: on a shared,
        # oversubscribed machine the wall time of OpenMP/numba threads says more about the load
        t, c = tick(), time.process_time()
        X = blend.features(data)
        t_feat, c_feat = tick() - t, time.process_time() - c
        t, c = tick(), time.process_time()
        members = blend.predict_all(data, features=X)
        s_blend = blend.predict(data, members)
        t_models, c_models = tick() - t, time.process_time() - c
        info["seconds"] = {"read": t_read, "build": t_build, "train": t_train, "features": t_feat, "models": t_models,
                           "features_cpu": c_feat, "models_cpu": c_models, "load": os.getloadavg()[0]}
        if y.sum() == 0:
            line = (f"{name}: trained ({info['window_positives']} positives in the past window, features at "
                    f"{info['feature_year']}), but its {y.shape[0]} pairs hold no positive: no AUC")
            print(line, flush=True)
            lines.append(line)
            results[name] = info
            continue
        cols = {"blend": s_blend}
        if len(blend.estimators_) > 1:
            # every trained member's AUC, also of those the prediction did not need (not timed)
            names = feature_names(blend.n_snapshots)
            cols.update({f"member {k}": members[k] if k in members else
                         est.predict_proba(_select(X, names, which))[:, 1]
                         for k, est, which, _ in blend.estimators_})
        cols.update(simple_scores(X, feature_names(blend.n_snapshots)))
        sel = blend.selection_ or {}
        info["chosen"] = sel.get("chosen", "blend (no check)")
        info["selection"] = sel
        keys = list(cols)
        boot = bootstrap_aucs(y, [cols[k] for k in keys], n_boot=200, seed=args.seed)
        auc = {k: roc_auc(y, cols[k]) for k in keys}
        se = dict(zip(keys, boot.std(axis=0, ddof=1)))
        best = max(SIMPLE_SCORES, key=auc.get)
        ib, isim = keys.index("blend"), keys.index(best)
        info.update(auc=auc, se={k: float(v) for k, v in se.items()}, best_simple=best,
                    vs_simple=auc["blend"] - auc[best], vs_simple_se=float((boot[:, ib] - boot[:, isim]).std(ddof=1)))
        results[name] = info
        print(f"{name}: {ev.n_nodes} vertices, {info['rows']} rows, {info['pairs']} pairs ({info['positives']} "
              f"positive); trained on features at {info['feature_year']} ({info['window_positives']} positives); "
              f"blend {auc['blend']:.4f} +- {se['blend']:.4f}, best simple {best} {auc[best]:.4f}: "
              f"{info['vs_simple']:+.4f}; chosen on the past: {info['chosen']}; features {t_feat:.1f} s "
              f"({c_feat:.1f} s CPU), models {t_models:.1f} s ({c_models:.1f} s CPU)"
              + (f"; {'; '.join(notes)}" if notes else ""), flush=True)

    keys = ["blend", "member gbm_63_leaves", "member gbm_compact"] + list(SIMPLE_SCORES)
    short = {k: k.replace("member ", "") for k in keys}
    print(f"\nAUC +- bootstrap SE (200 resamples); {args.pairs} pairs, delta {args.delta}, cutoff {args.cutoff}, "
          f"min_edges 1, times mapped onto 1994-2020 ({args.time_map}), year_start = last complete year - delta, seed {args.seed}, "
          f"{args.train_pairs} training pairs per model")
    print("| network | vertices | rows | pos | trained on | held-out SE (supported) | "
          + " | ".join(short[k] for k in keys)
          + " | chosen on the past | blend - best simple | features s (CPU) | models s (CPU) |")
    print("|---" * (len(keys) + 10) + "|")
    for name, r in results.items():
        if not r["trained"] or "auc" not in r:
            continue
        cells = [f"{r['auc'][k]:.3f} +- {r['se'][k]:.3f}" if k in r["auc"] else "-" for k in keys]
        window = f"{r['feature_year']} -> {r['year_start']} ({r['window_positives']})"
        sup = ("-" if r["holdout_auc_se"] is None else f"{r['holdout_auc_se']:.3f}") + \
            (" (yes)" if r["supported"] else " (no)")
        print(f"| {name} | {r['vertices']} | {r['rows']} | {r['positives']} | {window} | {sup} | " + " | ".join(cells)
              + f" | {r['chosen'].replace('simple:', '')} | {r['vs_simple']:+.4f} +- {r['vs_simple_se']:.4f} ({r['best_simple']})"
              + f" | {r['seconds']['features']:.1f} ({r['seconds']['features_cpu']:.1f})"
              + f" | {r['seconds']['models']:.1f} ({r['seconds']['models_cpu']:.1f}) |")
    for line in lines:
        print(line)
    # the 0.01 criterion is judged only where both the past supports a trained blend (held-out
    # SE <= MAX_AUC_SE, decided in fit) and the target window measures the blend's AUC to a
    # bootstrap SE <= 0.01: both thresholds are standard errors, not results
    from graphmine.science4cast.models import MAX_AUC_SE

    scored = {n: r for n, r in results.items() if "auc" in r}
    unsupported = [n for n, r in scored.items() if not r["supported"]]
    undecidable = [n for n, r in scored.items() if r["supported"] and r["se"]["blend"] > MAX_AUC_SE]
    judged = [n for n in scored if n not in unsupported and n not in undecidable]
    met = [n for n in judged if scored[n]["vs_simple"] >= 0.01]
    print(f"not a supported trained blend (held-out AUC's bootstrap SE > {MAX_AUC_SE}): "
          f"{', '.join(unsupported) or 'none'}")
    print(f"supported, but the target window's blend AUC has a bootstrap SE > {MAX_AUC_SE} (the 0.01 criterion cannot "
          f"be decided): " + (", ".join(f"{n} ({scored[n]['positives']} positives, SE {scored[n]['se']['blend']:.3f})"
                                        for n in undecidable) or "none"))
    print(f"blend >= best simple score + 0.01: met on {len(met)} of {len(judged)} judged ({', '.join(met) or 'none'}); "
          f"not met: {', '.join(n for n in judged if n not in met) or 'none'}")
    for kind in ("", "_cpu"):
        slow = [n for n, r in results.items()
                if "seconds" in r and r["seconds"]["models" + kind] > 2 * r["seconds"]["features" + kind]]
        print(f"networks where the models took more than twice the feature time ({'CPU' if kind else 'wall'} "
              f"seconds): {', '.join(slow) or 'none'}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1, default=float)


def _rank_normalised(X, ref):
    """Every column of X as its mid-rank quantile among the rows of ref (float32)."""
    out = np.empty(X.shape, np.float32)
    for j in range(X.shape[1]):
        r = np.sort(ref[:, j])
        out[:, j] = (np.searchsorted(r, X[:, j], "left") + np.searchsorted(r, X[:, j], "right")) / (2.0 * r.size)
    return out


def variants(args):
    """The study of ``--real DIR --variants`` (module docstring): one table."""
    import warnings

    from graphmine.io.events import read_events
    from graphmine.science4cast._gbm import LinkGBMClassifier
    from graphmine.science4cast.build import build_benchmark
    from graphmine.science4cast.features import feature_names, swap_permutation
    from graphmine.science4cast.models import DEFAULT_MODELS, _columns
    from graphmine.science4cast.simple import simple_scores
    from graphmine.science4cast.snapshots import year_end_day

    params = dict(next(p for name, p, which in DEFAULT_MODELS if which == "compact"))
    keys = [(cols, how, pool) for cols in ("all", "compact") for how in ("raw", "rank") for pool in (1, 2, 3)]
    table = []
    for name, path in _scholp_sets(args.real):
        if args.only and name not in args.only:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            data, _ = build_benchmark(read_events(path), years_delta=args.delta, vertex_degree_cutoff=args.cutoff,
                                      min_edges=1, n_pairs=args.pairs, seed=args.seed, time_map=args.time_map)
            lp = LinkPredictor("blend", n_train_pairs=args.train_pairs, seed=args.seed, threads=args.threads)
            year, h, n = int(data.year_start), int(data.years_delta), data.n_vertices
            past = data.graph[data.graph[:, 2] < year_end_day(year)]
            cutoff, min_edges = lp._setting(data)
            horizon, _ = lp._choose_window(past, year, h, cutoff, min_edges, n)
            rng = np.random.default_rng(args.seed)
            wins = []
            for k in range(3):   # the window LinkPredictor trains on, then the ones before it
                got = lp._training_set(past, year - k * h, horizon, cutoff, min_edges, n, rng)
                if got is None:
                    break
                wins.append(got)
        y = data.solution
        if not wins or y.min() == y.max():
            continue
        names = feature_names(lp.n_snapshots)
        Xt = lp.features(data)
        simple = {k: roc_auc(y, v) for k, v in simple_scores(Xt, names).items()}
        best = max(simple, key=simple.get)
        row = {"network": name, "positives": int(y.sum()), "windows": [int(w[1].sum()) for w in wins],
               "best": best, "best_auc": simple[best], "auc": {}}
        for cols, how, pool in keys:
            if pool > len(wins):
                continue
            c = _columns(names, cols)
            Xs = [w[2][:, c] for w in wins[:pool]]
            if how == "rank":
                Xs = [_rank_normalised(X, X[w[1] == 0]) for X, w in zip(Xs, wins)]
            est = LinkGBMClassifier(swap_features=swap_permutation([names[i] for i in c]), random_state=args.seed,
                                    n_jobs=1 if args.threads is None else args.threads, **params)
            est.fit(np.vstack(Xs), np.concatenate([w[1] for w in wins[:pool]]))
            Xe = Xt[:, c] if how == "raw" else _rank_normalised(Xt[:, c], Xt[:, c])
            row["auc"][f"{cols} {how} pool {pool}"] = roc_auc(y, est.predict_proba(Xe)[:, 1])
        table.append(row)
        print(f"{name}: done", file=sys.stderr, flush=True)
    cols = [f"{c} {h} pool {p}" for c, h, p in keys]
    print("\nAUC of one LightGBM member minus the best simple score's (on the target pairs)")
    print("| network | pos | training windows' positives | best simple | " + " | ".join(cols) + " |")
    print("|---|---|---|---|" + "---|" * len(cols))
    for r in table:
        cells = [f"{r['auc'][k] - r['best_auc']:+.3f}" if k in r["auc"] else "-" for k in cols]
        print(f"| {r['network']} | {r['positives']} | {', '.join(map(str, r['windows']))} | {r['best']} "
              f"{r['best_auc']:.3f} | " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(table, fh, indent=1, default=float)


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
    ap.add_argument("--real", default=None, metavar="DIR", help="the real-data table over the ScHoLP data sets in DIR")
    ap.add_argument("--delta", type=int, default=3, help="years_delta of --real (default 3)")
    ap.add_argument("--time-map", default="linear", choices=("linear", "rank"),
                    help="how --real maps the events' times onto 1994-2020 (default linear)")
    ap.add_argument("--cutoff", type=int, default=5, help="vertex_degree_cutoff of --real (default 5)")
    ap.add_argument("--variants", action="store_true", help="with --real: the study of member variants (see above)")
    args = ap.parse_args()
    if args.real:
        if args.pairs == 1_000_000:
            args.pairs = 100_000
        if args.train_pairs == 100_000:
            args.train_pairs = 20_000
        logging.getLogger().setLevel(logging.WARNING)
        return variants(args) if args.variants else real(args)
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
