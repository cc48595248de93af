"""The 0/1 knapsack as a tree search problem (Rei's thesis, App. A.3).

A binary tree: each move packs (``True``) or skips (``False``) the next item
in decreasing value/weight order. Items that no longer fit are dropped; a
node is a leaf when everything left fits (it is all packed at once) or
nothing is left. The simulation flips a fair coin per decision (a compiled
loop, :mod:`.kernels`); the reward is the packed value (maximised), and
:meth:`Knapsack.bound` is Dantzig's linear relaxation, an upper bound for
branch-and-bound (``prune=True`` in :func:`hornermcts.search.mcts`).

Differences from the thesis's listing: items heavier than the capacity
are dropped at the root too (the listing offers to pack them), and its
``self.total.value`` typo is read as ``total_value``.

A state (:class:`KnapsackState`) is settled: its position is an item that
fits, or ``n`` at a leaf.

Examples
--------
>>> from hornermcts.domains.knapsack import KnapsackInstance
>>> problem = Knapsack(KnapsackInstance(values=(10, 40, 30, 50), weights=(5, 4, 6, 3), capacity=10))
>>> [problem.order[i] for i in range(4)]   # by value/weight: 50/3, 40/4, 30/6, 10/5
[3, 1, 2, 0]
>>> root = problem.root()
>>> problem.moves(root), problem.bound(root)   # 50 + 40 + 3/6 of 30
((True, False), 105.0)
>>> state = problem.apply(problem.apply(root, True), True)   # 3 and 1 packed: 3 left, nothing fits: a leaf
>>> problem.moves(state), problem.reward(state), problem.items(state)
((), 90.0, [1, 3])
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ...errors import OptionError
from . import kernels
from .instances import KnapsackInstance

__all__ = ["Knapsack", "KnapsackState"]

_MOVES = (True, False)


class KnapsackState(NamedTuple):
    """A node of the knapsack tree.

    Attributes
    ----------
    position : int
        The next item to decide, in value/weight order (``n`` at a leaf).
    capacity : int
        The capacity left.
    value : int
        The value packed so far.
    packed : int
        Bit ``i`` set when item ``i`` (the instance's numbering) is packed.
    """

    position: int
    capacity: int
    value: int
    packed: int


class Knapsack:
    """The knapsack tree of an instance, a reward problem for :func:`hornermcts.search.mcts`.

    The protocol's methods: :meth:`root`, :meth:`moves`, :meth:`apply`,
    :meth:`playout`, :meth:`reward` (maximise), :meth:`bound`.
    """

    def __init__(self, instance: KnapsackInstance):
        if not isinstance(instance, KnapsackInstance):
            raise OptionError(f"expected a KnapsackInstance, got {type(instance).__name__}")
        self.instance = instance
        ranked = sorted(range(instance.n), key=lambda i: (-Fraction(instance.values[i], instance.weights[i]), i))
        #: the instance's item at each position of the value/weight order
        self.order = tuple(ranked)
        if max(instance.values) * instance.n >= 2**62 or instance.total_weight >= 2**62:
            raise OptionError("values and weights must stay below 2**62 in total (the kernels use int64)")
        self._weights = np.array([instance.weights[i] for i in ranked], dtype=np.int64)
        self._values = np.array([instance.values[i] for i in ranked], dtype=np.int64)
        self._bits = [1 << i for i in ranked]
        self._order_array = np.array(ranked, dtype=np.int64)
        n = len(ranked)
        self._suffix_sum = np.zeros(n + 1, dtype=np.int64)
        self._suffix_max = np.zeros(n + 1, dtype=np.int64)
        for j in range(n - 1, -1, -1):
            self._suffix_sum[j] = self._suffix_sum[j + 1] + self._weights[j]
            self._suffix_max[j] = max(self._suffix_max[j + 1], self._weights[j])

    @property
    def n(self) -> int:
        """The number of items."""
        return self.instance.n

    def _settle(self, position: int, capacity: int, value: int, packed: int) -> KnapsackState:
        first, fitting = kernels.settle(self._weights, self._suffix_sum, self._suffix_max, position, capacity)
        n = self.n
        if fitting <= capacity:  # all that is left fits: pack it (a leaf)
            weights, values, bits = self._weights, self._values, self._bits
            for j in range(int(first), n):
                if weights[j] <= capacity:
                    capacity -= int(weights[j])
                    value += int(values[j])
                    packed |= bits[j]
            return KnapsackState(n, capacity, value, packed)
        return KnapsackState(int(first), capacity, value, packed)

    def root(self) -> KnapsackState:
        """Nothing packed (or everything, if everything fits)."""
        return self._settle(0, self.instance.capacity, 0, 0)

    def moves(self, state: KnapsackState) -> tuple:
        """``(True, False)``: pack or skip the next item; ``()`` at a leaf."""
        return () if state.position >= self.n else _MOVES

    def apply(self, state: KnapsackState, move: bool) -> KnapsackState:
        """Pack (``True``) or skip (``False``) the item at ``state.position``."""
        if move is not True and move is not False:
            raise OptionError(f"a knapsack move is True (pack) or False (skip), got {move!r}")
        position, capacity, value, packed = state
        if position >= self.n:
            raise OptionError("no move from a leaf")
        if move:
            capacity -= int(self._weights[position])
            value += int(self._values[position])
            packed |= self._bits[position]
        return self._settle(position + 1, capacity, value, packed)

    def reward(self, state: KnapsackState) -> float:
        """The packed value."""
        return float(state.value)

    def bound(self, state: KnapsackState) -> float:
        """Dantzig's bound: no leaf below ``state`` packs more value (a float rounded from the exact bound)."""
        whole, left, k = kernels.lp_bound(self._weights, self._values, state.position, state.capacity)
        exact = state.value + int(whole)
        if k < self.n and left:
            return float(exact + Fraction(int(self._values[k]) * int(left), int(self._weights[k])))
        return float(exact)

    def playout(self, state: KnapsackState, rng: Any) -> tuple[KnapsackState, list]:
        """A fair coin per decision until a leaf: ``(leaf, moves)``; the coins come from ``rng``."""
        position, capacity, value, packed = state
        n = self.n
        if position >= n:
            return state, []
        coins = rng.integers(0, 2, size=n - position, dtype=np.uint8)
        take = np.zeros(n, dtype=np.bool_)
        decisions, _, capacity, gained = kernels.playout(self._weights, self._values, self._suffix_sum,
                                                         self._suffix_max, position, capacity, coins, take)
        if decisions:
            chosen = np.zeros(n, dtype=np.bool_)
            chosen[self._order_array[take]] = True
            packed |= int.from_bytes(np.packbits(chosen, bitorder="little").tobytes(), "little")
        leaf = KnapsackState(n, int(capacity), value + int(gained), packed)
        return leaf, coins[:decisions].astype(np.bool_).tolist()

    def items(self, state: KnapsackState) -> list[int]:
        """The packed items (the instance's indices), ascending."""
        return [i for i in range(self.n) if state.packed >> i & 1]
