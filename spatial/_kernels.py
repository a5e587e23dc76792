"""Numba kernels of the message accounting. They take raw arrays, never validate, never raise."""

import numpy as np
from numba import njit

__all__ = ["account_round", "account_chain", "first_duplicate"]


@njit(cache=True)
def account_round(src, dst, xs, ys, depth, dist, sent, recv, scratch, esent, words):
    """Account one round of simultaneous messages; return (energy, messages, contention).

    ``contention`` is the largest number of messages one processor sends or receives in this
    round; ``scratch`` (zeros, one slot per processor) counts them and is zeroed again.

    All messages of a round read the senders' state from before the round (a processor cannot
    forward, in the same round, what it is only now receiving), so the new depths are computed
    in a first pass and applied in a second. Messages with ``src == dst`` are local and free.
    ``esent[s]`` gains ``words`` x length for every message ``s`` sends.
    """
    k = src.shape[0]
    mdepth = np.empty(k, np.int64)
    mdist = np.empty(k, np.int64)
    energy = 0
    count = 0
    for t in range(k):
        s = src[t]
        d = dst[t]
        if s == d:
            mdepth[t] = -1
            continue
        length = abs(xs[s] - xs[d]) + abs(ys[s] - ys[d])
        energy += length
        count += 1
        esent[s] += words * length
        mdepth[t] = depth[s] + 1
        mdist[t] = dist[s] + length
    for t in range(k):
        if mdepth[t] < 0:
            continue
        s = src[t]
        d = dst[t]
        if mdepth[t] > depth[d]:
            depth[d] = mdepth[t]
        if mdist[t] > dist[d]:
            dist[d] = mdist[t]
        sent[s] += 1
        recv[d] += 1
    # Per-round counts: sends in the low 32 bits of scratch, receives in the high bits.
    most = 0
    for t in range(k):
        if mdepth[t] < 0:
            continue
        scratch[src[t]] += 1
        scratch[dst[t]] += 1 << 32
    for t in range(k):
        if mdepth[t] < 0:
            continue
        for q in (src[t], dst[t]):
            c = scratch[q]
            a = c & 0xFFFFFFFF
            b = c >> 32
            if a > most:
                most = a
            if b > most:
                most = b
    for t in range(k):
        scratch[src[t]] = 0
        scratch[dst[t]] = 0
    return energy, count, most


@njit(cache=True)
def account_chain(path, xs, ys, depth, dist, sent, recv, esent):
    """Account messages ``path[0] -> path[1] -> ...``, each depending on the one before.

    Returns (energy, messages). Equivalent to ``len(path) - 1`` rounds of one message each.
    """
    energy = 0
    count = 0
    for t in range(path.shape[0] - 1):
        s = path[t]
        d = path[t + 1]
        if s == d:
            continue
        length = abs(xs[s] - xs[d]) + abs(ys[s] - ys[d])
        energy += length
        count += 1
        esent[s] += length
        md = depth[s] + 1
        mdist = dist[s] + length
        if md > depth[d]:
            depth[d] = md
        if mdist > dist[d]:
            dist[d] = mdist
        sent[s] += 1
        recv[d] += 1
    return energy, count


@njit(cache=True)
def first_duplicate(ids, scratch):
    """Index of the first entry of ``ids`` that repeats an earlier one, or -1.

    ``scratch`` (zeros, one slot per processor) marks the ids seen and is zeroed again.
    """
    found = -1
    for t in range(ids.shape[0]):
        q = ids[t]
        if scratch[q] != 0:
            found = t
            break
        scratch[q] = 1
    for t in range(ids.shape[0]):
        scratch[ids[t]] = 0
    return found
