"""optimize(): the Horner-order search on the core, its options, result and views."""
from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest
import sympy

import hornermcts
from hornermcts.research.families import random_polynomial
from hornermcts.cost.fast_counter import FastCounter
from hornermcts.pipeline import baseline_orders, optimize
from hornermcts.order.problem import HornerOrderProblem
from hornermcts.polynomial import Polynomial

x, y, z = sympy.symbols("x y z")
PAPER = x**3 * y**2 + x**2 * y + x**3 * z


@pytest.fixture(scope="module")
def small():
    # 6 variables: 720 orders, brute force is cheap
    return random_polynomial(6, 40, max_degree=4, seed=3)


def brute_force_best(poly):
    counter = FastCounter(poly)
    return min(counter.count(list(p)) for p in itertools.permutations(range(poly.n_vars)))


@pytest.mark.parametrize("schedule", ["sa-uct", "uct"])
@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_search_finds_brute_force_optimum(small, schedule, direction):
    best = brute_force_best(small)
    found = min(optimize(small, preset="mcts", greedy=False, iterations=400, seed=s, schedule=schedule,
                         direction=direction).after.total
                for s in range(3))
    assert found == best


def test_result_is_exact_and_consistent(small):
    result = optimize(small, iterations=100, seed=1)
    expr = small.to_sympy()
    assert sympy.expand(result.expression() - expr) == 0
    reps, (out,) = result.assignments()
    assert sympy.expand(out.subs(list(reversed(reps))) - expr) == 0
    assert result.cse == FastCounter(small).count_detail(
        [small.symbols.index(s) for s in result.order])
    assert result.after.total <= result.cse.total
    assert result.after == result.dag.count()
    ops = [o for _, o in result.history]
    assert ops == sorted(ops, reverse=True) and len(set(ops)) == len(ops)
    assert ops[-1] <= min(result.baselines.values()) and ops[-1] <= result.cse.total
    assert result.node_count >= 1 and 1 <= result.max_depth <= small.n_vars
    assert result.before.total == hornermcts.original_count(small).total
    assert "order:" in result.summary()


def test_same_seed_same_result_different_seed_differs(small):
    a = optimize(small, iterations=150, seed=5)
    b = optimize(small, iterations=150, seed=5)
    assert (a.order, a.history, a.after) == (b.order, b.history, b.after)
    runs = {optimize(small, iterations=30, seed=s, cp=5.0).history for s in range(6)}
    assert len(runs) > 1


def test_both_directions_keep_the_better(small):
    both = optimize(small, preset="mcts", greedy=False, iterations=100, seed=2, direction="both")
    assert len(both.search) == 2
    fwd = optimize(small, preset="mcts", greedy=False, iterations=100, seed=2, direction="forward")
    assert both.after.total <= fwd.after.total


def test_backward_scheme_is_reversed_state():
    p = Polynomial((x, y, z), [[3, 2, 0], [2, 1, 0], [3, 0, 1]], [1, 1, 1])
    problem = HornerOrderProblem(p, direction="backward")
    state = (2, 1, 0)
    assert problem.scheme(state) == (0, 1, 2)
    assert problem.state_of((0, 1, 2)) == state
    assert problem.operations(state) == 6


def test_paper_example_and_absent_variables():
    w = sympy.Symbol("w")
    p = Polynomial((x, y, z, w), [[3, 2, 0, 0], [2, 1, 0, 0], [3, 0, 1, 0]], [1, 1, 1])
    result = optimize(p, iterations=50, seed=0)
    assert result.after.total == 6 and result.order[:1] == (x,) and result.order[-1] == w


def test_iterations_zero_uses_best_occurrence_order(small):
    result = optimize(small, iterations=0, greedy=False)
    assert result.search == () and result.after.total == min(result.baselines.values())
    assert optimize(small, iterations=0).after.total <= result.after.total


def test_time_limit_returns_best_so_far():
    poly = random_polynomial(9, 60, max_degree=4, seed=3)  # 9! orders: not all seen in 0.2 s (a small tree would be)
    result = optimize(poly, preset="mcts", greedy=False, iterations=None, time_limit=0.2, seed=0)
    assert result.search[0].stopped == "time"
    assert result.cse.total <= min(result.baselines.values())  # the best so far: never worse than where it started


def test_expired_deadline_returns_the_occurrence_order_exactly():
    """No time left after the first DAG: the answer in hand (occurrence order, Horner + CSE), exact."""
    from hornermcts.deadline import Deadline

    poly = random_polynomial(6, 40, max_degree=4, seed=5)
    result = optimize(poly, iterations=None, time_limit=1.0, deadline=Deadline(0.0), seed=0)
    assert result.after.total == result.cse.total == result.baselines["occurrence forward"]
    assert [str(s) for s in result.order] == [str(poly.symbols[j])
                                             for j in baseline_orders(poly)["occurrence forward"]]
    assert sympy.expand(result.expression() - poly.to_sympy()) == 0
    assert all(s.elapsed < 0.5 for s in result.search)  # each search got the minimum share, not time_limit


def test_expired_deadline_neither_factors_nor_searches(monkeypatch):
    """Issue 36 item 7: with the deadline gone, factoring and the searches' set-up (1.9 s on res(8,6)) are skipped."""
    from hornermcts.deadline import Deadline

    optimize_module = sys.modules["hornermcts.pipeline"]

    def never(*args, **kwargs):
        raise AssertionError("called after the deadline")

    monkeypatch.setattr(optimize_module, "factorization", never)
    monkeypatch.setattr(optimize_module, "search_orders", never)
    product = sympy.expand((x + 2 * y + 1) * (x**2 - y + 3) * (y + 5))
    result = optimize(product, time_limit=1.0, iterations=None, deadline=Deadline(0.0), seed=0)
    assert result.search == () and result.form == "optimized"
    assert result.after.total == result.cse.total == result.baselines["occurrence forward"]
    assert sympy.expand(result.expression() - product) == 0


def test_deadline_keeps_the_time_to_write_the_program(monkeypatch):
    """The code written after the call is given its time, sized to the program: the search stops before it."""
    from hornermcts.deadline import Deadline

    optimize_module = sys.modules["hornermcts.pipeline"]
    poly = random_polynomial(6, 40, max_degree=4, seed=5)
    writing = Deadline(30.0).before(0.0, per_operation=1.0)  # a second per operation: far more than 30 s
    monkeypatch.setattr(optimize_module, "search_orders", lambda *a, **k: pytest.fail("searched"))
    result = optimize(poly, iterations=None, time_limit=30.0, deadline=writing, seed=0)
    assert writing.remaining() == 0.0 and writing.per_operation == 0.0  # kept once
    assert result.after.total == result.baselines["occurrence forward"]
    assert sympy.expand(result.expression() - poly.to_sympy()) == 0


def test_time_limit_is_shared_by_the_searches():
    """Two MCTS directions and annealing split one time limit; each ran, none took it all."""
    poly = random_polynomial(9, 60, max_degree=4, seed=3)
    result = optimize(poly, direction="both", iterations=None, time_limit=0.6, seed=0)
    assert [type(s).__name__ for s in result.search] == ["MCTSResult", "MCTSResult", "AnnealResult"]
    assert all(s.stopped == "time" for s in result.search)
    assert result.search[0].elapsed < 0.45  # a third of what was left when it started, plus one iteration
    assert sympy.expand(result.expression() - poly.to_sympy()) == 0


def test_trivial_inputs():
    for expr in (sympy.Integer(0), sympy.Integer(7), x, 3 * x):
        result = optimize(expr, iterations=10, seed=0)
        assert sympy.simplify(result.expression() - expr) == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"iterations": -1}, "iterations"),
        ({"iterations": 1.5}, "iterations"),
        ({"iterations": None}, "iterations, time_limit"),
        ({"cp": -0.1}, "cp"),
        ({"cp": float("nan")}, "cp"),
        ({"schedule": "annealing"}, "schedule"),
        ({"direction": "sideways"}, "direction"),
        ({"repeats": 0}, "repeats"),
        ({"time_limit": 0}, "time_limit"),
        ({"preset": "O5"}, "preset"),
        ({"greedy": "yes"}, "greedy"),
        ({"candidates": 0}, "candidates"),
    ],
)
def test_bad_options_are_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        optimize(PAPER, **kwargs)


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        optimize(PAPER, 100)


def test_progress_callback_is_called(small):
    calls = []
    optimize(small, iterations=200, seed=0, progress=lambda i, r: calls.append((i, r)))
    assert calls and calls[-1][0] >= 199


def test_repeats_keep_the_best(small):
    kw = dict(preset="mcts", greedy=False, iterations=40, cp=3.0)
    one = [optimize(small, seed=s, **kw).after.total for s in range(2)]
    assert optimize(small, seed=0, repeats=3, **kw).after.total <= max(one)


def test_orders_handle_big_trees():
    # 30 variables: the search still returns a valid, exact result
    poly = random_polynomial(30, 200, max_degree=3, seed=1)
    result = optimize(poly, iterations=100, seed=0)
    assert sorted(map(str, result.order)) == sorted(map(str, poly.symbols))
    point = list(np.random.default_rng(0).integers(-5, 5, poly.n_vars))
    assert hornermcts.evaluate_dag(result.dag, point) == poly.evaluate(point)


def test_deterministic_by_default_and_none_varies():
    """seed defaults to 0: the same result every call (as sympy.cse); None draws a fresh seed, recorded."""
    import sympy

    import hornermcts

    x, y, z, w = sympy.symbols("x y z w")
    expr = sympy.expand((x + 2 * y + z) ** 3 * (w + x - 1) + 5 * x * y * z * w)
    first = hornermcts.optimize(expr, iterations=30)
    again = hornermcts.optimize(expr, iterations=30)
    assert first.options["seed"] == 0
    assert (first.order, first.after) == (again.order, again.after)
    assert hornermcts.cse(expr, iterations=30) == hornermcts.cse(expr, iterations=30)
    fresh = [hornermcts.optimize(expr, iterations=30, seed=None).options["seed"] for _ in range(3)]
    assert all(isinstance(s, int) for s in fresh) and len(set(fresh)) > 1


def test_evaluate_dag_takes_float_coefficients_and_points_exactly():
    """A Float coefficient is the exact value of its double; points may be ints, Fractions, floats or SymPy numbers."""
    from fractions import Fraction

    x, y = sympy.symbols("x y")
    result = optimize(sympy.Float(0.1) * x**2 * y + x * y + sympy.Rational(1, 3) * y**2, iterations=10, seed=0,
                      progress=None)
    exact = Fraction(0.1) * 12 + 6 + 3
    assert hornermcts.evaluate_dag(result.dag, {x: 2, y: 3}) == exact
    assert hornermcts.evaluate_dag(result.dag, {x: sympy.Integer(2), y: 3.0}) == exact
    half = Fraction(1, 2)
    assert hornermcts.evaluate_dag(result.dag, {x: sympy.Rational(1, 2), y: 0.5}) == (
        Fraction(0.1) * half**3 + half**2 + Fraction(1, 3) * half**2)


def test_a_search_that_sees_every_order_stops_and_skips_the_annealing():
    """Three variables: 3! orders per direction; a huge budget must not be spent on a tree already seen whole."""
    x, y, z = sympy.symbols("x y z")
    result = optimize(x**2 * y + x * z + y * z**2, iterations=10**7, seed=0, progress=None, direction="forward")
    assert [type(s).__name__ for s in result.search] == ["MCTSResult"]  # the annealing had nothing left to find
    assert result.search[0].stopped == "exhausted" and result.search[0].proven
    assert result.search[0].iterations < 100
    assert result.after == optimize(x**2 * y + x * z + y * z**2, iterations=50, seed=0, progress=None,
                                    direction="forward").after


def test_several_outputs_fast_builds_the_occurrence_order_once(monkeypatch):
    """The baseline of the order the fast preset built is its count, not a second build of the same DAG."""
    optimize_module = sys.modules["hornermcts.pipeline"]

    polys = [random_polynomial(5, 30, max_degree=3, seed=s) for s in (1, 2)]
    builds = []
    real = optimize_module.horner_dag
    monkeypatch.setattr(optimize_module, "horner_dag", lambda *a, **k: builds.append(a[1]) or real(*a, **k))
    result = optimize(polys, preset="fast", substitute=False)
    assert len(builds) == 2  # the occurrence order (built once) and the backward baseline
    joint = optimize_module.prepare_outputs(polys)[1]
    for name, order in baseline_orders(joint, range(2)).items():
        assert result.baselines[name] == real(polys, [j - 2 for j in order if j >= 2]).count().total


def test_searches_of_very_many_variables_score_a_bounded_number_of_orders(monkeypatch):
    """Issue 36: annealing's restarts grew with the variables, its orders as their square (a sum of 1,000
    variables: 102,000 orders, 220 s, 3.1 GB); the searches together score at most ORDER_ENTRIES / variables."""
    optimize_module = sys.modules["hornermcts.pipeline"]
    monkeypatch.setattr(optimize_module, "ORDER_ENTRIES", 30_000, raising=False)
    n = 100
    poly = hornermcts.Polynomial(sympy.symbols(f"v0:{n}"), np.eye(n, dtype=np.int64), [1] * n)
    result = optimize(poly, seed=0, workers=1)
    assert result.after.total == n - 1
    # two searches (MCTS, annealing), each at most 30,000 // (100 * 2) = 150 orders; unbounded: 4,000 and 10,000
    assert [s.iterations for s in result.search] == [150, 150]


def test_a_relation_is_a_user_error_of_the_library():
    """Issue 37 item 6: optimize(Eq(x, 1)) raised a bare TypeError; the README promises a HornerMCTSError."""
    x = sympy.Symbol("x")
    with pytest.raises(hornermcts.HornerMCTSError, match="is an Equality") as caught:
        optimize(sympy.Eq(x, 1))
    assert isinstance(caught.value, TypeError)


def test_small_inputs_are_searched_in_this_process_unless_time_limited(monkeypatch):
    """Issue 37 item 5: forking the workers cost more than searching 13 terms; the result does not change.

    With a time limit the searches keep every core: in one process the restarts would run one after the
    other and score fewer orders in the time.
    """
    from hornermcts.search import parallel

    poly = random_polynomial(4, 30, max_degree=3, seed=3)
    asked = []
    real = parallel.worker_count
    monkeypatch.setattr(parallel, "worker_count", lambda workers: asked.append(workers) or real(workers))
    small = optimize(poly, seed=0)
    assert asked and set(asked) == {1}
    assert small.after == optimize(poly, seed=0, workers=2).after
    asked.clear()
    optimize(poly, seed=0, time_limit=0.5)
    assert asked and 1 not in asked


def test_a_time_limited_call_ends_by_its_hard_end_with_an_error_naming_the_phase():
    """time_limit bounds the API call too (issue 36 item 7): past the limit + 10 % + 1 s from the call's start, the
    work any answer needs (the first Horner scheme, its count) stops with a TimeLimitError, not a late answer."""
    import time

    from hornermcts.deadline import Deadline, check_hard, hard_end
    from hornermcts.errors import TimeLimitError

    poly = random_polynomial(12, 3000, max_degree=6, seed=3)
    started_long_ago = Deadline(1.0, start=time.perf_counter() - 10.0)  # as if reading had taken 10 s
    with pytest.raises(TimeLimitError, match=r"time_limit=1: no answer within 2\.1 s .* was still running"):
        optimize(poly, time_limit=1.0, deadline=started_long_ago, progress=None)
    check_hard()  # the call's hard end went with it
    assert optimize(poly, time_limit=1.0, progress=None).after.total > 0  # a call started now answers
    # an inner hard end never replaces the outer one, and a forked worker (another process id) never raises
    with hard_end(time.perf_counter() + 100.0, str), hard_end(time.perf_counter() - 1.0, lambda: "inner"):
        check_hard()
    with hard_end(time.perf_counter() - 1.0, lambda: "past"):
        from hornermcts import deadline as module

        at, _, message = module._HARD.get()
        token = module._HARD.set((at, -1, message))
        try:
            check_hard()
        finally:
            module._HARD.reset(token)
