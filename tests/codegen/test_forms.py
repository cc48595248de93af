"""Linear forms (the new variables' definitions) are written as SymPy's printers write them (issue 36, item 7).

:class:`~hornermcts.codegen.forms.LinearForm` writes ``x4 + x5`` without
SymPy; the text must be the printers' own, on random forms: ``sympy.sstr``
(the header), C99 in double and long double, Python, NumPy, and Fortran
with its layout of long lines (the assignment as ``to_fortran`` lays it out).
"""
from __future__ import annotations

import random

import pytest
import sympy
from sympy.printing.numpy import NumPyPrinter

from hornermcts.codegen import to_c, to_fortran, to_python
from hornermcts.codegen.c import CPrinter
from hornermcts.codegen.forms import LinearForm, piece_names
from hornermcts.codegen.fortran import FortranPrinter
from hornermcts.codegen.printing import piece_text, printed
from hornermcts.codegen.program import sorted_symbols
from hornermcts.codegen.python import PythonLiterals, PythonPrinter
from hornermcts.cost.counting import expression_count
from hornermcts.dag.horner import horner_dag
from hornermcts.polynomial import Polynomial

class NumPyLike(PythonLiterals, NumPyPrinter):  # to_numpy's printer
    language_name = "NumPy"


PRINTERS = {"C": CPrinter(), "C long double": CPrinter("long double"), "Python": PythonPrinter(),
            "NumPy": NumPyLike()}


def random_form(rng: random.Random, n_terms: int) -> dict:
    """``{name: coefficient}``: names of letters, digits and ``_``, coefficients mostly +-1, some large."""
    names: set = set()
    while len(names) < n_terms:
        names.add(rng.choice("abxyzXYZel") + "".join(rng.choice("abcxyzABXYZ_019") for _ in range(rng.randint(0, 4))))
    weights = [1, -1] * 6 + [2, -2, 3, -5, 7, 2**31, -2**40, 2**53 + 1, -(2**70), 10**30, -(10**40)]
    return {name: rng.choice(weights) for name in sorted(names)}


def sympy_of(form: dict):
    return sympy.Add(*[c * sympy.Symbol(name) for name, c in form.items()])


@pytest.mark.parametrize("seed", range(4))
def test_form_text_is_the_printers(seed):
    rng = random.Random(seed)
    for _ in range(300):
        form = random_form(rng, rng.randint(2, 8))
        expr = sympy_of(form)
        linear = LinearForm.of(expr, {sympy.Symbol(name): name for name in form})
        assert linear is not None and linear.names == set(form) == piece_names(expr)
        assert str(linear) == sympy.sstr(expr)
        assert linear.as_sympy() == expr and linear.count() == expression_count(expr)
        for printer in PRINTERS.values():
            assert piece_text(printer, linear) == printed(printer, expr)


def test_form_renamed_and_reserved():
    x, y = sympy.symbols("x y")
    form = LinearForm.of(y - 2 * x, {x: "x_", y: "entry"})
    assert str(form) == "entry - 2*x_" and form.code({"x_": "t[0]"}) == "entry - 2*t[0]"
    # C's printer reserves 'entry' (it writes entry_): the form is then left to it
    assert piece_text(CPrinter(), form) == "entry_ - 2*x_" and piece_text(PythonPrinter(), form) == "entry - 2*x_"


def test_not_a_form():
    x, y, z = sympy.symbols("x y z")
    local = {x: "x", y: "y"}
    for piece in (x + sympy.sin(y), x / 2 + y, x + y + 1, 2 * x, x * y + x, x + z, x + y**2):
        assert LinearForm.of(piece, local) is None, piece


@pytest.mark.parametrize("seed", range(3))
def test_fortran_layout_of_long_forms(seed):
    # a form's assignment longer than 72 characters is continued with & as the printer lays it out
    rng = random.Random(seed)
    printer = FortranPrinter()
    for _ in range(60):
        form = random_form(rng, rng.randint(6, 25))
        target = sympy.Symbol("lz")
        code = printed(printer, sympy_of(form), assign_to=target)[2]
        wanted = ["  " + c.strip() if not c.startswith("  ") else c for c in code.splitlines()]
        line = f"lz = {LinearForm.of(sympy_of(form), {sympy.Symbol(n): n for n in form}).code()}"
        got = ["  " + line] if len(line) <= 72 else []
        if not got:
            wrapped = iter(printer._wrap_fortran([line]))
            c = next(wrapped)
            got.append("  " + c.strip())
            while c.endswith(" &"):
                c = next(wrapped)
                got.append(c)
        assert got == wanted


def test_emitted_code_with_forms_evaluates_the_polynomial():
    # new variables with coefficients other than +-1
    a, b, c, entry = sympy.symbols("a b c entry")
    l0, l1 = sympy.symbols("_l0 _l1")
    forms = {l0: a - 3 * b + entry, l1: 2 * c + 7 * a - entry}
    poly = Polynomial((a, b, c, entry, l0, l1), [[1, 0, 0, 0, 2, 0], [0, 1, 0, 0, 1, 1], [0, 0, 1, 1, 0, 3]],
                      [2, -1, 5], opaque=forms)
    dag = horner_dag(poly)
    point = {a: 0.5, b: -1.25, c: 2.0, entry: 3.0}
    exact = poly.to_sympy().subs(point)
    namespace: dict = {}
    exec(to_python(dag), namespace)  # noqa: S102
    assert namespace["f"]([point[s] for s in (a, b, c, entry)]) == pytest.approx(float(exact), rel=1e-12)
    text = to_c(dag)
    assert "computed first: l0 = a - 3*b + entry" in text
    assert "l1 = 7*a + 2*c - entry" in to_fortran(dag)


def test_symbols_sorted_as_sympy_sorts_them():
    rng = random.Random(7)
    names = ["a", "B", "x_", "x1", "x10", "x2", "Z", "aa", "a_b", "A", "e2e1", "e10"]
    for _ in range(100):
        symbols = [sympy.Symbol(n) for n in rng.sample(names, 7)]
        assert sorted_symbols(symbols) == sorted(symbols, key=sympy.default_sort_key)
    mixed = [sympy.Symbol("b"), sympy.Dummy("a"), sympy.Symbol("a", positive=True)]
    assert sorted_symbols(mixed) == sorted(mixed, key=sympy.default_sort_key)
