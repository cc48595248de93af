"""The blocked batch evaluation of compiled code: same bits as the single-point function, every layout and thread count.

``codegen.compile`` evaluates many points in ``name_blocks_batch``: the
program on vectors of ``block`` doubles (GCC/Clang vector extension), the
last block padded, the points split over ``workers`` threads.  Each lane
performs the single-point function's operations in the same order, and the
default flags hold ``-ffp-contract=off`` (no fused multiply-add) and no
``-ffast-math``, so the values must be bit-identical to the single-point
function ``f`` called point by point (through ``ctypes`` on the same
library), for every block size, thread count, layout and number of points
(0, 1, not a multiple of the block).  Accuracy against exact rational
values for large blocks and several threads: ``test_codegen.py``.
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
from hornermcts.errors import OptionError
from hornermcts.dag.horner import horner_dag
from hornermcts.pipeline import optimize
from hornermcts.parse import as_polynomial
from hornermcts.polynomial import Polynomial

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")

X, Y, Z = sympy.symbols("x y z")


def native_width() -> int:
    """Doubles per vector of this CPU as ``-march=native`` targets it: 8 with AVX-512, 4 with AVX, else 2."""
    try:
        flags = next((line.split() for line in open("/proc/cpuinfo") if line.startswith("flags")), [])
    except OSError:
        flags = []
    return 8 if "avx512f" in flags else 4 if "avx" in flags else 2


def single_point(compiled, points: np.ndarray) -> np.ndarray:
    """The library's single-point function ``f`` called once per point (rows of ``points``)."""
    lib = ctypes.CDLL(str(compiled.library))
    fn = getattr(lib, compiled.name)
    pointer = ctypes.POINTER(ctypes.c_double)
    k = compiled.n_outputs
    out = np.empty((len(points), k))
    rows = np.ascontiguousarray(points, dtype=np.float64)
    if k == 1:
        fn.restype = ctypes.c_double
        fn.argtypes = [pointer]
        for i, row in enumerate(rows):
            out[i, 0] = fn(row.ctypes.data_as(pointer))
        return out[:, 0]
    fn.restype = None
    fn.argtypes = [pointer, pointer]
    for i, row in enumerate(rows):
        fn(row.ctypes.data_as(pointer), out[i].ctypes.data_as(pointer))
    return out


@st.composite
def polynomials(draw, n_vars=None):
    """A random polynomial in 1..3 variables with integer and rational coefficients."""
    nv = n_vars or draw(st.integers(1, 3))
    symbols = (X, Y, Z)[:nv]
    rows = draw(st.lists(st.tuples(*[st.integers(0, 4)] * nv), min_size=1, max_size=12, unique=True))
    coefs = draw(st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=7).filter(bool),
                          min_size=len(rows), max_size=len(rows)))
    return Polynomial(symbols, [list(r) for r in rows], [sympy.Rational(c.numerator, c.denominator) for c in coefs])


@needs_cc
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(poly=polynomials(), block=st.sampled_from([1, 2, 4, 8, 16, 32]), workers=st.integers(1, 3),
       n=st.one_of(st.sampled_from([0, 1]), st.integers(2, 140)), seed=st.integers(0, 2**16),
       chunk=st.sampled_from([None, 1, 3]))
def test_blocks_are_bit_identical_to_the_single_point_function(poly, block, workers, n, seed, chunk):
    """Every block size, with the program in one function or in parts (run part by part over groups of blocks)."""
    f = codegen.compile(horner_dag(poly), cache=False, block=block, chunk=chunk)
    points = np.random.default_rng(seed).uniform(-2.0, 2.0, (n, poly.n_vars))
    single = single_point(f, points)
    np.testing.assert_array_equal(f(points, workers=workers), single)
    np.testing.assert_array_equal(f(points.T, layout="variables", workers=workers), single)
    np.testing.assert_array_equal(f(np.asfortranarray(points), workers=workers), single)  # any strides


@needs_cc
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=polynomials(3), second=polynomials(3), block=st.sampled_from([2, 4, 8]),
       workers=st.integers(1, 3), n=st.integers(0, 40), chunk=st.sampled_from([None, 2]))
def test_several_outputs_and_opaque_pieces_every_lane(first, second, block, workers, n, chunk):
    opaque = as_polynomial(first.to_sympy() * sympy.sin(Z) + X / (1 + Y**2))
    result = [horner_dag(first), horner_dag(second), horner_dag(opaque)]
    f = codegen.compile(result, cache=False, block=block, chunk=chunk)
    points = np.random.default_rng(n).uniform(-1.0, 1.0, (n, len(f.symbols)))
    single = single_point(f, points)
    assert f(points, workers=workers).shape == (n, 3)
    np.testing.assert_array_equal(f(points, workers=workers), single)
    np.testing.assert_array_equal(f(points.T, layout="variables", workers=workers), single)


@needs_cc
@pytest.mark.parametrize("block", [4, 8])
def test_long_programs_split_into_parts_keep_their_bits(block):
    poly = as_polynomial(sympy.expand((X + 2 * Y - Z / 3 + 1) ** 9))
    result = optimize(poly, iterations=20, seed=0, factor=False)  # the expansion: a long program
    f = codegen.compile(result, cache=False, block=block, chunk=10)
    whole = codegen.compile(result, cache=False, block=block, chunk=None)
    assert "_block_part1" in f.source and "_block_part" not in whole.source
    # the parts run in turn over a group of blocks, each part on every block of the group
    assert "for (long b = 0; b < HM_GROUP; ++b) f_block_part1(x[b], t[b]);" in f.source
    points = np.random.default_rng(1).uniform(-1.0, 1.0, (101, 3))
    np.testing.assert_array_equal(f(points, workers=2), single_point(f, points))
    np.testing.assert_array_equal(whole(points), f(points))


@needs_cc
@pytest.mark.parametrize("expr", [sympy.Integer(0), sympy.Rational(-7, 2)])
def test_constant_outputs_fill_every_lane(expr):
    f = codegen.compile(horner_dag(as_polynomial(expr)), cache=False, block=4)
    assert f(np.zeros((6, 0))).tolist() == [float(expr)] * 6


@needs_cc
def test_layouts_shapes_and_the_exact_value():
    dag = horner_dag(as_polynomial(X**2 * Y - 3 * X * Y / 7 + 1))
    f = codegen.compile(dag, cache=False)
    assert codegen.BLOCK == "native" and f.block == native_width()  # the target's vector width
    grid = np.random.default_rng(2).uniform(-1.0, 1.0, (2, 5, 3))  # variables first: 5 x 3 points
    by_points = f(np.moveaxis(grid, 0, -1))
    assert by_points.shape == (5, 3)
    np.testing.assert_array_equal(f(grid, layout="variables"), by_points)
    at = {s: Fraction(v) for s, v in zip(f.symbols, grid[:, 1, 2])}  # f.symbols: the order on the axis
    x, y = at[X], at[Y]
    exact = x**2 * y - 3 * x * y / 7 + 1
    assert abs(Fraction(by_points[1, 2]) - exact) <= abs(exact) * Fraction(1, 2**50)


@needs_cc
@pytest.mark.parametrize("precision", ["long double", "compensated"])
def test_other_precisions_go_point_by_point_on_threads(precision):
    dag = horner_dag(as_polynomial(X**3 - 3 * X**2 * Y + Y / 3))
    f = codegen.compile(dag, cache=False, precision=precision)
    assert f.block is None and "_blocks_batch" not in f.source
    points = np.random.default_rng(3).uniform(-1.0, 1.0, (1001, 2))
    one = f(points, workers=1)
    np.testing.assert_array_equal(f(points, workers=3), one)
    np.testing.assert_array_equal(f(points.T, layout="variables", workers=2), one)


@needs_cc
@pytest.mark.parametrize("workers", [1, 2])
def test_a_failed_allocation_is_a_memory_error(workers):
    """The blocked function returns -1 when it cannot allocate its temporaries: the call raises, from any thread."""
    poly = as_polynomial(sympy.expand((X + 2 * Y - Z / 3 + 1) ** 5))
    f = codegen.compile(horner_dag(poly), cache=False, block=2, chunk=3)
    assert "malloc(" in f.source and "if (!raw) return -1;" in f.source
    f._blocks = lambda *args: -1
    with pytest.raises(MemoryError, match="f_blocks_batch could not allocate"):
        f(np.zeros((1000, 3)), workers=workers)


@needs_cc
@pytest.mark.parametrize("block", [2, 8, "native"])
def test_blocked_code_with_parts_compiles_as_c99(tmp_path, block):
    """The blocked code uses C99's library only (no aligned_alloc): strict -std=c99 compiles it without
    an implicit declaration, whose int result would cut the pointer."""
    poly = as_polynomial(sympy.expand((X + 2 * Y - Z / 3 + 1) ** 5))
    source = tmp_path / "f.c"
    source.write_text(codegen.to_c(horner_dag(poly), block=block, chunk=3))
    assert "f_block_part1" in source.read_text()
    subprocess.run(["cc", "-std=c99", "-O1", "-c", "-Werror=implicit-function-declaration", "-Werror=int-conversion",
                    "-o", str(tmp_path / "f.o"), str(source)], check=True, capture_output=True)


@needs_cc
def test_bad_batch_options():
    dag = horner_dag(as_polynomial(X + Y))
    with pytest.raises(OptionError, match="block=3"):
        codegen.compile(dag, cache=False, block=3)
    with pytest.raises(OptionError, match="block=4"):
        codegen.to_c(dag, precision="long double", block=4)
    f = codegen.compile(dag, cache=False)
    with pytest.raises(OptionError, match="layout='rows'"):
        f(np.zeros((2, 2)), layout="rows")
    with pytest.raises(OptionError, match="workers=0"):
        f(np.zeros((2, 2)), workers=0)
    with pytest.raises(OptionError, match="first axis"):
        f(np.zeros((3, 2)), layout="variables")
