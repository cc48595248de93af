"""Pack a 0/1 knapsack: dynamic programming, or MCTS with Dantzig's bound.

``hornermcts knapsack FILE`` reads the capacity, then ``value weight`` per
line; ``--generate N`` draws N random items (``--seed``, ``--correlation``).
``--method dp`` gives the exact optimum by dynamic programming;
``--method mcts`` (default) searches the thesis's pack-or-skip tree with
Rei's best-value UCT and branch-and-bound on the LP bound (``--no-prune``:
without), for ``--time`` CPU seconds or ``--iterations``, and says when the
exhausted tree proves its answer optimal. ``--show`` lists the items.

Errors print one line and exit with status 2.
"""
from __future__ import annotations

import argparse
from math import sqrt
from time import process_time
from typing import Any

from ...errors import OptionError
from .dynamic_programming import knapsack_dp
from .instances import CORRELATIONS, generate, read_instance
from .problem import Knapsack

__all__ = ["add_arguments", "run", "MCTS_SETTINGS"]

#: The search of ``--method mcts``: Rei's simple MCTS (best value, parent normalisation, C = sqrt(2), CPU time).
MCTS_SETTINGS: dict[str, Any] = dict(value="best", normalize="parent", cp=sqrt(2), clock="cpu")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_argument_group("instance")
    source.add_argument("file", nargs="?", help="the capacity, then 'value weight' per line ('#' comments)")
    source.add_argument("--generate", type=int, metavar="N", default=None, help="N random items instead of a file")
    source.add_argument("--seed", type=int, default=0, help="seed of --generate and of MCTS (default 0)")
    source.add_argument("--correlation", choices=CORRELATIONS, default="none",
                        help="--generate: how values follow weights (default none)")
    source.add_argument("--max-weight", type=int, default=1000, help="--generate: weights in [1, W] (default 1000)")
    search = parser.add_argument_group("search")
    search.add_argument("--method", choices=("dp", "mcts"), default="mcts", help="default mcts")
    search.add_argument("--time", type=float, default=None, help="mcts: CPU seconds (default 10 without -n)")
    search.add_argument("-n", "--iterations", type=int, default=None, help="mcts: simulations at most")
    search.add_argument("--no-prune", action="store_true", help="mcts: no branch-and-bound")
    out = parser.add_argument_group("output")
    out.add_argument("--show", action="store_true", help="list the packed items (index: value weight)")


def run(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.generate is None):
        raise OptionError("give exactly one instance: FILE or --generate N")
    if args.generate is not None:
        name = f"{args.generate} random items (seed {args.seed}, correlation {args.correlation})"
        instance = generate(args.generate, seed=args.seed, max_weight=args.max_weight, correlation=args.correlation)
    else:
        name, instance = args.file, read_instance(args.file)
    if args.method == "dp" and (args.time is not None or args.iterations is not None or args.no_prune):
        raise OptionError("--time, --iterations and --no-prune go with --method mcts")
    print(f"{name}: {instance.n} items, capacity {instance.capacity}, method {args.method}")
    start = process_time()
    if args.method == "dp":
        value, items = knapsack_dp(instance)
        status = "optimal"
    else:
        value, items, status = _mcts(instance, args)
    if instance.value_of(items) != value:
        raise AssertionError(f"the items are worth {instance.value_of(items)}, not the reported {value}")
    weight = sum(instance.weights[i] for i in items)
    print(f"value {value}, weight {weight} of {instance.capacity}, {len(items)} items, "
          f"{process_time() - start:.2f} s CPU, {status}")
    if args.show:
        for i in items:
            print(f"{i}: {instance.values[i]} {instance.weights[i]}")
    return 0


def _mcts(instance, args: argparse.Namespace) -> tuple[int, list, str]:
    from ...search import mcts

    budget: dict = {}
    if args.iterations is not None:
        if args.iterations < 1:
            raise OptionError(f"--iterations must be >= 1, got {args.iterations}")
        budget["iterations"] = args.iterations
    if args.time is not None or not budget:
        seconds = 10.0 if args.time is None else args.time
        if not seconds > 0:
            raise OptionError(f"--time must be > 0 seconds, got {seconds}")
        budget["time_limit"] = seconds
    problem = Knapsack(instance)
    result = mcts(problem, prune=not args.no_prune, seed=args.seed, progress=None, **MCTS_SETTINGS, **budget)
    state = result.best_state
    status = f"{result.iterations} simulations, stopped: {result.stopped}"
    if result.proven:
        status += ", optimal (the tree is exhausted)"
    return state.value, problem.items(state), status
