"""Random playouts per second on 15x15 / 5-colour SameGame boards (one core).

Two figures per policy:

- *kernel*: playouts in one compiled Numba loop (``playout_points``, as
  ``random_playout_rate`` runs them),
  the inner loop of every search;
- *protocol*: ``SameGame.playout`` + ``reward`` called from Python, as the
  search core calls them (adds the per-call overhead: copy, move list).

The last column is the mean of the move points (kernel) or of the final
score with SameGame's end bonus/penalty (protocol). Rates are given per CPU
second of this process (``time.process_time``, insensitive to other processes
sharing the cores) and per wall second.

Usage::

    python benchmarks/samegame_playouts.py [--boards 5] [--count 20000]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from hornermcts.domains.samegame import PLAYOUTS, SameGame, random_board
from hornermcts.domains.samegame.rates import playout_points


def kernel_rate(game: SameGame, count: int, seed: int) -> tuple[float, float, float]:
    playout_points(game, 1, seed=1)  # compile / load from cache
    cpu, wall = time.process_time(), time.perf_counter()
    total = playout_points(game, count, seed=seed + 1)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return count / cpu, count / wall, total / count


def protocol_rate(game: SameGame, count: int, seed: int) -> tuple[float, float, float]:
    rng = np.random.default_rng(seed)
    root = game.root()
    game.reward(game.playout(root, rng)[0])
    cpu, wall = time.process_time(), time.perf_counter()
    total = 0.0
    for _ in range(count):
        total += game.reward(game.playout(root, rng)[0])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return count / cpu, count / wall, total / count


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=5, help="random 15x15/5 boards (seeds 0..N-1)")
    parser.add_argument("--count", type=int, default=20000, help="kernel playouts per board")
    parser.add_argument("--protocol-count", type=int, default=5000, help="protocol playouts per board")
    parser.add_argument("--epsilon", type=float, default=0.003, help="epsilon of the tabu policies")
    args = parser.parse_args(argv)
    print(f"{'policy':<11} {'kind':<9} {'per CPU s':>10} {'per wall s':>11} {'mean score':>12}")
    for policy in PLAYOUTS:
        for kind, measure, count in (("kernel", kernel_rate, args.count),
                                     ("protocol", protocol_rate, args.protocol_count)):
            rates = []
            for seed in range(args.boards):
                game = SameGame(random_board(15, 15, 5, seed=seed), playout=policy, epsilon=args.epsilon)
                rates.append(measure(game, count, seed))
            cpu, wall, mean = (float(np.mean(x)) for x in zip(*rates))
            print(f"{policy:<11} {kind:<9} {cpu:>10,.0f} {wall:>11,.0f} {mean:>12,.1f}")


if __name__ == "__main__":
    main()
