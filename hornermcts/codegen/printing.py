"""What the language printers share: the writer of a program's statements, printing with a clear error.

Each language module subclasses one of SymPy's printers (``C99CodePrinter``,
``PythonCodePrinter``, ``NumPyPrinter``, ``FCodePrinter``) for the opaque
pieces (``sin(y)``, ``1/z``), and writes the arithmetic statements of a
:class:`~hornermcts.codegen.program.Program` with a :class:`Writer`: plain
string joins, exactly the text SymPy's printers gave the unevaluated
``Mul``/``Add`` these statements once were, about 100 times faster.
"""
from __future__ import annotations

from fractions import Fraction

import sympy

from ..errors import OptionError


class Writer:
    """Writes the light expressions of a :class:`~hornermcts.codegen.program.Program` in one language.

    ``literal(value)`` writes a coefficient (a non-negative ``int`` or
    ``Fraction``; remembered per value); ``printer`` is the language's SymPy
    printer, for the pieces and for ``-1``; ``names`` maps a local to its
    text where it is not its own name (C: ``t[3]``); ``pair`` writes a
    double-double constant pair (``"dd_pair({}, {})"``, Python a tuple).

    The parentheses are those of SymPy's ``CodePrinter._print_Mul`` and
    ``StrPrinter._print_Add`` on the unevaluated products (``Mul(a, b)``,
    ``Mul(-1, a)``) and sums of the program, with ``order="none"``:

    * a factor of a product is parenthesised when it is a product, a sum or
      a negation (``a*(b*c)``, ``2*(x + y)``, ``(-a)*b``);
    * a negation ``-a`` writes ``a``'s factors, each parenthesised only when
      it is a sum or a negation (``-2*x*y`` for ``-(2*(x*y))``), a sum in
      parentheses, ``-(-1)*a`` for ``-(-a)``;
    * a sum writes ``a + b``, ``a - b`` for a term written with a leading
      ``-``, a term that is itself a sum in parentheses.

    >>> from fractions import Fraction
    >>> w = Writer(lambda v: repr(float(v)))
    >>> w.write(("-", ("*", Fraction(1, 4), ("*", "x", ("+", "y", ("-", 3))))))
    '-0.25*x*(y - 3.0)'
    """

    def __init__(self, literal, printer=None, names=None, pair: str = "dd_pair({}, {})"):
        self.literal = literal
        self.printer = printer
        self.names = names or {}
        self.pair = pair
        self.literals: dict = {}
        self.neg_one = printed(printer, sympy.S.NegativeOne) if printer is not None else "-1"

    def write(self, e) -> str:
        """The text of expression ``e``."""
        t = type(e)
        if t is str:
            return self.names.get(e, e)
        if t is tuple:
            tag = e[0]
            if tag == "*":
                return f"{self.factor(e[1])}*{self.factor(e[2])}"
            if tag == "+":
                return self._sum(e)
            if tag == "-":
                return self._negation(e[1])
            return self._call(e)
        if t is int or t is Fraction:
            text = self.literals.get(e)
            if text is None:
                text = self.literals[e] = self.literal(e)
            return text
        return printed(self.printer, e)  # an opaque piece

    def factor(self, e) -> str:
        """``e`` as a factor of a product: in parentheses unless a local, a literal or a call."""
        if type(e) is tuple and e[0] != "call":
            return f"({self.write(e)})"
        return self.write(e)

    def _negation(self, e) -> str:
        t = type(e)
        if t is not tuple or e[0] == "call":
            return "-" + self.write(e)
        tag = e[0]
        if tag == "+":
            return f"-({self._sum(e)})"
        if tag == "*":
            return f"-{self._signed_factor(e[1])}*{self._signed_factor(e[2])}"
        return f"-({self.neg_one})*{self._signed_factor(e[1])}"  # -(-a)

    def _signed_factor(self, e) -> str:
        """A factor of a negated product: in parentheses when a sum or a negation."""
        if type(e) is tuple and e[0] in ("+", "-"):
            return f"({self.write(e)})"
        return self.write(e)

    def _sum(self, e) -> str:
        out = []
        for term in e[1:]:
            if type(term) is tuple and term[0] == "+":
                out.append(" + (")
                out.append(self._sum(term))
                out.append(")")
                continue
            text = self.write(term)
            if text[0] == "-":
                out.append(" - ")
                out.append(text[1:])
            else:
                out.append(" + ")
                out.append(text)
        head = out[0]
        out[0] = "-" if head == " - " else "" if head == " + " else head.lstrip(" +")
        return "".join(out)

    def _call(self, e) -> str:
        if e[1] == "dd_pair":
            return self.pair.format(*(self.write(a) for a in e[2:]))
        return f"{e[1]}({', '.join(self.write(a) for a in e[2:])})"


def printed(printer, node, expr=None, **options):
    """``printer.doprint(node)``; a ValueError naming ``expr`` when the printer cannot."""
    try:
        return printer.doprint(node, **options)
    except Exception as err:  # the printers raise bare PrintMethodNotImplementedError & co.
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        what = str(node if expr is None else expr)
        what = what if len(what) <= 120 else what[:100] + " ..."
        raise OptionError(f"cannot print {what} as {printer.language_name} code: {first}") from err
