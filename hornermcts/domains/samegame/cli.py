"""Play SameGame, Clickomania or Bubble Breaker boards by tree search.

``hornermcts samegame FILE`` plays every board of FILE (the integer format of
``standard_testset.txt`` or the letter format of ``mcs_letters``);
``--standard`` plays the 20 positions of the standardized test set,
``--random SEED`` a random board. Each game is searched (SP-MCTS per move by
default, with TabuColorRandom playouts) and printed as its score and its
moves, ``column,row`` with ``0,0`` the bottom-left cell. ``--replay MOVES``
instead replays a move list on one board and verifies it (``--expect
SCORE`` checks the score too).

Errors print one line and exit with status 2; a replay whose score differs
from ``--expect`` or whose game is not over exits with status 1.
"""
from __future__ import annotations

from ...errors import OptionError

import argparse
import os
import sys

from ...search import UCB1Tuned, beam_mcts, mcts, per_move_search, sp_mcts
from ...search.nested import nmcs, nrpa
from ...search.sp_mcts import CEM_PER_MOVE, MANUAL
from .boards import format_moves, parse_moves, random_board, read_boards, standard_testset
from .game import SameGame
from .group_codes import SameGameByGroup

__all__ = ["add_arguments", "run"]

ALGORITHMS = ("sp-mcts", "mcts", "beam", "nrpa", "nmcs")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_argument_group("board")
    source.add_argument("file", nargs="?", help="board file (integer rows, or 'H W C' then letter rows)")
    source.add_argument("--standard", action="store_true", help="the 20 positions of the standardized test set")
    source.add_argument("--positions", default=None,
                        help="with --standard or a file: which boards, e.g. 1,4-6 (1-based)")
    source.add_argument("--random", type=int, metavar="SEED", default=None, help="a random board from this seed")
    source.add_argument("--size", default="15x15", help="random board WIDTHxHEIGHT (default 15x15)")
    source.add_argument("--colours", "--colors", type=int, default=5, help="random board colours (default 5)")
    rules = parser.add_argument_group("rules")
    rules.add_argument("--scoring", choices=["samegame", "clickomania", "bubblebreaker"], default="samegame",
                       help="scoring variant (default samegame)")
    rules.add_argument("--no-penalty", action="store_true", help="SameGame without the end-of-game penalty")
    search = parser.add_argument_group("search")
    search.add_argument("--algorithm", choices=ALGORITHMS, default="sp-mcts", help="default sp-mcts")
    search.add_argument("--per-game", action="store_true", help="one search from the start instead of one per move")
    search.add_argument("--level", type=int, default=2,
                        help="nrpa/nmcs: level of the search, restarted while time is left (default 2)")
    search.add_argument("--per-level", type=int, default=100, help="nrpa: N, iterations per level (default 100)")
    search.add_argument("--time", type=float, default=None,
                        help="seconds per board (default 10; per move: spread over the expected game length)")
    search.add_argument("--move-time", type=float, default=None, help="seconds per move (per-move search)")
    search.add_argument("-n", "--iterations", type=int, default=None,
                        help="iterations per search (per move, or per game)")
    search.add_argument("--playout", choices=["random", "tabu", "tabu_color"], default="tabu_color",
                        help="playout policy (default tabu_color)")
    search.add_argument("--epsilon", type=float, default=0.003,
                        help="epsilon-greedy of the tabu playouts (default 0.003)")
    search.add_argument("--params", choices=["manual", "cem"], default="manual",
                        help="SP-MCTS parameter set of the paper (default manual: C 0.1, D 32, W 0.02, T 10)")
    search.add_argument("-c", type=float, default=None, help="exploration C (overrides --params)")
    search.add_argument("-d", type=float, default=None, help="SP-MCTS D")
    search.add_argument("-w", type=float, default=None, help="SP-MCTS top-score weight W")
    search.add_argument("-t", type=int, default=None, help="SP-MCTS visit threshold T")
    search.add_argument("--simulation-limit", type=int, default=1000, help="beam: L (default 1000)")
    search.add_argument("--beam-width", type=int, default=1, help="beam: W (default 1)")
    search.add_argument("--scale", type=float, default=None,
                        help="mcts/beam: UCB1-TUNED reward scale (default: max score estimate)")
    search.add_argument("--repeats", type=int, default=1, help="randomized restarts per search (default 1)")
    search.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    out = parser.add_argument_group("output")
    out.add_argument("--replay", metavar="MOVES", default=None,
                     help="replay and verify 'c,r c,r ...' (or a file holding them) instead of searching")
    out.add_argument("--expect", type=float, default=None, help="with --replay: the score the moves must reach")
    out.add_argument("--show", action="store_true", help="print the board before and after")
    out.add_argument("--no-progress", action="store_true", help="no progress bar")


def _select(boards: list, spec: str | None) -> list[tuple[int, object]]:
    numbered = list(enumerate(boards, start=1))
    if spec is None:
        return numbered
    chosen = []
    for part in spec.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-"))
            else:
                lo = hi = int(part)
        except ValueError:
            raise OptionError(f"bad --positions {spec!r}: expected numbers like 1,4-6") from None
        if not (1 <= lo <= hi <= len(boards)):
            raise OptionError(f"--positions {part} out of range 1..{len(boards)}")
        chosen.extend(numbered[lo - 1 : hi])
    return chosen


def _boards(args: argparse.Namespace) -> list[tuple[str, object]]:
    sources = sum(x for x in (args.file is not None, args.standard, args.random is not None))
    if sources != 1:
        raise OptionError("give exactly one board source: FILE, --standard or --random SEED")
    if args.random is not None:
        if args.positions:
            raise OptionError("--positions applies to --standard or a file, not --random")
        try:
            width, height = (int(x) for x in args.size.lower().split("x"))
        except ValueError:
            raise OptionError(f"bad --size {args.size!r}: expected WIDTHxHEIGHT, e.g. 20x20") from None
        return [(f"random {width}x{height}/{args.colours} seed {args.random}",
                 random_board(width, height, args.colours, seed=args.random))]
    if args.standard:
        return [(f"standard {i}", b) for i, b in _select(standard_testset(), args.positions)]
    return [(f"{args.file} #{i}", b) for i, b in _select(read_boards(args.file), args.positions)]


def _replay(args: argparse.Namespace, boards: list) -> int:
    if len(boards) != 1:
        raise OptionError(f"--replay needs one board, got {len(boards)} (use --positions N)")
    name, board = boards[0]
    text = args.replay
    if os.path.isfile(text):
        with open(text) as handle:
            text = handle.read()
    moves = parse_moves(text)
    game = SameGame(board, scoring=args.scoring, penalty=not args.no_penalty)
    state = game.replay(moves)
    left = game.moves(state)
    score = game.reward(state)
    if args.show:
        print(game.render(state))
    print(f"{name}: {len(moves)} legal moves, score {score:g}, "
          + ("game over" if not left else f"game NOT over ({len(left)} groups left)")
          + f", {game.tiles_left(state)} tiles left")
    status = 0
    if left:
        status = 1
    if args.expect is not None and score != args.expect:
        print(f"score {score:g} differs from the expected {args.expect:g}")
        status = 1
    return status


def _nested(args: argparse.Namespace, game, progress):
    """NRPA (codes: colour, group size) or NMCS of the whole game: ``-n`` playouts or ``--time`` seconds."""
    if args.move_time is not None or args.per_game:
        raise OptionError(f"--move-time and --per-game are for the tree searches; {args.algorithm} searches the "
                          "whole game (use --time or -n)")
    budget: dict = {}
    if args.iterations is not None:
        budget["playouts"] = args.iterations
    if args.time is not None or not budget:
        budget["time_limit"] = 10.0 if args.time is None else args.time
    if args.algorithm == "nrpa":
        return nrpa(SameGameByGroup(game), level=args.level, per_level=args.per_level, seed=args.seed,
                    progress=progress, **budget)
    return nmcs(game, level=args.level, seed=args.seed, progress=progress, **budget)


def _search(args: argparse.Namespace, game, progress):
    if args.algorithm in ("nrpa", "nmcs"):
        return _nested(args, game, progress)
    per_move = not args.per_game
    if args.time is not None and args.time <= 0:
        raise OptionError(f"--time must be > 0, got {args.time}")
    if args.move_time is not None and not per_move:
        raise OptionError("--move-time is for per-move search; use --time with --per-game")
    budget: dict = {}
    if args.iterations is not None:
        if args.iterations < 1:
            raise OptionError(f"--iterations must be >= 1, got {args.iterations}")
        budget["iterations"] = args.iterations
    if args.move_time is not None:
        budget["time_limit"] = args.move_time
    elif args.time is not None or not budget:
        seconds = 10.0 if args.time is None else args.time
        if per_move:
            # the paper's spread: the game time over the average game length (64.4 on 15x15)
            seconds /= max(64.4 * game.width * game.height / 225, 1.0)
        budget["time_limit"] = seconds
    options = dict(seed=args.seed, progress=progress, repeats=args.repeats, **budget)
    if args.algorithm == "sp-mcts":
        params = dict(CEM_PER_MOVE if args.params == "cem" else MANUAL)
        for key in "cdwt":
            if getattr(args, key) is not None:
                params[key] = getattr(args, key)
        return sp_mcts(game, per_move=per_move, **params, **options)
    scale = args.scale
    if scale is None:
        scale = {"clickomania": game.width * game.height}.get(game.scoring, 5000.0)
    extra = dict(selection=UCB1Tuned(scale=scale), cp=0.01 if args.c is None else args.c)
    if args.algorithm == "beam":
        search, extra = beam_mcts, dict(extra, simulation_limit=args.simulation_limit, beam_width=args.beam_width)
    else:
        search = mcts
    if per_move:
        return per_move_search(game, search=search, **extra, **options)
    return search(game, **extra, **options)


def run(args: argparse.Namespace) -> int:
    boards = _boards(args)
    if args.replay is not None:
        return _replay(args, boards)
    if args.expect is not None:
        raise OptionError("--expect goes with --replay")
    progress = None if args.no_progress else "auto"
    total = 0.0
    for name, board in boards:
        game = SameGame(board, scoring=args.scoring, penalty=not args.no_penalty, playout=args.playout,
                        epsilon=args.epsilon)
        if args.show:
            print(game.render(game.root()))
        result = _search(args, game, progress)
        score = game.score(result.best_moves)  # verified by replay
        total += score
        if args.show:
            print(game.render(result.best_state))
        unit = "playouts" if args.algorithm in ("nrpa", "nmcs") else "iterations"
        print(f"{name}: score {score:g}, {len(result.best_moves)} moves, {game.tiles_left(result.best_state)} tiles "
              f"left, {result.iterations} {unit}, {result.elapsed:.1f} s"
              + (" (interrupted)" if result.stopped == "interrupt" else ""))
        print(f"moves: {format_moves(result.best_moves)}")
        sys.stdout.flush()
        if result.stopped == "interrupt":
            raise KeyboardInterrupt
    if len(boards) > 1:
        print(f"total score {total:g} over {len(boards)} boards")
    return 0
