"""The structural column order, and the optimizer's independence of names and term order (issue 12 point 3)."""
from __future__ import annotations

import numpy as np
import pytest
import sympy

from hornermcts import optimize

from hornermcts.research import families
from hornermcts.polynomial import Polynomial
from hornermcts.order.structure import structural_order


def rewritten(poly: Polynomial, seed: int) -> tuple[Polynomial, np.ndarray]:
    """``poly`` with fresh names in a random column order and its terms shuffled; and the column permutation."""
    rng = np.random.default_rng(seed)
    perm = rng.permutation(poly.n_vars)  # new column k is old column perm[k]
    rows = rng.permutation(poly.n_terms)
    names = sympy.symbols(f"w0:{poly.n_vars}")
    out = Polynomial(names, poly.exponents[rows][:, perm], [poly.coefficients[i] for i in rows])
    return out, perm


@pytest.mark.parametrize("seed", range(4))
def test_the_order_follows_the_variables_not_their_names_or_the_terms(seed):
    poly = families.random_polynomial(12, 300, max_degree=5, seed=seed, coefficients="rational")
    order = structural_order(poly)
    assert sorted(order) == list(range(poly.n_vars))
    for k in range(3):
        other, perm = rewritten(poly, 100 + k)
        assert [int(perm[j]) for j in structural_order(other)] == order


def test_most_frequent_columns_first_and_fixed_columns_lead():
    poly = families.load("hep_sigma")
    order = structural_order(poly)
    counts = (poly.exponents > 0).sum(axis=0)
    assert list(counts[order]) == sorted(counts, reverse=True)
    assert structural_order(poly, fixed=[4, 2])[:2] == [4, 2]


def test_coefficients_tell_columns_apart():
    x, y, z = sympy.symbols("x y z")
    # x and y occur alike; only the coefficient of x*z tells them apart (as -1 and -2 would for Python's hash)
    p = Polynomial((x, y, z), [[1, 0, 1], [0, 1, 1], [1, 0, 0], [0, 1, 0]], [-1, -2, 3, 3])
    q = Polynomial((y, x, z), [[1, 0, 1], [0, 1, 1], [1, 0, 0], [0, 1, 0]], [-2, -1, 3, 3])
    assert [p.symbols[j] for j in structural_order(p)] == [q.symbols[j] for j in structural_order(q)]


@pytest.mark.parametrize("n", [4, 5])
def test_symmetric_columns_are_split_the_same_way_whatever_the_names(n):
    """A generic determinant's entries are exchanged by its symmetries: the split orders are images of each other."""
    poly = families.load(f"det({n})")
    order = structural_order(poly)
    assert sorted(order) == list(range(n * n))
    base = optimize(poly, preset="mcts", iterations=100, seed=0, greedy=False).cse
    for k in range(3):
        other, perm = rewritten(poly, k)
        assert optimize(other, preset="mcts", iterations=100, seed=0, greedy=False).cse == base


@pytest.mark.parametrize("preset", ["mcts", "anneal", "default"])
def test_renamed_and_shuffled_inputs_give_the_same_operations(preset):
    poly = families.load("structured(12,400,3)")
    first = optimize(poly, preset=preset, iterations=150, seed=0)
    for k in range(3):
        other, perm = rewritten(poly, k)
        again = optimize(other, preset=preset, iterations=150, seed=0)
        assert again.after == first.after
        names = dict(zip(other.symbols, (poly.symbols[j] for j in perm)))
        assert [s.xreplace(names) for s in again.order] == list(first.order)


@pytest.mark.parametrize("seed", range(3))
def test_coefficient_codes_from_scaled_integers_are_the_loops(seed, monkeypatch):
    """The codes made from the scaled integers equal the loop over the SymPy numbers (signs, denominators,
    integers among rationals; values past 62 bits take the loop)."""
    from hornermcts.order import structure

    rng = np.random.default_rng(seed)
    big = 2**70 if seed == 2 else 1
    coefficients = [sympy.Rational(int(p) * (big if k == 0 else 1), int(q)) for k, (p, q) in
                    enumerate(zip(rng.integers(-10**6, 10**6, 300), rng.choice([1, 2, 3, 8, 9, 10**5], 300)))]
    coefficients = [c if c else sympy.Integer(7) for c in coefficients]
    exponents = np.unique(rng.integers(0, 4, (400, 5)), axis=0)[:300]
    poly = Polynomial(sympy.symbols("a:e"), exponents, coefficients)
    fast = structure._coefficient_codes(poly)
    monkeypatch.setattr(structure, "_codes_of_scaled", lambda scale, integers: None)
    again = Polynomial(poly.symbols, poly.exponents, poly.coefficients)
    assert np.array_equal(fast, structure._coefficient_codes(again))


def test_what_a_polynomial_derives_is_made_once_and_not_kept_stale():
    import pickle

    x, y = sympy.symbols("x y")
    p = Polynomial((x, y), [[1, 0], [0, 1]], [2, 3])
    made = []
    assert p.derived("sum", lambda: made.append(1) or 5) == 5
    assert p.derived("sum", lambda: made.append(1) or 6) == 5 and len(made) == 1
    p.coefficients = (sympy.Integer(4), sympy.Integer(3))  # set anew (as parse.builder does): made again
    assert p.derived("sum", lambda: 7) == 7
    copy = pickle.loads(pickle.dumps(p))
    assert copy == p and copy.derived("sum", lambda: 8) == 8  # a copy carries the terms, not what was derived
