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
import numpy as np
from numba import njit

from ..polynomial.coefficients import content_integers, exact_coefficients, quotient, scaled_integers
from ..collector import paused
from ..deadline import check_hard
from .graph import ONE, Dag
from ..polynomial.sparse import Polynomial, normalize_order

__all__ = ["horner_dag"]

#: The Horner form's steps are interned this many at a time, the call's hard end
#: (:func:`~hornermcts.deadline.check_hard`) looked at before each batch.
HARD_CHECK_STEPS = 16384

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
    """The Horner form of ``poly``: its terms sorted once, the form's shape computed by :func:`_program`, then
    its nodes interned by :func:`_run`.

    Sorted lexicographically by their exponents in ``perm``'s order, the
    terms of every subexpression of the form (those sharing the exponents
    of the variables already taken out) are one contiguous range, and split
    by the next variable's exponent into contiguous runs: each split is a
    few binary searches, not a pass over the range's terms.  So a sum of
    5,000 variables (a chain 5,000 deep) is built in O(n log n), not O(n^2).
    The exponents are held in the narrowest type they fit (one byte a cell below 256): gait2d's 822,461
    terms in 52 variables take 43 MB, not the 1 GB of the Python lists the recursion used to read.
    ``integers``: ``poly``'s :func:`~hornermcts.polynomial.coefficients.content_integers`, if known.
    """
    if poly.n_terms == 0:
        return (0, ONE)
    # the columns it uses, in perm's order: one of many small outputs over many symbols sorts and walks its own
    # few (gait2d rows 9-17: 246 units over 262 symbols), as the recursion skips a column no term has anyway
    columns = np.asarray(perm, dtype=np.int64)
    perm = columns[poly.exponents.any(axis=0)[columns]].tolist()
    narrow = np.uint8 if poly.exponents.max(initial=0) <= np.iinfo(np.uint8).max else np.int32
    exps = poly.exponents.astype(narrow)[:, perm]  # MAX_EXPONENT fits in int32
    # sums divided by their content: built from the coefficients times their common denominator (ints, no
    # Fraction arithmetic), every node is the same and the output's scalar that many times larger
    if use_content and integers is None:
        integers = scaled_integers(poly.coefficients)
    scale, coefficients = integers if use_content and integers is not None else (1, exact_coefficients(poly))
    if poly.n_terms > 1:
        rank = np.lexsort(exps.T[::-1])  # the first column is the primary key
        exps = exps[rank]
        coefficients = [coefficients[i] for i in rank.tolist()]
    program = _program(np.ascontiguousarray(exps.T), np.asarray(perm, dtype=np.int64))
    del exps
    c, node = _run(dag, program, coefficients, use_content)
    return (c, node) if scale == 1 else (quotient(c, scale), node)


@njit(cache=True)
def _program(cols, perm):  # pragma: no cover - compiled
    """The Horner form's shape: its steps in the order the recursion over the sorted terms would take them.

    ``cols[d, r]``: the exponent of column ``perm[d]`` in term ``r`` (the
    terms sorted).  The range ``lo:hi`` of terms at depth ``d`` (the columns
    before it taken out) is one term (a *leaf*: its remaining powers) or
    split by the first column in which its terms differ into runs of equal
    exponents, each a range at the next depth; after its runs, a *combine*
    step folds their values.  Returns ``(kind, a, b, c, powers, fvar, fexp)``:
    step ``k`` is a leaf when ``kind[k] == 0`` (term ``a[k]``, its powers
    ``fvar[b[k]:c[k]]``, ``fexp[...]``, innermost first) and a combine
    when 1 (column ``a[k]``, the runs' exponents ``powers[b[k]:c[k]]``,
    ascending).  Steps are made in post-order with explicit stacks
    (frames: at most one per depth; runs: at most the terms plus the depths).
    """
    n_vars, n = cols.shape
    kind = np.empty(2 * n, np.int8)
    a = np.empty(2 * n, np.int64)
    b = np.empty(2 * n, np.int64)
    c = np.empty(2 * n, np.int64)
    powers = np.empty(2 * n, np.int64)
    fvar = np.empty(n + n_vars, np.int64)
    fexp = np.empty(n + n_vars, np.int64)
    frame_depth = np.empty(n_vars + 2, np.int64)
    frame_first = np.empty(n_vars + 2, np.int64)
    frame_end = np.empty(n_vars + 2, np.int64)
    frame_next = np.empty(n_vars + 2, np.int64)
    run_lo = np.empty(n + n_vars + 2, np.int64)
    run_hi = np.empty(n + n_vars + 2, np.int64)
    steps = n_powers = n_factors = frames = runs = 0
    lo, hi, depth, pending = 0, n, 0, True
    while True:
        if pending:
            pending = False
            if hi - lo == 1:  # a leaf: the term's powers from column depth on, innermost (last) first
                if n_factors + n_vars > fvar.shape[0]:
                    fvar, fexp = _doubled(fvar), _doubled(fexp)
                if steps == kind.shape[0]:
                    kind, a, b, c = _doubled(kind), _doubled(a), _doubled(b), _doubled(c)
                kind[steps], a[steps], b[steps] = 0, lo, n_factors
                for d in range(n_vars - 1, depth - 1, -1):
                    if cols[d, lo] != 0:
                        fvar[n_factors], fexp[n_factors] = perm[d], cols[d, lo]
                        n_factors += 1
                c[steps] = n_factors
                steps += 1
            else:
                while cols[depth, hi - 1] == 0:  # ascending in the range: every term lacks this column
                    depth += 1  # (two distinct terms differ further in)
                frame_depth[frames], frame_first[frames], frame_next[frames] = depth, runs, runs
                k = lo
                while k < hi:  # the runs of equal exponents, ascending: a binary search each
                    power = cols[depth, k]
                    left, right = k + 1, hi
                    while left < right:
                        mid = (left + right) // 2
                        if cols[depth, mid] > power:
                            right = mid
                        else:
                            left = mid + 1
                    run_lo[runs], run_hi[runs] = k, left
                    runs += 1
                    k = left
                frame_end[frames] = runs
                frames += 1
        if frames == 0:
            break
        top = frames - 1
        j = frame_next[top]
        if j < frame_end[top]:  # the next run, at the next depth
            frame_next[top] = j + 1
            lo, hi, depth, pending = run_lo[j], run_hi[j], frame_depth[top] + 1, True
            continue
        depth = frame_depth[top]  # every run built: fold them
        if steps == kind.shape[0]:  # runs of one exponent (every term has x^2) make steps beyond 2n
            kind, a, b, c = _doubled(kind), _doubled(a), _doubled(b), _doubled(c)
        if n_powers + frame_end[top] - frame_first[top] > powers.shape[0]:
            powers = _doubled(powers)
        kind[steps], a[steps], b[steps] = 1, perm[depth], n_powers
        for r in range(frame_first[top], frame_end[top]):
            powers[n_powers] = cols[depth, run_lo[r]]
            n_powers += 1
        c[steps] = n_powers
        steps += 1
        runs = frame_first[top]
        frames -= 1
        if frames == 0:
            break
    return kind[:steps], a[:steps], b[:steps], c[:steps], powers[:n_powers], fvar[:n_factors], fexp[:n_factors]


@njit(cache=True)
def _doubled(values):  # pragma: no cover - compiled
    """``values`` with as many free places after them."""
    out = np.empty(2 * values.shape[0], values.dtype)
    out[:values.shape[0]] = values
    return out


def _run(dag: Dag, program: tuple, coefficients: list, use_content: bool) -> tuple:
    """The value of the Horner form whose steps :func:`_program` made: each step's nodes interned in turn.

    A leaf is a coefficient times a monomial (:meth:`~hornermcts.dag.graph.Dag.monomial`); a combine step folds
    the values of its ``m`` runs (the last ``m`` on the stack), from the highest power down:
    ``v_j + x^(p_(j+1) - p_j) * acc``, then ``x^(p_0) * acc``.  The steps are read :data:`HARD_CHECK_STEPS` at
    a time (as Python lists: a few MB, not the hundreds all of them would take at once), the call's hard end
    looked at before each batch.
    """
    kinds, firsts, starts, ends = program[:4]
    powers, fvar, fexp = (part.tolist() for part in program[4:])
    values: list = []
    for at in range(0, len(kinds), HARD_CHECK_STEPS):
        check_hard()
        batch = slice(at, at + HARD_CHECK_STEPS)
        for kind, first, start, end in zip(*(part[batch].tolist() for part in (kinds, firsts, starts, ends))):
            if kind == 0:
                values.append((coefficients[first], dag.monomial(zip(fvar[start:end], fexp[start:end]))))
                continue
            var, m = first, end - start
            acc = values[-1]
            for j in range(m - 2, -1, -1):
                shifted = (acc[0], dag.mul(dag.power(var, powers[start + j + 1] - powers[start + j]), acc[1]))
                acc = dag.add(values[j - m], shifted, use_content=use_content)
            if powers[start] > 0:
                acc = (acc[0], dag.mul(dag.power(var, powers[start]), acc[1]))
            del values[-m:]
            values.append(acc)
    return values[0]
