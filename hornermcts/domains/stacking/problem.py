"""The stacking problem as a search problem (a *cost* problem: minimise the relocations).

The tree (Rei's code, ``rr.opt.stacking``; the thesis leaves it open): a node
is the event simulation's :class:`~.state.StackingState` at a decision
instant, deliveries being automatic.  Its moves are ``(item, stack)`` for every
item pending placement then, one per class of equivalent target stacks (all
empty stacks are one move): the top item of each stack burying an item due
now (a relocation), and each item released now and not placed yet.  A node is
a leaf when every item is released and no inversion is left: the rest is
forced and costs nothing, so the cost is the relocations made.  ``playout``
is a fresh FO simulation from the node (compiled); ``bound`` is the inversion
lower bound.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...errors import OptionError
from . import kernels
from .instance import StackingInstance
from .simulation import root_state
from .solution import Solution
from .state import StackingState

__all__ = ["StackingProblem"]

_ERRORS = {
    kernels.BAD_TARGET: "the item or the stack is out of range",
    kernels.NOT_ON_TOP: "the item is not on top of its stack",
    kernels.SAME_STACK: "the item is already on that stack",
    kernels.NOT_BLOCKING: "its stack holds no item due now (only those are relocated)",
    kernels.NOT_PENDING: "the item is not released now",
}


class StackingProblem:
    """The tree search problem of a :class:`~.instance.StackingInstance`.

    Examples
    --------
    Item 0 (due 3) is released first, item 1 (due 4) second: putting item 1
    on item 0 costs a relocation at date 3.

    >>> problem = StackingProblem(StackingInstance([0, 1], [3, 4], width=2))
    >>> root = problem.root()
    >>> problem.moves(root)  # item 0 on any (empty) stack: one move
    [(0, 0)]
    >>> state = problem.apply(root, (0, 0))
    >>> problem.moves(state)
    [(1, 0), (1, 1)]
    >>> bad = problem.apply(state, (1, 0))
    >>> bad.inversions, problem.bound(bad), problem.moves(bad)  # at date 3: relocate item 1
    (1, 1, [(1, 1)])
    >>> leaf = problem.apply(bad, (1, 1))
    >>> problem.moves(leaf), problem.cost(leaf)
    ([], 1)
    >>> problem.cost(problem.apply(state, (1, 1)))
    0
    >>> problem.solution([(0, 0), (1, 0), (1, 1)])
    Solution(placements=((0, 0, 0), (1, 1, 0), (3, 1, 1)), relocations=1)
    """

    def __init__(self, instance: StackingInstance) -> None:
        self.instance = instance
        self._due = instance.due
        self._release_instant = instance.release_instant
        self._calendar = instance.calendar
        self._capacity = instance.capacity
        self._root = root_state(instance)
        self._buffer_rows = 2 * instance.items + 16
        # every move (item, stack) made once: playouts return ~1000 moves, and looking them up costs less
        # than making new tuples (and leaves the garbage collector idle)
        self._width = instance.width
        self._move = [(item, stack) for item in range(instance.items) for stack in range(instance.width)]

    def __repr__(self) -> str:
        return f"StackingProblem({self.instance!r})"

    def root(self) -> StackingState:
        """The first decision: empty stacks, the first releases pending."""
        return self._root

    def moves(self, state: StackingState) -> list[tuple[int, int]]:
        """The moves ``(item, stack)`` of ``state``: relocations first, then releases; empty at a leaf."""
        if state.is_leaf:
            return []
        table = kernels.legal_moves(state.stacks, state.heights, state.counters, self._due, self._calendar,
                                    self._capacity)
        return list(map(self._move.__getitem__, (table[:, 0] * self._width + table[:, 1]).tolist()))

    def apply(self, state: StackingState, move: Sequence[int]) -> StackingState:
        """The state after ``move`` and the deliveries it allows, at the next decision (a new state)."""
        item, stack = (int(x) for x in move)
        stacks, heights, counters, error = kernels.apply_move(
            state.stacks, state.heights, state.counters, self._due, self._release_instant, self._calendar,
            self._capacity, item, stack)
        if error:
            raise OptionError(f"illegal move {tuple(move)!r} at date {self.date(state)}: {_ERRORS[error]}")
        return StackingState(stacks, heights, counters)

    def playout(self, state: StackingState, rng: np.random.Generator) -> tuple[StackingState, list]:
        """A fresh FO simulation from ``state`` to a leaf (one draw from ``rng``)."""
        if state.is_leaf:
            return state, []
        seed = int(rng.integers(1, 2**63))
        stacks, heights, counters, moves, count, _ = kernels.playout(
            state.stacks, state.heights, state.counters, self._due, self._calendar, self._capacity, seed,
            np.int64(1) << np.int64(62), np.empty((self._buffer_rows, 3), np.int64))
        codes = kernels.move_codes(moves, count, self._width).tolist()
        return StackingState(stacks, heights, counters), list(map(self._move.__getitem__, codes))

    def cost(self, state: StackingState) -> int:
        """The relocations of a leaf (no more are needed from there)."""
        return state.relocations

    def bound(self, state: StackingState) -> int:
        """The inversion lower bound: relocations so far + items lying above an earlier due date."""
        return state.bound

    def date(self, state: StackingState) -> int:
        """The date of ``state``'s decision."""
        return int(self._calendar[0][state.instant])

    def solution(self, moves: Sequence[Sequence[int]], state: StackingState | None = None) -> Solution:
        """The dated placements of ``moves`` played from ``state`` (default: the root) to a leaf.

        Raises :class:`~hornermcts.errors.OptionError` if a move is illegal or the moves stop short of a leaf.
        """
        state = self._root if state is None else state
        placements = []
        for move in moves:
            item, stack = (int(x) for x in move)
            placements.append((self.date(state), item, stack))
            state = self.apply(state, move)
        if not state.is_leaf:
            raise OptionError(f"the {len(placements)} moves stop at date {self.date(state)}, before a leaf")
        return Solution(tuple(placements), state.relocations)

