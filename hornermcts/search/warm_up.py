"""Warm-up before a timed search: time limits count search, not compilation.

A domain's compiled kernels (Numba) are compiled, or loaded from Numba's
disk cache, at their first call in a process.  Charged to a time limit, that
first call can eat the budget: a cold ``solve()`` of the stacking instance
40-A spent 8.6 of its 10 CPU seconds compiling before its first simulation
(3,520 simulations instead of 24,255 warm; issue 40 item 6).  So every timed
search first runs the problem's code once on the problem itself, before its
clock starts, and throws the result away.

The warm-up draws from a generator of its own: the search's random stream,
and so every seeded result, is the same with and without it.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

__all__ = ["warm_up", "warm_up_rng"]


def warm_up_rng() -> np.random.Generator:
    """The generator a warm-up draws from (never the search's own)."""
    return np.random.default_rng(0x3A12)


def warm_up(problem: Any, play: Callable[[Any, Any], tuple] | None = None, *, bound: bool = False) -> None:
    """Call ``problem``'s moves, apply and ``play(root, rng)`` (its playout) once, and ``bound`` if asked.

    >>> class Count:
    ...     calls = 0
    ...     def root(self): return 0
    ...     def moves(self, s): return (1,) if s < 3 else ()
    ...     def apply(self, s, m): Count.calls += 1; return s + m
    >>> warm_up(Count(), lambda s, rng: (3, [1, 1, 1]))
    >>> Count.calls
    1
    """
    root = problem.root()
    moves = problem.moves(root)
    if len(moves):
        problem.apply(root, moves[0])
    if bound:
        problem.bound(root)
    if play is not None:
        play(root, warm_up_rng())
