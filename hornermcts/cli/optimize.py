"""Optimize a polynomial read from FILE (FORM or SymPy syntax, ``-`` for stdin).

Finds a Horner scheme (by default: SA-UCT Monte Carlo Tree Search, refined by
simulated annealing), eliminates common subexpressions, applies the greedy
optimizations, and prints the operation counts before and after (FORM's cost
model), the time and the order.  --preset picks the usual combinations,
like FORM's levels: fast (O1), greedy (O2), mcts (O3), anneal (O4), default.  With --emit it also
writes evaluation code (to -o FILE, or to standard output with the table on
standard error); with --json the summary is one JSON object.

On a terminal, standard error shows one status line from the start: the
phase the command is in (reading the file, compiling the kernels on a first
run, new variables, factoring, searching, building the DAGs, greedy,
accuracy, writing the code) and, once a phase has run 2 s, its seconds so
far; a search shows its progress bar below it.  --no-progress and --json
keep it silent, as does a non-terminal.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from .status_line import Phases, StatusLine, shows_status

__all__ = ["add_arguments", "run", "hard_stop"]

#: Time kept back for writing the code (``--emit`` with ``--time-limit``), per operation of the program:
#: ``optimize`` keeps it as soon as it holds one (:meth:`~hornermcts.deadline.Deadline.keep_for`).  Measured
#: on a loaded machine (load 3.5) on res(8,6) (130,733 operations) and a random 60,000-term input in 40
#: variables (87,043): 77-204 thousand operations a second in C, Python, NumPy and Fortran, 71-73 thousand
#: in compensated C; kept at 50,000 a second.
EMIT_SECONDS_PER_OPERATION = 2e-5
#: Seconds of the command outside its clock: Python's start before the first
#: import, and the interpreter's exit after the summary (0.1-0.3 s measured).
OUTSIDE_SECONDS = 0.2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from .. import options
    from ..codegen import LANGUAGES, PRECISION_SUPPORT

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


def _read(path: str, deadline=None, max_terms=None):
    """What ``path`` holds (``-``: standard input), and the name its ``NAME =`` header gives it, if any.

    An expression that is more than one polynomial region as written
    (products or calls of sums: :func:`~hornermcts.expression.regions.structured`)
    comes back as the SymPy expression it writes, for the expression front
    end (:func:`~hornermcts.parse.written_text.as_written`); anything else
    as the :class:`~hornermcts.polynomial.Polynomial` the text parser reads.
    """
    from ..expression.regions import structured
    from ..parse import from_text, read_file
    from ..parse.text import expression_name
    from ..parse.written_text import MAX_WRITTEN_CHARACTERS, as_written

    text = sys.stdin.read() if path == "-" else None
    if text is None and os.path.getsize(path) <= MAX_WRITTEN_CHARACTERS:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            text = fh.read()
    written = as_written(text) if text is not None else None
    if written is not None and structured([written]):
        where = "<stdin>" if path == "-" else path
        return written, expression_name(text.split("\n"), where)
    if path == "-":
        return (from_text(text, name="<stdin>", deadline=deadline, max_terms=max_terms),
                expression_name(text.split("\n"), "<stdin>"))
    poly = read_file(path, deadline=deadline, max_terms=max_terms)
    with open(path, encoding="utf-8-sig", errors="replace") as fh:  # read_file has checked the bytes
        return poly, expression_name(fh, path)


def _check_output(path: str | None) -> None:
    """Fail now, not after the search, if ``-o PATH`` cannot be written (an OSError naming it)."""
    if path is None:
        return
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise IsADirectoryError(f"-o {path}: is a directory")
    if not folder.is_dir():
        raise FileNotFoundError(f"-o {path}: no directory {str(folder)!r}")
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise PermissionError(f"-o {path}: not writable")


def _described(path: str, poly, name) -> str:
    """The summary's first line: the input, the expression's name and line if it has one, its size.

    >>> from hornermcts.parse import from_text
    >>> _described("-", from_text("x = 3"), ("x", 1))
    '<stdin>: expression x (line 1): 1 term, 0 variables'
    >>> _described("poly.txt", from_text("x^2 + y"), None)
    'poly.txt: 2 terms, 2 variables'
    """
    where = "<stdin>" if path == "-" else path
    named = f"expression {name[0]} (line {name[1]}): " if name else ""
    if not hasattr(poly, "n_terms"):  # a SymPy expression as written
        from ..cost.counting import expression_count

        ops, n = expression_count(poly).total, len(poly.free_symbols)
        return f"{where}: {named}as written, {ops} operations, {n} variable{'' if n == 1 else 's'}"
    terms = f"{poly.n_terms} term{'' if poly.n_terms == 1 else 's'}"
    return f"{where}: {named}{terms}, {poly.n_vars} variable{'' if poly.n_vars == 1 else 's'}"


def _kernel_cache() -> str | None:
    """Where Numba caches the fast counter's kernels (None if Numba's JIT is off)."""
    from numba.core.dispatcher import Dispatcher

    from ..cost import fast_counter as fastcount

    kernels = [v for v in vars(fastcount).values() if isinstance(v, Dispatcher)]
    return kernels[0].stats.cache_path if kernels else None


def _prepare_kernels(poly, status) -> None:
    """Load the fast counter for ``poly`` from Numba's disk cache, or compile it, saying which."""
    from ..cost.fast_counter import FastCounter
    from ..cost.kernels import announcing

    folder = _kernel_cache()
    if not hasattr(poly, "n_terms"):  # an expression as written: its regions are polynomials, the same kernels
        from ..parse import from_text

        poly = from_text("x*y + x + 1")
    if folder is None or not (poly.n_terms and poly.n_vars):
        return
    from numba import config

    where = config.CACHE_DIR or folder  # NUMBA_CACHE_DIR, or Numba's choice (beside the sources if writable)
    home = str(Path.home())
    where = "~" + where[len(home):] if where.startswith(home + os.sep) else where
    status(f"loading compiled kernels from {where}")
    with announcing(lambda text: status(f"compiling kernels (first run only, cached in {where})")):
        FastCounter(poly).count(range(poly.n_vars))  # the same argument types as the search's counter


def run(args: argparse.Namespace) -> int:
    phases = Phases(StatusLine(sys.stderr)) if shows_status(args) else None
    from ..deadline import Deadline
    from ..cost.kernels import announcing
    from ..pipeline import optimize
    from ..options import from_arguments

    options = from_arguments(args)  # checked before the input is read
    _check_output(args.output)
    deadline = Deadline(options.time_limit, start=getattr(args, "_started", None))  # the command's start
    deadline.phases = phases  # every phase on the status line, with its seconds after 2 s
    stop = hard_stop(options.time_limit, deadline, phases) if getattr(args, "_own_process", False) else None
    try:
        deadline.phase(f"reading {'standard input' if args.file == '-' else args.file}")
        poly, name = _read(args.file, deadline, options.max_terms)
        if phases is not None:
            _prepare_kernels(poly, phases)
        budget = deadline.before(OUTSIDE_SECONDS, per_operation=EMIT_SECONDS_PER_OPERATION if args.emit else 0.0)
        with announcing(phases or (lambda text: None)):  # a rarer kernel compiling now: on the line, or quiet
            result = optimize(poly, options, progress=None if phases is None else "auto", deadline=budget)
        code = None
        if args.emit:
            from ..codegen import emit

            deadline.phase(f"writing {args.emit} code")
            code = emit(result, args.emit, name=args.name, precision=args.precision)
    except BaseException:
        if stop is not None:
            stop.cancel()  # an error of its own is on its way out
        raise
    finally:
        if phases is not None:
            phases.close()
    if code is not None and args.output:
        _write_whole(args.output, code)
        code = None
    report = sys.stderr if code is not None else sys.stdout
    if args.json:
        from sympy import default_sort_key as sympy_key

        print(json.dumps({
            "expression": None if name is None else name[0],
            "terms": getattr(poly, "n_terms", None),  # None: an expression as written
            "variables": [str(s) for s in (poly.symbols if hasattr(poly, "symbols")
                                           else sorted(poly.free_symbols, key=sympy_key))],
            "before": result.before.as_dict(),
            "after": result.after.as_dict(),
            "form": result.form,
            "horner_cse": result.cse.as_dict(),
            "baselines": result.baselines,
            "order": [str(s) for s in result.order],
            "new_variables": {str(s): str(form) for s, form in result.variables.items()},
            "relative_error": result.relative_error,
            "seconds": round(result.seconds, 4),
            "iterations": result.iterations,
            "options": {k: v for k, v in result.options.items() if not callable(v)},
        }), file=report)
    else:
        print(_described(args.file, poly, name), file=report)
        print(result.summary(), file=report)
    if code is not None:
        sys.stdout.write(code)
    if stop is not None:
        stop.cancel()
    return 0


def hard_stop(limit: float | None, deadline, phases) -> threading.Timer | None:
    """End this process at ``limit`` + 10 % + 1 s from the command's start, if no answer is out by then.

    The stages stop at the deadline with the best they have, but what any
    answer needs (reading the input, the first Horner scheme, writing the
    code) runs to its end, and on a large input takes longer than a short
    limit: then the command stops with a one-line error naming the phase
    still running and exit status 2, its forked workers ended, no output
    file written (:func:`_write_whole`).
    """
    if limit is None:
        return None
    hard = 1.1 * limit + 1.0
    started = deadline.at - limit

    def stop() -> None:
        if phases is not None:
            phases.stopped.set()
            phases.line.clear()
        for child in multiprocessing.active_children():
            child.terminate()
        phase = deadline.current or "loading its modules"
        sys.stderr.write(f"hornermcts: error: --time-limit {limit:g}: no answer within {hard:.1f} s (the limit + 10 % "
                         f"+ 1 s): {phase} was still running; what any answer needs takes longer on this input: "
                         f"raise the limit\n")
        sys.stderr.flush()
        os._exit(2)

    # OUTSIDE_SECONDS early: the interpreter's start before the command's clock, and its end
    timer = threading.Timer(max(started + hard - OUTSIDE_SECONDS - time.perf_counter(), 0.0), stop)
    timer.daemon = True
    timer.start()
    return timer


def _write_whole(path: str, text: str) -> None:
    """Write ``path`` whole or not at all (a temporary file beside it, renamed)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".hornermcts-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
