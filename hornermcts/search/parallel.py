"""Independent runs on several cores, with the same outcome whatever the number of cores.

:func:`fork_map` is ``[func(item) for item in items]`` spread over
``workers`` processes: the calling process takes items ``0, w, 2w, ...``
itself (so its progress display keeps moving) and forked children take the
others.  Forking (POSIX) gives each child the parent's memory as it is:
compiled Numba functions, counters, problems and closures are not pickled,
only each call's result comes back.  Where fork is not available, or with
one worker, the calls run one after the other in this process.

Searches score solutions through a memo (:class:`~.shortlist.ScoreBook`);
the scores a child adds to the ``books`` passed are copied back, and every
book is rebuilt in item order, so it ends with the same entries in the same
order as a one-process run: the ranking and the "first scored among
equals" rule of :meth:`~.shortlist.ScoreBook.leader` do not depend on the
worker count.

Ctrl-C reaches the children too (they share the terminal's process group):
each search catches it and returns its best so far, and :func:`fork_map`
waits for those answers instead of abandoning them.  A call that does not
catch it has no answer, and :func:`fork_map` raises KeyboardInterrupt once
the others are in, as the same calls in one process would.

Examples
--------
>>> from hornermcts.search.parallel import fork_map
>>> fork_map(lambda k: k * k, range(5), workers=2)
[0, 1, 4, 9, 16]
>>> from hornermcts.search.shortlist import ScoreBook
>>> book = ScoreBook(lambda s: sum(s))
>>> fork_map(lambda k: book((k, k)), range(3), workers=2, books=[book])
[0, 2, 4]
>>> list(book.scores.items())
[((0, 0), 0), ((1, 1), 2), ((2, 2), 4)]
"""
from __future__ import annotations

import gc
import itertools
import multiprocessing
import os
import signal
from typing import Any, Callable, Iterable, Sequence

from ..errors import OptionError

__all__ = ["fork_map", "cores", "worker_count", "in_child"]

_JOB: tuple | None = None  # (func, items, books): set before the fork, read by the children
_IN_CHILD = False


class _Interrupted:
    """A child's answer when Ctrl-C ended its call."""


def in_child() -> bool:
    """True in a child of :func:`fork_map` (where a progress display should stay quiet)."""
    return _IN_CHILD


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else ``os.cpu_count()``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def worker_count(workers: Any) -> int:
    """``workers=`` as a number of processes: a positive int, or None for every core.

    >>> worker_count(3), worker_count(None) >= 1
    (3, True)
    >>> worker_count(0)
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: workers must be None (every core) or an int >= 1, got 0
    """
    if workers is None:
        return cores()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be None (every core) or an int >= 1, got {workers!r}")
    return workers


def _entries(books: Sequence, marks: Sequence[int]) -> list:
    return [list(itertools.islice(_scores(book).items(), mark, None)) for book, mark in zip(books, marks)]


def _scores(book) -> dict:
    return book.scores if hasattr(book, "scores") else book


def _quiet() -> None:
    """A child ignores Ctrl-C while it waits for work (no traceback from an idle worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _child(index: int) -> tuple:
    """Run item ``index`` of the job in a forked child: its result and the entries it added to the books.

    Ctrl-C interrupts the call (a search returns its best so far); one the
    call does not catch comes back as an :class:`_Interrupted`.
    """
    global _IN_CHILD
    _IN_CHILD = True
    func, items, books = _JOB  # type: ignore[misc]
    marks = [len(_scores(book)) for book in books]
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = func(items[index])
    except KeyboardInterrupt:
        result = _Interrupted()
    finally:
        _quiet()
    return result, _entries(books, marks)


def fork_map(func: Callable[[Any], Any], items: Iterable, workers: int | None = 1, *,
             books: Sequence = ()) -> list:
    """``[func(item) for item in items]``, the calls spread over ``workers`` processes.

    Parameters
    ----------
    func : callable
        Called once per item; its result must pickle (it crosses a pipe).
    items : iterable
    workers : int or None, default 1
        Processes, this one included (None: every core, :func:`cores`).
    books : sequence of ScoreBook or dict
        Memos ``func`` writes to: what the children add is copied back, and
        each book is rebuilt in item order (see the module docstring).

    Returns
    -------
    list
        The results in item order, the same for every ``workers``.
    """
    global _JOB
    items = list(items)
    workers = min(worker_count(workers), len(items))
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [func(item) for item in items]
    books = list(books)
    before = [len(_scores(book)) for book in books]
    _JOB = (func, items, books)
    gc.freeze()  # the children's collector leaves the parent's objects alone: no copy of every page they touch
    try:
        with multiprocessing.get_context("fork").Pool(workers - 1, initializer=_quiet) as pool:
            theirs = [k for k in range(len(items)) if k % workers]
            pending = pool.map_async(_child, theirs, chunksize=1)
            done: dict[int, tuple] = {}
            for k in range(0, len(items), workers):
                marks = [len(_scores(book)) for book in books]
                done[k] = (func(items[k]), _entries(books, marks))
            while True:
                try:
                    done.update(zip(theirs, pending.get()))
                    break
                except KeyboardInterrupt:  # the children got it too: wait for their best so far
                    continue
    finally:
        gc.unfreeze()
        _JOB = None
    for book, mark in zip(books, before):
        scores = _scores(book)
        kept = list(itertools.islice(scores.items(), mark))
        scores.clear()
        scores.update(kept)
    for k in range(len(items)):
        for book, entries in zip(books, done[k][1]):
            scores = _scores(book)
            for key, value in entries:
                scores.setdefault(key, value)
    results = [done[k][0] for k in range(len(items))]
    if any(isinstance(result, _Interrupted) for result in results):
        raise KeyboardInterrupt  # as one process would have: a call ended by Ctrl-C has no result
    return results
