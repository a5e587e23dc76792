"""PageRank: graphmine against igraph and networkx, in one process, on one machine.

igraph's ``Graph.pagerank`` (PRPACK) solves to near machine precision and takes no tolerance,
so the comparison is at equal accuracy: every result is measured against a reference solved to
``1e-14`` in L1 norm (graphmine's power iteration, ``solver='power'``: another method than the
default's), and graphmine runs at its default ``tol=1e-10`` and at a ``tol`` equal to igraph's
measured L1 error (graphmine's ``tol`` bounds its L1 error, so that run is at least as accurate
as igraph's). networkx's ``pagerank`` runs at its default tolerance (``tol=1e-6``: it stops once
an iteration changes the ranks by less than ``n * tol``), against graphmine at the tolerance the
networkx backend passes for it (``tol=n * 1e-6``); graphs above ``--nx-max-edges`` edges skip
networkx (building its graph alone takes minutes there).

Each line: best wall time of ``--repeat`` alternating rounds (after a warm-up round), the ratio
graphmine / other (below 1: graphmine is faster), and the largest difference of single values
and the L1 error against the reference. The machine's load average is printed beside each graph.
Nothing here asserts on time.

    pip install python-igraph networkx      # igraph is in the `bench` extra
    python benchmarks/pagerank.py [--graphs facebook_combined,PATH/ca-HepPh.txt,PATH/email-Enron.txt,kron18]
                                  [--threads 2] [--repeat 7] [--alpha 0.85]
"""

import argparse
import os
import time

import numpy as np

import graphmine as gm


def load_graph(spec):
    """A shipped data set by name, an edge-list file by path, or kronN."""
    if os.path.exists(spec):
        return os.path.splitext(os.path.basename(spec))[0], gm.read_graph(spec)
    if spec.startswith("kron") and spec[4:].isdigit():
        return f"Kronecker {spec[4:]}", gm.generators.kronecker_graph(int(spec[4:]), seed=1)
    return spec, gm.datasets.load(spec)


def rounds(calls, repeat):
    """{name: best seconds} over ``repeat`` alternating rounds after a warm-up, and the values."""
    best = {name: float("inf") for name in calls}
    values = {}
    for r in range(repeat + 1):
        for name, fn in calls.items():
            t0 = time.perf_counter()
            values[name] = np.asarray(fn(), dtype=np.float64)
            if r:
                best[name] = min(best[name], time.perf_counter() - t0)
    return best, values


def load():
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", default="facebook_combined,/work/data/snap/ca-HepPh.txt,"
                                        "/work/data/snap/email-Enron.txt,kron18",
                    help="comma-separated graphs: shipped names, edge-list paths or kronN "
                         "(paths that do not exist are skipped with a note)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--alpha", type=float, default=0.85)
    ap.add_argument("--nx-max-edges", type=int, default=500_000)
    args = ap.parse_args(argv)

    import igraph as ig
    import networkx as nx

    th, alpha = args.threads, args.alpha
    print(f"graphmine on {th} threads, alpha {alpha}; best of {args.repeat} alternating rounds; igraph "
          f"{ig.__version__}, networkx {nx.__version__}; ratio = graphmine / other")
    for spec in args.graphs.split(","):
        if "/" in spec and not os.path.exists(spec):
            print(f"(skipped {spec}: no such file)")
            continue
        name, G = load_graph(spec)
        n = G.n_nodes
        e = G.edges()
        Hi = ig.Graph(n=n, edges=e.tolist())
        Hx = None
        if G.n_edges <= args.nx_max_edges:
            Hx = nx.Graph()
            Hx.add_nodes_from(range(n))
            Hx.add_edges_from(e.tolist())
        before = load()
        try:
            ref = gm.pagerank(G, alpha, tol=1e-14, max_iter=100_000, solver="power", threads=th)
        except TypeError:  # a graphmine before solver= (its only solver was the power iteration)
            ref = gm.pagerank(G, alpha, tol=1e-14, max_iter=100_000, threads=th)
        p_ig = np.asarray(Hi.pagerank(damping=alpha))
        ig_err = float(np.abs(p_ig - ref).sum())
        tol_ig = max(ig_err, 1e-15)
        calls = {
            "igraph PRPACK": lambda: Hi.pagerank(damping=alpha),
            "graphmine tol=1e-10": lambda: gm.pagerank(G, alpha, threads=th),
            f"graphmine tol={tol_ig:.1e}": lambda: gm.pagerank(G, alpha, tol=tol_ig, max_iter=1000, threads=th),
        }
        if Hx is not None:
            calls["networkx tol=1e-6"] = lambda: [v for _, v in sorted(nx.pagerank(Hx, alpha).items())]
            calls["graphmine tol=n*1e-6"] = lambda: gm.pagerank(G, alpha, tol=n * 1e-6, threads=th)
        best, values = rounds(calls, args.repeat)
        print(f"\n{name}: {n:,} vertices, {G.n_edges:,} edges; load average {before} -> {load()}")
        print(f"  {'':28} {'ms':>9} {'ratio':>7} {'max |diff| to other':>20} {'L1 error':>10}")
        pairs = [("igraph PRPACK", "graphmine tol=1e-10"), ("igraph PRPACK", f"graphmine tol={tol_ig:.1e}")]
        if Hx is not None:
            pairs.append(("networkx tol=1e-6", "graphmine tol=n*1e-6"))
        shown = set()
        for other, mine in pairs:
            if other not in shown:
                shown.add(other)
                err = float(np.abs(values[other] - ref).sum())
                print(f"  {other:28} {1e3 * best[other]:9.2f} {'':7} {'':20} {err:10.1e}")
            diff = float(np.abs(values[mine] - values[other]).max())
            err = float(np.abs(values[mine] - ref).sum())
            print(f"  {mine:28} {1e3 * best[mine]:9.2f} {best[mine] / best[other]:7.2f} {diff:20.1e} {err:10.1e}")


if __name__ == "__main__":
    main()
