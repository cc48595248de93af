"""Tests of the generic drivers added to the search core: BMCTS, UCB1-TUNED,
per-move search, SP-MCTS and the Cross-Entropy Method (toy problems only)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from helpers import toys
from helpers.toys import replay, walk

from hornermcts.search import (
    SPMCTS,
    Node,
    RootedProblem,
    ThresholdExpansion,
    UCB1Tuned,
    beam_mcts,
    cem,
    mcts,
    per_move_search,
    prune_depth,
    sp_mcts,
    ucb1_tuned,
)

# --------------------------------------------------------------------------
# toy problems (the style of test_search_core.py)

class Tour(toys.Tour):
    """Order 7 items; reward 1 - cost / 200."""

    def __init__(self):
        super().__init__(7, seed=7, offset=1.0, scale=200)


class Bits(toys.Bits):
    """``length`` bits; reward: the share of ones."""

    def __init__(self, length):
        super().__init__(length, "ones")


TOUR_OPTIMUM = Tour().optimum()[0]


# --------------------------------------------------------------------------
# UCB1-TUNED


def make_parent(reward_lists):
    parent = Node(None)
    for move, rewards in enumerate(reward_lists):
        child = Node(None, move, parent)
        child.visits = len(rewards)
        child.total = float(sum(rewards))
        child.total_sq = float(sum(r * r for r in rewards))
        parent.children.append(child)
    parent.visits = sum(len(r) for r in reward_lists)
    return parent


def tuned_value(rewards, parent_visits, c, scale=1.0):
    r = np.asarray(rewards) / scale
    n = len(r)
    width = 2 * math.log(parent_visits) / n
    var = r.var() + math.sqrt(width)
    return r.mean() + c * math.sqrt(width * min(0.25, var))


@pytest.mark.parametrize("seed", range(20))
def test_ucb1_tuned_maximises_the_paper_formula(seed):
    rng = np.random.default_rng(seed)
    lists = [list(rng.random(rng.integers(1, 6)) * 0.3) for _ in range(rng.integers(2, 6))]
    parent = make_parent(lists)
    c = float(rng.choice([0.0, 0.1, 1.0, 5.0]))
    values = [tuned_value(r, parent.visits, c) for r in lists]
    assert ucb1_tuned(parent, c).move == int(np.argmax(values))
    scaled = make_parent([[x * 250 - 40 for x in r] for r in lists])  # shift and scale
    assert UCB1Tuned(scale=250)(scaled, c).move == int(np.argmax(values))


def test_ucb1_tuned_rejects_bad_scale():
    with pytest.raises(ValueError, match="scale"):
        UCB1Tuned(scale=0)


# --------------------------------------------------------------------------
# BMCTS


def test_beam_without_pruning_is_plain_mcts():
    """Below the simulation limit BMCTS does exactly what mcts does."""
    for seed in range(3):
        a = mcts(Tour(), iterations=400, cp=0.2, selection=ucb1_tuned, seed=seed, progress=None)
        b = beam_mcts(Tour(), simulation_limit=10**6, beam_width=1, iterations=400, cp=0.2, seed=seed, progress=None)
        assert a == b  # elapsed is not compared


@pytest.mark.parametrize("keep", [False, True])
def test_beam_bounds_the_tree_per_depth(keep):
    width, limit = 3, 50
    result = beam_mcts(
        Bits(12), simulation_limit=limit, beam_width=width, keep_subtrees=keep,
        iterations=1500, cp=0.3, seed=1, progress=None,
    )
    per_depth = {}
    for node in walk(result.tree):
        per_depth[node.depth] = per_depth.get(node.depth, 0) + 1
    # the beam walked down: the upper depths hold at most W nodes each
    frozen = [d for d in range(1, 13) if per_depth.get(d, 0) and per_depth[d] <= width]
    assert len(frozen) >= 5
    assert result.best_reward == 1.0
    assert replay(Bits(12), result.best_moves) == result.best_state


def test_prune_depth_keeps_the_most_visited_and_their_ancestors():
    rng = np.random.default_rng(3)
    result = mcts(Tour(), iterations=800, cp=0.5, seed=4, progress=None)
    root = result.tree
    level2 = [n for n in walk(root) if n.depth == 2]
    expected = sorted(level2, key=lambda n: -n.visits)[:4]
    assert prune_depth(root, 2, 4) == 4
    kept = [n for n in walk(root) if n.depth == 2]
    assert {id(n) for n in kept} == {id(n) for n in expected}
    assert all(not n.children and n.untried is None for n in kept)
    level1 = [n for n in walk(root) if n.depth == 1]
    assert {id(n) for n in level1} == {id(n.parent) for n in expected}
    assert all(n.untried == [] for n in walk(root) if n.depth < 2)
    assert prune_depth(root, 9, 4) == 0
    del rng


@pytest.mark.parametrize("seed", range(4))
def test_beam_finds_the_tour_optimum(seed):
    result = beam_mcts(
        Tour(), simulation_limit=600, beam_width=10, iterations=3000, cp=1.0, seed=seed, progress=None
    )
    assert result.best_reward == pytest.approx(TOUR_OPTIMUM)
    assert replay(Tour(), result.best_moves) == result.best_state


def test_beam_validates_its_parameters():
    with pytest.raises(ValueError, match="simulation_limit"):
        beam_mcts(Tour(), simulation_limit=0, beam_width=1, iterations=10)
    with pytest.raises(ValueError, match="beam_width"):
        beam_mcts(Tour(), simulation_limit=5, beam_width=1.5, iterations=10)
    with pytest.raises(ValueError, match="budget"):
        beam_mcts(Tour(), simulation_limit=5, beam_width=1)


def test_beam_time_limit_and_restarts():
    result = beam_mcts(Tour(), simulation_limit=100, beam_width=2, time_limit=0.05, repeats=2, seed=0, progress=None)
    assert result.stopped == "time" and len(result.runs) == 2
    assert replay(Tour(), result.best_moves) == result.best_state


# --------------------------------------------------------------------------
# per-move search and SP-MCTS


def test_rooted_problem_delegates():
    sub = RootedProblem(Tour(), (3, 1))
    assert sub.root() == (3, 1) and sub.moves(sub.root()) == [0, 2, 4, 5, 6]
    assert sub.reward((3, 1)) == Tour().reward((3, 1))


@pytest.mark.parametrize("seed", range(3))
def test_per_move_search_plays_a_complete_game_that_never_gets_worse(seed):
    result = per_move_search(Tour(), iterations=60, cp=0.2, seed=seed, progress=None)
    assert replay(Tour(), result.best_moves) == result.best_state
    assert result.best_reward == Tour().reward(result.best_state)
    # keep_best: the game scores at least as much as any search found
    assert result.best_reward >= max(r.best_reward for r in result.searches) - 1e-12
    # the last state with two moves left is searched, the forced one is not
    assert len(result.searches) == Tour().cities - 1
    # each search uses its 60 iterations, or stops early once its tree is seen whole (the last moves' trees)
    for search in result.searches:
        assert search.iterations == 60 and search.stopped == "iterations" or \
            search.iterations < 60 and search.stopped == "exhausted" and search.proven
    assert result.iterations == sum(search.iterations for search in result.searches)
    assert result.searches[0].iterations == 60 and result.searches[-1].stopped == "exhausted"


def test_per_move_search_is_reproducible_and_accepts_beam():
    a = per_move_search(Tour(), iterations=40, seed=5, progress=None)
    b = per_move_search(Tour(), iterations=40, seed=5, progress=None)
    assert a.best_moves == b.best_moves and a.best_reward == b.best_reward
    c = per_move_search(
        Tour(), search=beam_mcts, simulation_limit=20, beam_width=2, iterations=40, cp=0.2, seed=5, progress=None
    )
    assert replay(Tour(), c.best_moves) == c.best_state


def test_per_move_search_finds_the_tour_optimum():
    result = per_move_search(Tour(), iterations=1500, cp=0.2, seed=0, progress=None)
    assert result.best_reward == pytest.approx(TOUR_OPTIMUM)


def test_per_move_progress_and_errors():
    calls = []
    per_move_search(Bits(4), iterations=5, seed=0, progress=lambda m, r: calls.append((m, r)))
    assert [m for m, _ in calls] == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="budget"):
        per_move_search(Bits(4))
    with pytest.raises(ValueError, match="seed"):
        per_move_search(Bits(4), iterations=5, seed=-1)


class Interrupting(Tour):
    """Raises KeyboardInterrupt once, at the n-th reward call."""

    def __init__(self, n):
        super().__init__()
        self.calls, self.n = 0, n

    def reward(self, state):
        self.calls += 1
        if self.calls == self.n:
            raise KeyboardInterrupt
        return super().reward(state)


def test_per_move_search_interrupted_finishes_the_game():
    result = per_move_search(Interrupting(150), iterations=60, seed=0, progress=None)
    assert result.interrupted and len(result.searches) == 3
    assert replay(Tour(), result.best_moves) == result.best_state
    assert result.best_reward == Tour().reward(result.best_state)


def test_sp_mcts_per_game_and_per_move():
    result = sp_mcts(Tour(), c=0.1, d=0.01, w=0.02, t=3, iterations=3000, seed=0, progress=None)
    assert result.best_reward == pytest.approx(TOUR_OPTIMUM)
    restarts = sp_mcts(Tour(), c=0.1, d=0.01, t=3, iterations=500, repeats=4, seed=0, progress=None)
    assert len(restarts.runs) == 4
    assert restarts.best_reward == max(r.best_reward for r in restarts.runs)
    per_move = sp_mcts(Tour(), c=0.1, d=0.01, t=3, per_move=True, iterations=300, seed=0, progress=None)
    assert replay(Tour(), per_move.best_moves) == per_move.best_state
    # it is mcts with the SP-MCTS rule and threshold expansion
    same = mcts(
        Tour(), selection=SPMCTS(d=0.01, w=0.02), expansion=ThresholdExpansion(3), cp=0.1,
        iterations=3000, seed=0, progress=None,
    )
    assert same == result


def _spmcts_afresh(node, exploration, d, w):
    """The SP-MCTS value of every child computed from scratch; the rule's choice."""
    log_parent = math.log(node.visits)
    best, chosen = -math.inf, node.children[0]
    for child in node.children:
        n = child.visits
        mean = child.total / n
        deviation = max(child.total_sq - child.total * mean + d, 0.0)
        value = mean + w * child.best + exploration * math.sqrt(log_parent / n) + math.sqrt(deviation / n)
        if value > best:
            best, chosen = value, child
    return chosen


@pytest.mark.parametrize("schedule", ["constant", "linear"])
@pytest.mark.parametrize("alternate", [False, True])
def test_spmcts_memo_matches_the_formula_afresh(schedule, alternate):
    """The rule keeps per-child values in Node.memo and a summary of the children in
    Node.children_memo; every choice equals a fresh computation of the formula, also
    when the exploration value changes and when two rules take turns on one tree."""
    rules = [SPMCTS(d=0.01, w=0.02), SPMCTS(d=5.0, w=0.5)]
    calls = [0]

    def checking(node, exploration):
        rule = rules[calls[0] % 2 if alternate else 0]
        chosen = rule(node, exploration)
        assert chosen is _spmcts_afresh(node, exploration, rule.d, rule.w)
        calls[0] += 1
        return chosen

    mcts(Tour(), selection=checking, expansion=ThresholdExpansion(2), cp=0.3, schedule=schedule,
         iterations=1500, seed=1, progress=None)
    assert calls[0] > 1000
    # statistics edited by hand: the rule notices a changed visit count of a child;
    # the summary of the children must be reset (the search changes them only by
    # passing through the parent)
    parent = Node(None)
    for move, (visits, total) in enumerate([(2, 4.0), (2, 3.0)]):
        child = Node(None, move, parent)
        child.visits, child.total, child.total_sq, child.best = visits, total, total * total / visits, total / visits
        parent.children.append(child)
    parent.visits = 4
    rule = SPMCTS(d=0.0)
    assert rule(parent, 0.0).move == 0
    second = parent.children[1]
    second.visits, second.total, second.total_sq, second.best = 3, 9.0, 27.0, 3.0
    parent.children_memo = None
    assert rule(parent, 0.0).move == 1


# --------------------------------------------------------------------------
# CEM


def noisy_peak(params, rng):
    """Peak at a = 2.5, b = 300 (log scale), k = 4, plus noise."""
    return (
        -((params["a"] - 2.5) ** 2)
        - (math.log10(params["b"]) - math.log10(300)) ** 2 * 4
        - 0.5 * (params["k"] - 4) ** 2
        + rng.normal(0, 0.3)
    )


def test_cem_finds_the_optimum_of_a_noisy_function():
    result = cem(
        noisy_peak, {"a": (-10, 10), "b": (1, 10**5), "k": (0, 20)}, integer={"k"}, log={"b"},
        iterations=20, population=60, elite=8, seed=3,
    )
    assert abs(result.params["a"] - 2.5) < 0.3
    assert abs(math.log10(result.params["b"]) - math.log10(300)) < 0.25
    assert result.params["k"] == 4 and isinstance(result.params["k"], int)
    assert result.evaluations == 20 * 60 and len(result.generations) == 20
    elite = [h["elite_fitness"] for h in result.generations]
    assert elite[-1] > elite[0]


def test_cem_is_seeded_and_respects_bounds():
    seen = []

    def f(p, rng):
        seen.append(p["x"])
        return -abs(p["x"] - 100) + rng.random()

    a = cem(f, {"x": (0, 1)}, iterations=4, population=10, elite=3, seed=9)
    assert all(0 <= x <= 1 for x in seen)
    assert a.params["x"] > 0.9  # pushed against the upper bound
    b = cem(f, {"x": (0, 1)}, iterations=4, population=10, elite=3, seed=9)
    assert a == b


def test_cem_validation():
    f = lambda p, rng: 0.0  # noqa: E731
    with pytest.raises(ValueError, match="low < high"):
        cem(f, {"x": (1, 1)})
    with pytest.raises(ValueError, match="elite"):
        cem(f, {"x": (0, 1)}, population=5, elite=6)
    with pytest.raises(ValueError, match="log parameter"):
        cem(f, {"x": (0, 1)}, log={"x"})
    with pytest.raises(ValueError, match="unknown parameter"):
        cem(f, {"x": (0, 1)}, integer={"y"})
    with pytest.raises(ValueError, match="NaN"):
        cem(lambda p, rng: float("nan"), {"x": (0, 1)}, iterations=1, population=2, elite=1)
