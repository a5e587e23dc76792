"""The functions the workers run: parse a shard, compact ids, shuffle, orient, build row blocks,
count. Each takes and returns plain numpy arrays (so results move between workers as buffers)
and works on one shard, one bucket or one block: nothing here ever holds the whole graph.

Vertex blocks are id ranges ``bounds[b] <= v < bounds[b + 1]`` of the compacted ids; "splitting
by block" is a stable counting split on ``searchsorted(bounds, v)``, vectorised in numpy.
"""


import numpy as np

from .._runtime.output import atomic_write
from .._runtime.threads import PARALLEL_KERNEL_LOCK
from ..core.exceptions import GraphFormatError, GraphValueError
from ..io.edgelist import read_edges
from . import _block_kernels as _bk

_EMPTY = np.empty((0, 2), np.int64)

# graphmine's parser is a parallel numba kernel: threaded workers hold this lock while it runs
_PARALLEL = PARALLEL_KERNEL_LOCK


def _unique(x, return_counts=False):
    """Sorted distinct values of x (and their multiplicities): a sort and a mask, several times
    faster than np.unique on large int64 arrays."""
    y = np.sort(x, axis=None)
    if y.shape[0] == 0:
        return (y, np.empty(0, np.int64)) if return_counts else y
    first = np.empty(y.shape[0], np.bool_)
    first[0] = True
    np.not_equal(y[1:], y[:-1], out=first[1:])
    if not return_counts:
        return y[first]
    starts = np.flatnonzero(first)
    return y[starts], np.diff(np.append(starts, y.shape[0]))


# -- input ------------------------------------------------------------------------------------

def parse_shard(path):
    """The (m, 2) int64 edges of one edge-list shard, parsed by graphmine's reader.

    An empty shard (no bytes, or only comments and blank lines) gives no edges; every other
    problem is the reader's GraphFormatError naming the shard and the line.
    """
    try:
        with _PARALLEL:
            return read_edges(path, threads=1).edges
    except GraphFormatError as exc:
        # the reader refuses files without edges (a shard of a partitioned graph may be one); it
        # has no flag or code for that case, so its two messages are matched
        if exc.line is None and str(exc).endswith(("the file is empty",
                                                    "contains no edge lines (only comments or blank lines)")):
            return _EMPTY
        raise


def frame_edges(frame, index):
    """The (m, 2) int64 edges of one partition of a dask DataFrame (its first two columns)."""
    if frame.shape[1] < 2:
        raise GraphValueError(f"edge frame partition {index}: needs two columns (source, target), "
                              f"has {frame.shape[1]}")
    from pandas.api.types import is_integer_dtype

    out = np.empty((frame.shape[0], 2), np.int64)
    for c in range(2):
        col = frame.iloc[:, c]
        name = frame.columns[c]
        if not is_integer_dtype(col.dtype):
            raise GraphValueError(f"edge frame partition {index}: column {name!r} must hold integer vertex "
                                  f"ids, has dtype {col.dtype}")
        if col.isna().any():
            row = int(np.argmax(col.isna().to_numpy()))
            raise GraphValueError(f"edge frame partition {index}, row {row}: missing vertex id in column {name!r}")
        vals = col.to_numpy(dtype=np.int64)
        if vals.size and vals.min() < 0:
            row = int(np.argmax(vals < 0))
            raise GraphValueError(f"edge frame partition {index}, row {row}: vertex ids must be non-negative, "
                                  f"found {int(vals[row])} in column {name!r}")
        out[:, c] = vals
    return out


def shard_ids(edges):
    """The shard's distinct ids, sorted (kept on the worker for the compaction)."""
    if edges.shape[0] == 0:
        return np.empty(0, np.int64)
    lo, hi = int(edges.min()), int(edges.max())
    if hi - lo < max(4 * edges.size, 1 << 20):
        # dense enough: a bitmap of the ids present instead of a sort
        present = np.zeros(hi - lo + 1, np.bool_)
        present[edges.reshape(-1) - lo] = True
        return np.flatnonzero(present) + lo
    return _unique(edges)


def shard_summary(edges, ids, nsample):
    """(edge lines, up to ``nsample`` evenly spaced ids of the shard's sorted distinct ids): what
    the client needs to choose the splitters of the id buckets."""
    take = np.linspace(0, ids.shape[0] - 1, min(nsample, ids.shape[0])).astype(np.int64)
    return edges.shape[0], ids[take]


# -- global compaction of the ids -------------------------------------------------------------

def split_ids(ids, splitters):
    """The shard's distinct ids, cut into len(splitters) + 1 sorted buckets."""
    return tuple(np.split(ids, np.searchsorted(ids, splitters)))


def bucket_union(*parts):
    """Distinct ids of one bucket over all shards (sorted)."""
    return _unique(np.concatenate(parts)) if parts else np.empty(0, np.int64)


def bucket_lookup(union, offset, part):
    """New (global, compacted) ids of a shard's ids ``part`` of this bucket."""
    return np.searchsorted(union, part).astype(np.int64) + offset


def relabel_split(edges, ids, new_parts, bounds):
    """Rename a shard's edges (distinct ids ``ids``) into compacted ids and split them as
    :func:`canonical_split`."""
    if edges.shape[0] == 0:
        return canonical_split(_EMPTY, bounds)
    new = np.concatenate(new_parts)
    lo, hi = int(ids[0]), int(ids[-1])
    if hi - lo < max(4 * ids.shape[0], 1 << 20):
        # ids dense enough: one table lookup per endpoint instead of a binary search
        table = np.zeros(hi - lo + 1, np.int64)
        table[ids - lo] = new
        return canonical_split(table[edges - lo], bounds)
    return canonical_split(new[np.searchsorted(ids, edges)], bounds)


def canonical_split(edges, bounds):
    """Drop self-loops, write every edge as (min, max) and split by the block of the min.

    Returns (self-loops, part for block 0, ..., part for block P - 1), parts (m_b, 2) int64.
    """
    e = np.ascontiguousarray(edges, np.int64)
    out, starts, loops = _bk._split_pairs(e[:, 0].copy(), e[:, 1].copy(), bounds, True)
    return (int(loops),) + tuple(np.split(out, starts[1:-1]))


def _split_by_block(src, dst, bounds):
    """(src, dst) pairs split by the block of src: a tuple of (m_b, 2) int64 arrays."""
    out, starts, _ = _bk._split_pairs(np.ascontiguousarray(src, np.int64), np.ascontiguousarray(dst, np.int64),
                                      bounds, False)
    return tuple(np.split(out, starts[1:-1]))


# -- the block's edges, degrees and orientation -----------------------------------------------

def dedupe_block(lo, hi, *parts):
    """The distinct edges (u, v), u < v, u in the block lo..hi-1, sorted by (u, v)."""
    e = np.concatenate(parts) if parts else _EMPTY
    if e.shape[0] == 0:
        return _EMPTY
    ptr, v = _bk._group_rows(e[:, 0] - lo, e[:, 1].copy(), hi - lo, True)
    out = np.empty((v.shape[0], 2), np.int64)
    out[:, 0] = np.repeat(np.arange(lo, hi, dtype=np.int64), np.diff(ptr))
    out[:, 1] = v
    return out


def degree_parts(edges, lo, hi, bounds):
    """This block's contribution to every block's degrees, and the larger ends it needs the
    degrees of: per block c, (distinct larger ends in c, their edge counts), plus the dense
    counts of the block's own smaller ends as ``(None, counts)`` in its own slot's place."""
    nblocks = bounds.shape[0] - 1
    if edges.shape[0] == 0:
        z = (np.empty(0, np.int64), np.empty(0, np.int64))
        return tuple(z for _ in range(nblocks)) + (np.zeros(hi - lo, np.int64),)
    ids, cnt = _unique(edges[:, 1], return_counts=True)
    cuts = np.searchsorted(ids, bounds[1:-1])
    own = np.bincount(edges[:, 0] - lo, minlength=hi - lo)
    return tuple(zip(np.split(ids, cuts), np.split(cnt.astype(np.int64), cuts))) + (own,)


def degree_block(lo, hi, own, *parts):
    """Degrees of the vertices lo..hi-1: the block's smaller-end counts plus the sparse larger-end
    counts sent by every block."""
    deg = own.astype(np.int64)
    for ids, cnt in parts:
        deg[ids - lo] += cnt  # ids are distinct within one part
    return deg


def degree_lookup(deg, lo, ids):
    return deg[ids - lo]


def orient_split(edges, deg, lo, bounds, ids, degs):
    """Orient the block's edges by degree, u -> v iff (deg u, u) < (deg v, v), and split the
    arcs by the block of their tail. ``ids``/``degs`` are lists (one entry per block) of the
    larger endpoints (sorted) and their degrees."""
    if edges.shape[0] == 0:
        return _split_by_block(np.empty(0, np.int64), np.empty(0, np.int64), bounds)
    ids = np.concatenate(ids)
    degs = np.concatenate(degs)
    u = edges[:, 0]
    v = edges[:, 1]
    du = deg[u - lo]
    dv = degs[np.searchsorted(ids, v)]
    fwd = (du < dv) | ((du == dv) & (u < v))
    return _split_by_block(np.where(fwd, u, v), np.where(fwd, v, u), bounds)


def build_rows(lo, hi, n, index_dtype, *parts):
    """The row block lo..hi-1 of the oriented CSR: (indptr int64, indices sorted per row)."""
    e = np.concatenate(parts) if parts else _EMPTY
    ptr, ind = _bk._group_rows(e[:, 0] - lo, e[:, 1].astype(index_dtype), hi - lo, False)
    return ptr, ind


def merge_blocks(*blocks):
    """Consecutive row blocks as one: (indptr, indices) over the union of their rows."""
    if len(blocks) == 1:
        return blocks[0]
    ptrs = [blocks[0][0]]
    base = blocks[0][0][-1]
    for ptr, _ in blocks[1:]:
        ptrs.append(ptr[1:] + base)
        base += ptr[-1]
    return np.concatenate(ptrs), np.concatenate([ind for _, ind in blocks])


def block_stats(block):
    """(arcs, largest out-degree) of a row block."""
    ptr, ind = block
    return int(ind.shape[0]), int(np.diff(ptr).max()) if ptr.shape[0] > 1 else 0


def write_block(path, node_ids, values, header):
    """Write one text shard ``original_id<TAB>value`` per vertex of a block; returns its path
    (the caller checked the paths before the work)."""
    with atomic_write(path, "w", force=True) as fh:
        fh.write(header)
        if values.shape[0]:
            fmt = "%s" if node_ids.dtype == object else "%d"  # vertex names, or integer ids
            np.savetxt(fh, np.column_stack([node_ids, values]), fmt=fmt, delimiter="\t")
    return path


def block_node_ids(lo, hi, starts, *unions):
    """Original ids of the vertices lo..hi-1 from the id buckets (``starts``: first new id of
    every bucket)."""
    out = np.empty(hi - lo, np.int64)
    for s, u in zip(starts, unions):
        a = max(lo, s)
        b = min(hi, s + u.shape[0])
        if a < b:
            out[a - lo:b - lo] = u[a - s:b - s]
    return out


def in_arcs(block, lo_j, lo_i, hi_i):
    """The arcs of oriented block j (rows from lo_j) that end in lo_i..hi_i-1, reversed: (head, tail)."""
    ptr, ind = block
    tails = lo_j + np.repeat(np.arange(ptr.shape[0] - 1, dtype=np.int64), np.diff(ptr))
    keep = (ind >= lo_i) & (ind < hi_i)
    return np.stack([ind[keep].astype(np.int64), tails[keep]], axis=1)


def undirected_block(lo, hi, block, *pieces):
    """The undirected row block lo..hi-1: its out-rows and the reversed in-arcs, rows sorted."""
    ptr, ind = block
    rows = [np.repeat(np.arange(hi - lo, dtype=np.int64), np.diff(ptr))] + [p[:, 0] - lo for p in pieces]
    cols = [ind.astype(np.int64)] + [p[:, 1] for p in pieces]
    return _bk._group_rows(np.concatenate(rows), np.concatenate(cols).astype(ind.dtype), hi - lo, False)
