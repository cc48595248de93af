"""Common factors of a sum's terms, over the assembled statements: taken out (``factor_sums``) or multiplied in.

The units share one Horner order, chosen for all of them together, so a
sum of the assembled statements can still hold a factor in several of its
terms that its own order would have taken out first (gait2d rows 9-17:
``x14*x80 + x14*x84 + x17*x77 + x17*x83``, the contact forces of two
points times one angle's sine and cosine).  :func:`factor_sums` takes it
out greedily, the factor in most terms first, as a Horner step local to
that sum; the sums left inside (``x80 + x84``) are then often repeats.
:func:`distribute` goes the other way: ``mf*(x1 - x2)`` in a sum becomes
``mf*x1 - mf*x2``, so that terms written inside different products can
meet (``mf*x1 - mg*x3`` may be computed already) before the factors are
taken out again.
"""
from __future__ import annotations

from collections import Counter

import sympy

from .assemble import rewritten

__all__ = ["factor_sums", "distribute"]


def _factors(term) -> tuple:
    """``(number, Counter of factors)`` of a term: positive integer powers as multiplicities, the rest as given."""
    number, rest = term.as_coeff_Mul()
    factors: Counter = Counter()
    for f in sympy.Mul.make_args(rest):
        if f.is_Pow and f.exp.is_Integer and f.exp > 0:
            factors[f.base] += int(f.exp)
        else:
            factors[f] += 1
    return number, factors


def _horner(terms: list):
    """The sum of ``terms`` (``(number, factors)``), the factor in most terms (at least two) taken out first."""
    counts: Counter = Counter()
    for _, factors in terms:
        counts.update(factors.keys())
    shared = [(k, sympy.default_sort_key(f), f) for f, k in counts.items() if k >= 2]
    if not shared:
        return sympy.Add(*[number * sympy.Mul(*[f**k for f, k in factors.items()]) for number, factors in terms])
    _, _, f = min(shared, key=lambda s: (-s[0], s[1]))
    inner, outer = [], []
    for number, factors in terms:
        if f in factors:
            factors = factors.copy()
            factors[f] -= 1
            inner.append((number, +factors))
        else:
            outer.append((number, factors))
    taken = sympy.Mul(f, _horner(inner))
    return taken if not outer else sympy.Add(taken, _horner(outer))


def factor_sums(statements: list, outputs: list) -> tuple[list, list]:
    """``(statements, outputs)`` with every sum's shared factors taken out (the value is unchanged)."""
    def rule(e):
        if not e.is_Add:
            return None
        terms = [_factors(a) for a in e.args]
        seen: set = set()
        for _, factors in terms:  # a sum without a shared factor stays as it is (built again, it costs time)
            if not seen.isdisjoint(factors):
                return _horner(terms)
            seen.update(factors)
        return None

    return rewritten(statements, outputs, rule)


def _spread(term) -> list:
    """The terms of ``term``: a product with one sum among its factors multiplied out, anything else itself."""
    if not term.is_Mul:
        return [term]
    factors = _flat(term)
    sums = [f for f in factors if f.is_Add]
    if len(sums) != 1:
        return [term]
    others = [f for f in factors if f is not sums[0]]
    return [sympy.Mul(*others, t) for t in sums[0].args]


def _flat(product) -> list:
    """The factors of a product, products kept unevaluated inside it (``x*(2*(a + b))``) opened."""
    return [g for f in product.args for g in (_flat(f) if f.is_Mul else [f])]


def distribute(statements: list, outputs: list) -> tuple[list, list]:
    """``(statements, outputs)`` with every term of a sum that is a product with one sum multiplied out.

    A negated sum ``-(a + b)`` becomes ``-a - b`` wherever it is (signs are free).
    """
    def rule(e):
        if e.is_Add or (len(e.args) == 2 and e.args[0] == -1 and e.args[1].is_Add):
            terms = [_spread(a) for a in sympy.Add.make_args(e)]
            if any(len(t) > 1 for t in terms):
                return sympy.Add(*[t for spread in terms for t in spread])
        return None

    return rewritten(statements, outputs, rule)
