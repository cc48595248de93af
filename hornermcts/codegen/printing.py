"""What the language printers share: how a printer writes -1, printing with a clear error.

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
from .forms import LinearForm


def neg_one(printer) -> str:
    """How ``printer`` writes the number -1 (``-(-a)`` is written ``-(-1)*a``)."""
    return printer._print(sympy.S.NegativeOne)


def printed(printer, node, expr=None, **options):
    """``printer.doprint(node)``; a ValueError naming ``expr`` when the printer cannot."""
    try:
        return printer.doprint(node, **options)
    except Exception as err:  # the printers raise bare PrintMethodNotImplementedError & co.
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        what = str(node if expr is None else expr)
        what = what if len(what) <= 120 else what[:100] + " ..."
        raise OptionError(f"cannot print {what} as {printer.language_name} code: {first}") from err


def piece_text(printer, piece, rename: dict | None = None, prepared=None) -> str:
    """An opaque piece as ``printer`` writes it: a :class:`~hornermcts.codegen.forms.LinearForm` by its own
    :meth:`~hornermcts.codegen.forms.LinearForm.printed_by` (``rename``: a local's text where it is not its
    name), any other piece by :func:`printed` (``prepared(expression)``: what of it is printed)."""
    if type(piece) is LinearForm:
        text = piece.printed_by(printer, rename)
        if text is not None:
            return text
        piece = piece.as_sympy()
    return printed(printer, prepared(piece) if prepared else piece)
