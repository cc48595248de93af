"""Number partitioning's MCTS: simulations per CPU second on the generic core and on the compiled tree.

Issue 40 item 3: the thesis's MCTS (``solve(numbers, "mcts")``, THESIS_MCTS)
runs on the generic search core (``engine="core"``: Python nodes, selection
and backpropagation in Python, the KK simulation compiled) or on the domain's
compiled tree (``engine="compiled"``, :mod:`hornermcts.domains.number_partitioning.compiled_tree`).
For each size N, on the generated instance ``generate(N, seed=1000 N)`` (the
first of ``partitioning_generated.py``'s), this prints:

- where the core's time goes (cProfile of one run: selection, expansion,
  simulation, backpropagation, as cumulative shares of the search);
- simulations per CPU second of each engine, alternating core and compiled
  ``--repeats`` times, ``--seconds`` CPU seconds per run (compilation warmed
  up before);
- the best value each reaches at the same iteration counts (the same search,
  one simulation apart at most: they agree after whole visits).

Usage::

    python benchmarks/partitioning_speed.py --sizes 100,200,300 --seconds 5 --repeats 2 \\
        | tee benchmarks/results/thesis/partitioning_speed.txt
"""
from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
from time import process_time

from hornermcts.domains.number_partitioning import THESIS_MCTS, NumberPartitioning, generate, solve
from hornermcts.domains.number_partitioning.compiled_tree import compiled_mcts
from hornermcts.search import mcts

mcts_module = importlib.import_module("hornermcts.search.mcts")  # the module (its name is also the function's)

CORE = {k: v for k, v in THESIS_MCTS.items() if k != "clock"}
PHASES = {"selection": "select", "expansion": "expand", "simulation": "simulate", "backpropagation": "backpropagate"}


def profile_core(numbers: list, seconds: float) -> str:
    """The core engine's phases as shares of one run's profiled CPU time."""
    profiler = cProfile.Profile(process_time)  # CPU time: a wall-clock profile charges time descheduled to syscalls
    profiler.enable()
    solution = solve(numbers, "mcts", seconds=seconds, engine="core")
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    lines = {getattr(mcts_module._Search, name).__code__.co_firstlineno: phase for phase, name in PHASES.items()}
    total = sum(entry[2] for entry in stats.values())  # all own times: the profiled whole
    shares = {}
    for (filename, line, _), entry in stats.items():
        if filename == mcts_module.__file__ and line in lines:
            shares[lines[line]] = entry[3] / total
    kk = sum(entry[2] for (filename, _, name), entry in stats.items() if name == "kk_descend")
    shown = ", ".join(f"{phase} {100 * shares.get(phase, 0.0):.0f}%" for phase in PHASES)
    return (f"  core profiled ({solution.simulations:,} simulations in {seconds:g} CPU s under cProfile): {shown} "
            f"(the compiled KK loop itself {100 * kk / total:.0f}%)")


def rates(numbers: list, seconds: float, repeats: int) -> str:
    """Simulations per CPU second of each engine, alternating, and their values."""
    found: dict = {"core": [], "compiled": []}
    for _ in range(repeats):
        for engine in found:
            solution = solve(numbers, "mcts", seconds=seconds, engine=engine)
            found[engine].append((solution.simulations / solution.seconds, solution.value))
    parts = []
    for engine, runs in found.items():
        rate = sum(r for r, _ in runs) / len(runs)
        parts.append(f"{engine} {rate:,.0f}/s (value {min(v for _, v in runs):.2f})")
    ratio = (sum(r for r, _ in found["compiled"]) / sum(r for r, _ in found["core"]))
    return f"  simulations per CPU second, {seconds:g} s runs x {repeats}: " + ", ".join(parts) + f"; x{ratio:.1f}"


def agreement(numbers: list, counts: tuple) -> str:
    """The best value of each engine after the same numbers of simulations."""
    pairs = []
    for count in counts:
        core = mcts(NumberPartitioning(numbers), iterations=count, seed=0, progress=None, target=1.0, **CORE)
        tree = compiled_mcts(numbers, iterations=count, seed=0)
        pairs.append(f"{count}: {core.best_value:.4f} / {tree.value:.4f}" + ("" if core.best_value == tree.value
                                                                           else " DIFFER"))
    return "  best value core / compiled at equal simulations: " + "; ".join(pairs)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,200,300", help="comma-separated N (default 100,200,300)")
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per run (default 5)")
    parser.add_argument("--repeats", type=int, default=2, help="runs per engine, alternating (default 2)")
    args = parser.parse_args(argv)
    print(f"number partitioning MCTS engines; load average {os.getloadavg()[0]:.2f} at the start")
    for n in (int(n) for n in args.sizes.split(",")):
        numbers = generate(n, seed=1000 * n)
        solve(numbers, "mcts", seconds=0.1, engine="compiled")  # compiled before any clock
        solve(numbers, "mcts", seconds=0.1, engine="core")
        print(f"N {n} (generate({n}, seed={1000 * n})):")
        print(profile_core(numbers, args.seconds), flush=True)
        print(rates(numbers, args.seconds, args.repeats), flush=True)
        print(agreement(numbers, (1001, 5001, 20001)), flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
