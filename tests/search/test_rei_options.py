"""The thesis' adaptations of MCTS to optimisation (Rei 2016, ch. 3), as options of the one search core.

Each option is checked against a hand-worked case or a brute-force optimum
on toy problems: best-instead-of-average values, normalisation (Eq. 3.1),
infeasible outcomes (Eqs. 3.2-3.3), branch-and-bound with proofs of
optimality, lazy and limited expansion, selection interleaving (θ), CPU-time
budgets, targets, seeds and Ctrl-C.
"""
from __future__ import annotations

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.errors import OptionError
from hornermcts.search import Infeasible, Node, NormalisedUCT, check_problem, mcts
from hornermcts.search.pruning import prune, remove
from helpers.toys import Knapsack, Tour, TourCost, replay, walk


def knapsack(seed=0, n=8):
    import numpy as np

    rng = np.random.default_rng(seed)
    values = rng.integers(1, 30, n).tolist()
    weights = rng.integers(1, 20, n).tolist()
    return Knapsack(values, weights, capacity=sum(weights) // 2)


# --- the problem protocol: costs, infeasibility, bounds -------------------------------------------------------------

def test_cost_problems_keep_the_protocol_and_their_bounds_are_checked():
    check_problem(TourCost(5), simulations=20, seed=0)
    check_problem(knapsack(1), simulations=30, seed=0)

    class Bad(TourCost):
        def bound(self, state):
            return self.cost(state) + 1000.0  # above the cost reached: not a lower bound

    with pytest.raises(AssertionError, match="is above the cost"):
        check_problem(Bad(4), simulations=3, seed=0)


def test_a_problem_defines_reward_or_cost_not_both():
    class Both(TourCost):
        def reward(self, state):
            return 0.0

    with pytest.raises(TypeError, match="both reward and cost"):
        mcts(Both(4), iterations=5)


def test_infeasible_needs_a_positive_violation():
    with pytest.raises(OptionError, match="violation > 0"):
        Infeasible(0)


# --- best instead of average (§3.1) and normalisation (Eq. 3.1) ---------------------------------------------------

def _parent(children, *, best, worst, visits, infeasible=0, least=math.inf, most=-math.inf):
    parent = Node(None)
    parent.visits, parent.best, parent.worst = visits, best, worst
    parent.infeasible, parent.least_violation, parent.most_violation = infeasible, least, most
    for move, stats in enumerate(children):
        child = Node(None, move, parent)
        for name, value in stats.items():
            setattr(child, name, value)
        parent.children.append(child)
    return parent


def test_best_value_prefers_the_child_with_the_best_outcome_not_the_best_mean():
    # child 0: mean 5, best 6; child 1: mean 2, best 9
    parent = _parent([dict(visits=4, total=20.0, best=6.0, worst=4.0), dict(visits=4, total=8.0, best=9.0, worst=0.0)],
                     best=9.0, worst=0.0, visits=8)
    assert NormalisedUCT(value="mean", scope=None)(parent, 0.0).move == 0
    assert NormalisedUCT(value="best", scope=None)(parent, 0.0).move == 1


def test_normalisation_by_the_parent_and_globally():
    parent = _parent([dict(visits=2, best=7.0, worst=3.0), dict(visits=2, best=5.0, worst=5.0)],
                     best=7.0, worst=3.0, visits=4)
    rule = NormalisedUCT()
    assert [rule.exploit(parent, c) for c in parent.children] == [1.0, 0.5]  # (b_n - w_p) / (b_p - w_p)
    board = Node(None)
    board.visits, board.best, board.worst = 10, 11.0, 1.0
    rule = NormalisedUCT(scope="global", board=board)
    assert [rule.exploit(parent, c) for c in parent.children] == [0.6, 0.4]
    flat = _parent([dict(visits=1, best=2.0, worst=2.0)], best=2.0, worst=2.0, visits=1)
    assert NormalisedUCT().exploit(flat, flat.children[0]) == 0.0  # b_p == w_p


def test_exploration_term_is_c_sqrt_log_parent_over_child():
    parent = _parent([dict(visits=9, best=7.0, worst=3.0), dict(visits=1, best=3.0, worst=3.0)],
                     best=7.0, worst=3.0, visits=10)
    # U = X + C sqrt(ln 10 / v): child 0 scores 1 + C 0.506, child 1 scores 0 + C 1.517
    assert NormalisedUCT()(parent, 0.9).move == 0
    assert NormalisedUCT()(parent, 1.0).move == 1


# --- infeasibility (Eqs. 3.2-3.3, the non-overlapping form) -------------------------------------------------------

def test_infeasible_children_score_by_eq_3_3():
    parent = _parent(
        [dict(visits=3, best=4.0, worst=2.0, infeasible=1, least_violation=5.0),
         dict(visits=2, infeasible=2, least_violation=1.0, most_violation=9.0),
         dict(visits=1, infeasible=1, least_violation=9.0, most_violation=9.0)],
        best=4.0, worst=2.0, visits=6, infeasible=4, least=1.0, most=9.0,
    )
    rule = NormalisedUCT()
    # T = 6, t• = 4, t◇ = 2; feasible: t•/T + t◇/T X◇ = 4/6 + 2/6 * 1; infeasible: t•/(T+1) X•
    feasible, near, far = (rule.exploit(parent, c) for c in parent.children)
    assert feasible == pytest.approx(4 / 6 + 2 / 6)
    assert near == pytest.approx(4 / 7 * 1.0) and far == pytest.approx(0.0)


@settings(max_examples=200, deadline=None)
@given(
    feasible_visits=st.integers(1, 50), infeasible_visits=st.integers(1, 50),
    values=st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=6),
    violations=st.lists(st.floats(1e-3, 1e6), min_size=2, max_size=6),
)
def test_every_feasible_child_ranks_above_every_infeasible_one(feasible_visits, infeasible_visits, values,
                                                               violations):
    children = [dict(visits=1, best=v, worst=v) for v in values]
    children += [dict(visits=1, infeasible=1, least_violation=v, most_violation=v) for v in violations]
    parent = _parent(children, best=max(values), worst=min(values), visits=feasible_visits + infeasible_visits,
                     infeasible=infeasible_visits, least=min(violations), most=max(violations))
    rule = NormalisedUCT()
    scores = [rule.exploit(parent, c) for c in parent.children]
    assert min(scores[: len(values)]) > max(scores[len(values):])


def test_the_search_finds_the_feasible_optimum_among_infeasible_outcomes():
    problem = knapsack(3)
    result = mcts(problem, iterations=2000, value="best", normalize="parent", seed=1, progress=None)
    assert result.best_value == problem.optimum() and result.proven and result.stopped == "exhausted"
    assert problem.reward(replay(problem, result.best_moves)) == result.best_value


def test_infeasible_outcomes_need_rei_loop():
    problem = Knapsack([1, 1], [5, 5], capacity=1)
    with pytest.raises(OptionError, match="infeasible outcomes need"):
        mcts(problem, iterations=20, seed=0, progress=None)


def test_only_infeasible_outcomes_give_the_least_violation():
    problem = Knapsack([1, 1], [5, 6], capacity=1)
    problem.moves = lambda state: (1,) if len(state) < 2 else ()  # must pack everything
    result = mcts(problem, iterations=10, value="best", normalize="parent", seed=0, progress=None)
    assert result.best_value == Infeasible(10.0) and result.proven


# --- branch-and-bound and proofs (§3.4) ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_branch_and_bound_proves_the_brute_force_optimum_with_fewer_nodes(seed):
    plain, bounded = knapsack(seed, n=10), knapsack(seed, n=10)
    full = mcts(plain, iterations=10_000, value="best", normalize="parent", seed=seed, progress=None)
    cut = mcts(bounded, iterations=10_000, value="best", normalize="parent", prune=True, seed=seed, progress=None)
    assert full.best_value == cut.best_value == plain.optimum()
    assert full.proven and cut.proven and cut.stopped == "exhausted"
    assert cut.iterations < full.iterations and bounded.applied < plain.applied


def test_no_child_is_created_whose_bound_cannot_beat_the_incumbent():
    problem = knapsack(5, n=9)
    result = mcts(problem, iterations=40, value="best", normalize="parent", prune=True, seed=0, progress=None)
    incumbent = result.best_value
    assert all(node.bound > incumbent for node in walk(result.tree) if node.parent is not None)


def test_a_cost_problem_is_minimised_and_reported_as_a_cost():
    problem = TourCost(6)
    result = mcts(problem, iterations=5000, value="best", normalize="parent", prune=True, seed=2, progress=None)
    best_cost, best_order = problem.optimum()
    assert result.maximize is False and result.proven
    assert result.best_value == best_cost and problem.cost(replay(problem, result.best_moves)) == best_cost
    costs = [value for _, value in result.history]
    assert costs == sorted(costs, reverse=True) and costs[-1] == best_cost  # improvements go down
    assert len(result.history_seconds) == len(result.history)


def test_without_a_bound_pruning_is_refused():
    with pytest.raises(OptionError, match="bound"):
        mcts(Tour(4), iterations=10, prune=True)


def test_pruning_removes_bounded_nodes_and_recomputes_the_best():
    root = Node("r")
    root.untried = []
    a, b = Node("a", "a", root), Node("b", "b", root)
    root.children = [a, b]
    a.bound, b.bound = 5.0, 9.0
    a.best, b.best, root.own = 4.0, 2.0, 1.0
    root.best = 4.0
    assert not prune(root, 5.0)
    assert root.children == [b] and root.best == 2.0  # a's subtree cannot beat 5; the best left is b's
    assert remove(b)  # the last child of a fully expanded root: the root is exhausted


def test_exhaustion_proves_optimality_without_a_bound():
    problem = TourCost(5)
    result = mcts(problem, iterations=10_000, value="best", seed=0, progress=None)
    assert result.proven and result.best_value == problem.optimum()[0]
    assert result.iterations <= 1 + sum(math.perm(5, k) for k in range(1, 6))  # each node simulated once


# --- expansion: lazy, limited, full (§3.5) ------------------------------------------------------------------------

class Ordered(TourCost):
    """The tour, with its moves offered cheapest step first (lazy expansion takes them in that order)."""

    def __init__(self, cities=5):
        super().__init__(cities)
        self.generated = 0

    def iter_moves(self, state):
        previous = state[-1] if state else self.cities
        for move in sorted(self.moves(state), key=lambda x: self.matrix[previous][x]):
            self.generated += 1
            yield move


def test_lazy_expansion_takes_moves_in_the_generator_order_one_per_visit():
    problem = Ordered()
    result = mcts(problem, iterations=6, expansion="lazy", value="best", normalize="parent", seed=0,
                  progress=None)
    root_moves = [move for move, _ in result.root_visits]
    assert root_moves == sorted(root_moves, key=lambda x: problem.matrix[problem.cities][x])[: len(root_moves)]
    assert problem.generated < 5 * 6  # generated only as far as needed


@pytest.mark.parametrize("limit, expected_children", [(1, 1), (3, 3), (None, 5)])
def test_expansion_limit_simulates_that_many_children_per_visit(limit, expected_children):
    # iteration 1 simulates the root, iteration 2 expands the root: `limit` children at once
    result = mcts(TourCost(5), iterations=1 + expected_children, value="best", expansion="single",
                  expansion_limit=limit, seed=0, progress=None)
    assert len(result.root_visits) == expected_children and result.iterations == 1 + expected_children


def test_full_expansion_with_no_limit_is_the_thesis_npp_setting():
    problem = TourCost(5)
    result = mcts(problem, iterations=10_000, value="best", normalize="parent", expansion="full",
                  expansion_limit=None, seed=0, progress=None)
    assert result.proven and result.best_value == problem.optimum()[0]


# --- selection interleaving θ (§3.6) ------------------------------------------------------------------------------

@pytest.mark.parametrize("theta", [2, 5])
def test_interleaving_still_finds_and_proves_the_optimum(theta):
    problem = TourCost(5)
    result = mcts(problem, iterations=10_000, value="best", normalize="parent", interleave=theta, seed=1,
                  progress=None)
    assert result.proven and result.best_value == problem.optimum()[0]


def test_interleaving_descends_before_the_root_is_fully_expanded():
    # 1 root simulation + 7 iterations: without θ all 7 go to the root's children; with θ = 2 every
    # second pass through the root descends into a child instead
    deep = mcts(TourCost(7), iterations=8, value="best", normalize="parent", interleave=2, seed=0, progress=None)
    wide = mcts(TourCost(7), iterations=8, value="best", normalize="parent", seed=0, progress=None)
    assert len(wide.root_visits) == 7 and wide.max_depth == 1
    assert len(deep.root_visits) == 4 and deep.max_depth == 2


@pytest.mark.parametrize("theta", [1, 0, 2.5])
def test_interleave_must_be_at_least_two(theta):
    with pytest.raises(OptionError, match="interleave"):
        mcts(Tour(3), iterations=5, interleave=theta)


# --- budgets, target, seeds, interruption -------------------------------------------------------------------------

class Sleepy(TourCost):
    def cost(self, state):
        if len(state) == self.cities:
            time.sleep(0.004)
        return TourCost.cost(self, state)


def test_cpu_clock_does_not_count_sleeping():
    wall = mcts(Sleepy(6), iterations=40, time_limit=0.03, value="best", seed=0, progress=None)
    cpu = mcts(Sleepy(6), iterations=40, time_limit=0.03, clock="cpu", value="best", seed=0, progress=None)
    assert wall.stopped == "time" and wall.iterations < 40
    assert cpu.stopped == "iterations" and cpu.iterations == 40 and cpu.elapsed < 0.03


def test_target_stops_the_search():
    problem = TourCost(6)
    optimum = problem.optimum()[0]
    result = mcts(problem, iterations=100_000, value="best", normalize="parent", target=optimum + 10, seed=0,
                  progress=None)
    assert result.stopped == "target" and result.best_value <= optimum + 10 and not result.proven


def test_rei_loop_is_reproducible_for_a_seed():
    options = dict(iterations=300, value="best", normalize="global", prune=True, interleave=3, seed=11, progress=None)
    first, second = mcts(knapsack(7, n=12), **options), mcts(knapsack(7, n=12), **options)
    assert first == second and first.history == second.history


def test_ctrl_c_returns_the_incumbent():
    class Interrupted(TourCost):
        calls = 0

        def cost(self, state):
            if len(state) == self.cities:  # a simulation's outcome (the bound prices partial states)
                Interrupted.calls += 1
                if Interrupted.calls > 30:
                    raise KeyboardInterrupt
            return TourCost.cost(self, state)

    problem = Interrupted(6)
    result = mcts(problem, iterations=1000, value="best", normalize="parent", prune=True, seed=0, progress=None)
    assert result.interrupted and result.iterations == 30
    assert TourCost.cost(problem, replay(problem, result.best_moves)) == result.best_value


def test_selection_cannot_be_combined_with_rei_values():
    from hornermcts.search import SPMCTS

    with pytest.raises(OptionError, match="selection"):
        mcts(Tour(3), iterations=5, value="best", selection=SPMCTS(d=1.0))


def test_progress_reports_costs():
    seen = []
    mcts(TourCost(5), iterations=50, value="best", seed=0, progress=lambda i, best: seen.append(best))
    assert seen and all(best > 0 for best in seen)  # costs, not negated rewards
