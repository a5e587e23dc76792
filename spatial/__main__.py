"""Command line: ``python -m spatial report [--algorithms ...] [--sizes ...] [--json]
[--plot FILE.png] [--seed S]`` and ``python -m spatial trace ALGORITHM --n N
[--plot-traffic FILE.png] [--log FILE.csv] [--seed S]``."""

import argparse
import sys

from .exceptions import SpatialError

__all__ = ["main"]


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m spatial",
        description="Spatial Computer Model simulator: energy-depth reports.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="energy, depth, lower bounds and fitted exponents")
    r.add_argument("--algorithms", default=None,
                   help="comma-separated names (default: all): broadcast, broadcast_line, "
                        "reduce, reduce_line, scan, scan_chain, select, select_sort, sort, "
                        "sort_rowmajor, spmv, spmv_direct, matmul")
    r.add_argument("--sizes", default="2^8..2^16",
                   help="sizes n, e.g. 2^8..2^20 (powers of two between) or 256,1024 "
                        "(default 2^8..2^16)")
    r.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    r.add_argument("--json", action="store_true",
                   help='print one JSON object {"rows": [...], "fits": [...]}')
    r.add_argument("--plot", metavar="FILE.png", default=None, help="write log-log plots")
    r.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    t = sub.add_parser("trace", help="one run: traffic heat map, critical chain, message log")
    t.add_argument("algorithm", help="a report algorithm name (scan, select, sort, ...)")
    t.add_argument("--n", default="2^10", help="size, e.g. 4096 or 2^12 (default 2^10)")
    t.add_argument("--seed", type=int, default=0, help="seed of the random input")
    t.add_argument("--plot-traffic", metavar="FILE.png", default=None,
                   help="heat map of the energy each processor sent, with the critical chain")
    t.add_argument("--log", metavar="FILE.csv", default=None, help="export the message log")
    return p


def _trace(args):
    import numpy as np

    from .report import ALGORITHMS, parse_sizes
    from .trace import plot_traffic, recording, write_log
    if args.algorithm not in ALGORITHMS:
        print(f"error: unknown algorithm {args.algorithm!r}; choose from {sorted(ALGORITHMS)}",
              file=sys.stderr)
        return 2
    sizes = parse_sizes(args.n)
    if len(sizes) != 1:
        print("error: --n takes one size", file=sys.stderr)
        return 2
    with recording() as machines:
        res, correct, lower = ALGORITHMS[args.algorithm].run(sizes[0],
                                                             np.random.default_rng(args.seed))
    m = machines[-1]
    met = res.metrics
    chain = m.critical_chain()
    print(f"{args.algorithm} n={res.n}: energy={met.energy} words={met.words} depth={met.depth} "
          f"distance={met.distance} messages={met.messages} max_words={met.max_words} "
          f"lower_bound={lower} correct={'yes' if correct else 'NO'} "
          f"critical_chain={chain.size} messages")
    if args.log:
        count = write_log(m, args.log)
        print(f"[spatial] {count} messages written to {args.log}", file=sys.stderr)
    if args.plot_traffic:
        import matplotlib
        matplotlib.use("Agg")
        plot_traffic(m, args.plot_traffic, title=f"{args.algorithm}, n = {res.n}: energy "
                     f"{met.energy}, depth {met.depth}")
        print(f"[spatial] traffic written to {args.plot_traffic}", file=sys.stderr)
    return 0 if correct else 1


def main(argv=None):
    """Run the command line; returns the exit status (0 ok, 1 out of bounds, 2 bad input)."""
    args = _parser().parse_args(argv)
    if args.command == "trace":
        try:
            return _trace(args)
        except SpatialError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    from .report import run_report
    try:
        rep = run_report(args.algorithms, args.sizes, seed=args.seed, progress=not args.quiet)
    except SpatialError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(rep.to_json())
    else:
        print(rep.table())
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        rep.plot(args.plot)
        print(f"[spatial] plots written to {args.plot}", file=sys.stderr)
    return 0 if rep.all_within_bounds else 1


if __name__ == "__main__":
    sys.exit(main())
