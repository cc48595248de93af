"""Split numbers in two sets of nearly equal sums: KK, complete-KK DFS or MCTS.

``hornermcts partition FILE`` reads one positive integer per line;
``--generate N`` draws N integers uniform in [1, 2^N) (``--seed``);
``--instance hard0100`` takes a substitute of the thesis's instances (the
originals are not public). ``--method kk|dfs|mcts`` (default mcts) runs for
``--time`` CPU seconds (default 10) and prints the discrepancy E,
log2(E+1), the two subset sums, the CPU time and the simulations (DFS:
nodes); ``--show`` also prints the two subsets.

Errors print one line and exit with status 2.
"""
from __future__ import annotations

import argparse

from ...errors import OptionError
from .instances import THESIS_INSTANCES, generate, read_numbers, thesis_instance
from .solve import METHODS, solve

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_argument_group("instance")
    source.add_argument("file", nargs="?", help="one positive integer per line ('#' comments)")
    source.add_argument("--generate", type=int, metavar="N", default=None,
                        help="N random integers uniform in [1, 2^N) instead of a file")
    source.add_argument("--instance", choices=THESIS_INSTANCES, default=None, metavar="NAME",
                        help="hard0100, hard0200, ..., hard1000: a generated substitute of the thesis's instance")
    source.add_argument("--seed", type=int, default=0, help="seed of --generate and of MCTS (default 0)")
    search = parser.add_argument_group("search")
    search.add_argument("--method", choices=METHODS, default="mcts", help="default mcts")
    search.add_argument("--time", type=float, default=10.0, help="CPU seconds (dfs, mcts; default 10)")
    search.add_argument("--prune", action="store_true", help="mcts: branch-and-bound with the lower bound")
    out = parser.add_argument_group("output")
    out.add_argument("--show", action="store_true", help="print the two subsets")


def _numbers(args: argparse.Namespace) -> tuple[str, list[int]]:
    sources = sum(x is not None for x in (args.file, args.generate, args.instance))
    if sources != 1:
        raise OptionError("give exactly one instance: FILE, --generate N or --instance NAME")
    if args.generate is not None:
        return f"{args.generate} random integers (seed {args.seed})", generate(args.generate, seed=args.seed)
    if args.instance is not None:
        return f"{args.instance} (generated substitute)", thesis_instance(args.instance)
    return args.file, read_numbers(args.file)


def run(args: argparse.Namespace) -> int:
    if not args.time > 0:
        raise OptionError(f"--time must be > 0 seconds, got {args.time}")
    if args.prune and args.method != "mcts":
        raise OptionError("--prune goes with --method mcts")
    name, numbers = _numbers(args)
    options = dict(prune=True) if args.prune else {}
    solution = solve(numbers, args.method, seconds=args.time, seed=args.seed, **options)
    first, second = solution.partition.subsets(numbers)
    print(f"{name}: {len(numbers)} numbers, method {args.method}")
    print(f"E = {solution.discrepancy}")
    print(f"log2(E+1) = {solution.value:.2f}")
    print(f"sums: {solution.partition.sums[0]} ({len(first)} numbers) and {solution.partition.sums[1]} "
          f"({len(second)} numbers)")
    kind = "nodes" if args.method == "dfs" else "simulations"
    print(f"time: {solution.seconds:.2f} s CPU, {solution.simulations} {kind}, stopped: {solution.stopped}"
          + (", optimal" if solution.proven else ""))
    if args.show:
        print("first:  " + " ".join(map(str, first)))
        print("second: " + " ".join(map(str, second)))
    return 0
