"""``graphmine science4cast``: generate, train, predict and evaluate from the command line.

* ``generate --out DATA.pkl [--vertices N] [--pairs P] [--seed S] ...`` writes a benchmark pickle
  (7 items, solution included) of synthetic data;
* ``train DATA.pkl --model MODEL [--baseline]`` trains on the data's past (rows before the end of
  ``year_start``) and writes a JSON model file;
* ``predict DATA.pkl --model MODEL --out SUBMISSION.json`` writes the pair indices sorted from
  most to least likely (a JSON list);
* ``evaluate SUBMISSION.json DATA.pkl [--json]`` prints the ROC AUC against the data's solution.

Every output path is checked before any work (its folder exists and is writable; an existing
file is replaced only with ``--force``), and files are written complete or not at all. ``train``
and ``predict`` need the ``ml`` extra (scikit-learn, lightgbm) and say so before any work; the
model file is read and checked before the data. Stages are printed on stderr, with progress bars
when stderr is a terminal; ``--quiet`` turns both off. Errors print one line
``graphmine: error: ...`` and exit with status 2.
"""

import functools
import json
import logging
import os
import sys
import time

import numpy as np

from .._output import atomic_write, check_output_path
from ..commands import Parser, non_negative_int, positive_int
from ..exceptions import GraphFormatError, GraphmineError, ParameterError
from ._progress import LOGGER_NAME, log_to_stderr
from .io import read_json

__all__ = ["register", "main", "read_submission", "COMMANDS"]

# the command group registered here, with its line in `graphmine --help`
COMMANDS = {"science4cast": "temporal link prediction in a growing concept graph"}

_log = logging.getLogger(LOGGER_NAME)


def _say(msg):
    _log.info("%s", msg)


def _logged(cmd):
    """Run a step with its stage messages on stderr, unless ``--quiet``."""

    @functools.wraps(cmd)
    def run(args):
        with log_to_stderr(not args.quiet):
            return cmd(args)

    return run


def _cmd_generate(args):
    from .generator import generate_benchmark
    from .io import write_benchmark

    check_output_path(args.out, args.force)
    n = args.vertices
    pairs = args.pairs if args.pairs is not None else min(1_000_000, n * (n - 1) // 20)
    t0 = time.perf_counter()
    _say(f"generate: {n} vertices, 1990..{args.year_start + args.delta}, seed {args.seed}")
    data = generate_benchmark(n, pairs, year_start=args.year_start, years_delta=args.delta,
                              vertex_degree_cutoff=args.cutoff, min_edges=args.min_edges, seed=args.seed)
    _say(f"generate: {data.graph.shape[0]} rows, {pairs} pairs ({int(data.solution.sum())} positive) "
         f"[{time.perf_counter() - t0:.1f} s]")
    write_benchmark(data, args.out, force=args.force)
    print(f"wrote {args.out}: {data!r}")
    return 0


def _read(args):
    from .io import read_data

    t0 = time.perf_counter()
    data = read_data(args.data, getattr(args, "solution", None))
    _say(f"read {args.data}: {data.graph.shape[0]} rows, {data.pairs.shape[0]} pairs "
         f"[{time.perf_counter() - t0:.1f} s]")
    return data


def _cmd_train(args):
    from .models import LinkPredictor, require_ml

    check_output_path(args.model, args.force)
    kind = "baseline" if args.baseline else "blend"
    require_ml(kind, "science4cast train")
    data = _read(args)
    t0 = time.perf_counter()
    lp = LinkPredictor(kind, n_train_pairs=args.train_pairs, seed=args.seed, threads=args.threads,
                       progress=not args.quiet)
    lp.fit(data)
    lp.save(args.model, force=args.force)
    print(f"wrote {args.model}: {lp.kind} model ({len(lp.estimators_)} estimator(s)), trained on "
          f"{lp.trained_on_['n_pairs']} past pairs [{time.perf_counter() - t0:.1f} s]")
    return 0


def _cmd_predict(args):
    from .models import LinkPredictor

    check_output_path(args.out, args.force)
    # the model is read and checked whole (extras installed, every estimator rebuilt) before the data
    lp = LinkPredictor.load(args.model, threads=args.threads, progress=not args.quiet)
    _say(f"model {args.model}: {lp.kind}, {len(lp.estimators_)} estimator(s)")
    data = _read(args)
    t0 = time.perf_counter()
    scores = lp.predict(data)
    order = np.argsort(-scores, kind="stable")
    with atomic_write(args.out, "w", force=args.force) as fh:
        json.dump(order.tolist(), fh)
    print(f"wrote {args.out}: {order.shape[0]} pair indices, most likely first "
          f"[{time.perf_counter() - t0:.1f} s]")
    return 0


def read_submission(path, n_pairs):
    """Read a submission (JSON list of pair indices, most likely first) and check it.

    Returns the indices as int64; raises GraphFormatError unless they are a permutation of
    0..n_pairs-1.
    """
    path = os.fspath(path)
    obj = read_json(path, "submission")
    if not isinstance(obj, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in obj):
        raise GraphFormatError("a submission must be a JSON list of integer pair indices", path)
    idx = np.asarray(obj, dtype=np.int64)
    if idx.shape[0] != n_pairs:
        raise GraphFormatError(f"the submission lists {idx.shape[0]} indices but the data has {n_pairs} pairs",
                               path)
    if idx.size and (idx.min() < 0 or idx.max() >= n_pairs):
        raise GraphFormatError(f"pair indices must lie in 0..{n_pairs - 1}", path)
    if np.unique(idx).shape[0] != n_pairs:
        raise GraphFormatError("the submission lists some pair index more than once", path)
    return idx


def _cmd_evaluate(args):
    from .blend import roc_auc

    data = _read(args)
    if data.solution is None:
        raise ParameterError(f"{args.data} has no solution (a competition file): pass --solution FILE")
    idx = read_submission(args.submission, data.pairs.shape[0])
    scores = np.empty(idx.shape[0], np.float64)
    scores[idx] = np.arange(idx.shape[0], 0, -1)
    auc = roc_auc(data.solution, scores)
    if args.json:
        print(json.dumps({"auc": auc, "pairs": int(idx.shape[0]), "positives": int(data.solution.sum())}))
    else:
        print(f"AUC {auc:.4f} ({idx.shape[0]} pairs, {int(data.solution.sum())} positive)")
    return 0


def register(subparsers):
    """Add the ``science4cast`` command group to the graphmine CLI."""
    s = subparsers.add_parser("science4cast", help=COMMANDS["science4cast"],
                              description="Science4Cast: generate data, train, predict and evaluate.")
    sub = s.add_subparsers(dest="s4c_command", metavar="STEP", parser_class=type(s))
    sub.required = True

    def threads(p):
        p.add_argument("--threads", type=positive_int, default=None,
                       help="threads for the features and LightGBM's prediction (default: all cores); "
                            "LightGBM trains on 1 unless given")

    def quiet_runs(p, cmd):
        """The last option, --quiet, and the step it runs (stage messages shown unless --quiet)."""
        p.add_argument("--quiet", "-q", action="store_true",
                       help="no stage messages or progress bars on stderr (default: shown; bars only "
                            "when stderr is a terminal)")
        p.set_defaults(func=_logged(cmd))

    g = sub.add_parser("generate", help="write synthetic data as a benchmark pickle (7 items)")
    g.add_argument("--out", required=True, metavar="DATA.pkl", help="benchmark pickle to write (required)")
    g.add_argument("--vertices", type=positive_int, default=64719, help="concepts (default 64719)")
    g.add_argument("--pairs", type=positive_int, default=None,
                   help="pairs to rank (default 1,000,000, or a tenth of all vertex pairs if fewer)")
    g.add_argument("--seed", type=int, default=0, help="seed of the generator (default 0)")
    g.add_argument("--year-start", type=int, default=2014,
                   help="year_start: the pairs' labels are the links that appear after its end "
                        "(default 2014)")
    g.add_argument("--delta", type=positive_int, default=3, help="years_delta (default 3)")
    g.add_argument("--cutoff", type=non_negative_int, default=0, help="vertex_degree_cutoff (default 0)")
    g.add_argument("--min-edges", type=positive_int, default=1, help="min_edges (default 1)")
    g.add_argument("--force", action="store_true", help="replace an existing --out file (default: refuse)")
    quiet_runs(g, _cmd_generate)

    t = sub.add_parser("train", help="train on the data's past and write a JSON model file")
    t.add_argument("data", metavar="DATA.pkl", help="benchmark (7 items) or competition (4 items) pickle")
    t.add_argument("--model", required=True, metavar="MODEL", help="model file to write (JSON, required)")
    t.add_argument("--baseline", action="store_true",
                   help="the degree-only baseline instead of the LightGBM blend (default: the blend)")
    t.add_argument("--train-pairs", type=positive_int, default=100000,
                   help="past pairs sampled per model (default 100000)")
    t.add_argument("--seed", type=int, default=0,
                   help="seed of the sampled training pairs and of the models (default 0)")
    threads(t)
    t.add_argument("--force", action="store_true", help="replace an existing model file (default: refuse)")
    quiet_runs(t, _cmd_train)

    p = sub.add_parser("predict", help="write the pair indices sorted most likely first (JSON)")
    p.add_argument("data", metavar="DATA.pkl", help="benchmark (7 items) or competition (4 items) pickle")
    p.add_argument("--model", required=True, metavar="MODEL",
                   help="model file written by 'train' (JSON, required)")
    p.add_argument("--out", required=True, metavar="SUBMISSION.json",
                   help="submission to write: a JSON list of pair indices, most likely first (required)")
    threads(p)
    p.add_argument("--force", action="store_true", help="replace an existing --out file (default: refuse)")
    quiet_runs(p, _cmd_predict)

    e = sub.add_parser("evaluate", help="ROC AUC of a submission against the data's solution")
    e.add_argument("submission", metavar="SUBMISSION.json",
                   help="JSON list of pair indices, most likely first (as 'predict' writes)")
    e.add_argument("data", metavar="DATA.pkl", help="benchmark pickle, or competition pickle with --solution")
    e.add_argument("--solution", default=None, metavar="SOLUTION.pkl",
                   help="solution pickle, for a competition-format DATA.pkl (default: none)")
    e.add_argument("--json", action="store_true", help='print {"auc": ...} (default: a line of text)')
    quiet_runs(e, _cmd_evaluate)
    return s


def main(argv=None):
    """Run the science4cast commands alone (``python -m graphmine.science4cast.cli STEP ...``)."""
    parser = Parser(prog="graphmine")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    sub.required = True
    register(sub)
    args = parser.parse_args(["science4cast", *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.func(args)
    except GraphmineError as exc:
        print(f"graphmine: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
