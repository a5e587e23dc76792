"""Reading speed: text edge list -> CSR graph, in GB/s of text, for several thread counts.

Writes Kronecker edge lists (Graph500 parameters, both directions of every edge, sorted by
source, like a symmetrised SNAP / GAPBS file) and times ``graphmine.read_graph`` on them
(reading, parsing, renumbering and the CSR build), with the split between ``read_edges`` and
the rest. Files are written once into --dir and reused.

    python benchmarks/reading.py [--scales 18,20] [--threads 1,2] [--repeat 3] [--dir /tmp]

Nothing here asserts on time.
"""

import argparse
import os
import time

import numpy as np

import graphmine as gm


def _digits(x, width):
    """(len(x), width) uint8 array of the decimal digits of x, zero-padded on the left."""
    out = np.empty((x.shape[0], width), np.uint8)
    y = x.copy()
    for j in range(width - 1, -1, -1):
        out[:, j] = y % 10 + 48
        y //= 10
    return out


def format_edges(u, v):
    """The bytes of ``u<TAB>v\\n`` lines, formatted with array operations (no per-line Python)."""
    width = max(1, len(str(int(max(u.max(initial=0), v.max(initial=0))))))
    nd_u = np.maximum(1, np.floor(np.log10(np.maximum(u, 1))).astype(np.int64) + 1)
    nd_v = np.maximum(1, np.floor(np.log10(np.maximum(v, 1))).astype(np.int64) + 1)
    cols = np.arange(width)
    text = np.empty((u.shape[0], 2 * width + 2), np.uint8)
    keep = np.empty(text.shape, np.bool_)
    text[:, :width] = _digits(u, width)
    keep[:, :width] = cols >= width - nd_u[:, None]
    text[:, width] = 9
    text[:, width + 1:2 * width + 1] = _digits(v, width)
    keep[:, width] = True
    keep[:, width + 1:2 * width + 1] = cols >= width - nd_v[:, None]
    text[:, -1] = 10
    keep[:, -1] = True
    return text[keep].tobytes()


def write_kronecker(path, scale, edge_factor, seed=1):
    G = gm.generators.kronecker_graph(scale, edge_factor, seed=seed)
    # row u of the CSR lists u's neighbours in increasing order: both directions, sorted
    src = np.repeat(np.arange(G.n_nodes, dtype=np.int64), np.diff(G.indptr))
    dst = G.indices.astype(np.int64)
    step = 1 << 22
    with open(path, "wb") as fh:
        for a in range(0, src.shape[0], step):
            fh.write(format_edges(src[a:a + step], dst[a:a + step]))
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
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default="/tmp")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    print(f"graphmine {gm.__version__}; read_graph best of {args.repeat}; GB/s = file bytes / seconds")
    print(f"{'scale':>5s} {'MB':>7s} {'edges':>12s} {'threads':>7s} {'read_edges s':>12s} "
          f"{'read_graph s':>12s} {'GB/s':>6s} {'speedup':>7s}")
    for s in (int(x) for x in args.scales.split(",")):
        path = os.path.join(args.dir, f"graphmine-kron{s}-ef{args.edge_factor}.el")
        if not os.path.exists(path):
            t0 = time.perf_counter()
            write_kronecker(path + ".part", s, args.edge_factor)
            os.replace(path + ".part", path)
            print(f"(wrote {path} in {time.perf_counter() - t0:.1f} s)", flush=True)
        size = os.path.getsize(path)
        gm.read_graph(path, threads=threads[0])  # numba's cache loaded, the file in the page cache
        base = None
        for t in threads:
            t_edges, _ = best(lambda: gm.read_edges(path, threads=t), args.repeat)
            t_graph, G = best(lambda: gm.read_graph(path, threads=t), args.repeat)
            base = base or t_graph
            print(f"{s:5d} {size / 1e6:7.0f} {G.n_edges:12,d} {t:7d} {t_edges:12.3f} {t_graph:12.3f} "
                  f"{size / t_graph / 1e9:6.2f} {base / t_graph:7.2f}", flush=True)


if __name__ == "__main__":
    main()
