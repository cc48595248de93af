"""Speed of SP-MCTS per move on SameGame: iterations per CPU second, same games.

Plays SP-MCTS per move (the paper's manual setting: C 0.1, D 32, W 0.02,
T 10, TabuColorRandom with epsilon 0.003) on seeded random 15x15/5-colour
boards with a fixed iteration budget per move, and prints per board the
score, the iterations, the CPU and wall seconds, iterations per CPU second
(``time.process_time``: insensitive to other processes on the machine) and
a digest of the moves played. A fixed budget and seed give the same game on
any version of the code that does not change the search's semantics, so two
versions compare by running this script against each (e.g. an old checkout
through ``PYTHONPATH=/path/to/old``): equal digests, different rates.
``--time`` instead gives each game a wall-clock budget (spread over 64.4
moves as in the paper) and shows how many iterations it reaches.

Measured on the project's 2-core machine (loaded by other jobs; CPU time),
2026-11-21, ``--boards 0,1,2 --move-iterations 3600``:

- before (commit b6d04b0): 66.7 CPU s for the 3 games, 9,386 iterations/s;
- after (commit e080d55): 22.8 CPU s, 27,517 iterations/s: 2.9x, the same
  three games (scores 2,475 / 2,381 / 2,285, equal move digests).

With ``--boards 0 --time 10`` (wall clock, load ~5 on 2 cores) the game
reaches 190,398 iterations before and 287,907 after (1.5x), but its first
searches ~860 and ~1,050: early in the game an iteration is mostly its
playout (Numba); the gain is in the deep, exhausted trees of the middle and
end game, where the selection rule was the cost.

Usage::

    python benchmarks/samegame_speed.py --boards 0,1,2 --move-iterations 3600
    python benchmarks/samegame_speed.py --boards 0 --time 10
"""
from __future__ import annotations

import argparse
import hashlib
import time

from hornermcts.domains.samegame import SameGame, random_board
from hornermcts.search import sp_mcts

MANUAL = {"c": 0.1, "d": 32.0, "w": 0.02, "t": 10}
AVERAGE_GAME_LENGTH = 64.4


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", default="0,1,2", help="board seeds, comma-separated (search seed = board seed)")
    parser.add_argument("--move-iterations", type=int, default=3600, help="iterations per move")
    parser.add_argument("--time", type=float, default=0.0, help="wall seconds per game instead (/ 64.4 per move)")
    args = parser.parse_args(argv)
    warm = SameGame(random_board(seed=999), playout="tabu_color", epsilon=0.003)
    sp_mcts(warm, per_move=True, iterations=20, seed=0, progress=None, **MANUAL)  # compile / load kernels
    budget = ({"time_limit": args.time / AVERAGE_GAME_LENGTH} if args.time
              else {"iterations": args.move_iterations})
    print(f"SP-MCTS per move, manual setting, {budget}")
    total_cpu = total_iterations = 0.0
    for seed in (int(x) for x in args.boards.split(",")):
        game = SameGame(random_board(15, 15, 5, seed=seed), playout="tabu_color", epsilon=0.003)
        cpu = time.process_time()
        result = sp_mcts(game, per_move=True, seed=seed, progress=None, **budget, **MANUAL)
        cpu = time.process_time() - cpu
        digest = hashlib.sha1(repr(result.best_moves).encode()).hexdigest()[:12]
        first = [s.iterations for s in result.searches[:3]]
        print(f"board {seed}: score {result.best_reward:6.0f}  {result.iterations:8,} iterations  "
              f"{cpu:6.2f} CPU s  {result.elapsed:6.2f} wall s  {result.iterations / cpu:8,.0f} it/CPU s  "
              f"first searches {first}  moves {digest}", flush=True)
        total_cpu += cpu
        total_iterations += result.iterations
    print(f"total {total_cpu:.2f} CPU s, {total_iterations / total_cpu:,.0f} iterations per CPU second")


if __name__ == "__main__":
    main()
