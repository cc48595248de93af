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

from ..polynomial.coefficients import exact_coefficients

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


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser on uint64 arrays (wrapping arithmetic)."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def _coefficient_codes(poly) -> np.ndarray:
    """A 64-bit code per term's coefficient, the same in every process (not Python's salted str hash)."""
    mask = 0xFFFFFFFFFFFFFFFF
    codes = []
    for c in exact_coefficients(poly):
        if isinstance(c, int):
            codes.append(c & mask)
        elif isinstance(c, Fraction):
            codes.append((c.numerator * 0x9E3779B97F4A7C15 + c.denominator) & mask)
        else:
            codes.append(int.from_bytes(hashlib.blake2b(str(c).encode(), digest_size=8).digest(), "little"))
    return np.array(codes, dtype=np.uint64)


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
    exps = poly.exponents
    n_terms, n_vars = exps.shape
    fixed = [int(j) for j in fixed]
    leading = set(fixed)
    rest = [j for j in range(n_vars) if j not in leading]
    columns = [exps[:, j] for j in range(n_vars)]
    index = np.int32 if n_terms < 2**31 else np.int64  # term indices: half the memory at 10^6 terms
    present = [np.flatnonzero(c).astype(index) for c in columns]
    counts = np.array([len(p) for p in present], dtype=np.int64)
    with np.errstate(over="ignore"):
        coefficient = _mix(_coefficient_codes(poly))
        powers = [_mix(c[p].astype(np.uint64)) for c, p in zip(columns, present)]

        # every (term, column) incidence at once: the sums wrap modulo 2^64, so their order does not matter
        rows = np.concatenate(present) if n_vars else np.zeros(0, dtype=index)
        cols = np.repeat(np.arange(n_vars), counts)
        codes = np.concatenate(powers) if n_vars else np.zeros(0, dtype=np.uint64)

        def refine(colour: np.ndarray) -> np.ndarray:
            for _ in range(ROUNDS + 1):
                term = coefficient.copy()  # each term: its coefficient and the multiset of (column colour, exponent)
                np.add.at(term, rows, _mix(codes ^ colour[cols]))
                sums = np.zeros(n_vars, dtype=np.uint64)
                np.add.at(sums, cols, _mix(term[rows] ^ codes))
                colour = _mix(colour + sums)
            return colour

        colour = np.zeros(n_vars, dtype=np.uint64)
        for k, j in enumerate(fixed):
            colour[j] = _mix(np.array([k + 1], dtype=np.uint64))[0]
        colour = refine(colour)
        work = (sum(len(q) for q in present) + COLUMN_WORK * n_vars) * (ROUNDS + 1)  # of one refinement
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
