"""Independent runs on several cores, with the same outcome whatever the number of cores.

:func:`fork_map` is ``[func(item) for item in items]`` spread over
``workers`` processes: the calling process takes items ``0, w, 2w, ...``
itself (so its progress display keeps moving) and forked children take the
others.  Forking (POSIX) gives each child the parent's memory as it is:
compiled Numba functions, counters, problems and closures are not pickled,
only each call's result comes back.  Where fork is not available, with
one worker, in a child of :func:`fork_map` or in a daemonic process (a dask
or pool worker, which may not have children), the calls run one after the
other in this process.

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

__all__ = ["fork_map", "cores", "worker_count", "processes", "in_child", "on_cluster"]

_IN_CHILD = False
_CLUSTER = None  # a dask.distributed.Client while on_cluster() is in force


class on_cluster:
    """``with on_cluster(client):`` :func:`fork_map` sends its calls to a Dask cluster instead of forking.

    ``client`` is a ``dask.distributed.Client`` (None: nothing changes).
    Each call runs as one task; its function travels by cloudpickle (the
    workers need hornermcts installed), its result and the memo entries it
    adds come back, and the books are rebuilt in item order as after a
    fork: the outcome is the same for any number of workers, one process
    included.  :func:`processes` counts the cluster's workers meanwhile.
    """

    def __init__(self, client) -> None:
        if client is not None and not (hasattr(client, "submit") and hasattr(client, "gather")):
            raise OptionError(f"client must be a dask.distributed.Client, not {type(client).__name__}")
        self.client = client

    def __enter__(self):
        global _CLUSTER
        self.before, _CLUSTER = _CLUSTER, self.client if self.client is not None else _CLUSTER
        return self

    def __exit__(self, *exc) -> None:
        global _CLUSTER
        _CLUSTER = self.before


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


def processes(workers: Any) -> int:
    """How many processes :func:`fork_map` will use for ``workers=`` here (1 where it cannot fork).

    >>> processes(1)
    1
    """
    if _CLUSTER is not None and not _IN_CHILD and workers != 1:
        return max(len(_CLUSTER.scheduler_info().get("workers", {})), 1)
    return _local_processes(workers)


def _local_processes(workers: Any) -> int:
    """:func:`processes` on this machine, a cluster aside."""
    if "fork" not in multiprocessing.get_all_start_methods() or _IN_CHILD \
            or multiprocessing.current_process().daemon:  # a daemonic process (a dask worker) may not fork
        return 1
    return worker_count(workers)


def _entries(books: Sequence, marks: Sequence[int]) -> list:
    return [list(itertools.islice(_scores(book).items(), mark, None)) for book, mark in zip(books, marks)]


def _scores(book) -> dict:
    return book.scores if hasattr(book, "scores") else book


def _serve(func: Callable, items: list, books: list, first: int, step: int, conn) -> None:
    """A forked child's work: items ``first, first + step, ...``; sends back their results and memo entries.

    Ctrl-C interrupts a call (a search returns its best so far); a call
    that does not catch it comes back as an :class:`_Interrupted` and ends
    the child's work, as it would end a loop in one process.
    """
    global _IN_CHILD
    _IN_CHILD = True
    out = []
    try:
        for k in range(first, len(items), step):
            marks = [len(_scores(book)) for book in books]
            try:
                result = func(items[k])
            except KeyboardInterrupt:
                result = _Interrupted()
            out.append((k, result, _entries(books, marks)))
            if isinstance(result, _Interrupted):
                break
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the answer is in hand: deliver it
        conn.send(("ok", out))
    except Exception as error:  # the parent raises it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            conn.send(("error", error))
        except Exception:  # an error that does not pickle: its text
            conn.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))
    finally:
        conn.close()


def _receive(proc, conn) -> list:
    """A child's answer (waiting through Ctrl-C: the child got it too and answers with its best so far)."""
    while True:
        try:
            status, payload = conn.recv()
            break
        except KeyboardInterrupt:
            continue
        except EOFError:
            raise RuntimeError(f"fork_map: worker process {proc.pid} ended without an answer "
                               f"(exit code {proc.exitcode})") from None
    if status == "error":
        raise payload
    return payload


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
    items = list(items)
    cluster = _CLUSTER
    workers = min(processes(workers), len(items))
    if workers <= 1:
        return [func(item) for item in items]
    books = list(books)
    before = [len(_scores(book)) for book in books]
    if cluster is not None:
        futures = [cluster.submit(_on_worker, func, item, books, pure=False) for item in items]
        return _merged(books, before, dict(enumerate(cluster.gather(futures))), len(items))
    context = multiprocessing.get_context("fork")
    children = []
    done: dict[int, tuple] = {}
    finished = False
    gc.freeze()  # the children's collector leaves the parent's objects alone: no copy of every page they touch
    try:
        for first in range(1, workers):  # each child knows its items at birth: no task queue to wait for
            receiver, sender = context.Pipe(duplex=False)
            proc = context.Process(target=_serve, args=(func, items, books, first, workers, sender), daemon=True)
            proc.start()
            sender.close()
            children.append((proc, receiver))
        for k in range(0, len(items), workers):
            marks = [len(_scores(book)) for book in books]
            done[k] = (func(items[k]), _entries(books, marks))
        for proc, receiver in children:
            for k, result, entries in _receive(proc, receiver):
                done[k] = (result, entries)
        finished = True
    finally:
        gc.unfreeze()
        for proc, receiver in children:
            receiver.close()
            proc.join(timeout=5.0 if finished else 0.0)
            if proc.is_alive():
                proc.terminate()
                proc.join()
    return _merged(books, before, done, len(items))


def _merged(books: list, before: list, done: dict, n: int) -> list:
    """The results in item order, each book rebuilt: its entries before the calls, then each call's in order."""
    if len(done) < n or any(isinstance(result, _Interrupted) for result, _ in done.values()):
        raise KeyboardInterrupt  # as one process would have: a call ended by Ctrl-C has no result
    for book, mark in zip(books, before):
        scores = _scores(book)
        kept = list(itertools.islice(scores.items(), mark))
        scores.clear()
        scores.update(kept)
    for k in range(n):
        for book, entries in zip(books, done[k][1]):
            scores = _scores(book)
            for key, value in entries:
                scores.setdefault(key, value)
    return [done[k][0] for k in range(n)]


def _on_worker(func: Callable, item: Any, books: list) -> tuple:
    """One call on a cluster's worker, as a forked child makes it: its result and the memo entries it added."""
    global _IN_CHILD
    before, _IN_CHILD = _IN_CHILD, True
    try:
        marks = [len(_scores(book)) for book in books]
        return func(item), _entries(books, marks)
    finally:
        _IN_CHILD = before
