"""check_problem: every rule of the protocol is checked, and a problem that breaks it is named."""
from __future__ import annotations

import numpy as np
import pytest
from helpers.toys import Bits, Leaves, Tour, Trap

from hornermcts.search import ContractError, RootedProblem, check_problem


@pytest.mark.parametrize("problem", [Tour(), Tour(7, seed=7, offset=1.0, scale=200), Bits(5), Bits(3, "ones"),
                                     Trap(), Leaves({"a": 1.0, "b": 2.0}), RootedProblem(Tour(), (2, 0))],
                         ids=["tour6", "tour7", "bits", "ones", "trap", "leaves", "rooted"])
def test_the_toy_problems_keep_the_contract(problem):
    check_problem(problem, simulations=25, seed=1)


class Broken(Bits):
    """Bits with one rule broken, chosen by name."""

    def __init__(self, rule):
        super().__init__(4)
        self.rule = rule
        self.calls = 0

    def moves(self, state):
        self.calls += 1
        legal = super().moves(state)
        if self.rule == "moves" and legal:
            return legal[::-1] if self.calls % 2 else legal
        if self.rule == "moves-iterator":
            return iter(legal)
        return legal

    def apply(self, state, move):
        if self.rule == "mutates":
            state.append(move)
            return state
        return super().apply(state, move)

    def root(self):
        return [] if self.rule == "mutates" else ()

    def reward(self, state):
        self.calls += 1
        if self.rule == "reward":
            return float(self.calls)
        if self.rule == "reward-type":
            return "high"
        return super().reward(state)

    def playout(self, state, rng):
        if self.rule == "playout-unseeded":
            rng = np.random.default_rng()
        moves = []
        while len(state) < self.length:
            move = int(rng.integers(2))
            if self.rule == "playout-illegal":
                move = 7
            state = super().apply(state, move)
            moves.append(move)
        if self.rule == "playout-early" and moves:
            return state[:-1], moves[:-1]
        if self.rule == "playout-lies":
            return state, moves[:-1] + [1 - moves[-1]] if moves else moves
        return state, moves

    def bound(self, state):
        return 0.0 if self.rule == "bound" else 1.0

    def prior(self, state, move):
        return -1.0 if self.rule == "prior" else 1.0


@pytest.mark.parametrize("rule, message", [
    ("moves", "moves.* differs between two calls"),
    ("moves-iterator", "not a sequence"),
    ("mutates", r"apply\(\[\], .\) changed the state"),
    ("reward", "reward.* differs between two calls"),
    ("reward-type", "not a real number"),
    ("playout-unseeded", "not reproducible"),
    ("playout-illegal", "not a legal move"),
    ("playout-early", "stopped at a state with legal moves"),
    ("playout-lies", "does not reach its terminal state"),
    ("bound", "is below the reward"),
    ("prior", "is negative"),
])
def test_each_broken_rule_is_reported(rule, message):
    with pytest.raises(ContractError, match=message):
        check_problem(Broken(rule), simulations=20, seed=0)


def test_the_structural_check_alone_runs_no_simulation():
    problem = Broken("reward")
    check_problem(problem)  # what every driver runs: methods only
    assert problem.calls == 0
    with pytest.raises(TypeError, match="lacks required method"):
        check_problem(object(), simulations=3)


def test_an_endless_game_is_reported():
    class Endless(Bits):
        def moves(self, state):
            return (0, 1)

    with pytest.raises(ContractError, match="no terminal state within 50 moves"):
        check_problem(Endless(), simulations=1, max_moves=50)
