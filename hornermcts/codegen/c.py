"""C99 code of a program: :func:`to_c`.

One function evaluates the polynomial at one point, a batch function loops
over points; long programs are cut into ``static`` parts (:data:`CHUNK`).
"""
from __future__ import annotations

import sympy
from sympy.codegen.ast import Declaration, Type, Variable, float64, float80, real, value_const
from sympy.printing.c import C99CodePrinter

from .compensated import C_RUNTIME, compensate
from .literals import c_literal, numeric_constants
from .precision import COMPENSATED, check_precision
from .printing import CallPrinting, printed
from .program import Program

#: Statements per generated C function (see :func:`to_c`).
CHUNK = 128

# A compensated statement compiles to about as much code as this many plain ones.
_DD_WEIGHT = 8


class _CPrinter(CallPrinting, C99CodePrinter):
    language_name = "C"
    type_mappings = {**C99CodePrinter.type_mappings, float80: "long double"}
    storage: dict = {}  # temporaries kept in the shared array t, by symbol

    def _print_Symbol(self, expr):
        return self.storage.get(expr) or super()._print_Symbol(expr)

    def __init__(self, precision: str = "double"):
        settings = {"order": "none", "strict": True, "math_macros": {}}  # M_PIl & co. need _GNU_SOURCE
        if precision == "long double":
            settings["type_aliases"] = {real: float80}
        super().__init__(settings)
        self.precision = precision

    def _print_Literal(self, expr):
        return c_literal(expr.value, self.precision)


def _comment_safe(text: str) -> str:
    return text.replace("*/", "* /")


def to_c(obj, name: str = "f", *, precision: str = "double", batch: bool = True,
         chunk: int | None = CHUNK, args=None) -> str:
    """C99 source of a function evaluating the DAG(s) at one point, and its batch variant.

    Parameters
    ----------
    obj : Dag, OptimizeResult or list of them
        One output each.
    name : str, default "f"
        The function's name; the batch variant is ``name + "_batch"``.
    precision : {"double", "long double", "compensated"}
        Type of the locals, the arithmetic and the result (the inputs are
        always ``double``); "compensated": ``double`` result, every local a
        ``dd_t`` pair ``{hi, lo}`` of the double-double runtime written at
        the top (see :mod:`hornermcts.codegen.compensated`; about 8 times
        slower, 3 with ``-mfma``).
    batch : bool, default True
        Also write ``void name_batch(const double *xs, T *out, long n)``,
        evaluating ``n`` points stored row-major (``n x nvars``) in ``xs``.
    chunk : int or None, default :data:`CHUNK`
        Statements per C function: longer programs are split into ``static``
        parts (compilers slow down superlinearly on one huge function);
        None keeps one function.  Compensated statements count 8 times
        (each compiles to about 8 times the code).
    args : sequence of symbols or names, optional
        The order of the variables in ``x`` (as ``sympy.lambdify``'s
        ``args``); default :func:`~hornermcts.codegen.input_symbols` (the
        order of ``result.polynomial.symbols``), listed in the header either way.

    Returns
    -------
    str
        A complete translation unit (``#include <math.h>``, the functions).
        With one output the function is ``T name(const double *x)``; with
        ``k`` outputs ``void name(const double *x, T *out)`` writes
        ``out[0..k-1]`` (and the batch variant ``out[i*k + j]``).  ``T`` is
        ``double`` or ``long double``.  Compile with ``-ffp-contract=off`` for
        results that do not depend on the compiler's use of fused
        multiply-add; compensated code also without ``-ffast-math`` (an
        ``#error`` says so).

    Raises
    ------
    ValueError
        When an opaque piece holds an undefined function ``f(x)`` or anything
        else C cannot express.

    Examples
    --------
    >>> import sympy
    >>> from hornermcts.parse import as_polynomial
    >>> from hornermcts.horner_scheme import horner_dag
    >>> x, y = sympy.symbols("x y")
    >>> dag = horner_dag(as_polynomial(x**3 * sympy.sin(y) / 4 + x))
    >>> print(to_c(dag, "h", precision="long double", batch=False))  # doctest: +ELLIPSIS
    /* ...
     *   long double h(const double *x)
     *   x[0] .. x[1] hold the variables:
     *     x[0]  x   (local name x_)
     *     x[1]  y
     * computed first: o0 = sin(y)
    ...
    long double h(const double *x) {
       const long double x_ = x[0];
       const long double y = x[1];
       const long double o0 = sinl(y);
       const long double x__2 = x_*x_;
       return (1.0L/4.0L)*((4.0L + o0*x__2)*x_);
    }
    <BLANKLINE>
    >>> print(to_c(horner_dag(as_polynomial(x*y/3 - 1)), precision="compensated", batch=False))
    ... # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    /* ...in double-double arithmetic (compensated: about twice the precision of double).
    ...
    typedef struct { double hi, lo; } dd_t;  /* the value hi + lo */
    ...
    double f(const double *x) {
       const double x_ = x[0];
       const double y = x[1];
       return dd_round(dd_mul(dd_pair(-0.3333333333333333, -1.850371707708594e-17),
                              dd_add_d(dd_two_prod(-y, x_), 3.0)));
    }
    <BLANKLINE>
    """
    check_precision(precision, "c")
    prog = Program(obj, name, args)
    compensated = precision == COMPENSATED
    printer = _CPrinter("double" if compensated else precision)
    ctype = "long double" if precision == "long double" else "double"
    ftype = float80 if precision == "long double" else float64
    k_out = len(prog.outputs)
    nv = prog.n_vars
    if k_out == 1:
        signature = f"{ctype} {name}(const double *x)"
    else:
        signature = f"void {name}(const double *x, {ctype} *out)"
    header = [
        "Generated by hornermcts: the optimized form (Horner scheme + common subexpressions,",
        f"{prog.n_nodes} DAG nodes, {prog.ops} operations in FORM's model), in "
        + ("double-double arithmetic (compensated: about twice the precision of double)."
           if compensated else f"{ctype} arithmetic."),
        "",
        f"  {signature}",
    ]
    if nv:
        header.append(f"  x[0] .. x[{nv - 1}] hold the variables:")
        header += prog.variable_lines("    x[{index}]  {name}")
    else:
        header.append("  (a constant: x is not read)")
    if k_out > 1:
        header.append(f"  out[0] .. out[{k_out - 1}] receive the {k_out} outputs.")
    if prog.pieces:
        header += ["computed first: " + line for line in prog.piece_lines()]
    if batch:
        out_index = "out[i]" if k_out == 1 else f"out[i*{k_out} .. i*{k_out}+{k_out - 1}]"
        header += ["", f"  void {name}_batch(const double *xs, {ctype} *out, long n)",
                   f"  evaluates n points stored row-major in xs (n x {nv}): {out_index} at xs + i*{nv}."]
    if compensated:
        header += ["", "Compile with -ffp-contract=off and without -ffast-math: the double-double",
                   "operations rely on each IEEE operation being rounded as written."]
    else:
        header += ["", "Compile with -ffp-contract=off: results then do not depend on FMA contraction."]
    lines = ["/* " + _comment_safe(header[0])] + [_comment_safe(" * " + h).rstrip() for h in header[1:]]
    lines += [" */", "#include <math.h>", ""]
    if compensated:
        lines += C_RUNTIME.strip("\n").splitlines() + [""]
        chunk = chunk and max(chunk // _DD_WEIGHT, 1)
        lines += _c_body(compensate(prog), printer, "dd_t", Type("dd_t"), signature, chunk, float64)
    else:
        lines += _c_body(prog, printer, ctype, ftype, signature, chunk, ftype)
    if batch:
        lines += ["", f"void {name}_batch(const double *xs, {ctype} *out, long n) {{",
                  "   for (long i = 0; i < n; ++i) {"]
        if k_out == 1:
            lines.append(f"      out[i] = {name}(xs + i*{nv});")
        else:
            lines.append(f"      {name}(xs + i*{nv}, out + i*{k_out});")
        lines += ["   }", "}"]
    return "\n".join(lines) + "\n"


def _c_body(prog: Program, printer: _CPrinter, ctype: str, ftype, signature: str, chunk: int | None,
            input_type) -> list[str]:
    """The function's C lines, split into parts of ``chunk`` statements.

    ``ctype``/``ftype`` are the C type (name, SymPy type) of the temporaries,
    ``input_type`` the SymPy type of the inputs' locals.

    A compiler's register allocation grows faster than linearly with the
    length of one function (GCC -O2 on res(7,5) in one function: ~12 s,
    ~50 s in long double), so long programs are cut into ``static`` parts
    called in turn.  A temporary read only inside its own part stays a local;
    one read by a later part is kept in the array ``t`` the parts share.
    """
    statements = [(loc, numeric_constants(e)) for loc, e in prog.pieces] + prog.steps
    size = len(statements)
    n_parts = 1 if not chunk or size <= chunk else -(-size // chunk)
    part_of = {sym: (k * n_parts) // max(size, 1) for k, (sym, _) in enumerate(statements)}
    stored: dict = {}
    for k, (_, expr) in enumerate(statements):
        here = (k * n_parts) // max(size, 1)
        for s in expr.free_symbols:
            if part_of.get(s, here) != here and s not in stored:
                stored[s] = len(stored)
    for expr in prog.outputs:
        for s in expr.free_symbols:
            if s in part_of and n_parts > 1 and s not in stored:
                stored[s] = len(stored)
    position = {sym: k for k, (sym, _) in enumerate(statements)}
    stored = {s: k for k, s in enumerate(sorted(stored, key=position.__getitem__))}
    printer.storage = {s: f"t[{k}]" for s, k in stored.items()}
    inputs = dict((loc, k) for k, (_, loc) in enumerate(prog.inputs))

    def input_lines(exprs) -> list[str]:
        used = set().union(*(e.free_symbols for e in exprs)) if exprs else set()
        return [declare(loc, sympy.Symbol(f"x[{k}]"), input_type) for loc, k in inputs.items() if loc in used]

    def declare(sym, expr, type_=ftype) -> str:
        if sym in stored:
            return f"   {printer.storage[sym]} = {printed(printer, expr)};"
        code = printed(printer, Declaration(Variable(sym, type=type_, value=expr, attrs={value_const})), expr)
        return f"   {code};"

    lines: list[str] = []
    parts: list[list] = [[] for _ in range(n_parts)]
    for k, stmt in enumerate(statements):
        parts[(k * n_parts) // max(size, 1)].append(stmt)
    if n_parts > 1:
        for p, stmts in enumerate(parts):
            lines.append(f"static void {prog.name}_part{p}(const double *x, {ctype} *t) {{")
            lines += input_lines([e for _, e in stmts])
            lines += [declare(sym, expr) for sym, expr in stmts]
            lines += ["}", ""]
        lines.append(signature + " {")
        lines.append(f"   {ctype} t[{max(len(stored), 1)}];")
        lines += [f"   {prog.name}_part{p}(x, t);" for p in range(n_parts)]
        lines += input_lines(prog.outputs)
    else:
        lines.append(signature + " {")
        lines += input_lines([e for _, e in statements] + prog.outputs)
        lines += [declare(sym, expr) for sym, expr in statements]
    if len(prog.outputs) == 1:
        lines.append(f"   return {printed(printer, prog.outputs[0])};")
    else:
        lines += [f"   out[{j}] = {printed(printer, e)};" for j, e in enumerate(prog.outputs)]
    lines.append("}")
    return lines
