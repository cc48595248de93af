"""Accuracy of ``hornermcts.cse`` on expressions as written: folded angle sums, the same without, the same
without the sharing rounds over the assembled statements (``expression.sharing``), and sympy.cse.

Each answer is evaluated in double precision (``math``) at 10 points (half in [0.5, 2], half in [-1, 1])
against a 30-digit evaluation of the input; the largest relative error is printed.

Usage::

    python benchmarks/structured_accuracy.py [--out benchmarks/results/structured_accuracy.txt]
"""
from __future__ import annotations

import argparse
import functools
import random
import sys
from pathlib import Path

import sympy

import hornermcts
import hornermcts.expression.written as written

sys.path.insert(0, str(Path(__file__).parent))
from structured import load_set  # noqa: E402


def _function(expr):
    args = sorted(expr.free_symbols, key=str)
    return sympy.lambdify(args, expr, "math"), args


def relative_error(exprs, replacements, reduced, points) -> float:
    """The largest relative error of the assignments evaluated in doubles, against 30 digits."""
    symbols = sorted(set().union(*(e.free_symbols for e in exprs)), key=str)
    statements = [(s, *_function(rhs)) for s, rhs in replacements]
    outputs = [_function(e) for e in reduced]
    worst = 0.0
    for point in points:
        env = dict(point)
        for s, f, args in statements:
            env[s] = f(*[env[a] for a in args])
        for e, (f, args) in zip(exprs, outputs):
            exact = sympy.N(e.xreplace({s: sympy.Float(point[s], 30) for s in symbols}), 30)
            worst = max(worst, float(abs(f(*[env[a] for a in args]) - exact) / max(abs(exact), 1e-300)))
    return worst


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    lines = []
    unfolded = functools.partial(written.regions, angle_sums=False)
    folded = written.regions
    for name in ("pydy_pendulum5_forcing", "pydy_pendulum5_jacobian", "gait2d_row10", "gait2d_rows9_17"):
        exprs = load_set(name)
        symbols = sorted(set().union(*(e.free_symbols for e in exprs)), key=str)
        rng = random.Random(0)
        points = [{s: rng.uniform(-1, 1) if k % 2 else rng.uniform(0.5, 2) for s in symbols} for k in range(10)]
        row = [name]
        for label, regions in (("angle sums folded", folded), ("as written", unfolded)):
            written.regions = regions
            try:
                row.append(f"{label} {relative_error(exprs, *hornermcts.cse(exprs), points):.2e}")
            finally:
                written.regions = folded
        sharing = written.share_across
        written.share_across = lambda statements, outputs: (statements, outputs, written.count(statements, outputs))
        try:
            row.append(f"no sharing rounds {relative_error(exprs, *hornermcts.cse(exprs), points):.2e}")
        finally:
            written.share_across = sharing
        row.append(f"sympy.cse {relative_error(exprs, *sympy.cse(exprs), points):.2e}")
        lines.append(" | ".join(row))
        print(lines[-1], flush=True)
    if args.out:
        args.out.write_text("# python benchmarks/structured_accuracy.py: largest relative error in doubles\n\n"
                            + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
