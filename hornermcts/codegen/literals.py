"""Exact coefficients as literals of the target language and precision.

Every conversion between SymPy numbers, :class:`fractions.Fraction` and the
text of a floating-point literal that code generation makes is here.  A
coefficient stays exact (a :class:`Literal`, holding a ``Fraction``) until a
printer writes it: the shortest round-trip decimal of the correctly rounded
double, and for ``long double`` an ``L`` literal (a quotient of two exactly
representable integers, ``(1.0L/3.0L)``, which the compiler folds with one
rounding).

>>> value = literal(sympy.Rational(-1, 3)).value
>>> value, c_literal(value, "double"), c_literal(value, "long double")
(Fraction(1, 3), '0.3333333333333333', '(1.0L/3.0L)')
>>> fortran_literal(value, "double"), python_literal(Fraction(2**53))
('0.3333333333333333_wp', '9007199254740992')
"""
from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

import sympy

from ..polynomial.coefficients import to_python
from ..errors import OptionError


#: Digits beyond which a literal's name holds the value in hexadecimal (Python
#: refuses to convert an int of more than 4300 decimal digits to text).
_DECIMAL_DIGITS = 4000


class Literal(sympy.Symbol):
    """An exact coefficient, printed as a literal of the target language and precision.

    Its name is the value, ``p/q`` in decimal, or in hexadecimal
    (``0x...``) when a part is too long for Python's int-to-text limit.
    """

    @property
    def value(self) -> Fraction:
        if self.name.startswith("0x"):
            p, _, q = self.name.partition("/")
            return Fraction(int(p, 16), int(q, 16) if q else 1)
        return Fraction(self.name)


def fraction(c) -> Fraction:
    """The exact value of a number (a SymPy ``Float`` is its binary value) as a Fraction.

    SymPy's exact numbers convert by :func:`~hornermcts.polynomial.coefficients.to_python`.
    A ``Float`` becomes the ``Rational`` of its binary value first, not
    :func:`~hornermcts.polynomial.coefficients.to_fraction` of it, which reads a
    ``Float`` wider than a double from its decimal digits (``1/10`` for
    ``Float("0.1", 30)``) and fails beyond a double's range: a literal must
    be the coefficient's exact value.

    >>> fraction(sympy.Rational(-1, 3)), fraction(sympy.Float(0.25)), fraction(3)
    (Fraction(-1, 3), Fraction(1, 4), Fraction(3, 1))
    >>> fraction(sympy.Float("0.1", 30)).denominator == 2**105
    True
    """
    if isinstance(c, sympy.Float):
        c = sympy.Rational(c)  # the exact binary value
    return Fraction(to_python(c))


def literal(c) -> Literal:
    """The literal of ``|c|`` (signs are written by the enclosing expression).

    >>> literal(sympy.Rational(-7, 3)).value, literal(7**6000).name[:6], literal(7**6000).value == 7**6000
    (Fraction(7, 3), '0x1180', True)
    """
    value = abs(fraction(c))
    if max(value.numerator.bit_length(), value.denominator.bit_length()) < _DECIMAL_DIGITS * 3.32:
        return Literal(str(value))
    return Literal(f"{value.numerator:#x}/{value.denominator:#x}")


def magnitude(value: Fraction) -> str:
    """``about 10^k``, for a number too large to print (a message names it so)."""
    return f"about 10^{round((value.numerator.bit_length() - value.denominator.bit_length()) * 0.30103)}"


def numeric_constants(expr):
    """``expr`` with pi, E, Catalan, ... as exact literals of 50 digits (C and Fortran have no names for them)."""
    found = expr.atoms(sympy.NumberSymbol)
    if not found:
        return expr
    return expr.xreplace({s: literal(sympy.Rational(s.evalf(50))) for s in found})


def _decimal(value: Fraction, digits: int) -> str:
    with localcontext() as ctx:
        ctx.prec = digits
        text = str(Decimal(value.numerator) / Decimal(value.denominator))
    return text if any(ch in text for ch in ".E") else text + ".0"


def _float_literal(value: Fraction, precision: str) -> tuple[str, str]:
    """``(text, kind)``: kind "int" (exact integer), "ratio" (p/q) or "dec"."""
    p, q = value.numerator, value.denominator
    exact = 2**53 if precision == "double" else 2**64
    if q == 1 and p <= exact:
        return f"{p}.0", "int"
    if p.bit_length() - q.bit_length() > (1024 if precision == "double" else 16384):
        raise OptionError(f"a coefficient, {magnitude(value)}, is beyond the range of {precision} "
                          f"(evaluate in another precision, or scale the variables)")
    if precision == "double":
        return repr(float(value)), "dec"
    if p <= exact and q <= exact:
        return f"{p}.0", "ratio"
    return _decimal(value, 40), "dec"


def c_literal(value: Fraction, precision: str) -> str:
    """A C literal of ``value`` in ``precision`` ("double" or "long double")."""
    text, kind = _float_literal(value, precision)
    if precision == "double":
        return text
    if kind == "ratio":
        return f"({value.numerator}.0L/{value.denominator}.0L)"
    return text + "L"


def fortran_literal(value: Fraction, precision: str) -> str:
    """A Fortran literal of ``value`` of kind ``wp`` (whose precision is ``precision``)."""
    text, kind = _float_literal(value, precision)
    if kind == "ratio":
        return f"({value.numerator}.0_wp/{value.denominator}.0_wp)"
    return text + "_wp"


def python_literal(value: Fraction) -> str:
    """A Python literal of ``value``: an int when the double is exact, else the nearest float."""
    if value.denominator == 1 and value.numerator <= 2**53:
        return str(value.numerator)
    return _float_literal(value, "double")[0]
