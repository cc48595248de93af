"""The problem protocol: how a domain plugs into the search algorithms.

The search core knows no domain. A problem is any object with these methods
(a duck type; :class:`Problem` spells it out for type checkers and, when
subclassed explicitly, supplies a default random playout):

``root()``
    The start state.
``moves(state)``
    The legal moves of ``state`` as a sequence (``len`` and indexing); empty
    means ``state`` is terminal. Return the same order for the same state:
    reproducibility of a seeded search depends on it.
``apply(state, move)``
    The state after ``move``. It must not mutate ``state``: the tree keeps
    states. Problems with cheap immutable states (tuples, ints, frozensets)
    simply return a new one.
``reward(terminal_state)``
    A float, higher is better (minimisers return e.g. ``-cost`` or
    ``baseline / cost``). It must be deterministic: terminal nodes inside the
    tree cache it.
``playout(state, rng)`` *(optional)*
    ``(terminal_state, moves_played)`` finishing ``state``; every random
    draw from ``rng``, a :class:`numpy.random.Generator`. Without it the
    search uses :func:`~hornermcts.search.playout.random_playout`.

Further optional methods, looked up by name by the algorithms that use them
(none of them is needed by :func:`~hornermcts.search.mcts.mcts` today):

``bound(state)``
    An optimistic bound: no terminal state reachable from ``state`` has a
    larger reward (branch-and-bound pruning).
``prior(state, move)`` / ``heuristic(state, move)``
    A non-negative preference for ``move`` in ``state`` (biased playouts,
    GNRPA's prior, progressive bias).
``move_code(state, move)``
    A hashable code for ``move`` in ``state``, the key of an NRPA/GNRPA
    policy weight (the move itself if moves are context free).
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, TypeVar

from .playout import random_playout

__all__ = ["Problem", "check_problem"]

State = TypeVar("State")
Move = TypeVar("Move")

REQUIRED_METHODS = ("root", "moves", "apply", "reward")


class Problem(Protocol[State, Move]):
    """A search problem: start state, legal moves, transitions, reward.

    Subclassing is optional (any object with the methods will do); a class
    that does subclass inherits :meth:`playout`, a uniform random playout.

    Examples
    --------
    Choose three bits; the reward counts ones, except that all zeros is the
    (deceptive) best. ``cp`` is scaled to the rewards (0 to 4):

    >>> from hornermcts.search import Problem, mcts
    >>> class Bits(Problem):
    ...     def root(self):
    ...         return ()
    ...     def moves(self, state):
    ...         return (0, 1) if len(state) < 3 else ()
    ...     def apply(self, state, move):
    ...         return state + (move,)
    ...     def reward(self, state):
    ...         return 4.0 if sum(state) == 0 else float(sum(state))
    >>> result = mcts(Bits(), iterations=60, cp=2.0, seed=1)
    >>> result.best_moves, result.best_reward
    ((0, 0, 0), 4.0)
    """

    def root(self) -> State:
        """Return the start state."""
        ...

    def moves(self, state: State) -> Sequence[Move]:
        """Return the legal moves of ``state``; empty when terminal."""
        ...

    def apply(self, state: State, move: Move) -> State:
        """Return the state after ``move``, leaving ``state`` unchanged."""
        ...

    def reward(self, state: State) -> float:
        """Return the (deterministic) reward of a terminal state."""
        ...

    def playout(self, state: State, rng: Any) -> tuple[State, Sequence[Move]]:
        """Finish ``state`` with uniform random moves (override for a policy)."""
        return random_playout(self, state, rng)


def check_problem(problem: Any) -> None:
    """Raise TypeError unless ``problem`` has the required methods.

    Examples
    --------
    >>> check_problem(object())
    Traceback (most recent call last):
    ...
    TypeError: problem lacks required method(s) root, moves, apply, reward
    """
    missing = [name for name in REQUIRED_METHODS if not callable(getattr(problem, name, None))]
    if missing:
        raise TypeError("problem lacks required method(s) " + ", ".join(missing))
