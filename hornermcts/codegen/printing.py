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
        self.printer = printer
        self.names = {} if names is None else names
        neg_one = printer._print(sympy.S.NegativeOne) if printer is not None else "-1"
        self.write = _writer(literal, printer, self.names, pair, neg_one)


def _writer(literal, printer, names, pair: str, neg_one: str):
    """The function writing an expression (:class:`Writer`); one closure, its lookups local, for speed."""
    literals = _Literals(literal)
    name_of = names.get
    tuple_, str_, int_, fraction_ = tuple, str, int, Fraction

    def signed_factor(e) -> str:  # a factor of a negated product
        if type(e) is tuple_ and (e[0] == "+" or e[0] == "-"):
            return f"({write(e)})"
        return write(e)

    # The common cases (a local or a number as an operand, a product's factor) are written in place, without a
    # call: code generation writes about one subexpression per operation.
    def write(e) -> str:
        t = type(e)
        if t is str_:
            return name_of(e, e)
        if t is tuple_:
            tag = e[0]
            if tag == "*":  # a factor in parentheses when it is a product, a sum or a negation
                a, b = e[1], e[2]
                kind = type(a)
                if kind is str_:
                    x = name_of(a, a)
                elif kind is int_ or kind is fraction_:
                    x = literals[a]
                else:
                    x = f"({write(a)})" if kind is tuple_ and a[0] != "call" else write(a)
                if type(b) is str_:
                    return f"{x}*{name_of(b, b)}"
                return f"{x}*({write(b)})" if type(b) is tuple_ and b[0] != "call" else f"{x}*{write(b)}"
            if tag == "/":  # a quotient (a result as written): each side in parentheses unless a local or number
                a, b = e[1], e[2]
                top = f"({write(a)})" if type(a) is tuple_ and a[0] != "call" else write(a)
                return f"{top}/({write(b)})" if type(b) is tuple_ and b[0] != "call" else f"{top}/{write(b)}"
            if tag == "+":  # " + a - b ...", then the first sign fixed
                out = ""
                for term in e[1:]:
                    kind = type(term)
                    if kind is str_:
                        out += " + " + name_of(term, term)
                    elif kind is tuple_ and term[0] == "-" and type(term[1]) is str_:
                        out += " - " + name_of(term[1], term[1])
                    elif kind is int_ or kind is fraction_:
                        out += " + " + literals[term]
                    elif kind is tuple_ and term[0] == "+":
                        out += f" + ({write(term)})"
                    else:
                        text = write(term)
                        out += f" - {text[1:]}" if text[0] == "-" else f" + {text}"
                return "-" + out[3:] if out[1] == "-" else out[3:]
            if tag == "-":
                a = e[1]
                if type(a) is str_:
                    return "-" + name_of(a, a)
                if type(a) is not tuple_ or a[0] == "call":
                    return "-" + write(a)
                if a[0] == "*":
                    x, y = a[1], a[2]
                    kind = type(x)
                    x = name_of(x, x) if kind is str_ else literals[x] if kind is int_ or kind is fraction_ \
                        else signed_factor(x)
                    return f"-{x}*{name_of(y, y) if type(y) is str_ else signed_factor(y)}"
                if a[0] == "+":
                    return f"-({write(a)})"
                if a[0] == "/":
                    return f"-{write(a)}"
                return f"-({neg_one})*{signed_factor(a[1])}"  # -(-b)
            if e[1] == "dd_pair":
                return pair.format(*map(write, e[2:]))
            return f"{e[1]}({', '.join(map(write, e[2:]))})"
        if t is int_ or t is fraction_:
            return literals[e]
        return printed(printer, e)  # an opaque piece

    return write


class _Literals(dict):
    """The literals written so far, by value: a lookup in C, the language's ``literal`` only for a new value."""

    def __init__(self, literal):
        super().__init__()
        self.literal = literal

    def __missing__(self, value) -> str:
        text = self[value] = self.literal(value)
        return text


def printed(printer, node, expr=None, **options):
    """``printer.doprint(node)``; a ValueError naming ``expr`` when the printer cannot."""
    try:
        return printer.doprint(node, **options)
    except Exception as err:  # the printers raise bare PrintMethodNotImplementedError & co.
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        what = str(node if expr is None else expr)
        what = what if len(what) <= 120 else what[:100] + " ..."
        raise OptionError(f"cannot print {what} as {printer.language_name} code: {first}") from err
