"""The input as given: its own form as a DAG, so the result is never worse than the input.

A factored input such as ``(x + y + z)**8`` costs 5 operations as written
and 124 after expansion and the best Horner scheme.  :func:`given_dag`
builds the input's own structure (sums, products, powers of sums by
repeated squaring, equal subexpressions shared) into a
:class:`~hornermcts.dag.Dag` over the columns of its parsed
:class:`~hornermcts.polynomial.Polynomial`; :func:`hornermcts.optimize`
returns it when it costs fewer operations than the optimized form.

>>> import sympy
>>> from hornermcts.parse import from_sympy
>>> x, y, z = sympy.symbols("x y z")
>>> expr = (x + y + z)**8
>>> dag = given_dag([expr], from_sympy(expr))
>>> dag.count().total
5
"""
from __future__ import annotations

import sympy

from ..polynomial.coefficients import to_python
from .graph import ONE, Dag

__all__ = ["given_dag"]


class _NotPolynomialHere(Exception):
    """A part of the expression that is neither a column nor a known opaque piece."""


def given_dag(exprs, poly) -> Dag | None:
    """The expressions ``exprs`` as written, one output each, over the columns of ``poly``.

    ``poly`` is what the parser made of them (its symbols and opaque
    placeholders).  Sums keep their coefficients as written (only the sign
    is normalised, never a common factor pulled out, which could cost an
    extra multiplication: ``1 + 3/2*w`` stays 2 operations).  Returns None
    when a part of an expression maps to no column (nothing is guessed).
    """
    dag = Dag(poly.symbols, dict(poly.opaque))
    column = {s: j for j, s in enumerate(poly.symbols) if s not in poly.opaque}
    column.update({piece: poly.symbols.index(s) for s, piece in poly.opaque.items()})
    memo: dict = {}

    def add(x, y):
        (c1, a), (c2, b) = x, y
        if c1 == 0:
            return y
        if c2 == 0:
            return x
        if a == b:
            c = c1 + c2
            return (c, a) if c != 0 else (0, ONE)
        return dag.add(x, y, use_content=False)

    def mul(x, y):
        (c1, a), (c2, b) = x, y
        return (c1 * c2, dag.mul(a, b))

    def power(v, n: int):
        c, a = v
        node = a
        for bit in bin(n)[3:]:
            node = dag.mul(node, node)
            if bit == "1":
                node = dag.mul(node, a)
        return (c**n, node)

    def piece_power(piece, n: int):
        if piece not in column:
            raise _NotPolynomialHere(piece)
        return (1, dag.power(column[piece], n))

    def value(e):
        if e in memo:
            return memo[e]
        if e.is_Number:
            out = (to_python(e), ONE)
        elif e in column:
            out = (1, dag.power(column[e], 1))
        elif e.is_Add:
            out = value(e.args[0])
            for a in e.args[1:]:
                out = add(out, value(a))
        elif e.is_Mul:
            out = (1, ONE)
            for f in e.args:
                out = mul(out, value(f))
        elif e.is_Pow and e.exp.is_Integer and e.exp > 0:
            n = int(e.exp)
            out = (1, dag.power(column[e.base], n)) if e.base in column else power(value(e.base), n)
        elif e.is_Pow and e.exp.is_Integer:
            out = piece_power(1 / e.base, -int(e.exp))
        elif e.is_Pow and e.exp.is_Rational:
            p, q = int(e.exp.p), int(e.exp.q)
            out = piece_power(e.base ** sympy.Rational(1 if p > 0 else -1, q), abs(p))
        else:
            raise _NotPolynomialHere(e)
        memo[e] = out
        return out

    try:
        dag.roots = [value(sympy.sympify(e)) for e in exprs]
    except (_NotPolynomialHere, TypeError, ValueError):
        return None
    return dag
