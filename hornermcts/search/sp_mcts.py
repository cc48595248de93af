"""Single-Player MCTS (Schadd et al., *SP-MCTS for SameGame*, sec. 4).

SP-MCTS is plain :func:`~hornermcts.search.mcts.mcts` with three parts set:

- selection: the :class:`~hornermcts.search.selection.SPMCTS` rule,
  ``v + W b + C sqrt(ln n_p / n_i) + sqrt((Σr² - n_i v² + D) / n_i)``;
- expansion: :class:`~hornermcts.search.expansion.ThresholdExpansion`, a
  leaf enters the tree's selection only after ``T`` visits;
- final move selection by top score (the best complete line), which is what
  :func:`mcts` returns anyway;

plus the paper's two ways of spending time: one search per game, with
randomized restarts (``repeats``), or one search per move
(:func:`~hornermcts.search.permove.per_move_search`). The playout policy is
the problem's own (for SameGame: TabuColorRandom with epsilon-greedy).

The defaults are the paper's manual *exploitation* setting (C = 0.1,
D = 32, W = 0.02, T = 10), for rewards of a few thousand points; its
CEM-tuned per-move values are C = 4.31, D = 96.67, T = 11, W = 0.28.
"""

from __future__ import annotations

from typing import Any

from .expansion import ThresholdExpansion
from .mcts import mcts
from .permove import PerMoveResult, per_move_search
from .result import MCTSResult
from .selection import SPMCTS

__all__ = ["sp_mcts", "MANUAL", "CEM_PER_GAME", "CEM_PER_MOVE"]

#: Parameter sets of the paper (Table 5): manual, CEM-tuned per game and per move.
MANUAL = {"c": 0.1, "d": 32.0, "w": 0.02, "t": 10}
CEM_PER_GAME = {"c": 5.96, "d": 67.98, "w": 0.49, "t": 13}
CEM_PER_MOVE = {"c": 4.31, "d": 96.67, "w": 0.28, "t": 11}


def sp_mcts(
    problem: Any,
    *,
    c: float = 0.1,
    d: float = 32.0,
    w: float = 0.02,
    t: int = 10,
    per_move: bool = False,
    **options: Any,
) -> MCTSResult | PerMoveResult:
    """Search ``problem`` with SP-MCTS, per game or per move.

    Parameters
    ----------
    problem : Problem
    c, d, w : float
        ``C`` (exploration, the ``cp`` of the schedule), ``D`` (added
        deviation) and ``W`` (weight of the top score) of the rule.
    t : int
        ``T``: visits a leaf needs before it is expanded.
    per_move : bool, default False
        ``False``: one search (``repeats=R`` for randomized restarts), budget
        per search; ``True``: :func:`per_move_search`, budget per move.
    **options
        ``iterations``, ``time_limit``, ``seed``, ``repeats``, ``progress``,
        ``schedule``, ``playout``, ... as for :func:`mcts` (and
        ``keep_best`` with ``per_move``).

    Examples
    --------
    >>> class Bits:
    ...     def root(self): return ()
    ...     def moves(self, s): return (0, 1) if len(s) < 4 else ()
    ...     def apply(self, s, m): return s + (m,)
    ...     def reward(self, s): return 10.0 if s == (0, 1, 0, 1) else float(sum(s))
    >>> sp_mcts(Bits(), c=1.0, d=10.0, t=2, iterations=200, seed=0, progress=None).best_moves
    (0, 1, 0, 1)
    >>> sp_mcts(Bits(), per_move=True, t=2, iterations=30, seed=0, progress=None).best_reward
    10.0
    """
    selection = SPMCTS(d=d, w=w)
    expansion = ThresholdExpansion(int(t))
    if per_move:
        return per_move_search(problem, search=mcts, selection=selection, expansion=expansion, cp=c, **options)
    return mcts(problem, selection=selection, expansion=expansion, cp=c, **options)
