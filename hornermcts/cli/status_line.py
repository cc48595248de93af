"""The command line's status line: one line on standard error, rewritten in place, only on a terminal.

:func:`shows_status` decides from the parsed arguments (on a terminal,
without ``--no-progress`` or ``--json``); :func:`may_show` decides the same
from the raw argument words, before they can be parsed, so that the line
appears while the subcommand's modules (SymPy, Numba) are still loading.
This module imports nothing heavy.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

__all__ = ["StatusLine", "shows_status", "may_show"]

#: The flags that keep the status line off (``--json``: the output is for a program).
QUIET_FLAGS = ("--no-progress", "--json")


def _on_a_terminal(stream) -> bool:
    isatty = getattr(sys.stderr if stream is None else stream, "isatty", None)
    return bool(isatty and isatty())


def shows_status(args: argparse.Namespace, stream=None) -> bool:
    """Whether a run shows its status line and bar: on a terminal, without --no-progress or --json.

    >>> from types import SimpleNamespace
    >>> class Terminal:
    ...     def isatty(self): return True
    >>> shows_status(SimpleNamespace(no_progress=False, json=False), Terminal())
    True
    >>> shows_status(SimpleNamespace(no_progress=False, json=True), Terminal())
    False
    """
    if getattr(args, "no_progress", False) or getattr(args, "json", False):
        return False
    return _on_a_terminal(stream)


def may_show(argv: Sequence[str], stream=None) -> bool:
    """:func:`shows_status` from the argument words, before parsing: no quiet flag among them.

    A word counts as a quiet flag as argparse reads it: the flag itself or an
    abbreviation of it (``--no-p``, ``--js``); words after ``--`` are not
    options.

    >>> class Terminal:
    ...     def isatty(self): return True
    >>> may_show(["optimize", "poly.txt", "-n", "300"], Terminal())
    True
    >>> may_show(["optimize", "poly.txt", "--js"], Terminal()), may_show(["optimize", "--no-progress"], None)
    (False, False)
    >>> may_show(["optimize", "poly.txt"], io.StringIO())   # not a terminal
    False
    """
    for word in argv:
        if word == "--":
            break
        if len(word) > 2 and any(flag.startswith(word) for flag in QUIET_FLAGS):
            return False
    return _on_a_terminal(stream)


class StatusLine:
    """One line on ``stream``, rewritten in place (carriage return, padding); ``clear()`` blanks it.

    ``keep=True`` ends the line, so that a progress bar can use the next one
    (tqdm clears its bar when done); ``clear()`` then moves back up to it.

    >>> out = io.StringIO()
    >>> line = StatusLine(out)
    >>> line("reading a long name ..."); line("searching ..."); line.clear()
    >>> out.getvalue().split("\\r")[1:]
    ['reading a long name ...', 'searching ...          ', '                       ', '']
    """

    def __init__(self, stream) -> None:
        self.stream = stream
        self.shown = 0
        self.kept = False

    def __call__(self, text: str, *, keep: bool = False) -> None:
        try:
            width = os.get_terminal_size(self.stream.fileno()).columns - 1
        except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
            width = 0
        width = width if width >= 20 else 79  # a pseudo-terminal may report 0 columns
        if len(text) > width:  # a wrapped line could not be rewritten
            text = text[:width - 3] + "..."
        self.stream.write(("\r\x1b[A" if self.kept else "\r") + text + " " * max(self.shown - len(text), 0)
                          + ("\n" if keep else ""))
        self.stream.flush()
        self.shown, self.kept = len(text), keep

    def clear(self) -> None:
        if self.shown:
            self.stream.write(("\r\x1b[A" if self.kept else "\r") + " " * self.shown + "\r")
            self.stream.flush()
            self.shown, self.kept = 0, False
