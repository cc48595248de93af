"""The program every generator prints: the statements of the code, independent of the language.

A :class:`Program` is built from :meth:`~hornermcts.dag.Dag.delivered` of
each DAG (a scaled operand ``c*a`` that several sums use is a temporary,
computed once), so its statements perform exactly the operations
``result.after`` reports.  In order:

* the opaque pieces (placeholders for ``sin(y)``, ``1/z``, ...), computed
  from the input variables;
* the powers of each variable, by :func:`~hornermcts.cost.counting.power_plan`
  (``x_2 = x*x``, ``x_3 = x_2*x``: no ``pow()`` call);
* the DAG's nodes, operands before users: a node used more than once is a
  temporary, a node used once is written inline into its user as long as
  the expression stays small (:data:`MAX_INLINE`).

Coefficients are exact numbers (``int``/``Fraction``), signs are
negations.  The expressions are entries of an array table
(:class:`~hornermcts.codegen.expressions.Expressions`), the DAG's lowered by
one compiled pass (:mod:`hornermcts.codegen.lowering`), and every language
writes them by one compiled pass and its own words (:meth:`Program.texts`);
:attr:`Program.steps` shows them as light tuples, :func:`as_sympy` one as
SymPy.  Every local gets a name valid in all the languages, never one the
generated code uses itself (``x``, ``out``, ``dd_add``, ...) or a keyword.

>>> from hornermcts.polynomial import Polynomial
>>> from hornermcts.dag.horner import horner_dag
>>> x, y = sympy.symbols("x y")
>>> prog = Program(horner_dag(Polynomial((x, y), [[3, 1], [0, 0]], [2, 1])), "g")
>>> prog.inputs, prog.steps, prog.ops
([(x, 'x_'), (y, 'y')], [('x__2', ('*', 'x_', 'x_')), ('x__3', ('*', 'x__2', 'x_'))], 5)
>>> prog.outputs, as_sympy(prog.outputs[0])
([('+', 1, ('*', 2, ('*', 'y', 'x__3')))], 2*(x__3*y) + 1)
"""
from __future__ import annotations

from ..errors import OptionError

import keyword
import re
from operator import attrgetter
from fractions import Fraction

import numpy as np

import sympy
from sympy.core.function import AppliedUndef

from ..collector import paused
from ..dag.graph import Dag
from ..cost.counting import OpCount, charge, expression_count, power_steps
from .expressions import LOCAL, MUL, PIECE, Expressions
from .forms import LinearForm, piece_names
from .literals import fraction
from .lowering import lower_dag
from .render import Rendered, render

#: Largest number of operations written inline in one statement: a node used
#: once becomes its own statement beyond that, so expressions stay flat (no
#: deep nesting for the printers' recursion or the compiler).
MAX_INLINE = 8

# Names the generated code uses itself, keywords of the four languages and the
# math functions the printers call: never used for a variable or temporary
# (compared ignoring case, as Fortran does).
_RESERVED = frozenset(name.lower() for name in
    """
    x xs out n i k r t v wp shape float len range TypeError ValueError c_double c_long
    c_long_double iso_c_binding
    auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while bool complex imaginary
    function subroutine end result real integer intent in implicit none use intrinsic only bind
    module program call then
    math numpy abs sqrt exp log sin cos tan asin acos atan atan2 sinh cosh tanh pow fabs floor
    ceil fmod hypot erf gamma min max sum
    hm_vec hm_splat hm_lanes
    dd_t dd_pair dd_two_sum dd_two_prod dd_add dd_add_d dd_mul dd_mul_d dd_neg dd_round dd_input
    """.split()
    # C: the macros and functions of <math.h>, <stddef.h>, <stdio.h>, <errno.h> and <complex.h>
    # (a variable of that name would be replaced by a number, or hide the function), and the
    # macros GCC predefines outside strict ISO mode
    + """
    M_E M_LOG2E M_LOG10E M_LN2 M_LN10 M_PI M_PI_2 M_PI_4 M_1_PI M_2_PI M_2_SQRTPI M_SQRT2 M_SQRT1_2
    NAN INFINITY HUGE_VAL HUGE_VALF HUGE_VALL FP_NAN FP_INFINITE FP_ZERO FP_SUBNORMAL FP_NORMAL
    FP_FAST_FMA FP_FAST_FMAF FP_FAST_FMAL FP_ILOGB0 FP_ILOGBNAN MATH_ERRNO MATH_ERREXCEPT math_errhandling
    NULL EOF errno EDOM ERANGE EILSEQ I _Complex_I _Imaginary_I assert offsetof
    linux unix i386 __linux__ __unix__
    isnan isinf isfinite isnormal signbit fpclassify isgreater isgreaterequal isless islessequal
    islessgreater isunordered
    acosh asinh atanh cbrt copysign erfc exp2 expm1 fdim fma fmax fmin frexp ilogb ldexp lgamma
    llrint llround log10 log1p log2 logb lrint lround modf nan nearbyint nextafter nexttoward
    remainder remquo rint round scalbln scalbn tgamma trunc
    """.split()
    # Python and NumPy: the builtins a generated module could reach, the module names it imports
    + """
    np numpy mpmath Fraction tuple list dict set print len abs min max sum pow round divmod
    isinstance float int complex object type super globals locals vars eval exec compile open
    __import__ __builtins__ __name__ __doc__ __file__
    """.split()
    # Fortran: intrinsic procedures the printers call (case is ignored there)
    + """
    dble real sngl aimag conjg cmplx dabs dsqrt dexp dlog dsin dcos dtan datan sign mod modulo
    kind selected_real_kind epsilon huge tiny
    """.split()
    + keyword.kwlist
    # words SymPy's C printer reserves besides C's keywords: it writes a symbol so named with _ appended
    + ["entry"]
)


def shown(text) -> str:
    r"""``text`` as it may stand in a generated comment or docstring of any language.

    Control characters, newlines and non-ASCII characters become Python
    escapes (``\n``, ``\x1b``, ``\xe9``), a backslash is doubled, and the
    delimiters that would end a comment or docstring are broken up: ``*/``
    (C) and every ``"`` (Python's triple quotes).  A Fortran ``!`` comment
    ends only at a newline, which is escaped.  The result is printable ASCII
    on one line.

    >>> print(shown('a"; import os'))
    a\"; import os
    >>> print(shown("x*/y\nz\u00e9"))
    x* /y\nz\xe9
    """
    out = str(text).encode("unicode_escape").decode("ascii")
    return out.replace('"', '\\"').replace("*/", "* /")


def text_of(symbol) -> str:
    """``str(symbol)``: a plain ``Symbol``'s name read directly (SymPy's printer takes microseconds a call)."""
    return symbol.name if type(symbol) is sympy.Symbol else str(symbol)


def sorted_symbols(symbols) -> list:
    """``symbols`` in SymPy's default order (``sympy.default_sort_key``): plain ``Symbol``s by name, which is
    that order for them, without making SymPy's keys."""
    symbols = list(symbols)
    if all(type(s) is sympy.Symbol for s in symbols):
        return sorted(symbols, key=attrgetter("name"))
    return sorted(symbols, key=sympy.default_sort_key)


def written_of(obj) -> list:
    """For each item of ``obj`` (a result, a Dag, or a list of them): its
    :class:`~hornermcts.expression.WrittenResult` when it is a result as
    written (printed from its assignments), else None."""
    items = list(obj) if isinstance(obj, (list, tuple)) else [obj]
    return [getattr(item, "written", None) for item in items]


def _plain(obj) -> list:
    """The items of ``obj`` that are not results as written (their DAGs are printed)."""
    items = list(obj) if isinstance(obj, (list, tuple)) else [obj]
    return [item for item, w in zip(items, written_of(obj)) if w is None]


def n_outputs(obj) -> int:
    """How many values the generated code returns per point."""
    plain = _plain(obj)
    return sum(len(w.outputs) for w in written_of(obj) if w is not None) + (
        sum(len(d.roots) for d in as_dags(plain)) if plain else 0)


def as_dags(obj) -> list[Dag]:
    """The Dags of ``obj``: a Dag, a result with ``.dag``, or a list of either."""
    if isinstance(obj, Dag):
        return [obj]
    if hasattr(obj, "dag") and isinstance(obj.dag, Dag):
        return [obj.dag]
    if isinstance(obj, (list, tuple)):
        out = [d for item in obj for d in as_dags(item)]
        if out:
            return out
        raise OptionError("code generation needs at least one output")
    raise TypeError(f"expected a Dag, an OptimizeResult or a list of them, not {type(obj).__name__}")


def input_symbols(obj, args=None) -> tuple:
    """The variables the generated code takes, in the order it takes them.

    ``args`` (symbols or their names, as ``sympy.lambdify``'s first
    argument) fixes the order; it must name every variable the code reads,
    each once, and may name more (inputs that are not read).  By default:
    the non-opaque columns of each DAG in column order (first DAG first, each
    variable once; for a result, the order of ``result.polynomial.symbols``),
    then the variables that occur only inside opaque pieces, sorted by name.

    >>> import sympy
    >>> from hornermcts.parse import as_polynomial
    >>> from hornermcts.dag.horner import horner_dag
    >>> x, y = sympy.symbols("x y")
    >>> input_symbols(horner_dag(as_polynomial(x**2 + x*sympy.sin(y))))
    (x, y)
    >>> input_symbols(horner_dag(as_polynomial(x**2 + x*sympy.sin(y))), args=["y", x])
    (y, x)
    """
    needed = _default_inputs(obj)
    if args is None:
        return needed
    if isinstance(args, (str, sympy.Basic)):
        args = [args]
    by_name = {str(s): s for s in needed}
    out = []
    for a in args:
        if isinstance(a, str):
            a = by_name.get(a, sympy.Symbol(a))
        elif not isinstance(a, sympy.Symbol):
            raise TypeError(f"args holds symbols or their names, not {a!r} ({type(a).__name__})")
        if a in out:
            raise OptionError(f"args names {a} twice")
        out.append(a)
    missing = [s for s in needed if s not in out]
    if missing:
        raise OptionError(f"args does not name the variable(s) {', '.join(map(str, missing))}, which the code reads "
                         f"(it reads {', '.join(map(str, needed))})")
    return tuple(out)


def _default_inputs(obj) -> tuple:
    plain = _plain(obj)
    inputs = _dag_inputs(plain) if plain else ()
    free: set = set()  # results as written: the input symbols their assignments read, sorted by name, after
    for written in written_of(obj):
        if written is not None:
            temporaries = {t for t, _ in written.statements}
            free |= set().union(*(e.free_symbols for e in written.outputs),
                                *(rhs.free_symbols for _, rhs in written.statements)) - temporaries
    return inputs + tuple(sorted(free - set(inputs), key=sympy.default_sort_key))


def _dag_inputs(obj) -> tuple:
    seen: dict = {}
    extra: set = set()
    for dag in as_dags(obj):
        for s in dag.symbols:
            if s not in dag.opaque:
                seen.setdefault(s, None)
        for piece in dag.opaque.values():
            extra.update(piece.free_symbols)
    # a result takes its input's variables in the input's column order, also those it computes new variables from
    given: dict = {}
    for item in obj if isinstance(obj, (list, tuple)) else [obj]:
        polys = getattr(item, "polynomial", [])
        for poly in polys if isinstance(polys, list) else [polys]:
            given.update((s, None) for s in poly.symbols if s not in poly.opaque and (s in seen or s in extra))
    seen = {**given, **seen}
    rest = sorted_symbols(s for s in extra if s not in seen)
    return tuple(seen) + tuple(rest)


class _Names:
    """Identifiers valid in C, Python and Fortran, unique ignoring case."""

    def __init__(self, reserved=()):
        self.used = set(_RESERVED) | {r.lower() for r in reserved}
        self.counter = 0  # of the temporaries t<k>

    def take(self, wanted: str) -> str:
        """``wanted`` made a valid identifier, with ``_`` appended until it is unused."""
        if wanted.isascii() and wanted.isidentifier() and wanted[0].isalpha():
            base = wanted  # letters, digits and _ already (most names): as the rewriting below would leave it
        else:
            base = re.sub(r"[^0-9A-Za-z_]", "_", wanted.encode("ascii", "replace").decode()).lstrip("_")
            if not base or not base[0].isalpha():
                base = "v" + base
        name = base[:56]
        while name.lower() in self.used:
            name += "_"
        self.used.add(name.lower())
        return name

    def temporary(self) -> str:
        """The next free ``t<k>``."""
        return self.temporaries(1)[0]

    def temporaries(self, n: int) -> list[str]:
        """The next ``n`` free ``t<k>``, in order."""
        out: list[str] = []
        used = self.used
        while len(out) < n:
            batch = list(map("t%d".__mod__, range(self.counter + 1, self.counter + 1 + n - len(out))))
            self.counter += len(batch)
            out += batch if used.isdisjoint(batch) else [t for t in batch if t not in used]
        used.update(out)
        return out


def coefficient(c):
    """``|c|`` as a literal of the program: an ``int`` or a ``Fraction`` (a SymPy or float number: its exact value)."""
    return abs(c) if type(c) in (int, Fraction) else abs(fraction(c))


def constant(c):
    """The number ``c`` as an expression of the program: a literal, negated when ``c < 0``."""
    return coefficient(c) if c >= 0 else ("-", coefficient(c))


def as_sympy(expr):
    """A statement of the program as a SymPy expression (for reading it; the printers never need this).

    >>> as_sympy(("-", ("+", ("*", Fraction(1, 3), "x"), "y"))), as_sympy(("call", "dd_neg", "t1"))
    (-(x/3 + y), dd_neg(t1))
    """
    t = type(expr)
    if t is str:
        return sympy.Symbol(expr)
    if t in (int, Fraction):
        return sympy.Rational(expr)
    if t is not tuple:
        return expr
    args = [as_sympy(a) for a in expr[1:]]
    if expr[0] == "*":
        return sympy.Mul(*args, evaluate=False)
    if expr[0] == "+":
        return sympy.Add(*args, evaluate=False)
    if expr[0] == "-":
        return sympy.Mul(sympy.S.NegativeOne, args[0], evaluate=False)
    return sympy.Function(expr[1])(*args[1:])


def _check_defined(pieces) -> None:
    """Raise ValueError naming every undefined function ``f(x)`` in the opaque pieces ``pieces``."""
    calls = sorted({call for piece in pieces for call in piece.atoms(AppliedUndef)}, key=sympy.default_sort_key)
    if calls:
        names = ", ".join(sorted({str(call.func) for call in calls}))
        raise OptionError(
            f"cannot generate code for the undefined function(s) {names} "
            f"(in {', '.join(map(str, calls))}): no language can evaluate them; substitute a "
            f"definition first, e.g. expr.replace(f, sympy.Lambda(x, ...))")


class Program:
    """The statements of the generated code, independent of the language.

    ``inputs`` ``[(symbol, local)]``; ``pieces`` ``[(local, SymPy expression
    in the locals' symbols)]`` (``sin(y)``, ``1/z``: printed by each
    language's SymPy printer; a new variable's linear form ``x4 + x5`` is a
    :class:`~hornermcts.codegen.forms.LinearForm` of the locals instead);
    ``steps`` ``[(local, expression)]`` (powers and DAG nodes, in order);
    ``outputs`` ``[expression]``, one per output of every DAG; ``count`` the
    :class:`~hornermcts.cost.counting.OpCount` of these statements (for one
    DAG its ``count()``: the program is written from
    :meth:`~hornermcts.dag.Dag.delivered`), ``ops`` its total.

    Locals are ``str``.  The expressions are entries of :attr:`table`
    (:class:`~hornermcts.codegen.expressions.Expressions`: building SymPy
    objects and printing them with SymPy's printers wrote about 10^4
    operations per second, light tuples and a Python writer 3-8 x 10^5 per
    CPU second, the table and its compiled passes more than 10^6:
    ``benchmarks/results/emission_speed.txt``); :attr:`steps` and
    :attr:`outputs` give them as light tuples:

    * a ``str``: a local;
    * an ``int`` or ``Fraction`` (never negative): an exact coefficient, written
      as a literal of the language and precision;
    * ``("*", a, b)`` the product, ``("+", a, b, ...)`` the sum, ``("-", a)``
      the negation of expressions;
    * ``("call", name, arg, ...)``: a call of the double-double runtime
      (:func:`~hornermcts.codegen.compensated.compensate`; an argument may be
      a SymPy piece).

    Each language writes them (:meth:`texts`, :mod:`hornermcts.codegen.render`)
    exactly as SymPy's printers wrote the equivalent unevaluated ``Mul``/``Add``;
    :func:`as_sympy` gives that SymPy expression, to read one.

    ``obj`` is a Dag, an OptimizeResult or a list of them (:func:`as_dags`);
    ``name`` the generated function's name (checked here, for every
    language); ``args`` the order of the inputs, as in :func:`input_symbols`.
    """

    def __init__(self, obj, name: str, args=None):
        written = written_of(obj)
        if not written:
            raise OptionError("code generation needs at least one output")
        plain = _plain(obj)
        dags = [d.delivered() for d in as_dags(plain)] if plain else []
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,50}", name):
            raise OptionError(f"{name!r} cannot name a generated function: use a letter, then letters, digits, _")
        if name.lower() in _RESERVED:
            raise OptionError(f"{name!r} is a keyword or a name the generated code uses itself: choose another")
        names = _Names([name, name + "_batch", name + "_block", name + "_blocks_batch", name + "_lanes"])
        self.name = name
        self.inputs = [(s, names.take(text_of(s))) for s in input_symbols(obj, args)]
        local = dict(self.inputs)
        self.table = Expressions()  # every statement's and output's expression, every local's name
        for _, loc in self.inputs:
            self.table.name(loc)
        self._pieces: list = []
        self._step_locals: list[str] = []
        self._step_entries: list[int] = []
        self._outputs: list[int] = []
        self._rendered: Rendered | None = None
        self._piece_entries: list[int] | None = None
        self.count = OpCount()
        walks = [d.walk() for d in dags]
        self.n_nodes = sum(len(w) for w in walks)
        forms = {piece: LinearForm.of(piece, local) for dag in dags for piece in dag.opaque.values()}
        _check_defined([piece for piece, form in forms.items() if form is None])
        piece_local: dict = {}
        var_locals: list = []
        symbols: dict = {}
        for dag in dags:
            sym_local = {}
            for s in dag.symbols:
                if s in dag.opaque:
                    piece = dag.opaque[s]
                    if piece not in piece_local:
                        piece_local[piece] = names.take(text_of(s))
                        self.table.name(piece_local[piece])
                        form = forms[piece]
                        if form is None:  # a piece printed by SymPy: in the locals' symbols
                            symbols = symbols or {sym: sympy.Symbol(loc) for sym, loc in self.inputs}
                        self._pieces.append((piece_local[piece], form or piece.xreplace(symbols)))
                        self.count += expression_count(piece) if form is None else form.count()
                    sym_local[s] = piece_local[piece]
                else:
                    sym_local[s] = local[s]
            var_locals.append([sym_local[s] for s in dag.symbols])
        # the powers every output needs, one power plan per variable for all of them
        needed: dict = {}
        for dag, walk, var_local in zip(dags, walks, var_locals):
            for var, exponents in dag._powers(walk).items():
                needed.setdefault(var_local[var], set()).update(exponents)
        power: dict = {(loc, 1): loc for loc in needed}
        plan = list(power_steps(needed))
        table = self.table
        for loc, n, a, b in plan:
            sym = names.take(f"{loc}_{n}")
            table.name(sym)
            operands = (table.leaf(LOCAL, table.name(power[loc, a])), table.leaf(LOCAL, table.name(power[loc, b])))
            self._step_locals.append(sym)
            self._step_entries.append(table.add(MUL, operands))
            power[loc, n] = sym
        self.count += charge(power_steps=len(plan))
        lowered = iter(zip(dags, walks, var_locals))
        with paused():  # many small tuples, no cycles: the collector's passes would find nothing
            for result_as_written in written:  # the outputs in the order of the items
                if result_as_written is None:
                    self._outputs += self._lower(*next(lowered), power, names)
                else:
                    self._outputs += map(table.encode, self._lower_written(result_as_written, names))

    @property
    def ops(self) -> int:
        """Operations of the program in FORM's model (what the header states)."""
        return self.count.total

    def _lower(self, dag: Dag, walk, var_local: list, power: dict, names: _Names) -> list[int]:
        """The entries of every output of ``dag``; its temporaries go to the steps, named here
        (:func:`~hornermcts.codegen.lowering.lower_dag`: one compiled pass over the nodes)."""

        def local_of_power(var: int, n: int):
            return var_local[var] if n == 1 else power.get((var_local[var], n))

        lowered = lower_dag(dag, walk, local_of_power, self.table, coefficient, MAX_INLINE)
        temporaries = names.temporaries(len(lowered.statements))
        self.table.new_names(temporaries)  # the ids the lowering gave them
        self._step_locals += temporaries
        self._step_entries += lowered.statements
        self.count += charge(additions=lowered.additions, multiplications=lowered.multiplications,
                             negations=lowered.negations)
        return lowered.outputs

    def _lower_written(self, written, names: _Names) -> list:
        """The outputs of a result as written (light tuples), its steps to the program's: its assignments in order.

        Sums and products become ``+``/``*`` tuples, a quotient ``("/", a,
        b)``, an integer power repeated squaring (each square a temporary);
        a function call, root or other piece stays a SymPy expression of
        locals (its arguments computed first), printed by the language's
        printer.  Operations as :func:`~hornermcts.cost.counting.expression_count`
        counts the assignments: ``written.after``.
        """
        calls = sorted({c for e in [*written.outputs, *(rhs for _, rhs in written.statements)]
                        for c in e.atoms(AppliedUndef)}, key=sympy.default_sort_key)
        if calls:
            raise OptionError(f"cannot generate code for the undefined function(s) "
                              f"{', '.join(sorted({str(c.func) for c in calls}))}: no language can evaluate them")
        ref = {s: loc for s, loc in self.inputs}
        temporary, encode = names.temporary, self.table.encode

        def step(t: str, light) -> None:
            self.table.name(t)
            self._step_locals.append(t)
            self._step_entries.append(encode(light))

        def local(e) -> str:
            """A local holding ``e``'s value (a step when it is not one already)."""
            light = lower(e)
            if type(light) is str:
                return light
            t = temporary()
            step(t, light)
            return t

        def power(base, n: int):
            square, out = local(base), None
            while True:
                if n & 1:
                    out = square if out is None else ("*", out, square)
                n >>= 1
                if not n:
                    return out
                t = temporary()
                step(t, ("*", square, square))
                square = t

        def chain(factors: list):
            out = factors[0]
            for f in factors[1:]:
                out = ("*", out, f)
            return out

        def piece(e):
            """``e`` with its arguments as locals: printed by the language's printer."""
            if e.is_Pow:
                return sympy.Pow(sympy.Symbol(local(e.base)), e.exp)
            if all(isinstance(a, sympy.Expr) for a in e.args):
                return e.func(*[a if a.is_Number else sympy.Symbol(local(a)) for a in e.args])
            return e.xreplace({s: sympy.Symbol(ref[s]) for s in e.free_symbols})

        def lower(e):
            if e.is_Symbol:
                return ref[e]
            if e.is_Rational or e.is_Float:
                return constant(e)
            if e.is_Add:
                return ("+", *map(lower, e.args))
            if e.is_Mul:
                c, factors = e.as_coeff_mul()
                top, bottom = [], []
                for f in factors:
                    if f.is_Pow and f.exp.is_Integer and f.exp < 0:
                        bottom.append(power(f.base, -int(f.exp)))
                    else:
                        top.append(lower(f))
                if abs(c) != 1 or not top and bottom:
                    top.insert(0, coefficient(c))
                out = chain(top) if not bottom else ("/", chain(top), chain(bottom))
                return ("-", out) if c < 0 else out
            if e.is_Pow and e.exp.is_Integer:
                n = int(e.exp)
                return power(e.base, n) if n > 0 else ("/", 1, power(e.base, -n))
            value = e if e.is_Number or e.is_NumberSymbol else piece(e)
            t = temporary()  # a SymPy piece is a statement of its own: each language prints it whole
            step(t, value)
            return t

        for t, rhs in written.statements:
            ref[t] = local(rhs)
        self.count += written.after
        self.n_nodes += len(written.statements)
        return [lower(e) for e in written.outputs]

    @property
    def n_vars(self) -> int:
        return len(self.inputs)

    def variable_lines(self, template: str) -> list[str]:
        """One line per input: ``template.format(index=, index1=, name=)``, with its local name if another."""
        out = []
        for k, (s, loc) in enumerate(self.inputs):
            text = text_of(s)
            line = template.format(index=k, index1=k + 1, name=shown(text))
            if loc != text:
                line += f"   (local name {loc})"
            out.append(line)
        return out

    def refuse_complex(self, language: str) -> None:
        """An OptionError naming the complex constants among the pieces (``I``, ``sqrt(-2)``): the code is real.

        >>> import sympy
        >>> from hornermcts.dag.horner import horner_dag
        >>> from hornermcts.parse import as_polynomial
        >>> x = sympy.Symbol("x")
        >>> Program(horner_dag(as_polynomial(5*sympy.I*x + 6)), "f").refuse_complex("C")
        Traceback (most recent call last):
        ...
        hornermcts.errors.OptionError: cannot write C code for the complex value(s) I: ...
        """
        sympy_steps = [expr for expr in self.table.pieces if isinstance(expr, sympy.Basic)]
        found = [expr for expr in [e for _, e in self.pieces if isinstance(e, sympy.Basic)] + sympy_steps
                 if expr.has(sympy.I) or expr.is_extended_real is False]
        if found:
            raise OptionError(f"cannot write {language} code for the complex value(s) "
                              f"{shown(', '.join(map(str, found)))}: it computes in real arithmetic (to_python's "
                              f"plain Python code computes in complex arithmetic; or optimize the real and imaginary "
                              f"parts as two outputs)")

    def piece_lines(self) -> list[str]:
        return [shown(f"{loc} = {expr}") for loc, expr in self.pieces]

    # ------------------------------------------------------------- the statements
    @property
    def pieces(self) -> list:
        """``[(local, expression)]`` of the opaque pieces (SymPy, or a compensated pair of one)."""
        return self._pieces

    @property
    def steps(self) -> list:
        """``[(local, light expression)]`` of the steps (made from their entries of :attr:`table`)."""
        return list(zip(self._step_locals, self.table.decode_all(self._step_entries)))

    @steps.setter
    def steps(self, value: list) -> None:
        self._step_locals = [loc for loc, _ in value]
        self._step_entries, self._rendered = [self.table.encode(e) for _, e in value], None

    @property
    def outputs(self) -> list:
        """``[light expression]``, one per output (made from their entries of :attr:`table`)."""
        return self.table.decode_all(self._outputs)

    @outputs.setter
    def outputs(self, value: list) -> None:
        self._outputs, self._rendered = [self.table.encode(e) for e in value], None

    @property
    def n_statements(self) -> int:
        """Statements: pieces and steps."""
        return len(self._pieces) + len(self._step_entries)

    @property
    def output_count(self) -> int:
        """Outputs."""
        return len(self._outputs)

    def statement_locals(self) -> list[str]:
        """The local each statement (``pieces + steps``) sets."""
        return [loc for loc, _ in self._pieces] + self._step_locals

    def statement_ids(self) -> np.ndarray:
        """The id in :attr:`table` of the local each statement sets."""
        return np.fromiter(map(self.table.name_id.__getitem__, self.statement_locals()), np.int64, self.n_statements)

    def step_entries(self) -> list[int]:
        """The entry of each step in :attr:`table`."""
        return list(self._step_entries)

    def output_entries(self) -> list[int]:
        """The entry of each output."""
        return list(self._outputs)

    def set_entries(self, pieces: list, steps: list[int], outputs: list[int]) -> None:
        """Replace the statements' expressions: ``pieces`` ``[(local, expression)]``, the entries of the steps
        (their locals stay) and of the outputs (a rewrite, :func:`~hornermcts.codegen.compensated.compensate`)."""
        self._pieces, self._step_entries, self._outputs = list(pieces), list(steps), list(outputs)
        self._piece_entries = self._rendered = None

    def step_pieces(self) -> list:
        """Per step: its SymPy expression when it is a piece (a call of a result as written), else None."""
        op, first, _, kids = self.table.arrays()
        entries = np.array(self._step_entries, np.int64)
        out: list = [None] * len(entries)
        at = np.flatnonzero(op[entries] == PIECE)
        for k, piece in zip(at.tolist(), kids[first[entries[at]]].tolist()):
            out[k] = self.table.pieces[piece]
        return out

    def statement_entries(self) -> list[int]:
        """The entry of each statement (``pieces + steps``) in :attr:`table`."""
        if self._piece_entries is None:
            self._piece_entries = [self.table.encode(e) for _, e in self._pieces]
        return self._piece_entries + self._step_entries

    def rendered(self) -> Rendered:
        """The token stream of every statement (``pieces + steps``), then of every output (:func:`render`)."""
        if self._rendered is None:
            self._rendered = render(self.table, self.statement_entries() + self._outputs)
        return self._rendered

    def texts(self, literal, pair: str, neg_one: str, piece_text, names: dict | None = None) -> tuple[list, list]:
        """The text of each statement and of each output in a language: ``literal(value)`` writes a literal,
        ``pair`` opens a pair, ``neg_one`` is ``-1``, ``piece_text(expression)`` prints a piece, ``names`` maps
        a local to its text where it is not its own name (C: ``t[3]``)."""
        locals_ = self.table.names if not names else [names.get(n, n) for n in self.table.names]
        out = self.rendered().texts(self.table, literal, locals_, pair, neg_one, piece_text)
        return out[:self.n_statements], out[self.n_statements:]

    def read_arrays(self) -> tuple:
        """``(roots, names)``: statement or output ``roots[k]`` (outputs after the statements) reads the local
        ``table.names[names[k]]``; a piece reads the names of its symbols."""
        rendered = self.rendered()
        roots, names = rendered.read_roots, rendered.read_names
        in_piece = names < 0
        if not in_piece.any():
            return roots, names
        extra = [(root, self.table.name(name)) for root, p in zip(roots[in_piece].tolist(), names[in_piece].tolist())
                 for name in piece_names(self.table.pieces[-1 - p])]
        extra_roots, extra_names = (np.array(v, np.int64).reshape(-1) for v in (zip(*extra) if extra else ([], [])))
        return np.concatenate([roots[~in_piece], extra_roots]), np.concatenate([names[~in_piece], extra_names])

    def reads(self) -> tuple[list, set]:
        """The locals each statement of ``pieces + steps`` reads (a set of names each), and the outputs (a set)."""
        roots, names = self.read_arrays()
        found: list[set] = [set() for _ in range(self.n_statements + 1)]
        local = self.table.names
        for root, name in zip(np.minimum(roots, self.n_statements).tolist(), names.tolist()):
            found[root].add(local[name])
        return found[:-1], found[-1]

    def last_uses(self) -> dict[int, list]:
        """``{statement index: [temporaries last read there]}`` (outputs read at the end)."""
        roots, names = self.read_arrays()
        n = self.n_statements
        defined = self.statement_ids()
        last = np.full(len(self.table.names), -1, np.int64)
        np.maximum.at(last, names, np.where(roots < n, roots, n))
        temporaries = np.zeros(len(last), np.bool_)
        temporaries[defined] = True
        by_index: dict[int, list] = {}
        for name in np.flatnonzero(temporaries & (last >= 0) & (last < n)).tolist():
            by_index.setdefault(int(last[name]), []).append(self.table.names[name])
        return by_index
