"""Optimize a polynomial read from FILE (FORM or SymPy syntax, ``-`` for stdin).

Finds a Horner scheme (by default: SA-UCT Monte Carlo Tree Search, refined by
simulated annealing), eliminates common subexpressions, applies the greedy
optimizations, and prints the operation counts before and after (FORM's cost
model), the time and the order.  --preset picks the usual combinations,
like FORM's levels: fast (O1), greedy (O2), mcts (O3), anneal (O4), default.  With --emit it also
writes evaluation code (to -o FILE, or to standard output with the table on
standard error); with --json the summary is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import sys

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from . import options
    from .codegen import LANGUAGES, PRECISION_SUPPORT

    parser.add_argument("file", help="polynomial file in FORM (^) or SymPy (**) syntax, or - for stdin")
    options.add_arguments(parser)  # one flag per field of hornermcts.Options
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--emit", choices=LANGUAGES, help="generate evaluation code in this language")
    parser.add_argument("-o", "--output", help="write the generated code to this file (default: standard output)")
    parser.add_argument("--name", default="f", help="name of the generated function (default f)")
    precisions = list(dict.fromkeys(p for supported in PRECISION_SUPPORT.values() for p in supported))
    parser.add_argument("--precision", choices=precisions, default="double",
                        help="arithmetic of the code (default double): long double for C/Fortran; compensated "
                             "(double-double, doubles in and out, ~1e-16 relative error) for C/Python/NumPy")


def _read(path: str):
    from .parse import from_text, read_file

    if path == "-":
        return from_text(sys.stdin.read(), name="<stdin>")
    return read_file(path)


def run(args: argparse.Namespace) -> int:
    from .optimize import optimize
    from .options import from_arguments

    options = from_arguments(args)  # checked before the input is read
    poly = _read(args.file)
    progress = None if args.no_progress or args.json else "auto"
    result = optimize(poly, options, progress=progress)
    code = None
    if args.emit:
        from .codegen import emit

        code = emit(result, args.emit, name=args.name, precision=args.precision)
        if args.output:
            with open(args.output, "w") as fh:
                fh.write(code)
            code = None
    report = sys.stderr if code is not None else sys.stdout
    if args.json:
        print(json.dumps({
            "terms": poly.n_terms,
            "variables": [str(s) for s in poly.symbols],
            "before": result.before.as_dict(),
            "after": result.after.as_dict(),
            "form": result.form,
            "horner_cse": result.cse.as_dict(),
            "baselines": result.baselines,
            "order": [str(s) for s in result.order],
            "seconds": round(result.seconds, 4),
            "iterations": result.iterations,
            "options": {k: v for k, v in result.options.items() if not callable(v)},
        }), file=report)
    else:
        print(f"{args.file}: {poly.n_terms} terms, {poly.n_vars} variables", file=report)
        print(result.summary(), file=report)
    if code is not None:
        sys.stdout.write(code)
    return 0
