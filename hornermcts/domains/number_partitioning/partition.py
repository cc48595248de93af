"""The two subsets behind a path of the complete Karmarkar-Karp tree.

KK and its tree never fix a side while they run: each move only records
that the two largest numbers go to opposite sides (:data:`~.problem.SPLIT`)
or to the same side (:data:`~.problem.JOIN`), and the number that replaces
them stands for both. These relations form a tree over the original numbers
(the thesis's figs. 4.2 and 4.3); colouring it with two colours gives the
partition. :func:`partition_from_moves` replays a path (of KK, the complete
DFS or MCTS), finishes its leaf by the leaf's own rule (KK for four numbers
or fewer, the largest alone against the rest otherwise) and colours the
tree; the :class:`Partition` it returns states its sums, which are checked
against the discrepancy the search reported.

Examples
--------
>>> from hornermcts.domains.number_partitioning import JOIN, SPLIT
>>> numbers = [8, 7, 6, 5, 4]
>>> kk = partition_from_moves(numbers, [SPLIT])        # Karmarkar-Karp: {8, 6} | {7, 5, 4}
>>> kk.subsets(numbers), kk.sums, kk.discrepancy
(([8, 6], [7, 5, 4]), (14, 16), 2)
>>> best = partition_from_moves(numbers, [JOIN])       # 8 and 7 together: {8, 7} | {6, 5, 4}
>>> best.subsets(numbers), best.discrepancy
(([8, 7], [6, 5, 4]), 0)
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from typing import Iterable, Sequence

from ...errors import OptionError
from .problem import JOIN, SPLIT

__all__ = ["Partition", "partition_from_moves"]


@dataclass(frozen=True)
class Partition:
    """Two complementary subsets of the numbers, as 0-based indices into the input.

    Attributes
    ----------
    first, second : tuple of int
        The indices of each side (``first`` holds the first number).
    sums : tuple of int
        The sum of each side.
    """

    first: tuple
    second: tuple
    sums: tuple

    @property
    def discrepancy(self) -> int:
        """``E = |sum(first) - sum(second)|``."""
        return abs(self.sums[0] - self.sums[1])

    def subsets(self, numbers: Sequence[int]) -> tuple[list, list]:
        """The numbers of each side."""
        return [numbers[i] for i in self.first], [numbers[i] for i in self.second]


def partition_from_moves(numbers: Sequence[int], moves: Iterable[str]) -> Partition:
    """The partition a path of the complete KK tree stands for, its leaf finished optimally.

    ``moves`` is a sequence of :data:`~.problem.SPLIT` / :data:`~.problem.JOIN`
    from the root (a search's ``best_moves``); it may stop at a leaf of
    :class:`~.problem.NumberPartitioning` or go on to a single number
    (KK's whole path). Raises OptionError for an unknown move, more moves
    than numbers allow, or a path that stops before a leaf.

    Examples
    --------
    >>> partition_from_moves([3, 1, 1, 1, 1, 1, 1, 1], [])   # 8 numbers, d = 3 - 7 < -1: not a leaf
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: the moves stop at a state with 8 numbers and d = -4 < -1, not a leaf
    >>> partition_from_moves([3, 9, 1, 1, 1, 1], []).subsets([3, 9, 1, 1, 1, 1])   # 9 alone: d = 2
    ([3, 1, 1, 1, 1], [9])
    """
    values = list(numbers)
    if not values:
        raise OptionError("number partitioning needs at least one number")
    # (value, representative index), ascending; a merged number is represented by the larger one's index
    items = sorted((value, i) for i, value in enumerate(values))
    links: list[list[tuple[int, bool]]] = [[] for _ in values]  # index -> (index, same side?)

    def link(a: int, b: int, same: bool) -> None:
        links[a].append((b, same))
        links[b].append((a, same))

    for step, move in enumerate(moves, start=1):
        if move != SPLIT and move != JOIN:
            raise OptionError(f"move {step} is {move!r}: expected {SPLIT!r} or {JOIN!r}")
        if len(items) < 2:
            raise OptionError(f"move {step}: no move is left ({len(values)} numbers allow {len(values) - 1})")
        u, iu = items.pop()
        v, iv = items.pop()
        link(iu, iv, move == JOIN)
        insort(items, (u - v if move == SPLIT else u + v, iu))
    if len(items) > 1:
        u, iu = items[-1]
        d = 2 * u - sum(value for value, _ in items)
        if d >= -1:  # the largest alone against the rest
            for _, i in items[:-1]:
                link(iu, i, False)
        elif len(items) <= 4:  # Karmarkar-Karp, exact for four numbers or fewer
            while len(items) > 1:
                u, iu = items.pop()
                v, iv = items.pop()
                link(iu, iv, False)
                insort(items, (u - v, iu))
        else:
            raise OptionError(f"the moves stop at a state with {len(items)} numbers and d = {d} < -1, not a leaf")
    side = [-1] * len(values)
    side[0] = 0
    stack = [0]
    while stack:
        a = stack.pop()
        for b, same in links[a]:
            if side[b] < 0:
                side[b] = side[a] if same else 1 - side[a]
                stack.append(b)
    first = tuple(i for i, s in enumerate(side) if s == 0)
    second = tuple(i for i, s in enumerate(side) if s == 1)
    return Partition(first, second, (sum(values[i] for i in first), sum(values[i] for i in second)))
