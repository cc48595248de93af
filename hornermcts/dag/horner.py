"""Multivariate Horner form of a polynomial for a given variable order.

For the order ``(v1, v2, ...)`` the polynomial is split by powers of ``v1``,
``P = sum_k v1^k P_k``, written as
``v1^k0 (P_k0 + v1^(k1-k0) (P_k1 + v1^(k2-k1) (... P_km)))``, and every
``P_k`` gets the same treatment with the remaining variables (a variable that
does not occur is skipped).  This is the construction of FORM's optimizer and
of the SA-UCT paper (forward order; a *backward* scheme is the same form built
from the reversed order).  The form is built straight into a hash-consed
:class:`~hornermcts.dag.Dag`, which shares equal subexpressions (up to sign
and a numeric factor) as it goes: see :mod:`hornermcts.dag`.

Examples
--------
>>> import sympy
>>> from hornermcts.polynomial import Polynomial
>>> x, y, z = sympy.symbols("x y z")
>>> p = Polynomial((x, y, z), [[3, 2, 0], [2, 1, 0], [3, 0, 1]], [1, 1, 1])
>>> dag = horner_dag(p, [x, y, z])
>>> dag.count().total          # x^2*(y + x*(y^2 + z)): paper eq. (1)
6
>>> other = horner_dag(p, [y, x, z])   # x^3*z + y*(x^2 + y*x^3)
>>> other.count(shared=False).total, other.count().total
(10, 7)
"""
from __future__ import annotations

from ..errors import OptionError

import sys
from bisect import bisect_right
from typing import NamedTuple

import numpy as np

from ..polynomial.coefficients import content_integers, exact_coefficients, quotient, scaled_integers
from ..collector import paused
from ..deadline import check_hard
from .graph import ONE, Dag
from ..polynomial.sparse import Polynomial, normalize_order

__all__ = ["horner_dag"]

#: Subexpressions of this many terms or more look at the call's hard end (:func:`~hornermcts.deadline.check_hard`).
HARD_CHECK_TERMS = 256

def horner_dag(poly, order=None, *, mode: str | None = None) -> Dag:
    """Build the Horner form of ``poly`` for ``order`` as a hash-consed DAG.

    Parameters
    ----------
    poly : Polynomial, or a sequence of Polynomials over the same symbols
        Several polynomials are built into one DAG (one output each, in
        ``dag.roots``), sharing their common subexpressions.
    order : sequence of symbols, names or column indices, optional
        Outermost variable first; default: occurrence order.  See
        :func:`~hornermcts.polynomial.sparse.normalize_order`.
    mode : {"content", "sign"}, optional
        Normalisation of sums (default :func:`~hornermcts.polynomial.coefficients.coefficient_mode`).

    Returns
    -------
    Dag
        ``dag.count()`` is the count after common subexpression elimination,
        ``dag.count(shared=False)`` the count of the plain Horner form.
    """
    polys = [poly] if isinstance(poly, Polynomial) else list(poly)
    if not polys:
        raise OptionError("horner_dag needs at least one polynomial")
    first = polys[0]
    if any(p.symbols != first.symbols for p in polys):
        raise OptionError("polynomials optimized together must have the same symbols in the same order")
    joint = first if len(polys) == 1 else Polynomial(
        first.symbols, np.vstack([p.exponents for p in polys]), [1] * sum(p.n_terms for p in polys))
    perm = normalize_order(joint, order)
    integers = [content_integers(p) for p in polys] if mode in (None, "content") else [None] * len(polys)
    if mode is None:  # coefficient_mode of each
        mode = "sign" if any(found is None for found in integers) else "content"
    if mode not in ("content", "sign"):
        raise OptionError(f"mode must be 'content' or 'sign', not {mode!r}")
    opaque = {}
    for p in polys:
        opaque.update(p.opaque)
    dag = Dag(first.symbols, opaque)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * len(perm) + 100))
    try:
        with paused():  # millions of acyclic nodes: the collector's passes would find nothing
            dag.roots = [_build_polynomial(dag, p, perm, mode == "content", found) for p, found in zip(polys, integers)]
    finally:
        sys.setrecursionlimit(limit)
    return dag


def _build_polynomial(dag: Dag, poly, perm, use_content: bool, integers=None) -> tuple:
    """The Horner form of ``poly``: its terms sorted once, then :func:`_build` on ranges of them.

    Sorted lexicographically by their exponents in ``perm``'s order, the
    terms of every subexpression of the form (those sharing the exponents
    of the variables already taken out) are one contiguous range, and split
    by the next variable's exponent into contiguous runs: each split is a
    few binary searches, not a pass over the range's terms.  So a sum of
    5,000 variables (a chain 5,000 deep) is built in O(n log n), not O(n^2).
    ``integers``: ``poly``'s :func:`~hornermcts.polynomial.coefficients.content_integers`, if known.
    """
    if poly.n_terms == 0:
        return (0, ONE)
    # the columns it uses, in perm's order: one of many small outputs over many symbols sorts and walks its own
    # few (gait2d rows 9-17: 246 units over 262 symbols), as the recursion skips a column no term has anyway
    columns = np.asarray(perm, dtype=np.int64)
    perm = columns[poly.exponents.any(axis=0)[columns]].tolist()
    exps = poly.exponents[:, perm]
    # sums divided by their content: built from the coefficients times their common denominator (ints, no
    # Fraction arithmetic), every node is the same and the output's scalar that many times larger
    if use_content and integers is None:
        integers = scaled_integers(poly.coefficients)
    scale, coefficients = integers if use_content and integers is not None else (1, exact_coefficients(poly))
    if poly.n_terms > 1:
        rank = np.lexsort(exps.T[::-1])  # the first column is the primary key
        exps = exps[rank]
        coefficients = [coefficients[i] for i in rank.tolist()]
    rows, cols = np.nonzero(exps)  # each term's variables, for a range of one term
    starts = np.searchsorted(rows, np.arange(poly.n_terms + 1)).tolist()
    cols = cols.tolist()
    terms = _Terms(exps.T.tolist(), [cols[starts[r]:starts[r + 1]] for r in range(poly.n_terms)], coefficients)
    c, node = _build(dag, terms, 0, poly.n_terms, 0, perm, use_content)
    return (c, node) if scale == 1 else (quotient(c, scale), node)


class _Terms(NamedTuple):
    """The terms, sorted: ``columns[d][r]`` the exponent of ``perm[d]`` in term ``r``, ``present[r]`` its d's."""

    columns: list
    present: list
    coefficients: list


def _build(dag: Dag, terms: _Terms, lo: int, hi: int, depth: int, perm, use_content: bool):
    """The Horner form of the terms ``lo:hi`` from column ``depth`` on (the columns before it taken out)."""
    columns = terms.columns
    if hi - lo >= HARD_CHECK_TERMS:  # what any answer needs: the call's hard end is looked at (not per term)
        check_hard()
    if hi - lo == 1:  # one monomial: its powers innermost first, as the recursion below would nest them
        return (terms.coefficients[lo],
                dag.monomial([(perm[d], columns[d][lo]) for d in reversed(terms.present[lo]) if d >= depth]))
    while columns[depth][hi - 1] == 0:  # ascending in the range: every term lacks this variable
        depth += 1  # (two distinct terms differ further in)
    column = columns[depth]
    powers, values = [], []
    k = lo
    while k < hi:  # the runs of equal exponents, in increasing order
        power = column[k]
        end = bisect_right(column, power, k, hi)
        powers.append(power)
        values.append(_build(dag, terms, k, end, depth + 1, perm, use_content))
        k = end
    var = perm[depth]
    acc = values[-1]
    for j in range(len(powers) - 2, -1, -1):
        shifted = (acc[0], dag.mul(dag.power(var, powers[j + 1] - powers[j]), acc[1]))
        acc = dag.add(values[j], shifted, use_content=use_content)
    if powers[0] > 0:
        acc = (acc[0], dag.mul(dag.power(var, powers[0]), acc[1]))
    return acc
