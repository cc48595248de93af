"""Rei 2016, Table 5.1 (stacking problem): MS against MCTS at equal CPU budgets.

MS repeats the FO simulation (aborting each once it reaches the incumbent);
MCTS runs in the thesis's setting (``hornermcts.domains.stacking.THESIS_MCTS``:
single expansion, best value normalised by the parent, C = sqrt(2), CPU
time, branch and bound with the inversion bound).  Every best value is
replayed by the independent solution checker before it is reported.

- :func:`rate`: FO simulations per CPU second on a thesis instance (compiled
  kernel; through the problem protocol; MS with its early abort; MCTS
  iterations), after a warm-up whose time (Numba compile or cache load) is
  reported apart;
- :func:`table`: one run per (instance, method, seed) at ``seconds`` CPU
  seconds, as dicts (best, CPU seconds, simulations, incumbent history),
  appended as JSON lines to ``out``; :func:`format_table` prints them beside
  the thesis's numbers with the reproduction criteria of docs/domains.md §A4.

The instances are read from ``$HORNERMCTS_STACKING_DATA``, else from
``shared/data/stacking`` beside the repository.

Usage::

    python benchmarks/thesis_stacking.py --seconds 60 --seeds 3 --out stacking.jsonl
    python benchmarks/thesis_stacking.py --seconds 5 --seeds 1 --instances 40-A,40-B
    python benchmarks/thesis_stacking.py --rate
"""
from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path
import sys
from typing import Iterable

import numpy as np

from hornermcts.domains.stacking import (
    METHODS,
    StackingProblem,
    check_solution,
    find_instance,
    multiple_simulation,
    solve,
    tree_search,
)
from hornermcts.domains.stacking import kernels

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling thesis_common.py
import thesis_common as common  # noqa: E402

#: Table 5.1 (p. 45): mean relocations over 10 runs: MS 60 s, MCTS 60 s, MS 600 s, MCTS 600 s.
THESIS = {
    "2-A": (52872.6, 52358.1, 52794.3, 51854.5), "2-B": (50820.6, 50760.2, 50799.1, 50727.3),
    "2-C": (49450.7, 48880.0, 49249.2, 47514.3), "2-D": (50227.2, 50230.6, 50058.9, 49090.4),
    "3-A": (23148.2, 23124.3, 22568.4, 22502.2), "3-B": (24608.7, 24665.6, 24137.5, 24201.0),
    "3-C": (24627.9, 24738.3, 23915.3, 24036.8), "3-D": (24130.7, 24065.4, 23349.3, 23510.7),
    "4-A": (14439.4, 14441.0, 14159.9, 14132.4), "4-B": (13355.9, 13429.9, 13204.6, 13150.5),
    "4-C": (13981.8, 14050.8, 13720.9, 13854.0), "4-D": (14796.0, 14865.8, 14501.4, 13975.5),
    "10-A": (3524.9, 3484.1, 3494.1, 3289.5), "10-B": (4031.3, 3790.9, 4013.4, 3751.4),
    "10-C": (3644.3, 3497.1, 3606.1, 3421.7), "10-D": (3416.3, 3437.9, 3390.3, 3410.4),
    "20-A": (883.9, 887.5, 882.6, 885.3), "20-B": (1029.4, 950.6, 1022.8, 842.2),
    "20-C": (1098.0, 977.1, 1098.0, 975.7), "20-D": (1178.0, 1159.2, 1178.0, 1158.9),
    "40-A": (79.0, 53.7, 79.0, 53.4), "40-B": (59.0, 30.5, 59.0, 9.0),
    "40-C": (41.0, 32.1, 41.0, 29.3), "40-D": (154.0, 99.7, 154.0, 94.3),
}

#: The reproduction of docs/domains.md §A4: the 20- and 40-stack instances.
INSTANCES = ("20-A", "20-B", "20-C", "20-D", "40-A", "40-B", "40-C", "40-D")

#: The methods :func:`table` runs: the domain's, and MS with the delivery order of Rei's code (fixed
#: once per date by the depths then, ties by item; the thesis's text and the default recompute it).
TABLE_METHODS = METHODS + ("ms-fixed",)
RUN_AS = {"ms": ("ms", {}), "mcts": ("mcts", {}), "ms-fixed": ("ms", {"delivery_order": "fixed"})}

#: The instance :func:`rate` measures on.
RATE_INSTANCE = "40-A"


def data_dir() -> Path:
    """``$HORNERMCTS_STACKING_DATA``, else ``shared/data/stacking`` beside the repository."""
    folder = os.environ.get("HORNERMCTS_STACKING_DATA")
    return Path(folder) if folder else Path(__file__).resolve().parents[2] / "shared" / "data" / "stacking"


COMPILE_PROGRAM = """
import time
start = time.process_time()
from hornermcts.domains.stacking import StackingProblem, multiple_simulation, random_instance, simulate, tree_search
import numpy as np
inst = random_instance(50, 4, seed=0)
simulate(inst, seed=0)
problem = StackingProblem(inst)
problem.playout(problem.apply(problem.root(), problem.moves(problem.root())[0]), np.random.default_rng(0))
multiple_simulation(inst, simulations=2, seed=0)
tree_search(inst, iterations=3, seed=0)
print(time.process_time() - start)
"""


def compile_seconds() -> float:
    """CPU seconds to import the stacking package and compile its kernels from an empty Numba cache
    (in a fresh process, ``NUMBA_CACHE_DIR`` a new temporary folder)."""
    return common.compile_seconds(COMPILE_PROGRAM)


def rate(seconds: float = 3.0, instance: str = RATE_INSTANCE, *, compile: bool = True) -> dict:
    """Simulations per CPU second on ``instance`` (default 40-A: 1000 items, 40 stacks).

    Keys: ``compile_seconds`` (with ``compile``: :func:`compile_seconds`, about a minute of CPU, else
    None); ``warmup_seconds`` (CPU seconds of the first calls here: Numba compile, or loading its disk
    cache);
    ``kernel`` (complete FO simulations from the start, compiled, called in a loop), ``protocol``
    (``StackingProblem.playout`` from the root, as the search core calls it: Python conversions
    included), ``ms`` (MS simulations, most aborted early), ``mcts`` (MCTS iterations, each one new
    node and one simulation), each measured for about ``seconds`` CPU seconds; and ``simulation_ms``,
    the kernel's milliseconds per complete simulation.
    """
    inst = find_instance(instance, data_dir())
    problem = StackingProblem(inst)
    root = problem.root()
    rng = np.random.default_rng(0)
    buffer = np.empty((2 * inst.items + 16, 3), np.int64)
    limit = np.int64(1) << np.int64(62)

    start = time.process_time()
    kernels.playout(root.stacks, root.heights, root.counters, inst.due, inst.calendar, inst.capacity, 1, limit,
                    buffer)
    problem.playout(root, rng)
    problem.apply(root, problem.moves(root)[0])
    multiple_simulation(inst, simulations=2, seed=0)
    tree_search(inst, iterations=3, seed=0)
    warmup = time.process_time() - start

    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        kernels.playout(root.stacks, root.heights, root.counters, inst.due, inst.calendar, inst.capacity,
                        count + 2, limit, buffer)
        count += 1
    kernel = common.per_second(count, time.process_time() - start)

    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        problem.playout(root, rng)
        count += 1
    protocol = common.per_second(count, time.process_time() - start)

    ms = multiple_simulation(inst, time_limit=seconds, seed=0)
    tree = tree_search(inst, time_limit=seconds, seed=0)
    compiled = compile_seconds() if compile else None
    return dict(instance=instance, items=inst.items, width=inst.width, compile_seconds=compiled,
                warmup_seconds=warmup, kernel=kernel,
                simulation_ms=1000.0 / kernel, protocol=protocol, ms=common.per_second(ms.iterations, ms.elapsed),
                mcts=common.per_second(tree.iterations, tree.elapsed))


def table(seconds: float, seeds: int | Iterable[int], instances: Iterable[str] | None = None,
          out: str | os.PathLike | None = None, methods: Iterable[str] = METHODS) -> list[dict]:
    """Run every (instance, method, seed) for ``seconds`` CPU seconds; return one dict per run.

    ``seeds``: a count (seeds ``0 .. seeds-1``) or the seeds.  ``instances``: names in the data folder
    (default :data:`INSTANCES`).  Each row: ``instance``, ``method``, ``seed``, ``budget`` (the seconds
    asked), ``best`` (relocations, replayed by the checker), ``cpu_seconds`` (used), ``simulations``,
    ``history`` (``[[cpu_seconds, relocations], ...]`` at each improvement), ``stopped``, ``proven``,
    ``solution`` (the placements ``[date, item, stack]`` of the best, to check again offline).
    With ``out``, each row is appended to that file as a JSON line as soon as it is done.
    """
    folder = data_dir()
    rows = []
    for name in (INSTANCES if instances is None else list(instances)):
        inst = find_instance(name, folder)
        for method in methods:
            for seed in common.seed_list(seeds):
                run = solve(inst, RUN_AS[method][0], time_limit=seconds, seed=seed, clock="cpu", **RUN_AS[method][1])
                assert check_solution(inst, run.solution.placements) == run.relocations
                row = dict(instance=name, method=method, seed=seed, budget=seconds, best=run.relocations,
                           cpu_seconds=run.seconds, simulations=run.simulations,
                           history=[[s, v] for s, v in run.history], stopped=run.stopped, proven=run.proven,
                           solution=[list(p) for p in run.solution.placements])
                rows.append(row)
                if out is not None:
                    with open(out, "a") as handle:
                        handle.write(json.dumps(row) + "\n")
    return rows


def format_table(rows: list[dict]) -> str:
    """The runs as Table 5.1: mean/min/max best per method beside the thesis's means, then the criteria
    of docs/domains.md §A4 that the rows allow to check."""
    budgets = sorted({row["budget"] for row in rows})
    names = list(dict.fromkeys(row["instance"] for row in rows))
    lines = [f"stacking, Rei 2016 Table 5.1; this run: {', '.join(f'{b:g}' for b in budgets)} CPU s per run, "
             f"{len({row['seed'] for row in rows})} seed(s); lower is better",
             f"{'inst':<6} {'MS mean':>9} {'min':>7} {'max':>7} {'sims':>9} | {'MCTS mean':>9} {'min':>7} "
             f"{'max':>7} {'sims':>9} | {'MS60':>8} {'MCTS60':>8} {'MS600':>8} {'MCTS600':>8}"]
    means: dict[tuple[str, str], float] = {}
    for name in names:
        cells = []
        for method in METHODS:
            mine = [row for row in rows if row["instance"] == name and row["method"] == method]
            if mine:
                mean, low, high = common.stats([row["best"] for row in mine])
                means[(name, method)] = mean
                sims = statistics.fmean(row["simulations"] for row in mine)
                cells.append(f"{mean:>9.1f} {low:>7g} {high:>7g} {sims:>9.0f}")
            else:
                cells.append(f"{'-':>9} {'-':>7} {'-':>7} {'-':>9}")
        thesis = " ".join(f"{v:>8.1f}" for v in THESIS.get(name, (float("nan"),) * 4))
        lines.append(f"{name:<6} {cells[0]} | {cells[1]} | {thesis}")
    fixed = [row for row in rows if row["method"] == "ms-fixed"]
    for name in names:
        mine = [row["best"] for row in fixed if row["instance"] == name]
        if mine:
            means[(name, "ms-fixed")] = common.stats(mine)[0]
            seconds = ", ".join(sorted({f"{row['budget']:g}" for row in fixed if row["instance"] == name}))
            lines.append(f"{name:<6} MS, delivery order fixed per date (Rei's code): mean "
                         f"{means[(name, 'ms-fixed')]:.1f}, min {min(mine)}, max {max(mine)}; {len(mine)} run(s) "
                         f"of {seconds} CPU s")
    for ms in ("ms", "ms-fixed"):
        both = [name for name in names if (name, ms) in means and (name, "mcts") in means]
        if both:
            wins = sum(means[(n, "mcts")] < means[(n, ms)] for n in both)
            thesis_wins = sum(THESIS[n][1] < THESIS[n][0] for n in both if n in THESIS)
            lines.append(f"MCTS mean better than the {ms} mean on {wins}/{len(both)} "
                         f"(thesis at 60 s: {thesis_wins}/{len(both)})")
    lines.append("criteria (docs/domains.md §A4, meant for 60 s and 3 seeds):")
    exact = {"40-A": 79, "40-B": 59, "40-C": 41, "40-D": 154}
    for name, expected in exact.items():
        got = sorted({row["best"] for row in rows if row["instance"] == name and row["method"] == "ms"})
        if got:
            lines.append(f"  MS on {name} exactly {expected}: {got} -> {'yes' if got == [expected] else 'NO'}")
    for name in ("20-A", "20-B", "20-C", "20-D"):
        if (name, "ms") in means:
            gap = means[(name, "ms")] / THESIS[name][0] - 1
            lines.append(f"  MS on {name} within 2% of {THESIS[name][0]}: {gap:+.1%} -> "
                         f"{'yes' if abs(gap) <= 0.02 else 'NO'}")
    for ms in ("ms", "ms-fixed"):
        if all((n, ms) in means and (n, "mcts") in means for n in INSTANCES):
            wins = sum(means[(n, "mcts")] < means[(n, ms)] for n in INSTANCES)
            lines.append(f"  MCTS beats {ms} on at least 6 of 8: {wins} -> {'yes' if wins >= 6 else 'NO'}")
    for name, limit in (("40-A", 60), ("40-B", 35)):
        if (name, "mcts") in means:
            lines.append(f"  MCTS on {name} <= about {limit}: {means[(name, 'mcts')]:.1f} -> "
                         f"{'yes' if means[(name, 'mcts')] <= limit else 'NO'}")
    return "\n".join(lines)


def format_rate(figures: dict) -> str:
    """:func:`rate`'s dict as lines."""
    return "\n".join([
        f"FO simulations on {figures['instance']} ({figures['items']} items, {figures['width']} stacks), per CPU s:",
        "  compile from an empty Numba cache (fresh process, import included): "
        + (f"{figures['compile_seconds']:.1f} s" if figures["compile_seconds"] is not None else "not measured"),
        f"  warm-up here (Numba compile or cache load): {figures['warmup_seconds']:.2f} s",
        f"  kernel, complete simulations: {figures['kernel']:.0f}/s ({figures['simulation_ms']:.3f} ms each)",
        f"  through StackingProblem.playout: {figures['protocol']:.0f}/s",
        f"  MS (early abort at the incumbent): {figures['ms']:.0f}/s",
        f"  MCTS iterations (one node and one simulation each): {figures['mcts']:.0f}/s",
    ])


def main(argv=None) -> None:
    common.table_command(argv, __doc__.split("\n\n")[0], instances=INSTANCES,
                         instance_help="comma-separated names (default 20-x, 40-x)", methods=TABLE_METHODS, table=table,
                         format_table=format_table, rate=rate, format_rate=format_rate, unit="simulation rates")


if __name__ == "__main__":
    main()
