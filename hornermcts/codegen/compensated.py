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

import sympy

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
    operand.  Outputs are rounded to double (``dd_round``).
    """
    pairs = {loc for loc, _ in prog.pieces + prog.steps}
    numbers: dict = {}  # _signed by value: a program repeats few coefficients many times

    def add(a, b):
        (x, px), (y, py) = (b, a) if b[1] and not a[1] else (a, b)
        return ("call", "dd_add" if py else "dd_add_d" if px else "dd_two_sum", x, y), True

    def mul(a, b):
        (x, px), (y, py) = (b, a) if b[1] and not a[1] else (a, b)
        return ("call", "dd_mul" if py else "dd_mul_d" if px else "dd_two_prod", x, y), True

    def lower(expr, sign: int = 1) -> tuple:
        """``(sign*expr lowered, is_pair)``."""
        t = type(expr)
        if t is str:
            if sign > 0:
                return expr, expr in pairs
            if expr in pairs:
                return ("call", "dd_neg", expr), True
            return ("-", expr), False
        if t is not tuple:
            value = sign * expr
            found = numbers.get(value)
            if found is None:
                found = numbers[value] = _signed(value)
            return found
        tag = expr[0]
        if tag == "-":
            return lower(expr[1], -sign)
        if tag == "*":  # the sign goes to the first factor
            b = expr[2]
            return mul(lower(expr[1], sign), (b, b in pairs) if type(b) is str else lower(b))
        if tag == "+":  # -(a + b) = (-a) + (-b): the same roundings
            out = lower(expr[1], sign)
            for a in expr[2:]:
                out = add(out, (a, a in pairs) if sign > 0 and type(a) is str else lower(a, sign))
            return out
        if tag == "/":  # the sign goes to the dividend
            return ("call", "dd_div", pair(lower(expr[1], sign)), pair(lower(expr[2]))), True
        raise OptionError(f"cannot write {as_sympy(expr)} in double-double arithmetic: compensated precision "
                          f"covers sums and products (use precision='double' or 'long double')")

    def pair(lowered) -> tuple:
        expr, is_pair = lowered
        return expr if is_pair else ("call", "dd_pair", expr, 0)

    def piece(expr):
        """A call of a result as written, computed in double from its arguments rounded to double."""
        rounded = {s: Rounded(s) for s in expr.free_symbols if s.name in pairs}
        return ("call", "dd_pair", expr.xreplace(rounded), 0)

    prog.pieces = [(loc, ("call", "dd_pair", expr, 0)) for loc, expr in prog.pieces]
    prog.steps = [(loc, piece(expr) if isinstance(expr, sympy.Basic) else lower(expr)[0]) for loc, expr in prog.steps]
    prog.outputs = [("call", "dd_round", e) if pair else e for e, pair in map(lower, prog.outputs)]
    return prog
