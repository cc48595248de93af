"""C99 code of a program: :func:`to_c`.

One function evaluates the polynomial at one point, a batch function loops
over points; long programs are cut into ``static`` parts (:data:`CHUNK`).
"""
from __future__ import annotations

import numpy as np
from sympy.codegen.ast import float80, real
from sympy.printing.c import C99CodePrinter

from ..collector import paused
from ..errors import OptionError
from .compensated import C_RUNTIME, compensate
from .expressions import CALL, PIECE
from .literals import c_literal, numeric_constants
from .precision import COMPENSATED, check_precision
from .forms import piece_names
from .printing import neg_one, piece_text
from .program import Program

#: Statements per generated C function (see :func:`to_c`).  64: measured on
#: HEP(sigma) and res(7,5), plain ``-O3`` and ``-march=native``, one core,
#: against 32 and 128 (before the parts were kept out of line, see
#: :data:`_NOINLINE`): the single-point function as fast as with 128 (32: 5%
#: slower), the blocked batch within 8% of the best of the three in every case.
CHUNK = 64

#: Points per block of the blocked batch function (see :func:`to_c`): "native",
#: the target's vector width chosen by the C preprocessor (8 doubles where the
#: compiler targets AVX-512, 4 with AVX, else 2).  Measured on res(7,5), 2*10^5
#: points, one core (AMD EPYC with AVX-512, ``-O2 -march=native``, idle): blocks
#: of 2, 4, 8 points 0.99, 2.34, 3.80 million points/s (HEP(sigma): 4.7, 11.2,
#: 13.6 million; 16 points 8.1 million, the temporaries outgrow the registers);
#: without ``-march=native`` (SSE2, ``-O3``) 2 points are best (res(7,5): 1.06
#: million against 0.89 with 4: the compiler emulates the wider vectors).
BLOCK = "native"

#: The C vector type of the blocked code (GCC/Clang ``vector_size``) and its broadcast.
VECTOR_TYPE = "hm_vec"
VECTOR_SPLAT = "hm_splat"
LANES = "HM_LANES"

#: Points per group of the blocked batch function: a program cut into parts
#: runs part by part over that many points (see :func:`_c_blocks`).  Measured
#: on the idle machine, one core, plain ``-O3`` (SSE2, 2-point blocks), 64
#: statements per part, median of 5 loads: groups of 4, 8, 16 points give
#: HEP(sigma) 5.4, 5.7, 5.7 million points/s (one block at a time: 3.4) and
#: res(7,5) 1.57 million with 8, 1.39 with 16; with AVX-512 (8-point blocks) 8
#: is one block, 16 was slower on HEP(sigma) (16.3 against 16.8 million).
GROUP_POINTS = 8
GROUP = "HM_GROUP"

BLOCK_SIZES = (1, 2, 4, 8, 16, 32, 64)

# A compensated statement compiles to about as much code as this many plain ones.
_DD_WEIGHT = 8


class CPrinter(C99CodePrinter):
    """C99's printer, for the opaque pieces (the statements are written by :meth:`~.program.Program.texts`)."""

    language_name = "C"
    type_mappings = {**C99CodePrinter.type_mappings, float80: "long double"}
    storage: dict = {}  # temporaries kept in the shared array t, by name
    math_macros: dict = {}  # none (M_PIl & co. need _GNU_SOURCE); set here, C99's printer makes SymPy's otherwise

    def _print_Symbol(self, expr):
        return self.storage.get(expr.name) or super()._print_Symbol(expr)

    def __init__(self, precision: str = "double"):
        settings = {"order": "none", "strict": True}
        if precision == "long double":
            settings["type_aliases"] = {real: float80}
        super().__init__(settings)
        self.precision = precision

    def _print_Literal(self, expr):
        return c_literal(expr.value, self.precision)


def _comment_safe(text: str) -> str:
    return text.replace("*/", "* /")


@paused()  # the program's tuples are freed on return, before the collector would scan them
def to_c(obj, name: str = "f", *, precision: str = "double", batch: bool = True,
         chunk: int | None = CHUNK, args=None, block: int | str | None = None) -> str:
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
    block : int or "native", optional
        Precision "double" only: also write the blocked batch function
        ``int name_blocks_batch(const double *xs, long sp, long sv, double
        *out, long n)``, which evaluates ``block`` points (a power of two up
        to 64, or "native" (:data:`BLOCK`): 8 where the compiler targets
        AVX-512, 4 with AVX, else 2; ``int name_lanes(void)`` returns it) per instruction: every local is a vector
        of ``block`` doubles (the GCC/Clang vector extension, type
        ``hm_vec``).  A short program runs once per block in ``static hm_vec
        name_block(const hm_vec *x)``; a long one part by part over groups
        of :data:`GROUP_POINTS` points (each part on every block of the
        group before the next part), its temporaries on the heap (``malloc``); the lanes
        past the last point hold copies of its group's first point.  It returns 0, or
        -1 (nothing evaluated) when the temporaries cannot be allocated.  Point ``i``'s
        variable ``j`` is ``xs[i*sp + j*sv]`` (``sp = nvars, sv = 1`` for
        points in rows, ``sp = 1, sv = n`` for variables in rows); output
        ``j`` of point ``i`` goes to ``out[i*k + j]``.  Each lane performs
        the single-point function's operations in the same order, so the
        results are bit-identical to it (with ``-ffp-contract=off``, without
        ``-ffast-math``).

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
    >>> from hornermcts.dag.horner import horner_dag
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
    if block is not None and (precision != "double" or (block not in BLOCK_SIZES and block != "native")):
        raise OptionError(f"block={block!r}: blocked code is written for precision 'double' with a block of "
                          f"{', '.join(map(str, BLOCK_SIZES))} points (got precision {precision!r})")
    prog = Program(obj, name, args)
    prog.refuse_complex("C")
    compensated = precision == COMPENSATED
    printer = CPrinter("double" if compensated else precision)
    ctype = "long double" if precision == "long double" else "double"
    k_out = prog.output_count
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
    if block:
        out_index = "out[i]" if k_out == 1 else f"out[i*{k_out} + j]"
        header += ["", f"  int {name}_blocks_batch(const double *xs, long sp, long sv, double *out, long n)",
                   f"  evaluates n points in blocks of {name}_lanes() ({block}) points: variable j of point i",
                   f"  is xs[i*sp + j*sv], {out_index} receives its output(s); bit-identical to {name}.",
                   "  Returns 0, or -1 when its temporaries could not be allocated."]
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
        lines += _c_body(compensate(prog), printer, "dd_t", signature, chunk, "double")[0]
    else:
        lines += _c_body(prog, printer, ctype, signature, chunk, ctype)[0]
    if batch:
        lines += ["", f"void {name}_batch(const double *xs, {ctype} *out, long n) {{",
                  "   for (long i = 0; i < n; ++i) {"]
        if k_out == 1:
            lines.append(f"      out[i] = {name}(xs + i*{nv});")
        else:
            lines.append(f"      {name}(xs + i*{nv}, out + i*{k_out});")
        lines += ["   }", "}"]
    if block:
        lines += _c_blocks(prog, printer, block, chunk)
    return "\n".join(lines) + "\n"


def _c_blocks(prog: Program, printer: CPrinter, block: int | str, chunk: int | None) -> list[str]:
    """The blocked batch code: the program on vectors of ``block`` doubles, and the loop over blocks.

    A program cut into parts runs part by part over a group of blocks
    (:data:`GROUP_POINTS` points): each part's machine code is then executed
    several times in a row, from the CPU's decoded-instruction cache, instead
    of the whole program once per block from the instruction decoders, which
    are what limits a 2-lane (SSE2) block.  Each part is ``noinline``: inlined
    into the loop over the group, it would be unrolled once per block.
    Measured, one core, plain ``-O3``, 10^6 points (benchmarks/evaluation_speed.py):
    HEP(sigma) 3.2 -> 5.5 million points/s, res(7,5) 0.96 -> 1.48 million.
    """
    name, nv, k_out = prog.name, prog.n_vars, prog.output_count
    vec = VECTOR_TYPE
    lines = ["", f"/* The blocked batch: {LANES} points per instruction. */", "#include <stdint.h>",
             "#include <stdlib.h>"]
    if block == "native":  # the target's vector width
        lines += ["#if defined(__AVX512F__)", f"#define {LANES} 8", "#elif defined(__AVX__)", f"#define {LANES} 4",
                  "#else", f"#define {LANES} 2", "#endif"]
    else:
        lines.append(f"#define {LANES} {block}")
    lines += [f"#define {GROUP} ({LANES} < {GROUP_POINTS} ? {GROUP_POINTS} / {LANES} : 1)  /* blocks per group */",
              f"typedef double {vec} __attribute__((vector_size(8 * {LANES})));",
              f"static inline {vec} {VECTOR_SPLAT}(double c) {{ {vec} v; for (int k = 0; k < {LANES}; ++k) "
              f"v[k] = c; return v; }}", f"int {name}_lanes(void) {{ return {LANES}; }}", ""]
    if k_out == 1:
        signature = f"static {vec} {name}_block(const {vec} *x)"
    else:
        signature = f"static void {name}_block(const {vec} *x, {vec} *out)"
    body, n_parts, n_stored = _c_body(prog, printer, vec, signature, chunk, vec,
                                      fname=f"{name}_block", xtype=vec, lanes=LANES, grouped=True)
    lines += body
    parted = n_parts > 1  # then the parts run in turn over a group of blocks, the outputs come last
    group = GROUP if parted else "1"
    kernel, args = (f"{name}_block_final", "x[b], t[b]") if parted else (f"{name}_block", "x[b]")
    if k_out == 1:
        evaluate, store = f"r = {kernel}({args});", ["            out[s + k] = r[k];"]
    else:
        evaluate = f"{kernel}({args}, r);"
        store = [f"            for (long j = 0; j < {k_out}; ++j)",
                 f"               out[(s + k)*{k_out} + j] = r[j][k];"]
    returns = "0, or -1 (nothing evaluated) when out of memory" if parted else "0"
    lines += ["", f"/* Evaluates n points, {group} block(s) of {LANES} at a time; returns {returns}. */",
              f"int {name}_blocks_batch(const double *xs, long sp, long sv, double *out, long n) {{",
              f"   {vec} x[{group}][{max(nv, 1)}], {'r' if k_out == 1 else f'r[{k_out}]'};"]
    if parted:  # the parts' shared temporaries of the group on the heap (they outgrow a thread's stack),
        # aligned by hand: C99 has no aligned_alloc
        size = f"sizeof({vec})"
        lines += [f"   void *raw = malloc({size} * ({GROUP} * {n_stored} + 1));",
                  f"   {vec} (*t)[{n_stored}] = ({vec} (*)[{n_stored}])"
                  f"(((uintptr_t)raw + {size} - 1) & ~(uintptr_t)({size} - 1));",
                  "   if (!raw) return -1;"]
    lines += [f"   for (long i = 0; i < n; i += {group} * {LANES}) {{",
              f"      for (long b = 0; b < {group}; ++b)  /* the last group padded with copies of its first point */",
              f"         for (long j = 0; j < {nv}; ++j)",
              f"            for (long k = 0; k < {LANES}; ++k)",
              f"               x[b][j][k] = xs[(i + b * {LANES} + k < n ? i + b * {LANES} + k : i)*sp + j*sv];"]
    lines += [f"      for (long b = 0; b < {GROUP}; ++b) {name}_block_part{p}(x[b], t[b]);"
              for p in range(n_parts if parted else 0)]
    lines += [f"      for (long b = 0; b < {group} && i + b * {LANES} < n; ++b) {{",
              f"         const long s = i + b * {LANES}, m = n - s < {LANES} ? n - s : {LANES};",
              f"         {evaluate}", "         for (long k = 0; k < m; ++k)", *store, "      }", "   }"]
    if parted:
        lines.append("   free(raw);")
    return lines + ["   return 0;", "}"]


#: The parts of a long program are kept out of line.  Inlined into the
#: function that calls them, they make one huge function that GCC compiles
#: worse (HEP(sigma), 64-statement parts, ``-O3 -march=native``, one core: the
#: single-point function 2.5 -> 3.4 million points/s, FORM's code 3.3; plain
#: ``-O3`` 1.53 -> 1.62, res(7,5) 0.46 -> 0.48); and a group's blocks run each
#: part in turn, where an inlined part would be unrolled once per block.
_NOINLINE = ["#ifndef HM_NOINLINE", "#if defined(__GNUC__) || defined(__clang__)",
             "#define HM_NOINLINE __attribute__((noinline))", "#else", "#define HM_NOINLINE", "#endif", "#endif"]


def _c_body(prog: Program, printer: CPrinter, ctype: str, signature: str, chunk: int | None,
            input_type: str, *, fname: str | None = None, xtype: str = "double", lanes: int | str = 0,
            grouped: bool = False) -> tuple[list[str], int, int]:
    """The function's C lines, split into parts of ``chunk`` statements; the number of parts and of shared temporaries.

    ``ctype`` is the C type of the temporaries, ``input_type`` that of the
    inputs' locals, ``xtype`` the C type
    ``x`` points to, ``fname`` the function's name (the parts' prefix;
    default ``prog.name``).  ``lanes > 0``: the locals are vectors of that
    many doubles (:data:`VECTOR_TYPE`; a number or the C macro holding it) and each opaque piece (``sin(y)``,
    ``1/z``: no vector functions in C) is computed lane by lane.

    A compiler's register allocation grows faster than linearly with the
    length of one function (GCC -O2 on res(7,5) in one function: ~12 s,
    ~50 s in long double), so long programs are cut into ``static`` parts
    called in turn.  A temporary read only inside its own part stays a local;
    one read by a later part is kept in the array ``t`` the parts share.
    ``grouped``: where there are parts, the function ``signature`` names is
    not written; its caller calls the parts itself, then
    ``fname_final(x, t)`` (``fname_final(x, t, out)`` with several outputs),
    which computes the outputs from ``x`` and ``t``.
    """
    layout = _Layout(prog, chunk)
    n_parts, stored, n_stored = layout.n_parts, layout.stored, max(len(layout.stored), 1)
    printer.storage = {s: f"t[{k}]" for s, k in stored.items()}
    texts, results = _texts(prog, printer, lanes)
    symbols = prog.statement_locals()
    input_line = [f"   const {input_type} {loc} = x[{k}];" for k, (_, loc) in enumerate(prog.inputs)]
    read = np.argwhere(layout.inputs_read)  # (part, input), by part
    starts = np.searchsorted(read[:, 0], np.arange(n_parts + 2)).tolist()
    inputs_of = [input_line[k] for k in read[:, 1].tolist()]
    input_lines = [inputs_of[a:b] for a, b in zip(starts, starts[1:])]  # of each part, then of the outputs

    def lane_piece(k: int, sym: str) -> str:  # computed lane by lane
        target = printer.storage.get(sym)
        head = "" if target else f"   {ctype} {sym};\n"
        return f"{head}   for (int k = 0; k < {lanes}; ++k)\n      {target or sym}[k] = {texts[k]};"

    stored_as, by_lanes = printer.storage, layout.piece_statements if lanes else ()
    statements = [lane_piece(k, sym) if k in by_lanes else f"   {stored_as[sym]} = {text};" if sym in stored_as
                  else f"   const {ctype} {sym} = {text};" for k, (sym, text) in enumerate(zip(symbols, texts))]
    lines: list[str] = []
    fname = fname or prog.name
    if n_parts > 1:
        lines += _NOINLINE
        for p, (start, stop) in enumerate(layout.bounds):
            lines.append(f"HM_NOINLINE static void {fname}_part{p}(const {xtype} *x, {ctype} *t) {{")
            lines += input_lines[p]
            lines += statements[start:stop]
            lines += ["}", ""]
        if grouped:
            tail = f"{ctype} {fname}_final(const {xtype} *x, const {ctype} *t)" if len(results) == 1 else \
                f"void {fname}_final(const {xtype} *x, const {ctype} *t, {ctype} *out)"
            lines.append(f"static {tail} {{")
        else:
            lines.append(signature + " {")
            lines.append(f"   {ctype} t[{n_stored}];")
            lines += [f"   {fname}_part{p}(x, t);" for p in range(n_parts)]
        lines += input_lines[n_parts]
    else:
        lines.append(signature + " {")
        lines += [input_line[k] for k in np.flatnonzero(layout.inputs_read.any(axis=0)).tolist()]
        lines += statements

    def value(j: int) -> str:  # a constant output is broadcast to every lane
        return f"{VECTOR_SPLAT}({results[j]})" if lanes and j in layout.constant_outputs else results[j]

    if len(results) == 1:
        lines.append(f"   return {value(0)};")
    else:
        lines += [f"   out[{j}] = {value(j)};" for j in range(len(results))]
    lines.append("}")
    return lines, n_parts, n_stored


def _texts(prog: Program, printer: CPrinter, lanes: int | str) -> tuple[list, list]:
    """The C text of each statement and output: pi, E, ... in pieces as literals (C has no names for them); with
    ``lanes``, a piece's symbols lane ``k`` of their vectors (no vector functions in C: computed lane by lane)."""
    storage = printer.storage

    def text_of(expr) -> str:
        if lanes:
            printer.storage = {**storage, **{name: f"{storage.get(name, name)}[k]" for name in piece_names(expr)}}
        try:
            return piece_text(printer, expr, printer.storage, numeric_constants)
        finally:
            printer.storage = storage

    return prog.texts(lambda v: c_literal(v, printer.precision), "dd_pair(", neg_one(printer), text_of, storage)


class _Layout:
    """A long program cut into parts of ``chunk`` statements (see :func:`_c_body`), from the locals each reads.

    ``bounds`` ``[(start, stop)]`` of each part's statements; ``stored``
    ``{local: k}``: the statements' locals read by another part or by an
    output, kept in ``t[k]`` (in the order of the statements);
    ``inputs_read[p, k]`` whether part ``p`` reads input ``k`` (``inputs_read[n_parts]``:
    by the outputs); ``piece_statements`` the indices of the statements that
    are pieces (printed by the printer, lane by lane in blocked code);
    ``constant_outputs`` the outputs that read no local.
    """

    def __init__(self, prog: Program, chunk: int | None):
        size = prog.n_statements
        self.n_parts = n_parts = 1 if not chunk or size <= chunk else -(-size // chunk)
        part = np.arange(size + 1) * n_parts // max(size, 1)
        part[size] = n_parts  # the outputs
        starts = np.searchsorted(part[:size], np.arange(n_parts))
        self.bounds = list(zip(starts.tolist(), [*starts[1:].tolist(), size]))
        roots, names = prog.read_arrays()
        table = prog.table
        defined = prog.statement_ids()
        self.stored: dict = {}
        statement_of = np.full(len(table.names), -1, np.int64)
        statement_of[defined] = np.arange(size)
        reader_part = part[np.minimum(roots, size)]
        if n_parts > 1:
            writer = statement_of[names]
            shared = np.zeros(size, np.bool_)
            shared[writer[(writer >= 0) & (part[np.maximum(writer, 0)] != reader_part)]] = True
            self.stored = dict(zip(map(table.names.__getitem__, defined[shared].tolist()), range(size)))
        input_ids = [table.name(loc) for _, loc in prog.inputs]
        input_of = np.full(len(table.names), -1, np.int64)  # a name's index among the inputs
        input_of[input_ids] = np.arange(len(input_ids))
        self.inputs_read = np.zeros((n_parts + 1, len(input_ids)), np.bool_)
        read = input_of[names] >= 0
        self.inputs_read[reader_part[read], input_of[names[read]]] = True
        op, first, _, kids = table.arrays()
        entries = np.array(prog.statement_entries(), np.int64)
        code, at = op[entries], first[entries]
        pair = code == CALL  # a compensated piece: dd_pair(piece, 0)
        pair[pair] = (kids[at[pair]] == table.call_id.get("dd_pair", -2)) & (op[kids[at[pair] + 1]] == PIECE)
        self.piece_statements = set(np.flatnonzero((code == PIECE) | pair).tolist())
        read_by_output = set(roots[roots >= size].tolist())
        self.constant_outputs = {j for j in range(prog.output_count) if size + j not in read_by_output}
