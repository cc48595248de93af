"""The shipped structured sets through ``optimize`` and ``hornermcts.codegen``: counts and accuracy of the code.

    python benchmarks/structured_codegen.py

For each set of ``../shared/data/structured`` (issue 35): the form
``optimize`` chose, ``result.after``, the operations in the emitted C,
Python and Fortran read by the tests' independent counter (each must equal
``after``), the wall time of ``optimize``, and the largest relative error of
the compiled C (``codegen.compile``) at one random point against 30-digit
evaluation of the input.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

import mpmath
import numpy as np
import sympy

import hornermcts
from delivered import emitted_ops
from hornermcts import codegen

STRUCTURED = Path(__file__).resolve().parents[2] / "shared" / "data" / "structured"
SETS = ["pydy_pendulum5_forcing", "pydy_pendulum5_jacobian", "gait2d_row10", "gait2d_rows9_17"]


def main() -> None:
    count = emitted_ops.total
    print(f"{'set':<26} {'form':<12} {'after':>6} {'C':>6} {'Python':>7} {'Fortran':>8} {'seconds':>8} "
          f"{'rel. error':>11}")
    for stem in SETS:
        exprs = [sympy.sympify(e) for e in sympy.sympify((STRUCTURED / f"{stem}.srepr").read_text())]
        clock = time.perf_counter()
        result = hornermcts.optimize(exprs, seed=0)
        seconds = time.perf_counter() - clock
        counts = (count(emitted_ops.count_c(codegen.to_c(result))),
                  count(emitted_ops.count_python(codegen.to_python(result))),
                  count(emitted_ops.count_fortran(codegen.to_fortran(result))))
        if set(counts) != {result.after.total}:
            raise SystemExit(f"{stem}: the code holds {counts} operations, the result reports {result.after.total}")
        symbols = codegen.input_symbols(result)
        rng = random.Random(1)
        point = {s: rng.uniform(0.3, 1.2) for s in symbols}
        got = np.asarray(codegen.compile(result)([[point[s] for s in symbols]])).ravel()
        worst = 0.0
        with mpmath.workdps(30):
            for value, e in zip(got, exprs):
                want = float(sympy.N(e.xreplace({s: sympy.Float(v, 30) for s, v in point.items()}), 30))
                worst = max(worst, abs(value - want) / abs(want) if want else abs(value))
        print(f"{stem:<26} {result.form:<12} {result.after.total:>6} {counts[0]:>6} {counts[1]:>7} {counts[2]:>8} "
              f"{seconds:>8.2f} {worst:>11.1e}")


if __name__ == "__main__":
    main()
