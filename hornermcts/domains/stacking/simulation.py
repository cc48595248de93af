"""The event simulation with the Flexibility Optimization heuristic (FO; Rei 2016, §5.2-5.3).

Events are processed date by date.  At each date, deliveries come first: the
item due then with the fewest items above it (ties at random, the order
recomputed after each delivery) is delivered after relocating the items above
it, top first, each to the stack FO picks among the others (each move one
relocation).  Then come the releases, latest due date first (ties at random),
each put where FO picks.  FO scores a placement of item ``i`` on stack ``s``
by Eq. 5.1 (:func:`fo_score`) and draws uniformly among the best stacks (the
restricted candidate list).  The loop runs compiled (:mod:`.kernels`); this
module is its Python face.
"""

from __future__ import annotations

import numpy as np

from . import kernels
from .instance import StackingInstance
from .solution import Solution
from .state import StackingState

__all__ = ["fo_score", "fo_choice_set", "simulate", "root_state"]


def fo_score(due: float, earliest: float) -> float:
    """Eq. 5.1: the FO score of putting an item due at ``due`` on a stack whose earliest due date is
    ``earliest`` (infinite for an empty stack).

    In ``[-1, 0)`` when the placement creates an inversion (``due > earliest``), otherwise in ``[0, 1]``,
    1 for equal dates, 0 on an empty stack.

    Examples
    --------
    >>> fo_score(10, 10), fo_score(10, 13), fo_score(10, float("inf")), fo_score(10, 7)
    (1.0, 0.25, 0.0, -0.75)
    """
    if due > earliest:
        return 1.0 / (1.0 + due - earliest) - 1.0
    return 1.0 / (1.0 - due + earliest)


def root_state(instance: StackingInstance) -> StackingState:
    """The first decision state: empty stacks, the first releases pending.

    Examples
    --------
    >>> root_state(StackingInstance([0, 0], [4, 7], width=3))
    StackingState(instant=0, relocations=0, inversions=0, unreleased=2, stacks=[[], [], []])
    """
    return StackingState(*kernels.root_state(instance.width, instance.calendar, instance.due, instance.capacity))


def simulate(instance: StackingInstance, *, seed: int = 0, state: StackingState | None = None,
             cutoff: int | None = None) -> Solution | None:
    """One FO simulation from the start (or from ``state``), seeded by ``seed``.

    Returns the :class:`~.solution.Solution` (placements from ``state`` on, relocations in total), or
    ``None`` if ``cutoff`` is given and the relocations reach it first (MS's early abort).

    Examples
    --------
    Item 1 (due 9) goes to the empty stack rather than above item 0 (due 5):

    >>> inst = StackingInstance([0, 1], [5, 9], width=2)
    >>> simulate(inst, seed=3)
    Solution(placements=((0, 0, 0), (1, 1, 1)), relocations=0)
    >>> simulate(StackingInstance([0, 1], [5, 9], width=2), seed=3, cutoff=0) is None
    True
    """
    if state is None:
        state = root_state(instance)
    limit = np.int64(1) << 62 if cutoff is None else cutoff
    buffer = np.empty((2 * instance.items + 16, 3), np.int64)
    *_, counters, moves, count, finished = kernels.playout(state.stacks, state.heights, state.counters,
                                                           instance.due, instance.calendar, instance.capacity,
                                                           seed, limit, buffer)
    if not finished:
        return None
    placements = tuple(tuple(row) for row in moves[:count].tolist())
    return Solution(placements, int(counters[1]))


def fo_choice_set(due: int, earliest: list[float]) -> list[int]:
    """The restricted candidate list by Eq. 5.1 in floating point: the stacks of maximum score.

    The compiled FO compares due dates instead; the tests check that they agree.

    Examples
    --------
    >>> fo_choice_set(10, [12, float("inf"), 12, 5])
    [0, 2]
    """
    scores = [fo_score(due, m) for m in earliest]
    top = max(scores)
    return [s for s, score in enumerate(scores) if score == top]

