"""Complete Latin squares by Sampling, NRPA or GNRPA, and learn the Dual prior.

``hornermcts latin FILE`` reads an instance (the order, then the rows, ``.``
for a blank; optionally a solution); ``--generate`` makes one instead
(``--order``, ``--blanks``, ``--seed``).  ``--method`` runs Sampling (with
``--prior``: Sampling with the prior), NRPA or GNRPA (``--prior`` required)
for at most ``--playouts`` playouts, stopping at the first solution, which
is verified by the independent checker and printed with ``--show``.
``--learn-prior OUT`` learns the Dual prior from ``--training`` generated
solved problems (seeds from ``--training-seed``) and writes it as JSON;
alone, it only learns.  ``--write FILE`` saves the instance.

Exit status: 0 when solved (or only learning), 1 when the budget ran out
first; errors print one line and exit with status 2.
"""
from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from ...errors import OptionError
from ...search.prior import Prior
from .instance import generate, read_instance, write_instance
from .prior import TRAINING_SEED, learn_prior
from .problem import CALIBRATED, CHANNELING, LatinSquareCompletion
from .solve import LEVEL, METHODS, PER_LEVEL, TEMPERATURE, search, search_seed

__all__ = ["add_arguments", "run", "add_search_arguments", "run_search", "learn_and_save"]


def add_search_arguments(parser: argparse.ArgumentParser, *, default_training: int = 10_000) -> None:
    """The options shared by ``hornermcts latin`` and ``hornermcts kakuro``: search, prior, output."""
    search_group = parser.add_argument_group("search")
    search_group.add_argument("--method", choices=METHODS, default="sampling", help="default sampling")
    search_group.add_argument("--playouts", type=int, default=1024, help="playout budget (default 1024)")
    search_group.add_argument("--prior", metavar="FILE", default=None,
                              help="a prior (JSON) for sampling or gnrpa (gnrpa needs one)")
    search_group.add_argument("--temperature", type=float, default=TEMPERATURE,
                              help=f"tau of the prior (default {TEMPERATURE:g})")
    search_group.add_argument("--search-seed", type=int, default=None,
                              help="seed of the search (default: derived from --seed, another stream)")
    search_group.add_argument("--level", type=int, default=LEVEL, help=f"nrpa/gnrpa level (default {LEVEL})")
    search_group.add_argument("--per-level", type=int, default=PER_LEVEL,
                              help=f"nrpa/gnrpa iterations per level, N (default {PER_LEVEL})")
    learn = parser.add_argument_group("prior learning")
    learn.add_argument("--learn-prior", metavar="OUT", default=None,
                       help="learn the prior by Replay of generated solved problems and write it to OUT")
    learn.add_argument("--training", type=int, default=default_training,
                       help=f"--learn-prior: generated problems (default {default_training})")
    learn.add_argument("--training-seed", type=int, default=TRAINING_SEED,
                       help=f"--learn-prior: seed of the first one (default {TRAINING_SEED})")
    out = parser.add_argument_group("output")
    out.add_argument("--write", metavar="FILE", default=None, help="also write the instance to FILE")
    out.add_argument("--show", action="store_true", help="print the instance and the grid found")
    out.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_argument_group("instance")
    source.add_argument("file", nargs="?", help="an instance: the order, then the rows ('.' blank)")
    source.add_argument("--generate", action="store_true", help="a generated instance instead of a file")
    source.add_argument("--order", type=int, default=20, help="--generate: the order n (default 20)")
    source.add_argument("--blanks", type=float, default=0.42, help="--generate: fraction blanked (default 0.42)")
    source.add_argument("--seed", type=int, default=0, help="seed of --generate (default 0)")
    source.add_argument("--channeling", choices=tuple(CHANNELING), default=CALIBRATED,
                        help=f"channeling strength of the playout (default {CALIBRATED}, the calibrated one)")
    add_search_arguments(parser)


def learn_and_save(learn: Callable[[Any], Prior], make: Callable[[int], Any], args: argparse.Namespace) -> None:
    """``--learn-prior``: learn on ``make(seed)`` for the training seeds, save, say what was learned."""
    if args.training < 1:
        raise OptionError(f"--training must be >= 1, got {args.training}")
    start = time.process_time()
    prior = learn(make(seed) for seed in range(args.training_seed, args.training_seed + args.training))
    prior.save(args.learn_prior)
    print(f"prior learned from {args.training} generated problems (seeds {args.training_seed}.."
          f"{args.training_seed + args.training - 1}): {len(prior)} codes, {sum(prior.count.values())} solution "
          f"moves, {time.process_time() - start:.1f} s CPU; written to {args.learn_prior}")


def run_search(problem: Any, args: argparse.Namespace, *, target: float, check: Callable[[Any], list]) -> int:
    """Run ``--method`` on ``problem``, report, verify a solution with ``check(grid) -> violations``."""
    if args.playouts < 1:
        raise OptionError(f"--playouts must be >= 1, got {args.playouts}")
    prior = None
    if args.prior is not None:
        prior = Prior.load(args.prior)
        checker = getattr(problem, "check_prior", None)
        if checker is not None:
            checker(prior)
        elif any(not (isinstance(c, int) and 0 <= c < problem.prior_code_count) for c in prior.nb):
            raise OptionError(f"{args.prior}: codes outside this problem's {problem.prior_code_count} prior codes "
                              "(learned for another order?)")
    elif args.method == "gnrpa":
        raise OptionError("--method gnrpa needs --prior FILE (write one with --learn-prior)")
    if args.method == "nrpa" and prior is not None:
        raise OptionError("--method nrpa runs without a prior (gnrpa is NRPA with the prior's bias)")
    progress = None if args.no_progress else "auto"
    result = search(problem, args.method, playouts=args.playouts, target=target, prior=prior,
                    temperature=args.temperature, level=args.level, per_level=args.per_level,
                    seed=search_seed(args.seed) if args.search_seed is None else args.search_seed, progress=progress)
    label = args.method + (" with the prior" if prior is not None and args.method == "sampling" else "")
    if result.reached is not None:
        grid = problem.grid(result.best_state)
        problems = check(grid)
        if problems:
            raise AssertionError(f"the search's solution fails the checker: {problems[0]}")
        print(f"solved by {label} after {result.reached} playouts ({result.elapsed:.2f} s); "
              "the checker accepts it")
    else:
        print(f"not solved by {label} within {result.iterations} playouts ({result.elapsed:.2f} s): "
              f"best score {result.best_value:g}")
    if args.show:
        print(problem.render(result.best_state))
    return 0 if result.reached is not None else 1


def run(args: argparse.Namespace) -> int:
    if args.learn_prior is not None:
        learn_and_save(lambda items: learn_prior(items, channeling=args.channeling),
                       lambda seed: generate(args.order, blanks=args.blanks, seed=seed), args)
        if args.file is None and not args.generate:
            return 0
    if (args.file is None) == (not args.generate):
        raise OptionError("give exactly one instance: FILE or --generate")
    if args.generate:
        name = f"generated order {args.order}, {args.blanks:g} blank (seed {args.seed})"
        instance = generate(args.order, blanks=args.blanks, seed=args.seed)
    else:
        name, instance = args.file, read_instance(args.file)
    if args.write:
        write_instance(args.write, instance)
    print(f"{name}: order {instance.order}, {instance.blank_count} blanks, channeling {args.channeling}")
    if args.show:
        print(instance.render())
    problem = LatinSquareCompletion(instance, channeling=args.channeling)
    from .checker import violations

    return run_search(problem, args, target=0.0, check=lambda grid: violations(instance.givens, grid))
