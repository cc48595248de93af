"""Playout policies: finish a state by playing moves until it is terminal.

A playout policy is any callable ``policy(problem, state, rng)`` that returns
``(terminal_state, moves_played)``. It must reach a state whose
``problem.moves(state)`` is empty, must not mutate ``state``, and must take all
its randomness from ``rng`` (a :class:`numpy.random.Generator`) so that a
seeded search is reproducible. ``moves_played`` is empty exactly when
``state`` is already terminal; the search relies on that to recognise
terminal nodes.

:func:`random_playout` is the default: uniform random moves.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from ..errors import OptionError

__all__ = ["random_playout", "playout_policy"]


def random_playout(problem: Any, state: Any, rng: Any) -> tuple[Any, list]:
    """Play uniformly random legal moves from ``state`` until none is left.

    Parameters
    ----------
    problem : Problem
        Supplies ``moves(state)`` (a sequence; empty when terminal) and
        ``apply(state, move)``.
    state : object
        The state to finish; it is not modified.
    rng : numpy.random.Generator
        The only source of randomness (one ``rng.random()`` per move).

    Returns
    -------
    terminal_state : object
        The state reached, on which ``problem.moves`` is empty.
    moves_played : list
        The moves played, in order; empty if ``state`` was terminal.

    Examples
    --------
    >>> import numpy as np
    >>> class Count:
    ...     "Pick digits 0-2 three times; the state is the tuple so far."
    ...     def root(self): return ()
    ...     def moves(self, s): return (0, 1, 2) if len(s) < 3 else ()
    ...     def apply(self, s, m): return s + (m,)
    ...     def reward(self, s): return float(sum(s))
    >>> final, played = random_playout(Count(), (), np.random.default_rng(0))
    >>> len(final), tuple(played) == final
    (3, True)
    >>> random_playout(Count(), (1, 1, 1), np.random.default_rng(0))
    ((1, 1, 1), [])
    """
    moves = problem.moves
    apply = problem.apply
    random = rng.random
    played = []
    legal = moves(state)
    n = len(legal)
    while n:
        move = legal[int(random() * n)]
        state = apply(state, move)
        played.append(move)
        legal = moves(state)
        n = len(legal)
    return state, played


def playout_policy(problem: Any, playout: Any = None) -> Callable[[Any, Any], tuple]:
    """``play(state, rng)`` for a search's ``playout=`` argument.

    ``None``: ``problem.playout`` if the problem has one, else
    :func:`random_playout`; a callable ``policy(problem, state, rng)``:
    that policy, bound to ``problem``; anything else is an OptionError.

    Examples
    --------
    >>> class NoPolicy:
    ...     def moves(self, s): return ()
    ...     def apply(self, s, m): return s + m
    >>> import numpy as np
    >>> playout_policy(NoPolicy())(0, np.random.default_rng(0))
    (0, [])
    >>> playout_policy(NoPolicy(), 42)
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: playout must be a callable policy(problem, state, rng), got 42
    """
    if playout is None:
        method = getattr(problem, "playout", None)
        return method if callable(method) else partial(random_playout, problem)
    if callable(playout):
        return partial(playout, problem)
    raise OptionError(f"playout must be a callable policy(problem, state, rng), got {playout!r}")
