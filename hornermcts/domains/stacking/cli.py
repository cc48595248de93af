"""Solve stacking-problem instances with MS or MCTS.

``hornermcts stacking INSTANCE...`` runs the chosen method on each instance, a
file or a name like ``40-A`` looked up in ``--data-dir`` or in the folder named
by ``HORNERMCTS_STACKING_DATA`` (the project's ``shared/data/stacking``), and
prints the relocations of the best solution (replayed and checked), the FO
simulations run and the time used; ``--show`` also prints the solution, one
placement per line.  MCTS runs in the thesis's setting (single expansion, best
value normalised by the parent, C = sqrt(2), CPU time, branch and bound with
the inversion bound).

Errors print one line and exit with status 2.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ...errors import OptionError
from .reader import find_instance
from .solve import METHODS, solve

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("instances", nargs="+", metavar="INSTANCE",
                        help="an instance file, or a name like 40-A in the data folder")
    parser.add_argument("--data-dir", default=None,
                        help="folder of the instance files (default: $HORNERMCTS_STACKING_DATA)")
    parser.add_argument("--method", choices=METHODS, default="mcts", help="default mcts")
    parser.add_argument("--time", type=float, default=None,
                        help="seconds per instance (default 10, or none with --simulations)")
    parser.add_argument("--simulations", type=int, default=None, help="FO simulations per instance")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                        help="what --time measures (default cpu, as in the thesis)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--no-prune", action="store_true", help="MCTS without branch and bound")
    parser.add_argument("--show", action="store_true", help="print each solution, one placement per line")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    if args.time is not None and not args.time > 0:
        raise OptionError(f"--time must be > 0, got {args.time}")
    if args.simulations is not None and args.simulations < 1:
        raise OptionError(f"--simulations must be >= 1, got {args.simulations}")
    if args.seed < 0:
        raise OptionError(f"--seed must be >= 0, got {args.seed}")
    seconds = args.time if args.time is not None or args.simulations is not None else 10.0
    if args.method == "ms" and args.no_prune:
        raise OptionError("--no-prune applies to --method mcts")
    instances = [find_instance(spec, args.data_dir) for spec in args.instances]
    options: dict[str, Any] = {"prune": False} if args.no_prune else {}
    if args.method == "mcts":
        options["progress"] = None if args.no_progress else "auto"
    for instance in instances:
        outcome = solve(instance, args.method, time_limit=seconds, iterations=args.simulations, seed=args.seed,
                        clock=args.clock, **options)
        if args.show:
            print(outcome.solution.format())
        plural = "" if outcome.relocations == 1 else "s"
        print(f"{instance.name}: {outcome.relocations} relocation{plural} ({outcome.method}), {outcome.simulations} "
              f"simulations, {outcome.seconds:.2f} s {outcome.clock.upper() if outcome.clock == 'cpu' else 'wall'}"
              f", seed {outcome.seed}" + (", optimal over the tree (exhausted)" if outcome.proven else "")
              + (" (interrupted)" if outcome.stopped == "interrupt" else ""))
        sys.stdout.flush()
        if outcome.stopped == "interrupt":
            raise KeyboardInterrupt
    return 0
