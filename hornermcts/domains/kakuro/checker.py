"""The solution checker of Kakuro, independent of the search and its kernels.

:func:`violations` lists in words every rule a grid breaks as a solution of
a :class:`~hornermcts.domains.kakuro.KakuroInstance`: its shape, values
outside ``1..values``, a value repeated in a row or column, a line whose
sum differs from its hint, a blank cell.  :func:`is_solution` is true when
the list is empty; :func:`sums_matched` counts the lines whose sum matches
(the score of a full grid).

Examples
--------
>>> from hornermcts.domains.kakuro import KakuroInstance
>>> instance = KakuroInstance((8, 7, 7), (7, 8, 7), 4)
>>> is_solution(instance, [[1, 3, 4], [4, 1, 2], [2, 4, 1]])
True
>>> violations(instance, [[1, 3, 4], [4, 2, 1], [2, 4, 1]])
['value 1 twice in column 3 (rows 2 and 3)', 'column 2 sums to 9, not 8', 'column 3 sums to 6, not 7']
>>> sums_matched(instance, [[1, 3, 4], [4, 2, 1], [2, 4, 1]])
4
"""

from __future__ import annotations

import numpy as np

__all__ = ["violations", "is_solution", "sums_matched"]


def violations(instance, grid) -> list[str]:
    """Every rule ``grid`` (``size x size``, 0 blank) breaks as a solution of ``instance`` (1-based lines)."""
    size, top = instance.size, instance.values
    square = np.asarray(grid)
    if square.shape != (size, size):
        return [f"the grid has shape {square.shape}, not {(size, size)}"]
    out = []
    bad = [(r, c) for r in range(size) for c in range(size) if not 0 <= int(square[r, c]) <= top]
    if bad:
        r, c = bad[0]
        return [f"{len(bad)} values outside 1..{top}, first {int(square[r, c])} at ({r + 1}, {c + 1})"]
    for kind, lines in (("row", square), ("column", square.T)):
        for i, line in enumerate(lines):
            seen: dict[int, int] = {}
            for j, v in enumerate(int(x) for x in line):
                if v:
                    if v in seen:
                        other = "columns" if kind == "row" else "rows"
                        out.append(f"value {v} twice in {kind} {i + 1} ({other} {seen[v] + 1} and {j + 1})")
                    seen.setdefault(v, j)
    blanks = [(r, c) for r in range(size) for c in range(size) if int(square[r, c]) == 0]
    if blanks:
        r, c = blanks[0]
        out.append(f"{len(blanks)} blank cells, first ({r + 1}, {c + 1})")
        return out
    for kind, lines, hints in (("row", square, instance.row_sums), ("column", square.T, instance.col_sums)):
        for i, (line, hint) in enumerate(zip(lines, hints)):
            total = int(line.sum())
            if total != hint:
                out.append(f"{kind} {i + 1} sums to {total}, not {hint}")
    return out


def sums_matched(instance, grid) -> int:
    """The number of rows and columns of ``grid`` whose sum equals the hint (``2 * size`` when all do)."""
    square = np.asarray(grid, dtype=np.int64)
    return (sum(int(s) == h for s, h in zip(square.sum(axis=1), instance.row_sums))
            + sum(int(s) == h for s, h in zip(square.sum(axis=0), instance.col_sums)))


def is_solution(instance, grid) -> bool:
    """Whether ``grid`` is full, all-different in every line, and meets every hint."""
    return not violations(instance, grid)
