"""Operation counts in FORM's cost model, and SymPy's ``count_ops`` as a second view.

FORM's model (the one the papers and FORM's ``#optimize`` statistics use):

* a sum of k operands costs k-1 additions; a subtraction costs the same as an
  addition, signs are free;
* a product of k operands costs k-1 multiplications; an operand carrying a
  numeric coefficient other than +1/-1 costs one more;
* ``x^n`` costs ``floor(log2 n) + popcount(n) - 1`` multiplications (repeated
  squaring), so ``x^2`` costs 1;
* the unoptimized input is each term computed on its own, the terms summed.

What one operation of each kind costs is written once, in :data:`RULES`:
every count (of an input, :func:`original_count`; of a SymPy expression,
:func:`expression_count`; of a DAG, :meth:`~hornermcts.dag.Dag.count`; of the
code generator's program, :class:`~hornermcts.codegen.program.Program`)
tallies the operations its form performs, by kind, and :func:`charge` prices
the tally.  The fast counter (:mod:`.fast_counter`, compiled) counts on its
own and is checked against :meth:`~hornermcts.dag.Dag.count`
(``tests/test_horner.py``).

Examples
--------
>>> [power_cost(n) for n in range(1, 9)]
[0, 1, 2, 2, 3, 3, 4, 3]
>>> import sympy
>>> from hornermcts.polynomial import Polynomial
>>> x, y = sympy.symbols("x y")
>>> original_count(Polynomial((x, y), [[3, 2], [2, 1], [0, 0]], [1, 5, 7]))
OpCount(additions=2, multiplications=3, powers=4)
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Iterator

import numpy as np
import sympy

__all__ = ["OpCount", "RULES", "charge", "power_cost", "power_plan", "power_steps", "is_unit", "scaled",
           "original_count", "expression_count", "pieces_count", "sympy_count_ops"]


@dataclass(frozen=True)
class OpCount:
    """Operations by kind, in FORM's model.

    ``multiplications`` are products and coefficient multiplications;
    ``powers`` are the multiplications spent raising variables to powers
    (FORM prints both as ``nP nM``; its total adds them up).
    """

    additions: int = 0
    multiplications: int = 0
    powers: int = 0

    @property
    def total(self) -> int:
        """All operations: what FORM prints after the colon."""
        return self.additions + self.multiplications + self.powers

    def __int__(self) -> int:
        return self.total

    def __add__(self, other: "OpCount") -> "OpCount":
        return OpCount(
            self.additions + other.additions,
            self.multiplications + other.multiplications,
            self.powers + other.powers,
        )

    def as_dict(self) -> dict:
        """``{"additions", "multiplications", "powers", "total"}``."""
        return {
            "additions": self.additions,
            "multiplications": self.multiplications,
            "powers": self.powers,
            "total": self.total,
        }


#: What one operation of each kind costs, as ``(additions, multiplications, powers)`` of :class:`OpCount`:
#: the cost rules of FORM's model, written once (read-only: a rule is changed here, in the source).  Keys in
#: the order of :func:`charge`'s arguments.
RULES = MappingProxyType({
    "additions": (1, 0, 0),        # a binary + or -: a sum of k operands performs k-1
    "multiplications": (0, 1, 0),  # a binary *: a product of k factors performs k-1, a number other than +-1
                                   # times an operand one (is_unit, scaled)
    "negations": (0, 0, 0),        # a sign: -a, a negative coefficient
    "divisions": (0, 1, 0),        # a/b
    "power_steps": (0, 0, 1),      # x^n = x^a * x^b, one step of a power plan (x^n alone: power_cost(n) steps)
    "calls": (0, 0, 0),            # sin(a), sqrt(a), a**y: only the arguments are counted
})

_PRICES: dict = {}  # charged's answers by tally, for the RULES in _PRICED_BY
_PRICED_BY: list = [None]


def charged(*tally: int) -> tuple[int, int, int]:
    """:func:`charge` of ``tally`` (its arguments in order, trailing zeros left off), as a tuple.

    For the counts that sum ints node by node (:func:`own_operations`): each
    distinct tally is priced once.

    >>> charged(0, 2, 1, 1)  # two products, a sign, a division
    (0, 3, 0)
    """
    if _PRICED_BY[0] is not RULES or len(_PRICES) > 4096:
        _PRICES.clear()
        _PRICED_BY[0] = RULES
    price = _PRICES.get(tally)
    if price is None:
        a = m = p = 0
        for n, (ca, cm, cp) in zip(tally, RULES.values()):
            a, m, p = a + n * ca, m + n * cm, p + n * cp
        price = _PRICES[tally] = (a, m, p)
    return price


def charge(additions=0, multiplications=0, negations=0, divisions=0, power_steps=0, calls=0) -> OpCount:
    """What so many operations of each kind cost, by :data:`RULES`.

    >>> charge(additions=3, multiplications=2, negations=1, divisions=1, power_steps=2, calls=1)
    OpCount(additions=3, multiplications=3, powers=2)
    """
    return OpCount(*charged(additions, multiplications, negations, divisions, power_steps, calls))


def power_cost(n: int) -> int:
    """Multiplications for ``x^n`` by repeated squaring (0 for n <= 1)."""
    n = int(n)
    if n <= 1:
        return 0
    return n.bit_length() - 1 + bin(n).count("1") - 1


def power_plan(exponents) -> list[tuple[int, int, int]]:
    """Steps ``(n, a, b)`` meaning ``x^n = x^a * x^b`` that compute all ``exponents``.

    Exponents are handled in increasing order; one already computed is free,
    one that is the sum of two computed ones costs one step, any other is
    built by left-to-right binary exponentiation reusing what exists.  So the
    plan never costs more than ``sum(power_cost(n))`` over the exponents.

    >>> power_plan([2, 3, 5])
    [(2, 1, 1), (3, 2, 1), (5, 3, 2)]
    >>> len(power_plan([8])), power_cost(8)
    (3, 3)
    """
    have = {1}
    steps: list[tuple[int, int, int]] = []
    for n in sorted(set(int(e) for e in exponents)):
        if n in have:
            continue
        pair = next((a for a in sorted(have, reverse=True) if n - a in have), None)
        if pair is not None:
            steps.append((n, pair, n - pair))
            have.add(n)
            continue
        cur = 1
        for bit in bin(n)[3:]:
            if 2 * cur not in have:
                steps.append((2 * cur, cur, cur))
                have.add(2 * cur)
            cur *= 2
            if bit == "1":
                if cur + 1 not in have:
                    steps.append((cur + 1, cur, 1))
                    have.add(cur + 1)
                cur += 1
    return steps


def power_steps(needed: dict) -> Iterator[tuple[Any, int, int, int]]:
    """``(var, n, a, b)`` meaning ``var^n = var^a * var^b``: the :func:`power_plan` of each variable's exponents.

    ``needed`` maps each variable (a column, a local's name) to the exponents
    it is needed to (``n >= 2``); every counter and every code generator
    computes a DAG's powers by these steps, one operation each.

    >>> list(power_steps({"x": [2, 3], "y": [4]}))
    [('x', 2, 1, 1), ('x', 3, 2, 1), ('y', 2, 1, 1), ('y', 4, 2, 2)]
    """
    for var, exponents in needed.items():
        for n, a, b in power_plan(exponents):
            yield var, n, a, b


_POWER_COST = np.array([power_cost(n) for n in range(4096)], dtype=np.int64)


def _power_costs(exponents: np.ndarray) -> int:
    """The :func:`power_cost` of every exponent, summed: each distinct exponent's cost times its count (no array
    of costs as large as the exponents: 342 MB on gait2d row 12)."""
    if not exponents.size:
        return 0
    if exponents.max() < len(_POWER_COST):
        counts = np.bincount(exponents.ravel())
        return int(counts @ _POWER_COST[:len(counts)])
    values, counts = np.unique(exponents, return_counts=True)
    return sum(power_cost(int(v)) * int(c) for v, c in zip(values, counts))


def is_unit(c) -> bool:
    """True for the coefficients +1 and -1, which cost no multiplication."""
    if isinstance(c, sympy.Rational):  # a polynomial's coefficient (an Integer too): its ints, not SymPy's ==
        return c.q == 1 and (c.p == 1 or c.p == -1)  # (which sympifies the other side: 4 s a million)
    return c == 1 or c == -1


def scaled(c, operand, negation: Callable, product: Callable):
    """``c*operand`` as a form writes it, by the rule of :func:`is_unit`: ``operand`` itself for ``c = 1``,
    ``negation(operand)`` for ``c = -1`` (a sign, free), else ``product(c, operand)`` (one multiplication).

    Every writer of a scaled operand goes through here and says how it builds a negation and a product: the
    SymPy views (:mod:`hornermcts.dag.views`, the sign inside the number), the code generator's program
    (:mod:`hornermcts.codegen.program`, the literal ``|c|`` first, the sign outside), the graph view.

    >>> negation, product = (lambda e: ("-", e)), (lambda c, e: ("*", c, e))
    >>> [scaled(c, "a", negation, product) for c in (1, -1, 3)]
    ['a', ('-', 'a'), ('*', 3, 'a')]
    """
    if c == 1:
        return operand
    if c == -1:
        return negation(operand)
    return product(c, operand)


def original_count(poly) -> OpCount:
    """Count of the unoptimized input: every term on its own, then summed.

    Equals FORM's ``original`` statistic (tested against FORM).
    """
    n = poly.n_terms
    if n == 0:
        return OpCount()
    exps = poly.exponents
    factors = (exps > 0).sum(axis=1)
    coef_mults = np.fromiter((not is_unit(c) for c in poly.coefficients), dtype=np.int64, count=n)
    signs = np.fromiter((c.p < 0 if isinstance(c, sympy.Rational) else c.is_negative is True
                         for c in poly.coefficients), dtype=np.int64, count=n)
    # a bare coefficient (constant term) is an operand, not a multiplication, and its sign is the number's
    coef_mults[factors == 0] = 0
    signs[factors == 0] = 0
    mults = int(np.maximum(factors - 1, 0).sum() + coef_mults.sum())
    return charge(additions=n - 1, multiplications=mults, negations=int(signs.sum()),
                  power_steps=_power_costs(exps))


def expression_count(expr, memo: dict | None = None) -> OpCount:
    """Operations of a SymPy expression evaluated as written, in FORM's model.

    Every occurrence counts again (no sharing): a sum of k terms costs k-1
    additions; a product of k factors k-1 multiplications, where a number
    other than +-1 is a factor and a sign is free; ``b**n`` for an integer
    ``n >= 2`` costs :func:`power_cost` ``(n)``; a quotient ``a/b`` (factors
    with negative integer exponents) one multiplication for the division;
    function calls and other powers (``sin(x)``, ``sqrt(x)``, ``x**y``) are
    free, their arguments are counted.  This is the count of the nested
    ``result.expression()`` view and of an input "as given".

    >>> import sympy
    >>> x, y, z = sympy.symbols("x y z")
    >>> expression_count((x + y + z)**8)
    OpCount(additions=2, multiplications=0, powers=3)
    >>> expression_count(3*x**2*y - x/z + sympy.sin(x + 1)).total  # 2+1 *, 1 /, 3 +
    7

    Each distinct subtree is counted once (a tree with repeated subtrees,
    SymPy's DAG, is counted in time linear in its distinct nodes); ``memo``
    (``{subtree: (additions, multiplications, powers)}``) carries those
    counts from one call to the next.
    """
    expr = sympy.sympify(expr)
    memo = {} if memo is None else memo
    stack = [expr]
    while stack:  # post-order over the distinct subtrees: each counted once, its count used at every occurrence
        e = stack[-1]
        if e in memo:
            stack.pop()
            continue
        operands, a, m, p = own_operations(e)
        pending = [o for o in operands if o not in memo]
        if pending:
            stack.extend(pending)
            continue
        for o in operands:
            oa, om, op = memo[o]
            a, m, p = a + oa, m + om, p + op
        memo[stack.pop()] = (a, m, p)
    return OpCount(*memo[expr])


def own_operations(e) -> tuple[tuple, int, int, int]:
    """``(operands, additions, multiplications, powers)`` of the node ``e`` itself.

    The rules of :func:`expression_count`, one node at a time: what ``e``
    costs beyond its operands, and the operands whose cost comes on top.

    >>> import sympy
    >>> x, y, z = sympy.symbols("x y z")
    >>> own_operations(3*x*y/z**2)
    ((x, y, z), 0, 3, 1)
    >>> own_operations(sympy.sin(x + y))
    ((x + y,), 0, 0, 0)
    """
    if e.is_Atom:
        return (), 0, 0, 0
    if e.is_Add:
        return (e.args, *charged(len(e.args) - 1))  # additions
    if e.is_Mul:
        operands = []
        numerator = denominator = steps = signs = 0
        for f in e.args:
            if f.is_Number:
                numerator += abs(f) != 1  # -1 is only a sign
                signs += f.is_negative is True
            elif f.is_Pow and f.exp.is_Integer and f.exp < 0:
                denominator += 1
                steps += power_cost(-int(f.exp))
                operands.append(f.base)
            else:
                numerator += 1
                operands.append(f)
        products = max(numerator - 1, 0) + max(denominator - 1, 0)
        return (tuple(operands), *charged(0, products, signs, int(denominator > 0), steps))
    if e.is_Pow and e.exp.is_Integer:
        n = int(e.exp)
        return ((e.base,), *charged(0, 0, 0, int(n < 0), power_cost(abs(n))))  # 1/b**n: a division
    return (e.args, *charged(0, 0, 0, 0, 0, 1))  # a call: sin(a), sqrt(a), a**y, ...


def pieces_count(opaque) -> OpCount:
    """Operations inside opaque pieces (``{placeholder: piece}``), each distinct piece once.

    >>> import sympy
    >>> x, y, z = sympy.symbols("x y z")
    >>> pieces_count({sympy.Symbol("_o0"): 1/z, sympy.Symbol("_o1"): sympy.sin(x + y)}).total
    2
    """
    return sum((expression_count(piece) for piece in set(opaque.values())), OpCount())


def sympy_count_ops(expr) -> int:
    """SymPy's own convention (``sympy.count_ops``: a power is one operation).

    A second view only: it is never mixed with FORM-model counts.
    """
    return int(sympy.count_ops(expr))
