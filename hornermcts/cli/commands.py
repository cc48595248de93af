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
import time
from collections.abc import Sequence

from ..errors import HornerMCTSError, visible
from .status_line import StatusLine, may_show

#: When the command started (this module is the first the ``hornermcts`` script
#: imports): ``--time-limit`` counts from here, module loading included.
STARTED = time.perf_counter()

__all__ = ["main", "SUBCOMMANDS"]

#: subcommand -> (module, one-line help); each module has add_arguments(parser) and run(args)
SUBCOMMANDS = {
    "optimize": ("hornermcts.cli.optimize", "optimize a polynomial: Horner scheme by MCTS, CSE, summary"),
    "samegame": ("hornermcts.domains.samegame.cli", "play SameGame / Clickomania / Bubble Breaker boards"),
    "partition": ("hornermcts.domains.number_partitioning.cli", "number partitioning: KK, complete-KK DFS, MCTS"),
    "stacking": ("hornermcts.domains.stacking.cli", "the stacking problem: FO simulation, MS, MCTS"),
    "circles": ("hornermcts.domains.circle_packing.cli", "recursive circle packing: semi-greedy, MS, MCTS"),
    "knapsack": ("hornermcts.domains.knapsack.cli", "0/1 knapsack: dynamic programming, MCTS with the LP bound"),
    "latin": ("hornermcts.domains.latin_square.cli", "Latin square completion: Sampling, NRPA, GNRPA, Dual prior"),
    "kakuro": ("hornermcts.domains.kakuro.cli", "Kakuro from row and column sums: Sampling, NRPA, GNRPA, prior"),
    "rna": ("hornermcts.domains.rna_design.cli", "inverse RNA folding (Eterna100): Sampling, NRPA, GNRPA, NGRAM prior"),
}


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (the top-level options take no value).

    >>> _command(["--version"]), _command(["optimize", "poly.txt", "-n", "5"])
    (None, 'optimize')
    """
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv`` (default ``sys.argv[1:]``).

    Only the subcommand that ``argv`` names is imported and given its
    arguments; the others are listed with their one-line help, so that
    ``hornermcts optimize`` does not load every domain.
    """
    command = _command(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="hornermcts",
        description="Multivariate Horner schemes by Monte Carlo Tree Search, with CSE and code generation.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"hornermcts {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        if name != command:
            sub.add_parser(name, help=help_text)
            continue
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (module + ".").startswith(exc.name + "."):
                raise  # a module the subcommand imports is missing: a real error
            continue  # not installed: argparse says the choice is invalid
        p = sub.add_parser(name, help=help_text, description=(mod.__doc__ or help_text).strip().split("\n\n")[0])
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv=None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); the exit status.

    On a terminal (and without ``--no-progress`` or ``--json``) a status
    line says ``loading hornermcts COMMAND ...`` from the start, while the
    subcommand's modules load (SymPy and Numba take about a second); the
    subcommand's own status lines follow.  Called without ``argv`` (the
    ``hornermcts`` command, ``python -m hornermcts``), the process is the
    command's own: ``--time-limit T`` then ends it at T + 10 % + 1 s with a
    one-line error and status 2 if no answer is out by then
    (:func:`~hornermcts.cli.optimize.run`); a caller passing ``argv`` keeps
    its process.
    """
    own_process = argv is None  # the command itself, not a caller in its process: --time-limit may end it
    argv = sys.argv[1:] if argv is None else list(argv)
    command = _command(argv)
    line = StatusLine(sys.stderr) if command in SUBCOMMANDS and may_show(argv) else None
    try:
        try:
            if line is not None:
                line(f"loading hornermcts {command} ...")
            parser = build_parser(argv)
        finally:
            if line is not None:
                line.clear()  # before argparse prints a usage, help or error
        args = parser.parse_args(argv)
        if not getattr(args, "_run", None):
            parser.print_help()
            return 2
        args._started = STARTED  # this module's: under ``python -m`` it is __main__, not hornermcts.cli
        args._own_process = own_process
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("hornermcts: interrupted", file=sys.stderr)
        return 130
    except (HornerMCTSError, OSError) as exc:
        print(f"hornermcts: error: {visible(str(exc))}", file=sys.stderr)  # control characters escaped
        return 2


if __name__ == "__main__":
    sys.exit(main())
