"""Accuracy never traded silently (issue 36, item 6): random inputs that keep new variables, before and after.

    python benchmarks/accuracy.py [--inputs 276] [--seed 0] [--iterations 200] [--out benchmarks/results/accuracy.txt]

Random inputs of degree 8-24 that invite new variables (``tests``-style,
seeded): the expansion of two or three powers of random linear forms with
small integer coefficients in 2-3 variables, plus a few random monomials.
Inputs are drawn until ``--inputs`` of them keep new variables when the
accuracy check is off.  Each is optimized three ways (``--iterations``,
seed 0): **before** (the accuracy check off: what ``optimize`` did before
:mod:`hornermcts.cost.accuracy`), **after** (the default) and **own** (the same
search in the input's own variables, ``substitute=False``).  Each result's
NumPy code is evaluated at 40 points (20 in [0.5, 2], 20 in [-1, 1], not
the points ``optimize`` samples) against the exact rational value; the
script prints how many results lose more than 10x (and 100x) against
**own** (errors below 2^-53 count as 2^-53), the worst case, and the
operations and time of each way.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy

import hornermcts.cost.accuracy as accuracy
from hornermcts import codegen
from hornermcts.pipeline import optimize
from hornermcts.parse import as_polynomial

RESULTS = Path(__file__).resolve().parent / "results"
POINTS = 40


def random_input(rng: np.random.Generator) -> sympy.Expr:
    """A sum of 2-3 powers of linear forms in 2-3 variables, plus up to 3 monomials, of degree 8-24."""
    n = int(rng.integers(2, 4))
    xs = sympy.symbols(f"x1:{n + 1}")
    degree = int(rng.integers(8, 25))
    expr = sympy.Integer(0)
    for k in range(int(rng.integers(2, 4))):
        form = sum(int(rng.choice([-2, -1, 0, 1, 1, 2])) * x for x in xs) or xs[0]
        power = degree if k == 0 else int(rng.integers(1, degree + 1))
        expr += int(rng.integers(1, 6)) * form**power
    for _ in range(int(rng.integers(0, 4))):
        expr += int(rng.integers(-9, 10)) * sympy.Mul(*[x ** int(rng.integers(0, 4)) for x in xs])
    return sympy.expand(expr)


def exact_values(poly, points: np.ndarray) -> list:
    """``poly``'s exact value at each point (its columns in ``poly.symbols`` order)."""
    return [poly.evaluate([Fraction(v) for v in point]) for point in points]


def largest_error(result, poly, points: np.ndarray, exact: list) -> float:
    """The result's NumPy code's largest relative error against ``poly``'s exact values ``exact`` at ``points``."""
    symbols = codegen.input_symbols(result)
    columns = [poly.symbols.index(s) for s in symbols]
    values = codegen.load_python(codegen.to_numpy(result))(points[:, columns])
    worst = 0.0
    for value, e in zip(values, exact):
        if not np.isfinite(value):
            return float("inf")
        if e == 0:
            worst = max(worst, 0.0 if value == 0 else float("inf"))
        else:
            worst = max(worst, float(abs(Fraction(value) - e) / abs(e)))
    return worst


def unchecked(dag, reference) -> bool:
    """``no_worse`` switched off: every transformation kept (what ``optimize`` did before the accuracy check)."""
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=276)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--points", type=int, default=POINTS, help=f"evaluation points per input (default {POINTS}; "
                        f"more are drawn after the same first {POINTS})")
    parser.add_argument("--out", default=str(RESULTS / "accuracy.txt"))
    args = parser.parse_args(argv)
    stages = importlib.import_module("hornermcts.pipeline")
    checked = stages.no_worse
    rng = np.random.default_rng(args.seed)
    rows, drawn = [], 0
    seconds = {"before": 0.0, "after": 0.0, "own": 0.0}
    start = time.perf_counter()
    while len(rows) < args.inputs:
        expr = random_input(rng)
        drawn += 1
        poly = as_polynomial(expr)
        stages.no_worse = unchecked  # before: no accuracy check
        t = time.perf_counter()
        before = optimize(expr, iterations=args.iterations, seed=0)
        seconds["before"] += time.perf_counter() - t
        stages.no_worse = checked
        if not before.variables:
            continue
        t = time.perf_counter()
        after = optimize(expr, iterations=args.iterations, seed=0)
        seconds["after"] += time.perf_counter() - t
        t = time.perf_counter()
        own = optimize(expr, iterations=args.iterations, seed=0, substitute=False)
        seconds["own"] += time.perf_counter() - t
        points = np.concatenate([rng.uniform(0.5, 2, (POINTS // 2, len(codegen.input_symbols(own)))),
                                 rng.uniform(-1, 1, (POINTS - POINTS // 2, len(codegen.input_symbols(own))))])
        points = points[:, [codegen.input_symbols(own).index(s) for s in poly.symbols]]  # poly's column order
        if args.points > POINTS:  # more points after the same first ones (the committed runs' points)
            extra = np.random.default_rng([args.seed, drawn])
            points = np.concatenate([points, extra.uniform(0.5, 2, ((args.points - POINTS) // 2, poly.n_vars)),
                                     extra.uniform(-1, 1, (args.points - POINTS - (args.points - POINTS) // 2,
                                                           poly.n_vars))])
        exact = exact_values(poly, points)
        errors = {name: max(largest_error(r, poly, points, exact), accuracy.UNIT)
                  for name, r in (("before", before), ("after", after), ("own", own))}
        rows.append((drawn, poly.n_terms, errors,
                     {"before": before.after.total, "after": after.after.total, "own": own.after.total},
                     bool(after.variables)))
    lines = [f"benchmarks/accuracy.py --inputs {args.inputs} --seed {args.seed} --iterations {args.iterations}"
             f"{'' if args.points == POINTS else f' --points {args.points}'}",
             f"{len(rows)} inputs that keep new variables without the accuracy check, of {drawn} drawn; "
             f"{time.perf_counter() - start:.0f} s",
             f"errors: largest relative error of the NumPy code at {args.points} points against the exact value "
             f"(at least 2^-53); 'own': the same search in the input's own variables", ""]
    for name in ("before", "after"):
        ratios = [e[name] / e["own"] for _, _, e, _, _ in rows]
        worst = max(range(len(rows)), key=lambda k: ratios[k])
        lines.append(f"{name:<7} loses >10x: {sum(r > 10 for r in ratios):>4}   "
                     f">100x: {sum(r > 100 for r in ratios):>4}"
                     f"   worst {ratios[worst]:.2g}x ({rows[worst][2][name]:.2g} against {rows[worst][2]['own']:.2g},"
                     f" input {rows[worst][0]})   operations {sum(o[name] for *_, o, _ in rows)}"
                     f"   {seconds[name]:.1f} s")
    lines.append(f"own     operations {sum(o['own'] for *_, o, _ in rows)}   {seconds['own']:.1f} s")
    lines.append(f"after: {sum(kept for *_, kept in rows)} of {len(rows)} keep their new variables")
    lines.append("")
    lines.append(f"{'input':>6} {'terms':>6} {'before':>9} {'after':>9} {'own':>9} {'ops before/after/own':>22}")
    for drawn_at, terms, e, ops, _ in rows:
        lines.append(f"{drawn_at:>6} {terms:>6} {e['before']:>9.2g} {e['after']:>9.2g} {e['own']:>9.2g} "
                     f"{ops['before']:>8}/{ops['after']}/{ops['own']}")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
