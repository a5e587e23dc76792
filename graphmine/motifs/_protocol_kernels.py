"""Sampling kernels for the motif-prediction protocol.

Contract: graphmine CSR arrays; ``parent`` gives, per matching-order level, the level whose vertex
the new one is grown from; ``pairs`` are the motif edges as pairs of levels. The sampler is serial
and seeds numba's generator itself, so its output depends on ``seed`` only. Never validates.
"""

import numpy as np
from numba import njit

from ._enum_kernels import _has_edge


@njit(cache=True)
def _local_tuples(indptr, indices, parent, pairs, target, n_wanted, max_attempts, seed):
    """Tuples grown by 1- or 2-hop random steps from a parent vertex whose number of present
    motif edges equals ``target``; rows in level order, at most ``n_wanted``."""
    np.random.seed(seed)
    n = indptr.shape[0] - 1
    k = parent.shape[0]
    out = np.empty((n_wanted, k), np.int64)
    got = 0
    x = np.empty(k, np.int64)
    for _ in range(max_attempts):
        if got >= n_wanted:
            break
        x[0] = np.random.randint(0, n)
        ok = True
        for i in range(1, k):
            p = x[parent[i]]
            d = indptr[p + 1] - indptr[p]
            if d == 0:
                ok = False
                break
            w = indices[indptr[p] + np.random.randint(0, d)]
            if np.random.random() < 0.5:
                d2 = indptr[w + 1] - indptr[w]
                w = indices[indptr[w] + np.random.randint(0, d2)]
            for j in range(i):
                if x[j] == w:
                    ok = False
            if not ok:
                break
            x[i] = w
        if not ok:
            continue
        c = 0
        for e in range(pairs.shape[0]):
            if _has_edge(indptr, indices, x[pairs[e, 0]], x[pairs[e, 1]]):
                c += 1
        if c != target:
            continue
        out[got] = x
        got += 1
    return out[:got]
