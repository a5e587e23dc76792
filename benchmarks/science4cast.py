"""Science4Cast on synthetic data of competition size: AUC of every model and time of every stage.

    python benchmarks/science4cast.py [--vertices 64719] [--pairs 1000000] [--seed 0] [--json OUT]

Generates a benchmark-format data set (64,719 concepts, ~1.8M rows by 2014, 1M pairs,
year_start 2014, years_delta 3, cutoff 0, min_edges 1), then: the pickle round trip, the features
of all pairs over 4 yearly snapshots (also on the first snapshot with >= 2M edges, the size the
issue names), training of the degree-only baseline and of the blended LightGBM models on the
data's past, prediction and the AUC of the baseline, each single model and the weighted
rank-average blend (weights fitted on held-out past pairs). Prints tables measured in this one run on this machine; asserts nothing about time.
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


def main():
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # the stage messages of graphmine.science4cast
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vertices", type=int, default=64719)
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--train-pairs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the results as JSON to this file")
    args = ap.parse_args()

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
