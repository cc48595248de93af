"""Tune SP-MCTS per move on SameGame with the Cross-Entropy Method.

The set-up of Schadd et al., sec. 6.6, scaled down: each CEM sample (C, D,
W, T) plays ``--games`` random 15x15/5 boards, SP-MCTS per move with
``--move-iterations`` iterations per move (TabuColorRandom, epsilon 0.003);
its fitness is the mean score. The boards are drawn anew for each CEM
iteration and shared by the samples of that iteration. The paper: population
100, elite 10, 30 games of 1 minute per sample; found C 4.31, D 96.67, W 0.28,
T 11 per move (Table 5). The defaults here run in a minute or two and only
show the machinery.

Usage::

    python benchmarks/samegame_cem.py [--population 8 --elite 2 --iterations 3 --games 2 --move-iterations 30]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from hornermcts.domains.samegame import SameGame, random_board
from hornermcts.search import cem, sp_mcts

BOUNDS = {"c": (0.01, 10.0), "d": (1.0, 20000.0), "w": (0.0, 1.0), "t": (1, 20)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--population", type=int, default=8)
    parser.add_argument("--elite", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=3, help="CEM iterations")
    parser.add_argument("--games", type=int, default=2, help="games per sample")
    parser.add_argument("--move-iterations", type=int, default=30, help="SP-MCTS iterations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    evaluations = [0]

    def fitness(params, rng):
        cem_iteration = evaluations[0] // args.population
        evaluations[0] += 1
        scores = []
        for g in range(args.games):
            board = random_board(15, 15, 5, seed=[args.seed, cem_iteration, g])
            game = SameGame(board, playout="tabu_color", epsilon=0.003)
            result = sp_mcts(game, per_move=True, iterations=args.move_iterations, seed=rng, progress=None, **params)
            scores.append(result.best_reward)
        return float(np.mean(scores))

    def report(iteration, mean, elite):
        shown = ", ".join(f"{k}={v:.3g}" for k, v in mean.items())
        print(f"  CEM iteration {iteration}: elite mean score {elite:,.0f}; new mean {shown}", flush=True)

    start = time.perf_counter()
    print(f"CEM over {BOUNDS} (d on a log scale, t integer); population {args.population}, elite {args.elite}, "
          f"{args.games} games x {args.move_iterations} iterations per move per sample")
    result = cem(fitness, BOUNDS, integer={"t"}, log={"d"}, iterations=args.iterations,
                 population=args.population, elite=args.elite, seed=args.seed, progress=report)
    print(f"tuned: {result.params}; best single sample {result.best_params} ({result.best_fitness:,.0f}); "
          f"{result.evaluations} evaluations, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
