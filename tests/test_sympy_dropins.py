"""horner() (alias simplify) and cse(): exact, shaped like SymPy's, usable by lambdify."""
from __future__ import annotations

import functools
import random
import subprocess
import sys

import numpy as np
import pytest
import sympy

from helpers.emitted_ops import count_sympy, total

import hornermcts
from hornermcts import cse, simplify
from hornermcts.research.families import hep_sigma, random_polynomial

x, y, z, w = sympy.symbols("x y z w")
f = sympy.Function("f")
POLY = sympy.expand((x + 2 * y - z) ** 3 * (w - 1) + x * y * z * w)


def same(a, b):
    return sympy.expand(a - b) == 0


def count(expr):
    return hornermcts.original_count(hornermcts.from_sympy(sympy.expand(expr))).total


def test_simplify_is_exact_and_cheaper():
    out = simplify(POLY, iterations=100, seed=0)
    assert same(out, POLY)
    assert out != POLY
    # the nested Horner form evaluates with fewer operations than the expanded input
    reps, (reduced,) = cse(POLY, iterations=100, seed=0)
    assert hornermcts.optimize(POLY, iterations=100, seed=0).after.total < count(POLY)


def test_simplify_keeps_non_polynomial_pieces():
    expr = sympy.sin(y) * x**2 + sympy.sin(y) * x + f(z) / w + x**2 / w + sympy.sqrt(x) * x
    out = simplify(expr, iterations=50, seed=0)
    assert sympy.simplify(out - expr) == 0
    assert out.has(sympy.sin(y)) and out.has(f(z))


def test_simplify_list_and_matrix_keep_their_shape_and_share():
    exprs = [x**2 * y + x**2 * z, 3 * x**2 * (y + z) + w, sympy.sin(w) * (y + z)]
    out = simplify(exprs, iterations=50, seed=0)
    assert isinstance(out, list) and all(same(a, b) for a, b in zip(out, exprs))
    tup = simplify(tuple(exprs), iterations=50, seed=0)
    assert isinstance(tup, tuple)
    m = sympy.Matrix([[exprs[0], exprs[1]], [exprs[2], POLY]])
    mout = simplify(m, iterations=50, seed=0)
    assert isinstance(mout, sympy.MatrixBase) and mout.shape == (2, 2)
    assert all(same(a, b) for a, b in zip(mout, m))
    together = hornermcts.optimize(exprs, iterations=50, seed=0).after.total
    apart = sum(hornermcts.optimize(e, iterations=50, seed=0).after.total for e in exprs)
    assert together < apart  # x^2*(y+z) and y+z are shared across outputs


def test_cse_return_shapes_match_sympy():
    for arg in (POLY, [POLY, x * y + 1], (POLY,), sympy.Matrix([[POLY, x], [y, x * y + 1]])):
        ours = cse(arg, iterations=30, seed=0)
        theirs = sympy.cse(arg)
        assert type(ours) is type(theirs) and len(ours) == 2
        assert type(ours[1]) is type(theirs[1]) and len(ours[1]) == len(theirs[1])
        reps = list(reversed(ours[0]))
        for got, want in zip(ours[1], [arg] if isinstance(arg, (sympy.Expr, sympy.MatrixBase)) else arg):
            if isinstance(got, sympy.MatrixBase):
                assert got.shape == want.shape
                assert all(same(g.subs(reps), v) for g, v in zip(got, want))
            else:
                assert same(got.subs(reps), want)
    reps, single = cse(POLY, list=False, iterations=30, seed=0)
    assert isinstance(single, sympy.Expr) and same(single.subs(list(reversed(reps))), POLY)


def test_cse_options():
    names = sympy.numbered_symbols("q")
    reps, _ = cse([POLY, 2 * POLY + x], symbols=names, iterations=30, seed=0)
    assert reps and all(str(s).startswith("q") for s, _ in reps)
    assert cse(POLY, postprocess=lambda r, e: ("post", len(e)), iterations=10) == ("post", 1)
    assert cse(POLY, ignore=(x,)) == sympy.cse(POLY, ignore=(x,))  # handed to sympy.cse
    assert cse([]) == ([], [])


def test_lambdify_with_our_cse():
    fn = sympy.lambdify((x, y, z, w), POLY, cse=functools.partial(cse, iterations=50, seed=0))
    ref = sympy.lambdify((x, y, z, w), POLY)
    rng = random.Random(0)
    for _ in range(20):
        pt = [rng.uniform(-2, 2) for _ in range(4)]
        assert fn(*pt)[0] == pytest.approx(ref(*pt), rel=1e-12, abs=1e-12)
    # the plain callable works too, vectorised over numpy arrays
    fn2 = sympy.lambdify((x, y, z, w), [POLY, x * y], "numpy", cse=cse)
    arr = np.linspace(-1, 1, 7)
    got = fn2(arr, arr, arr, arr)
    assert np.allclose(got[0], ref(arr, arr, arr, arr)) and np.allclose(got[1], arr * arr)


@pytest.mark.slow
def test_lambdify_on_hep_agrees_with_exact_evaluation():
    poly = hep_sigma()
    expr = poly.to_sympy()
    fn = sympy.lambdify(poly.symbols, expr, cse=functools.partial(cse, iterations=20, seed=0))
    rng = random.Random(1)
    for _ in range(3):
        pt = [rng.choice([0.5, 0.75, 1.25, 1.5, -0.5]) for _ in poly.symbols]  # exact binary fractions
        exact = float(poly.evaluate(pt))
        assert fn(*pt)[0] == pytest.approx(exact, rel=1e-12)


def test_random_polynomial_lists():
    polys = [random_polynomial(5, 20, seed=s).to_sympy() for s in range(3)]
    out = simplify(polys, iterations=40, seed=1)
    assert all(same(a, b) for a, b in zip(out, polys))


def test_cse_takes_symbol_lists_generators_and_text_safely(tmp_path):
    import os

    x, y, z = sympy.symbols("x y z")
    reps, out = cse([x * y + x * z, (x * y + x * z) ** 2], symbols=sympy.symbols("q0:5"))
    assert reps[0][0] == sympy.Symbol("q0")
    reps, out = cse(reversed([x * y + 1, x * y * z]), iterations=10)
    assert len(out) == 2 and sympy.expand(out[0].subs(reps[::-1]) - x * y * z) == 0
    with pytest.raises(ValueError, match="ran out"):
        cse([x * y + x * z + y * z, (x * y + x * z + y * z) ** 3, x**5 * y**3 * z + x**4],
            symbols=iter([]))  # the sum is named once (its cube as written): no name for it
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:  # text is parsed, never run (sympify would run it)
        with pytest.raises(ValueError):
            cse("__import__('os').system('touch pwned')")
        assert not (tmp_path / "pwned").exists()
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("make", [
    lambda x, y: sympy.Eq(x**2 + x * y, 1),
    lambda x, y: x < 1,
    lambda x, y: sympy.And(x < 1, y > 2),
    lambda x, y: sympy.Tuple(x * y + x, x * y),
    lambda x, y: sympy.UnevaluatedExpr(x * y) + x * y,
    lambda x, y: sympy.MatrixSymbol("A", 3, 3).T * sympy.MatrixSymbol("A", 3, 3),
    lambda x, y: sympy.Symbol("a", commutative=False) * sympy.Symbol("b", commutative=False) + x,
    lambda x, y: [x * y + 1, sympy.Eq(x * y, 2)],
])
def test_cse_hands_what_it_cannot_optimize_to_sympy(make):
    x, y = sympy.symbols("x y")
    expr = make(x, y)
    assert cse(expr) == sympy.cse(expr)


def test_cse_ignore_and_dict_go_to_sympy_and_temporaries_are_named_like_sympys():
    x, y, z = sympy.symbols("x y z")
    assert cse([x * y + z, x * y], ignore=(y,)) == sympy.cse([x * y + z, x * y], ignore=(y,))
    assert cse({"a": x * y + x * z}, list=False) == sympy.cse({"a": x * y + x * z}, list=False)
    reps, _ = cse([(x + y) * z + (x + y) ** 2 * x, x + y], iterations=20)
    assert reps and all(str(s).startswith("x") and s not in (x, y, z) for s, _ in reps)


def test_lambdify_of_a_jacobian_with_zero_entries():
    x, y = sympy.symbols("x y")
    jac = sympy.Matrix([x**2 * y + 3 * x, x + 1]).jacobian([x, y])  # [[2xy + 3, x**2], [1, 0]]
    fn = sympy.lambdify((x, y), jac, cse=functools.partial(cse, iterations=10))
    (got,) = fn(2.0, 3.0)  # a callable cse returns a list, so lambdify returns [array], as with cse=sympy.cse
    assert got.tolist() == [[15.0, 4.0], [1.0, 0.0]]


def exact(replacements, reduced, exprs):
    """The reduced expressions, temporaries substituted back (the last defined first), equal the inputs."""
    for got, want in zip(reduced, exprs):
        for symbol, value in reversed(replacements):
            got = got.xreplace({symbol: value})
        assert sympy.simplify(got - want) == 0
    return True


@pytest.mark.parametrize("exprs", [
    [x + y],
    [3 * x + 3 * y],                                      # 3*(x + y): SymPy would distribute the 3
    [w + 3 * x * z + 3 * y * z],
    [sympy.sin(x + y) * x, sympy.sin(x + y) + y],          # a piece read twice stays a temporary
    [sympy.sqrt(x + y) + (x + y) ** 2],
    [z + 1 / (x + y)],                                     # a reciprocal read once as a term: in place
    [x / (-4 * x**2 + y**2)],                              # ... as a factor: a temporary (x/z would be 1 op, not 2)
    [w + z / (x + y) ** 2, y / (x**2 + 2) + z / (x**2 * y)],
    [sympy.Piecewise((x * y - z, sympy.Eq(y, 0)), (-x * y - z, True)) + x * y],
    [x**3 * y**2 + x**2 * y + x**3 * z, x * y + 1, x * y * z],
    [POLY, 2 * POLY + x],
])
def test_cse_writes_as_sympy_does_and_holds_optimizes_count(exprs):
    """Polynomials go through optimize, expressions with pieces through the expression front end: its count holds."""
    from hornermcts.expression import optimize_written

    replacements, reduced = cse(exprs, iterations=30, seed=0)
    polynomial = not any(e.has(sympy.Function, sympy.Piecewise) or any(p.exp.is_negative or not p.exp.is_Integer
                                                                     for p in e.atoms(sympy.Pow)) for e in exprs)
    optimized = (hornermcts.optimize(exprs, iterations=30, seed=0) if polynomial
                 else optimize_written(exprs, iterations=30, seed=0))
    assert total(count_sympy(replacements, reduced)) == optimized.after.total
    assert total(count_sympy(replacements, reduced)) <= total(count_sympy(*sympy.cse(exprs)))
    assert exact(replacements, reduced, exprs)
    for tree in [*(rhs for _, rhs in replacements), *reduced]:  # flattened as SymPy builds sums and products
        nodes = [*sympy.preorder_traversal(tree)]
        if not any(node.is_Pow and node.exp.is_negative for node in nodes):  # (1/z)**2*t: z**-2 would count less
            assert not any(arg.func is node.func for node in nodes if node.is_Add or node.is_Mul for arg in node.args)


def test_cse_answers_in_sympys_own_form():
    assert cse([x + y]) == ([], [x + y]) == sympy.cse([x + y])  # SymPy's x + y, not an unevaluated y + x
    assert cse([(x + y) * z, (x + y) * w]) == sympy.cse([(x + y) * z, (x + y) * w])
    assert cse([x * y, z + x * y, x * y * z + 3]) == sympy.cse([x * y, z + x * y, x * y * z + 3])
    (_, (scaled,)) = cse(3 * x + 3 * y)
    assert scaled.is_Mul and scaled.args == (3, x + y)  # kept a product: 2 operations, not 3
    assert cse(z + 1 / (x + y)) == ([], [z + 1 / (x + y)])
    # a reciprocal read once is a division where it is read: 5 operations, as SymPy writes it
    assert cse(x / (-4 * x**2 + y**2)) == ([], [x / (-4 * x**2 + y**2)]) == sympy.cse(x / (-4 * x**2 + y**2))
    eq = sympy.Mul(1, 2, evaluate=False)  # numbers alone: SymPy's business
    assert cse([eq]) == ([], [eq]) and isinstance(cse(sympy.Matrix([[1]]))[1][0], sympy.Matrix)


def test_cse_list_false_answers_in_the_inputs_type():
    assert cse(x * y + x * z, list=False) == ([], x * (y + z))
    assert cse("x*y + x*z", list=False) == ([], "x*(y + z)")
    reps, out = cse((x + y, x + y + z), list=False)
    assert isinstance(out, tuple) and reps == [(sympy.Symbol("x0"), x + y)]
    reps, out = cse({x + y, z * (x + y)}, list=False)
    assert isinstance(out, set) and len(out) == 2
    assert cse([x], list=False) == ([], [x]) and cse({x: 1}, list=False) == sympy.cse({x: 1}, list=False)


def test_sympy_cses_answer_when_kept_is_named_from_the_symbols_given_and_says_when_they_run_out():
    x, y, z, w = sympy.symbols("x y z w")
    exprs = [w * y + w + x + y + z, w * x * y]  # sympy.cse's 6 operations beat the Horner form's 7
    a, b = sympy.symbols("a b")
    assert cse(exprs, symbols=iter([a, b])) == sympy.cse(exprs, symbols=iter([a, b])) == ([(a, w * y)],
                                                                                       [a + w + x + y + z, a * x])
    assert cse(exprs, symbols=[x, a]) == ([(a, w * y)], [a + w + x + y + z, a * x])  # x is the input's: skipped
    with pytest.raises(ValueError, match="ran out after 0"):
        cse(exprs, symbols=iter([x]))


def test_cse_never_names_a_temporary_as_a_symbol_of_the_input():
    x0 = sympy.Symbol("x0", real=True)  # another symbol than SymPy's x0, with the same name
    exprs = [(x0 + y) ** 2 * z + (x0 + y) * w, x0 + y]
    reps, out = cse(exprs, iterations=20)
    assert reps and all(s.name != "x0" for s, _ in reps) and exact(reps, out, exprs)
    reps, out = cse(exprs, symbols=[x0, y, sympy.Symbol("t")], iterations=20)  # x0 and y are skipped
    assert [s.name for s, _ in reps] == ["t"] and exact(reps, out, exprs)
    with pytest.raises(ValueError, match="ran out"):
        cse(exprs, symbols=[x0, y, z], iterations=20)


def test_cse_of_non_commutative_input_keeps_the_order_of_products():
    a, b, c = sympy.symbols("A B C", commutative=False)
    for names in (None, sympy.symbols("t:3")):
        reps, out = cse([b + c, a * (b + c)], symbols=names)
        (t, value), = reps
        assert value == b + c and t.is_commutative is False and out == [t, a * t]  # sympy.cse gives t*A


def test_simplify_answers_in_sympys_own_form_with_the_nested_forms_count():
    assert simplify(x + y) == x + y and simplify(x * y * z + x * y) == x * y * (z + 1)
    for expr in (3 * x + 3 * y, z / x**2 + z / x + 3 * x / (y + 1), POLY):
        out = simplify(expr, iterations=30, seed=0)
        nested = hornermcts.optimize(expr, iterations=30, seed=0).expression()
        assert hornermcts.expression_count(out) == hornermcts.expression_count(nested) and same(out, expr)


def test_horner_is_the_entry_point_and_simplify_its_alias():
    assert hornermcts.horner is hornermcts.simplify is simplify and hornermcts.horner.__name__ == "horner"
    for expr in (POLY, [x**2 * y + x**2 * z, 3 * x**2 * (y + z)]):
        assert hornermcts.horner(expr, iterations=40, seed=0) == simplify(expr, iterations=40, seed=0)
    assert same(hornermcts.horner(POLY, iterations=40, seed=0), POLY)


def test_import_star_leaves_sympys_simplify_and_cse_alone():
    """``from sympy import *`` then ``from hornermcts import *``: simplify and cse are still SymPy's."""
    namespace: dict = {}
    exec("from sympy import *\nfrom hornermcts import *", namespace)
    assert namespace["simplify"] is sympy.simplify and namespace["cse"] is sympy.cse
    assert namespace["horner"] is sympy.horner and namespace["optimize"] is hornermcts.optimize
    assert not {"simplify", "cse", "horner", "Options", "OptionError"} & set(hornermcts.__all__)
    assert {"simplify", "cse", "horner"} <= set(dir(hornermcts))
    # the same in a fresh interpreter, where nothing of hornermcts is loaded yet
    code = ("from sympy import *\nimport sympy\nfrom hornermcts import *\n"
            "print(simplify is sympy.simplify, cse is sympy.cse, horner is sympy.horner)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True", "True"]


def test_import_star_after_sympy_leaves_every_sympy_name_alone():
    """Issue 37 item 2: ``from sympy import *; from hornermcts import *`` shadows nothing of SymPy's."""
    namespace: dict = {}
    exec("from sympy import *", namespace)
    sympy_names = {k: v for k, v in namespace.items() if not k.startswith("__")}
    exec("from hornermcts import *", namespace)
    assert all(namespace[k] is v for k, v in sympy_names.items())
    x, y = sympy.symbols("x y")
    assert namespace["horner"](x**3 + x**2 * y, wrt=y) == sympy.horner(x**3 + x**2 * y, wrt=y)
    assert namespace["optimize"] is hornermcts.optimize


def test_cse_applies_sympys_optimizations_around_its_own():
    """Issue 37 item 3: ``optimizations=`` is honoured (pre before, post after), a bad value is a clear error."""
    from helpers.emitted_ops import count_sympy, total

    x, y, z, w = sympy.symbols("x y z w")
    e = w / (x - y) + z / (y - x)
    replacements, reduced = cse(e, optimizations="basic")
    assert total(count_sympy(replacements, reduced)) <= total(count_sympy(*sympy.cse(e, optimizations="basic")))
    assert sympy.simplify(reduced[0].subs(replacements[::-1]) - e) == 0
    calls = []

    def pre(expr):
        calls.append("pre")
        return expr.subs(x, 2 * z)  # a visible preprocessing: the input is rewritten before the optimization

    def post(expr):
        calls.append("post")
        return expr

    _, reduced = cse([x * y + x * w], optimizations=[(pre, post)])
    assert "pre" in calls and "post" in calls
    assert sympy.expand(reduced[0] - (2 * z * y + 2 * z * w)) == 0
    for bad in ("fancy", [pre], [(pre, post, pre)], 3):
        with pytest.raises(hornermcts.OptionError, match="optimizations"):
            cse([x * y + x * w], optimizations=bad)
