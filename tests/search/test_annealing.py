"""Simulated annealing over permutations (hornermcts.search.annealing)."""
from __future__ import annotations

import dataclasses
import itertools

import pytest

from hornermcts.research.families import random_polynomial
from hornermcts.cost.fast_counter import FastCounter
from hornermcts.search.annealing import anneal


def test_anneal_finds_the_brute_force_optimum_of_a_small_order_problem():
    poly = random_polynomial(6, 40, max_degree=4, seed=3)
    counter = FastCounter(poly)
    best = min(counter.count(list(p)) for p in itertools.permutations(range(6)))
    found = min(anneal(lambda p: counter.count(list(p)), tuple(range(6)), iterations=600, t_start=20.0, t_end=0.2,
                       seed=s).best_value for s in range(3))
    assert found == best


def test_anneal_is_reproducible_keeps_fixed_prefix_and_records_history():
    cost = lambda p: sum(abs(i - v) * (i + 1) for i, v in enumerate(p))  # noqa: E731
    start = (2, 0, 5, 4, 3, 1, 6)
    one = anneal(cost, start, iterations=200, t_start=5, t_end=0.1, seed=4, fixed=1)
    two = anneal(cost, start, iterations=200, t_start=5, t_end=0.1, seed=4, fixed=1)
    assert dataclasses.replace(two, elapsed=one.elapsed) == one
    assert one.best_moves[0] == 2 and sorted(one.best_moves) == sorted(start)
    costs = [c for _, c in one.history]
    assert costs == sorted(costs, reverse=True) and costs[-1] == one.best_value == cost(one.best_moves)
    assert one.iterations == 200 and one.stopped == "iterations"


def test_anneal_restarts_time_limit_and_errors():
    cost = lambda p: float(p.index(0))  # noqa: E731
    res = anneal(cost, (3, 2, 1, 0), iterations=50, restarts=3, restart_from="best", t_start=1, t_end=0.01, seed=0)
    assert res.best_value == 0 and res.iterations == 150
    timed = anneal(cost, tuple(range(9, -1, -1)), iterations=None, time_limit=0.05, seed=0)
    assert timed.stopped == "time" or timed.iterations > 0
    for kwargs, message in [({"iterations": -1}, "iterations"), ({"t_start": 0}, "temperatures"),
                            ({"t_start": 1, "t_end": 2}, "temperatures"),
                            ({"neighbourhood": ("flip",)}, "neighbourhood"),
                            ({"restarts": 0}, "restarts"), ({"restart_from": "x"}, "restart_from"),
                            ({"fixed": 9}, "fixed"), ({"iterations": None}, "time_limit")]:
        with pytest.raises(ValueError, match=message):
            anneal(cost, (0, 1, 2), **kwargs)


def test_more_runs_from_other_starts_leave_the_others_as_they_were():
    cost = lambda p: sum(abs(i - v) * (1 + i % 3) for i, v in enumerate(p))  # noqa: E731
    start, other = (5, 4, 3, 2, 1, 0), (0, 1, 2, 3, 5, 4)
    plain = anneal(cost, start, iterations=40, restarts=2, t_start=3, t_end=0.1, seed=2)
    more = anneal(cost, start, iterations=40, restarts=2, t_start=3, t_end=0.1, seed=2, also=[(other, 1, 0.1)])
    assert more.iterations == 120 and more.history[:len(plain.history)] == plain.history
    assert more.best_value <= plain.best_value
    # no steps: the extra run's best is its start, better than the initial one
    assert anneal(cost, start, iterations=0, restarts=2, also=[(other, 1, 0.1)]).best_moves == other
    assert anneal(cost, start, iterations=0, restarts=2, also=[(other, 1, 0.1)], workers=2).best_moves == other
    two = [anneal(cost, start, iterations=30, restarts=2, also=[(other, 1, 0.1)], seed=5, workers=w) for w in (1, 2)]
    assert two[0].best_moves == two[1].best_moves and two[0].history == two[1].history
    for bad in ([((0, 1, 2), 1, 0.1)], [(other, 0.1, 1)]):
        with pytest.raises(ValueError, match="also"):
            anneal(cost, start, also=bad)
