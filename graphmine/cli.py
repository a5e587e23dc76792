"""The ``graphmine`` command line.

``graphmine count-cliques FILE [-k K] [--method M] [--threads N] [--json]``,
``graphmine triangles FILE [--out F]`` and ``graphmine info FILE [--json]``; the components add
their own subcommands from their command modules (``graphmine/<component>/cli.py``, listed in
``COMMANDS``), each imported only when one of its subcommands runs (or its help is asked for).
Every error a user can cause prints one line ``graphmine: error: ...`` and exits with status 2.
"""

import importlib
import json
import os
import sys
import time

from ._runtime import interrupt as _interrupt, output as _output
from . import commands
from .commands import Parser, add_input_argument, budget_fraction, clique_size, non_negative_int
from .core.exceptions import GraphmineError

__all__ = ["main", "run", "build_parser", "COMMANDS"]

# the components' subcommands: name -> (the module whose register(subparsers) adds it, its line in
# `graphmine --help`, the same text the module gives; tests/cli/test_layout.py checks both)
COMMANDS = {
    "clustering": ("graphmine.probgraph.cli", "average clustering coefficient and transitivity"),
    "jarvis-patrick": ("graphmine.probgraph.cli", "Jarvis-Patrick clustering by neighbourhood similarity"),
    "predict-motifs": ("graphmine.motifs.cli", "motif prediction: heuristic motif scores or the SEAM GNN"),
    "predict-closure": ("graphmine.motifs.cli", "temporal closure prediction of open triangles and 4-sets"),
    "science4cast": ("graphmine.science4cast.cli", "temporal link prediction in a growing concept graph"),
    "stream-triangles": ("graphmine.streaming.cli", "triangle estimates of an edge stream in fixed memory"),
}


class _LazyParsers(dict):
    """The name -> parser map of the top-level subparsers action, with the components'
    subcommands as placeholders until argparse looks one up (it looks up only the subcommand that
    runs): the component's command module is then imported and registers its real parsers.
    ``graphmine --help`` lists the placeholders' help lines without importing anything."""

    def __init__(self, action):
        super().__init__(action._name_parser_map)
        self._action = action
        self._pending = {}  # subcommand -> module not imported yet
        # argparse validates the choice and finds the parser through this one mapping
        action._name_parser_map = action.choices = self

    def add_placeholder(self, name, module, help):
        self._action.add_parser(name, help=help)
        self._pending[name] = module

    def _load(self, name):
        module = self._pending.get(name)
        if module is None:
            return
        names = [n for n, m in self._pending.items() if m == module]
        for n in names:
            del self._pending[n]
            dict.pop(self, n)
        listed = len(self._action._choices_actions)
        importlib.import_module(module).register(self._action)
        # the help lines stay those of the placeholders, in their places
        del self._action._choices_actions[listed:]

    def __getitem__(self, name):
        self._load(name)
        return dict.__getitem__(self, name)

    def get(self, name, default=None):
        self._load(name)
        return dict.get(self, name, default)

    def _load_all(self):
        for name in list(self._pending):
            self._load(name)

    def values(self):
        self._load_all()
        return dict.values(self)

    def items(self):
        self._load_all()
        return dict.items(self)


def _cmd_count_cliques(args):
    if args.all_k:
        return _cmd_all_k(args)
    if getattr(args, "scheduler", None) is not None:  # distributed run (graphmine[dask])
        from ._runtime.optional import required_by

        with required_by("graphmine count-cliques --scheduler"):
            from .distributed.cli import count_cliques_command

            return count_cliques_command(args)
    from .dispatch import count_cliques

    warm = None
    if args.devices is not None and (args.device != "cuda" or args.method != "exact"):
        raise _param_error("--devices applies to exact counts with --device cuda")
    if args.device == "cuda":
        from .cuda import preflight, warm_up

        preflight()  # no GPU: say so before spending the load on it (no numba.cuda import)
        if args.method == "exact":
            warm = warm_up(args.k)  # CUDA start and kernel loading overlap the read
    G, load_s = commands.load_input(args)
    if warm is not None:
        warm.join()
    kwargs = {}
    if args.method != "exact":
        kwargs = {"budget": args.budget, "seed": args.seed}
    elif args.budget is not None or args.seed is not None:
        raise _param_error("--budget and --seed apply to the approximate methods only")
    if args.method == "exact" and args.k >= 4 and commands.show_progress(args):
        kwargs["progress"] = True
    t0 = time.perf_counter()
    if args.devices is not None:
        from .cuda import count_cliques as gpu_count_cliques

        result = gpu_count_cliques(G, args.k, threads=args.threads, devices=args.devices)
    else:
        result = count_cliques(G, args.k, method=args.method, threads=args.threads, device=args.device, **kwargs)
    seconds = time.perf_counter() - t0
    out = {"file": args.file, "k": args.k, "method": args.method}
    if hasattr(result, "to_dict"):
        extra = result.to_dict()
        out["count"] = int(round(extra["estimate"]))
        out.update(extra)
        out["budget_requested"] = args.budget if args.budget is not None else _default_budget()
        out["seed"] = extra.get("params", {}).get("seed", args.seed)
    else:
        out["count"] = int(result)
    out.update({"seconds": seconds, "load_seconds": load_s, "nodes": G.n_nodes, "edges": G.n_edges})
    if args.json:
        print(json.dumps(out))
    else:
        what = "triangles" if args.k == 3 else f"{args.k}-cliques"
        if "estimate" in out:
            lo, hi = out.get("ci", (None, None)) or (None, None)
            level = 100 * out.get("confidence", 0.95)
            ci = (f" ({level:g}% CI {lo:,.0f} .. {hi:,.0f}, stderr {out['stderr']:,.0f})"
                  if lo is not None else "")
            budget = out.get("budget")
            sketch = (f", budget {out['budget_requested']:g} ({budget:.3g} used: whole 64-bit words per vertex)"
                      if isinstance(budget, float) else "")
            print(f"{what}: ~{out['estimate']:,.0f}{ci}  [{args.method}{sketch}, seed {out['seed']}]")
        else:
            print(f"{what}: {out['count']:,}")
        print(f"graph: {G.n_nodes:,} vertices, {G.n_edges:,} edges; "
              f"load {load_s:.3f} s, count {seconds:.3f} s ({args.method})")
    return 0


def _cmd_all_k(args):
    """count-cliques --all-k: exact counts of every clique size at once."""
    if (args.method != "exact" or args.device != "cpu" or args.budget is not None or args.seed is not None
            or args.scheduler is not None or args.devices is not None):
        raise _param_error("--all-k counts exactly on the CPU: it takes no --method, --budget, --seed, --device, "
                           "--devices or --scheduler")
    from .cliques.census import count_all_cliques

    G, load_s = commands.load_input(args)
    t0 = time.perf_counter()
    counts = count_all_cliques(G, threads=args.threads)
    seconds = time.perf_counter() - t0
    out = {"file": args.file, "clique_number": len(counts) - 1,
           "counts": {str(k): c for k, c in enumerate(counts) if k >= 1},
           "seconds": seconds, "load_seconds": load_s, "nodes": G.n_nodes, "edges": G.n_edges}
    if args.json:
        print(json.dumps(out))
    else:
        for k, c in enumerate(counts):
            if k >= 1:
                print(f"{k:>4d}-cliques: {c:,}")
        print(f"clique number {len(counts) - 1}; graph: {G.n_nodes:,} vertices, {G.n_edges:,} edges; "
              f"load {load_s:.3f} s, count {seconds:.3f} s (all sizes, exact)")
    return 0


def _default_budget():
    from .probgraph.sketches import DEFAULT_BUDGET

    return DEFAULT_BUDGET


def _cmd_triangles(args):
    from ._runtime.output import check_output_path
    from .dispatch import triangles
    from .io.edgelist import write_vertex_table

    if args.out is not None:
        check_output_path(args.out, args.force)
    G, load_s = commands.load_input(args)
    t0 = time.perf_counter()
    t = triangles(G, threads=args.threads)
    seconds = time.perf_counter() - t0
    if args.out is not None:
        write_vertex_table(G, args.out, {"triangles": t}, force=args.force)
    out = {"file": args.file, "triangles": int(t.sum()) // 3, "max_vertex_triangles": int(t.max()) if t.size else 0,
           "out": args.out, "seconds": seconds, "load_seconds": load_s, "nodes": G.n_nodes, "edges": G.n_edges}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"triangles: {out['triangles']:,} (at most {out['max_vertex_triangles']:,} at one vertex)")
        if args.out is not None:
            print(f"per-vertex counts written to {args.out}")
        print(f"graph: {G.n_nodes:,} vertices, {G.n_edges:,} edges; load {load_s:.3f} s, count {seconds:.3f} s")
    return 0


def _device_ids(text):
    """--devices: comma-separated GPU ids (non-negative integers)."""
    import argparse

    parts = [x.strip() for x in str(text).split(",")]
    if not parts or not all(x.isdigit() for x in parts):
        raise argparse.ArgumentTypeError(f"expected GPU ids separated by commas (e.g. 0,1), got {text!r}")
    return [int(x) for x in parts]


def _param_error(message):
    from .core.exceptions import ParameterError

    return ParameterError(message)


def _plain(x):
    """A vertex id as JSON writes it: an int or a str."""
    return x if isinstance(x, str) else int(x)


def _cmd_info(args):
    if args.backends:
        from .core.registry import format_matrix

        print(format_matrix())
        return 0
    if args.file is None:
        raise _param_error("info needs a FILE (or --backends)")
    G, load_s = commands.load_input(args)
    deg = G.degree
    st = G.input_stats
    info = {
        "file": args.file,
        "nodes": G.n_nodes,
        "edges": G.n_edges,
        "self_loops": st.get("self_loops", 0),
        "duplicates": st.get("duplicates", 0),
        "input_edges": st.get("input_edges", G.n_edges),
        "isolated": int((deg == 0).sum()),
        "max_degree": int(deg.max()) if deg.size else 0,
        "average_degree": float(deg.mean()) if deg.size else 0.0,
        "id_type": "str" if G.node_ids.dtype == object else "int",
        "min_id": _plain(G.node_ids.min()) if G.n_nodes else None,
        "max_id": _plain(G.node_ids.max()) if G.n_nodes else None,
        "index_dtype": str(G.indices.dtype),
        "load_seconds": load_s,
    }
    if args.json:
        print(json.dumps(info))
    else:
        print(f"{args.file}")
        if info["id_type"] == "str":
            ids = f"names {info['min_id']!r}..{info['max_id']!r}, numbered 0..n-1 in order of appearance"
        else:
            ids = f"ids {info['min_id']}..{info['max_id']} renumbered 0..n-1"
        print(f"  vertices          {info['nodes']:,} ({ids}; {info['isolated']:,} isolated)")
        print(f"  edges             {info['edges']:,} undirected (from {info['input_edges']:,} lines)")
        print(f"  self-loops        {info['self_loops']:,} dropped")
        print(f"  duplicates        {info['duplicates']:,} merged (repeated or reversed edges)")
        print(f"  degree            max {info['max_degree']:,}, mean {info['average_degree']:.2f}")
        print(f"  loaded in         {load_s:.3f} s")
    return 0


def build_parser():
    """The argument parser of the ``graphmine`` command (the components' subcommands load lazily).

    Returns
    -------
    Parser
        The parser, with one subcommand per entry of :data:`COMMANDS` and the core's own.

    Examples
    --------
    >>> args = build_parser().parse_args(["count-cliques", "graph.el", "-k", "4"])
    >>> args.command, args.file, args.k, args.method
    ('count-cliques', 'graph.el', 4, 'exact')
    """
    p = Parser(prog="graphmine", description="Graph mining on a CSR core: exact and approximate "
                "clique counting, clustering, motif and link prediction.")
    from . import __version__

    p.add_argument("--version", action="version", version=f"graphmine {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    c = sub.add_parser("count-cliques", help="count triangles or k-cliques (exact or approximate)",
                       description="Count the k-cliques of a graph (k = 3: triangles).")
    add_input_argument(c)
    c.add_argument("-k", type=clique_size, default=3, help="clique size, >= 3 (default 3)")
    c.add_argument("--method", default="exact", choices=["exact", "bloom", "khash", "onehash", "kmv"],
                   help="exact count (default), or an estimate from neighbourhood sketches")
    c.add_argument("--budget", type=budget_fraction, default=None,
                   help="sketch memory as a fraction of the CSR size, in (0, 1] (approximate methods; "
                        "default 0.25)")
    c.add_argument("--seed", type=non_negative_int, default=None,
                   help="seed of the sketches' hash functions (default: drawn at random and printed, "
                        "so the run can be repeated)")
    c.add_argument("--device", default="cpu", choices=["cpu", "cuda", "auto"],
                   help="count on the CPU (default), a CUDA GPU, or the GPU when one is visible")
    c.add_argument("--devices", default=None, type=_device_ids,
                   help="with --device cuda: the GPUs to count on, e.g. 0,1 (default: every visible GPU)")
    c.add_argument("--all-k", action="store_true",
                   help="exact counts of every clique size up to the clique number at once (ignores -k)")
    c.add_argument("--scheduler", default=None, help="count on a Dask cluster: local, local:N (N workers) or "
                   "tcp://host:8786; FILE may then be a directory or a quoted glob of shards")
    c.set_defaults(func=_cmd_count_cliques)

    t = sub.add_parser("triangles", help="per-vertex triangle counts, optionally saved to a TSV file",
                       description="Count the triangles at every vertex (exact).")
    add_input_argument(t)
    t.add_argument("--out", default=None,
                   help="write 'vertex<TAB>triangles' lines with the file's vertex ids (default: none)")
    t.add_argument("--force", action="store_true", help="replace --out if it exists")
    t.set_defaults(func=_cmd_triangles)

    i = sub.add_parser("info", help="vertices, edges, self-loops and duplicates of a graph file")
    add_input_argument(i)
    file_arg = next(a for a in i._actions if a.dest == "file")
    file_arg.nargs, file_arg.required, file_arg.default = "?", False, None  # not with --backends
    i.add_argument("--backends", action="store_true",
                   help="print which algorithm families run on which back-end and method (no FILE)")
    i.set_defaults(func=_cmd_info)

    lazy = _LazyParsers(sub)
    for name, (module, help) in COMMANDS.items():
        lazy.add_placeholder(name, module, help)
    return p


def main(argv=None, *, program=False):
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit status.

    ``program=True`` (from :func:`run`, the ``graphmine`` program) sets numba up without the
    packages no kernel uses (see :mod:`graphmine._runtime.startup`); a call from Python leaves numba's
    set-up alone.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program's name (default: ``sys.argv[1:]``).
    program : bool, default False
        Whether the ``graphmine`` program itself calls.

    Returns
    -------
    int
        The exit status: 0 on success, 1 for an error of graphmine (said on stderr in one
        line), 130 when interrupted.

    Examples
    --------
    >>> main(["count-cliques", "Celegans", "--quiet"])  # doctest: +ELLIPSIS
    triangles: 3,241
    graph: 297 vertices, 2,148 edges; load ... s, count ... s (exact)
    0
    """
    parser = build_parser()
    _output.reset_delivery()
    try:
        args = parser.parse_args(argv)
        if program:
            from ._runtime.startup import lean_numba_setup

            lean_numba_setup()
        if getattr(args, "scheduler", None) is not None:
            return args.func(args)  # on this thread: it starts the Dask workers (graphmine/_runtime/interrupt.py)
        from ._runtime.interrupt import interruptible

        # the command runs on graphmine's worker thread: Ctrl-C is seen at once by this one, and
        # never inside a kernel, whatever kernels the command runs
        return interruptible(args.func)(args)
    except GraphmineError as exc:
        print(f"graphmine: error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        # an optional dependency imported without graphmine._runtime.optional.require: still one line
        from ._runtime.optional import EXTRAS, missing_message

        if (exc.name or "").split(".")[0] not in EXTRAS:
            raise
        print(f"graphmine: error: {missing_message(exc.name, args.command)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _end_interrupted()
        return 130
    except BrokenPipeError:
        # stdout closed early (`graphmine ... | head -c 10`): nothing more can be said there
        from ._runtime.output import silence_stdout

        silence_stdout()
        return 0


def _exit_interrupted(signum, frame):
    """The program's SIGINT handler: end at once with status 130. Python runs it in the main thread
    at that thread's next bytecode, which may be inside a ctypes callback (llvmlite's, while numba
    compiles or loads a kernel); a KeyboardInterrupt raised there would be printed and swallowed,
    an exit cannot be. Once the command has begun to deliver its results (an output file in place,
    a result printed) it is allowed to finish: the signal is ignored."""
    if not _output.claim_interrupt():
        return
    try:
        _end_interrupted()
    finally:
        os._exit(130)


def _end_interrupted():
    """What an interrupted command leaves: no worker processes, no half-written output, one line.
    Nothing is imported here: the SIGINT handler may run while the main thread is importing."""
    try:
        _interrupt.kill_children()  # worker processes, if any, end with the command
        _output.remove_temporary_files()
        _output.print_interrupt_report()  # a streaming command's last estimate
    finally:
        print("graphmine: interrupted", file=sys.stderr, flush=True)


def run():
    """The ``graphmine`` program (console script and ``python -m graphmine``).

    Runs :func:`main` on the command line, then exits the process with its status at once
    (no interpreter teardown); it never returns.

    Examples
    --------
    From a shell, ``graphmine count-cliques ca-GrQc -k 4``; from Python (this ends the
    process):

    >>> run()  # doctest: +SKIP
    """
    import signal

    _interrupt.exit_on_interrupt()  # on Ctrl-C the program exits at once, not after the kernel
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when started ignoring it
        signal.signal(signal.SIGINT, _exit_interrupted)
    if sys.stdout is not None:
        sys.stdout = _output.DeliveringStream(sys.stdout)
    try:
        status = main(program=True)
    except KeyboardInterrupt:  # during argument parsing or a component's import
        print("graphmine: interrupted", file=sys.stderr)
        status = 130
    except SystemExit as exc:  # argparse's --help, --version and usage errors
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    from ._runtime.startup import quick_exit

    quick_exit(status, cleanup=status != 130)


if __name__ == "__main__":
    run()
