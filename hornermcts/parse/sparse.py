"""Sparse dict arithmetic: the form every reader builds a polynomial in.

A polynomial under construction is a dict ``{monomial: coefficient}``; a
monomial is a tuple of ``(column, exponent)`` pairs sorted by column,
exponents > 0.  Coefficients from text are int, Fraction or ``sympy.Float``
(Python arithmetic is much faster than SymPy's for the exact cases);
coefficients from SymPy input are kept as the SymPy numbers they are (most are
never combined with another).  The two mix freely:
:func:`~hornermcts.coefficients.product` covers the Fraction-with-Float case.
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

from ..coefficients import product

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


def poly_mul(p: dict, q: dict) -> dict:
    """The product of two sparse dicts (terms that cancel are dropped)."""
    out: dict = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = mono_mul(m1, m2)
            out[m] = out.get(m, 0) + product(c1, c2)
    return {m: c for m, c in out.items() if c}


def poly_pow(p: dict, n: int) -> dict:
    """``p**n`` for an integer ``n >= 0``."""
    if n == 0:
        return {(): 1}
    if len(p) == 1:
        ((m, c),) = p.items()
        return {tuple((i, e * n) for i, e in m): c**n}
    result = p
    for _ in range(n - 1):  # sparse bases: repeated multiplication beats squaring
        result = poly_mul(result, p)
    return result


def constant(p: dict):
    """The value of a constant polynomial, or None if ``p`` has a variable."""
    if not p:
        return 0
    if len(p) == 1 and () in p:
        return p[()]
    return None


class Term:
    """A product being built: coefficient * monomial (as a dict) * rest."""

    __slots__ = ("coef", "ex", "rest")

    def __init__(self):
        self.coef = 1
        self.ex: dict[int, int] = {}
        self.rest: dict | None = None

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
            self.rest = p if self.rest is None else poly_mul(self.rest, p)

    def add_to(self, acc: dict) -> None:
        coef = self.coef
        if not coef:
            return
        mono = tuple(sorted(self.ex.items()))
        if self.rest is None:
            old = acc.get(mono)
            acc[mono] = coef if old is None else old + coef
        else:
            for m, c in self.rest.items():
                mm = mono_mul(mono, m)
                acc[mm] = acc.get(mm, 0) + product(coef, c)
