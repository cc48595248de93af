"""The compiled (Numba) Karmarkar-Karp run of the tree search's simulation, on multi-limb integers.

The numbers of the hard instances have ``N`` bits (``N`` up to 1000), wider
than any machine integer, and their discrepancies need every bit. Here a
number is a row of ``L`` 32-bit limbs (uint32, least significant first),
``L`` chosen from the instance's sum, so that every number a search can make
(a difference or a sum of numbers) fits. Differences, comparisons and the
halving of the sum are exact limb arithmetic with borrows.

:func:`kk_descend` is the loop of
:meth:`~hornermcts.domains.number_partitioning.NumberPartitioning.descend`:
from a tree state (the originals not yet taken, which are the smallest,
plus the numbers made by moves), replace the two largest ``u >= v`` by
``u - v`` until a leaf of the complete-KK tree (four numbers or fewer, or
``u >= floor(sum / 2)``). The working set is a pool of limb rows and an
index array kept in descending order (the two largest are at the head);
a difference goes into ``u``'s row and its index is inserted by binary
search, shifting the shorter side of the array (differences are small, so
usually few indices move). Like the Python loop, a popped number equal to
the largest original left counts as that original (the state's
bookkeeping: the originals left are always the smallest ones).

The limb arithmetic (:func:`compare`, :func:`subtract_into`,
:func:`add_into`, :func:`top_limb`) is shared with the compiled tree search
(:mod:`.tree_kernels`), which also scores leaves here: :func:`limbs_to_float`
is Python's ``float(int)`` of a limb row (correctly rounded: 64 bits and a
sticky bit, rounded once) and :func:`limbs_log2` is ``math.log2(int)``
exactly as CPython computes it, so that the compiled search compares the
same floats as the generic one.

:func:`to_limbs` and :func:`from_limbs` convert between Python ints and
limb rows. Measured against the Python loop (``bisect.insort`` on a list of
ints, the fastest Python container, see :mod:`.karmarkar_karp`) on one core:
see :func:`~hornermcts.domains.number_partitioning.NumberPartitioning.descend`.

Examples
--------
>>> import numpy as np
>>> limbs = to_limbs([5, 2**40 + 3], 2)
>>> limbs.tolist(), from_limbs(limbs[1])
([[5, 0], [3, 256]], 1099511627779)
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from numba import njit

__all__ = ["limb_count", "to_limbs", "from_limbs", "kk_descend", "compare", "subtract_into", "add_into", "top_limb",
           "insert_descending", "limbs_to_float", "limbs_log2"]

_BASE = np.int64(1) << np.int64(32)


def limb_count(bits: int) -> int:
    """How many 32-bit limbs hold a number of ``bits`` bits (at least one).

    >>> limb_count(1), limb_count(32), limb_count(33)
    (1, 1, 2)
    """
    return max(1, -(-bits // 32))


def to_limbs(numbers: Sequence[int], limbs: int) -> np.ndarray:
    """The numbers as an ``(len(numbers), limbs)`` uint32 array, least significant limb first."""
    width = 4 * limbs
    data = bytearray(b"".join([int(x).to_bytes(width, "little") for x in numbers]))
    return np.frombuffer(data, dtype="<u4").reshape(len(numbers), limbs)


def from_limbs(row: np.ndarray) -> int:
    """The Python int of one limb row."""
    return int.from_bytes(np.ascontiguousarray(row, dtype="<u4").tobytes(), "little")


@njit(cache=True, inline="always")
def compare(a, i, b, j, top):  # pragma: no cover - compiled
    """-1, 0 or 1 as a[i] < b[j], a[i] == b[j], a[i] > b[j], for rows whose limbs above ``top`` are zero."""
    for k in range(top, -1, -1):
        x = a[i, k]
        y = b[j, k]
        if x != y:
            return 1 if x > y else -1
    return 0


@njit(cache=True, inline="always")
def subtract_into(a, i, b, j, limbs):  # pragma: no cover - compiled
    """a[i] -= b[j] (a[i] >= b[j])."""
    borrow = np.int64(0)
    for k in range(limbs):
        t = np.int64(a[i, k]) - np.int64(b[j, k]) - borrow
        if t < 0:
            t += _BASE
            borrow = 1
        else:
            borrow = 0
        a[i, k] = np.uint32(t)


@njit(cache=True, inline="always")
def add_into(a, i, b, j, limbs):  # pragma: no cover - compiled
    """a[i] += b[j] (the sum fits in ``limbs`` limbs)."""
    carry = np.int64(0)
    for k in range(limbs):
        t = np.int64(a[i, k]) + np.int64(b[j, k]) + carry
        if t >= _BASE:
            t -= _BASE
            carry = 1
        else:
            carry = 0
        a[i, k] = np.uint32(t)


@njit(cache=True, inline="always")
def top_limb(a, i, limbs):  # pragma: no cover - compiled
    """The index of the highest non-zero limb of a[i] (0 for zero)."""
    top = limbs - 1
    while top > 0 and a[i, top] == 0:
        top -= 1
    return top


@njit(cache=True)
def _rounded(a, i, limbs):  # pragma: no cover - compiled
    """``(h, shift)``: a[i] is about ``h * 2**shift``, ``h`` a float rounded from 64 bits and a sticky bit."""
    top = top_limb(a, i, limbs)
    word = np.uint64(a[i, top])
    if top == 0:
        return float(word), 0
    bits = 32 * top + 64 - _leading_zeros(word)
    if bits <= 64:  # two limbs hold it exactly; the conversion rounds once
        return float((word << np.uint64(32)) | np.uint64(a[i, top - 1])), 0
    shift = bits - 64  # keep bits [shift, shift + 64); the rest only as a sticky bit
    q = shift // 32
    off = shift % 32
    high = np.uint64(a[i, q]) >> np.uint64(off)
    high |= np.uint64(a[i, q + 1]) << np.uint64(32 - off)
    sticky = False
    if off > 0:
        if q + 2 < limbs:
            high |= np.uint64(a[i, q + 2]) << np.uint64(64 - off)
        if np.uint64(a[i, q]) & ((np.uint64(1) << np.uint64(off)) - np.uint64(1)):
            sticky = True
    for k in range(q):
        if a[i, k]:
            sticky = True
    if sticky:  # below the rounding bit: turns an exact tie into "above half", changes nothing else
        high |= np.uint64(1)
    return float(high), shift


@njit(cache=True)
def limbs_to_float(a, i, limbs):  # pragma: no cover - compiled
    """float(a[i]) correctly rounded (to nearest, ties to even), as Python's ``float(int)``; inf past the range."""
    high, shift = _rounded(a, i, limbs)
    return math.ldexp(high, shift)


@njit(cache=True)
def limbs_log2(a, i, limbs):  # pragma: no cover - compiled
    """``math.log2(int(a[i]))`` as CPython computes it: log2 of the correctly rounded float (a[i] > 0)."""
    high, shift = _rounded(a, i, limbs)
    value = math.ldexp(high, shift)
    if math.isinf(value):  # beyond the floats: CPython's log2(mantissa in [0.5, 1]) + exponent
        return math.log2(math.ldexp(high, -64)) + (shift + 64)
    return math.log2(value)


@njit(cache=True, inline="always")
def _leading_zeros(word):  # pragma: no cover - compiled
    """Leading zero bits of a non-zero uint64."""
    n = 0
    probe = np.uint64(1) << np.uint64(63)
    while not word & probe:
        word <<= np.uint64(1)
        n += 1
    return n


@njit(cache=True, inline="always")
def insert_descending(pool, order, head, tail, ui, top):  # pragma: no cover - compiled
    """Insert row ``ui`` into the descending ``order[head:tail]`` (a binary search for the first value below it,
    then the shorter side shifted one place); the new ``(head, tail)``."""
    lo = head
    hi = tail
    while lo < hi:
        mid = (lo + hi) >> 1
        if compare(pool, order[mid], pool, ui, top) >= 0:
            lo = mid + 1
        else:
            hi = mid
    if lo - head <= tail - lo:  # shift the larger ones one place towards the head
        for p in range(head, lo):
            order[p - 1] = order[p]
        head -= 1
        order[lo - 1] = ui
    else:  # shift the smaller ones one place towards the tail
        for p in range(tail, lo, -1):
            order[p] = order[p - 1]
        tail += 1
        order[lo] = ui
    return head, tail


@njit(cache=True)
def kk_descend(originals, taken, made, half, pool, order, left):  # pragma: no cover - compiled
    """Karmarkar-Karp from a tree state to a leaf of the complete-KK tree; returns ``(steps, taken, k)``.

    Parameters
    ----------
    originals : (n, L) uint32
        All the original numbers, descending.
    taken : int
        How many originals (the largest) the state has used.
    made : (m, L) uint32
        The state's made numbers, ascending.
    half : (1, L) uint32
        ``floor(sum / 2)`` of the state's numbers, updated in place to the leaf's.
    pool : (n - taken + m, L) uint32
        Scratch rows.
    order : int64 array of at least ``3 * len(pool) + 1``
        Scratch indices.
    left : (len(pool), L) uint32
        Receives the leaf's made numbers, ascending, in ``left[:k]``.
    """
    n = originals.shape[0]
    limbs = originals.shape[1]
    full = limbs - 1
    m = made.shape[0]
    count = n - taken + m
    # merge the originals left (descending) and the made numbers (ascending, read backwards)
    i = taken
    j = m - 1
    for s in range(count):
        if j < 0 or (i < n and compare(originals, i, made, j, full) >= 0):
            for q in range(limbs):
                pool[s, q] = originals[i, q]
            i += 1
        else:
            for q in range(limbs):
                pool[s, q] = made[j, q]
            j -= 1
    # the index array: descending values in order[head:tail]; room on both sides
    head = count
    for s in range(count):
        order[head + s] = s
    tail = head + count
    top = full
    while top > 0 and pool[order[head], top] == 0:
        top -= 1
    steps = 0
    while tail - head > 4:
        ui = order[head]
        if compare(pool, ui, half, 0, full) >= 0:  # d >= -1: a leaf
            break
        vi = order[head + 1]
        if taken < n and compare(pool, ui, originals, taken, top) == 0:
            taken += 1
        if taken < n and compare(pool, vi, originals, taken, top) == 0:
            taken += 1
        subtract_into(half, 0, pool, vi, limbs)
        subtract_into(pool, ui, pool, vi, top + 1)  # the difference takes u's row
        head, tail = insert_descending(pool, order, head + 2, tail, ui, top)
        steps += 1
        while top > 0 and pool[order[head], top] == 0:
            top -= 1
    if steps == 0:
        return 0, taken, 0
    # the leaf's made numbers: what is left, minus the smallest n - taken originals (descending walk)
    k = 0
    i = taken
    for p in range(head, tail):
        row = order[p]
        if i < n and compare(pool, row, originals, i, full) == 0:
            i += 1
        else:
            for q in range(limbs):
                left[k, q] = pool[row, q]
            k += 1
    # ascending, as the state keeps them
    for a in range(k // 2):
        b = k - 1 - a
        for q in range(limbs):
            t = left[a, q]
            left[a, q] = left[b, q]
            left[b, q] = t
    return steps, taken, k
