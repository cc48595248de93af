"""Writing a :class:`~hornermcts.polynomial.Polynomial` as text, one term per line.

Two syntaxes:

* ``"form"``: ``+3*a0^2*b1``, what FORM (and ``shared/tools/form_ops.py``)
  reads.  FORM names are a letter followed by letters and digits, so other
  names are rewritten (see :func:`form_names`); float coefficients are refused
  (FORM's arithmetic is exact).
* ``"sympy"``: ``+3*a0**2*b1``, readable term by term with ``sympy.sympify``
  (or ``parse_expr``); opaque pieces are written back as the expressions they
  stand for, in parentheses.

Terms are streamed, so writing 10^5 terms never builds one big string.

Examples
--------
>>> import sympy
>>> from fractions import Fraction
>>> from hornermcts.polynomial import Polynomial
>>> x, y = sympy.symbols("x y")
>>> p = Polynomial((x, y), [[2, 1], [0, 1], [0, 0]], [3, -1, Fraction(1, 2)])
>>> print(to_text(p), end="")
+3*x^2*y
-y
+1/2
>>> print(to_text(p, syntax="sympy"), end="")
+3*x**2*y
-y
+1/2
"""
from __future__ import annotations

from ..errors import OptionError

import io
import os
import re
from typing import IO, Iterator

import sympy

from .coefficients import to_python

__all__ = ["write_text", "to_text", "iter_terms", "form_names"]

_SYNTAXES = ("form", "sympy")
_FORM_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def form_names(symbols) -> dict[sympy.Symbol, str]:
    """Names FORM can read, for the symbols whose own names it cannot.

    A FORM name is a letter followed by letters and digits.  Other names lose
    every other character (``m_0_1`` -> ``m01``, ``x_s`` -> ``xs``), get a
    leading ``v`` if that leaves no leading letter, and a suffix ``x2``,
    ``x3``, ... if the result is taken; valid names are never changed.

    Returns
    -------
    dict
        ``{symbol: new name}``, only for the renamed symbols.

    Examples
    --------
    >>> import sympy
    >>> form_names(sympy.symbols("a m_1_10 m_11_0 m110 _1"))
    {m_1_10: 'm110x2', m_11_0: 'm110x3', _1: 'v1'}
    """
    symbols = list(symbols)
    taken = {str(s) for s in symbols if _FORM_NAME.fullmatch(str(s))}
    renamed: dict[sympy.Symbol, str] = {}
    for s in symbols:
        name = str(s)
        if _FORM_NAME.fullmatch(name):
            continue
        base = re.sub(r"[^A-Za-z0-9]", "", name)
        if not base or not base[0].isalpha():
            base = "v" + base
        new, k = base, 1
        while new in taken:
            k += 1
            new = f"{base}x{k}"
        taken.add(new)
        renamed[s] = new
    return renamed


def _coefficient_text(c, syntax: str) -> str:
    """``abs(c)`` as text."""
    a = abs(c)
    if isinstance(a, sympy.Rational):
        return str(to_python(a))  # int or Fraction: "3", "3/4"
    if syntax == "form":
        raise OptionError(
            f"FORM syntax has no floating-point coefficients (got {c}); "
            "rationalise the polynomial or write syntax='sympy'"
        )
    return str(a)


def iter_terms(poly, *, syntax: str = "form", names=None) -> Iterator[str]:
    """The terms of ``poly`` as text, one string per term (no newline).

    Parameters
    ----------
    poly : Polynomial
    syntax : {"form", "sympy"}
    names : mapping, optional
        ``{symbol: text}`` overriding how variables are written; by default
        their names (and, in sympy syntax, the opaque pieces they stand for).

    Each term carries its sign (``+`` or ``-``); a coefficient +-1 is left
    out unless the term is a constant.  The zero polynomial yields ``"0"``.

    >>> import sympy
    >>> from hornermcts.polynomial import Polynomial
    >>> x = sympy.Symbol("x")
    >>> list(iter_terms(Polynomial((x,), [[3], [1]], [-1, 2])))
    ['-x^3', '+2*x']
    """
    if syntax not in _SYNTAXES:
        raise OptionError(f"syntax must be one of {_SYNTAXES}, got {syntax!r}")
    power = "^" if syntax == "form" else "**"
    texts = []
    for s in poly.symbols:
        if names is not None and s in names:
            texts.append(str(names[s]))
        elif syntax == "sympy" and s in poly.opaque:
            texts.append(f"({sympy.sstr(poly.opaque[s])})")
        else:
            texts.append(str(s))
    if poly.n_terms == 0:
        yield "0"
        return
    for row, c in zip(poly.exponents.tolist(), poly.coefficients):
        factors = [
            texts[j] if e == 1 else f"{texts[j]}{power}{e}"
            for j, e in enumerate(row)
            if e
        ]
        sign = "-" if c < 0 else "+"
        if c == 1 or c == -1:
            body = "*".join(factors) if factors else "1"
        else:
            body = "*".join([_coefficient_text(c, syntax)] + factors)
        yield sign + body


def write_text(poly, path_or_file, *, syntax: str = "form") -> dict[sympy.Symbol, str]:
    """Write ``poly`` one term per line, streaming.

    Parameters
    ----------
    poly : Polynomial
    path_or_file : str, os.PathLike or text file object
        A path is opened (and closed) here; a file object is written to and
        left open.
    syntax : {"form", "sympy"}
        ``"form"`` writes ``x^2`` and renames symbols FORM cannot read
        (:func:`form_names`); ``"sympy"`` writes ``x**2`` and the opaque pieces.

    Returns
    -------
    dict
        ``{symbol: written name}`` for every renamed symbol (empty when none
        was renamed, always empty for sympy syntax).

    Examples
    --------
    >>> import io, sympy
    >>> from hornermcts.polynomial import Polynomial
    >>> a_1, b = sympy.symbols("a_1 b")
    >>> out = io.StringIO()
    >>> write_text(Polynomial((a_1, b), [[1, 1], [0, 2]], [-2, 1]), out)
    {a_1: 'a1'}
    >>> print(out.getvalue(), end="")
    -2*a1*b
    +b^2
    """
    if syntax not in _SYNTAXES:
        raise OptionError(f"syntax must be one of {_SYNTAXES}, got {syntax!r}")
    renamed = form_names(poly.symbols) if syntax == "form" else {}
    if isinstance(path_or_file, (str, os.PathLike)):
        with open(path_or_file, "w") as fh:
            _write_lines(fh, iter_terms(poly, syntax=syntax, names=renamed))
    else:
        _write_lines(path_or_file, iter_terms(poly, syntax=syntax, names=renamed))
    return renamed


def _write_lines(fh: IO[str], lines: Iterator[str], chunk: int = 4096) -> None:
    buffer: list[str] = []
    for line in lines:
        buffer.append(line)
        if len(buffer) >= chunk:
            fh.write("\n".join(buffer) + "\n")
            buffer.clear()
    if buffer:
        fh.write("\n".join(buffer) + "\n")


def to_text(poly, *, syntax: str = "form") -> str:
    """The text :func:`write_text` would write, as one string."""
    out = io.StringIO()
    write_text(poly, out, syntax=syntax)
    return out.getvalue()
