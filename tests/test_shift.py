"""The shifts x_i -> x_i + s*x_j counted and built from arrays equal FLINT's composition, terms and order."""
from __future__ import annotations

import numpy as np
import pytest
import sympy

from hornermcts.parse import from_sympy
from hornermcts.rewrites.shift import Shifts, fits, lex_order
from hornermcts.rewrites.substitution import linear_substitution

flint = pytest.importorskip("flint")


def composed(exps: np.ndarray, ints: np.ndarray, i: int, j: int, s: int) -> tuple[np.ndarray, np.ndarray]:
    """FLINT's ``x_i -> x_i + s*x_j``, its terms as FLINT lists them (lex order)."""
    n_vars = exps.shape[1]
    ctx = flint.fmpz_mpoly_ctx.get(("x", n_vars), "lex")
    poly = ctx.from_dict(dict(zip(map(tuple, exps.tolist()), [int(v) for v in ints])))
    subs = list(ctx.gens())
    subs[i] = subs[i] + s * subs[j]
    terms = poly.compose(*subs).to_dict()
    return (np.array(list(terms), dtype=np.int64).reshape(len(terms), n_vars),
            np.array([int(v) for v in terms.values()], dtype=np.int64))


@pytest.mark.parametrize("seed", range(8))
def test_counts_and_terms_equal_flints_composition(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        n_vars = int(rng.integers(2, 7))
        exps = np.unique(rng.integers(0, 5, size=(int(rng.integers(1, 60)), n_vars)), axis=0)
        ints = rng.integers(-6, 7, size=len(exps))
        ints[ints == 0] = 3
        i, j = (int(k) for k in rng.choice(n_vars, 2, replace=False))
        s = int(rng.choice([-1, 1]))
        shifts = Shifts(exps, ints)
        want_exps, want_ints = composed(exps, ints, i, j, s)
        got_exps, got_ints = shifts.shifted(i, j, s)
        assert shifts.count(i, j, s) == len(want_ints)
        assert np.array_equal(got_exps, want_exps) and np.array_equal(got_ints, want_ints)


def test_cancellations_leave_no_terms():
    x, y, z = sympy.symbols("x y z")
    poly = from_sympy(sympy.expand((x - y) ** 6 * z + (x - y) ** 3))
    ints = np.array([int(c) for c in poly.coefficients])
    i, j = poly.symbols.index(x), poly.symbols.index(y)
    shifts = Shifts(poly.exponents, ints)
    assert shifts.count(i, j, 1) == 2  # x -> x + y: x^6*z + x^3
    assert shifts.count(i, j, -1) == len(composed(poly.exponents, ints, i, j, -1)[1])


def test_large_coefficients_do_not_fit():
    exps = np.array([[3, 0], [0, 1]])
    assert fits(np.array([2**58, 1]), exps, 1)  # x_1 to the power 1 at most: 2^58 + 2
    assert not fits(np.array([2**60, 1]), exps, 0)  # 2^60 * 2^3 > 2^62


def test_lex_order_is_flints():
    rng = np.random.default_rng(0)
    exps = np.unique(rng.integers(0, 40, size=(200, 5)), axis=0)
    rng.shuffle(exps)
    ctx = flint.fmpz_mpoly_ctx.get(("x", 5), "lex")
    listed = list(ctx.from_dict({tuple(r): 1 for r in exps.tolist()}).to_dict())
    assert exps[lex_order(exps)].tolist() == [list(r) for r in listed]


def test_the_substitution_is_the_same_with_coefficients_beyond_64_bits():
    """Huge coefficients go to FLINT's composition; the steps and the result are those of the small ones."""
    x, y, z = sympy.symbols("x y z")
    expr = sympy.expand((x - y) ** 4 * z + 3 * (x - y) ** 2 + z ** 2)
    small = linear_substitution(from_sympy(expr), cost=lambda p: p.n_terms)
    large = linear_substitution(from_sympy(sympy.expand(expr * 2**70)), cost=lambda p: p.n_terms)
    assert small is not None and large is not None
    assert small.steps == large.steps and small.terms == large.terms
    assert sympy.expand(large.joint.to_sympy() - 2**70 * small.joint.to_sympy()) == 0
