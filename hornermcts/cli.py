"""The ``hornermcts`` command line.

``hornermcts optimize FILE`` optimizes a polynomial read from a file in FORM or
SymPy syntax (``-`` for standard input) and prints a before/after table.
Other subcommands live in the module that owns their domain and register
here through :data:`SUBCOMMANDS` (``add_arguments(parser)`` and ``run(args)``).

Errors caused by the input or the options (:class:`~hornermcts.errors.HornerMCTSError`,
and OSError for files) print one line on standard error and exit with status
2; an interrupt exits with 130.  Anything else is a bug and shows its
traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from .errors import HornerMCTSError

__all__ = ["main", "SUBCOMMANDS"]

#: subcommand -> (module, one-line help); each module has add_arguments(parser) and run(args)
SUBCOMMANDS = {
    "optimize": ("hornermcts.cli_optimize", "optimize a polynomial: Horner scheme by MCTS, CSE, summary"),
    "samegame": ("hornermcts.domains.samegame.cli", "play SameGame / Clickomania / Bubble Breaker boards"),
    "partition": ("hornermcts.domains.number_partitioning.cli", "number partitioning: KK, complete-KK DFS, MCTS"),
    "stacking": ("hornermcts.domains.stacking.cli", "the stacking problem: FO simulation, MS, MCTS"),
    "circles": ("hornermcts.domains.circle_packing.cli", "recursive circle packing: semi-greedy, MS, MCTS"),
    "knapsack": ("hornermcts.domains.knapsack.cli", "0/1 knapsack: dynamic programming, MCTS with the LP bound"),
    "latin": ("hornermcts.domains.latin_square.cli", "Latin square completion: Sampling, NRPA, GNRPA, Dual prior"),
    "kakuro": ("hornermcts.domains.kakuro.cli", "Kakuro from row and column sums: Sampling, NRPA, GNRPA, prior"),
    "rna": ("hornermcts.domains.rna_design.cli", "inverse RNA folding (Eterna100): Sampling, NRPA, GNRPA, NGRAM prior"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hornermcts",
        description="Multivariate Horner schemes by Monte Carlo Tree Search, with CSE and code generation.",
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"hornermcts {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (module + ".").startswith(exc.name + "."):
                raise  # a module the subcommand imports is missing: a real error
            continue
        p = sub.add_parser(name, help=help_text, description=(mod.__doc__ or help_text).strip().split("\n\n")[0])
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("hornermcts: interrupted", file=sys.stderr)
        return 130
    except (HornerMCTSError, OSError) as exc:
        print(f"hornermcts: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
