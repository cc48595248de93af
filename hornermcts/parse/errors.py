"""The exception of the text readers: :class:`ParseError` (file, line, column, reason, text).

Raised by :func:`~hornermcts.parse.from_text`, :func:`~hornermcts.parse.read_file`
and :func:`~hornermcts.parse.as_polynomial` for text; the library's other
errors are in :mod:`hornermcts.errors`.
"""
from __future__ import annotations

from ..errors import HornerMCTSError, visible

__all__ = ["ParseError"]


class ParseError(HornerMCTSError, ValueError):
    """Expression text that cannot be parsed (a :class:`~hornermcts.errors.HornerMCTSError`).

    The message reads ``file:line:column: what in "line text"``; the parts are
    also attributes (``filename``, ``lineno``, ``col``, ``text``, ``reason``).
    Line and column numbers start at 1.

    >>> from hornermcts.parse import from_text
    >>> try:
    ...     from_text("x*)y", name="hep.txt")
    ... except ParseError as err:
    ...     print(err)
    hep.txt:1:3: unexpected ')' in "x*)y"
    """

    def __init__(self, reason: str, *, filename: str, lineno: int, col: int, text: str):
        self.reason = reason
        self.filename = filename
        self.lineno = lineno
        self.col = col
        self.text = text
        super().__init__(f'{visible(filename)}:{lineno}:{col}: {visible(reason)} in "{visible(_snippet(text, col))}"')


def _snippet(line: str, col: int, width: int = 40) -> str:
    line = line.rstrip("\r\n")
    if len(line) <= 2 * width:
        return line.strip()
    lo = max(col - 1 - width, 0)
    hi = min(col - 1 + width, len(line))
    return ("..." if lo else "") + line[lo:hi] + ("..." if hi < len(line) else "")


# Its public home is hornermcts.parse: tracebacks (and doctests) name it there.
ParseError.__module__ = "hornermcts.parse"
