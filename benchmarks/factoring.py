"""Factoring the input first: what it gains on products, what it costs on the suite's inputs, in one run.

    python benchmarks/factoring.py [--no-scale] [--out benchmarks/results/factoring.txt]

1. **Products** (expanded before they are given, as a file or a generated
   polynomial would be): FORM O3 and O4 (operations in FORM's emitted code,
   wall time), ours with ``factor=False, substitute=False`` (the input
   optimized whole in its own variables, as before factoring and new
   variables existed; new variables alone find much of a power of a sum's
   structure) and ours by default (``optimize(expr, seed=0)``:
   operations in the emitted C, wall time).  Inputs: a Vandermonde
   determinant (the product of the differences of 7 variables), two sums
   raised to powers, the square of a generic 5x5 determinant (an amplitude
   squared), and the product of two resultants over shared coefficients.
2. **The cost when nothing factors**: on the suite's single-output inputs,
   the seconds :func:`hornermcts.rewrites.factoring.factorization` takes (best of 3)
   beside the default run's wall time, measured in this run.

Every count is read from the emitted code (``benchmarks/delivered.py``); the
script stops if one differs from the reported count.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import sympy

from hornermcts.research import families, form
from hornermcts.rewrites.factoring import factorization
from hornermcts.pipeline import optimize
from hornermcts.parse import from_sympy
from hornermcts.polynomial import Polynomial

from delivered import Report, form_in_code, ours_in_code

RESULTS = Path(__file__).resolve().parent / "results"


def vandermonde(n: int) -> Polynomial:
    xs = sympy.symbols(f"x0:{n}")
    return from_sympy(sympy.expand(sympy.Mul(*[xs[j] - xs[i] for i in range(n) for j in range(i + 1, n)])))


def powers() -> Polynomial:
    x, y, z, w = sympy.symbols("x y z w")
    return from_sympy(sympy.expand((x + y + z + 1) ** 6 * (x - 2 * y + w) ** 5))


def product(*polys: Polynomial) -> Polynomial:
    return from_sympy(sympy.expand(sympy.Mul(*[p.to_sympy() for p in polys])))


PRODUCTS = [
    ("vandermonde(7)", lambda: vandermonde(7)),
    ("(x+y+z+1)^6 (x-2y+w)^5", powers),
    ("det(5)^2", lambda: product(families.load("det(5)"), families.load("det(5)"))),
    ("res(4,3) res(3,3)", lambda: product(families.resultant(4, 3), families.resultant(3, 3))),
]

#: The suite's single-output inputs (benchmarks/suite.py), for the cost of asking.
IRREDUCIBLE = ["hep_sigma", "res(6,5)", "res(7,5)", "res(6,6)", "res(7,6)", "det(6)", "det(7)",
               "symmetric(12,5)", "structured(30,6000,1)", "random(40,4000,4,0)"]
SCALE = "res(8,6)"


def timed(func, *args, **kwargs):
    start = time.perf_counter()
    out = func(*args, **kwargs)
    return out, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-scale", action="store_true", help=f"leave out {SCALE}")
    ap.add_argument("--out", type=Path, default=RESULTS / "factoring.txt")
    args = ap.parse_args()
    if not form.available():
        sys.exit("FORM is not installed (apt-get install -y form): nothing to compare with")
    say = Report("factoring.py")
    say("\n1. Products, given expanded: operations (wall seconds)")
    say(f"  {'input':<24} {'terms':>6} {'FORM O3':>15} {'FORM O4':>15} {'ours, whole':>15} {'ours (default)':>16}"
        f"  factors")
    for label, build in PRODUCTS:
        poly = build()
        o3, o4 = (form_in_code(poly, level=level) for level in (3, 4))
        whole, whole_s = timed(optimize, poly, seed=0, factor=False, substitute=False, progress=None)
        ours, ours_s = timed(optimize, poly, seed=0, progress=None)
        shapes = Counter(f"({r.polynomial.n_terms} terms)" + (f"^{e}" if e > 1 else "") for r, e in ours.factors)
        parts = " * ".join(shape if k == 1 else f"{k} x {shape}" for shape, k in shapes.items())
        say(f"  {label:<24} {poly.n_terms:>6} {o3['in_code']:>7} ({o3['seconds']:>5.2f}) "
            f"{o4['in_code']:>7} ({o4['seconds']:>5.2f}) {ours_in_code(whole):>7} ({whole_s:>5.2f}) "
            f"{ours_in_code(ours):>8} ({ours_s:>5.2f})  {ours.form}: {parts or '-'}")

    say("\n2. Inputs that do not factor: seconds to find that out, beside the default run")
    say(f"  {'input':<24} {'terms':>7} {'factoring s':>12} {'default run s':>14} {'share':>7}")
    for name in IRREDUCIBLE + ([] if args.no_scale else [SCALE]):
        poly = families.load(name)
        asks = []
        for _ in range(3):
            split, seconds = timed(factorization, poly)
            assert split is None, f"{name} factors"
            asks.append(seconds)
        result, run = timed(optimize, poly, seed=0, progress=None)
        assert result.form != "factored"
        say(f"  {name:<24} {poly.n_terms:>7} {min(asks):>12.3f} {run:>14.2f} {min(asks) / run:>6.1%}")
    say.write(args.out)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
