"""Polynomials in pieces through the front end too (issue 35): operations and the emitted code's accuracy, both ways.

``optimize`` of SymPy input that is one polynomial region in symbols and pieces (the pendulum sets) runs the
polynomial pipeline and, up to ``pipeline.WRITTEN_PIECES_LIMIT`` operations as written, the expression front end,
keeping the cheaper.  For each set this prints the result's operations and the largest relative error of its emitted
Python code (``codegen.to_python``, doubles) at 20 random points (half in [0.5, 2], half in [-1.6, 1.6]) against a
30-digit evaluation of the input, with the front end (the default) and without it (``WRITTEN_PIECES_LIMIT = 0``).

    python benchmarks/pieces_accuracy.py [--out benchmarks/results/pieces_accuracy.txt]
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import sympy

import hornermcts
import hornermcts.pipeline as pipeline
from hornermcts import codegen

sys.path.insert(0, str(Path(__file__).parent))
from structured import SETS, load_set, n_link_pendulum  # noqa: E402


def largest_error(result, exprs, points, exact) -> float:
    """The emitted Python code's largest relative error at ``points`` against the 30-digit values ``exact``."""
    function = codegen.load_python(codegen.to_python(result))
    args = codegen.input_symbols(result)
    worst = 0.0
    for point, values in zip(points, exact):
        got = function([float(point[a]) for a in args])
        got = got if isinstance(got, (tuple, list)) else [got]
        for v, e in zip(got, values):
            if e != 0:
                worst = max(worst, float(abs((sympy.Float(v, 30) - e) / e)))
    return worst


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    sets = {"pendulum5 forcing": load_set(SETS["pendulum5 forcing"]),
            "pendulum5 Jacobian": load_set(SETS["pendulum5 Jacobian"]),
            "n-link pendulum 3": n_link_pendulum(3), "n-link pendulum 5": n_link_pendulum(5)}
    rng = random.Random(3)
    lines = ["# python benchmarks/pieces_accuracy.py: optimize, default, seed 0; operations of the result and the",
             "# largest relative error of its emitted Python code at 20 random points against 30 digits",
             f"{'input':<20} {'with the front end':>30} {'polynomial path only':>30}"]
    limit = pipeline.WRITTEN_PIECES_LIMIT
    for name, exprs in sets.items():
        symbols = sorted(set().union(*(e.free_symbols for e in exprs)), key=str)
        points = [{s: sympy.Rational(rng.randint(32, 128) if k % 2 == 0 else rng.randint(-100, 100), 64)
                   for s in symbols} for k in range(20)]
        exact = [[sympy.N(e.xreplace(p), 30) for e in exprs] for p in points]
        cells = []
        for pieces_limit in (limit, 0):
            pipeline.WRITTEN_PIECES_LIMIT = pieces_limit
            try:
                result = hornermcts.optimize(exprs, seed=0)
            finally:
                pipeline.WRITTEN_PIECES_LIMIT = limit
            cells.append(f"{result.after.total} ops, {largest_error(result, exprs, points, exact):.2g}")
        lines.append(f"{name:<20} {cells[0]:>30} {cells[1]:>30}")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
