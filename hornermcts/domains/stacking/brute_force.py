"""The optimum over the tree of :class:`~.problem.StackingProblem`, by exhaustive search (tiny instances).

Depth-first branch and bound with the inversion lower bound, states already
reached with no more relocations skipped (different release orders often
meet).  The optimum is over the tree, which (like the thesis's simulation)
relocates only to free an item due now and never remarshals; it is the value
MCTS with pruning must find and prove.
"""

from __future__ import annotations

from .problem import StackingProblem
from .state import StackingState

__all__ = ["solve_exhaustive"]


def solve_exhaustive(problem: StackingProblem, *, node_limit: int = 1_000_000) -> tuple[int, tuple, int]:
    """``(optimum, moves, nodes)``: the fewest relocations over the tree, a move sequence reaching it, and
    the nodes expanded.

    Raises :class:`RuntimeError` if more than ``node_limit`` nodes would be expanded.

    Examples
    --------
    >>> from hornermcts.domains.stacking import StackingInstance
    >>> problem = StackingProblem(StackingInstance([0, 1, 2], [5, 4, 3], width=2))
    >>> solve_exhaustive(problem)[:2]  # stacked in due order on one stack: no relocation
    (0, ((0, 0), (1, 0), (2, 0)))
    >>> problem = StackingProblem(StackingInstance([0, 1, 2], [3, 4, 5], width=2))
    >>> solve_exhaustive(problem)[0]
    1
    """
    best: float = float("inf")
    best_path: tuple = ()
    seen: dict[tuple, int] = {}
    nodes = 0
    todo: list[tuple[StackingState, tuple]] = [(problem.root(), ())]
    while todo:
        state, path = todo.pop()
        if state.is_leaf:
            if state.relocations < best:
                best, best_path = state.relocations, path
            continue
        if state.bound >= best:
            continue
        key = (state.stacks.tobytes(), state.heights.tobytes(), state.instant, state.unreleased)
        if seen.get(key, float("inf")) <= state.relocations:
            continue
        seen[key] = state.relocations
        nodes += 1
        if nodes > node_limit:
            raise RuntimeError(f"more than {node_limit} nodes: the instance is too large for exhaustive search")
        for move in reversed(problem.moves(state)):
            todo.append((problem.apply(state, move), path + (move,)))
    return int(best), best_path, nodes
