"""Toy search problems with brute-force optima, shared by the search-core tests.

Each is small enough to enumerate, so a test can compare what a search finds
with the true optimum.
"""
from __future__ import annotations

import itertools

import numpy as np

from hornermcts.search import Problem


class Tour:
    """Order ``cities`` items; a step from a (or the start, row ``cities``) to b costs ``cost[a][b]``.

    The reward is ``offset - cost / scale`` (higher is better); the costs are
    drawn once from ``seed``.
    """

    def __init__(self, cities: int = 6, *, seed: int = 2024, offset: float = 0.0, scale: float = 100.0):
        self.cities = cities
        self.cost = np.random.default_rng(seed).integers(1, 30, size=(cities + 1, cities)).tolist()
        self.offset, self.scale = offset, scale

    def root(self):
        return ()

    def moves(self, state):
        return [x for x in range(self.cities) if x not in state]

    def apply(self, state, move):
        return state + (move,)

    def reward(self, state):
        previous, cost = self.cities, 0
        for x in state:
            cost += self.cost[previous][x]
            previous = x
        return self.offset - cost / self.scale

    def optimum(self) -> tuple[float, tuple]:
        """``(best reward, best order)`` by enumeration."""
        best = max(itertools.permutations(range(self.cities)), key=self.reward)
        return self.reward(best), best


class Bits:
    """``length`` bits; reward ``"binary"``: the number they spell, scaled to [0, 1]; ``"ones"``: the share of ones."""

    def __init__(self, length: int = 4, reward: str = "binary"):
        self.length = length
        self.kind = reward

    def root(self):
        return ()

    def moves(self, state):
        return (0, 1) if len(state) < self.length else ()

    def apply(self, state, move):
        return state + (move,)

    def reward(self, state):
        if self.kind == "ones":
            return sum(state) / self.length
        return int("".join(map(str, state)), 2) / (2**self.length - 1)


class Trap(Bits, Problem):
    """Six bits: the reward grows with the ones, but all zeros is the best (deceptive).

    A subclass of :class:`~hornermcts.search.Problem`: it inherits the default random playout.
    """

    def __init__(self):
        super().__init__(6)

    def reward(self, state):
        ones = sum(state)
        return 1.0 if ones == 0 else 0.9 * ones / self.length


class Leaves:
    """One move from the root to a terminal state with a fixed reward; counts reward calls."""

    def __init__(self, rewards):
        self.rewards = dict(rewards)
        self.reward_calls = 0

    def root(self):
        return "root"

    def moves(self, state):
        return tuple(self.rewards) if state == "root" else ()

    def apply(self, state, move):
        return move

    def reward(self, state):
        self.reward_calls += 1
        return self.rewards[state]


def replay(problem, moves):
    """The terminal state ``moves`` reach from the root, asserting each is legal."""
    state = problem.root()
    for move in moves:
        assert move in problem.moves(state)
        state = problem.apply(state, move)
    assert not problem.moves(state)
    return state


def walk(node):
    """Every node of a search tree, depth first."""
    yield node
    for child in node.children:
        yield from walk(child)
