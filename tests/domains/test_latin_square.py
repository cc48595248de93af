"""Latin square completion (Cazenave 2024, sec. 4.1): instances, files, checker, CSP playout, Dual prior, CLI."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.cli import main
from hornermcts.domains.latin_square import (
    CALIBRATED,
    CHANNELING,
    TEMPERATURE,
    LatinSquareCompletion,
    LatinSquareInstance,
    generate,
    is_solution,
    learn_prior,
    read_instance,
    search,
    search_seed,
    training_instances,
    violations,
    write_instance,
)
from hornermcts.domains.latin_square import kernels
from hornermcts.errors import OptionError
from hornermcts.parse import ParseError
from hornermcts.search import Prior, check_problem, nrpa
from hornermcts.search.policy import softmax_playout
from helpers.benchmarks import load_benchmark


# -- oracles in plain Python ---------------------------------------------------------------------------

def domains(grid: np.ndarray) -> dict:
    """Cell -> set of values allowed by forward checking, for every empty cell."""
    n = grid.shape[0]
    out = {}
    for r in range(n):
        for c in range(n):
            if grid[r, c] == 0:
                out[r * n + c] = set(range(1, n + 1)) - set(grid[r].tolist()) - set(grid[:, c].tolist())
    return out


def hidden_singles(grid: np.ndarray) -> list:
    """(line, value) pairs where a value missing from a line fits one empty cell of it only."""
    n = grid.shape[0]
    dom = domains(grid)
    found = []
    for kind in ("row", "column"):
        for i in range(n):
            cells = [i * n + j for j in range(n)] if kind == "row" else [j * n + i for j in range(n)]
            line = grid[i] if kind == "row" else grid[:, i]
            for v in set(range(1, n + 1)) - set(line.tolist()):
                places = [cell for cell in cells if cell in dom and v in dom[cell]]
                if len(places) == 1:
                    found.append((kind, i, v))
    return found


def grid_of(problem, state) -> np.ndarray:
    return problem.grid(state).astype(np.int64)


# -- instances, files, checker ---------------------------------------------------------------------------

@pytest.mark.parametrize("order, blanks", [(5, 0.42), (20, 0.42), (12, 0.7)])
def test_generated_instances_hide_a_latin_square(order, blanks):
    instance = generate(order, blanks=blanks, seed=7)
    solution = instance.solution.astype(np.int64)
    for line in list(solution) + list(solution.T):
        assert sorted(line.tolist()) == list(range(1, order + 1))
    assert instance.blank_count == round(blanks * order * order)
    kept = instance.givens != 0
    assert (instance.givens[kept] == instance.solution[kept]).all()
    assert generate(order, blanks=blanks, seed=7) == instance
    assert generate(order, blanks=blanks, seed=8) != instance


def test_files_round_trip_with_and_without_solution(tmp_path):
    instance = generate(11, seed=2)
    write_instance(tmp_path / "a.txt", instance)
    assert read_instance(tmp_path / "a.txt") == instance
    bare = LatinSquareInstance(instance.givens)
    write_instance(tmp_path / "b.txt", bare)
    again = read_instance(tmp_path / "b.txt")
    assert again == bare and again.solution is None


@pytest.mark.parametrize("text, where, reason", [
    ("x\n", "1:1", "expected the order"),
    ("2\n1 2 1\n", "2:1", "a row needs 2 entries"),
    ("2\n1 .\n. 3\n", "3:3", "value '3' is not"),
    ("2\n1 .\n", "2:1", "the file ends early"),
    ("2\n1 1\n. .\n", "3:1", "the givens break the rules: value 1 twice in row 1"),
    ("2\n1 .\n. .\n1 2\n1 2\n", "5:1", "the solution does not complete the givens"),
    ("2\n1 .\n. .\n1 2\n2 1\n1 2\n", "6:1", "more than 4 rows"),
])
def test_reader_names_file_line_and_column(tmp_path, text, where, reason):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ParseError) as error:
        read_instance(path)
    assert f"bad.txt:{where}: {reason}" in str(error.value)


def test_checker_accepts_the_solution_and_catches_each_broken_rule():
    instance = generate(9, seed=4)
    givens, solution = instance.givens, instance.solution.astype(np.int64)
    assert is_solution(givens, solution)
    r, c = map(int, np.argwhere(givens != 0)[0])
    swapped = solution.copy()
    c2 = (c + 1) % 9
    swapped[r, c], swapped[r, c2] = swapped[r, c2], swapped[r, c]  # the row stays a permutation; two columns break
    found = violations(givens, swapped)
    assert f"cell ({r + 1}, {c + 1}) holds {swapped[r, c]}, not the given {givens[r, c]}" in found
    assert sum("twice in column" in v for v in found) == 2 and not any("twice in row" in v for v in found)
    blank = solution.copy()
    blank[tuple(np.argwhere(givens == 0)[0])] = 0
    assert violations(givens, blank) == [f"1 blank cells, first ({np.argwhere(givens == 0)[0][0] + 1}, "
                                         f"{np.argwhere(givens == 0)[0][1] + 1})"]
    assert violations(givens, np.where(solution == 9, 10, solution))[0].startswith("9 values outside 1..9")
    assert violations(givens, solution[:8]) == ["the grid has shape (8, 9), not (9, 9)"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 8), st.data())
def test_changing_any_cell_of_a_square_breaks_it(seed, order, data):
    square = generate(order, blanks=1.0, seed=seed).solution.astype(np.int64)
    r, c = data.draw(st.integers(0, order - 1)), data.draw(st.integers(0, order - 1))
    other = data.draw(st.sampled_from([v for v in range(1, order + 1) if v != square[r, c]]))
    broken = square.copy()
    broken[r, c] = other
    found = violations(np.zeros_like(square), broken)
    assert any(f"twice in row {r + 1}" in v for v in found) and any(f"twice in column {c + 1}" in v for v in found)


def test_instances_refuse_bad_grids():
    with pytest.raises(OptionError, match="square grid"):
        LatinSquareInstance([[1, 2, 3]])
    with pytest.raises(OptionError, match="outside 0..2"):
        LatinSquareInstance([[1, 3], [0, 0]])
    with pytest.raises(OptionError, match="does not complete"):
        LatinSquareInstance([[1, 0], [0, 0]], [[2, 1], [1, 2]])
    with pytest.raises(OptionError):
        generate(63)
    with pytest.raises(OptionError):
        generate(5, blanks=1.5)


# -- kernels against the Python oracle ----------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**62 - 1))
def test_popcount(x):
    assert kernels.popcount(np.int64(x)) == bin(x).count("1")


@pytest.mark.parametrize("channeling", list(CHANNELING))
def test_moves_are_the_domain_of_the_first_smallest_domain_cell(channeling):
    problem = LatinSquareCompletion(generate(10, seed=3), channeling=channeling)
    rng = np.random.default_rng(0)
    state = problem.root()
    while True:
        grid = grid_of(problem, state)
        dom = domains(grid)
        legal = problem.moves(state)
        if not dom or min(len(d) for d in dom.values()) == 0:
            assert legal == ()
            break
        smallest = min(len(d) for d in dom.values())
        cell = min(c for c, d in dom.items() if len(d) == smallest)
        assert [problem.decode(m) for m in legal] == [(cell // 10, cell % 10, v) for v in sorted(dom[cell])]
        state = problem.apply(state, legal[int(rng.integers(len(legal)))])


def test_full_channeling_leaves_no_hidden_single_and_none_assigns_nothing_itself():
    instance = generate(12, seed=5)
    full = LatinSquareCompletion(instance, channeling="full")
    bare = LatinSquareCompletion(instance, channeling="none")
    assert np.array_equal(grid_of(bare, bare.root()), instance.givens)
    assert hidden_singles(instance.givens.astype(np.int64))          # the instance has some to assign
    rng = np.random.default_rng(1)
    state = full.root()
    while full.moves(state):
        assert hidden_singles(grid_of(full, state)) == []
        legal = full.moves(state)
        before = int((grid_of(full, state) == 0).sum())
        state = full.apply(state, legal[int(rng.integers(len(legal)))])
        assert int((grid_of(full, state) == 0).sum()) <= before - 1
    state = bare.root()
    legal = bare.moves(state)
    after = bare.apply(state, legal[0])
    assert int((grid_of(bare, after) != grid_of(bare, state)).sum()) == 1    # only the move's cell


def test_channeling_by_hand():
    # the start (every line checked once): row 0 = 1 2 . . and 3 at (2, 2), so 3 fits (0, 3) only in row 0 (a
    # hidden single); once it is there, 4 fits (0, 2) only: assigned if the lines of channeled cells are checked
    instance = LatinSquareInstance([[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 3, 0], [0, 0, 0, 0]])
    row0 = {name: grid_of(p, p.root())[0].tolist()
            for name, p in ((k, LatinSquareCompletion(instance, channeling=k)) for k in CHANNELING)}
    assert row0["none"] == [1, 2, 0, 0]
    assert row0["lines"] == row0["value"] == row0["lines+value"] == [1, 2, 0, 3]
    assert row0["lines-cascade"] == row0["full"] == [1, 2, 4, 3]
    assert row0["value-cascade"] == [1, 2, 0, 3]    # (0, 2) lost a cell of its row, not a place for 3
    # after a move: 3 x 3 with 1 at (0, 0); playing 2 at (0, 1) leaves 3 fitting (0, 2) only in row 0, a hidden
    # single of the move's row ("lines"); the value 2 has two places left in every crossing line ("value": nothing)
    small = LatinSquareInstance([[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    after = {}
    for name in ("none", "lines", "value", "full"):
        p = LatinSquareCompletion(small, channeling=name)
        after[name] = grid_of(p, p.apply(p.root(), p.encode(0, 1, 2)))
    assert after["none"][0].tolist() == after["value"][0].tolist() == [1, 2, 0]
    assert after["lines"][0].tolist() == [1, 2, 3] and int((after["lines"] == 0).sum()) == 6
    assert int((after["full"] == 0).sum()) <= 6


def test_apply_refuses_an_illegal_move_and_keeps_the_state():
    problem = LatinSquareCompletion(LatinSquareInstance([[1, 0], [0, 0]]))
    root = problem.root()
    with pytest.raises(OptionError, match="not legal"):
        problem.apply(root, problem.encode(0, 1, 1))    # 1 is in row 0
    with pytest.raises(OptionError, match="not legal"):
        problem.apply(root, problem.encode(0, 0, 2))    # a given cell
    assert problem.root() == root


@pytest.mark.parametrize("channeling", list(CHANNELING))
def test_the_protocol_holds(channeling):
    check_problem(LatinSquareCompletion(generate(8, seed=1), channeling=channeling), simulations=15)
    check_problem(LatinSquareCompletion(generate(20, seed=1), channeling=channeling), simulations=3)


def test_reward_counts_empty_cells_and_a_solution_scores_zero():
    instance = generate(10, seed=6)
    problem = LatinSquareCompletion(instance)
    state = problem.root()
    assert problem.reward(state) == -float(instance.blank_count)
    for move in problem.solution_moves():
        state = problem.apply(state, move)
    assert problem.reward(state) == 0.0 and problem.is_solved(state)
    assert np.array_equal(problem.grid(state), instance.solution)
    final, _ = problem.playout(problem.root(), np.random.default_rng(3))
    assert problem.reward(final) == -float((problem.grid(final) == 0).sum())
    if problem.reward(final) < 0:    # a dead end: some empty cell has an empty domain
        assert min(len(d) for d in domains(grid_of(problem, final)).values()) == 0


# -- the coded playout and its policy -----------------------------------------------------------------------

@pytest.mark.parametrize("channeling", ["none", "full"])
def test_coded_playout_draws_exactly_as_the_generic_playout(channeling):
    problem = LatinSquareCompletion(generate(9, seed=2), channeling=channeling)
    prior = learn_prior(training_instances(30, order=9, first_seed=50), channeling=channeling)
    weights = np.random.default_rng(5).normal(0.0, 1.0, problem.code_count)
    for bias in (None, prior):
        for seed in range(4):
            table = None if bias is None else bias.table(problem.prior_code_count, 4.0)
            final, moves, trace = problem.coded_playout(problem.root(), weights, table, np.random.default_rng(seed))
            generic = softmax_playout(problem, dict(enumerate(weights)), np.random.default_rng(seed),
                                      bias=None if bias is None else bias.bias(problem, 4.0))
            assert moves == generic[1] and final == generic[0]
            assert trace.codes.tolist() == generic[2].codes and trace.chosen.tolist() == generic[2].chosen
            assert trace.starts.tolist() == generic[2].starts
            if bias is None:
                assert trace.bias is None
            else:
                assert np.allclose(trace.bias, generic[2].bias)


def test_playout_distribution_respects_the_weights():
    problem = LatinSquareCompletion(LatinSquareInstance([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]))
    root = problem.root()
    legal = problem.moves(root)                     # cell (0, 1) takes 2, 3 or 4
    assert [problem.decode(m) for m in legal] == [(0, 1, 2), (0, 1, 3), (0, 1, 4)]
    weights = np.zeros(problem.code_count)
    weights[list(legal)] = np.log([0.5, 0.3, 0.2])
    rng = np.random.default_rng(11)
    draws = 6000
    counts = np.zeros(3)
    for _ in range(draws):
        _, moves, trace = problem.coded_playout(root, weights, None, rng)
        counts[legal.index(moves[0])] += 1
        assert trace.chosen[0] == legal.index(moves[0])
    expected = draws * np.array([0.5, 0.3, 0.2])
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 13.8    # 2 degrees of freedom, p = 0.001


def test_sampling_through_nrpa_equals_the_compiled_batch():
    instance = generate(12, seed=9)
    problem = LatinSquareCompletion(instance)
    result = nrpa(problem, level=0, playouts=400, target=0.0, seed=3, progress=None)
    done, grid = kernels.playouts_until_solved(np.frombuffer(problem.root(), np.int8), 12, problem.mode,
                                               np.zeros(problem.code_count), np.zeros(1), False,
                                               np.random.default_rng(3), 400)
    assert result.reached == (done if grid.min() > 0 else None)


# -- the Dual prior ---------------------------------------------------------------------------------------

def test_dual_code_by_hand():
    # 4 x 4 with row 0 = 1 . . . and column 1 holding 2 at (2, 1):
    # value 2 at (0, 2): row 0 cells holding 2 in their domain: (0, 2), (0, 3) (not (0, 1): column 1 has 2) -> 2;
    # column 2 cells: (0, 2), (1, 2), (2, 2)? row 2 has 2 -> no, (3, 2) -> 3.  Code 2 * 5 + 3 = 13.
    problem = LatinSquareCompletion(LatinSquareInstance([[1, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]]))
    assert problem.prior_code(problem.root(), problem.encode(0, 2, 2)) == 2 * 5 + 3
    # value 3 at (0, 1): row 0: (0, 1), (0, 2), (0, 3) -> 3; column 1: (0, 1), (1, 1), (3, 1) -> 3
    assert problem.prior_code(problem.root(), problem.encode(0, 1, 3)) == 3 * 5 + 3
    assert problem.prior_code_count == 25 and problem.code_count == 64


@pytest.mark.parametrize("channeling", ["none", "lines", "full"])
def test_compiled_replay_equals_the_generic_replay(channeling):
    instances = list(training_instances(6, order=9, first_seed=20))
    fast = learn_prior(instances, channeling=channeling)
    problems = [LatinSquareCompletion(i, channeling=channeling) for i in instances]
    assert fast == Prior.learn((p, p.solution_moves()) for p in problems)
    assert sum(fast.count.values()) == sum(len(p.solution_moves()) for p in problems)


def test_the_dual_prior_learns_what_channeling_would_do():
    prior = learn_prior(training_instances(200, order=12, first_seed=300))
    n = 12

    def ratio(rc, cc):
        return prior.ratio(rc * (n + 1) + cc)

    # a value that fits one cell of its row (rc = 1) must go there: the ratio is 1 (a hidden single)
    singles = [c for c in prior.nb if c // (n + 1) == 1 or c % (n + 1) == 1]
    assert singles and all(prior.ratio(c) == 1.0 for c in singles)
    # a value with more places in its lines is less often the solution's (the table is deterministic: seeded)
    common = [c for c in prior.nb if prior.nb[c] >= 100 and c not in singles]
    assert common and all(0 < prior.ratio(c) < 1 for c in common)
    assert ratio(4, 4) < ratio(3, 3) < ratio(2, 2) < 1


def test_learning_needs_solutions_and_one_order():
    with pytest.raises(OptionError, match="no known solution"):
        learn_prior([LatinSquareInstance([[1, 0], [0, 0]])])
    with pytest.raises(OptionError, match="orders"):
        learn_prior([generate(5, seed=0), generate(6, seed=0)])
    assert len(learn_prior([])) == 0


# -- searches ---------------------------------------------------------------------------------------------

def test_search_methods_and_their_arguments():
    problem = LatinSquareCompletion(generate(10, seed=12))
    prior = learn_prior(training_instances(50, order=10))
    with pytest.raises(OptionError, match="needs a prior"):
        search(problem, "gnrpa", playouts=10, target=0.0)
    with pytest.raises(OptionError, match="without a prior"):
        search(problem, "nrpa", playouts=10, target=0.0, prior=prior)
    with pytest.raises(OptionError, match="unknown method"):
        search(problem, "mcts", playouts=10, target=0.0)
    for method, with_prior in (("sampling", None), ("sampling", prior), ("nrpa", None), ("gnrpa", prior)):
        result = search(problem, method, playouts=3000, target=0.0, prior=with_prior, seed=search_seed(12))
        assert result.reached is not None, method
        assert is_solution(problem.instance.givens, problem.grid(result.best_state))
        assert result.best_value == 0.0 and result.iterations == result.reached


def test_order_20_sampling_repeats_the_calibration():
    # the first 10 problems of results/gnrpa_latin_square_calibration.jsonl: uniform Sampling, 2,048 playouts
    # each, solves seeds 1 (at playout 440) and 4 (at 1,971)
    reached = {}
    for seed in range(10):
        problem = LatinSquareCompletion(generate(20, seed=seed), channeling=CALIBRATED)
        reached[seed] = search(problem, "sampling", playouts=2048, target=0.0, seed=search_seed(seed)).reached
    assert {s: r for s, r in reached.items() if r is not None} == {1: 440, 4: 1971}
    full = LatinSquareCompletion(generate(20, seed=0), channeling="full")
    assert search(full, "sampling", playouts=2048, target=0.0, seed=0).reached is not None


# -- the command line ---------------------------------------------------------------------------------------

def test_cli_generates_solves_and_checks(capsys, tmp_path):
    assert main(["latin", "--generate", "--order", "10", "--seed", "3", "--playouts", "3000", "--no-progress",
                 "--show", "--write", str(tmp_path / "p.txt")]) == 0
    out = capsys.readouterr().out
    assert "solved by sampling after" in out and "the checker accepts it" in out
    assert read_instance(tmp_path / "p.txt") == generate(10, seed=3)
    assert main(["latin", str(tmp_path / "p.txt"), "--method", "nrpa", "--playouts", "3000", "--no-progress"]) == 0


def test_cli_learns_a_prior_and_runs_gnrpa(capsys, tmp_path):
    path = tmp_path / "prior.json"
    assert main(["latin", "--learn-prior", str(path), "--training", "30", "--order", "10"]) == 0
    data = json.loads(path.read_text())
    assert data["format"] == "hornermcts-prior" and Prior.load(path) == learn_prior(training_instances(30, order=10))
    assert main(["latin", "--generate", "--order", "10", "--method", "gnrpa", "--prior", str(path),
                 "--playouts", "3000", "--no-progress"]) == 0
    assert "solved by gnrpa" in capsys.readouterr().out


def test_cli_errors_and_the_budget_status(capsys, tmp_path):
    assert main(["latin", "--generate", "--method", "gnrpa", "--no-progress"]) == 2
    assert "needs --prior" in capsys.readouterr().err
    assert main(["latin", "--no-progress"]) == 2
    path = tmp_path / "p.json"
    assert main(["latin", "--learn-prior", str(path), "--training", "5", "--order", "12"]) == 0
    assert main(["latin", "--generate", "--order", "6", "--prior", str(path), "--no-progress"]) == 2
    assert "learned for another order" in capsys.readouterr().err
    # order 20 at the phase transition: 3 uniform playouts rarely solve it -> status 1
    assert main(["latin", "--generate", "--seed", "1", "--playouts", "3", "--no-progress"]) == 1
    assert "not solved by sampling within 3 playouts" in capsys.readouterr().out


def test_search_seed_is_another_stream():
    assert len({search_seed(s) for s in range(100)}) == 100
    assert all(search_seed(s) != s for s in range(100))
    assert not math.isnan(float(search_seed(5)))


# -- the Table 1 benchmark script -----------------------------------------------------------------------------


def _outcome(rows):
    return {(r["row"], r["problem_seed"]): (r["reached"], r["playouts"], r["best"], r["budget"]) for r in rows}


def test_table_script_runs_problem_by_problem_and_resumes(tmp_path, capsys):
    bench = load_benchmark("gnrpa_latin_square")
    out = str(tmp_path / "table")
    args = ["--problems", "2", "--budget", "300", "--training", "20", "--out", out]
    bench.main(args)
    lines = open(out + ".jsonl").read().splitlines()
    rows = [json.loads(line) for line in lines]
    labels = ["Sampling", "Sampling Dual prior", "NRPA", "GNRPA Dual prior"]
    assert [(r["problem_seed"], r["row"]) for r in rows] == [(s, label) for s in (0, 1) for label in labels]
    assert all(r["training"] == 20 and r["budget"] == 300 and r["channeling"] == CALIBRATED for r in rows)
    assert [r["temperature"] for r in rows[:4]] == [None, TEMPERATURE, None, TEMPERATURE]
    for r in rows:  # a solved run stops at its first solution
        assert (r["playouts"] == r["reached"] and r["best"] == 0.0) if r["reached"] else r["playouts"] == 300

    bench.main(args)  # everything is there: nothing runs again
    assert open(out + ".jsonl").read().splitlines() == lines

    # interrupted after three rows, the fourth torn: the rerun adds the five missing rows, identical to before
    with open(out + ".jsonl", "w") as handle:
        handle.write("\n".join(lines[:3]) + "\n" + lines[3][:20])
    bench.main(args)
    resumed = bench.load_rows(out + ".jsonl")
    assert len(resumed) == 8 and _outcome(resumed) == _outcome(rows)
    assert "resuming: 3 rows" in capsys.readouterr().out

    # a larger budget reruns only the unsolved; latest() keeps the new rows
    bench.main(["--problems", "2", "--budget", "400", "--training", "20", "--out", out])
    bigger = bench.load_rows(out + ".jsonl")
    unsolved = [key for key, value in _outcome(rows).items() if value[0] is None]
    assert len(bigger) == 8 + len(unsolved)
    last = _outcome(bench.latest(bigger))
    assert list(last) == list(_outcome(rows))
    for key, value in _outcome(rows).items():
        assert last[key] == (value if value[0] is not None else last[key][:3] + (400,))
    text = open(out + ".txt").read()
    assert "test seeds 0..1" in text and "paper: GNRPA Dual prior" in text


def test_factor_table_gives_each_prior_row_its_factor_and_interval():
    import re

    bench = load_benchmark("gnrpa_latin_square")

    def rows(label, solved):  # 40 problems, each solved at playout 1,000 or not at all, run to 2,048
        return [{"row": label, "problem_seed": s, "reached": 1000 if solved(s) else None, "budget": 2048}
                for s in range(40)]

    groups = [(label, rows(label, solved), 2048, label) for label, solved in (
        ("Sampling", lambda s: s % 4 == 0), ("Sampling Dual prior", lambda s: s % 2 == 0),
        ("NRPA", lambda s: True), ("GNRPA Dual prior", lambda s: True))]
    lines = bench.factor_table(groups).splitlines()
    assert "1,024" in lines[0] and "2,048" in lines[0] and "4,096" not in lines[0]  # the budgets run, no more
    sampling = next(x for x in lines if x.startswith("Sampling Dual prior / Sampling"))
    cells = re.findall(r"(\d+\.\d+) \[(\d+\.\d+), (\d+\.\d+)\]", sampling)
    assert [c[0] for c in cells] == ["2.00", "2.00"]  # 20 solved with the prior against 10 without
    assert all(float(low) <= 2.0 <= float(high) < 4.8 for _, low, high in cells)
    paper = lines[lines.index(sampling) + 1]
    assert re.findall(r"(\d+\.\d+) (in|OUT)", paper) == [("6.00", "OUT"), ("4.80", "OUT")]  # Table 1: 12/2, 24/5
    gnrpa = next(x for x in lines if x.startswith("GNRPA Dual prior / NRPA"))
    assert gnrpa.count("1.00 [1.0, 1.0]") == 2  # every resample: 40 / 40
    assert bench.factor_table([groups[0], groups[2]]) == ""  # no prior row: no table


def test_ablation_runs_on_validation_problems(tmp_path):
    bench = load_benchmark("gnrpa_latin_square")
    out = str(tmp_path / "ablation")
    bench.main(["--ablation", "--temperatures", "2,8", "--problems", "1", "--budget", "50", "--training", "20",
                "--out", out])
    rows = bench.load_rows(out + ".jsonl")
    assert {r["problem_seed"] for r in rows} == {bench.VALIDATION_SEED}
    assert [(r["row"], r["temperature"]) for r in rows] == [
        ("Sampling", None), ("NRPA", None), ("Sampling Dual prior, tau 2", 2.0), ("Sampling Dual prior, tau 8", 8.0),
        ("GNRPA Dual prior, tau 2", 2.0), ("GNRPA Dual prior, tau 8", 8.0)]
    assert "validation seeds 500000..500000" in open(out + ".txt").read()
    assert [r["nrpa"] for r in rows] == [None, [3, 100, 1.0], None, None, [3, 100, 1.0], [3, 100, 1.0]]
    with pytest.raises(SystemExit):
        bench.main(["--ablation", "--calibrate", "--out", out])
    with pytest.raises(SystemExit):
        bench.main(["--ablation", "--nrpa-settings", "2/100", "--out", out])


def test_ablation_nrpa_settings_are_rows_of_their_own(tmp_path):
    bench = load_benchmark("gnrpa_latin_square")
    out = str(tmp_path / "nrpa")
    bench.main(["--ablation", "--temperatures", "3", "--nrpa-settings", "1/10/0.5", "--problems", "1", "--budget",
                "120", "--training", "5", "--out", out])
    rows = bench.load_rows(out + ".jsonl")
    assert [(r["row"], r["nrpa"], r["temperature"]) for r in rows] == [
        ("Sampling", None, None), ("NRPA", [3, 100, 1.0], None), ("NRPA level 1, N 10, alpha 0.5", [1, 10, 0.5], None),
        ("Sampling Dual prior, tau 3", None, 3.0), ("GNRPA Dual prior, tau 3", [3, 100, 1.0], 3.0),
        ("GNRPA Dual prior, tau 3, level 1, N 10, alpha 0.5", [1, 10, 0.5], 3.0)]
    # level 1 with N = 10 ends after 10 playouts and restarts until the budget
    assert rows[2]["playouts"] == (rows[2]["reached"] or 120)
    problem = LatinSquareCompletion(generate(20, seed=bench.VALIDATION_SEED))
    again = search(problem, "nrpa", playouts=120, target=0.0, level=1, per_level=10, alpha=0.5,
                   seed=search_seed(bench.VALIDATION_SEED))
    assert (again.reached, again.best_value) == (rows[2]["reached"], rows[2]["best"])


def test_table_takes_other_nrpa_settings_as_extra_rows(tmp_path):
    bench = load_benchmark("gnrpa_latin_square")
    out = str(tmp_path / "table")
    args = ["--problems", "1", "--budget", "80", "--training", "5", "--out", out]
    bench.main(args)
    bench.main(args + ["--nrpa-settings", "1/10/1"])  # the four rows are reused, two are added
    rows = bench.load_rows(out + ".jsonl")
    assert [(r["row"], r["nrpa"]) for r in rows] == [
        ("Sampling", None), ("Sampling Dual prior", None), ("NRPA", [3, 100, 1.0]), ("GNRPA Dual prior", [3, 100, 1.0]),
        ("NRPA level 1, N 10, alpha 1", [1, 10, 1.0]), ("GNRPA Dual prior, level 1, N 10, alpha 1", [1, 10, 1.0])]
    assert "GNRPA Dual prior, level 1, N 10, alpha 1" in open(out + ".txt").read()
