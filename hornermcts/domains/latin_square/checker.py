"""The solution checker of Latin square completion, independent of the search and its kernels.

:func:`violations` lists, in words, every rule a grid breaks: its shape,
values outside ``1..n``, a value repeated in a row or a column, a given
changed, a blank left (when the grid must be complete).  :func:`is_solution`
is true when the list is empty.

Examples
--------
>>> givens = [[1, 0], [0, 0]]
>>> is_solution(givens, [[1, 2], [2, 1]])
True
>>> violations(givens, [[1, 2], [1, 2]])
['value 1 twice in column 1 (rows 1 and 2)', 'value 2 twice in column 2 (rows 1 and 2)']
>>> violations(givens, [[2, 1], [1, 2]])
['cell (1, 1) holds 2, not the given 1']
>>> violations(givens, [[1, 0], [0, 0]])
['3 blank cells, first (1, 2)']
"""

from __future__ import annotations

import numpy as np

__all__ = ["violations", "is_solution"]


def violations(givens, grid, *, complete: bool = True) -> list[str]:
    """Every rule ``grid`` breaks as a completion of ``givens`` (rows and columns numbered from 1).

    Parameters
    ----------
    givens, grid : 2-D array-like of int
        ``n x n``; 0 is a blank.
    complete : bool, default True
        Whether blanks in ``grid`` are a violation.
    """
    given = np.asarray(givens)
    square = np.asarray(grid)
    if given.ndim != 2 or given.shape[0] != given.shape[1]:
        return [f"the givens are not a square grid (shape {given.shape})"]
    n = given.shape[0]
    if square.shape != given.shape:
        return [f"the grid has shape {square.shape}, not {given.shape}"]
    out = []
    bad = [(r, c) for r in range(n) for c in range(n) if not 0 <= int(square[r, c]) <= n]
    if bad:
        r, c = bad[0]
        out.append(f"{len(bad)} values outside 1..{n}, first {int(square[r, c])} at ({r + 1}, {c + 1})")
        return out
    for r in range(n):
        seen: dict[int, int] = {}
        for c in range(n):
            v = int(square[r, c])
            if v:
                if v in seen:
                    out.append(f"value {v} twice in row {r + 1} (columns {seen[v] + 1} and {c + 1})")
                seen.setdefault(v, c)
    for c in range(n):
        seen = {}
        for r in range(n):
            v = int(square[r, c])
            if v:
                if v in seen:
                    out.append(f"value {v} twice in column {c + 1} (rows {seen[v] + 1} and {r + 1})")
                seen.setdefault(v, r)
    for r in range(n):
        for c in range(n):
            if given[r, c] and int(square[r, c]) != int(given[r, c]):
                out.append(f"cell ({r + 1}, {c + 1}) holds {int(square[r, c])}, not the given {int(given[r, c])}")
    if complete:
        blanks = [(r, c) for r in range(n) for c in range(n) if int(square[r, c]) == 0]
        if blanks:
            r, c = blanks[0]
            out.append(f"{len(blanks)} blank cells, first ({r + 1}, {c + 1})")
    return out


def is_solution(givens, grid) -> bool:
    """Whether ``grid`` is a full Latin square that keeps every given."""
    return not violations(givens, grid)
