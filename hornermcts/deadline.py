"""The moment a whole call must end by: ``time_limit`` shared by every stage of :func:`~hornermcts.optimize`.

A :class:`Deadline` is made once, when the call starts, from the caller's
``time_limit`` in seconds (``None``: unbounded).  Each stage asks it how much
time is left, takes its share, and stops at the deadline with the best it
has; a stage that must finish to give any answer at all (parsing, the first
Horner DAG) runs to its end.  The clock is :func:`time.perf_counter`, the
one the searches use.  The stages also name themselves to it
(:meth:`Deadline.phase`), for the status line on a terminal
(:class:`~hornermcts.cli.status_line.Phases`).

Examples
--------
>>> d = Deadline(10.0)
>>> 9.0 < d.remaining() <= 10.0, d.expired(), d.bounded
(True, False, True)
>>> 4.0 < d.share(2) <= 5.0
True
>>> Deadline(None).remaining(), Deadline(None).share(3), Deadline(None).expired()
(inf, None, False)
>>> 0.0 < d.before(4.0).remaining() <= 6.0
True
"""
from __future__ import annotations

import contextlib
import math
import os
import time
from contextvars import ContextVar
from typing import Callable, Iterator

from .errors import TimeLimitError

__all__ = ["Deadline", "STAGE_SHARES", "hard_end", "check_hard", "HARD_MARGIN"]

#: The shortest time a stage is given (seconds): a search gets at least this
#: long, so that it scores something, even when the deadline has passed.
MINIMUM_SHARE = 1e-3

#: The share of the time left that each stage before the order search may take under a bounded deadline:
#: new variables (:mod:`hornermcts.rewrites.substitution`) and factoring (:mod:`hornermcts.rewrites.factoring`).
STAGE_SHARES = {"substitution": 0.1, "factoring": 0.1}


#: Seconds before a call's hard end that :func:`check_hard` raises: what the call needs to unwind and return.
HARD_MARGIN = 0.05

#: ``(perf_counter time, process id, message)`` of the current call's hard end, or None.
_HARD: ContextVar[tuple[float, int, Callable[[], str]] | None] = ContextVar("hornermcts_hard_end", default=None)


@contextlib.contextmanager
def hard_end(at: float | None, message: Callable[[], str]) -> Iterator[None]:
    """Within the block, :func:`check_hard` raises TimeLimitError(``message()``) once ``time.perf_counter()``
    passes ``at`` (None, or a hard end set already by an outer call: no change).

    The stages stop at the (soft) deadline with the best they have, but what any answer needs (the first Horner
    scheme, its count) runs to its end; those loops look at the hard end, so a call ends by it, with an error,
    rather than late.  Only in the process that set it: a forked worker is ended by its parent.

    >>> with hard_end(time.perf_counter() - 1.0, lambda: "too late"):
    ...     check_hard()
    Traceback (most recent call last):
    hornermcts.errors.TimeLimitError: too late
    >>> check_hard()  # outside: nothing
    """
    if at is None or _HARD.get() is not None:
        yield
        return
    token = _HARD.set((at, os.getpid(), message))
    try:
        yield
    finally:
        _HARD.reset(token)


def check_hard() -> None:
    """Raise TimeLimitError once the current call is past its hard end (:func:`hard_end`); else nothing."""
    end = _HARD.get()
    if end is not None and time.perf_counter() > end[0] and os.getpid() == end[1]:
        raise TimeLimitError(end[2]())


class Deadline:
    """``time.perf_counter() + seconds`` (or no deadline), with the questions stages ask of it."""

    __slots__ = ("at", "per_operation", "told")

    def __init__(self, seconds: float | None, *, start: float | None = None) -> None:
        if seconds is None:
            self.at = math.inf
        else:
            self.at = (time.perf_counter() if start is None else start) + float(seconds)
        #: Seconds per operation of the program the caller writes after the call (0: it writes none).
        self.per_operation = 0.0
        #: The phase the call is in and where it is shown, shared with the deadlines made from this one.
        self.told = _Told()

    @property
    def phases(self):
        """Where the stages name their phase (a :class:`~hornermcts.cli.status_line.Phases`), or None."""
        return self.told.phases

    @phases.setter
    def phases(self, phases) -> None:
        self.told.phases = phases

    @property
    def current(self) -> str | None:
        """The phase the call is in (the last :meth:`phase` named here or in a deadline made from this one)."""
        return self.told.current

    def phase(self, text: str, *, bar: bool = False) -> None:
        """Name the phase the call starts now (``bar``: one that shows its own progress bar), where it is shown.

        >>> d = Deadline(None)
        >>> d.before(1.0).phase("factoring")   # nowhere to show it; the call's deadline knows it
        >>> d.current
        'factoring'
        """
        self.told.current = text
        if self.told.phases is not None:
            self.told.phases(text, bar=bar)

    def part(self, seconds: float | None) -> "Deadline":
        """A deadline ``seconds`` from now (None: unbounded) for a part of this call, telling its phases as it does."""
        part = Deadline(seconds)
        part.told = self.told
        return part

    def keep_for(self, operations: int) -> None:
        """Move the deadline earlier by the time writing ``operations`` takes (:attr:`per_operation` each), once.

        The caller that emits code after the call (the command line's
        ``--emit``) cannot stop the emission halfway, so it sets
        :attr:`per_operation`; :func:`~hornermcts.pipeline.optimize` calls this
        as soon as it holds a program (the occurrence order's Horner + CSE
        form: the result has at most its operations), and stops early enough
        to leave that time.

        >>> d = Deadline(10.0)
        >>> d.per_operation = 1e-5
        >>> d.keep_for(200_000)
        >>> 7.0 < d.remaining() <= 8.0, d.per_operation
        (True, 0.0)
        """
        if self.bounded and self.per_operation:
            self.at -= operations * self.per_operation
            self.per_operation = 0.0

    @property
    def bounded(self) -> bool:
        """Whether there is a deadline at all."""
        return self.at != math.inf

    def remaining(self) -> float:
        """Seconds left (``inf`` when unbounded, never negative)."""
        return max(self.at - time.perf_counter(), 0.0) if self.bounded else math.inf

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return time.perf_counter() >= self.at

    def share(self, parts: int) -> float | None:
        """A time limit for the next of ``parts`` stages that split what is left (``None``: unbounded).

        At least :data:`MINIMUM_SHARE`, so a late stage still runs briefly.
        """
        if not self.bounded:
            return None
        return max(self.remaining() / max(parts, 1), MINIMUM_SHARE)

    def stage_seconds(self, stage: str) -> float | None:
        """The seconds ``stage`` may take: its share (:data:`STAGE_SHARES`) of the time left; None when unbounded."""
        return STAGE_SHARES[stage] * self.remaining() if self.bounded else None

    def before(self, reserve: float, *, per_operation: float = 0.0) -> "Deadline":
        """A deadline ``reserve`` seconds earlier (for the stages that come first), with ``per_operation``."""
        earlier = Deadline(None)
        earlier.at = self.at - reserve
        earlier.per_operation = per_operation
        earlier.told = self.told
        return earlier

    def __repr__(self) -> str:
        return "Deadline(None)" if not self.bounded else f"Deadline({self.remaining():.3f} s left)"


class _Told:
    """What a call's deadlines share: where its phases are shown (None: nowhere), and the phase it is in."""

    __slots__ = ("phases", "current")

    def __init__(self) -> None:
        self.phases = None
        self.current: str | None = None
