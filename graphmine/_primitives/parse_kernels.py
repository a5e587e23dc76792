"""Numba kernels that parse edge-list text straight from the bytes of a file.

Contract: ``buf`` is a uint8 array; each chunk [a, b) starts at the beginning of a line and ends
after a newline (or at the end of the buffer). A chunk's kernel writes its edges from ``out0``
on and returns (edges written, error code, byte offset of the error). Kernels never raise: the
caller turns the code and offset into a GraphFormatError with the line number.

Integer ids are parsed in place (:func:`_parse_chunks`). Vertex names (``ids='str'``) are cut
into tokens with a hash each (:func:`_tokenise_chunks`, parallel over chunks), then interned by
:func:`_intern_tokens`: the hash space is split into one part per thread, each with its own
open-addressing table, so every token is compared with the first token of its bytes without
locks (a table row holds a name's first 16 bytes, so short names are compared without reading
the file again); the result names, for every token, the first token with the same bytes.
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
ERR_EMPTY_NAME = 7

_INT64_MAX = np.int64(9223372036854775807)


@njit(cache=True, inline="always")
def _is_blank(c):
    return c == 32 or c == 9 or c == 13


@njit(cache=True, inline="always")
def _ends_token(c):
    # space, tab, CR, LF, comma, comment start
    return c == 32 or c == 9 or c == 13 or c == 10 or c == 44 or c == 35 or c == 37


@njit(cache=True, nogil=True)
def _skip_to_data(buf, i, b, wide):
    """The offset of the first field of the next data line at or after ``i`` (``b`` if none):
    blank bytes, empty lines and comment lines (``#`` or ``%`` first) skipped. The one prologue
    of every line-walking parser here and in graphmine/io/_events_kernels.py; ``wide`` counts
    commas, vertical tabs and form feeds as blanks too (the event reader's separators)."""
    while i < b:
        c = buf[i]
        if _is_blank(c) or c == 10 or (wide and (c == 44 or c == 11 or c == 12)):
            i += 1
        elif c == 35 or c == 37:  # '#' or '%' comment line: on to its newline
            while i < b and buf[i] != 10:
                i += 1
        else:
            return i
    return b


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _sign_at(buf, i, b):
    """(-1 after a '-', else 1; the offset after an optional '+' or '-' at i)."""
    if i < b and (buf[i] == 43 or buf[i] == 45):
        return (-1 if buf[i] == 45 else 1), i + 1
    return 1, i


@njit(cache=True, nogil=True)
def _parse_float(buf, i, b):
    """Parse a decimal float (sign, digits, fraction, exponent); return (error, value, next)."""
    start = i
    sign, i = _sign_at(buf, i, b)
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
        esign, i = _sign_at(buf, i + 1, b)
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
    elif scale >= -300:
        val = mant / 10.0 ** (-scale)
    else:  # 10.0 ** 309 is inf: divide in two steps, down to the subnormals (1.16e-296 has scale -312)
        val = mant / 10.0 ** (-scale - 300) / 1e300
    return OK, sign * val, i


@njit(cache=True, nogil=True)
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
    v = np.int64(0)
    for field in range(2):  # u, then v (a loop of two that LLVM unrolls: one digit loop written)
        val = np.int64(0)
        nd = 0
        while j < b:
            d = np.int64(buf[np.uint64(j)]) - 48
            if d < 0 or d > 9:
                break
            val = val * 10 + d
            nd += 1
            j += 1
        if nd == 0 or nd > 18:
            return -1, -1, i
        if field == 1:
            v = val
            break
        u = val
        if j >= b or (buf[np.uint64(j)] != 32 and buf[np.uint64(j)] != 9):
            return -1, -1, i
        j += 1
        while j < b and (buf[np.uint64(j)] == 32 or buf[np.uint64(j)] == 9):
            j += 1
    if j == b:
        return u, v, j
    if buf[np.uint64(j)] != 10:
        return -1, -1, i
    return u, v, j + 1


@njit(cache=True, nogil=True)
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
        i = _skip_to_data(buf, i, b, False)
        if i >= b:
            break
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


@njit(cache=True, nogil=True)
def _first_data_line(buf, lo):
    """(start, end) byte offsets of the first line from ``lo`` on that is neither blank nor a
    comment (end is after its newline), or (-1, -1) when there is none."""
    size = buf.shape[0]
    i = lo
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _starts_with_digit(buf, s, e):
    """Whether the line buf[s:e] starts (after blanks) with a digit, as an integer edge line does."""
    i = s
    while i < e and _is_blank(buf[i]):
        i += 1
    if i < e and buf[i] == 43:  # '+'
        i += 1
    return i < e and 48 <= buf[i] <= 57


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, parallel=True, nogil=True)
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


@njit(cache=True, parallel=True, nogil=True)
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
    it cannot be integer data: it names columns (:func:`_is_header`) and the next data line
    starts with a digit (a file of names fails at its first line instead of losing it). One
    compiled call (one cache load on a first read).
    """
    lo = 0
    if header != 0:
        s, e = _first_data_line(buf, 0)
        if s >= 0:
            if header == 1:
                lo = e  # parse from the line after the header; line numbers still count from byte 0
            elif _is_header(buf, s, e):
                s2, e2 = _first_data_line(buf, e)
                if s2 >= 0 and _starts_with_digit(buf, s2, e2):
                    lo = e
    starts = _chunk_starts(buf, lo, nchunks)
    return starts, _count_edge_lines(buf, starts)


# -- vertex names (ids='str') -----------------------------------------------------------------

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


@njit(cache=True, inline="always")
def _ends_name(c, tabs):
    # tab, CR, LF; unless fields are tab-separated (``tabs``), also space and comma
    return c == 9 or c == 13 or c == 10 or (not tabs and (c == 32 or c == 44))


@njit(cache=True, inline="always")
def _is_control(c):
    return (c < 32 and c != 9 and c != 13 and c != 10) or c == 127


@njit(cache=True, nogil=True)
def _name_at(buf, i, b, tabs):
    """Scan the name starting at i: (error code, hash, start, end, next offset). A name is
    a run of bytes up to a blank, a comma or the newline (``tabs``: up to a tab or the newline,
    spaces at its ends not included); control bytes in it mean binary data."""
    h = _FNV_OFFSET
    if tabs:
        while i < b and buf[i] == 32:
            i += 1
    s = i
    while i < b:
        c = buf[i]
        if _ends_name(c, tabs):
            break
        if _is_control(c):
            return ERR_CONTROL, h, s, i, i
        i += 1
    e = i
    if tabs:
        while e > s and buf[e - 1] == 32:
            e -= 1
    if e == s:
        return ERR_EMPTY_NAME, h, s, s, s
    for j in range(s, e):
        h = (h ^ np.uint64(buf[j])) * _FNV_PRIME
    # a final mix: the table and the part are taken from different bits of the hash
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return OK, h, s, e, i


@njit(cache=True, nogil=True)
def _tokenise_chunk(buf, a, b, tstart, tlen, hashes, out0, tabs):
    """Cut the edge lines of buf[a:b] into two names each; token 2k and 2k + 1 are the ends
    of edge k (from ``out0`` on). Fields are separated by blanks and at most one comma, or with
    ``tabs`` by one tab (names may then hold spaces and commas). Returns (next edge slot, error,
    offset)."""
    i = a
    k = out0
    while i < b:
        i = _skip_to_data(buf, i, b, False)
        if i >= b:
            break
        for end in range(2):
            if end == 1:
                if tabs:
                    if i >= b or buf[i] != 9:
                        return k, ERR_ONE_COLUMN, i
                    i += 1
                    if i >= b or buf[i] == 10 or buf[i] == 13:
                        return k, ERR_ONE_COLUMN, i
                else:
                    i = _skip_separator(buf, i, b)
                    if i >= b or buf[i] == 10 or buf[i] == 35 or buf[i] == 37:
                        return k, ERR_ONE_COLUMN, i
            err, h, s, e, i = _name_at(buf, i, b, tabs)
            if err != OK:
                return k, err, i
            tstart[2 * k + end] = s
            tlen[2 * k + end] = e - s
            hashes[2 * k + end] = h
        # the rest of the line (weights, networkx's {'weight': 1}) is ignored, but control
        # bytes there mean binary data, not text
        while i < b and buf[i] != 10:
            if _is_control(buf[i]):
                return k, ERR_CONTROL, i
            i += 1
        k += 1
    return k, OK, i


@njit(cache=True, parallel=True, nogil=True)
def _tokenise_chunks(buf, starts, offsets, tstart, tlen, hashes, tabs):
    """Tokenise every chunk into its own rows; (written, errors, where) per chunk."""
    nchunks = starts.shape[0] - 1
    written = np.zeros(nchunks, np.int64)
    errors = np.zeros(nchunks, np.int64)
    where = np.zeros(nchunks, np.int64)
    for t in prange(nchunks):
        k, err, pos = _tokenise_chunk(buf, starts[t], starts[t + 1], tstart, tlen, hashes, offsets[t], tabs)
        written[t] = k - offsets[t]
        errors[t] = err
        where[t] = pos
    return written, errors, where


@njit(cache=True, nogil=True)
def _same_name(buf, s1, n1, s2, n2):
    if n1 != n2:
        return False
    for j in range(n1):
        if buf[s1 + j] != buf[s2 + j]:
            return False
    return True


_LEN_SHIFT = np.int64(40)   # a table row keeps token | min(length, _LEN_CAP) << 40
_LEN_CAP = np.int64((1 << 23) - 1)


@njit(cache=True, inline="always")
def _word(buf, s, n, off):
    """Bytes off..off+7 of the name buf[s:s+n] as a little-endian integer, zero-padded."""
    w = np.uint64(0)
    end = min(n, off + 8)
    for j in range(off, end):
        w |= np.uint64(buf[s + j]) << np.uint64(8 * (j - off))
    return np.int64(w)


@njit(cache=True, nogil=True)
def _intern_part(buf, tstart, tlen, hashes, part, nparts, rep):
    """Intern the tokens whose hash falls in ``part``: rep[t] = the first token with t's bytes.

    An open-addressing table, doubled when half full, whose rows hold (hash, first token and
    length, the name's first 16 bytes): a name of up to 16 bytes is compared within its row, so a
    lookup costs one cache miss; only longer names read the first token's bytes from ``buf``.
    """
    size = 1024
    table = np.full((size, 4), -1, np.int64)
    used = 0
    up = np.uint64(nparts)
    p = np.uint64(part)
    for t in range(hashes.shape[0]):
        h = hashes[t]
        if (h >> np.uint64(40)) % up != p:
            continue
        hs = np.int64(h)
        s = tstart[t]
        n = np.int64(tlen[t])
        w0 = _word(buf, s, n, 0)
        w1 = _word(buf, s, n, 8)
        ln = min(n, _LEN_CAP)
        j = np.int64(h & np.uint64(size - 1))
        while True:
            key = table[j, 1]
            if key < 0:
                table[j, 0] = hs
                table[j, 1] = t | (ln << _LEN_SHIFT)
                table[j, 2] = w0
                table[j, 3] = w1
                rep[t] = t
                used += 1
                break
            if table[j, 0] == hs and (key >> _LEN_SHIFT) == ln and table[j, 2] == w0 and table[j, 3] == w1:
                r = key & ((np.int64(1) << _LEN_SHIFT) - 1)
                if n <= 16 or _same_name(buf, tstart[r], tlen[r], s, n):
                    rep[t] = r
                    break
            j = (j + 1) & (size - 1)
        if 2 * used > size:
            size *= 2
            grown = np.full((size, 4), -1, np.int64)
            for q in range(table.shape[0]):
                if table[q, 1] >= 0:
                    g = np.int64(np.uint64(table[q, 0]) & np.uint64(size - 1))
                    while grown[g, 1] >= 0:
                        g = (g + 1) & (size - 1)
                    for c in range(4):
                        grown[g, c] = table[q, c]
            table = grown


@njit(cache=True, parallel=True, nogil=True)
def _intern_tokens(buf, tstart, tlen, hashes, nparts):
    """For every token, the index of the first token with the same bytes (itself when it is the
    first): one part of the hash space per thread, each token written by its part only."""
    rep = np.empty(hashes.shape[0], np.int64)
    for p in prange(nparts):
        _intern_part(buf, tstart, tlen, hashes, p, nparts, rep)
    return rep
