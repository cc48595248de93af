"""Options: one validated object from which optimize, the CLI and sweeps take their options."""
from __future__ import annotations

import argparse
import dataclasses

import pytest
import sympy

import hornermcts
from hornermcts import OptionError, Options, optimize
from hornermcts.research.experiments import GRID_KEYS, sweep
from hornermcts.options import PRESETS, STAGES, add_arguments, from_arguments

x, y, z, w = sympy.symbols("x y z w")
EXPR = x**3 * y**2 + x**2 * y + x**3 * z + 3 * x * y * z - 2 * w * x + w**2 * z


@pytest.mark.parametrize("changes, message", [
    ({"preset": "O5"}, "preset must be one of"),
    ({"iterations": -1}, "iterations must be an integer >= 0"),
    ({"iterations": 2.5}, "iterations must be an integer"),
    ({"iterations": None}, "give iterations, time_limit or both"),
    ({"time_limit": 0}, "time_limit must be a finite number of seconds > 0"),
    ({"cp": float("nan")}, "cp must be a finite number >= 0"),
    ({"schedule": "cool"}, "schedule must be one of"),
    ({"direction": "sideways"}, "direction must be"),
    ({"repeats": 0}, "repeats must be an integer >= 1"),
    ({"seed": -3}, "seed must be an integer >= 0"),
    ({"greedy": "yes"}, "greedy must be None"),
    ({"candidates": True}, "candidates must be an integer"),
    ({"greedy_rounds": 0}, "greedy_rounds must be an integer >= 1"),
    ({"anneal_refine": (0.01, 0.02)}, "anneal_refine must be two temperatures"),
    ({"anneal_from_scratch": (0.1,)}, "anneal_from_scratch must be two temperatures"),
    ({"variables_per_restart": 0}, "variables_per_restart must be an integer >= 1"),
])
def test_every_option_is_checked_with_a_message_naming_it(changes, message):
    with pytest.raises(OptionError, match=message):
        Options(**changes)
    with pytest.raises(ValueError, match=message):  # an OptionError is a ValueError
        optimize(EXPR, **changes)


def test_unknown_option_is_a_type_error_listing_the_options():
    with pytest.raises(TypeError, match="unknown option.*iteration;.*iterations"):
        optimize(EXPR, iteration=10)
    with pytest.raises(TypeError, match="must be a hornermcts.Options"):
        optimize(EXPR, {"iterations": 10})


def test_presets_are_lists_of_stages_and_greedy_overrides():
    assert all(set(stages) <= set(STAGES) for stages in PRESETS.values())
    assert Options(preset="mcts", greedy=False).stages == ("mcts",)
    assert Options(preset="fast", greedy=True).stages == ("greedy",)
    assert Options().stages == ("mcts", "anneal", "greedy")
    assert optimize(EXPR, preset="mcts", greedy=False, iterations=50).after == \
        optimize(EXPR, preset="mcts", greedy=False, iterations=50).cse


def test_an_options_object_and_keywords_give_the_same_run():
    opts = Options(iterations=120, seed=4, preset="mcts")
    a, b = optimize(EXPR, opts), optimize(EXPR, iterations=120, seed=4, preset="mcts")
    c = optimize(EXPR, opts, iterations=120)  # keywords apply on top of the object
    assert a.order == b.order == c.order and a.after == b.after == c.after and a.history == b.history
    assert a.options == {**opts.as_dict(), "greedy": True}


def test_a_fresh_seed_is_recorded_and_repeats_the_run():
    first = optimize(EXPR, seed=None, iterations=80)
    seed = first.options["seed"]
    assert isinstance(seed, int) and seed >= 0
    again = optimize(EXPR, seed=seed, iterations=80)
    assert again.order == first.order and again.history == first.history


@pytest.mark.slow
def test_tuning_constants_are_per_call_options(hep):
    one = optimize(hep, iterations=100, greedy_rounds=1, candidates=1)
    three = optimize(hep, iterations=100, greedy_rounds=3, candidates=1)
    assert one.order == three.order and three.after.total <= one.after.total
    restarts = [s for s in optimize(hep, preset="anneal", iterations=50, anneal_one_run_up_to=5,
                                    variables_per_restart=2).search]
    assert restarts[0].iterations == 50 * (1 + (15 - 5 + 1) // 2)  # 15 variables: 1 + ceil(10/2) runs


def test_the_command_line_offers_every_option_with_its_default():
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    defaults = from_arguments(parser.parse_args([]))
    assert defaults == Options()
    for f in dataclasses.fields(Options):
        if f.metadata["cli"]:
            assert any(a.dest == f.name for a in parser._actions), f.name
    parsed = from_arguments(parser.parse_args(["--preset", "mcts", "--no-greedy", "--greedy-rounds", "2",
                                               "--anneal-refine", "0.05", "0.001", "--time-limit", "3"]))
    assert parsed == Options(preset="mcts", greedy=False, greedy_rounds=2, anneal_refine=(0.05, 0.001),
                             time_limit=3.0)


def test_sweeps_take_their_defaults_from_options_and_check_values_before_running():
    table = sweep(EXPR, {"cp": [0.5]}, seeds=1, backend="serial", progress=None)
    row = table.rows[0]
    expected = {k: getattr(Options(), k) for k in GRID_KEYS if k != "cp"}
    expected["repeats"] = 1  # a sweep's run is one search, not the default preset's two restarts
    assert {k: row[k] for k in GRID_KEYS if k != "cp"} == expected
    with pytest.raises(OptionError, match="repeats must be an integer >= 1"):
        sweep(EXPR, {"repeats": [0]}, seeds=1, backend="serial", progress=None)


def test_options_is_public():
    assert hornermcts.Options is Options and "Options" not in hornermcts.__all__  # SymPy has an Options
