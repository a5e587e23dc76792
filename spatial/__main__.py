"""Command line: ``python -m spatial report [--algorithms ...] [--sizes ...] [--json]
[--plot FILE.png] [--seed S]``."""

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
    return p


def main(argv=None):
    """Run the command line; returns the exit status (0 ok, 1 out of bounds, 2 bad input)."""
    args = _parser().parse_args(argv)
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
