"""Recompute the reference counts of the shipped graphs with networkx alone (no graphmine code).

These are the oracles of tests/cliques/test_counting.py and datasets/README.md:

    python benchmarks/reference_counts.py [--graphs USAir,NS] [--max-k 5]

Triangles: ``sum(nx.triangles(G).values()) // 3``; average clustering: ``nx.average_clustering``
over the vertices with an edge; k-cliques (k = 4, 5): every clique of size k contains C(k, 2)
edges, and the other k - 2 vertices of a clique containing edge (u, v) form a (k-2)-clique in the
common neighbourhood of u and v, so the count is the sum over edges of the (k-2)-cliques of
``G[N(u) & N(v)]`` (edges for k = 4, ``nx.triangles`` for k = 5) divided by C(k, 2). Files are
parsed with plain Python: ``#``/``%`` comments, whitespace or comma separators, first two columns.
"""

import argparse
import os
import time

import networkx as nx

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "datasets")
NAMES = ["ca-GrQc", "ca-HepTh", "facebook_combined", "USAir", "NS", "PB", "Yeast", "Celegans", "Power",
         "Router"]


def read(name):
    G = nx.Graph()
    with open(os.path.join(DATA, name + ".txt")) as fh:
        for line in fh:
            s = line.strip()
            if not s or s[0] in "#%":
                continue
            u, v = s.replace(",", " ").split()[:2]
            if u != v:
                G.add_edge(int(u), int(v))
    return G


def cliques_by_edges(G, k):
    total = 0
    for u, v in G.edges():
        common = set(G[u]) & set(G[v])
        if len(common) < k - 2:
            continue
        H = G.subgraph(common)
        total += H.number_of_edges() if k == 4 else sum(nx.triangles(H).values()) // 3
    return total // (k * (k - 1) // 2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", default=",".join(NAMES))
    ap.add_argument("--max-k", type=int, default=5)
    args = ap.parse_args()
    print("| graph | nodes with an edge | edges | triangles | avg. clustering | 4-cliques | 5-cliques | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.graphs.split(","):
        t0 = time.perf_counter()
        G = read(name)
        tri = sum(nx.triangles(G).values()) // 3
        avg = nx.average_clustering(G)
        c = [cliques_by_edges(G, k) if k <= args.max_k else None for k in (4, 5)]
        print(f"| {name} | {G.number_of_nodes():,} | {G.number_of_edges():,} | {tri:,} | {avg:.4f} | "
              + " | ".join("-" if x is None else f"{x:,}" for x in c) + f" | {time.perf_counter() - t0:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
