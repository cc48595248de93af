"""Rei 2016, Table 6.1 (recursive circle packing): MS against MCTS at equal CPU budgets, on SUBSTITUTE instances.

The thesis's six instances ("adapted from [PCT14]") are not available; the
runs use the generated substitutes of
:mod:`hornermcts.domains.circle_packing.substitutes` (``small03`` ...
``large16``, labelled ``-substitute``). Their values do not compare with
Table 6.1's: only the comparison of MS and MCTS within a row does (the
claim of docs/domains.md §A4: MCTS >= MS on most instances).

MS repeats the semi-greedy construction SG; MCTS runs in the thesis's
setting (``THESIS_MCTS``: single expansion, best value normalised by the
parent, C = sqrt 2, CPU clock) over the SG tree, SG as its playout. Every
best value is recomputed by the independent checker before it is reported.

- :func:`rate`: SG constructions per CPU second on a thesis-sized instance
  (``large16``: 16 types, 541 tubes, about 290 placed), through the problem
  protocol and as MS and MCTS do them, after a warm-up whose CPU time (Numba
  compile, or loading its cache) is reported apart, and the cold compile in a
  fresh process;
- :func:`table`: one run per (instance, method, seed) at ``seconds`` CPU
  seconds, as dicts (best, CPU seconds, simulations, incumbent history,
  the packing), appended as JSON lines to ``out``; :func:`format_table`
  prints them beside the thesis's numbers with mean/min/max per method.

Usage::

    python benchmarks/thesis_circles.py --seconds 60 --seeds 3 --out circles.jsonl
    python benchmarks/thesis_circles.py --seconds 5 --seeds 1 --instances small03,large03
    python benchmarks/thesis_circles.py --rate
"""
from __future__ import annotations

import json
import os
import statistics
import time
from typing import Iterable

import sys
from pathlib import Path

import numpy as np

from hornermcts.domains.circle_packing import (
    SUBSTITUTES,
    CirclePackingProblem,
    SemiGreedy,
    check_packing,
    multiple_simulation,
    solve,
    substitute_instance,
    tree_search,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling thesis_common.py
import thesis_common as common  # noqa: E402

#: Table 6.1 (p. 53): mean value over 10 runs: MS 60 s, MCTS 60 s, MS 600 s, MCTS 600 s (the PCT14-based instances).
THESIS = {
    "large03": (3660023.3, 3660021.8, 3660024.2, 3660023.5),
    "large05": (4140042.1, 4140044.0, 4140043.0, 4140047.1),
    "large16": (30311008.0, 30625928.6, 30311016.6, 31192827.3),
    "small03": (938000.0, 950000.0, 940000.0, 957000.0),
    "small05": (1090000.0, 1120000.0, 1090000.0, 1120000.0),
    "small16": (10438035.5, 10388039.2, 10450036.6, 10534032.5),
}

#: The table's rows, in the thesis's order (their substitutes).
INSTANCES = ("large03", "large05", "large16", "small03", "small05", "small16")

METHODS = ("ms", "mcts")

#: The instance :func:`rate` measures on.
RATE_INSTANCE = "large16"


COMPILE_PROGRAM = """
import time
start = time.process_time()
import numpy as np
from hornermcts.domains.circle_packing import CirclePackingProblem, Instance, semi_greedy, tree_search
inst = Instance(60, 40, r_ext=[15, 6], r_int=[12, 0], value=[10, 2], count=[2, 4])
semi_greedy(inst, 0)
problem = CirclePackingProblem(inst)
problem.playout(problem.root(), np.random.default_rng(0))
tree_search(inst, iterations=3, seed=0)
print(time.process_time() - start)
"""


def compile_seconds() -> float:
    """CPU seconds to import the package and compile its kernels from an empty Numba cache
    (a fresh process, ``NUMBA_CACHE_DIR`` a new temporary folder)."""
    return common.compile_seconds(COMPILE_PROGRAM)


def rate(seconds: float = 3.0, instance: str = RATE_INSTANCE, *, compile: bool = True) -> dict:
    """SG constructions per CPU second on the substitute ``instance`` (default large16).

    Keys: ``instance``, ``types``, ``tubes`` (available), ``placed`` (mean tubes a construction places);
    ``compile_seconds`` (with ``compile``: :func:`compile_seconds`, else None); ``warmup_seconds`` (CPU
    seconds of the first calls here: Numba compile or loading its disk cache); ``kernel`` (SG from the
    empty container through :class:`SemiGreedy`, in a loop), ``protocol`` (``CirclePackingProblem.playout``
    from the root, as the search core calls it), ``ms`` (MS constructions), ``mcts`` (MCTS iterations in
    the thesis's setting: one new node and one SG each), each over about ``seconds`` CPU seconds; and
    ``construction_ms``, milliseconds per construction of the kernel.
    """
    inst = substitute_instance(instance)
    sg = SemiGreedy(inst)
    problem = CirclePackingProblem(inst)
    rng = np.random.default_rng(0)

    start = time.process_time()
    sg.run(rng)
    root = problem.root()
    problem.playout(root, rng)
    problem.apply(root, problem.moves(root)[0])
    tree_search(inst, iterations=3, seed=0)
    warmup = time.process_time() - start

    count, placed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        placed += len(sg.run(rng))
        count += 1
    kernel = common.per_second(count, time.process_time() - start)
    placed_mean = placed / max(count, 1)

    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        problem.playout(root, rng)
        count += 1
    protocol = common.per_second(count, time.process_time() - start)

    ms = multiple_simulation(inst, time_limit=seconds, seed=0)
    tree = tree_search(inst, time_limit=seconds, seed=0)
    compiled = compile_seconds() if compile else None
    return dict(instance=inst.name, types=inst.types, tubes=inst.tubes, placed=placed_mean,
                compile_seconds=compiled, warmup_seconds=warmup, kernel=kernel, construction_ms=1000.0 / kernel,
                protocol=protocol, ms=common.per_second(ms.simulations, ms.elapsed),
                mcts=common.per_second(tree.iterations, tree.elapsed))


def table(seconds: float, seeds: int | Iterable[int], instances: Iterable[str] | None = None,
          out: str | os.PathLike | None = None, methods: Iterable[str] = METHODS) -> list[dict]:
    """Run every (instance, method, seed) for ``seconds`` CPU seconds; return one dict per run.

    ``seeds``: a count (seeds ``0 .. seeds-1``) or the seeds. ``instances``: thesis names whose substitutes
    to run (default :data:`INSTANCES`). Each row: ``instance`` (the thesis name), ``substitute`` (the
    instance actually run), ``method``, ``seed``, ``budget`` (the seconds asked), ``best`` (the value,
    recomputed by the checker), ``cpu_seconds`` (used), ``simulations`` (SG constructions: MS's, or MCTS's
    iterations), ``history`` (``[[cpu_seconds, value], ...]`` at each improvement), ``stopped``, ``placed``
    (tubes in the best packing), ``packing`` (its ``[kind, holder, x, y]`` rows, to check again offline).
    With ``out``, each row is appended to that file as a JSON line as soon as it is done. Before the runs
    of an instance, a short warm-up loads the compiled kernels, so that no run pays for it.
    """
    rows = []
    for name in (INSTANCES if instances is None else list(instances)):
        inst = substitute_instance(name)
        tree_search(inst, iterations=2, seed=0)  # warm-up: Numba's compile or cache load is charged to no run
        for method in methods:
            for seed in common.seed_list(seeds):
                run = solve(inst, method, time_limit=seconds, seed=seed, clock="cpu")
                assert check_packing(inst, run.packing) == run.value
                row = dict(instance=name.removesuffix("-substitute"), substitute=inst.name, method=method,
                           seed=seed, budget=seconds, best=run.value, cpu_seconds=run.seconds,
                           simulations=run.simulations, history=[[s, v] for s, v in run.history],
                           stopped=run.stopped, placed=len(run.packing),
                           packing=[list(r) for r in run.packing.rows()])
                rows.append(row)
                if out is not None:
                    with open(out, "a") as handle:
                        handle.write(json.dumps(row) + "\n")
    return rows


def format_table(rows: list[dict]) -> str:
    """The runs as Table 6.1: mean/min/max best per method beside the thesis's means (other instances!)."""
    budgets = sorted({row["budget"] for row in rows})
    names = list(dict.fromkeys(row["instance"] for row in rows))
    lines = [f"recursive circle packing, Rei 2016 Table 6.1; this run: {', '.join(f'{b:g}' for b in budgets)} CPU s "
             f"per run, {len({row['seed'] for row in rows})} seed(s); higher is better",
             "our rows are SUBSTITUTE instances (generated; PCT14's data is unavailable): compare MS with MCTS "
             "within a row, not with the thesis's values",
             f"{'inst':<8} {'MS mean':>11} {'min':>9} {'max':>9} {'sims':>7} | {'MCTS mean':>11} {'min':>9} "
             f"{'max':>9} {'sims':>7} | {'MCTS-MS':>9} | {'MS60':>11} {'MCTS60':>11} {'MS600':>11} {'MCTS600':>11}"]
    means: dict[tuple[str, str], float] = {}
    for name in names:
        cells = []
        for method in METHODS:
            mine = [row for row in rows if row["instance"] == name and row["method"] == method]
            if mine:
                mean, low, high = common.stats([row["best"] for row in mine])
                means[(name, method)] = mean
                sims = statistics.fmean(row["simulations"] for row in mine)
                cells.append(f"{mean:>11.1f} {low:>9.0f} {high:>9.0f} {sims:>7.0f}")
            else:
                cells.append(f"{'-':>11} {'-':>9} {'-':>9} {'-':>7}")
        gap = (f"{means[(name, 'mcts')] - means[(name, 'ms')]:>+9.1f}"
               if (name, "ms") in means and (name, "mcts") in means else f"{'-':>9}")
        thesis = " ".join(f"{v:>11.1f}" for v in THESIS.get(name, (float("nan"),) * 4))
        lines.append(f"{name:<8} {cells[0]} | {cells[1]} | {gap} | {thesis}")
    both = [name for name in names if (name, "ms") in means and (name, "mcts") in means]
    if both:
        wins = sum(means[(n, "mcts")] >= means[(n, "ms")] for n in both)
        strict = sum(means[(n, "mcts")] > means[(n, "ms")] for n in both)
        known = [n for n in both if n in THESIS]
        thesis60 = sum(THESIS[n][1] > THESIS[n][0] for n in known)
        thesis600 = sum(THESIS[n][3] > THESIS[n][2] for n in known)
        lines.append(f"MCTS mean >= MS mean on {wins}/{len(both)} (strictly better on {strict}); thesis: MCTS better "
                     f"on {thesis60}/{len(known)} at 60 s, {thesis600}/{len(known)} at 600 s")
        budgets = ", ".join(sorted({f"{row['budget']:g}" for row in rows}))
        lines.append(f"criterion (docs/domains.md §A4, meant for 600 s; run here at {budgets} CPU s): MCTS better "
                     f"than MS on most substitutes, ties not counted (as the thesis counts): {strict}/{len(both)} -> "
                     f"{'yes' if 2 * strict > len(both) else 'NO'}")
    return "\n".join(lines)


def format_rate(figures: dict) -> str:
    """:func:`rate`'s dict as lines."""
    return "\n".join([
        f"SG constructions on {figures['instance']} ({figures['types']} types, {figures['tubes']} tubes, "
        f"{figures['placed']:.0f} placed per construction), per CPU s:",
        "  compile from an empty Numba cache (fresh process, import included): "
        + (f"{figures['compile_seconds']:.1f} s" if figures["compile_seconds"] is not None else "not measured"),
        f"  warm-up here (Numba compile or cache load): {figures['warmup_seconds']:.2f} s",
        f"  kernel, SG from the empty container: {figures['kernel']:.1f}/s ({figures['construction_ms']:.1f} ms each)",
        f"  through CirclePackingProblem.playout: {figures['protocol']:.1f}/s",
        f"  MS: {figures['ms']:.1f}/s",
        f"  MCTS iterations (one node and one SG each): {figures['mcts']:.1f}/s",
    ])


def main(argv=None) -> None:
    common.table_command(argv, __doc__.split("\n\n")[0], instances=INSTANCES,
                         instance_help=f"comma-separated, of {', '.join(sorted(SUBSTITUTES))} (default all)",
                         methods=METHODS, table=table, format_table=format_table, rate=rate,
                         format_rate=format_rate, unit="construction rates")


if __name__ == "__main__":
    main()
