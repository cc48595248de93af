"""A factor that several terms of one assembled sum share, multiplied once: ``a*x + a*y -> a*(x + y)``.

The units share one Horner order, chosen for all of them together, so a
sum of the assembled statements can still hold a factor in several of its
terms that its own order would have taken out first (gait2d rows 9-17:
``x14*x80 + x14*x84 + x17*x77 + x17*x83``, the contact forces of two
points times one angle's sine and cosine).  :func:`factor_sums` takes it
out greedily, the factor in most terms first, as a Horner step local to
that sum; the sums left inside (``x80 + x84``) are then often repeats that
:func:`~hornermcts.expression.numbering.share_signed` computes once.
"""
from __future__ import annotations

from collections import Counter

import sympy

__all__ = ["factor_sums"]


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


def _factored(e, memo: dict, once: dict):
    if e.is_Atom:
        return e
    got = memo.get(e)
    if got is None:
        args = [_factored(a, memo, once) for a in e.args]
        if e.is_Add:
            terms = []
            for a in args:  # a sum read only here is a part of this sum: its terms can share factors with ours
                number, rest = a.as_coeff_Mul()
                if rest in once:
                    terms.extend(_factors(number * t) for t in sympy.Add.make_args(_factored(once[rest], memo, once)))
                else:
                    terms.append(_factors(a))
            got = _horner(terms)
        else:
            got = e.func(*args)
        memo[e] = got
    return got


def factor_sums(statements: list, outputs: list) -> tuple[list, list]:
    """``(statements, outputs)`` with every sum's shared factors taken out (the value is unchanged)."""
    from .assemble import _in_order

    reads: Counter = Counter()
    for e in [rhs for _, rhs in statements] + list(outputs):
        for node in sympy.preorder_traversal(e):
            if node.is_Symbol:
                reads[node] += 1
    once = {s: rhs for s, rhs in statements if rhs.is_Add and reads[s] == 1}
    memo: dict = {}
    table = {s: _factored(rhs, memo, once) for s, rhs in statements}
    outputs = [_factored(e, memo, once) for e in outputs]
    return _in_order(table, outputs), outputs
