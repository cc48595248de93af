"""Brute force over the search tree of :class:`~hornermcts.domains.circle_packing.CirclePackingProblem`.

Depth-first enumeration of every leaf of the tree the search explores (the
same moves, so the optimum found is the optimum MCTS can reach: the
discretised space of sec. 6.2.1, not the continuous problem's). Only for
tiny instances: ``max_leaves`` guards against a runaway enumeration.

Examples
--------
>>> from hornermcts.domains.circle_packing import CirclePackingProblem, Instance
>>> problem = CirclePackingProblem(Instance(60, 40, r_ext=[15, 6], r_int=[12, 0], value=[10, 2], count=[2, 4]))
>>> best = solve_exhaustive(problem)
>>> best.value, best.leaves, len(best.moves)  # two choices; the forced steps are taken at once
(28.0, 4, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import OptionError

__all__ = ["ExhaustiveResult", "solve_exhaustive"]


@dataclass
class ExhaustiveResult:
    """The best leaf (its value and moves) and how many leaves there are."""

    value: float
    moves: tuple
    leaves: int


def solve_exhaustive(problem: Any, *, max_leaves: int = 1_000_000) -> ExhaustiveResult:
    """Enumerate every leaf of ``problem``'s tree; OptionError beyond ``max_leaves`` leaves."""
    best_value = -float("inf")
    best_moves: tuple = ()
    leaves = 0
    stack: list[tuple[Any, tuple]] = [(problem.root(), ())]
    while stack:
        state, path = stack.pop()
        moves = problem.moves(state)
        if not moves:
            leaves += 1
            if leaves > max_leaves:
                raise OptionError(f"more than {max_leaves} leaves: the instance is too large for brute force")
            value = problem.reward(state)
            if value > best_value:
                best_value, best_moves = value, path
            continue
        for move in reversed(moves):
            stack.append((problem.apply(state, move), path + (move,)))
    return ExhaustiveResult(best_value, best_moves, leaves)
