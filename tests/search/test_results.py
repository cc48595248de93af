"""Every search driver returns a SearchResult: the same core fields, the same meaning."""
from __future__ import annotations

import dataclasses

import pytest
from helpers.toys import Bits, Tour, TourCost

from hornermcts.search import (SearchResult, anneal, beam_mcts, cem, mcts, nmcs, nrpa, per_move_search, sa_uct,
                               sp_mcts)
from hornermcts.search.result import STOP_REASONS

CORE = ("best_moves", "best_value", "iterations", "elapsed", "stopped", "seed", "history")

DRIVERS = {
    "mcts": lambda seed: mcts(Tour(), iterations=60, cp=0.3, seed=seed, progress=None),
    "sa_uct": lambda seed: sa_uct(Tour(), iterations=60, cp=0.3, seed=seed, progress=None),
    "beam_mcts": lambda seed: beam_mcts(Tour(), simulation_limit=10, beam_width=2, iterations=60, cp=0.3,
                                        seed=seed, progress=None),
    "per_move_search": lambda seed: per_move_search(Bits(5), iterations=10, cp=0.5, seed=seed, progress=None),
    "sp_mcts": lambda seed: sp_mcts(Bits(5), iterations=40, seed=seed, progress=None),
    "anneal": lambda seed: anneal(lambda p: sum(i * v for i, v in enumerate(p)), tuple(range(6)),
                                  iterations=200, t_start=2.0, t_end=0.05, seed=seed),
    "nmcs": lambda seed: nmcs(Tour(), level=1, seed=seed, progress=None),
    "nrpa": lambda seed: nrpa(Tour(), level=1, per_level=20, seed=seed, progress=None),
    "mcts_cost": lambda seed: mcts(TourCost(), iterations=60, value="best", normalize="parent", seed=seed,
                                   progress=None),
    "cem": lambda seed: cem(lambda p, rng: -(p["x"] - 0.3) ** 2, {"x": (0.0, 1.0)}, iterations=4,
                            population=10, elite=3, seed=seed),
}


@pytest.mark.parametrize("name", sorted(DRIVERS))
def test_every_driver_returns_the_core_fields(name):
    result = DRIVERS[name](3)
    assert isinstance(result, SearchResult)
    fields = {f.name for f in dataclasses.fields(result)}
    assert set(CORE) <= fields
    assert result.stopped in STOP_REASONS and result.seed == 3 and result.elapsed >= 0
    assert result.iterations > 0
    # history: improvements only, in the driver's direction, ending at the best value
    values = [v for _, v in result.history]
    assert values and values[-1] == result.best_value
    better = (lambda a, b: a > b) if result.maximize else (lambda a, b: a < b)
    assert all(better(b, a) for a, b in zip(values, values[1:]))
    assert result.maximize == (name not in ("anneal", "mcts_cost"))  # the minimisers


@pytest.mark.parametrize("name", sorted(DRIVERS))
def test_every_driver_repeats_for_a_seed_and_reports_a_fresh_one(name):
    assert DRIVERS[name](11) == DRIVERS[name](11)  # elapsed is not compared
    fresh = DRIVERS[name](None)
    assert isinstance(fresh.seed, int) and DRIVERS[name](fresh.seed) == fresh
