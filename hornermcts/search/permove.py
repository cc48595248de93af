"""Per-move search: search, play the best move, search again from there.

Single-player puzzles allow one large search from the start, but spending
the budget move by move scores more (Schadd et al., *SP-MCTS for SameGame*,
Table 3): :func:`per_move_search` runs a search (any driver with the
signature of :func:`~hornermcts.search.mcts.mcts`, e.g. ``mcts`` or
``beam_mcts``) from the current state with a budget per move, plays one
move, and repeats until the game is over.

The move played is chosen by *top score* (sec. 4.2 of that paper): the first
move of the best complete line found. With ``keep_best=True`` (default) the
best line is remembered across the searches, so a later search that finds
nothing better keeps following it and the final reward is the best ever
seen; ``keep_best=False`` plays the first move of the current search's best
line only (on random SameGame boards with SP-MCTS at ~10 s per game that
costs about 800 of ~2,800 points: ``benchmarks/samegame_papers.py``).
States with a single legal move are played without a search.

:class:`RootedProblem` is the generic adapter behind it: the same problem
with another start state.
"""

from __future__ import annotations


import dataclasses
from dataclasses import dataclass
from math import inf
from time import perf_counter
from typing import Any, Callable

import numpy as np

from .arguments import budget, generator
from .mcts import mcts
from .playout import random_playout
from .problem import check_problem
from .progress import make_progress
from .result import MCTSResult, SearchResult

__all__ = ["per_move_search", "PerMoveResult", "RootedProblem"]


class RootedProblem:
    """``problem`` with ``state`` as its start; every other attribute delegated.

    Examples
    --------
    >>> class Count:
    ...     def root(self): return 0
    ...     def moves(self, s): return (1, 2) if s < 3 else ()
    ...     def apply(self, s, m): return s + m
    ...     def reward(self, s): return float(s)
    >>> sub = RootedProblem(Count(), 2)
    >>> sub.root(), sub.moves(sub.root()), sub.reward(5)
    (2, (1, 2), 5.0)
    """

    __slots__ = ("problem", "state")

    def __init__(self, problem: Any, state: Any) -> None:
        self.problem = problem
        self.state = state

    def root(self) -> Any:
        return self.state

    def __getattr__(self, name: str) -> Any:
        return getattr(self.problem, name)


@dataclass(frozen=True)
class PerMoveResult(SearchResult):
    """The game a per-move search played.

    The fields of :class:`~hornermcts.search.result.SearchResult`:
    ``best_moves`` the moves played, from the root to a terminal state,
    ``best_value`` the reward of that state (also :attr:`best_reward`),
    ``history`` ``(moves played, best reward known)`` each time a search
    improved the best complete line, ``iterations`` those of all searches,
    ``stopped`` ``"terminal"`` (the game ended) or ``"interrupt"`` (a
    KeyboardInterrupt: the rest of the game follows the best line known, or
    a playout, without searching); plus:

    Attributes
    ----------
    best_state : object
        The terminal state.
    searches : tuple of MCTSResult
        One per searched move, in order, without trees.
    """

    best_state: Any = None
    searches: tuple = ()

    @property
    def best_reward(self) -> float:
        """The reward of the game played: :attr:`best_value`."""
        return self.best_value


def per_move_search(
    problem: Any,
    *,
    search: Callable[..., MCTSResult] = mcts,
    iterations: int | None = None,
    time_limit: float | None = None,
    keep_best: bool = True,
    search_forced: bool = False,
    seed: int | np.random.Generator | None = None,
    progress: Any = "auto",
    **options: Any,
) -> PerMoveResult:
    """Play ``problem`` move by move, searching before each move.

    Parameters
    ----------
    problem : Problem
        See :mod:`hornermcts.search.problem`.
    search : callable, default mcts
        ``search(problem, iterations=, time_limit=, seed=, progress=,
        **options) -> MCTSResult``; it sees a :class:`RootedProblem` whose
        root is the current state.
    iterations, time_limit : optional
        The budget of each move's search (at least one is required).
    keep_best : bool, default True
        Follow the best complete line of all searches so far (see the
        module docstring); ``False``: of the current search only.
    search_forced : bool, default False
        Also search states with a single legal move (wasted time unless the
        search has side effects).
    seed : int, numpy.random.Generator or None
        One Generator drives all the searches in turn.
    progress : None, bool, "auto" or callable
        ``progress(moves_played, best_reward)`` after each move, ``True``
        for a tqdm bar, ``"auto"`` for a bar on a terminal.
    **options
        Passed to every ``search`` call (``selection``, ``cp``,
        ``expansion``, ``playout``, ``repeats``, ...).

    Returns
    -------
    PerMoveResult

    Examples
    --------
    Five bits; the reward is the number of ones, unless the first two are
    ones, which caps it at 1. Ten iterations per move play ``0, 1, 1, 1, 1``:

    >>> class Bits:
    ...     def root(self): return ()
    ...     def moves(self, s): return (0, 1) if len(s) < 5 else ()
    ...     def apply(self, s, m): return s + (m,)
    ...     def reward(self, s): return 1.0 if s[:2] == (1, 1) else float(sum(s))
    >>> result = per_move_search(Bits(), iterations=10, cp=1.0, seed=0, progress=None)
    >>> result.best_moves, result.best_reward, len(result.searches)
    ((0, 1, 1, 1, 1), 4.0, 5)
    """
    check_problem(problem)
    budget(iterations, time_limit)
    rng, seed_used = generator(seed)
    callback, close = make_progress(progress, total=None, unit="move", desc="per-move search", counted="moves")
    start = perf_counter()
    state = problem.root()
    played: list = []
    best: tuple | None = None  # (reward, complete moves, terminal state)
    history: list[tuple[int, float]] = []
    searches: list[MCTSResult] = []
    stopped = "terminal"
    try:
        while True:
            legal = problem.moves(state)
            if not legal:
                break
            line = None
            if len(legal) > 1 or search_forced:
                result = search(
                    RootedProblem(problem, state),
                    iterations=iterations,
                    time_limit=time_limit,
                    seed=rng,
                    progress=None,
                    **options,
                )
                searches.append(dataclasses.replace(result, tree=None))
                if result.best_moves:
                    line = (result.best_reward, played + list(result.best_moves), result.best_state)
                    if best is None or line[0] > best[0]:
                        best = line
                        history.append((len(played), line[0]))
                if result.stopped == "interrupt":
                    stopped = "interrupt"
                    break
            if keep_best and best is not None:
                move = best[1][len(played)]
            elif line is not None:
                move = line[1][len(played)]
            else:
                move = legal[0] if len(legal) == 1 else legal[int(rng.random() * len(legal))]
            state = problem.apply(state, move)
            played.append(move)
            if callback is not None:
                callback(len(played), best[0] if best is not None else -inf)
    except KeyboardInterrupt:
        stopped = "interrupt"
    finally:
        close()
    if stopped == "interrupt":
        played, state = _finished(problem, state, played, best, rng)
    reward = float(problem.reward(state))
    if not history or reward > history[-1][1]:
        history.append((len(played), reward))
    return PerMoveResult(
        best_moves=tuple(played),
        best_value=reward,
        best_state=state,
        history=tuple(history),
        iterations=sum(r.iterations for r in searches),
        elapsed=perf_counter() - start,
        searches=tuple(searches),
        stopped=stopped,
        seed=seed_used,
    )


def _finished(problem: Any, state: Any, played: list, best: tuple | None, rng) -> tuple[list, Any]:
    """The game finished unsearched, after an interrupt: the best line if it runs through here, else a playout."""
    if best is not None and best[1][: len(played)] == played:
        return list(best[1]), best[2]
    if problem.moves(state):
        method = getattr(problem, "playout", None)
        final, tail = method(state, rng) if callable(method) else random_playout(problem, state, rng)
        return played + list(tail), final
    return played, state
