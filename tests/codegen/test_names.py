"""Generated code is safe for any symbol name (issue 14, point 2).

A symbol's name reaches the generated code twice: as an identifier (made
valid and unique, never a keyword, a macro or a name the code uses) and in
the header comment or docstring that says which input is which (escaped,
so it cannot end the comment and become code).  Each test writes, compiles
or loads the code for hostile names, evaluates it at a point, compares with
the exact value and checks that no payload ran.
"""
from __future__ import annotations

import ctypes
import shutil
import subprocess
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hornermcts import codegen
from hornermcts.dag.horner import horner_dag
from hornermcts.parse import as_polynomial

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")
needs_gfortran = pytest.mark.skipif(shutil.which("gfortran") is None, reason="gfortran not installed")

MARKER = "payload_ran"

HOSTILE = [
    f'a"""; __import__("os").system("touch {MARKER}"); """',
    f"b'''; __import__('os').system('touch {MARKER}'); '''",
    f"c */ int main(void) {{ return system(\"touch {MARKER}\"); }} /*",
    f"d\n    call execute_command_line('touch {MARKER}')\n!",
    f"e\\\n__import__('os').system('touch {MARKER}')",
    "M_PI", "NAN", "INFINITY", "HUGE_VAL", "EOF", "NULL", "errno", "linux", "unix", "I",
    "x", "xs", "out", "n", "t1", "t2", "f", "math", "np", "lambda", "def", "return", "end", "real",
    "sin", "exp", "dble", "__import__", "x_", "X", "\u00e9t\u00e9", "\x1b[31mred", "", " ", "1x", "a.b",
]


def _polynomial(names):
    """``sum_k (k + 2) * s_k^(k % 3 + 1) + prod of the first three``: every symbol read, a few shared."""
    syms = [sympy.Symbol(n) for n in names]
    expr = sum((k + 2) * s ** (k % 3 + 1) for k, s in enumerate(syms)) + syms[0] * syms[len(syms) // 2] * syms[-1]
    return expr, syms


def _exact(expr, syms, point):
    return float(expr.subs({s: sympy.Rational(Fraction(v)) for s, v in zip(syms, point)}))


def _point(k: int) -> np.ndarray:
    return np.array([0.5 + 0.25 * j for j in range(k)])


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _no_payload(folder):
    assert not (folder / MARKER).exists(), "a name in the generated code ran as code"


def _hostile():
    """``(dag, values, exact)``: the polynomial of the hostile names, a point in the code's input order, its value."""
    expr, syms = _polynomial(HOSTILE)
    dag = horner_dag(as_polynomial(expr))
    point = _point(len(syms))
    return dag, [point[syms.index(s)] for s in codegen.input_symbols(dag)], _exact(expr, syms, point)


def _call_library(command: list[str], library, values) -> float:
    """Build ``library`` by ``command + ['-o', library, ...]``, call its ``f`` at ``values``."""
    subprocess.run(command[:1] + ["-shared", "-fPIC", "-o", str(library)] + command[1:], check=True,
                   capture_output=True)
    f = ctypes.CDLL(str(library)).f
    f.restype = ctypes.c_double
    f.argtypes = [ctypes.POINTER(ctypes.c_double)]
    return f((ctypes.c_double * len(values))(*values))


def test_python_and_numpy_are_safe_for_hostile_names(in_tmp):
    dag, values, exact = _hostile()
    f = codegen.load_python(codegen.to_python(dag))
    assert f(values) == pytest.approx(exact, rel=1e-13)
    g = codegen.load_python(codegen.to_numpy(dag))
    assert g(*[np.array([v]) for v in values])[0] == pytest.approx(exact, rel=1e-13)
    h = codegen.load_python(codegen.to_python(dag, precision="compensated"))
    assert h(values) == pytest.approx(exact, rel=1e-15)
    _no_payload(in_tmp)


@needs_cc
def test_c_is_safe_for_hostile_names(in_tmp):
    dag, values, exact = _hostile()
    for precision in ("double", "compensated"):
        source = in_tmp / "f.c"
        source.write_text(codegen.to_c(dag, precision=precision))
        command = ["cc", "-std=c99", "-O1", "-Werror=implicit-function-declaration", str(source), "-lm"]
        assert _call_library(command, in_tmp / f"f_{precision}.so", values) == pytest.approx(exact, rel=1e-13)
    compiled = codegen.compile(dag, cache=False)
    assert compiled(values) == pytest.approx(exact, rel=1e-13)
    _no_payload(in_tmp)


@needs_cc
@pytest.mark.parametrize("std", ["-std=gnu11", "-std=c99"])
def test_c_macros_and_gnu_predefined_names_are_not_identifiers(in_tmp, std):
    """``linux`` and ``unix`` are macros (= 1) in GNU mode, ``M_PI``, ``NAN`` ... in <math.h>."""
    expr, syms = _polynomial(["linux", "unix", "M_PI", "NAN", "INFINITY", "HUGE_VAL", "errno", "I", "EOF"])
    source = in_tmp / "f.c"
    source.write_text(codegen.to_c(horner_dag(as_polynomial(expr))))
    subprocess.run(["cc", std, "-c", "-o", str(in_tmp / "f.o"), str(source)], check=True, capture_output=True)


@needs_cc
def test_names_a_printer_reserves_are_locals_inside_pieces(in_tmp):
    """SymPy's C printer writes a symbol named like a word it reserves with a ``_`` appended (``entry_``) inside
    an opaque piece: the local must be that name, not the word (``entry`` was declared, ``entry_`` read)."""
    words = sorted(codegen.c.CPrinter().reserved_words)
    syms = [sympy.Symbol(w) for w in words]
    x = sympy.Symbol("x")
    expr = x * sum(sympy.sin(s) for s in syms) + sum(s**2 for s in syms)
    dag = horner_dag(as_polynomial(expr))
    source = in_tmp / "f.c"
    source.write_text(codegen.to_c(dag))
    point = [0.25 + 0.125 * k for k in range(len(syms) + 1)]
    values = dict(zip(codegen.input_symbols(dag), point))
    exact = float(expr.subs(values).evalf(30))
    command = ["cc", "-std=c99", "-O1", str(source), "-lm"]
    assert _call_library(command, in_tmp / "f.so", [values[s] for s in codegen.input_symbols(dag)]) == \
        pytest.approx(exact, rel=1e-13)


@needs_gfortran
def test_fortran_is_safe_for_hostile_names(in_tmp):
    dag, values, exact = _hostile()
    source = in_tmp / "f.f90"
    source.write_text(codegen.to_fortran(dag))
    assert _call_library(["gfortran", str(source)], in_tmp / "f.so", values) == pytest.approx(exact, rel=1e-13)
    _no_payload(in_tmp)


def test_header_names_the_inputs_escaped_on_one_line():
    """Each input's line in the header names it (escaped) beside its identifier."""
    expr, syms = _polynomial(["a\nb", 'q"""', "c*/d"])
    dag = horner_dag(as_polynomial(expr))
    c = codegen.to_c(dag)
    header = c.split("*/", 1)[0]
    assert "a\\nb" in header and 'q\\"\\"\\"' in header and "c* /d" in header
    python = codegen.to_python(dag)
    assert python.count('"""') == 2  # the docstring's own quotes only


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=4, unique=True))
def test_random_names_python_loads_and_is_exact(names, in_tmp):
    expr, syms = _polynomial(names)
    dag = horner_dag(as_polynomial(expr))
    point = _point(len(syms))
    values = [point[syms.index(s)] for s in codegen.input_symbols(dag)]
    f = codegen.load_python(codegen.to_python(dag))
    assert f(values) == pytest.approx(_exact(expr, syms, point), rel=1e-13)
    compile(codegen.to_numpy(dag), "<numpy>", "exec")
    assert "\n" not in "".join(line for line in codegen.to_c(dag).split("*/", 1)[0].splitlines())
    _no_payload(in_tmp)
