"""The expression as written (``hornermcts.expression``): regions, exactness, sharing, counts, never above sympy.cse.

Exactness is checked as the house checks it: rational inputs exactly at
random rational points; inputs with transcendental functions by 30-digit
evaluation at random points, relative error at most 1e-12.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hornermcts
from helpers.emitted_ops import count_sympy, total
from hornermcts.errors import LimitError
from hornermcts.expression import optimize_written, regions

x, y, z, w = sympy.symbols("x y z w")
STRUCTURED = Path(__file__).resolve().parents[2] / "shared" / "data" / "structured"


def substituted(replacements, reduced):
    """The outputs with every temporary replaced by what it stands for."""
    value: dict = {}
    for s, rhs in replacements:
        value[s] = rhs.xreplace(value)
    return [sympy.sympify(e).xreplace(value) for e in reduced]


def assert_equal(exprs, got, points=3, seed=0):
    """Equal at random points: exactly for rational expressions, to 1e-12 relative at 30 digits otherwise."""
    rng = random.Random(seed)
    symbols = sorted(set().union(*(sympy.sympify(e).free_symbols for e in exprs)), key=str)
    for _ in range(points):
        point = {s: sympy.Rational(rng.randint(3, 40), rng.randint(3, 40)) for s in symbols}
        for want, have in zip(exprs, got):
            a, b = sympy.sympify(want).xreplace(point), sympy.sympify(have).xreplace(point)
            if a.is_Rational and b.is_Rational:
                assert a == b, (want, have, point)
            else:
                a, b = sympy.N(a, 30), sympy.N(b, 30)
                assert abs(a - b) <= 1e-12 * max(abs(a), 1), (want, have, point, a, b)


def cost(replacements, reduced) -> int:
    return total(count_sympy(replacements, [sympy.sympify(e) for e in reduced]))


def test_sharing_reaches_into_function_arguments_square_roots_and_divisions():
    # the examples: 5 and 4 operations before, SymPy's 3 and 3
    for exprs in ([sympy.sin(x**2 + y) + sympy.cos(x**2 + y)], [sympy.sqrt(x + y) + (x + y) ** 2]):
        replacements, reduced = hornermcts.cse(exprs)
        assert cost(replacements, reduced) == 3 == cost(*sympy.cse(exprs))
        assert_equal(exprs, substituted(replacements, reduced))
    # 1/(x - y) and 1/(y - x) are one reciprocal: w/(x - y) + z/(y - x) in 3 operations
    replacements, reduced = hornermcts.cse(w / (x - y) + z / (y - x))
    assert cost(replacements, reduced) == 3
    assert_equal([w / (x - y) + z / (y - x)], substituted(replacements, reduced))


def test_a_product_of_sums_is_kept_as_written_where_expanding_costs_more():
    e = sympy.sin(x) * (x + y + z + 1) ** 6 * (x - 2 * y + w) ** 5
    replacements, reduced = hornermcts.cse([e])
    assert cost(replacements, reduced) <= cost([], [e])  # 13 as written; expanded it would be 892 terms
    assert_equal([e], substituted(replacements, reduced))


def test_regions_share_sums_that_differ_by_a_number():
    r = regions([(x - y) * sympy.sin(y - x) + 2 * (2 * x - 2 * y) ** 2 * sympy.cos(x)])
    assert len(r.units) == 2  # the output, and one sum for x - y, y - x and 2x - 2y
    assert r.check([(x - y) * sympy.sin(y - x) + 2 * (2 * x - 2 * y) ** 2 * sympy.cos(x)])


def test_regions_refuse_to_grow_past_their_budget():
    product = sympy.Mul(*[sympy.Symbol(f"a{k}") + sympy.Symbol(f"b{k}") for k in range(12)])
    assert len(regions([product], expand_limit=1).units) == 13  # kept as written: 12 sums and the product
    with pytest.raises(LimitError, match="budget of 1000"):  # the product's form (4,096 terms) is not kept
        regions([product], expand_limit=10**6, term_budget=1000)
    with pytest.raises(LimitError, match="over the work budget of 100"):  # its 24 symbols and 12 sums, then the product
        regions([product], expand_limit=10**6, term_budget=10**6, work_budget=100)
    assert regions([product], expand_limit=10**6, term_budget=4096, work_budget=12 * 4096).n_terms == 4096


def test_the_count_is_the_count_of_what_cse_returns():
    e = [sympy.exp(-x * y) * (x + y) ** 3 + 1 / (x + y), sympy.sqrt(x * y + 1) * (x + y)]
    written = optimize_written(e, seed=0)
    assert cost(written.statements, written.outputs) == written.after.total
    replacements, reduced = hornermcts.cse(e, seed=0)
    assert cost(replacements, reduced) == written.after.total
    assert_equal(e, substituted(replacements, reduced))


# random expressions as a mechanics user writes them: sums and products of symbols, small powers,
# function calls, divisions, nested
_leaves = st.sampled_from([x, y, z, w, sympy.Integer(2), sympy.Rational(1, 3), sympy.Integer(-1)])


def _extend(children):
    return st.one_of(
        st.tuples(children, children).map(lambda t: t[0] + t[1]),
        st.tuples(children, children).map(lambda t: t[0] * t[1]),
        st.tuples(children, st.integers(2, 3)).map(lambda t: t[0] ** t[1]),
        st.tuples(children, children).map(lambda t: t[0] / (t[1] ** 2 + 1)),
        children.map(sympy.sin), children.map(sympy.cos), children.map(lambda e: sympy.sqrt(e ** 2 + 1)),
    )


expressions = st.recursive(_leaves, _extend, max_leaves=14)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(expressions, min_size=1, max_size=3))
def test_random_expressions_stay_equal_and_never_cost_more_than_sympy_cse(exprs):
    exprs = [e for e in exprs if e.free_symbols]
    if not exprs:
        return
    replacements, reduced = hornermcts.cse(exprs, iterations=20, seed=0)
    assert_equal(exprs, substituted(replacements, reduced), points=2)
    assert cost(replacements, reduced) <= cost(*sympy.cse(exprs))


@pytest.mark.slow
@pytest.mark.skipif(not STRUCTURED.exists(), reason="../shared/data/structured is not beside the repository")
@pytest.mark.parametrize("stem, most", [("pydy_pendulum5_forcing", 0.8), ("pydy_pendulum5_jacobian", 0.8),
                                         ("gait2d_row10", 0.95)])
def test_mechanics_inputs_are_exact_and_well_below_sympy_cse(stem, most):
    exprs = [sympy.sympify(e) for e in sympy.sympify((STRUCTURED / f"{stem}.srepr").read_text())]
    replacements, reduced = hornermcts.cse(exprs, preset="fast")
    assert_equal(exprs, substituted(replacements, reduced), points=2)
    # measured with benchmarks/structured.py: 0.64, 0.46 and 0.76 of sympy.cse with the fast preset
    assert cost(replacements, reduced) <= most * cost(*sympy.cse(exprs))


def test_angle_sums_fold_into_one_call():
    a, b, c = sympy.symbols("a b c")
    rotation = sympy.cos(a) * sympy.cos(b) - sympy.sin(a) * sympy.sin(b)  # cos(a + b), written out
    r = regions([rotation])
    (c_out, k), = r.outputs
    assert len(r.units[k]) == 1 and r.check([rotation])  # one term: the call cos(a + b)
    assert len(regions([rotation], angle_sums=False).units[0]) == 2  # as written: two products
    exprs = [rotation * c, sympy.sin(a) * sympy.cos(b) + sympy.cos(a) * sympy.sin(b),
             sympy.sin(a) * sympy.cos(b) - sympy.cos(a) * sympy.sin(b), 2 * rotation * sympy.cos(c)
             - 2 * (sympy.sin(a) * sympy.cos(b) + sympy.cos(a) * sympy.sin(b)) * sympy.sin(c)]
    replacements, reduced = hornermcts.cse(exprs)
    assert_equal(exprs, substituted(replacements, reduced))
    # a + b once, a - b once, cos/sin of a + b + c: the written-out products are gone
    assert cost(replacements, reduced) <= 6 < cost(*sympy.cse(exprs))


def test_a_power_beyond_the_exponent_limit_is_a_piece_of_its_own():
    # x**(10**20) inside an expression with pieces: computed as written, never multiplied out (it hung, then
    # overflowed the exponent matrix)
    e = [x ** (10**20) * sympy.sin(y) + y, x ** (10**20) / (y + 1)]
    replacements, reduced = hornermcts.cse(e)
    assert substituted(replacements, reduced) == e


@pytest.mark.parametrize("e", [sympy.oo * x + y, x + sympy.zoo, x ** (10**20) + y, sympy.nan * x])
def test_non_finite_numbers_and_huge_powers_are_pieces_as_in_sympy_cse(e):
    # they raised OptionError (the polynomial pipeline refuses them); sympy.cse passes them through
    assert hornermcts.cse([e]) == sympy.cse([e])


def test_fast_walks_the_expressions_once(monkeypatch):
    """The fast preset takes the expressions as written: no expanded walk (it cost gait2d rows 9-17 0.55 s)."""
    import hornermcts.expression.written as written

    walks = []
    monkeypatch.setattr(written, "regions", lambda *a, **k: walks.append(k) or regions(*a, **k))
    e = [sympy.sin(x) * (x + y) * (y + z) + (x + y) ** 2 / (z + 1)]
    assert_equal(e, substituted(*hornermcts.cse(e, preset="fast")))
    assert len(walks) == 1
    walks.clear()
    hornermcts.cse(e, seed=0)
    assert len(walks) == 2  # the default weighs the expanded form too


def test_what_repeats_across_the_units_statements_is_computed_once():
    """n_link_pendulum_on_cart(2)'s mass matrix and forcing (q, u as symbols): ``l1*m2`` times a block, and
    the like, in several units; the statements shared again: 35 operations before, 32 after; 31 with the
    sharing rounds over the statements (expression.sharing)."""
    text = ("[1, 1, 1, m0 + m1 + m2, -l0*m1*cos(q1) - l0*m2*cos(q1), -l1*m2*cos(q2), -l0*m1*cos(q1) - l0*m2*cos(q1),"
            " l0**2*m1 + l0**2*m2, l0*l1*m2*(sin(q1)*sin(q2) + cos(q1)*cos(q2)), -l1*m2*cos(q2),"
            " l0*l1*m2*(sin(q1)*sin(q2) + cos(q1)*cos(q2)), l1**2*m2, u0, u1, u2,"
            " F - l0*m1*u1**2*sin(q1) - l0*m2*u1**2*sin(q1) - l1*m2*u2**2*sin(q2),"
            " T1 - T2 + g*l0*m1*sin(q1) + g*l0*m2*sin(q1) - l0*l1*m2*u2**2*(sin(q1)*cos(q2) - sin(q2)*cos(q1)),"
            " T2 + g*l1*m2*sin(q2) - l0*l1*m2*u1**2*(-sin(q1)*cos(q2) + sin(q2)*cos(q1))]")
    exprs = list(sympy.sympify(text))
    written = optimize_written(exprs, seed=0)
    assert cost(written.statements, written.outputs) == written.after.total <= 31
    assert_equal(exprs, substituted(written.statements, written.outputs))
    replacements, reduced = hornermcts.cse(exprs, seed=0)
    assert cost(replacements, reduced) <= 31
    assert_equal(exprs, substituted(replacements, reduced))


def test_a_value_written_with_other_signs_or_scale_is_computed_once():
    """Two units' schemes may write one value with its signs flipped or scaled (gait2d's mass-matrix entries):
    value numbering up to sign and a common factor computes it once, where sympy.cse sees two trees."""
    from hornermcts.expression.assemble import count, placeholders, share_repeated
    from hornermcts.expression.numbering import share_signed

    m, k, u, s = sympy.symbols("m k u s")
    t = sympy.Dummy("t")
    cases = [([(t, m * (x - y) - k)], [u * t, w * (m * (y - x) + k)], 5),  # 8 as given
             ([], [u * (x - y), w * (3 * y - 3 * x), s * (sympy.sin(x - y) + 1)], 6)]  # 8 as given
    for statements, outputs, most in cases:
        got = share_signed(statements, outputs, placeholders())
        assert count(*got).total == most < count(*share_repeated(statements, outputs)).total
        assert_equal(substituted(statements, outputs), substituted(*got))
    # a scaled sum to a huge power is a value of its own: 2**(10**20) is never computed (it hung)
    huge = [(2 * x + 2 * y) ** (10**20) * sympy.sin(x), (2 * x + 2 * y) ** (10**20) * sympy.cos(x)]
    assert substituted(*share_signed([], huge, placeholders())) == huge


def test_a_sum_inside_another_is_computed_once():
    """Partial angle sums (qa + qe, qa + qe + qf, ...) and a sum inside a multiple of another."""
    from hornermcts.expression.assemble import count, placeholders, share_repeated
    from hornermcts.expression.subsums import share_subsums

    a, b, c, d = sympy.symbols("a b c d")
    outputs = [sympy.sin(a + b), sympy.sin(a + b + c), sympy.cos(a + b + c + d), sympy.sin(x - y),
               sympy.cos(2 * x - 2 * y + z)]  # 11 operations as given, sympy.cse 8
    got = share_subsums([], outputs, placeholders())
    assert count(*got).total == 6 < count(*share_repeated([], outputs)).total
    assert_equal(outputs, substituted(*got))


def test_terms_of_different_products_meet_once_multiplied_out():
    """``mf*(B - D) - mg*(C + D)`` beside ``mf*B - mg*C`` and ``le*(mf + mg)`` (a gait2d leg's mass-matrix row):
    multiplied out, the first holds the second, and what is left is ``-D*(mf + mg)``."""
    from hornermcts.expression.assemble import count, share_repeated
    from hornermcts.expression.sharing import share_across

    A, B, C, D, me, mf, mg, le = sympy.symbols("A B C D me mf mg le")
    outputs = [me * A + mf * (B - D) - mg * (C + D), mf * B - mg * C, le * (mf + mg)]  # 12 as given
    statements, reduced, after = share_across([], outputs)
    assert after.total == count(statements, reduced).total == 9 < count(*share_repeated([], outputs)).total
    assert_equal(outputs, substituted(statements, reduced))


def test_a_sum_whose_terms_share_a_factor_is_factored():
    from hornermcts.expression.assemble import count
    from hornermcts.expression.common_factors import factor_sums

    s = sympy.Dummy("s")
    statements = [(s, y + z)]
    outputs = [x * sympy.sin(y) + x * sympy.cos(y) + x * s * w]  # 1 + 6 operations as given
    got = factor_sums(statements, outputs)
    assert count(*got).total == 5  # x*(s*w + sin(y) + cos(y))
    assert_equal(substituted(statements, outputs), substituted(*got))
