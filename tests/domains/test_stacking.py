"""Tests of the stacking problem (``hornermcts.domains.stacking``).

Oracles: hand-worked instances; a pure-Python replay that checks every placement
of a simulation against the FO rules (Eq. 5.1 in floating point, delivery by
depth, release by due date); the independent solution checker; a pure-Python
tree without merged stacks, searched exhaustively on tiny instances; the
thesis's MS values on the 40-stack instances.
"""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.domains.stacking import (
    InvalidSolution,
    StackingInstance,
    StackingProblem,
    StackingState,
    check_solution,
    find_instance,
    fo_choice_set,
    fo_score,
    multiple_simulation,
    parse_instance,
    random_instance,
    read_instance,
    root_state,
    simulate,
    solve,
    solve_exhaustive,
    tree_search,
)
from hornermcts.domains.stacking import kernels
from hornermcts.cli import main
from hornermcts.errors import OptionError
from hornermcts.parse import ParseError
from hornermcts.search import check_problem
from helpers.benchmarks import load_benchmark

# the project's stacking data: where HORNERMCTS_STACKING_DATA says, else in the
# shared/ folder beside the repository; the library itself assumes no folder
DATA = Path(os.environ.get("HORNERMCTS_STACKING_DATA") or Path(__file__).resolve().parents[3] / "shared/data/stacking")
needs_data = pytest.mark.skipif(not (DATA / "40-A.txt").is_file(), reason=f"stacking data not present in {DATA}")

# --------------------------------------------------------------------------
# pure-Python oracles


def fo_conformance(instance, placements):
    """Replay ``placements`` and assert each is what the FO simulation may do; return the relocations.

    At a date, while an item due then is buried, the placement relocates the top item of a stack holding
    a buried due item of least depth, to a stack of the FO candidate list (Eq. 5.1 over the other
    stacks); otherwise it releases a pending item of latest due date to a stack of the candidate list.
    """
    release, due = instance.release.tolist(), instance.due.tolist()
    stacks = [[] for _ in range(instance.width)]
    where = {}
    relocations = 0
    for date, item, target in placements:
        for stack in stacks:  # deliveries up to this date (check_solution checks their dates)
            while stack and due[stack[-1]] <= date:
                where.pop(stack.pop())
        buried = [(len(stacks[where[i]]) - 1 - stacks[where[i]].index(i), i) for i in where if due[i] == date]
        if buried:
            depth = min(buried)[0]
            source = where.get(item)
            assert source is not None, f"release of {item} at {date} while an item due then is buried"
            assert stacks[source][-1] == item
            assert any(where[i] == source and d == depth for d, i in buried), "not the shallowest delivery"
            stacks[source].pop()
            relocations += 1
        else:
            source = -1
            assert item not in where and release[item] == date, f"item {item} is not released at {date}"
            pending = [i for i in range(len(release)) if release[i] == date and i not in where and i != item]
            assert all(due[i] <= due[item] for i in pending), "releases by decreasing due date"
        others = [s for s in range(instance.width) if s != source]
        earliest = [min((due[i] for i in stacks[s]), default=math.inf) for s in others]
        allowed = {others[k] for k in fo_choice_set(due[item], earliest)}
        assert target in allowed, f"item {item} to stack {target}, FO allows {sorted(allowed)}"
        stacks[target].append(item)
        where[item] = target
    return relocations


def reference_optimum(instance):
    """The fewest relocations over the decision tree, searched without merging stacks (pure Python).

    A state: the stacks (tuples of items) and the date index; moves as in the problem: at a date, the top
    item of any stack burying an item due then to any other stack, or any pending release to any stack;
    deliveries whenever an item due then is on top.
    """
    release, due = instance.release.tolist(), instance.due.tolist()
    dates = sorted(set(release) | set(due))
    n = len(release)

    def settle(stacks, k):
        """Deliver and advance to the next decision; return (stacks, k, leaf)."""
        stacks = [list(x) for x in stacks]
        while True:
            date = dates[k]
            for x in stacks:
                while x and due[x[-1]] == date:
                    x.pop()
            present = {i for x in stacks for i in x}
            pending = [i for i in range(n) if release[i] == date and i not in present]
            inversions = sum(1 for x in stacks for lv, i in enumerate(x) if any(due[j] < due[i] for j in x[:lv]))
            if max(release) <= date and not pending and inversions == 0:
                return tuple(map(tuple, stacks)), k, True
            if pending or any(due[i] == date for i in present):
                return tuple(map(tuple, stacks)), k, False
            k += 1

    best = [math.inf]
    seen = {}

    def search(stacks, k, cost):
        stacks, k, leaf = settle(stacks, k)
        if leaf:
            best[0] = min(best[0], cost)
            return
        if seen.get((stacks, k), math.inf) <= cost or cost >= best[0]:
            return
        seen[(stacks, k)] = cost
        date = dates[k]
        present = {i for s in stacks for i in s}
        for s, stack in enumerate(stacks):
            if any(due[i] == date for i in stack):
                for t in range(len(stacks)):
                    if t != s:
                        new = [list(x) for x in stacks]
                        new[t].append(new[s].pop())
                        search(new, k, cost + 1)
        for i in range(n):
            if release[i] == date and i not in present:
                for t in range(len(stacks)):
                    new = [list(x) for x in stacks]
                    new[t].append(i)
                    search(new, k, cost)

    search([[] for _ in range(instance.width)], 0, 0)
    return best[0]


# --------------------------------------------------------------------------
# instances and the reader


def test_instance_calendar():
    inst = StackingInstance([0, 1, 1, 3], [3, 4, 3, 6], width=2)
    assert inst.dates.tolist() == [0, 1, 3, 4, 6]
    assert inst.releases_at(1).tolist() == [1, 2]  # latest due first
    assert inst.releases_at(2).tolist() == [3] and inst.deliveries_at(2).tolist() == [0, 2]
    assert inst.capacity == 4  # date 3: item 3 may come in before items 0 and 2 leave
    with pytest.raises(OptionError, match="width"):
        StackingInstance([0], [1], width=1)
    with pytest.raises(OptionError, match="same|length"):
        StackingInstance([0, 1], [1], width=2)
    with pytest.raises(OptionError, match="dates must lie"):
        StackingInstance([-1], [1], width=2)


def write(tmp_path, text, name="bad.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


HEADER = "# comment\nstr name := x\nint width := 2\nint height := inf\nint items := 2\n--- end of header ---\n"


@pytest.mark.parametrize("body, line, message", [
    ("0 0 3\n1 1\n", 8, "three integers"),
    ("0 0 3\n0 1 4\n", 8, "appears twice"),
    ("0 5 3\n1 1 4\n", 7, "not before due"),
    ("0 0 3\n7 1 4\n", 8, "outside 0..1"),
    ("0 0 3\n", 7, "says 2 items, the file has 1"),
    ("0 0 3\n1 -1 4\n", 8, "dates must lie in"),
])
def test_reader_errors_name_file_and_line(tmp_path, body, line, message):
    path = write(tmp_path, HEADER + body)
    with pytest.raises(ParseError, match=message) as info:
        read_instance(path)
    assert info.value.filename == str(path) and info.value.lineno == line


def test_reader_header_errors(tmp_path):
    with pytest.raises(ParseError, match="lacks width") as info:
        parse_instance("int items := 1\n--- end of header ---\n0 0 1\n", filename="f.txt")
    assert info.value.lineno == 2
    with pytest.raises(ParseError, match="TYPE NAME := VALUE"):
        parse_instance("width 2\n", filename="f.txt")
    with pytest.raises(ParseError, match="unknown parameter type 'float'"):
        parse_instance("float width := 2\n", filename="f.txt")
    with pytest.raises(ParseError, match="no '--- end of header ---'"):
        parse_instance("int width := 2\n", filename="f.txt")
    with pytest.raises(ParseError, match="uncapacitated"):
        parse_instance("int width := 2\nint height := 1\nint items := 2\n--- end of header ---\n0 0 1\n1 0 1\n",
                       filename="f.txt")


def test_find_instance(tmp_path, monkeypatch):
    write(tmp_path, HEADER + "1 0 3\n0 1 4\n", "mine.txt")
    monkeypatch.setenv("HORNERMCTS_STACKING_DATA", str(tmp_path))
    inst = find_instance("mine")
    assert inst.name == "mine" and inst.release.tolist() == [1, 0] and inst.due.tolist() == [4, 3]
    assert find_instance(tmp_path / "mine.txt").items == 2
    with pytest.raises(OptionError, match="no instance file 'other'"):
        find_instance("other")
    monkeypatch.delenv("HORNERMCTS_STACKING_DATA")
    with pytest.raises(OptionError, match="HORNERMCTS_STACKING_DATA"):
        find_instance("mine")


@needs_data
def test_shipped_files():
    tiny = read_instance(DATA / "test.txt")
    assert (tiny.items, tiny.width, tiny.release.tolist(), tiny.due.tolist()) == (3, 2, [0, 1, 2], [3, 4, 5])
    for width in (2, 3, 4, 10, 20, 40):
        inst = find_instance(f"{width}-A", DATA)
        assert inst.items == 1000 and inst.width == width and inst.name == f"{width}-A"
    # W = 2/3/4 share their items with W = 10/20/40
    assert np.array_equal(find_instance("4-A", DATA).due, find_instance("40-A", DATA).due)


# --------------------------------------------------------------------------
# FO and the simulation


def test_fo_score_is_eq_5_1():
    assert fo_score(10, 10) == 1.0 and fo_score(10, math.inf) == 0.0
    assert fo_score(10, 11) == 0.5 and fo_score(10, 9) == -0.5
    assert -1 <= fo_score(10, 0) < 0 < fo_score(10, 1000) <= 1


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.lists(st.lists(st.integers(1, 30), max_size=4), min_size=2, max_size=6),
       st.integers(-1, 5), st.integers(0, 2**32))
def test_compiled_fo_picks_from_the_eq_5_1_candidate_list(item_due, columns, source, seed):
    source = source if source < len(columns) else -1
    due = np.array([d for column in columns for d in column] + [item_due], np.int64)
    stacks = np.arange(due.size - 1, dtype=np.int32)
    heights = np.array([len(c) for c in columns], np.int32)
    chosen = int(kernels.fo_target(stacks, heights, due, due.size - 1, source, seed, max(due.size, 1)))
    others = [s for s in range(len(columns)) if s != source]
    allowed = [others[k] for k in fo_choice_set(item_due, [min(columns[s], default=math.inf) for s in others])]
    assert chosen in allowed
    # the class representative: no lower stack of the list holds the same due dates
    assert not any(t < chosen and columns[t] == columns[chosen] for t in allowed)


def fo(columns, item_due, seeds=range(1)):
    """FO's stack for an item due ``item_due`` over stacks holding ``columns`` (due dates, bottom first)."""
    due = np.array([d for column in columns for d in column] + [item_due], np.int64)
    stacks = np.arange(due.size - 1, dtype=np.int32)
    heights = np.array([len(c) for c in columns], np.int32)
    return [int(kernels.fo_target(stacks, heights, due, due.size - 1, -1, seed, due.size)) for seed in seeds]


def test_fo_rules_by_hand():
    assert set(fo([[12], [], [11]], 10, range(50))) == {2}  # the tightest stack without inversion
    assert set(fo([[12], []], 10, range(50))) == {0}  # no inversion beats an empty stack
    assert set(fo([[5], []], 10, range(50))) == {1}  # an empty stack beats an inversion
    assert set(fo([[5], [7], [6]], 10, range(50))) == {1}  # an inversion: the latest earliest due date
    assert set(fo([[], [12], [], [12]], 10, range(50))) == {1}  # equivalent stacks: the first one
    picks = fo([[12], [30, 12], [12, 12]], 10, range(300))  # three stacks tie, none equivalent: uniform
    assert set(picks) == {0, 1, 2} and all(60 < picks.count(s) < 140 for s in range(3))


def test_hand_worked_simulation():
    # dates: item 0 [0,10), 1 [1,5), 2 [2,8), 3 [3,6) on 2 stacks
    inst = StackingInstance([0, 1, 2, 3], [10, 5, 8, 6], width=2)
    solution = simulate(inst, seed=0)
    # 0 -> empty stack 0; 1 (due 5) onto 0 (m=10 >= 5); 2 (due 8): stack 0 has m=5 < 8 (inversion), the
    # empty stack 1 scores 0 > inversion; 3 (due 6): stack 0 m=5 < 6, stack 1 m=8 >= 6: stack 1
    assert solution.placements == ((0, 0, 0), (1, 1, 0), (2, 2, 1), (3, 3, 1))
    assert solution.relocations == 0 == check_solution(inst, solution.placements)


def test_hand_worked_relocation():
    # the shipped test.txt: 1 on an empty stack (beats an inversion), 2 on 1 (an inversion under the latest
    # earliest due date, 4 > 3); at date 4 item 2 is moved off item 1 onto the stack item 0 left empty
    inst = StackingInstance([0, 1, 2], [3, 4, 5], width=2)
    for seed in range(5):
        solution = simulate(inst, seed=seed)
        assert solution.placements == ((0, 0, 0), (1, 1, 1), (2, 2, 1), (4, 2, 0))
        assert solution.relocations == 1 == check_solution(inst, solution.placements)


def test_hand_worked_delivery_order_by_depth():
    # items A=0, B=1 due 10 on stacks 0 and 1; X=2, Y=3 on A; Z=4 on B; stack 2 empty.  At date 10 B is the
    # shallower (depth 1): Z moves first, to the empty stack 2 (A's stack would be an inversion); then Y and X
    # follow onto Z (same due date: score 1).  Delivering A first would have moved Y first.
    inst = StackingInstance([0, 0, 1, 1, 1], [10, 10, 20, 20, 20], width=3)
    problem = StackingProblem(inst)
    state = problem.root()
    for move in [(0, 0), (1, 1), (2, 0), (3, 0), (4, 1)]:
        state = problem.apply(state, move)
    assert problem.date(state) == 10
    for seed in range(10):
        solution = simulate(inst, seed=seed, state=state)
        assert solution.placements == ((10, 4, 2), (10, 3, 2), (10, 2, 2)) and solution.relocations == 3


def test_simulation_with_cutoff_and_from_a_state():
    inst = random_instance(30, 3, seed=2)
    full = simulate(inst, seed=4)
    assert simulate(inst, seed=4, cutoff=full.relocations) is None
    assert simulate(inst, seed=4, cutoff=full.relocations + 1) == full
    problem = StackingProblem(inst)
    state = problem.root()
    for move in full.placements[:5]:
        state = problem.apply(state, move[1:])
    tail = simulate(inst, seed=9, state=state)
    assert check_solution(inst, full.placements[:5] + tail.placements) == tail.relocations


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 2**40))
def test_random_simulations_keep_the_rules(items, width, instance_seed, seed):
    inst = random_instance(items, width, seed=instance_seed)
    solution = simulate(inst, seed=seed)
    assert check_solution(inst, solution.placements) == solution.relocations
    assert fo_conformance(inst, solution.placements) == solution.relocations


@needs_data
def test_simulation_of_a_thesis_instance_keeps_the_fo_rules():
    inst = find_instance("40-B", DATA)
    solution = simulate(inst, seed=11)
    assert check_solution(inst, solution.placements) == solution.relocations
    assert fo_conformance(inst, solution.placements) == solution.relocations
    assert sum(1 for p in solution.placements) == inst.items + solution.relocations


# --------------------------------------------------------------------------
# the solution checker


def test_checker_rejects_what_breaks_a_rule():
    inst = StackingInstance([0, 1, 2], [5, 4, 6], width=2)
    good = [(0, 0, 0), (1, 1, 0), (2, 2, 1)]
    assert check_solution(inst, good) == 0
    cases = [
        ([(0, 0, 0), (1, 1, 0), (2, 2, 1), (1, 1, 1)], "comes after"),
        ([(0, 0, 0), (1, 1, 0), (2, 0, 1)], "not on top"),
        ([(0, 0, 0), (1, 1, 0), (1, 1, 0)], "already on stack"),
        ([(0, 0, 0), (0, 1, 0)], "released at date 1, not 0"),
        ([(0, 0, 0), (1, 1, 0)], "released at date 2 but never placed"),
        ([(0, 0, 0), (1, 2, 0), (2, 1, 0)], "released at date"),
        ([(0, 0, 0), (1, 1, 0), (2, 2, 1), (5, 0, 1)], "was delivered"),
        ([(0, 0, 0), (1, 1, 1), (2, 2, 1)], "due at date 4 but lies under item 2"),
        ([(0, 0, 7)], "out of range"),
        ([(0, 0)], "expected \\(date, item, stack\\)"),
    ]
    for placements, message in cases:
        with pytest.raises(InvalidSolution, match=message):
            check_solution(inst, placements)


def test_checker_counts_relocations_at_a_delivery():
    inst = StackingInstance([0, 1, 2], [3, 5, 4], width=3)
    assert check_solution(inst, [(0, 0, 0), (1, 1, 1), (2, 2, 1)]) == 0  # 2 (due 4) on 1 (due 5): fine
    # 1 on 0 must move off at date 3; to stack 1 it would bury item 2 (due 4), to stack 2 it is fine
    with pytest.raises(InvalidSolution, match="item 2 is due at date 4 but lies under item 1"):
        check_solution(inst, [(0, 0, 0), (1, 1, 0), (2, 2, 1), (3, 1, 1)])
    assert check_solution(inst, [(0, 0, 0), (1, 1, 0), (2, 2, 1), (3, 1, 2)]) == 1


# --------------------------------------------------------------------------
# MS


@needs_data
@pytest.mark.parametrize("name, expected", [("40-A", 79), ("40-B", 59), ("40-C", 41), ("40-D", 154)])
def test_ms_gives_the_thesis_values_on_40_stacks(name, expected):
    inst = find_instance(name, DATA)
    result = multiple_simulation(inst, simulations=30, seed=0)
    assert result.best_value == expected  # Table 5.1, MS60 and MS600 (every run)
    assert check_solution(inst, result.solution.placements) == expected
    assert fo_conformance(inst, result.solution.placements) == expected


@needs_data
@pytest.mark.parametrize("name, expected", [("20-A", 901), ("20-B", 1023), ("20-C", 1101), ("20-D", 1177)])
def test_ms_near_the_measured_values_on_20_stacks(name, expected):
    inst = find_instance(name, DATA)
    result = multiple_simulation(inst, simulations=400, seed=0)
    assert abs(result.best_value - expected) <= 0.015 * expected
    assert check_solution(inst, result.solution.placements) == result.best_value


def test_ms_budget_history_and_seed():
    inst = random_instance(60, 3, seed=8)
    a = multiple_simulation(inst, simulations=300, seed=5)
    b = multiple_simulation(inst, simulations=300, seed=5)
    assert (a.best_value, a.history, a.best_moves) == (b.best_value, b.history, b.best_moves)
    assert a.iterations == 300 and a.stopped == "iterations" and a.maximize is False
    values = [v for _, v in a.history]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values) and values[-1] == a.best_value
    assert len(a.times) == len(a.history) and list(a.times) == sorted(a.times)
    # every improvement is simulation j alone: a fresh run of the same seed finds it at the same index
    assert check_solution(inst, a.solution.placements) == a.best_value
    assert tuple((i, s) for _, i, s in a.solution.placements) == a.best_moves
    timed = multiple_simulation(inst, time_limit=0.2, seed=1)
    assert timed.stopped == "time" and 0.2 <= timed.elapsed < 1.0 and timed.clock == "cpu"
    hit = multiple_simulation(inst, simulations=10**6, target=a.best_value + 5, seed=5)
    assert hit.stopped == "target" and hit.best_value <= a.best_value + 5
    with pytest.raises(OptionError, match="no budget"):
        multiple_simulation(inst)
    with pytest.raises(OptionError, match="clock"):
        multiple_simulation(inst, simulations=1, clock="sundial")


# --------------------------------------------------------------------------
# the tree


def test_state_is_immutable_and_pickles():
    import pickle

    state = root_state(random_instance(5, 2, seed=0))
    with pytest.raises(AttributeError):
        state.heights = None
    with pytest.raises(ValueError):
        state.counters[0] = 3
    assert pickle.loads(pickle.dumps(state)) == state
    assert isinstance(state, StackingState) and state.bound == 0


def test_moves_merge_equivalent_stacks():
    # two empty stacks and one holding item 0 (due 9); item 1 (due 9) and 2 (due 4) are released at 1
    inst = StackingInstance([0, 1, 1], [9, 9, 4], width=3)
    problem = StackingProblem(inst)
    state = problem.apply(problem.root(), (0, 2))
    assert problem.moves(state) == [(1, 0), (1, 2), (2, 0), (2, 2)]  # empty stacks 0 and 1: one class
    state = problem.apply(state, (1, 0))  # stacks 0 and 2 now both hold one item due 9
    assert problem.moves(state) == [(2, 0), (2, 1)]


def test_relocation_moves_exclude_the_source_and_merge_sources():
    # items 0, 1 due 3 at the bottom of stacks 0, 1; items 2, 3 due 7 on them; stack 2 empty
    inst = StackingInstance([0, 0, 1, 1], [3, 3, 7, 7], width=3)
    problem = StackingProblem(inst)
    state = problem.root()
    for move in [(0, 0), (1, 1), (2, 0), (3, 1)]:
        state = problem.apply(state, move)
    assert problem.date(state) == 3 and state.inversions == 2 and state.bound == 2
    # stacks 0 and 1 are equivalent sources: relocations of stack 0's top only, to stack 1 or to 2
    assert problem.moves(state) == [(2, 1), (2, 2)]
    with pytest.raises(OptionError, match="not on top"):
        problem.apply(state, (0, 2))
    with pytest.raises(OptionError, match="already on that stack"):
        problem.apply(state, (2, 0))
    with pytest.raises(OptionError, match="not released now"):
        problem.apply(problem.root(), (2, 0))
    state = problem.apply(state, (2, 2))  # item 0 leaves; then stack 1 must be freed too
    assert problem.moves(state) == [(3, 0), (3, 2)] and state.relocations == 1
    leaf = problem.apply(state, (3, 2))
    assert problem.moves(leaf) == [] and problem.cost(leaf) == 2 == leaf.relocations


def tiny_instances():
    return [random_instance(items, width, seed=seed) for items, width, seed in
            [(6, 2, 0), (7, 2, 1), (8, 2, 2), (8, 3, 3), (9, 3, 4), (10, 3, 5), (10, 2, 6), (9, 2, 7)]]


def test_playouts_replay_with_apply_and_keep_the_bound():
    for inst in tiny_instances() + [random_instance(40, 4, seed=1)]:
        problem = StackingProblem(inst)
        rng = np.random.default_rng(0)
        state, path = problem.root(), []
        while problem.moves(state):
            final, moves = problem.playout(state, np.random.default_rng(int(rng.integers(2**32))))
            assert problem.moves(final) == [] and problem.bound(state) <= problem.cost(final)
            replay = state
            for move in moves:
                assert move in problem.moves(replay)
                replay = problem.apply(replay, move)
            assert replay == final
            assert check_solution(inst, problem.solution(path + moves).placements) == problem.cost(final)
            for seen in (state, final):  # the inversions kept incrementally, counted again from scratch
                assert kernels.count_inversions(seen.stacks, seen.heights, inst.due) == seen.inversions
            legal = problem.moves(state)
            move = legal[int(rng.integers(len(legal)))]
            state = problem.apply(state, move)
            path.append(move)
        assert problem.playout(state, rng) == (state, [])


@pytest.mark.parametrize("index", range(8))
def test_tree_optimum_on_tiny_instances(index):
    inst = tiny_instances()[index]
    problem = StackingProblem(inst)
    optimum, moves, nodes = solve_exhaustive(problem)
    assert optimum == reference_optimum(inst)  # merged stacks lose nothing
    assert check_solution(inst, problem.solution(moves).placements) == optimum
    assert optimum <= multiple_simulation(inst, simulations=200, seed=0).best_value


@needs_data
def test_exhaustive_on_the_shipped_test_instance():
    problem = StackingProblem(read_instance(DATA / "test.txt"))
    assert solve_exhaustive(problem)[0] == 1 == simulate(problem.instance, seed=0).relocations


# --------------------------------------------------------------------------
# the search protocol and MCTS


@pytest.mark.parametrize("index", range(4))
def test_check_problem_on_tiny_instances(index):
    check_problem(StackingProblem(tiny_instances()[index]), simulations=40, seed=0)


def test_check_problem_on_larger_and_shipped_instances():
    check_problem(StackingProblem(random_instance(60, 4, seed=3)), simulations=5, seed=0)
    check_problem(StackingProblem(StackingInstance([0, 1, 2], [3, 4, 5], width=2)), simulations=10, seed=0)


@needs_data
@pytest.mark.slow
def test_check_problem_on_a_thesis_instance():
    check_problem(StackingProblem(find_instance("40-C", DATA)), simulations=2, seed=0)


@needs_data
def test_check_problem_on_truncated_2_a():
    full = find_instance("2-A", DATA)
    first = np.argsort(full.release, kind="stable")[:40]  # the 40 earliest items, renumbered
    inst = StackingInstance(full.release[first], full.due[first], width=2, name="2-A/40")
    check_problem(StackingProblem(inst), simulations=6, seed=0)
    optimum = tree_search(inst, iterations=300, seed=0).best_value
    assert optimum <= multiple_simulation(inst, simulations=300, seed=0).best_value


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 12), st.integers(2, 4), st.integers(1, 12), st.integers(0, 10**6))
def test_check_problem_on_random_tiny_instances(items, width, horizon, seed):
    inst = random_instance(items, width, horizon=horizon, max_stay=horizon, seed=seed)
    check_problem(StackingProblem(inst), simulations=8, seed=seed % 7)


@pytest.mark.parametrize("index", range(8))
def test_mcts_with_pruning_finds_and_proves_the_tree_optimum(index):
    inst = tiny_instances()[index]
    optimum = solve_exhaustive(StackingProblem(inst))[0]
    result = tree_search(inst, iterations=20_000, seed=index)
    assert result.best_value == optimum and result.proven and result.stopped == "exhausted"
    assert check_solution(inst, StackingProblem(inst).solution(result.best_moves).placements) == optimum


def test_tree_search_is_reproducible_and_its_history_is_timed():
    inst = random_instance(80, 4, seed=2)
    a, b = (tree_search(inst, iterations=150, seed=3) for _ in range(2))
    assert (a.best_value, a.best_moves, a.history) == (b.best_value, b.best_moves, b.history)
    assert a.maximize is False and len(a.history_seconds) == len(a.history)
    assert [v for _, v in a.history] == sorted((v for _, v in a.history), reverse=True)
    plain = tree_search(inst, iterations=150, seed=3, prune=False, value="mean", normalize=None)
    assert plain.iterations == 150 and not plain.proven


def test_solve_checks_and_reports_both_methods():
    inst = random_instance(40, 3, seed=9)
    for method in ("ms", "mcts"):
        outcome = solve(inst, method, iterations=200, seed=1)
        assert outcome.method == method and outcome.simulations == 200 and outcome.clock == "cpu"
        assert outcome.relocations == check_solution(inst, outcome.solution.placements)
        assert outcome.history[-1][1] == outcome.relocations and outcome.seconds > 0
        assert [s for s, _ in outcome.history] == sorted(s for s, _ in outcome.history)
    with pytest.raises(OptionError, match="method"):
        solve(inst, "dfs", iterations=1)
    with pytest.raises(OptionError, match="MS takes no search options"):
        solve(inst, "ms", iterations=1, prune=False)


# --------------------------------------------------------------------------
# the command line


def test_cli(tmp_path, capsys, monkeypatch):
    path = tmp_path / "three.txt"
    path.write_text("int width := 2\nint items := 3\n--- end of header ---\n0 0 3\n1 1 4\n2 2 5\n")
    assert main(["stacking", str(path), "--method", "ms", "--simulations", "20", "--show"]) == 0
    out = capsys.readouterr().out
    assert "date 4: relocate item 2 to stack 0" in out and "three: 1 relocation (ms), 20 simulations" in out
    monkeypatch.setenv("HORNERMCTS_STACKING_DATA", str(tmp_path))
    assert main(["stacking", "three", "--simulations", "50", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "three: 1 relocation (mcts)" in out and "optimal over the tree (exhausted)" in out
    assert main(["stacking", "missing"]) == 2
    assert "hornermcts: error: no instance file 'missing'" in capsys.readouterr().err
    assert main(["stacking", "three", "--time", "0"]) == 2
    assert "--time must be > 0" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("int width := 2\nint items := 1\n--- end of header ---\n0 3 3\n")
    assert main(["stacking", str(bad)]) == 2
    assert f"{bad}:4:1: item 0: release 3 is not before due 3" in capsys.readouterr().err


# --------------------------------------------------------------------------
# the benchmark of Table 5.1


@needs_data
def test_benchmark_table_on_a_tiny_budget(tmp_path, monkeypatch):
    import json

    bench = load_benchmark("thesis_stacking")
    monkeypatch.setenv("HORNERMCTS_STACKING_DATA", str(DATA))
    out = tmp_path / "rows.jsonl"
    rows = bench.table(0.3, 1, ["40-C"], out=out)
    assert [(r["instance"], r["method"], r["seed"]) for r in rows] == [("40-C", "ms", 0), ("40-C", "mcts", 0)]
    assert [json.loads(line) for line in out.read_text().splitlines()] == rows
    inst = find_instance("40-C", DATA)
    for row in rows:
        assert set(row) >= {"best", "cpu_seconds", "simulations", "history", "budget", "stopped", "solution"}
        assert check_solution(inst, row["solution"]) == row["best"] == row["history"][-1][1]
        assert 0.3 <= row["cpu_seconds"] < 1.5 and row["simulations"] > 10
        times = [t for t, _ in row["history"]]
        assert times == sorted(times) and all(0 <= t <= row["cpu_seconds"] for t in times)
    assert rows[0]["best"] == 41  # MS, as in the thesis
    text = bench.format_table(rows)
    assert "40-C" in text and "41.0     32.1     41.0     29.3" in text and "MS on 40-C exactly 41: [41] -> yes" in text


def test_ms_with_the_delivery_order_fixed_per_date():
    """Issue 40 item 2: MS as Rei's code runs it, the delivery order fixed once per date; a valid solution,
    reproducible, and not the default rule's (on this instance: 63 against 71 relocations)."""
    from hornermcts.domains.stacking import check_solution, multiple_simulation, random_instance

    inst = random_instance(40, 3, seed=2)
    fixed = multiple_simulation(inst, simulations=30, seed=0, delivery_order="fixed")
    again = multiple_simulation(inst, simulations=30, seed=0, delivery_order="fixed")
    recomputed = multiple_simulation(inst, simulations=30, seed=0)
    assert check_solution(inst, fixed.solution.placements) == fixed.best_value == again.best_value
    assert (fixed.best_value, recomputed.best_value) == (63, 71)


def test_ms_delivery_order_is_checked():
    from hornermcts.domains.stacking import multiple_simulation, random_instance, solve

    inst = random_instance(10, 2, seed=0)
    with pytest.raises(OptionError, match="delivery_order must be 'recomputed' or 'fixed', got 'random'"):
        multiple_simulation(inst, simulations=1, delivery_order="random")
    with pytest.raises(OptionError, match="MS takes no search options but delivery_order, got cp"):
        solve(inst, "ms", iterations=1, cp=1.0)
