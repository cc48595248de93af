"""Table 4.1's claims over many generated instances, with intervals (issue 40 item 3).

The thesis table (and ``thesis_partitioning.py``) rests on one substitute
instance per size.  Here each size N gets ``--count`` instances,
``generate(N, seed=1000 N + i)`` (the distribution of docs/domains.md §0.1, away
from the substitutes' seed N); on each, KK once, the complete-KK DFS once and
MCTS once (seed 0, the thesis's setting), every run at ``--seconds`` CPU
seconds and its partition checked (:func:`~hornermcts.domains.number_partitioning.solve`).
Per size: the mean improvement of MCTS over KK and MCTS - DFS in bits
(log2(E+1)), with 95% t intervals over the instances, and how many instances
meet docs/domains.md A4's criterion (>= 15 bits over KK).

MCTS runs on the domain's compiled tree by default (``--engine compiled``,
the same search as the generic core, ``--engine core``, at 8-20 times the
simulations per CPU second); a row records its engine (rows without one ran
on the core). Rows are appended to ``--out`` as they finish (instance index
outermost, so a stopped run stays balanced over the sizes) and a rerun skips
those done; ``--methods`` splits a run over processes writing to the same file.

Usage (the committed 60-second run: the DFS and MCTS in two processes, 30 CPU minutes each)::

    python benchmarks/partitioning_generated.py --sizes 100,200,300 --count 10 --seconds 60 --methods kk,dfs \\
        --out benchmarks/results/thesis/partitioning_generated.jsonl &
    python benchmarks/partitioning_generated.py --sizes 100,200,300 --count 10 --seconds 60 --methods mcts \\
        --out benchmarks/results/thesis/partitioning_generated.jsonl
    python benchmarks/partitioning_generated.py --report benchmarks/results/thesis/partitioning_generated.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from hornermcts.domains.number_partitioning import generate, solve

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling samegame_papers.py
from samegame_papers import one_sample  # noqa: E402

METHODS = ("kk", "dfs", "mcts")
#: Table 4.1 at 60 s for the sizes run here: N -> (KK - MCTS, MCTS - DFS) in bits, one instance each.
THESIS_60 = {100: (73.37 - 54.56, 54.56 - 56.12), 200: (171.81 - 150.88, 150.88 - 151.91),
             300: (265.77 - 248.82, 248.82 - 247.07)}
CRITERION = 15.0  # bits over KK (docs/domains.md A4)


def instance_seed(n: int, index: int) -> int:
    """The seed of the ``index``-th generated instance of size ``n``."""
    return 1000 * n + index


def read_rows(paths: list[str]) -> list[dict]:
    """The rows of the JSON-lines files that exist, a row repeated across files kept once."""
    rows, seen = [], set()
    for path in paths:
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    if line.strip():
                        row = json.loads(line)
                        key = (row["n"], row["index"], row["method"], row["budget"], row.get("engine", "core"))
                        if key not in seen:
                            seen.add(key)
                            rows.append(row)
    return rows


def run(sizes: list[int], count: int, seconds: float, out: str | None, methods: tuple = METHODS,
        engine: str = "compiled") -> list[dict]:
    """Every (instance, method) of ``methods`` not yet in ``out``; returns all rows (old and new)."""
    rows = read_rows([out] if out else [])
    done = {(r["n"], r["index"], r["method"]) for r in rows
            if r["budget"] == seconds and (r["method"] != "mcts" or r.get("engine", "core") == engine)}
    for index in range(count):
        for n in sizes:
            numbers = generate(n, seed=instance_seed(n, index))
            for method in methods:
                if (n, index, method) in done:
                    continue
                options = {"engine": engine} if method == "mcts" else {}
                solution = solve(numbers, method, seconds=seconds, seed=0, **options)  # checks the partition
                row = {"n": n, "index": index, "seed": instance_seed(n, index), "method": method, "budget": seconds,
                       "value": solution.value, "discrepancy": str(solution.discrepancy),
                       "cpu_seconds": solution.seconds, "simulations": solution.simulations,
                       "stopped": solution.stopped, **options}
                rows.append(row)
                if out:
                    with open(out, "a") as f:
                        f.write(json.dumps(row) + "\n")
                print(f"N {n} #{index} {method}: {solution.value:.2f} bits, {solution.seconds:.1f} s", flush=True)
    return rows


def report(rows: list[dict]) -> str:
    """Per size and budget: KK, DFS, MCTS means; KK - MCTS and MCTS - DFS with 95% intervals."""
    lines = ["number partitioning, generated instances; log2(E+1) bits, lower is better; 95% t intervals "
             "over the instances"]
    engines = sorted({r.get("engine", "core") for r in rows if r["method"] == "mcts"})
    for seconds, engine, n in ((s, e, n) for s in sorted({r["budget"] for r in rows}) for e in engines
                           for n in sorted({r["n"] for r in rows})):
        picked = [r for r in rows if r["n"] == n and r["budget"] == seconds
                  and (r["method"] != "mcts" or r.get("engine", "core") == engine)]
        value = {(r["index"], r["method"]): r["value"] for r in picked}
        indices = sorted(i for i in {i for i, _ in value} if all((i, m) in value for m in METHODS))
        if len(indices) < 2:
            continue
        kk, dfs, tree = (np.array([value[(i, m)] for i in indices]) for m in METHODS)
        gain, versus = one_sample(kk - tree, 0.0), one_sample(tree - dfs, 0.0)
        met = int(((kk - tree) >= CRITERION).sum())
        paper = THESIS_60.get(n)
        simulations = np.mean([r["simulations"] for r in picked if r["method"] == "mcts" and r["index"] in indices])
        lines.append(
            f"N {n:4d}, {seconds:g} CPU s, {len(indices)} instances: KK {kk.mean():7.2f}  DFS {dfs.mean():7.2f}  "
            f"MCTS ({engine}, {simulations:,.0f} simulations) {tree.mean():7.2f} | "
            f"KK - MCTS {gain['mean']:5.2f} [{gain['ci'][0]:5.2f}, "
            f"{gain['ci'][1]:5.2f}], >= {CRITERION:g} on {met}/{len(indices)} | MCTS - DFS {versus['mean']:+5.2f} "
            f"[{versus['ci'][0]:+5.2f}, {versus['ci'][1]:+5.2f}]"
            + (f" | thesis 60 s, one instance: {paper[0]:.2f}, {paper[1]:+.2f}" if paper else ""))
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,200,300", help="comma-separated N (default 100,200,300)")
    parser.add_argument("--count", type=int, default=10, help="instances per size (default 10)")
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per DFS and MCTS run (default 5)")
    parser.add_argument("--out", default=None, help="JSON-lines file of the rows; an existing one is resumed")
    parser.add_argument("--methods", default=",".join(METHODS), help="comma-separated methods to run (default all)")
    parser.add_argument("--engine", default="compiled", choices=("compiled", "core"),
                        help="MCTS's engine (solve's engine option; default compiled)")
    parser.add_argument("--report", default=None, nargs="+", metavar="FILE", help="only report the rows of FILEs")
    args = parser.parse_args(argv)
    if args.report:
        print(report(read_rows(args.report)))
        return
    methods = tuple(args.methods.split(","))
    rows = run([int(n) for n in args.sizes.split(",")], args.count, args.seconds, args.out, methods, args.engine)
    print(report(rows))


if __name__ == "__main__":
    main()
