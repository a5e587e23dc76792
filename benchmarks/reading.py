"""Reading speed: text edge list -> CSR graph, in GB/s of text, for several thread counts.

Writes Kronecker edge lists (Graph500 parameters, both directions of every edge, sorted by
source, like a symmetrised SNAP / GAPBS file) and times ``graphmine.read_graph`` on them
(reading, parsing, renumbering and the CSR build), with the split between ``read_edges`` and
the rest. The files go to a temporary folder removed at the end (also after Ctrl-C or an
error); with --dir they are kept there and reused by later runs.

    python benchmarks/reading.py [--scales 18,20] [--threads 1,2] [--repeat 3] [--dir DIR]

Nothing here asserts on time.
"""

import argparse
import os
import shutil
import tempfile
import time

import numpy as np
import numba
from numba import njit, prange

import graphmine as gm


@njit(cache=True)
def _ndigits(x):
    d = 1
    while x >= 10:
        x //= 10
        d += 1
    return d


@njit(cache=True, parallel=True)
def _format_edges(u, v):
    """The bytes of ``u<TAB>v\n`` lines (non-negative ids), formatted in parallel."""
    m = u.shape[0]
    length = np.empty(m + 1, np.int64)
    length[0] = 0
    for i in prange(m):
        length[i + 1] = _ndigits(u[i]) + _ndigits(v[i]) + 2
    offset = np.cumsum(length)
    out = np.empty(offset[m], np.uint8)
    for i in prange(m):
        p = offset[i]
        for x, end in ((u[i], 9), (v[i], 10)):
            d = _ndigits(x)
            for k in range(d - 1, -1, -1):
                out[p + k] = 48 + x % 10
                x //= 10
            out[p + d] = end
            p += d + 1
    return out


def write_kronecker(path, scale, edge_factor, seed=1):
    G = gm.generators.kronecker_graph(scale, edge_factor, seed=seed)
    # row u of the CSR lists u's neighbours in increasing order: both directions, sorted
    src = np.repeat(np.arange(G.n_nodes, dtype=np.int64), np.diff(G.indptr))
    dst = G.indices.astype(np.int64)
    step = 1 << 24
    with open(path, "wb") as fh:
        for a in range(0, src.shape[0], step):
            fh.write(_format_edges(src[a:a + step], dst[a:a + step]))
    return G


def best(fn, repeat):
    t, value = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        t = min(t, time.perf_counter() - t0)
    return t, value


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="18,20")
    ap.add_argument("--edge-factor", type=int, default=16)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many (1 run on 1 thread)")
    ap.add_argument("--edges", action="store_true", help="also time read_edges (parsing alone)")
    ap.add_argument("--dir", default=None,
                    help="keep the generated files in DIR and reuse them (default: a temporary folder, "
                         "removed at the end)")
    args = ap.parse_args()
    try:
        threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        ap.error(f"--threads: expected comma-separated integers, got {args.threads!r}")
    most = numba.config.NUMBA_NUM_THREADS
    for t in threads:
        if not 1 <= t <= most:
            ap.error(f"--threads {t}: numba runs 1..{most} threads here ({os.cpu_count()} cores; set "
                     f"NUMBA_NUM_THREADS before the run to allow more)")
    folder = args.dir if args.dir is not None else tempfile.mkdtemp(prefix="graphmine-reading-")
    try:
        run(args, threads, folder)
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)


def run(args, threads, folder):
    print(f"graphmine {gm.__version__}; read_graph best of {args.repeat}; GB/s = file bytes / seconds")
    print(f"{'scale':>5s} {'MB':>7s} {'edges':>12s} {'threads':>7s} {'read_edges s':>12s} "
          f"{'read_graph s':>12s} {'GB/s':>6s}")
    for s in (int(x) for x in args.scales.split(",")):
        path = os.path.join(folder, f"graphmine-kron{s}-ef{args.edge_factor}.el")
        if not os.path.exists(path):
            t0 = time.perf_counter()
            try:
                write_kronecker(path + ".part", s, args.edge_factor)
                os.replace(path + ".part", path)
            except BaseException:  # a full disk, Ctrl-C: no half-written file stays behind
                if os.path.exists(path + ".part"):
                    os.remove(path + ".part")
                raise
            print(f"(wrote {path} in {time.perf_counter() - t0:.1f} s)", flush=True)
        size = os.path.getsize(path)
        gm.read_graph(path, threads=max(threads))  # numba's cache loaded, the file in the page cache
        seconds = {}
        for t in threads:
            rep = 1 if t == 1 else args.repeat
            t_edges = best(lambda: gm.read_edges(path, threads=t), rep)[0] if args.edges else float("nan")
            seconds[t], G = best(lambda: gm.read_graph(path, threads=t), rep)
            print(f"{s:5d} {size / 1e6:7.0f} {G.n_edges:12,d} {t:7d} {t_edges:12.3f} {seconds[t]:12.3f} "
                  f"{size / seconds[t] / 1e9:6.2f}", flush=True)
            del G
        low = min(seconds)
        print(f"      read_graph speed-up over {low} thread(s): "
              + ", ".join(f"{t} threads {seconds[low] / seconds[t]:.2f}x" for t in sorted(seconds) if t != low))


if __name__ == "__main__":
    main()
