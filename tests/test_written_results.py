"""``optimize`` of expressions as written: one front door, every artifact printed from the structured result.

SymPy input that is more than one polynomial region (products of sums,
calls and reciprocals of sums) goes through the expression front end; the
result's assignments, nested expression, C, Python, NumPy, Fortran and the
compiled callable all hold it, and each artifact holds exactly
``result.after`` operations (read by the independent counter of
``tests/helpers/emitted_ops.py``).
"""
from __future__ import annotations

import random

import mpmath
import numpy as np
import pytest
import sympy

import hornermcts
from helpers.emitted_ops import count_c, count_fortran, count_graph, count_python, count_sympy, total
from hornermcts import codegen
from hornermcts.errors import OptionError

x, y, z, w = sympy.symbols("x y z w")

CASES = {
    "calls of sums": [sympy.sin(x**2 + y) + 3 * sympy.cos(x**2 + y)],
    "divisions and powers": [(x + y) ** 3 * (x - y) / (z + 1) - 1 / (x * y + 1) ** 2],
    "roots, Abs, exp, pi": [sympy.sqrt(x + y) * x**5, sympy.Abs(x - z) + sympy.exp(2 * x) + sympy.pi * x],
    "rotation": [sympy.cos(x) * sympy.cos(y) * (z + w) - sympy.sin(x) * sympy.sin(y) * (z + w),
                 (sympy.sin(x) * sympy.cos(y) + sympy.cos(x) * sympy.sin(y)) / (1 + z**2)],
    "products of sums only": [(x + y + 1) ** 4 * (x - z) ** 3 + (x + y + 1) ** 2, (x - z) ** 5 * w],
}


def exact(exprs, point) -> list:
    """Each expression at ``point`` to 30 digits."""
    with mpmath.workdps(30):
        return [mpmath.mpf(sympy.N(e.xreplace({s: sympy.Float(v, 30) for s, v in point.items()}), 30))
                for e in exprs]


def points(symbols, n=4, seed=0) -> list:
    rng = random.Random(seed)
    return [{s: rng.uniform(0.2, 1.5) for s in symbols} for _ in range(n)]


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    exprs = CASES[request.param]
    return exprs, hornermcts.optimize(exprs, seed=0)


def test_structured_input_takes_the_expression_front_end(case):
    exprs, result = case
    assert result.written is not None and result.dag is None
    assert result.form in ("as written", "expanded", "sympy.cse")
    assert result.after.total <= total(count_sympy(*sympy.cse(exprs)))
    for want, have in zip(exprs, result.expression()):  # the nested view equals the input
        for point in points(sorted(want.free_symbols, key=str), n=2):
            a, b = exact([want], point)[0], exact([have], point)[0]
            assert abs(a - b) <= 1e-12 * max(abs(a), 1)


def test_every_artifact_holds_exactly_the_reported_operations(case):
    _, result = case
    ops = result.after.total
    assert total(count_sympy(*result.assignments())) == ops
    assert total(count_c(codegen.to_c(result))) == ops
    assert total(count_c(codegen.to_c(result, precision="long double"))) == ops
    assert total(count_python(codegen.to_python(result))) == ops
    assert total(count_python(codegen.to_numpy(result))) == ops
    assert total(count_fortran(codegen.to_fortran(result))) == ops
    assert count_graph(result.graph()) == ops


def test_the_code_computes_the_input(case):
    exprs, result = case
    symbols = codegen.input_symbols(result)
    assert set(symbols) == set().union(*(e.free_symbols for e in exprs))
    pts = points(symbols, n=9)  # more than one block of the compiled batch function
    want = np.array([[float(v) for v in exact(exprs, p)] for p in pts])
    xs = np.array([[p[s] for s in symbols] for p in pts])
    python = codegen.load_python(codegen.to_python(result))
    numpy_f = codegen.load_python(codegen.to_numpy(result))
    compiled = codegen.compile(result)
    got = {"python": np.array([python(row) for row in xs]).reshape(want.shape),
           "numpy": np.asarray(numpy_f(xs)).reshape(want.shape),
           "compiled": np.asarray(compiled(xs)).reshape(want.shape),
           "compiled, one point": np.array([compiled(row) for row in xs]).reshape(want.shape)}
    for name, values in got.items():
        assert np.allclose(values, want, rtol=1e-12, atol=1e-14), name


def test_functions_are_printed_as_calls_in_every_language():
    result = hornermcts.optimize(CASES["roots, Abs, exp, pi"], seed=0)
    c, py, np_code, f = (codegen.to_c(result), codegen.to_python(result), codegen.to_numpy(result),
                         codegen.to_fortran(result))
    for call in ("sqrt(", "fabs(", "exp("):
        assert call in c
    assert "math.sqrt(" in py and "math.exp(" in py and "abs(" in py
    assert "numpy.sqrt(" in np_code or "np.sqrt(" in np_code
    assert "sqrt(" in f and "abs(" in f and "exp(" in f


def test_compensated_code_of_a_result_as_written_is_as_accurate_as_double_double(case):
    """Sums, products and divisions in double-double (dd_div); a call in double of its rounded argument."""
    exprs, result = case
    symbols = codegen.input_symbols(result)
    # x - z cancels near x = z: the plain double code loses digits there, the compensated code keeps them
    pts = [{s: 1 + k / 3 + (1e-9 if s == z else 0) for k, s in enumerate(symbols)}] + points(symbols, n=2)
    source = codegen.to_c(result, precision="compensated")
    assert total(count_c(source)) == result.after.total
    compiled = codegen.compile(result, precision="compensated")
    python = codegen.load_python(codegen.to_python(result, precision="compensated"))
    for point in pts:
        want = np.array([float(v) for v in exact(exprs, point)])
        row = [point[s] for s in symbols]
        for name, got in (("C", compiled([row])), ("Python", python(row))):
            assert np.allclose(np.asarray(got, dtype=float).ravel(), want, rtol=1e-13, atol=1e-15), name


def test_a_polynomial_in_pieces_takes_the_cheaper_of_the_front_end_and_the_polynomial_path(monkeypatch):
    """Pieces of symbols (``x*sin(y) + x**2``): without a time limit, up to WRITTEN_PIECES_LIMIT operations as
    written, the front end runs too and the cheaper result is kept (it folds the angle sums here: 4 operations
    against 9); with a time limit, or above the limit, and for a polynomial without pieces, the polynomial path."""
    import hornermcts.pipeline as pipeline

    a, b = sympy.symbols("a b")
    rotated = x * sympy.cos(a) * sympy.cos(b) - x * sympy.sin(a) * sympy.sin(b) \
        + y * sympy.sin(a) * sympy.cos(b) + y * sympy.cos(a) * sympy.sin(b)
    result = hornermcts.optimize(rotated, seed=0)
    assert result.written is not None and result.after.total == 4
    assert sympy.simplify(sympy.expand_trig(result.expression() - rotated)) == 0
    tie = hornermcts.optimize(x * sympy.sin(y) + x**2, seed=0)  # the same count both ways: the polynomial path
    assert tie.written is None and tie.dag is not None
    assert hornermcts.optimize(x**3 * y + x * y**2 + 1, seed=0).written is None
    assert hornermcts.optimize(rotated, seed=0, time_limit=30).written is None
    monkeypatch.setattr(pipeline, "WRITTEN_PIECES_LIMIT", 1)
    alone = hornermcts.optimize(rotated, seed=0)
    assert alone.written is None and alone.after.total == 9


def test_horner_returns_the_structured_expression():
    e = sympy.sin(x**2 + y) + sympy.cos(x**2 + y) + (x + y) ** 6
    out = hornermcts.horner(e, seed=0)
    assert hornermcts.expression_count(out).total <= hornermcts.expression_count(e).total
    point = {x: sympy.Rational(2, 3), y: sympy.Rational(5, 7)}
    assert abs(sympy.N((out - e).xreplace(point), 30)) < 1e-25


def test_results_as_written_and_polynomial_results_share_one_function():
    """A list of results is one function with each result's outputs in turn, whatever their kind."""
    exprs = [CASES["calls of sums"][0], x**3 * y + 2 * x * y**2 + w, CASES["divisions and powers"][0]]
    results = [hornermcts.optimize(e, seed=0) for e in exprs]
    assert [r.written is not None for r in results] == [True, False, True]
    symbols = codegen.input_symbols(results)
    assert set(symbols) == {x, y, z, w}
    assert total(count_c(codegen.to_c(results))) == sum(r.after.total for r in results)
    pts = points(symbols, n=3)
    want = np.array([[float(v) for v in exact(exprs, p)] for p in pts])
    got = codegen.compile(results)(np.array([[p[s] for s in symbols] for p in pts]))
    assert np.allclose(got, want, rtol=1e-12)


def test_assignments_name_temporaries_as_asked():
    result = hornermcts.optimize(CASES["divisions and powers"], seed=0)
    replacements, _ = result.assignments(sympy.numbered_symbols("q"))
    assert replacements and all(str(s).startswith("q") for s, _ in replacements)
    with pytest.raises(OptionError, match="ran out"):
        result.assignments(iter([]))


@pytest.mark.parametrize("e, value", [(sympy.oo * x + y, np.inf), (x + sympy.zoo, np.nan),
                                      (x ** (10**20) + y, 2.0), (sympy.nan * x, np.nan)])
def test_what_no_polynomial_holds_is_a_piece_of_a_result_as_written(e, value):
    """Issue 37 item 1 for optimize: non-finite numbers and huge powers were an OptionError; now pieces."""
    result = hornermcts.optimize(e, seed=0)
    assert result.written is not None
    assert result.expression() == e
    python = codegen.load_python(codegen.to_python(result))
    point = {x: 0.5, y: 2.0}
    got = python([point[s] for s in codegen.input_symbols(result)])
    assert got == value or np.isnan(value) and np.isnan(got)  # at x = 1/2, y = 2: x**(10**20) underflows to 0
