"""Table 1 of Cazenave (2024), Latin square completion (order 20, 42 % blank): Sampling, NRPA, with the Dual prior.

One command::

    python benchmarks/gnrpa_latin_square.py [--training 10000] [--problems 100] [--budget 16384]
        [--channeling none] [--out benchmarks/results/gnrpa_latin_square]
    python benchmarks/gnrpa_latin_square.py --calibrate [--channeling none,lines,full] [--problems 100]
        [--budget 16384] [--out benchmarks/results/gnrpa_latin_square_calibration]

The table (DOMAINS.md B4): the Dual prior is learned by Replay of
``--training`` generated solved problems (seeds ``TRAINING_SEED``, ...);
then, on the test problems (seeds 0 .. problems - 1; search seeds
:func:`~hornermcts.domains.latin_square.search_seed` of those), Sampling,
Sampling with the Dual prior, NRPA and GNRPA with the Dual prior (tau = 4;
level 3, N = 100) run once per problem to ``--budget`` playouts, stopping at
the first solution, whose playout count (``result.reached``) fills every
column; every solution is checked by the independent checker.  One JSON
line per run goes to ``OUT.jsonl``; the table, beside the paper's, is
printed and written to ``OUT.txt`` (``-`` beyond the budget; with fewer than
100 problems, the count scaled to 100 in brackets).

``--calibrate`` runs only uniform Sampling, once per channeling strength
of ``--channeling`` (DOMAINS.md 0.3: the strength is chosen so that Sampling
solves about 2/100 at 1,024 playouts and 26/100 at 16,384).

CPU seconds are this process's (``time.process_time``); the machine is
shared, run it with ``nice -n 10``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from hornermcts.domains.latin_square import (
    CALIBRATED,
    CHANNELING,
    LatinSquareCompletion,
    generate,
    learn_prior,
    search,
    search_seed,
    training_instances,
    violations,
)

BUDGETS = (1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
#: Table 1 as printed (problems solved out of 100).
PAPER = {
    "Sampling": (2, 5, 10, 16, 26, 36, 49, 61),
    "Sampling Dual prior": (12, 24, 34, 48, 70, 80, 89, 95),
    "NRPA": (8, 16, 25, 35, 48, 61, 70, 80),
    "GNRPA Dual prior": (26, 39, 54, 67, 83, 91, 95, 98),
}


def run_one(instance, seed: int, method: str, budget: int, channeling: str, prior) -> dict:
    problem = LatinSquareCompletion(instance, channeling=channeling)
    cpu = time.process_time()
    result = search(problem, method, playouts=budget, target=0.0, prior=prior, seed=search_seed(seed))
    seconds = time.process_time() - cpu
    if result.reached is not None:
        problems = violations(instance.givens, problem.grid(result.best_state))
        if problems:
            raise AssertionError(f"problem {seed}, {method}: the solution fails the checker: {problems[0]}")
    return {"problem_seed": seed, "search_seed": search_seed(seed), "method": method, "channeling": channeling,
            "prior": prior is not None, "budget": budget, "reached": result.reached, "playouts": result.iterations,
            "best": result.best_value, "cpu_seconds": round(seconds, 4)}


def format_table(groups: list[tuple[str, list[dict], int, str | None]]) -> str:
    width = max(30, max(len(label) for label, *_ in groups) + 2)
    head = (f"{'algorithm':<{width}}" + "".join(f"{b:>11,}" for b in BUDGETS)
            + "   median playouts (solved)   playouts/CPU s")
    lines = [head, "-" * len(head)]
    for label, rows, budget, paper in groups:
        scale = 100 / len(rows)
        cells = []
        for b in BUDGETS:
            if b > budget:
                cells.append("-")
                continue
            solved = sum(r["reached"] is not None and r["reached"] <= b for r in rows)
            cells.append(str(solved) if len(rows) == 100 else f"{solved} [{solved * scale:.0f}]")
        reached = [r["reached"] for r in rows if r["reached"] is not None]
        median = f"{statistics.median(reached):g} ({len(reached)}/{len(rows)})" if reached else f"- (0/{len(rows)})"
        rate = sum(r["playouts"] for r in rows) / max(sum(r["cpu_seconds"] for r in rows), 1e-9)
        lines.append(f"{label:<{width}}" + "".join(f"{c:>11}" for c in cells) + f"   {median:<26} {rate:>13,.0f}")
        if paper is not None:
            lines.append(f"{'  paper: ' + paper:<{width}}" + "".join(f"{x:>11}" for x in PAPER[paper]))
    return "\n".join(lines)


def run_rows(runs, instances, handle) -> list:
    groups = []
    for label, method, channeling, prior, budget, paper in runs:
        cpu = time.process_time()
        rows = []
        for seed, instance in enumerate(instances):
            row = run_one(instance, seed, method, budget, channeling, prior)
            row["row"] = label
            rows.append(row)
            handle.write(json.dumps(row) + "\n")
            handle.flush()
        solved = sum(r["reached"] is not None for r in rows)
        print(f"{label}: {solved}/{len(rows)} solved within {budget} playouts, {time.process_time() - cpu:.1f} s CPU",
              flush=True)
        groups.append((label, rows, budget, paper))
    return groups


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calibrate", action="store_true", help="only uniform Sampling per channeling strength")
    parser.add_argument("--channeling", default=None,
                        help=f"strength(s), comma-separated with --calibrate (default {CALIBRATED}; "
                             f"known: {', '.join(CHANNELING)})")
    parser.add_argument("--training", type=int, default=10_000, help="generated problems to learn the prior from")
    parser.add_argument("--problems", type=int, default=100, help="test problems (seeds 0..problems-1)")
    parser.add_argument("--budget", type=int, default=16384, help="playouts per run")
    parser.add_argument("--out", default=None,
                        help="OUT.jsonl and OUT.txt (default benchmarks/results/gnrpa_latin_square[_calibration])")
    args = parser.parse_args(argv)
    strengths = (args.channeling or CALIBRATED).split(",")
    for name in strengths:
        if name not in CHANNELING:
            parser.error(f"unknown channeling {name!r}")
    out = args.out or ("benchmarks/results/gnrpa_latin_square" + ("_calibration" if args.calibrate else ""))
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    load = os.getloadavg()[0]
    instances = [generate(20, blanks=0.42, seed=s) for s in range(args.problems)]

    with open(out + ".jsonl", "w") as handle:
        if args.calibrate:
            runs = [(f"Sampling, channeling {name}", "sampling", name, None, args.budget, "Sampling")
                    for name in strengths]
            header = "Calibration: uniform Sampling per channeling strength"
            notes = []
        else:
            if len(strengths) != 1:
                parser.error("the table runs one channeling strength")
            channeling = strengths[0]
            cpu = time.process_time()
            prior = learn_prior(training_instances(args.training), channeling=channeling)
            learned = time.process_time() - cpu
            print(f"Dual prior from {args.training} problems: {prior!r}, {learned:.1f} s CPU", flush=True)
            runs = [("Sampling", "sampling", channeling, None, args.budget, "Sampling"),
                    ("Sampling Dual prior", "sampling", channeling, prior, args.budget, "Sampling Dual prior"),
                    ("NRPA", "nrpa", channeling, None, args.budget, "NRPA"),
                    ("GNRPA Dual prior", "gnrpa", channeling, prior, args.budget, "GNRPA Dual prior")]
            header = (f"LSC order 20, 42 % blank, channeling {channeling}, tau = 4, level 3 / N = 100, "
                      f"Dual prior from {args.training} generated problems")
            notes = [f"Dual prior: {len(prior)} codes seen, {sum(prior.count.values())} solution moves, "
                     f"learned in {learned:.1f} s CPU"]
        groups = run_rows(runs, instances, handle)

    lines = [f"{header}: problems solved within b playouts (test seeds 0..{args.problems - 1})", "",
             format_table(groups), "", *notes,
             f"{time.process_time() - start_cpu:.0f} s CPU, {time.perf_counter() - start_wall:.0f} s wall, "
             f"load average at the start {load:.1f} on {os.cpu_count()} cores"]
    text = "\n".join(lines)
    print(text)
    with open(out + ".txt", "w") as handle:
        handle.write(text + "\n")


if __name__ == "__main__":
    main()
