"""Turn SymPy expressions, ``Poly`` objects and expression text into a :class:`Polynomial`.

Every reader here builds the polynomial as a sparse dict ``{monomial: coefficient}``
(a monomial is a sorted tuple of ``(column, exponent)`` pairs) and only converts
to a :class:`~hornermcts.polynomial.Polynomial` at the end, so inputs with 10^5
terms never become one giant SymPy object and never recurse once per term.

Public functions
----------------
from_sympy(expr, symbols=None)
    A SymPy expression that is a polynomial in its free symbols.
from_poly(p, symbols=None)
    A ``sympy.Poly`` or a ``PolyElement`` of ``sympy.ring``.
from_text(text, *, name="<string>", symbols=None)
    FORM or SymPy syntax, parsed by a small hand-written parser.
read_file(path, *, symbols=None)
    The same syntax, streamed line by line from a file.
as_polynomial(obj, symbols=None)
    Dispatch on the type of ``obj``.

The modules of this package: ``errors`` (:class:`ParseError`), ``sparse``
(the sparse dict every reader builds, and its arithmetic), ``budget`` (the
terms and time its expansions may take), ``builder`` (the
columns and the placeholder rules: SymPy -> sparse dict -> Polynomial),
``sympy_input`` (:func:`from_sympy`, :func:`from_poly`), ``text`` (the
tokenizer and parser of FORM/SymPy text, :func:`from_text`), ``files``
(:func:`read_file`); :func:`as_polynomial` is here.

Opaque pieces
-------------
Whatever is not polynomial in the variables (``sin(x)``, ``f(y)``, ``1/z``,
``sqrt(x)``, ``exp(x)``, ``x**y``) and every non-numeric constant (``pi``,
``E``, ``I``, ``sqrt(2)``) becomes an *opaque* placeholder symbol; the
placeholder maps to the piece in ``Polynomial.opaque`` and
``Polynomial.to_sympy()`` puts the piece back.  All readers share one set of
rules:

* structurally equal pieces (SymPy ``==``) get the same placeholder everywhere;
* ``b**(-n)`` for a positive integer ``n`` is ``P**n`` with ``P`` the piece
  ``1/b``, so ``1/z`` and ``1/z**2`` share one placeholder;
* ``b**(p/q)`` with ``q > 1`` is ``P**|p|`` with ``P`` the piece ``b**(1/q)``
  (``b**(-1/q)`` when ``p < 0``), so ``sqrt(x)`` and ``x**(3/2)`` share one;
* any other power (``x**y``, ``x**2.5``) and any function application
  (``sin(x + 1)``, ``f(x, y)``) is one piece, kept intact: its arguments are
  never expanded or looked into;
* placeholders are named ``_o0, _o1, ...``, numbered in SymPy's canonical
  order of the pieces (``default_sort_key``), skipping every name already used
  by a variable or inside a piece, so names never clash and equal inputs give
  equal polynomials whatever the order the pieces were met in.

Variables inside opaque pieces only (``y`` in ``x + sin(y)``) are not columns.

Examples
--------
>>> import sympy
>>> x, y, z = sympy.symbols("x y z")
>>> p = from_sympy((x + 1) * (y + 2)**2 + sympy.sin(x) / z**2)
>>> p.n_terms, p.symbols
(7, (_o0, _o1, y, x))
>>> p.opaque
{_o0: 1/z, _o1: sin(x)}
>>> sympy.expand(p.to_sympy() - ((x + 1) * (y + 2)**2 + sympy.sin(x) / z**2))
0
>>> from_text("F = 3/4*x^2*y - 2.5*x + x^2*y/4;").to_sympy()
x**2*y - 2.5*x
"""
from __future__ import annotations

from ..errors import InputTypeError, OptionError

import numbers
import os
import re
from fractions import Fraction
from typing import Sequence

import numpy as np
import sympy
from sympy.logic.boolalg import Boolean
from sympy.polys.rings import PolyElement

from ..polynomial.sparse import Polynomial
from .errors import ParseError
from .files import read_file
from .sympy_input import from_poly, from_sympy
from .text import from_text

__all__ = [
    "ParseError",
    "from_sympy",
    "from_poly",
    "from_text",
    "read_file",
    "as_polynomial",
    "as_expression",
]


def _reorder(poly: Polynomial, symbols: Sequence[sympy.Symbol]) -> Polynomial:
    symbols = list(symbols)
    if len(set(symbols)) != len(symbols):
        raise OptionError(f"duplicate symbols in {symbols}")
    missing = [s for s in poly.symbols if s not in poly.opaque and s not in symbols]
    if missing:
        raise OptionError(f"symbol(s) {', '.join(map(str, missing))} are not in symbols={tuple(symbols)}")
    order = symbols + [s for s in poly.symbols if s in poly.opaque and s not in symbols]
    exps = np.zeros((poly.n_terms, len(order)), dtype=np.int64)
    for j, s in enumerate(poly.symbols):
        exps[:, order.index(s)] = poly.exponents[:, j]
    return Polynomial(order, exps, poly.coefficients, opaque=poly.opaque, copy=False)


def as_polynomial(obj, symbols: Sequence[sympy.Symbol] | None = None, *, deadline=None,
                  max_terms: int | None = None) -> Polynomial:
    """Convert anything hornermcts accepts as input to a :class:`Polynomial`.

    ``deadline`` (a :class:`~hornermcts.deadline.Deadline`) bounds the
    reading of text and files (:func:`from_text`); ``max_terms`` the terms
    expanding products and powers may build (:mod:`hornermcts.parse.budget`).

    ========================================  ============================
    ``obj``                                   converted by
    ========================================  ============================
    :class:`Polynomial`                       returned as is (reordered to
                                              ``symbols`` if given)
    SymPy Expr, int, Fraction, float          :func:`from_sympy`
    ``sympy.Poly``, ``PolyElement``           :func:`from_poly`
    ``pathlib.Path`` (any ``os.PathLike``)    :func:`read_file`
    ``str``                                   :func:`from_text`: a plain
                                              str is expression *text*,
                                              never a file name
    ========================================  ============================

    Raises
    ------
    TypeError
        For any other type, naming it.

    Examples
    --------
    >>> import sympy
    >>> x = sympy.Symbol("x")
    >>> as_polynomial("x^2 + 1") == as_polynomial(x**2 + 1) == as_polynomial(sympy.Poly(x**2 + 1))
    True
    >>> as_polynomial([x])   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hornermcts.errors.InputTypeError: as_polynomial: cannot convert a list; expected a Polynomial, SymPy expression, ...
    >>> as_polynomial(sympy.Eq(x**2, 1))   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hornermcts.errors.InputTypeError: as_polynomial: Eq(x**2, 1) is an Equality (a relation or logical expression), ...
    """
    if isinstance(obj, Polynomial):
        return obj if symbols is None else _reorder(obj, symbols)
    if isinstance(obj, (sympy.Poly, PolyElement)):
        return from_poly(obj, symbols, max_terms=max_terms)
    if isinstance(obj, str):
        try:
            return from_text(obj, symbols=symbols, deadline=deadline, max_terms=max_terms)
        except ParseError as err:
            if os.path.exists(obj) or re.fullmatch(r"[\w.~/\\-]*\.\w+", obj.strip()):
                raise ParseError(f"{err.reason} (a str is expression text; if {obj.strip()!r} is a file, pass "
                                 f"pathlib.Path({obj.strip()!r}) or use hornermcts.read_file)",
                                 filename=err.filename, lineno=err.lineno, col=err.col, text=err.text) from None
            raise
    if isinstance(obj, os.PathLike):
        return read_file(obj, symbols=symbols, deadline=deadline, max_terms=max_terms)
    if isinstance(obj, sympy.Expr) and not getattr(obj, "is_Matrix", False):
        return from_sympy(obj, symbols, max_terms=max_terms)
    if isinstance(obj, (int, Fraction, float, numbers.Number)) and not isinstance(obj, bool):
        return from_sympy(obj, symbols, max_terms=max_terms)
    if isinstance(obj, Boolean):
        kind = type(obj).__name__
        raise InputTypeError(
            f"as_polynomial: {obj} is {'an' if kind[0] in 'AEIOU' else 'a'} {kind} (a relation or logical "
            f"expression), not a polynomial; "
            "optimize an expression (for an equation, lhs - rhs), or use hornermcts.cse, which hands relations "
            "to sympy.cse"
        )
    raise InputTypeError(
        f"as_polynomial: cannot convert a {type(obj).__name__}; "
        "expected a Polynomial, SymPy expression, Poly, str or path"
    )


def as_expression(obj, *, deadline=None, max_terms=None) -> sympy.Expr:
    """``obj`` as a SymPy expression: a SymPy expression as is, anything else read by :func:`as_polynomial`.

    The one conversion of text to SymPy: through the safe parser, never
    ``sympify`` (which would run the text as Python).

    >>> as_expression("x^2 + 2*x*y")
    x**2 + 2*x*y
    """
    if isinstance(obj, sympy.Expr):
        return obj
    return as_polynomial(obj, deadline=deadline, max_terms=max_terms).to_sympy()
