"""The small-work path: reading, building and triangle counting of small graphs with numpy's
vectorised operations, no Numba kernel compiled or loaded.

Numba compiles a kernel on its first use in a process with an empty cache (0.2-3 s of CPU each;
the parallel kernels of the parse and the CSR build cost the most), and loads it from the cache
in every later process (10-50 ms each). For a graph of a few ten thousand edges the work itself
takes milliseconds, so both costs dwarf it: below the thresholds here, the reader, the CSR build
and the triangle count run on numpy instead and compile nothing. The results are identical to
the kernels' (same vertex numbering, same sorted rows, same statistics, same counts); tests
compare both paths on random edge lists.

The parsers here accept only *clean* text: comment lines (first field starting with ``#`` or
``%``), blank lines, and lines whose first two fields, cut at blanks (space, tab, ``\\r``), are
decimal ids of at most 18 digits (:func:`parse_clean_ints`) or names without tabs and commas
(:func:`parse_clean_names`); further fields (weights, networkx's ``{}``) are ignored as the kernel
parser ignores them. Anything else (a header, commas, a sign, one column, a control byte) returns
None and the file goes through the kernel parser, which stays the one source of error messages.

Where numpy cannot give exactly a kernel's result (the sketch estimates: sums of floats), small
jobs run the serial twin of a parallel kernel instead (:func:`serial_first`): the kernel's own
per-thread part function, called part after part, which compiles in a fraction of a parallel
kernel's time and gives the same floats.
"""

import os
import sys

import numpy as np

__all__ = ["work_budget", "serial_first", "SERIAL_ARCS", "SMALL_BYTES", "SMALL_BYTES_CACHED", "SMALL_EDGES",
           "MEDIUM_EDGES", "numpy_build", "numpy_parse", "SMALL_WORK", "SMALL_WORK_CACHED", "SMALL_WORK_COLD",
           "SMALL_WORK_COMPILE",
           "parse_clean_ints", "parse_clean_names", "unique_ints", "sort_queries", "dense_ids", "compact_dense", "csr_from_pairs",
           "sorted_rows", "orient_by_rank", "extension_work", "triangle_work", "clique_count",
           "triangles_per_vertex"]

#: files up to this size are parsed by :func:`parse_clean_ints` (when clean) while the parse
#: kernels are neither loaded nor in numba's cache (their first compile costs seconds)
SMALL_BYTES = 1 << 22
#: ... and up to this size once they are (:func:`numpy_parse`)
SMALL_BYTES_CACHED = 1 << 21
#: graphs up to this many edges are built by :func:`csr_from_pairs`
SMALL_EDGES = 1 << 18
#: graphs up to this many edges are built by :func:`csr_from_pairs` too while the build kernel is
#: neither loaded nor in numba's cache (:func:`numpy_build`)
MEDIUM_EDGES = 1 << 22
#: clique counts that look at no more than this many candidates are done by numpy (numpy costs
#: about 0.1 us per candidate on the 2-core machine), more when the kernel is not loaded in this
#: process yet (:func:`work_budget`)
SMALL_WORK = 1 << 18
SMALL_WORK_CACHED = 1 << 19
SMALL_WORK_COLD = 1 << 23
SMALL_WORK_COMPILE = 1 << 25
# candidates checked at a time (bounded temporaries: about 60 bytes each)
_BLOCK = 1 << 20
# arc sets of orientations with n * n up to this many bits are bitmaps (32 MiB)
_BITMAP_BITS = 1 << 28
# at most this many digits: every id fits in int64 without a check
_MAX_DIGITS = 18



def _cached(kernel):
    """Whether numba's cache holds an entry of ``kernel`` (its index file exists: a cheap guess,
    used only to choose between two paths that give the same result)."""
    try:
        return os.path.exists(kernel._cache._cache_file._index_path)
    except AttributeError:  # no cache (cache=False) or another numba's layout
        return False


def work_budget(kernel):
    """The candidates a clique count may look at on numpy rather than call ``kernel``: what the
    kernel's first call in this process would cost, at 35-50 ns per candidate (ca-HepPh's
    4.6 million in 0.16-0.22 s of CPU on the 2-core machine). Loaded already: nothing
    (SMALL_WORK). In numba's cache: a load, 10-50 ms for a serial kernel, or for a parallel
    one once numba's compiler is set up in this process (SMALL_WORK_CACHED); 0.3-0.5 s of CPU
    for the first parallel kernel of a process, whose load also sets up numba's compiler and
    starts its thread pool (SMALL_WORK_COLD). Neither: a compile of 1-12 s
    (SMALL_WORK_COMPILE)."""
    if kernel.overloads:
        return SMALL_WORK
    if not _cached(kernel):
        return SMALL_WORK_COMPILE
    if not kernel.targetoptions.get("parallel") or _compiler_set_up():
        # email-Enron, the per-vertex triangle kernel loaded after another kernel: 12 ms of CPU
        # (the first kernel loaded in the process: 0.45 s)
        return SMALL_WORK_CACHED
    return SMALL_WORK_COLD


def _compiler_set_up():
    """Whether a parallel kernel's load from the cache costs about a serial one's: numba's one-time
    compiler setup has happened in this process (its typing and lowering registries are loaded
    with the first kernel compiled or loaded), or the process loads kernels without it (the
    ``graphmine`` program, graphmine/_runtime/startup.py: there the first parallel kernel's load
    took 40 ms of CPU on the 2-core machine, email-Enron k = 5)."""
    if "numba.np.arraymath" in sys.modules:
        return True
    startup = sys.modules.get("graphmine._runtime.startup")  # imported by the program only
    return startup is not None and startup.lean_cache_loads()


#: jobs over at most this many arcs (CSR entries) run a parallel kernel's serial twin while the
#: parallel kernel is neither loaded nor in numba's cache (:func:`serial_first`)
SERIAL_ARCS = 1 << 17


def serial_first(kernel, arcs):
    """Whether a job over ``arcs`` CSR entries runs the serial twin of the parallel ``kernel``
    (the same part function, thread part after thread part: the same result to the last bit):
    the job is small and ``kernel`` is neither loaded in this process nor in numba's cache.
    A parallel kernel's first compile costs 1-2 s more than its serial twin's (numba's parfor
    passes and the threading layer's set-up), more than a small job's serial run."""
    return arcs <= SERIAL_ARCS and not kernel.overloads and not _cached(kernel)


def numpy_build(m, kernel):
    """Whether the CSR of ``m`` edges is built by :func:`csr_from_pairs` (numpy's sorts) rather
    than by the parallel build whose top kernel is ``kernel``: small graphs always; medium ones
    while ``kernel`` is neither loaded nor cached, since its first compile (about 15 s of CPU)
    costs far more than numpy's sorts of 2^22 edges (about 1.5 s)."""
    if m <= SMALL_EDGES:
        return True
    return m <= MEDIUM_EDGES and not kernel.overloads and not _cached(kernel)


def numpy_parse(size, kernels):
    """Whether a clean integer text of ``size`` bytes is parsed by :func:`parse_clean_ints` rather
    than by the parse ``kernels``: up to SMALL_BYTES while they would compile, up to
    SMALL_BYTES_CACHED once they are loaded or in numba's cache. In a fresh process with a warm
    cache numpy takes about 0.09 s of CPU per MB on the 2-core machine and the kernels' loads
    about 0.15-0.2 s in all: email-Enron (3.7 MB) read in 0.50-0.61 s of CPU by the kernels
    against 0.66-0.76 s by numpy, facebook_combined (0.85 MB) 0.30-0.35 against 0.14-0.17."""
    if size > SMALL_BYTES:
        return False
    return size <= SMALL_BYTES_CACHED or not any(k.overloads or _cached(k) for k in kernels)


def dense_ids(top, count):
    """Whether ``count`` ids whose largest is ``top`` are renumbered through a table of
    ``top + 1`` entries (linear time) rather than sorted: the one rule of
    :func:`graphmine.compact_ids` and the reader."""
    return top < max(4 * count, 1 << 20)


# bytes that separate fields: space, tab, carriage return (the kernel parsers' blanks); the
# names' table leaves out the tab (a tab in a names file may make its fields tab-separated)
_INT_SEPARATORS = np.zeros(256, bool)
_INT_SEPARATORS[[32, 9, 13]] = True
_NAME_SEPARATORS = np.zeros(256, bool)
_NAME_SEPARATORS[[32, 13]] = True
# control bytes (binary data, not text): the kernel parsers reject them outside comments
_CONTROL = np.zeros(256, bool)
_CONTROL[:32] = True
_CONTROL[[9, 10, 13, 127]] = [False, False, False, True]
_DIGIT = np.zeros(256, bool)
_DIGIT[48:58] = True


def _first_two_fields(buf, separators):
    """(start, end) byte offsets of the first two fields of every data line, interleaved (field
    2i and 2i + 1 are line i's), with fields cut at ``separators`` and newlines, as the kernel
    parsers cut them; a data line is one whose first field starts with neither ``#`` nor ``%``
    (blank lines have none). None where the kernels decide: a data line of one field, a
    control byte outside the comment lines, no data line at all."""
    size = buf.shape[0]
    if size == 0:
        return None
    gap = separators[buf] | (buf == 10)
    prev = np.empty(size, bool)
    prev[0] = True
    prev[1:] = gap[:-1]
    nxt = np.empty(size, bool)
    nxt[-1] = True
    nxt[:-1] = gap[1:]
    fs = np.flatnonzero(~gap & prev)  # field starts and ends, in file order
    fe = np.flatnonzero(~gap & nxt) + 1
    if fs.size == 0:
        return None
    newlines = np.flatnonzero(buf == 10)
    line = np.searchsorted(newlines, fs)  # the line of every field (newlines before it)
    first = np.empty(fs.size, bool)
    first[0] = True
    first[1:] = line[1:] != line[:-1]
    heads = np.flatnonzero(first)  # each line's first field
    group = np.cumsum(first) - 1
    rank = np.arange(fs.size) - heads[group]  # the field's place on its line
    comment = (buf[fs[heads]] == 35) | (buf[fs[heads]] == 37)
    count = np.diff(np.append(heads, fs.size))
    if np.any(count[~comment] == 1) or np.all(comment):
        return None
    bad = np.flatnonzero(_CONTROL[buf])
    if bad.size:
        lines = np.zeros(newlines.size + 1, bool)  # comment lines, by line number
        lines[line[heads[comment]]] = True
        if not np.all(lines[np.searchsorted(newlines, bad)]):
            return None
    keep = (rank < 2) & ~comment[group]
    return fs[keep], fe[keep]


def parse_clean_ints(buf):
    """The (m, 2) int64 edges of a clean integer edge list (see the module's docstring), or None
    when the text is not clean (or holds no edge line)."""
    fields = _first_two_fields(buf, _INT_SEPARATORS)
    if fields is None:
        return None
    rs, re = fields
    width = re - rs
    maxw = int(width.max())
    if maxw > _MAX_DIGITS:
        return None
    # every id all digits: no sign, no comma, no name
    step = np.arange(maxw, dtype=np.int64)
    inside = step[None, :] < width[:, None]
    at = np.minimum(rs[:, None] + step[None, :], buf.shape[0] - 1)
    if not np.all(_DIGIT[buf[at]] | ~inside):
        return None
    val = buf[rs].astype(np.int64) - 48
    for k in range(1, maxw):
        longer = np.flatnonzero(width > k)
        val[longer] = val[longer] * 10 + (buf[rs[longer] + k].astype(np.int64) - 48)
    return val.reshape(-1, 2)


#: the names of a file parsed by :func:`parse_clean_names` take at most this many bytes once
#: padded to the longest (a fixed-width array sorted by numpy)
_NAME_BYTES = 1 << 26


def parse_clean_names(buf):
    """A clean edge list of vertex names: (vertex of every field (2m int64: fields 2i and 2i + 1
    are edge i's ends, vertices numbered in the order their names first occur, as networkx's
    ``read_edgelist`` adds them), start and length of every vertex's name in ``buf``), or None
    where the kernel parser decides (a tab or a comma in the text, a field starting with ``#`` or
    ``%`` after a line's first, and what :func:`_first_two_fields` leaves to it)."""
    if buf.shape[0] == 0 or np.any((buf == 9) | (buf == 44)):
        return None
    fields = _first_two_fields(buf, _NAME_SEPARATORS)
    if fields is None:
        return None
    fs, fe = fields
    second = buf[fs[1::2]]
    if np.any((second == 35) | (second == 37)):  # the kernels: one column, then a comment
        return None
    width = fe - fs
    maxw = int(width.max())
    if maxw * fs.size > _NAME_BYTES:
        return None
    # the names padded with zero bytes (no name holds one: control bytes went to the kernels)
    step = np.arange(maxw, dtype=np.int64)
    inside = step[None, :] < width[:, None]
    padded = np.where(inside, buf[np.minimum(fs[:, None] + step[None, :], buf.shape[0] - 1)], 0).astype(np.uint8)
    keys = np.ascontiguousarray(padded).view(f"S{maxw}").reshape(-1)
    _, firsts, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(firsts, kind="stable")  # distinct names by first occurrence
    number = np.empty(order.size, np.int64)
    number[order] = np.arange(order.size, dtype=np.int64)
    first = firsts[order]
    return number[inverse.reshape(-1)], fs[first], width[first]


def unique_ints(a):
    """The sorted distinct values of the integer array ``a`` (``np.unique(a)``).

    numpy 2.3 and later give a plain ``np.unique`` of integers a hash table before the sort, which
    costs 10-60x a sort and one comparison of neighbours (1.2 s against 0.03 s for 10^6 int64 on
    the 2-core machine).

    Examples
    --------
    >>> unique_ints(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    s = np.sort(np.asarray(a).reshape(-1))
    if s.shape[0] < 2:
        return s
    keep = np.empty(s.shape[0], bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def sort_queries(q):
    """The integer queries ``q`` in increasing order and where each came from: (sorted, order),
    ``sorted == q[order]``.

    ``np.searchsorted`` of many random queries in a long sorted array misses the cache on every
    step of every binary search; in increasing order each search starts from the last one's
    answer. Non-negative queries are sorted packed with their positions into one int64 key (a
    plain sort, several times faster than ``argsort``).

    Examples
    --------
    >>> qs, order = sort_queries(np.array([5, 1, 3]))
    >>> qs.tolist(), order.tolist()
    ([1, 3, 5], [1, 2, 0])
    """
    q = np.asarray(q, dtype=np.int64).reshape(-1)
    m = q.shape[0]
    bits = max(int(m - 1).bit_length(), 1)
    if m and int(q.min()) >= 0 and int(q.max()) < (1 << (62 - bits)):
        packed = np.sort((q << bits) | np.arange(m, dtype=np.int64))
        return packed >> bits, packed & ((1 << bits) - 1)
    order = np.argsort(q, kind="stable")
    return q[order], order


def compact_dense(ids, size, dtype):
    """Renumber ``ids`` (all < size) to 0..k-1 in increasing id order: (new ids of ``dtype``, the
    distinct ids as int64), as the bitmap kernel of :mod:`graphmine._primitives.csr_kernels` does."""
    present = np.zeros(size, bool)
    present[ids] = True
    newid = np.cumsum(present, dtype=np.int64) - 1
    return newid[ids].astype(dtype), np.flatnonzero(present).astype(np.int64)


def csr_from_pairs(src, dst, n):
    """The symmetric CSR of the edges (src[i], dst[i]) on n vertices, self-loops dropped and
    duplicates merged, rows sorted: (indptr int64, indices of src's dtype, self-loops)."""
    loop = src == dst
    loops = int(np.count_nonzero(loop))
    a = np.minimum(src, dst)[~loop].astype(np.int64)
    b = np.maximum(src, dst)[~loop].astype(np.int64)
    a, b = np.divmod(unique_ints(a * n + b), n)
    indptr, indices = sorted_rows(np.concatenate([a, b]), np.concatenate([b, a]), n, src.dtype)
    return indptr, indices, loops


def sorted_rows(rows, cols, n, dtype):
    """The CSR (indptr int64, indices of ``dtype``) of the entries (rows[i], cols[i]) of an
    n-vertex graph, every row sorted (one sort of the packed keys row * n + col)."""
    key = np.sort(rows.astype(np.int64) * n + cols)
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return indptr, (key % n).astype(dtype) if n else key.astype(dtype)


def orient_by_rank(indptr, indices, rank):
    """The orientation in rank space (vertex rank[u] gets the sorted ranks of u's higher-ranked
    neighbours): (optr int64, oind of indices' dtype)."""
    n = indptr.shape[0] - 1
    ru = rank[np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))]
    rv = rank[indices]
    keep = ru < rv
    return sorted_rows(ru[keep], rv[keep], n, indices.dtype)


class _Arcs:
    """The arcs of an orientation as a set of int64 keys source * n + target: a bitmap of n * n
    bits where it is small (one gather per lookup), else the sorted keys (a binary search)."""

    def __init__(self, optr, oind):
        self.n = n = optr.shape[0] - 1
        self.row = np.repeat(np.arange(n, dtype=np.int64), np.diff(optr))
        self.keys = keys = self.row * n + oind
        self.bits = None
        if n * n <= _BITMAP_BITS:
            self.bits = np.zeros((n * n + 7) // 8, np.uint8)
            np.bitwise_or.at(self.bits, keys >> 3, (1 << (keys & 7)).astype(np.uint8))

    def contains(self, src, dst):
        key = src * self.n + dst
        if self.bits is not None:
            return (self.bits[key >> 3] >> (key & 7).astype(np.uint8)) & 1 == 1
        at = np.searchsorted(self.keys, key)
        at[at == self.keys.shape[0]] = self.keys.shape[0] - 1
        return self.keys[at] == key


def extension_work(optr, last):
    """The candidates that extending cliques whose last (highest-ranked) vertices are ``last``
    by one vertex looks at: the work of one level of :func:`_extend`."""
    return int(np.diff(optr)[last].sum())


def _extend(optr, oind, arcs, cols):
    """Yield, block by block, the (j+1)-cliques that extend the j-cliques ``cols`` (j arrays of
    increasing ranks, one clique per position) by a common out-neighbour: each candidate x after
    the last vertex (an out-neighbour of it) is kept when every other vertex has the arc to x."""
    last = cols[-1]
    cnt = optr[last + 1] - optr[last]
    ends = np.cumsum(cnt)
    a = 0
    while a < last.shape[0]:
        done = ends[a - 1] if a else 0
        b = max(a + 1, int(np.searchsorted(ends, done + _BLOCK, side="right")))
        c = cnt[a:b]
        total = int(ends[b - 1] - done)
        if total:
            idx = np.repeat(np.arange(a, b, dtype=np.int64), c)
            pos = np.repeat(optr[last[a:b]] - (np.cumsum(c) - c), c) + np.arange(total, dtype=np.int64)
            x = oind[pos].astype(np.int64)
            for col in cols[-2::-1]:  # the vertex before the last first: it rejects the most
                keep = arcs.contains(col[idx], x)
                idx = idx[keep]
                x = x[keep]
            yield [col[idx] for col in cols] + [x]
        a = b


def clique_count(optr, oind, k, budget):
    """The number of k-cliques (k >= 3) of a rank-space orientation, or None when listing them
    level by level would look at more than ``budget`` candidates (checked before each level)."""
    arcs = _Arcs(optr, oind)
    cols = [arcs.row, oind.astype(np.int64)]
    spent = 0
    for j in range(2, k):
        spent += extension_work(optr, cols[-1])
        if spent > budget:
            return None
        if j == k - 1:
            return sum(int(block[0].shape[0]) for block in _extend(optr, oind, arcs, cols))
        blocks = list(_extend(optr, oind, arcs, cols))
        if not blocks:
            return 0
        cols = [np.concatenate(parts) for parts in zip(*blocks)]
    return None


# the per-vertex triangle count's dense block (:func:`triangles_per_vertex`): the k highest-ranked
# vertices (the hubs of the degree order) count the triangles among them from bit rows of their
# k x k adjacency matrix, one AND and popcount of two rows per arc of the block. Cost model in
# units of one sparse candidate (35-50 ns on the 2-core machine): a 64-bit word of that work
# about a quarter of one (ca-HepPh: 2048 hubs, 80,394 arcs of 32 words, 26 ms), a byte of the
# block's bitmap (zeroed, then filled) 1/128 of one; k is tried in steps of _DENSE_STEP while the
# block's bits fit in _BITMAP_BITS
_DENSE_WORD = 0.25
_DENSE_BYTE = 1 / 128
_DENSE_STEP = 64


def _dense_split(optr):
    """(lo, work): the rows lo..n-1 of a rank-space orientation whose triangles the dense block
    counts (lo = n: none) and the work of the count in candidates (the other rows' pairs of
    out-neighbours plus the block's words, by the cost model above)."""
    n = optr.shape[0] - 1
    out = np.diff(optr)
    below = np.zeros(n + 1, np.int64)  # pairs of out-neighbours of the rows below lo
    np.cumsum(out * (out - 1) // 2, out=below[1:])
    k = np.arange(0, n + 1, _DENSE_STEP, dtype=np.int64)
    k = k[k * k <= _BITMAP_BITS]
    lo = n - k
    words = (k + 63) // 64
    work = below[lo] + _DENSE_WORD * (optr[n] - optr[lo]) * words + _DENSE_BYTE * 8 * words * k
    best = int(np.argmin(work))
    return int(lo[best]), int(np.ceil(work[best]))


def triangle_work(optr, oind):
    """The work, in candidates, of :func:`triangles_per_vertex` on a rank-space orientation."""
    return _dense_split(optr)[1]


def _bitmap(row, col, width, size):
    """The bits row * width + col (entries sorted by that key) of a little-endian bitmap of
    ``size`` bytes: the bits of one byte are combined before one scatter."""
    keys = row * width + col
    byte = keys >> 3
    first = np.flatnonzero(np.diff(byte, prepend=-1))
    bits = np.zeros(size, np.uint8)
    if keys.shape[0]:
        bits[byte[first]] = np.bitwise_or.reduceat(np.left_shift(1, keys & 7).astype(np.uint8), first)
    return bits


def _popcount_rows(words):
    """The number of set bits in every row of a 2-D uint64 array (int64)."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(words).sum(axis=1, dtype=np.int64)
    table = np.array([bin(i).count("1") for i in range(256)], np.uint8)
    return table[words.view(np.uint8)].sum(axis=1, dtype=np.int64)


def _dense_triangles(optr, oind, row, lo, out):
    """Add the triangles among the vertices lo..n-1 (every triangle whose lowest vertex is one of
    them) to ``out[lo:]``: each arc (b, c) of the block has |N(b) & N(c)| common neighbours in it
    (a popcount of two bit rows), and a vertex's triangles are half the sum over its arcs."""
    n = optr.shape[0] - 1
    k = n - lo
    s = int(optr[lo])
    b = row[s:] - lo
    c = oind[s:].astype(np.int64) - lo
    words = (k + 63) // 64
    both = np.concatenate([b * k + c, c * k + b])
    both.sort()
    bits = _bitmap(both // k, both % k, 64 * words, 8 * words * k).view(np.uint64).reshape(k, words)
    common = _popcount_rows(bits[b] & bits[c])
    out[lo:] += (np.bincount(b, weights=common, minlength=k) +
                 np.bincount(c, weights=common, minlength=k)).astype(np.int64) // 2


def _wedge_triangles(optr, oind, row, end, out):
    """Add the triangles whose lowest vertex is a row of the arc positions 0..end-1: every pair of
    out-neighbours (b, c), b < c, of a row a is one when the arc b -> c exists; a triangle credits
    a (its row), b (through the arc a -> b) and c (through the arc a -> c)."""
    n = optr.shape[0] - 1
    narcs = oind.shape[0]
    if end == 0:
        return
    wide = n * n >= 1 << 31
    kdt = np.int64 if wide else np.int32  # keys b * n + c
    bits = None
    if n * n <= _BITMAP_BITS:
        bits = _bitmap(row.astype(kdt), oind.astype(kdt), n, (n * n + 7) // 8)
    else:
        keys = row * n + oind
    pos = np.arange(end, dtype=np.int64)
    cnt = optr[row[:end] + 1] - pos - 1  # later out-neighbours of the same row
    ends = np.cumsum(cnt)
    first = np.zeros(end, np.int64)  # triangles through each arc a -> b as its first two vertices
    second = np.zeros(narcs, np.int64)  # ... through each arc a -> c as its first and last
    a = 0
    while a < end:
        done = int(ends[a - 1]) if a else 0
        b = max(a + 1, int(np.searchsorted(ends, done + _BLOCK, side="right")))
        c = cnt[a:b]
        total = int(ends[b - 1]) - done
        if total:
            starts = np.cumsum(c) - c
            j = np.arange(total, dtype=np.int64) + np.repeat(pos[a:b] + 1 - starts, c)  # arc a -> c
            key = np.repeat(oind[a:b].astype(kdt) * kdt(n), c) + oind[j].astype(kdt, copy=False)
            if bits is not None:
                hit = (bits[key >> 3] >> (key & 7).astype(np.uint8)) & 1
            else:
                at = np.searchsorted(keys, key)
                at[at == narcs] = narcs - 1
                hit = (keys[at] == key).view(np.uint8)
            seen = np.cumsum(hit, dtype=np.int64)
            some = c > 0
            last = starts[some] + c[some] - 1
            before = np.where(starts[some] > 0, seen[np.maximum(starts[some] - 1, 0)], 0)
            first[a:b][some] = seen[last] - before
            second += np.bincount(j[hit.view(bool)], minlength=narcs)
        a = b
    out += np.bincount(row[:end], weights=first, minlength=n).astype(np.int64)
    out += np.bincount(oind[:end], weights=first, minlength=n).astype(np.int64)
    out += np.bincount(oind, weights=second, minlength=n).astype(np.int64)


def triangles_per_vertex(optr, oind):
    """The triangles through every vertex of a rank-space orientation (int64, in rank order).

    The highest-ranked vertices (the hubs of the degree order) count the triangles among them from
    bit rows of their adjacency matrix; the other rows pair up their out-neighbours and look the
    closing arc up in a bitmap of the arcs (the split by :func:`_dense_split`'s cost model)."""
    n = optr.shape[0] - 1
    out = np.zeros(n, np.int64)
    if n == 0 or oind.shape[0] == 0:
        return out
    row = np.repeat(np.arange(n, dtype=np.int64), np.diff(optr))
    lo, _ = _dense_split(optr)
    if lo < n:
        _dense_triangles(optr, oind, row, lo, out)
    _wedge_triangles(optr, oind, row, int(optr[lo]), out)
    return out
