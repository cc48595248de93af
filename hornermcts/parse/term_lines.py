"""Files of one simple term per line, read by a compiled scan: the fast path of :func:`~hornermcts.parse.read_file`.

A polynomial file as FORM prints its terms, or as
:func:`~hornermcts.polynomial.text.write_text` and the benchmarks write
them, holds one term per line: a sign, an optional integer or ``p/q``
coefficient, then ``name`` or ``name^k`` (``name**k``) factors joined by
``*`` (``+3/2*x1^2*y``), or a number alone.  The text parser reads such a
line through regular expressions and a dict of tuple monomials, 50 us a
term (gait2d row 12 expanded, 822,461 terms in 52 variables: 40 s); here
two passes of a Numba kernel over the bytes read it (the first checks every
line and numbers the names in the order they first appear, through a hash
table whose equal hashes are compared byte by byte; the second writes the
exponents and the coefficients), and the
:class:`~hornermcts.polynomial.Polynomial` is made from those arrays, as the
text parser makes it from its dict (the same columns in the same order, the
terms in the order they first appear, equal monomials merged, zero sums
dropped).

Anything else, a header ``F =``, a ``;``, two terms on a line, a number
beyond 18 digits or with a point, a name FORM or SymPy treat apart
(``pi_``, ``i_``, ``oo``, ``zoo``, ``nan``), a byte that is not ASCII, given
``symbols``, is left to the text parser: :func:`read_term_lines` returns
None, and its errors are the text parser's.

Examples
--------
>>> p = read_term_lines(b"+3/2*x^2*y\\n-y\\n+x*x\\n+7\\n")
>>> p.symbols, p.exponents.tolist(), p.coefficients
((x, y), [[2, 1], [0, 1], [2, 0], [0, 0]], (3/2, -1, 1, 7))
>>> read_term_lines(b"F = x + y;") is None
True
"""
from __future__ import annotations

import numpy as np
import sympy
from numba import njit

from ..polynomial.sparse import MAX_EXPONENT, Polynomial
from .builder import check_cells
from .text import CONSTANTS, NOT_FINITE_NAMES

__all__ = ["read_term_lines", "COMPILED_FROM_BYTES"]

#: The names a line of simple terms may not hold: FORM's constants, and what is not finite.
_RESERVED = frozenset(CONSTANTS) | frozenset(NOT_FINITE_NAMES)
#: Files from this size on (4 MB) are scanned; smaller ones are parsed as text in less time than a fresh process
#: loads the kernels (1 MB, 40,000 terms: parsed 0.39 s, scanned 0.10 s, loaded and scanned 0.90 s).
COMPILED_FROM_BYTES = 4 << 20
#: Most distinct names the scan's table holds (more: the text parser reads the file).
MAX_NAMES = 2**19
#: Digits of a coefficient's numerator or denominator the scan reads (more: the text parser).
_MAX_DIGITS = 18

_PLUS, _MINUS, _STAR, _SLASH, _CARET, _NEWLINE = 43, 45, 42, 47, 94, 10


@njit(cache=True, inline="always")
def _space(c):
    return c == 32 or c == 9 or c == 13 or c == 11 or c == 12


@njit(cache=True, inline="always")
def _digit(c):
    return 48 <= c <= 57


@njit(cache=True, inline="always")
def _name_start(c):
    return (65 <= c <= 90) or (97 <= c <= 122) or c == 95


@njit(cache=True, inline="always")
def _name_char(c):
    return _name_start(c) or _digit(c)


@njit(cache=True)
def _skip(buf, i, end):
    while i < end and _space(buf[i]):
        i += 1
    return i


@njit(cache=True)
def _number(buf, i, end):
    """``(value, next index)`` of the digits at ``i``; value -1 beyond :data:`_MAX_DIGITS` digits."""
    value = 0
    start = i
    while i < end and _digit(buf[i]):
        if i - start >= _MAX_DIGITS:
            return -1, i
        value = value * 10 + (buf[i] - 48)
        i += 1
    return value, i


@njit(cache=True)
def _name_id(buf, start, stop, slots, first, length, n_names):
    """The name ``buf[start:stop]``'s number (a new one: ``n_names``), or -1 when the table is full."""
    h = np.uint64(14695981039346656037)
    for k in range(start, stop):
        h = (h ^ np.uint64(buf[k])) * np.uint64(1099511628211)
    mask = np.uint64(slots.shape[0] - 1)
    slot = h & mask
    while True:
        name = slots[slot]
        if name < 0:
            if 2 * (n_names + 1) > slots.shape[0]:
                return -1
            slots[slot] = n_names
            first[n_names], length[n_names] = start, stop - start
            return n_names
        if length[name] == stop - start:
            same = True
            for k in range(stop - start):
                if buf[first[name] + k] != buf[start + k]:
                    same = False
                    break
            if same:
                return name
        slot = (slot + np.uint64(1)) & mask


@njit(cache=True)
def _line(buf, i, end, leading, slots, first, length, n_names, exps, row, out):
    """Read the term of ``buf[i:end]`` (a nonblank line): ``(status, n_names)``, status 0 for a simple term.

    ``out`` gets the signed numerator and the denominator; ``exps[row]`` (when ``row >= 0``) the exponents.
    """
    sign = 1
    if buf[i] == _PLUS or buf[i] == _MINUS:
        sign = -1 if buf[i] == _MINUS else 1
        i = _skip(buf, i + 1, end)
    elif not leading:
        return 1, n_names  # a line without a sign continues the term before it
    num, den = 1, 1
    if i < end and _digit(buf[i]):
        num, i = _number(buf, i, end)
        if num < 0:
            return 1, n_names
        i = _skip(buf, i, end)
        if i < end and buf[i] == _SLASH:
            i = _skip(buf, i + 1, end)
            if i == end or not _digit(buf[i]):
                return 1, n_names
            den, i = _number(buf, i, end)
            if den <= 0:  # a division by zero, or too many digits
                return 1, n_names
            i = _skip(buf, i, end)
        if i == end:
            out[0], out[1] = sign * num, den
            return 0, n_names
        if buf[i] != _STAR or (i + 1 < end and buf[i + 1] == _STAR):
            return 1, n_names
        i = _skip(buf, i + 1, end)
    while True:
        if i == end or not _name_start(buf[i]):
            return 1, n_names
        start = i
        while i < end and _name_char(buf[i]):
            i += 1
        name = _name_id(buf, start, i, slots, first, length, n_names)
        if name < 0:
            return 1, n_names
        if name == n_names:
            n_names += 1
        i = _skip(buf, i, end)
        power = 1
        if i < end and (buf[i] == _CARET or (buf[i] == _STAR and i + 1 < end and buf[i + 1] == _STAR)):
            i = _skip(buf, i + (1 if buf[i] == _CARET else 2), end)
            if i == end or not _digit(buf[i]):
                return 1, n_names
            power, i = _number(buf, i, end)
            if power < 0 or power > MAX_EXPONENT:
                return 1, n_names
            i = _skip(buf, i, end)
        if row >= 0:
            exps[row, name] += power
            if exps[row, name] > MAX_EXPONENT:
                return 1, n_names
        if i == end:
            out[0], out[1] = sign * num, den
            return 0, n_names
        if buf[i] != _STAR or (i + 1 < end and buf[i + 1] == _STAR):
            return 1, n_names
        i = _skip(buf, i + 1, end)


@njit(cache=True)
def _scan(buf, slots, first, length, exps, nums, dens, write):
    """Both passes: ``(status, terms, names)``; ``write`` fills ``exps``, ``nums`` and ``dens`` (second pass)."""
    n, pos, terms, n_names = buf.shape[0], 0, 0, 0
    out = np.zeros(2, dtype=np.int64)
    while pos < n:
        end = pos
        while end < n and buf[end] != _NEWLINE:
            end += 1
        i = _skip(buf, pos, end)
        if i < end:
            status, n_names = _line(buf, i, end, terms == 0, slots, first, length, n_names, exps,
                                    terms if write else -1, out)
            if status:
                return status, terms, n_names
            if write:
                nums[terms], dens[terms] = out[0], out[1]
            terms += 1
        pos = end + 1
    return 0, terms, n_names


def read_term_lines(data: bytes, max_terms: int | None = None) -> Polynomial | None:
    """The polynomial of a file of one simple term per line (see the module), or None for any other text.

    Raises LimitError as the text parser does when the terms x variables
    exceed the cells ``max_terms`` allows.
    """
    if not data or data.startswith(b"\xef\xbb\xbf"):
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    if buf.max() >= 128:
        return None
    most = data.count(b"*") + data.count(b"\n") + 1  # names, at most: one per factor
    slots = np.full(2 * min(MAX_NAMES, 1 << max(4, most.bit_length())), -1, dtype=np.int64)
    first = np.zeros(len(slots) // 2 + 1, dtype=np.int64)
    length = np.zeros_like(first)
    status, n_terms, n_names = _scan(buf, slots, first, length, np.zeros((0, 0), dtype=np.int64),
                                     np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), False)
    names = [data[first[k]:first[k] + length[k]].decode() for k in range(n_names)]
    if status or not n_terms or not n_names or _RESERVED.intersection(names):
        return None
    check_cells(n_terms, n_names, max_terms)  # the terms: the lines (equal monomials are merged below)
    exps = np.zeros((n_terms, n_names), dtype=np.int64)
    nums = np.zeros(n_terms, dtype=np.int64)
    dens = np.zeros(n_terms, dtype=np.int64)
    slots[:] = -1
    status, _, _ = _scan(buf, slots, first, length, exps, nums, dens, True)
    if status:
        return None
    numbers: dict = {}
    coefficients = [numbers.get(pair) or numbers.setdefault(pair, sympy.Rational(*pair))
                    for pair in zip(nums.tolist(), dens.tolist())]
    poly = Polynomial([sympy.Symbol(name) for name in names], exps, coefficients, copy=False)  # ours: handed over
    del exps
    used = poly.exponents.any(axis=0)
    if not used.any():
        return None  # a constant: the text parser's way
    if not used.all():  # names only to the power 0, or only in terms that cancel, are no columns
        poly = Polynomial([s for s, u in zip(poly.symbols, used) if u], poly.exponents[:, used], poly.coefficients,
                          copy=False)
    return poly
