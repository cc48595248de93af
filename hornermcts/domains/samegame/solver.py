"""The exact solution of tiny SameGame boards, by exhaustive search.

The oracle of the tests: the optimum that the searches of
:mod:`hornermcts.search` must find on boards of about 4 x 4 tiles.
"""

from __future__ import annotations

from ...errors import OptionError

import sys
from typing import Any

from .game import SameGame, SameGameState

__all__ = ["solve_exhaustive"]


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
            raise OptionError(f"more than {max_positions} positions: board too large for exhaustive search")
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
