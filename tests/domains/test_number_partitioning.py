"""Number partitioning (thesis ch. 4): KK, the complete-KK tree and DFS, partitions, instances, CLI.

Oracles: brute force over all 2^N subsets on tiny instances, and an
independent enumeration of the whole complete-KK tree.
"""
from __future__ import annotations

import json
import math
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.cli import main
from hornermcts.domains.number_partitioning import (
    JOIN,
    SPLIT,
    THESIS_INSTANCES,
    THESIS_MCTS,
    NumberPartitioning,
    brute_force_partition,
    complete_kk,
    generate,
    karmarkar_karp,
    partition_from_moves,
    read_numbers,
    solve,
    thesis_instance,
    write_numbers,
)
from hornermcts.errors import OptionError
from hornermcts.parse import ParseError
from hornermcts.search import check_problem, mcts
from helpers.benchmarks import load_benchmark

small_numbers = st.lists(st.integers(1, 2**12), min_size=1, max_size=9)
wide_numbers = st.lists(st.integers(1, 2**70), min_size=1, max_size=9)
numbers_with_ties = st.lists(st.sampled_from([1, 2, 3, 5, 8, 8, 13]), min_size=1, max_size=10)


def check(numbers, partition, discrepancy):
    """The partition covers every index once and its sums differ by exactly ``discrepancy``."""
    assert sorted(partition.first + partition.second) == list(range(len(numbers)))
    first, second = partition.subsets(numbers)
    assert (sum(first), sum(second)) == partition.sums
    assert abs(sum(first) - sum(second)) == discrepancy == partition.discrepancy


def tree_leaves(problem, state=None, path=()):
    """Every leaf of the complete KK tree: (path, state)."""
    state = problem.root() if state is None else state
    moves = problem.moves(state)
    if not moves:
        yield path, state
        return
    for move in moves:
        yield from tree_leaves(problem, problem.apply(state, move), path + (move,))


# -- Karmarkar-Karp ----------------------------------------------------------------------------

def test_kk_on_the_thesis_example():
    assert karmarkar_karp([8, 7, 6, 5, 4]) == 2
    check([8, 7, 6, 5, 4], partition_from_moves([8, 7, 6, 5, 4], [SPLIT] * 4), 2)
    assert partition_from_moves([8, 7, 6, 5, 4], [SPLIT] * 4).subsets([8, 7, 6, 5, 4]) == ([8, 6], [7, 5, 4])


@given(st.lists(st.integers(1, 2**40), min_size=1, max_size=4))
def test_kk_is_exact_for_four_numbers_or_fewer(numbers):
    assert karmarkar_karp(numbers) == brute_force_partition(numbers).discrepancy


@given(wide_numbers)
def test_kk_path_gives_a_partition_of_its_discrepancy(numbers):
    e = karmarkar_karp(numbers)
    check(numbers, partition_from_moves(numbers, [SPLIT] * (len(numbers) - 1)), e)
    assert e >= brute_force_partition(numbers).discrepancy


# -- instances -----------------------------------------------------------------------------------

def test_generated_numbers_are_in_range_and_reproducible():
    numbers = generate(70, seed=3)
    assert len(numbers) == 70 and all(1 <= a < 2**70 for a in numbers)
    assert generate(70, seed=3) == numbers != generate(70, seed=4)
    assert max(numbers).bit_length() == 70  # 70 draws of 70 bits: the top bit is set in some
    assert thesis_instance("hard0200") == generate(200, seed=200)
    assert THESIS_INSTANCES[0] == "hard0100" and THESIS_INSTANCES[-1] == "hard1000"


def test_kk_on_random_100_bit_instances_matches_the_thesis_column():
    # docs/domains.md 0.1: the median log2(KK + 1) of 20 draws of N = 100 was 76.5 (Table 4.1's hard0100: 73.37)
    values = [math.log2(karmarkar_karp(generate(100, seed=seed)) + 1) for seed in range(20)]
    assert abs(statistics.median(values) - 76.5) < 3


@pytest.mark.parametrize("bad", [0, -1, 1.5, "3"])
def test_generate_rejects_bad_sizes(bad):
    with pytest.raises(OptionError):
        generate(bad, seed=0)


def test_numbers_file_round_trip_with_comments(tmp_path):
    path = tmp_path / "n.txt"
    numbers = generate(80, seed=1)
    write_numbers(path, numbers)
    assert read_numbers(path) == numbers
    path.write_text("# five numbers\n8\n\n7 # seven\n  6\n5\n4\n")
    assert read_numbers(path) == [8, 7, 6, 5, 4]


@pytest.mark.parametrize(
    "text, line, reason",
    [
        ("8\n7\nseven\n", 3, "'seven' is not an integer"),
        ("8\n0\n", 2, "0 is not a positive integer"),
        ("8\n-3\n", 2, "-3 is not a positive integer"),
        ("8 7\n", 1, "expected one integer per line"),
        ("1.5\n", 1, "'1.5' is not an integer"),
        ("# nothing\n\n", 2, "no numbers in the file"),
    ],
)
def test_numbers_file_errors_name_file_and_line(tmp_path, text, line, reason):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ParseError) as error:
        read_numbers(path)
    assert error.value.lineno == line and reason in str(error.value)
    assert str(error.value).startswith(f"{path}:{line}:")


# -- the tree problem ------------------------------------------------------------------------------

def test_problem_on_the_thesis_example():
    problem = NumberPartitioning([8, 7, 6, 5, 4])
    root = problem.root()
    assert problem.moves(root) == (SPLIT, JOIN)
    leaf, moves = problem.playout(root, None)
    assert moves == [SPLIT] and problem.discrepancy(leaf) == 2 and problem.cost(leaf) == math.log2(3)
    join = problem.apply(root, JOIN)
    assert problem.moves(join) == () and problem.discrepancy(join) == 0
    assert problem.values(root) == [4, 5, 6, 7, 8] and root == problem.root()


@settings(max_examples=60, deadline=None)
@given(st.one_of(small_numbers, wide_numbers, numbers_with_ties))
def test_the_tree_holds_exactly_the_optimum(numbers):
    problem = NumberPartitioning(numbers)
    optimum = brute_force_partition(numbers).discrepancy
    leaves = list(tree_leaves(problem))
    discrepancies = [problem.discrepancy(leaf) for _, leaf in leaves]
    assert min(discrepancies) == optimum
    for (path, leaf), e in zip(leaves, discrepancies):
        check(numbers, partition_from_moves(numbers, path), e)
        assert problem.cost(leaf) == math.log2(e + 1)
        assert sorted(problem.values(leaf)) == problem.values(leaf)


@settings(max_examples=60, deadline=None)
@given(st.one_of(small_numbers, wide_numbers, numbers_with_ties), st.randoms(use_true_random=False))
def test_states_playouts_and_bounds_agree_along_random_paths(numbers, random):
    problem = NumberPartitioning(numbers)
    state = problem.root()
    path: list = []
    while True:
        values = problem.values(state)
        assert sum(values) == state.total and len(values) == problem.size(state)
        # the simulation is KK from here: its leaf is what replaying its moves reaches
        leaf, steps = problem.descend(state)
        moves = [SPLIT] * steps
        assert problem.playout(state, None) == (leaf, moves)
        replay = state
        for move in moves:
            replay = problem.apply(replay, move)
        assert replay == leaf and problem.moves(leaf) == ()
        assert problem.discrepancy(leaf) <= karmarkar_karp(values)
        # the bound is below every leaf of the subtree
        best_below = min(problem.cost(x) for _, x in tree_leaves(problem, state))
        assert problem.bound(state) <= best_below
        legal = problem.moves(state)
        if not legal:
            break
        move = random.choice(legal)
        child = problem.apply(state, move)
        assert problem.values(state) == values  # not mutated
        state = child
        path.append(move)
    check(numbers, partition_from_moves(numbers, path), problem.discrepancy(state))


limb_edges = st.sampled_from([1, 2**32 - 1, 2**32, 2**32 + 1, 2**64 - 1, 2**64, 2**96 + 7])
long_numbers = st.lists(st.one_of(st.integers(1, 2**200), limb_edges, st.integers(1, 40)), min_size=5, max_size=80)


@settings(max_examples=60, deadline=None)
@given(long_numbers, st.lists(st.sampled_from([SPLIT, JOIN]), max_size=12))
def test_the_compiled_kk_reaches_the_leaf_the_moves_reach(numbers, prefix):
    """The multi-limb kernel against the Python moves: its leaf is what applying SPLIT ``steps`` times gives."""
    problem = NumberPartitioning(numbers)
    state = problem.root()
    for move in prefix:  # a tree state with made numbers (sums and differences across limbs)
        if not problem.moves(state):
            break
        state = problem.apply(state, move)
    leaf, steps = problem.descend(state)
    replay = state
    while problem.moves(replay):
        replay = problem.apply(replay, SPLIT)
        steps -= 1
    assert leaf == replay and steps == 0
    assert sum(problem.values(leaf)) == leaf.total


@given(st.lists(st.integers(0, 2**300), max_size=6), st.integers(10, 12))
def test_limb_rows_round_trip(numbers, limbs):
    from hornermcts.domains.number_partitioning.kernels import from_limbs, to_limbs

    rows = to_limbs(numbers, limbs)
    assert rows.shape == (len(numbers), limbs) and rows.dtype.itemsize == 4
    assert [from_limbs(row) for row in rows] == numbers


def test_one_kk_run_serves_both_children():
    problem = NumberPartitioning(generate(60, seed=2))
    root = problem.root()
    leaf, moves = problem.playout(root, None)
    split = problem.apply(root, SPLIT)
    assert problem.kk_runs == 1
    assert problem.playout(split, None) == (leaf, moves[1:])  # from the cache
    assert problem.kk_runs == 1
    assert problem.playout(split, None) == (leaf, moves[1:])  # computed again: the same
    assert problem.kk_runs == 2
    problem.playout(problem.apply(root, JOIN), None)
    assert problem.kk_runs == 3


def test_problem_rejects_bad_numbers_and_moves():
    with pytest.raises(OptionError, match="positive ints"):
        NumberPartitioning([3, 0])
    with pytest.raises(OptionError, match="at least one"):
        NumberPartitioning([])
    problem = NumberPartitioning([3, 2, 2, 1, 1, 1])
    with pytest.raises(OptionError, match="unknown move"):
        problem.apply(problem.root(), "swap")
    with pytest.raises(OptionError, match="leaves only"):
        problem.discrepancy(problem.root())


def test_partition_from_moves_rejects_bad_paths():
    with pytest.raises(OptionError, match="move 2"):
        partition_from_moves([1, 2, 3], [SPLIT, "x"])
    with pytest.raises(OptionError, match="no move is left"):
        partition_from_moves([1, 2, 3], [SPLIT, SPLIT, SPLIT])


@pytest.mark.parametrize("numbers", [generate(40, seed=1), generate(200, seed=2), [5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 9],
                                     [2**80, 3, 3, 2, 2, 1, 1]])
def test_the_protocol(numbers):
    check_problem(NumberPartitioning(numbers), simulations=30, seed=0)


# -- MCTS (the search core's thesis options) ----------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.one_of(small_numbers, wide_numbers, numbers_with_ties), st.booleans())
def test_mcts_finds_and_proves_the_optimum_on_tiny_instances(numbers, prune):
    problem = NumberPartitioning(numbers)
    result = mcts(problem, iterations=50_000, seed=0, progress=None, target=problem.target, prune=prune,
                  **THESIS_MCTS)
    optimum = brute_force_partition(numbers).discrepancy
    assert result.stopped in ("exhausted", "target")
    assert result.proven == (result.stopped == "exhausted")
    e = problem.discrepancy(result.best_state)
    assert e == optimum and result.best_value == math.log2(e + 1)
    check(numbers, partition_from_moves(numbers, result.best_moves), e)


def test_mcts_runs_one_kk_for_two_children():
    problem = NumberPartitioning(generate(60, seed=4))
    result = mcts(problem, iterations=600, seed=1, progress=None, **THESIS_MCTS)
    assert result.iterations == 600 and result.stopped == "iterations"
    # the root, then one KK run per expanded node: its JOIN child (the SPLIT child comes from the cache)
    assert problem.kk_runs <= result.iterations // 2 + 2


def test_mcts_stops_at_the_first_perfect_partition():
    numbers = generate(24, seed=6)
    numbers = [a >> 12 for a in numbers]  # 24 numbers of 12 bits: perfect partitions abound, KK misses them
    numbers = [a or 1 for a in numbers]
    solution = solve(numbers, "mcts", seconds=5.0)
    assert solution.stopped == "target" and solution.discrepancy <= 1
    assert solution.seconds < 4.0
    check(numbers, solution.partition, solution.discrepancy)


def test_solve_mcts_improves_on_kk_and_reports_its_history():
    numbers = generate(60, seed=3)
    solution = solve(numbers, "mcts", seconds=0.5, seed=2)
    check(numbers, solution.partition, solution.discrepancy)
    kk = math.log2(karmarkar_karp(numbers) + 1)
    assert solution.history[0][1] == kk and solution.value < kk - 2
    assert solution.history[-1][1] == solution.value
    assert all(a[0] <= b[0] and a[1] > b[1] for a, b in zip(solution.history, solution.history[1:]))
    assert 0.5 <= solution.seconds < 1.5 and solution.simulations > 100 and solution.stopped == "time"
    with pytest.raises(OptionError, match="apply to mcts only"):
        solve(numbers, "dfs", seconds=0.1, prune=True)


# -- complete KK DFS --------------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(st.one_of(small_numbers, wide_numbers, numbers_with_ties))
def test_dfs_is_exact_on_tiny_instances(numbers):
    result = complete_kk(numbers)
    assert result.proven and result.stopped in ("exhausted", "target")
    assert result.discrepancy == brute_force_partition(numbers).discrepancy
    assert result.best_value == math.log2(result.discrepancy + 1)
    check(numbers, partition_from_moves(numbers, result.best_moves), result.discrepancy)
    # anytime: the first incumbent is KK's, and each next one is better
    assert result.history[0][1] == math.log2(karmarkar_karp(numbers) + 1)
    assert all(a[1] > b[1] for a, b in zip(result.history, result.history[1:]))
    assert all(a[0] <= b[0] for a, b in zip(result.incumbents, result.incumbents[1:]))


def test_dfs_stops_at_a_perfect_partition():
    numbers = [8, 7, 6, 5, 4]
    result = complete_kk(numbers)
    assert (result.discrepancy, result.stopped, result.proven) == (0, "target", True)


def test_dfs_under_a_time_limit_improves_on_kk():
    numbers = generate(100, seed=100)
    result = complete_kk(numbers, time_limit=0.5)
    assert result.stopped == "time" and not result.proven
    assert 0.5 <= result.elapsed < 1.5
    assert result.best_value < math.log2(karmarkar_karp(numbers) + 1) - 3
    assert result.iterations > 10_000
    check(numbers, partition_from_moves(numbers, result.best_moves), result.discrepancy)
    assert result.incumbents[-1][1] == result.best_value and result.incumbents[-1][0] <= result.elapsed


def test_dfs_node_budget_and_errors():
    numbers = [9923, 9517, 9025, 7688, 4250, 1074, 216]
    assert complete_kk(numbers, nodes=3).discrepancy == karmarkar_karp(numbers) == 1217
    assert complete_kk(numbers, nodes=3).iterations == 3
    assert complete_kk(numbers).discrepancy == 233
    for bad in (dict(time_limit=0), dict(nodes=0), dict(clock="gpu")):
        with pytest.raises(OptionError):
            complete_kk(numbers, **bad)


# -- solve and the command line ------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["kk", "dfs"])
def test_solve_returns_checked_solutions(method):
    numbers = generate(40, seed=5)
    solution = solve(numbers, method, seconds=0.3)
    check(numbers, solution.partition, solution.discrepancy)
    assert solution.value == math.log2(solution.discrepancy + 1)
    assert solution.history[-1][1] == solution.value
    assert solution.seconds < 1.5
    with pytest.raises(OptionError, match="unknown method"):
        solve(numbers, "greedy")


def test_cli_kk_and_dfs(tmp_path, capsys):
    path = tmp_path / "five.txt"
    path.write_text("8\n7\n6\n5\n4\n")
    assert main(["partition", str(path), "--method", "kk", "--show"]) == 0
    out = capsys.readouterr().out
    assert "E = 2\n" in out and "log2(E+1) = 1.58" in out and "sums: 14 (2 numbers) and 16 (3 numbers)" in out
    assert "first:  8 6\n" in out and "second: 7 5 4\n" in out
    assert main(["partition", str(path), "--method", "dfs", "--time", "1"]) == 0
    out = capsys.readouterr().out
    assert "E = 0\n" in out and "optimal" in out
    assert main(["partition", "--generate", "30", "--seed", "2", "--method", "dfs", "--time", "0.2"]) == 0
    out = capsys.readouterr().out
    e = int(out.split("E = ")[1].split()[0])
    numbers = generate(30, seed=2)
    assert e <= karmarkar_karp(numbers)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["partition", "--method", "kk"], "exactly one instance"),
        (["partition", "--generate", "0", "--method", "kk"], "positive int"),
        (["partition", "--generate", "5", "--time", "0"], "--time must be > 0"),
        (["partition", "--generate", "5", "--method", "kk", "--prune"], "--prune goes with"),
        (["partition", "--generate", "5", "--instance", "hard0100"], "exactly one instance"),
    ],
)
def test_cli_errors_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_mcts(capsys):
    assert main(["partition", "--generate", "14", "--seed", "3", "--method", "mcts", "--time", "2", "--prune"]) == 0
    out = capsys.readouterr().out
    e = int(out.split("E = ")[1].split()[0])
    assert e == brute_force_partition(generate(14, seed=3)).discrepancy
    assert "stopped: exhausted, optimal" in out or "stopped: target" in out


def test_cli_bad_file_names_file_and_line(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("8\nx\n")
    assert main(["partition", str(path), "--method", "kk"]) == 2
    assert f"hornermcts: error: {path}:2:1:" in capsys.readouterr().err
    assert main(["partition", str(tmp_path / "missing.txt"), "--method", "kk"]) == 2


def test_brute_force_on_wide_numbers_uses_exact_ints():
    numbers = [2**70 + 1, 2**70, 1]
    assert brute_force_partition(numbers).discrepancy == 0
    assert brute_force_partition([2**61, 2**61 - 3, 2]).discrepancy == 1  # the int64 path
    with pytest.raises(OptionError):
        brute_force_partition(list(range(1, 30)))


# -- benchmarks/thesis_partitioning.py ------------------------------------------------------------------------


def test_the_table_on_a_tiny_budget(tmp_path):
    bench = load_benchmark("thesis_partitioning")
    out = tmp_path / "rows.jsonl"
    rows = bench.table(0.2, [3], ["hard0100"], out=str(out))
    assert [(r["instance"], r["method"], r["seed"]) for r in rows] == [
        ("hard0100", "kk", None), ("hard0100", "dfs", None), ("hard0100", "mcts", 3)]
    assert [json.loads(line) for line in out.read_text().splitlines()] == rows
    numbers = thesis_instance("hard0100")
    kk = math.log2(karmarkar_karp(numbers) + 1)
    for row in rows:
        bench.check_row(row)  # the partition rebuilt from the moves has the discrepancy reported
        partition = partition_from_moves(numbers, [SPLIT if c == "s" else JOIN for c in row["moves"]])
        check(numbers, partition, int(row["discrepancy"]))
        assert row["n"] == 100 and row["budget"] == 0.2 and row["value"] <= kk
        assert row["history"][-1][1] == row["value"] and row["history"][0][1] == kk
        assert all(a[0] <= b[0] and a[1] > b[1] for a, b in zip(row["history"], row["history"][1:]))
    kk_row, dfs_row, mcts_row = rows
    assert kk_row["simulations"] == 1 and kk_row["value"] == kk
    assert dfs_row["stopped"] == "time" and 0.2 <= dfs_row["cpu_seconds"] < 1.0 and dfs_row["simulations"] > 1000
    assert mcts_row["stopped"] == "time" and 0.2 <= mcts_row["cpu_seconds"] < 1.0 and mcts_row["simulations"] > 100
    text = bench.format_table(rows)
    assert "hard0100" in text and "73.37" in text and "54.56" in text
    with pytest.raises(OptionError, match="unknown instance"):
        bench.table(0.1, 1, ["hard0150"])
    broken = dict(mcts_row, discrepancy=str(int(mcts_row["discrepancy"]) + 2))
    with pytest.raises(AssertionError):
        bench.check_row(broken)
