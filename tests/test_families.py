"""Benchmark families: checked against SymPy, the published counts and FORM."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy
from sympy.polys.subresultants_qq_zz import sylvester

from hornermcts.research import families, form
from hornermcts.research.families import (
    available,
    determinant,
    hep_sigma,
    load,
    random_polynomial,
    resultant,
    structured_random,
)
from hornermcts.cost.counting import original_count
from hornermcts.polynomial import Polynomial
from hornermcts.polynomial.text import form_names, iter_terms, to_text, write_text

ROOT = Path(__file__).resolve().parents[1]
GENERATE = ROOT / "expressions" / "generate.py"


def same_expression(poly: Polynomial, expr) -> bool:
    return sympy.expand(poly.to_sympy() - expr) == 0


# ---------------------------------------------------------------- resultant
@pytest.mark.parametrize("m", [1, 2, 3])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_resultant_matches_sympy(m, n):
    x = sympy.Symbol("x")
    a = sympy.symbols(f"a0:{m + 1}")
    b = sympy.symbols(f"b0:{n + 1}")
    f = sum(a[i] * x**i for i in range(m + 1))
    g = sum(b[i] * x**i for i in range(n + 1))
    p = resultant(m, n)
    assert p.symbols == a + b
    assert same_expression(p, sylvester(f, g, x, 1).det())
    expected = sympy.resultant(f, g, x)
    if m < n and m * n % 2:
        # SymPy swaps f, g when deg f < deg g and forgets the sign
        # (-1)^(mn): sympy/sympy#10666, still in 1.14
        expected = -expected
    assert same_expression(p, expected)


def test_resultant_degenerate_degrees():
    a0, a1, a2, b0 = sympy.symbols("a0 a1 a2 b0")
    assert same_expression(resultant(2, 0), b0**2)
    assert same_expression(resultant(0, 0), sympy.Integer(1))
    x = sympy.Symbol("x")
    assert same_expression(resultant(0, 2), sympy.resultant(a0, sum(sympy.Symbol(f"b{i}") * x**i for i in range(3)), x))
    with pytest.raises(ValueError):
        resultant(-1, 2)


def test_resultant_published_counts():
    p = resultant(7, 5)
    assert (p.n_terms, p.n_vars, original_count(p).total) == (11380, 14, 142711)
    q = resultant(7, 6)  # well under a second here
    assert (q.n_terms, q.n_vars, original_count(q).total) == (43166, 15, 587880)


def test_resultant_value_at_a_point_is_sylvester_determinant():
    # exact evaluation against an independent Sylvester determinant for (7, 5)
    m, n = 7, 5
    rng = np.random.default_rng(3)
    vals = [Fraction(int(v), int(d)) for v, d in zip(rng.integers(-9, 10, m + n + 2), rng.integers(1, 5, m + n + 2))]
    a, b = vals[: m + 1], vals[m + 1 :]
    syl = sympy.zeros(m + n, m + n)
    for i in range(n):
        for k in range(m + 1):
            syl[i, i + k] = sympy.Rational(a[m - k].numerator, a[m - k].denominator)
    for j in range(m):
        for k in range(n + 1):
            syl[n + j, j + k] = sympy.Rational(b[n - k].numerator, b[n - k].denominator)
    expected = syl.det()
    got = resultant(m, n).evaluate(vals)
    assert sympy.Rational(got.numerator, got.denominator) == expected


def test_resultant_is_deterministic_and_sorted():
    p, q = resultant(4, 3), resultant(4, 3)
    assert np.array_equal(p.exponents, q.exponents) and p.coefficients == q.coefficients
    rows = [tuple(r) for r in p.exponents.tolist()]
    assert rows == sorted(rows, reverse=True)


# -------------------------------------------------------------- determinant
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_determinant_matches_sympy(n):
    M = sympy.Matrix(n, n, lambda i, j: sympy.Symbol(f"m_{i}_{j}"))
    p = determinant(n)
    assert p.symbols == tuple(M)
    assert same_expression(p, M.det(method="berkowitz"))


@pytest.mark.parametrize("n,terms", [(4, 24), (5, 120), (6, 720), (7, 5040)])
def test_determinant_sizes(n, terms):
    p = determinant(n)
    assert (p.n_vars, p.n_terms) == (n * n, terms)
    assert set(p.coefficients) == {1, -1}
    assert (p.exponents.sum(axis=1) == n).all()


def test_determinant_rejects_empty():
    with pytest.raises(ValueError):
        determinant(0)


# ----------------------------------------------------------------- random
def test_random_polynomial_shape_and_determinism():
    p = random_polynomial(12, 400, max_degree=3, seed=7)
    assert (p.n_vars, p.n_terms) == (12, 400)
    assert p.exponents.sum(axis=1).max() <= 3
    assert all(c != 0 and abs(c) <= 9 and c.is_Integer for c in p.coefficients)
    assert p == random_polynomial(12, 400, max_degree=3, seed=7)
    assert p != random_polynomial(12, 400, max_degree=3, seed=8)


@pytest.mark.parametrize("kind", ["one", "sign", "integer", "rational"])
def test_random_polynomial_coefficient_kinds(kind):
    p = random_polynomial(4, 30, seed=1, coefficients=kind)
    cs = set(p.coefficients)
    if kind == "one":
        assert cs == {1}
    elif kind == "sign":
        assert cs <= {1, -1}
    elif kind == "integer":
        assert all(c.is_Integer for c in cs)
    else:
        assert any(not c.is_Integer for c in cs)


def test_random_polynomial_dense_and_impossible():
    # all 10 monomials of degree <= 2 in 3 variables
    p = random_polynomial(3, 10, max_degree=2, seed=0)
    assert p.n_terms == 10
    with pytest.raises(ValueError, match="only 10 monomials"):
        random_polynomial(3, 11, max_degree=2, seed=0)
    with pytest.raises(ValueError):
        random_polynomial(3, 5, coefficients="complex")


# -------------------------------------------------------------- structured
def test_structured_random_is_the_expanded_sum_of_products():
    symbols, factors, products, bits, _ = families._structured_parts(8, 60, seed=5)
    to_expr = lambda packed: families._to_polynomial(symbols, packed, bits).to_sympy()
    blocks = [to_expr(f) for f in factors]
    expected = sum(
        sympy.Rational(c) * to_expr({hub: 1}) * sympy.Mul(*[blocks[i] for i in idx])
        for c, hub, idx in products
    )
    assert same_expression(structured_random(8, 60, seed=5), expected)


def test_structured_random_size_sharing_and_determinism():
    p = structured_random(30, 3000, seed=2)
    assert p.n_vars == 30
    assert 3000 <= p.n_terms <= 3000 + 4**4 * 4  # at most one product too many
    assert (p.exponents > 0).any(axis=0).all()
    assert p == structured_random(30, 3000, seed=2)
    assert p != structured_random(30, 3000, seed=3)
    # shared structure: the variables are far from equally frequent
    occurrences = (p.exponents > 0).sum(axis=0)
    assert occurrences.max() > 4 * np.median(occurrences)


@pytest.mark.parametrize("n_vars", [15, 50])
def test_structured_random_range(n_vars):
    p = structured_random(n_vars, 1000, seed=0, coefficients="integer")
    assert p.n_vars == n_vars and p.n_terms >= 1000


# --------------------------------------------------------------- HEP, load
def test_hep_sigma_counts():
    p = hep_sigma()
    assert (p.n_terms, p.n_vars, original_count(p).total) == (5717, 15, 47424)


def test_hep_sigma_file_is_linked_from_expressions():
    link = ROOT / "expressions" / "hep_sigma.txt"
    assert link.is_symlink()
    assert link.resolve() == (ROOT / "hornermcts" / "data" / "hep_sigma.txt").resolve()


def test_load_names_and_aliases():
    assert available()[:3] == ["hep_sigma", "res(7,5)", "res(7,6)"]
    for name in ("res(7,5)", "res75", "res_7_5", "RES(7, 5)"):
        assert load(name).n_terms == 11380
    assert load("res(2,1)") == resultant(2, 1)
    assert load("det(5)").n_terms == 120 and load("det6").n_terms == 720
    assert load("hep_sigma").n_terms == 5717


@pytest.mark.parametrize("bad", ["res(7)", "det(0)", "hep", "sigma", ""])
def test_load_unknown_name_lists_valid_ones(bad):
    with pytest.raises(ValueError, match=r"valid names: hep_sigma, res\(7,5\), res\(7,6\)"):
        load(bad)


# ----------------------------------------------------------------- textio
def test_text_round_trip_through_sympy():
    x, y, z = sympy.symbols("x y z")
    p = Polynomial((x, y, z), [[2, 0, 1], [0, 3, 0], [0, 0, 0], [1, 1, 1]], [Fraction(-3, 4), 1, 5, -1])
    for syntax in ("form", "sympy"):
        text = to_text(p, syntax=syntax)
        assert len(text.splitlines()) == 4
        back = sum(sympy.sympify(line.replace("^", "**")) for line in text.splitlines())
        assert same_expression(p, back)
    assert to_text(p).splitlines() == ["-3/4*x^2*z", "+y^3", "+5", "-x*y*z"]


def test_text_edge_cases():
    x = sympy.Symbol("x")
    assert to_text(Polynomial((x,), [], [])) == "0\n"
    assert list(iter_terms(Polynomial((x,), [[0]], [-1]))) == ["-1"]
    with pytest.raises(ValueError, match="floating-point"):
        to_text(Polynomial((x,), [[1]], [0.5]))
    assert to_text(Polynomial((x,), [[1]], [0.5]), syntax="sympy") == "+0.500000000000000*x\n"
    with pytest.raises(ValueError):
        to_text(Polynomial((x,), [[1]], [1]), syntax="latex")


def test_text_opaque_pieces_in_sympy_syntax():
    x, s = sympy.symbols("x s")
    p = Polynomial((x, s), [[1, 2]], [2], opaque={s: sympy.sin(x)})
    assert to_text(p, syntax="sympy") == "+2*x*(sin(x))**2\n"
    assert to_text(p) == "+2*x*s^2\n"


def test_form_names_are_valid_and_distinct():
    syms = sympy.symbols("a m_1_10 m_11_0 m110 _1 x_")
    renamed = form_names(syms)
    written = [renamed.get(s, str(s)) for s in syms]
    assert len(set(written)) == len(written)
    assert all(n[0].isalpha() and n.isalnum() for n in written)
    assert "a" not in map(str, renamed) and sympy.Symbol("m110") not in renamed
    out = io.StringIO()
    assert write_text(determinant(2), out) == {
        sympy.Symbol(f"m_{i}_{j}"): f"m{i}{j}" for i in range(2) for j in range(2)
    }
    assert out.getvalue() == "+m00*m11\n-m01*m10\n"


def test_write_text_to_path_streams_all_terms(tmp_path):
    p = resultant(7, 5)
    path = tmp_path / "res75.txt"
    assert write_text(p, path) == {}
    lines = path.read_text().splitlines()
    assert len(lines) == 11380 and all(line[0] in "+-" for line in lines)


@pytest.mark.slow
def test_generate_cli_writes_form_text(tmp_path):
    out = tmp_path / "r.txt"
    run = subprocess.run(
        [sys.executable, str(GENERATE), "res", "2", "2", "-o", str(out)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "operations unoptimized" in run.stderr
    back = sum(sympy.sympify(line.replace("^", "**")) for line in out.read_text().splitlines())
    assert same_expression(resultant(2, 2), back)
    bad = subprocess.run([sys.executable, str(GENERATE), "load", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and "valid names" in bad.stderr


# ------------------------------------------------------------------- FORM
@pytest.mark.slow
@pytest.mark.form
@pytest.mark.parametrize(
    "make",
    [lambda: resultant(7, 5), lambda: resultant(7, 6), lambda: determinant(6),
     lambda: structured_random(30, 2000, seed=4),
     lambda: random_polynomial(10, 300, seed=4, coefficients="rational")],
    ids=["res(7,5)", "res(7,6)", "det(6)", "structured(30,2000)", "random-rational"],
)
def test_original_count_agrees_with_form(make, tmp_path):
    p = make()
    path = tmp_path / "p.txt"
    write_text(p, path)
    run = subprocess.run(
        [sys.executable, str(form.form_ops_path()), str(path), "--level", "1"],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["original"] == original_count(p).total


def test_complete_symmetric_is_every_monomial_of_the_degree_once():
    p = families.complete_symmetric(4, 3)
    assert p.n_terms == 20 and set(p.coefficients) == {1}  # C(4 + 3 - 1, 3)
    assert set(p.exponents.sum(axis=1).tolist()) == {3}
    assert len({tuple(row) for row in p.exponents.tolist()}) == 20
    x = sympy.symbols("x0:4")
    assert sympy.expand(p.to_sympy() - p.to_sympy().subs(dict(zip(x, x[::-1])), simultaneous=True)) == 0


@pytest.mark.parametrize("seed", [0, 1])
def test_renamed_is_the_same_polynomial_under_other_names(seed):
    p = families.load("res(3,2)")
    q = families.renamed(p, seed)
    assert q.n_terms == p.n_terms and set(q.coefficients) == set(p.coefficients)
    assert sorted(map(str, q.symbols)) == sorted(f"v{k}" for k in range(p.n_vars))
    names = dict(zip(p.symbols, q.symbols))
    assert sympy.expand(p.to_sympy().subs(names, simultaneous=True) - q.to_sympy()) == 0
    assert [str(s) for s in q.symbols] != [f"v{k}" for k in range(p.n_vars)]  # the names are shuffled


def test_gradient_matches_sympy():
    p = families.random_polynomial(4, 30, max_degree=4, seed=2, coefficients="rational")
    expr = p.to_sympy()
    for symbol, g in zip(p.symbols, families.gradient(p)):
        assert sympy.expand(g.to_sympy() - sympy.diff(expr, symbol)) == 0


def test_pendulum_equations_are_the_textbook_double_pendulum():
    """Relative angles: M = [[(m0+m1) l0^2 + m1 l1^2 + 2 m1 l0 l1 cos q1, m1 l1^2 + m1 l0 l1 cos q1], [., m1 l1^2]]."""
    m0, m1, l0, l1, g, q0, q1, u0, u1 = sympy.symbols("m0 m1 l0 l1 g q0 q1 u0 u1")
    c1 = sympy.cos(q1)
    expected = [(m0 + m1) * l0**2 + m1 * l1**2 + 2 * m1 * l0 * l1 * c1, m1 * l1**2 + m1 * l0 * l1 * c1,
                m1 * l1**2 + m1 * l0 * l1 * c1, m1 * l1**2,
                -(m0 + m1) * g * l0 * sympy.cos(q0) - m1 * g * l1 * sympy.cos(q0 + q1)
                + m1 * l0 * l1 * sympy.sin(q1) * (2 * u0 * u1 + u1**2),
                -m1 * g * l1 * sympy.cos(q0 + q1) - m1 * l0 * l1 * u0**2 * sympy.sin(q1)]
    got = families.pendulum_equations(2)
    assert len(got) == 6
    for e, f in zip(got, expected):
        assert sympy.expand(sympy.expand_trig(e - f)) == 0
    assert sum(len(sympy.Add.make_args(e)) for e in families.pendulum_equations(5)) == 1385


def test_form_ops_is_found_beside_the_repository(monkeypatch):
    """``../shared/tools/form_ops.py`` (the FORM oracle's counter) is found where the README says, from any layout."""
    from pathlib import Path

    from hornermcts.research import form

    beside = Path(__file__).resolve().parents[2] / "shared" / "tools" / "form_ops.py"
    if not beside.is_file():
        pytest.skip(f"{beside} is not there (a clone without the shared folder)")
    monkeypatch.delenv("HORNERMCTS_FORM_OPS", raising=False)
    assert form.form_ops_path() == beside
