"""SameGame for NRPA: moves coded by the colour and size of their group.

NRPA (:func:`hornermcts.search.nested.nrpa`) learns one weight per move
*code*. A SameGame move is a group, named by a cell; the same cell names
other groups after a few moves, so the cell is a poor code. Cazenave's
NRPA and NMCS work on SameGame codes a move by what it removes: the
colour and the size of the group. :class:`SameGameByGroup` wraps a
:class:`~hornermcts.domains.samegame.SameGame` with that code:

- :meth:`~SameGameByGroup.move_code` gives ``(colour, size)`` (the generic
  Python path of the search, a dict of weights);
- :attr:`~SameGameByGroup.code_count` and
  :meth:`~SameGameByGroup.coded_playout` are the coded hook of
  :mod:`hornermcts.search.policy`: the playout runs in one Numba kernel
  (:func:`~hornermcts.domains.samegame.kernels.coded_playout`), the weights
  an array indexed by :meth:`~SameGameByGroup.code_index` ``(colour, size)
  = colour * (cells + 1) + size``. It draws exactly as the generic path
  does, so both give the same search for a seed (tested).

Everything else (the protocol, the game's own Numba playout for
:func:`~hornermcts.search.nested.nmcs`, ``score``, ``render``) is the
game's. Speed on standard position 1 (15x15, 5 colours;
``python benchmarks/samegame_nrpa.py --speed``, on the shared 2-core machine
under load): NRPA level 2 on the coded path 5,800-6,000 playouts per CPU
second (the playout alone 5,000-7,300; the TabuColorRandom kernel loop
10,700-13,000), on the generic Python path 280-340: about 18 times slower.

Examples
--------
>>> import numpy as np
>>> from hornermcts.domains.samegame import SameGame
>>> game = SameGameByGroup(SameGame([[0, 1, 1],
...                                  [0, 0, 1],
...                                  [1, 2, 2]]))
>>> state = game.root()
>>> [(move, game.move_code(state, move)) for move in game.moves(state)]
[((0, 1), (0, 3)), ((1, 0), (2, 2)), ((1, 2), (1, 3))]
>>> game.code_index(1, 3), game.code_count    # 3 colours, 9 cells: codes 0 .. 29
(13, 30)
>>> final, moves, trace = game.coded_playout(state, np.zeros(game.code_count), None, np.random.default_rng(0))
>>> game.replay(moves) == final, game.reward(final) == game.score(moves)
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import OptionError
from ...search.policy import Trace
from . import kernels
from .game import SCORINGS, SameGame, SameGameState

__all__ = ["SameGameByGroup"]


class SameGameByGroup:
    """``game`` with the NRPA move code ``(colour, group size)`` and its compiled playout.

    Parameters
    ----------
    game : SameGame
        Any scoring; its playout policy (``playout=``) serves
        :meth:`playout` (NMCS, MCTS), not the NRPA playout, which follows
        the learned weights.

    Attributes
    ----------
    game : SameGame
    code_count : int
        ``colours * (width * height + 1)``: the codes are
        ``range(code_count)``.
    """

    def __init__(self, game: SameGame) -> None:
        if not isinstance(game, SameGame):
            raise OptionError(f"SameGameByGroup wraps a SameGame, got {type(game).__name__}")
        self.game = game
        self._cells = game.width * game.height
        self.code_count = game.n_colours * (self._cells + 1)
        self._state: Any = None
        self._codes: dict = {}

    # -------------------------------------------------------- the protocol, the game's
    def root(self) -> SameGameState:
        return self.game.root()

    def moves(self, state: SameGameState) -> list[tuple[int, int]]:
        return self.game.moves(state)

    def apply(self, state: SameGameState, move: Any) -> SameGameState:
        return self.game.apply(state, move)

    def reward(self, state: SameGameState) -> float:
        return self.game.reward(state)

    def playout(self, state: SameGameState, rng: Any) -> tuple[SameGameState, list]:
        """The game's own playout policy (compiled), for NMCS and MCTS."""
        return self.game.playout(state, rng)

    def bound(self, state: SameGameState) -> float:
        return self.game.bound(state)

    def __getattr__(self, name: str) -> Any:  # score, replay, render, groups, width, ...
        if name == "game":  # not yet set (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.game, name)

    # -------------------------------------------------------- the codes
    def move_code(self, state: SameGameState, move: Any) -> tuple[int, int]:
        """``(colour, size)`` of the group ``move`` removes in ``state``.

        The groups of a state are computed once and kept for the next call
        on the same state object (the playout asks for every legal move in
        turn).
        """
        if state is not self._state:
            self._codes = {m: (colour, size) for m, size, colour in self.game.groups(state)}
            self._state = state
        try:
            return self._codes[tuple(move)]
        except (KeyError, TypeError):
            raise OptionError(f"{move!r} is not a legal move here") from None

    def code_index(self, colour: int, size: int) -> int:
        """The integer code of ``(colour, size)`` on the coded path: ``colour * (cells + 1) + size``."""
        if not (0 <= colour < self.game.n_colours and 2 <= size <= self._cells):
            raise OptionError(f"no group of colour {colour} and size {size} on a {self._cells}-cell board "
                              f"with {self.game.n_colours} colours")
        return int(kernels.group_code(colour, size, self._cells))

    def coded_playout(self, state: SameGameState, weights: np.ndarray, bias: np.ndarray | None,
                      rng: Any) -> tuple[SameGameState, list, Trace]:
        """The coded hook: a compiled softmax playout from ``state`` -> ``(terminal state, moves, trace)``.

        ``weights`` (and ``bias``, GNRPA's ``beta``, or ``None``) are float64
        arrays indexed by :meth:`code_index`; ``rng`` a NumPy Generator.
        """
        game = self.game
        cells = state.cells.copy()
        table = np.zeros(1) if bias is None else bias
        points, flat, codes, betas, starts, chosen = kernels.coded_playout(
            cells, game.width, game.height, SCORINGS[game.scoring], weights, table, bias is not None, rng)
        h = game.height
        moves = list(zip((flat // h).tolist(), (flat % h).tolist()))
        if not moves:
            return state, [], Trace(codes, None if bias is None else betas, starts, chosen)
        cells.setflags(write=False)
        return (SameGameState(cells, state.score + int(points)), moves,
                Trace(codes, None if bias is None else betas, starts, chosen))

    def __repr__(self) -> str:
        return f"SameGameByGroup({self.game!r})"
