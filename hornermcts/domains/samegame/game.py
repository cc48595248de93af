"""The SameGame family as a search problem: :class:`SameGame` and its states.

The rules, the three scorings and the move convention are described in
:mod:`hornermcts.domains.samegame`; the moves and playouts run in the
compiled kernels of :mod:`hornermcts.domains.samegame.kernels`.
"""

from __future__ import annotations

from ...errors import OptionError

from typing import Any, Iterable

import numpy as np

from . import kernels

__all__ = ["SameGame", "SameGameState", "SCORINGS", "PLAYOUTS"]

#: Scoring variants, and their codes in the compiled kernels.
SCORINGS = {"samegame": 0, "clickomania": 1, "bubblebreaker": 2}
_SCORING_ALIASES = {"same": "samegame", "bubble_breaker": "bubblebreaker", "bubble-breaker": "bubblebreaker"}
#: Playout policies: uniform random, TabuRandom, TabuColorRandom (Schadd et al., sec. 4.1).
PLAYOUTS = {"random": 0, "tabu": 1, "tabu_color": 2}
_PLAYOUT_ALIASES = {"taburandom": "tabu", "tabucolorrandom": "tabu_color", "tabu-color": "tabu_color"}


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
        raise OptionError(f"unknown {what} {name!r}; expected one of {', '.join(sorted(table))}")
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
    >>> from hornermcts.domains.samegame import random_board
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
            raise OptionError(f"board must be a non-empty 2-D array, got shape {grid.shape}")
        if not np.issubdtype(grid.dtype, np.integer):
            raise OptionError(f"board must hold integers (colours, -1 for empty), got dtype {grid.dtype}")
        if grid.min() < -1:
            raise OptionError(f"board values must be >= -1, got {int(grid.min())}")
        top = int(grid.max())
        if colours is None:
            colours = max(top + 1, 1)
        if not (isinstance(colours, (int, np.integer)) and 1 <= colours <= 127):
            raise OptionError(f"colours must be an int in 1..127, got {colours!r}")
        if top >= colours:
            raise OptionError(f"board holds colour {top} but colours={colours}")
        height, width = grid.shape
        columns = grid[::-1, :].T.astype(np.int8)  # columns[c, r], r = 0 at the bottom
        filled = columns >= 0
        for c in range(width):
            n = int(filled[c].sum())
            if not filled[c, :n].all():
                raise OptionError(f"board column {c} has a tile above an empty cell (tiles must rest on tiles)")
        heights = filled.sum(axis=1)
        nonzero = np.flatnonzero(heights)
        if nonzero.size and nonzero[-1] + 1 != nonzero.size:
            raise OptionError("board has an empty column left of a non-empty one (columns close to the left)")
        self.width = int(width)
        self.height = int(height)
        self.n_colours = int(colours)
        self.scoring = _canonical(scoring, SCORINGS, _SCORING_ALIASES, "scoring")
        self._scoring_code = SCORINGS[self.scoring]
        self.playout_policy = _canonical(playout, PLAYOUTS, _PLAYOUT_ALIASES, "playout")
        self._policy_code = PLAYOUTS[self.playout_policy]
        if not (0.0 <= float(epsilon) <= 1.0):
            raise OptionError(f"epsilon must be in [0, 1], got {epsilon!r}")
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
        rep, _, _ = kernels.legal_groups(state.cells, self.width, self.height)
        h = self.height
        return [divmod(i, h) for i in rep.tolist()]

    def groups(self, state: SameGameState) -> list[tuple[tuple[int, int], int, int]]:
        """``(move, size, colour)`` of each legal group, in :meth:`moves` order.

        Examples
        --------
        >>> SameGame([[0, 0, 1]]).groups(SameGame([[0, 0, 1]]).root())
        [((0, 0), 2, 0)]
        """
        rep, size, colour = kernels.legal_groups(state.cells, self.width, self.height)
        h = self.height
        return [(divmod(i, h), s, k) for i, s, k in zip(rep.tolist(), size.tolist(), colour.tolist())]

    def _cell(self, move: Any) -> int:
        try:
            col, row = (int(x) for x in move)
        except (TypeError, ValueError):
            raise OptionError(f"a move is a (column, row) pair, got {move!r}") from None
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise OptionError(f"move {col},{row} is off the {self.width}x{self.height} board")
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
        n = kernels.apply_move(cells, self.width, self.height, cell)
        if n < 2:
            what = "an empty cell" if n == 0 else "a single tile"
            raise OptionError(f"illegal move {cell // self.height},{cell % self.height}: {what}, not a group of >= 2")
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
        points, played = kernels.playout(
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
        return int(kernels.end_adjustment(state.cells, self.n_colours, self.bonus, self.penalty))

    def reward(self, state: SameGameState) -> float:
        """The final score: points so far plus :meth:`end_adjustment`.

        Meant for terminal states (the search protocol); on another state it
        is the score the game would have if it were declared over there.
        """
        return float(state.score + self.end_adjustment(state))

    # -------------------------------------------------------- helpers
    def is_terminal(self, state: SameGameState) -> bool:
        """True if no group of two or more is left."""
        return len(kernels.legal_groups(state.cells, self.width, self.height)[0]) == 0

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
                raise OptionError(f"move {index + 1}: {exc}") from None
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
        hornermcts.errors.OptionError: the game is not over after 1 moves: 1 group(s) left
        """
        moves = list(moves)
        state = self.replay(moves)
        left = self.moves(state)
        if left:
            raise OptionError(f"the game is not over after {len(moves)} moves: {len(left)} group(s) left")
        return self.reward(state)

    def bound(self, state: SameGameState) -> float:
        """An optimistic bound on the final score reachable from ``state``.

        Every colour removed as one group (and, for SameGame, the bonus unless
        some colour has a single tile): no game from ``state`` scores more.
        """
        counts = kernels.colour_counts(state.cells, self.n_colours)
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
