"""Tests of the domain-agnostic search core ``hornermcts.search``."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.toys import Bits, Leaves, Tour, Trap, replay, walk

from hornermcts.search import (
    SPMCTS,
    ConstantSchedule,
    ExponentialSchedule,
    LinearSchedule,
    MCTSResult,
    Node,
    ThresholdExpansion,
    full_expansion,
    mcts,
    random_playout,
    sa_uct,
    single_expansion,
    uct,
)

# --------------------------------------------------------------------------
# toy problems with brute-force optima


N_CITIES = 6
TOUR_OPTIMUM, TOUR_BEST = Tour().optimum()


def check_tree_invariants(result: MCTSResult, problem, threshold=None):
    """Statistics of the whole tree agree with each other and with the result.

    ``threshold`` is that of a ThresholdExpansion (playouts from a node itself
    before it is expanded), ``None`` for single or full expansion.
    """
    root = result.tree
    assert root.visits == result.iterations
    assert result.node_count == sum(1 for _ in walk(root))
    assert result.max_depth == max(n.depth for n in walk(root))
    assert result.root_visits == tuple((c.move, c.visits) for c in root.children)
    for node in walk(root):
        if node.visits == 0:  # created by full expansion, never visited
            assert node.parent is not None and node in node.parent.children and not node.children
            continue
        child_visits = sum(c.visits for c in node.children)
        child_total = sum(c.total for c in node.children)
        if node.is_terminal:
            assert not node.children and node.terminal_reward == node.best == node.worst
            own = node.visits
        elif threshold is None:
            own = 0 if node.parent is None else 1  # a new leaf's own playout
        else:
            own = min(threshold, node.visits)
        assert node.visits == child_visits + own
        # the rewards of the node's own playouts lie between its worst and best
        own_total = node.total - child_total
        assert own * node.worst - 1e-9 <= own_total <= own * node.best + 1e-9
        assert node.best >= max((c.best for c in node.children), default=-math.inf)
        assert node.worst <= min((c.worst for c in node.children if c.visits), default=math.inf)
        assert node.total_sq >= node.total**2 / node.visits - 1e-9
        assert node.best_moves[: node.depth] == [n.move for n in path_to(node)]
    # best and history
    rewards = [reward for _, reward in result.history]
    assert rewards == sorted(set(rewards))
    indices = [index for index, _ in result.history]
    assert indices == sorted(set(indices)) and indices[-1] < result.iterations
    assert result.best_reward == max(rewards)
    assert result.best_reward == root.best
    assert tuple(root.best_moves) == result.best_moves
    assert replay(problem, result.best_moves) == result.best_state
    assert problem.reward(result.best_state) == result.best_reward


def path_to(node):
    path = []
    while node.parent is not None:
        path.append(node)
        node = node.parent
    return path[::-1]


# --------------------------------------------------------------------------
# finding the optimum


@pytest.mark.parametrize("seed", range(8))
def test_uct_finds_the_tour_optimum(seed):
    result = mcts(Tour(), iterations=600, cp=0.3, seed=seed, progress=None)
    assert result.best_reward == TOUR_OPTIMUM
    assert result.best_moves == TOUR_BEST


@pytest.mark.parametrize("seed", range(4))
def test_sa_uct_and_full_expansion_find_the_tour_optimum(seed):
    assert sa_uct(Tour(), cp=1.0, iterations=600, seed=seed, progress=None).best_reward == TOUR_OPTIMUM
    full = mcts(Tour(), iterations=600, cp=0.3, expansion="full", seed=seed, progress=None)
    assert full.best_reward == TOUR_OPTIMUM


def test_exponential_schedule_and_sp_mcts_find_the_tour_optimum():
    result = mcts(Tour(), iterations=600, cp=1.0, schedule="exponential", repeats=2, seed=5, progress=None)
    assert result.best_reward == TOUR_OPTIMUM
    spmcts = mcts(
        Tour(), iterations=600, cp=1.0, selection=SPMCTS(d=0.1, w=0.02),
        expansion=ThresholdExpansion(2), seed=1, progress=None,
    )
    assert spmcts.best_reward == TOUR_OPTIMUM


@pytest.mark.parametrize("seed", range(8))
def test_uct_escapes_the_trap(seed):
    result = mcts(Trap(), iterations=300, cp=1.0, seed=seed, progress=None)
    assert result.best_moves == (0,) * 6 and result.best_reward == 1.0


def test_sa_uct_with_restarts_escapes_the_trap():
    for seed in range(4):
        result = sa_uct(Trap(), cp=2.0, iterations=300, repeats=3, seed=seed, progress=None)
        assert result.best_reward == 1.0


def test_a_low_cp_is_trapped_sometimes():
    # the trap is a real one: without exploration UCT usually misses the optimum
    found = [mcts(Trap(), iterations=300, cp=0.01, seed=s, progress=None).best_reward for s in range(10)]
    assert found.count(1.0) < 10


def test_best_path_leaves_the_tree():
    result = mcts(Bits(8), iterations=1, seed=0, progress=None)
    assert len(result.best_moves) == 8  # tree move plus playout moves
    assert result.max_depth == 1 and result.node_count == 2
    assert replay(Bits(8), result.best_moves) == result.best_state


# --------------------------------------------------------------------------
# the tree: pinned visits and invariants


def test_pinned_root_visits_follow_the_uct_formula():
    # Three terminal children, rewards 0, 0.5, 1; cp = 0.5 so the bonus is
    # sqrt(2 ln n / n_c). Iterations 0-2 visit each child once (in random
    # order); after that UCT is deterministic:
    #   n=3: c (2.48)   n=4: c (2.177 vs b 2.165)   n=5: b (2.29)
    #   n=6: c (2.09)   n=7: c (1.986 vs a 1.973)   n=8: a (2.04)   n=9: b (1.98)
    # so after 10 iterations the visits are a=2, b=3, c=5, for any seed. Below each child a deep binary
    # tree keeps the search from seeing everything (it would stop, "exhausted"); its reward is the child's.
    class Deep(Leaves):
        def moves(self, state):
            return tuple(self.rewards) if state == "root" else ((0, 1) if len(state) < 8 else ())

        def apply(self, state, move):
            return move if state == "root" else state + str(move)

        def reward(self, state):
            return self.rewards[state[0]]

    for seed in range(5):
        problem = Deep({"a": 0.0, "b": 0.5, "c": 1.0})
        result = mcts(problem, iterations=10, cp=0.5, seed=seed, progress=None)
        assert dict(result.root_visits) == {"a": 2, "b": 3, "c": 5} and result.stopped == "iterations"
        assert result.best_moves[0] == "c" and result.best_reward == 1.0
        check_tree_invariants(result, problem)


def test_terminal_rewards_are_cached_and_a_tree_seen_whole_stops_the_search():
    problem = Leaves({"a": 0.0, "b": 0.5, "c": 1.0})
    result = mcts(problem, iterations=10, cp=0.5, seed=0, progress=None)
    assert problem.reward_calls == 3  # evaluated once per leaf
    assert result.iterations == 3 and result.stopped == "exhausted" and result.proven
    assert result.best_moves == ("c",) and result.best_reward == 1.0
    assert dict(result.root_visits) == {"a": 1, "b": 1, "c": 1}
    check_tree_invariants(result, problem)


def test_pinned_small_tree_with_a_fixed_seed():
    # Bits(2): leaves 00, 01, 10, 11 worth 0, 1/3, 2/3, 1; cp = 0.5, so the
    # UCT value is mean + sqrt(2 ln n / n_c). Seed 0 draws u = 0.637, 0.270,
    # 0.041, 0.017, 0.813, ...; a draw is made only for a choice among two or
    # more moves (expansion or playout step). Checked by hand:
    #  it 0: root expands move int(2*0.637) = 1; playout int(2*0.270) = 0 -> 10 (2/3)
    #  it 1: root expands its last move 0; playout int(2*0.041) = 0 -> 00 (0)
    #  it 2: root: 0.667 + 1.177 vs 1.177 -> 1; 1 expands int(2*0.017) = 0 -> 10
    #  it 3: root: 1.715 vs 1.482 -> 1; 1 expands its last move -> 11 (1.0, new best)
    #  it 4: root: 1.739 vs 1.665 -> 1; at 1: 10 2.149 vs 11 2.482 -> 11 (cached)
    #  it 5: root: 1.730 vs 0 + 1.794 -> 0; 0 expands int(2*0.813) = 1 -> 01 (1/3)
    #  it 6: root: 1.780 vs 1.505 -> 1; at 1: 10 2.332 vs 11 2.177 -> 10
    #  it 7: root: 1.682 vs 1.562 -> 1; at 1: 10 1.935 vs 11 2.269 -> 11
    result = mcts(Bits(2), iterations=8, cp=0.5, seed=0, progress=None)
    assert result.root_visits == ((1, 6), (0, 2))
    assert result.history == ((0, 2 / 3), (3, 1.0))
    assert result.to_str(max_depth=2) == (
        "best reward 1 by (1, 1) after 8 iterations (stopped: iterations)\n"
        "root: visits=8 mean=0.666667 best=1\n"
        "  1: visits=6 mean=0.833333 best=1\n"
        "    1: visits=3 mean=1 best=1 terminal\n"
        "    0: visits=2 mean=0.666667 best=0.666667 terminal\n"
        "  0: visits=2 mean=0.166667 best=0.333333\n"
        "    1: visits=1 mean=0.333333 best=0.333333 terminal"
    )
    check_tree_invariants(result, Bits(2))


@pytest.mark.parametrize("expansion", ["single", "full"])
def test_unvisited_children_first(expansion):
    result = mcts(Tour(), iterations=N_CITIES, cp=0.0, expansion=expansion, seed=3, progress=None)
    assert sorted(move for move, _ in result.root_visits) == list(range(N_CITIES))
    assert all(visits == 1 for _, visits in result.root_visits)


@pytest.mark.parametrize("expansion", ["single", "full", ThresholdExpansion(3)])
@pytest.mark.parametrize("schedule", ["constant", "linear"])
def test_tree_invariants(expansion, schedule):
    problem = Tour()
    result = mcts(problem, iterations=300, cp=0.3, schedule=schedule, expansion=expansion, seed=11, progress=None)
    threshold = expansion.threshold if isinstance(expansion, ThresholdExpansion) else None
    check_tree_invariants(result, problem, threshold)
    if expansion == "full":
        # every expanded node holds all its children
        for node in walk(result.tree):
            if node.children:
                assert len(node.children) == N_CITIES - node.depth


class RandomTree:
    """A random finite tree: branching and rewards drawn from a seed."""

    def __init__(self, seed, depth):
        self.seed = seed
        self.depth = depth

    def root(self):
        return ()

    def moves(self, state):
        if len(state) >= self.depth:
            return ()
        branching = hash((self.seed, state)) % 4  # 0 = an early terminal
        return tuple(range(branching)) if state or branching else (0, 1)

    def apply(self, state, move):
        return state + (move,)

    def reward(self, state):
        return (hash((self.seed, state, -1)) % 1000) / 1000


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    depth=st.integers(1, 5),
    iterations=st.integers(1, 60),
    cp=st.floats(0, 2),
    expansion=st.sampled_from(["single", "full"]),
)
def test_tree_invariants_on_random_trees(seed, depth, iterations, cp, expansion):
    problem = RandomTree(seed, depth)
    result = mcts(problem, iterations=iterations, cp=cp, expansion=expansion, seed=seed, progress=None)
    check_tree_invariants(result, problem)


# --------------------------------------------------------------------------
# reproducibility


def summary(result):
    return (result.best_moves, result.best_reward, result.history, result.root_visits, result.node_count)


def test_same_seed_same_result():
    first = mcts(Tour(), iterations=200, cp=0.3, schedule="linear", seed=42, progress=None)
    second = mcts(Tour(), iterations=200, cp=0.3, schedule="linear", seed=42, progress=None)
    assert summary(first) == summary(second)
    assert first.tree.to_str(max_depth=3) == second.tree.to_str(max_depth=3)
    with_generator = mcts(Tour(), iterations=200, cp=0.3, schedule="linear", seed=np.random.default_rng(42),
                          progress=None)
    assert summary(with_generator) == summary(first)
    assert with_generator.seed is None and first.seed == 42


def test_different_seeds_differ():
    results = {summary(mcts(Tour(), iterations=50, cp=0.3, seed=s, progress=None)) for s in range(4)}
    assert len(results) > 1


def test_seed_none_reports_a_reproducing_seed():
    first = mcts(Tour(), iterations=100, cp=0.3, seed=None, progress=None)
    assert isinstance(first.seed, int)
    again = mcts(Tour(), iterations=100, cp=0.3, seed=first.seed, progress=None)
    assert summary(again) == summary(first)


def test_repeats_are_reproducible_and_take_the_best():
    first = mcts(Tour(), iterations=40, cp=0.3, repeats=4, seed=9, progress=None)
    second = mcts(Tour(), iterations=40, cp=0.3, repeats=4, seed=9, progress=None)
    assert summary(first) == summary(second)
    assert len(first.runs) == 4 and first.iterations == 160
    bests = [run.best_reward for run in first.runs]
    assert first.best_reward == max(bests)
    assert len({run.best_moves for run in first.runs}) > 1  # independent restarts
    winner = first.runs[bests.index(max(bests))]
    assert first.best_moves == winner.best_moves and first.root_visits == winner.root_visits
    # history over all restarts: cumulative indices, strictly improving
    rewards = [r for _, r in first.history]
    assert rewards == sorted(set(rewards)) and rewards[-1] == first.best_reward
    assert all(0 <= i < 160 for i, _ in first.history)
    for run in first.runs:
        assert run.iterations == 40 and run.history[-1][1] == run.best_reward


def test_restarts_improve_on_a_single_run():
    single = [mcts(Trap(), iterations=100, cp=0.3, seed=s, progress=None).best_reward for s in range(6)]
    repeated = [mcts(Trap(), iterations=100, cp=0.3, repeats=5, seed=s, progress=None).best_reward for s in range(6)]
    assert sum(repeated) >= sum(single)
    assert repeated.count(1.0) > single.count(1.0)


# --------------------------------------------------------------------------
# schedules


def test_schedule_values_follow_the_formulas():
    n = 10
    constant, linear = ConstantSchedule(0.8), LinearSchedule(0.8)
    for i in range(n + 1):
        assert constant(i, n) == 0.8
        assert linear(i, n) == pytest.approx(0.8 * (n - i) / n)
    assert linear(0, n) == 0.8 and linear(n, n) == 0.0 and linear(2 * n, n) == 0.0
    by_rate = ExponentialSchedule(2.0, alpha=0.9)
    by_end = ExponentialSchedule(2.0, final=0.02)
    for i in range(n + 1):
        assert by_rate(i, n) == pytest.approx(2.0 * 0.9**i)
        assert by_end(i, n) == pytest.approx(2.0 * (0.01) ** (i / n))
    assert by_end(n, n) == pytest.approx(0.02)


class Recorder:
    """Wraps a schedule and a selection rule; records what the search passes."""

    def __init__(self, schedule):
        self.schedule = schedule
        self.calls = []
        self.explorations = []

    def __call__(self, i, n):
        self.calls.append((i, n))
        return self.schedule(i, n)

    def select(self, node, exploration):
        self.explorations.append(exploration)
        return uct(node, exploration)


@pytest.mark.parametrize("schedule", [ConstantSchedule(0.4), LinearSchedule(0.4)])
def test_the_search_uses_T_of_i(schedule):
    recorder = Recorder(schedule)
    mcts(Tour(), iterations=50, schedule=recorder, selection=recorder.select, seed=0, progress=None)
    assert recorder.calls == [(i, 50.0) for i in range(50)]
    values = {schedule(i, 50) for i in range(50)}
    assert recorder.explorations and set(recorder.explorations) <= values
    if isinstance(schedule, LinearSchedule):
        assert recorder.explorations == sorted(recorder.explorations, reverse=True)
        assert len(set(recorder.explorations)) > 5


def test_named_schedules_match_the_objects():
    for name, expected in [("constant", ConstantSchedule(0.4)), ("linear", LinearSchedule(0.4))]:
        recorder = Recorder(expected)
        by_object = mcts(Tour(), iterations=80, schedule=recorder, seed=1, progress=None)
        by_name = mcts(Tour(), iterations=80, schedule=name, cp=0.4, seed=1, progress=None)
        assert summary(by_object) == summary(by_name)


def test_time_limit_only_cools_by_elapsed_fraction():
    recorder = Recorder(LinearSchedule(1.0))
    result = mcts(SlowBits(0.002), time_limit=0.2, schedule=recorder, seed=0, progress=None)
    assert result.stopped == "time"
    assert recorder.calls[0] == (0, math.inf)
    fractions = [i / n for i, n in recorder.calls]
    assert all(0.0 <= f <= 1.2 for f in fractions)
    assert fractions[-1] > 0.5  # cooled most of the way when time ran out
    assert all(b >= a - 0.2 for a, b in zip(fractions, fractions[1:]))  # roughly increasing


def test_both_budgets_cool_by_the_nearer_one():
    recorder = Recorder(LinearSchedule(1.0))
    mcts(Tour(), iterations=30, time_limit=60.0, schedule=recorder, seed=0, progress=None)
    assert [i / n for i, n in recorder.calls][-1] == pytest.approx(29 / 30)


# --------------------------------------------------------------------------
# budgets, interruption, progress


class SlowBits(Bits):
    """Bits whose playout sleeps, for time-limit tests (4,096 leaves: never seen whole before the time is up)."""

    def __init__(self, pause, length=12):
        super().__init__(length)
        self.pause = pause

    def playout(self, state, rng):
        time.sleep(self.pause)
        return random_playout(self, state, rng)


def test_time_limit_is_honoured():
    start = time.perf_counter()
    result = mcts(SlowBits(0.001), time_limit=0.3, seed=0, progress=None)
    wall = time.perf_counter() - start
    assert result.stopped == "time" and not result.interrupted
    assert 0.3 <= result.elapsed <= wall < 3.0
    assert result.iterations >= 2


def test_iterations_before_time_limit():
    result = mcts(Tour(), iterations=25, time_limit=60.0, seed=0, progress=None)
    assert result.stopped == "iterations" and result.iterations == 25


def test_time_limit_per_restart():
    result = mcts(SlowBits(0.001), time_limit=0.1, repeats=2, seed=0, progress=None)
    assert result.stopped == "time" and len(result.runs) == 2
    assert all(run.elapsed >= 0.1 for run in result.runs)


class Interrupting(Bits):
    """Raises KeyboardInterrupt in the playout after ``after`` playouts."""

    def __init__(self, after, length=6):
        super().__init__(length)
        self.after = after
        self.playouts = 0
        self.rewards = []

    def playout(self, state, rng):
        if self.playouts == self.after:
            raise KeyboardInterrupt
        self.playouts += 1
        return random_playout(self, state, rng)

    def reward(self, state):
        value = super().reward(state)
        self.rewards.append(value)
        return value


def test_keyboard_interrupt_returns_the_best_so_far():
    problem = Interrupting(after=7)
    result = mcts(problem, iterations=1000, seed=0, progress=None)
    assert result.interrupted and result.stopped == "interrupt"
    assert result.iterations == 7 and problem.playouts == 7
    assert result.best_reward == max(problem.rewards)
    assert result.history[-1][1] == result.best_reward
    assert replay(problem, result.best_moves) == result.best_state


def test_keyboard_interrupt_stops_the_restarts():
    problem = Interrupting(after=25)
    result = mcts(problem, iterations=10, repeats=5, seed=0, progress=None)
    assert result.interrupted and result.iterations == 25 and len(result.runs) == 3
    assert result.best_reward == max(problem.rewards)


def test_keyboard_interrupt_before_any_reward():
    result = mcts(Interrupting(after=0), iterations=10, seed=0, progress=None)
    assert result.interrupted and result.iterations == 0
    assert result.best_reward == -math.inf and result.best_moves == () and result.history == ()


def test_progress_callback():
    calls = []
    result = mcts(Tour(), iterations=300, seed=0, progress=lambda i, r: calls.append((i, r)))
    assert calls and calls[-1] == (300, result.best_reward)
    iterations = [i for i, _ in calls]
    assert iterations == sorted(iterations) and len(calls) <= 300
    assert [r for _, r in calls] == sorted(r for _, r in calls)
    assert all(r <= result.best_reward for _, r in calls)


def test_progress_callback_over_restarts():
    calls = []
    result = mcts(Tour(), iterations=30, repeats=3, seed=0, progress=lambda i, r: calls.append((i, r)))
    assert calls[-1] == (90, result.best_reward)
    assert max(i for i, _ in calls[:-1]) > 60


def test_progress_bar_runs(capsys):
    result = mcts(Tour(), iterations=50, seed=0, progress=True)
    assert result.iterations == 50
    assert "search" in capsys.readouterr().err


def test_progress_auto_is_quiet_off_a_terminal(capsys):
    mcts(Tour(), iterations=50, seed=0)  # default progress="auto"
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------
# parts: playout policies, expansion, nodes


def test_injected_playout_policy_is_used():
    used = []

    def first_move_policy(problem, state, rng):
        used.append(state)
        moves = []
        while problem.moves(state):
            move = problem.moves(state)[0]
            state = problem.apply(state, move)
            moves.append(move)
        return state, moves

    result = mcts(Tour(), iterations=20, playout=first_move_policy, seed=0, progress=None)
    assert len(used) == 20
    check_tree_invariants(result, Tour())


def test_problem_playout_is_preferred_to_random():
    problem = SlowBits(0.0)
    calls = []
    original = problem.playout
    problem.playout = lambda state, rng: calls.append(state) or original(state, rng)
    mcts(problem, iterations=10, seed=0, progress=None)
    assert len(calls) == 10


def test_problem_subclass_inherits_random_playout():
    final, moves = Trap().playout((), np.random.default_rng(0))
    assert len(final) == 6 and tuple(moves) == final


def test_random_playout_does_not_mutate_and_uses_rng():
    state = (0, 1)
    first = random_playout(Tour(), state, np.random.default_rng(5))
    second = random_playout(Tour(), state, np.random.default_rng(5))
    assert state == (0, 1) and first == second
    assert sorted(first[0]) == list(range(N_CITIES)) and first[0][:2] == (0, 1)


def test_expansion_rules_directly():
    rng = np.random.default_rng(0)
    root = Node(())
    children = [single_expansion(root, Tour(), rng) for _ in range(N_CITIES)]
    assert sorted(c.move for c in children) == list(range(N_CITIES)) and root.untried == []
    assert all(c.state == (c.move,) for c in children)
    root = Node(())
    child = full_expansion(root, Tour(), rng)
    assert len(root.children) == N_CITIES and child in root.children
    assert child.state == (child.move,)
    assert all(c.state is None for c in root.unvisited)


def test_node_statistics():
    node = Node("s")
    for reward in (1.0, 3.0):
        node.visits += 1
        node.total += reward
        node.total_sq += reward * reward
    assert node.mean == 2.0 and node.variance == 1.0 and node.std == 1.0


# --------------------------------------------------------------------------
# validation


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(iterations=-1), "iterations"),
        (dict(iterations=0), "iterations"),
        (dict(iterations=2.5), "iterations"),
        (dict(), "budget"),
        (dict(time_limit=-1.0), "time_limit"),
        (dict(time_limit=math.inf), "time_limit"),
        (dict(iterations=10, schedule="cooling"), "schedule"),
        (dict(iterations=10, cp=-0.1), "cp"),
        (dict(iterations=10, cp=math.nan), "cp"),
        (dict(iterations=10, cp=1.0, schedule=ConstantSchedule(1.0)), "cp"),
        (dict(iterations=10, repeats=0), "repeats"),
        (dict(iterations=10, expansion="eager"), "expansion"),
        (dict(iterations=10, seed=-3), "seed"),
        (dict(iterations=10, seed="abc"), "seed"),
        (dict(iterations=10, progress="sometimes"), "progress"),
        (dict(iterations=10, selection="uct"), "selection"),
        (dict(iterations=10, playout=42), "playout"),
    ],
)
def test_validation(kwargs, message):
    with pytest.raises(ValueError, match=message):
        mcts(Tour(), **kwargs)


def test_invalid_schedules():
    with pytest.raises(ValueError, match="cp"):
        LinearSchedule(-1.0)
    with pytest.raises(ValueError, match="exactly one"):
        ExponentialSchedule(1.0)
    with pytest.raises(ValueError, match="alpha"):
        ExponentialSchedule(1.0, alpha=1.5)
    with pytest.raises(ValueError, match="final"):
        ExponentialSchedule(1.0, final=0.0)


def test_configuration_is_keyword_only():
    with pytest.raises(TypeError):
        mcts(Tour(), 100)  # type: ignore[misc]


def test_problem_without_methods():
    with pytest.raises(TypeError, match="root, moves"):
        mcts(object(), iterations=5)


def test_nan_reward_is_an_error():
    class NaNReward(Bits):
        def reward(self, state):
            return math.nan

    with pytest.raises(ValueError, match="NaN"):
        mcts(NaNReward(), iterations=5, seed=0, progress=None)


def test_terminal_root():
    class Done:
        def root(self):
            return "done"

        def moves(self, state):
            return ()

        def apply(self, state, move):  # pragma: no cover - never called
            raise AssertionError

        def reward(self, state):
            return 0.5

    result = mcts(Done(), iterations=5, seed=0, progress=None)
    assert result.best_moves == () and result.best_reward == 0.5 and result.best_state == "done"
    assert result.node_count == 1 and result.tree.visits == 1  # nothing else to see
    assert result.stopped == "exhausted" and result.proven
