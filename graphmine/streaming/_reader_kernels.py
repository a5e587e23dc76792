"""Numba kernel that parses a signed edge stream, ``[+|-] u v [ignored columns]`` per line.

Contract: ``buf`` is a uint8 array of whole lines (the last may lack its newline); ``sg``, ``u``,
``v`` hold at least one entry per line. Returns (events written, error code, byte offset of the
error); never raises. A line without a sign is an insertion; columns after the two ids (a time,
a weight) are ignored; ``#`` and ``%`` start comment lines. Codes are those of
:mod:`graphmine._primitives.parse_kernels`.
"""

from numba import njit

from .._primitives.parse_kernels import (ERR_CONTROL, ERR_ONE_COLUMN, OK, _is_blank, _parse_id, _skip_separator,
                                         _skip_to_data)


@njit(cache=True, nogil=True)
def _parse_signed(buf, sg, u, v):
    b = buf.shape[0]
    i = 0
    k = 0
    while True:
        i = _skip_to_data(buf, i, b, False)
        if i >= b:
            break
        sign = 1
        c = buf[i]
        if (c == 43 or c == 45) and (i + 1 >= b or _is_blank(buf[i + 1]) or buf[i + 1] == 10):
            sign = 1 if c == 43 else -1  # a '+' or '-' column of its own
            start = i
            i = _skip_separator(buf, i + 1, b)
            if i >= b or buf[i] == 10:
                return k, ERR_ONE_COLUMN, start
        err, a, i = _parse_id(buf, i, b)
        if err != OK:
            return k, err, i
        start = i
        i = _skip_separator(buf, i, b)
        if i >= b or buf[i] == 10 or buf[i] == 35 or buf[i] == 37:
            return k, ERR_ONE_COLUMN, start
        err, w, i = _parse_id(buf, i, b)
        if err != OK:
            return k, err, i
        while i < b and buf[i] != 10:  # further columns: ignored, but binary data is refused
            c = buf[i]
            if (c < 32 and c != 9 and c != 13) or c == 127:
                return k, ERR_CONTROL, i
            i += 1
        sg[k] = sign
        u[k] = a
        v[k] = w
        k += 1
    return k, OK, i
