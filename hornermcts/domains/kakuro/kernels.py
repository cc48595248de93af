"""The compiled (Numba) kernels of Kakuro: bitset domains, MRV, playouts, Replay, the prior code.

A grid of ``size x size`` cells (row-major int8 array, 0 blank) takes values
``1..values`` (``size <= values <= 62``), all different in every row and
column; each row and column must sum to its hint.  Forward checking
enforces *all-different only* (docs/domains.md B5.5): the domain of an empty
cell is ``full & ~(rows[r] | cols[c])`` over int64 bitsets of the values
used (bit ``v - 1`` for ``v``); the sums are checked when the grid is full.
There is no channeling.  The playout takes the empty cell of smallest
domain (MRV, the first in row-major order among ties), draws a value by the
softmax policy (:func:`~hornermcts.search.policy.softmax_pick`)
and stops when the grid is full or an empty cell has an empty domain.

Moves and NRPA codes are ints ``cell * values + value - 1``.  The prior code
of a move (Cazenave 2024, sec. 4.2: "the number of times the value appears
in the same row, the number of times it appears in the same column, the
remaining sum to reach in the row and the remaining sum to reach in the
column") is packed into one int by :func:`prior_code`, in one of the kinds of
:data:`KINDS` (:mod:`.problem` says which reading each is and what it
measured); a *sum left* is the hint minus the values already in the line,
clipped to ``[low, high]`` (:func:`sum_range`):

- ``"sums"``: (value, row sum left, column sum left).  The literal reading:
  the value "appears" 0 times in its row and column for every legal move
  (all-different), so the two counts are constant and drop out;
- ``"remaining"``: (value, rc, cc, row sum left, column sum left), ``rc``
  (``cc``) the number of empty cells of the row (column) whose domain holds
  the value, the cell included (the reading of docs/domains.md B5.5, as for LSC);
- ``"filled"``: (value, filled cells of the row, of the column, row sum
  left, column sum left): "times ... appears" read as how many values the
  line already holds;
- ``"hints"``: (value, rc, cc, row hint, column hint), the ablation.

Kind ``k`` occupies ``range(offset_k, offset_k + code_counts(...)[k])``,
after the kinds before it: two kinds never share a code.

Examples
--------
>>> import numpy as np
>>> sum_range(10, 11)          # the hints lie in 55..65; nine values can exceed a hint of 55 by 8
(-8, 65)
>>> grid = np.zeros(4, np.int8)
>>> rows, cols, row_used, col_used = line_state(grid, 2, 3)
>>> mrv(grid, rows, cols, 2, 3)   # every cell holds 1..3: the first one
(0, 3)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...search.policy import softmax_pick
from ..latin_square.kernels import mrv, popcount

__all__ = ["MAX_VALUES", "MAX_SUM_VALUES", "KINDS", "sum_range", "code_offsets", "code_counts", "line_state", "mrv",
           "prior_code", "place", "line_allowed", "blocked", "playout", "playouts_until_full", "replay"]

#: The most values the int64 bitsets hold.
MAX_VALUES = 62
#: The most values sum propagation takes (it enumerates the subsets of a line's free values).
MAX_SUM_VALUES = 16

#: The kinds of prior code, in packing order (the module docstring).
KINDS = ("remaining", "hints", "sums", "filled")


def sum_range(size: int, values: int) -> tuple[int, int]:
    """``(low, high)``: the range of a line's sum left, for lines of ``size`` cells over ``1..values``.

    ``high`` is the largest hint (the ``size`` largest values); ``low`` the
    smallest hint minus the largest sum of ``size - 1`` values.
    """
    largest = sum(range(values - size + 1, values + 1))
    smallest = sum(range(1, size + 1))
    return smallest - (largest - (values - size + 1)), largest


def code_counts(size: int, values: int) -> tuple[int, ...]:
    """How many prior codes of each kind of :data:`KINDS`, in that order.

    >>> dict(zip(KINDS, code_counts(10, 11)))
    {'remaining': 7288556, 'hints': 161051, 'sums': 60236, 'filled': 7288556}
    """
    low, high = sum_range(size, values)
    span = high - low + 1
    hints = high - size * (size + 1) // 2 + 1
    lines = values * (size + 1) ** 2
    return lines * span ** 2, lines * hints ** 2, values * span ** 2, lines * span ** 2


def code_offsets(size: int, values: int) -> dict[str, range]:
    """The codes of each kind of prior code, by name: consecutive, disjoint ranges.

    >>> code_offsets(3, 4)["sums"]
    range(8768, 9252)
    """
    ranges, first = {}, 0
    for kind, count in zip(KINDS, code_counts(size, values)):
        ranges[kind] = range(first, first + count)
        first += count
    return ranges


@njit(cache=True)
def line_state(grid, size, values):
    """Bitsets of the values used per row and column, and the sums already placed per row and column."""
    rows = np.zeros(size, np.int64)
    cols = np.zeros(size, np.int64)
    row_used = np.zeros(size, np.int64)
    col_used = np.zeros(size, np.int64)
    for cell in range(size * size):
        v = grid[cell]
        if v > 0:
            bit = np.int64(1) << (v - 1)
            r = cell // size
            c = cell % size
            rows[r] |= bit
            cols[c] |= bit
            row_used[r] += v
            col_used[c] += v
    return rows, cols, row_used, col_used


@njit(cache=True)
def prior_code(grid, rows, cols, row_used, col_used, row_sums, col_sums, size, values, low, high, kind, offset, cell,
               v):
    """The prior code of assigning ``v`` to ``cell``: one int of kind ``KINDS[kind]``, starting at ``offset``.

    Codes lie in ``code_offsets(size, values)[KINDS[kind]]`` when ``offset``
    is that range's start.
    """
    r = cell // size
    c = cell % size
    span = high - low + 1
    left_row = min(max(row_sums[r] - row_used[r], low), high) - low
    left_col = min(max(col_sums[c] - col_used[c], low), high) - low
    if kind == 2:
        return offset + ((v - 1) * span + left_row) * span + left_col
    rc = 0
    cc = 0
    if kind == 3:
        for k in range(size):
            if grid[r * size + k] != 0:
                rc += 1
            if grid[k * size + c] != 0:
                cc += 1
    else:
        bit = np.int64(1) << (v - 1)
        if (rows[r] & bit) == 0:
            for c2 in range(size):
                if grid[r * size + c2] == 0 and (cols[c2] & bit) == 0:
                    rc += 1
        if (cols[c] & bit) == 0:
            for r2 in range(size):
                if grid[r2 * size + c] == 0 and (rows[r2] & bit) == 0:
                    cc += 1
    head = ((v - 1) * (size + 1) + rc) * (size + 1) + cc
    if kind == 1:
        smallest = size * (size + 1) // 2
        count = high - smallest + 1
        return offset + head * count * count + (row_sums[r] - smallest) * count + (col_sums[c] - smallest)
    return offset + head * span * span + left_row * span + left_col


@njit(cache=True, inline="always")
def place(grid, rows, cols, row_used, col_used, size, cell, v):
    """Assign ``v`` to ``cell``, in place."""
    grid[cell] = v
    bit = np.int64(1) << (v - 1)
    r = cell // size
    c = cell % size
    rows[r] |= bit
    cols[c] |= bit
    row_used[r] += v
    col_used[c] += v


@njit(cache=True)
def line_allowed(used, empty, remaining, values):
    """Bitset of the values some completion of a line allows: the union of every set of ``empty`` values
    not in ``used`` that sums to ``remaining`` (0 if none does, or if the line is full).

    >>> bin(line_allowed(0, 2, 4, 5))      # two cells to fill with 4 from 1..5: only {1, 3}
    '0b101'
    """
    if empty <= 0:
        return np.int64(0)
    free = ((np.int64(1) << values) - 1) & ~used
    allowed = np.int64(0)
    sub = free
    while sub > 0:
        if popcount(sub) == empty and (allowed | sub) != allowed:
            total = 0
            for v in range(values):
                if (sub >> v) & 1:
                    total += v + 1
            if total == remaining:
                allowed |= sub
        sub = (sub - 1) & free
    return allowed


@njit(cache=True)
def blocked(grid, rows, cols, row_used, col_used, row_sums, col_sums, size, values, row_block, col_block, r, c):
    """Sum propagation: set ``row_block[r]`` (``col_block[c]``; every line for ``r = c = -1``) to the values
    no completion of that line's sum allows, so that the domain of a cell is ``full & ~(rows | row_block)[r]
    & ~(cols | col_block)[c]``: forward checking that enforces the line sums, not only all-different."""
    full = (np.int64(1) << values) - 1
    for line in range(size):
        if r < 0 or line == r:
            empty = 0
            for k in range(size):
                if grid[line * size + k] == 0:
                    empty += 1
            row_block[line] = full & ~line_allowed(rows[line], empty, row_sums[line] - row_used[line], values)
        if c < 0 or line == c:
            empty = 0
            for k in range(size):
                if grid[k * size + line] == 0:
                    empty += 1
            col_block[line] = full & ~line_allowed(cols[line], empty, col_sums[line] - col_used[line], values)


@njit(cache=True)
def playout(start, size, values, row_sums, col_sums, low, high, kind, offset, weights, bias, has_bias, rng,
            sums=False):
    """One softmax playout from ``start`` (not modified): ``(grid, moves, codes, betas, starts, chosen)``.

    ``weights`` is indexed by move code, ``bias`` (read if ``has_bias``) by
    prior code; the trace is that of :class:`hornermcts.search.policy.Trace`
    (states with one legal move are not recorded).  ``sums``: the domains
    also honour the line sums (:func:`blocked`); the prior code is the same.
    """
    grid = start.copy()
    rows, cols, row_used, col_used = line_state(grid, size, values)
    row_block = np.zeros(size, np.int64)
    col_block = np.zeros(size, np.int64)
    if sums:
        blocked(grid, rows, cols, row_used, col_used, row_sums, col_sums, size, values, row_block, col_block, -1, -1)
    cells = size * size
    moves = np.empty(cells, np.int64)
    codes = np.empty(cells * values, np.int64)
    betas = np.zeros(cells * values)
    starts = np.zeros(cells + 1, np.int64)
    chosen = np.empty(cells, np.int64)
    candidates = np.empty(values, np.int64)
    plain = np.empty(values)
    beta = np.zeros(values)
    odds = np.empty(values)
    full = (np.int64(1) << values) - 1
    played = 0
    entries = 0
    steps = 0
    while True:
        cell, k = mrv(grid, rows | row_block, cols | col_block, size, values)
        if k == 0:
            break
        d = full & ~(rows[cell // size] | row_block[cell // size] | cols[cell % size] | col_block[cell % size])
        k = 0
        for v in range(1, values + 1):
            if (d >> (v - 1)) & 1:
                candidates[k] = v
                k += 1
        pick = 0
        if k > 1:
            for i in range(k):
                plain[i] = weights[cell * values + candidates[i] - 1]
                if has_bias:
                    beta[i] = bias[prior_code(grid, rows, cols, row_used, col_used, row_sums, col_sums, size,
                                              values, low, high, kind, offset, cell, candidates[i])]
                else:
                    beta[i] = 0.0
            pick, ignored = softmax_pick(plain, beta, k, rng, odds)
            for i in range(k):
                codes[entries + i] = cell * values + candidates[i] - 1
                betas[entries + i] = 0.0 if ignored else beta[i]
            chosen[steps] = entries + pick
            entries += k
            steps += 1
            starts[steps] = entries
        moves[played] = cell * values + candidates[pick] - 1
        played += 1
        place(grid, rows, cols, row_used, col_used, size, cell, candidates[pick])
        if sums:
            blocked(grid, rows, cols, row_used, col_used, row_sums, col_sums, size, values, row_block, col_block,
                    cell // size, cell % size)
    return grid, moves[:played], codes[:entries], betas[:entries], starts[:steps + 1], chosen[:steps]


@njit(cache=True)
def playouts_until_full(start, size, values, rng, limit):
    """Uniform playouts from ``start`` until one fills the grid, at most ``limit``: ``(done, grid)``."""
    weights = np.zeros(size * size * values)
    sums = np.zeros(size, np.int64)
    bias = np.zeros(1)
    grid = start.copy()
    for done in range(1, limit + 1):
        grid, moves, codes, betas, starts, chosen = playout(start, size, values, sums, sums, 0, 0, 0, 0, weights,
                                                            bias, False, rng)
        full = True
        for cell in range(size * size):
            if grid[cell] == 0:
                full = False
                break
        if full:
            return done, grid
    return limit, grid


@njit(cache=True)
def replay(start, solution, size, values, row_sums, col_sums, low, high, kind, offset, sums=False):
    """Alg. 4 (Replay) of ``solution`` from ``start`` by MRV: ``(prior codes of legal moves, of played moves)``.

    If the solution's value is not legal in some state, the second array
    ends with ``-1``.  ``sums``: the domains of :func:`playout` with ``sums``.
    """
    grid = start.copy()
    rows, cols, row_used, col_used = line_state(grid, size, values)
    row_block = np.zeros(size, np.int64)
    col_block = np.zeros(size, np.int64)
    if sums:
        blocked(grid, rows, cols, row_used, col_used, row_sums, col_sums, size, values, row_block, col_block, -1, -1)
    cells = size * size
    seen = np.empty(cells * values, np.int64)
    used = np.empty(cells + 1, np.int64)
    full = (np.int64(1) << values) - 1
    entries = 0
    steps = 0
    while True:
        cell, k = mrv(grid, rows | row_block, cols | col_block, size, values)
        if cell < 0:
            break
        d = full & ~(rows[cell // size] | row_block[cell // size] | cols[cell % size] | col_block[cell % size])
        v = solution[cell]
        if ((d >> (v - 1)) & 1) == 0:
            used[steps] = -1
            steps += 1
            break
        for w in range(1, values + 1):
            if (d >> (w - 1)) & 1:
                seen[entries] = prior_code(grid, rows, cols, row_used, col_used, row_sums, col_sums, size, values,
                                           low, high, kind, offset, cell, w)
                entries += 1
        used[steps] = prior_code(grid, rows, cols, row_used, col_used, row_sums, col_sums, size, values, low, high,
                                 kind, offset, cell, v)
        steps += 1
        place(grid, rows, cols, row_used, col_used, size, cell, v)
        if sums:
            blocked(grid, rows, cols, row_used, col_used, row_sums, col_sums, size, values, row_block, col_block,
                    cell // size, cell % size)
    return seen[:entries], used[:steps]
