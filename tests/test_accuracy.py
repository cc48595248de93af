"""Accuracy is a measured property of a result (issue 36, item 6): no transformation trades it silently.

``expand((x1+x3)**40 + (x1-x3)**39)`` in the new variable ``x1 + x3`` is 83
operations shorter, but the sum cancels where ``x1 ~ -x3``: at 200 points in
[-1, 1] the substituted code's relative error reached 82, where the search in
``x1`` and ``x3`` stays within 1e-15.
"""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
import sympy

from hornermcts import codegen, optimize
from hornermcts.accuracy import FLOOR, no_worse, relative_error, worse
from hornermcts.cli import main
from hornermcts.horner_scheme import horner_dag
from hornermcts.optimize import quick_cost
from hornermcts.parse import as_polynomial
from hornermcts.substitution import linear_substitution

x1, x3 = sympy.symbols("x1 x3")
CANCELS = sympy.expand((x1 + x3) ** 40 + (x1 - x3) ** 39)


def _largest_error(result, expr, n=200):
    """The result's NumPy code's largest relative error against the exact value at ``n`` points in [-1, 1]."""
    symbols = codegen.input_symbols(result)
    points = np.random.default_rng(1).uniform(-1, 1, (n, len(symbols)))
    values = codegen.load_python(codegen.to_numpy(result))(points)
    poly = sympy.Poly(expr, *symbols)
    worst = 0.0
    for point, value in zip(points, values):
        exact = Fraction(str(poly.eval(tuple(map(sympy.Rational, point)))))
        worst = max(worst, float(abs(Fraction(value) - exact) / abs(exact)))
    return worst


def test_new_variables_that_cancel_are_not_kept():
    result = optimize(CANCELS, iterations=100, seed=0)
    assert result.variables == {}  # the search in x1, x3: 240 operations, not 157 in x1 + x3
    assert result.relative_error is not None and result.relative_error < 1e-14
    assert _largest_error(result, CANCELS) < 1e-13


def test_new_variables_that_do_not_cancel_are_kept():
    x, y, z = sympy.symbols("x y z")
    expr = sympy.expand((x + y) ** 6 + (x + y) ** 3 * z + z**2)  # positive at positive points; not worse in [-1, 1]
    result = optimize(expr, iterations=100, seed=0)
    assert result.variables and result.relative_error is not None


def test_summary_and_json_report_the_estimate(tmp_path, capsys):
    result = optimize(CANCELS, iterations=30, seed=0)
    assert f"relative error {result.relative_error:.1e} in double precision" in result.summary()
    path = tmp_path / "cancels.txt"
    path.write_text(str(CANCELS))
    assert main(["optimize", str(path), "-n", "30", "--seed", "0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["relative_error"] == pytest.approx(result.relative_error) and report["new_variables"] == {}


def test_relative_error_sees_a_cancelling_new_variable():
    poly = as_polynomial(CANCELS)
    substitution = linear_substitution(poly, 0, cost=quick_cost)
    assert substitution is not None and list(substitution.forms.values()) == [x1 + x3]
    substituted, own = horner_dag(substitution.joint), horner_dag(poly)
    assert relative_error(substituted) > 1e-6 and relative_error(own) < 1e-14
    assert worse(relative_error(substituted), relative_error(own))
    assert not no_worse(substituted, lambda: own) and no_worse(own, lambda: substituted)


def test_worse_compares_above_rounding_noise():
    assert not worse(1e-15, 1e-16)  # both within ten half-ulps: noise
    assert worse(1e-13, 1e-16) and worse(2e-14, 1e-15) and not worse(9e-15, 1e-15)
    assert not worse(None, 1e-16) and not worse(1.0, None)
    assert FLOOR == 2.0**-53


def test_no_worse_builds_the_reference_only_when_needed():
    exact_form = horner_dag(as_polynomial(x1**2 + 1))

    def reference():
        raise AssertionError("not needed: the DAG is exact at the sample points")

    assert no_worse(exact_form, reference)
