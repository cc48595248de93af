"""The status line: one line on standard error, rewritten in place, only on a terminal; the phase it names.

:func:`shows_status` decides from the parsed arguments (on a terminal,
without ``--no-progress`` or ``--json``); :func:`may_show` decides the same
from the raw argument words, before they can be parsed, so that the line
appears while the subcommand's modules (SymPy, Numba) are still loading.
:class:`Phases` names on the line the phase a long call is in (reading,
new variables, factoring, searching, building the DAGs, greedy, accuracy,
writing code) with its seconds once it has run :data:`PHASE_DELAY`: the
command line shows every phase, the API (:func:`~hornermcts.optimize` with
``progress="auto"``, its default) those that run that long, on a terminal.
This module imports nothing heavy (the standard library only), so every
layer may show its phases.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

__all__ = ["StatusLine", "Phases", "showing_phases", "shows_status", "may_show", "PHASE_DELAY"]

#: The flags that keep the status line off (``--json``: the output is for a program).
QUIET_FLAGS = ("--no-progress", "--json")

#: Seconds a phase runs before its line shows how long it has taken so far (then once a second); the
#: API's phases appear only then.
PHASE_DELAY = 2.0


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


class Phases:
    """The phase a call is in, on a :class:`StatusLine`: its name, then its seconds once it has run :data:`PHASE_DELAY`.

    ``phases(text)`` starts a phase (the one before ends); ``phases(text,
    bar=True)`` starts one that shows its own progress bar (a search): its
    name is kept above the bar (``delay=0``) and not rewritten until the
    next phase.  ``delay`` is how long a phase runs before its name appears:
    0 (the command line) at once; the API passes :data:`PHASE_DELAY`, so a
    short call prints nothing.  A daemon thread rewrites the line twice a
    second while a phase runs (a compiled kernel that holds the interpreter
    delays it); ``close()`` stops it and clears the line.

    >>> out = io.StringIO()
    >>> phases = Phases(StatusLine(out))
    >>> phases("reading poly.txt"); phases("searching orders (mcts)", bar=True); phases.close()
    >>> out.getvalue().split("\\r")[1:3]
    ['reading poly.txt ...', 'searching orders (mcts) ...\\n']
    """

    def __init__(self, line: StatusLine, delay: float = 0.0, every: float = 0.5) -> None:
        self.line, self.delay, self.every = line, delay, every
        self.lock = threading.Lock()
        self.text: str | None = None
        self.bar = False
        self.start = 0.0
        self.shown = ""
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    def __call__(self, text: str, *, bar: bool = False) -> None:
        text = text.removesuffix(" ...")  # the line adds its own
        with self.lock:
            self.text, self.bar, self.start, self.shown = text, bar, time.perf_counter(), ""
            if self.delay == 0:
                if bar:
                    self.line(f"{text} ...", keep=True)
                else:
                    self._show(0.0)
        if self.thread is None and not self.stopped.is_set():
            self.thread = threading.Thread(target=self._tick, name="hornermcts-phases", daemon=True)
            self.thread.start()

    def _show(self, elapsed: float) -> None:
        label = f"{self.text} ..." if elapsed < PHASE_DELAY else f"{self.text} ... {elapsed:.0f} s"
        if label != self.shown:
            self.line(label)
            self.shown = label

    def _tick(self) -> None:
        while not self.stopped.wait(self.every):
            with self.lock:
                elapsed = time.perf_counter() - self.start
                if self.text is not None and not self.bar and elapsed >= self.delay:
                    self._show(elapsed)

    def close(self) -> None:
        """End the last phase: stop the thread, clear the line."""
        self.stopped.set()
        if self.thread is not None:
            self.thread.join()
        with self.lock:
            self.text = None
            self.line.clear()


@contextmanager
def showing_phases(deadline: Any, progress: Any, stream=None) -> Iterator[None]:
    """Within the block, ``deadline``'s phases (:meth:`~hornermcts.deadline.Deadline.phase`) on a status line.

    Shown where ``progress`` asks for it on a terminal (``True``, or
    ``"auto"`` with ``stream``, default standard error, a terminal), and
    only the phases that run :data:`PHASE_DELAY` seconds; not when
    ``deadline`` shows its phases already (the command line's line, or an
    outer call's).

    >>> from hornermcts.deadline import Deadline
    >>> d = Deadline(None)
    >>> with showing_phases(d, "auto", io.StringIO()):   # not a terminal: nowhere
    ...     d.phases is None
    True
    """
    wanted = progress is True or (progress == "auto" and _on_a_terminal(stream))
    if deadline.phases is not None or not wanted:
        yield
        return
    phases = deadline.phases = Phases(StatusLine(sys.stderr if stream is None else stream), delay=PHASE_DELAY)
    try:
        yield
    finally:
        phases.close()
        deadline.phases = None
