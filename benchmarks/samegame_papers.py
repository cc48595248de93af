"""Checks of the SameGame family against the papers' figures.

Three parts, each optional (``--parts abc``); every figure printed with the
exact settings, so a run can be quoted with its command line.

(a) SP-MCTS per move on N seeded random 15x15 / 5-colour boards, the
    setting of Table 3 (sec. 6.4): the manual *exploitation* setting (C 0.1,
    D 32) with the defaults of sec. 6 (W 0.02, T 10, TabuColorRandom with
    epsilon 0.003), top-score move choice, no randomized restarts (sec. 6.3
    only); the game budget is spread over the moves as in the paper (budget
    / 64.4 per move, so the total varies with the game's length). Schadd et
    al., Table 3: 2,588 / 2,644 / 2,742 / 2,822 / 2,880 at ~5 / 10 / 20 / 30
    / 60 s per game (on 250 other random boards, on their hardware). The
    paper does not say whether a move's search may follow the best line of
    an earlier move's search; by default it does (``--forget-best``: not).
(b) BMCTS vs plain MCTS (both UCB1-TUNED) at equal time per board, on
    Clickomania (20x20, 10 colours) and SameGame with random rollouts
    (15x15, 5 colours): mean difference, paired t-test and sign test (Baier
    & Winands: BMCTS significantly better at 60 s; p < 0.0001 on 1000 boards).
(c) The 20 positions of the standardized test set, SP-MCTS per move with a
    stated budget per position, beside Table 7 (2 hours per position there).

Wall-clock budgets depend on the load of the machine; ``--game-iterations``
(spread over 64.4 moves like the time) or ``--move-iterations`` replace them
with a fixed iteration budget (reproducible); ``--calibrate K`` measures the
CPU seconds per game such a budget costs, on K boards the benchmark does not
use. ``--out FILE.jsonl`` (a) saves every board as it finishes and resumes
an interrupted run.

Measured on the project's 2-core machine (shared with other jobs), 2026-11-21:

- (a) Table 3 at ~10 s per game, 100 boards (board seeds 0..99), paper 2,644;
  raw per-board results in ``benchmarks/results/samegame_table3_*.jsonl``:

  - ``--parts a --boards 100 --game-iterations 315000 -v --out
    benchmarks/results/samegame_table3_manual_315k.jsonl``: the budget an
    idle core spends in 10 s per game (``--calibrate 8``, board seeds
    1,000,000..: 10.16 s CPU = 10.16 s wall per game, machine idle), 4,891
    iterations per move: mean 2,804.1 (sd 497, standard error 49.7), 95% CI
    2,705 .. 2,903; +160.1 over the paper, one-sample t = 3.22, p = 0.0017;
    286,124 iterations, 9.7 CPU s (16.3 s wall, loaded machine) per game.
  - ``--game-time 10 --clock cpu`` (the paper's time split, 0.155 CPU s per
    move): 2,750.9 (standard error 48.4), 95% CI 2,655 .. 2,847; +106.9,
    t = 2.21, p = 0.029; 410,984 iterations, 9.2 s CPU = wall per game.
  - ``--game-time 10`` (wall clock, machine mostly idle): 2,682.4 (standard
    error 47.4), 95% CI 2,588 .. 2,776; +38.4, t = 0.81, p = 0.42; 412,039
    iterations, 9.2 s wall (8.1 s CPU) per game.

  - ``--game-iterations 315000 --forget-best`` (each move's search on its
    own, no best line remembered across moves): 1,995.4 (standard error
    41.1), -648.6, t = -15.8; 809 points below keeping it on the same boards
    (99 of 100 boards lower): the paper's 2,644 needs the saved top-score
    line to carry over from move to move.

  Paired on the same boards: iterations vs CPU-time split +53 (p = 0.26),
  CPU vs wall +69 (p = 0.17), iterations vs wall +122 (p = 0.008). Earlier
  (slower code, ~2.9x fewer iterations per CPU second in late-game trees):
  50 boards at 10 s wall under load, 2,615 (standard error 71).
- (b) ``--parts b --b-boards 100 --b-time 2``: Clickomania (L 53, W 100) BMCTS
  306.9 vs MCTS 281.4 tiles, +25.5, t = 19.1, p = 5e-35, 99 wins / 1 loss;
  SameGame random rollouts (L 927, W 1) 1,403.5 vs 1,404.6, -1.1, p = 0.98.
  ``--domains samegame-random --b-boards 100 --b-time 5`` (L 1623, W 1):
  1,872.8 vs 1,414.4, +458.4, t = 10.0, p = 1e-16, 86 wins / 14 losses.
- (c) ``--parts c --position-time 60``: total 62,466 (SP-MCTS(2), 2 h per
  position: 76,352); 8 of 20 positions not cleared.

Usage::

    python benchmarks/samegame_papers.py --calibrate 8 --game-iterations 315000 -v
    python benchmarks/samegame_papers.py --parts a --boards 100 --game-iterations 315000 -v --out a.jsonl
    python benchmarks/samegame_papers.py --parts a --boards 20 --game-time 10 --clock cpu
    python benchmarks/samegame_papers.py --parts b --b-boards 100 --b-time 1
    python benchmarks/samegame_papers.py --parts c --position-time 30
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import json
import math
import os
import time

import numpy as np

from hornermcts.domains.samegame import SameGame, format_moves, random_board, standard_testset
from hornermcts.search import UCB1Tuned, beam_mcts, mcts, sp_mcts
from hornermcts.search.sp_mcts import CEM_PER_MOVE, MANUAL

PARAMS = {"manual": MANUAL, "cem": CEM_PER_MOVE}
AVERAGE_GAME_LENGTH = 64.4  # Schadd et al., sec. 6.4
CALIBRATION_SEED = 10**6  # boards for --calibrate, away from the benchmark's

TABLE3_PER_MOVE = {5: 2588, 10: 2644, 20: 2742, 30: 2822, 60: 2880}
TABLE6_CEM_PER_MOVE = {5: 2652, 10: 2749, 20: 2856, 30: 2876, 60: 2913}
# Table 7: SP-MCTS(2) (per move, manual) and SP-MCTS(3) (per move, CEM), 2 h per position
TABLE7_SPMCTS2 = [2969, 3777, 3425, 3651, 3867, 4115, 2957, 3805, 4735, 3255,
                  3013, 3239, 3159, 2923, 3295, 4913, 4687, 4883, 4685, 4999]
TABLE7_SPMCTS3 = [2919, 3797, 3243, 3687, 4067, 4269, 2949, 4043, 4769, 3245,
                  3259, 3245, 3211, 2937, 3343, 5117, 4959, 5151, 4803, 4999]


# --------------------------------------------------------------------------
# statistics without scipy


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def paired_t_test(x, y) -> tuple[float, float, float]:
    """Mean of x - y, t statistic, two-sided p-value (Student, n - 1 df).

    >>> round(paired_t_test([1, 2, 3, 4], [0, 0, 1, 1])[2], 4)  # scipy.stats.ttest_rel: 0.0163
    0.0163
    """
    d = np.asarray(x, float) - np.asarray(y, float)
    n = d.size
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if sd == 0.0:
        return mean, (math.inf if mean else 0.0), (0.0 if mean else 1.0)
    t = mean / (sd / math.sqrt(n))
    df = n - 1
    p = betainc(df / 2.0, 0.5, df / (df + t * t))
    return mean, t, p


def t_two_sided_p(t: float, df: int) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(q: float, df: int) -> float:
    """The ``q`` quantile (q > 0.5) of Student's t, by bisection.

    >>> round(t_quantile(0.975, 99), 4)  # scipy: 1.9842
    1.9842
    """
    lo, hi = 0.0, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if 1.0 - t_two_sided_p(mid, df) / 2.0 < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def one_sample(x, reference: float) -> dict:
    """Mean, sd, standard error, 95% CI and a two-sided one-sample t-test against ``reference``.

    >>> r = one_sample([1.0, 2.0, 3.0, 4.0], 1.0)  # scipy.stats.ttest_1samp: t 2.3238, p 0.1027
    >>> round(r["t"], 4), round(r["p"], 4), round(r["ci"][0], 3)  # CI 2.5 -+ 3.1824 * 0.6455
    (2.3238, 0.1027, 0.446)
    """
    x = np.asarray(x, float)
    n = x.size
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    se = sd / math.sqrt(n) if n > 1 else math.inf
    t = (mean - reference) / se if se > 0 else (math.inf if mean != reference else 0.0)
    p = t_two_sided_p(t, n - 1) if n > 1 else 1.0
    half = t_quantile(0.975, n - 1) * se if n > 1 else math.inf
    return {"n": n, "mean": mean, "sd": sd, "se": se, "t": t, "p": p, "ci": (mean - half, mean + half)}


def sign_test(x, y) -> tuple[int, int, int, float]:
    """Wins, losses, ties of x over y and the exact two-sided binomial p-value."""
    d = np.asarray(x, float) - np.asarray(y, float)
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    n = wins + losses
    k = min(wins, losses)
    p = min(1.0, 2.0 * sum(math.comb(n, i) for i in range(k + 1)) / 2.0**n) if n else 1.0
    return wins, losses, int(d.size - n), p


# --------------------------------------------------------------------------


def move_iterations(args) -> int:
    """The iteration budget of one move's search, 0 for a time budget."""
    if args.move_iterations:
        return args.move_iterations
    if args.game_iterations:
        return max(1, round(args.game_iterations / AVERAGE_GAME_LENGTH))
    return 0


def budget(args, game_time: float) -> dict:
    if move_iterations(args):
        return {"iterations": move_iterations(args)}
    return {"time_limit": game_time / AVERAGE_GAME_LENGTH}


def describe_budget(args, game_time: float) -> str:
    if args.game_iterations and not args.move_iterations:
        return (f"{args.game_iterations:,} iterations per game = {move_iterations(args):,} per move "
                f"(/ {AVERAGE_GAME_LENGTH})")
    if args.move_iterations:
        return f"{args.move_iterations:,} iterations per move"
    return (f"{game_time:g} s per game = {game_time / AVERAGE_GAME_LENGTH:.3f} s per move "
            f"({'CPU seconds of this process' if args.clock == 'cpu' else 'wall clock'})")


def sp_mcts_settings(args) -> dict:
    params = PARAMS[args.params]
    return {"c": params["c"], "d": params["d"], "w": params["w"], "t": params["t"],
            "playout": "tabu_color", "epsilon": args.epsilon, "keep_best": not args.forget_best,
            "repeats": args.repeats}


@contextlib.contextmanager
def search_clock(name: str):
    """Make the search's time limits count ``"wall"`` or ``"cpu"`` seconds.

    The search core times its runs with ``time.perf_counter`` (wall clock);
    ``"cpu"`` swaps in ``time.process_time`` for the duration, so a time
    limit counts the CPU seconds of this process: what an idle core would
    take, whatever else runs on the machine.
    """
    if name == "wall":
        yield
        return
    modules = [importlib.import_module(m) for m in ("hornermcts.search.mcts", "hornermcts.search.permove")]
    saved = [m.perf_counter for m in modules]
    try:
        for m in modules:
            m.perf_counter = time.process_time
        yield
    finally:
        for m, clock in zip(modules, saved):
            m.perf_counter = clock


def play_sp_mcts(board, args, game_time: float, seed: int):
    """One game of SP-MCTS per move; (result, CPU seconds)."""
    settings = sp_mcts_settings(args)
    game = SameGame(board, playout="tabu_color", epsilon=settings["epsilon"])
    wall = time.perf_counter()
    cpu = time.process_time()
    with search_clock(args.clock):
        result = sp_mcts(
            game, c=settings["c"], d=settings["d"], w=settings["w"], t=settings["t"], per_move=True,
            keep_best=settings["keep_best"], repeats=settings["repeats"], seed=seed, progress=None,
            **budget(args, game_time),
        )
    cpu = time.process_time() - cpu
    result = dataclasses.replace(result, elapsed=time.perf_counter() - wall)
    assert game.score(result.best_moves) == result.best_reward
    return result, cpu


def _load(path: str, header: dict) -> dict:
    """Boards already played in ``path`` under the same settings: {board seed: record}."""
    done: dict = {}
    if not path or not os.path.exists(path):
        return done
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    if not lines or lines[0].get("header") != header:
        raise SystemExit(f"{path} holds another run (settings differ): use another --out")
    for record in lines[1:]:
        done[record["board_seed"]] = record
    return done


def part_a(args) -> None:
    settings = sp_mcts_settings(args)
    print(f"(a) SP-MCTS per move, {args.params} parameters C {settings['c']} D {settings['d']} W {settings['w']} "
          f"T {settings['t']}, TabuColorRandom eps {args.epsilon}, top-score move choice"
          f"{' (best line of all searches kept)' if settings['keep_best'] else ' (of the current search)'}"
          f"{f', {args.repeats} randomized restarts per search' if args.repeats > 1 else ', no restarts'}; "
          f"{args.boards} random 15x15/5 boards (board seeds {args.board_seed}..); "
          f"{describe_budget(args, args.game_time)}", flush=True)
    header = {"part": "a", "settings": settings, "board_size": [15, 15, 5],
              "budget": budget(args, args.game_time), "game_iterations": args.game_iterations or None}
    if not move_iterations(args) and args.clock != "wall":
        header["clock"] = args.clock
    done = _load(args.out, header)
    if args.out and not os.path.exists(args.out):
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(json.dumps({"header": header}) + "\n")
    if done:
        print(f"    resuming: {len(done)} boards already in {args.out}", flush=True)
    records = []
    for i in range(args.boards):
        board_seed = args.board_seed + i
        if board_seed in done:
            records.append(done[board_seed])
            continue
        board = random_board(15, 15, 5, seed=board_seed)
        result, cpu = play_sp_mcts(board, args, args.game_time, seed=board_seed)
        record = {"board_seed": board_seed, "seed": board_seed, "score": result.best_reward,
                  "moves": len(result.best_moves), "searches": len(result.searches),
                  "iterations": result.iterations, "wall": round(result.elapsed, 3), "cpu": round(cpu, 3),
                  "game": format_moves(result.best_moves)}
        records.append(record)
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(record) + "\n")
        if args.verbose:
            print(f"  board {board_seed:4d}: {record['score']:6.0f}  ({record['moves']} moves, "
                  f"{record['iterations']:,} iterations, {record['wall']:.1f} s wall, {record['cpu']:.1f} s CPU)",
                  flush=True)
    report_a(args, records)


def report_a(args, records) -> None:
    scores = [r["score"] for r in records]
    walls = np.array([r["wall"] for r in records])
    cpus = np.array([r["cpu"] for r in records])
    iterations = np.array([r["iterations"] for r in records])
    ref_table = TABLE3_PER_MOVE if args.params == "manual" else TABLE6_CEM_PER_MOVE
    nearest = min(ref_table, key=lambda s: abs(s - args.game_time))
    reference = ref_table[nearest]
    stats = one_sample(scores, reference)
    print(f"    {stats['n']} games: mean score {stats['mean']:,.1f} (sd {stats['sd']:,.0f}, standard error "
          f"{stats['se']:,.1f}); 95% CI {stats['ci'][0]:,.0f} .. {stats['ci'][1]:,.0f}; "
          f"min {min(scores):,.0f}, median {float(np.median(scores)):,.0f}, max {max(scores):,.0f}")
    print(f"    paper ({'Table 3' if args.params == 'manual' else 'Table 6'}, ~{nearest} s per game, 250 boards): "
          f"{reference:,}; difference {stats['mean'] - reference:+,.1f}, one-sample t = {stats['t']:.2f}, "
          f"p = {stats['p']:.3g} (two-sided, {stats['n'] - 1} df)")
    print(f"    per game: {iterations.mean():,.0f} iterations on average; wall {walls.mean():.1f} s "
          f"(min {walls.min():.1f}, max {walls.max():.1f}), CPU {cpus.mean():.1f} s "
          f"(min {cpus.min():.1f}, max {cpus.max():.1f})", flush=True)


def calibrate(args) -> None:
    """CPU seconds per game at a per-move iteration budget, on boards the benchmark does not use."""
    per_move = move_iterations(args)
    if not per_move:
        raise SystemExit("--calibrate needs --game-iterations or --move-iterations")
    print(f"calibration: {args.calibrate} random boards (board seeds {CALIBRATION_SEED}..), {describe_budget(args, 0)}",
          flush=True)
    cpus, walls = [], []
    for i in range(args.calibrate):
        board = random_board(15, 15, 5, seed=CALIBRATION_SEED + i)
        result, cpu = play_sp_mcts(board, args, 0.0, seed=CALIBRATION_SEED + i)
        cpus.append(cpu)
        walls.append(result.elapsed)
        if args.verbose:
            print(f"  board {CALIBRATION_SEED + i}: {result.best_reward:6.0f}  {result.iterations:,} iterations, "
                  f"{cpu:.2f} s CPU, {result.elapsed:.2f} s wall", flush=True)
    cpu = float(np.mean(cpus))
    print(f"    CPU {cpu:.2f} s per game (wall {np.mean(walls):.2f} s); at this rate "
          f"{args.game_time:g} CPU s per game ~ {per_move * AVERAGE_GAME_LENGTH * args.game_time / cpu:,.0f} "
          f"iterations per game (not linear in the budget: check it by calibrating there)", flush=True)


DOMAINS = {
    # name: (width, height, colours, scoring, reward scale, C for MCTS, C for BMCTS, W, L fraction)
    # W and L / (iterations per board) from a 10-board pilot at 1 s (board seeds 1000..1009):
    # Clickomania L in {20, 100, 400} x W in {10, 100}: best L ~ 1/100 of the iterations, W = 100
    # (the paper's W); SameGame W = 1 (the paper's), L in {50, 200, 800}: best L ~ 1/12
    "clickomania": (20, 20, 10, "clickomania", 400.0, 0.012, 0.0175, 100, 1 / 100),
    "samegame-random": (15, 15, 5, "samegame", 5000.0, 0.0009, 0.0009, 1, 1 / 12),
}


def part_b(args) -> None:
    for name in args.domains.split(","):
        width, height, colours, scoring, scale, c_mcts, c_beam, beam_width, fraction = DOMAINS[name]
        if args.beam_width:
            beam_width = args.beam_width
        selection = UCB1Tuned(scale=scale)
        # calibrate the iteration rate, to set L as a fraction of the iterations a board gets
        calib = SameGame(random_board(width, height, colours, seed=10**6), scoring=scoring)
        probe = mcts(calib, time_limit=min(1.0, args.b_time), cp=c_mcts, selection=selection, seed=0, progress=None)
        rate = probe.iterations / probe.elapsed
        limit = args.simulation_limit or max(1, int(rate * args.b_time * (args.limit_fraction or fraction)))
        print(f"(b) {name}: {args.b_boards} random {width}x{height}/{colours} boards (board seeds "
              f"{args.board_seed}..), {args.b_time:g} s per board each, random rollouts, UCB1-TUNED "
              f"(rewards / {scale:g}); MCTS C={c_mcts}; BMCTS C={c_beam} L={limit} W={beam_width}"
              f"{' keep_subtrees' if args.keep_subtrees else ''} "
              f"(~{rate:,.0f} iterations/s measured)", flush=True)
        plain, beam, it_plain, it_beam = [], [], [], []
        for i in range(args.b_boards):
            game = SameGame(random_board(width, height, colours, seed=args.board_seed + i), scoring=scoring)
            a = mcts(game, time_limit=args.b_time, cp=c_mcts, selection=selection, seed=i, progress=None)
            b = beam_mcts(game, time_limit=args.b_time, cp=c_beam, selection=selection, simulation_limit=limit,
                          beam_width=beam_width, keep_subtrees=args.keep_subtrees, seed=i, progress=None)
            assert game.score(a.best_moves) == a.best_reward and game.score(b.best_moves) == b.best_reward
            plain.append(a.best_reward)
            beam.append(b.best_reward)
            it_plain.append(a.iterations)
            it_beam.append(b.iterations)
            if args.verbose:
                print(f"  board {i:3d}: MCTS {a.best_reward:7.0f} ({a.iterations} it)   "
                      f"BMCTS {b.best_reward:7.0f} ({b.iterations} it)", flush=True)
        mean, t, p = paired_t_test(beam, plain)
        wins, losses, ties, p_sign = sign_test(beam, plain)
        print(f"    MCTS mean {np.mean(plain):,.1f} ({np.mean(it_plain):,.0f} it/board)   BMCTS mean "
              f"{np.mean(beam):,.1f} ({np.mean(it_beam):,.0f} it/board)")
        print(f"    BMCTS - MCTS: {mean:+,.1f} per board; paired t = {t:.2f}, p = {p:.2g} (two-sided); "
              f"sign test {wins} wins / {losses} losses / {ties} ties, p = {p_sign:.2g}", flush=True)


def part_c(args) -> None:
    boards = standard_testset()
    reference = TABLE7_SPMCTS2 if args.params == "manual" else TABLE7_SPMCTS3
    label = "SP-MCTS(2)" if args.params == "manual" else "SP-MCTS(3)"
    print(f"(c) standard test set, SP-MCTS per move, {args.params} parameters, "
          f"{describe_budget(args, args.position_time)}; Table 7 {label}: per move, 2 h per position")
    total = 0.0
    for i, board in enumerate(boards[: args.positions]):
        result, _ = play_sp_mcts(board, args, args.position_time, seed=i)
        total += result.best_reward
        print(f"    {i + 1:2d}: {result.best_reward:6.0f}   paper {reference[i]:6,}   "
              f"({result.elapsed:.0f} s, {int((result.best_state.cells >= 0).sum())} tiles left)",
              flush=True)
    n = min(args.positions, 20)
    print(f"    total {total:,.0f} over {n} positions; paper {label} {sum(reference[:n]):,}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="abc", help="which parts to run: any of a, b, c")
    parser.add_argument("--boards", type=int, default=5, help="(a) random boards")
    parser.add_argument("--game-time", type=float, default=10.0, help="(a) seconds per game")
    parser.add_argument("--b-boards", type=int, default=10, help="(b) random boards per domain")
    parser.add_argument("--b-time", type=float, default=1.0, help="(b) seconds per board per algorithm")
    parser.add_argument("--domains", default="clickomania,samegame-random", help="(b) domains, comma-separated")
    parser.add_argument("--simulation-limit", type=int, default=0,
                        help="(b) BMCTS L (default: a fraction of the calibrated iterations)")
    parser.add_argument("--limit-fraction", type=float, default=0.0,
                        help="(b) L as a fraction of the iterations per board")
    parser.add_argument("--beam-width", type=int, default=0, help="(b) BMCTS W (default per domain)")
    parser.add_argument("--keep-subtrees", action="store_true", help="(b) BMCTS keeps the subtrees of the beam")
    parser.add_argument("--positions", type=int, default=20, help="(c) first N positions of the standard set")
    parser.add_argument("--position-time", type=float, default=10.0, help="(c) seconds per position")
    parser.add_argument("--params", choices=sorted(PARAMS), default="manual", help="(a, c) SP-MCTS parameters")
    parser.add_argument("--epsilon", type=float, default=0.003, help="(a, c) epsilon of TabuColorRandom")
    parser.add_argument("--move-iterations", type=int, default=0, help="(a, c) iterations per move instead of time")
    parser.add_argument("--game-iterations", type=int, default=0,
                        help="(a, c) iterations per game instead of time, spread over the moves like the time "
                             "(/ 64.4 per move)")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="(a, c) what a time budget counts: wall seconds, or CPU seconds of this process "
                             "(what an idle core takes, whatever the load)")
    parser.add_argument("--forget-best", action="store_true",
                        help="(a, c) play the first move of the current search's best line, not of the best line "
                             "of all searches so far")
    parser.add_argument("--repeats", type=int, default=1, help="(a, c) randomized restarts per search")
    parser.add_argument("--out", default="",
                        help="(a) JSON-lines file of per-board results; an existing one is resumed")
    parser.add_argument("--calibrate", type=int, default=0, metavar="K",
                        help="(a) only measure CPU seconds per game at the iteration budget on K other boards")
    parser.add_argument("--board-seed", type=int, default=0, help="(a, b) seed of the first random board")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every board")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.calibrate:
        calibrate(args)
        return
    for part, run in (("a", part_a), ("b", part_b), ("c", part_c)):
        if part in args.parts:
            run(args)
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
