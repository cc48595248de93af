"""Solutions of the stacking problem, and the checker that replays them independently of the simulator.

A solution is the sequence of its *placements* ``(date, item, stack)``: an
item put on a stack at a date, either its release (its first placement, at its
release date) or a relocation (the item is on top of another stack then).
Deliveries are implicit: at each date, the items due then leave as soon as they
are on top of their stack.  :func:`check_solution` replays the placements with
plain lists, verifies every rule and counts the relocations; it shares no code
with the compiled simulation.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from ...errors import HornerMCTSError
from .instance import StackingInstance

__all__ = ["Solution", "InvalidSolution", "check_solution"]


class InvalidSolution(HornerMCTSError, ValueError):
    """A sequence of placements that breaks a rule of the stacking problem (the message says which)."""


@dataclass(frozen=True)
class Solution:
    """The placements ``(date, item, stack)`` of a solution and its number of relocations.

    Examples
    --------
    >>> solution = Solution(((0, 0, 0), (1, 1, 0), (2, 1, 1)), 1)
    >>> print(solution.format())
    date 0: release item 0 on stack 0
    date 1: release item 1 on stack 0
    date 2: relocate item 1 to stack 1
    1 relocation
    """

    placements: tuple
    relocations: int

    def format(self) -> str:
        """One line per placement (release or relocation), then the relocation count."""
        seen: set[int] = set()
        lines = []
        for date, item, stack in self.placements:
            what = "relocate" if item in seen else "release"
            word = "to" if item in seen else "on"
            seen.add(item)
            lines.append(f"date {date}: {what} item {item} {word} stack {stack}")
        lines.append(f"{self.relocations} relocation{'' if self.relocations == 1 else 's'}")
        return "\n".join(lines)


WAITING, STORED, DELIVERED = 0, 1, 2


def check_solution(instance: StackingInstance, placements: Iterable) -> int:
    """Replay ``placements`` on ``instance``; return the relocations, or raise :class:`InvalidSolution`.

    The rules: placements come in date order; an item's first placement is at its release date, on any
    stack; a later one is a relocation of the item from the top of its stack to another stack; at each
    date the items due then leave from the top of their stack (each as soon as it is on top), and when
    the date is over every item due then must have left and every item released then must be in.

    Examples
    --------
    Two stacks; item 1 is put on item 0, which is due first, so it must be relocated at date 3:

    >>> inst = StackingInstance([0, 1], [3, 5], width=2)
    >>> check_solution(inst, [(0, 0, 0), (1, 1, 0), (3, 1, 1)])
    1
    >>> check_solution(inst, [(0, 0, 0), (1, 1, 1)])
    0
    >>> check_solution(inst, [(0, 0, 0), (1, 1, 0)])
    Traceback (most recent call last):
    ...
    hornermcts.domains.stacking.solution.InvalidSolution: item 0 is due at date 3 but lies under item 1 in stack 0
    """
    release = [int(x) for x in instance.release]
    due = [int(x) for x in instance.due]
    n, width = len(release), instance.width
    stacks: list[list[int]] = [[] for _ in range(width)]
    where = [-1] * n
    status = [WAITING] * n
    released_at: dict[int, list[int]] = defaultdict(list)
    due_at: dict[int, list[int]] = defaultdict(list)
    for i in range(n):
        released_at[release[i]].append(i)
        due_at[due[i]].append(i)
    dates = sorted(set(release) | set(due))
    next_date = 0
    relocations = 0

    def deliver(date: int) -> None:
        for stack in stacks:
            while stack and due[stack[-1]] == date:
                item = stack.pop()
                status[item] = DELIVERED
                where[item] = -1

    def close(date: int) -> None:
        deliver(date)
        for item in released_at[date]:
            if status[item] == WAITING:
                raise InvalidSolution(f"item {item} is released at date {date} but never placed then")
        for item in due_at[date]:
            if status[item] != DELIVERED:
                above = stacks[where[item]][-1]
                raise InvalidSolution(f"item {item} is due at date {date} but lies under item {above} in stack "
                                      f"{where[item]}")

    now = None
    for number, placement in enumerate(placements):
        try:
            date, item, stack = (int(x) for x in placement)
        except (TypeError, ValueError):
            raise InvalidSolution(f"placement {number}: expected (date, item, stack), got {placement!r}") from None
        if not (0 <= item < n and 0 <= stack < width):
            raise InvalidSolution(f"placement {number}: item {item} or stack {stack} out of range")
        if now is not None and date < now:
            raise InvalidSolution(f"placement {number} at date {date} comes after one at date {now}")
        while next_date < len(dates) and dates[next_date] < date:
            close(dates[next_date])
            next_date += 1
        now = date
        deliver(date)
        if status[item] == WAITING:
            if release[item] != date:
                raise InvalidSolution(f"placement {number}: item {item} is released at date {release[item]}, "
                                      f"not {date}")
        elif status[item] == STORED:
            source = where[item]
            if stacks[source][-1] != item:
                raise InvalidSolution(f"placement {number}: item {item} is not on top of stack {source}")
            if source == stack:
                raise InvalidSolution(f"placement {number}: item {item} is already on stack {stack}")
            stacks[source].pop()
            relocations += 1
        else:
            raise InvalidSolution(f"placement {number}: item {item} was delivered at date {due[item]}")
        stacks[stack].append(item)
        where[item] = stack
        status[item] = STORED
    while next_date < len(dates):
        close(dates[next_date])
        next_date += 1
    return relocations
