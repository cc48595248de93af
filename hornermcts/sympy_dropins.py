"""Drop-in SymPy entry points: ``horner`` (alias ``simplify``) and a ``cse`` with ``sympy.cse``'s signature.

``hornermcts.horner`` is the Horner entry point; ``hornermcts.simplify`` is
the same function under its former name, kept as an alias.  It is *not*
SymPy's ``simplify`` (it returns a Horner form, ``sin(x)**2 + cos(x)**2``
stays as it is), which is why neither ``simplify`` nor ``cse`` is exported
by ``from hornermcts import *``: after ``from sympy import *`` they stay
SymPy's.  Reach them as ``hornermcts.cse`` and ``hornermcts.horner``.

Examples
--------
>>> import sympy
>>> from hornermcts import horner, cse
>>> x, y, z = sympy.symbols("x y z")
>>> horner(x**3*y**2 + x**2*y + x**3*z, iterations=50, seed=0)
x**2*(x*(y**2 + z) + y)
>>> f = sympy.lambdify((x, y, z), x**3*y**2 + x**2*y + x**3*z, cse=cse)
>>> f(2, 3, 5)
[124]
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator

import sympy

from .errors import OptionError
from .expression import optimize_written
from .expression.written import SYMPY_CSE_UP_TO, sympy_cse_named
from .expression.assemble import count, placeholders
from .cost.counting import expression_count, own_operations
from .pipeline import optimize
from .polynomial.sparse import MAX_EXPONENT
from .dag.views import to_expressions

__all__ = ["horner", "simplify", "cse", "SYMPY_CSE_UP_TO"]


def horner(expr, **options):
    """An exactly equal expression with fewer operations: the optimized Horner form.

    Also reachable as ``hornermcts.simplify``, an alias kept from the
    first releases (the same function; it shares only its name with
    :func:`sympy.simplify`).

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
    The nested Horner form(s), no temporaries, written as SymPy writes
    expressions (``horner(x + y) == x + y``) wherever that keeps the
    operations (``2*(x + y)`` stays a product).  Common subexpressions are
    not visible in one expression: use :func:`cse` (or
    :func:`hornermcts.optimize` and its views) to keep them.  The nested
    form's own operation count is ``hornermcts.expression_count(out)``
    (``cse``'s output holds exactly ``optimize(...).after``).  When the input
    as written is cheaper than any form found (``(x + y)**8``), it comes
    back in its own form.

    Examples
    --------
    >>> import sympy
    >>> x, y = sympy.symbols("x y")
    >>> horner(x**2*y + x*y**2 + x*y, seed=0)
    x*y*(x + y + 1)
    >>> horner(sympy.sin(x)**2 + sympy.cos(x)**2)   # not sympy.simplify: pieces stay as they are
    sin(x)**2 + cos(x)**2
    >>> simplify is horner
    True
    """
    many = isinstance(expr, (sympy.MatrixBase, list, tuple))
    result = optimize(list(expr) if many else expr, **options)
    nested = result.written.nested() if result.written is not None else to_expressions(result.dag)
    exprs = _as_sympy_writes_them(nested)
    if isinstance(expr, sympy.MatrixBase):
        return type(expr)(expr.shape[0], expr.shape[1], exprs)
    return type(expr)(exprs) if many else exprs[0]


#: The former name of :func:`horner`, kept as an alias (not exported by ``import *``).
simplify = horner


def _optimizable(e) -> bool:
    """True for a commutative scalar expression, what :func:`hornermcts.optimize` takes."""
    from sympy.matrices.expressions import MatrixExpr

    return (isinstance(e, sympy.Expr) and not isinstance(e, MatrixExpr) and e.is_commutative is True
            and not e.has(sympy.UnevaluatedExpr, sympy.MatrixSymbol))


def _sympy_cse(exprs, symbols, optimizations, postprocess, order, ignore, list_):
    """``sympy.cse`` with the caller's arguments (``symbols`` as the iterator SymPy expects).

    With non-commutative symbols in the input the temporaries are
    non-commutative too (of the names given, ``x0, x1, ...`` by default):
    SymPy would let a commutative temporary move within the product it
    stands in, ``sympy.cse([B + C, A*(B + C)])`` giving ``x0*A`` for
    ``A*(B + C)``.
    """
    if isinstance(exprs, Iterator):
        exprs = [*exprs]  # SymPy reads the expressions twice
    if _noncommutative(exprs):
        names = sympy.numbered_symbols("x") if symbols is None else symbols
        symbols = (type(s)(s.name, commutative=False) if isinstance(s, sympy.Symbol) else s for s in names)
    elif symbols is not None:
        symbols = iter(symbols)
    return sympy.cse(exprs, symbols=symbols, optimizations=optimizations, postprocess=postprocess,
                     order=order, ignore=ignore, list=list_)


def _noncommutative(exprs) -> bool:
    """True when a non-commutative symbol appears in ``exprs`` (an expression, or a collection of them)."""
    if isinstance(exprs, dict):
        exprs = [*exprs.keys(), *exprs.values()]
    elif isinstance(exprs, (sympy.Basic, sympy.MatrixBase)) or not isinstance(exprs, Iterable):
        exprs = [exprs]
    return any(s.is_commutative is False for e in exprs if isinstance(e, (sympy.Basic, sympy.MatrixBase))
               for s in e.atoms(sympy.Symbol))


def _expression(item):
    """A SymPy expression from ``item``; text goes through the safe parser (``sympify`` would run it)."""
    if isinstance(item, str):
        from .parse import as_expression

        return as_expression(item)
    return sympy.sympify(item, strict=True) if not isinstance(item, sympy.Basic) else item


def _temporary_symbols(symbols, exprs):
    """The names of the temporaries: ``symbols`` (default ``x0, x1, ...``) less every name the inputs use.

    As in :func:`sympy.cse`, names are compared as names: ``x0`` in the input
    (even ``Symbol("x0", real=True)``) is never also a temporary.
    """
    taken: set = set()
    seen: set = set()
    stack = list(exprs)
    while stack:  # each distinct subtree once (atoms() walks every occurrence: 0.6 s on gait2d rows 9-17)
        e = stack.pop()
        if e in seen:
            continue
        seen.add(e)
        if isinstance(e, sympy.Symbol):
            taken.add(e.name)
        else:
            stack.extend(a for a in e.args if isinstance(a, sympy.Basic))
    source = sympy.numbered_symbols("x") if symbols is None else iter(symbols)
    return (s for s in source if s.name not in taken)


def _polynomial(e) -> bool:
    """True when ``e`` is a polynomial in its symbols as written: sums, products, non-negative integer powers.

    Not: non-finite numbers (``oo*x``) and powers beyond
    :data:`~hornermcts.polynomial.MAX_EXPONENT` (``x**(10**20)``), which the
    expression front end keeps as pieces, as ``sympy.cse`` does.
    """
    return all(a.is_Symbol or a.is_Number and (a.is_Rational or a.is_Float) or a.is_Add or a.is_Mul
               or a.is_Pow and a.exp.is_Integer and 0 <= a.exp <= MAX_EXPONENT for a in sympy.preorder_traversal(e))


def _factor_kind(e) -> int:
    """How a product counts ``e`` as a factor: 0 a sign (free), 1 a divisor (``1/z``), 2 any other factor."""
    if e.is_Number and abs(e) == 1:
        return 0
    if e.is_Pow and e.exp.is_Integer and e.exp < 0:
        return 1
    return 2


def _written(expr, value: dict, target: dict, counts: dict, evaluate: bool, failed: list):
    """``expr`` (a tree of the assignments) written as SymPy writes it, with its operations.

    ``value`` maps each temporary to what it becomes (its name, or its
    expression written in place) and memoizes the subtrees written;
    ``target`` holds their operations as the assignments count them (a
    temporary's name costs nothing, one written in place what it
    computes).  Each sum, product and power is evaluated the way SymPy
    builds it (flattened, arguments in SymPy's order) where that keeps the
    target and the kind of factor it is (:func:`_factor_kind`: a product
    counts a divisor differently), otherwise it stays as built:
    ``2*(x + y)`` is not distributed into ``2*x + 2*y``, nor ``x**2*x**3``
    made ``x**5``, nor ``(1/z)**2`` made the divisor ``z**-2``.  A node
    built from an operand that changed its kind (a reciprocal ``1/z``
    written in place of a temporary as a factor: ``x/z`` is one operation,
    ``t = 1/z`` then ``x*t`` two) goes into ``failed``.  The opaque
    pieces' own functions are kept as the caller wrote them.
    """
    stack = [expr]
    while stack:
        e = stack[-1]
        if e in value:
            stack.pop()
            continue
        if not isinstance(e, (sympy.Add, sympy.Mul, sympy.Pow)):
            value[e], target[e] = e, expression_count(e, counts).total
            stack.pop()
            continue
        pending = [a for a in e.args if a not in value]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        operands, adds, mults, pows = own_operations(e)
        target[e] = adds + mults + pows + sum(target[a] for a in operands)
        args = [value[a] for a in e.args]
        built = e.func(*args, evaluate=False)
        kind = _factor_kind(e)
        for candidate in (e.func(*args), built) if evaluate else (built,):
            if _factor_kind(candidate) == kind and expression_count(candidate, counts).total == target[e]:
                value[e] = candidate
                break
        else:
            value[e] = built
            failed.append(e)
    return value[expr]


def _uses(trees, temporaries) -> Counter:
    """How often each temporary is read in ``trees`` (in sums, products, powers and pieces' arguments)."""
    uses: Counter = Counter()
    stack = [*trees]
    while stack:
        e = stack.pop()
        if e in temporaries:
            uses[e] += 1
        elif isinstance(e, sympy.Basic) and not e.is_Atom:  # also inside function arguments and Piecewise
            stack.extend(e.args)
    return uses


def _as_sympy_writes_it(replacements, outputs, pieces, symbols):
    """Assignments written as :func:`sympy.cse` writes its answer, with the same operations.

    ``replacements`` and ``outputs`` are assignments whose temporaries are
    placeholders (Dummy symbols); ``pieces`` the right-hand sides that are
    opaque pieces (function calls, ``1/z``).

    An opaque piece read once (``sqrt(x + y)`` used in one place) is
    written in place, as SymPy replaces only what repeats, unless that
    would change the operations (``x/z`` is one operation, ``t = 1/z``
    then ``x*t`` two: such a piece stays a temporary); every sum, product
    and power is written as SymPy evaluates it where that keeps its
    operations (:func:`_written`); the temporaries left are named from
    ``symbols``, in order.  So the operations are ``result.after``.
    """
    temporaries = {t for t, _ in replacements}
    uses = _uses([*(rhs for _, rhs in replacements), *outputs], temporaries)
    inline = {t for t, rhs in replacements if uses[t] == 1 and rhs in pieces}
    evaluate = True
    names: list = []

    def name(k):
        while len(names) <= k:
            following = next(symbols, None)
            if following is None:
                raise OptionError(f"the symbols given for the temporaries ran out after {len(names)} (names the "
                                  f"expressions use are skipped): give more (e.g. sympy.numbered_symbols('x')) "
                                  f"or none")
            names.append(following)
        return names[k]

    while True:
        value: dict = {}
        target: dict = {}
        counts: dict = {}
        failed: list = []
        kept = []
        for t, rhs in replacements:
            written = _written(rhs, value, target, counts, evaluate, failed)
            if t in inline:
                value[t], target[t] = written, target[rhs]
            else:
                value[t], target[t] = name(len(kept)), 0
                kept.append((value[t], written))
        reduced = [_written(e, value, target, counts, evaluate, failed) for e in outputs]
        if not failed:  # a piece's arguments may read temporaries (sin(t) with t = x + y): named there too
            rename: dict = {}
            for t, _ in replacements:  # in evaluation order: what a piece put in place reads is named already
                rename[t] = value[t].xreplace(rename)
            return [(s, rhs.xreplace(rename)) for s, rhs in kept], [e.xreplace(rename) for e in reduced]
        blamed = {a for e in failed for a in e.args if a in inline}
        inline -= blamed
        if not blamed:  # not met so far: the assignments as they are, renamed, never fail
            inline, evaluate = set(), False


def _as_sympy_writes_them(exprs: list) -> list:
    """Expressions without temporaries written as SymPy writes them, with the same operations (:func:`_written`)."""
    value: dict = {}
    target: dict = {}
    counts: dict = {}
    failed: list = []
    written = [_written(e, value, target, counts, True, failed) for e in exprs]
    return exprs if failed else written


def _optimization_pairs(optimizations) -> list:
    """``sympy.cse``'s ``optimizations`` as its list of ``(preprocessor, postprocessor)`` pairs; an OptionError
    naming what is not one."""
    if optimizations is None:
        return []
    if isinstance(optimizations, str):
        if optimizations != "basic":
            raise OptionError(f"optimizations={optimizations!r}: sympy.cse knows 'basic', None, or a list of "
                              f"(preprocessor, postprocessor) pairs")
        from sympy.simplify.cse_main import basic_optimizations

        return list(basic_optimizations)
    try:
        pairs = [tuple(pair) for pair in optimizations]
    except TypeError:
        pairs = [()]
    bad = [p for p in pairs if len(p) != 2 or not all(f is None or callable(f) for f in p)]
    if bad:
        raise OptionError(f"optimizations holds {bad[0]!r}: each item is a (preprocessor, postprocessor) pair of "
                          f"callables or None, as in sympy.cse")
    return pairs


def _cse_homogeneous(exprs, keywords):
    """``cse(exprs, list=False)``: the reduced expressions in the type of ``exprs``, as in SymPy.

    Text gives text, a list/tuple/set one of the same type, one expression
    one expression (a dict is SymPy's own business: :func:`cse` hands it over).
    """
    if isinstance(exprs, str):
        replacements, reduced = _cse_homogeneous(_expression(exprs), keywords)
        return replacements, repr(reduced)
    if isinstance(exprs, (list, tuple, set)):
        replacements, reduced = cse(exprs, **keywords)
        return replacements, type(exprs)(reduced)
    try:
        replacements, (reduced,) = cse(exprs, **keywords)
    except sympy.SympifyError:  # not an expression at all: SymPy gives it back as it is
        return [], exprs
    return replacements, reduced


def cse(exprs, symbols=None, optimizations=None, postprocess=None, order="canonical", ignore=(), list=True, **options):
    """Common subexpressions of a Horner-optimized form, in ``sympy.cse``'s shape.

    Same signature and return value as :func:`sympy.cse`, so it plugs into
    ``sympy.lambdify(args, expr, cse=hornermcts.cse)`` and code printers:
    returns ``(replacements, reduced_exprs)``; ``replacements`` is a list of
    ``(symbol, expression)`` in evaluation order.  Polynomials as written
    (sums, products, non-negative integer powers) are optimized together by
    :func:`hornermcts.optimize`; anything else (calls, divisions, roots) as
    written, by :func:`hornermcts.expression.optimize_written`: cut into
    polynomial units over calls, reciprocals and sums kept whole, what
    repeats shared through function arguments, angle sums folded
    (``cos(a)*cos(b) - sin(a)*sin(b)`` is ``cos(a + b)``).  ``**options``,
    the fields of :class:`hornermcts.Options`, go there.  The answer never
    needs more operations than :func:`sympy.cse`'s (asked too for inputs
    with pieces and for polynomials of at most :data:`SYMPY_CSE_UP_TO`
    operations; the cheaper is kept).  They are written as
    SymPy writes its own (``cse([x + y])`` gives ``([], [x + y])``, SymPy's
    ``x + y``): sums and products flattened, in SymPy's order, except where
    evaluating would change the operations (``2*(x + y)`` stays a
    product); an opaque piece read once is written in place, except a
    reciprocal as a factor (``t = 1/z`` then ``x*t``, which is how the
    optimizer counts it; with pieces, one read once is a division).  The
    replacements and reduced expressions hold exactly the operations the
    optimizer reports (``optimize(...).after``, ``optimize_written(...).after``).

    ``symbols`` is an iterable of names for the temporaries (a list, tuple
    or iterator; default ``x0, x1, ...`` as in SymPy); as in SymPy, a name
    the expressions use is skipped, and running out is a ValueError;
    ``postprocess`` is applied as SymPy does,
    ``postprocess(replacements, reduced_exprs)``; ``optimizations``
    (``'basic'`` or a list of ``(preprocessor, postprocessor)`` pairs) as
    SymPy applies them: the preprocessors to the input before the
    optimization, the postprocessors, in reverse, to every replacement and
    reduced expression after it (anything else is an OptionError); ``order``
    is accepted for compatibility and has no effect (the Horner + CSE
    optimization orders the replacements).  With ``list=False`` the reduced
    expressions come in the input's type (an expression, text, a list,
    tuple or set), as in SymPy.

    What the Horner optimization does not apply to is handed to
    :func:`sympy.cse` itself, with all the arguments: a non-empty
    ``ignore``, a dict, relationals and booleans (``Eq(x**2 + x*y, 1)``,
    ``x < 1``), ``Tuple``, non-commutative symbols, ``UnevaluatedExpr``,
    matrix expressions (``MatrixSymbol``, ``A.T*A``) and numbers alone
    (``Mul(1, 2, evaluate=False)``, ``Matrix([[1]])``).  So the drop-in
    raises only where ``sympy.cse`` does.  A ``Piecewise`` is kept whole
    (its conditions are not expressions): what repeats inside it is shared
    only where ``sympy.cse``'s answer is the cheaper.
    """
    if ignore or isinstance(exprs, dict):
        return _sympy_cse(exprs, symbols, optimizations, postprocess, order, ignore, list)
    if not list:
        return _cse_homogeneous(exprs, dict(symbols=symbols, optimizations=optimizations, postprocess=postprocess,
                                            order=order, ignore=ignore, **options))
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
    if not all(_optimizable(e) for e in flat) or not any(e.free_symbols for e in flat):
        return _sympy_cse(items[0] if single else items, symbols, optimizations, postprocess, order, ignore, list)
    names = _temporary_symbols(symbols, flat)
    pairs = _optimization_pairs(optimizations)
    if pairs:  # SymPy's preprocessors before ours, its postprocessors (reversed) after, as sympy.cse applies them
        from sympy.simplify.cse_main import postprocess_for_cse, preprocess_for_cse

        flat = [preprocess_for_cse(e, pairs) for e in flat]
    # sympy.cse's answer, where it is kept, is SymPy's writing with the names already: it takes them from a copy
    names, theirs_names = itertools.tee(names)
    theirs = None
    if all(_polynomial(e) for e in flat):  # one region: the polynomial pipeline as it stands
        result = optimize(flat if len(flat) > 1 else flat[0], **options)
        if result.written is not None:  # products of sums: the front end as written (sympy.cse a candidate there)
            written = result.written
            statements, outputs, pieces = written.statements, written.outputs, written.inlinable
        else:
            statements, outputs = result.assignments(placeholders())
            pieces = set(result.dag.opaque.values())
        small = sum(expression_count(e).total for e in flat) <= SYMPY_CSE_UP_TO
        if result.written is None and small:  # never more than sympy.cse
            answer = sympy_cse_named(flat, theirs_names)
            if count(*answer).total < result.after.total:
                (statements, outputs), pieces, theirs = answer, set(), answer
    else:
        written = optimize_written(flat, temporaries=theirs_names, **options)
        statements, outputs, pieces = written.statements, written.outputs, written.inlinable
        if written.form == "sympy.cse":
            theirs = statements, outputs
    if theirs is not None and not any(isinstance(t, sympy.Dummy) for t, _ in theirs[0]):  # named by SymPy
        replacements, reduced = theirs
    else:  # (where the names ran out, this says so)
        replacements, reduced = _as_sympy_writes_it(statements, outputs, pieces, names)
    if pairs:
        replacements = [(t, postprocess_for_cse(rhs, pairs)) for t, rhs in replacements]
        reduced = [postprocess_for_cse(e, pairs) for e in reduced]
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
    return replacements, out
