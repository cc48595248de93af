"""The columns of a polynomial in an order fixed by its structure, not by its names or the order of its terms.

The order search breaks its ties by the order of the columns: the order in
which a tree node's children are created, the occurrence order's equal
counts, equally good orders in the shortlist.  The columns come in the order
of the names' first appearance in a file, or sorted by name from SymPy, so
the same polynomial renamed, or with its terms shuffled, would be searched
differently and could come out with other operation counts.
:func:`structural_order` ranks the columns by what the exponent matrix alone
says about them: how many terms each occurs in (most first, as FORM's
occurrence order), then a signature refined over the variables it shares
terms with (colour refinement, as in the Weisfeiler-Lehman graph test, on
the variable-term incidence with the exponents as edge labels and the
coefficients as term labels).  Renaming the
variables or shuffling the terms permutes the signatures with the columns,
so the ranks follow the variables.  Columns the refinement cannot tell apart
(variables that a symmetry of the polynomial exchanges, such as the entries
of a generic determinant) are split as a canonical labelling splits them:
one is singled out, the signatures are refined again, and so on; under a
symmetry every choice gives the same order up to that symmetry.

Examples
--------
>>> import sympy
>>> from hornermcts.polynomial import Polynomial
>>> x, y, z = sympy.symbols("x y z")
>>> p = Polynomial((x, y, z), [[2, 1, 0], [0, 1, 1], [1, 1, 0]], [1, 1, 1])   # x^2*y + y*z + x*y
>>> structural_order(p)                                 # y in 3 terms, x in 2, z in 1
[1, 0, 2]
>>> q = Polynomial((z, x, y), [[0, 1, 1], [1, 0, 1], [0, 2, 1]], [1, 1, 1])   # the same, written otherwise
>>> structural_order(q)
[2, 1, 0]
>>> structural_order(Polynomial((x, y), [[1, 0], [0, 1]], [1, 1]))           # x + y: a symmetry (x split off)
[1, 0]
>>> structural_order(Polynomial((y, x), [[1, 0], [0, 1]], [1, 1]))           # the same up to the symmetry
[1, 0]
>>> structural_order(Polynomial((x, y), [[1, 0], [0, 1]], [1, 2]))           # x + 2*y: none
[1, 0]
"""
from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Sequence

import numpy as np
import sympy
from numba import njit

from ..errors import OptionError
from ..polynomial.coefficients import scaled_integers_of

__all__ = ["structural_order"]

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)

#: Refinement rounds: each lets a signature see one step further along shared terms.
ROUNDS = 3

#: At most this many groups of tied columns are split (each split refines all signatures again) ...
MAX_SPLITS = 64

#: ... and no more than this much work goes into the splits' refinements in all, counted in (term, column)
#: incidences read, each column's own overhead as :data:`COLUMN_WORK` more: det(7)'s 49 tied entries need 9
#: splits (33 ms), while neither a 10^6-term input nor a symmetric one in 1000 variables is held up by them.
SPLIT_WORK = 50_000_000
COLUMN_WORK = 10_000

_SPLIT = np.uint64(0xD6E8FEB86659FD93)
#: Integers below this (in absolute value) are coded on int64 arrays (:func:`_codes_of_scaled`).
_FITS = 2**62


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser on uint64 arrays (wrapping arithmetic)."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


@njit(cache=True, inline="always")
def _mix1(x):
    """:func:`_mix` of one uint64."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def _coefficient_codes(poly) -> np.ndarray:
    """A 64-bit code per term's coefficient, the same in every process (not Python's salted str hash).

    An Integer ``p`` codes as ``p``, a Rational ``p/q`` as ``p * 0x9E3779B97F4A7C15 + q`` (modulo 2^64); made
    once per polynomial, from its scaled integers when they and their scale fit in 62 bits (no pass over the
    SymPy numbers: the same codes, see :func:`_codes_of_scaled`).
    """
    return poly.derived("coefficient codes", lambda: _codes(poly))


def _codes_of_scaled(scale: int, integers: list) -> np.ndarray | None:
    """The codes of the coefficients ``v / scale`` (``v`` in ``integers``, in lowest terms ``p/q``), computed on
    int64/uint64 arrays (``p`` wraps as the mask of the Python loop does); None unless every value fits 62 bits."""
    if scale >= _FITS or max(map(abs, integers), default=0) >= _FITS:
        return None
    values = np.array(integers, dtype=np.int64)
    common = np.gcd(values, np.int64(scale))
    p, q = values // common, np.int64(scale) // common
    rational = p.view(np.uint64) * np.uint64(0x9E3779B97F4A7C15) + q.view(np.uint64)
    return np.where(q == 1, p.view(np.uint64), rational)


def _codes(poly) -> np.ndarray:
    """:func:`_coefficient_codes`, made."""
    scaled = scaled_integers_of(poly)  # not None: every coefficient an Integer or a Rational (a Polynomial's
    codes = None if scaled is None else _codes_of_scaled(*scaled)  # are SymPy numbers, never a Fraction)
    if codes is not None:
        return codes
    mask = 0xFFFFFFFFFFFFFFFF
    codes = []
    for c in poly.coefficients:  # SymPy numbers: an Integer's or a Rational's p and q, without a Fraction
        if isinstance(c, (int, sympy.Integer)):
            codes.append(int(c) & mask)
        elif isinstance(c, sympy.Rational):
            codes.append((int(c.p) * 0x9E3779B97F4A7C15 + int(c.q)) & mask)
        elif isinstance(c, Fraction):
            codes.append((c.numerator * 0x9E3779B97F4A7C15 + c.denominator) & mask)
        else:
            codes.append(int.from_bytes(hashlib.blake2b(str(c).encode(), digest_size=8).digest(), "little"))
    return np.array(codes, dtype=np.uint64)


@njit(cache=True)
def _incidences(exps):
    """Every (term, column) incidence of a nonzero exponent, column by column.

    Returns the terms (int32), the mixed exponents, and where each column's incidences start.
    """
    n_terms, n_vars = exps.shape
    starts = np.zeros(n_vars + 1, dtype=np.int64)
    for t in range(n_terms):
        for j in range(n_vars):
            if exps[t, j]:
                starts[j + 1] += 1
    for j in range(n_vars):
        starts[j + 1] += starts[j]
    rows = np.zeros(starts[n_vars], dtype=np.int32)  # term indices: half the memory (10^6 terms x 20 columns)
    codes = np.zeros(starts[n_vars], dtype=np.uint64)
    at = starts[:n_vars].copy()
    for t in range(n_terms):
        for j in range(n_vars):
            e = exps[t, j]
            if e:
                k = at[j]
                rows[k], codes[k] = t, _mix1(np.uint64(e))
                at[j] = k + 1
    return rows, codes, starts


@njit(cache=True)
def _refine(colour, rows, codes, starts, coefficient, rounds):
    """The colour refinement: each round, a term's code from its columns' colours, a column's from its terms'."""
    for _ in range(rounds + 1):
        term = coefficient.copy()  # each term: its coefficient and the multiset of (column colour, exponent)
        for j in range(colour.shape[0]):
            for k in range(starts[j], starts[j + 1]):
                term[rows[k]] += _mix1(codes[k] ^ colour[j])
        for j in range(colour.shape[0]):
            total = np.uint64(0)
            for k in range(starts[j], starts[j + 1]):
                total += _mix1(term[rows[k]] ^ codes[k])
            colour[j] = _mix1(colour[j] + total)
    return colour


def structural_order(poly, fixed: Sequence[int] = ()) -> list[int]:
    """The columns of ``poly`` ranked by structure; ``fixed`` first, as given.

    Sorted by the number of terms each column occurs in (most first), then
    by a signature refined :data:`ROUNDS` times over the terms (see the
    module).  Columns the signatures cannot tell apart are separated as a
    canonical labelling does (individualisation and refinement): the first
    column, in input order, of the first such group is given a signature of
    its own, the signatures are refined again, and so on, at most
    :data:`MAX_SPLITS` times (and within :data:`SPLIT_WORK`).  Where the tied columns are exchanged by
    symmetries of ``poly`` (the entries of a generic determinant), any choice
    leads to the same order up to a symmetry, so the searches see the same
    problem whatever the names.  Ties left after that keep the input order.
    The fixed columns (e.g. the output markers of several polynomials
    optimized together) lead, in their given order, and each counts as
    distinct when the others' signatures are refined.
    """
    fixed = [int(j) for j in fixed]
    return list(poly.derived(("structural order", tuple(fixed)), lambda: _structural_order(poly, fixed)))


def _structural_order(poly, fixed: list) -> list[int]:
    """:func:`structural_order`, made (once per polynomial and fixed columns)."""
    exps = np.ascontiguousarray(poly.exponents, dtype=np.int64)
    n_vars = exps.shape[1]
    leading = set(fixed)
    rest = [j for j in range(n_vars) if j not in leading]
    if exps.shape[0] >= 2**31:
        raise OptionError(f"{exps.shape[0]:,} terms: structural_order counts terms in 32 bits")
    rows, codes, starts = _incidences(exps)
    counts = np.diff(starts)
    coefficient = _mix(_coefficient_codes(poly))

    def refine(colour: np.ndarray) -> np.ndarray:
        return _refine(colour, rows, codes, starts, coefficient, ROUNDS)

    colour = np.zeros(n_vars, dtype=np.uint64)
    for k, j in enumerate(fixed):
        colour[j] = _mix(np.array([k + 1], dtype=np.uint64))[0]
    colour = refine(colour)
    work = (len(rows) + COLUMN_WORK * n_vars) * (ROUNDS + 1)  # of one refinement
    for _ in range(min(MAX_SPLITS, SPLIT_WORK // max(work, 1))):
        groups: dict = {}
        for j in rest:
            groups.setdefault((-int(counts[j]), int(colour[j])), []).append(j)
        tied = [g for _, g in sorted(groups.items()) if len(g) > 1]
        if not tied:
            break
        chosen = tied[0][0]  # the first in input order: under a symmetry, any member would do
        colour[chosen] = _mix(colour[chosen:chosen + 1] ^ _SPLIT)[0]
        colour = refine(colour)
    rest.sort(key=lambda j: (-int(counts[j]), int(colour[j]), j))
    return fixed + rest
