"""Depth-first search of the complete Karmarkar-Karp tree (thesis Alg. 4.2), anytime.

At each node the two largest numbers ``u >= v`` are replaced first by their
difference (Karmarkar-Karp's choice), then by their sum. A node is a leaf
when it holds four numbers or fewer (KK is exact there) or when
``d = u - (sum - u) >= -1`` (``u`` alone is optimal, ``E = |d|``); the search
stops at the first perfect partition (``E <= 1``), when the tree is
exhausted (the incumbent is then optimal) or when the budget runs out.
The first leaf is KK's own, so the search is never worse than KK.

The numbers are Python ints in one sorted list changed in place and
restored on the way back (``bisect`` insertion in C; see
:mod:`.karmarkar_karp` for why this container). Measured on the shared
machine (CPython 3.11, one core, 5 CPU seconds): 1.1 million nodes per
second on ``hard0100`` (100 numbers of 100 bits) and 0.9 million on
``hard1000``; most nodes lie near the leaves, where few numbers are left.
That is 3 to 40 times the rate the thesis reports for its DFS ("hundreds
to thousands of millions of nodes per hour"): compare the tree search with
this DFS at equal CPU time on one machine, not with the thesis's seconds.
The ``iterations`` field of the result counts the nodes.

Examples
--------
>>> result = complete_kk([8, 7, 6, 5, 4])
>>> result.discrepancy, result.best_moves, result.stopped, result.proven
(0, ('join',), 'target', True)
>>> complete_kk([10, 9, 8]).discrepancy, complete_kk([10, 9, 8]).stopped   # a leaf at the root
(7, 'exhausted')
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from dataclasses import dataclass
from math import inf, log2
from time import perf_counter, process_time
from typing import ClassVar, Iterable

from ...errors import OptionError
from ...search import SearchResult
from .problem import JOIN, SPLIT, small_optimum

__all__ = ["complete_kk", "CompleteKKResult", "CLOCKS"]

#: The clocks a time limit can be measured on: process CPU time (the thesis's) or wall time.
CLOCKS = {"cpu": process_time, "wall": perf_counter}

_CHECK_EVERY = 1024  # nodes between two looks at the clock


class _Stop(Exception):
    """Unwinds the search: the budget is spent or a perfect partition was found."""


@dataclass(frozen=True)
class CompleteKKResult(SearchResult):
    """What the complete-KK search found: a :class:`~hornermcts.search.SearchResult` of a cost.

    ``best_moves`` is the path (:data:`~.problem.SPLIT` / :data:`~.problem.JOIN`)
    to the best leaf, ``best_value`` its cost ``log2(E + 1)``, ``iterations``
    the nodes visited, ``history`` ``(nodes, cost)`` at each improvement,
    ``elapsed`` seconds on the search's clock, ``stopped`` one of
    ``"exhausted"`` (the whole tree: ``proven``), ``"target"`` (a perfect
    partition: ``proven``), ``"time"``, ``"iterations"`` (the node budget)
    or ``"interrupt"``.

    Attributes
    ----------
    discrepancy : int
        The best leaf's ``E`` (exact).
    incumbents : tuple of (float, float)
        ``(seconds, cost)`` at each improvement, seconds on the search's clock.
    proven : bool
        True when the result is optimal (tree exhausted, or a perfect partition).
    """

    discrepancy: int = 0
    incumbents: tuple = ()
    proven: bool = False

    maximize: ClassVar[bool] = False


def complete_kk(
    numbers: Iterable[int],
    *,
    time_limit: float | None = None,
    nodes: int | None = None,
    clock: str = "cpu",
) -> CompleteKKResult:
    """Alg. 4.2's depth-first search, stopped by ``time_limit`` seconds or ``nodes`` visited.

    Parameters
    ----------
    numbers : iterable of positive int
    time_limit : float, optional
        Seconds on ``clock``; checked every 1024 nodes, once the first leaf
        (KK's) is reached. None: no limit.
    nodes : int, optional
        Nodes to visit at most (but the search always reaches its first
        leaf, KK's, as it does under a time limit). None: no limit (with neither limit, the
        search runs until the tree is exhausted or a perfect partition is
        found: exponential in general).
    clock : {"cpu", "wall"}
        Process CPU time (the thesis's budgets) or wall-clock time.

    Examples
    --------
    >>> numbers = [9923, 9517, 9025, 7688, 4250, 1074, 216]
    >>> result = complete_kk(numbers, nodes=3)
    >>> result.iterations, result.stopped, result.proven, result.discrepancy   # KK's leaf, then stopped
    (3, 'iterations', False, 1217)
    >>> result = complete_kk(numbers)
    >>> result.discrepancy, result.best_moves, result.history, result.proven
    (233, ('join', 'split', 'split'), ((3, 10.250298417906333), (7, 7.870364719583405)), True)
    """
    s = _checked(numbers, time_limit, nodes, clock)
    timer = CLOCKS[clock]
    start = timer()
    deadline = start + time_limit if time_limit is not None else inf
    max_nodes = nodes if nodes is not None else sys.maxsize
    path: list[str] = []
    best: list = [None, ()]  # E, moves
    history: list[tuple[int, float]] = []
    incumbents: list[tuple[float, float]] = []
    count = 0
    stopped = "exhausted"
    pop, append, insert = s.pop, s.append, s.insert

    def leaf(e: int) -> None:
        if best[0] is None or e < best[0]:
            best[0], best[1] = e, tuple(path)
            cost = log2(e + 1)
            history.append((count, cost))
            incumbents.append((timer() - start, cost))
            if e <= 1:
                raise _Stop("target")

    def dfs(total: int) -> None:
        nonlocal count
        count += 1
        if count & (_CHECK_EVERY - 1) == 0 and best[0] is not None and timer() >= deadline:
            raise _Stop("time")
        if count > max_nodes and best[0] is not None:
            count -= 1
            raise _Stop("iterations")
        u = s[-1]
        if len(s) <= 4:
            leaf(small_optimum(s))
            return
        d = 2 * u - total
        if d >= -1:
            leaf(-d if d < 0 else d)
            return
        pop()
        v = pop()
        x = u - v
        i = bisect_left(s, x)
        insert(i, x)
        path.append(SPLIT)
        dfs(total - 2 * v)
        path[-1] = JOIN
        del s[i]
        append(u + v)
        dfs(total)
        path.pop()
        pop()
        append(v)
        append(u)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, len(s) + 200))
    try:
        dfs(sum(s))
    except _Stop as stop:
        stopped = str(stop)
    except KeyboardInterrupt:
        stopped = "interrupt"
    finally:
        sys.setrecursionlimit(limit)
    elapsed = timer() - start
    e, moves = best
    if e is None:  # interrupted before the first leaf: nothing to return
        raise KeyboardInterrupt
    return CompleteKKResult(best_moves=moves, best_value=log2(e + 1), iterations=count, elapsed=elapsed,
                            stopped=stopped, seed=None, history=tuple(history), discrepancy=e,
                            incumbents=tuple(incumbents), proven=stopped in ("exhausted", "target"))


def _checked(numbers: Iterable[int], time_limit: float | None, nodes: int | None, clock: str) -> list[int]:
    """The numbers sorted, once they and the limits are checked (each error names what is wrong)."""
    s = sorted(numbers)
    if not s:
        raise OptionError("number partitioning needs at least one number")
    if any(isinstance(a, bool) or not isinstance(a, int) or a < 1 for a in s):
        raise OptionError("the numbers must be positive ints")
    if clock not in CLOCKS:
        raise OptionError(f"unknown clock {clock!r}: expected 'cpu' or 'wall'")
    if time_limit is not None and not time_limit > 0:
        raise OptionError(f"time_limit must be > 0 seconds, got {time_limit!r}")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise OptionError(f"nodes must be a positive int, got {nodes!r}")
    return s
