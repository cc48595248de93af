"""Value numbering of assembled statements up to sign and a common numeric factor.

The units are optimized one Horner scheme each, so what is one value in
the input may come out of two units signed or scaled differently: a
mass-matrix entry ``mc*(lb*x1 - x2) + md*x3 - ic`` in one row of an
equation of motion and ``-mc*(x2 - lb*x1) - md*x3 + ic`` in the next.
``sympy.cse`` sees two different trees (and SymPy's evaluation
distributes ``-1*(a + b)`` back, so the signs cannot be normalised by
rewriting SymPy sums).  :func:`share_signed` numbers the values itself:
every sum is kept as ``c * s`` with ``s`` primitive (integer coefficients
without a common factor, the first term positive), every product as
``c * p`` with ``p`` free of numbers, bottom up over all statements and
outputs (a statement's name is the value of its right-hand side); what is
used twice is computed once, under a fresh name, at the scale most of its
uses want, and everything else is written back in place.
"""
from __future__ import annotations

from collections import Counter
from math import gcd, lcm

import sympy

from .assemble import in_order, rebuilt, times

__all__ = ["share_signed"]

_ONE = 0  # the node of the number 1: a number c is the value (c, _ONE)


class _Numbering:
    """Nodes (sums, products, calls, leaves) numbered by their canonical key; values are ``(Rational, node)``."""

    def __init__(self, statements: list):
        self.keys: dict = {}
        self.nodes: list = []
        self.node(("one",))
        self.memo: dict = {}
        self.defined = {s: rhs for s, rhs in statements}

    def node(self, key) -> int:
        n = self.keys.get(key)
        if n is None:
            n = self.keys[key] = len(self.nodes)
            self.nodes.append(key)
        return n

    def value(self, e) -> tuple:
        """``(c, node)`` with ``e == c * node``; a statement's name is the value of its right-hand side."""
        got = self.memo.get(e)
        if got is None:
            got = self.memo[e] = self._value(e)
        return got

    def _value(self, e) -> tuple:
        if e.is_Rational:
            return e, _ONE
        if e.is_Symbol and e in self.defined:
            return self.value(self.defined[e])
        if e.is_Add:
            return self._sum([self.value(a) for a in e.args])
        if e.is_Mul:
            return self._product([(self.value(a), 1) for a in e.args])
        if e.is_Pow and e.exp.is_Rational:
            c, n = self.value(e.base)
            if (e.exp.is_Integer and c != 0 and (abs(c) == 1 or abs(e.exp) <= 64)) or c == 1:
                return self._product([((c, n), e.exp)])
        if e.is_Function and all(isinstance(a, sympy.Expr) for a in e.args):
            return sympy.S.One, self.node(("call", e.func, tuple(self.value(a) for a in e.args)))
        if e.is_Atom:
            return sympy.S.One, self.node(("leaf", e))
        # anything else (Piecewise, x**y, ...) as it is, the statements it reads as values of their own
        inside = tuple(self.value(s) for s in sorted(e.free_symbols & self.defined.keys(), key=sympy.default_sort_key))
        return sympy.S.One, self.node(("other", e, inside))

    def _sum(self, terms: list) -> tuple:
        merged: dict = {}
        for c, n in terms:
            merged[n] = merged.get(n, 0) + c
        merged = {n: c for n, c in merged.items() if c != 0}
        if not merged:
            return sympy.S.Zero, _ONE
        if len(merged) == 1:
            (n, c), = merged.items()
            return c, n
        ordered = sorted(merged.items())
        numerators = [abs(c.p) for _, c in ordered]
        denominators = [c.q for _, c in ordered]
        content = sympy.Rational(gcd(*numerators), lcm(*denominators)) * sympy.sign(ordered[0][1])
        return content, self.node(("add", tuple((n, c / content) for n, c in ordered)))

    def _product(self, factors: list) -> tuple:
        coefficient = sympy.S.One
        exponents: dict = {}
        for (c, n), e in factors:
            coefficient *= c ** e
            if n != _ONE:
                exponents[n] = exponents.get(n, 0) + e
        exponents = {n: e for n, e in exponents.items() if e != 0}
        if not exponents:
            return coefficient, _ONE
        if len(exponents) == 1 and next(iter(exponents.values())) == 1:
            return coefficient, next(iter(exponents))
        return coefficient, self.node(("mul", tuple(sorted(exponents.items()))))


class _Sharing:
    """Which values repeat, and the statements and outputs with each repeat read from one name.

    Top down over the statements and outputs as they are: the first
    occurrence of a value is walked into, a later one (or a statement's
    name) only counted.  A value seen twice gets a name: a statement that
    already computes it, else a new one computing the occurrence written at
    the scale most occurrences have; every occurrence ``c*v`` becomes
    ``(c/k)*name``.  Everything else stays as it was written.
    """

    def __init__(self, numbering: _Numbering, statements: list, outputs: list, names):
        self.numbering = numbering
        self.defined = numbering.defined
        self.scales: dict = {}  # node -> Counter of |c| over its occurrences
        self.first: dict = {}  # node -> [expr] of its occurrences (walked or not)
        for _, rhs in statements:
            self.visit(rhs)
        for e in outputs:
            self.visit(e)
        self.name: dict = {}  # node -> (symbol, scale)
        for s, rhs in statements:
            c, n = numbering.value(rhs)
            if n not in self.name and self.leafless(n):
                self.name[n] = (s, c)
        new = []
        for n, counts in self.scales.items():
            if n not in self.name and sum(counts.values()) >= 2 and self.leafless(n):
                scale = counts.most_common(1)[0][0]
                rep = max((e for e in self.first[n] if abs(numbering.value(e)[0]) == scale),
                          key=lambda e: bool(numbering.value(e)[0] > 0))  # the first positive one, if any
                symbol = next(names)
                self.name[n] = (symbol, numbering.value(rep)[0])
                new.append((symbol, rep))
        self.memo: dict = {}
        table = {}
        for s, rhs in statements:
            if self.name.get(numbering.value(rhs)[1], (s,))[0] == s:
                table[s] = self.rewrite(rhs, numbering.value(rhs)[1])
        for symbol, rep in new:
            table[symbol] = self.rewrite(rep, numbering.value(rep)[1])
        self.outputs = [self.rewrite(e) for e in outputs]
        self.table = table

    def leafless(self, n) -> bool:
        """Whether the node costs something to compute (not a symbol or a number)."""
        return n != _ONE and self.numbering.nodes[n][0] != "leaf"

    def visit(self, e, parent=None):
        stack = [(e, parent)]
        while stack:
            e, parent = stack.pop()
            if e.is_Atom and e not in self.defined:
                continue
            if not isinstance(e, sympy.Expr):  # a Tuple, a condition: only what is inside can be named
                stack.extend((a, None) for a in e.args)
                continue
            c, n = self.numbering.value(e)
            if c == 0:  # terms that cancel (written unevaluated): zero, nothing to name
                continue
            if n == parent:  # -(a + b) written as -1 times the sum: one value
                stack.extend((a, n) for a in e.args)
                continue
            self.scales.setdefault(n, Counter())[abs(c)] += 1
            if n in self.first:
                self.first[n].append(e)
                continue
            self.first[n] = [e]
            if not e.is_Atom:
                stack.extend((a, n) for a in e.args)

    def rewrite(self, e, own=None):
        """``e`` with every named value but ``own`` read from its name."""
        if e.is_Atom and e not in self.defined:
            return e
        c, n = self.numbering.value(e)
        if c == 0:
            return sympy.S.Zero
        if n != own and n in self.name:
            symbol, scale = self.name[n]
            return times(c / scale, symbol)
        if e.is_Atom:
            return e
        key = (e, own)
        if key not in self.memo:
            self.memo[key] = rebuilt(e, [self.rewrite(a, own if self.numbering.value(a)[1] == own else None)
                                         for a in e.args])
        return self.memo[key]


def share_signed(statements: list, outputs: list, names) -> tuple[list, list]:
    """``(statements, outputs)`` with every value computed once up to sign and a numeric factor.

    ``names`` gives the fresh symbols of the new statements.  The result
    is exactly the input's value (every rewrite is ``c*s == (c/k)*(k*s)``
    for rationals ``c, k``); the caller keeps it where it counts less.
    """
    if not all(e.is_commutative for e in [rhs for _, rhs in statements] + list(outputs)):
        return statements, outputs
    numbering = _Numbering(statements)
    sharing = _Sharing(numbering, statements, outputs, names)
    return in_order(sharing.table, sharing.outputs), sharing.outputs
