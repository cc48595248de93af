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

The package, one concept per module: :mod:`~.game` (:class:`SameGame`,
:class:`SameGameState`, the scorings), :mod:`~.kernels` (the compiled
kernels), :mod:`~.group_codes` (:class:`SameGameByGroup`: the NRPA move code,
colour and group size, with a compiled playout), :mod:`~.boards` (boards,
files, move lists), :mod:`~.solver`
(exact solution of tiny boards), :mod:`~.rates` (playout rates) and
:mod:`~.cli` (``hornermcts samegame``).

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

# EMPTY and LETTERS stay importable from here, as from the single module this package was
from .boards import EMPTY as EMPTY, LETTERS as LETTERS
from .boards import format_moves, parse_moves, random_board, read_boards, read_replays, standard_testset
from .game import PLAYOUTS, SCORINGS, SameGame, SameGameState
from .group_codes import SameGameByGroup
from .rates import random_playout_rate
from .solver import solve_exhaustive

__all__ = [
    "SameGame",
    "SameGameState",
    "SameGameByGroup",
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
