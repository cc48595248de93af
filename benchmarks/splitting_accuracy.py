"""The splitting-order annealing run (issue 37 item 7) changes results: the emitted code's accuracy with and without it.

The default anneals once more from the best splitting order (``hornermcts.order.splitting``) on polynomials of
``pipeline.SPLIT_MIN_TERMS`` terms or more.  For the inputs whose counts it changed this prints the operations of
the result and the largest relative error of its emitted Python code (``codegen.to_python``, doubles) at 10 random
points (half in [0.5, 2], half in [-1.6, 1.6]) against a 30-digit evaluation of the input, with the run (the
default) and without it (``SPLIT_MIN_TERMS`` past every input).

    python benchmarks/splitting_accuracy.py [--out benchmarks/results/splitting_accuracy.txt]
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import sympy

import hornermcts
import hornermcts.pipeline as pipeline
from hornermcts.research import families

sys.path.insert(0, str(Path(__file__).parent))
from pieces_accuracy import largest_error  # noqa: E402
from structured import SETS, arm6, load_set  # noqa: E402


def inputs() -> dict:
    """The sets whose default result the run changed (``benchmarks/results/structured.txt``, ``suite_cm.txt``)."""
    pose, jacobian, _ = arm6()
    return {"gait2d rows 9-17": load_set(SETS["gait2d rows 9-17"]), "6-DOF arm pose + Jacobian": pose + jacobian,
            "det(7)": [families.determinant(7).to_sympy()], "CM(7)": [families.cayley_menger(7).to_sympy()]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    rng = random.Random(5)
    lines = ["# python benchmarks/splitting_accuracy.py: optimize, default, seed 0; operations of the result and the",
             "# largest relative error of its emitted Python code at 10 random points against 30 digits",
             f"{'input':<28} {'with the run':>24} {'without it':>24}"]
    least = pipeline.SPLIT_MIN_TERMS
    for name, exprs in inputs().items():
        symbols = sorted(set().union(*(e.free_symbols for e in exprs)), key=str)
        points = [{s: sympy.Rational(rng.randint(32, 128) if k % 2 == 0 else rng.randint(-100, 100), 64)
                   for s in symbols} for k in range(10)]
        exact = [[sympy.N(e.xreplace(p), 30) for e in exprs] for p in points]
        cells = []
        for minimum in (least, 10**18):
            pipeline.SPLIT_MIN_TERMS = minimum
            try:
                result = hornermcts.optimize(exprs if len(exprs) > 1 else exprs[0], seed=0)
            finally:
                pipeline.SPLIT_MIN_TERMS = least
            cells.append(f"{result.after.total} ops, {largest_error(result, exprs, points, exact):.2g}")
        lines.append(f"{name:<28} {cells[0]:>24} {cells[1]:>24}")
        print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
