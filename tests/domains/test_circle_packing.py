"""Tests of recursive circle packing (``hornermcts.domains.circle_packing``).

Oracles: a pure-Python reimplementation of the candidate positions (other
formulas: complex numbers and the law of cosines) and of feasibility (the
independent checker), hand-computed estimates and packings, brute force
over the search tree on tiny instances.
"""
from __future__ import annotations

import cmath
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.cli import main
from hornermcts.domains.circle_packing import (
    SUBSTITUTES,
    CirclePackingProblem,
    Instance,
    InvalidPacking,
    Packing,
    SemiGreedy,
    check_packing,
    format_instance,
    generate_instance,
    greedy_order,
    multiple_simulation,
    packing_svg,
    packing_violations,
    parse_instance,
    ranked_positions,
    read_instance,
    semi_greedy,
    solve_exhaustive,
    substitute_instance,
    value_estimates,
)
from hornermcts.domains.circle_packing.construction import harmonic_rank
from hornermcts.errors import OptionError
from hornermcts.parse import ParseError
from hornermcts.search import check_problem
from helpers.benchmarks import load_benchmark

TOL = 1e-6

# --------------------------------------------------------------------------
# random small instances (hypothesis)


@st.composite
def instances(draw, max_types=4):
    k = draw(st.integers(1, max_types))
    width = draw(st.floats(60.0, 240.0))
    height = draw(st.floats(60.0, 240.0))
    r_ext = [draw(st.floats(6.0, 40.0)) for _ in range(k)]
    r_int = [r * draw(st.sampled_from([0.0, 0.3, 0.6, 0.85, 0.95])) for r in r_ext]
    value = [draw(st.integers(1, 50)) for _ in range(k)]
    count = [draw(st.integers(1, 6)) for _ in range(k)]
    return Instance(width, height, r_ext, r_int, value, count, name="random")


def tiny():
    """A tree small enough for brute force: a tube that takes rods, rods, a box for about three things."""
    return Instance(52, 30, r_ext=[14, 7, 5], r_int=[11.5, 0, 0], value=[10, 4, 2], count=[2, 2, 2], name="tiny")


# --------------------------------------------------------------------------
# instances and the text format


def test_format_round_trip_and_file(tmp_path):
    inst = substitute_instance("small16")
    path = tmp_path / "small16.txt"
    path.write_text(format_instance(inst))
    again = read_instance(path)
    assert again == inst and again.note == ""
    assert "substitute" in format_instance(inst)  # the note says how it was made
    assert np.array_equal(again.count, inst.count) and again.r_ext.dtype == np.float64


@pytest.mark.parametrize("text, where, reason", [
    ("tube 10 5 1\n", "f.txt:1:1", "no 'container"),
    ("container 10 5\n", "f.txt:1:1", "no 'tube'"),
    ("container 10\ntube 1 0 1", "f.txt:1:1", "takes WIDTH HEIGHT"),
    ("container 10 -5\ntube 1 0 1", "f.txt:1:14", "must be > 0"),
    ("container 10 5\ncontainer 10 5\ntube 1 0 1", "f.txt:2:1", "second 'container'"),
    ("container 10 5\n\n# c\ntube 1 x 1", "f.txt:4:8", "internal radius 'x' is not a number"),
    ("container 10 5\ntube 1 0 1 0", "f.txt:2:12", "count 0 must be >= 1"),
    ("container 10 5\ntube 1 0 1 2.5", "f.txt:2:12", "not an integer"),
    ("container 10 5\ntube 1 0 -1", "f.txt:2:10", "value -1 must be >= 0"),
    ("container 10 5\ntube 2 2 1", "f.txt:2:8", "below the external radius"),
    ("container 10 5\ntube 0 0 1", "f.txt:2:6", "external radius 0 must be > 0"),
    ("container 10 5\nbox 1 0 1", "f.txt:2:1", "unknown record 'box'"),
    ("container 10 5\ntube 1 0 1 nan", "f.txt:2:12", "not an integer"),
    ("container inf 5\ntube 1 0 1", "f.txt:1:11", "not finite"),
])
def test_reader_errors_name_file_line_and_column(text, where, reason):
    with pytest.raises(ParseError) as err:
        parse_instance(text, filename="f.txt")
    assert str(err.value).startswith(where) and reason in str(err.value)


def test_reader_defaults_and_comments():
    inst = parse_instance("# header\nname demo\ncontainer 10 5  # box\ntube 2 1 3\ntube 1 0 1 4\n")
    assert inst.name == "demo" and inst.count.tolist() == [1, 4] and inst.tubes == 5
    assert inst.fits_inside(1, 0) and not inst.fits_inside(0, 1) and not inst.fits_inside(0, 0)


def test_read_instance_of_a_missing_file_is_an_oserror(tmp_path):
    with pytest.raises(OSError):
        read_instance(tmp_path / "nope.txt")


@pytest.mark.parametrize("kwargs, message", [
    (dict(width=0), "width"),
    (dict(r_ext=[1, 2]), "one entry per tube type"),
    (dict(r_int=[3]), "internal radius"),
    (dict(value=[-1]), "value"),
    (dict(count=[0]), "count"),
    (dict(count=[1.5]), "count"),
])
def test_instance_validation(kwargs, message):
    args = dict(width=10, height=5, r_ext=[2], r_int=[1], value=[1], count=[1]) | kwargs
    with pytest.raises(OptionError, match=message):
        Instance(**args)


def test_substitutes_are_labelled_fixed_and_match_their_names():
    assert sorted(SUBSTITUTES) == ["large03", "large05", "large16", "small03", "small05", "small16"]
    for key, (size, types, _seed) in SUBSTITUTES.items():
        inst = substitute_instance(key)
        assert inst.name == f"{key}-substitute" and "substitute" in inst.note
        assert inst.types == types == int(key[-2:]) and key.startswith(size)
        assert inst == substitute_instance(key + "-substitute")
        # no single type fits them all: the container is the bottleneck
        assert np.sum(np.pi * inst.r_ext**2 * inst.count) > 2 * inst.width * inst.height
        assert list(inst.r_ext) == sorted(inst.r_ext, reverse=True)
        assert all(inst.container_fits(i) for i in range(inst.types))
    assert substitute_instance("large16").width > substitute_instance("small16").width
    with pytest.raises(OptionError, match="unknown instance"):
        substitute_instance("medium07")
    with pytest.raises(OptionError, match="size"):
        generate_instance("huge", 3)


def test_some_substitutes_telescope():
    telescoping = 0
    for key in SUBSTITUTES:
        inst = substitute_instance(key)
        telescoping += any(inst.fits_inside(i, k) for i in range(inst.types) for k in range(inst.types))
    assert telescoping == len(SUBSTITUTES)


# --------------------------------------------------------------------------
# the independent checker


def test_checker_accepts_a_hand_made_packing_and_recomputes_the_value():
    inst = Instance(10, 6, r_ext=[3, 1], r_int=[2, 0], value=[5, 1.5], count=[1, 3])
    # tube in the corner, a rod touching its inner wall at the bottom, two rods in the box, all tangent
    rows = Packing([0, 1, 1, 1], [-1, 0, -1, -1], [3, 3, 7, 9], [3, 2, 1, 1])
    assert check_packing(inst, rows) == 9.5


@pytest.mark.parametrize("packing, message", [
    (Packing([1, 1], [-1, -1], [1, 2.5], [1, 1]), "overlap by 0.5"),
    (Packing([0], [-1], [2.5, ], [3]), "sticks out of the container by 0.5"),
    (Packing([0, 1], [-1, 0], [3, 3], [3, 1.5]), "sticks out of tube 0 by 0.5"),
    (Packing([1, 1], [1, -1], [1, 3], [1, 1]), "tube 0 has holder 1: expected -1 or an earlier tube"),
    (Packing([0, 0], [-1, 0], [3, 3], [3, 3]), "telescoped into tube 0 (r_int 2)"),
    (Packing([1, 1, 1, 1], [-1, -1, -1, -1], [1, 3, 5, 7], [1, 1, 1, 1]), "type 1 used 4 times, only 3"),
    (Packing([2], [-1], [3], [3]), "has type 2"),
    (Packing([1], [-1], [float("nan")], [3]), "non-finite"),
])
def test_checker_names_each_violation(packing, message):
    inst = Instance(10, 6, r_ext=[3, 1], r_int=[2, 0], value=[5, 1], count=[2, 3])
    with pytest.raises(InvalidPacking, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_packing(inst, packing)


def test_checker_tolerance_is_the_documented_slack():
    inst = Instance(10, 6, r_ext=[1], r_int=[0], value=[1], count=[2])
    assert not packing_violations(inst, Packing([0, 0], [-1, -1], [1, 3 - 0.9e-6], [1, 1]))
    assert packing_violations(inst, Packing([0, 0], [-1, -1], [1, 3 - 2e-6], [1, 1]))


# --------------------------------------------------------------------------
# candidate positions against a pure-Python oracle


def _meet(c1: complex, a: float, c2: complex, b: float) -> list[complex]:
    """circle(c1, a) and circle(c2, b) by the law of cosines (not the kernel's formula)."""
    d = abs(c2 - c1)
    if d == 0 or d > a + b + TOL or d < abs(a - b) - TOL:
        return []
    if a == 0:
        return [c1]
    cos = max(-1.0, min(1.0, (a * a + d * d - b * b) / (2 * a * d)))
    phi, theta = cmath.phase(c2 - c1), math.acos(cos)
    return [c1 + cmath.rect(a, phi + theta), c1 + cmath.rect(a, phi - theta)]


def oracle_positions(inst: Instance, packing: Packing, holder: int, radius: float) -> list[tuple[float, float]]:
    """Feasible candidate positions by sec. 6.2.1's rules, checked by the independent checker."""
    rows = packing.rows()
    kids = [j for j, row in enumerate(rows) if row[1] == holder]
    centre = {j: complex(rows[j][2], rows[j][3]) for j in range(len(rows))}
    outer = {j: float(inst.r_ext[rows[j][0]]) for j in range(len(rows))}
    points: list[complex] = []
    if holder == -1:
        w, h = inst.width, inst.height
        points += [complex(radius, radius), complex(w - radius, radius)]
        for u in kids:
            reach = outer[u] + radius
            for x in (radius, w - radius):
                dx = x - centre[u].real
                if abs(dx) <= reach:
                    s = math.sqrt(reach * reach - dx * dx)
                    points += [complex(x, centre[u].imag + s), complex(x, centre[u].imag - s)]
            for y in (radius, h - radius):
                dy = y - centre[u].imag
                if abs(dy) <= reach:
                    s = math.sqrt(reach * reach - dy * dy)
                    points += [complex(centre[u].real + s, y), complex(centre[u].real - s, y)]
    else:
        room = float(inst.r_int[rows[holder][0]]) - radius
        points.append(centre[holder] - complex(0, room))
        for u in kids:
            points += _meet(centre[holder], room, centre[u], outer[u] + radius)
    for i, v in enumerate(kids):
        for w_ in kids[i + 1:]:
            points += _meet(centre[v], outer[v] + radius, centre[w_], outer[w_] + radius)
    feasible = []
    for p in points:
        if holder == -1:
            inside = min(p.real - radius, inst.width - radius - p.real,
                         p.imag - radius, inst.height - radius - p.imag) >= -TOL
        else:
            inside = abs(p - centre[holder]) + radius - float(inst.r_int[rows[holder][0]]) <= TOL
        if inside and all(outer[u] + radius - abs(p - centre[u]) <= TOL for u in kids):
            feasible.append((p.real, p.imag))
    return feasible


def _same_sets(ours, theirs, tol=1e-5) -> bool:
    def covered(a, b):
        return all(any(abs(x - u) <= tol and abs(y - v) <= tol for u, v in b) for x, y in a)
    return covered(ours, theirs) and covered(theirs, ours)


def _positions(inst, packing, holder, radius):
    outer = inst.r_ext[packing.kinds]
    inner = inst.r_int[packing.kinds]
    px, py = ranked_positions(float(radius), holder, inst.width, inst.height, np.asarray(packing.xs),
                              np.asarray(packing.ys), outer, inner, np.asarray(packing.holders), len(packing))
    return list(zip(px.tolist(), py.tolist()))


def _assert_ranked(points):
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        assert y1 >= y0 - TOL
        if abs(y1 - y0) <= TOL:
            assert x1 > x0 - TOL
        assert not (abs(x1 - x0) <= TOL and abs(y1 - y0) <= TOL), "duplicate kept"


@settings(max_examples=40, deadline=None)
@given(inst=instances(), seed=st.integers(0, 2**32 - 1), cut=st.floats(0.0, 1.0))
def test_candidate_positions_match_the_oracle(inst, seed, cut):
    full = semi_greedy(inst, seed)
    n = int(round(cut * len(full)))
    packing = Packing(full.kinds[:n], full.holders[:n], full.xs[:n], full.ys[:n])
    for holder in [-1] + list(range(n)):
        for kind in range(inst.types):
            if holder >= 0 and not inst.fits_inside(kind, int(packing.kinds[holder])):
                continue
            ours = _positions(inst, packing, holder, inst.r_ext[kind])
            assert _same_sets(ours, oracle_positions(inst, packing, holder, float(inst.r_ext[kind])))
            _assert_ranked(ours)


def test_candidate_positions_in_a_tube_by_hand():
    inst = Instance(40, 40, r_ext=[10, 3], r_int=[9, 0], value=[1, 1], count=[1, 9])
    tube = Packing([0], [-1], [10.0], [10.0])
    assert _positions(inst, tube, 0, 3.0) == [(10.0, 4.0)]  # the bottom centre
    one = Packing([0, 1], [-1, 0], [10.0, 10.0], [10.0, 4.0])
    got = _positions(inst, one, 0, 3.0)
    # tangent to the rod and the inner wall: |p - c| = 6 and |p - (10, 4)| = 6, i.e. 60 degrees either side
    expected = [(10 - 6 * math.sin(math.pi / 3), 10 - 3.0), (10 + 6 * math.sin(math.pi / 3), 10 - 3.0)]
    assert _same_sets(got, expected, 1e-9) and got[0][0] < got[1][0]


# --------------------------------------------------------------------------
# the value-to-area estimate and SG


def test_value_estimate_by_hand():
    inst = Instance(100, 60, r_ext=[30, 12, 5], r_int=[25, 10, 0], value=[10, 3, 1], count=[2, 1, 50])
    rods = 0.9068996821171089 * math.pi * 100 / (math.pi * 25)  # rods of radius 5 in the hollow of radius 10
    e1 = 3 + rods * 1
    # in the big tube: first the best ratio (type 1: e1 / 144 pi beats rods' 1 / 25 pi), its one copy, then rods
    ratio1, ratio2 = e1 / (math.pi * 144), 1 / (math.pi * 25)
    assert ratio1 > ratio2
    capacity = 0.9068996821171089 * math.pi * 625 - math.pi * 144
    e0 = 10 + e1 + capacity / (math.pi * 25) * 1
    assert value_estimates(inst) == pytest.approx([e0, e1, 1.0])
    assert e0 / (math.pi * 900) < ratio2
    assert greedy_order(inst).tolist() == [1, 2, 0]


def test_harmonic_rank_frequencies():
    draws = np.random.default_rng(0).random(60_000)
    ranks = np.array([harmonic_rank(u, 4) for u in draws])
    expected = np.array([1, 1 / 2, 1 / 3, 1 / 4]) / (25 / 12)
    assert np.abs(np.bincount(ranks, minlength=4) / len(draws) - expected).max() < 0.01
    assert harmonic_rank(0.0, 7) == 0 and harmonic_rank(0.999999, 7) == 6 and harmonic_rank(0.5, 1) == 0


def test_greedy_sg_starts_in_the_bottom_left_corner_with_the_best_ratio():
    inst = substitute_instance("small05")
    packing = semi_greedy(inst, 0, rcl=1)
    first = int(greedy_order(inst)[0])
    r = float(inst.r_ext[first])
    assert packing.rows()[0] == (first, -1, r, r)
    assert packing == semi_greedy(inst, 1, rcl=1)  # rcl=1 is the purely greedy construction


@settings(max_examples=40, deadline=None)
@given(inst=instances(), seed=st.integers(0, 2**32 - 1), rcl=st.sampled_from([None, 1, 3]))
def test_sg_packings_are_valid_and_maximal(inst, seed, rcl):
    packing = semi_greedy(inst, seed, rcl=rcl)
    assert check_packing(inst, packing) == pytest.approx(float(np.sum(inst.value[packing.kinds])))
    assert packing == semi_greedy(inst, seed, rcl=rcl)
    left = inst.count - np.bincount(packing.kinds, minlength=inst.types)
    # SG stops only when no tube left fits anywhere (Alg. 6.1's loop condition)
    for holder in [-1] + list(range(len(packing))):
        for kind in np.flatnonzero(left):
            if holder >= 0 and not inst.fits_inside(int(kind), int(packing.kinds[holder])):
                continue
            assert not _positions(inst, packing, holder, inst.r_ext[kind])
    # each holder's unused area never goes negative
    for holder in range(len(packing)):
        inside = np.sum(np.pi * inst.r_ext[packing.kinds[packing.holders == holder]] ** 2)
        assert inside <= np.pi * inst.r_int[packing.kinds[holder]] ** 2 + 1e-9


def test_sg_fills_the_tightest_open_object_first():
    # the tube has less unused area than the box, so rods go into it before any rod enters the box
    inst = Instance(100, 60, r_ext=[30, 12], r_int=[25, 0], value=[10, 3], count=[1, 5])
    for seed in range(5):
        rows = semi_greedy(inst, seed).rows()
        assert [h for _, h, _, _ in rows[:3]] == [-1, 0, 0] and all(h == -1 for _, h, _, _ in rows[3:])


def test_sg_on_every_substitute_is_valid():
    for key in SUBSTITUTES:
        inst = substitute_instance(key)
        packing = semi_greedy(inst, 7, rcl=None if key.startswith("small") else 4)
        assert check_packing(inst, packing) > 0
        assert any(h >= 0 for h in packing.holders)  # telescoping happens


def test_semi_greedy_rejects_a_bad_rcl():
    with pytest.raises(OptionError, match="rcl"):
        SemiGreedy(tiny(), rcl=0)


# --------------------------------------------------------------------------
# multiple simulation


def test_ms_keeps_the_best_and_its_history():
    inst = substitute_instance("small03")
    result = multiple_simulation(inst, simulations=25, seed=3)
    values = [semi_greedy(inst, 0).value(inst)]  # (compiled already)
    rng = np.random.default_rng(3)
    sg = SemiGreedy(inst)
    values = [sg.run(rng).value(inst) for _ in range(25)]
    assert result.simulations == 25 and result.best_value == max(values)
    assert check_packing(inst, result.best) == result.best_value
    assert [v for _, v in result.history] == sorted(set(v for _, v in result.history))
    assert [i for i, _ in result.improvements][0] == 1 and result.stopped == "simulations"
    assert all(0 <= t <= result.elapsed for t, _ in result.history)


def test_ms_time_budget_and_target():
    inst = substitute_instance("small05")
    timed = multiple_simulation(inst, time_limit=0.2, seed=0)
    assert timed.stopped == "time" and timed.elapsed >= 0.2 and timed.simulations >= 1
    hit = multiple_simulation(inst, time_limit=30, seed=0, target=1.0)
    assert hit.stopped == "target" and hit.simulations == 1
    with pytest.raises(OptionError):
        multiple_simulation(inst)
    with pytest.raises(OptionError, match="clock"):
        multiple_simulation(inst, simulations=1, clock="sundial")


# --------------------------------------------------------------------------
# the search problem


@pytest.mark.parametrize("tubes, rcl", [(1, None), (2, None), (3, 2)])
def test_problem_keeps_the_protocol_on_a_tiny_instance(tubes, rcl):
    check_problem(CirclePackingProblem(tiny(), tubes=tubes, rcl=rcl), simulations=40, seed=0)


@pytest.mark.parametrize("key, tubes, rcl", [("small05", 1, None), ("small16", 2, 4), ("large03", 1, 3)])
def test_problem_keeps_the_protocol_on_substitutes(key, tubes, rcl):
    check_problem(CirclePackingProblem(substitute_instance(key), tubes=tubes, rcl=rcl), simulations=3, seed=0)


def test_moves_are_sg_choices_in_greedy_order():
    inst = substitute_instance("small16")
    problem = CirclePackingProblem(inst, tubes=3, rcl=2)
    state = problem.root()
    rng = np.random.default_rng(5)
    order = greedy_order(inst).tolist()
    for _ in range(30):
        moves = problem.moves(state)
        holders = {m[0] for m in moves}
        kinds = list(dict.fromkeys(m[1] for m in moves))
        assert len(holders) == 1 and 1 <= len(kinds) <= 3
        assert kinds == sorted(kinds, key=order.index)  # types in greedy order
        for kind in kinds:
            ranked = [m[2:] for m in moves if m[1] == kind]
            full = _positions(inst, state.packing(), moves[0][0], inst.r_ext[kind])
            assert ranked == full[:2]
        state = problem.apply(state, moves[int(rng.integers(len(moves)))])
    check_packing(inst, problem.packing(state))


def test_playout_is_sg_and_its_terminal_state_is_exact():
    inst = substitute_instance("small03")
    problem = CirclePackingProblem(inst)
    final, played = problem.playout(problem.root(), np.random.default_rng(11))
    assert final == problem.replay(played)
    assert final.packing() == SemiGreedy(inst).run(np.random.default_rng(11))
    assert problem.reward(final) == check_packing(inst, final.packing())


def test_states_are_immutable_and_pickle_without_their_cache():
    problem = CirclePackingProblem(tiny())
    root = problem.root()
    move = problem.moves(root)[0]
    child = problem.apply(root, move)
    problem.moves(child)
    assert child.cache is not None and len(root) == 0
    with pytest.raises(ValueError):
        child.xs[0] = 1.0
    copy = pickle.loads(pickle.dumps(child))
    assert copy == child and copy.cache is None and hash(copy) == hash(child)
    assert pickle.dumps(copy) == pickle.dumps(child)
    assert problem.moves(copy) == problem.moves(child)
    # another problem (other branching) does not reuse the cache
    other = CirclePackingProblem(tiny(), tubes=3)
    assert len(other.moves(child)) >= len(problem.moves(child))


def test_replay_rejects_an_illegal_move():
    problem = CirclePackingProblem(tiny())
    with pytest.raises(OptionError, match="move 0"):
        problem.replay([(-1, 0, 20.0, 14.0)])


def test_brute_force_and_bound_on_the_tiny_tree():
    problem = CirclePackingProblem(tiny(), tubes=3)
    best = solve_exhaustive(problem)
    assert best.leaves > 20
    final = problem.replay(best.moves)
    assert not problem.moves(final) and check_packing(tiny(), final.packing()) == best.value
    # every leaf of the SG tree (tubes=1) is a leaf of the wider tree
    narrow = solve_exhaustive(CirclePackingProblem(tiny()))
    assert narrow.leaves < best.leaves and narrow.value <= best.value
    assert problem.bound(problem.root()) >= best.value
    with pytest.raises(OptionError, match="leaves"):
        solve_exhaustive(problem, max_leaves=3)


@settings(max_examples=15, deadline=None)
@given(inst=instances(max_types=3), seed=st.integers(0, 2**32 - 1))
def test_bound_is_valid_along_random_paths(inst, seed):
    problem = CirclePackingProblem(inst, tubes=2, rcl=3)
    check_problem(problem, simulations=2, seed=seed % 1000)


def test_problem_rejects_bad_options():
    with pytest.raises(OptionError, match="tubes"):
        CirclePackingProblem(tiny(), tubes=0)


# --------------------------------------------------------------------------
# drawing and the command line


def test_svg_draws_each_ring():
    inst = tiny()
    packing = semi_greedy(inst, 0)
    svg = packing_svg(inst, packing)
    rings = sum(1 + (inst.r_int[k] > 0) for k in packing.kinds)
    assert svg.count("<circle") == rings and "tiny" in svg


def test_cli_sg_and_ms(tmp_path, capsys):
    path = tmp_path / "tiny.txt"
    path.write_text(format_instance(tiny()))
    svg = tmp_path / "p.svg"
    assert main(["circles", str(path), "--method", "sg", "--show", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert "sg: value" in out and "tubes placed" in out and "CPU s" in out and svg.read_text().startswith("<svg")
    assert main(["circles", "small03", "--method", "ms", "--time", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "small03-substitute" in out and "constructions" in out
    saved = tmp_path / "gen.txt"
    assert main(["circles", "--generate", "small", "--types", "4", "--seed", "9", "--method", "sg",
                 "--write", str(saved)]) == 0
    assert read_instance(saved) == generate_instance("small", 4, seed=9)


@pytest.mark.parametrize("argv, message", [
    (["circles", "--method", "sg"], "give exactly one instance"),
    (["circles", "nowhere.txt"], "neither a file nor a substitute"),
    (["circles", "small03", "--time", "0"], "--time must be > 0"),
    (["circles", "small03", "--rcl", "0"], "--rcl must be >= 1"),
])
def test_cli_errors_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_reports_a_parse_error_with_its_line(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("container 10 5\ntube 1 2 3\n")
    assert main(["circles", str(path)]) == 2
    assert f"{path}:2:8: internal radius" in capsys.readouterr().err


# --------------------------------------------------------------------------
# MCTS (the core's thesis options) against brute force


#: tiny instances whose optimum SG rarely or never reaches: (instance, tubes a node offers)
HARD_TINY = {
    "sg-tree": (Instance(56, 35, r_ext=[7.7, 9.2], r_int=[6.5, 5.5], value=[11, 7], count=[3, 3]), 1),
    "two-tubes": (Instance(41, 29, r_ext=[6.2, 7.9, 10.0], r_int=[5.3, 0, 6.0], value=[11, 2, 3], count=[3, 1, 3]), 2),
}


@pytest.mark.parametrize("key", sorted(HARD_TINY))
def test_brute_force_optimum_is_rare_for_sg(key):
    inst, tubes = HARD_TINY[key]
    best = solve_exhaustive(CirclePackingProblem(inst, tubes=tubes))
    sg = SemiGreedy(inst)
    rng = np.random.default_rng(0)
    hits = sum(sg.run(rng).value(inst) >= best.value for _ in range(200))
    assert hits < 40  # SG alone (MS) finds it in under a fifth of its constructions, or never


@pytest.mark.parametrize("key", sorted(HARD_TINY))
@pytest.mark.parametrize("prune", [False, True])
def test_mcts_faithful_setting_finds_the_brute_force_optimum(key, prune):
    from hornermcts.search import mcts

    inst, tubes = HARD_TINY[key]
    problem = CirclePackingProblem(inst, tubes=tubes)
    best = solve_exhaustive(problem)
    for seed in range(2):
        result = mcts(problem, iterations=5000, clock="cpu", cp=math.sqrt(2), value="best", normalize="parent",
                      expansion="single", prune=prune, seed=seed, progress=None)
        assert result.best_value == best.value
        assert check_packing(inst, result.best_state.packing()) == best.value
        assert problem.replay(result.best_moves) == result.best_state
        assert result.stopped == "exhausted" and result.proven
        if not prune:
            assert result.iterations >= best.leaves  # every leaf simulated once at least


def test_compressed_and_plain_trees_have_the_same_optimum():
    inst = tiny()
    compressed = CirclePackingProblem(inst)
    plain = CirclePackingProblem(inst, compress=False)
    assert solve_exhaustive(compressed).value == solve_exhaustive(plain).value
    assert solve_exhaustive(compressed).leaves == solve_exhaustive(plain).leaves
    # with compression no inner node has a single move; the playout reports only the moves it chose
    state = compressed.root()
    rng = np.random.default_rng(2)
    while compressed.moves(state):
        assert len(compressed.moves(state)) >= 2
        final, played = compressed.playout(state, np.random.default_rng(7))
        plain_final, every = plain.playout(state, np.random.default_rng(7))
        assert final == plain_final  # the same construction
        assert len(every) == len(final) - len(state) and set(played) <= set(every)
        state = compressed.apply(state, compressed.moves(state)[int(rng.integers(len(compressed.moves(state))))])
    # ... while the plain tree has forced steps
    forced, stack = 0, [plain.root()]
    while stack:
        state = stack.pop()
        moves = plain.moves(state)
        forced += len(moves) == 1
        stack.extend(plain.apply(state, move) for move in moves)
    assert forced > 0


def test_run_mcts_and_the_cli_on_a_substitute(capsys):
    from hornermcts.domains.circle_packing import solve, tree_search

    inst = substitute_instance("small03")
    result = tree_search(inst, time_limit=0.3, seed=0)
    assert result.iterations > 1 and result.stopped == "time"
    assert check_packing(inst, result.best_state.packing()) == result.best_value
    assert main(["circles", "small03", "--method", "mcts", "--time", "0.3", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "mcts: value" in out and "iterations" in out
    for method in ("sg", "ms", "mcts"):
        run = solve(inst, method, time_limit=0.2, seed=1)
        assert run.value == check_packing(inst, run.packing) and run.history[-1][1] == run.value
        assert run.simulations >= 1 and (method == "sg") == (run.simulations == 1)
        assert all(a[0] <= b[0] and a[1] < b[1] for a, b in zip(run.history, run.history[1:]))
    with pytest.raises(OptionError, match="method"):
        solve(inst, "dfs")


# --------------------------------------------------------------------------
# the benchmark of Table 6.1


def test_benchmark_table_on_a_tiny_budget(tmp_path):
    import json

    bench = load_benchmark("thesis_circles")
    out = tmp_path / "rows.jsonl"
    rows = bench.table(0.25, [0, 1], ["small05"], out=out)
    assert [(r["instance"], r["method"], r["seed"]) for r in rows] == [
        ("small05", "ms", 0), ("small05", "ms", 1), ("small05", "mcts", 0), ("small05", "mcts", 1)]
    assert [json.loads(line) for line in out.read_text().splitlines()] == rows
    inst = substitute_instance("small05")
    for row in rows:
        assert row["substitute"] == "small05-substitute" and row["budget"] == 0.25
        packing = Packing(*zip(*row["packing"])) if row["packing"] else Packing([], [], [], [])
        assert check_packing(inst, packing) == row["best"] == row["history"][-1][1]
        assert row["placed"] == len(packing) and row["best"] > 0
        assert 0.25 <= row["cpu_seconds"] < 1.5 and row["simulations"] > 5
        times = [t for t, _ in row["history"]]
        values = [v for _, v in row["history"]]
        assert times == sorted(times) and all(0 <= t <= row["cpu_seconds"] for t in times)
        assert values == sorted(set(values))
    text = bench.format_table(rows)
    assert "SUBSTITUTE" in text and "small05" in text and "1090000.0   1120000.0" in text
    assert "MCTS mean >= MS mean on" in text
