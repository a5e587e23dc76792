"""``graphmine count-motifs``: the graphlet census of a graph file.

    graphmine count-motifs FILE [--size 3|4|5] [--orbits node|edge --out F [--force]]
                           [--method exact|sample [--sampler vertices|trees] [--samples N] [--seed S]]
                           [--json]

Prints the count of every connected graphlet on up to ``--size`` vertices (exact, or estimated
from sampled 3-paths with standard errors and 95% intervals); with ``--out``, writes the orbit
counts of every vertex (``vertex<TAB>orbit0...``) or edge (``u<TAB>v<TAB>orbit0...``) under the
file's vertex ids. ``--size 5`` gives node orbits (73 per vertex) only; its estimate draws
copies of the three spanning trees of 5 vertices (scales to graphs of millions of edges), or
with ``--sampler vertices`` draws vertices and counts their orbits exactly.
"""

import json
import time

import numpy as np

from .. import commands
from .._runtime.docs import fill_doc
from .._runtime.output import atomic_write, check_output_path
from ..commands import add_input_argument, non_negative_int, positive_int
from ..core.exceptions import ParameterError

__all__ = ["register", "COMMANDS"]

# the subcommands registered here, with their line in `graphmine --help`
COMMANDS = {"count-motifs": "counts of 3- to 5-vertex graphlets and their orbits"}

# edges of each graphlet G0..G8 in its first edge orbit (0 2-path, 1 triangle, 2 3-path end,
# 4 3-star, 5 4-cycle, 6 paw pendant, 9 diamond rim, 11 4-clique): global counts from edge orbits
_FIRST_EDGE_ORBIT = ((None, None), (0, 2), (1, 3), (2, 2), (4, 3), (5, 4), (6, 1), (9, 4), (11, 6))


def _write_edge_table(G, path, counts, force):
    """``u<TAB>v<TAB>orbit0...`` lines, one per edge of G.edges(), under the graph's node ids."""
    ids = np.asarray(G.node_ids)
    E = G.edges()
    with atomic_write(path, "w", force=force) as fh:
        fh.write("# u\tv\t" + "\t".join(f"orbit{o}" for o in range(counts.shape[1])) + "\n")
        step = 1 << 16  # lines formatted in blocks: bounded memory
        for a in range(0, E.shape[0], step):
            us = ids[E[a:a + step, 0]].tolist()
            vs = ids[E[a:a + step, 1]].tolist()
            rows = counts[a:a + step].tolist()
            fh.write("".join(f"{u}\t{v}\t" + "\t".join(map(str, r)) + "\n" for u, v, r in zip(us, vs, rows)))


def _global_from_edges(G, counts):
    out = [G.n_edges]
    for orbit, edges in _FIRST_EDGE_ORBIT[1:3 if counts.shape[1] == 2 else 9]:
        out.append(int(counts[:, orbit].sum()) // edges)
    return np.array(out, np.int64)


@fill_doc
def count_motifs_command(args):
    """Run ``graphmine count-motifs``.

    {cli_command_sections}

    Examples
    --------
    >>> from graphmine.commands import Parser
    >>> p = Parser(prog="graphmine")
    >>> register(p.add_subparsers(dest="command"))
    >>> count_motifs_command(p.parse_args(["count-motifs", "Celegans", "--size", "3", "--quiet"]))
    ... # doctest: +ELLIPSIS
    edge           2,148
    2-path        44,081
    triangle       3,241
    graph: 297 vertices, 2,148 edges; load ... s, count ... s (exact, induced)
    0
    """
    from . import GRAPHLET_NAMES, GRAPHLET_ORBITS, ORBIT_SIZES, graphlet_counts, orbit_counts
    from ._cpu import _non_induced

    sample = args.method == "sample"
    if not sample and (args.samples is not None or args.seed is not None):
        raise ParameterError("--samples and --seed apply to --method sample only")
    if args.sampler is not None and (not sample or args.size != 5):
        raise ParameterError("--sampler applies to --size 5 --method sample only")
    if args.orbits is not None and args.out is None:
        raise ParameterError("--orbits writes the counts of every vertex or edge: give --out FILE")
    kind = args.orbits or ("node" if args.out is not None else None)
    if kind is not None and sample:
        raise ParameterError("orbit counts (--orbits, --out) are exact only: leave out --method sample")
    if args.out is not None:
        check_output_path(args.out, args.force)
    G, load_s = commands.load_input(args)
    progress = commands.show_progress(args)
    t0 = time.perf_counter()
    est = None
    if sample:
        est = graphlet_counts(G, args.size, method="sample", samples=args.samples, seed=args.seed,
                              induced=not args.non_induced, threads=args.threads, sampler=args.sampler)
        counts = est.estimate
    elif kind is not None:
        orbits = orbit_counts(G, args.size, kind=kind, threads=args.threads, progress=progress)
        if kind == "node":
            from ..io.edgelist import write_vertex_table

            write_vertex_table(G, args.out, {f"orbit{o}": orbits[:, o] for o in range(orbits.shape[1])},
                               force=args.force)
            sums = orbits.sum(axis=0)
            graphlets = GRAPHLET_ORBITS[:{3: 3, 4: 9, 5: 30}[args.size]]
            counts = np.array([sums[o[0]] // ORBIT_SIZES[o[0]] for o in graphlets], np.int64)
        else:
            _write_edge_table(G, args.out, orbits, args.force)
            counts = _global_from_edges(G, orbits)
        if args.non_induced:
            counts = _non_induced(counts)
    else:
        counts = graphlet_counts(G, args.size, induced=not args.non_induced, threads=args.threads, progress=progress)
    seconds = time.perf_counter() - t0
    names = list(GRAPHLET_NAMES[:len(counts)])
    out = {"file": args.file, "size": args.size, "method": args.method, "induced": not args.non_induced,
           "graphlets": names, "counts": [float(c) if sample else int(c) for c in counts],
           "orbits": kind, "out": args.out, "seconds": seconds, "load_seconds": load_s,
           "nodes": G.n_nodes, "edges": G.n_edges,
           "sampler": (args.sampler or "trees") if sample and args.size == 5 else None}
    if est is not None:
        out.update({k: v for k, v in est.to_dict().items() if k in ("stderr", "ci_low", "ci_high", "confidence",
                                                                     "samples", "seed")})
    if args.json:
        print(json.dumps(out))
        return 0
    width = max(map(len, names))
    for g, name in enumerate(names):
        if est is not None and est.stderr[g] > 0:
            print(f"{name:<{width}s}  ~{counts[g]:,.0f} ± {est.stderr[g]:,.0f} "
                  f"({100 * est.confidence:g}% CI {est.ci_low[g]:,.0f} .. {est.ci_high[g]:,.0f})")
        else:
            print(f"{name:<{width}s}  {int(round(counts[g])):>{12 if est is not None else 10},d}")
    if args.out is not None:
        print(f"{kind} orbit counts written to {args.out}")
    what = "3-paths" if args.size != 5 else "spanning trees" if args.sampler != "vertices" else "vertices"
    how = (f"sample of {est.samples:,} {what}, seed {est.seed}" if est is not None else "exact")
    print(f"graph: {G.n_nodes:,} vertices, {G.n_edges:,} edges; load {load_s:.3f} s, count {seconds:.3f} s "
          f"({how}, {'induced' if not args.non_induced else 'non-induced'})")
    return 0


@fill_doc
def register(subparsers):
    """Add the ``count-motifs`` subcommand.

    {cli_register_sections}

    {cli_register_example}
    >>> p.parse_args(["count-motifs", "ca-GrQc", "--orbits", "edge", "--out", "e.tsv"]).orbits
    'edge'
    """
    c = subparsers.add_parser("count-motifs", help=COMMANDS["count-motifs"],
                              description="Count every connected graphlet on up to --size vertices (induced, "
                                          "Pržulj's and ORCA's numbering G0..G29), exactly or from sampled 3-paths; "
                                          "with --out, the orbit counts of every vertex or edge.")
    add_input_argument(c)
    c.add_argument("--size", type=int, choices=[3, 4, 5], default=4,
                   help="largest graphlets counted (default 4; 5: exact, node orbits only)")
    c.add_argument("--orbits", choices=["node", "edge"], default=None,
                   help="write per-vertex (15 orbits for --size 4, 73 for 5) or per-edge (12) orbit counts to --out")
    c.add_argument("--out", default=None,
                   help="file of orbit counts: 'vertex<TAB>orbit0...' or 'u<TAB>v<TAB>orbit0...' lines with the "
                        "file's vertex ids (default with --out alone: node orbits)")
    c.add_argument("--force", action="store_true", help="replace --out if it exists")
    c.add_argument("--non-induced", action="store_true",
                   help="count copies as subgraphs instead of induced subgraphs")
    c.add_argument("--method", choices=["exact", "sample"], default="exact",
                   help="exact census (default), or estimates of the 4-vertex graphlets from uniformly sampled "
                        "3-paths (of the 5-vertex ones from sampled spanning trees) with standard errors and 95%% "
                        "intervals")
    c.add_argument("--sampler", choices=["vertices", "trees"], default=None,
                   help="--size 5 --method sample: uniformly sampled copies of the 4-path, fork and 4-star "
                        "(default; unbiased, for graphs of any size), or the exact orbit counts of sampled vertices")
    c.add_argument("--samples", type=positive_int, default=None,
                   help="3-paths to sample (default 1,000,000), or spanning trees for --size 5 (default "
                        "1,000,000), or vertices with --sampler vertices (default 1,000)")
    c.add_argument("--seed", type=non_negative_int, default=None,
                   help="seed of the samples (default: drawn at random and printed, so the run can be repeated)")
    c.set_defaults(func=count_motifs_command)
