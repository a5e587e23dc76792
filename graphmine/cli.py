"""The ``graphmine`` command line.

``graphmine count-cliques FILE [-k K] [--method M] [--threads N] [--json]``,
``graphmine triangles FILE [--out F]`` and ``graphmine info FILE [--json]``; components add their
own subcommands (see ``_EXTENSIONS``).
Every error a user can cause prints one line ``graphmine: error: ...`` and exits with status 2.
"""

import argparse
import importlib
import json
import sys
import time

from .exceptions import GraphmineError

__all__ = ["main", "build_parser"]

# modules exposing register(subparsers); each subparser sets func=handler(args) -> exit code
_EXTENSIONS = ["graphmine.probgraph_cli", "graphmine.motifs_cli", "graphmine.science4cast.cli"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # argparse's own usage errors: one line, status 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _int_at_least(lo, what):
    """argparse type: an integer >= ``lo``; ``what`` names it in messages ('a positive integer')."""
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if v < lo:
            raise argparse.ArgumentTypeError(f"expected {what}, got {v}")
        return v
    return parse


# argparse types shared by every subcommand
positive_int = _int_at_least(1, "a positive integer")
non_negative_int = _int_at_least(0, "a non-negative integer")
clique_size = _int_at_least(3, "an integer >= 3 (3 = triangles)")


def budget_fraction(text):
    """argparse type of --budget: a fraction of the CSR size in (0, 1]."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1], got {text!r}") from None
    if not 0 < v <= 1:
        raise argparse.ArgumentTypeError(f"expected a fraction of the graph's size in (0, 1], got {text}")
    return v


def add_input_argument(p):
    """The FILE argument and the options shared by the subcommands that read a graph."""
    p.add_argument("file", metavar="FILE",
                   help="edge list (.txt/.el/.tsv/.csv; gzip/bzip2/xz recognised by content), Matrix Market "
                        ".mtx, '-' for an edge list on standard input, or the name of a shipped data set "
                        "(e.g. ca-GrQc)")
    p.add_argument("--skip-header", action="store_true",
                   help="skip the first non-comment line (a header such as 'source,target' is detected "
                        "without this)")
    p.add_argument("--threads", type=positive_int, default=None, help="threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars or notes on stderr")


def show_progress(args):
    """Whether to draw progress bars: stderr is a terminal and --quiet was not given."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty()


def _kernels_cached():
    """Whether numba has compiled graphmine's kernels before (its cache index files exist)."""
    import glob
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    if os.environ.get("NUMBA_CACHE_DIR"):  # numba then caches there only
        places = [os.path.join(os.environ["NUMBA_CACHE_DIR"], "**")]
    else:  # beside the sources, or a per-user folder where those are read-only
        places = [os.path.join(here, "__pycache__"), os.path.join(os.path.expanduser("~"), ".cache", "numba", "**")]
    return any(glob.glob(os.path.join(p, "_clique_kernels.*.nbi"), recursive=True) for p in places)


def note_first_compile(args):
    """Say once on stderr that the first run compiles (numba caches the kernels afterwards)."""
    if not getattr(args, "quiet", False) and not _kernels_cached():
        print("graphmine: compiling kernels (first run only; later runs load them from the cache)",
              file=sys.stderr, flush=True)


def load_input(args):
    """Read the graph named by ``args.file``; return (graph, seconds spent loading)."""
    import os

    from . import datasets
    from .io import read_graph

    path = datasets.resolve(args.file)
    note_first_compile(args)
    t0 = time.perf_counter()
    G = read_graph(path, threads=args.threads, header=True if getattr(args, "skip_header", False) else None)
    return G, time.perf_counter() - t0


def _cmd_count_cliques(args):
    if getattr(args, "scheduler", None) is not None:  # distributed run (graphmine[dask])
        from .distributed.cli import count_cliques_command
        return count_cliques_command(args)
    from .dispatch import count_cliques

    G, load_s = load_input(args)
    kwargs = {}
    if args.method != "exact":
        kwargs = {"budget": args.budget, "seed": args.seed}
    elif args.budget is not None or args.seed is not None:
        raise _param_error("--budget and --seed apply to the approximate methods only")
    if args.method == "exact" and args.k >= 4 and show_progress(args):
        kwargs["progress"] = True
    t0 = time.perf_counter()
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


def _default_budget():
    from .probgraph.sketches import DEFAULT_BUDGET

    return DEFAULT_BUDGET


def _cmd_triangles(args):
    from ._output import check_output_path
    from .dispatch import triangles
    from .io import write_vertex_table

    if args.out is not None:
        check_output_path(args.out, args.force)
    G, load_s = load_input(args)
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


def _param_error(message):
    from .exceptions import ParameterError

    return ParameterError(message)


def _cmd_info(args):
    G, load_s = load_input(args)
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
        "min_id": int(G.node_ids.min()) if G.n_nodes else None,
        "max_id": int(G.node_ids.max()) if G.n_nodes else None,
        "index_dtype": str(G.indices.dtype),
        "load_seconds": load_s,
    }
    if args.json:
        print(json.dumps(info))
    else:
        print(f"{args.file}")
        print(f"  vertices          {info['nodes']:,} (ids {info['min_id']}..{info['max_id']} renumbered 0..n-1; "
              f"{info['isolated']:,} isolated)")
        print(f"  edges             {info['edges']:,} undirected (from {info['input_edges']:,} lines)")
        print(f"  self-loops        {info['self_loops']:,} dropped")
        print(f"  duplicates        {info['duplicates']:,} merged (repeated or reversed edges)")
        print(f"  degree            max {info['max_degree']:,}, mean {info['average_degree']:.2f}")
        print(f"  loaded in         {load_s:.3f} s")
    return 0


def build_parser():
    p = _Parser(prog="graphmine", description="Graph mining on a CSR core: exact and approximate "
                "clique counting, clustering, motif and link prediction.")
    from . import __version__

    p.add_argument("--version", action="version", version=f"graphmine {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
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
    i.set_defaults(func=_cmd_info)

    for name in _EXTENSIONS:
        importlib.import_module(name).register(sub)
    return p


def main(argv=None):
    """Entry point of the ``graphmine`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except GraphmineError as exc:
        print(f"graphmine: error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        # an optional dependency imported without graphmine._optional.require: still one line
        from ._optional import EXTRAS, missing_message

        if (exc.name or "").split(".")[0] not in EXTRAS:
            raise
        print(f"graphmine: error: {missing_message(exc.name, args.command)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("graphmine: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
