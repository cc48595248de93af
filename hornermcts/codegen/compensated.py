"""Compensated evaluation: a program rewritten in double-double arithmetic, and its runtime.

``precision="compensated"`` (:data:`~hornermcts.codegen.precision.COMPENSATED`;
C, Python, NumPy and :func:`~hornermcts.codegen.compile`, not Fortran: see
:data:`~hornermcts.codegen.PRECISION_SUPPORT`) keeps doubles in and out but
carries every intermediate value as a pair ``(hi, lo)`` of doubles: ``hi`` is
what plain double arithmetic computes, ``lo`` the rounding errors made on the
way, each found exactly by an error-free transformation (TwoSum of Knuth for
``+``, TwoProd for ``*``: ``fma`` in C where the compiler defines
``FP_FAST_FMA``, else Dekker's split by ``2**27 + 1``) and propagated in
double (Ogita, Rump and Oishi, "Accurate sum and dot product", 2005;
Graillat, Langlois and Louvet, "Algorithms for accurate, validated and fast
polynomial evaluation", 2009).  A coefficient that is not a double is the
pair ``hi + lo`` nearest to it; powers are products of pairs; each output is
``hi + lo`` rounded once.  The result is as accurate as evaluation in twice
the working precision, then rounded:
``|error| <= u |p(x)| + c u**2 sum |terms|`` with ``u = 2**-53`` and ``c``
growing with the depth of the DAG, so the relative error stays near
``1e-16`` wherever ``sum |terms| / |p(x)|`` is far below ``1e16``, where
plain double arithmetic loses ``log10`` of that ratio in digits (res(7,5) at
points in ``[0.5, 2]``: up to ~1e-9 in double, 1.1e-16 compensated).  Opaque
pieces (``sin(y)``, ...) are computed in double and enter as exact pairs
``(value, 0)``.  The C code refuses ``-ffast-math``, which would let the
compiler simplify the error terms away.

Cost, measured on res(7,5) (10604 operations, 10**5 points, one run of
``benchmarks/evaluation_speed.py --fma``, ``benchmarks/results/evaluation_speed.txt``):
compiled C about 8 times the time of the plain double code at ``-O2``
(about 3 times with the ``fma`` instruction: :func:`~hornermcts.codegen.compile`
with ``flags=("-O2", "-shared", "-fPIC", "-mfma")``, or ``-march=native``, on
a CPU that has it) and 3 to 4 times its compile time; NumPy about 7 times
the plain NumPy code (an earlier run: 4 times; Python on floats about 14
times the plain code).

The language modules print the rewritten program with the runtime of their
language (:data:`C_RUNTIME`, :data:`PYTHON_RUNTIME`) written with it.

>>> import sympy
>>> from hornermcts.polynomial import Polynomial
>>> from hornermcts.dag.horner import horner_dag
>>> from hornermcts.codegen.program import Program
>>> x, y = sympy.symbols("x y")
>>> compensate(Program(horner_dag(Polynomial((x, y), [[1, 1], [0, 0]], [3, 1])), "f")).outputs
[('call', 'dd_round', ('call', 'dd_add_d', ('call', 'dd_mul_d', ('call', 'dd_two_prod', 'y', 'x_'), 3), 1))]
"""
from __future__ import annotations

from ..errors import OptionError

from fractions import Fraction

import numpy as np
import sympy
from numba import njit

from .expressions import ADD, CALL, DIV, LITERAL, LOCAL, MUL, NEG, PIECE, Expressions
from .program import Program, as_sympy, constant


# The runtime written at the top of compensated code (Ogita, Rump, Oishi 2005;
# Graillat, Langlois, Louvet 2009, "compensated Horner scheme").  A value is a
# pair (hi, lo): hi is the value computed in plain double arithmetic, lo the
# rounding errors made on the way (each found exactly by an error-free
# transformation, then propagated to first order in double), hi + lo the
# compensated value.  The result hi + lo, rounded once, is as accurate as
# evaluation in twice the working precision: |error| <= u |p| + O(u**2) sum |terms|.
# TwoSum (Knuth); TwoProd by fma where the compiler says fma is fast, else
# (and in Python) by Dekker's split with 2**27 + 1.

#: The double-double runtime of compensated C code.
C_RUNTIME = r"""
#if defined(__FAST_MATH__)
#error "compensated code needs IEEE arithmetic: compile without -ffast-math / -Ofast"
#endif
typedef struct { double hi, lo; } dd_t;  /* the value hi + lo */
static inline dd_t dd_pair(double hi, double lo) { dd_t r = {hi, lo}; return r; }
static inline dd_t dd_two_sum(double a, double b) {  /* exactly a + b (Knuth) */
   const double s = a + b, z = s - a;
   return dd_pair(s, (a - (s - z)) + (b - z));
}
static inline dd_t dd_two_prod(double a, double b) {  /* exactly a*b */
   const double p = a*b;
#ifdef FP_FAST_FMA
   return dd_pair(p, fma(a, b, -p));
#else  /* Dekker: a = ah + al, b = bh + bl with 26-bit halves */
   const double ta = 134217729.0*a, tb = 134217729.0*b;
   const double ah = ta - (ta - a), al = a - ah, bh = tb - (tb - b), bl = b - bh;
   return dd_pair(p, ((ah*bh - p) + ah*bl + al*bh) + al*bl);
#endif
}
static inline dd_t dd_add(dd_t a, dd_t b) {
   const dd_t s = dd_two_sum(a.hi, b.hi);
   return dd_pair(s.hi, s.lo + (a.lo + b.lo));
}
static inline dd_t dd_add_d(dd_t a, double b) {
   const dd_t s = dd_two_sum(a.hi, b);
   return dd_pair(s.hi, s.lo + a.lo);
}
static inline dd_t dd_mul(dd_t a, dd_t b) {
   const dd_t p = dd_two_prod(a.hi, b.hi);
   return dd_pair(p.hi, p.lo + (a.hi*b.lo + a.lo*b.hi));
}
static inline dd_t dd_mul_d(dd_t a, double b) {
   const dd_t p = dd_two_prod(a.hi, b);
   return dd_pair(p.hi, p.lo + a.lo*b);
}
static inline dd_t dd_neg(dd_t a) { return dd_pair(-a.hi, -a.lo); }
static inline dd_t dd_div(dd_t a, dd_t b) {  /* a/b: the double quotient and two corrections from the remainders */
   const double q1 = a.hi/b.hi;
   const dd_t r1 = dd_add(a, dd_neg(dd_mul_d(b, q1)));
   const double q2 = r1.hi/b.hi;
   const dd_t r2 = dd_add(r1, dd_neg(dd_mul_d(b, q2)));
   return dd_add_d(dd_two_sum(q1, q2), r2.hi/b.hi);
}
static inline double dd_round(dd_t a) { return a.hi + a.lo; }
"""

#: The double-double runtime of compensated Python and NumPy code (a pair is a tuple).
PYTHON_RUNTIME = '''
# compensated arithmetic: a value is a pair (hi, lo), hi + lo (see hornermcts.codegen)
def dd_input(v):  # an input as a float (or an array of floats): a conversion, not an operation
    return 1.0 * v


def dd_two_sum(a, b):  # exactly a + b (Knuth)
    s = a + b
    z = s - a
    return s, (a - (s - z)) + (b - z)


def dd_two_prod(a, b):  # exactly a*b (Dekker's split; |a|, |b| < 2**996)
    p = a * b
    t = 134217729.0 * a
    ah = t - (t - a)
    al = a - ah
    t = 134217729.0 * b
    bh = t - (t - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def dd_add(a, b):
    s, e = dd_two_sum(a[0], b[0])
    return s, e + (a[1] + b[1])


def dd_add_d(a, b):
    s, e = dd_two_sum(a[0], b)
    return s, e + a[1]


def dd_mul(a, b):
    p, e = dd_two_prod(a[0], b[0])
    return p, e + (a[0] * b[1] + a[1] * b[0])


def dd_mul_d(a, b):
    p, e = dd_two_prod(a[0], b)
    return p, e + a[1] * b


def dd_neg(a):
    return -a[0], -a[1]


def dd_div(a, b):  # a/b: the double quotient and two corrections from the remainders
    q1 = a[0] / b[0]
    r1 = dd_add(a, dd_neg(dd_mul_d(b, q1)))
    q2 = r1[0] / b[0]
    r2 = dd_add(r1, dd_neg(dd_mul_d(b, q2)))
    return dd_add_d(dd_two_sum(q1, q2), r2[0] / b[0])


def dd_round(a):
    return a[0] + a[1]
'''


def _signed(value: Fraction) -> tuple:
    """``(expression, is_pair)`` of an exact coefficient: a double literal, or a pair ``hi + lo``."""
    if type(value) is int and -2**53 <= value <= 2**53:  # a double exactly (most coefficients): no Fractions
        return constant(value), False
    hi = float(value)
    if Fraction(hi) == value:
        return constant(value), False
    return ("call", "dd_pair", constant(Fraction(hi)), constant(Fraction(float(value - Fraction(hi))))), True


class Rounded(sympy.Function):
    """``dd_round(t)`` in a printed piece: the double nearest to the pair ``t`` (every language's runtime has it)."""

    nargs = 1

    def _code(self, printer) -> str:
        return f"dd_round({printer._print(self.args[0])})"

    _ccode = _pythoncode = _numpycode = _code


def compensate(prog: Program) -> Program:
    """``prog`` rewritten in double-double arithmetic (in place).

    The inputs stay doubles; every other local (opaque piece, power,
    temporary) becomes a pair ``(hi, lo)``: a piece is ``(value, 0)``, each
    ``+`` and ``*`` a call of the runtime chosen by its operands' kinds
    (``dd_two_sum``/``dd_two_prod`` of two doubles, ``dd_add_d``/``dd_mul_d``
    of a pair and a double, ``dd_add``/``dd_mul`` of two pairs), a
    coefficient not exactly a double a constant pair, a sign a negated
    operand (``-(a + b)`` is ``(-a) + (-b)``: the same roundings; the sign
    of a product goes to its first factor, of a quotient to the dividend).
    Outputs are rounded to double (``dd_round``).  One compiled pass
    (:func:`_rewrite`) over the entries of the program's table.
    """
    table = prog.table
    pair_name = np.zeros(len(table.names), np.bool_)
    pair_name[prog.statement_ids()] = True
    calls = np.array([table.call(c) for c in _CALLS], np.int64)
    literals = _literal_entries(table)
    n_steps = len(prog.step_entries())
    entries = np.array(prog.step_entries() + prog.output_entries(), np.int64)
    op, first, count, kids = table.arrays()
    piece_at = np.flatnonzero(op[entries[:n_steps]] == PIECE)  # calls of a result as written
    arithmetic = np.ones(len(entries), np.bool_)
    arithmetic[piece_at] = False
    roots = entries[arithmetic]
    capacity, done = 64 + 4 * (len(kids) + len(roots)), False
    while not done:
        made, results, is_pair, failed, done = _rewrite(op, first, count, kids, roots, pair_name, *literals, calls,
                                                        table.size, capacity)
        if failed >= 0:
            raise OptionError(f"cannot write {as_sympy(table.decode(failed))} in double-double arithmetic: compensated "
                              f"precision covers sums and products (use precision='double' or 'long double')")
        capacity *= 2
    table.extend_rows(made)
    pieces = [table.pieces[p] for p in kids[first[entries[piece_at]]].tolist()]
    entries[arithmetic] = results
    pairs = set(prog.statement_locals()) if pieces else set()
    for k, expr in zip(piece_at.tolist(), pieces):  # computed in double from its arguments rounded to double
        rounded = {s: Rounded(s) for s in expr.free_symbols if s.name in pairs}
        entries[k] = table.add(CALL, (table.call("dd_pair"), table.encode(expr.xreplace(rounded)), literals[-1]))
    rounds = is_pair[len(roots) - prog.output_count:].tolist()
    prog.set_entries([(loc, ("call", "dd_pair", expr, 0)) for loc, expr in prog.pieces], entries[:n_steps].tolist(),
                     [table.add(CALL, (table.call("dd_round"), e)) if pair else e
                      for e, pair in zip(entries[n_steps:].tolist(), rounds)])
    return prog


#: The runtime's functions the rewrite calls, in the order :func:`_rewrite` takes their ids.
_CALLS = ("dd_neg", "dd_add", "dd_add_d", "dd_two_sum", "dd_mul", "dd_mul_d", "dd_two_prod", "dd_div", "dd_pair")


def _literal_entries(table: Expressions) -> tuple:
    """Per literal ``v`` of ``table``: the entries of ``+v`` and ``-v`` in double-double (:func:`_signed`), and
    whether each is a pair; and the entry of the literal 0."""
    out = [[], [], [], []]
    for value in list(table.literals):
        for k, signed in ((0, value), (2, -value)):
            expr, is_pair = _signed(signed)
            out[k].append(table.encode(expr))
            out[k + 1].append(is_pair)
    zero = table.leaf(LITERAL, table.literal(0))
    return (np.array(out[0], np.int64), np.array(out[1], np.bool_), np.array(out[2], np.int64),
            np.array(out[3], np.bool_), zero)


# the tasks of the rewrite: an entry (with a sign), then the combination of the values of its operands
_EVAL, _SUM, _PRODUCT, _QUOTIENT = range(4)


@njit(cache=True)
def _rewrite(op, first, count, kids, roots, pair_name, plus, plus_pair, minus, minus_pair, zero, calls, entry0,
             capacity):
    """The double-double entries of ``roots`` (see :func:`compensate`): the new entries (rows ``(op, kids, kid,
    kid, kid)``, their count in row 0), each root's entry and whether it is a pair, the first entry it cannot
    rewrite (-1: none), and False when ``capacity`` was too small.  An explicit stack of tasks, a stack of
    values ``(entry, pair)``."""
    made = np.empty((capacity + 1, 5), np.int64)
    made[0, 0] = 0
    results, is_pair = np.empty(len(roots), np.int64), np.empty(len(roots), np.bool_)
    task = np.empty(capacity, np.int64)  # (kind, entry, sign) triples
    value = np.empty(capacity, np.int64)  # (entry, pair) pairs
    for r in range(len(roots)):
        task[0], task[1], task[2] = _EVAL, roots[r], 1
        top, n_values = 3, 0
        while top:
            top -= 3
            kind, e, sign = task[top], task[top + 1], task[top + 2]
            if top + 3 * (3 * count[e] + 3) > capacity or made[0, 0] + 3 > capacity or n_values + 2 > capacity // 2:
                return made, results, is_pair, -1, False
            if kind != _EVAL:  # combine the last two values
                n_values -= 2
                x, px, y, py = value[2 * n_values], value[2 * n_values + 1], value[2 * n_values + 2], \
                    value[2 * n_values + 3]
                if kind == _QUOTIENT:
                    x = x if px else _made(made, entry0, CALL, calls[8], x, zero, 3)
                    y = y if py else _made(made, entry0, CALL, calls[8], y, zero, 3)
                    fn = calls[7]
                else:
                    if py and not px:
                        x, px, y, py = y, py, x, px
                    base = 1 if kind == _SUM else 4  # dd_add / dd_mul, then _d, then two_
                    fn = calls[base] if py else calls[base + 1] if px else calls[base + 2]
                value[2 * n_values] = _made(made, entry0, CALL, fn, x, y, 3)
                value[2 * n_values + 1] = 1
                n_values += 1
                continue
            code, start, m = op[e], first[e], count[e]
            if code == LOCAL:
                if sign > 0:
                    v, p = e, pair_name[kids[start]]
                elif pair_name[kids[start]]:
                    v, p = _made(made, entry0, CALL, calls[0], e, 0, 2), 1
                else:
                    v, p = _made(made, entry0, NEG, e, 0, 0, 1), 0
                value[2 * n_values], value[2 * n_values + 1] = v, p
                n_values += 1
            elif code == LITERAL:
                literal = kids[start]
                value[2 * n_values] = plus[literal] if sign > 0 else minus[literal]
                value[2 * n_values + 1] = plus_pair[literal] if sign > 0 else minus_pair[literal]
                n_values += 1
            elif code == NEG:
                task[top], task[top + 1], task[top + 2] = _EVAL, kids[start], -sign
                top += 3
            elif code == MUL or code == DIV:  # the sign to the first operand
                task[top], task[top + 1], task[top + 2] = _PRODUCT if code == MUL else _QUOTIENT, e, 0
                task[top + 3], task[top + 4], task[top + 5] = _EVAL, kids[start + 1], 1
                task[top + 6], task[top + 7], task[top + 8] = _EVAL, kids[start], sign
                top += 9
            elif code == ADD:  # ((a + b) + c) + ...: each term with the sign
                for k in range(m - 1, 0, -1):
                    task[top], task[top + 1], task[top + 2] = _SUM, e, 0
                    task[top + 3], task[top + 4], task[top + 5] = _EVAL, kids[start + k], sign
                    top += 6
                task[top], task[top + 1], task[top + 2] = _EVAL, kids[start], sign
                top += 3
            else:
                return made, results, is_pair, e, True
        results[r], is_pair[r] = value[0], value[1]
    return made, results, is_pair, -1, True


@njit(cache=True, inline="always")
def _made(made, entry0, code, x, y, z, m):
    """Append the entry ``code`` of the ``m`` kids ``x, y, z`` to ``made`` (rows ``(op, m, x, y, z)``, their
    number in ``made[0, 0]``: :meth:`~hornermcts.codegen.expressions.Expressions.extend_rows`); its id."""
    n = made[0, 0] + 1
    made[n, 0], made[n, 1], made[n, 2], made[n, 3], made[n, 4] = code, m, x, y, z
    made[0, 0] = n
    return entry0 + n - 1
