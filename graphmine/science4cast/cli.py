"""``graphmine science4cast``: generate, train, predict and evaluate from the command line.

* ``generate --out DATA.pkl [--vertices N] [--pairs P] [--seed S] ...`` writes a benchmark pickle
  (7 items, solution included) of synthetic data;
* ``train DATA.pkl --model MODEL [--baseline]`` trains on the data's past (rows before the end of
  ``year_start``) and writes a JSON model file;
* ``predict DATA.pkl --model MODEL --out SUBMISSION.json`` writes the pair indices sorted from
  most to least likely (a JSON list);
* ``evaluate SUBMISSION.json DATA.pkl [--json]`` prints the ROC AUC against the data's solution;
* ``build EVENTS --out DATA.pkl`` builds a data set from a user's timestamped events (edges
  ``u v t``, items ``t u1 u2 ...`` or a ScHoLP data set), with a vertex table ``DATA.ids.tsv``
  beside it (vertex number -> original id); ``predict --top K`` prints the K most likely new pairs
  with those ids.

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

from .._primitives.small_work import unique_ints
from .._runtime.optional import required_by
from .._runtime.output import atomic_write, check_output_path
from ..commands import Parser, non_negative_int, note_first_compile, positive_int
from ..core.exceptions import GraphFormatError, GraphmineError, ParameterError
from ._progress import LOGGER_NAME, log_to_stderr
from .io import read_json

__all__ = ["register", "main", "read_submission", "read_ids", "ids_path", "COMMANDS"]

# the command group registered here, with its line in `graphmine --help`
COMMANDS = {"science4cast": "temporal link prediction in a growing concept graph"}

_log = logging.getLogger(LOGGER_NAME)


def _say(msg):
    _log.info("%s", msg)


def _logged(cmd):
    """Run a step with its stage messages on stderr, unless ``--quiet``; warnings (a degraded
    training, fewer pairs than asked) are printed as one line ``graphmine: warning: ...``; a
    missing extra is said to be needed by the step (``graphmine science4cast train``)."""

    @functools.wraps(cmd)
    def run(args):
        import warnings

        def show(message, category, filename, lineno, file=None, line=None):
            print(f"graphmine: warning: {message}", file=sys.stderr)

        with log_to_stderr(not args.quiet), warnings.catch_warnings(), \
                required_by(f"graphmine science4cast {args.s4c_command}"):
            warnings.simplefilter("always", UserWarning)
            warnings.showwarning = show
            note_first_compile(args)
            return cmd(args)

    return run


def ids_path(data_path):
    """The vertex table written beside a data set by ``build``: ``DATA.ids.tsv`` for ``DATA.pkl``.

    Parameters
    ----------
    data_path : str or PathLike
        The data set's pickle.

    Returns
    -------
    str
        The table's path.

    Examples
    --------
    >>> ids_path("/data/set.pkl")
    '/data/set.ids.tsv'
    """
    base = os.fspath(data_path)
    if base.endswith(".pkl"):
        base = base[:-4]
    return base + ".ids.tsv"


def read_ids(path, n):
    """The original ids of a ``build`` vertex table (``vertex<TAB>id`` lines, a ``#`` header).

    Parameters
    ----------
    path : str or PathLike
        The table.
    n : int
        Entries wanted at least.

    Returns
    -------
    list of str
        The ids indexed by vertex number; a vertex missing from the table is its number.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "set.ids.tsv")
    >>> _ = open(path, "w").write("# vertex\\tid\\n0\\tapple\\n2\\tpear\\n")
    >>> read_ids(path, 3)
    ['apple', '1', 'pear']"""
    out = [str(i) for i in range(n)]
    try:
        with open(path, encoding="utf-8") as fh:
            for k, line in enumerate(fh, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 2 or not parts[0].isdigit():
                    raise GraphFormatError("expected 'vertex<TAB>id'", path, k)
                i = int(parts[0])
                if i >= len(out):
                    out.extend(str(j) for j in range(len(out), i + 1))
                out[i] = parts[1]
    except OSError as exc:
        raise GraphFormatError(f"cannot read the vertex table: {exc.strerror or exc}", path) from None
    except UnicodeDecodeError:
        raise GraphFormatError("the vertex table is not UTF-8 text", path) from None
    return out


def _pairs_arg(text):
    """--pairs: a positive integer or 'all' (None)."""
    import argparse

    if text == "all":
        return None
    try:
        return positive_int(text)
    except (argparse.ArgumentTypeError, ValueError):
        raise argparse.ArgumentTypeError(f"expected a positive integer or 'all', got {text!r}") from None


def _cmd_build(args):
    from .build import build_benchmark
    from .io import write_benchmark, write_competition

    check_output_path(args.out, args.force)
    ids_out = ids_path(args.out)
    check_output_path(ids_out, args.force)
    if args.year_start is not None and args.cut is not None:
        raise ParameterError("give --year-start or --cut, not both")
    cut = args.cut
    if cut is not None:
        try:
            cut = float(cut)
        except ValueError:
            pass   # a date, checked by build_benchmark
    t0 = time.perf_counter()
    from ..io.events import read_events

    events = read_events(args.events, format=args.format, time_unit=args.time_unit, ids=args.ids)
    _say(f"read {args.events}: {events!r} [{time.perf_counter() - t0:.1f} s]")
    data, node_ids = build_benchmark(events, year_start=args.year_start, cut=cut, years_delta=args.delta,
                                     vertex_degree_cutoff=args.cutoff, min_edges=args.min_edges,
                                     n_pairs=args.pairs, seed=args.seed,
                                     time_map=args.time_map, span=tuple(args.span))
    if data.solution is not None:
        write_benchmark(data, args.out, force=args.force)
    else:
        write_competition(data, args.out, force=args.force)
    with atomic_write(ids_out, "w", force=args.force) as fh:
        fh.write("# vertex\tid\n")
        fh.write("".join(f"{i}\t{x}\n" for i, x in enumerate(node_ids.tolist())))
    kind = "benchmark (solution included)" if data.solution is not None else "competition format (no solution: " \
        "the events end before the end of year_start + delta)"
    print(f"wrote {args.out}: {data!r}, {kind}; vertex ids in {ids_out} [{time.perf_counter() - t0:.1f} s]")
    return 0


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
    require_ml(kind, "graphmine science4cast train")
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

    if args.out is None and args.top is None:
        raise ParameterError("give --out SUBMISSION.json, --top K, or both")
    if args.out is not None:
        check_output_path(args.out, args.force)
    # the model is read and checked whole (extras installed, every estimator rebuilt) before the data
    lp = LinkPredictor.load(args.model, threads=args.threads, progress=not args.quiet)
    _say(f"model {args.model}: {lp.kind}, {len(lp.estimators_)} estimator(s)")
    data = _read(args)
    t0 = time.perf_counter()
    scores = lp.predict(data)
    order = np.argsort(-scores, kind="stable")
    if args.out is not None:
        with atomic_write(args.out, "w", force=args.force) as fh:
            fh.write(json.dumps(order.tolist()))  # json.dump encodes in Python, dumps in C: 3.5x
        print(f"wrote {args.out}: {order.shape[0]} pair indices, most likely first "
              f"[{time.perf_counter() - t0:.1f} s]")
    if args.top is not None:
        ids = args.ids if args.ids is not None else ids_path(args.data)
        n = data.n_vertices
        if os.path.isfile(ids):
            names = read_ids(ids, n)
        elif args.ids is not None:
            raise GraphFormatError("no such vertex table", ids)
        else:
            names = [str(i) for i in range(n)]
            _say(f"no vertex table {ids}: printing vertex numbers")
        top = order[:args.top]
        rows = ["rank\tu\tv\tscore\tpair_index"]
        for r, i in enumerate(top.tolist(), 1):
            u, v = (int(x) for x in data.pairs[i])
            rows.append(f"{r}\t{names[u]}\t{names[v]}\t{scores[i]:.6g}\t{i}")
        print("\n".join(rows))
    return 0


def read_submission(path, n_pairs):
    """Read a submission (JSON list of pair indices, most likely first) and check it.

    Parameters
    ----------
    path : str or PathLike
        The JSON file.
    n_pairs : int
        The data set's number of pairs.

    Returns
    -------
    ndarray of int64
        The indices.

    Raises
    ------
    GraphFormatError
        Unreadable JSON, or indices that are not a permutation of 0..n_pairs-1.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "submission.json")
    >>> _ = open(path, "w").write("[2, 0, 1]")
    >>> read_submission(path, 3).tolist()
    [2, 0, 1]
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
    if unique_ints(idx).shape[0] != n_pairs:
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
    """Add the ``science4cast`` command group to the graphmine CLI.

    Its steps are ``generate``, ``train``, ``predict``, ``build`` and ``evaluate``.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        The subcommands of the ``graphmine`` parser.

    Returns
    -------
    argparse.ArgumentParser
        The ``science4cast`` parser.

    Examples
    --------
    >>> from graphmine.commands import Parser
    >>> p = Parser(prog="graphmine")
    >>> register(p.add_subparsers(dest="command")).prog
    'graphmine science4cast'
    >>> p.parse_args(["science4cast", "generate", "--out", "d.pkl"]).s4c_command
    'generate'
    """
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

    p = sub.add_parser("predict", help="write the pair indices sorted most likely first (JSON), or print the top K")
    p.add_argument("data", metavar="DATA.pkl", help="benchmark (7 items) or competition (4 items) pickle")
    p.add_argument("--model", required=True, metavar="MODEL",
                   help="model file written by 'train' (JSON, required)")
    p.add_argument("--out", default=None, metavar="SUBMISSION.json",
                   help="submission to write: a JSON list of pair indices, most likely first (required "
                        "unless --top is given)")
    p.add_argument("--top", type=positive_int, default=None, metavar="K",
                   help="print the K most likely new pairs (rank, u, v, score, pair index; tab-separated) with "
                        "the vertices' original ids (default: none; the whole ranking goes to --out)")
    p.add_argument("--ids", default=None, metavar="IDS.tsv",
                   help="vertex table for --top (default: DATA.ids.tsv beside DATA.pkl, as 'build' writes it; "
                        "vertex numbers when there is none)")
    threads(p)
    p.add_argument("--force", action="store_true", help="replace an existing --out file (default: refuse)")
    quiet_runs(p, _cmd_predict)

    b = sub.add_parser("build", help="build a data set (pickle) from timestamped events of your own")
    b.add_argument("events", metavar="EVENTS",
                   help="events: 'u v t' lines, 't u1 u2 ...' lines, or a ScHoLP data set (its folder, the "
                        "common prefix of its files, or one of NAME-nverts/-simplices/-times.txt[.gz])")
    b.add_argument("--out", required=True, metavar="DATA.pkl",
                   help="pickle to write (required): a benchmark (7 items) when the events reach the end of "
                        "year_start + delta, else competition format (4 items, no solution); the vertex "
                        "table goes to DATA.ids.tsv")
    b.add_argument("--format", default="auto", choices=("auto", "edges", "items", "scholp"),
                   help="layout of EVENTS (default auto: ScHoLP files by name, 'edges' when every line has 3 "
                        "columns and the first is not a date, else 'items')")
    b.add_argument("--time-unit", default=None, choices=("s", "ms", "days", "date"),
                   help="what the times count (default: dates if the first time is YYYY-MM-DD, else numbers "
                        "without a unit, mapped linearly)")
    b.add_argument("--ids", default="int", choices=("int", "str"),
                   help="vertex ids: non-negative integers (default) or any names")
    b.add_argument("--time-map", default="auto", choices=("auto", "calendar", "linear", "rank"),
                   help="times -> days: calendar (dates, or numbers in --time-unit since 1970-01-01), "
                        "linear onto --span, or rank (by the items' rank in time, onto --span) (default "
                        "auto: calendar for dates or times with a unit that fall in 1990..2200, else linear)")
    b.add_argument("--span", type=int, nargs=2, default=(1994, 2020), metavar=("FIRST", "LAST"),
                   help="years of the linear time map (default 1994 2020)")
    b.add_argument("--year-start", type=int, default=None,
                   help="the cut year on the mapped calendar (default: the last complete year minus --delta)")
    b.add_argument("--cut", default=None, metavar="T",
                   help="the cut as a time in the events' units (or a date): the year whose end is nearest")
    b.add_argument("--delta", type=positive_int, default=3, help="years_delta (default 3)")
    b.add_argument("--cutoff", type=non_negative_int, default=0, help="vertex_degree_cutoff (default 0)")
    b.add_argument("--min-edges", type=positive_int, default=1, help="min_edges (default 1)")
    b.add_argument("--pairs", type=_pairs_arg, default=100000,
                   help="pairs to sample (default 100000; fewer, with a warning, when fewer exist; 'all': "
                        "every unconnected pair)")
    b.add_argument("--seed", type=int, default=0, help="seed of the pair sample (default 0)")
    b.add_argument("--force", action="store_true", help="replace existing output files (default: refuse)")
    quiet_runs(b, _cmd_build)

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
    """Run the science4cast commands alone (``python -m graphmine.science4cast.cli STEP ...``).

    Parameters
    ----------
    argv : list of str, optional
        The step and its options (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0, or 2 after an error of graphmine (said on stderr).

    Examples
    --------
    >>> import os, tempfile
    >>> out = os.path.join(tempfile.mkdtemp(), "b.pkl")
    >>> main(["generate", "--out", out, "--vertices", "300", "--pairs", "200", "--year-start", "2000",
    ...       "--delta", "2", "--seed", "1", "-q"])  # doctest: +ELLIPSIS
    wrote ...b.pkl: Science4CastData(rows=16417, pairs=200, positives=24, year_start=2000, years_delta=2, vertex_degree_cutoff=0, min_edges=1)
    0
    """
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
