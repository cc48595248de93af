"""SymPy input: :func:`from_sympy` for expressions, :func:`from_poly` for ``Poly`` and ``PolyElement``."""
from __future__ import annotations

from ..errors import OptionError

import numbers
from fractions import Fraction
from typing import Sequence

import sympy
from sympy.core.relational import Relational
from sympy.logic.boolalg import Boolean
from sympy.polys.rings import PolyElement

from ..polynomial.coefficients import is_finite, to_number, to_python
from ..polynomial.sparse import Polynomial
from .budget import Budget
from .builder import Builder, not_finite_message
from .sparse import Term, poly_pow

__all__ = ["from_sympy", "from_poly"]


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


def from_sympy(expr, symbols: Sequence[sympy.Symbol] | None = None, *, max_terms: int | None = None) -> Polynomial:
    """Convert a SymPy expression that is a polynomial in its free symbols.

    Sums are walked through ``.args`` (an ``Add`` of 10^5 terms takes a fraction
    of a second, with no recursion per term); products and integer powers of
    sums are expanded exactly with sparse dict arithmetic, never with
    ``sympy.expand``, under a budget of ``max_terms`` terms (default
    :data:`~hornermcts.parse.budget.MAX_TERMS`; beyond it a
    :class:`~hornermcts.errors.LimitError`, see
    :class:`~hornermcts.parse.budget.Budget`).  Non-polynomial pieces and non-numeric constants become
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
    builder = Builder(symbols, strict=True, budget=Budget(max_terms, where=lambda: "from_sympy"))
    return builder.finish(builder.convert(expr))


# ------------------------------------------------------------------- from_poly
def from_poly(p, symbols: Sequence[sympy.Symbol] | None = None, *, max_terms: int | None = None) -> Polynomial:
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
    builder = Builder(symbols, strict=True, budget=Budget(max_terms, where=lambda: "from_poly"))
    gen_syms = [g for g in gens if isinstance(g, sympy.Symbol)]
    if symbols is None:
        for g in gen_syms:
            builder.var(g)
        builder.n_fixed = len(builder.keys)
    else:
        missing = [g for g in gen_syms if g not in builder.index]
        if missing:
            raise OptionError(
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
            raise OptionError(not_finite_message(c, c))
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
            term = Term(builder.budget)
            term.coef = coef
            for g, e in zip(gen_polys, monom):
                if e:
                    term.times(poly_pow(g, e, builder.budget))
            term.add_to(acc)
    return builder.finish(acc)
