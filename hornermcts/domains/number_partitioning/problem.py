"""Number partitioning as a tree search problem: the complete Karmarkar-Karp tree (thesis §4.2).

A state is a multiset of numbers; each move takes the two largest, ``u``
and ``v``, and replaces them by ``u - v`` (:data:`SPLIT`: they go to
opposite sides, the Karmarkar-Karp choice) or by ``u + v`` (:data:`JOIN`:
the same side). A state is a leaf by the rules of the thesis's complete
DFS (Alg. 4.2): four numbers or fewer (KK is exact there), or
``d = u - (sum - u) >= -1`` (``u`` alone on one side is optimal, ``E = |d|``).
The cost of a leaf is ``log2(E + 1)`` for its exact discrepancy ``E``, as in
Table 4.1 (``E`` itself, a Python int of up to ~1000 bits, is
:meth:`NumberPartitioning.discrepancy`); a perfect partition
(``E <= 1``) costs at most 1, :attr:`NumberPartitioning.target`.

The simulation (:meth:`~NumberPartitioning.playout`) is deterministic:
the Karmarkar-Karp choice (:data:`SPLIT`) until a leaf, compiled on
multi-limb integers (:mod:`.kernels`). It takes no
randomness, and the :data:`SPLIT` child's simulation is the rest of its
parent's, so every run leaves the child's answer in a cache: one KK run
serves both children of a node (the thesis's full expansion).
:meth:`~NumberPartitioning.bound` is the lower bound
``log2(max(d, sum mod 2) + 1)`` of every leaf below a state.

States are compact (:class:`PartitionState`): the original numbers left
are always the smallest ones (the two largest are taken first), so a
state keeps how many originals are gone, the numbers made by moves, and
the sum; a tree node costs memory in its depth, not in ``N``. When a made
number equals the largest original left, the original is taken first.

Examples
--------
>>> problem = NumberPartitioning([8, 7, 6, 5, 4])
>>> root = problem.root()
>>> problem.moves(root)
('split', 'join')
>>> terminal, moves = problem.playout(root, None)   # KK: {8,7,6,5,4} -> {6,5,4,1}, a leaf
>>> moves, problem.discrepancy(terminal), problem.cost(terminal)
(['split'], 2, 1.584962500721156)
>>> best = problem.apply(root, JOIN)                  # {15, 6, 5, 4}: 15 alone, E = 0
>>> problem.moves(best), problem.discrepancy(best), problem.cost(best)
((), 0, 0.0)
>>> problem.bound(root), problem.target
(0.0, 1.0)
"""

from __future__ import annotations

from bisect import bisect_left, insort
from math import log2
from typing import Any, NamedTuple, Sequence

import numpy as np

from ...errors import OptionError
from .kernels import from_limbs, kk_descend, limb_count, to_limbs

__all__ = ["NumberPartitioning", "PartitionState", "SPLIT", "JOIN", "small_optimum"]

#: The move that puts the two largest numbers on opposite sides (``u - v``; Karmarkar-Karp's choice).
SPLIT = "split"
#: The move that puts them on the same side (``u + v``).
JOIN = "join"

_MOVES = (SPLIT, JOIN)
_SENTINEL = -1  # past the last original: equal to no number (they are all >= 0)
_CACHE_LIMIT = 1 << 20  # cached simulations kept at most (one per unsimulated SPLIT child)


class PartitionState(NamedTuple):
    """A node of the complete KK tree: the numbers left, compactly.

    Attributes
    ----------
    taken : int
        How many of the original numbers (largest first) are gone.
    made : tuple of int
        The numbers made by moves and still there, ascending.
    total : int
        The sum of all numbers left.
    """

    taken: int
    made: tuple
    total: int


def small_optimum(numbers: Sequence[int]) -> int:
    """The optimal discrepancy of at most four numbers: Karmarkar-Karp's, which is exact there.

    >>> small_optimum([6, 5, 4, 1]), small_optimum([3, 3, 2, 2]), small_optimum([7])
    (2, 0, 7)
    """
    s = sorted(numbers)
    while len(s) > 1:
        u = s.pop()
        insort(s, u - s.pop())
    return s[0]


class NumberPartitioning:
    """The complete Karmarkar-Karp tree of ``numbers``, a cost problem for :func:`hornermcts.search.mcts`.

    Parameters
    ----------
    numbers : sequence of int
        The positive integers to split in two (a multiset; order kept for
        :meth:`partition`).

    The protocol's methods: :meth:`root`, :meth:`moves`, :meth:`apply`,
    :meth:`playout`, :meth:`cost` (minimise), :meth:`bound`.
    """

    def __init__(self, numbers: Sequence[int]):
        values = list(numbers)
        if not values:
            raise OptionError("number partitioning needs at least one number")
        for i, value in enumerate(values):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise OptionError(f"number {i + 1} is {value!r}: the numbers must be positive ints")
        self.numbers = tuple(values)
        self._ascending = tuple(sorted(values))
        # descending, with a sentinel so that the next original is always an index away
        self._descending = self._ascending[::-1] + (_SENTINEL,)
        self._cache: dict = {}
        # the compiled simulation's numbers: limb rows wide enough for the sum (every number made is below it)
        limbs = limb_count(sum(values).bit_length() + 1)
        self._limbs = to_limbs(self._ascending[::-1], limbs)
        n = len(values)
        self._scratch = (np.empty((n, limbs), np.uint32), np.empty(3 * n + 1, np.int64),
                         np.empty((n, limbs), np.uint32))
        #: KK runs computed by :meth:`playout` (the others came from the cache)
        self.kk_runs = 0

    @property
    def target(self) -> float:
        """The cost of a perfect partition at worst (``E = 1``): a search may stop there."""
        return 1.0

    # -- the state ----------------------------------------------------------------------------

    def root(self) -> PartitionState:
        """All the numbers."""
        return PartitionState(0, (), sum(self.numbers))

    def values(self, state: PartitionState) -> list[int]:
        """The numbers of ``state``, ascending.

        >>> problem = NumberPartitioning([8, 7, 6, 5, 4])
        >>> problem.values(problem.apply(problem.root(), SPLIT))
        [1, 4, 5, 6]
        """
        n = len(self.numbers)
        return sorted(self._ascending[: n - state.taken] + state.made)

    def _largest(self, state: PartitionState) -> int:
        nxt = self._descending[state.taken]
        made = state.made
        return made[-1] if made and made[-1] > nxt else nxt

    def size(self, state: PartitionState) -> int:
        """How many numbers ``state`` holds."""
        return len(self.numbers) - state.taken + len(state.made)

    def is_leaf(self, state: PartitionState) -> bool:
        """Alg. 4.2's leaf rules: at most four numbers, or ``d = u - (sum - u) >= -1``."""
        # 2u - total >= -1  <=>  u >= total >> 1 (for integers)
        return self.size(state) <= 4 or self._largest(state) >= state.total >> 1

    def moves(self, state: PartitionState) -> tuple:
        """``(SPLIT, JOIN)``, or ``()`` at a leaf."""
        return () if self.is_leaf(state) else _MOVES

    def apply(self, state: PartitionState, move: str) -> PartitionState:
        """Replace the two largest numbers ``u >= v`` by ``u - v`` (SPLIT) or ``u + v`` (JOIN)."""
        if move != SPLIT and move != JOIN:
            raise OptionError(f"unknown move {move!r}: expected {SPLIT!r} or {JOIN!r}")
        taken, made, total = state
        if self.size(state) < 2:
            raise OptionError("no move from a single number")
        descending = self._descending
        end = len(made)
        if end and made[end - 1] > descending[taken]:
            end -= 1
            u = made[end]
        else:
            u = descending[taken]
            taken += 1
        if end and made[end - 1] > descending[taken]:
            end -= 1
            v = made[end]
        else:
            v = descending[taken]
            taken += 1
        rest = made[:end]
        if move == SPLIT:
            new, total = u - v, total - 2 * v
        else:
            new = u + v
        at = bisect_left(rest, new)
        return PartitionState(taken, rest[:at] + (new,) + rest[at:], total)

    # -- values ---------------------------------------------------------------------------------

    def discrepancy(self, state: PartitionState) -> int:
        """The optimal discrepancy ``E`` of a leaf (exact int).

        Raises OptionError if ``state`` is not a leaf.
        """
        if self.size(state) <= 4:
            return small_optimum(self.values(state))
        u = self._largest(state)
        d = 2 * u - state.total
        if d < -1:
            raise OptionError("the discrepancy is known at the leaves only (the state has moves)")
        return abs(d)

    def cost(self, state: PartitionState) -> float:
        """``log2(E + 1)`` of a leaf: Table 4.1's measure (0 or 1 for a perfect partition)."""
        return log2(self.discrepancy(state) + 1)

    def bound(self, state: PartitionState) -> float:
        """A lower bound on the cost of every leaf below ``state``: ``log2(max(d, sum mod 2) + 1)``.

        No partition does better than the largest number alone against the
        rest (``d``), and ``E`` has the parity of the sum.

        >>> problem = NumberPartitioning([10, 2, 1])
        >>> problem.bound(problem.root()) == problem.cost(problem.root()) == 3.0   # d = 7: E = 7
        True
        """
        d = 2 * self._largest(state) - state.total
        return log2(max(d, state.total & 1) + 1)

    # -- the simulation ---------------------------------------------------------------------------

    def playout(self, state: PartitionState, rng: Any = None) -> tuple[PartitionState, list]:
        """Karmarkar-Karp from ``state`` to a leaf: ``(leaf, [SPLIT] * k)``; ``rng`` is not used.

        The answer for the SPLIT child (the same leaf, one move fewer) is
        cached, and taken out of the cache when the child is simulated
        (which caches its own SPLIT child's, and so on down KK's path).
        """
        cached = self._cache.pop(state, None)
        if cached is not None:
            leaf, steps = cached
        else:
            leaf, steps = self.descend(state)
            self.kk_runs += 1
        if steps:  # the SPLIT child's KK is the rest of this one
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[self.apply(state, SPLIT)] = (leaf, steps - 1)
        return leaf, [SPLIT] * steps

    def descend(self, state: PartitionState) -> tuple[PartitionState, int]:
        """The leaf Karmarkar-Karp reaches from ``state``, and its number of steps (no cache).

        The loop runs compiled on multi-limb integers
        (:func:`~.kernels.kk_descend`); only the state's made numbers and
        the leaf's cross between Python ints and limbs.

        >>> problem = NumberPartitioning([8, 7, 6, 5, 4, 3])
        >>> problem.descend(problem.root())
        (PartitionState(taken=4, made=(1, 1), total=9), 2)
        """
        taken, made, total = state
        limbs = self._limbs.shape[1]
        half = to_limbs((total >> 1,), limbs)
        steps, taken, k = kk_descend(self._limbs, taken, to_limbs(made, limbs), half, *self._scratch)
        if not steps:
            return state, 0
        width = 4 * limbs
        data = self._scratch[2][:k].tobytes()
        left = tuple(int.from_bytes(data[i: i + width], "little") for i in range(0, k * width, width))
        return PartitionState(taken, left, 2 * from_limbs(half[0]) + (total & 1)), steps
