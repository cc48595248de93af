"""Solve Kakuro squares given only their row and column sums, by Sampling, NRPA or GNRPA; learn the prior.

``hornermcts kakuro FILE`` reads an instance (``size values``, the column
sums, then each row's sum, optionally followed by its solution values);
``--generate`` makes one instead (``--size``, ``--values``, ``--seed``).
``--method`` runs Sampling (with ``--prior``: Sampling with the prior),
NRPA or GNRPA (``--prior`` required) for at most ``--playouts`` playouts,
stopping at the first solution (score ``2 * size``), which is verified by
the independent checker and printed with ``--show``.  ``--learn-prior
OUT`` learns the prior from ``--training`` generated solved problems and
writes it as JSON; alone, it only learns.  ``--code`` picks the kind of
prior code: ``remaining`` (the default), ``sums`` and ``filled`` are readings
of the paper's sentence, ``hints`` the ablation (hints instead of sums
left); :mod:`hornermcts.domains.kakuro.problem` says which is which.  ``--write FILE`` saves the
instance.

Exit status: 0 when solved (or only learning), 1 when the budget ran out
first; errors print one line and exit with status 2.
"""
from __future__ import annotations

import argparse

from ...errors import OptionError
from ..latin_square.cli import add_search_arguments, learn_and_save, run_search
from .checker import violations
from .instance import generate, read_instance, write_instance
from .prior import learn_prior
from .problem import PRIOR_CODES, Kakuro

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_argument_group("instance")
    source.add_argument("file", nargs="?", help="an instance: 'size values', column sums, row sums")
    source.add_argument("--generate", action="store_true", help="a generated instance instead of a file")
    source.add_argument("--size", type=int, default=10, help="--generate: rows and columns (default 10)")
    source.add_argument("--values", type=int, default=11, help="--generate: values 1..V (default 11)")
    source.add_argument("--seed", type=int, default=0, help="seed of --generate (default 0)")
    source.add_argument("--code", choices=PRIOR_CODES, default="remaining",
                        help="prior code: remaining (default), sums, filled (readings of the paper) or hints "
                        "(the ablation)")
    add_search_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.learn_prior is not None:
        learn_and_save(lambda items: learn_prior(items, code=args.code),
                       lambda seed: generate(args.size, args.values, seed=seed), args)
        if args.file is None and not args.generate:
            return 0
    if (args.file is None) == (not args.generate):
        raise OptionError("give exactly one instance: FILE or --generate")
    if args.generate:
        name = f"generated {args.size}x{args.size}, values 1..{args.values} (seed {args.seed})"
        instance = generate(args.size, args.values, seed=args.seed)
    else:
        name, instance = args.file, read_instance(args.file)
    if args.write:
        write_instance(args.write, instance)
    print(f"{name}: {instance.size}x{instance.size}, values 1..{instance.values}, prior code {args.code}")
    if args.show:
        print(instance.render())
    problem = Kakuro(instance, code=args.code)
    return run_search(problem, args, target=float(2 * instance.size), check=lambda grid: violations(instance, grid))
