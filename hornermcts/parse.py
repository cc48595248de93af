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

import numbers
import os
import re
from fractions import Fraction
from itertools import chain
from typing import Iterable, Iterator, Sequence

import numpy as np
import sympy
from sympy.core.function import AppliedUndef, FunctionClass
from sympy.core.relational import Relational
from sympy.logic.boolalg import Boolean
from sympy.polys.rings import PolyElement
from sympy.core.sorting import default_sort_key

from .coefficients import is_finite, product, quotient, to_number, to_python
from .polynomial import Polynomial

__all__ = [
    "ParseError",
    "from_sympy",
    "from_poly",
    "from_text",
    "read_file",
    "as_polynomial",
]

_S = sympy.S
_NOT_FINITE = (_S.NaN, _S.ComplexInfinity, _S.Infinity, _S.NegativeInfinity)


class ParseError(ValueError):
    """Expression text that cannot be parsed.

    The message reads ``file:line:column: what in "line text"``; the parts are
    also attributes (``filename``, ``lineno``, ``col``, ``text``, ``reason``).
    Line and column numbers start at 1.

    >>> try:
    ...     from_text("x*)y", name="hep.txt")
    ... except ParseError as err:
    ...     print(err)
    hep.txt:1:3: unexpected ')' in "x*)y"
    """

    def __init__(self, reason: str, *, filename: str, lineno: int, col: int, text: str):
        self.reason = reason
        self.filename = filename
        self.lineno = lineno
        self.col = col
        self.text = text
        super().__init__(f'{filename}:{lineno}:{col}: {reason} in "{_snippet(text, col)}"')


def _snippet(line: str, col: int, width: int = 40) -> str:
    line = line.rstrip("\r\n")
    if len(line) <= 2 * width:
        return line.strip()
    lo = max(col - 1 - width, 0)
    hi = min(col - 1 + width, len(line))
    return ("..." if lo else "") + line[lo:hi] + ("..." if hi < len(line) else "")


# --------------------------------------------------------------- sparse dicts
# A polynomial under construction is a dict {monomial: coefficient}; a monomial
# is a tuple of (column, exponent) pairs sorted by column, exponents > 0.
# Coefficients from text are int, Fraction or sympy.Float (Python arithmetic is
# much faster than SymPy's for the exact cases); coefficients from SymPy input
# are kept as the SymPy numbers they are (most are never combined with another).
# The two mix freely; coefficients.product/quotient cover the Fraction-with-Float case.

def _mono_mul(a: tuple, b: tuple) -> tuple:
    if not a:
        return b
    if not b:
        return a
    d = dict(a)
    for i, e in b:
        d[i] = d.get(i, 0) + e
    return tuple(sorted(d.items()))


def _poly_mul(p: dict, q: dict) -> dict:
    out: dict = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = _mono_mul(m1, m2)
            out[m] = out.get(m, 0) + product(c1, c2)
    return {m: c for m, c in out.items() if c}


def _poly_pow(p: dict, n: int) -> dict:
    if n == 0:
        return {(): 1}
    if len(p) == 1:
        ((m, c),) = p.items()
        return {tuple((i, e * n) for i, e in m): c**n}
    result = p
    for _ in range(n - 1):  # sparse bases: repeated multiplication beats squaring
        result = _poly_mul(result, p)
    return result


def _constant(p: dict):
    """The value of a constant polynomial, or None if ``p`` has a variable."""
    if not p:
        return 0
    if len(p) == 1 and () in p:
        return p[()]
    return None


class _Term:
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
            self.rest = p if self.rest is None else _poly_mul(self.rest, p)

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
                mm = _mono_mul(mono, m)
                acc[mm] = acc.get(mm, 0) + product(coef, c)


# -------------------------------------------------------------- the builder
class _Builder:
    """Columns (variables and opaque pieces) and the SymPy -> sparse dict rules.

    ``from_sympy``, ``from_poly`` and the text parser all go through one
    builder, so the placeholder rules live in one place: :meth:`convert`.
    """

    def __init__(self, symbols: Sequence | None = None, *, strict: bool = False):
        self.keys: list = []  # Symbol for a variable, the piece for an opaque column
        self.is_opaque: list[bool] = []
        self.index: dict = {}  # key -> column
        self.names: dict[str, int] = {}  # text identifiers -> column
        self.n_fixed = 0
        self.strict = strict and symbols is not None
        if symbols is not None:
            if isinstance(symbols, sympy.Basic):
                symbols = [symbols]
            for s in symbols:
                if not isinstance(s, sympy.Symbol):
                    raise TypeError(f"symbols must be SymPy Symbols, got {s!r} ({type(s).__name__})")
                if s in self.index:
                    raise ValueError(f"symbol {s} appears twice in symbols")
                self.var(s)
            self.n_fixed = len(self.keys)

    # ---- columns
    def var(self, s: sympy.Symbol) -> int:
        col = self.index.get(s)
        if col is None:
            if s.is_commutative is False:
                raise ValueError(f"non-commutative symbol {s} cannot be a polynomial variable")
            col = self._new(s, False)
            self.names.setdefault(s.name, col)
        return col

    def name_var(self, name: str) -> int:
        col = self.names.get(name)
        if col is None:
            col = self.var(sympy.Symbol(name))
            self.names[name] = col
        return col

    def piece(self, expr: sympy.Expr) -> int:
        col = self.index.get(expr)
        if col is None:
            if expr.is_commutative is False:
                raise ValueError(f"non-commutative piece {expr} cannot be a polynomial variable")
            col = self._new(expr, True)
        return col

    def _new(self, key, opaque: bool) -> int:
        col = len(self.keys)
        self.keys.append(key)
        self.is_opaque.append(opaque)
        self.index[key] = col
        return col

    # ---- SymPy -> sparse dict
    def convert(self, expr) -> dict:
        """``expr`` (a SymPy Expr) as a sparse dict; nested sums are walked with a stack."""
        acc: dict = {}
        if expr.is_Add:
            stack = [expr]
            while stack:
                e = stack.pop()
                if e.is_Add:
                    stack.extend(reversed(e.args))
                else:
                    self.add_term(acc, e)
            return {m: c for m, c in acc.items() if c}
        self.add_term(acc, expr)
        return acc

    def add_term(self, acc: dict, term) -> None:
        term_ = _Term()
        ex = term_.ex
        index = self.index
        if term.is_Mul:
            factors = term.args
            if any(f.is_Mul for f in factors):  # unevaluated nesting
                factors = _flatten_mul(term)
        else:
            factors = (term,)
        for f in factors:
            if f.is_Symbol:
                col = index.get(f)
                if col is None:
                    col = self.var(f)
                ex[col] = ex.get(col, 0) + 1
            elif f.is_Pow:
                b, e = f.args
                if b.is_Symbol and e.is_Integer and e.p > 0:
                    col = index.get(b)
                    if col is None:
                        col = self.var(b)
                    ex[col] = ex.get(col, 0) + int(e.p)
                else:
                    term_.times(self.factor(f, term))
            elif f.is_Rational or f.is_Float:
                # SymPy numbers are kept as they are: most terms are never
                # combined with another, so no arithmetic is needed at all
                coef = term_.coef
                term_.coef = f if type(coef) is int and coef == 1 else product(coef, f)
            else:
                term_.times(self.factor(f, term))
        term_.add_to(acc)

    def factor(self, f, term=None) -> dict:
        """One factor of a product as a sparse dict: the placeholder rules."""
        if f.is_Add or f.is_Mul:
            return self.convert(f)
        if f.is_Symbol:
            return {((self.var(f), 1),): 1}
        if f.is_Number:
            if not is_finite(f):
                raise ValueError(_not_finite_message(f, term if term is not None else f))
            return {(): f} if f else {}
        if f.is_Pow:
            b, e = f.args
            if e.is_Integer:
                n = int(e.p)
                if n >= 0:
                    return _poly_pow(self.factor(b, term), n)
                return self._root_piece(b, _S.NegativeOne, -n, term)
            if e.is_Rational:
                p, q = int(e.p), int(e.q)
                return self._root_piece(b, sympy.Rational(1 if p > 0 else -1, q), abs(p), term)
            return self._opaque(f)
        if any(f is bad for bad in _NOT_FINITE):
            raise ValueError(_not_finite_message(f, term if term is not None else f))
        if not isinstance(f, sympy.Expr):
            raise TypeError(f"{f} ({type(f).__name__}) inside {term} is not an expression")
        return self._opaque(f)

    def _root_piece(self, base, unit, n: int, term) -> dict:
        """``(base**unit)**n`` with ``base**unit`` (``1/b`` or ``b**(1/q)``) the piece."""
        key = sympy.Pow(base, unit)
        if key.is_Pow and key.exp == unit and key.base == base:
            return {((self.piece(key), n),): 1}
        # SymPy simplified the piece (1/(2*x) -> 1/2 * 1/x, 4**(1/2) -> 2): use that form
        return _poly_pow(self.factor(key, term), n)

    def _opaque(self, f) -> dict:
        return {((self.piece(f), 1),): 1}

    # ---- sparse dict -> SymPy (small pieces only: function arguments, divisors)
    def to_expr(self, p: dict) -> sympy.Expr:
        keys = self.keys
        terms = []
        for m, c in p.items():
            factors = [keys[i] if e == 1 else sympy.Pow(keys[i], e) for i, e in m]
            terms.append(sympy.Mul(to_number(c), *factors))
        return sympy.Add(*terms)

    # ---- sparse dict -> Polynomial
    def finish(self, acc: dict) -> Polynomial:
        terms = [(m, c) for m, c in acc.items() if c]
        monos = [m for m, _c in terms]
        lengths = np.fromiter(map(len, monos), dtype=np.int64, count=len(monos))
        total = int(lengths.sum())
        try:
            pairs = np.fromiter(
                chain.from_iterable(chain.from_iterable(monos)), dtype=np.int64, count=2 * total
            ).reshape(total, 2)
        except OverflowError:
            raise ValueError("an exponent does not fit in 64 bits") from None
        used = set(np.unique(pairs[:, 0]).tolist())
        if self.strict:
            extra = sorted(i for i in used if i >= self.n_fixed and not self.is_opaque[i])
            if extra:
                missing = ", ".join(str(self.keys[i]) for i in extra)
                fixed = ", ".join(str(s) for s in self.keys[: self.n_fixed])
                raise ValueError(f"symbol(s) {missing} are not in symbols=({fixed})")
        cols = [i for i in range(len(self.keys)) if i < self.n_fixed or i in used]
        remap = np.full(len(self.keys), -1, dtype=np.int64)
        remap[cols] = np.arange(len(cols))
        symbols = [self.keys[i] if not self.is_opaque[i] else None for i in cols]
        opaque = {}
        pieces = [i for i in cols if self.is_opaque[i]]
        if pieces:
            taken = {s.name for s in symbols if s is not None}
            for i in pieces:
                piece = self.keys[i]
                taken.update(s.name for s in piece.free_symbols if isinstance(s, sympy.Symbol))
                taken.update(str(a.func) for a in piece.atoms(AppliedUndef))
            k = 0
            for i in sorted(pieces, key=lambda i: default_sort_key(self.keys[i])):
                while f"_o{k}" in taken:
                    k += 1
                placeholder = sympy.Symbol(f"_o{k}")
                k += 1
                symbols[int(remap[i])] = placeholder
                opaque[placeholder] = self.keys[i]
        exps = np.zeros((len(terms), len(cols)), dtype=np.int64)
        if total:
            rows = np.repeat(np.arange(len(terms)), lengths)
            exps[rows, remap[pairs[:, 0]]] = pairs[:, 1]
        coefs = [to_number(c) for _m, c in terms]
        if not cols and terms:
            # Polynomial.__init__ turns an empty (n, 0) exponent matrix into (0, 0),
            # which loses a constant; build the constant around that.
            poly = Polynomial((), np.zeros((0, 0), dtype=np.int64), [])
            poly.exponents = exps
            poly.exponents.setflags(write=False)
            poly.coefficients = tuple(coefs)
            return poly
        return Polynomial(symbols, exps, coefs, opaque=opaque)


def _flatten_mul(term) -> list:
    out, stack = [], [term]
    while stack:
        e = stack.pop()
        if e.is_Mul:
            stack.extend(reversed(e.args))
        else:
            out.append(e)
    return out


def _not_finite_message(f, term) -> str:
    what = "undefined (NaN)" if f is _S.NaN else "infinite"
    where = "" if term is f else f" in {term}"
    return f"{what} coefficient {f}{where} cannot be part of a polynomial"


# ------------------------------------------------------------------ from_sympy
def _check_expr(expr, caller: str):
    """Reject what is not a scalar SymPy expression, saying what to do instead."""
    if isinstance(expr, sympy.Expr) and not getattr(expr, "is_Matrix", False):
        return expr
    if isinstance(expr, bool) or isinstance(expr, Boolean) and not isinstance(expr, Relational):
        raise TypeError(f"{caller}: {expr!r} is a boolean, not a polynomial expression")
    if isinstance(expr, (int, Fraction, float, numbers.Number)) and not isinstance(expr, bool):
        return to_number(expr) if not isinstance(expr, complex) else sympy.sympify(expr)
    if isinstance(expr, str):
        raise TypeError(
            f"{caller}: got a str {expr[:40]!r}; use from_text (or read_file) to parse expression text"
        )
    if isinstance(expr, Relational):
        raise TypeError(
            f"{caller}: {expr} is a relation ({type(expr).__name__}), not an expression; "
            "convert one side, or lhs - rhs"
        )
    if getattr(expr, "is_Matrix", False) or isinstance(expr, sympy.matrices.MatrixBase):
        raise TypeError(f"{caller}: got a matrix {type(expr).__name__}; call {caller} per entry")
    if isinstance(expr, (list, tuple, set, frozenset, dict, sympy.Tuple)):
        raise TypeError(
            f"{caller}: got a {type(expr).__name__}, not an expression; call {caller} per entry"
        )
    raise TypeError(f"{caller}: cannot convert {type(expr).__name__} {expr!r:.60} to a polynomial")


def from_sympy(expr, symbols: Sequence[sympy.Symbol] | None = None) -> Polynomial:
    """Convert a SymPy expression that is a polynomial in its free symbols.

    Sums are walked through ``.args`` (an ``Add`` of 10^5 terms takes a fraction
    of a second, with no recursion per term); products and integer powers of
    sums are expanded exactly with sparse dict arithmetic, never with
    ``sympy.expand``.  Non-polynomial pieces and non-numeric constants become
    opaque placeholders (see the module docstring for the rules), so
    ``from_sympy(e).to_sympy()`` always equals ``e`` after expansion.

    Parameters
    ----------
    expr : sympy.Expr, int, Fraction or float
        The expression. A ``Poly`` is passed on to :func:`from_poly`.
    symbols : sequence of sympy.Symbol, optional
        The variables, in column order; symbols that do not occur are kept as
        all-zero columns, opaque placeholders come after them.  By default the
        variables are ordered by first occurrence while walking ``expr.args``
        depth first (SymPy's stored argument order, deterministic for a given
        expression).

    Returns
    -------
    Polynomial
        Coefficients are ``Integer``, ``Rational`` or ``Float`` exactly as in
        ``expr`` (a ``Float`` is never rationalised).

    Raises
    ------
    TypeError
        ``expr`` is not a scalar expression: a str (use :func:`from_text`), a
        list or Matrix (convert per entry), a relation such as ``Eq(x, 1)``, a
        boolean.
    ValueError
        A polynomial variable is missing from ``symbols``; a coefficient is
        ``nan``, ``oo``, ``-oo`` or ``zoo``; a non-commutative symbol.

    Examples
    --------
    >>> import sympy
    >>> x, y, z = sympy.symbols("x y z")
    >>> p = from_sympy((x + 1) * (y + 2)**3)
    >>> p.n_terms, p.symbols   # first occurrence in p.args: ((y + 2)**3, x + 1)
    (8, (y, x))
    >>> from_sympy(2.5*x + sympy.Rational(1, 3)*y, symbols=[y, x, z]).coefficients
    (1/3, 2.50000000000000)
    >>> q = from_sympy(1/z + 1/z**2 + sympy.sqrt(x) + x**sympy.Rational(3, 2))
    >>> q.opaque, q.term_dict()
    ({_o0: sqrt(x), _o1: 1/z}, {(1, 0): 1, (3, 0): 1, (0, 1): 1, (0, 2): 1})
    >>> from_sympy(sympy.Eq(x, 1))
    Traceback (most recent call last):
    ...
    TypeError: from_sympy: Eq(x, 1) is a relation (Equality), not an expression; convert one side, or lhs - rhs
    """
    if isinstance(expr, sympy.Poly):
        return from_poly(expr, symbols)
    expr = _check_expr(expr, "from_sympy")
    builder = _Builder(symbols, strict=True)
    return builder.finish(builder.convert(expr))


# ------------------------------------------------------------------- from_poly
def from_poly(p, symbols: Sequence[sympy.Symbol] | None = None) -> Polynomial:
    """Convert a ``sympy.Poly`` or a ``PolyElement`` (from ``sympy.ring``).

    The generators become the columns, in the generator order (a generator
    that does not occur keeps an all-zero column).  Over ``ZZ``, ``QQ`` and
    ``RR`` the terms are read directly; over any other domain (``EX``,
    ``ZZ[a]``, ``QQ(a)``, algebraic fields, ...) the coefficients hold other
    symbols or constants, and the poly goes through :func:`from_sympy` of
    ``p.as_expr()`` (the generators still come first).  A generator that is not
    a Symbol (``sin(x)`` in ``Poly(sin(x)**2 + 1)``) becomes an opaque
    placeholder by the usual rules.

    Parameters
    ----------
    p : sympy.Poly or sympy.polys.rings.PolyElement
    symbols : sequence of sympy.Symbol, optional
        Column order, as in :func:`from_sympy`; every generator that is a
        Symbol must be in it.

    Examples
    --------
    >>> import sympy
    >>> x, y, a = sympy.symbols("x y a")
    >>> from_poly(sympy.Poly(3*x**2*y - y + 7, x, y)).term_dict()
    {(2, 1): 3, (0, 1): -1, (0, 0): 7}
    >>> from_poly(sympy.Poly(a*x**2 + 2, x)).symbols
    (x, a)
    >>> from_poly(sympy.Poly(sympy.sin(x)**2 + 1)).opaque
    {_o0: sin(x)}
    >>> R, u, v = sympy.ring("u v", sympy.QQ)
    >>> from_poly(u**2/2 - v).to_sympy()
    u**2/2 - v
    """
    if isinstance(p, PolyElement):
        gens, domain = tuple(p.ring.symbols), p.ring.domain
        items = [(m, domain.to_sympy(c)) for m, c in p.terms()]
    elif isinstance(p, sympy.Poly):
        gens, domain = p.gens, p.domain
        items = None
    else:
        raise TypeError(f"from_poly: expected a sympy Poly or PolyElement, got {type(p).__name__}")
    builder = _Builder(symbols, strict=True)
    gen_syms = [g for g in gens if isinstance(g, sympy.Symbol)]
    if symbols is None:
        for g in gen_syms:
            builder.var(g)
        builder.n_fixed = len(builder.keys)
    else:
        missing = [g for g in gen_syms if g not in builder.index]
        if missing:
            raise ValueError(
                f"generator(s) {', '.join(map(str, missing))} are not in symbols={tuple(symbols)}"
            )
    if not (domain.is_ZZ or domain.is_QQ or domain.is_RR):
        builder.strict = False if symbols is None else True
        return builder.finish(builder.convert(p.as_expr()))
    if items is None:
        items = p.terms()
    gen_polys = [builder.factor(g) for g in gens]
    simple = all(len(g) == 1 and next(iter(g.values())) == 1 for g in gen_polys)
    acc: dict = {}
    for monom, c in items:
        if not is_finite(c):
            raise ValueError(_not_finite_message(c, c))
        coef = to_python(c)
        if simple:
            ex: dict[int, int] = {}
            for g, e in zip(gen_polys, monom):
                if e:
                    for i, k in next(iter(g)):
                        ex[i] = ex.get(i, 0) + k * e
            mono = tuple(sorted(ex.items()))
            acc[mono] = acc.get(mono, 0) + coef
        else:
            term = _Term()
            term.coef = coef
            for g, e in zip(gen_polys, monom):
                if e:
                    term.times(_poly_pow(g, e))
            term.add_to(acc)
    return builder.finish(acc)


# ----------------------------------------------------------------- text input
# One token per match, kind told by its first character; columns are only
# worked out (by matching the line again) when an error needs one.
_TOKEN_RE = re.compile(
    r"\s*((?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[0-9]+(?:[eE][+-]?[0-9]+)?"
    r"|[A-Za-z_][A-Za-z0-9_]*|\*\*|\S)"
)
_OPERATORS = {c: c for c in "+-*/(),=;^"}
_OPERATORS["**"] = "^"
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NUMBER_START = frozenset("0123456789.")


def _column(line: str, index: int) -> int:
    """1-based column of token number ``index`` of ``line`` (just past the last one if too big)."""
    col = len(line.rstrip()) + 1
    for k, m in enumerate(_TOKEN_RE.finditer(line)):
        if k == index:
            return m.start(1) + 1
    return col

_CONSTANTS = {
    "pi": _S.Pi,
    "E": _S.Exp1,
    "I": _S.ImaginaryUnit,
    "EulerGamma": _S.EulerGamma,
    "GoldenRatio": _S.GoldenRatio,
    "Catalan": _S.Catalan,
    "pi_": _S.Pi,  # FORM spellings
    "i_": _S.ImaginaryUnit,
}
_NOT_FINITE_NAMES = {"oo": "infinity", "zoo": "complex infinity", "nan": "NaN"}
_FORM_FUNCTIONS = {
    "sqrt_": "sqrt", "ln_": "log", "abs_": "Abs", "sin_": "sin", "cos_": "cos",
    "tan_": "tan", "asin_": "asin", "acos_": "acos", "atan_": "atan", "atan2_": "atan2",
    "sinh_": "sinh", "cosh_": "cosh", "tanh_": "tanh", "asinh_": "asinh",
    "acosh_": "acosh", "atanh_": "atanh",
}
_PLAIN_FUNCTIONS = {"sqrt", "cbrt", "root"}
_SPECIAL_NAMES = frozenset(_CONSTANTS) | frozenset(_NOT_FINITE_NAMES)


def _function(name: str):
    """SymPy's function of that name (``sin``, ``exp``, FORM's ``sqrt_``), else an undefined one."""
    target = _FORM_FUNCTIONS.get(name, name)
    obj = getattr(sympy, target, None)
    if target in _PLAIN_FUNCTIONS or (
        isinstance(obj, FunctionClass) and target not in ("Function", "Lambda")
    ):
        return obj
    return sympy.Function(name)


def _big_int(digits: str) -> int:
    try:
        return int(digits)
    except ValueError:  # beyond sys.get_int_max_str_digits(): build it in chunks
        value = 0
        for k in range(0, len(digits), 4000):
            chunk = digits[k : k + 4000]
            value = value * 10 ** len(chunk) + int(chunk)
        return value


# A line made only of "simple" terms (sign, optional integer or p/q coefficient,
# then name[^int] factors joined by '*', as FORM prints its output) is handed to
# the parser as one 'T' token, parsed by regular expressions instead of token by
# token; about five times faster on files like hep_sigma.txt.
_NAMEPOW = r"[A-Za-z_][A-Za-z0-9_]*(?:\s*(?:\^|\*\*)\s*[0-9]+)?"
_SIMPLE = rf"(?:[0-9]+(?:\s*/\s*[0-9]+)?\s*\*\s*)?{_NAMEPOW}(?:\s*\*\s*{_NAMEPOW})*"
_SIMPLE_LINE_RE = re.compile(rf"\s*[+-]?\s*{_SIMPLE}(?:\s*[+-]\s*{_SIMPLE})*\s*$")
_SIMPLE_TERM_RE = re.compile(
    rf"([+-]?)\s*(?:([0-9]+)(?:\s*/\s*([0-9]+))?\s*\*\s*)?({_NAMEPOW}(?:\s*\*\s*{_NAMEPOW})*)"
)
_FACTOR_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\s*(?:\^|\*\*)\s*([0-9]+))?")
_SIMPLE_EXCLUDE_RE = re.compile(
    r"/\s*0+(?![0-9])|\b(?:" + "|".join(sorted(_SPECIAL_NAMES)) + r")\b"
)
_AFTER_OPERAND = frozenset("in)T")  # a +/- after these tokens is binary
_SUM_START = frozenset([None, "(", ",", "="])  # a sum may start after these


def _tokens(lines: Iterable[str], filename: str) -> Iterator[tuple]:
    """Tokens ``(kind, value, line number, index in line, line text)``, then one ``EOF``.

    ``kind`` is the operator character for operators (``'^'`` for both ``^``
    and ``**``), ``'n'`` for numbers (value int or Float), ``'i'`` for
    identifiers, ``'T'`` for a whole line of simple terms (value: the
    ``_SIMPLE_TERM_RE.findall`` groups).  A line becomes a ``'T'`` only where
    it is exactly a run of summands: after an operand or at the start of a
    sum, and followed by a line that starts a new summand or closes the sum.
    """
    last = (1, 0, "")
    prev = None  # kind of the last token
    findall = _TOKEN_RE.findall
    simple_line = _SIMPLE_LINE_RE.match
    operators = _OPERATORS
    name_start = _NAME_START
    Float = sympy.Float
    numbered = ((n, line) for n, line in enumerate(lines, 1) if line and not line.isspace())
    cur = next(numbered, None)
    while cur is not None:
        nxt = next(numbered, None)
        lineno, line = cur
        cur = nxt
        if (
            (prev in _AFTER_OPERAND or prev in _SUM_START)
            and len(line) < 4096
            and simple_line(line)
            and (nxt is None or nxt[1].lstrip()[0] in "+-;),")
            and (prev in _SUM_START or line.lstrip()[0] in "+-")
            and not _SIMPLE_EXCLUDE_RE.search(line)
        ):
            yield ("T", _SIMPLE_TERM_RE.findall(line), lineno, 0, line)
            prev = "T"
            last = (lineno, 1 << 30, line)
            continue
        texts = findall(line)
        for index, text in enumerate(texts):
            kind = operators.get(text)
            if kind is not None:
                yield (kind, text, lineno, index, line)
            elif text[0] in name_start:
                yield ("i", text, lineno, index, line)
            elif text.isdigit():
                yield ("n", _big_int(text), lineno, index, line)
            elif text[0] in _NUMBER_START and text != ".":
                yield ("n", Float(text), lineno, index, line)
            else:
                raise ParseError(
                    f"illegal character {text!r}",
                    filename=filename, lineno=lineno, col=_column(line, index), text=line,
                )
        if texts:
            text = texts[-1]
            prev = operators.get(text) or ("i" if text[0] in name_start else "n")
            last = (lineno, len(texts), line)
    yield ("EOF", None, *last)


class _Parser:
    """Recursive descent over the token stream, one top-level summand at a time.

    Grammar (Python's precedence; ``^`` and ``**`` are the same)::

        input   := [[Local|Global|L|G] NAME '='] [sum] [';']
        sum     := term (('+'|'-') term)*        (the sign is the term's unary sign)
        term    := factor (('*'|'/') factor)*
        factor  := ('+'|'-') factor | primary ['^' factor]
        primary := NUMBER | NAME | NAME '(' [sum (',' sum)*] ')' | '(' sum ')'
    """

    def __init__(self, lines: Iterable[str], filename: str, builder: _Builder):
        self.filename = filename
        self.b = builder
        self._next = _tokens(lines, filename).__next__
        self.tok = self._next()

    def advance(self) -> None:
        self.tok = self._next()

    def error(self, reason: str, tok=None):
        tok = tok or self.tok
        return ParseError(
            reason, filename=self.filename, lineno=tok[2], col=_column(tok[4], tok[3]), text=tok[4]
        )

    def unexpected(self, tok=None, after=""):
        tok = tok or self.tok
        if tok[0] == "EOF":
            return self.error("unexpected end of input" + after, tok)
        if tok[0] == "n":
            text = _TOKEN_RE.findall(tok[4])[tok[3]]
            return self.error(f"unexpected number {text}" + after, tok)
        return self.error(f"unexpected {tok[1]!r}" + after, tok)

    # ---- entry point
    def parse(self) -> dict:
        self._header()
        acc: dict = {}
        if self.tok[0] not in (";", "EOF"):
            self.sum(acc)
        k = self.tok[0]
        if k == ";":
            self.advance()
            if self.tok[0] != "EOF":
                raise self.unexpected(after=" after ';'")
        elif k == ")":
            raise self.error("unexpected ')' without a matching '('")
        elif k != "EOF":
            raise self.unexpected()
        return acc

    def _header(self) -> None:
        """Skip ``NAME =`` or FORM's ``Local NAME =``; needs two tokens of lookahead."""
        if self.tok[0] != "i":
            return
        first = self.tok
        self.advance()
        if self.tok[0] == "=":
            self.advance()
            return
        if first[1].lower() in ("local", "global", "l", "g") and self.tok[0] == "i":
            second = self.tok
            self.advance()
            if self.tok[0] == "=":
                self.advance()
                return
            raise self.unexpected(second)
        self._push_back(first)  # not a header: the name starts the expression

    def _push_back(self, tok) -> None:
        current, nxt = self.tok, self._next

        def resume():
            self._next = nxt
            return current

        self.tok = tok
        self._next = resume

    # ---- grammar
    def sum(self, acc: dict) -> None:
        while True:
            if self.tok[0] == "T":
                self.simple_terms(acc, self.tok[1])
                self.advance()
            else:
                self.term(acc)
            k = self.tok[0]
            if k != "+" and k != "-" and k != "T":
                return

    def simple_terms(self, acc: dict, terms: list) -> None:
        names = self.b.names
        name_var = self.b.name_var
        findall = _FACTOR_RE.findall
        for sign, num, den, factors in terms:
            coef = _big_int(num) if num else 1
            if den:
                coef = quotient(coef, _big_int(den))
            if sign == "-":
                coef = -coef
            ex: dict[int, int] = {}
            for name, e in findall(factors):
                col = names.get(name)
                if col is None:
                    col = name_var(name)
                k = int(e) if e else 1
                if k:
                    ex[col] = ex.get(col, 0) + k
            mono = tuple(sorted(ex.items()))
            acc[mono] = acc.get(mono, 0) + coef

    def term(self, acc: dict) -> None:
        b = self.b
        names = b.names
        t = _Term()
        ex = t.ex
        while True:
            tok = self.tok
            k = tok[0]
            while k == "-" or k == "+":
                if k == "-":
                    t.coef = -t.coef
                self.advance()
                tok = self.tok
                k = tok[0]
            if k == "i":
                self.advance()
                name = tok[1]
                if self.tok[0] != "(" and name not in _SPECIAL_NAMES:
                    col = names.get(name)
                    if col is None:
                        col = b.name_var(name)
                    if self.tok[0] == "^":
                        e = self.exponent()
                        if type(e) is int and e >= 0:
                            if e:
                                ex[col] = ex.get(col, 0) + e
                        else:
                            t.times(self.power({((col, 1),): 1}, e, tok))
                    else:
                        ex[col] = ex.get(col, 0) + 1
                else:
                    t.times(self.after_primary(self.name_primary(tok)))
            elif k == "n":
                self.advance()
                if self.tok[0] == "^":
                    t.times(self.power({(): tok[1]}, self.exponent(), tok))
                else:
                    t.coef = product(t.coef, tok[1])
            else:
                t.times(self.after_primary(self.primary()))
            k = self.tok[0]
            while k == "/":
                slash = self.tok
                self.advance()
                self.divide(t, self.factor(), slash)
                k = self.tok[0]
            if k != "*":
                break
            self.advance()
        t.add_to(acc)

    def factor(self) -> dict:
        sign = 1
        k = self.tok[0]
        while k == "-" or k == "+":
            if k == "-":
                sign = -sign
            self.advance()
            k = self.tok[0]
        p = self.after_primary(self.primary())
        if sign < 0:
            p = {m: -c for m, c in p.items()}
        return p

    def after_primary(self, p: dict) -> dict:
        if self.tok[0] == "^":
            caret = self.tok
            return self.power(p, self.exponent(), caret)
        return p

    def exponent(self):
        """After ``^``: an int for a plain integer literal, else the exponent's dict."""
        self.advance()
        tok = self.tok
        if tok[0] == "n" and type(tok[1]) is int:
            self.advance()
            if self.tok[0] != "^":
                return tok[1]
            return self.power({(): tok[1]}, self.exponent(), tok)
        if tok[0] == "^":
            raise self.unexpected()
        return self.factor()

    def power(self, base: dict, e, tok) -> dict:
        if type(e) is not int:
            c = _constant(e)
            if type(c) is int:
                e = c
        if type(e) is int and e >= 0:
            return _poly_pow(base, e)
        if type(e) is int:
            e = {(): e}
        if _constant(base) == 0 and _constant(e) is not None and _constant(e) < 0:
            raise self.error("division by zero (0 to a negative power)", tok)
        b = self.b
        return self.piece(lambda: sympy.Pow(b.to_expr(base), b.to_expr(e)), tok)

    def divide(self, t: _Term, d: dict, slash) -> None:
        c = _constant(d)
        if c is not None:
            if not c:
                raise self.error("division by zero", slash)
            t.coef = quotient(t.coef, c)
        else:
            b = self.b
            t.times(self.piece(lambda: sympy.Pow(b.to_expr(d), -1), slash))

    def piece(self, build, tok) -> dict:
        """Build a small SymPy piece and classify it with the shared rules."""
        try:
            return self.b.convert(build())
        except ParseError:
            raise
        except (ValueError, TypeError, ArithmeticError, AttributeError) as err:
            raise self.error(str(err), tok) from err

    def primary(self) -> dict:
        tok = self.tok
        k = tok[0]
        if k == "n":
            self.advance()
            return {(): tok[1]} if tok[1] else {}
        if k == "i":
            self.advance()
            return self.name_primary(tok)
        if k == "(":
            self.advance()
            acc: dict = {}
            self.sum(acc)
            self.close(tok)
            return {m: c for m, c in acc.items() if c}
        raise self.unexpected()

    def close(self, opening) -> None:
        k = self.tok[0]
        if k == ")":
            self.advance()
        elif k == "EOF":
            raise self.error("'(' is never closed", opening)
        else:
            raise self.unexpected(after=f" (expected ')' to close the '(' at line {opening[2]})")

    def name_primary(self, tok) -> dict:
        name = tok[1]
        if self.tok[0] == "(":
            opening = self.tok
            self.advance()
            args = []
            if self.tok[0] != ")":
                while True:
                    acc: dict = {}
                    self.sum(acc)
                    args.append(acc)
                    if self.tok[0] != ",":
                        break
                    self.advance()
            self.close(opening)
            b = self.b
            func = _function(name)
            return self.piece(lambda: func(*[b.to_expr(a) for a in args]), tok)
        if name in _NOT_FINITE_NAMES:
            raise self.error(f"{name} ({_NOT_FINITE_NAMES[name]}) cannot be part of a polynomial", tok)
        if name in _CONSTANTS:
            return self.b.convert(_CONSTANTS[name])
        return {((self.b.name_var(name), 1),): 1}


def _parse_lines(lines: Iterable[str], filename: str, symbols) -> Polynomial:
    builder = _Builder(symbols, strict=True)
    parser = _Parser(lines, filename, builder)
    try:
        acc = parser.parse()
    except RecursionError:
        raise parser.error("expression nested too deeply") from None
    return builder.finish(acc)


def from_text(
    text: str, *, name: str = "<string>", symbols: Sequence[sympy.Symbol] | None = None
) -> Polynomial:
    """Parse a polynomial written in FORM or SymPy syntax.

    The syntax: numbers (integers of any size, ``2.5``, ``1e-3``, ``1.5E+2``;
    a number with a point or an exponent is a SymPy ``Float``), identifiers
    ``[A-Za-z_][A-Za-z0-9_]*``, ``+ - * /``, ``^`` or ``**`` for powers,
    parentheses, function calls ``f(x, y)``, with Python's precedence
    (``-x^2`` is ``-(x^2)``, ``x^y^z`` is ``x^(y^z)``, ``a/b*c`` is
    ``(a/b)*c``).  Whitespace and newlines may appear between any two tokens,
    so one term may span several lines.  An optional leading ``NAME =`` (or
    FORM's ``Local NAME =``) and a trailing ``;`` are skipped.  Text that is
    empty or only whitespace is the zero polynomial (no terms, no symbols).

    Division by a number is exact (``3/4*x``, ``x/2``); division by anything
    else (``1/z``, ``x/(y + 1)``), a power whose exponent is not a
    non-negative integer (``x^y``, ``x^(1/2)``, ``x^-2``) and every function
    call become opaque pieces by the same rules as :func:`from_sympy`; a
    function call is built with SymPy only for that small piece (``sin``,
    ``exp``, ``sqrt`` ... are SymPy's, FORM's ``sqrt_``, ``ln_`` ... map to
    them, any other name is an undefined function).  ``pi``, ``E``, ``I``,
    ``EulerGamma``, ``GoldenRatio``, ``Catalan`` (and FORM's ``pi_``, ``i_``)
    are those constants; every other identifier is a plain Symbol (also names
    SymPy's own parser treats specially, such as ``N``, ``S`` or ``beta``).
    Pieces are not simplified against each other: ``sqrt(x)^2`` stays the
    square of the placeholder for ``sqrt(x)``.

    Parameters
    ----------
    text : str
    name : str
        What error messages call the text (a file name, say).
    symbols : sequence of sympy.Symbol, optional
        Column order, as in :func:`from_sympy`; identifiers are matched to
        them by name.

    Raises
    ------
    ParseError
        With ``name:line:column``, the reason and the offending line: illegal
        characters, unbalanced parentheses, dangling operators, ``x^^2``,
        division by zero, ``oo``/``nan``.

    Examples
    --------
    >>> p = from_text("Local F = 2*x^2*y\\n  - 3/4*x*y**2 + 1.5e1;")
    >>> p.symbols, p.coefficients
    ((x, y), (2, -3/4, 15.0000000000000))
    >>> from_text("sin(x)*y^2 + 1/z^2 + x^y").opaque
    {_o0: x**y, _o1: 1/z, _o2: sin(x)}
    >>> from_text("   ").n_terms
    0
    >>> from_text("x + (y*2", name="in.txt")
    Traceback (most recent call last):
    ...
    hornermcts.parse.ParseError: in.txt:1:5: '(' is never closed in "x + (y*2"
    """
    if not isinstance(text, str):
        raise TypeError(f"from_text: expected a str, got {type(text).__name__}")
    if text.startswith("\ufeff"):
        text = text[1:]
    return _parse_lines(text.split("\n"), name, symbols)


def _file_lines(fh, filename: str) -> Iterator[str]:
    for lineno, raw in enumerate(fh, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            shown = raw.decode("utf-8", "replace")
            col = len(raw[: err.start].decode("utf-8", "replace")) + 1
            raise ParseError(
                f"invalid UTF-8 byte {raw[err.start:err.start + 1]!r}",
                filename=filename, lineno=lineno, col=col, text=shown,
            ) from None
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]
        yield line


def read_file(path, *, symbols: Sequence[sympy.Symbol] | None = None) -> Polynomial:
    """Parse a file in FORM or SymPy syntax (see :func:`from_text`), streaming.

    The file is read line by line and parsed one top-level summand at a time
    into a sparse dict; no SymPy expression of the whole is ever built.  The
    5717-term ``expressions/hep_sigma.txt`` takes about 0.1 s.

    Parameters
    ----------
    path : str or os.PathLike
        UTF-8 text; error messages name it as given.
    symbols : sequence of sympy.Symbol, optional
        Column order, as in :func:`from_sympy`.

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    ParseError
        As in :func:`from_text`, and for bytes that are not UTF-8.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = pathlib.Path(d, "F.frm")
    ...     _ = f.write_text("F =\\n  + 32*x1^3*zk^2\\n  - 48*x1\\n  *zk;\\n")
    ...     read_file(f).to_sympy()
    32*x1**3*zk**2 - 48*x1*zk
    """
    filename = os.fspath(path)
    if isinstance(filename, bytes):
        filename = os.fsdecode(filename)
    with open(path, "rb") as fh:
        return _parse_lines(_file_lines(fh, filename), filename, symbols)


# ---------------------------------------------------------------- dispatcher
def _reorder(poly: Polynomial, symbols: Sequence[sympy.Symbol]) -> Polynomial:
    symbols = list(symbols)
    if len(set(symbols)) != len(symbols):
        raise ValueError(f"duplicate symbols in {symbols}")
    missing = [s for s in poly.symbols if s not in poly.opaque and s not in symbols]
    if missing:
        raise ValueError(f"symbol(s) {', '.join(map(str, missing))} are not in symbols={tuple(symbols)}")
    order = symbols + [s for s in poly.symbols if s in poly.opaque and s not in symbols]
    exps = np.zeros((poly.n_terms, len(order)), dtype=np.int64)
    for j, s in enumerate(poly.symbols):
        exps[:, order.index(s)] = poly.exponents[:, j]
    return Polynomial(order, exps, poly.coefficients, opaque=poly.opaque)


def as_polynomial(obj, symbols: Sequence[sympy.Symbol] | None = None) -> Polynomial:
    """Convert anything hornermcts accepts as input to a :class:`Polynomial`.

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
    >>> as_polynomial([x])
    Traceback (most recent call last):
    ...
    TypeError: as_polynomial: cannot convert a list; expected a Polynomial, SymPy expression, Poly, str or path
    """
    if isinstance(obj, Polynomial):
        return obj if symbols is None else _reorder(obj, symbols)
    if isinstance(obj, (sympy.Poly, PolyElement)):
        return from_poly(obj, symbols)
    if isinstance(obj, str):
        try:
            return from_text(obj, symbols=symbols)
        except ParseError as err:
            if os.path.exists(obj) or re.fullmatch(r"[\w.~/\\-]*\.\w+", obj.strip()):
                raise ParseError(f"{err.reason} (a str is expression text; if {obj.strip()!r} is a file, pass "
                                 f"pathlib.Path({obj.strip()!r}) or use hornermcts.read_file)",
                                 filename=err.filename, lineno=err.lineno, col=err.col, text=err.text) from None
            raise
    if isinstance(obj, os.PathLike):
        return read_file(obj, symbols=symbols)
    if isinstance(obj, sympy.Expr) and not getattr(obj, "is_Matrix", False):
        return from_sympy(obj, symbols)
    if isinstance(obj, (int, Fraction, float, numbers.Number)) and not isinstance(obj, bool):
        return from_sympy(obj, symbols)
    raise TypeError(
        f"as_polynomial: cannot convert a {type(obj).__name__}; "
        "expected a Polynomial, SymPy expression, Poly, str or path"
    )
