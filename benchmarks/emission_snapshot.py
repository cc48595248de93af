"""Every language x precision x option variant of the code generators, written to files, to compare two versions.

One command::

    python benchmarks/emission_snapshot.py DIR

The first run builds the inputs (results of ``optimize(..., preset="fast")``
and plain Horner DAGs: HEP(sigma), res(5,4), det(5), small inputs with
opaque pieces ``sin``/``cos``/``1/z``/``sqrt``/``pi``, float and rational
coefficients, several outputs, constants) and pickles them into ``DIR``;
later runs read that pickle, so two versions of the generators write the
same inputs.  Every variant goes to ``DIR/<input>.<variant>.txt`` (an error
message where the generator refuses).  Compare two directories with
``diff -r``.  Written for issue 36, item 7: the emitted text must not change
when the emitters are rewritten.
"""
from __future__ import annotations

import pickle
import sys
from fractions import Fraction
from pathlib import Path

import sympy

from hornermcts import optimize
from hornermcts.codegen import to_c, to_fortran, to_numpy, to_python
from hornermcts.research.families import load, random_polynomial
from hornermcts.dag.horner import horner_dag
from hornermcts.parse import as_polynomial

VARIANTS = {
    "c.double": lambda o: to_c(o),
    "c.double.nobatch": lambda o: to_c(o, "g", batch=False),
    "c.double.chunk4": lambda o: to_c(o, chunk=4),
    "c.double.nochunk": lambda o: to_c(o, chunk=None),
    "c.double.native": lambda o: to_c(o, block="native"),
    "c.double.block2.chunk4": lambda o: to_c(o, block=2, chunk=4),
    "c.double.block4.nochunk": lambda o: to_c(o, block=4, chunk=None),
    "c.long": lambda o: to_c(o, precision="long double"),
    "c.long.chunk4": lambda o: to_c(o, precision="long double", chunk=4),
    "c.comp": lambda o: to_c(o, precision="compensated"),
    "c.comp.chunk16": lambda o: to_c(o, precision="compensated", chunk=16),
    "python.double": lambda o: to_python(o),
    "python.comp": lambda o: to_python(o, "h", precision="compensated"),
    "numpy.double": lambda o: to_numpy(o),
    "numpy.comp": lambda o: to_numpy(o, precision="compensated"),
    "fortran.double": lambda o: to_fortran(o),
    "fortran.double.nobatch": lambda o: to_fortran(o, batch=False),
    "fortran.long": lambda o: to_fortran(o, precision="long double"),
}


def _inputs() -> dict:
    x, y, z, w = sympy.symbols("x y z w")
    small = {
        "pieces": x**3 * sympy.sin(y) / 4 + x * sympy.cos(z) - 3 * x / z + 2,
        "rational": sympy.Rational(1, 3) * x**2 * y - sympy.Rational(7, 5) * x * y**3 + sympy.Rational(2, 9),
        "floats": 0.1 * x**2 + 2.5 * x * y - 1e-300 * y**4 + 3.0,
        "negative": -x**2 * y - 2 * x * y - 1,
        "constants": sympy.pi * x**2 + sympy.E * x * y + sympy.sqrt(2) * y**2 + sympy.exp(z) * x,
        "big": (2**70 + 1) * x**3 + sympy.Rational(2**60 + 3, 3**40) * x * y - 7,
        "cancel": (x - y)**2,
        "constant": sympy.Integer(-5),
    }
    out = {name: horner_dag(as_polynomial(e)) for name, e in small.items()}
    out["multi"] = optimize([x**2 * y + sympy.sin(w) * x - 1, 3 * x * y**2 - sympy.Rational(1, 7) / z,
                             sympy.Integer(4), -x * y], preset="fast", progress=None)
    out["multi_pieces_horner"] = [horner_dag(as_polynomial(e)) for e in
                                  (x * sympy.sin(y) + x**2, y * sympy.sin(y) - 1 / z, w**3)]
    out["hep_sigma"] = optimize(load("hep_sigma"), preset="fast", progress=None)
    out["hep_sigma_horner"] = horner_dag(load("hep_sigma"))
    out["res54"] = optimize(load("res(5,4)"), preset="fast", progress=None)
    out["det5"] = optimize(load("det(5)"), preset="fast", progress=None)
    out["random_rational"] = optimize(random_polynomial(6, 300, max_degree=5, seed=1, coefficients="rational"),
                                      preset="fast", progress=None)
    out["random_sign"] = horner_dag(random_polynomial(5, 120, max_degree=5, seed=2, coefficients="sign"))
    out["fraction_coeffs"] = horner_dag(as_polynomial(Fraction(1, 10) * x**2 + Fraction(-3, 2) * x * y))
    return out


def main(argv=None) -> int:
    folder = Path((argv or sys.argv[1:])[0])
    folder.mkdir(parents=True, exist_ok=True)
    cache = folder / "inputs.pickle"
    if cache.exists():
        inputs = pickle.loads(cache.read_bytes())
    else:
        inputs = _inputs()
        cache.write_bytes(pickle.dumps(inputs))
    for name, obj in inputs.items():
        for variant, generate in VARIANTS.items():
            try:
                text = generate(obj)
            except Exception as err:  # noqa: BLE001 -- the refusal is part of the snapshot
                text = f"{type(err).__name__}: {err}\n"
            (folder / f"{name}.{variant}.txt").write_text(text)
    print(f"{len(inputs)} inputs x {len(VARIANTS)} variants written to {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
