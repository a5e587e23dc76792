"""``graphmine predict-motifs FILE --motif clique|star|path|cycle --k K --method heuristic|seam`` and
``graphmine predict-closure EVENTS --motif triangle|clique4 --cut T --delta D``.

Builds the seeded motif-prediction task (:func:`graphmine.motifs.motif_prediction_task`) and
prints the test-split AUC and average precision of every heuristic motif score, or of SEAM.
The heuristics need nothing beyond graphmine's base dependencies; ``--method seam`` needs the
``gnn`` extra (``pip install "graphmine[gnn]"``) and says so, before any work, when it is missing.
"""

from .._runtime.docs import fill_doc
import json
import sys

from .. import commands
from ..commands import add_input_argument, positive_int
from ..core.exceptions import ParameterError

__all__ = ["register", "run_predict_motifs", "run_predict_closure", "COMMANDS"]

# the subcommands registered here, with their lines in `graphmine --help`
COMMANDS = {"predict-motifs": "motif prediction: heuristic motif scores or the SEAM GNN",
            "predict-closure": "temporal closure prediction of open triangles and 4-sets"}


@fill_doc
def register(subparsers):
    """Add the ``predict-motifs`` and ``predict-closure`` subcommands.

    {cli_register_sections}

    {cli_register_example}
    >>> p.parse_args(["predict-motifs", "ca-GrQc", "--motif", "star", "-k", "4"]).k
    4
    """
    p = subparsers.add_parser("predict-motifs", help=COMMANDS["predict-motifs"],
                              description="Hide the edges of motif instances and score how well each method "
                                          "tells them from negatives (test-split ROC AUC and AP).")
    add_input_argument(p)
    p.add_argument("--motif", required=True, choices=["clique", "star", "path", "cycle"],
                   help="motif shape (required)")
    p.add_argument("--k", "-k", type=int, required=True, help="motif vertices (required)")
    p.add_argument("--method", default="heuristic", choices=["heuristic", "seam"],
                   help="heuristic motif scores (default) or the SEAM GNN")
    p.add_argument("--seed", type=int, default=0, help="seed of the protocol and of SEAM (default 0)")
    p.add_argument("--positives", type=positive_int, default=500, help="positive motifs (default 500)")
    p.add_argument("--remove", default="all",
                   help="motif edges removed per positive: 'all' or 1..|E_M| (default all)")
    p.add_argument("--epochs", type=positive_int, default=50, help="SEAM epochs (default 50)")
    p.add_argument("--hops", type=positive_int, default=None,
                   help="SEAM enclosing-subgraph radius (default: fits of radius 1 and 2, combined as "
                        "--combine says; twice the fitting time)")
    p.add_argument("--combine", default="mean", choices=["mean", "best"],
                   help="without --hops: average the two fits' scores (mean, default) or keep the fit of "
                        "the higher validation AUC (best)")
    p.add_argument("--device", default="auto", help="SEAM device: auto (default), cpu or cuda")
    p.add_argument("--features", default="heuristic", choices=["heuristic", "none"],
                   help="SEAM's candidate features: the heuristic motif scores (default) or none")
    p.set_defaults(func=run_predict_motifs)

    c = subparsers.add_parser("predict-closure", help=COMMANDS["predict-closure"],
                              description="Candidates at the cut (open triangles, wedges or 4-sets one pair short "
                                          "in the projected graph of the items up to the cut), labelled by whether "
                                          "they close by cut + delta; AUC-PR relative to random and ROC AUC of every "
                                          "simple score and of the models (LightGBM, a logistic regression, their "
                                          "rank average) trained at cut - delta.")
    c.add_argument("events", metavar="EVENTS",
                   help="events: 'u v t' lines, 't u1 u2 ...' lines, or a ScHoLP data set (its folder, the common "
                        "prefix of its files, or one of NAME-nverts/-simplices/-times.txt[.gz])")
    c.add_argument("--motif", default="triangle", choices=["triangle", "clique4"], help="default triangle")
    c.add_argument("--cut", type=float, default=None,
                   help="end of the past, in the events' time units (default: the time of the item at 80%%)")
    c.add_argument("--delta", type=float, default=None, help="label window length (default: to the last item)")
    c.add_argument("--candidates", default="auto", choices=["auto", "open", "wedge"],
                   help="triangles: all three pairs linked, or two (default: open, wedges on pairwise data)")
    c.add_argument("--closure", default="auto", choices=["auto", "simplex", "edges"],
                   help="closes when the vertices share one item (simplex) or the missing pair appears (edges)")
    c.add_argument("--max-candidates", type=positive_int, default=200_000,
                   help="hash sample beyond this many candidates (default 200000)")
    c.add_argument("--format", default="auto", choices=("auto", "edges", "items", "scholp"),
                   help="layout of EVENTS (default auto)")
    c.add_argument("--time-unit", default=None, choices=("s", "ms", "days", "date"), help="what the times count")
    c.add_argument("--ids", default="int", choices=("int", "str"), help="vertex ids: integers (default) or names")
    c.add_argument("--no-model", action="store_true", help="simple scores only (no LightGBM, no ml extra needed)")
    c.add_argument("--no-recency", action="store_true",
                   help="the models without the recency features (when the candidates' pairs met)")
    c.add_argument("--seed", type=int, default=0, help="seed of the sample and the model (default 0)")
    c.add_argument("--threads", type=positive_int, default=None, help="threads (default: all cores)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress notes on stderr")
    c.set_defaults(func=run_predict_closure)


def _gnn():
    """The ``gnn`` package (SEAM), found by name when ``--method seam`` runs: gnn is built on
    graphmine (gnn -> graphmine, one way), so graphmine never imports it by statement."""
    import importlib

    return importlib.import_module("gnn")


@fill_doc
def run_predict_motifs(args):
    """Run ``predict-motifs``: build the motif-prediction task, score it, print AUC and AP.

    {cli_command_sections}

    Raises
    ------
    ParameterError
        A malformed ``--remove``, or a motif size its kind does not allow.
    MissingDependencyError
        ``--method seam`` without the ``gnn`` extra.

    Examples
    --------
    >>> from graphmine.cli import build_parser
    >>> args = build_parser().parse_args(["predict-motifs", "Celegans", "--motif", "clique", "-k", "3",
    ...                                   "--positives", "20", "-q"])
    >>> run_predict_motifs(args)  # doctest: +ELLIPSIS
    Celegans: 3-clique, 20 positives, 20 negatives, 4 in the test split
    scorer                                  AUC      AP
    cn/independent                       0.5000  0.7500
    ...
    0
    """
    from .heuristics import evaluate_heuristics
    from .patterns import get_motif
    from .protocol import motif_prediction_task

    motif = get_motif(args.motif, args.k)
    if args.remove == "all":
        remove = "all"
    else:
        try:
            remove = int(args.remove)
        except ValueError:
            raise ParameterError(f"--remove must be 'all' or an integer, got {args.remove!r}") from None
    if args.method == "seam":
        # before the graph is read and the task built: a missing torch or a bad device is known at
        # once, and a missing extra is said to be needed by the command, not by gnn's inner step
        from .._runtime.optional import required_by

        with required_by("graphmine predict-motifs --method seam"):
            seam = _gnn()
            seam.resolve_device(args.device)
    G, _ = commands.load_input(args)
    task = motif_prediction_task(G, motif, n_positives=args.positives, remove=remove, seed=args.seed,
                                 threads=args.threads)
    if args.method == "heuristic":
        scores = evaluate_heuristics(task, "test", threads=args.threads)
    else:
        # --threads also sets torch's CPU threads for SEAM (restored afterwards)
        params = dict(epochs=args.epochs, device=args.device, seed=args.seed, verbose=not args.quiet,
                      threads=args.threads,
                      features=None if args.features == "none" else args.features)
        if args.hops is None:
            model = seam.select_seam(task, combine=args.combine, **params)
        else:
            model = seam.SEAM(hops=args.hops, **params).fit(task)
        scores = {"seam": model.evaluate(task, "test")}
    out = {"motif": args.motif, "k": args.k, "method": args.method, "scores": scores}
    if args.json:
        print(json.dumps(out))
    else:
        test = task.indices("test")
        print(f"{args.file}: {args.k}-{args.motif}, {task.info['n_positives']} positives, "
              f"{int((task.labels == 0).sum())} negatives, {test.size} in the test split")
        width = max(len(n) for n in scores)
        print(f"{'scorer':<{width}}  {'AUC':>6}  {'AP':>6}")
        for name, s in sorted(scores.items(), key=lambda kv: -kv[1]["auc"]):
            print(f"{name:<{width}}  {s['auc']:6.4f}  {s['ap']:6.4f}")
    sys.stdout.flush()
    return 0


@fill_doc
def run_predict_closure(args):
    """Run ``predict-closure``: read the events, score the candidates at the cut, print the table.

    {cli_command_sections}

    Raises
    ------
    GraphFormatError
        A missing or malformed events file.
    MissingDependencyError
        The model without the ``ml`` extra (``--no-model`` needs none).

    Examples
    --------
    >>> import os, tempfile
    >>> from graphmine.cli import build_parser
    >>> rows = [(1, [0, 1, 2]), (2, [2, 3]), (3, [3, 4]), (4, [2, 4]), (4, [4, 5]), (6, [2, 3, 4, 9]),
    ...         (7, [3, 5]), (3, [0, 4]), (2, [1, 4])]
    >>> path = os.path.join(tempfile.mkdtemp(), "items.txt")
    >>> _ = open(path, "w").write("".join(f"{t} " + " ".join(map(str, it)) + "\\n" for t, it in rows))
    >>> args = build_parser().parse_args(["predict-closure", path, "--cut", "4", "--delta", "5", "--no-model", "-q"])
    >>> run_predict_closure(args)  # doctest: +ELLIPSIS
    /...items.txt: triangle (open, closure by simplex), cut 4, delta 5: 4 candidates, 1 close (rate 0.25)
    score             AUC-PR/random  ROC AUC
    simplicial_pa             1.333   0.6667
    ...
    0
    """
    from ..io.events import read_events
    from .closure import predict_closure

    if not args.no_model:
        # before any work: a missing extra is known at once
        from .._runtime.optional import require

        require("lightgbm", what="graphmine predict-closure's model (or pass --no-model)")
    commands.note_first_compile(args)
    events = read_events(args.events, format=args.format, time_unit=args.time_unit, ids=args.ids,
                         threads=args.threads)
    r = predict_closure(events, args.cut, args.delta, motif=args.motif, candidates=args.candidates,
                        closure=args.closure, model=not args.no_model, recency=not args.no_recency,
                        max_candidates=args.max_candidates,
                        seed=args.seed, threads=args.threads, verbose=not args.quiet)
    task = r["task"]
    out = {"motif": task.motif, "candidates": task.candidates, "closure": task.closure, "cut": task.cut,
           "delta": task.delta, "n_candidates": int(task.tuples.shape[0]), "positives": int(task.labels.sum()),
           "positive_rate": r["positive_rate"], "sample_rate": task.info["sample_rate"],
           "scores": r["scores"], "skipped": r["skipped"]}
    if r["train_task"] is not None:
        tr = r["train_task"]
        out["train"] = {"cut": tr.cut, "n_candidates": int(tr.tuples.shape[0]), "positives": int(tr.labels.sum())}
    if r.get("selection"):
        out["selection"] = r["selection"]
    if args.json:
        print(json.dumps(out))
    else:
        sampled = "" if task.info["sample_rate"] >= 1 else f" (a {task.info['sample_rate']:.3g} sample)"
        print(f"{args.events}: {task.motif} ({task.candidates}, closure by {task.closure}), cut {task.cut:g}, "
              f"delta {task.delta:g}: {out['n_candidates']} candidates{sampled}, {out['positives']} close "
              f"(rate {out['positive_rate']:.4g})")
        if "train" in out:
            print(f"model trained at cut {out['train']['cut']:g}: {out['train']['n_candidates']} candidates, "
                  f"{out['train']['positives']} close")
        if "selection" in out:
            sel = out["selection"]
            how = ("models trained one window earlier" if sel["check"] == "rolling origin" else
                   "models trained on the other half of its candidates (no usable window before it)")
            print(f"learned = {sel['chosen']}: chosen on the window ({sel['window'][0]:g}, {sel['window'][1]:g}] "
                  f"with {how} (AUC-PR/random there: "
                  + ", ".join(f"{k} {v:.2f}" for k, v in sorted(sel["auc_pr_ratio"].items(), key=lambda kv: -kv[1]))
                  + ")")
        for line in r["skipped"]:
            print(line)
        width = max(len(n) for n in r["scores"])
        print(f"{'score':<{width}}  {'AUC-PR/random':>13}  {'ROC AUC':>7}")
        for name, m in sorted(r["scores"].items(), key=lambda kv: -kv[1]["auc_pr_ratio"]):
            print(f"{name:<{width}}  {m['auc_pr_ratio']:13.3f}  {m['roc_auc']:7.4f}")
    sys.stdout.flush()
    return 0
