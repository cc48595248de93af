"""Playouts per second of nested search (NRPA / NMCS): the generic Python path and the coded hook.

Each row runs one search for a fixed number of playouts and divides by the
CPU seconds of this process (``time.process_time``: insensitive to other
processes on the shared machine):

- ``softmax playout``: :func:`hornermcts.search.policy.softmax_playout` alone
  (the level-0 cost of the generic path, codes looked up in a dict);
- ``nrpa level 1``: playouts plus one adaptation after each (N = 100);
- ``nrpa level 1, coded``: the same search through the coded hook, with a
  Numba playout (:class:`CodedTour`); compile time excluded, reported apart;
- ``nmcs level 1``: the problem's own (uniform) playouts.

Problems: ``Tour(20)``, an ordering toy (20 items, cost of each step from a
matrix: 20 moves per playout, 210 legal moves met); SameGame 15x15 with 5
colours, NRPA codes (colour, group size)
(:class:`hornermcts.domains.samegame.SameGameByGroup`); the
Horner-order problem of HEP(sigma) (15 variables; the reward is the fast
counter's operation count).

Usage::

    python benchmarks/nested_playouts.py [--seconds 3] [--out benchmarks/results/nested_playouts.txt]

Importable without side effects: the tests use :class:`CodedTour`.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np
from numba import njit

from hornermcts.domains.samegame import SameGameByGroup
from hornermcts.search.nested import nmcs, nrpa
from hornermcts.search.policy import Trace, softmax_pick, softmax_playout

__all__ = ["CodedTour", "measure", "main"]


class CodedTour:
    """Order ``cities`` items; each step from ``a`` (the start is ``cities``) to ``b`` costs ``cost[a][b]``.

    Reward ``-(total cost) / 100``.  The NRPA code of a move is
    ``previous * cities + next`` (``code_count = (cities + 1) * cities``), and
    :meth:`coded_playout` is a Numba kernel of the coded hook of
    :mod:`hornermcts.search.policy`: it draws exactly as the generic playout
    does, so both paths give the same search for a seed.
    """

    def __init__(self, cities: int = 6, *, seed: int = 2024) -> None:
        self.cities = cities
        self.cost = np.random.default_rng(seed).integers(1, 30, size=(cities + 1, cities)).astype(np.float64)
        self.code_count = (cities + 1) * cities

    def root(self) -> tuple:
        return ()

    def moves(self, state: tuple) -> tuple:
        return tuple(x for x in range(self.cities) if x not in state)

    def apply(self, state: tuple, move: int) -> tuple:
        return state + (move,)

    def reward(self, state: tuple) -> float:
        previous, total = self.cities, 0.0
        for x in state:
            total += self.cost[previous, x]
            previous = x
        return -total / 100.0

    def move_code(self, state: tuple, move: int) -> int:
        return (state[-1] if state else self.cities) * self.cities + move

    def coded_playout(self, state: tuple, weights: np.ndarray, bias: np.ndarray | None, rng) -> tuple:
        visited = np.zeros(self.cities, np.bool_)
        for x in state:
            visited[x] = True
        previous = state[-1] if state else self.cities
        table = np.zeros(0) if bias is None else bias
        order, codes, betas, starts, chosen = _tour_playout(self.cities, visited, previous, weights, table,
                                                            bias is not None, rng)
        moves = [int(x) for x in order]
        return state + tuple(moves), moves, Trace(codes, betas if bias is not None else None, starts, chosen)


@njit(cache=True)
def _tour_playout(n, visited, previous, weights, bias, has_bias, rng):  # pragma: no cover - compiled
    left = n - visited.sum()
    order = np.empty(left, np.int64)
    codes = np.empty(left * left, np.int64)
    betas = np.zeros(left * left)
    starts = np.zeros(left + 1, np.int64)
    chosen = np.empty(left, np.int64)
    candidates = np.empty(n, np.int64)
    plain = np.empty(n)
    beta = np.empty(n)
    logits = np.empty(n)
    entries = 0
    steps = 0
    for t in range(left):
        m = 0
        for c in range(n):
            if not visited[c]:
                candidates[m] = c
                m += 1
        pick = 0
        if m > 1:
            for i in range(m):
                code = previous * n + candidates[i]
                plain[i] = weights[code]
                beta[i] = bias[code] if has_bias else 0.0
            pick, fallback = softmax_pick(plain, beta, m, rng, logits)  # fallback: the bias excluded every move
            for i in range(m):
                code = previous * n + candidates[i]
                codes[entries + i] = code
                betas[entries + i] = 0.0 if (fallback or not has_bias) else bias[code]
            chosen[steps] = entries + pick
            entries += m
            steps += 1
            starts[steps] = entries
        move = candidates[pick]
        visited[move] = True
        order[t] = move
        previous = move
    return order, codes[:entries], betas[:entries], starts[:steps + 1], chosen[:steps]


def _rate(run, playouts: int) -> tuple[float, int]:
    cpu = time.process_time()
    done = run(playouts)
    return done / (time.process_time() - cpu), done


def measure(problem, name: str, seconds: float, *, coded: bool = False) -> list[tuple[str, str, float, int]]:
    """``(problem, search, playouts per CPU second, playouts)`` rows, each run about ``seconds`` long."""
    rng = np.random.default_rng(0)
    root = problem.root()

    def playouts_only(count: int) -> int:
        for _ in range(count):
            final, _, _ = softmax_playout(problem, {}, rng, state=root)
            problem.reward(final)
        return count

    def nrpa_generic(count: int) -> int:
        return nrpa(problem, level=1, playouts=count, coded=False, seed=0, progress=None).iterations

    def nrpa_coded(count: int) -> int:
        return nrpa(problem, level=1, playouts=count, coded=True, seed=0, progress=None).iterations

    def nmcs_one(count: int) -> int:
        return nmcs(problem, level=1, playouts=count, seed=0, progress=None).iterations

    runs = [("softmax playout", playouts_only), ("nrpa level 1", nrpa_generic), ("nmcs level 1", nmcs_one)]
    if coded:
        runs.insert(2, ("nrpa level 1, coded", nrpa_coded))
    rows = []
    for label, run in runs:
        run(20)  # warm-up: Numba compile or cache load
        probe, _ = _rate(run, 200)
        rate, done = _rate(run, max(200, int(probe * seconds)))
        rows.append((name, label, rate, done))
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row (about)")
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args(argv)

    from hornermcts.order.problem import HornerOrderProblem
    from hornermcts.domains.samegame import SameGame, random_board
    from hornermcts.research.families import hep_sigma

    load = os.getloadavg()[0]
    start = time.process_time()
    tour = CodedTour(20, seed=1)
    tour.coded_playout((), np.zeros(tour.code_count), None, np.random.default_rng(0))
    compile_seconds = time.process_time() - start
    rows = measure(tour, "Tour(20)", args.seconds, coded=True)
    rows += measure(SameGameByGroup(SameGame(random_board(15, 15, 5, seed=0))), "SameGame 15x15/5", args.seconds)
    rows += measure(HornerOrderProblem(hep_sigma()), "Horner HEP(sigma)", args.seconds)
    lines = [f"{'problem':<18} {'search':<20} {'playouts/CPU s':>15} {'playouts':>9}"]
    lines += [f"{p:<18} {s:<20} {r:>15,.0f} {d:>9,}" for p, s, r, d in rows]
    lines.append(f"(coded Tour kernel: first call {compile_seconds:.2f} CPU s, compile or cache load; "
                 f"load average at the start {load:.1f} on {os.cpu_count()} cores)")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    main()
