"""Drop-in SymPy entry points: ``simplify`` and a ``cse`` with ``sympy.cse``'s signature.

Examples
--------
>>> import sympy
>>> from hornermcts import simplify, cse
>>> x, y, z = sympy.symbols("x y z")
>>> simplify(x**3*y**2 + x**2*y + x**3*z, iterations=50, seed=0)
x**2*(x*(y**2 + z) + y)
>>> f = sympy.lambdify((x, y, z), x**3*y**2 + x**2*y + x**3*z, cse=cse)
>>> f(2, 3, 5)
[124]
"""
from __future__ import annotations

import sympy

from .optimize import optimize
from .views import to_expressions

__all__ = ["simplify", "cse"]


def simplify(expr, **options):
    """An exactly equal expression with fewer operations: the optimized Horner form.

    Parameters
    ----------
    expr : SymPy expression, or a list, tuple or Matrix of them
        Polynomials in their free symbols; non-polynomial pieces (``sin(x)``,
        ``1/z``, ``f(y)``) are kept intact inside.  Several expressions are
        optimized together (one variable order, shared subexpressions) and
        returned in the same shape.
    **options
        Fields of :class:`hornermcts.Options` (``preset``, ``iterations``,
        ``seed``, ``time_limit`` ...), passed to :func:`hornermcts.optimize`,
        or ``options=Options(...)``; an unknown name is a TypeError listing
        them.

    Returns
    -------
    The nested Horner form(s), no temporaries.  Common subexpressions are
    not visible in one expression: use :func:`cse` (or
    :func:`hornermcts.optimize` and its views) to keep them.  The nested
    form's own operation count is ``hornermcts.expression_count(out)``
    (``cse``'s output holds exactly ``optimize(...).after``).  When the input
    as written is cheaper than any form found (``(x + y)**8``), it comes
    back in its own form.
    """
    many = isinstance(expr, (sympy.MatrixBase, list, tuple))
    exprs = to_expressions(optimize(list(expr) if many else expr, **options).dag)
    if isinstance(expr, sympy.MatrixBase):
        return type(expr)(expr.shape[0], expr.shape[1], exprs)
    return type(expr)(exprs) if many else exprs[0]


def _optimizable(e) -> bool:
    """True for a commutative scalar expression, what :func:`hornermcts.optimize` takes."""
    from sympy.matrices.expressions import MatrixExpr

    return (isinstance(e, sympy.Expr) and not isinstance(e, MatrixExpr) and e.is_commutative is True
            and not e.has(sympy.UnevaluatedExpr, sympy.MatrixSymbol))


def _sympy_cse(exprs, symbols, optimizations, postprocess, order, ignore, list_):
    """``sympy.cse`` with the caller's arguments (``symbols`` as the iterator SymPy expects)."""
    if symbols is not None:
        symbols = iter(symbols)
    return sympy.cse(exprs, symbols=symbols, optimizations=optimizations, postprocess=postprocess,
                     order=order, ignore=ignore, list=list_)


def _expression(item):
    """A SymPy expression from ``item``; text goes through the safe parser (``sympify`` would run it)."""
    if isinstance(item, str):
        from .parse import from_text

        return from_text(item).to_sympy()
    return sympy.sympify(item, strict=True) if not isinstance(item, sympy.Basic) else item


def cse(exprs, symbols=None, optimizations=None, postprocess=None, order="canonical", ignore=(), list=True, **options):
    """Common subexpressions of a Horner-optimized form, in ``sympy.cse``'s shape.

    Same signature and return value as :func:`sympy.cse`, so it plugs into
    ``sympy.lambdify(args, expr, cse=hornermcts.cse)`` and code printers:
    returns ``(replacements, reduced_exprs)``; ``replacements`` is a list of
    ``(symbol, expression)`` in evaluation order.  The expressions are
    optimized together by :func:`hornermcts.optimize` (``**options``, the
    fields of :class:`hornermcts.Options`, go there).

    ``symbols`` is an iterable of names for the temporaries (a list, tuple
    or iterator; default ``x0, x1, ...`` as in SymPy, avoiding the inputs'
    names; a ValueError if it runs out); ``postprocess`` is applied
    as SymPy does, ``postprocess(replacements, reduced_exprs)``;
    ``optimizations`` and ``order`` are accepted for compatibility and have
    no effect (the Horner + CSE optimization replaces SymPy's).  With
    ``list=False`` a single expression gives a single reduced expression.

    What the Horner optimization does not apply to is handed to
    :func:`sympy.cse` itself, with all the arguments: a non-empty
    ``ignore``, a dict, relationals and booleans (``Eq(x**2 + x*y, 1)``,
    ``x < 1``), ``Tuple``, non-commutative symbols, ``UnevaluatedExpr``
    and matrix expressions (``MatrixSymbol``, ``A.T*A``).  So the drop-in
    raises only where ``sympy.cse`` does.
    """
    if ignore or isinstance(exprs, dict):
        return _sympy_cse(exprs, symbols, optimizations, postprocess, order, ignore, list)
    single = isinstance(exprs, (sympy.Basic, sympy.MatrixBase, str)) or not hasattr(exprs, "__iter__")
    if single:
        items = [exprs]
    elif isinstance(exprs, set):
        items = sorted(exprs, key=sympy.default_sort_key)
    else:
        items = [*exprs]  # a list, tuple, generator, reversed(...)
    items = [item if isinstance(item, sympy.MatrixBase) else _expression(item) for item in items]
    flat = []
    shapes = []
    for item in items:
        if isinstance(item, sympy.MatrixBase):
            shapes.append(item)
            flat += [*item]
        else:
            shapes.append(None)
            flat.append(item)
    if not all(_optimizable(e) for e in flat):
        return _sympy_cse(items[0] if single else items, symbols, optimizations, postprocess, order, ignore, list)
    if not flat:
        return [], []
    result = optimize(flat if len(flat) > 1 else flat[0], **options)
    if symbols is None:
        symbols = sympy.numbered_symbols("x", exclude=set().union(*(e.free_symbols for e in flat)))
    replacements, reduced = result.assignments(symbols)
    out, k = [], 0
    for shape in shapes:
        if shape is None:
            out.append(reduced[k])
            k += 1
        else:
            n = len(shape)
            out.append(type(shape)(shape.shape[0], shape.shape[1], reduced[k:k + n]))
            k += n
    if postprocess is not None:
        return postprocess(replacements, out)
    if single and not list:
        return replacements, out[0]
    return replacements, out
