"""``graphmine predict-motifs FILE --motif clique|star|path|cycle --k K --method heuristic|seam``.

Builds the seeded motif-prediction task (:func:`graphmine.motifs.motif_prediction_task`) and
prints the test-split AUC and average precision of every heuristic motif score, or of SEAM.
The heuristics need nothing beyond graphmine's base dependencies; ``--method seam`` needs the
``gnn`` extra (``pip install "graphmine[gnn]"``) and says so, before any work, when it is missing.
"""

import json
import sys

from .. import commands
from ..commands import add_input_argument, positive_int
from ..exceptions import ParameterError

__all__ = ["register", "run_predict_motifs", "COMMANDS"]

# the subcommand registered here, with its line in `graphmine --help`
COMMANDS = {"predict-motifs": "motif prediction: heuristic motif scores or the SEAM GNN"}


def register(subparsers):
    """Add the ``predict-motifs`` subcommand."""
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
                   help="SEAM enclosing-subgraph radius (default: 1 or 2, whichever scores the higher "
                        "validation AUC; twice the fitting time)")
    p.add_argument("--device", default="auto", help="SEAM device: auto (default), cpu or cuda")
    p.add_argument("--features", default="heuristic", choices=["heuristic", "none"],
                   help="SEAM's candidate features: the heuristic motif scores (default) or none")
    p.set_defaults(func=run_predict_motifs)


def run_predict_motifs(args):
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
        # before the graph is read and the task built: a missing torch or a bad device is known at once
        from gnn import SEAM, resolve_device

        resolve_device(args.device)
    G, _ = commands.load_input(args)
    task = motif_prediction_task(G, motif, n_positives=args.positives, remove=remove, seed=args.seed,
                                 threads=args.threads)
    if args.method == "heuristic":
        scores = evaluate_heuristics(task, "test", threads=args.threads)
    else:
        params = dict(epochs=args.epochs, device=args.device, seed=args.seed, verbose=not args.quiet,
                      features=None if args.features == "none" else args.features)
        if args.hops is None:
            from gnn import select_seam

            model = select_seam(task, **params)
        else:
            model = SEAM(hops=args.hops, **params).fit(task)
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
