"""Toy search problems with brute-force optima, shared by the search-core tests.

Each is small enough to enumerate, so a test can compare what a search finds
with the true optimum.
"""
from __future__ import annotations

import itertools

import numpy as np

from hornermcts.search import Infeasible, Problem


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


class Knapsack:
    """Pack items in turn (1) or skip them (0); overweight packings are Infeasible by the excess weight.

    A reward problem with an upper bound (value so far plus every remaining
    value), small enough to enumerate.
    """

    def __init__(self, values, weights, capacity):
        self.values, self.weights, self.capacity = values, weights, capacity
        self.applied = 0

    def root(self):
        return ()

    def moves(self, state):
        return (1, 0) if len(state) < len(self.values) else ()

    def apply(self, state, move):
        self.applied += 1
        return state + (move,)

    def reward(self, state):
        weight = sum(w for w, take in zip(self.weights, state) if take)
        if weight > self.capacity:
            return Infeasible(weight - self.capacity)
        return float(sum(v for v, take in zip(self.values, state) if take))

    def bound(self, state):
        return float(sum(v for v, take in zip(self.values, state) if take) + sum(self.values[len(state):]))

    def optimum(self):
        feasible = [r for r in map(self.reward, itertools.product((0, 1), repeat=len(self.values)))
                    if not isinstance(r, Infeasible)]
        return max(feasible)


class TourCost:
    """The toy tour of ``toys.Tour`` as a cost problem (minimise the total step cost), with a lower bound."""

    def __init__(self, cities=6, seed=2024):
        self.cities = cities
        self.matrix = Tour(cities, seed=seed).cost  # Tour keeps its cost matrix in .cost

    def root(self):
        return ()

    def moves(self, state):
        return [x for x in range(self.cities) if x not in state]

    def apply(self, state, move):
        return state + (move,)

    def cost(self, state):
        previous, total = self.cities, 0
        for x in state:
            total += self.matrix[previous][x]
            previous = x
        return float(total)

    def bound(self, state):
        """The cost so far plus, for each city left, its cheapest way in."""
        left = [x for x in range(self.cities) if x not in state]
        return self.cost(state) + sum(min(row[x] for row in self.matrix) for x in left)

    def optimum(self):
        best = min(itertools.permutations(range(self.cities)), key=self.cost)
        return self.cost(best), best
