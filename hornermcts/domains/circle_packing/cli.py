"""Pack tubes into a container: semi-greedy construction, multiple simulation or MCTS (Rei 2016, ch. 6).

``hornermcts circles INSTANCE`` reads an instance file (format:
:mod:`hornermcts.domains.circle_packing.instance`) or takes a substitute by
name (``small03`` ... ``large16``, generated: not the thesis's data);
``--generate small|large --types K --seed S`` generates one. ``--method``
picks SG (one construction), MS (repeated SG) or MCTS (the thesis's
setting: single expansion, best value, parent normalisation, C = sqrt 2, CPU
clock) for ``--time`` seconds. It prints the value (checked by the
independent checker), the tubes placed, the CPU seconds and, for MS and
MCTS, the constructions made; ``--show`` lists the placements, ``--svg
FILE`` draws the packing, ``--write FILE`` saves the instance.

Errors print one line and exit with status 2.
"""

from __future__ import annotations

import argparse
import math
import os
import time

from ...errors import OptionError
from .drawing import packing_svg
from .instance import Instance, read_instance, write_instance
from .packing import Packing
from .solve import METHODS, solve
from .substitutes import SIZES, SUBSTITUTES, generate_instance, substitute_instance

__all__ = ["add_arguments", "run", "load_instance"]

def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_argument_group("instance")
    source.add_argument("instance", nargs="?",
                        help=f"instance file, or a substitute's name ({', '.join(sorted(SUBSTITUTES))})")
    source.add_argument("--generate", choices=sorted(SIZES), default=None, help="generate a random instance")
    source.add_argument("--types", type=int, default=5, help="with --generate: tube types (default 5)")
    source.add_argument("--seed", type=int, default=0, help="with --generate: generator seed (default 0)")
    source.add_argument("--write", metavar="FILE", default=None, help="save the instance to FILE")
    search = parser.add_argument_group("search")
    search.add_argument("--method", choices=METHODS, default="mcts", help="sg, ms or mcts (default mcts)")
    search.add_argument("--time", type=float, default=10.0, help="seconds for ms and mcts (default 10)")
    search.add_argument("--clock", choices=["cpu", "wall"], default="cpu", help="budget clock (default cpu)")
    search.add_argument("--search-seed", type=int, default=0, help="seed of the construction draws (default 0)")
    search.add_argument("--rcl", type=int, default=None,
                        help="positions SG draws among (and MCTS branches over) per tube type (default all)")
    search.add_argument("--tubes", type=int, default=1, help="mcts: tube types a node branches over (default 1)")
    search.add_argument("-c", "--cp", type=float, default=math.sqrt(2.0), help="mcts: exploration (default sqrt 2)")
    out = parser.add_argument_group("output")
    out.add_argument("--show", action="store_true", help="list the placements")
    out.add_argument("--svg", metavar="FILE", default=None, help="draw the packing to FILE (SVG)")
    out.add_argument("--no-progress", action="store_true", help="no progress bar")


def load_instance(args: argparse.Namespace) -> Instance:
    """The instance the arguments name: a file, a substitute, or ``--generate``."""
    if (args.instance is None) == (args.generate is None):
        raise OptionError("give exactly one instance: a FILE, a substitute name, or --generate small|large")
    if args.generate is not None:
        return generate_instance(args.generate, args.types, seed=args.seed)
    if os.path.exists(args.instance):
        return read_instance(args.instance)
    if args.instance.removesuffix("-substitute") in SUBSTITUTES:
        return substitute_instance(args.instance)
    raise OptionError(f"{args.instance!r} is neither a file nor a substitute name ({', '.join(sorted(SUBSTITUTES))})")


def _show(instance: Instance, packing: Packing) -> None:
    print(f"{'#':>4} {'type':>4} {'in':>4} {'x':>10} {'y':>10} {'r_ext':>8} {'r_int':>8} {'value':>8}")
    for j, (kind, holder, x, y) in enumerate(packing.rows()):
        where = "box" if holder < 0 else str(holder)
        print(f"{j:>4} {kind:>4} {where:>4} {x:>10.3f} {y:>10.3f} {instance.r_ext[kind]:>8g} "
              f"{instance.r_int[kind]:>8g} {instance.value[kind]:>8g}")


def run(args: argparse.Namespace) -> int:
    instance = load_instance(args)
    if args.write:
        write_instance(instance, args.write)
    if not args.time > 0:
        raise OptionError(f"--time must be > 0, got {args.time}")
    if args.rcl is not None and args.rcl < 1:
        raise OptionError(f"--rcl must be >= 1, got {args.rcl}")
    if args.tubes < 1:
        raise OptionError(f"--tubes must be >= 1, got {args.tubes}")
    print(f"{instance.name}: container {instance.width:g} x {instance.height:g}, {instance.types} tube types, "
          f"{instance.tubes} tubes")
    progress = None if args.no_progress else "auto"
    cpu = time.process_time()
    outcome = solve(instance, args.method, time_limit=args.time, seed=args.search_seed, rcl=args.rcl,
                    tubes=args.tubes, cp=args.cp, clock=args.clock, progress=progress)
    packing, value = outcome.packing, outcome.value
    extra = {"sg": "", "ms": f", {outcome.simulations} constructions",
             "mcts": f", {outcome.simulations} iterations"}[args.method]
    cpu = time.process_time() - cpu
    if outcome.stopped == "interrupt":
        raise KeyboardInterrupt
    nested = sum(1 for h in packing.holders if h >= 0)
    print(f"{args.method}: value {value:.12g}, {len(packing)} tubes placed ({nested} telescoped), "
          f"{cpu:.2f} CPU s{extra}")
    if args.show:
        _show(instance, packing)
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(packing_svg(instance, packing))
    return 0
