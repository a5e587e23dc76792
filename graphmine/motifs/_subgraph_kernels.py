"""Enclosing-subgraph extraction for motif candidates (h-hop union around the k motif vertices).

Contract: graphmine CSR; ``tuples`` (N, k) distinct vertices; ``tmask[i, a, b]`` marks the motif
pairs (positions a, b) of sample i whose edge is masked out (the edges to predict). Local vertex
numbering puts the motif vertices first (positions 0..k-1), then hop-1 vertices, then hop-2 ones.
When a hop's frontier exceeds ``max_per_hop`` (>= 0), the vertices with the smallest hash of
(vertex, sample, seed) are kept, which makes the choice reproducible and independent of threads.
Every sample writes only its own output slots; scratch arrays are per thread and reset after each
sample. Never validates.
"""

import numpy as np
from numba import njit, prange


@njit(cache=True)
def _mix(x):
    x = (x ^ (x >> 31)) * 0x7FB5D329728EA185
    x = (x ^ (x >> 27)) * 0x81DADEF4BC2DD44D
    return x ^ (x >> 33)


@njit(cache=True)
def _masked(tmask, i, la, lb, k):
    return la < k and lb < k and tmask[i, la, lb]


@njit(cache=True)
def _one(indptr, indices, tuples, tmask, i, hops, max_per_hop, seed, dmax, pos, nodes, dist_scratch, queue,
         write, out_nodes, out_edges, out_dist, node_base, edge_base):
    """Collect sample i's subgraph; return (number of nodes, number of edges)."""
    k = tuples.shape[1]
    nn = 0
    for a in range(k):
        v = tuples[i, a]
        pos[v] = nn
        nodes[nn] = v
        nn += 1
    lo = 0
    for h in range(hops):
        hi = nn
        start = nn
        for j in range(lo, hi):
            u = nodes[j]
            for l in range(indptr[u], indptr[u + 1]):
                w = indices[l]
                if pos[w] < 0:
                    pos[w] = nn
                    nodes[nn] = w
                    nn += 1
        if max_per_hop >= 0 and nn - start > max_per_hop:
            cnt = nn - start
            keys = np.empty(cnt, np.int64)
            for j in range(cnt):
                keys[j] = _mix(nodes[start + j] * 1000003 + i * 7919 + seed)
            order = np.argsort(keys)
            keep = np.empty(max_per_hop, np.int64)
            for j in range(max_per_hop):
                keep[j] = nodes[start + order[j]]
            for j in range(start, nn):
                pos[nodes[j]] = -1
            keep.sort()
            for j in range(max_per_hop):
                nodes[start + j] = keep[j]
                pos[keep[j]] = start + j
            nn = start + max_per_hop
        lo = hi
    ne = 0
    for j in range(nn):
        u = nodes[j]
        for l in range(indptr[u], indptr[u + 1]):
            w = indices[l]
            lw = pos[w]
            if lw > j and not _masked(tmask, i, j, lw, k):
                if write:
                    out_edges[edge_base + ne, 0] = j
                    out_edges[edge_base + ne, 1] = lw
                ne += 1
    if write:
        for j in range(nn):
            out_nodes[node_base + j] = nodes[j]
        # distances inside the subgraph from every motif vertex (BFS, masked edges skipped)
        for a in range(k):
            for j in range(nn):
                dist_scratch[j] = dmax + 1
            dist_scratch[a] = 0
            queue[0] = a
            qh = 0
            qt = 1
            while qh < qt:
                j = queue[qh]
                qh += 1
                if dist_scratch[j] >= dmax:
                    continue
                u = nodes[j]
                for l in range(indptr[u], indptr[u + 1]):
                    lw = pos[indices[l]]
                    if lw >= 0 and dist_scratch[lw] > dist_scratch[j] + 1 and not _masked(tmask, i, j, lw, k):
                        dist_scratch[lw] = dist_scratch[j] + 1
                        queue[qt] = lw
                        qt += 1
            for j in range(nn):
                out_dist[node_base + j, a] = dist_scratch[j]
    for j in range(nn):
        pos[nodes[j]] = -1
    return nn, ne


@njit(cache=True, parallel=True)
def _enclosing(indptr, indices, tuples, tmask, hops, max_per_hop, seed, dmax, write, out_nodes, out_edges,
               out_dist, node_base, edge_base, n_nodes_out, n_edges_out, nthreads):
    n = indptr.shape[0] - 1
    N = tuples.shape[0]
    for t in prange(nthreads):
        pos = np.full(n, -1, np.int64)
        nodes = np.empty(n, np.int64)
        dist_scratch = np.empty(n, np.int64)
        queue = np.empty(n, np.int64)
        for i in range(t, N, nthreads):
            nn, ne = _one(indptr, indices, tuples, tmask, i, hops, max_per_hop, seed, dmax, pos, nodes,
                          dist_scratch, queue, write, out_nodes, out_edges, out_dist, node_base[i],
                          edge_base[i])
            n_nodes_out[i] = nn
            n_edges_out[i] = ne
