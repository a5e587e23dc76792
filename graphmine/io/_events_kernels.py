"""Numba kernels behind :mod:`graphmine.io.events`: tokenising event files and shaping items.

Contract: ``buf`` is a uint8 array of a text file's bytes; each chunk [a, b) starts at the
beginning of a line and ends after a newline (or at the end of the buffer). Tokens are separated
by blanks (space, tab, CR, VT, FF) or commas; a token starting with ``#`` or ``%`` starts a comment
that runs to the end of the line; blank and comment-only lines hold no data. Kernels never raise:
value parsers write an error code per token and the caller turns the first one into a
GraphFormatError with the line number (:func:`graphmine._primitives.parse_kernels._line_of`).
"""

import numpy as np
from numba import njit, prange

from .._primitives.csr_kernels import _sort_short_row
from .._primitives.parse_kernels import _parse_float, _skip_to_data

OK = 0
ERR_INT = 1          # not an integer vertex id
ERR_NEGATIVE = 2     # a negative vertex id
ERR_TOO_LARGE = 3    # an id that does not fit in int64
ERR_TIME = 4         # not a number
ERR_DATE = 5         # not a valid YYYY-MM-DD date
ERR_CONTROL = 6      # a control byte inside a token (binary data)
ERR_LONG = 7         # a string id longer than the limit

_INT64_MAX = np.int64(9223372036854775807)


@njit(cache=True, inline="always")
def _sep(c):
    return c == 32 or c == 9 or c == 13 or c == 44 or c == 11 or c == 12


@njit(cache=True, nogil=True)
def _scan_chunk(buf, a, b, line_start, line_ntok, tok_start, tok_end, l0, t0, write):
    """Walk buf[a:b]; count (write=False) or record (write=True, from line l0 and token t0) the
    data lines (their first byte, their token count) and the tokens (first byte, end byte).
    Returns (lines, tokens)."""
    i = a
    nl = 0
    nt = 0
    while i < b:
        i = _skip_to_data(buf, i, b, True)
        if i >= b:
            break
        start = i
        k = 0
        while i < b and buf[i] != 10:
            while i < b and _sep(buf[i]):
                i += 1
            if i >= b or buf[i] == 10:
                break
            if buf[i] == 35 or buf[i] == 37:
                while i < b and buf[i] != 10:
                    i += 1
                break
            s = i
            while i < b and buf[i] != 10 and not _sep(buf[i]):
                i += 1
            if write:
                tok_start[t0 + nt + k] = s
                tok_end[t0 + nt + k] = i
            k += 1
        if write:
            line_start[l0 + nl] = start
            line_ntok[l0 + nl] = k
        nl += 1
        nt += k
        i += 1
    return nl, nt


@njit(cache=True, parallel=True, nogil=True)
def _count_tokens(buf, starts):
    """(data lines, tokens) of every chunk."""
    nch = starts.shape[0] - 1
    lines = np.zeros(nch, np.int64)
    toks = np.zeros(nch, np.int64)
    dummy = np.empty(0, np.int64)
    for c in prange(nch):
        lines[c], toks[c] = _scan_chunk(buf, starts[c], starts[c + 1], dummy, dummy, dummy, dummy, 0, 0, False)
    return lines, toks


@njit(cache=True, parallel=True, nogil=True)
def _record_tokens(buf, starts, line_off, tok_off, line_start, line_ntok, tok_start, tok_end):
    nch = starts.shape[0] - 1
    for c in prange(nch):
        _scan_chunk(buf, starts[c], starts[c + 1], line_start, line_ntok, tok_start, tok_end,
                    line_off[c], tok_off[c], True)


@njit(cache=True, parallel=True, nogil=True)
def _parse_int_tokens(buf, tok_start, tok_end, idx, out, err):
    """Non-negative decimal integers of the tokens ``idx`` (a leading '+' allowed)."""
    for j in prange(idx.shape[0]):
        t = idx[j]
        i = tok_start[t]
        e = tok_end[t]
        if i < e and buf[i] == 43:
            i += 1
        if i < e and buf[i] == 45:
            err[j] = ERR_NEGATIVE if i + 1 < e and 48 <= buf[i + 1] <= 57 else ERR_INT
            continue
        val = np.int64(0)
        nd = 0
        code = OK
        while i < e:
            c = buf[i]
            if c < 48 or c > 57:
                code = ERR_CONTROL if (c < 32 or c == 127) else ERR_INT
                break
            d = np.int64(c - 48)
            if nd >= 18 and val > (_INT64_MAX - d) // 10:
                code = ERR_TOO_LARGE
                break
            val = val * 10 + d
            nd += 1
            i += 1
        if code == OK and nd == 0:
            code = ERR_INT
        err[j] = code
        out[j] = val


@njit(cache=True, inline="always")
def _leap(y):
    return (y % 4 == 0 and y % 100 != 0) or y % 400 == 0


@njit(cache=True, nogil=True)
def days_from_civil(y, m, d):
    """Days since 1970-01-01 of the proleptic Gregorian date y-m-d."""
    y = y - (1 if m <= 2 else 0)
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    mp = m - 3 if m > 2 else m + 9
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


@njit(cache=True, nogil=True)
def _digits(buf, i, n):
    v = 0
    for k in range(n):
        c = buf[i + k]
        if c < 48 or c > 57:
            return -1
        v = v * 10 + (c - 48)
    return v


@njit(cache=True, nogil=True)
def _parse_date(buf, i, e):
    """(ok, days since 1970-01-01) of a YYYY-MM-DD token."""
    if e - i != 10 or buf[i + 4] != 45 or buf[i + 7] != 45:
        return False, np.int64(0)
    y = _digits(buf, i, 4)
    m = _digits(buf, i + 5, 2)
    d = _digits(buf, i + 8, 2)
    if y < 0 or m < 1 or m > 12 or d < 1:
        return False, np.int64(0)
    mdays = 31
    if m == 4 or m == 6 or m == 9 or m == 11:
        mdays = 30
    elif m == 2:
        mdays = 29 if _leap(y) else 28
    if d > mdays:
        return False, np.int64(0)
    return True, np.int64(days_from_civil(y, m, d))


@njit(cache=True, parallel=True, nogil=True)
def _parse_time_tokens(buf, tok_start, tok_end, idx, dates, out_i, out_f, is_float, err):
    """Times of the tokens ``idx``: dates (YYYY-MM-DD, as days since 1970-01-01) when ``dates``,
    else numbers: integers (|t| < 10**18) into out_i and out_f, other decimals into out_f with
    ``is_float`` set."""
    for j in prange(idx.shape[0]):
        t = idx[j]
        i = tok_start[t]
        e = tok_end[t]
        if dates:
            ok, v = _parse_date(buf, i, e)
            err[j] = OK if ok else ERR_DATE
            out_i[j] = v
            out_f[j] = v
            continue
        k = i
        neg = False
        if k < e and (buf[k] == 43 or buf[k] == 45):
            neg = buf[k] == 45
            k += 1
        val = np.int64(0)
        nd = 0
        while k < e and 48 <= buf[k] <= 57 and nd < 18:
            val = val * 10 + np.int64(buf[k] - 48)
            nd += 1
            k += 1
        if nd > 0 and k == e:
            v = -val if neg else val
            out_i[j] = v
            out_f[j] = v
            err[j] = OK
            continue
        code, fv, nxt = _parse_float(buf, i, e)
        if code != 0 or nxt != e or not np.isfinite(fv):
            bad = False
            for q in range(i, e):
                if buf[q] < 32 or buf[q] == 127:
                    bad = True
            err[j] = ERR_CONTROL if bad else ERR_TIME
            continue
        out_f[j] = fv
        is_float[j] = 1
        err[j] = OK


@njit(cache=True, parallel=True, nogil=True)
def _token_bytes(buf, tok_start, tok_end, idx, width, out, err):
    """The tokens ``idx`` as zero-padded rows of ``width`` bytes (string vertex ids)."""
    for j in prange(idx.shape[0]):
        t = idx[j]
        i = tok_start[t]
        e = tok_end[t]
        if e - i > width:
            err[j] = ERR_LONG
            continue
        code = OK
        for k in range(e - i):
            c = buf[i + k]
            if c < 32 or c == 127:
                code = ERR_CONTROL
            out[j, k] = c
        err[j] = code


@njit(cache=True, parallel=True, nogil=True)
def _sort_unique_items(ptr, nodes, sizes):
    """Sort every item's vertices in place; ``sizes[i]`` = its number of distinct vertices."""
    for i in prange(ptr.shape[0] - 1):
        a = ptr[i]
        b = ptr[i + 1]
        _sort_short_row(nodes, a, b)  # items are small: mostly insertion sorts
        c = 0
        for k in range(a, b):
            if k == a or nodes[k] != nodes[k - 1]:
                c += 1
        sizes[i] = c


@njit(cache=True, parallel=True, nogil=True)
def _gather_items(ptr, nodes, order, new_ptr, out):
    """Item ``order[i]``'s distinct (sorted) vertices into out[new_ptr[i]:new_ptr[i + 1]]."""
    for i in prange(order.shape[0]):
        s = order[i]
        a = ptr[s]
        w = new_ptr[i]
        for k in range(a, ptr[s + 1]):
            if k == a or nodes[k] != nodes[k - 1]:
                out[w] = nodes[k]
                w += 1


@njit(cache=True, parallel=True, nogil=True)
def _item_pairs(ptr, nodes, offsets, times, u, v, t):
    """Every pair (nodes[p] < nodes[q]) of every item, with the item's time, from offsets[i]."""
    for i in prange(ptr.shape[0] - 1):
        a = ptr[i]
        b = ptr[i + 1]
        w = offsets[i]
        for p in range(a, b):
            for q in range(p + 1, b):
                u[w] = nodes[p]
                v[w] = nodes[q]
                t[w] = times[i]
                w += 1
