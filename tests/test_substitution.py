"""New variables (sums and differences of the input's): found, kept only when they pay, exact on every path."""
from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_delivered_counts import assert_delivered
from test_structure import rewritten

import hornermcts
from hornermcts import codegen
from hornermcts.research import families
from hornermcts.polynomial.coefficients import scaled_integers, scaled_integers_of, to_fraction
from hornermcts.deadline import Deadline
from hornermcts.pipeline import quick_cost
from hornermcts.parse import from_sympy
from hornermcts.polynomial import Polynomial
from hornermcts.rewrites.substitution import binomial_pairs, linear_substitution

pytest.importorskip("flint")

x, y, z, w = sympy.symbols("x y z w")
quick = quick_cost


def assert_same_polynomial(found, poly: Polynomial, points: int = 3) -> None:
    """The new polynomial, its forms put in, equals ``poly`` at random rational points (exact arithmetic)."""
    rng = random.Random(0)
    for _ in range(points):
        at = {s: Fraction(rng.randint(-50, 50), rng.randint(1, 9)) for s in poly.symbols}
        new_at = {s: to_fraction(found.forms[s].subs(at)) if s in found.forms else at[s] for s in found.joint.symbols}
        assert found.joint.evaluate(new_at) == poly.evaluate(at)


def test_a_difference_is_found_and_pays():
    expr = sympy.expand((x - y) ** 4 * z + (x - y) ** 2 + z**2)  # 9 terms; in l = x - y: l^4*z + l^2 + z^2
    poly = from_sympy(expr)
    found = linear_substitution(poly, cost=quick)
    assert found.terms == (9, 3) and found.steps == (("x", 1, "y"),)
    assert list(found.forms.values()) == [x - y]
    assert_same_polynomial(found, poly)
    result = hornermcts.optimize(expr, seed=0)
    # z*(l^4 + z) + l^2: the form's subtraction, l^2, l^4, a sum, a product, a sum
    assert result.after.total == 6 and list(result.variables.values()) == [x - y]
    assert hornermcts.optimize(expr, seed=0, substitute=False).after.total > 6
    assert sympy.expand(result.expression() - expr) == 0
    assert_delivered(result)


def test_the_code_takes_the_input_variables_in_the_input_order():
    expr = sympy.expand((x - y) ** 4 * z + (x - y) ** 2 * z**3 + 3 * (x - y) * z)
    result = hornermcts.optimize(expr, seed=0)
    assert result.variables and codegen.input_symbols(result) == result.polynomial.symbols == (z, x, y)
    f = codegen.load_python(codegen.to_python(result))
    exact = expr.subs({z: 3, x: sympy.Rational(7, 2), y: sympy.Rational(-1, 3)})
    assert f([3.0, 3.5, -1 / 3]) == pytest.approx(float(exact), rel=1e-12)


def test_a_dag_in_new_variables_is_evaluated_at_the_input_variables():
    expr = sympy.expand((x - y) ** 5 * z + (x - y) * sympy.sin(z))
    result = hornermcts.optimize(expr, seed=0)
    assert list(result.variables.values()) == [x - y]
    point = {x: Fraction(7, 2), y: -2, z: 3}
    with pytest.raises(hornermcts.OptionError, match="sin"):  # sin(3) is not an exact number
        hornermcts.evaluate_dag(result.dag, point)
    sin_z = next(s for s, piece in result.dag.opaque.items() if piece == sympy.sin(z))
    exact = sympy.Rational(11, 2) ** 5 * 3 + sympy.Rational(11, 2) * sympy.Rational(1, 7)
    assert hornermcts.evaluate_dag(result.dag, {**point, sin_z: Fraction(1, 7)}) == exact
    with pytest.raises(hornermcts.OptionError, match="no value for y"):
        hornermcts.evaluate_dag(result.dag, {x: 1, z: 2, sin_z: 0})


def test_hep_sigma_is_873_terms_in_new_variables(hep):
    found = linear_substitution(hep, cost=quick)
    assert found.terms == (5717, 873) and len(found.steps) == 13
    assert found.costs[1] < found.costs[0] / 3  # the quick Horner + CSE count: 5407 -> 1519
    assert_same_polynomial(found, hep)


def test_fewer_terms_that_cost_more_are_not_kept():
    # h_5(x0..x11) has fewer terms in differences (4368 -> 708) but its Horner forms cost more (103 -> 441)
    assert linear_substitution(families.load("symmetric(12,5)"), cost=quick) is None
    # nothing pairs up as a binomial would: no step is tried
    assert linear_substitution(families.load("res(5,4)"), cost=quick) is None


def test_what_is_not_substituted():
    floats = Polynomial((x, y), [[2, 0], [1, 1], [0, 2]], [sympy.Float(1.5), sympy.Float(-3.0), sympy.Float(1.5)])
    assert linear_substitution(floats, cost=quick) is None  # inexact: 1.5*(x - y)^2 stays as it is
    assert hornermcts.optimize(floats, seed=0).variables == {}
    one_variable = from_sympy(sympy.expand((x - 1) ** 5))
    assert linear_substitution(one_variable, cost=quick) is None
    expired = Deadline(0.0)
    assert linear_substitution(from_sympy(sympy.expand((x - y) ** 6 + z)), cost=quick, deadline=expired) is None


def test_opaque_pieces_and_rationals_stay_exact():
    s = sympy.sin(z)
    expr = sympy.expand(sympy.Rational(2, 3) * (x - y) ** 3 * s + (x - y) ** 2 / 5 + s**2 * (x - y))
    result = hornermcts.optimize(expr, seed=0)
    assert list(result.variables.values()) in ([x - y], [y - x])  # sin(z) is not a variable to substitute
    assert sympy.simplify(result.expression() - expr) == 0
    assert_delivered(result, fortran=False)


def test_several_outputs_share_the_new_variables():
    exprs = [sympy.expand((x - y) ** 3 * (z + w) ** 2), sympy.expand((x - y) ** 2 - (z + w) ** 3)]
    result = hornermcts.optimize(exprs, seed=0)
    assert sorted(map(str, result.variables.values())) == ["w + z", "x - y"]
    assert all(sympy.expand(e - f) == 0 for e, f in zip(result.expression(), exprs))
    assert_delivered(result)


def test_cli_names_the_new_variables(tmp_path, capsys):
    from hornermcts.cli import main

    path = tmp_path / "p.txt"
    path.write_text(str(sympy.expand((x - y) ** 5 + (x - y) ** 2 * z)))
    assert main(["optimize", str(path), "-n", "20"]) == 0
    assert "in 1 new variables: _l0 = x - y" in capsys.readouterr().out


@st.composite
def disguised_polynomials(draw):
    """A random polynomial in 2-4 variables written in random sums and differences of them, plus noise terms."""
    names = sympy.symbols("a b c d")[: draw(st.integers(2, 4))]
    coefficient = st.one_of(st.integers(-9, 9).filter(bool),
                            st.fractions(-5, 5, max_denominator=4).filter(bool))
    terms = draw(st.lists(st.tuples(coefficient, st.lists(st.integers(0, 3), min_size=len(names),
                                                            max_size=len(names))), min_size=1, max_size=8))
    inner = sum(sympy.Rational(c) * sympy.Mul(*[v**e for v, e in zip(names, es)]) for c, es in terms)
    new = list(names)
    for _ in range(draw(st.integers(1, 3))):
        i, j = draw(st.permutations(range(len(names))))[:2]
        new[i] = new[i] + draw(st.sampled_from([1, -1])) * new[j]
    noise = draw(st.lists(st.tuples(coefficient, st.sampled_from(names)), max_size=2))
    return sympy.expand(inner.xreplace(dict(zip(names, new))) + sum(sympy.Rational(c) * v for c, v in noise))


#: The disguised polynomials that are not constants.
nonconstant = disguised_polynomials().filter(lambda expr: bool(expr.free_symbols))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nonconstant)
def test_every_substitution_is_exact(expr):
    poly = from_sympy(expr)
    found = linear_substitution(poly, cost=quick)
    if found is not None:
        assert sympy.expand(found.joint.to_sympy() - expr) == 0
        assert found.costs[1] < found.costs[0]
        # the scaled integers the search remembers with the new polynomial are those of its coefficients
        assert scaled_integers_of(found.joint) == scaled_integers(found.joint.coefficients)
    result = hornermcts.optimize(expr, iterations=10, seed=0)
    assert sympy.expand(result.expression() - expr) == 0
    assert_delivered(result)


def brute_force_pairs(poly: Polynomial) -> dict:
    """``binomial_pairs``'s count by its definition: every term, column i, column j, sign, in exact arithmetic."""
    terms = {tuple(e): to_fraction(c) for e, c in zip(poly.exponents.tolist(), poly.coefficients)}
    out: dict = {}
    for e, c in terms.items():
        for i in range(poly.n_vars):
            for j in range(poly.n_vars):
                if i == j or e[i] == 0:
                    continue
                partner = list(e)
                partner[i] -= 1
                partner[j] += 1
                other = terms.get(tuple(partner))
                for s in (1, -1):  # in (x_i - s*x_j)**n: x_i^(a-1) x_j^(b+1) over x_i^a x_j^b is -s*a/(b+1)
                    if other is not None and other / c == Fraction(-s * e[i], e[j] + 1):
                        out[i, j, s] = out.get((i, j, s), 0) + 1
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nonconstant)
def test_binomial_pairs_are_counted_exactly(expr):
    poly = from_sympy(expr)
    integers = [int(to_fraction(c) * 12) for c in poly.coefficients]  # denominators (at most 4) divide 12
    signs = np.array([1 if v > 0 else -1 for v in integers])
    logs = np.log(np.abs(np.array(integers, dtype=float)))
    assert binomial_pairs(poly.exponents, signs, logs, list(range(poly.n_vars))) == brute_force_pairs(poly)


@pytest.mark.parametrize("k", range(3))
def test_the_steps_follow_the_variables_not_their_names_or_the_terms(k):
    """Steps with equal pair counts are ranked by the columns' structure: a renamed input gets the renamed forms."""
    poly = families.load("structured(30,6000,1)")
    found = linear_substitution(poly, cost=quick)
    other, perm = rewritten(poly, k)
    again = linear_substitution(other, cost=quick)
    names = dict(zip(other.symbols, (poly.symbols[j] for j in perm)))
    assert again.costs == found.costs and again.terms == found.terms
    assert sorted(str(f.xreplace(names)) for f in again.forms.values()) == sorted(map(str, found.forms.values()))


def test_binomial_pairs_leave_out_the_keys_past_the_budget():
    """The largest key (``t / x_i`` shared by many terms) is left out once the pairs pass PAIRS_PER_TERM per term.

    ``1`` is shared by the 100 variables of the sum: 4,950 pairs, over 32 per term for 107 terms; the binomial's
    keys are small and counted exactly (issue 36, item 5: every pair of a long sum was built).
    """
    a, b = sympy.symbols("a b")
    v = sympy.symbols("v0:100")
    expr = sympy.expand((a - b) ** 6) + sympy.Add(*v)
    poly = from_sympy(expr)
    integers = [int(c) for c in poly.coefficients]
    signs = np.array([1 if c > 0 else -1 for c in integers])
    logs = np.log(np.abs(np.array(integers, dtype=float)))
    found = binomial_pairs(poly.exponents, signs, logs, list(range(poly.n_vars)))
    ab = {poly.symbols.index(a), poly.symbols.index(b)}
    assert found and found == {step: n for step, n in brute_force_pairs(poly).items() if {step[0], step[1]} == ab}


def test_a_sum_of_5000_variables_is_not_paired_term_by_term():
    """It built 12.5 million pairs (49 s, 5.9 GB); now the one key is left out and nothing is substituted."""
    n = 5000
    poly = Polynomial(sympy.symbols(f"v0:{n}"), np.eye(n, dtype=np.int64), [1] * n)
    assert linear_substitution(poly, cost=lambda p: p.n_terms) is None
