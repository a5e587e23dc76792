"""Sampling kernels for the motif-prediction protocol.

Contract: graphmine CSR arrays; ``parent`` gives, per matching-order level, the level whose vertex
the new one is grown from; ``pairs`` are the motif edges as pairs of levels. The sampler is serial
and draws from its own splitmix64 stream (state passed explicitly, never numba's global
generator), so its output depends on ``seed`` only and the caller's ``np.random`` state inside
numba is left alone. Never validates.
"""

import numpy as np
from numba import njit

from ._enum_kernels import _has_edge

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def _splitmix64(state):
    """One step of splitmix64 (Steele, Lea and Flood 2014): (next state, 64 random bits)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _local_tuples(indptr, indices, parent, pairs, target, n_wanted, max_attempts, seed):
    """Tuples grown by 1- or 2-hop random steps from a parent vertex whose number of present
    motif edges equals ``target``; rows in level order, at most ``n_wanted``."""
    state = np.uint64(seed)
    n = indptr.shape[0] - 1
    k = parent.shape[0]
    out = np.empty((n_wanted, k), np.int64)
    got = 0
    x = np.empty(k, np.int64)
    for _ in range(max_attempts):
        if got >= n_wanted:
            break
        # an integer uniform in 0..m-1 is z % m (modulo bias < m / 2^64); a fair coin is z's top bit
        state, z = _splitmix64(state)
        x[0] = np.int64(z % np.uint64(n))
        ok = True
        for i in range(1, k):
            p = x[parent[i]]
            d = indptr[p + 1] - indptr[p]
            if d == 0:
                ok = False
                break
            state, z = _splitmix64(state)
            w = indices[indptr[p] + np.int64(z % np.uint64(d))]
            state, z = _splitmix64(state)
            if (z >> np.uint64(63)) == np.uint64(1):  # two hops
                d2 = indptr[w + 1] - indptr[w]
                state, z = _splitmix64(state)
                w = indices[indptr[w] + np.int64(z % np.uint64(d2))]
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
        for j in range(k):  # a row assignment would compile numba's shape-mismatch raise (seconds)
            out[got, j] = x[j]
        got += 1
    return out[:got]
