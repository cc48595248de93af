"""0/1 knapsack (thesis App. A.3): the tree, its playouts and bound, DP against brute force, files, CLI."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.cli import main
from hornermcts.domains.knapsack import (
    Knapsack,
    KnapsackInstance,
    brute_force_knapsack,
    generate,
    knapsack_dp,
    read_instance,
    write_instance,
)
from hornermcts.errors import OptionError
from hornermcts.parse import ParseError
from hornermcts.domains.knapsack.cli import MCTS_SETTINGS
from hornermcts.search import check_problem, mcts


@st.composite
def instances(draw, max_items=9, max_weight=30):
    n = draw(st.integers(1, max_items))
    weights = draw(st.lists(st.integers(1, max_weight), min_size=n, max_size=n))
    values = draw(st.lists(st.integers(1, 50), min_size=n, max_size=n))
    capacity = draw(st.integers(0, sum(weights) + 2))
    return KnapsackInstance(tuple(values), tuple(weights), capacity)


def leaves(problem, state=None, path=()):
    state = problem.root() if state is None else state
    if not problem.moves(state):
        yield path, state
        return
    for move in problem.moves(state):
        yield from leaves(problem, problem.apply(state, move), path + (move,))


EXAMPLE = KnapsackInstance(values=(10, 40, 30, 50), weights=(5, 4, 6, 3), capacity=10)


# -- the oracles ------------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(instances(max_items=12, max_weight=60))
def test_dp_equals_brute_force(instance):
    value, items = knapsack_dp(instance)
    assert value == brute_force_knapsack(instance)[0]
    assert instance.value_of(items) == value


def test_dp_on_a_larger_instance_is_feasible_and_beats_greedy():
    instance = generate(200, seed=3, correlation="strong")
    value, items = knapsack_dp(instance)
    assert instance.value_of(items) == value
    greedy = Knapsack(instance)
    assert value >= greedy.reward(greedy.playout(greedy.root(), np.random.default_rng(0))[0])
    assert value <= greedy.bound(greedy.root())


def test_dp_refuses_huge_tables():
    with pytest.raises(OptionError, match="table"):
        knapsack_dp(KnapsackInstance((1,) * 1000, (1,) * 1000, 10**6))


# -- the tree problem -----------------------------------------------------------------------------------

def test_the_thesis_tree_on_an_example():
    problem = Knapsack(EXAMPLE)
    assert problem.order == (3, 1, 2, 0)
    root = problem.root()
    assert problem.moves(root) == (True, False) and problem.bound(root) == 105.0
    state = problem.apply(problem.apply(root, True), True)
    assert problem.moves(state) == () and problem.reward(state) == 90.0 and problem.items(state) == [1, 3]
    skip = problem.apply(problem.apply(root, False), True)  # 3 skipped for good, 1 packed: 6 + 5 > 6 left
    assert (skip.position, skip.capacity, problem.moves(skip)) == (2, 6, (True, False))
    assert problem.bound(skip) == 70.0  # 40 + 30: item 2 fills the 6 left
    last = problem.apply(skip, False)  # 2 skipped: 0 alone is left, and fits
    assert problem.moves(last) == () and problem.items(last) == [0, 1] and problem.reward(last) == 50.0


def test_everything_fits_at_the_root():
    problem = Knapsack(KnapsackInstance((1, 2, 3), (1, 1, 1), 5))
    assert problem.moves(problem.root()) == () and problem.reward(problem.root()) == 6.0


def test_items_heavier_than_the_capacity_are_dropped():
    problem = Knapsack(KnapsackInstance((100, 1, 1, 1), (20, 2, 2, 2), 5))
    root = problem.root()
    assert problem.bound(root) == 2.5  # the 20 is out; two 1s and half of the third
    assert max(problem.reward(leaf) for _, leaf in leaves(problem)) == 2.0


@settings(max_examples=120, deadline=None)
@given(instances())
def test_the_tree_holds_the_optimum_and_the_bound_holds(instance):
    problem = Knapsack(instance)
    optimum = knapsack_dp(instance)[0]
    found = list(leaves(problem))
    assert max(problem.reward(leaf) for _, leaf in found) == optimum
    for _, leaf in found:
        items = problem.items(leaf)
        assert instance.value_of(items) == leaf.value == problem.reward(leaf)
        assert leaf.capacity == instance.capacity - sum(instance.weights[i] for i in items) >= 0

    def check_bounds(state):
        best = max(problem.reward(leaf) for _, leaf in leaves(problem, state))
        assert problem.bound(state) >= best
        for move in problem.moves(state):
            check_bounds(problem.apply(state, move))

    check_bounds(problem.root())


@settings(max_examples=100, deadline=None)
@given(instances(max_items=14, max_weight=40), st.integers(0, 2**32 - 1))
def test_playouts_replay_through_apply(instance, seed):
    problem = Knapsack(instance)
    rng = np.random.default_rng(seed)
    state = problem.root()
    while True:
        leaf, moves = problem.playout(state, rng)
        replay = state
        for move in moves:
            assert move in problem.moves(replay)
            replay = problem.apply(replay, move)
        assert replay == leaf and problem.moves(leaf) == ()
        if not problem.moves(state):
            assert moves == [] and leaf == state
            break
        state = problem.apply(state, bool(rng.integers(2)))


@pytest.mark.parametrize("correlation", ["none", "weak", "strong"])
def test_the_protocol(correlation):
    check_problem(Knapsack(generate(25, seed=4, correlation=correlation, max_weight=100)), simulations=40, seed=0)


def test_playouts_are_uniform_coins():
    problem = Knapsack(generate(400, seed=1))
    _, moves = problem.playout(problem.root(), np.random.default_rng(5))
    assert len(moves) > 300 and 0.4 < np.mean(moves) < 0.6


def test_bad_moves_and_states():
    problem = Knapsack(EXAMPLE)
    with pytest.raises(OptionError, match="True .pack. or False"):
        problem.apply(problem.root(), 1)
    leaf = problem.apply(problem.apply(problem.root(), True), True)
    with pytest.raises(OptionError, match="no move from a leaf"):
        problem.apply(leaf, True)
    with pytest.raises(OptionError):
        Knapsack((1, 2))


# -- MCTS (the search core's thesis options) ----------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(instances(max_items=10, max_weight=40), st.integers(0, 1000))
def test_mcts_with_pruning_finds_and_proves_the_optimum(instance, seed):
    problem = Knapsack(instance)
    result = mcts(problem, iterations=20_000, prune=True, seed=seed, progress=None, **MCTS_SETTINGS)
    assert result.stopped == "exhausted" and result.proven
    assert result.best_value == knapsack_dp(instance)[0] == result.best_state.value
    replay = problem.root()
    for move in result.best_moves:
        replay = problem.apply(replay, move)
    assert replay == result.best_state and instance.value_of(problem.items(replay)) == result.best_value


def test_pruning_proves_with_fewer_simulations():
    instance = generate(14, seed=11, max_weight=60)
    problem = Knapsack(instance)
    pruned = mcts(problem, iterations=100_000, prune=True, seed=0, progress=None, **MCTS_SETTINGS)
    plain = mcts(problem, iterations=100_000, prune=False, seed=0, progress=None, **MCTS_SETTINGS)
    assert pruned.proven and plain.proven and pruned.best_value == plain.best_value == knapsack_dp(instance)[0]
    assert pruned.iterations * 20 < plain.iterations  # measured: 44 against 7491


def test_cli_mcts(capsys):
    assert main(["knapsack", "--generate", "12", "--seed", "5", "--method", "mcts", "-n", "5000"]) == 0
    out = capsys.readouterr().out
    assert f"value {knapsack_dp(generate(12, seed=5))[0]}," in out and "optimal (the tree is exhausted)" in out


# -- instances and files ------------------------------------------------------------------------------------

def test_generated_instances():
    a = generate(50, seed=7)
    assert a == generate(50, seed=7) != generate(50, seed=8)
    assert a.n == 50 and all(1 <= w <= 1000 for w in a.weights) and a.capacity == a.total_weight // 2
    strong = generate(30, seed=1, correlation="strong", max_weight=50)
    assert all(v == w + 5 for v, w in zip(strong.values, strong.weights))
    weak = generate(30, seed=1, correlation="weak", max_weight=50)
    assert all(v >= 1 and abs(v - w) <= 5 for v, w in zip(weak.values, weak.weights))
    for bad in (dict(n=0), dict(n=3, correlation="inverse"), dict(n=3, capacity_ratio=2.0), dict(n=3, max_weight=0)):
        with pytest.raises(OptionError):
            generate(seed=0, **bad)


def test_instance_checks_its_fields():
    for values, weights, capacity in [((1,), (0,), 3), ((1, 2), (1,), 3), ((), (), 3), ((1,), (1,), -1),
                                      ((True,), (1,), 1)]:
        with pytest.raises(OptionError):
            KnapsackInstance(values, weights, capacity)
    with pytest.raises(OptionError, match="more than the capacity"):
        EXAMPLE.value_of([0, 2])
    with pytest.raises(OptionError, match="distinct"):
        EXAMPLE.value_of([1, 1])


def test_file_round_trip(tmp_path):
    path = tmp_path / "k.txt"
    instance = generate(20, seed=2)
    write_instance(path, instance)
    assert read_instance(path) == instance
    path.write_text("# a knapsack\n10   # capacity\n\n10 5\n40 4 # the best ratio but one\n30 6\n50 3\n")
    assert read_instance(path) == EXAMPLE


@pytest.mark.parametrize(
    "text, line, col, reason",
    [
        ("10 20\n1 1\n", 1, 4, "the first line must hold the capacity alone"),
        ("-1\n1 1\n", 1, 1, "capacity '-1' is not an integer >= 0"),
        ("10\n1\n", 2, 1, "expected 'value weight', got 1 field(s)"),
        ("10\n1 2 3\n", 2, 5, "expected 'value weight', got 3 field(s)"),
        ("10\n0 2\n", 2, 1, "value '0' is not a positive integer"),
        ("10\n3  2.5\n", 2, 4, "weight '2.5' is not a positive integer"),
        ("10\n", 1, 1, "no item in the file"),
        ("# empty\n", 1, 1, "no capacity in the file"),
    ],
)
def test_file_errors_name_file_line_and_column(tmp_path, text, line, col, reason):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ParseError) as error:
        read_instance(path)
    assert (error.value.lineno, error.value.col) == (line, col) and reason in str(error.value)
    assert str(error.value).startswith(f"{path}:{line}:{col}:")


# -- the command line -----------------------------------------------------------------------------------------

def test_cli_dp(tmp_path, capsys):
    path = tmp_path / "k.txt"
    write_instance(path, EXAMPLE)
    assert main(["knapsack", str(path), "--method", "dp", "--show"]) == 0
    out = capsys.readouterr().out
    assert "value 90, weight 7 of 10, 2 items" in out and "optimal" in out
    assert "1: 40 4\n3: 50 3\n" in out
    assert main(["knapsack", "--generate", "30", "--seed", "1", "--method", "dp"]) == 0
    value = knapsack_dp(generate(30, seed=1))[0]
    assert f"value {value}," in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["knapsack", "--method", "dp"], "exactly one instance"),
        (["knapsack", "--generate", "0", "--method", "dp"], "positive int"),
        (["knapsack", "--generate", "5", "--method", "dp", "--time", "1"], "go with --method mcts"),
    ],
)
def test_cli_errors_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_bad_file(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("10\n1 x\n")
    assert main(["knapsack", str(path), "--method", "dp"]) == 2
    assert f"hornermcts: error: {path}:2:3:" in capsys.readouterr().err
