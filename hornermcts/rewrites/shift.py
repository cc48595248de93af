"""A shift ``x_i -> x_i + s*x_j`` of a polynomial held as arrays: its number of terms, and the result.

The linear substitution (:mod:`hornermcts.rewrites.substitution`) tries
several such steps per round and keeps the one leaving the fewest terms.
Composing each with python-flint took 8 s on gait2d row 12 expanded
(822,461 terms in 52 variables), 125 s of the search's 284 s; here a step's
term count is exact without building its polynomial: each term
``c*x_i^a*m`` gives the ``a + 1`` terms ``c*binom(a, b)*s^(a-b)*x_i^b*x_j^(a-b)*m``,
which an open-addressing table keyed by the exponent rows merges (a 64-bit
linear hash of the row, updated by ``b`` without writing the row; equal
hashes are compared row by row, so the count is exact), 0.25 s on that row.
Only the step taken is built (:func:`shifted`), its terms in FLINT's
``lex`` order (the variables' exponents compared in column order, the
largest first), the order the composition gave, so that nothing after it
changes.

The coefficients are 64-bit integers: :func:`fits` says when no sum can
overflow (``sum |c| * 2^a < 2^62``, ``a`` the term's exponent of ``x_i``);
the caller composes with FLINT otherwise.

Examples
--------
>>> import numpy as np
>>> exps = np.array([[2, 0], [1, 1], [0, 2]])       # x^2 - 2*x*y + y^2 = (x - y)^2
>>> ints = np.array([1, -2, 1])
>>> shifted_count(exps, ints, 0, 1, 1)               # x -> x + y: x^2
1
>>> shifted(exps, ints, 0, 1, 1)
(array([[2, 0]]), array([1]))
>>> fits(ints, exps, 0), fits(np.array([2**61]), np.array([[1, 0]]), 0)
(True, False)
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["Shifts", "fits", "lex_order", "shifted_count", "shifted"]

#: The hash's weights (fixed: the counts do not depend on them, only the time does).
_WEIGHTS_SEED = 0
#: Sums of coefficients stay below this in absolute value (int64 holds 2^63 - 1).
_SAFE = 2.0**62


def _weights(n_vars: int) -> np.ndarray:
    return np.random.default_rng(_WEIGHTS_SEED).integers(1, 2**62, n_vars, dtype=np.int64).astype(np.uint64) | 1


def fits(ints: np.ndarray, exps: np.ndarray, i: int) -> bool:
    """Whether the shifts of column ``i`` keep every coefficient (and every sum of them) within int64."""
    bound = float(np.sum(np.abs(ints.astype(np.float64)) * np.exp2(exps[:, i].astype(np.float64))))
    return bound < _SAFE


@njit(cache=True)
def _hashes(exps, weights):
    out = np.zeros(exps.shape[0], dtype=np.uint64)
    for t in range(exps.shape[0]):
        h = np.uint64(0)
        for k in range(exps.shape[1]):
            h += np.uint64(exps[t, k]) * weights[k]
        out[t] = h
    return out


@njit(cache=True)
def _binomials(n):
    out = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        out[a, 0] = 1
        for b in range(1, a + 1):
            out[a, b] = out[a - 1, b - 1] + out[a - 1, b]
    return out


@njit(cache=True)
def _same(exps, t, b, u, c, i, j):
    """Whether term ``t`` with ``x_i^b`` and term ``u`` with ``x_i^c`` of the shift have one exponent row."""
    if b != c:
        return False
    for k in range(exps.shape[1]):
        if k == j:
            if exps[t, j] + exps[t, i] != exps[u, j] + exps[u, i]:
                return False
        elif k != i and exps[t, k] != exps[u, k]:
            return False
    return True


@njit(cache=True)
def _table(exps, ints, hashes, i, j, s, wi, wj, binom):
    """The shift's terms merged: ``(source term, b, coefficient)`` per slot (source -1: empty)."""
    total = 0
    for t in range(exps.shape[0]):
        total += exps[t, i] + 1
    size = 2
    while size < 2 * total:
        size *= 2
    mask = np.uint64(size - 1)
    keys = np.empty(size, dtype=np.uint64)  # a slot's key, power and sum are read only once its source is set
    source = np.full(size, -1, dtype=np.int32)  # (terms below 2^31)
    power = np.empty(size, dtype=np.int64)
    sums = np.empty(size, dtype=np.int64)
    step = wj - wi
    for t in range(exps.shape[0]):
        a = exps[t, i]
        for b in range(a + 1):
            h = hashes[t] + step * np.uint64(a - b)
            c = ints[t] * binom[a, b]
            if s < 0 and (a - b) % 2 == 1:
                c = -c
            slot = (h ^ (h >> np.uint64(31))) & mask
            while True:
                u = source[slot]
                if u < 0:
                    keys[slot], source[slot], power[slot], sums[slot] = h, t, b, c
                    break
                if keys[slot] == h and _same(exps, t, b, u, power[slot], i, j):
                    sums[slot] += c
                    break
                slot = (slot + np.uint64(1)) & mask
    return source, power, sums


@njit(cache=True)
def _count(source, sums):
    n = 0
    for k in range(source.shape[0]):
        if source[k] >= 0 and sums[k] != 0:
            n += 1
    return n


@njit(cache=True)
def _slots(source, sums):
    """The table's slots holding a nonzero term, in table order."""
    slots = np.empty(_count(source, sums), dtype=np.int64)
    r = 0
    for k in range(source.shape[0]):
        if source[k] >= 0 and sums[k] != 0:
            slots[r] = k
            r += 1
    return slots


@njit(cache=True)
def _row(exps, i, j, t, b, k):
    """Exponent ``k`` of term ``t``'s shifted term with ``x_i^b``."""
    if k == i:
        return b
    if k == j:
        return exps[t, j] + exps[t, i] - b
    return exps[t, k]


@njit(cache=True)
def _packed_slots(exps, i, j, slots, source, power, bits, per_word):
    """:func:`_packed` of the rows the ``slots`` of the table stand for, without writing the rows."""
    words = (exps.shape[1] + per_word - 1) // per_word
    out = np.zeros((slots.shape[0], words), dtype=np.uint64)
    for r in range(slots.shape[0]):
        t, b = source[slots[r]], power[slots[r]]
        for k in range(exps.shape[1]):
            w = k // per_word
            out[r, w] = (out[r, w] << np.uint64(bits)) | np.uint64(_row(exps, i, j, t, b, k))
    return out


@njit(cache=True)
def _rows(exps, i, j, slots, source, power, sums):
    """The terms of the table's ``slots``, in that order, as exponent rows and coefficients."""
    out = np.empty((slots.shape[0], exps.shape[1]), dtype=np.int64)
    coefs = np.empty(slots.shape[0], dtype=np.int64)
    for r in range(slots.shape[0]):
        t, b = source[slots[r]], power[slots[r]]
        for k in range(exps.shape[1]):
            out[r, k] = _row(exps, i, j, t, b, k)
        coefs[r] = sums[slots[r]]
    return out, coefs


@njit(cache=True)
def _packed(exps, bits, per_word):
    """Each row's exponents packed into words, column 0 in the highest bits of word 0."""
    n, v = exps.shape
    words = (v + per_word - 1) // per_word
    out = np.zeros((n, words), dtype=np.uint64)
    for t in range(n):
        for k in range(v):
            w = k // per_word
            out[t, w] = (out[t, w] << np.uint64(bits)) | np.uint64(exps[t, k])
    return out


def lex_order(exps: np.ndarray) -> np.ndarray:
    """The permutation putting distinct exponent rows in FLINT's ``lex`` order: column 0 first, largest first."""
    if exps.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    bits = max(int(exps.max()).bit_length(), 1)
    if bits > 63:
        keys = [exps[:, k] for k in range(exps.shape[1] - 1, -1, -1)]
    else:
        packed = _packed(exps, bits, 63 // bits)
        keys = [packed[:, w] for w in range(packed.shape[1] - 1, -1, -1)]
    return np.lexsort(keys)[::-1]


class Shifts:
    """The shifts of one polynomial ``sum ints[t] * x^exps[t]`` (int64 coefficients): counted, checked, built.

    >>> shifts = Shifts(np.array([[1, 0], [0, 1]]), np.array([1, -1]))   # x - y
    >>> shifts.count(0, 1, 1), shifts.count(1, 0, 1), shifts.count(0, 1, -1), shifts.fits(0)
    (1, 1, 2, True)
    """

    def __init__(self, exps: np.ndarray, ints: np.ndarray) -> None:
        self.exps = np.ascontiguousarray(exps, dtype=np.int64)
        self.ints = np.ascontiguousarray(ints, dtype=np.int64)
        self.weights = _weights(self.exps.shape[1])
        self.hashes = _hashes(self.exps, self.weights)
        self.binomials = _binomials(int(self.exps.max(initial=0)))

    def fits(self, i: int) -> bool:
        """Whether the shifts of column ``i`` keep every coefficient, and every sum of them, within int64."""
        return fits(self.ints, self.exps, i)

    def _table(self, i: int, j: int, s: int) -> tuple:
        return _table(self.exps, self.ints, self.hashes, i, j, s, self.weights[i], self.weights[j], self.binomials)

    def count(self, i: int, j: int, s: int) -> int:
        """Terms after ``x_i -> x_i + s*x_j`` (check :meth:`fits` first)."""
        source, _, sums = self._table(i, j, s)
        return int(_count(source, sums))

    def shifted(self, i: int, j: int, s: int) -> tuple[np.ndarray, np.ndarray]:
        """``(exponents, coefficients)`` after ``x_i -> x_i + s*x_j``, in FLINT's ``lex`` order (:func:`lex_order`)."""
        source, power, sums = self._table(i, j, s)
        slots = _slots(source, sums)
        # the rows' lex order from their packed words, then the rows written in it (one matrix, not two); an
        # exponent of the result is at most twice the largest (x_j takes x_i's)
        bits = max((2 * int(self.exps.max(initial=0))).bit_length(), 1)
        packed = _packed_slots(self.exps, i, j, slots, source, power, bits, 63 // bits)
        order = np.lexsort([packed[:, w] for w in range(packed.shape[1] - 1, -1, -1)])[::-1]
        return _rows(self.exps, i, j, slots[order], source, power, sums)


def shifted_count(exps: np.ndarray, ints: np.ndarray, i: int, j: int, s: int) -> int:
    """Terms of ``sum ints[t] * x^exps[t]`` after ``x_i -> x_i + s*x_j`` (:class:`Shifts` for several steps)."""
    return Shifts(exps, ints).count(i, j, s)


def shifted(exps: np.ndarray, ints: np.ndarray, i: int, j: int, s: int) -> tuple[np.ndarray, np.ndarray]:
    """``(exponents, coefficients)`` after ``x_i -> x_i + s*x_j`` (:meth:`Shifts.shifted`)."""
    return Shifts(exps, ints).shifted(i, j, s)
