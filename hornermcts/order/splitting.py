"""An order built variable by variable from how the Horner scheme splits the terms (the splitting order).

A Horner scheme in the order ``x1, x2, ...`` splits the terms by their power
of ``x1``, each part by its power of ``x2``, and so on: after the first ``k``
variables the terms fall into *cells*, one per pattern of exponents of
``x1 .. xk``, and every cell the next variable occurs in costs that variable
a Horner step of its own.  :func:`splitting_order` picks, at each step, the
variable that occurs in the most terms per cell it occurs in (the terms one
Horner step factors out, on average), ties by
:func:`~hornermcts.order.structure.structural_order`.  The occurrence order
(most terms first) ignores the cells: on a determinant every entry occurs in
equally many terms, and only the cells tell that after ``m_0_0`` the rest of
its row (or column) splits nothing further (each of those occurs in one
cell), which makes the scheme a Laplace expansion, whatever the names.

Its counts (Horner + CSE, the fast counter) against the occurrence order's:
det(7) 762 against 7,964 (FORM's O2, its best level: 762), the Cayley-Menger
determinant of 7 points 2,242 against 5,174, a sparse 15 x 15 determinant
(4 entries a row) 1,110 against 14,396 (``benchmarks/suite.py``).  The default
preset anneals from it once more when it beats every order MCTS found
(:func:`~hornermcts.pipeline.search_orders`).

Examples
--------
>>> from hornermcts.research.families import determinant
>>> p = determinant(3)
>>> [str(p.symbols[j]) for j in splitting_order(p)][:3]   # one column first: a Laplace expansion
['m_2_2', 'm_1_2', 'm_0_2']
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from numba import njit

from .structure import structural_order

__all__ = ["splitting_order", "splitting_orders"]

#: Tie-breaks :func:`splitting_orders` tries: the structural order's, and the rest drawn from a fixed seed.
TIE_BREAKS = 8


@njit(cache=True)
def _touched(rows, starts, cell, candidates, stamp):
    """For each candidate column: the number of distinct cells among the terms it occurs in."""
    out = np.zeros(candidates.shape[0], dtype=np.int64)
    for k in range(candidates.shape[0]):
        j = candidates[k]
        mark = k + 1
        for i in range(starts[j], starts[j + 1]):
            c = cell[rows[i]]
            if stamp[c] != mark:
                stamp[c] = mark
                out[k] += 1
        for i in range(starts[j], starts[j + 1]):  # reset for the next candidate
            stamp[cell[rows[i]]] = 0
    return out


def _incidence(exps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The terms each column occurs in, column by column, and where each column's terms start."""
    nonzero = exps.T != 0
    rows = np.nonzero(nonzero)[1].astype(np.int64)
    starts = np.zeros(exps.shape[1] + 1, dtype=np.int64)
    np.cumsum(nonzero.sum(axis=1), out=starts[1:])
    return rows, starts


@njit(cache=True)
def _split(cell, column, table_keys, table_ids):
    """The cells after one more variable: ``(cell, exponent)`` pairs numbered in order of first appearance."""
    size = table_ids.shape[0]
    table_ids[:] = -1
    out = np.empty_like(cell)
    n = 0
    for t in range(cell.shape[0]):
        c, e = cell[t], column[t]
        h = np.uint64(_hash_pair(c, e)) % np.uint64(size)
        while True:
            slot = int(h)
            if table_ids[slot] < 0:
                table_ids[slot] = n
                table_keys[slot, 0], table_keys[slot, 1] = c, e
                out[t] = n
                n += 1
                break
            if table_keys[slot, 0] == c and table_keys[slot, 1] == e:
                out[t] = table_ids[slot]
                break
            h = (h + np.uint64(1)) % np.uint64(size)
    return out


@njit(cache=True, inline="always")
def _hash_pair(c, e):
    x = np.uint64(c) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(e)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    return x ^ (x >> np.uint64(31))


def _prepared(poly) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(exps, rows, starts)``: the exponents as int64 and :func:`_incidence` of them, made once per polynomial."""
    exps = np.ascontiguousarray(poly.exponents, dtype=np.int64)
    return (exps, *_incidence(exps))


def _splitting(prepared: tuple, fixed: list[int], columns: list[int]) -> tuple[list[int], bool]:
    """The splitting order, and whether any step chose among equal ratios (see :func:`splitting_order`)."""
    exps, rows, starts = prepared
    n_terms = exps.shape[0]
    counts = np.diff(starts)
    cell = np.zeros(n_terms, dtype=np.int64)
    stamp = np.zeros(max(n_terms, 1), dtype=np.int64)
    keys = np.zeros((2 * n_terms + 1, 2), dtype=np.int64)
    ids = np.zeros(2 * n_terms + 1, dtype=np.int64)
    for j in fixed:
        cell = _split(cell, np.ascontiguousarray(exps[:, j]), keys, ids)
    taken = set(fixed)
    left = np.array([j for j in columns if j not in taken], dtype=np.int64)
    order, tied = list(fixed), False
    while len(left):
        ratio = counts[left] / np.maximum(_touched(rows, starts, cell, left, stamp), 1)
        best = int(np.argmax(ratio))  # the most terms per touched cell; the first among equals
        tied = tied or int(np.count_nonzero(ratio == ratio[best])) > 1
        j = int(left[best])
        left = np.delete(left, best)
        order.append(j)
        if len(left):
            cell = _split(cell, np.ascontiguousarray(exps[:, j]), keys, ids)
    return order, tied


def splitting_order(poly, fixed: Sequence[int] = (), columns: Sequence[int] | None = None) -> list[int]:
    """The columns of ``poly``, ``fixed`` first, then by most terms per cell at each step (see the module).

    ``columns``: the order that breaks the ties (default: the structural
    order).  Costs one pass over the exponent matrix per variable and
    candidate, in compiled code.
    """
    fixed = [int(j) for j in fixed]
    columns = structural_order(poly, fixed) if columns is None else list(columns)
    return _splitting(_prepared(poly), fixed, columns)[0]


def splitting_orders(poly, fixed: Sequence[int] = (), columns: Sequence[int] | None = None,
                     tries: int = TIE_BREAKS) -> list[list[int]]:
    """:func:`splitting_order` with its ties broken ``tries`` ways: by ``columns``, then by shuffles of it.

    One order when no step met equal ratios.

    Equal ratios are frequent (every entry of a determinant has one), and
    which of them comes first decides whether the scheme continues along a
    row or turns to a column: det(6)'s structural ties give 548 operations,
    others 315 (a Laplace expansion along rows).  The shuffles are drawn
    from a fixed seed, so the orders are the same on every call, and they
    permute ``columns`` (the structural order by default), so they do not
    depend on the variables' names.  Duplicates are left out.
    """
    fixed = [int(j) for j in fixed]
    columns = structural_order(poly, fixed) if columns is None else list(columns)
    prepared = _prepared(poly)  # the tie-breaks share the matrix and its incidence
    first, tied = _splitting(prepared, fixed, columns)
    found = [first]
    rng = np.random.default_rng(0)
    taken = set(fixed)
    free = [j for j in columns if j not in taken]
    for _ in range(tries - 1 if tied else 0):  # no step chose among equals: every tie-break gives the same
        order = _splitting(prepared, fixed, [*fixed, *rng.permutation(free).tolist()])[0]
        if order not in found:
            found.append(order)
    return found
