"""Nested Monte Carlo search: NMCS, NRPA / GNRPA, the softmax policy and the prior learned by Replay."""
from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from helpers.toys import Bits, Tour, Trap, replay

from hornermcts.errors import OptionError
from hornermcts.search.nested import NestedResult, nmcs, nrpa
from hornermcts.search.policy import Trace, adapt, move_probabilities, problem_bias, softmax_playout
from hornermcts.search.prior import Prior
from hornermcts.search.values import Infeasible
from helpers.benchmarks import load_benchmark

ROOT = Path(__file__).resolve().parents[2]


BENCH = load_benchmark("nested_playouts")

#: chi-square critical values at p = 0.001 by degrees of freedom
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52}


def chi_square(observed: Counter, expected: dict, draws: int) -> float:
    return sum((observed[k] - draws * p) ** 2 / (draws * p) for k, p in expected.items())


class Pick:
    """One choice among ``options`` (a dict move -> prior), then the game ends; reward: the move's value."""

    def __init__(self, options: dict, values: dict | None = None):
        self.options = options
        self.values = values or {m: float(i) for i, m in enumerate(options)}

    def root(self):
        return None

    def moves(self, state):
        return tuple(self.options) if state is None else ()

    def apply(self, state, move):
        return move

    def reward(self, state):
        return self.values[state]

    def prior(self, state, move):
        return self.options[move]


# ---------------------------------------------------------------- the policy


def test_the_softmax_playout_draws_in_proportion_to_exp_of_weight_plus_bias():
    problem = Pick({"a": 1.0, "b": 3.0, "c": 0.5, "d": 2.0})
    weights = {"a": 0.5, "b": -1.0, "c": 0.0, "d": 1.2}
    bias = problem_bias(problem, temperature=1.5)
    logits = {m: weights[m] + 1.5 * math.log(problem.options[m]) for m in problem.options}
    total = sum(math.exp(v) for v in logits.values())
    expected = {m: math.exp(v) / total for m, v in logits.items()}
    assert move_probabilities(weights, list(problem.options), bias(None, list(problem.options))) == pytest.approx(
        list(expected.values()))
    rng = np.random.default_rng(12345)
    draws = 20_000
    seen = Counter(softmax_playout(problem, weights, rng, bias=bias)[0] for _ in range(draws))
    assert chi_square(seen, expected, draws) < CHI2_999[3]
    # without the bias: exp(w) alone (NRPA), and a clearly wrong law is rejected
    plain = {m: math.exp(w) / sum(math.exp(v) for v in weights.values()) for m, w in weights.items()}
    seen = Counter(softmax_playout(problem, weights, rng)[0] for _ in range(draws))
    assert chi_square(seen, plain, draws) < CHI2_999[3]
    assert chi_square(seen, expected, draws) > 100


def test_the_coded_playout_draws_like_the_generic_one():
    tour = BENCH.CodedTour(4, seed=5)
    weights = np.random.default_rng(1).normal(size=tour.code_count)
    table = np.random.default_rng(2).normal(size=tour.code_count)
    table[tour.move_code((), 2)] = -np.inf  # the prior excludes 2 as first move
    prior_of = {c: float(table[c]) for c in range(tour.code_count)}
    bias = lambda state, moves: [prior_of[tour.move_code(state, m)] for m in moves]
    as_dict = dict(enumerate(weights.tolist()))
    for seed in range(30):
        coded = tour.coded_playout((), weights, table, np.random.default_rng(seed))
        generic = softmax_playout(tour, as_dict, np.random.default_rng(seed), bias=bias)
        assert coded[0] == generic[0] and list(coded[1]) == generic[1] and coded[0][0] != 2
        assert coded[2].codes.tolist() == generic[2].codes and coded[2].chosen.tolist() == generic[2].chosen
        assert coded[2].starts.tolist() == generic[2].starts
        assert coded[2].bias.tolist() == generic[2].bias


def test_adapt_matches_a_hand_computed_update():
    # Tour(3) codes are the moves; the playout 1, 0, 2 with bias log(2) on move 0 everywhere
    problem = BENCH.CodedTour(3)
    problem.move_code = lambda state, move: move  # context-free codes for hand computation
    bias = lambda state, moves: [math.log(2.0) if m == 0 else 0.0 for m in moves]
    weights = {1: 1.0}
    for seed in itertools.count():
        final, moves, trace = softmax_playout(problem, weights, np.random.default_rng(seed), bias=bias)
        if moves == [1, 0, 2]:
            break
    assert trace.codes == [0, 1, 2, 0, 2] and trace.starts == [0, 3, 5] and trace.chosen == [1, 3]
    # state (): logits 0 + log 2, 1, 0 -> odds 2, e, 1; state (1,): logits log 2, 0 -> odds 2, 1
    e = math.e
    p0, p1, p2 = 2 / (3 + e), e / (3 + e), 1 / (3 + e)
    q0, q2 = 2 / 3, 1 / 3
    alpha = 0.7
    expected = {0: -alpha * p0 - alpha * q0 + alpha, 1: 1.0 - alpha * p1 + alpha, 2: -alpha * p2 - alpha * q2}
    adapt(weights, trace, alpha)
    assert weights == pytest.approx(expected)
    # the compiled adaptation of an array policy does the same
    array = np.array([0.0, 1.0, 0.0])
    adapt(array, Trace(np.array(trace.codes), np.array(trace.bias), np.array(trace.starts), np.array(trace.chosen)),
          alpha)
    assert array.tolist() == pytest.approx([expected[0], expected[1], expected[2]])


def test_a_bias_that_excludes_every_move_is_ignored_in_that_state():
    problem = Pick({"a": 0.0, "b": 0.0, "c": 0.0})
    bias = problem_bias(problem)
    rng = np.random.default_rng(0)
    seen = Counter(softmax_playout(problem, {}, rng, bias=bias)[0] for _ in range(6000))
    assert chi_square(seen, dict.fromkeys("abc", 1 / 3), 6000) < CHI2_999[2]
    final, moves, trace = softmax_playout(problem, {}, rng, bias=bias)
    assert trace.bias == [0.0, 0.0, 0.0]  # adapt then sees what the playout used


# ---------------------------------------------------------------- the prior


def test_replay_counts_and_bias_on_a_hand_worked_table():
    # three steps of a choice among 0, 1, 2 (moves stay legal); codes are the moves
    class Steps:
        def root(self):
            return ()

        def moves(self, s):
            return (0, 1, 2) if len(s) < 3 else ()

        def apply(self, s, m):
            return s + (m,)

        def reward(self, s):
            return 0.0

    class Pairs(Steps):
        """A third code space: move_code differs from the prior code (the parity of the move)."""

        def move_code(self, s, m):
            return ("move", m)

        def prior_code(self, s, m):
            return m % 2

    prior = Prior.learn([(Steps(), [0, 0, 1]), (Steps(), [0, 1, 1])])
    # nb: every state counts 0, 1, 2 once: 6 each; count: 0 three times, 1 three times, 2 never
    assert prior.count == {0: 3, 1: 3} and prior.nb == {0: 6, 1: 6, 2: 6}
    assert prior.ratio(0) == 0.5 and prior.ratio(2) == 0.0 and prior.overall == 6 / 18
    assert prior.ratio("never seen") == 6 / 18
    tau = 4.0
    beta = prior.bias(Steps(), temperature=tau)((), (0, 1, 2))
    assert beta == [tau * math.log(0.5), tau * math.log(0.5), -math.inf]
    assert prior.table(4, tau).tolist() == [tau * math.log(0.5)] * 2 + [-math.inf, tau * math.log(1 / 3)]
    # sampling with the prior: p ~ ratio^tau, 2 excluded
    assert move_probabilities({}, [0, 1, 2], beta) == [0.5, 0.5, 0.0]
    parity = Prior.learn([(Pairs(), [0, 0, 1])])
    assert parity.nb == {0: 6, 1: 3} and parity.count == {0: 2, 1: 1}
    with pytest.raises(OptionError, match="solution move 1"):
        Prior.learn([(Steps(), [0, 5])])


def test_the_beta_table_is_built_once_and_follows_what_the_prior_learns():
    class Steps:
        def root(self):
            return ()

        def moves(self, s):
            return (0, 1, 2) if len(s) < 2 else ()

        def apply(self, s, m):
            return s + (m,)

        def reward(self, s):
            return 0.0

    prior = Prior.learn([(Steps(), [0, 1])])
    table = prior.table(5, 2.0)
    assert prior.table(5, 2.0) is table  # kept: a search asks once per run
    assert table.tolist() == [prior.beta(code, 2.0) for code in range(5)]
    assert not table.flags.writeable
    assert prior.table(5, 3.0) is not table and prior.table(6, 2.0).shape == (6,)
    prior.replay(Steps(), [2, 2])  # learning more gives a new table
    assert prior.table(5, 2.0).tolist() == [prior.beta(code, 2.0) for code in range(5)] != table.tolist()
    prior.count[0] += 1  # changed by hand: the table follows too
    assert prior.table(5, 2.0)[0] == prior.beta(0, 2.0)
    with pytest.raises(OptionError, match="range"):
        prior.table(2, 2.0)


def test_a_prior_saves_and_loads(tmp_path):
    prior = Prior({(0, "a"): 2, 3: 1}, {(0, "a"): 5, 3: 1, (1, (2, 3)): 4, "x": 2})
    prior.save(tmp_path / "prior.json")
    loaded = Prior.load(tmp_path / "prior.json")
    assert loaded == prior and loaded.ratio((1, (2, 3))) == 0.0 and loaded.ratio((0, "a")) == 0.4
    with pytest.raises(OptionError, match="cannot be saved"):
        Prior({}, {frozenset([1]): 1}).save(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text('{"format": "something else"}')
    with pytest.raises(OptionError, match="cannot read a prior"):
        Prior.load(tmp_path / "other.json")
    with pytest.raises(OptionError, match="exceeds"):
        Prior({1: 3}, {1: 2})


def test_a_learned_prior_finds_a_needle_that_uniform_sampling_misses():
    class Needle:
        """Twenty bits, one answer; codes (position, bit)."""

        def root(self):
            return ()

        def moves(self, s):
            return (0, 1) if len(s) < 20 else ()

        def apply(self, s, m):
            return s + (m,)

        def move_code(self, s, m):
            return (len(s), m)

        def reward(self, s):
            return float(s == (0, 1, 1) * 6 + (0, 0))

    answer = (0, 1, 1) * 6 + (0, 0)
    # the training solutions agree with the answer on most positions only: the prior is soft there
    noisy = [tuple(b if (i + k) % 5 else 1 - b for i, b in enumerate(answer)) for k in range(5)]
    prior = Prior.learn([(Needle(), answer)] * 5 + [(Needle(), s) for s in noisy])
    assert 0 < prior.ratio((0, 0)) < 1
    sampled = nrpa(Needle(), level=0, prior=prior, temperature=4.0, playouts=2000, target=1.0, seed=0, progress=None)
    plain = nrpa(Needle(), level=0, playouts=2000, target=1.0, seed=0, progress=None)
    guided = nrpa(Needle(), level=2, per_level=20, prior=prior, temperature=4.0, playouts=2000, target=1.0, seed=0,
                  progress=None)
    assert sampled.stopped == guided.stopped == "target" and plain.reached is None
    assert sampled.best_moves == guided.best_moves == answer


# ---------------------------------------------------------------- the searches find optima


def test_nmcs_finds_the_optimum_of_small_toys():
    assert nmcs(Bits(8), level=1, seed=0, progress=None).best_value == 1.0  # a greedy look-ahead suffices
    tour = Tour(5)
    best, _ = tour.optimum()
    assert max(nmcs(tour, level=1, seed=s, progress=None).best_value for s in range(3)) == pytest.approx(best)
    tour = Tour(6)
    best, _ = tour.optimum()
    assert max(nmcs(tour, level=2, seed=s, progress=None).best_value for s in range(3)) == pytest.approx(best)
    # Trap's all-zero answer is deceptive: levels 2 and 3 end on ones, level 4 looks far enough ahead
    assert nmcs(Trap(), level=3, seed=0, progress=None).best_value < 1.0
    trap = nmcs(Trap(), level=4, seed=0, progress=None)
    assert trap.best_value == 1.0 and trap.best_moves == (0,) * 6


def test_nrpa_finds_the_optimum_of_small_toys():
    tour = BENCH.CodedTour(7)  # the usual NRPA code of a tour: (previous, next)
    best = max(tour.reward(p) for p in itertools.permutations(range(7)))
    found = [nrpa(tour, level=2, per_level=50, coded=False, seed=s, progress=None) for s in range(2)]
    assert max(f.best_value for f in found) == pytest.approx(best)
    assert found[0].iterations == 2500 and found[0].stopped == "iterations" and found[0].searches == 1
    assert nrpa(Bits(10, "ones"), level=2, per_level=10, seed=0, progress=None).best_value == 1.0


def test_nmcs_level_2_beats_level_1_which_beats_sampling_on_average():
    tour = Tour(8, seed=7)
    means = [np.mean([nmcs(tour, level=k, seed=s, progress=None).best_value for s in range(4)]) for k in (0, 1, 2)]
    assert means[0] < means[1] <= means[2]


def test_nrpa_is_alg3_with_a_copy_per_level_and_ties_replacing_the_best():
    """A literal transcription of Algs. 1-3 (deep copies, >=) plays the same playouts for a seed."""
    seen = []

    class Logged(Bits):
        def reward(self, s):
            seen.append(s)
            return float(sum(s) >= 3)  # many ties

    problem = Logged(6)

    def reference(level, policy, rng):
        if level == 0:
            final, moves, trace = softmax_playout(problem, policy, rng)
            return problem.reward(final), trace
        best, best_trace = -math.inf, None
        for _ in range(4):
            score, trace = reference(level - 1, dict(policy), rng)
            if score >= best:
                best, best_trace = score, trace
            adapt(policy, best_trace, 1.0)
        return best, best_trace

    reference(3, {}, np.random.default_rng(5))
    expected, seen[:] = list(seen), []
    result = nrpa(problem, level=3, per_level=4, seed=np.random.default_rng(5), progress=None)
    assert seen == expected and result.iterations == 64
    # with > instead of >=, the search would differ
    seen[:] = []

    def strict(level, policy, rng):
        if level == 0:
            final, moves, trace = softmax_playout(problem, policy, rng)
            return problem.reward(final), trace
        best, best_trace = -math.inf, None
        for _ in range(4):
            score, trace = strict(level - 1, dict(policy), rng)
            if score > best:
                best, best_trace = score, trace
            adapt(policy, best_trace, 1.0)
        return best, best_trace

    strict(3, {}, np.random.default_rng(5))
    assert seen != expected


# ---------------------------------------------------------------- the domains


def horner_problem(**options):
    from hornermcts.order.problem import HornerOrderProblem
    from hornermcts.research.families import random_polynomial

    class ByPosition(HornerOrderProblem):
        """NRPA's code of a variable: (position in the scheme, variable)."""

        def move_code(self, state, move):
            return len(state), move

    return ByPosition(random_polynomial(6, 60, max_degree=4, seed=1), **options)


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_nmcs_and_nrpa_on_the_horner_order_problem(direction):
    problem = horner_problem(direction=direction)
    best = max(problem.reward(p) for p in itertools.permutations(problem.variables))
    by_nmcs = max((nmcs(problem, level=3, seed=s, progress=None) for s in range(2)), key=lambda r: r.best_value)
    by_nrpa = max((nrpa(problem, level=2, per_level=50, seed=s, progress=None) for s in range(2)),
                  key=lambda r: r.best_value)
    for result in (by_nmcs, by_nrpa):
        assert result.best_value == best
        assert problem.reward(replay(problem, result.best_moves)) == best
        assert sorted(result.best_moves) == sorted(problem.variables)
    target = nrpa(problem, level=3, per_level=25, target=best, playouts=20_000, seed=1, progress=None)
    assert target.stopped == "target" and target.reached == target.history[-1][0] == target.iterations


def test_nmcs_and_nrpa_on_samegame():
    from hornermcts.domains.samegame import SameGame, SameGameByGroup, random_board, solve_exhaustive

    game = SameGame(random_board(5, 5, 3, seed=11))
    best, _ = solve_exhaustive(game)
    wrapped = SameGameByGroup(game)
    state = game.root()
    assert {wrapped.move_code(state, m) for m in game.moves(state)} == {(c, s) for _, s, c in game.groups(state)}
    by_nmcs = nmcs(wrapped, level=2, seed=0, progress=None)
    by_nrpa = nrpa(wrapped, level=2, per_level=40, seed=0, progress=None)
    for result in (by_nmcs, by_nrpa):
        assert result.best_value == best
        assert game.score(result.best_moves) == best
    assert nrpa(wrapped, level=1, target=best, playouts=20_000, seed=2, progress=None).stopped == "target"


# ---------------------------------------------------------------- budgets, seeds, interruption


def test_playout_budgets_restart_the_search_and_count_exactly():
    tour = Tour(5)
    result = nrpa(tour, level=1, per_level=10, playouts=37, seed=0, progress=None)
    assert result.iterations == 37 and result.stopped == "iterations" and result.searches == 4
    result = nmcs(Bits(4), level=1, playouts=30, seed=0, progress=None)
    assert result.iterations == 30 and result.searches == 4  # 8 playouts per level-1 search
    assert nmcs(Bits(4), level=1, seed=0, progress=None).iterations == 8
    assert nrpa(tour, level=0, seed=0, progress=None).iterations == 1
    sampled = nrpa(tour, level=0, playouts=50, seed=0, progress=None)
    assert sampled.iterations == 50 and sampled.searches == 50


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_a_time_limit_stops_the_search(clock):
    result = nrpa(Tour(8), level=3, per_level=100, time_limit=0.2, clock=clock, seed=0, progress=None)
    assert result.stopped == "time" and 0 < result.iterations < 100**3 and result.clock == clock
    result = nmcs(Tour(8), level=4, time_limit=0.2, clock=clock, seed=0, progress=None)
    assert result.stopped == "time" and result.iterations > 0


def test_target_records_when_it_was_first_reached():
    tour = Tour(6)
    best, _ = tour.optimum()
    result = nmcs(tour, level=2, target=best, playouts=10_000, seed=0, progress=None)
    assert result.stopped == "target" and result.reached == result.iterations == result.history[-1][0]
    assert result.reached_seconds >= 0 and result.best_value == pytest.approx(best)
    unreached = nrpa(tour, level=1, per_level=5, target=best + 1, playouts=20, seed=0, progress=None)
    assert unreached.reached is None and unreached.reached_seconds is None and unreached.stopped == "iterations"


def test_results_repeat_for_a_seed_and_report_a_fresh_one():
    for search in (lambda seed: nmcs(Tour(6), level=1, seed=seed, progress=None),
                   lambda seed: nrpa(Tour(6), level=2, per_level=8, seed=seed, progress=None)):
        one, two = search(9), search(9)
        assert one == two and dataclasses.replace(two, elapsed=one.elapsed) == one
        fresh = search(None)
        assert isinstance(fresh.seed, int) and search(fresh.seed) == fresh
        assert any(search(s) != one for s in range(3))


def test_the_result_has_the_core_fields_and_an_improving_history():
    result = nrpa(Tour(6), level=2, per_level=10, seed=3, progress=None)
    assert isinstance(result, NestedResult) and result.maximize and result.seed == 3
    values = [v for _, v in result.history]
    counts = [k for k, _ in result.history]
    assert values[-1] == result.best_value and all(b > a for a, b in zip(values, values[1:]))
    assert counts[0] == 1 and all(b > a for a, b in zip(counts, counts[1:]))
    assert Tour(6).reward(replay(Tour(6), result.best_moves)) == result.best_value
    assert result.best_state == tuple(result.best_moves) and result.level == 2


class TourCost:
    """Tour(6) as a cost problem: the summed step costs, minimised; NRPA codes (previous, next)."""

    def __init__(self):
        self.tour = Tour(6)

    def root(self):
        return ()

    def moves(self, state):
        return self.tour.moves(state)

    def apply(self, state, move):
        return state + (move,)

    def move_code(self, state, move):
        return (state[-1] if state else None), move

    def cost(self, state):
        return round(-100 * self.tour.reward(state))


def test_cost_problems_are_minimised_and_reported_as_costs():
    problem = TourCost()
    best = min(problem.cost(p) for p in itertools.permutations(range(6)))
    calls = []
    for result in (max((nmcs(problem, level=2, seed=s, progress=None) for s in range(3)), key=lambda r: -r.best_value),
                   nrpa(problem, level=3, per_level=10, seed=0, progress=lambda i, v: calls.append(v))):
        assert result.best_value == best and not result.maximize
        assert problem.cost(replay(problem, result.best_moves)) == best
        costs = [v for _, v in result.history]
        assert costs[-1] == best and all(b < a for a, b in zip(costs, costs[1:]))
    assert calls[-1] == best
    solved = nrpa(problem, level=2, per_level=40, target=best + 2, playouts=5000, seed=0, progress=None)
    assert solved.stopped == "target" and solved.best_value <= best + 2 and solved.reached == solved.iterations
    early = nmcs(problem, level=1, playouts=1, seed=0, progress=None)
    assert early.iterations == 1 and early.best_value == early.history[0][1] > 0


def test_infeasible_outcomes_rank_below_every_feasible_one():
    class AtMostTwo(Bits):
        """Four bits, as many ones as possible but at most two: more is infeasible by the excess."""

        def __init__(self):
            super().__init__(4)

        def reward(self, state):
            ones = sum(state)
            return Infeasible(ones - 2) if ones > 2 else float(ones)

    for result in (nmcs(AtMostTwo(), level=2, seed=0, progress=None),
                   nrpa(AtMostTwo(), level=2, per_level=20, seed=0, progress=None)):
        assert result.best_value == 2.0 and sum(result.best_moves) == 2

    class Never(Bits):
        def reward(self, state):
            return Infeasible(1 + sum(state))

    result = nrpa(Never(3), level=1, per_level=30, target=0.0, seed=0, progress=None)
    assert result.best_value == Infeasible(1) and result.best_moves == (0, 0, 0) and result.reached is None


class Interrupting(Tour):
    """A Tour whose ``apply`` raises KeyboardInterrupt (as Ctrl-C would) after ``calls`` calls."""

    def __init__(self, calls: int):
        super().__init__(6)
        self.calls = calls

    def apply(self, state, move):
        self.calls -= 1
        if self.calls < 0:
            raise KeyboardInterrupt
        return super().apply(state, move)


@pytest.mark.parametrize("search", ["nmcs", "nrpa"])
def test_ctrl_c_returns_the_best_so_far(search):
    problem = Interrupting(500)
    if search == "nmcs":
        result = nmcs(problem, level=2, seed=0, progress=None)
    else:
        result = nrpa(problem, level=2, per_level=50, seed=0, progress=None)
    assert result.stopped == "interrupt" and result.interrupted and 0 < result.iterations
    assert Tour(6).reward(replay(Tour(6), result.best_moves)) == result.best_value
    early = nrpa(Interrupting(0), level=1, seed=0, progress=None)
    assert early.stopped == "interrupt" and early.iterations == 0 and early.best_value == -math.inf


def test_progress_is_reported_at_the_end():
    calls = []
    result = nrpa(Tour(5), level=2, per_level=5, seed=0, progress=lambda i, best: calls.append((i, best)))
    assert calls[-1] == (result.iterations, result.best_value)


# ---------------------------------------------------------------- the coded hook


def test_the_coded_path_gives_the_same_search_as_the_generic_one():
    tour = BENCH.CodedTour(7, seed=3)
    coded = nrpa(tour, level=2, per_level=15, coded=True, seed=1, progress=None)
    generic = nrpa(tour, level=2, per_level=15, coded=False, seed=1, progress=None)
    assert coded == generic and nrpa(tour, level=2, per_level=15, seed=1, progress=None) == coded  # auto: coded
    prior = Prior.learn([(tour, (0, 1, 2, 3, 4, 5, 6)), (tour, (0, 2, 1, 3, 4, 6, 5))])
    coded = nrpa(tour, level=1, per_level=30, prior=prior, temperature=2.0, seed=4, progress=None)
    generic = nrpa(tour, level=1, per_level=30, prior=prior, temperature=2.0, coded=False, seed=4, progress=None)
    assert coded == generic


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("options, name", [
    ({"level": -1}, "level"),
    ({"per_level": 0}, "per_level"),
    ({"alpha": float("nan")}, "alpha"),
    ({"temperature": 0.0}, "temperature"),
    ({"clock": "gpu"}, "clock"),
    ({"target": "high"}, "target"),
    ({"prior": 42}, "prior"),
    ({"prior": "problem"}, "prior"),
    ({"coded": True}, "coded"),
    ({"coded": "yes"}, "coded"),
    ({"playouts": 0}, "playouts"),
    ({"time_limit": -1.0}, "time_limit"),
    ({"seed": -3}, "seed"),
    ({"progress": "sometimes"}, "progress"),
])
def test_bad_options_are_option_errors_naming_them(options, name):
    with pytest.raises(OptionError, match=name):
        nrpa(Tour(4), **{"level": 1, "per_level": 2, "progress": None, **options})


def test_nmcs_bad_options():
    with pytest.raises(OptionError, match="level"):
        nmcs(Tour(4), level=1.5)
    with pytest.raises(OptionError, match="playout"):
        nmcs(Tour(4), playout="uniform")
    with pytest.raises(TypeError, match="lacks"):
        nmcs(object())
