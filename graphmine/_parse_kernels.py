"""Numba kernels that parse edge-list text straight from the bytes of a file.

Contract: ``buf`` is a uint8 array; each chunk [a, b) starts at the beginning of a line and ends
after a newline (or at the end of the buffer). A chunk's kernel writes its edges from ``out0``
on and returns (edges written, error code, byte offset of the error). Kernels never raise: the
caller turns the code and offset into a GraphFormatError with the line number.
"""

import numpy as np
from numba import njit, prange

OK = 0
ERR_NONNUMERIC = 1
ERR_ONE_COLUMN = 2
ERR_NEGATIVE = 3
ERR_TOO_LARGE = 4
ERR_BAD_WEIGHT = 5
ERR_CONTROL = 6

_INT64_MAX = np.int64(9223372036854775807)


@njit(cache=True, inline="always")
def _is_blank(c):
    return c == 32 or c == 9 or c == 13


@njit(cache=True, inline="always")
def _ends_token(c):
    # space, tab, CR, LF, comma, comment start
    return c == 32 or c == 9 or c == 13 or c == 10 or c == 44 or c == 35 or c == 37


@njit(cache=True)
def _parse_id(buf, i, b):
    """Parse a non-negative decimal integer at i; return (error code, value, next offset)."""
    start = i
    if i < b and buf[i] == 43:  # '+'
        i += 1
    if i < b and buf[i] == 45:  # '-'
        if i + 1 < b and 48 <= buf[i + 1] <= 57:
            return ERR_NEGATIVE, 0, start
        return ERR_NONNUMERIC, 0, start
    val = np.int64(0)
    nd = 0
    while i < b and 48 <= buf[i] <= 57:
        d = np.int64(buf[i] - 48)
        # up to 18 digits cannot overflow int64; check (with a division) only beyond
        if nd >= 18 and val > (_INT64_MAX - d) // 10:
            return ERR_TOO_LARGE, 0, start
        val = val * 10 + d
        nd += 1
        i += 1
    if nd == 0 or (i < b and not _ends_token(buf[i])):
        return ERR_NONNUMERIC, 0, start
    return OK, val, i


@njit(cache=True)
def _parse_float(buf, i, b):
    """Parse a decimal float (sign, digits, fraction, exponent); return (error, value, next)."""
    start = i
    sign = 1.0
    if i < b and (buf[i] == 43 or buf[i] == 45):
        if buf[i] == 45:
            sign = -1.0
        i += 1
    mant = 0.0
    nd = 0
    while i < b and 48 <= buf[i] <= 57:
        mant = mant * 10.0 + (buf[i] - 48)
        nd += 1
        i += 1
    scale = 0
    if i < b and buf[i] == 46:  # '.'
        i += 1
        while i < b and 48 <= buf[i] <= 57:
            mant = mant * 10.0 + (buf[i] - 48)
            scale -= 1
            nd += 1
            i += 1
    if nd == 0:
        return ERR_BAD_WEIGHT, 0.0, start
    if i < b and (buf[i] == 101 or buf[i] == 69):  # e/E
        i += 1
        esign = 1
        if i < b and (buf[i] == 43 or buf[i] == 45):
            if buf[i] == 45:
                esign = -1
            i += 1
        ne = 0
        e = 0
        while i < b and 48 <= buf[i] <= 57:
            if e < 100000:
                e = e * 10 + (buf[i] - 48)
            ne += 1
            i += 1
        if ne == 0:
            return ERR_BAD_WEIGHT, 0.0, start
        scale += esign * e
    if i < b and not _ends_token(buf[i]):
        return ERR_BAD_WEIGHT, 0.0, start
    if scale >= 0:
        val = mant * 10.0 ** scale
    else:
        val = mant / 10.0 ** (-scale)
    return OK, sign * val, i


@njit(cache=True)
def _skip_separator(buf, i, b):
    """Skip blanks and at most one comma between columns."""
    while i < b and _is_blank(buf[i]):
        i += 1
    if i < b and buf[i] == 44:
        i += 1
        while i < b and _is_blank(buf[i]):
            i += 1
    return i


@njit(cache=True, inline="always")
def _fast_line(buf, i, b):
    """The common line ``digits<blanks>digits\n`` (at most 18 digits an id): return
    (u, v, offset after the newline), or (-1, -1, i) when the line needs the general parser.
    Unsigned indices spare numba's negative-index checks in the hottest loop (offsets are >= 0)."""
    j = i
    u = np.int64(0)
    nd = 0
    while j < b:
        d = np.int64(buf[np.uint64(j)]) - 48
        if d < 0 or d > 9:
            break
        u = u * 10 + d
        nd += 1
        j += 1
    if nd == 0 or nd > 18 or j >= b or (buf[np.uint64(j)] != 32 and buf[np.uint64(j)] != 9):
        return -1, -1, i
    j += 1
    while j < b and (buf[np.uint64(j)] == 32 or buf[np.uint64(j)] == 9):
        j += 1
    v = np.int64(0)
    nd = 0
    while j < b:
        d = np.int64(buf[np.uint64(j)]) - 48
        if d < 0 or d > 9:
            break
        v = v * 10 + d
        nd += 1
        j += 1
    if nd == 0 or nd > 18:
        return -1, -1, i
    if j == b:
        return u, v, j
    if buf[np.uint64(j)] != 10:
        return -1, -1, i
    return u, v, j + 1


@njit(cache=True)
def _parse_chunk(buf, a, b, edges, weights, out0, want_weights):
    i = a
    k = out0
    while i < b:
        if not want_weights:
            u, v, nxt = _fast_line(buf, i, b)
            if u >= 0:
                edges[k, 0] = u
                edges[k, 1] = v
                k += 1
                i = nxt
                continue
        while i < b and _is_blank(buf[i]):
            i += 1
        if i >= b:
            break
        c = buf[i]
        if c == 10:
            i += 1
            continue
        if c == 35 or c == 37:  # '#' or '%' comment line
            while i < b and buf[i] != 10:
                i += 1
            continue
        err, u, i = _parse_id(buf, i, b)
        if err != OK:
            return k, err, i
        i = _skip_separator(buf, i, b)
        if i >= b or buf[i] == 10 or buf[i] == 35 or buf[i] == 37:
            return k, ERR_ONE_COLUMN, i
        err, v, i = _parse_id(buf, i, b)
        if err != OK:
            return k, err, i
        w = 1.0
        i = _skip_separator(buf, i, b)
        if want_weights and i < b and buf[i] != 10 and buf[i] != 35 and buf[i] != 37:
            err, w, i = _parse_float(buf, i, b)
            if err != OK:
                return k, err, i
        # the rest of the line (extra columns, trailing comment) is ignored, but control bytes
        # there mean binary data, not text
        while i < b and buf[i] != 10:
            c = buf[i]
            if (c < 32 and c != 9 and c != 13) or c == 127:
                return k, ERR_CONTROL, i
            i += 1
        edges[k, 0] = u
        edges[k, 1] = v
        if want_weights:
            weights[k] = w
        k += 1
    return k, OK, i


@njit(cache=True, inline="always")
def _is_space(c):
    # what bytes.strip() removes
    return c == 32 or c == 9 or c == 10 or c == 13 or c == 11 or c == 12


@njit(cache=True)
def _first_data_line(buf):
    """(start, end) byte offsets of the first line that is neither blank nor a comment (end is
    after its newline), or (-1, -1) when there is none."""
    size = buf.shape[0]
    i = 0
    while i < size:
        s = i
        while i < size and buf[i] != 10:
            i += 1
        e = i + 1 if i < size else size
        j = s
        while j < e and _is_space(buf[j]):
            j += 1
        if j < e and buf[j] != 35 and buf[j] != 37:
            return s, e
        i = e
    return -1, -1


@njit(cache=True, inline="always")
def _splits_fields(c):
    return c == 44 or _is_space(c)


@njit(cache=True)
def _is_header(buf, s, e):
    """A header names its columns: its first two fields (split at commas and whitespace) both
    start with an ASCII letter, ``_`` or a quote (``source,target``, ``"from" "to" weight``),
    which no edge line does."""
    i = s
    fields = 0
    while i < e and fields < 2:
        while i < e and _splits_fields(buf[i]):
            i += 1
        if i >= e:
            break
        c = buf[i]
        if not ((65 <= c <= 90) or (97 <= c <= 122) or c == 95 or c == 34 or c == 39):
            return False
        fields += 1
        while i < e and not _splits_fields(buf[i]):
            i += 1
    return fields == 2


@njit(cache=True)
def _chunk_starts(buf, lo, nchunks):
    """Offsets that split buf[lo:] into at most ``nchunks`` pieces, each starting a line."""
    size = buf.shape[0]
    starts = np.empty(nchunks + 1, np.int64)
    starts[0] = lo
    k = 1
    for c in range(1, nchunks):
        g = max(lo + (size - lo) * c // nchunks, starts[k - 1])
        while g < size and buf[g] != 10:
            g += 1
        if g + 1 >= size:
            break
        if g + 1 > starts[k - 1]:
            starts[k] = g + 1
            k += 1
    starts[k] = size
    return starts[:k + 1].copy()


@njit(cache=True)
def _line_of(buf, pos):
    """1-based number of the line holding byte ``pos``."""
    c = 1
    for i in range(pos):
        c += buf[i] == 10
    return c


@njit(cache=True, inline="always")
def _may_not_be_data(c):
    # a line starting with this byte may be blank or a comment (or is malformed)
    return c <= 32 or c == 35 or c == 37


@njit(cache=True)
def _count_lines_exact(buf, a, b):
    """Edge lines in buf[a:b]: lines whose first byte after blanks is not a newline or a
    comment mark."""
    i = a
    c = 0
    while i < b:
        while i < b and _is_blank(buf[i]):
            i += 1
        if i >= b:
            break
        ch = buf[i]
        if ch != 10 and ch != 35 and ch != 37:
            c += 1
        while i < b and buf[i] != 10:
            i += 1
        i += 1
    return c


@njit(cache=True, parallel=True)
def _count_edge_lines(buf, starts):
    """Edge lines per chunk. This is exactly the number of edges the parser writes for a chunk
    without errors, so every chunk's edges land in place and no gaps need closing.

    A branch-free (vectorisable) pass counts the lines and those starting with a byte that
    may open a blank or comment line; only chunks with such lines are counted line by line.
    """
    nchunks = starts.shape[0] - 1
    counts = np.zeros(nchunks, np.int64)
    for t in prange(nchunks):
        a = starts[t]
        b = starts[t + 1]
        if b <= a:
            continue
        # slices indexed from 0 let LLVM drop the negative-index checks and vectorise
        cur = buf[a:b - 1]
        nxt = buf[a + 1:b]
        lines = 0
        odd = 0
        for j in range(cur.shape[0]):
            nl = np.uint8(cur[j] == 10)
            lines += nl
            c = nxt[j]
            odd += nl & (np.uint8(c <= 32) | np.uint8(c == 35) | np.uint8(c == 37))
        lines += 1  # the line starting at a (its newline, if any, is at b - 1 or before)
        if _may_not_be_data(buf[a]) or odd:
            counts[t] = _count_lines_exact(buf, a, b)
        else:
            counts[t] = lines
    return counts


@njit(cache=True, nogil=True, parallel=True)
def _parse_chunks(buf, starts, offsets, edges, weights, want_weights):
    """Parse every chunk into edges[offsets[i]:]; returns (written, errors, where) per chunk and
    the largest id (0 for none), which saves the renumbering a pass over the edges."""
    nchunks = starts.shape[0] - 1
    written = np.zeros(nchunks, np.int64)
    errors = np.zeros(nchunks, np.int64)
    where = np.zeros(nchunks, np.int64)
    tops = np.zeros(nchunks, np.int64)
    for t in prange(nchunks):
        k, err, pos = _parse_chunk(buf, starts[t], starts[t + 1], edges, weights, offsets[t], want_weights)
        written[t] = k - offsets[t]
        errors[t] = err
        where[t] = pos
        top = np.int64(0)
        for r in range(offsets[t], k):
            top = max(top, edges[r, 0], edges[r, 1])
        tops[t] = top
    return written, errors, where, tops.max() if nchunks else np.int64(0)


@njit(cache=True, nogil=True)
def _plan(buf, header, nchunks):
    """Where parsing starts and how the text splits: (chunk starts, edge lines per chunk).

    ``header``: 0 none, 1 skip the first line that is not blank or a comment, 2 skip it only if
    it is a header (:func:`_is_header`). One compiled call (one cache load on a first read).
    """
    lo = 0
    if header != 0:
        s, e = _first_data_line(buf)
        if s >= 0 and (header == 1 or _is_header(buf, s, e)):
            lo = e  # parse from the line after the header; line numbers still count from byte 0
    starts = _chunk_starts(buf, lo, nchunks)
    return starts, _count_edge_lines(buf, starts)
