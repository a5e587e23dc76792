"""``graphmine clustering`` and ``graphmine jarvis-patrick``: exact or from sketches.

    graphmine clustering FILE [--method M] [--budget S] [--seed N] [--out F [--force]] [--json]
    graphmine jarvis-patrick FILE --similarity jaccard|overlap|common --tau T [--method M]
                             [--budget S] [--seed N] [--out labels.tsv [--force]] [--json]
"""

from .._runtime.docs import fill_doc
import json
import time

from .. import commands
from .._runtime.output import check_output_path
from ..commands import add_input_argument, budget_fraction, non_negative_int, positive_int
from ..core.exceptions import ParameterError, SketchSaturationWarning

__all__ = ["register", "COMMANDS"]

# the subcommands registered here, with their line in `graphmine --help`
COMMANDS = {"clustering": "average clustering coefficient and transitivity",
            "jarvis-patrick": "Jarvis-Patrick clustering by neighbourhood similarity"}

METHOD_CHOICES = ["exact", "bloom", "khash", "onehash", "kmv"]


def _sketch_options(p, replicates=True):
    p.add_argument("--method", default="exact", choices=METHOD_CHOICES,
                   help="exact, or an estimate from neighbourhood sketches (default exact)")
    p.add_argument("--budget", type=budget_fraction, default=None,
                   help="sketch memory as a fraction of the CSR size, in (0, 1] (default 0.25)")
    p.add_argument("--seed", type=non_negative_int, default=None,
                   help="seed of the sketches' hash functions (default: drawn at random and reported)")
    if replicates:
        p.add_argument("--replicates", type=positive_int, default=None,
                       help="transitivity from R independent sketches: a calibrated error instead of a "
                            "bound (default 1)")


def _sketch_kwargs(args):
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


def _load_for_sketches(args):
    """(sketch keywords with a drawn seed when none was given, graph, load seconds); --out is
    refused before the graph is read if it exists."""
    kw = _sketch_kwargs(args)
    if args.out is not None:
        check_output_path(args.out, args.force)
    G, load_s = commands.load_input(args)
    if args.method != "exact" and kw.get("seed") is None:
        from .sketches import resolve_seed

        kw["seed"] = resolve_seed(None)  # drawn here so that the run can be reported and repeated
    return kw, G, load_s


def _cmd_clustering(args):
    import warnings

    from . import counting as cluster  # method='exact' goes to graphmine.cluster

    kw, G, load_s = _load_for_sketches(args)  # one seed for both estimates, reported below
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SketchSaturationWarning)
        tr = cluster.transitivity(G, method=args.method, threads=args.threads, **kw)
        kw.pop("replicates", None)
        if args.out is not None:
            local = cluster.clustering(G, method=args.method, threads=args.threads, **kw)
            values = local.estimate if hasattr(local, "estimate") else local
            avg = cluster.average_clustering(G, method=args.method, threads=args.threads, **kw)
        else:
            avg = cluster.average_clustering(G, method=args.method, threads=args.threads, **kw)
    seconds = time.perf_counter() - t0
    if args.out is not None:
        from ..io.edgelist import write_vertex_table

        write_vertex_table(G, args.out, {"clustering": values}, force=args.force)
    out = {"file": args.file, "method": args.method, "average_clustering": _value(avg),
           "transitivity": _value(tr), "seconds": seconds, "load_seconds": load_s,
           "nodes": G.n_nodes, "edges": G.n_edges, "seed": kw.get("seed"), "out": args.out,
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
    if args.out is not None:
        print(f"per-vertex clustering written to {args.out}")
    seed = f", seed {kw['seed']}" if kw.get("seed") is not None else ""
    print(f"graph: {G.n_nodes:,} vertices, {G.n_edges:,} edges; load {load_s:.3f} s, "
          f"compute {seconds:.3f} s ({args.method}{seed})")
    return 0


def _cmd_jarvis_patrick(args):
    import numpy as np

    from .similarity import jarvis_patrick

    kw, G, load_s = _load_for_sketches(args)
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
    out["seed"] = kw.get("seed")
    if args.out:
        from ..io.edgelist import write_vertex_table

        write_vertex_table(G, args.out, {"cluster": res.labels}, force=args.force)
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
    seed = f", seed {kw['seed']}" if kw.get("seed") is not None else ""
    print(f"{res.seconds:.3f} s ({args.method}{seed})")
    return 0


@fill_doc
def register(subparsers):
    """Add the ``clustering`` and ``jarvis-patrick`` subcommands.

    {cli_register_sections}

    {cli_register_example}
    >>> p.parse_args(["clustering", "ca-GrQc", "--method", "kmv"]).method
    'kmv'
    """
    c = subparsers.add_parser("clustering", help=COMMANDS["clustering"],
                              description="Average local clustering coefficient and transitivity, "
                                          "exact or estimated from neighbourhood sketches.")
    add_input_argument(c)
    _sketch_options(c)
    c.add_argument("--out", default=None,
                   help="write 'vertex<TAB>clustering' lines (local clustering coefficient of every "
                        "vertex, the file's vertex ids; default: none)")
    c.add_argument("--force", action="store_true", help="replace --out if it exists")
    c.set_defaults(func=_cmd_clustering)

    j = subparsers.add_parser("jarvis-patrick", help=COMMANDS["jarvis-patrick"],
                              description="Keep the edges whose neighbourhood similarity exceeds tau; "
                                          "clusters are the connected components of the kept edges.")
    add_input_argument(j)
    j.add_argument("--similarity", default="jaccard", choices=["jaccard", "overlap", "common"],
                   help="similarity of the endpoints' neighbourhoods (default jaccard)")
    j.add_argument("--tau", type=float, required=True,
                   help="keep an edge when similarity > tau (in [0, 1) for jaccard and overlap, >= 0 for common)")
    _sketch_options(j, replicates=False)
    j.add_argument("--out", default=None,
                   help="write 'vertex<TAB>cluster' lines (the file's vertex ids; default: none)")
    j.add_argument("--force", action="store_true", help="replace --out if it exists")
    j.set_defaults(func=_cmd_jarvis_patrick)
