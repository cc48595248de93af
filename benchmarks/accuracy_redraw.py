"""The inputs ``benchmarks/accuracy.py`` flags, measured again at fresh points: a loss, or the draw of the points?

    python benchmarks/accuracy_redraw.py [--numbers 28,88,287] [--draws 6] [--points 40,400] [--out FILE]

``accuracy.py`` compares, per input, the largest relative error of the
default's NumPy code with that of the same search in the input's own
variables, over one draw of 40 (or 400) points.  Near a zero of the output
the relative error of any form is large and depends on where the points
fall, so one draw's ratio of the two maxima varies from draw to draw.  This
script replays ``accuracy.py``'s drawing of inputs (same seed, same order)
up to the largest number asked, and for each input asked measures the ratio
over ``--draws`` fresh draws of each ``--points`` count (half in [0.5, 2],
half in [-1, 1], seeded by ``[seed, number, draw]``): a ratio above 10 in
most draws is a loss; in one draw of many, the points.
"""
from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from hornermcts import codegen
from hornermcts.cost.accuracy import UNIT
from hornermcts.parse import as_polynomial
from hornermcts.pipeline import optimize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy import POINTS, RESULTS, unchecked, exact_values, largest_error, random_input  # noqa: E402


def replayed(numbers: set, seed: int, iterations: int) -> dict:
    """``{number: expr}``: the inputs ``accuracy.py`` draws as its ``number``-th, its random stream replayed."""
    stages = importlib.import_module("hornermcts.pipeline")
    checked = stages.no_worse
    rng = np.random.default_rng(seed)
    found: dict = {}
    drawn = 0
    while len(found) < len(numbers):
        expr = random_input(rng)
        drawn += 1
        stages.no_worse = unchecked
        before = optimize(expr, iterations=iterations, seed=0)
        stages.no_worse = checked
        if not before.variables:
            continue
        n = len(codegen.input_symbols(optimize(expr, iterations=iterations, seed=0, substitute=False)))
        rng.uniform(0.5, 2, (POINTS // 2, n))  # the points accuracy.py draws for it
        rng.uniform(-1, 1, (POINTS - POINTS // 2, n))
        if drawn in numbers:
            found[drawn] = expr
    return found


def ratios(expr, number: int, seed: int, iterations: int, points: int, draws: int) -> list:
    """The default's largest error over own's at ``draws`` fresh draws of ``points`` points."""
    poly = as_polynomial(expr)
    after = optimize(expr, iterations=iterations, seed=0)
    own = optimize(expr, iterations=iterations, seed=0, substitute=False)
    out = []
    for draw in range(draws):
        rng = np.random.default_rng([seed, number, draw])
        at = np.concatenate([rng.uniform(0.5, 2, (points // 2, poly.n_vars)),
                             rng.uniform(-1, 1, (points - points // 2, poly.n_vars))])
        exact = exact_values(poly, at)
        mine, theirs = (max(largest_error(r, poly, at, exact), UNIT) for r in (after, own))
        out.append(mine / theirs)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--numbers", default="28,88,287")
    parser.add_argument("--draws", type=int, default=6)
    parser.add_argument("--points", default="40,400")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--out", default=str(RESULTS / "accuracy_redraw.txt"))
    args = parser.parse_args(argv)
    numbers = sorted(int(k) for k in args.numbers.split(","))
    start = time.perf_counter()
    inputs = replayed(set(numbers), args.seed, args.iterations)
    lines = [f"benchmarks/accuracy_redraw.py --numbers {args.numbers} --draws {args.draws} --points {args.points}",
             "the default's largest relative error over that of the same search in the input's own variables, "
             "at fresh draws of points", ""]
    for number in numbers:
        for points in (int(p) for p in args.points.split(",")):
            r = ratios(inputs[number], number, args.seed, args.iterations, points, args.draws)
            lines.append(f"input {number:>4}  {points:>4} points: " + " ".join(f"{x:7.3g}" for x in r)
                         + f"   median {statistics.median(r):.3g}, over 10x in {sum(x > 10 for x in r)} of {len(r)}")
            print(lines[-1], flush=True)
    lines.append(f"({time.perf_counter() - start:.0f} s)")
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
