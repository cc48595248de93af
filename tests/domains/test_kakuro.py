"""Kakuro from row and column sums (Cazenave 2024, sec. 4.2): instances, files, checker, playout, prior, CLI."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.cli import main
from hornermcts.domains.kakuro import (
    PRIOR_CODES,
    Kakuro,
    KakuroInstance,
    generate,
    is_solution,
    learn_prior,
    read_instance,
    sums_matched,
    training_instances,
    violations,
    write_instance,
)
from hornermcts.domains.kakuro import kernels
from hornermcts.domains.latin_square import search, search_seed
from hornermcts.errors import OptionError
from hornermcts.parse import ParseError
from hornermcts.search import Prior, check_problem, nrpa
from hornermcts.search.policy import softmax_playout
from helpers.benchmarks import load_benchmark

SMALL = KakuroInstance((8, 7, 7), (7, 8, 7), 4, [[1, 3, 4], [4, 1, 2], [2, 4, 1]])


def domains(grid: np.ndarray, values: int) -> dict:
    """Cell -> values allowed by all-different forward checking, for every empty cell (the oracle)."""
    size = grid.shape[0]
    return {r * size + c: set(range(1, values + 1)) - set(grid[r].tolist()) - set(grid[:, c].tolist())
            for r in range(size) for c in range(size) if grid[r, c] == 0}


# -- instances, files, checker ---------------------------------------------------------------------------

@pytest.mark.parametrize("size, values", [(10, 11), (5, 5), (6, 9)])
def test_generated_instances_keep_the_sums_of_a_valid_square(size, values):
    instance = generate(size, values, seed=3)
    square = instance.solution.astype(np.int64)
    assert is_solution(instance, square)
    assert instance.row_sums == tuple(square.sum(axis=1)) and instance.col_sums == tuple(square.sum(axis=0))
    assert generate(size, values, seed=3) == instance and generate(size, values, seed=4) != instance
    if (size, values) == (10, 11):   # each line omits one value of 1..11: its sum is 66 minus that value
        for line in list(square) + list(square.T):
            assert sum(line) == 66 - (set(range(1, 12)) - set(line.tolist())).pop()


def test_files_round_trip(tmp_path):
    instance = generate(seed=1)
    write_instance(tmp_path / "a.txt", instance)
    assert read_instance(tmp_path / "a.txt") == instance
    bare = KakuroInstance(instance.row_sums, instance.col_sums, 11)
    write_instance(tmp_path / "b.txt", bare)
    assert read_instance(tmp_path / "b.txt") == bare and read_instance(tmp_path / "b.txt").solution is None


@pytest.mark.parametrize("text, where, reason", [
    ("3\n", "1:1", "expected 'size values'"),
    ("3 4\n7 8\n", "2:1", "expected 3 column sums"),
    ("3 4\n7 8 7\n8 1 3 4\n7\n", "4:1", "every row gives its solution values, or none does"),
    ("3 4\n7 8 7\n8\n7 x\n", "4:3", "'x' is not a non-negative integer"),
    ("3 4\n7 8 7\n8\n7\n", "4:1", "the file ends early"),
    ("3 4\n7 8 7\n8\n7\n3\n", "5:1", "row 3 sums to 3"),
    ("3 4\n7 8 7\n8 1 3 4\n7 4 1 2\n7 2 1 4\n", "5:1", "the solution breaks the rules"),
])
def test_reader_names_file_line_and_column(tmp_path, text, where, reason):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ParseError) as error:
        read_instance(path)
    assert f"bad.txt:{where}: " in str(error.value) and reason in str(error.value)


def test_checker_accepts_the_solution_and_catches_each_broken_rule():
    square = SMALL.solution.astype(np.int64)
    assert is_solution(SMALL, square) and sums_matched(SMALL, square) == 6
    swapped = square.copy()
    swapped[:, [0, 1]] = swapped[:, [1, 0]]            # still all-different; columns 1 and 2 swap their sums
    assert violations(SMALL, swapped) == ["column 1 sums to 8, not 7", "column 2 sums to 7, not 8"]
    assert sums_matched(SMALL, swapped) == 4
    doubled = square.copy()
    doubled[0, 0] = 3
    assert "value 3 twice in row 1 (columns 1 and 2)" in violations(SMALL, doubled)
    blank = square.copy()
    blank[2, 1] = 0
    assert violations(SMALL, blank) == ["1 blank cells, first (3, 2)"]
    assert violations(SMALL, np.where(square == 4, 5, square))[0].startswith("3 values outside 1..4")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.data())
def test_changing_any_cell_breaks_a_solution(seed, data):
    instance = generate(6, 8, seed=seed)
    square = instance.solution.astype(np.int64)
    r, c = data.draw(st.integers(0, 5)), data.draw(st.integers(0, 5))
    broken = square.copy()
    broken[r, c] = data.draw(st.sampled_from([v for v in range(1, 9) if v != square[r, c]]))
    found = violations(instance, broken)
    assert found and sums_matched(instance, broken) <= 10


def test_instances_refuse_impossible_hints():
    with pytest.raises(OptionError, match="sums to 5"):
        KakuroInstance((5, 7, 7), (7, 8, 7), 4)
    with pytest.raises(OptionError, match="3 row sums but 2"):
        KakuroInstance((8, 7, 7), (7, 8), 4)
    with pytest.raises(OptionError, match="values must be in 3..62"):
        KakuroInstance((6, 6, 6), (6, 6, 6), 2)


# -- the problem ---------------------------------------------------------------------------------------

def test_moves_are_the_domain_of_the_first_smallest_domain_cell():
    problem = Kakuro(generate(seed=2))
    rng = np.random.default_rng(0)
    state = problem.root()
    while True:
        grid = problem.grid(state).astype(np.int64)
        dom = domains(grid, 11)
        legal = problem.moves(state)
        if not dom or min(len(d) for d in dom.values()) == 0:
            assert legal == ()
            break
        smallest = min(len(d) for d in dom.values())
        cell = min(c for c, d in dom.items() if len(d) == smallest)
        assert [problem.decode(m) for m in legal] == [(cell // 10, cell % 10, v) for v in sorted(dom[cell])]
        state = problem.apply(state, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("code", PRIOR_CODES)
def test_the_protocol_holds(code):
    check_problem(Kakuro(generate(seed=1), code=code), simulations=10)
    check_problem(Kakuro(SMALL, code=code), simulations=20)


def test_reward_empty_cells_then_matched_lines():
    problem = Kakuro(SMALL)
    state = problem.root()
    assert problem.reward(state) == -9.0
    for move in problem.solution_moves():
        state = problem.apply(state, move)
    assert problem.reward(state) == 6.0 and problem.is_solved(state)
    assert np.array_equal(problem.grid(state), SMALL.solution)
    big = Kakuro(generate(seed=8))
    for seed in range(20):
        final, _ = big.playout(big.root(), np.random.default_rng(seed))
        grid = big.grid(final)
        if (grid == 0).any():
            assert big.reward(final) == -float((grid == 0).sum())
            assert min(len(d) for d in domains(grid.astype(np.int64), 11).values()) == 0
        else:
            assert big.reward(final) == float(sums_matched(big.instance, grid))


def test_apply_refuses_illegal_moves():
    problem = Kakuro(SMALL)
    state = problem.apply(problem.root(), problem.encode(0, 0, 1))
    with pytest.raises(OptionError, match="not legal"):
        problem.apply(state, problem.encode(0, 1, 1))
    with pytest.raises(OptionError, match="not legal"):
        problem.apply(state, problem.encode(0, 0, 2))


# -- codes -------------------------------------------------------------------------------------------------

def test_prior_codes_by_hand():
    problem = Kakuro(SMALL)
    hints = Kakuro(SMALL, code="hints")
    state = problem.root()
    for move in [(0, 0, 1), (1, 1, 1)]:
        state = problem.apply(state, problem.encode(*move))
    # value 3 at (0, 1): row 0 has 1; its empty cells (0, 1), (0, 2) both allow 3 -> rc = 2;
    # column 1 has 1 at (1, 1); empty (0, 1), (2, 1) allow 3 -> cc = 2; sums left: row 8 - 1 = 7, column 8 - 1 = 7
    move = problem.encode(0, 1, 3)
    assert problem.unpack_prior_code(problem.prior_code(state, move)) == (3, 2, 2, 7, 7)
    assert hints.unpack_prior_code(hints.prior_code(state, move)) == (3, 2, 2, 8, 8)
    # value 2 at (2, 2): row 2 empty, (2, 0) allows 2? column 0 has 1 -> yes; (2, 1), (2, 2) yes -> rc = 3;
    # column 2: (0, 2), (1, 2)? row 1 has 1 only -> yes, (2, 2) -> cc = 3; sums left 7 and 7
    assert problem.unpack_prior_code(problem.prior_code(state, problem.encode(2, 2, 2))) == (2, 3, 3, 7, 7)
    first, second, _, _ = kernels.code_counts(3, 4)
    assert problem.prior_code(state, move) < first <= hints.prior_code(state, move) < first + second
    assert kernels.code_counts(10, 11) == (7_288_556, 161_051, 60_236, 7_288_556)
    assert kernels.sum_range(10, 11) == (-8, 65)


def test_the_kinds_of_code_occupy_consecutive_disjoint_ranges():
    ranges = kernels.code_offsets(4, 5)
    assert list(ranges) == list(PRIOR_CODES) == ["remaining", "hints", "sums", "filled"]
    ends = [0] + [r.stop for r in ranges.values()]
    assert [r.start for r in ranges.values()] == ends[:-1]
    assert ends[-1] == Kakuro(generate(4, 5)).prior_code_count == sum(kernels.code_counts(4, 5))


@pytest.mark.parametrize("kind", ["sums", "filled"])
def test_the_new_kinds_pack_a_bijection_on_their_range(kind):
    problem = Kakuro(generate(3, 4), code=kind)
    low, high = kernels.sum_range(3, 4)
    codes = problem.prior_codes
    fields = [problem.unpack_prior_code(c) for c in codes]
    sums = [(a, b) for a in range(low, high + 1) for b in range(low, high + 1)]
    if kind == "sums":
        expected = [(v,) + ab for v in range(1, 5) for ab in sums]
    else:
        expected = [(v, r, c) + ab for v in range(1, 5) for r in range(4) for c in range(4) for ab in sums]
    assert fields == expected             # every code of the range unpacks to one tuple, all tuples once, in order


def oracle_code(problem: Kakuro, grid: np.ndarray, row: int, col: int, value: int) -> tuple:
    """The fields of the ``sums`` and ``filled`` codes of putting ``value`` at (row, col), from their definitions."""
    low, high = problem.low, problem.high
    left_row = min(max(problem.instance.row_sums[row] - int(grid[row].sum()), low), high)
    left_col = min(max(problem.instance.col_sums[col] - int(grid[:, col].sum()), low), high)
    if problem.code == "sums":
        return value, left_row, left_col
    return value, int((grid[row] > 0).sum()), int((grid[:, col] > 0).sum()), left_row, left_col


@pytest.mark.parametrize("kind", ["sums", "filled"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 24))
def test_the_new_kinds_equal_their_definition_along_playouts(kind, seed, steps):
    problem = Kakuro(generate(5, 6, seed=seed % 7), code=kind)
    rng = np.random.default_rng(seed)
    state = problem.root()
    for _ in range(steps):
        legal = problem.moves(state)
        if not legal:
            break
        grid = problem.grid(state)
        for move in legal:
            code = problem.prior_code(state, move)
            assert code in problem.prior_codes
            assert problem.unpack_prior_code(code) == oracle_code(problem, grid, *problem.decode(move))
        state = problem.apply(state, legal[int(rng.integers(len(legal)))])


def test_the_sums_code_by_hand_and_what_it_ignores():
    sums = Kakuro(SMALL, code="sums")
    filled = Kakuro(SMALL, code="filled")
    state = sums.root()
    for move in [(0, 0, 1), (1, 1, 1)]:
        state = sums.apply(state, sums.encode(*move))
    # 3 at (0, 1): row 0 holds 1 (hint 8: 7 left), column 1 holds 1 (hint 8: 7 left); 2 at (2, 2): nothing placed
    assert sums.unpack_prior_code(sums.prior_code(state, sums.encode(0, 1, 3))) == (3, 7, 7)
    assert sums.unpack_prior_code(sums.prior_code(state, sums.encode(2, 2, 2))) == (2, 7, 7)
    assert filled.unpack_prior_code(filled.prior_code(state, sums.encode(0, 1, 3))) == (3, 1, 1, 7, 7)
    assert filled.unpack_prior_code(filled.prior_code(state, sums.encode(2, 2, 2))) == (2, 0, 0, 7, 7)
    # the literal reading ignores how often the value appears in the line (always 0 for a legal move) and the
    # domains: 4 at (2, 2) after (0, 0) = 4, (1, 1) = 4 has the same sums left as after nothing, and the same
    # code, although 4 left the domains of (2, 0), (2, 1), (0, 2), (1, 2) (the 'remaining' code sees rc = cc = 1)
    other = sums.root()
    for move in [(0, 0, 4), (1, 1, 4)]:
        other = sums.apply(other, sums.encode(*move))
    move = sums.encode(2, 2, 4)
    assert sums.prior_code(other, move) == sums.prior_code(sums.root(), move)
    remaining = Kakuro(SMALL)
    assert remaining.unpack_prior_code(remaining.prior_code(other, move)) == (4, 1, 1, 7, 7)
    assert remaining.unpack_prior_code(remaining.prior_code(remaining.root(), move)) == (4, 3, 3, 7, 7)
    # ... and where in the line the values are, and the other lines: (0, 0) = 3 with (1, 0) = 2, or (0, 1) = 3
    a = sums.apply(sums.apply(sums.root(), sums.encode(0, 0, 3)), sums.encode(1, 0, 2))
    b = sums.apply(sums.root(), sums.encode(0, 1, 3))
    assert sums.unpack_prior_code(sums.prior_code(a, sums.encode(0, 2, 1))) == (1, 5, 7)
    assert sums.prior_code(a, sums.encode(0, 2, 1)) == sums.prior_code(b, sums.encode(0, 2, 1))


def test_a_prior_of_another_code_kind_is_refused():
    priors = {kind: learn_prior(training_instances(3, size=4, values=5), code=kind) for kind in PRIOR_CODES}
    for kind, prior in priors.items():
        for other in PRIOR_CODES:
            if other == kind:
                Kakuro(generate(4, 5), code=other).check_prior(prior)
            else:
                with pytest.raises(OptionError, match=f"not {other!r} prior codes"):
                    Kakuro(generate(4, 5), code=other).check_prior(prior)


@pytest.mark.parametrize("code", PRIOR_CODES)
def test_compiled_replay_equals_the_generic_replay(code):
    instances = list(training_instances(5, size=6, values=8, first_seed=40))
    problems = [Kakuro(i, code=code) for i in instances]
    assert learn_prior(instances, code=code) == Prior.learn((p, p.solution_moves()) for p in problems)


def test_the_hints_prior_learns_which_value_each_line_omits():
    problem = Kakuro(generate(), code="hints")
    prior = learn_prior(training_instances(300), code="hints")
    omitted = used = 0
    for code, seen in prior.nb.items():
        value, rc, cc, row_hint, col_hint = problem.unpack_prior_code(code)
        if value in (66 - row_hint, 66 - col_hint):      # the value its row or column never takes
            assert prior.count.get(code, 0) == 0
            omitted += seen
        elif rc == 1 or cc == 1:                          # any other value with one place left in a line: forced
            assert prior.count.get(code, 0) == seen
            used += seen
    assert omitted > 0 and used > 0


# -- the coded playout ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("code", PRIOR_CODES)
def test_coded_playout_draws_exactly_as_the_generic_playout(code):
    problem = Kakuro(generate(seed=5), code=code)
    prior = learn_prior(training_instances(40), code=code)
    weights = np.random.default_rng(2).normal(0.0, 1.0, problem.code_count)
    for bias in (None, prior):
        for seed in range(3):
            table = None if bias is None else bias.table(problem.prior_code_count, 4.0)
            final, moves, trace = problem.coded_playout(problem.root(), weights, table, np.random.default_rng(seed))
            generic = softmax_playout(problem, dict(enumerate(weights)), np.random.default_rng(seed),
                                      bias=None if bias is None else bias.bias(problem, 4.0))
            assert moves == generic[1] and final == generic[0]
            assert trace.codes.tolist() == generic[2].codes and trace.chosen.tolist() == generic[2].chosen
            if bias is not None:
                assert np.allclose(trace.bias, generic[2].bias)


def test_playout_distribution_respects_the_weights_and_the_bias():
    problem = Kakuro(SMALL)
    root = problem.root()
    legal = problem.moves(root)              # (0, 0) takes 1..4
    weights = np.zeros(problem.code_count)
    weights[list(legal)] = np.log([0.1, 0.2, 0.3, 0.4])
    bias = np.zeros(problem.prior_code_count)
    codes = [problem.prior_code(root, m) for m in legal]
    assert len(set(codes)) == 4
    bias[codes[3]] = -np.inf                 # the bias excludes value 4: the others keep their proportions
    rng = np.random.default_rng(4)
    draws = 6000
    for table, expected in ((None, [0.1, 0.2, 0.3, 0.4]), (bias, [1 / 6, 2 / 6, 3 / 6, 0.0])):
        counts = np.zeros(4)
        for _ in range(draws):
            _, moves, _ = problem.coded_playout(root, weights, table, rng)
            counts[legal.index(moves[0])] += 1
        expect = draws * np.array(expected)
        live = expect > 0
        assert counts[~live].sum() == 0
        chi2 = float(((counts[live] - expect[live]) ** 2 / expect[live]).sum())
        assert chi2 < 16.3    # 3 degrees of freedom, p = 0.001


# -- searches ---------------------------------------------------------------------------------------------

def test_the_generators_seed_would_replay_the_instance():
    instance = generate(seed=6)
    attempts, _ = kernels.playouts_until_full(np.zeros(100, np.int8), 10, 11, np.random.default_rng(6), 50)
    plain = nrpa(Kakuro(instance), level=0, playouts=50, target=20.0, seed=6, progress=None)
    assert plain.reached == attempts == 2    # the very playout that generated it (the first one dead-ended)
    honest = nrpa(Kakuro(instance), level=0, playouts=50, target=20.0, seed=search_seed(6), progress=None)
    assert honest.reached is None


def test_sampling_with_the_hints_prior_solves_and_the_checker_agrees():
    prior = learn_prior(training_instances(1000), code="hints")
    for seed in range(3):
        instance = generate(seed=seed)
        problem = Kakuro(instance, code="hints")
        for method in ("sampling", "gnrpa"):
            result = search(problem, method, playouts=1024, target=20.0, prior=prior, seed=search_seed(seed))
            assert result.reached is not None and result.best_value == 20.0
            assert is_solution(instance, problem.grid(result.best_state))


def test_the_benchmarks_omitted_value_prior_rules_out_exactly_the_omitted_values():
    """benchmarks/gnrpa_kakuro.py's reference row: ratio 0 (beta -inf) where the value is 66 - a hint, 1 (beta 0)
    elsewhere; sampling with it solves problem 0."""
    bench = load_benchmark("gnrpa_kakuro")
    prior = bench.omitted_prior()
    instance = generate(seed=0)
    problem = Kakuro(instance, code="hints")
    assert set(prior.nb) == set(problem.prior_codes)
    table = prior.table(problem.prior_code_count, 4.0)
    for code in list(problem.prior_codes)[::997]:
        value, _, _, row_hint, col_hint = problem.unpack_prior_code(code)
        omitted = value in (66 - row_hint, 66 - col_hint)
        assert prior.count[code] == (0 if omitted else 1) and table[code] == (-np.inf if omitted else 0.0)
    result = search(problem, "sampling", playouts=1024, target=20.0, prior=prior, seed=search_seed(0))
    assert result.reached is not None and is_solution(instance, problem.grid(result.best_state))


def test_nrpa_solves_a_small_kakuro_that_sampling_does_not():
    instance = generate(6, 7, seed=2)
    problem = Kakuro(instance)
    sampled = search(problem, "sampling", playouts=3000, target=12.0, seed=search_seed(2))
    adapted = search(problem, "nrpa", playouts=3000, target=12.0, seed=search_seed(2))
    assert adapted.reached is not None and is_solution(instance, problem.grid(adapted.best_state))
    assert sampled.reached is None or sampled.reached > adapted.reached


# -- the command line ---------------------------------------------------------------------------------------

def test_cli_learns_solves_checks_and_writes(capsys, tmp_path):
    path = tmp_path / "prior.json"
    assert main(["kakuro", "--learn-prior", str(path), "--training", "1000", "--code", "hints"]) == 0
    assert json.loads(path.read_text())["format"] == "hornermcts-prior"
    assert main(["kakuro", "--generate", "--seed", "4", "--code", "hints", "--prior", str(path), "--show",
                 "--no-progress", "--write", str(tmp_path / "k.txt")]) == 0
    out = capsys.readouterr().out
    assert "solved by sampling with the prior" in out and "the checker accepts it" in out
    assert read_instance(tmp_path / "k.txt") == generate(seed=4)
    assert main(["kakuro", str(tmp_path / "k.txt"), "--method", "gnrpa", "--code", "hints", "--prior", str(path),
                 "--no-progress"]) == 0


def test_cli_errors_and_the_budget_status(capsys, tmp_path):
    assert main(["kakuro", "--generate", "--method", "gnrpa", "--no-progress"]) == 2
    assert "needs --prior" in capsys.readouterr().err
    path = tmp_path / "p.json"
    assert main(["kakuro", "--learn-prior", str(path), "--training", "3", "--code", "hints"]) == 0
    assert main(["kakuro", "--generate", "--prior", str(path), "--no-progress"]) == 2
    assert "not 'remaining' prior codes" in capsys.readouterr().err
    assert main(["kakuro", "--generate", "--playouts", "20", "--no-progress"]) == 1
    assert "not solved by sampling within 20 playouts" in capsys.readouterr().out


def test_forward_checking_on_the_line_sums():
    """Issue 40 item 5: propagation="sums" drops the values no completion of a line's sum allows. The
    compiled playout and the protocol's moves agree, the solution still replays, and uniform playouts
    solve a generated problem (all-different alone fills the grid but misses the sums)."""
    assert kernels.line_allowed(0, 2, 4, 5) == 0b101  # {1, 3}: the only pair of 1..5 summing to 4
    assert kernels.line_allowed(0b1, 1, 1, 5) == 0  # 1 is used: no single value left makes 1
    problem = Kakuro(generate(seed=4), propagation="sums")
    rng = np.random.default_rng(7)
    final, moves = problem.playout(problem.root(), rng)
    state = problem.root()
    for move in moves:
        assert move in problem.moves(state)
        state = problem.apply(state, move)
    assert state == final
    assert problem.replay_codes()[1].min() >= 0
    solved = [problem.reward(problem.playout(problem.root(), rng)[0]) == 20.0 for _ in range(20)]
    plain = Kakuro(problem.instance)
    missed = [plain.reward(plain.playout(plain.root(), rng)[0]) == 20.0 for _ in range(20)]
    assert any(solved) and not any(missed)


def test_propagation_is_checked():
    with pytest.raises(OptionError, match="unknown propagation 'sum': expected one of alldifferent, sums"):
        Kakuro(generate(seed=0), propagation="sum")
