"""``graphmine clustering`` and ``graphmine jarvis-patrick``: exact or from sketches.

    graphmine clustering FILE [--method M] [--budget S] [--seed N] [--json]
    graphmine jarvis-patrick FILE --similarity jaccard|overlap|common --tau T [--method M]
                             [--budget S] [--seed N] [--out labels.tsv] [--json]
"""

import json
import time

__all__ = ["register"]

METHOD_CHOICES = ["exact", "bloom", "khash", "onehash", "kmv"]


def _sketch_options(p, replicates=True):
    p.add_argument("--method", default="exact", choices=METHOD_CHOICES,
                   help="exact, or an estimate from neighbourhood sketches (default exact)")
    p.add_argument("--budget", type=float, default=None,
                   help="sketch memory as a fraction of the CSR size (default 0.25)")
    p.add_argument("--seed", type=int, default=None, help="seed of the sketches' hash functions")
    if replicates:
        p.add_argument("--replicates", type=int, default=None,
                       help="transitivity from R independent sketches: a calibrated error instead of a bound")


def _sketch_kwargs(args):
    from .exceptions import ParameterError

    if args.method == "exact":
        if args.budget is not None or args.seed is not None or getattr(args, "replicates", None) is not None:
            raise ParameterError("--budget, --seed and --replicates apply to the approximate methods only")
        return {}
    kw = {"budget": args.budget, "seed": args.seed}
    if getattr(args, "replicates", None) is not None:
        kw["replicates"] = args.replicates
    return kw


def _value(x):
    return x.to_dict() if hasattr(x, "to_dict") else {"estimate": float(x)}


def _cmd_clustering(args):
    import warnings

    from . import cluster
    from .cli import load_input
    from .exceptions import SketchSaturationWarning

    G, load_s = load_input(args)
    kw = _sketch_kwargs(args)
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SketchSaturationWarning)
        tr = cluster.transitivity(G, method=args.method, threads=args.threads, **kw)
        kw.pop("replicates", None)
        avg = cluster.average_clustering(G, method=args.method, threads=args.threads, **kw)
    seconds = time.perf_counter() - t0
    out = {"file": args.file, "method": args.method, "average_clustering": _value(avg),
           "transitivity": _value(tr), "seconds": seconds, "load_seconds": load_s,
           "nodes": G.n_nodes, "edges": G.n_edges,
           "warnings": sorted({str(w.message) for w in caught})}
    if args.json:
        print(json.dumps(out))
        return 0
    for name, r in (("average clustering", avg), ("transitivity", tr)):
        if hasattr(r, "to_dict"):
            lo, hi = r.ci
            print(f"{name}: ~{r.estimate:.6f} ± {r.stderr:.2g} ({100 * r.confidence:g}% CI {lo:.6f} .. "
                  f"{hi:.6f}; {r.error_model})")
        else:
            print(f"{name}: {r:.6f}")
    for w in out["warnings"]:
        print(f"warning: {w}")
    print(f"graph: {G.n_nodes:,} vertices, {G.n_edges:,} edges; load {load_s:.3f} s, "
          f"compute {seconds:.3f} s ({args.method})")
    return 0


def _cmd_jarvis_patrick(args):
    import numpy as np

    from .cli import load_input
    from .exceptions import GraphFormatError
    from .probgraph import jarvis_patrick

    G, load_s = load_input(args)
    kw = _sketch_kwargs(args)
    res = jarvis_patrick(G, args.tau, measure=args.similarity, method=args.method,
                         threads=args.threads, **kw)
    sizes = np.bincount(res.labels) if res.labels.size else np.zeros(0, np.int64)
    out = {"file": args.file, "method": args.method, "similarity": args.similarity, "tau": args.tau,
           "clusters": res.n_clusters, "kept_edges": int(res.kept.sum()), "edges": G.n_edges,
           "nodes": G.n_nodes, "largest_cluster": int(sizes.max()) if sizes.size else 0,
           "singletons": int((sizes == 1).sum()), "seconds": res.seconds, "load_seconds": load_s}
    if res.sketch is not None:
        out.update(uncertain_edges=res.uncertain, **{k: v for k, v in res.sketch.items() if k != "params"})
        out["params"] = {k: v for k, v in res.sketch["params"].items()}
    if args.out:
        try:
            with open(args.out, "w") as fh:
                fh.write("# vertex\tcluster\n")
                for vid, lab in zip(G.node_ids.tolist(), res.labels.tolist()):
                    fh.write(f"{vid}\t{lab}\n")
        except OSError as exc:
            raise GraphFormatError(f"cannot write labels: {exc.strerror}", path=args.out) from None
        out["out"] = args.out
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{res.n_clusters:,} clusters ({out['singletons']:,} singletons, largest {out['largest_cluster']:,}); "
          f"kept {out['kept_edges']:,} of {G.n_edges:,} edges with {args.similarity} > {args.tau:g}")
    if res.uncertain is not None:
        print(f"edges whose {100 * res.similarity.confidence:g}% interval contains tau: {100 * res.uncertain:.2f}%")
    if args.out:
        print(f"labels written to {args.out}")
    print(f"{res.seconds:.3f} s ({args.method})")
    return 0


def register(subparsers):
    """Add the ``clustering`` and ``jarvis-patrick`` subcommands."""
    from .cli import add_input_argument

    c = subparsers.add_parser("clustering", help="average clustering coefficient and transitivity",
                              description="Average local clustering coefficient and transitivity, "
                                          "exact or estimated from neighbourhood sketches.")
    add_input_argument(c)
    _sketch_options(c)
    c.set_defaults(func=_cmd_clustering)

    j = subparsers.add_parser("jarvis-patrick", help="Jarvis-Patrick clustering by neighbourhood similarity",
                              description="Keep the edges whose neighbourhood similarity exceeds tau; "
                                          "clusters are the connected components of the kept edges.")
    add_input_argument(j)
    j.add_argument("--similarity", default="jaccard", choices=["jaccard", "overlap", "common"],
                   help="similarity of the endpoints' neighbourhoods (default jaccard)")
    j.add_argument("--tau", type=float, required=True, help="keep an edge when similarity > tau")
    _sketch_options(j, replicates=False)
    j.add_argument("--out", default=None, help="write 'vertex<TAB>cluster' lines (original vertex ids)")
    j.set_defaults(func=_cmd_jarvis_patrick)
