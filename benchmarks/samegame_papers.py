"""Checks of the SameGame family against the papers' figures.

Three parts, each optional (``--parts abc``); every figure printed with the
exact settings, so a run can be quoted with its command line.

(a) SP-MCTS per move on N seeded random 15x15 / 5-colour boards, the
    paper's manual *exploitation* setting (C 0.1, D 32, W 0.02, T 10,
    TabuColorRandom, epsilon 0.003), top-score move choice; the game budget is
    spread over the moves as in the paper (budget / 64.4 per move). Schadd et
    al., Table 3: 2,588 / 2,644 / 2,742 / 2,822 / 2,880 at ~5 / 10 / 20 / 30
    / 60 s per game (on 250 other random boards, on their hardware).
(b) BMCTS vs plain MCTS (both UCB1-TUNED) at equal time per board, on
    Clickomania (20x20, 10 colours) and SameGame with random rollouts
    (15x15, 5 colours): mean difference, paired t-test and sign test (Baier
    & Winands: BMCTS significantly better at 60 s; p < 0.0001 on 1000 boards).
(c) The 20 positions of the standardized test set, SP-MCTS per move with a
    stated budget per position, beside Table 7 (2 hours per position there).

Wall-clock budgets depend on the load of the machine; ``--move-iterations``
replaces them with a fixed iteration budget per move (reproducible).

Measured on the project's 2-core machine (shared with other jobs), 2026-11-21:

- (a) ``--parts a --boards 50 --game-time 10``: mean 2,615 (sd 503, stderr 71),
  9.1 s per game; paper 2,644. ``--game-time 5``: 2,555 (stderr 78), paper 2,588.
- (b) ``--parts b --b-boards 100 --b-time 2``: Clickomania (L 53, W 100) BMCTS
  306.9 vs MCTS 281.4 tiles, +25.5, t = 19.1, p = 5e-35, 99 wins / 1 loss;
  SameGame random rollouts (L 927, W 1) 1,403.5 vs 1,404.6, -1.1, p = 0.98.
  ``--domains samegame-random --b-boards 100 --b-time 5`` (L 1623, W 1):
  1,872.8 vs 1,414.4, +458.4, t = 10.0, p = 1e-16, 86 wins / 14 losses.
- (c) ``--parts c --position-time 60``: total 62,466 (SP-MCTS(2), 2 h per
  position: 76,352); 8 of 20 positions not cleared.

Usage::

    python benchmarks/samegame_papers.py --parts a --boards 20 --game-time 10
    python benchmarks/samegame_papers.py --parts b --b-boards 100 --b-time 1
    python benchmarks/samegame_papers.py --parts c --position-time 30
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from hornermcts.domains.samegame import SameGame, random_board, standard_testset
from hornermcts.search import UCB1Tuned, beam_mcts, mcts, sp_mcts
from hornermcts.search.sp_mcts import CEM_PER_MOVE, MANUAL

PARAMS = {"manual": MANUAL, "cem": CEM_PER_MOVE}
AVERAGE_GAME_LENGTH = 64.4  # Schadd et al., sec. 6.4

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

    >>> round(paired_t_test([1, 2, 3, 4], [0, 0, 1, 1])[2], 4)  # scipy: 0.0132
    0.0132
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


def sign_test(x, y) -> tuple[int, int, int, float]:
    """Wins, losses, ties of x over y and the exact two-sided binomial p-value."""
    d = np.asarray(x, float) - np.asarray(y, float)
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    n = wins + losses
    k = min(wins, losses)
    p = min(1.0, 2.0 * sum(math.comb(n, i) for i in range(k + 1)) / 2.0**n) if n else 1.0
    return wins, losses, int(d.size - n), p


# --------------------------------------------------------------------------


def budget(args, game_time: float) -> dict:
    if args.move_iterations:
        return {"iterations": args.move_iterations}
    return {"time_limit": game_time / AVERAGE_GAME_LENGTH}


def describe_budget(args, game_time: float) -> str:
    if args.move_iterations:
        return f"{args.move_iterations} iterations per move"
    return f"{game_time:g} s per game = {game_time / AVERAGE_GAME_LENGTH:.3f} s per move"


def play_sp_mcts(board, args, game_time: float, seed: int):
    params = PARAMS[args.params]
    game = SameGame(board, playout="tabu_color", epsilon=args.epsilon)
    result = sp_mcts(
        game, c=params["c"], d=params["d"], w=params["w"], t=params["t"], per_move=True,
        seed=seed, progress=None, **budget(args, game_time),
    )
    assert game.score(result.best_moves) == result.best_reward
    return result


def part_a(args) -> None:
    print(f"(a) SP-MCTS per move, {args.params} parameters {PARAMS[args.params]}, TabuColorRandom "
          f"eps {args.epsilon}; {args.boards} random 15x15/5 boards (board seeds {args.board_seed}..); "
          f"{describe_budget(args, args.game_time)}")
    scores, times = [], []
    for i in range(args.boards):
        board = random_board(15, 15, 5, seed=args.board_seed + i)
        result = play_sp_mcts(board, args, args.game_time, seed=i)
        scores.append(result.best_reward)
        times.append(result.elapsed)
        if args.verbose:
            print(f"  board {i:3d}: {result.best_reward:6.0f}  ({result.elapsed:.1f} s, {len(result.best_moves)} moves)",
                  flush=True)
    scores = np.array(scores)
    ref = TABLE3_PER_MOVE if args.params == "manual" else TABLE6_CEM_PER_MOVE
    nearest = min(ref, key=lambda s: abs(s - args.game_time))
    print(f"    mean score {scores.mean():,.0f} (sd {scores.std(ddof=1) if scores.size > 1 else 0:,.0f}, "
          f"stderr {scores.std(ddof=1) / math.sqrt(scores.size) if scores.size > 1 else 0:,.0f}), "
          f"mean time {np.mean(times):.1f} s per game; paper ({'Table 3' if args.params == 'manual' else 'Table 6'}, "
          f"~{nearest} s per game): {ref[nearest]:,}")


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
        result = play_sp_mcts(board, args, args.position_time, seed=i)
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
    parser.add_argument("--simulation-limit", type=int, default=0, help="(b) BMCTS L (default: a fraction of the calibrated iterations)")
    parser.add_argument("--limit-fraction", type=float, default=0.0, help="(b) L as a fraction of the iterations per board")
    parser.add_argument("--beam-width", type=int, default=0, help="(b) BMCTS W (default per domain)")
    parser.add_argument("--keep-subtrees", action="store_true", help="(b) BMCTS keeps the subtrees of the beam")
    parser.add_argument("--positions", type=int, default=20, help="(c) first N positions of the standard set")
    parser.add_argument("--position-time", type=float, default=10.0, help="(c) seconds per position")
    parser.add_argument("--params", choices=sorted(PARAMS), default="manual", help="(a, c) SP-MCTS parameters")
    parser.add_argument("--epsilon", type=float, default=0.003, help="(a, c) epsilon of TabuColorRandom")
    parser.add_argument("--move-iterations", type=int, default=0, help="(a, c) iterations per move instead of time")
    parser.add_argument("--board-seed", type=int, default=0, help="(a, b) seed of the first random board")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every board")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    for part, run in (("a", part_a), ("b", part_b), ("c", part_c)):
        if part in args.parts:
            run(args)
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
