"""What the language printers share: the writer of a program's statements, printing with a clear error.

Each language module subclasses one of SymPy's printers (``C99CodePrinter``,
``PythonCodePrinter``, ``NumPyPrinter``, ``FCodePrinter``) for the opaque
pieces (``sin(y)``, ``1/z``), and writes the arithmetic statements of a
:class:`~hornermcts.codegen.program.Program` by
:meth:`~hornermcts.codegen.program.Program.texts` (:mod:`hornermcts.codegen.render`):
exactly the text SymPy's printers gave the unevaluated ``Mul``/``Add`` these
statements once were.
"""
from __future__ import annotations

import sympy

from ..errors import OptionError
from .expressions import Expressions
from .render import render


class Writer:
    """Writes light expressions (:func:`~hornermcts.codegen.program.as_sympy`'s form) in one language.

    ``literal(value)`` writes a coefficient (a non-negative ``int`` or
    ``Fraction``); ``printer`` is the language's SymPy printer, for the
    pieces and for ``-1``; ``names`` maps a local to its text where it is
    not its own name (C: ``t[3]``); ``pair`` opens a double-double constant
    pair (``"dd_pair("``, Python ``"("``).  The text is
    :mod:`hornermcts.codegen.render`'s, which writes whole programs
    (:meth:`~hornermcts.codegen.program.Program.texts`); this writes one
    expression at a time.

    >>> from fractions import Fraction
    >>> w = Writer(lambda v: repr(float(v)))
    >>> w.write(("-", ("*", Fraction(1, 4), ("*", "x", ("+", "y", ("-", 3))))))
    '-0.25*x*(y - 3.0)'
    """

    def __init__(self, literal, printer=None, names=None, pair: str = "dd_pair("):
        self.literal, self.printer, self.pair = literal, printer, pair
        self.names = {} if names is None else names
        self.neg_one = neg_one(printer)

    def write(self, e) -> str:
        table = Expressions()
        root = table.encode(e)
        names = [self.names.get(n, n) for n in table.names]
        return render(table, [root]).texts(table, self.literal, names, self.pair, self.neg_one,
                                           lambda p: printed(self.printer, p))[0]


def neg_one(printer) -> str:
    """How ``printer`` writes the number -1 (``-(-a)`` is written ``-(-1)*a``)."""
    return printer._print(sympy.S.NegativeOne) if printer is not None else "-1"


def printed(printer, node, expr=None, **options):
    """``printer.doprint(node)``; a ValueError naming ``expr`` when the printer cannot."""
    try:
        return printer.doprint(node, **options)
    except Exception as err:  # the printers raise bare PrintMethodNotImplementedError & co.
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        what = str(node if expr is None else expr)
        what = what if len(what) <= 120 else what[:100] + " ..."
        raise OptionError(f"cannot print {what} as {printer.language_name} code: {first}") from err
