"""The emitted text is pinned (issue 36, item 7: emission rewritten without SymPy's printers).

The statements of a program are written by plain string joins
(:class:`hornermcts.codegen.printing.Writer`) where SymPy's printers wrote
unevaluated ``Mul``/``Add`` objects before; the text must not change.  The
files under ``pinned/`` are the text the SymPy-printer generators wrote
(``benchmarks/emission_snapshot.py``), for two small inputs with opaque
pieces (``sin(y)``, ``cos(z)``, ``1/z``), rational and negative
coefficients and several outputs, in every language and precision.  A change
that alters the text fails here: regenerate the files only on purpose.
"""
from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from hornermcts.codegen import to_c, to_fortran, to_numpy, to_python
from hornermcts.codegen.c import CPrinter
from hornermcts.codegen.fortran import FortranPrinter
from hornermcts.codegen.literals import Literal, c_literal, fortran_literal, python_literal
from hornermcts.codegen.printing import Writer
from hornermcts.codegen.python import PythonPrinter
from hornermcts.dag.horner import horner_dag
from hornermcts.parse import as_polynomial

PINNED = Path(__file__).parent / "pinned"

x, y, z, w = sympy.symbols("x y z w")
INPUTS = {
    "pieces": lambda: horner_dag(as_polynomial(x**3 * sympy.sin(y) / 4 + x * sympy.cos(z) - 3 * x / z + 2)),
    "multi_pieces_horner": lambda: [horner_dag(as_polynomial(e)) for e in
                                    (x * sympy.sin(y) + x**2, y * sympy.sin(y) - 1 / z, w**3)],
}
VARIANTS = {
    "c.double.native": lambda o: to_c(o, block="native"),
    "c.long": lambda o: to_c(o, precision="long double"),
    "c.comp": lambda o: to_c(o, precision="compensated"),
    "python.double": lambda o: to_python(o),
    "python.comp": lambda o: to_python(o, "h", precision="compensated"),
    "numpy.double": lambda o: to_numpy(o),
    "numpy.comp": lambda o: to_numpy(o, precision="compensated"),
    "fortran.double": lambda o: to_fortran(o),
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", INPUTS)
def test_text_is_pinned(name, variant):
    assert VARIANTS[variant](INPUTS[name]()) == (PINNED / f"{name}.{variant}.txt").read_text()


def _random_expression(rng: random.Random, depth: int):
    """A random statement of a program: locals, literals, products, sums, negations."""
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(["a", "b", "t1", "x__2", Fraction(rng.randint(0, 9), rng.choice([1, 1, 3, 4])),
                           rng.randint(1, 5)])
    kind = rng.choice("*+-")
    if kind == "-":
        return ("-", _random_expression(rng, depth - 1))
    if kind == "*":
        return ("*", _random_expression(rng, depth - 1), _random_expression(rng, depth - 1))
    return ("+", *(_random_expression(rng, depth - 1) for _ in range(rng.choice([2, 2, 3]))))


def _as_old_sympy(e):
    """The unevaluated SymPy expression the former Program held for ``e``."""
    if isinstance(e, str):
        return sympy.Symbol(e)
    if isinstance(e, (int, Fraction)):
        return Literal(str(Fraction(e)))
    args = [_as_old_sympy(a) for a in e[1:]]
    if e[0] == "*":
        return sympy.Mul(*args, evaluate=False)
    if e[0] == "-":
        return sympy.Mul(sympy.S.NegativeOne, args[0], evaluate=False)
    return sympy.Add(*args, evaluate=False)


@pytest.mark.parametrize("language", ["c", "python", "fortran"])
def test_writer_writes_what_sympy_printed(language):
    """Random nestings of products, sums and negations: the writer's text is SymPy's printers' text."""
    printer, literal = {"c": (CPrinter(), lambda v: c_literal(v, "double")),
                        "python": (PythonPrinter(), python_literal),
                        "fortran": (FortranPrinter(), lambda v: fortran_literal(v, "double"))}[language]
    write = Writer(literal, printer).write
    rng = random.Random(36)
    for _ in range(400):
        e = _random_expression(rng, 4)
        assert write(e) == printer._print(_as_old_sympy(e)), e
