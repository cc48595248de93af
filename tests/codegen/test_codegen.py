"""Generated code (C, Python, NumPy, Fortran) and the compiled callable against exact values.

Accuracy: HEP(sigma) and res(7,5), Horner DAG of the occurrence order, 1000
random points with coordinates uniform in [-1, 1] (all doubles, so every point
is an exact rational), compared with the exact value of the *input*
polynomial at the same point.  The exact values come from integer arithmetic
(``exact_values`` below: the coordinates scaled by a common power of two,
the polynomial homogenised, summed over a trie of its exponent rows; checked
against ``Polynomial.evaluate`` on a few points), because
``Polynomial.evaluate`` with Fractions takes 0.1-0.3 s a point.

Both polynomials cancel heavily at some points (sum |terms| / |value| up to
~1e6 at 1000 points), where no floating evaluation has a small relative
error.  So the error is measured as

    |ours - exact| / max(|exact|, 1e-3 * sum |terms|)

the plain relative error wherever the condition number sum|terms|/|exact| is
at most 1000 (most points: median ~100-200), and the error relative to a
thousandth of the terms' magnitude elsewhere.  It must be <= 1e-12 in double.

Compensated code (``precision="compensated"``: double-double arithmetic by
error-free transformations, doubles in and out) must meet the plain relative
error |ours - exact| / |exact| <= 1e-12 at every point, on those points and
on 1000 more uniform in [0.5, 2] (C, Python on arrays, NumPy; measured: 1.1e-16).
"""
from __future__ import annotations

import ctypes
import math
import shutil
import subprocess
from fractions import Fraction

import numpy as np
import pytest
import sympy

from hornermcts import codegen
from hornermcts.research.families import load
from hornermcts.dag.horner import horner_dag
from hornermcts.pipeline import optimize
from hornermcts.parse import as_polynomial
from hornermcts.polynomial import Polynomial

N_POINTS = 1000
TOLERANCE = 1e-12
COND_CAP = 1e3

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")
needs_gfortran = pytest.mark.skipif(shutil.which("gfortran") is None, reason="gfortran not installed")


# ------------------------------------------------------------ exact values
def exact_values(poly: Polynomial, points: np.ndarray, magnitude: bool = True):
    """Exact ``(value, sum of |terms|)`` at each row of ``points``, as Fractions (``magnitude=False``: value only).

    Each double is ``N / 2**m`` for a common ``m``; the homogenised polynomial
    (one extra column ``2**m`` raised to ``deg - deg(term)``) is summed in
    Python ints over object arrays, one operation per trie edge of its
    exponent rows (all points at once).
    """
    pts = np.asarray(points, dtype=np.float64)
    fracs = [[Fraction(v) for v in row] for row in pts.tolist()]
    den = max(f.denominator for row in fracs for f in row)
    ints = np.empty(pts.shape, dtype=object)
    for i, row in enumerate(fracs):
        for j, f in enumerate(row):
            ints[i, j] = f.numerator * (den // f.denominator)
    exps = np.asarray(poly.exponents, dtype=np.int64)
    deg = exps.sum(axis=1)
    top = int(deg.max())
    exps = np.column_stack([exps, top - deg])
    values = np.column_stack([ints, np.full(len(pts), den, dtype=object)])
    coefs = [Fraction(int(c.p), int(c.q)) for c in poly.coefficients]
    cden = math.lcm(*(c.denominator for c in coefs))
    icoefs = [int(c * cden) for c in coefs]
    order = sorted(range(exps.shape[1]), key=lambda j: -int((exps[:, j] > 0).sum()))
    exps, values = exps[:, order], values[:, order]

    def total(vals, cs):
        cache: dict = {}

        def power(j, e):
            if (j, e) not in cache:
                cache[j, e] = vals[:, j] ** e
            return cache[j, e]

        def rec(rows, j):
            if j == exps.shape[1]:
                (r,) = rows
                return cs[r]
            col = exps[rows, j]
            acc = 0
            for e in np.unique(col):
                sub = rec(rows[col == e], j + 1)
                acc = acc + (sub if e == 0 else power(j, int(e)) * sub)
            return acc

        return rec(np.arange(len(exps)), 0)

    scale = den**top * cden
    value = [Fraction(v, scale) for v in total(values, icoefs)]
    if not magnitude:
        return value
    return value, [Fraction(a, scale) for a in total(np.abs(values), [abs(c) for c in icoefs])]


def scaled_errors(ours, exact, magnitude) -> np.ndarray:
    """|ours - exact| / max(|exact|, COND_CAP^-1 * sum|terms|), exactly, per point."""
    out = []
    for v, e, m in zip(ours, exact, magnitude):
        v = Fraction(*v.as_integer_ratio()) if not isinstance(v, Fraction) else v
        out.append(float(abs(v - e) / max(abs(e), m / Fraction(COND_CAP))))
    return np.array(out)


class Case:
    def __init__(self, name: str, seed: int):
        self.name = name
        self.poly = load(name)
        self.dag = horner_dag(self.poly, self.poly.occurrence_order())
        self.points = np.random.default_rng(seed).uniform(-1.0, 1.0, (N_POINTS, self.poly.n_vars))
        self.exact, self.magnitude = exact_values(self.poly, self.points)
        self._double = None

    def compiled_double(self):
        """Point by point (``block=None``): the single-point function in a loop."""
        if self._double is None:
            self._double = codegen.compile(self.dag, cache=False, block=None)
        return self._double

    def errors(self, values) -> np.ndarray:
        return scaled_errors(values, self.exact, self.magnitude)


@pytest.fixture(scope="module", params=["hep_sigma", "res(7,5)"])
def case(request):
    return Case(request.param, seed=2024)


@pytest.mark.slow
def test_exact_values_match_polynomial_evaluate(case):
    for i in (0, 1):
        assert case.exact[i] == case.poly.evaluate([Fraction(v) for v in case.points[i]])


def test_points_are_mostly_well_conditioned(case):
    cond = np.array([float(m / abs(e)) for e, m in zip(case.exact, case.magnitude)])
    assert np.median(cond) < 300 and (cond <= COND_CAP).mean() > 0.7


# ---------------------------------------------------------------- C, double
@pytest.mark.slow
@needs_cc
def test_c_double_accuracy(case):
    f = case.compiled_double()
    assert f.symbols == case.poly.symbols
    values = f(case.points)
    assert values.shape == (N_POINTS,) and values.dtype == np.float64
    err = case.errors(values)
    assert err.max() <= TOLERANCE, f"{case.name}: max scaled error {err.max():.3g}"
    # one point through the same batch function: identical bits
    assert f(case.points[7]) == values[7]


@pytest.mark.slow
@needs_cc
@pytest.mark.parametrize("block, workers", [(1, 2), (2, 1), (4, 2), (8, 3), (16, 1)])
def test_c_blocked_batch_accuracy_and_bits(case, block, workers):
    """The blocked batch on several threads: within the double bound, and the bits of the point-by-point code."""
    f = codegen.compile(case.dag, cache=False, block=block)
    values = f(case.points, workers=workers)
    assert case.errors(values).max() <= TOLERANCE
    np.testing.assert_array_equal(values, case.compiled_double()(case.points, workers=1))
    np.testing.assert_array_equal(f(case.points.T, layout="variables", workers=workers), values)


@pytest.mark.slow
@needs_cc
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_c_compensated_on_threads(case, compensated, workers):
    """Compensated C on any number of threads: the plain relative error bound, the same bits."""
    values = compensated.c(case.points, workers=workers)
    assert relative_errors(values, case.exact).max() <= TOLERANCE
    np.testing.assert_array_equal(values, compensated.c(case.points, workers=1))


@pytest.mark.slow
@needs_cc
def test_c_long_double_at_least_as_accurate(case):
    f = codegen.compile(case.dag, precision="long double", cache=False)
    values = f(case.points)
    assert values.dtype == np.longdouble
    err_ld = case.errors(values)
    err_d = case.errors(case.compiled_double()(case.points))
    assert err_ld.max() <= TOLERANCE
    assert err_ld.max() <= err_d.max()
    if np.finfo(np.longdouble).eps < np.finfo(np.float64).eps:  # x87 80-bit
        assert err_ld.max() <= 1e-3 * err_d.max()


# ----------------------------------------------------------- Python, NumPy
def test_python_code_accuracy(case):
    f = codegen.load_python(codegen.to_python(case.dag))
    values = np.array([f(p) for p in case.points])
    err = case.errors(values)
    assert err.max() <= TOLERANCE
    if shutil.which("cc"):  # same expressions, same IEEE double operations, no contraction
        np.testing.assert_array_equal(values, case.compiled_double()(case.points))


def test_numpy_code_accuracy(case):
    f = codegen.load_python(codegen.to_numpy(case.dag))
    values = f(case.points)
    assert values.shape == (N_POINTS,) and values.dtype == np.float64
    assert case.errors(values).max() <= TOLERANCE
    per_variable = f(*case.points.T)
    np.testing.assert_array_equal(per_variable, values)
    if shutil.which("cc"):
        np.testing.assert_array_equal(values, case.compiled_double()(case.points))


# ------------------------------------------------------ compensated arithmetic
# precision="compensated": the plain relative error |ours - exact| / |exact|,
# at every point (ill-conditioned ones included), <= 1e-12, for two point
# sets: the case's 1000 points uniform in [-1, 1] and 1000 more uniform in
# [0.5, 2] (seed 2025), where plain double reaches ~1e-9 on res(7,5).
def relative_errors(values, exact) -> np.ndarray:
    """|v - e| / |e|, exactly, per point."""
    return np.array([float(abs(Fraction(v) - e) / abs(e)) for v, e in zip(np.asarray(values).tolist(), exact)])


class Compensated:
    """The case's compensated C, Python and NumPy code, and the two point sets with exact values."""

    def __init__(self, case: Case):
        self.sets = {"[-1, 1]": (case.points, case.exact)}
        points = np.random.default_rng(2025).uniform(0.5, 2.0, (N_POINTS, case.poly.n_vars))
        self.sets["[0.5, 2]"] = (points, exact_values(case.poly, points, magnitude=False))
        self.python = codegen.load_python(codegen.to_python(case.dag, precision="compensated"))
        self.numpy = codegen.load_python(codegen.to_numpy(case.dag, precision="compensated"))
        self.c = codegen.compile(case.dag, precision="compensated", cache=False) if shutil.which("cc") else None

    def evaluate(self, language: str, points: np.ndarray) -> np.ndarray:
        if language == "python":  # the same code on arrays: one call, each variable a column
            return self.python(points.T)
        if language == "c" and self.c is None:
            pytest.skip("no C compiler (cc)")
        return getattr(self, language)(points)


@pytest.fixture(scope="module")
def compensated(case):
    return Compensated(case)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["[-1, 1]", "[0.5, 2]"])
@pytest.mark.parametrize("language", ["c", "python", "numpy"])
def test_compensated_relative_error(case, compensated, language, where):
    points, exact = compensated.sets[where]
    values = compensated.evaluate(language, points)
    assert values.shape == (N_POINTS,) and values.dtype == np.float64
    err = relative_errors(values, exact)
    assert err.max() <= TOLERANCE, f"{case.name} {language} on {where}: max relative error {err.max():.3g}"


def test_compensated_languages_agree_bitwise(case, compensated):
    points = compensated.sets["[0.5, 2]"][0]
    values = compensated.numpy(points)
    # the Python code on floats, one point at a time, does the same IEEE operations
    assert [compensated.python(p) for p in points[:5]] == values[:5].tolist()
    np.testing.assert_array_equal(compensated.python(points.T), values)
    if compensated.c is not None:  # Dekker's or fma's TwoProd: both exact, so the same bits
        assert compensated.c.precision == "compensated" and "dd_t" in compensated.c.source
        np.testing.assert_array_equal(compensated.c(points), values)
        assert compensated.c(points[3]) == values[3]


@pytest.mark.parametrize("language", ["python", "numpy", "c"])
def test_compensated_rational_coefficients_and_opaque_pieces(language):
    big = 2**70 + 1
    poly = Polynomial((x, y), [[2, 1], [1, 0], [0, 1], [0, 0]],
                      [sympy.Rational(1, 3), sympy.Rational(-5, 7), big, sympy.Rational(big, 3)])
    dag = horner_dag(poly)
    pts = _grid(2, n=100, low=-1, high=1)
    exact = [poly.evaluate([Fraction(v) for v in p]) for p in pts]
    opaque = [horner_dag(as_polynomial(OPAQUE)), horner_dag(as_polynomial(x**3 - 2 * x * y + sympy.Rational(1, 3)))]
    symbols = codegen.input_symbols(opaque)
    grid = _grid(len(symbols))
    if language == "c":
        if not shutil.which("cc"):
            pytest.skip("no C compiler (cc)")
        assert "dd_pair(-0.3333333333333333, -1.850371707708594e-17)" in codegen.to_c(dag, precision="compensated")
        f = codegen.compile(dag, precision="compensated", cache=False)
        two = codegen.compile(opaque, precision="compensated", cache=False)
    else:
        f, two = (codegen.load_python(codegen.emit(d, language, precision="compensated")) for d in (dag, opaque))
    values = [f(p) for p in pts] if language == "python" else f(pts)
    assert relative_errors(values, exact).max() <= 2**-52
    both = np.array([two(p) for p in grid]) if language == "python" else two(grid)
    np.testing.assert_allclose(both[:, 0], _reference(OPAQUE, symbols, grid), rtol=1e-13)
    np.testing.assert_allclose(both[:, 1], _reference(x**3 - 2 * x * y + sympy.Rational(1, 3), symbols, grid),
                               rtol=1e-15)


@needs_cc
def test_compensated_c_is_safe_from_compiler_flags(tmp_path):
    dag = horner_dag(load("res(4,3)"))
    pts = _grid(len(dag.symbols), n=200, low=-1, high=1)
    default = codegen.compile(dag, precision="compensated", cache=False)
    assert "-ffp-contract=off" in default.flags
    # fma() for TwoProd (as where FP_FAST_FMA is defined) gives the bits of Dekker's split
    fma = codegen.compile(dag, precision="compensated", cache=False,
                          flags=("-O2", "-shared", "-fPIC", "-DFP_FAST_FMA"))
    np.testing.assert_array_equal(fma(pts), default(pts))
    with pytest.raises(ValueError, match="-ffast-math"):
        codegen.compile(dag, precision="compensated", flags=("-O2", "-shared", "-fPIC", "-ffast-math"))
    src = tmp_path / "f.c"
    src.write_text(codegen.to_c(dag, precision="compensated"))
    proc = subprocess.run(["cc", "-Ofast", "-c", "-o", str(tmp_path / "f.o"), str(src)], capture_output=True, text=True)
    assert proc.returncode != 0 and "IEEE" in proc.stderr


def test_compensated_optimized_form():
    poly = load("res(4,3)")
    result = optimize(poly, iterations=50, seed=0)  # MCTS, CSE and the greedy step (scale nodes)
    pts = _grid(poly.n_vars, n=200)
    values = codegen.load_python(codegen.to_numpy(result, precision="compensated"))(pts)
    assert relative_errors(values, exact_values(poly, pts, magnitude=False)).max() <= 2**-52


def test_compensated_needs_a_language_that_has_it():
    dag = horner_dag(as_polynomial(x * y + 1))
    with pytest.raises(ValueError, match="fortran: 'double', 'long double'"):
        codegen.to_fortran(dag, precision="compensated")
    with pytest.raises(ValueError, match="python: 'double', 'compensated'"):
        codegen.to_python(dag, precision="long double")


def test_registry_is_what_emit_and_the_precision_check_use():
    from hornermcts.codegen.languages import REGISTRY

    dag = horner_dag(as_polynomial(x * y / 3 + 1))
    assert codegen.LANGUAGES == tuple(REGISTRY)
    assert codegen.PRECISION_SUPPORT == {name: lang.precisions for name, lang in REGISTRY.items()}
    for name, lang in REGISTRY.items():
        for precision in (*codegen.PRECISIONS, codegen.COMPENSATED):
            if precision in lang.precisions:
                assert codegen.emit(dag, name, precision=precision) == lang.generate(dag, "f", precision=precision)
            else:
                with pytest.raises(ValueError, match=f"not supported for {name} code"):
                    codegen.emit(dag, name, precision=precision)
    assert codegen.emit(dag, "numpy") == codegen.to_numpy(dag)


# ------------------------------------------------------------------ Fortran
def _fortran_library(source: str, tmp_path, flags=("-O0",)):
    src = tmp_path / "f.f90"
    src.write_text(source)
    lib = tmp_path / "libf.so"
    proc = subprocess.run(["gfortran", *flags, "-shared", "-fPIC", "-ffp-contract=off", "-o", str(lib), str(src)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return ctypes.CDLL(str(lib))


def _fortran_batch(lib, name, points, n_out=1, dtype=np.float64):
    pts = np.ascontiguousarray(points, dtype=np.float64)
    out = np.empty((len(pts), n_out), dtype=dtype)
    fn = getattr(lib, name + "_batch")
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long]
    fn(pts.ctypes.data, out.ctypes.data, len(pts))
    return out if n_out > 1 else out[:, 0]


@needs_gfortran
def test_fortran_compiles_and_is_accurate(case, tmp_path):
    lib = _fortran_library(codegen.to_fortran(case.dag, "poly"), tmp_path)
    values = _fortran_batch(lib, "poly", case.points)
    assert case.errors(values).max() <= TOLERANCE


# --------------------------------------------------------- small, special
x, y, z = sympy.symbols("x y z")


def _grid(n_vars, n=50, seed=0, low=0.5, high=2.0):
    return np.random.default_rng(seed).uniform(low, high, (n, n_vars))


def _reference(expr, symbols, points):
    """``expr`` at each point with 30 significant digits (mpmath through evalf)."""
    return np.array([float(expr.evalf(30, subs=dict(zip(symbols, map(sympy.Float, p))))) for p in points])


OPAQUE = (3 * x**2 * sympy.sin(y) - sympy.sin(y) ** 2 / 7 + sympy.sqrt(z) * x + 1 / z**2 + sympy.exp(x) * y
          + sympy.pi * x * y**2 + (1 + x) ** sympy.Rational(1, 3) + sympy.sqrt(2) * z)


def test_opaque_pieces_are_computed_from_the_variables():
    dag = horner_dag(as_polynomial(OPAQUE))
    symbols = codegen.input_symbols(dag)
    assert set(symbols) == {x, y, z}
    pts = _grid(3)
    ref = _reference(OPAQUE, symbols, pts)
    py = codegen.load_python(codegen.to_python(dag))
    npf = codegen.load_python(codegen.to_numpy(dag))
    np.testing.assert_allclose([py(p) for p in pts], ref, rtol=1e-13)
    np.testing.assert_allclose(npf(pts), ref, rtol=1e-13)
    if shutil.which("cc"):
        source = codegen.to_c(dag)
        assert "sin(y)" in source and "pow(" not in source
        np.testing.assert_allclose(codegen.compile(dag, cache=False)(pts), ref, rtol=1e-13)
        ld = codegen.compile(dag, precision="long double", cache=False)
        assert "sinl(y)" in ld.source
        np.testing.assert_allclose(ld(pts).astype(float), ref, rtol=1e-15)


@needs_gfortran
@pytest.mark.parametrize("precision", codegen.PRECISIONS)
def test_fortran_opaque_and_several_outputs(tmp_path, precision):
    dags = [horner_dag(as_polynomial(OPAQUE)), horner_dag(as_polynomial(x**3 - 2 * x * y + sympy.Rational(1, 3)))]
    symbols = codegen.input_symbols(dags)
    pts = _grid(len(symbols))
    lib = _fortran_library(codegen.to_fortran(dags, "two", precision=precision), tmp_path)
    dtype = np.float64 if precision == "double" else np.longdouble
    values = _fortran_batch(lib, "two", pts, n_out=2, dtype=dtype).astype(np.float64)
    np.testing.assert_allclose(values[:, 0], _reference(OPAQUE, symbols, pts), rtol=1e-13)
    np.testing.assert_allclose(values[:, 1], _reference(x**3 - 2 * x * y + sympy.Rational(1, 3), symbols, pts),
                               rtol=1e-13)


UNDEFINED = x**2 * sympy.Function("f")(y) + sympy.Function("g")(x, z) + x


@pytest.mark.parametrize("language", codegen.LANGUAGES)
def test_undefined_function_is_a_clear_error(language):
    dag = horner_dag(as_polynomial(UNDEFINED))
    with pytest.raises(ValueError, match=r"undefined function\(s\) f") as info:
        codegen.emit(dag, language)
    assert "f(y)" in str(info.value) or "g(x, z)" in str(info.value)


def test_undefined_function_cannot_be_compiled():
    with pytest.raises(ValueError, match="undefined function"):
        codegen.compile(horner_dag(as_polynomial(UNDEFINED)), cache=False)


@needs_cc
def test_several_outputs_sharing_nothing():
    first = horner_dag(as_polynomial(x**2 * y + 3 * y - 1))
    second = horner_dag(as_polynomial(z**3 - x * z / 5))
    f = codegen.compile([first, second], cache=False)
    assert set(f.symbols) == {x, y, z} and f.n_outputs == 2
    pts = _grid(3, n=20, low=-1, high=1)
    values = f(pts)
    assert values.shape == (20, 2)
    a, b, c = (pts[:, f.symbols.index(s)] for s in (x, y, z))
    np.testing.assert_allclose(values[:, 0], a**2 * b + 3 * b - 1, rtol=1e-14)
    np.testing.assert_allclose(values[:, 1], c**3 - a * c / 5, rtol=1e-14)
    np.testing.assert_array_equal(f(pts[3]), values[3])
    npf = codegen.load_python(codegen.to_numpy([first, second]))
    np.testing.assert_array_equal(npf(pts), values)
    py = codegen.load_python(codegen.to_python([first, second]))
    assert py(pts[3]) == tuple(values[3])


@needs_cc
def test_rational_and_huge_coefficients_are_nearest_literals():
    big = 2**70 + 1
    poly = Polynomial((x, y), [[2, 1], [1, 0], [0, 1], [0, 0]],
                      [sympy.Rational(1, 3), sympy.Rational(-5, 7), big, sympy.Rational(big, 3)])
    dag = horner_dag(poly)
    c_double, c_long = codegen.to_c(dag), codegen.to_c(dag, precision="long double")
    # the double nearest to each coefficient, as a round-trip literal
    for c in (Fraction(1, 3), Fraction(5, 7), Fraction(big), Fraction(big, 3)):
        assert repr(float(c)) in c_double
    # long double: p/q of exact integers (one rounding), or 40 significant digits
    assert "(1.0L/3.0L)" in c_long and "(5.0L/7.0L)" in c_long
    assert "1180591620717411303425.0L" in c_long and "393530540239137101141.6666666666666666667L" in c_long
    pts = _grid(2, n=100, low=-1, high=1)
    exact = [poly.evaluate([Fraction(v) for v in p]) for p in pts]
    mags = [Polynomial((x, y), poly.exponents, [abs(c) for c in poly.coefficients]).evaluate(
        [abs(Fraction(v)) for v in p]) for p in pts]
    for precision, tol in (("double", 1e-14), ("long double", 1e-17)):
        f = codegen.compile(dag, precision=precision, cache=False)
        assert scaled_errors(f(pts), exact, mags).max() <= tol


@needs_cc
def test_awkward_variable_names():
    a, b, c, d = sympy.symbols("x X int n")  # the parameter x, a case clash, a C keyword, the count
    expr = a**2 * b + c * d - 3 * a * c + d**3
    dag = horner_dag(as_polynomial(expr))
    symbols = codegen.input_symbols(dag)
    pts = _grid(4, n=10)
    ref = [float(expr.subs(dict(zip(symbols, map(sympy.Rational, p))))) for p in pts]
    np.testing.assert_allclose(codegen.compile(dag, cache=False)(pts), ref, rtol=1e-14)
    np.testing.assert_allclose(codegen.load_python(codegen.to_numpy(dag))(pts), ref, rtol=1e-14)
    if shutil.which("gfortran"):
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as tmp:
            lib = _fortran_library(codegen.to_fortran(dag), Path(tmp))
            np.testing.assert_allclose(_fortran_batch(lib, "f", pts), ref, rtol=1e-14)


@needs_cc
@pytest.mark.parametrize("expr", [sympy.Integer(0), sympy.Rational(7, 2)])
def test_constant_polynomials(expr):
    dag = horner_dag(as_polynomial(expr))
    f = codegen.compile(dag, cache=False)
    assert f.symbols == ()
    assert f(np.zeros((4, 0))).tolist() == [float(expr)] * 4
    assert codegen.load_python(codegen.to_python(dag))([]) == float(expr)


@needs_cc
def test_split_into_parts_gives_the_same_bits():
    poly = load("res(4,3)")
    dag = horner_dag(poly)
    pts = _grid(poly.n_vars, n=200, low=-1, high=1)
    whole = codegen.compile(dag, chunk=None, cache=False)
    parts = codegen.compile(dag, chunk=10, cache=False)
    assert "_part0" in parts.source and "_part0" not in whole.source
    np.testing.assert_array_equal(whole(pts), parts(pts))


def test_c_source_shape():
    dag = horner_dag(load("hep_sigma"))
    source = codegen.to_c(dag, "sigma")
    assert "double sigma(const double *x)" in source
    assert "void sigma_batch(const double *xs, double *out, long n)" in source
    assert "pow(" not in source
    for k, s in enumerate(dag.symbols):  # the header lists every variable with its index
        assert f"x[{k}]  {s}" in source


@needs_cc
def test_compile_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HORNERMCTS_CACHE", str(tmp_path))
    dag = horner_dag(as_polynomial(x**3 + y))
    first = codegen.compile(dag)
    second = codegen.compile(dag)
    assert first.library == second.library and first.library.parent == tmp_path
    assert len(list(tmp_path.glob("*.so"))) == 1


def test_compiler_missing_or_failing_is_a_runtime_error():
    dag = horner_dag(as_polynomial(x**3 + y))
    with pytest.raises(RuntimeError, match="no C compiler"):
        codegen.compile(dag, compiler="no-such-compiler-hornermcts", cache=False)
    if shutil.which("cc"):
        with pytest.raises(RuntimeError, match="compiler failed") as info:
            codegen.compile(dag, flags=("-shared", "-fPIC", "--no-such-flag-hornermcts"), cache=False)
        assert "no-such-flag-hornermcts" in str(info.value)


def test_bad_arguments():
    dag = horner_dag(as_polynomial(x + y))
    with pytest.raises(ValueError, match="precision"):
        codegen.to_c(dag, precision="quad")
    with pytest.raises(ValueError, match="language"):
        codegen.emit(dag, "rust")
    with pytest.raises(ValueError, match="name"):
        codegen.to_c(dag, "not a name")
    with pytest.raises(ValueError, match="at least one output"):
        codegen.to_c([])
    with pytest.raises(TypeError):
        codegen.to_c("x + y")


# ------------------------------------------------------------- argument order
def test_args_fix_the_argument_order_of_every_language():
    """Without args a function of x**3*y**2 + ... takes (y, x, z) (column order); args= makes it (x, y, z)."""
    import hornermcts

    x, y, z = sympy.symbols("x y z")
    expr = x**3 * y**2 + 2 * x**2 * y - 3 * z * x + z
    result = hornermcts.optimize(expr, iterations=20, seed=0)
    point = {x: 0.5, y: -1.25, z: 2.0}
    want = float(expr.subs(point))
    order = [x, y, z]
    values = [point[s] for s in order]
    assert codegen.load_python(codegen.to_python(result, args=order))(values) == pytest.approx(want, rel=1e-14)
    assert codegen.load_python(codegen.to_numpy(result, args=["x", "y", "z"]))(values) == pytest.approx(want, rel=1e-14)
    compiled = codegen.compile(result, args=order)
    assert compiled.symbols == (x, y, z)
    assert compiled(values) == pytest.approx(want, rel=1e-14)
    assert "x[0]  x" in codegen.to_c(result, args=order) and "x(3)  z" in codegen.to_fortran(result, args=order)
    w = sympy.Symbol("w")  # an extra argument is accepted and not read
    f = codegen.load_python(codegen.to_python(result, args=[w, z, y, x]))
    assert f([9.0, point[z], point[y], point[x]]) == pytest.approx(want, rel=1e-14)


def test_args_errors_name_the_problem():
    import hornermcts

    x, y, z = sympy.symbols("x y z")
    result = hornermcts.optimize(x * y + z, iterations=5, seed=0)
    with pytest.raises(ValueError, match="does not name the variable.*z"):
        codegen.to_c(result, args=[x, y])
    with pytest.raises(ValueError, match="twice"):
        codegen.to_python(result, args=[x, y, z, "x"])
    with pytest.raises(TypeError, match="symbols or their names"):
        codegen.to_numpy(result, args=[x, y, z + 1])


def test_coefficients_beyond_pythons_int_to_text_limit():
    """A 5,000-digit rational coefficient is written correctly rounded; one beyond double's range is refused."""
    big = sympy.Integer(7) ** 6000
    expr = (big + 1) / (big - 1) * x * y + sympy.Rational(1, 3) * y + x
    result = optimize(expr, iterations=5, seed=0)
    exact = float(expr.subs({x: 2, y: 3}))
    assert codegen.load_python(codegen.to_python(result))([2.0, 3.0]) == pytest.approx(exact, rel=1e-15)
    assert codegen.load_python(codegen.to_numpy(result))(2.0, 3.0) == pytest.approx(exact, rel=1e-15)
    assert "L" in codegen.to_c(result, precision="long double")
    if shutil.which("cc"):
        assert codegen.compile(result, cache=False)([2.0, 3.0]) == pytest.approx(exact, rel=1e-15)
    huge = optimize(big * x * y + x, iterations=5, seed=0)
    for language in ("c", "python", "numpy", "fortran"):
        with pytest.raises(ValueError, match=r"about 10\^5071, is beyond the range of double") as err:
            codegen.emit(huge, language)
        assert "\n" not in str(err.value) and len(str(err.value)) < 400


def test_complex_constants_are_refused_where_the_code_is_real():
    """``I`` (an opaque piece): plain Python computes it; C, NumPy, Fortran and compensated code refuse it."""
    result = optimize(5 * sympy.I * x + 6, iterations=5, seed=0)
    assert codegen.load_python(codegen.to_python(result))([2.0]) == 6 + 10j
    for language, options in (("c", {}), ("numpy", {}), ("fortran", {}), ("python", {"precision": "compensated"})):
        with pytest.raises(ValueError, match="complex value"):
            codegen.emit(result, language, **options)
