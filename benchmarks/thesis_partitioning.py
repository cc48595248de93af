"""Table 4.1 of Rei's thesis (number partitioning: KK, DFS, MCTS), and the speed of the inner loops.

- :func:`table` runs the table's methods on the (generated substitutes of
  the) instances ``hard0100`` ... ``hard1000`` at a CPU-time budget per
  run: Karmarkar-Karp once, the complete-KK DFS once (deterministic), MCTS
  once per seed in the thesis's setting
  (:data:`~hornermcts.domains.number_partitioning.THESIS_MCTS`); one row
  (a dict) per (instance, method, seed), with the incumbent's history over
  CPU time, appended as JSON lines to ``out`` if given. Every row's
  solution is checked (the partition behind it, rebuilt from its moves,
  has exactly the discrepancy reported).
- :func:`format_table` puts the rows beside the thesis's numbers
  (:data:`THESIS`, copied from Table 4.1 / docs/domains.md A3): mean, min and
  max of MCTS over the seeds, and its gains over KK and DFS.
- :func:`rate`: KK simulations, MCTS simulations and DFS nodes per CPU
  second on ``hard0100`` and ``hard1000`` after warm-up, and the knapsack
  domain's compiled playouts (their Numba compile time apart).

The thesis's instances are not public: the values compare only loosely
(the substitutes' KK values are within a few bits of the thesis's; see
:mod:`hornermcts.domains.number_partitioning.instances`). docs/domains.md A4's
reproduction criterion: MCTS improves on KK by at least 15 bits on
hard0100-0300 and lands within about 4 bits of DFS at equal CPU time.

Usage::

    python benchmarks/thesis_partitioning.py --seconds 60 --seeds 3 --instances hard0100,hard0200,hard0300 \\
        --out partitioning.jsonl
    python benchmarks/thesis_partitioning.py --rate 3
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from typing import Iterable, Sequence

import numpy as np

from hornermcts.domains.number_partitioning import (
    JOIN,
    SPLIT,
    THESIS_INSTANCES,
    THESIS_MCTS,
    NumberPartitioning,
    complete_kk,
    partition_from_moves,
    solve,
    thesis_instance,
)
from hornermcts.errors import OptionError
from hornermcts.search import mcts

__all__ = ["THESIS", "table", "format_table", "rate", "check_row", "main"]

#: Table 4.1, log2(E+1): instance -> (KK, DFS60, MCTS60, DFS600, MCTS600); MCTS is a mean over 10 runs.
THESIS = {
    "hard0100": (73.37, 56.12, 54.56, 53.36, 51.20),
    "hard0200": (171.81, 151.91, 150.88, 151.35, 149.79),
    "hard0300": (265.77, 247.07, 248.82, 247.07, 247.18),
    "hard0400": (366.18, 343.36, 347.55, 339.07, 344.84),
    "hard0500": (461.60, 443.54, 441.42, 438.79, 437.22),
    "hard0600": (557.09, 540.22, 542.59, 539.13, 540.66),
    "hard0700": (659.50, 640.48, 641.78, 637.70, 633.84),
    "hard0800": (751.27, 737.65, 738.49, 731.98, 735.67),
    "hard0900": (853.36, 834.95, 837.93, 834.95, 833.87),
    "hard1000": (952.47, 932.55, 938.05, 932.55, 930.23),
}

#: MCTS settings a table can run: the thesis's (THESIS_MCTS); Rei's code v0.3.0 (the run's global best and
#: worst normalise, and 1/(1 + depth) is added to every score; docs/domains.md A1-2, A1-7); and the ablation of
#: selection interleaving with theta = 5 (the text's "generally reasonable" value; docs/domains.md A5-1).
VARIANTS: dict[str, dict] = {"mcts": {}, "mcts-code": dict(normalize="global", depth_bonus=True),
                             "mcts-interleave5": dict(interleave=5)}

_LETTER = {SPLIT: "s", JOIN: "j"}
_MOVE = {"s": SPLIT, "j": JOIN}


def _seeds(seeds: int | Iterable[int]) -> list[int]:
    return list(range(seeds)) if isinstance(seeds, int) else [int(s) for s in seeds]


def table(seconds: float, seeds: int | Iterable[int], instances: Sequence[str] | None = None,
          out: str | None = None, *, verbose: bool = False, variants: Sequence[str] = ("mcts",),
          baselines: bool = True) -> list[dict]:
    """Run Table 4.1's methods at ``seconds`` CPU seconds per run; one row per (instance, method, seed).

    Parameters
    ----------
    seconds : float
        CPU seconds per DFS and per MCTS run (the thesis: 60 and 600).
    seeds : int or iterable of int
        MCTS seeds (an int ``k``: seeds ``0 .. k-1``); KK and the DFS are
        deterministic and run once (their rows have ``seed`` None).
    instances : sequence of str, optional
        Names among ``hard0100`` ... ``hard1000`` (default: all ten).
    out : str, optional
        A file the rows are appended to as JSON lines, each as it finishes.
    variants : sequence of str, default ("mcts",)
        The MCTS settings to run (keys of :data:`VARIANTS`); a row's
        ``method`` is its variant's name.
    baselines : bool, default True
        Run KK and the DFS too.

    Each row: ``instance``, ``n``, ``method``, ``seed``, ``budget`` (the
    seconds asked), ``value`` (log2(E+1)), ``discrepancy`` (E, a decimal
    string: it exceeds every float), ``cpu_seconds`` (used), ``simulations``
    (KK: 1, DFS: nodes, MCTS: simulations), ``history`` (``[cpu_seconds,
    value]`` at each improvement), ``proven``, ``stopped``, ``moves`` (the
    path, ``s``/``j`` per SPLIT/JOIN: :func:`check_row` rebuilds the
    partition from it).
    """
    names = list(THESIS_INSTANCES if instances is None else instances)
    for name in names:
        if name not in THESIS_INSTANCES:
            raise OptionError(f"unknown instance {name!r}: expected names among {', '.join(THESIS_INSTANCES)}")
    for variant in variants:
        if variant not in VARIANTS:
            raise OptionError(f"unknown variant {variant!r}: expected one of {', '.join(VARIANTS)}")
    runs = [("kk", None), ("dfs", None)] if baselines else []
    runs += [(variant, seed) for variant in variants for seed in _seeds(seeds)]
    rows = []
    for name in names:
        numbers = thesis_instance(name)
        for method, seed in runs:
            options = VARIANTS.get(method, {})
            solution = solve(numbers, "mcts" if method in VARIANTS else method, seconds=seconds,
                             seed=0 if seed is None else seed, **options)
            row = {
                "instance": name,
                "n": len(numbers),
                "method": method,
                "seed": seed,
                "budget": seconds,
                "value": solution.value,
                "discrepancy": str(solution.discrepancy),
                "cpu_seconds": solution.seconds,
                "simulations": solution.simulations,
                "history": [[t, v] for t, v in solution.history],
                "proven": solution.proven,
                "stopped": solution.stopped,
                "moves": "".join(_LETTER[m] for m in solution.moves),
            }
            if method in VARIANTS:  # solve's default: the compiled tree without options (rows before it: the core)
                row["engine"] = "core" if options else "compiled"
            rows.append(row)
            if out is not None:
                with open(out, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(row) + "\n")
            if verbose:
                print(f"{name} {method:4} seed {seed}: {row['value']:.2f} in {row['cpu_seconds']:.1f} s CPU, "
                      f"{row['simulations']} simulations", file=sys.stderr, flush=True)
    return rows


def check_row(row: dict) -> None:
    """Raise AssertionError unless the row's moves give a partition of exactly its discrepancy and value."""
    numbers = thesis_instance(row["instance"])
    partition = partition_from_moves(numbers, [_MOVE[c] for c in row["moves"]])
    e = int(row["discrepancy"])
    assert partition.discrepancy == e, (row["instance"], row["method"], partition.discrepancy, e)
    assert sum(partition.sums) == sum(numbers)
    assert row["value"] == math.log2(e + 1)
    assert not row["history"] or row["history"][-1][1] == row["value"]


def format_table(rows: list[dict]) -> str:
    """The rows beside Table 4.1: KK, DFS and MCTS (mean [min, max] over seeds), log2(E+1), lower is better."""
    by_instance: dict[str, dict[str, list[dict]]] = {}
    for row in rows:
        by_instance.setdefault(row["instance"], {}).setdefault(row["method"], []).append(row)
    budgets = sorted({row["budget"] for row in rows})
    lines = [
        f"Table 4.1, log2(E+1), lower is better: ours at {', '.join(f'{b:g}' for b in budgets)} CPU s per run "
        "(generated substitutes of the instances) | the thesis at 60 s / 600 s (MCTS: mean of 10 runs)",
        f"{'instance':9} {'KK':>7} {'thesis':>7} | {'DFS':>7} {'DFS60':>7} {'DFS600':>7} | "
        f"{'MCTS mean [min, max] (runs)':>34} {'MCTS60':>7} {'MCTS600':>7} | {'KK-MCTS':>7} {'MCTS-DFS':>8}",
    ]
    gains = []
    for name in sorted(by_instance):
        methods = by_instance[name]
        thesis = THESIS.get(name, (math.nan,) * 5)
        kk = methods["kk"][0]["value"] if "kk" in methods else math.nan
        dfs = methods["dfs"][0]["value"] if "dfs" in methods else math.nan
        values = [r["value"] for r in methods.get("mcts", [])]
        if values:
            mean = statistics.fmean(values)
            shown = f"{mean:.2f} [{min(values):.2f}, {max(values):.2f}] ({len(values)})"
        else:
            mean, shown = math.nan, "-"
        gains.append((name, kk - mean, mean - dfs))
        lines.append(
            f"{name:9} {kk:7.2f} {thesis[0]:7.2f} | {dfs:7.2f} {thesis[1]:7.2f} {thesis[3]:7.2f} | "
            f"{shown:>34} {thesis[2]:7.2f} {thesis[4]:7.2f} | {kk - mean:7.2f} {mean - dfs:8.2f}"
        )
    lines.append("thesis at 60 s: KK-MCTS 12.8 to 20.9 bits, MCTS-DFS -2.12 to +5.50 bits (docs/domains.md A3-A4)")
    others = sorted({row["method"] for row in rows} - {"kk", "dfs", "mcts"})
    for variant in others:
        lines.append(f"variant {variant} ({', '.join(f'{k}={v}' for k, v in VARIANTS[variant].items())}):")
        for name in sorted(by_instance):
            methods = by_instance[name]
            values = [r["value"] for r in methods.get(variant, [])]
            if not values:
                continue
            kk = methods["kk"][0]["value"] if "kk" in methods else math.nan
            dfs = methods["dfs"][0]["value"] if "dfs" in methods else math.nan
            mean = statistics.fmean(values)
            lines.append(f"  {name:9} {mean:7.2f} [{min(values):.2f}, {max(values):.2f}] ({len(values)})  "
                         f"KK-MCTS {kk - mean:6.2f}  MCTS-DFS {mean - dfs:6.2f}")
    return "\n".join(lines)


def _per_second(run, seconds: float) -> tuple[float, int]:
    """Calls of ``run()`` (returning its count of work) per CPU second over ``seconds``."""
    done = 0
    start = time.process_time()
    while True:
        done += run()
        used = time.process_time() - start
        if used >= seconds:
            return done / used, done


def rate(seconds: float = 3.0) -> dict:
    """Inner-loop speed, per CPU second after warm-up (``seconds`` per measurement).

    Number partitioning on ``hard0100`` (100 numbers of 100 bits) and
    ``hard1000`` (1000 of 1000 bits): ``kk_per_second`` (one Karmarkar-Karp
    simulation from the root to a leaf, compiled on multi-limb integers),
    ``mcts_simulations_per_second`` (whole iterations of the thesis's MCTS,
    core included: two simulations per expanded node, one KK run),
    ``dfs_nodes_per_second`` (the DFS, in Python ints). Knapsack (the ``n = 1000``
    uncorrelated instance of seed 0): ``knapsack_playouts_per_second`` from
    the root (compiled), with ``knapsack_numba_compile_seconds`` (fresh
    compilation of its kernels, no disk cache) and
    ``knapsack_first_call_seconds`` (this process's first call: compile or
    load from Numba's disk cache) reported apart.
    """
    from numba import njit

    from hornermcts.domains.knapsack import Knapsack, generate, kernels

    result: dict = {"seconds_per_measurement": seconds}
    for name in ("hard0100", "hard1000"):
        problem = NumberPartitioning(thesis_instance(name))
        root = problem.root()
        problem.descend(root)  # warm-up

        def kk(problem=problem, root=root) -> int:
            problem.descend(root)
            return 1

        result[f"{name}_kk_per_second"], _ = _per_second(kk, seconds)
        search = mcts(NumberPartitioning(thesis_instance(name)), time_limit=seconds, seed=0, progress=None,
                      **THESIS_MCTS)
        result[f"{name}_mcts_simulations_per_second"] = search.iterations / search.elapsed
        dfs = complete_kk(thesis_instance(name), time_limit=seconds, clock="cpu")
        result[f"{name}_dfs_nodes_per_second"] = dfs.iterations / dfs.elapsed

    start = time.perf_counter()
    tiny = Knapsack(generate(5, seed=0))
    tiny.playout(tiny.root(), np.random.default_rng(0))
    tiny.bound(tiny.root())
    result["knapsack_first_call_seconds"] = time.perf_counter() - start
    start = time.perf_counter()
    fresh_settle = njit(kernels.settle.py_func)
    fresh_playout = njit(kernels.playout.py_func)
    fresh_bound = njit(kernels.lp_bound.py_func)
    w = np.array([3, 4], np.int64)
    fresh_settle(w, np.array([7, 4, 0]), np.array([4, 4, 0]), 0, 5)
    fresh_playout(w, w, np.array([7, 4, 0]), np.array([4, 4, 0]), 0, 5, np.ones(2, np.uint8), np.zeros(2, np.bool_))
    fresh_bound(w, w, 0, 5)
    result["knapsack_numba_compile_seconds"] = time.perf_counter() - start
    problem = Knapsack(generate(1000, seed=0))
    root, rng = problem.root(), np.random.default_rng(0)
    problem.playout(root, rng)

    def playout() -> int:
        problem.playout(root, rng)
        return 1

    result["knapsack_playouts_per_second"], _ = _per_second(playout, seconds)
    return result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU seconds per run (default 60)")
    parser.add_argument("--seeds", type=int, default=3, help="MCTS runs per instance, seeds 0..k-1 (default 3)")
    parser.add_argument("--instances", default=None,
                        help="comma-separated, e.g. hard0100,hard0200 (default: all ten)")
    parser.add_argument("--out", default=None, help="append the raw rows to this JSON-lines file")
    parser.add_argument("--variants", default="mcts",
                        help=f"MCTS settings, comma-separated, among {', '.join(VARIANTS)}")
    parser.add_argument("--no-baselines", action="store_true", help="skip KK and the DFS")
    parser.add_argument("--rate", type=float, nargs="?", const=3.0, default=None, metavar="SECONDS",
                        help="measure the inner loops' speed instead (SECONDS per measurement, default 3)")
    args = parser.parse_args(argv)
    if args.rate is not None:
        for key, value in rate(args.rate).items():
            print(f"{key}: {value:,.3f}" if isinstance(value, float) else f"{key}: {value}")
        return
    instances = args.instances.split(",") if args.instances else None
    rows = table(args.seconds, args.seeds, instances, args.out, verbose=True, variants=args.variants.split(","),
                 baselines=not args.no_baselines)
    for row in rows:
        check_row(row)
    print(format_table(rows))


if __name__ == "__main__":
    main()
