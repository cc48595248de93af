"""What the language printers share: printing with a clear error, and calls of the runtime.

Each language module subclasses one of SymPy's printers (``C99CodePrinter``,
``PythonCodePrinter``, ``NumPyPrinter``, ``FCodePrinter``) and writes the
:class:`~hornermcts.codegen.literals.Literal` coefficients in its own way.
"""
from __future__ import annotations

from ..errors import OptionError


class CallPrinting:
    """Printing of :class:`~hornermcts.codegen.compensated.Call` as ``name(arg, ...)`` (a printer's first base)."""

    def _print_Call(self, expr):
        return f"{expr.name}({', '.join(self._print(a) for a in expr.args[1:])})"


def printed(printer, node, expr=None, **options):
    """``printer.doprint(node)``; a ValueError naming ``expr`` when the printer cannot."""
    try:
        return printer.doprint(node, **options)
    except Exception as err:  # the printers raise bare PrintMethodNotImplementedError & co.
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        what = str(node if expr is None else expr)
        what = what if len(what) <= 120 else what[:100] + " ..."
        raise OptionError(f"cannot print {what} as {printer.language_name} code: {first}") from err
