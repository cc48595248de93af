"""Text read as written: the SymPy expression of a file, products and calls of sums kept, not expanded.

:func:`from_text` (:mod:`hornermcts.parse.text`) expands products of sums
while it reads, which is right for a polynomial and destroys an equation of
motion (``sin(q1 + q2)*(m1 + m2)*(l1*cos(q1) + ...)``).  :func:`as_written`
reads the same syntax (FORM's ``^`` or SymPy's ``**``, ``Local F =``,
``pi_``, ``i_``, FORM's function names) into a SymPy expression as written,
for :func:`hornermcts.optimize`'s expression front end.  It is a reading by
Python's own parser (:func:`ast.parse`, never run: only numbers, names,
``+ - * / **``, parentheses and calls are accepted) and returns None for
anything else, for which :func:`from_text` gives the answer or the error
naming file, line and column.  Powers of numbers are computed only within
:data:`~hornermcts.parse.text.MAX_INTEGER_BITS`.

>>> as_written("Local F = sin(x + y)*(a + b)^2;")
(a + b)**2*sin(x + y)
>>> as_written("x^2 + y") is None   # no parentheses: a polynomial as it stands, read by from_text
True
"""
from __future__ import annotations

import ast
import re

import sympy
from sympy.logic.boolalg import Boolean

from .text import CONSTANTS, MAX_INTEGER_BITS, MAX_NESTING, function_named

__all__ = ["as_written", "MAX_WRITTEN_CHARACTERS"]

#: Texts longer than this are read by :func:`~hornermcts.parse.text.from_text` only, whose reading is budgeted
#: and timed line by line (an expression as written is short: gait2d's nine rows are 0.3 MB as text; a
#: 10^6-term polynomial is tens of MB).
MAX_WRITTEN_CHARACTERS = 1_000_000

_HEADER = re.compile(r"\s*(?:(?:local|global|l|g)\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)", re.I)


# Python's integer literals that the text syntax does not have (0x10, 1_000; a complex 2j is refused as a node)
# and the names it refuses (oo, zoo, nan)
_PYTHON_ONLY = re.compile(r"(?<![A-Za-z0-9_.])(?:0[xXoObB]|\d+_)|\b(?:oo|zoo|nan)\b")


class _NotWritten(Exception):
    """The text is not an expression this reader takes: from_text decides."""


def as_written(text: str):
    """The SymPy expression ``text`` writes, as written; None when it has no parentheses or is not one."""
    if "(" not in text or len(text) > MAX_WRITTEN_CHARACTERS:
        return None
    body = text.lstrip("\ufeff")
    header = _HEADER.match(body)
    if header is not None:
        body = body[header.end():]
    body = body.strip().removesuffix(";")
    if not body.strip() or any(c in body for c in "=;[]{}:'\"@&|~<>%!`$#\\") or _PYTHON_ONLY.search(body):
        return None
    try:
        tree = ast.parse("(" + body.replace("^", "**") + "\n)", mode="eval")
        return _Reader().expression(tree.body)
    except (SyntaxError, ValueError, RecursionError, MemoryError, _NotWritten):
        return None


class _Reader:
    """SymPy objects from the accepted nodes; sums and products flattened without recursion along their chains."""

    def __init__(self) -> None:
        self.depth = 0

    def expression(self, node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            terms = []
            while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
                right = self.expression(node.right)
                terms.append(-right if isinstance(node.op, ast.Sub) else right)
                node = node.left
            terms.append(self.expression(node))
            return sympy.Add(*reversed(terms))
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
            factors = []
            while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
                right = self.expression(node.right)
                if isinstance(node.op, ast.Div):
                    if right == 0:
                        raise _NotWritten  # from_text names the division by zero
                    right = sympy.Pow(right, -1)
                factors.append(right)
                node = node.left
            factors.append(self.expression(node))
            return sympy.Mul(*reversed(factors))
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise _NotWritten
        try:
            return self.atom(node)
        finally:
            self.depth -= 1

    def atom(self, node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            base, exponent = self.expression(node.left), self.expression(node.right)
            if base.is_Number and exponent.is_Number and exponent.is_Integer and base.is_Rational:
                size = max(abs(int(base.p)).bit_length(), abs(int(base.q)).bit_length(), 1)
                if size * abs(int(exponent)) > MAX_INTEGER_BITS:
                    raise _NotWritten
            return sympy.Pow(base, exponent)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self.expression(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return sympy.Integer(node.value) if type(node.value) is int else sympy.Float(node.value)
        if isinstance(node, ast.Name):
            return CONSTANTS.get(node.id) or sympy.Symbol(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            relation = getattr(sympy, node.func.id, None)
            if isinstance(relation, type) and issubclass(relation, Boolean):
                raise _NotWritten  # from_text names it
            return function_named(node.func.id)(*[self.expression(a) for a in node.args])
        raise _NotWritten
