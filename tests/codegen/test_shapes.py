"""Output shapes follow NumPy's rules, the same for the NumPy code and the compiled C (issue 36, item 9).

The contract (``to_numpy`` and ``CompiledPolynomial.__call__``): points of shape ``(..., nvars)`` give values
of shape ``(...)``, or ``(..., k)`` with ``k > 1`` outputs; one point ``(nvars,)`` gives a scalar (``(k,)``).
It holds for every number of variables: with one, ``(n, 1)`` gave ``(n, 1)``; with none, the NumPy code gave
one value for ``n`` points.
"""
from __future__ import annotations

import shutil

import numpy as np
import pytest
import sympy

from hornermcts import codegen
from hornermcts.dag.horner import horner_dag
from hornermcts.parse import as_polynomial

x, y, z = sympy.symbols("x y z")
EXPRESSIONS = {0: [sympy.Rational(7, 2), sympy.Integer(-3), sympy.Integer(0)],
               1: [x**2 + 1, 3 * x, x - sympy.Rational(1, 3)],
               3: [x * y + z, x - y * z**2, z**2 + 1]}
RNG = np.random.default_rng(36)


def _cases():
    return [(nv, k) for nv in EXPRESSIONS for k in (1, 3)]


def _dags(nv, k):
    return [horner_dag(as_polynomial(e)) for e in EXPRESSIONS[nv][:k]]


def _exact(nv, k, dags, points):
    """The values at ``points`` (``(n, nvars)``), as an ``(n, k)`` array."""
    symbols = codegen.input_symbols(dags)
    return np.array([[float(e.subs(dict(zip(symbols, map(sympy.Float, p))))) for e in EXPRESSIONS[nv][:k]]
                     for p in points])


def _check(f, nv, k, want):
    """``f`` evaluated on points (n, nv), (2, 3, nv) and one point (nv,) gives NumPy's shapes and the values."""
    points = RNG.uniform(-1, 1, size=(6, nv))
    out = () if k == 1 else (k,)
    np.testing.assert_allclose(np.reshape(f(points), (6, k)), want(points), rtol=1e-14)
    assert np.shape(f(points)) == (6,) + out
    assert np.shape(f(points.reshape(2, 3, nv))) == (2, 3) + out
    assert np.shape(f(points[0])) == out
    np.testing.assert_allclose(np.reshape(f(points[0]), (k,)), want(points[:1])[0], rtol=1e-14)
    assert np.shape(f(points[:0])) == (0,) + out


@pytest.mark.parametrize("precision", ["double", "compensated"])
@pytest.mark.parametrize("nv,k", _cases())
def test_numpy_shapes(nv, k, precision):
    dags = _dags(nv, k)
    f = codegen.load_python(codegen.to_numpy(dags, precision=precision))
    _check(f, nv, k, lambda p: _exact(nv, k, dags, p))
    if nv:  # one array per variable, broadcast together: the broadcast shape
        columns = RNG.uniform(-1, 1, size=(nv, 5))
        assert np.shape(f(*columns)) == (5,) + (() if k == 1 else (k,))
        np.testing.assert_array_equal(f(*columns), f(columns.T))


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")
@pytest.mark.parametrize("nv,k", _cases())
def test_compiled_shapes_match_numpy(nv, k):
    dags = _dags(nv, k)
    compiled = codegen.compile(dags, cache=False)
    numpy_f = codegen.load_python(codegen.to_numpy(dags))
    _check(compiled, nv, k, lambda p: numpy_f(p).reshape(len(p), k))
    points = RNG.uniform(-1, 1, size=(4, nv))
    np.testing.assert_array_equal(compiled(points.T, layout="variables"), numpy_f(points))


def test_wrong_number_of_values_is_a_clear_error():
    f = codegen.load_python(codegen.to_numpy(_dags(3, 1)))
    with pytest.raises(ValueError, match=r"needs 3 values per point on the last axis, not shape \(4, 2\)"):
        f(np.zeros((4, 2)))
    with pytest.raises(TypeError, match="not 2 arguments"):
        f(np.zeros(4), np.zeros(4))
