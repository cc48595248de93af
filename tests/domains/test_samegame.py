"""Tests of the SameGame family (``hornermcts.domains.samegame``).

Rules on hand-made boards, the replay of the 20 logged games of the
standard set, playouts against the rules, exhaustive search on tiny boards.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hornermcts.domains.samegame import (
    SameGame,
    format_moves,
    parse_moves,
    random_board,
    read_boards,
    read_replays,
    solve_exhaustive,
    standard_testset,
)
from helpers.benchmarks import load_benchmark

# --------------------------------------------------------------------------
# a pure-Python reference of the rules (the oracle)


def ref_groups(grid):
    """Groups of a top-first grid as lists of (col, row-from-bottom) cells."""
    h, w = len(grid), len(grid[0])
    colour = {(c, h - 1 - r): grid[r][c] for r in range(h) for c in range(w) if grid[r][c] >= 0}
    seen, groups = set(), []
    for cell in sorted(colour):
        if cell in seen:
            continue
        group, todo = [], [cell]
        seen.add(cell)
        while todo:
            c, r = todo.pop()
            group.append((c, r))
            for nb in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                if nb in colour and nb not in seen and colour[nb] == colour[cell]:
                    seen.add(nb)
                    todo.append(nb)
        groups.append(sorted(group))
    return groups


def ref_apply(grid, move):
    """Remove the group of ``move``; return (new grid, size)."""
    h, w = len(grid), len(grid[0])
    group = next(g for g in ref_groups(grid) if move in g)
    columns = []
    for c in range(w):
        column = [grid[h - 1 - r][c] for r in range(h) if grid[h - 1 - r][c] >= 0 and (c, r) not in group]
        if column:
            columns.append(column)
    out = [[-1] * w for _ in range(h)]
    for c, column in enumerate(columns):
        for r, k in enumerate(column):
            out[h - 1 - r][c] = k
    return out, len(group)


boards = st.integers(1, 5).flatmap(
    lambda w: st.integers(1, 5).flatmap(
        lambda h: st.lists(st.lists(st.integers(0, 2), min_size=w, max_size=w), min_size=h, max_size=h)
    )
)


# --------------------------------------------------------------------------
# rules on hand-made boards


def test_gravity_and_column_closing():
    game = SameGame([[1, 0, 2],
                     [1, 0, 2],
                     [2, 0, 1]])
    state = game.apply(game.root(), (1, 0))  # the middle column of 0s: empties it
    assert game.grid(state).tolist() == [[-1, -1, -1],
                                         [1, 2, -1],
                                         [1, 2, -1],
                                         [2, 1, -1]][1:]
    assert state.score == 1
    state = game.apply(state, (0, 1))  # the two 1s of column 0 fall on nothing: the 2 stays
    assert game.grid(state).tolist() == [[-1, 2, -1], [-1, 2, -1], [2, 1, -1]]
    assert state.score == 1


def test_tiles_fall_into_the_gap():
    game = SameGame([[3, 4],
                     [1, 1],
                     [2, 4]])
    state = game.apply(game.root(), (0, 1))
    assert game.grid(state).tolist() == [[-1, -1], [3, 4], [2, 4]]
    assert game.moves(state) == [(1, 0)]


def test_single_tiles_and_empty_cells_are_not_moves():
    game = SameGame([[0, 1], [1, 0]])
    assert game.moves(game.root()) == []
    assert game.is_terminal(game.root())
    with pytest.raises(ValueError, match="single tile"):
        game.apply(game.root(), (0, 0))
    game = SameGame([[-1, -1], [0, 0]])
    with pytest.raises(ValueError, match="empty cell"):
        game.apply(game.root(), (0, 1))
    with pytest.raises(ValueError, match="off the"):
        game.apply(game.root(), (2, 0))


def test_apply_does_not_mutate():
    game = SameGame(random_board(6, 6, 3, seed=2))
    root = game.root()
    before = root.cells.copy()
    game.apply(root, game.moves(root)[0])
    assert np.array_equal(root.cells, before)
    with pytest.raises(ValueError):
        root.cells[0] = 3  # read-only


@pytest.mark.parametrize(
    "scoring, expected",
    [("samegame", [(6 - 2) ** 2, (3 - 2) ** 2]), ("clickomania", [6, 3]), ("bubblebreaker", [30, 6])],
)
def test_scoring_variants_per_move(scoring, expected):
    game = SameGame([[1, 1, 1, 2],
                     [0, 0, 0, 2],
                     [0, 0, 0, 3]], scoring=scoring)
    state = game.apply(game.root(), (0, 0))  # six 0s
    assert state.score == expected[0]
    state = game.apply(state, (0, 0))  # three 1s fell to the bottom
    assert state.score == expected[0] + expected[1]


def test_samegame_bonus_and_terminal_penalty():
    # clearing: (4-2)^2 + (2-2)^2 + 1000
    game = SameGame([[1, 1], [0, 0], [0, 0]])
    assert game.score([(0, 0), (0, 0)]) == 4 + 0 + 1000
    # tiles left: four 0s, four 1s and one 3, none connected
    game = SameGame([[2, 2, 2, 3],
                     [0, 1, 0, 1],
                     [1, 0, 1, 0]])
    state = game.apply(game.root(), (0, 2))  # the three 2s: 1 point
    assert game.grid(state).tolist() == [[-1, -1, -1, 3], [0, 1, 0, 1], [1, 0, 1, 0]]
    assert game.is_terminal(state) and state.score == 1
    assert game.end_adjustment(state) == -((4 - 2) ** 2 + (4 - 2) ** 2 + (1 - 2) ** 2)
    assert game.reward(state) == 1 - 9
    assert SameGame(game.grid(game.root()), penalty=False).reward(state) == 1
    # the other variants have neither bonus nor penalty
    for scoring in ("clickomania", "bubblebreaker"):
        other = SameGame([[1, 1], [0, 0], [0, 0]], scoring=scoring)
        assert other.end_adjustment(other.replay([(0, 0), (0, 0)])) == 0
        assert other.end_adjustment(other.root()) == 0


def test_penalty_counts_single_tiles():
    # one tile of each of two colours: (1-2)^2 each
    game = SameGame([[0, 1]])
    assert game.reward(game.root()) == -2
    game = SameGame([[0, 1, 0, 1, 0, 2]])
    assert game.reward(game.root()) == -((3 - 2) ** 2 + (2 - 2) ** 2 + (1 - 2) ** 2)


def test_clickomania_scores_tiles_removed():
    board = random_board(8, 8, 4, seed=11)
    game = SameGame(board, scoring="clickomania")
    final, moves = game.playout(game.root(), np.random.default_rng(1))
    assert game.reward(final) == 64 - game.tiles_left(final)


@settings(max_examples=150, deadline=None)
@given(boards, st.integers(0, 10**6))
def test_moves_and_apply_agree_with_the_reference(grid, seed):
    game = SameGame(grid, colours=3)
    state = game.root()
    current = [row[:] for row in grid]
    rng = np.random.default_rng(seed)
    while True:
        groups = [g for g in ref_groups(current) if len(g) >= 2]
        assert game.moves(state) == [g[0] for g in groups]
        if not groups:
            break
        move = groups[int(rng.integers(len(groups)))][int(rng.integers(2))]  # any cell of the group
        current, n = ref_apply(current, move)
        state = game.apply(state, move)
        assert game.grid(state).tolist() == current
    assert game.is_terminal(state)


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(0, 10**6), st.sampled_from(["random", "tabu", "tabu_color"]))
def test_playouts_are_legal_games(grid, seed, policy):
    game = SameGame(grid, colours=3, playout=policy, epsilon=0.1, scoring="bubblebreaker")
    final, moves = game.playout(game.root(), np.random.default_rng(seed))
    state = game.root()
    for move in moves:
        assert move in game.moves(state)
        state = game.apply(state, move)
    assert state == final and game.is_terminal(final)


def test_playout_is_reproducible_and_leaves_the_state_alone():
    game = SameGame(random_board(seed=3), playout="tabu_color", epsilon=0.003)
    root = game.root()
    a = game.playout(root, np.random.default_rng(5))
    b = game.playout(root, np.random.default_rng(5))
    assert a[1] == b[1] and a[0] == b[0]
    assert root == game.root()
    final, moves = game.playout(a[0], np.random.default_rng(0))
    assert moves == [] and final is a[0]


def test_tabu_color_avoids_the_most_frequent_colour():
    """While other moves exist, TabuColorRandom never removes the tabu colour."""
    board = random_board(10, 10, 4, seed=8)
    counts = np.bincount(board.ravel(), minlength=4)
    tabu = int(np.argmax(counts))
    game = SameGame(board, playout="tabu_color")
    for seed in range(20):
        state = game.root()
        _, moves = game.playout(state, np.random.default_rng(seed))
        for move in moves:
            groups = game.groups(state)
            colour = {m: k for m, _, k in groups}
            if any(k != tabu for k in colour.values()):
                assert colour[move] != tabu
            state = game.apply(state, move)


def test_tabu_policies_score_more_than_random():
    """The paper's Table 1 ordering, on playouts alone (means over 300)."""
    board = random_board(seed=21)
    means = {}
    for policy in ("random", "tabu", "tabu_color"):
        game = SameGame(board, playout=policy, penalty=False)
        rng = np.random.default_rng(0)
        means[policy] = np.mean([game.reward(game.playout(game.root(), rng)[0]) for _ in range(300)])
    assert means["random"] < means["tabu"] < means["tabu_color"]


def test_board_validation():
    with pytest.raises(ValueError, match="rest on tiles"):
        SameGame([[0, 1], [-1, 1]])
    with pytest.raises(ValueError, match="empty column"):
        SameGame([[-1, 1], [-1, 1]])
    with pytest.raises(ValueError, match="2-D"):
        SameGame([0, 1])
    with pytest.raises(ValueError, match="colours=2"):
        SameGame([[0, 2]], colours=2)
    with pytest.raises(ValueError, match="unknown scoring"):
        SameGame([[0]], scoring="tetris")
    with pytest.raises(ValueError, match="unknown playout"):
        SameGame([[0]], playout="greedy")


def test_any_size_and_colour_count():
    game = SameGame(random_board(20, 20, 10, seed=0), scoring="clickomania")
    assert (game.width, game.height, game.n_colours) == (20, 20, 10)
    final, moves = game.playout(game.root(), np.random.default_rng(0))
    assert game.replay(moves) == final
    wide = SameGame(random_board(30, 4, 2, seed=1))
    final, moves = wide.playout(wide.root(), np.random.default_rng(0))
    assert wide.replay(moves) == final


def test_random_board_is_seeded_and_uniform():
    a = random_board(15, 15, 5, seed=7)
    assert a.shape == (15, 15) and a.dtype == np.int8
    assert np.array_equal(a, random_board(15, 15, 5, seed=7))
    assert not np.array_equal(a, random_board(15, 15, 5, seed=8))
    big = random_board(200, 200, 5, seed=0)
    assert set(np.unique(big)) == set(range(5))
    assert np.allclose(np.bincount(big.ravel()) / big.size, 0.2, atol=0.01)


# --------------------------------------------------------------------------
# files, the standard set, the replay check

# the project's SameGame data: where HORNERMCTS_SAMEGAME_DATA says, else in the
# shared/ folder beside the repository; the library itself assumes no folder
DATA = Path(os.environ.get("HORNERMCTS_SAMEGAME_DATA") or Path(__file__).resolve().parents[3] / "shared/data/samegame")
REPLAYS = DATA / "replays_mcs_cmct40.tsv"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"SameGame data not present in {DATA}")


@needs_data
def test_embedded_standard_set_equals_both_files():
    embedded = standard_testset()
    assert len(embedded) == 20
    from_file = read_boards(DATA / "standard_testset.txt")
    assert all(np.array_equal(a, b) for a, b in zip(embedded, from_file, strict=True))
    for i, board in enumerate(embedded, start=1):
        (letters,) = read_boards(DATA / "mcs_letters" / f"problem{i:02d}.txt")
        assert np.array_equal(letters, board)


@needs_data
def test_logged_games_replay_to_their_scores():
    """The 20 CMCT games of replays_mcs_cmct40.tsv: every move legal, every score exact.

    All 20 games clear the board, so the logs confirm the +1000 bonus but
    cannot tell whether the end-of-game penalty applies.
    """
    rows = read_replays(REPLAYS)
    assert len(rows) == 20
    total = 0
    for board, (name, score, moves) in zip(standard_testset(), rows, strict=True):
        game = SameGame(board)
        assert game.score(moves) == score, name
        assert game.tiles_left(game.replay(moves)) == 0
        total += score
    assert total == 71026


@needs_data
def test_a_corrupted_log_fails_the_replay():
    board = standard_testset()[0]
    name, score, moves = read_replays(REPLAYS)[0]
    game = SameGame(board)
    with pytest.raises(ValueError, match="not over"):
        game.score(moves[:-1])
    single = next(g[0] for g in ref_groups(board.tolist()) if len(g) == 1)
    with pytest.raises(ValueError, match="move 1: illegal move"):
        game.score([single] + moves[1:])
    assert game.score(moves) == score


def test_read_boards_formats(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("2 3 3\nRGB\n.GR\n\n1 3 5\nVYB\n")
    a, b = read_boards(path)
    assert a.tolist() == [[0, 1, 2], [-1, 1, 0]] and b.tolist() == [[4, 3, 2]]
    path.write_text("0 1 \n1 1 \n\n2 2 \n2 0 \n")
    a, b = read_boards(path)
    assert a.tolist() == [[0, 1], [1, 1]] and b.tolist() == [[2, 2], [2, 0]]
    path.write_text("0 1\n1\n")
    with pytest.raises(ValueError, match="different lengths"):
        read_boards(path)
    path.write_text("1 2 5\nRX\n")
    with pytest.raises(ValueError, match="unknown board symbol"):
        read_boards(path)


def test_read_replays_without_a_path_names_what_is_missing(tmp_path, monkeypatch):
    monkeypatch.delenv("HORNERMCTS_SAMEGAME_DATA", raising=False)
    with pytest.raises(FileNotFoundError, match="HORNERMCTS_SAMEGAME_DATA is not set.*replays_mcs_cmct40.tsv"):
        read_replays()
    (tmp_path / "replays_mcs_cmct40.tsv").write_text("problem\tscore\tn_moves\tmoves\nb\t0\t1\t2,3\n")
    monkeypatch.setenv("HORNERMCTS_SAMEGAME_DATA", str(tmp_path))
    assert read_replays() == [("b", 0, [(2, 3)])]


def test_parse_and_format_moves_round_trip():
    moves = [(0, 0), (14, 13), (3, 7)]
    assert parse_moves(format_moves(moves)) == moves
    with pytest.raises(ValueError):
        parse_moves("1,2,3")


# --------------------------------------------------------------------------
# exhaustive search on tiny boards


def brute_force(game, state):
    """Every complete game, no memo: the oracle of solve_exhaustive."""
    moves = game.moves(state)
    if not moves:
        return game.reward(state)
    return max(brute_force(game, game.apply(state, m)) for m in moves)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("scoring", ["samegame", "clickomania", "bubblebreaker"])
def test_exhaustive_search_matches_brute_force(seed, scoring):
    game = SameGame(random_board(4, 4, 3, seed=seed), scoring=scoring)
    best, moves = solve_exhaustive(game)
    assert best == brute_force(game, game.root())
    assert game.score(moves) == best
    # the optimistic bound holds at the root and along the optimal game
    state = game.root()
    for move in moves:
        assert game.bound(state) >= best
        state = game.apply(state, move)
    assert game.bound(state) >= best == game.reward(state)


@pytest.mark.parametrize("seed", range(10))
def test_sp_mcts_finds_the_optimum_of_tiny_boards(seed):
    from hornermcts.search import sp_mcts

    game = SameGame(random_board(4, 4, 3, seed=seed), playout="tabu_color", epsilon=0.003)
    best, _ = solve_exhaustive(game)
    # scores span about 1000 points here: C must outweigh a deviation of that size
    per_game = sp_mcts(game, c=10000.0, d=1000.0, w=0.02, t=2, iterations=2000, seed=seed, progress=None)
    assert per_game.best_reward == best
    assert game.score(per_game.best_moves) == best
    per_move = sp_mcts(game, c=10000.0, d=1000.0, t=2, per_move=True, iterations=500, seed=seed, progress=None)
    assert per_move.best_reward == best == game.score(per_move.best_moves)


def test_search_on_the_standard_board_is_a_legal_game():
    from hornermcts.search import beam_mcts, mcts

    game = SameGame(standard_testset()[0], playout="tabu_color", epsilon=0.003)
    result = mcts(game, iterations=300, cp=50.0, seed=0, progress=None)
    assert game.score(result.best_moves) == result.best_reward > 500
    beam = beam_mcts(game, simulation_limit=30, beam_width=2, iterations=300, cp=50.0, seed=0, progress=None)
    assert game.score(beam.best_moves) == beam.best_reward


# --------------------------------------------------------------------------
# the command line


def cli(argv, capsys):
    from hornermcts.cli import main

    code = main(["samegame", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_plays_a_random_board_and_prints_a_verified_game(capsys):
    code, out, err = cli(["--random", "4", "--size", "6x5", "--colours", "3", "-n", "30", "--no-progress"], capsys)
    assert code == 0, err
    head, moves = out.strip().splitlines()
    assert head.startswith("random 6x5/3 seed 4: score ")
    score = float(head.split("score ")[1].split(",")[0])
    game = SameGame(random_board(6, 5, 3, seed=4))
    assert game.score(parse_moves(moves.removeprefix("moves: "))) == score


def test_cli_beam_and_file(tmp_path, capsys):
    path = tmp_path / "boards.txt"
    path.write_text("3 4 3\nRGBR\nRGBB\nGGRB\n\n2 2 2\nRG\nRG\n")
    code, out, err = cli([str(path), "--algorithm", "beam", "--per-game", "-n", "50", "--no-progress"], capsys)
    assert code == 0, err
    assert "#1: score" in out and "#2: score 1000," in out and "total score" in out


@needs_data
def test_cli_replay_verifies_a_logged_game(capsys):
    name, score, moves = read_replays(REPLAYS)[4]
    text = format_moves(moves)
    code, out, _ = cli(["--standard", "--positions", "5", "--replay", text, "--expect", str(score)], capsys)
    assert code == 0 and f"score {score}, game over" in out
    code, out, _ = cli(["--standard", "--positions", "5", "--replay", text, "--expect", "1"], capsys)
    assert code == 1 and "differs" in out
    code, out, _ = cli(["--standard", "--positions", "5", "--replay", format_moves(moves[:-3])], capsys)
    assert code == 1 and "NOT over" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--standard", "--replay", "1,1"], "needs one board"),
        (["--random", "1", "--replay", "0,0 9,9"], "move 1: illegal move|move 2: illegal"),
        (["no/such/file.txt"], "No such file"),
        (["--random", "1", "--standard"], "exactly one board source"),
        (["--standard", "--positions", "0"], "out of range"),
        (["--random", "1", "--size", "5by5"], "bad --size"),
        (["--random", "1", "--replay", "3"], "bad move"),
        (["--random", "1", "-n", "0"], "--iterations must be"),
    ],
)
def test_cli_errors_are_one_line_and_non_zero(argv, message, capsys):
    import re

    code, out, err = cli(argv, capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and re.search(message, err), err


# --------------------------------------------------------------------------
# NRPA: moves coded by colour and group size (SameGameByGroup)


def ref_codes(grid):
    """{(col, row) cell of each legal group, first in scan order: (colour, size)}, from the Python reference."""
    h = len(grid)
    return {g[0]: (grid[h - 1 - g[0][1]][g[0][0]], len(g)) for g in ref_groups(grid) if len(g) >= 2}


@settings(max_examples=80, deadline=None)
@given(boards, st.integers(0, 10**6))
def test_group_codes_are_the_colour_and_size_of_the_group(grid, seed):
    from hornermcts.domains.samegame import SameGameByGroup

    game = SameGameByGroup(SameGame(grid, colours=3))
    rng = np.random.default_rng(seed)
    state, reference = game.root(), [row[:] for row in grid]
    seen = set()
    while True:
        moves = game.moves(state)
        expected = ref_codes(reference)
        assert {m: game.move_code(state, m) for m in moves} == expected
        for colour, size in expected.values():
            index = game.code_index(colour, size)
            assert 0 <= index < game.code_count and index not in seen or (colour, size) in seen
            seen.add(index)
            seen.add((colour, size))
        if not moves:
            break
        move = moves[int(rng.integers(len(moves)))]
        state = game.apply(state, move)
        reference, _ = ref_apply(reference, move)
    indices = {i for i in seen if isinstance(i, int)}
    pairs = {p for p in seen if isinstance(p, tuple)}
    assert len(indices) == len(pairs)  # code_index is one-to-one on the codes met


def test_code_index_range_and_errors():
    from hornermcts.domains.samegame import SameGameByGroup

    game = SameGameByGroup(SameGame(random_board(4, 3, 3, seed=0)))
    assert game.code_count == 3 * 13
    assert sorted(game.code_index(c, s) for c in range(3) for s in range(2, 13)) == \
        sorted({c * 13 + s for c in range(3) for s in range(2, 13)})
    with pytest.raises(ValueError, match="no group of colour 3"):
        game.code_index(3, 2)
    with pytest.raises(ValueError, match="size 1"):
        game.code_index(0, 1)
    with pytest.raises(ValueError, match="not a legal move"):
        game.move_code(game.root(), (3, 2)) if (3, 2) not in game.moves(game.root()) else game.move_code(
            game.root(), (9, 9))
    with pytest.raises(ValueError, match="wraps a SameGame"):
        SameGameByGroup(random_board(4, 3, 3, seed=0))


@pytest.mark.parametrize("with_bias", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_the_coded_playout_draws_as_the_generic_one(seed, with_bias):
    """Same weights, same seed: the compiled playout and softmax_playout play the same game, same trace."""
    from hornermcts.domains.samegame import SameGameByGroup
    from hornermcts.search.policy import softmax_playout

    game = SameGameByGroup(SameGame(random_board(7, 6, 4, seed=seed)))
    table = np.random.default_rng(100 + seed).normal(0.0, 1.5, game.code_count)
    beta = np.random.default_rng(200 + seed).normal(0.0, 1.0, game.code_count) if with_bias else None
    pairs = [(c, s) for c in range(4) for s in range(2, 43)]
    weights = {p: table[game.code_index(*p)] for p in pairs}
    bias = None
    if with_bias:
        def bias(state, moves):
            return [beta[game.code_index(*game.move_code(state, m))] for m in moves]
    final, moves, trace = softmax_playout(game, weights, np.random.default_rng(seed), bias=bias)
    coded_final, coded_moves, coded = game.coded_playout(game.root(), table, beta, np.random.default_rng(seed))
    assert coded_moves == moves and coded_final == final
    assert [game.code_index(*c) for c in trace.codes] == coded.codes.tolist()
    assert list(trace.starts) == coded.starts.tolist() and list(trace.chosen) == coded.chosen.tolist()
    if with_bias:
        assert np.allclose(trace.bias, coded.bias)
    else:
        assert coded.bias is None
    assert game.replay(moves) == final and game.reward(final) == game.score(moves)


def test_a_bias_that_excludes_every_group_is_ignored():
    from hornermcts.domains.samegame import SameGameByGroup

    game = SameGameByGroup(SameGame(random_board(6, 6, 3, seed=3)))
    excluded = np.full(game.code_count, -np.inf)
    final, moves, trace = game.coded_playout(game.root(), np.zeros(game.code_count), excluded,
                                             np.random.default_rng(0))
    assert game.score(moves) == game.reward(final) and not np.any(trace.bias)  # played uniformly, beta 0 recorded
    # a terminal state: no moves, the state itself
    end = game.replay(moves)
    assert game.coded_playout(end, np.zeros(game.code_count), None, np.random.default_rng(0))[:2] == (end, [])


def test_the_coded_nrpa_search_equals_the_generic_one():
    from hornermcts.domains.samegame import SameGameByGroup
    from hornermcts.search.nested import nrpa

    game = SameGameByGroup(SameGame(random_board(6, 6, 3, seed=4)))
    coded = nrpa(game, level=2, per_level=12, seed=3, coded=True, progress=None)
    generic = nrpa(game, level=2, per_level=12, seed=3, coded=False, progress=None)
    assert coded.best_moves == generic.best_moves and coded.history == generic.history
    assert game.score(coded.best_moves) == coded.best_value


@pytest.mark.parametrize("seed", range(12))
def test_nrpa_reaches_the_exhaustive_optimum_of_tiny_boards(seed):
    """Level 2 restarted (the benchmark's setting) finds the optimum within 30,000 playouts.

    One level-2 search (10,000 playouts) alone finds it on 10 of these 12
    boards: the code cannot tell apart two groups of one colour and size.
    """
    from hornermcts.domains.samegame import SameGameByGroup
    from hornermcts.search.nested import nrpa

    game = SameGame(random_board(5, 4, 3, seed=seed))
    best, _ = solve_exhaustive(game)
    result = nrpa(SameGameByGroup(game), level=2, per_level=100, playouts=30_000, target=best, seed=seed,
                  progress=None)
    assert result.stopped == "target" and result.reached <= 30_000
    assert result.best_value == best == game.score(result.best_moves)


def test_group_coded_samegame_keeps_the_protocol():
    from hornermcts.domains.samegame import SameGameByGroup
    from hornermcts.search import check_problem

    check_problem(SameGameByGroup(SameGame(random_board(6, 6, 3, seed=4), playout="tabu_color")),
                  simulations=15, seed=2)


def test_the_benchmark_row_check_catches_a_wrong_score():
    bench = load_benchmark("samegame_nrpa")
    board = standard_testset()[0]
    row = bench.play("nrpa", board, 0.3, seed=1, nrpa_level=1, per_level=20)
    row["position"] = 1
    assert bench.check_row(row, board) == row["score"] == SameGame(board).score(parse_moves(row["moves"]))
    with pytest.raises(ValueError, match="the row says"):
        bench.check_row(dict(row, score=row["score"] + 1), board)
    with pytest.raises(ValueError, match="not over"):
        bench.check_row(dict(row, moves=format_moves(parse_moves(row["moves"])[:-1])), board)
    header = {"seconds_cpu": 0.3, "methods": ["nrpa"], "nrpa": {"level": 1, "per_level": 20},
              "nmcs": {"level": 2}}
    assert "re-checked" in bench.table([row], header)
    with pytest.raises(ValueError, match="the row says"):
        bench.table([dict(row, score=row["score"] - 2)], header)
    assert sum(bench.TABLE7_NMCS) == 77_934 and sum(bench.TABLE7_SPMCTS3) == 78_012


def test_the_benchmark_plays_each_method_within_its_budget():
    bench = load_benchmark("samegame_nrpa")
    board = standard_testset()[1]
    for method in ("sp-mcts", "nmcs"):
        row = bench.play(method, board, 0.3, seed=2, nmcs_level=1)
        assert bench.check_row(dict(row, position=2), board) == row["score"] > 0
    with pytest.raises(ValueError, match="unknown method"):
        bench.play("uct", board, 0.1, seed=0)


def test_cli_nrpa_and_nmcs(capsys):
    for algorithm in ("nrpa", "nmcs"):
        code, out, err = cli(["--random", "2", "--size", "5x5", "--colours", "3", "--algorithm", algorithm,
                              "--level", "1", "-n", "300", "--no-progress"], capsys)
        assert code == 0, err
        head, moves = out.strip().splitlines()
        assert head.endswith("s") and "300 playouts" in head
        score = float(head.split("score ")[1].split(",")[0])
        assert SameGame(random_board(5, 5, 3, seed=2)).score(parse_moves(moves.removeprefix("moves: "))) == score
    code, out, err = cli(["--random", "1", "--algorithm", "nrpa", "--move-time", "1"], capsys)
    assert code == 2 and "whole game" in err
