"""The compiled (Numba) kernels of Latin square completion: bitset domains, channeling, MRV, playouts, Replay.

A grid of order ``n`` (``n <= 62``) is an int8 array of ``n * n`` cells in
row-major order, 0 for an empty cell and ``1..n`` for a value.  The values
used in row ``r`` and column ``c`` are int64 bitsets (bit ``v - 1`` for value
``v``), so the *domain* of an empty cell (forward checking: the values not
yet in its row or column) is ``full & ~(rows[r] | cols[c])``.

**Channeling** ("if a value appears only once in a column or in a row it is
directly assigned", Cazenave 2024, sec. 4.1) is a *hidden single*: a value
missing from a line (row or column) whose domains hold it in one cell only
is assigned there.  Its strength is a bit mask (:data:`LINES`,
:data:`VALUE`, :data:`CASCADE`) saying which lines are checked after an
assignment ``(r, c) = v``:

- ``LINES``: every value in row ``r`` and column ``c`` (each lost the cell);
- ``VALUE``: the value ``v`` in each column ``c'`` whose cell ``(r, c')``
  held ``v`` in its domain, and in each row ``r'`` whose cell ``(r', c)``
  did (each lost a place for ``v``);
- ``CASCADE``: the assignments made by channeling are checked in turn (with
  ``LINES | VALUE | CASCADE`` the grid has no hidden single left: full
  propagation to the fixed point).

Without ``CASCADE`` only the assignment of the move itself is checked.  The
start of a search (:func:`root_propagate`) checks every line for every value
once (if the mask is not 0).  The checks run in a fixed order, so a state
and a move give one result.

The playout chooses the empty cell of smallest domain (MRV; the first in
row-major order among ties) and a value of its domain by the softmax policy
of :mod:`hornermcts.search.policy`, drawn exactly as the generic playout
draws (:func:`hornermcts.search.policy.softmax_pick`).  It stops when the grid is full or an empty
cell has an empty domain.

Moves are ints ``cell * n + (value - 1)``; this is also the NRPA policy code
(cell, value).  The Dual prior code of a move is ``rc * (n + 1) + cc``: the
numbers of empty cells of its row (``rc``) and of its column (``cc``) whose
domain holds its value (docs/domains.md B5.4), the cell itself included.

Examples
--------
>>> import numpy as np
>>> grid = np.array([1, 2, 0,
...                  0, 0, 0,
...                  0, 0, 0], np.int8)
>>> rows, cols = line_sets(grid, 3)
>>> int(rows[0]), int(cols[0]), domain(rows, cols, 3, 0, 2)     # cell (0, 2) can only take 3
(3, 1, 4)
>>> mrv(grid, rows, cols, 3, 3)                                   # (cell, domain size)
(2, 1)
>>> root_propagate(grid, rows, cols, 3, FULL)                    # hidden singles to the fixed point
>>> grid.reshape(3, 3).tolist()
[[1, 2, 3], [0, 0, 0], [0, 0, 0]]
"""

from __future__ import annotations


import numpy as np
from numba import njit

from ...search.policy import softmax_pick

__all__ = ["LINES", "VALUE", "CASCADE", "FULL", "MAX_ORDER", "popcount", "line_sets", "domain", "mrv",
           "assign_and_propagate", "root_propagate", "dual_code", "playout", "replay",
           "playouts_until_solved"]

#: Channeling bit: check every value in the row and the column of an assignment.
LINES = 1
#: Channeling bit: check the assigned value in the lines crossing its row and column.
VALUE = 2
#: Channeling bit: assignments made by channeling are checked too.
CASCADE = 4
#: Full hidden-single propagation.
FULL = LINES | VALUE | CASCADE
#: The largest order the int64 bitsets hold.
MAX_ORDER = 62


@njit(cache=True, inline="always")
def popcount(x):
    """The number of set bits of a non-negative int64 below ``2**62``."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def line_sets(grid, n):
    """The bitsets of the values used in each row and each column of ``grid``."""
    rows = np.zeros(n, np.int64)
    cols = np.zeros(n, np.int64)
    for cell in range(n * n):
        v = grid[cell]
        if v > 0:
            bit = np.int64(1) << (v - 1)
            rows[cell // n] |= bit
            cols[cell % n] |= bit
    return rows, cols


@njit(cache=True, inline="always")
def domain(rows, cols, n, r, c):
    """The domain bitset of the (empty) cell ``(r, c)``."""
    return ((np.int64(1) << n) - 1) & ~(rows[r] | cols[c])


@njit(cache=True)
def mrv(grid, rows, cols, size, values):
    """``(cell, domain size)`` of the first empty cell of smallest domain; ``(-1, 0)`` if the grid is full.

    ``size x size`` cells holding ``1..values`` all different per line (a
    Latin square: ``values = size``; Kakuro: ``values = size + 1``). A domain
    size of 0 means an empty cell has an empty domain (the playout stops).
    """
    full = (np.int64(1) << values) - 1
    best = -1
    best_size = values + 1
    for cell in range(size * size):
        if grid[cell] == 0:
            k = popcount(full & ~(rows[cell // size] | cols[cell % size]))
            if k < best_size:
                best = cell
                best_size = k
                if k == 0:
                    break
    if best < 0:
        return -1, 0
    return best, best_size


@njit(cache=True, inline="always")
def _place(grid, rows, cols, n, cell, v):
    grid[cell] = v
    bit = np.int64(1) << (v - 1)
    rows[cell // n] |= bit
    cols[cell % n] |= bit


@njit(cache=True)
def _check_line(grid, rows, cols, n, start, step, stack, top, push):
    """Assign every hidden single of one line: cells ``start + k step`` (a row: ``r n, 1``; a column: ``c, n``).

    Returns the new stack top.
    """
    full = (np.int64(1) << n) - 1
    once = np.int64(0)
    twice = np.int64(0)
    for k in range(n):
        cell = start + k * step
        if grid[cell] == 0:
            d = full & ~(rows[cell // n] | cols[cell % n])
            twice |= once & d
            once |= d
    singles = once & ~twice
    while singles != 0:
        low = singles & -singles
        singles ^= low
        for k in range(n):
            cell = start + k * step
            if grid[cell] == 0 and (low & ~(rows[cell // n] | cols[cell % n])) != 0:
                v = 1
                while (np.int64(1) << (v - 1)) != low:
                    v += 1
                _place(grid, rows, cols, n, cell, v)
                if push:
                    stack[top] = cell
                    top += 1
                break
    return top


@njit(cache=True)
def _propagate(grid, rows, cols, n, mode, stack, top):
    """Process the assignments on the stack (channeling by ``mode``) until it is empty."""
    push = (mode & CASCADE) != 0
    while top > 0:
        top -= 1
        cell = stack[top]
        r = cell // n
        c = cell % n
        bit = np.int64(1) << (grid[cell] - 1)
        if mode & LINES:
            top = _check_line(grid, rows, cols, n, r * n, 1, stack, top, push)
            top = _check_line(grid, rows, cols, n, c, n, stack, top, push)
        if mode & VALUE:
            for c2 in range(n):  # columns whose cell in row r lost the value
                if grid[r * n + c2] == 0 and (cols[c2] & bit) == 0:
                    place = -1
                    count = 0
                    for r2 in range(n):
                        if grid[r2 * n + c2] == 0 and (rows[r2] & bit) == 0:
                            count += 1
                            place = r2 * n + c2
                    if count == 1:
                        _place(grid, rows, cols, n, place, grid[cell])
                        if push:
                            stack[top] = place
                            top += 1
            for r2 in range(n):  # rows whose cell in column c lost the value
                if grid[r2 * n + c] == 0 and (rows[r2] & bit) == 0:
                    place = -1
                    count = 0
                    for c2 in range(n):
                        if grid[r2 * n + c2] == 0 and (cols[c2] & bit) == 0:
                            count += 1
                            place = r2 * n + c2
                    if count == 1:
                        _place(grid, rows, cols, n, place, grid[cell])
                        if push:
                            stack[top] = place
                            top += 1
    return top


@njit(cache=True)
def root_propagate(grid, rows, cols, n, mode):
    """The channeling of a search's start: every line checked for every value once (if ``mode``), in place."""
    if mode == 0:
        return
    stack = np.empty(n * n, np.int64)
    push = (mode & CASCADE) != 0
    top = 0
    for r in range(n):
        top = _check_line(grid, rows, cols, n, r * n, 1, stack, top, push)
    for c in range(n):
        top = _check_line(grid, rows, cols, n, c, n, stack, top, push)
    _propagate(grid, rows, cols, n, mode, stack, top)


@njit(cache=True)
def assign_and_propagate(grid, rows, cols, n, mode, cell, v, stack):
    """Assign ``v`` to the empty ``cell`` and channel by ``mode``, in place."""
    _place(grid, rows, cols, n, cell, v)
    stack[0] = cell
    _propagate(grid, rows, cols, n, mode, stack, 1)


@njit(cache=True)
def dual_code(grid, rows, cols, n, cell, v):
    """The Dual prior code of assigning ``v`` to ``cell``: ``rc * (n + 1) + cc`` (module docstring)."""
    r = cell // n
    c = cell % n
    bit = np.int64(1) << (v - 1)
    rc = 0
    if (rows[r] & bit) == 0:
        for c2 in range(n):
            if grid[r * n + c2] == 0 and (cols[c2] & bit) == 0:
                rc += 1
    cc = 0
    if (cols[c] & bit) == 0:
        for r2 in range(n):
            if grid[r2 * n + c] == 0 and (rows[r2] & bit) == 0:
                cc += 1
    return rc * (n + 1) + cc


@njit(cache=True)
def playout(start, n, mode, weights, bias, has_bias, rng):
    """One softmax playout from the grid ``start`` (not modified) to a terminal grid.

    ``weights`` is the policy indexed by move code; ``bias`` the table of
    ``beta`` indexed by Dual code (read only if ``has_bias``).  Returns
    ``(grid, moves, codes, betas, starts, chosen)``: the terminal grid, the
    moves played, and the trace of :class:`hornermcts.search.policy.Trace`
    (states with a single legal move draw nothing and are not recorded).
    """
    grid = start.copy()
    rows, cols = line_sets(grid, n)
    cells = n * n
    stack = np.empty(cells, np.int64)
    moves = np.empty(cells, np.int64)
    codes = np.empty(cells * n, np.int64)
    betas = np.zeros(cells * n)
    starts = np.zeros(cells + 1, np.int64)
    chosen = np.empty(cells, np.int64)
    values = np.empty(n, np.int64)
    plain = np.empty(n)
    beta = np.zeros(n)
    odds = np.empty(n)
    played = 0
    entries = 0
    steps = 0
    while True:
        cell, size = mrv(grid, rows, cols, n, n)
        if size == 0:
            break
        d = domain(rows, cols, n, cell // n, cell % n)
        k = 0
        for v in range(1, n + 1):
            if (d >> (v - 1)) & 1:
                values[k] = v
                k += 1
        pick = 0
        if k > 1:
            for i in range(k):
                plain[i] = weights[cell * n + values[i] - 1]
                beta[i] = bias[dual_code(grid, rows, cols, n, cell, values[i])] if has_bias else 0.0
            pick, ignored = softmax_pick(plain, beta, k, rng, odds)
            for i in range(k):
                codes[entries + i] = cell * n + values[i] - 1
                betas[entries + i] = 0.0 if ignored else beta[i]
            chosen[steps] = entries + pick
            entries += k
            steps += 1
            starts[steps] = entries
        moves[played] = cell * n + values[pick] - 1
        played += 1
        assign_and_propagate(grid, rows, cols, n, mode, cell, values[pick], stack)
    return grid, moves[:played], codes[:entries], betas[:entries], starts[:steps + 1], chosen[:steps]


@njit(cache=True)
def playouts_until_solved(start, n, mode, weights, bias, has_bias, rng, limit):
    """Playouts from ``start`` until one fills the grid, at most ``limit``: ``(playouts done, solved grid or start)``.

    The same draws as ``limit`` calls of :func:`playout` with ``rng`` (what
    ``nrpa(level=0)`` does through the coded hook), without leaving compiled
    code: generation and calibration use it.
    """
    for done in range(1, limit + 1):
        grid, moves, codes, betas, starts, chosen = playout(start, n, mode, weights, bias, has_bias, rng)
        full = True
        for cell in range(n * n):
            if grid[cell] == 0:
                full = False
                break
        if full:
            return done, grid
    return limit, start.copy()


@njit(cache=True)
def replay(start, solution, n, mode):
    """Alg. 4 (Replay) of a solution from ``start``, by MRV: ``(nb codes, count codes)`` as flat arrays.

    At every state with an empty cell, the MRV cell's every legal value adds
    its Dual code to the first array, and the solution's value to the
    second; the solution's value is then played (with channeling).  If the
    solution's value is not legal in some state (the solution does not
    complete ``start``), the second array ends with ``-1``.
    """
    grid = start.copy()
    rows, cols = line_sets(grid, n)
    cells = n * n
    stack = np.empty(cells, np.int64)
    seen = np.empty(cells * n, np.int64)
    used = np.empty(cells + 1, np.int64)
    entries = 0
    steps = 0
    while True:
        cell, size = mrv(grid, rows, cols, n, n)
        if cell < 0:
            break
        d = domain(rows, cols, n, cell // n, cell % n)
        v = solution[cell]
        if ((d >> (v - 1)) & 1) == 0:
            used[steps] = -1
            steps += 1
            break
        for w in range(1, n + 1):
            if (d >> (w - 1)) & 1:
                seen[entries] = dual_code(grid, rows, cols, n, cell, w)
                entries += 1
        used[steps] = dual_code(grid, rows, cols, n, cell, v)
        steps += 1
        assign_and_propagate(grid, rows, cols, n, mode, cell, v, stack)
    return seen[:entries], used[:steps]
