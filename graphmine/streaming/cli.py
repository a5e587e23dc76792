"""``graphmine stream-triangles``: triangle estimates of an edge stream, in one pass and fixed memory.

    graphmine stream-triangles FILE|- --memory K [--method M] [--every N] [--seed S] [--threads T]
                               [--replicates R] [--ids int|str] [--format F] [--probability P] [--top K] [--json]

FILE is read in stream order (:func:`graphmine.streaming.read_stream`); ``-`` reads standard
input as it arrives (``+ u v`` / ``- u v`` / ``u v`` lines). With ``--every N`` an estimate is
printed every N events (a JSON line each with ``--json``); at the end, the global estimate and
the vertices with most triangles. Ctrl-C prints the last estimate and exits with status 130.
"""

import json
import sys
import time

from .. import commands
from .._runtime.docs import fill_doc
from ..commands import non_negative_int, positive_int
from ..core.exceptions import ParameterError

__all__ = ["register", "run_stream_triangles", "COMMANDS"]

# the subcommand registered here, with its line in `graphmine --help`
COMMANDS = {"stream-triangles": "triangle estimates of an edge stream in fixed memory"}

# the estimator names (graphmine.streaming.METHODS, written out: the parser is built without
# importing the estimators)
_METHODS = ["thinkd-acc", "thinkd-fast", "triest", "triest-fd", "wrs", "gps", "exact"]
_FORMATS = ["auto", "edges", "events", "scholp", "signed"]
# events per estimator call when no --every is given (Ctrl-C is seen between two calls)
_CHUNK = 1 << 18


def _probability(text):
    import argparse

    try:
        p = float(text)
    except ValueError:
        p = -1.0
    if not 0 < p <= 1:
        raise argparse.ArgumentTypeError(f"expected a probability in (0, 1], got {text!r}")
    return p


@fill_doc
def register(subparsers):
    """Add the ``stream-triangles`` subcommand.

    {cli_register_sections}

    {cli_register_example}
    >>> p.parse_args(["stream-triangles", "-", "--memory", "1000", "--every", "500"]).every
    500
    """
    p = subparsers.add_parser(
        "stream-triangles", help=COMMANDS["stream-triangles"],
        description="Estimate the global and per-vertex triangle counts of a graph given as a stream of edge "
                    "insertions and deletions, in one pass, keeping at most --memory edges per sampler.")
    p.add_argument("file", metavar="FILE",
                   help="the stream: an edge list (file order), 'u v t' events (--format events: time order), "
                        "a ScHoLP data set, '+ u v' / '- u v' lines, a shipped data set's name, or '-' for "
                        "standard input read as it arrives")
    p.add_argument("--memory", type=positive_int, default=None,
                   help="edges each sampler keeps (required but for --method exact)")
    p.add_argument("--method", default="thinkd-acc", choices=_METHODS,
                   help="estimator (default thinkd-acc; triest = TRIEST-IMPR; triest, wrs and gps take insertions "
                        "only; gps's standard error comes from one sampler; "
                        "exact keeps the whole graph)")
    p.add_argument("--every", type=positive_int, default=None,
                   help="print the estimate every N events (default: only at the end)")
    p.add_argument("--seed", type=non_negative_int, default=None,
                   help="seed of the samplers (default: drawn at random and printed)")
    p.add_argument("--threads", type=positive_int, default=None,
                   help="threads; each runs an independent sampler unless --replicates says otherwise "
                        "(default: one sampler on all cores)")
    p.add_argument("--replicates", type=positive_int, default=None,
                   help="independent samplers of --memory edges each, averaged; their spread gives the "
                        "standard error (default: --threads, else 1)")
    p.add_argument("--ids", choices=["int", "str"], default="int",
                   help="vertex ids: non-negative integers (default), or names ('str': edge lists and 'u v t' "
                        "events files; not standard input or '+ u v' lines)")
    p.add_argument("--format", default="auto", choices=_FORMATS,
                   help="layout of FILE (default auto: ScHoLP paths, signed lines or an edge list)")
    p.add_argument("--probability", type=_probability, default=None,
                   help="thinkd-fast's sampling probability (default: --memory over the stream's largest "
                        "number of edges; required for standard input)")
    p.add_argument("--top", type=non_negative_int, default=10, help="vertices listed at the end (default 10)")
    p.add_argument("--json", action="store_true", help="JSON lines: one per estimate, the last with the results")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar or notes on stderr")
    p.set_defaults(func=run_stream_triangles)


def _num(x):
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.4g}"


def _snapshot(est, interrupted=False):
    """One line of the estimate now (text or JSON)."""
    se = est.stderr()
    out = {"events": est.events, "edges": est.edges, "estimate": est.global_estimate(),
           "stderr": None if se != se else se}
    if interrupted:
        out["interrupted"] = True
    return out


def _line(snap, as_json):
    if as_json:
        return json.dumps(snap)
    se = "" if snap["stderr"] is None else f" ± {_num(snap['stderr'])}"
    head = "interrupted after" if snap.get("interrupted") else "after"
    return f"{head} {snap['events']:,} events: triangles ~{_num(snap['estimate'])}{se} ({snap['edges']:,} edges)"


def _live_source(args):
    """(chunks of cleaned events from standard input, the cleaner)."""
    from .readers import StreamCleaner, iter_signed_chunks

    if args.format not in ("auto", "signed", "edges"):
        raise ParameterError("standard input is read as it arrives, '+ u v' / '- u v' / 'u v' lines: --format "
                             f"{args.format} needs a file")
    if args.ids != "int":
        raise ParameterError("standard input is read as it arrives, with integer ids: --ids str needs a file")
    cleaner = StreamCleaner()

    def chunks():
        for sg, u, v in iter_signed_chunks(sys.stdin, "<stdin>"):
            yield cleaner.clean(sg, u, v)
    return chunks(), cleaner


def _file_source(stream, size):
    def chunks():
        for a in range(0, len(stream), size):
            b = min(a + size, len(stream))
            yield stream.signs[a:b], stream.u[a:b], stream.v[a:b]
    return chunks()


def run_stream_triangles(args):
    """Run ``graphmine stream-triangles``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line of the subcommand.

    Returns
    -------
    int
        The exit status, 0 (errors are raised, and the program reports them).

    Examples
    --------
    >>> from graphmine.commands import Parser
    >>> p = Parser(prog="graphmine")
    >>> register(p.add_subparsers(dest="command"))
    >>> run_stream_triangles(p.parse_args(["stream-triangles", "Celegans", "--method", "exact", "--top", "2"]))
    ... # doctest: +ELLIPSIS
    triangles: 3,241 (exact)
    stream: 2,148 events (2,148 insertions, 0 deletions); 297 vertices, 2,148 edges at the end
    dropped: 0 self-loops, 211 repeated insertions, 0 deletions of absent edges
    top vertices: 44 (~397), 12 (~311)
    time: read ... s, estimate ... s (... events/s)
    0
    """
    from .._runtime.output import set_interrupt_report, write_partial
    from .estimators import make_estimator
    from .readers import read_stream

    method = args.method
    if method == "exact":
        if any(x is not None for x in (args.memory, args.seed, args.replicates, args.probability)):
            raise ParameterError("--method exact keeps the whole graph: it takes no --memory, --seed, --replicates "
                                 "or --probability")
    elif args.memory is None:
        raise ParameterError(f"--memory K is required: the edges each {method} sampler keeps")
    if args.probability is not None and method != "thinkd-fast":
        raise ParameterError("--probability applies to --method thinkd-fast only")
    replicates = 1 if method == "exact" else (args.replicates or args.threads or 1)
    commands.note_first_compile(args)
    t0 = time.perf_counter()
    stream = cleaner = None
    if args.file == "-":
        if method == "thinkd-fast" and args.probability is None:
            raise ParameterError("thinkd-fast on standard input needs --probability (its size is not known "
                                 "ahead to set it from --memory)")
        source, cleaner = _live_source(args)
        probability = args.probability
    else:
        from ..io import datasets

        stream = read_stream(datasets.resolve(args.file), format=args.format, ids=args.ids, threads=args.threads)
        probability = args.probability
        if method == "thinkd-fast" and probability is None:
            probability = min(1.0, args.memory / max(stream.peak_edges(), 1))
        source = _file_source(stream, args.every or _CHUNK)
    load_s = time.perf_counter() - t0
    est = make_estimator(method, args.memory, seed=args.seed, replicates=replicates, probability=probability)
    every = args.every
    due = every
    feed_s = 0.0
    bar = None
    if stream is not None and every is None and commands.show_progress(args):
        from .._runtime.progress import progress_bar

        bar = progress_bar(True, len(stream), "events", unit="ev", scale=True)
    try:
        for sg, u, v in source:
            a = 0
            while a < sg.shape[0]:
                b = sg.shape[0] if due is None else min(sg.shape[0], a + due - est.events)
                t1 = time.perf_counter()
                est.feed(_Batch(sg[a:b], u[a:b], v[a:b]), threads=args.threads)
                feed_s += time.perf_counter() - t1
                if bar is not None:
                    bar.update(b - a)
                a = b
                set_interrupt_report(_line(_snapshot(est, True), args.json))
                if due is not None and est.events >= due:
                    write_partial(_line(_snapshot(est), args.json))
                    due += every
    finally:
        if bar is not None:
            bar.close()
    # the report stays set: a Ctrl-C before the results begin to print still prints the last estimate
    _report(args, est, stream, cleaner, load_s, feed_s)
    return 0


class _Batch:
    __slots__ = ("signs", "u", "v")

    def __init__(self, signs, u, v):
        self.signs, self.u, self.v = signs, u, v


def _report(args, est, stream, cleaner, load_s, feed_s):
    import numpy as np

    dropped = stream.dropped if stream is not None else cleaner.dropped
    ids, vals = est.top_vertices(args.top)
    labels = stream.labels if stream is not None else None
    names = [str(labels[i]) if labels is not None else int(i) for i in ids.tolist()]
    out = _snapshot(est)
    if est.method == "exact":
        out["estimate"] = int(round(out["estimate"]))
    ins = int(np.count_nonzero(stream.signs > 0)) if stream is not None else None
    out.update({"final": True, "file": args.file, "method": est.method, "memory": est.memory,
                "replicates": est.replicates, "seed": None if est.method == "exact" else est.seed,
                "vertices": est.n_vertices, "dropped": dropped,
                "top": [[n, float(v)] for n, v in zip(names, vals.tolist())],
                "load_seconds": load_s, "seconds": feed_s,
                "events_per_second": est.events / feed_s if feed_s > 0 else None})
    if getattr(est, "probability", None) is not None:
        out["probability"] = est.probability
    if ins is not None:
        out.update({"insertions": ins, "deletions": len(stream) - ins})
    if args.json:
        print(json.dumps(out))
        return
    if est.method == "exact":
        print(f"triangles: {out['estimate']:,} (exact)")
    else:
        se = "" if out["stderr"] is None else f", stderr {_num(out['stderr'])}"
        fast = f", p = {out['probability']:.4g}" if "probability" in out else ""
        samplers = f"{est.replicates} samplers" if est.replicates > 1 else \
            "1 sampler" if out["stderr"] is not None else "1 sampler (--replicates 2+ for a stderr)"
        print(f"triangles: ~{_num(out['estimate'])}{se}  [{est.method}, {samplers} of {est.memory:,} edges"
              f"{fast}, seed {est.seed}]")
    kinds = f" ({ins:,} insertions, {len(stream) - ins:,} deletions)" if ins is not None else ""
    print(f"stream: {est.events:,} events{kinds}; {est.n_vertices:,} vertices, {est.edges:,} edges at the end")
    print(f"dropped: {dropped['self_loops']:,} self-loops, {dropped['repeated_insertions']:,} repeated insertions, "
          f"{dropped['absent_deletions']:,} deletions of absent edges")
    if out["top"]:
        print("top vertices: " + ", ".join(f"{n} (~{_num(v)})" for n, v in out["top"]))
    rate = f" ({out['events_per_second']:,.0f} events/s)" if out["events_per_second"] else ""
    print(f"time: read {load_s:.3f} s, estimate {feed_s:.3f} s{rate}")
