"""Sparse dict arithmetic: the form every reader builds a polynomial in.

A polynomial under construction is a dict ``{monomial: coefficient}``; a
monomial is a tuple of ``(column, exponent)`` pairs sorted by column,
exponents > 0.  Coefficients from text are int, Fraction or ``sympy.Float``
(Python arithmetic is much faster than SymPy's for the exact cases);
coefficients from SymPy input are kept as the SymPy numbers they are (most are
never combined with another).  The two mix freely:
:func:`~hornermcts.polynomial.coefficients.product` covers the Fraction-with-Float case.
Only :meth:`Builder.finish <hornermcts.parse.builder.Builder.finish>` turns
the dict into a :class:`~hornermcts.polynomial.Polynomial`, so inputs with
10^5 terms never become one giant SymPy object.

>>> p = {((0, 1),): 1, (): 2}          # x + 2, x in column 0
>>> poly_pow(p, 2)
{((0, 2),): 1, ((0, 1),): 4, (): 4}
>>> constant(poly_mul({(): 3}, {(): 2}))
6
"""
from __future__ import annotations

from ..polynomial.coefficients import product

__all__ = ["mono_mul", "poly_mul", "poly_pow", "constant", "Term"]


def mono_mul(a: tuple, b: tuple) -> tuple:
    """The product of two monomials."""
    if not a:
        return b
    if not b:
        return a
    d = dict(a)
    for i, e in b:
        d[i] = d.get(i, 0) + e
    return tuple(sorted(d.items()))


def poly_mul(p: dict, q: dict, budget=None) -> dict:
    """The product of two sparse dicts (terms that cancel are dropped).

    ``budget`` (a :class:`~hornermcts.parse.budget.Budget`) is charged row by
    row: past its limits or its deadline the product stops with its error.
    """
    out: dict = {}
    get = out.get
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = mono_mul(m1, m2)
            out[m] = get(m, 0) + product(c1, c2)
        if budget is not None:
            budget.spend(len(q), len(out))
    return {m: c for m, c in out.items() if c}


def poly_pow(p: dict, n: int, budget=None) -> dict:
    """``p**n`` for an integer ``n >= 0`` (refused first if ``budget`` predicts too many terms)."""
    if n == 0:
        return {(): 1}
    if len(p) == 1:
        ((m, c),) = p.items()
        return {tuple((i, e * n) for i, e in m): c**n}
    if budget is not None:
        budget.power(p, n)
    result = p
    for _ in range(n - 1):  # sparse bases: repeated multiplication beats squaring
        result = poly_mul(result, p, budget)
    return result


def constant(p: dict):
    """The value of a constant polynomial, or None if ``p`` has a variable."""
    if not p:
        return 0
    if len(p) == 1 and () in p:
        return p[()]
    return None


class Term:
    """A product being built: coefficient * monomial (as a dict) * the other factors (sums).

    The factors that are sums are kept until :meth:`add_to`, which predicts
    the terms of their whole product (``budget``) before expanding it.
    """

    __slots__ = ("coef", "ex", "rest", "budget")

    def __init__(self, budget=None):
        self.coef = 1
        self.ex: dict[int, int] = {}
        self.rest: list[dict] = []
        self.budget = budget

    def times(self, p: dict) -> None:
        if len(p) == 1:
            ((m, c),) = p.items()
            self.coef = product(self.coef, c)
            ex = self.ex
            for i, e in m:
                ex[i] = ex.get(i, 0) + e
        elif not p:
            self.coef = 0
        else:
            self.rest.append(p)

    def add_to(self, acc: dict) -> None:
        coef = self.coef
        if not coef:
            return
        mono = tuple(sorted(self.ex.items()))
        if not self.rest:
            old = acc.get(mono)
            acc[mono] = coef if old is None else old + coef
            return
        budget = self.budget
        if budget is not None and len(self.rest) > 1:
            budget.product(self.rest)
        rest = self.rest[0]
        for p in self.rest[1:]:
            rest = poly_mul(rest, p, budget)
        for m, c in rest.items():
            mm = mono_mul(mono, m)
            acc[mm] = acc.get(mm, 0) + product(coef, c)
