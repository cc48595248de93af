"""Tests for hornermcts.parse: SymPy expressions, Polys and text to Polynomial."""
from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hornermcts.parse import (
    ParseError,
    as_polynomial,
    from_poly,
    from_sympy,
    from_text,
    read_file,
)
from hornermcts.parse.text import expression_name
from hornermcts.polynomial import Polynomial

HEP = Path(__file__).resolve().parents[2] / "expressions" / "hep_sigma.txt"

x, y, z, w = sympy.symbols("x y z w")
f, g = sympy.Function("f"), sympy.Function("g")
R = sympy.Rational


def assert_exact(poly: Polynomial, expr) -> None:
    assert sympy.expand(poly.to_sympy() - sympy.sympify(expr)) == 0


def compact(poly: Polynomial) -> Polynomial:
    """``poly`` without its all-zero columns (the parsers only keep used variables)."""
    keep = [j for j in range(poly.n_vars) if poly.exponents[:, j].any()]
    return Polynomial(
        [poly.symbols[j] for j in keep], poly.exponents[:, keep], poly.coefficients
    )


# ------------------------------------------------------------ from_sympy: exactness
SMALL_CASES = [
    x**2 * y + 3,
    (x + 1) * (y + 2) ** 3,
    (x - y) ** 5 - (y - x) ** 5,
    (x + y + z) ** 4 * (w - 1),
    x * (y + 1) - x * y,
    R(3, 4) * x**2 - R(1, 3) * y,
    sympy.Float(2.5) * x + sympy.Float("1e-3") * y + 1.5,
    10**40 * x * y - 10**40,
    sympy.Integer(5),
    sympy.Integer(0),
    R(3, 4),
    sympy.sin(x) + sympy.sin(x) ** 2 * y,
    f(y) * x + f(x + 1),
    1 / z + 1 / z**2 + x / z**3,
    sympy.sqrt(x) + x ** R(3, 2) + x ** R(-1, 2),
    x ** R(2, 3) * y,
    sympy.exp(x) * y + sympy.exp(2 * x),
    x**y + x,
    sympy.pi * x + sympy.E + sympy.sqrt(2) * y + sympy.I,
    sympy.sin(x + y**2) * (x + 1) ** 2,
    1 / (x + 1) + 1 / (x + 1) ** 2,
    x / (2 * y),
    sympy.log(x) * sympy.cos(y) + g(x, y, z),
    x**2.0 + x,
    (x + sympy.sin(y)) ** 3,
    (sympy.Rational(1, 2) * x + sympy.Float(0.25)) ** 2,
]


@pytest.mark.parametrize("expr", SMALL_CASES, ids=str)
def test_from_sympy_is_exact(expr):
    assert_exact(from_sympy(expr), expr)


def test_expansion_is_sparse_dict_arithmetic():
    p = from_sympy((x + 1) * (y + 2) ** 3)
    assert p.symbols == (y, x)  # first occurrence in the args ((y + 2)**3, x + 1)
    assert p.term_dict() == {
        (0, 0): 8, (1, 0): 12, (2, 0): 6, (3, 0): 1,
        (0, 1): 8, (1, 1): 12, (2, 1): 6, (3, 1): 1,
    }


def test_constants_and_python_numbers():
    assert from_sympy(5).term_dict() == {(): 5}
    assert from_sympy(sympy.Integer(0)).n_terms == 0
    assert from_sympy(0).symbols == ()
    assert from_sympy(R(3, 4)).coefficients == (R(3, 4),)
    assert from_sympy(Fraction(3, 4)).coefficients == (R(3, 4),)
    c = from_sympy(2.5).coefficients[0]
    assert isinstance(c, sympy.Float) and c == sympy.Float(2.5)
    assert_exact(from_sympy(7), 7)


def test_floats_stay_floats_and_rationals_stay_exact():
    p = from_sympy(sympy.Float("0.1") * x + R(1, 10) * y + 10**40 * z)
    coef = dict(zip(p.symbols, p.coefficients))
    assert isinstance(coef[x], sympy.Float) and coef[x] == sympy.Float("0.1")
    assert coef[y] == R(1, 10) and coef[y].is_Rational
    assert coef[z] == 10**40 and coef[z].is_Integer


def test_duplicates_merge_to_zero():
    expr = sympy.Add(x * y, -x * y, 2 * z, -z, -z, evaluate=False)
    p = from_sympy(expr)
    assert p.n_terms == 0 and p.symbols == ()
    p = from_sympy(sympy.Add(x, x, 3, evaluate=False))
    assert p.term_dict() == {(1,): 2, (0,): 3}


def test_unevaluated_and_nested_structures():
    e = sympy.Mul(2, sympy.Mul(x, 3, sympy.Pow(y, 0, evaluate=False), evaluate=False), evaluate=False)
    assert from_sympy(e).term_dict() == {(1,): 6}
    nested = x
    for _ in range(3000):  # a deep left-nested unevaluated sum: no RecursionError
        nested = sympy.Add(nested, sympy.Integer(1), evaluate=False)
    assert from_sympy(nested).term_dict() == {(1,): 1, (0,): 3000}
    assert from_sympy(sympy.Pow(2, -1, evaluate=False) * x).coefficients == (R(1, 2),)


# ------------------------------------------------------------ placeholder rules
def test_same_piece_same_placeholder():
    p = from_sympy(sympy.sin(x) * y + sympy.sin(x) ** 3 + sympy.sin(x) * x)
    assert len(p.opaque) == 1
    assert list(p.opaque.values()) == [sympy.sin(x)]


def test_negative_powers_share_the_reciprocal():
    p = from_sympy(1 / z + 3 / z**2 + x / z**5)
    ((s, piece),) = p.opaque.items()
    assert piece == 1 / z
    assert dict_in_order(p, [s, x]) == {(1, 0): 1, (2, 0): 3, (5, 1): 1}


def test_rational_powers_share_the_root():
    p = from_sympy(sympy.sqrt(x) + x ** R(3, 2) + x ** R(5, 2) * y)
    ((s, piece),) = p.opaque.items()
    assert piece == sympy.sqrt(x)
    col = p.symbols.index(s)
    assert sorted(int(e) for e in p.exponents[:, col]) == [1, 3, 5]
    q = from_sympy(x ** R(-3, 2))
    assert list(q.opaque.values()) == [x ** R(-1, 2)] and q.exponents.tolist() == [[3]]


def test_opaque_pieces_stay_intact():
    e = sympy.sin(x**2 + 2 * x + 1) * y + f((x + 1) ** 2)
    p = from_sympy(e)
    assert set(p.opaque.values()) == {sympy.sin(x**2 + 2 * x + 1), f((x + 1) ** 2)}
    assert x not in p.symbols  # x only occurs inside pieces
    assert_exact(p, e)


def test_placeholder_names_never_clash():
    o0, o1 = sympy.symbols("_o0 _o1")
    e = o0 * sympy.sin(x) + o1 + sympy.cos(sympy.Symbol("_o2"))
    p = from_sympy(e)
    names = [s.name for s in p.symbols]
    assert len(set(names)) == len(names)
    assert {s.name for s in p.opaque}.isdisjoint({"_o0", "_o1", "_o2"})
    assert_exact(p, e)


def test_placeholders_do_not_depend_on_input_order():
    a = from_text("sin(x) + cos(y) + 1/z")
    b = from_text("1/z + cos(y) + sin(x)")
    c = from_sympy(sympy.sin(x) + sympy.cos(y) + 1 / z)
    assert a == b == c


def test_symbols_argument():
    p = from_sympy(x * y + 2, symbols=[z, y, x])
    assert p.symbols == (z, y, x)
    assert p.term_dict() == {(0, 1, 1): 1, (0, 0, 0): 2}
    p = from_sympy(x + sympy.sin(y), symbols=[x])  # y is inside a piece only
    assert p.symbols[0] == x and len(p.opaque) == 1
    with pytest.raises(ValueError, match="y"):
        from_sympy(x + y, symbols=[x])
    with pytest.raises(TypeError, match="Symbol"):
        from_sympy(x, symbols=[x + 1])


# ------------------------------------------------------------ from_sympy: bad input
@pytest.mark.parametrize(
    "bad, exc, words",
    [
        ([x, y], TypeError, ["list", "per entry"]),
        ("x + 1", TypeError, ["from_text"]),
        (sympy.Matrix([[x, y]]), TypeError, ["matrix", "per entry"]),
        (sympy.Eq(x, 1), TypeError, ["Eq(x, 1)", "relation"]),
        (True, TypeError, ["boolean"]),
        (sympy.And(x > 1, y < 2), TypeError, ["boolean"]),
        (sympy.nan * x + y, ValueError, ["nan"]),
        (sympy.zoo * x, ValueError, ["zoo"]),
        (sympy.oo * x + y, ValueError, ["oo"]),
        (x + sympy.oo, ValueError, ["oo"]),
        (None, TypeError, ["NoneType"]),
    ],
    ids=str,
)
def test_from_sympy_bad_input(bad, exc, words):
    with pytest.raises(exc) as info:
        from_sympy(bad)
    for word in words:
        assert word in str(info.value)


def test_non_commutative_is_rejected():
    A, B = sympy.symbols("A B", commutative=False)
    with pytest.raises(ValueError, match="non-commutative"):
        from_sympy(A * B + x)


# ------------------------------------------------------------ 10^5 terms
def random_terms(n, n_vars, seed):
    """``n`` distinct random monomials with integer or rational SymPy coefficients."""
    rng = np.random.default_rng(seed)
    exps = rng.integers(1, 5, size=(2 * n, n_vars)) * (rng.random((2 * n, n_vars)) < 0.5)
    _, first = np.unique(exps, axis=0, return_index=True)
    exps = exps[np.sort(first)[:n]].tolist()
    assert len(exps) == n
    nums = rng.integers(-(10**6), 10**6, size=n).tolist()
    dens = (rng.integers(2, 99, size=n) * (rng.random(n) < 0.3)).tolist()
    return {
        tuple(e): sympy.Rational(a or 7, b) if b else sympy.Integer(a or 7)
        for e, a, b in zip(exps, nums, dens)
    }


@pytest.fixture(scope="module")
def big():
    syms = sympy.symbols("v0:10")
    terms = random_terms(100_000, len(syms), seed=1)
    powers = {(s, k): s if k == 1 else sympy.Pow(s, k) for s in syms for k in range(1, 5)}
    args = []
    for e, c in terms.items():
        factors = [powers[s, k] for s, k in zip(syms, e) if k]
        # build the canonical Mul/Add directly: Add(*args) would spend seconds sorting
        args.append(sympy.Mul._from_args([c] + factors) if factors else c)
    return syms, terms, sympy.Add._from_args(args)


def dict_in_order(poly, syms):
    perm = [poly.symbols.index(s) for s in syms]
    return {tuple(k[j] for j in perm): c for k, c in poly.term_dict().items()}


@pytest.mark.slow
def test_from_sympy_100k_terms(big):
    syms, terms, expr = big
    assert len(expr.args) == 100_000
    p = from_sympy(expr)  # no per-term recursion or sympify: it would overflow the stack here
    assert p.n_terms == 100_000 and set(p.symbols) == set(syms)
    assert dict_in_order(p, syms) == terms


@pytest.mark.slow
def test_read_file_100k_terms_broken_across_lines(big, tmp_path):
    syms, terms, _ = big
    rng = random.Random(2)
    names = [s.name for s in syms]
    chunks = ["F =\n"]
    for e, c in terms.items():
        factors = [f"{s}**{k}" if k > 1 else str(s) for s, k in zip(names, e) if k]
        sign = "-" if c.p < 0 else "+"
        parts = [f"{abs(c.p)}/{c.q}" if c.q != 1 else f"{abs(c.p)}"] + factors
        if rng.random() < 0.1 and factors:  # this term spans lines
            cut = rng.randrange(1, len(parts))
            body = "*".join(parts[:cut]) + "\n   *" + "*".join(parts[cut:])
        else:
            body = "*".join(parts)
        chunks.append(f"{sign} {body}" + ("\n" if rng.random() < 0.5 else " "))
    chunks.append(";\n")
    path = tmp_path / "big.txt"
    path.write_text("".join(chunks))
    p = read_file(path)
    assert p.n_terms == 100_000
    assert dict_in_order(p, syms) == terms


# ------------------------------------------------------------ HEP(sigma)
@pytest.fixture(scope="module")
def hep_lines():
    return [line for line in HEP.read_text().splitlines() if line.strip()]


@pytest.mark.slow
def test_hep_sigma(hep_lines):
    p = read_file(HEP)
    assert p.n_terms == 5717 and p.n_vars == 15
    reference = from_sympy(sympy.Add(*[sympy.sympify(line) for line in hep_lines]))
    assert p == reference
    assert all(c.is_Integer for c in p.coefficients)


def test_hep_sigma_fast_and_general_paths_agree(hep_lines):
    # One giant line (general tokenizer) and the file (line-level fast path).
    one_line = from_text(" ".join(hep_lines))
    assert one_line == read_file(HEP)
    assert read_file(str(HEP)) == one_line


# ------------------------------------------------------------ text syntax
def test_form_and_sympy_syntax_agree():
    form = "Local F =\n  + 3/4*x^2*y^3\n  - 2*x*y\n  + sin(x)^2*z\n  + x^-2\n  + 1/z;\n"
    sym = "3*x**2*y**3/4 - 2*x*y + sin(x)**2*z + x**(-2) + 1/z"
    a, b = from_text(form), from_text(sym)
    assert a == b == from_sympy(sympy.sympify(sym))
    assert_exact(a, sympy.sympify(sym))


TEXT_CASES = [
    "x^2*y + 3",
    "(x+1)*(y+2)^3",
    "-x^2 + x^2^2 - 2^-1*x",
    "3/4*x/2 - x/(2*y)",
    "1.5E+2*x + 1e-3 - 2.5*y + .5",
    "123456789012345678901234567890123456789012345678901234567890*x - 1",
    "x*-y + x - -y",
    "sin(x)*cos(y) + f(x, y)^2 + exp(x)",
    "x^y + x^(1/2) + x^(3/2) + x^-2",
    "sqrt(2)*x + exp(1) + sqrt(-1)*y + sqrt(3)",
    "x/(y+1) + 1/z + 1/z^2",
    "sqrt(x+1)*y",
    "(x+y)^-1 + (x+y)^2",
    "log(x)^2 - log(x)",
    "2*(x - y)*(x + y) - 2*x^2",
]


@pytest.mark.parametrize("text", TEXT_CASES)
def test_from_text_matches_sympy(text):
    p = from_text(text)
    expected = sympy.sympify(text.replace("^", "**"))
    assert_exact(p, expected)
    q = from_text(text.replace("^", "**"))
    assert p == q


def test_numbers_in_text():
    p = from_text("2.5*x + 1e-3*y + 3/4*z + 10000000000000000000000000000000000000000*w")
    coef = dict(zip(p.symbols, p.coefficients))
    assert isinstance(coef[x], sympy.Float) and coef[x] == sympy.Float("2.5")
    assert isinstance(coef[y], sympy.Float) and coef[y] == sympy.Float("1e-3")
    assert coef[z] == R(3, 4)
    assert coef[w] == 10**40
    assert from_text("1.5E+2").coefficients == (sympy.Float("150"),)
    for text, value in [("2.5*x/2", "1.25"), ("x/2.0", "0.5"), ("3/4*x*0.5", "0.375"), ("(x + 0.5)^2/2", "0.5")]:
        c = from_text(text).term_dict()[(1,)]
        assert isinstance(c, sympy.Float) and c == sympy.Float(value), text
    big = 10**5000 - 1  # more digits than Python's default int-from-str limit
    assert from_text("9" * 5000 + "*x").coefficients == (sympy.Integer(big),)


def test_text_header_semicolon_whitespace():
    expected = from_text("x + y")
    for text in ["F = x + y;", "Local F = x\n+\ny ;", "L F=x+y", "  \n x \n\n +y\n", "G F =\n x + y\n;\n"]:
        assert from_text(text) == expected
    for empty in ["", "   ", "\n\n\t\n", ";", "F = ;"]:
        p = from_text(empty)
        assert p.n_terms == 0 and p.symbols == ()


def test_duplicates_in_text_merge_to_zero():
    assert from_text("x*y - y*x + 2*z - z - z").n_terms == 0
    assert from_text("2*x*y - y*x*2 + 1").term_dict() == {(): 1}


def test_text_identifiers_are_plain_symbols():
    p = from_text("N*S*beta + gamma + EFUN*x_1")
    assert {s.name for s in p.symbols} == {"N", "S", "beta", "gamma", "EFUN", "x_1"}
    assert not p.opaque


def test_text_symbols_argument():
    xp = sympy.Symbol("x", positive=True)
    p = from_text("x*y + sin(z)", symbols=[y, xp])
    assert p.symbols[:2] == (y, xp) and list(p.opaque.values()) == [sympy.sin(z)]
    assert read_file(HEP, symbols=sorted(read_file(HEP).symbols, key=str)).n_vars == 15
    with pytest.raises(ValueError, match="w"):
        from_text("x*y + w", symbols=[y, x])
    assert from_text("x + f(y)").symbols[0] == x and y not in from_text("x + f(y)").symbols


def test_deep_nesting_is_a_parse_error():
    assert from_text("(" * 100 + "x" + ")" * 100) == from_sympy(x)
    with pytest.raises(ParseError, match="nested more than 100 deep"):
        from_text("(" * 5000 + "x" + ")" * 5000)


def test_fast_path_boundaries():
    # Lines that look like whole terms but continue the previous/next term.
    cases = [
        "+ x*y\n*z\n+ w",
        "+ x*y\n^2\n+ w",
        "x *\n- y*z\n+ w",
        "x /\n- y*z\n+ w",
        "(x\n+ y*z\n)^2\n- x",
        "f(x\n+ y*z\n, w)",
        "+ 3/4*x\n+ sqrt(2)*y\n- exp(1)*z",
        "x^\n2\n+ y",
        "+ x\n/2",
        "- 2*x^2*y\n+ 3*y\n- 5",
    ]
    for text in cases:
        expected = sympy.sympify(text.replace("\n", " ").replace("^", "**"))
        p = from_text(text)
        assert_exact(p, expected)
        assert p == from_text(text.replace("\n", " ")), text


def test_read_file_streams_line_by_line(tmp_path):
    path = tmp_path / "poly.frm"
    path.write_text("F =\n   + 2*x^2\n   - 3*x*y\n   *z\n   + (x\n   + 1)^2;\n")
    assert read_file(path) == from_sympy(2 * x**2 - 3 * x * y * z + (x + 1) ** 2)
    (tmp_path / "empty.txt").write_text("")
    assert read_file(tmp_path / "empty.txt").n_terms == 0
    (tmp_path / "crlf.txt").write_bytes(b"\xef\xbb\xbfx +\r\n y\r\n")
    assert read_file(tmp_path / "crlf.txt") == from_text("x + y")


# ------------------------------------------------------------ Poly and PolyElement
@pytest.mark.parametrize(
    "poly",
    [
        sympy.Poly(3 * x**2 * y - y + 7, x, y, domain="ZZ"),
        sympy.Poly(x / 2 + R(2, 3) * y**2, x, y, domain="QQ"),
        sympy.Poly(2.5 * x + 1.25 * y, x, y, domain="RR"),
        sympy.Poly(z * x**2 + w * x + 1, x),  # domain ZZ[z, w]
        sympy.Poly(x**2 + sympy.pi * y, x, y, domain="EX"),
        sympy.Poly(z * x + 1, x, domain="QQ(z)"),
        sympy.Poly(sympy.sin(x) ** 2 + 1),
        sympy.Poly(x + 1 / x),
    ],
    ids=lambda p: f"{p.domain}:{p.as_expr()}",
)
def test_from_poly(poly):
    p = from_poly(poly)
    assert_exact(p, poly.as_expr())
    symbol_gens = [g for g in poly.gens if isinstance(g, sympy.Symbol)]
    assert list(p.symbols[: len(symbol_gens)]) == symbol_gens
    assert as_polynomial(poly) == p


def test_from_poly_details():
    p = from_poly(sympy.Poly(2.5 * x + 1, x))
    assert any(isinstance(c, sympy.Float) for c in p.coefficients)
    assert from_poly(sympy.Poly(x, x, y)).symbols == (x, y)  # unused generator kept
    assert from_poly(sympy.Poly(z * x**2, x)).symbols == (x, z)
    assert list(from_poly(sympy.Poly(sympy.sin(x) ** 2 + 1)).opaque.values()) == [sympy.sin(x)]
    with pytest.raises(ValueError, match="x"):
        from_poly(sympy.Poly(x + y, x, y), symbols=[y])


@pytest.mark.parametrize("domain", [sympy.ZZ, sympy.QQ, sympy.RR, sympy.ZZ[z]])
def test_from_poly_element(domain):
    ring, u, v = sympy.ring("u v", domain)
    c = domain.convert(3) if domain != sympy.ZZ[z] else domain.from_sympy(z + 1)
    elem = c * u**2 * v - 2 * v + 1
    p = from_poly(elem)
    assert_exact(p, elem.as_expr())
    assert p.symbols[:2] == sympy.symbols("u v")
    assert as_polynomial(elem) == p


# ------------------------------------------------------------ as_polynomial
def test_as_polynomial_dispatch(tmp_path):
    expected = from_sympy(x**2 + 1)
    path = tmp_path / "p.txt"
    path.write_text("x^2 + 1")
    assert as_polynomial(expected) is expected
    assert as_polynomial(x**2 + 1) == expected
    assert as_polynomial("x^2 + 1") == expected
    assert as_polynomial(path) == expected
    assert as_polynomial(sympy.Poly(x**2 + 1)) == expected
    assert as_polynomial(3).term_dict() == {(): 3}
    assert as_polynomial(Fraction(1, 2)).coefficients == (R(1, 2),)
    assert as_polynomial(x * y, symbols=[y, x]).symbols == (y, x)
    assert as_polynomial(from_sympy(x * y), symbols=[z, y, x]).symbols == (z, y, x)
    with pytest.raises(TypeError, match="list"):
        as_polynomial([x])
    with pytest.raises(TypeError, match="bytes"):
        as_polynomial(b"x + 1")


# ------------------------------------------------------------ text errors
def write(tmp_path, text, name="bad.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


ERROR_CASES = [
    # (text, line number, column, offending text, words in the reason)
    ("x + y\n+ (x*y\n+ z", 2, 3, "+ (x*y", "never closed"),
    ("x + y\n+ x*y)\n", 2, 6, "+ x*y)", "unexpected ')'"),
    ("+ x*)y", 1, 5, "+ x*)y", "unexpected ')'"),
    ("x\n+ x $ y", 2, 5, "+ x $ y", "illegal character '$'"),
    ("x @ y", 1, 3, "x @ y", "illegal character '@'"),
    ("x + y\n+", 2, 2, "+", "end of input"),
    ("* y", 1, 1, "* y", "unexpected '*'"),
    ("x +\n* y", 2, 1, "* y", "unexpected '*'"),
    ("x + y\n- x^^2", 2, 5, "- x^^2", "unexpected '^'"),
    ("x\n+ y/0", 2, 4, "+ y/0", "division by zero"),
    ("x + 3/(y - y)", 1, 6, "x + 3/(y - y)", "division by zero"),
    ("x + 0^-2", 1, 5, "x + 0^-2", "division by zero"),
    ("x y", 1, 3, "x y", "unexpected 'y'"),
    ("x + 2.5.1", 1, 8, "x + 2.5.1", "unexpected number .1"),
    ("x + oo", 1, 5, "x + oo", "infinity"),
    ("x + nan*y", 1, 5, "x + nan*y", "NaN"),
    ("F = x;\ny", 2, 1, "y", "after ';'"),
    ("x = y = 3", 1, 7, "x = y = 3", "a second '='"),
    ("x = 3; y = 4", 1, 8, "x = 3; y = 4", "the input is one expression"),
    ("x + Eq(x^2 + y, 1)", 1, 5, "x + Eq(x^2 + y, 1)", "Eq(...) is a relation or logical operator"),
    ("And(x, y)*2", 1, 1, "And(x, y)*2", "SymPy's And"),
    ("x + sin(x, y)", 1, 5, "x + sin(x, y)", "argument"),
    ("f(x,)", 1, 5, "f(x,)", "unexpected ')'"),
]


@pytest.mark.parametrize("text, line, col, shown, reason", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_parse_errors(tmp_path, text, line, col, shown, reason):
    path = write(tmp_path, text)
    with pytest.raises(ParseError) as info:
        read_file(path)
    err = info.value
    message = str(err)
    assert isinstance(err, ValueError)
    assert message.startswith(f"{path}:{line}:{col}: ")
    assert f'"{shown}"' in message
    assert reason in message
    assert (err.filename, err.lineno, err.col) == (str(path), line, col)
    with pytest.raises(ParseError, match=f"^<string>:{line}:{col}: "):
        from_text(text)


def test_non_utf8_file(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"x + y\n+ caf\xe9*x\n")
    with pytest.raises(ParseError) as info:
        read_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}:2:6: ") and "UTF-8" in message and "caf" in message


def test_missing_file(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(FileNotFoundError, match="nope.txt"):
        read_file(path)


def test_not_errors_but_opaque():
    p = from_text("x^y + x^-2 + x^(1/2)")
    assert set(p.opaque.values()) == {x**y, 1 / x, sympy.sqrt(x)}
    inv = next(s for s, piece in p.opaque.items() if piece == 1 / x)
    assert p.exponents[:, p.symbols.index(inv)].max() == 2
    assert from_text("x^-2") == from_sympy(x**-2)


def test_error_message_of_a_long_line_is_cut(tmp_path):
    text = " + ".join(f"x{k}" for k in range(200)) + " + $ + " + " + ".join(f"y{k}" for k in range(200))
    with pytest.raises(ParseError) as info:
        from_text(text)
    assert "$" in str(info.value) and len(str(info.value)) < 200


# ------------------------------------------------------------ hypothesis
@st.composite
def random_polynomials(draw):
    n_vars = draw(st.integers(1, 8))
    syms = sympy.symbols(f"a0:{n_vars}")
    n_terms = draw(st.integers(0, 60))
    rows, coefs = [], []
    for _ in range(n_terms):
        if rows and draw(st.booleans()) and draw(st.booleans()):
            rows.append(draw(st.sampled_from(rows)))  # duplicate monomial
        else:
            rows.append(draw(st.lists(st.integers(0, 6), min_size=n_vars, max_size=n_vars)))
        num = draw(st.integers(-50, 50) | st.integers(-(10**30), 10**30))
        den = draw(st.sampled_from([1, 1, 1, 2, 3, 7, 12]))
        coefs.append(R(num, den))
    return syms, rows, coefs


def render(syms, rows, coefs, pow_op, rnd):
    tokens = []
    for row, c in zip(rows, coefs):
        tokens.append("-" if c < 0 else "+")
        c = abs(c)
        factors = [[str(c.p)] + (["/", str(c.q)] if c.q != 1 else [])]
        for s, e in zip(syms, row):
            if e == 1 and rnd.random() < 0.8:
                factors.append([str(s)])
            elif e or rnd.random() < 0.05:
                factors.append([str(s), pow_op, str(e)])
        if rnd.random() < 0.3 and len(factors) > 1 and c == 1 and c.q == 1:
            factors = factors[1:]  # no explicit coefficient
        for k, fac in enumerate(factors):
            if k:
                tokens.append("*")
            tokens.extend(fac)
    seps = [" ", "", "\n", "  \n  ", "\t"]
    return "".join(tok + rnd.choice(seps) for tok in tokens)


@pytest.mark.slow
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_polynomials(), st.randoms(use_true_random=False))
def test_random_polynomials_round_trip(data, rnd):
    syms, rows, coefs = data
    expected = compact(Polynomial(syms, np.array(rows, dtype=np.int64).reshape(len(rows), len(syms)), coefs))
    for pow_op in ("^", "**"):
        text = render(syms, rows, coefs, pow_op, rnd)
        assert from_text(text) == expected, text
    unevaluated = sympy.Add(
        *[
            sympy.Mul(c, *[sympy.Pow(s, e, evaluate=False) for s, e in zip(syms, row)], evaluate=False)
            for row, c in zip(rows, coefs)
        ],
        evaluate=False,
    )
    assert from_sympy(unevaluated) == expected
    assert from_sympy(expected.to_sympy()) == expected


def test_a_file_name_given_as_text_gets_a_hint():
    import hornermcts

    with pytest.raises(ParseError, match=r"pathlib.Path\('poly.txt'\)"):
        hornermcts.optimize("poly.txt")
    with pytest.raises(ParseError) as err:
        hornermcts.as_polynomial("x + * y")
    assert "pathlib" not in str(err.value)


@pytest.mark.parametrize("text, name, value", [
    ("x = 3", ("x", 1), 3),
    ("x = y", ("x", 1), sympy.Symbol("y")),
    ("\n\nLocal F =\n  + 2*x^2;\n", ("F", 3), 2 * sympy.Symbol("x") ** 2),
    ("G\n= x*y", ("G", 1), sympy.Symbol("x") * sympy.Symbol("y")),
    ("x^2 + y", None, sympy.Symbol("x") ** 2 + sympy.Symbol("y")),
    ("sin(x) + 1", None, sympy.sin(sympy.Symbol("x")) + 1),
])
def test_a_leading_name_names_the_expression_and_is_not_part_of_it(tmp_path, text, name, value):
    """``x = 3`` is the constant 3 named x (the name is read, not lost); the file and the text agree."""
    assert from_text(text).to_sympy() == value
    assert expression_name(text.split("\n")) == name
    path = write(tmp_path, text)
    assert read_file(path).to_sympy() == value
    with open(path) as fh:
        assert expression_name(fh, str(path)) == name


def test_expression_name_reads_only_the_first_tokens():
    def lines():
        yield "F ="
        yield "x + y"
        yield "+ z"
        raise AssertionError("read the whole input for the header")

    assert expression_name(lines()) == ("F", 1)


def test_a_relation_is_not_a_polynomial():
    x = sympy.Symbol("x")
    for relation in (sympy.Eq(x**2 + x, 1), x < 1, sympy.And(x < 1, x > 0)):
        with pytest.raises(TypeError, match="relation or logical expression.*lhs - rhs"):
            as_polynomial(relation)
    assert from_text("Max(x, 1) + f(x)").opaque  # functions that are not relations stay opaque pieces
