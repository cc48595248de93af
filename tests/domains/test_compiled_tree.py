"""Number partitioning's compiled MCTS tree (compiled_tree.py, tree_kernels.py) against the generic search.

Oracles: brute force over all subsets on tiny instances; the generic
:func:`hornermcts.search.mcts` with THESIS_MCTS, which must find the same
values at the same iteration counts (the same algorithm: the same tree, the
same floats); CPython's float(int) and math.log2 for the limb conversions;
the partition recomputed from the returned path.
"""
from __future__ import annotations

import math
import random
from time import process_time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.domains.number_partitioning import (
    THESIS_MCTS,
    NumberPartitioning,
    brute_force_partition,
    generate,
    partition_from_moves,
    solve,
)
from hornermcts.domains.number_partitioning.compiled_tree import compiled_mcts
from hornermcts.domains.number_partitioning.kernels import limbs_log2, limbs_to_float, to_limbs
from hornermcts.errors import OptionError
from hornermcts.search import mcts

small_numbers = st.lists(st.integers(1, 2**12), min_size=1, max_size=12)
wide_numbers = st.lists(st.integers(1, 2**70), min_size=1, max_size=12)
numbers_with_ties = st.lists(st.sampled_from([1, 2, 3, 5, 8, 8, 13]), min_size=1, max_size=12)
CORE = {k: v for k, v in THESIS_MCTS.items() if k != "clock"}


def test_limb_rows_convert_to_floats_and_logs_as_cpython_does():
    draw = random.Random(5)
    for _ in range(3000):
        bits = draw.choice([1, 31, 32, 33, 53, 54, 64, 65, 96, 97, 300, 1000, 1024, 1100])
        x = draw.getrandbits(bits) or 1
        if draw.random() < 0.4:  # halfway cases and their neighbours: 54 significant bits, then zeros
            x = ((draw.getrandbits(53) | 1 << 52) << 1 | 1) << draw.randrange(0, 200)
            x += draw.choice([-1, 0, 1])
        limbs = -(-x.bit_length() // 32) + draw.randrange(3)
        row = to_limbs([x], limbs)
        expected = float(x) if x.bit_length() <= 1024 else math.inf
        assert limbs_to_float(row, 0, limbs) == expected
        assert limbs_log2(row, 0, limbs) == math.log2(x)


@settings(max_examples=60, deadline=None)
@given(st.one_of(small_numbers, wide_numbers, numbers_with_ties), st.integers(0, 3))
def test_the_compiled_tree_finds_the_optimum_on_tiny_instances(numbers, seed):
    result = compiled_mcts(numbers, iterations=50_000, seed=seed)
    assert result.stopped in ("exhausted", "target")
    assert result.proven == (result.stopped == "exhausted")
    assert result.discrepancy == brute_force_partition(numbers).discrepancy
    partition = partition_from_moves(numbers, result.moves)
    assert partition.discrepancy == result.discrepancy and result.value == math.log2(result.discrepancy + 1)


@settings(max_examples=25, deadline=None)
@given(st.one_of(small_numbers, wide_numbers, numbers_with_ties), st.integers(1, 400))
def test_the_compiled_tree_is_the_core_search_at_equal_iterations(numbers, iterations):
    """The same values, at most one simulation apart: a visit simulates both children of a node, each search in
    its own random order (hypothesis found [2, 2, 3, 3, 3, 3, 3, 5]: the perfect partition at the 8th simulation
    of the tree, the 9th of the core); so which stop comes first (the target, or the tree exhausted) may differ too."""
    def core(n):
        return mcts(NumberPartitioning(numbers), iterations=n, seed=0, progress=None, target=1.0, **CORE)

    def tree(n):
        return compiled_mcts(numbers, iterations=n, seed=0)

    now_core, now_tree = core(iterations), tree(iterations)
    assert now_tree.iterations <= iterations and now_core.iterations <= iterations
    if now_tree.value != now_core.best_value:  # one simulation later, each has what the other had
        assert tree(iterations + 1).value <= now_core.best_value
        assert core(iterations + 1).best_value <= now_tree.value


@pytest.mark.parametrize("n, iterations", [(40, 3001), (100, 2001), (300, 601)])
def test_the_compiled_tree_improves_where_the_core_does(n, iterations):
    # both children of a node are simulated in one visit, each search in its own random order, so an improvement
    # may come one simulation apart; after each whole visit (1 + 2k simulations) the values are the same
    numbers = generate(n, seed=n + 11)
    core = mcts(NumberPartitioning(numbers), iterations=iterations, seed=0, progress=None, target=1.0, **CORE)
    tree = compiled_mcts(numbers, iterations=iterations, seed=0)
    assert tree.value == core.best_value and tree.iterations == iterations
    assert [value for _, value, _ in tree.history] == [value for _, value in core.history]
    assert all(abs(a[0] - b[0]) <= 1 for a, b in zip(tree.history, core.history))


def test_the_returned_path_gives_the_reported_partition():
    numbers = generate(120, seed=8)
    solution = solve(numbers, "mcts", seconds=0.3, seed=1)
    partition = partition_from_moves(numbers, solution.moves)
    assert partition.discrepancy == solution.discrepancy
    assert abs(sum(numbers[i] for i in partition.first) - sum(numbers[i] for i in partition.second)) == \
        solution.discrepancy
    assert solution.value == math.log2(solution.discrepancy + 1) and solution.simulations > 1000


def test_the_time_limit_counts_search_only_and_is_kept():
    numbers = generate(200, seed=9)
    compiled_mcts(numbers, iterations=5)  # compiled (or loaded from the cache) here, not below
    start = process_time()
    result = compiled_mcts(numbers, time_limit=0.4, seed=0)
    used = process_time() - start
    assert result.stopped == "time" and 0.4 <= result.seconds < 0.45
    assert used < 0.6 and result.iterations > 2000
    assert result.history[-1][2] <= result.seconds


def test_solve_picks_the_engine():
    numbers = generate(50, seed=2)
    assert solve(numbers, "mcts", seconds=0.2, engine="core").simulations < solve(numbers, "mcts", seconds=0.2,
                                                                                   cp=1.0).simulations
    with pytest.raises(OptionError, match="need engine='core'"):
        solve(numbers, "mcts", seconds=0.1, engine="compiled", prune=True)
    with pytest.raises(OptionError, match="engine must be"):
        solve(numbers, "mcts", seconds=0.1, engine="gpu")
    with pytest.raises(OptionError, match="no budget"):
        compiled_mcts(numbers)
