"""Text read as written (``hornermcts.parse.written_text``) and the command line's use of it (issue 35 item 1)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
import sympy
from sympy.core.function import AppliedUndef

from hornermcts.expression.regions import structured
from hornermcts.parse import from_text
from hornermcts.parse.written_text import as_written

TEXTS = [
    "Local F = sin(x + y)*(a + b)^2 + cos(x + y)*(a - b)/(1 + x^2);",
    "(x1 + 2*x2)**3*(x1 - x2)^2 - 3/4*(x1 + 1)*(x2 - 1)",
    "-x^2*(y + 1)^-2 + sqrt_(x + y)*pi_ + ln_(1 + y^2)*exp(-x)",
    "2^3*(x + 1)*(y + 1.5e1) + 1/(x - y)\n   + (x - y)^(1/2)",
    "F = f(x + y, 2)*(x + 1)*(y + 1)",
]


@pytest.mark.parametrize("text", TEXTS)
def test_as_written_reads_what_from_text_reads(text):
    written = as_written(text)
    assert written is not None and structured([written])  # products and calls of sums kept
    poly = from_text(text).to_sympy()
    if written.atoms(AppliedUndef):  # f(x + y, 2) has no value: equal once expanded
        assert sympy.expand(written - poly) == 0
        return
    point = {s: sympy.Rational(k + 2, k + 5) for k, s in enumerate(sorted(written.free_symbols, key=str))}
    a, b = sympy.N(written.xreplace(point), 30), sympy.N(poly.xreplace(point), 30)
    assert abs(a - b) <= 1e-25 * max(abs(a), 1)


@pytest.mark.parametrize("text", [
    "x^2 + 3*x*y",                   # no parentheses: a polynomial, read by from_text
    "(x + 1)*(y + 1) + x^^2",        # a syntax error: from_text names it
    "Eq(x, 1)*(y + 1)",              # a relation
    "2^(10^9)*(x + 1)",              # a power of numbers beyond MAX_INTEGER_BITS
    "(x + 1)//2", "0x10*(x + 1)", "1_000*(x + 1)", "(x + 1)*2j", "a.b*(x + 1)",
    "(x + oo)*(y + 1)", "x = (y + 1); z", "(x + 1)*(y + 1) == 2", "__import__('os')*(x + 1)",
])
def test_as_written_leaves_everything_else_to_from_text(text):
    assert as_written(text) is None or text.startswith("__import__")


def test_as_written_never_runs_the_text():
    e = as_written("__import__(x)*(y + 1)")
    assert e is None or isinstance(e, sympy.Expr) and "import" in str(e)  # an undefined function, never called


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "hornermcts", *args], input=stdin, capture_output=True, text=True)


def test_the_command_line_optimizes_a_file_as_written(tmp_path):
    path = tmp_path / "eom.txt"
    path.write_text(TEXTS[0] + "\n")
    out = run("optimize", str(path), "--json", "--preset", "fast")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["expression"] == "F" and report["terms"] is None
    assert report["form"] in ("as written", "expanded", "sympy.cse")
    assert report["after"]["total"] <= report["before"]["total"] == 11
    code = run("optimize", str(path), "--emit", "python", "--preset", "fast")
    assert code.returncode == 0 and "math.sin(" in code.stdout and "math.cos(" in code.stdout
    namespace: dict = {}
    exec(code.stdout, namespace)
    a, b, x, y = 0.3, 0.7, 1.1, -0.4
    want = sympy.N(as_written(TEXTS[0]).subs({"a": a, "b": b, "x": x, "y": y}))
    assert namespace["f"]([a, b, x, y]) == pytest.approx(float(want), rel=1e-13)


def test_a_file_with_parentheses_and_an_error_still_names_file_line_and_column(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("(x + 1)*(y + 2)\n + x^^2\n")
    out = run("optimize", str(path))
    assert out.returncode == 2 and f"{path}:2:" in out.stderr and "Traceback" not in out.stderr
