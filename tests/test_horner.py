"""Horner DAG, CSE, fast counter and views: exactness, counts, and FORM as the oracle."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hornermcts.research import form
from hornermcts.dag import Add, power_plan
from hornermcts.errors import OptionError
from hornermcts.parse import as_polynomial
from hornermcts.research.families import load
from hornermcts.cost.fast_counter import FastCounter
from hornermcts.dag.horner import horner_dag
from hornermcts.polynomial.coefficients import coefficient_mode
from hornermcts.polynomial.sparse import normalize_order
from hornermcts.cost.counting import original_count, power_cost
from hornermcts.polynomial import Polynomial
from hornermcts.dag.views import evaluate_dag, to_assignments, to_expression, to_networkx


x, y, z, w = sympy.symbols("x y z w")
FOLDS = ("levels", "intervals")  # FastCounter's two folds of the trie: the counts must not depend on it

def random_orders(poly, count, seed):
    rng = random.Random(seed)
    occ = poly.occurrence_order()
    return [occ] + [rng.sample(occ, len(occ)) for _ in range(count)]


def random_point(poly, rng):
    return [Fraction(rng.randint(-50, 50), rng.randint(1, 20)) for _ in range(poly.n_vars)]


def evaluate_assignments(replacements, exprs, values: dict):
    env = {s: sympy.Rational(v.numerator, v.denominator) for s, v in values.items()}
    for sym, expr in replacements:
        env[sym] = expr.xreplace(env)
    return [e.xreplace(env) for e in exprs]


def evaluate_graph(graph, symbols, point):
    """Exact value of the graph's first output: one operation per node, read from the graph alone."""
    vals = {str(s): v for s, v in zip(symbols, point)}
    value = {}
    for node in __import__("networkx").topological_sort(graph):
        data = graph.nodes[node]
        operands = sorted(graph.in_edges(node, data=True), key=lambda e: e[2]["position"])
        if data["op"] == "output":
            continue
        if data["op"] == "input":
            value[node] = vals[data["symbol"]]
        elif data["op"] == "constant":
            value[node] = Fraction(data["value"])
        elif data["op"] == "add":
            assert len(operands) == 2
            value[node] = sum(d["sign"] * value[u] for u, _, d in operands)
        elif "coefficient" in data:
            assert data["op"] == "mul" and len(operands) == 1
            value[node] = Fraction(data["coefficient"]) * value[operands[0][0]]
        elif data["square"]:
            assert data["op"] == "mul" and len(operands) == 1
            value[node] = value[operands[0][0]] ** 2
        else:
            assert data["op"] == "mul" and len(operands) == 2
            value[node] = value[operands[0][0]] * value[operands[1][0]]
    return graph.graph["root_sign"] * value[graph.graph["root"]]


# ------------------------------------------------------------------ small cases
def test_paper_example_multiplications():
    # SA-UCT paper eq. (1) and (2): 4 multiplications with x first, 7 with y first (no CSE).
    p = Polynomial((x, y, z), [[3, 2, 0], [2, 1, 0], [3, 0, 1]], [1, 1, 1])
    fwd = horner_dag(p, [x, y, z]).count(shared=False)
    assert (fwd.multiplications + fwd.powers, fwd.additions) == (4, 2)
    other = horner_dag(p, [y, x, z]).count(shared=False)
    assert other.multiplications + other.powers == 8  # x^3 twice by squaring: FORM's 2P 4M
    assert original_count(p).total == 11


@pytest.mark.parametrize(
    "expr",
    [
        x**3 * y**2 + x**2 * y + x**3 * z,
        6 * x * y + 4 * x * z + 7,
        x * y - x * z + w * (x * z - x * y) + 3 * x**2 * (x * y - x * z),
        sympy.Rational(1, 2) * x + sympy.Rational(3, 4) * x**2 * y - 5,
        (x + y + 1) ** 4 - (z - 2 * w) ** 3,
        x**13 + x**7 * y + x**5 * z,
        sympy.Integer(5),
        sympy.Integer(0),
        2 * x,
        -x,
    ],
)
def test_every_order_is_exact_and_counts_agree(expr):
    expr = sympy.expand(expr)
    syms = (x, y, z, w)
    poly = Polynomial.__new__(Polynomial)
    terms = sympy.Poly(expr, *syms).terms() if expr != 0 else []
    poly = Polynomial(syms, [m for m, _ in terms] or np.zeros((0, 4), int), [c for _, c in terms])
    counters = [FastCounter(poly, fold=fold) for fold in FOLDS]
    for order in itertools.permutations(range(4)):
        dag = horner_dag(poly, order)
        assert sympy.expand(to_expression(dag) - expr) == 0
        reps, (out,) = to_assignments(dag)
        assert sympy.expand(out.subs(list(reversed(reps))) - expr) == 0
        assert [counter.count_detail(order) for counter in counters] == [dag.count()] * len(FOLDS)
        assert dag.count().total <= dag.count(shared=False).total


def test_every_count_prices_its_operations_by_the_one_table_of_rules(monkeypatch):
    """cost.counting.RULES is the one encoding of what each operation costs: with a sign charged one
    addition, a division one power step and a call one multiplication, the DAG's count, the program's and
    expression_count change together; the fast counter, compiled on its own, then disagrees, so the check
    of the fast counter against the DAG's count (above) is a check against RULES."""
    from hornermcts.codegen.program import Program
    from hornermcts.cost import counting

    poly = as_polynomial(x * y - x * z + 3 + 1 / w + sympy.sin(x))  # pieces 1/w and sin(x)
    order = [poly.symbols.index(s) for s in (x, y, z)] + [k for k, s in enumerate(poly.symbols) if s not in (x, y, z)]
    as_written = poly.to_sympy()
    before = horner_dag(poly, order).count()  # ((3 + sin(x)) + 1/w) - (z - y)*x: two signs
    assert before == FastCounter(poly).count_detail(order) == counting.OpCount(4, 2, 0)
    assert counting.expression_count(as_written) == counting.OpCount(4, 3, 0)
    monkeypatch.setattr(counting, "RULES", {**counting.RULES, "negations": (1, 0, 0), "divisions": (0, 0, 1),
                                            "calls": (0, 1, 0)})
    dag = horner_dag(poly, order)
    assert dag.count() == Program(dag, "f").count == counting.OpCount(6, 2, 1)
    assert dag.count(shared=False) == counting.OpCount(6, 2, 1)
    assert counting.expression_count(as_written) == counting.OpCount(5, 3, 1)
    assert counting.original_count(poly) == counting.OpCount(5, 2, 0)  # the terms: -x*z has a sign, no pieces
    assert FastCounter(poly).count_detail(order) == counting.OpCount(4, 2, 1) != dag.count()  # the sign missed


def test_cse_shares_up_to_sign_and_content():
    # (y - z) and (z - y), and 3*(x^2 + 2*y) vs (x^2 + 2*y): one node each
    p = Polynomial((w, x, y, z), [[1, 0, 1, 0], [1, 0, 0, 1], [0, 1, 0, 1], [0, 1, 1, 0]], [1, -1, 1, -1])
    dag = horner_dag(p, [w, x, y, z])
    assert sum(1 for node in dag.nodes if isinstance(node, Add)) == 2  # y - z, and the outer sum
    q = sympy.Poly(sympy.expand(w * (x**2 + 2 * y) + z * (3 * x**2 + 6 * y)), w, x, y, z)
    qp = Polynomial((w, x, y, z), [m for m, _ in q.terms()], [c for _, c in q.terms()])
    counts = horner_dag(qp, [w, z, x, y]).count()
    # x^2 (1) + 2*y (1) + add (1) + w*S (1) + z*S (1) + 3*(z*S) (1) + add (1)
    assert counts.total == 7


def test_power_plan_never_worse_than_repeated_squaring():
    rng = random.Random(0)
    for _ in range(300):
        exps = {rng.randint(2, 200) for _ in range(rng.randint(1, 6))}
        steps = power_plan(exps)
        have = {1}
        for n, a, b in steps:
            assert a in have and b in have and a + b == n
            have.add(n)
        assert exps <= have
        assert len(steps) <= sum(power_cost(e) for e in exps)


def test_float_and_huge_coefficients_use_sign_mode_and_stay_exact():
    p = Polynomial((x, y), [[1, 1], [1, 0], [0, 1]], [2.5, -2.5, 0.1])
    assert coefficient_mode(p) == "sign"
    dag = horner_dag(p)
    assert FastCounter(p).count_detail(p.occurrence_order()) == dag.count()
    assert to_expression(dag).equals(p.to_sympy())
    big = Polynomial((x, y), [[2, 0], [1, 1], [0, 0]], [10**30, 3 * 10**30, 7])
    assert coefficient_mode(big) == "sign"
    dag = horner_dag(big)
    assert sympy.expand(to_expression(dag) - big.to_sympy()) == 0
    assert FastCounter(big).count(big.occurrence_order()) == dag.count().total


def test_opaque_pieces_restored_in_every_view():
    s = sympy.Symbol("_o0")
    p = Polynomial((x, s), [[1, 1], [2, 1], [1, 0]], [1, 3, 1], opaque={s: sympy.sin(y)})
    dag = horner_dag(p)
    expected = x * sympy.sin(y) + 3 * x**2 * sympy.sin(y) + x
    assert sympy.expand(to_expression(dag) - expected) == 0
    reps, (out,) = to_assignments(dag)
    assert sympy.expand(out.subs(list(reversed(reps))) - expected) == 0
    graph = to_networkx(dag)
    assert any(d.get("symbol") == "sin(y)" for _, d in graph.nodes(data=True))


def test_normalize_order_errors():
    p = Polynomial((x, y), [[1, 1]], [1])
    with pytest.raises(ValueError, match="twice"):
        normalize_order(p, [x, x])
    with pytest.raises(ValueError, match="not a variable"):
        normalize_order(p, [z])
    with pytest.raises(ValueError, match="out of range"):
        normalize_order(p, [5])
    with pytest.raises(TypeError, match="order holds"):
        normalize_order(p, [1.5j])


# ------------------------------------------------------------------ property-based
coefficient = st.one_of(
    st.integers(-20, 20),
    st.builds(Fraction, st.integers(-20, 20), st.integers(1, 9)),
)


@st.composite
def polynomials(draw):
    n_vars = draw(st.integers(1, 8))
    n_terms = draw(st.integers(0, 60))
    row = st.lists(st.integers(0, 6), min_size=n_vars, max_size=n_vars)
    rows = draw(st.lists(row, min_size=n_terms, max_size=n_terms))
    if rows and draw(st.booleans()):
        rows += draw(st.lists(st.sampled_from(rows), max_size=5))  # duplicates
    coefs = draw(st.lists(coefficient, min_size=len(rows), max_size=len(rows)))
    syms = sympy.symbols(f"v0:{n_vars}")
    poly = Polynomial(syms, np.array(rows, dtype=np.int64).reshape(len(rows), n_vars), coefs)
    order = draw(st.permutations(list(range(n_vars))))
    return poly, order


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(polynomials(), st.randoms(use_true_random=False))
def test_random_polynomials_exact_and_counter_equals_dag(case, rnd):
    poly, order = case
    dag = horner_dag(poly, order)
    assert [FastCounter(poly, fold=fold).count_detail(order) for fold in FOLDS] == [dag.count()] * len(FOLDS)
    assert dag.count().total <= dag.count(shared=False).total
    for _ in range(2):
        point = random_point(poly, rnd)
        assert evaluate_dag(dag, point) == poly.evaluate(point)
    if poly.n_terms <= 25:
        assert sympy.expand(to_expression(dag) - poly.to_sympy()) == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.lists(st.one_of(st.integers(0, 3), st.integers(60, 70), st.integers(2**20, 2**31 - 1)),
                      min_size=n, max_size=n), min_size=1, max_size=12),
    st.permutations(list(range(n))))))
def test_counter_equals_dag_for_huge_exponents(case):
    """Exponents up to MAX_EXPONENT: the counter's exponent ranks and sparse power plan match the DAG's count."""
    n_vars, rows, order = case
    poly = Polynomial(sympy.symbols(f"v0:{n_vars}"), rows, [(-1) ** i * (i % 4 + 1) for i in range(len(rows))])
    expected = horner_dag(poly, order).count()
    assert [FastCounter(poly, fold=fold).count_detail(order) for fold in FOLDS] == [expected] * len(FOLDS)


@st.composite
def sparse_polynomials(draw):
    """Many variables, a few of them in each term (the inputs the interval fold is for), shared factors."""
    n_vars = draw(st.integers(1, 30))
    monomial = st.dictionaries(st.integers(0, n_vars - 1), st.integers(1, 5), max_size=4)
    monomials = draw(st.lists(monomial, min_size=1, max_size=40))
    if draw(st.booleans()):  # a factor shared by some terms: common subexpressions for the count
        factor = draw(monomial)
        monomials += [{v: m.get(v, 0) + factor.get(v, 0) for v in m.keys() | factor.keys()} for m in monomials[:10]]
    rows = np.zeros((len(monomials), n_vars), dtype=np.int64)
    for row, m in zip(rows, monomials):
        for v, e in m.items():
            row[v] = e
    coefs = draw(st.lists(coefficient.filter(bool), min_size=len(rows), max_size=len(rows)))
    poly = Polynomial(sympy.symbols(f"v0:{n_vars}"), rows, coefs)
    return poly, draw(st.permutations(list(range(n_vars))))


@settings(max_examples=150, deadline=None)
@given(sparse_polynomials())
def test_both_folds_count_sparse_polynomials_as_the_dag(case):
    """The interval fold (and the level fold) give the DAG's count on sparse inputs of up to 30 variables."""
    poly, order = case
    expected = horner_dag(poly, order).count()
    assert [FastCounter(poly, fold=fold).count_detail(order) for fold in FOLDS] == [expected] * len(FOLDS)


@pytest.mark.parametrize("fold", FOLDS)
def test_counter_grows_a_full_table_and_power_list(fold):
    """A count that fills the hash table or the list of large powers is redone with it doubled, same result."""
    poly = Polynomial(sympy.symbols("v0:3"), [[70, 0, 1], [0, 80, 2], [90, 1, 0], [65, 66, 67], [3, 0, 0]],
                      [3, -2, 5, 7, 1])
    expected = horner_dag(poly, [2, 0, 1]).count()
    counter = FastCounter(poly, fold=fold)
    counter._alloc(2)  # two slots: the first count fills them
    counter._large = np.zeros(1, dtype=np.int64)  # room for one power above 63: this order needs more
    assert counter.count_detail([2, 0, 1]) == expected
    assert len(counter._table) > 2 and len(counter._large) > 1


def test_the_fold_follows_the_share_of_nonzero_exponents():
    assert FastCounter(load("res(6,5)")).fold == "levels"  # 54 % of the exponents are nonzero
    assert FastCounter(load("det(6)")).fold == "intervals"  # 17 %
    with pytest.raises(OptionError, match="fold must be"):
        FastCounter(load("det(4)"), fold="diagonal")


def test_counter_memory_does_not_follow_the_exponent():
    """``x^1000000000 + y`` (issue 14): no array as long as the exponent anywhere in the counter."""
    poly = Polynomial((x, y), [[10**9, 0], [0, 1], [999_999_999, 3], [5, 1]], [1, 1, 1, 3])
    counter = FastCounter(poly)
    assert counter.count_detail([0, 1]) == horner_dag(poly, [0, 1]).count()
    arrays = [v for v in vars(counter).values() if isinstance(v, np.ndarray)]
    assert max(a.nbytes for a in arrays) < 10**5


def test_counter_with_more_exponents_than_radix_buckets():
    """5000 distinct exponents of x (more than one radix pass's buckets): x gets a pass of its own."""
    rng = np.random.default_rng(3)
    exps = np.zeros((5000, 2), dtype=np.int64)
    exps[:, 0] = rng.choice(10**6, 5000, replace=False)
    exps[:, 1] = rng.integers(0, 3, 5000)
    poly = Polynomial((x, y), exps, [int(c) or 1 for c in rng.integers(-3, 4, 5000)])
    counter = FastCounter(poly)
    assert counter._n_keys[0] > counter._counts.shape[0] - 1  # the case under test
    for order in ([0, 1], [1, 0]):
        assert counter.count_detail(order) == horner_dag(poly, order).count()


# ------------------------------------------------------------------ large expressions
@pytest.mark.slow
@pytest.mark.parametrize("name", ["hep", "res75"])
def test_large_exact_at_random_rational_points(name, request):
    poly = request.getfixturevalue(name)
    rng = random.Random(7)
    counter = FastCounter(poly)
    for order in random_orders(poly, 3, seed=11):
        dag = horner_dag(poly, order)
        assert counter.count_detail(order) == dag.count()
        point = random_point(poly, rng)
        assert evaluate_dag(dag, point) == poly.evaluate(point)
    # the views of the last order, at one more point
    point = random_point(poly, rng)
    expected = poly.evaluate(point)
    values = dict(zip(poly.symbols, point))
    reps, exprs = to_assignments(dag)
    (got,) = evaluate_assignments(reps, exprs, values)
    assert got == sympy.Rational(expected.numerator, expected.denominator)
    assert evaluate_graph(to_networkx(dag), poly.symbols, point) == expected
    nested = to_expression(dag).xreplace({s: sympy.Rational(v.numerator, v.denominator) for s, v in values.items()})
    assert nested == sympy.Rational(expected.numerator, expected.denominator)


@pytest.mark.slow
def test_fast_counter_matches_dag_on_many_orders(hep, res75):
    for poly, seed in ((hep, 1), (res75, 2)):
        counter = FastCounter(poly)
        for order in random_orders(poly, 20, seed):
            assert counter.count_detail(order) == horner_dag(poly, order).count()


# ------------------------------------------------------------------ FORM as the oracle
@pytest.mark.form
@pytest.mark.parametrize("name", ["hep", "res75"])
def test_original_count_equals_form(name, request):
    poly = request.getfixturevalue(name)
    assert original_count(poly).total == form.run_form(poly, level=1)["original"]


@pytest.mark.form
@settings(max_examples=15, deadline=None)
@given(polynomials())
def test_original_count_equals_form_on_random_polynomials(case):
    poly, _ = case
    if poly.n_terms == 0 or poly.exponents.sum() == 0:
        return  # FORM does not optimize a constant
    assert original_count(poly).total == form.run_form(poly, level=1)["original"]


@pytest.mark.slow
@pytest.mark.form
@pytest.mark.parametrize("name", ["hep", "res75"])
def test_horner_and_cse_counts_not_above_form(name, request):
    poly = request.getfixturevalue(name)
    lower_cse = 0
    for order in random_orders(poly, 20, seed=5):
        dag = horner_dag(poly, order)
        form_none = form.run_form(poly, method="none", order=order)["optimized"]
        form_cse = form.run_form(poly, method="cse", order=order)["optimized"]
        # the plain Horner form is FORM's, operation for operation
        assert dag.count(shared=False).total == form_none
        assert dag.count().total <= form_cse
        lower_cse += dag.count().total < form_cse
    assert lower_cse >= 15  # sharing up to sign and shared powers usually win


def test_the_fast_counter_takes_orders_of_columns_names_and_numpy_integers_alike():
    """The searches' tuples of columns take the quick check; anything else is read as an order, with its error."""
    from hornermcts.cost.fast_counter import FastCounter

    a, b = sympy.symbols("a b")
    poly = as_polynomial(a**2 * b + a * b + b**3)
    counter = FastCounter(poly)
    columns = tuple(poly.symbols.index(s) for s in (a, b))
    expected = counter.count(columns)
    assert counter.count(("a", "b")) == counter.count(tuple(np.int64(c) for c in columns)) == expected
    assert counter.count(list(columns)) == expected
    with pytest.raises(OptionError, match="twice"):
        counter.count((columns[0], "a"))  # names and numbers mixed: the order's own check names the problem


def test_rational_coefficients_build_the_nodes_of_their_integer_multiple():
    """Sums are divided by their content: p and 36*p have one DAG, the output's scalar 36 times larger."""
    rng = np.random.default_rng(5)
    symbols = sympy.symbols("a b c d")
    for _ in range(30):
        exps = np.unique(rng.integers(0, 4, size=(int(rng.integers(2, 60)), 4)), axis=0)
        coefs = [Fraction(int(rng.integers(-9, 10)) or 1, int(rng.choice([1, 2, 3, 4, 6, 9]))) for _ in exps]
        p = Polynomial(symbols, exps, coefs)
        q = Polynomial(symbols, exps, [36 * c for c in coefs])
        order = list(rng.permutation(4))
        a, b = horner_dag(p, order), horner_dag(q, order)
        assert a.nodes == b.nodes and b.root == (36 * a.root[0], a.root[1])
        assert sympy.expand(to_expression(a) - p.to_sympy()) == 0
