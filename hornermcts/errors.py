"""The exceptions hornermcts raises for what its user got wrong.

Every error caused by the user's input or options is a :class:`HornerMCTSError`
(and a :class:`ValueError`, so ``except ValueError`` keeps working): the
command line reports exactly these, in one line, and lets anything else (a
bug) show its traceback.  Input that does not parse raises
:class:`~hornermcts.parse.ParseError`, naming the file, line and column.

Examples
--------
>>> issubclass(OptionError, HornerMCTSError) and issubclass(OptionError, ValueError)
True
"""
from __future__ import annotations

__all__ = ["HornerMCTSError", "OptionError", "TimeLimitError", "LimitError", "visible"]


class HornerMCTSError(Exception):
    """Base class of the errors caused by what the user gave (input, options)."""


class OptionError(HornerMCTSError, ValueError):
    """An option or argument value outside what it accepts (the message names it)."""


class InputTypeError(HornerMCTSError, TypeError):
    """An input of a kind that cannot be optimized (a relation ``Eq(x, 1)``, an unknown object): the message says
    what it is and what to give instead."""


class TimeLimitError(HornerMCTSError, TimeoutError):
    """The time limit ran out before any answer existed (while reading the input, say where)."""


class LimitError(HornerMCTSError):
    """A size limit was hit (terms an expansion would build, variables, exponents, operations to emit).

    The message names the limit, the size the input asked for, and how to
    raise the limit or avoid it; nothing was computed wrongly, the work was
    refused before it could exhaust memory or time.
    """


def visible(text: str) -> str:
    r"""``text`` with control characters escaped (``\x1b``), so that a message cannot drive the terminal.

    >>> print(visible("x + \x1b[31mred\ttab"))
    x + \x1b[31mred\x09tab
    """
    return "".join(f"\\x{ord(ch):02x}" if ord(ch) < 32 or 127 <= ord(ch) < 160 else ch for ch in text)
