"""SameGame, Clickomania and Bubble Breaker: the tile-removal puzzles.

A board of ``height`` rows and ``width`` columns holds tiles of ``colours``
colours. A move removes an orthogonally connected group of at least two
tiles of one colour; the tiles above fall down, and an emptied column is
closed by shifting the columns to its right leftwards. The game ends when no
group of two or more is left. The variants differ only in scoring
(Schadd et al., *SP-MCTS for SameGame*, sec. 2.1; Baier & Winands, *Beam
MCTS*, sec. V):

``"samegame"``
    ``(n - 2)^2`` for a group of ``n``; ``+1000`` if the board is cleared;
    if tiles are left, ``(c - 2)^2`` is deducted for each colour with ``c``
    tiles left, as if they formed one group (the formula taken literally,
    so a lone tile costs ``(1 - 2)^2 = 1``; ``penalty=False`` drops the
    deduction: the 20 logged games of the standard set all clear the board,
    so they confirm the bonus but cannot tell whether the deduction applies).
``"clickomania"``
    The number of tiles removed.
``"bubblebreaker"``
    ``n (n - 1)`` for a group of ``n``.

:class:`SameGame` plugs into the search core (:mod:`hornermcts.search`): a
state (:class:`SameGameState`) is a compact int8 array plus the score so
far, so the reward of a terminal state is the whole game's score; a move is
a ``(column, row)`` cell of the group, ``(0, 0)`` the bottom-left cell (the
convention of the replay logs of the standard set), and :meth:`SameGame.moves`
names each group by its cell of smallest column, then smallest row.
Move generation, moves and playouts (``"random"``, ``"tabu"`` =
TabuRandom, ``"tabu_color"`` = TabuColorRandom, each epsilon-greedy) run in
Numba.

Boards come from :func:`random_board`, :func:`standard_testset` (the 20
positions of the standardized test set, embedded), :func:`read_boards` (the
integer and the letter file formats) or any 2-D array, row 0 at the top.

Examples
--------
>>> game = SameGame([[0, 1, 1],
...                  [0, 0, 1],
...                  [1, 2, 2]])
>>> state = game.root()
>>> game.moves(state)
[(0, 1), (1, 0), (1, 2)]
>>> state = game.apply(state, (0, 1))  # the three 0s: (3 - 2)^2 = 1 point
>>> print(game.render(state))
. . 1
. 1 1
1 2 2
>>> game.moves(state), state.score
([(1, 0), (1, 1)], 1)
>>> state = game.apply(state, (1, 0))  # the two 2s: 0 points; the 1s fall
>>> print(game.render(state))
. . .
. . 1
1 1 1
>>> final = game.apply(state, (0, 0))  # four 1s: 4 points, cleared: 1000
>>> game.is_terminal(final), game.reward(final)
(True, 1005.0)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
from numba import njit

__all__ = [
    "SameGame",
    "SameGameState",
    "SCORINGS",
    "PLAYOUTS",
    "random_board",
    "standard_testset",
    "read_boards",
    "read_replays",
    "parse_moves",
    "format_moves",
    "solve_exhaustive",
    "random_playout_rate",
]

#: Scoring variants, and their codes in the compiled kernels.
SCORINGS = {"samegame": 0, "clickomania": 1, "bubblebreaker": 2}
_SCORING_ALIASES = {"same": "samegame", "bubble_breaker": "bubblebreaker", "bubble-breaker": "bubblebreaker"}
#: Playout policies: uniform random, TabuRandom, TabuColorRandom (Schadd et al., sec. 4.1).
PLAYOUTS = {"random": 0, "tabu": 1, "tabu_color": 2}
_PLAYOUT_ALIASES = {"taburandom": "tabu", "tabucolorrandom": "tabu_color", "tabu-color": "tabu_color"}

#: Letters of the ``mcs`` board files, colour 0 first.
LETTERS = "RGBYV"

#: Where the shared data lives on this project's machines (tests and benchmarks).
SHARED_DATA = Path(os.environ.get("HORNERMCTS_SAMEGAME_DATA", "/work/shared/data/samegame"))

EMPTY = -1

# --------------------------------------------------------------------------
# compiled kernels; a board is a flat int8 array, index col * height + row,
# row 0 at the bottom, EMPTY above the tiles of a column and in the columns
# right of the last non-empty one


@njit(cache=True, inline="always")
def _flood(cells, width, height, label, stack, start, name):
    """Give the group holding ``start`` the label ``name``; return its size.

    Depth-first fill over orthogonal neighbours of the same colour; cells
    already labelled (``label >= 0``) are not entered.
    """
    k = cells[start]
    label[start] = name
    stack[0] = start
    top = 0
    count = 0
    while top >= 0:
        j = stack[top]
        top -= 1
        count += 1
        jc = j // height
        jr = j - jc * height
        if jr + 1 < height and cells[j + 1] == k and label[j + 1] < 0:
            label[j + 1] = name
            top += 1
            stack[top] = j + 1
        if jr > 0 and cells[j - 1] == k and label[j - 1] < 0:
            label[j - 1] = name
            top += 1
            stack[top] = j - 1
        if jc + 1 < width and cells[j + height] == k and label[j + height] < 0:
            label[j + height] = name
            top += 1
            stack[top] = j + height
        if jc > 0 and cells[j - height] == k and label[j - height] < 0:
            label[j - height] = name
            top += 1
            stack[top] = j - height
    return count


@njit(cache=True)
def _label(cells, width, height, label, stack, rep, size, colour):
    """Label the connected groups; return their number.

    ``rep[g]`` is the smallest cell index of group ``g`` (scan order), so a
    group's name does not depend on how it was found.
    """
    for i in range(width * height):
        label[i] = -1
    n = 0
    for c in range(width):
        base = c * height
        if cells[base] < 0:
            break
        for r in range(height):
            i = base + r
            k = cells[i]
            if k < 0:
                break
            if label[i] >= 0:
                continue
            count = _flood(cells, width, height, label, stack, i, n)
            rep[n] = i
            size[n] = count
            colour[n] = k
            n += 1
    return n


@njit(cache=True)
def _remove(cells, width, height, label, g):
    """Remove group ``g`` of ``label`` in place: gravity, then close empty columns."""
    dc = 0
    for c in range(width):
        src = c * height
        if cells[src] < 0:
            break
        dst = dc * height
        w = 0
        r = 0
        while r < height:
            k = cells[src + r]
            if k < 0:
                break
            if label[src + r] != g:
                cells[dst + w] = k
                w += 1
            r += 1
        # clear what is left of the source column, and of the target above w
        for i in range(src + (w if dc == c else 0), src + r):
            cells[i] = -1
        if dc != c:
            for i in range(dst + w, dst + height):
                cells[i] = -1
        if w > 0:
            dc += 1


@njit(cache=True)
def _points(scoring, n):
    if scoring == 0:
        return (n - 2) * (n - 2)
    if scoring == 1:
        return n
    return n * (n - 1)


@njit(cache=True)
def _legal_groups(cells, width, height):
    """Representative cell, size and colour of each group of two or more."""
    cells_n = width * height
    label = np.empty(cells_n, np.int32)
    stack = np.empty(cells_n, np.int32)
    rep = np.empty(cells_n, np.int32)
    size = np.empty(cells_n, np.int32)
    colour = np.empty(cells_n, np.int32)
    n = _label(cells, width, height, label, stack, rep, size, colour)
    k = 0
    for g in range(n):
        if size[g] >= 2:
            rep[k] = rep[g]
            size[k] = size[g]
            colour[k] = colour[g]
            k += 1
    return rep[:k].copy(), size[:k].copy(), colour[:k].copy()


@njit(cache=True)
def _apply(cells, width, height, cell):
    """Remove the group holding ``cell`` in place; return its size (0 if empty).

    A size below 2 leaves ``cells`` unchanged.
    """
    if cells[cell] < 0:
        return 0
    cells_n = width * height
    label = np.full(cells_n, -1, np.int32)
    stack = np.empty(cells_n, np.int32)
    count = _flood(cells, width, height, label, stack, cell, 0)
    if count >= 2:
        _remove(cells, width, height, label, 0)
    return count


@njit(cache=True)
def _next(s):
    """xorshift64* step: (new state, uniform float in [0, 1))."""
    s ^= s >> np.uint64(12)
    s ^= s << np.uint64(25)
    s ^= s >> np.uint64(27)
    x = s * np.uint64(2685821657736338717)
    return s, (x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _pad(cells, width, height, padded):
    """Copy a flat board into ``padded``: a frame of sentinels (-2) around it.

    Column ``c`` of the board is column ``c + 1`` of the frame, each frame
    column has ``height + 2`` cells with row ``r`` at ``r + 1``: neighbours
    are ``i +- 1`` and ``i +- (height + 2)`` with no bounds checks.
    """
    stride = height + 2
    padded[:] = -2
    for c in range(width):
        for r in range(height):
            padded[(c + 1) * stride + r + 1] = cells[c * height + r]


@njit(cache=True)
def _unpad(padded, width, height, cells):
    stride = height + 2
    for c in range(width):
        for r in range(height):
            cells[c * height + r] = padded[(c + 1) * stride + r + 1]


@njit(cache=True)
def _playout(cells, width, height, n_colours, scoring, policy, epsilon, seed, moves):
    """Finish ``cells`` in place; return (points of the moves, moves played).

    ``moves`` receives the flat cell index of the move's group representative
    (its first cell in scan order, as in :meth:`SameGame.moves`). Policies: 0
    uniform random; 1 TabuRandom (a random colour present at the start is
    avoided while other moves exist); 2 TabuColorRandom (the most frequent
    colour is avoided). With probability ``epsilon`` a move is uniform
    random instead. The work is done on a padded copy, with labels stamped
    by a growing offset so that they never need clearing.
    """
    s = np.uint64(seed)
    if s == 0:
        s = np.uint64(0x9E3779B97F4A7C15)
    stride = height + 2
    total = (width + 2) * stride
    board = np.empty(total, np.int8)
    _pad(cells, width, height, board)
    label = np.full(total, -1, np.int32)
    stack = np.empty(total, np.int32)
    cells_n = width * height
    rep = np.empty(cells_n, np.int32)
    size = np.empty(cells_n, np.int32)
    colour = np.empty(cells_n, np.int32)
    tabu = -1
    if policy != 0:
        counts = np.zeros(n_colours, np.int32)
        for i in range(cells_n):
            if cells[i] >= 0:
                counts[cells[i]] += 1
        if policy == 1:
            present = 0
            for k in range(n_colours):
                if counts[k] > 0:
                    present += 1
            if present > 0:
                s, u = _next(s)
                pick = int(u * present)
                for k in range(n_colours):
                    if counts[k] > 0:
                        if pick == 0:
                            tabu = k
                            break
                        pick -= 1
        else:
            best = 0
            for k in range(n_colours):
                if counts[k] > best:
                    best = counts[k]
                    tabu = k
    points = 0
    played = 0
    offset = 0  # labels below offset belong to earlier steps
    while True:
        # label the groups
        n = 0
        legal = 0
        free = 0
        for c in range(1, width + 1):
            base = c * stride
            if board[base + 1] < 0:
                break
            for i in range(base + 1, base + height + 1):
                k = board[i]
                if k < 0:
                    break
                if label[i] >= offset:
                    continue
                g = offset + n
                label[i] = g
                stack[0] = i
                top = 0
                count = 0
                while top >= 0:
                    j = stack[top]
                    top -= 1
                    count += 1
                    m = j + 1
                    if board[m] == k and label[m] < offset:
                        label[m] = g
                        top += 1
                        stack[top] = m
                    m = j - 1
                    if board[m] == k and label[m] < offset:
                        label[m] = g
                        top += 1
                        stack[top] = m
                    m = j + stride
                    if board[m] == k and label[m] < offset:
                        label[m] = g
                        top += 1
                        stack[top] = m
                    m = j - stride
                    if board[m] == k and label[m] < offset:
                        label[m] = g
                        top += 1
                        stack[top] = m
                rep[n] = i
                size[n] = count
                colour[n] = k
                if count >= 2:
                    legal += 1
                    if k != tabu:
                        free += 1
                n += 1
        if legal == 0:
            break
        use_tabu = tabu >= 0 and free > 0
        if use_tabu and epsilon > 0.0:
            s, u = _next(s)
            if u < epsilon:
                use_tabu = False
        s, u = _next(s)
        if use_tabu:
            pick = int(u * free)
        else:
            pick = int(u * legal)
        chosen = -1
        for g in range(n):
            if size[g] >= 2 and (not use_tabu or colour[g] != tabu):
                if pick == 0:
                    chosen = g
                    break
                pick -= 1
        points += _points(scoring, size[chosen])
        r0 = rep[chosen]
        moves[played] = (r0 // stride - 1) * height + (r0 % stride - 1)
        played += 1
        # remove it: gravity, then close empty columns; the representative is
        # the group's first cell in scan order, so its column is the group's
        # leftmost and the columns before it stay as they are; once all its
        # tiles are gone and no column was closed, the rest stays too
        target = offset + chosen
        left = size[chosen]
        dc = r0 // stride
        for c in range(dc, width + 1):
            if left == 0 and dc == c:
                break
            src = c * stride
            if board[src + 1] < 0:
                break
            dst = dc * stride
            w = 1
            r = 1
            while r <= height:
                k = board[src + r]
                if k < 0:
                    break
                if label[src + r] != target:
                    board[dst + w] = k
                    w += 1
                r += 1
            left -= r - w
            if dc == c:
                for i in range(src + w, src + r):
                    board[i] = -1
            else:
                for i in range(src + 1, src + r):
                    board[i] = -1
                for i in range(dst + w, dst + height + 1):
                    board[i] = -1
            if w > 1:
                dc += 1
        offset += n
        if offset > 2_000_000_000:
            label[:] = -1
            offset = 0
    _unpad(board, width, height, cells)
    return points, played


@njit(cache=True)
def _playout_batch(cells, width, height, n_colours, scoring, policy, epsilon, seed, count):
    """Play ``count`` playouts from ``cells``; return the sum of their points (benchmark)."""
    moves = np.empty(width * height, np.int32)
    work = np.empty_like(cells)
    total = 0
    s = np.uint64(seed)
    for _ in range(count):
        work[:] = cells
        s, u = _next(s)
        points, played = _playout(work, width, height, n_colours, scoring, policy, epsilon, s, moves)
        total += points
    return total


@njit(cache=True)
def _end_adjustment(cells, n_colours, bonus, penalty):
    """SameGame's end bonus or deduction (see :meth:`SameGame.end_adjustment`)."""
    counts = np.zeros(n_colours, np.int64)
    for i in range(cells.shape[0]):
        if cells[i] >= 0:
            counts[cells[i]] += 1
    deduction = 0
    left = False
    for k in range(n_colours):
        c = counts[k]
        if c > 0:
            left = True
            deduction += (c - 2) * (c - 2)
    if not left:
        return bonus
    if not penalty:
        return 0
    return -deduction


@njit(cache=True)
def _colour_counts(cells, n_colours):
    counts = np.zeros(n_colours, np.int64)
    for i in range(cells.shape[0]):
        if cells[i] >= 0:
            counts[cells[i]] += 1
    return counts


# --------------------------------------------------------------------------
# the problem


class SameGameState:
    """A position: the board (flat int8 array, never mutated) and the score so far.

    Attributes
    ----------
    cells : numpy.ndarray
        ``int8``, index ``column * height + row``, row 0 at the bottom,
        ``-1`` for empty cells.
    score : int
        Points of the moves played to reach this position (without the
        end-of-game bonus or penalty).

    States compare equal when board and score are equal, and hash alike.
    """

    __slots__ = ("cells", "score")

    def __init__(self, cells: np.ndarray, score: int = 0) -> None:
        self.cells = cells
        self.score = score

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SameGameState):
            return NotImplemented
        return self.score == other.score and np.array_equal(self.cells, other.cells)

    def __hash__(self) -> int:
        return hash((self.cells.tobytes(), self.score))

    def __repr__(self) -> str:
        tiles = int(np.count_nonzero(self.cells >= 0))
        return f"<SameGameState score={self.score} tiles={tiles}>"


def _canonical(name: str, table: dict, aliases: dict, what: str) -> str:
    key = str(name).lower()
    key = aliases.get(key, key)
    if key not in table:
        raise ValueError(f"unknown {what} {name!r}; expected one of {', '.join(sorted(table))}")
    return key


class SameGame:
    """A SameGame-family puzzle on one board, as a search problem.

    Parameters
    ----------
    board : array_like
        2-D, ``board[row][col]`` with row 0 at the top (as in the files),
        colours ``0 .. colours-1``, ``-1`` for an empty cell. Tiles must rest
        on tiles (no holes below a tile) and empty columns must be at the
        right, as after a move.
    scoring : {"samegame", "clickomania", "bubblebreaker"}, default "samegame"
    colours : int, optional
        Number of colours; default ``max(board) + 1``.
    playout : {"random", "tabu", "tabu_color"}, default "random"
        The playout policy of :meth:`playout`: uniform random moves,
        TabuRandom or TabuColorRandom (Schadd et al., sec. 4.1).
    epsilon : float, default 0.0
        Epsilon-greedy: the probability that a tabu playout plays a uniform
        random move instead (the paper uses 0.003).
    bonus : int, default 1000
        SameGame's bonus for a cleared board.
    penalty : bool, default True
        SameGame's deduction for tiles left at the end.

    Examples
    --------
    >>> game = SameGame(random_board(5, 5, 3, seed=1))
    >>> game.width, game.height, game.n_colours, game.scoring
    (5, 5, 3, 'samegame')
    >>> final, moves = game.playout(game.root(), np.random.default_rng(0))
    >>> game.replay(moves) == final
    True
    """

    def __init__(
        self,
        board: Any,
        *,
        scoring: str = "samegame",
        colours: int | None = None,
        playout: str = "random",
        epsilon: float = 0.0,
        bonus: int = 1000,
        penalty: bool = True,
    ) -> None:
        grid = np.asarray(board)
        if grid.ndim != 2 or grid.size == 0:
            raise ValueError(f"board must be a non-empty 2-D array, got shape {grid.shape}")
        if not np.issubdtype(grid.dtype, np.integer):
            raise ValueError(f"board must hold integers (colours, -1 for empty), got dtype {grid.dtype}")
        if grid.min() < -1:
            raise ValueError(f"board values must be >= -1, got {int(grid.min())}")
        top = int(grid.max())
        if colours is None:
            colours = max(top + 1, 1)
        if not (isinstance(colours, (int, np.integer)) and 1 <= colours <= 127):
            raise ValueError(f"colours must be an int in 1..127, got {colours!r}")
        if top >= colours:
            raise ValueError(f"board holds colour {top} but colours={colours}")
        height, width = grid.shape
        columns = grid[::-1, :].T.astype(np.int8)  # columns[c, r], r = 0 at the bottom
        filled = columns >= 0
        for c in range(width):
            n = int(filled[c].sum())
            if not filled[c, :n].all():
                raise ValueError(f"board column {c} has a tile above an empty cell (tiles must rest on tiles)")
        heights = filled.sum(axis=1)
        nonzero = np.flatnonzero(heights)
        if nonzero.size and nonzero[-1] + 1 != nonzero.size:
            raise ValueError("board has an empty column left of a non-empty one (columns close to the left)")
        self.width = int(width)
        self.height = int(height)
        self.n_colours = int(colours)
        self.scoring = _canonical(scoring, SCORINGS, _SCORING_ALIASES, "scoring")
        self._scoring_code = SCORINGS[self.scoring]
        self.playout_policy = _canonical(playout, PLAYOUTS, _PLAYOUT_ALIASES, "playout")
        self._policy_code = PLAYOUTS[self.playout_policy]
        if not (0.0 <= float(epsilon) <= 1.0):
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon!r}")
        self.epsilon = float(epsilon)
        self.bonus = int(bonus)
        self.penalty = bool(penalty)
        self._start = np.ascontiguousarray(columns.reshape(-1))
        self._start.setflags(write=False)

    # -------------------------------------------------------- protocol
    def root(self) -> SameGameState:
        """The start position, score 0."""
        return SameGameState(self._start, 0)

    def moves(self, state: SameGameState) -> list[tuple[int, int]]:
        """The groups of two or more, each named by a ``(column, row)`` cell."""
        rep, _, _ = _legal_groups(state.cells, self.width, self.height)
        h = self.height
        return [divmod(i, h) for i in rep.tolist()]

    def groups(self, state: SameGameState) -> list[tuple[tuple[int, int], int, int]]:
        """``(move, size, colour)`` of each legal group, in :meth:`moves` order.

        Examples
        --------
        >>> SameGame([[0, 0, 1]]).groups(SameGame([[0, 0, 1]]).root())
        [((0, 0), 2, 0)]
        """
        rep, size, colour = _legal_groups(state.cells, self.width, self.height)
        h = self.height
        return [(divmod(i, h), s, k) for i, s, k in zip(rep.tolist(), size.tolist(), colour.tolist())]

    def _cell(self, move: Any) -> int:
        try:
            col, row = (int(x) for x in move)
        except (TypeError, ValueError):
            raise ValueError(f"a move is a (column, row) pair, got {move!r}") from None
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(f"move {col},{row} is off the {self.width}x{self.height} board")
        return col * self.height + row

    def apply(self, state: SameGameState, move: Any) -> SameGameState:
        """Remove the group holding cell ``move = (column, row)``.

        Raises
        ------
        ValueError
            If the cell is empty or its group has fewer than two tiles.
        """
        cell = self._cell(move)
        cells = state.cells.copy()
        n = _apply(cells, self.width, self.height, cell)
        if n < 2:
            what = "an empty cell" if n == 0 else "a single tile"
            raise ValueError(f"illegal move {cell // self.height},{cell % self.height}: {what}, not a group of >= 2")
        cells.setflags(write=False)
        return SameGameState(cells, state.score + self.points(n))

    def points(self, n: int) -> int:
        """Points for removing a group of ``n`` tiles under this scoring.

        Examples
        --------
        >>> [SameGame([[0]], scoring=s).points(5) for s in SCORINGS]
        [9, 5, 20]
        """
        if self._scoring_code == 0:
            return (n - 2) * (n - 2)
        if self._scoring_code == 1:
            return n
        return n * (n - 1)

    def playout(self, state: SameGameState, rng: Any) -> tuple[SameGameState, list]:
        """Finish ``state`` with this game's playout policy (one draw from ``rng``)."""
        cells = state.cells.copy()
        moves = np.empty(cells.size, np.int32)
        seed = int(rng.integers(1, 2**63))
        points, played = _playout(
            cells,
            self.width,
            self.height,
            self.n_colours,
            self._scoring_code,
            self._policy_code,
            self.epsilon,
            seed,
            moves,
        )
        if not played:
            return state, []
        cells.setflags(write=False)
        h = self.height
        return SameGameState(cells, state.score + points), [divmod(i, h) for i in moves[:played].tolist()]

    def end_adjustment(self, state: SameGameState) -> int:
        """Bonus or penalty that ending the game in ``state`` adds to its score.

        SameGame: ``+bonus`` for an empty board, else minus ``(c - 2)^2`` per
        colour with ``c`` tiles left (if ``penalty``); 0 in the other
        variants.

        Examples
        --------
        >>> game = SameGame([[0, 1, 2], [1, 1, 1]])
        >>> game.end_adjustment(game.root())  # 4 tiles of 1, one 0, one 2
        -6
        """
        if self._scoring_code != 0:
            return 0
        return int(_end_adjustment(state.cells, self.n_colours, self.bonus, self.penalty))

    def reward(self, state: SameGameState) -> float:
        """The final score: points so far plus :meth:`end_adjustment`.

        Meant for terminal states (the search protocol); on another state it
        is the score the game would have if it were declared over there.
        """
        return float(state.score + self.end_adjustment(state))

    # -------------------------------------------------------- helpers
    def is_terminal(self, state: SameGameState) -> bool:
        """True if no group of two or more is left."""
        return len(_legal_groups(state.cells, self.width, self.height)[0]) == 0

    def tiles_left(self, state: SameGameState) -> int:
        """Number of tiles on the board."""
        return int(np.count_nonzero(state.cells >= 0))

    def grid(self, state: SameGameState) -> np.ndarray:
        """The board as a 2-D array, row 0 at the top (the input convention)."""
        return state.cells.reshape(self.width, self.height).T[::-1].copy()

    def render(self, state: SameGameState) -> str:
        """Rows top first, ``.`` for empty; colours as digits below 10, else letters.

        Examples
        --------
        >>> game = SameGame([[1, 0], [0, 0]])
        >>> print(game.render(game.apply(game.root(), (0, 0))))
        . .
        1 .
        """
        symbols = "0123456789" + "abcdefghijklmnopqrstuvwxyz"
        return "\n".join(
            " ".join("." if k < 0 else (symbols[k] if k < len(symbols) else "#") for k in row)
            for row in self.grid(state).tolist()
        )

    def replay(self, moves: Iterable[Any], state: SameGameState | None = None) -> SameGameState:
        """Play ``moves`` from ``state`` (default: the start); raise on an illegal one.

        Raises
        ------
        ValueError
            Naming the first illegal move and its index.
        """
        state = self.root() if state is None else state
        for index, move in enumerate(moves):
            try:
                state = self.apply(state, move)
            except ValueError as exc:
                raise ValueError(f"move {index + 1}: {exc}") from None
        return state

    def score(self, moves: Iterable[Any]) -> float:
        """The final score of a complete game ``moves``; raise if illegal or unfinished.

        Examples
        --------
        >>> game = SameGame([[0, 0, 1, 1]])
        >>> game.score([(0, 0), (0, 0)])
        1000.0
        >>> game.score([(0, 0)])
        Traceback (most recent call last):
        ...
        ValueError: the game is not over after 1 moves: 1 group(s) left
        """
        moves = list(moves)
        state = self.replay(moves)
        left = self.moves(state)
        if left:
            raise ValueError(f"the game is not over after {len(moves)} moves: {len(left)} group(s) left")
        return self.reward(state)

    def bound(self, state: SameGameState) -> float:
        """An optimistic bound on the final score reachable from ``state``.

        Every colour removed as one group (and, for SameGame, the bonus unless
        some colour has a single tile): no game from ``state`` scores more.
        """
        counts = _colour_counts(state.cells, self.n_colours)
        left = counts[counts > 0]
        if self._scoring_code == 1:
            return float(state.score + left.sum())
        if self._scoring_code == 2:
            return float(state.score + (left * (left - 1)).sum())
        extra = int(((left[left >= 2] - 2) ** 2).sum())
        if left.size == 0 or (left >= 2).all():
            extra += self.bonus
        return float(state.score + extra)

    def __repr__(self) -> str:
        return (
            f"SameGame({self.height}x{self.width}, colours={self.n_colours}, scoring={self.scoring!r}, "
            f"playout={self.playout_policy!r})"
        )


# --------------------------------------------------------------------------
# boards, files, moves


def random_board(width: int = 15, height: int = 15, colours: int = 5, *, seed: Any = None) -> np.ndarray:
    """A full board of uniformly random colours, row 0 at the top.

    Parameters
    ----------
    width, height, colours : int
        15, 15, 5 is the standard SameGame; 20, 20, 10 the Clickomania of
        the BMCTS paper.
    seed : int, numpy.random.Generator or None

    Examples
    --------
    >>> random_board(4, 2, 3, seed=0)
    array([[2, 1, 1, 0],
           [0, 0, 0, 0]], dtype=int8)
    >>> np.array_equal(random_board(seed=5), random_board(seed=5))
    True
    """
    for name, value in (("width", width), ("height", height), ("colours", colours)):
        if not (isinstance(value, (int, np.integer)) and value >= 1):
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    if colours > 127:
        raise ValueError(f"colours must be at most 127, got {colours}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return rng.integers(0, colours, size=(height, width)).astype(np.int8)


# The standardized test set (js-games.de; Schadd et al. Table 7): 20 boards of
# 15 x 15 with colours 0-4, row 0 at the top, 225 digits per board.
_STANDARD = (
    "311410404411023332044131200404023430300344111234023024443023121312012103401"
    "044303422202340243423111341031100403121041331133204313041003033423002123401"
    "041201343341404223104012413301330232143130213103214444042134101011221001432"
    "330102123231110413403322402400232203104402404034422133130334002121343212314"
    "124200011100244103332104241430443302334303004333143330420320241111400304043"
    "330141211034210223320433404331013212110241403414021313140103132322422430311"
    "424310332243142303403332443133204401222340440043002421203242020201132112340"
    "101043334222341234342242434401423220124330021344304341002143401310230202301"
    "420002210231131031133212004241214440334200200104401324042001222233043340412"
    "422413324042342202121012113042023200410430032223110010114300420422030022142"
    "143323044002230211410104410413330213114023333233131041012304321134024242020"
    "030140004210240201423142010342042034431134214424043022414341432221123312032"
    "344323213412332202031031121434131031323400141021022241044332231304023014423"
    "313323010434014444223000101213213440410401213343120133014200230124330112233"
    "441033442242030310432023143122223024130321342243130320432234042223201140133"
    "242042231013420233231330141001043031333102421301012300211144011120213420310"
    "111411001141121330113200001201030340112142102122223413142411220330223322103"
    "240040434434144212311221031440232211401440433113031434104114044422431132441"
    "340312013124113314300130204444043211022134023240133322220220040021014333102"
    "104124422000344421312013422132111030313311230124314111023033041340414042301"
    "043424131304300311104203044244404314132301011334244203430103023442410004240"
    "313144220402231112331022202411441242141233214102234132213432311001203243431"
    "113042130124403011101233101003232311124021233013043114013030133030003413000"
    "442131011313243030231113312322322030310033242012202441343114443043334134431"
    "134021430012311003032301403332241201210031022021211000330113142313304231044"
    "211411404420040344300204124033140400334402244010423300204341311424002031243"
    "004241200030333001012203432434110204331143241012234031400311030010111312000"
    "013343432440321401100012030021124302023431223343013323110342200320233301111"
    "242214321401441000223432303434120412240242403343311044210013122243202101013"
    "234210123240243132430441141240302214341221131202104140323024031101414111042"
    "412023414414313131340342332341132234234034123132402001213442402201100102324"
    "220341043442334440203411442011310411132413202020011204110224310434311003234"
    "441240420323400243013131010014121200301102312320130243444030233022430212320"
    "122423424122334311411111211410141442140340233331203332401230434130443404002"
    "203124440023003040342110333221020314001203412322211143202422433030040022331"
    "423412313044402013123243312401413310320140202402410042004430111342321201410"
    "401433141241002014030024223324021033300443114442102433224240300442213432420"
    "041444441234233012002213420041433200101432311342202333001213132122411123131"
    "002121141102120412103103404332430034333311321011301104040204221442203430243"
    "224024001403433043103201221440212332123304210443324101440421330122313013233"
    "120340422213331400111143321320414410020322023233143010440021012243114424424"
    "241103330440020321304423021131043312022123001434211304141420213201401404043"
    "012134321212234400130420444211300121130032400421441400320220334212413404230"
    "044122144233441311322032344320241320244414400142120330133243223211001131243"
    "210220322141140013210400330304121343113004314033311400424103303214033122042"
    "201443142040401330211142434210414412111231033442330203214414141333102222230"
    "042303101131321202411213111222133311003302111000441324100330432313334312211"
    "111120214131112012104023100010011433440010124322114021010444401122434124434"
    "022241204023022444222123230021320123243104202212002234322213020320212223302"
    "310430110300234034134311331213423110334411443304111331411442213022424211220"
    "013244000422422301241033104022421422220210430043202324211134424402013424231"
    "022443333043023414441314103021041303133240432123342102333234041411230213102"
    "313413314332440024410032323332014331213231202020231341102141034002324330003"
    "240220310232323431143113130413421133030403430124424341430002433233001123342"
    "441411240330120411431122302403323401402441230043402404441434401420124301443"
    "314221212242122242040343023330343400011412133444124240141443042240313241444"
    "002140243400430421022422233100413343132113142114043320243140331414040430440"
    "301330010024001122322040232221310000441313204010203432302034232203300303411"
    "033204124124410324041432114002141304032320001000142104443104333103120243411"
    "111302230434411020020013023024433240004310412223204200414401341440000102100"
)


def standard_testset(path: str | os.PathLike | None = None) -> list[np.ndarray]:
    """The 20 boards of the standardized SameGame test set, board 1 first.

    Parameters
    ----------
    path : path, optional
        Read them from a file instead (:func:`read_boards` formats); the
        default is the copy embedded here, identical to
        ``standard_testset.txt`` of the shared data.

    Examples
    --------
    >>> boards = standard_testset()
    >>> len(boards), boards[0].shape, boards[0][0, :5].tolist()
    (20, (15, 15), [3, 1, 1, 4, 1])
    """
    if path is not None:
        return read_boards(path)
    digits = np.frombuffer(_STANDARD.encode(), dtype=np.uint8) - ord("0")
    return [board.astype(np.int8) for board in digits.reshape(20, 15, 15)]


def read_boards(path: str | os.PathLike) -> list[np.ndarray]:
    """Read boards (row 0 at the top) from a file in either known format.

    - integers: rows of space-separated colours (``-1`` empty), boards
      separated by blank lines (``standard_testset.txt``);
    - letters: a first line ``height width colours`` then ``height`` rows of
      letters ``R G B Y V`` (colours 0-4) or digits, ``.`` empty
      (``mcs_letters/problemNN.txt``); several such blocks may follow.

    Raises
    ------
    ValueError
        On ragged rows, unknown symbols or a header that does not match.
    OSError
        If the file cannot be read.
    """
    text = Path(path).read_text()
    lines = [line.strip() for line in text.splitlines()]
    boards: list[np.ndarray] = []
    i = 0
    n = len(lines)
    while i < n:
        if not lines[i]:
            i += 1
            continue
        head = lines[i].split()
        if len(head) == 3 and all(x.isdigit() for x in head) and i + 1 < n and " " not in lines[i + 1]:
            h, w, k = (int(x) for x in head)
            rows = lines[i + 1 : i + 1 + h]
            if len(rows) != h:
                raise ValueError(f"{path}: board at line {i + 1} has {len(rows)} rows, header says {h}")
            grid = []
            for number, row in enumerate(rows, start=i + 2):
                if len(row) != w:
                    raise ValueError(f"{path}:{number}: {len(row)} symbols, header says width {w}")
                grid.append([_symbol(ch, path, number) for ch in row])
            board = np.array(grid, dtype=np.int8)
            if board.max() >= k:
                raise ValueError(f"{path}: board at line {i + 1} has colour {int(board.max())}, header says {k}")
            boards.append(board)
            i += 1 + h
            continue
        rows = []
        start = i
        while i < n and lines[i]:
            try:
                rows.append([int(x) for x in lines[i].split()])
            except ValueError:
                raise ValueError(f"{path}:{i + 1}: expected integers, got {lines[i][:40]!r}") from None
            i += 1
        if len({len(r) for r in rows}) != 1:
            raise ValueError(f"{path}: board at line {start + 1} has rows of different lengths")
        boards.append(np.array(rows, dtype=np.int8))
    if not boards:
        raise ValueError(f"{path}: no board found")
    return boards


def _symbol(ch: str, path: Any, line: int) -> int:
    if ch in LETTERS:
        return LETTERS.index(ch)
    if ch.isdigit():
        return int(ch)
    if ch in ".-":
        return EMPTY
    raise ValueError(f"{path}:{line}: unknown board symbol {ch!r} (expected {LETTERS}, a digit or '.')")


def parse_moves(text: str) -> list[tuple[int, int]]:
    """Parse ``"c,r c,r ..."`` (commas and spaces or semicolons) into moves.

    Examples
    --------
    >>> parse_moves("11,11 8,4;0,0")
    [(11, 11), (8, 4), (0, 0)]
    >>> parse_moves("3")
    Traceback (most recent call last):
    ...
    ValueError: bad move '3': expected column,row
    """
    moves = []
    for token in text.replace(";", " ").split():
        parts = token.split(",")
        if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            raise ValueError(f"bad move {token!r}: expected column,row")
        moves.append((int(parts[0]), int(parts[1])))
    return moves


def format_moves(moves: Iterable[Sequence[int]]) -> str:
    """The inverse of :func:`parse_moves`.

    Examples
    --------
    >>> format_moves([(11, 11), (8, 4)])
    '11,11 8,4'
    """
    return " ".join(f"{c},{r}" for c, r in moves)


def read_replays(path: str | os.PathLike | None = None) -> list[tuple[str, int, list[tuple[int, int]]]]:
    """Read ``(problem, score, moves)`` rows of a replay TSV (header skipped).

    Default: ``replays_mcs_cmct40.tsv`` of the shared data (20 logged games
    of the standard set, total 71,026).
    """
    path = SHARED_DATA / "replays_mcs_cmct40.tsv" if path is None else Path(path)
    rows = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip() or line.startswith("problem\t"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise ValueError(f"{path}:{number}: expected 4 tab-separated fields, got {len(fields)}")
        name, score, count, moves = fields
        parsed = parse_moves(moves)
        if len(parsed) != int(count):
            raise ValueError(f"{path}:{number}: {len(parsed)} moves, the row says {count}")
        rows.append((name, int(score), parsed))
    return rows


# --------------------------------------------------------------------------
# exact solution of tiny boards, playout rate


def solve_exhaustive(game: SameGame, state: SameGameState | None = None, *, max_positions: int = 2_000_000):
    """The optimal game from ``state`` by exhaustive search with memoisation.

    Only for tiny boards (the number of positions grows exponentially).

    Returns
    -------
    best_reward : float
        The largest final score reachable.
    moves : list of (int, int)
        A game that reaches it.

    Raises
    ------
    ValueError
        If more than ``max_positions`` distinct positions are met.

    Examples
    --------
    >>> game = SameGame([[0, 1, 0], [1, 0, 1], [0, 0, 1]])
    >>> solve_exhaustive(game)
    (1005.0, [(0, 0), (0, 0), (0, 0)])
    """
    state = game.root() if state is None else state
    memo: dict[bytes, tuple[int, Any]] = {}

    def value(s: SameGameState) -> int:
        key = s.cells.tobytes()
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        if len(memo) >= max_positions:
            raise ValueError(f"more than {max_positions} positions: board too large for exhaustive search")
        best, best_move = None, None
        for move in game.moves(s):
            child = game.apply(SameGameState(s.cells, 0), move)
            v = child.score + value(child)
            if best is None or v > best:
                best, best_move = v, move
        if best is None:
            best = game.end_adjustment(s)
        memo[key] = (best, best_move)
        return best

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, game.width * game.height + 100))
    try:
        total = value(SameGameState(state.cells, 0))
    finally:
        sys.setrecursionlimit(limit)
    moves = []
    s = SameGameState(state.cells, 0)
    while True:
        move = memo[s.cells.tobytes()][1]
        if move is None:
            break
        moves.append(move)
        s = game.apply(s, move)
    return float(state.score + total), moves


def random_playout_rate(game: SameGame, *, count: int = 10_000, seed: int = 0) -> tuple[float, float]:
    """Playouts per second from ``game``'s start, and their mean points.

    Runs ``count`` playouts of ``game``'s policy in one compiled loop (no
    Python per playout), after a warm-up that compiles the kernels.

    Examples
    --------
    >>> rate, mean = random_playout_rate(SameGame(random_board(seed=0)), count=100)
    >>> rate > 0 and mean > 0
    True
    """
    from time import perf_counter

    args = (game._start, game.width, game.height, game.n_colours, game._scoring_code, game._policy_code, game.epsilon)
    _playout_batch(*args, 1, 1)
    start = perf_counter()
    total = _playout_batch(*args, seed + 1, count)
    elapsed = perf_counter() - start
    return count / elapsed, total / count
