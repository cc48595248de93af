"""The result of a tree search."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .node import Node

__all__ = ["MCTSResult", "STOP_REASONS"]

#: Values of :attr:`MCTSResult.stopped`.
STOP_REASONS = ("iterations", "time", "interrupt")


@dataclass(frozen=True)
class MCTSResult:
    """What a search found, and how the search went.

    Attributes
    ----------
    best_moves : tuple
        The complete move sequence, from the root state to a terminal state,
        of the best reward ever seen. Its tail may lie outside the tree (it
        comes from a playout).
    best_reward : float
        Its reward.
    best_state : object
        The terminal state it reaches.
    history : tuple of (int, float)
        ``(iteration, best_reward)`` each time the best improved, iteration
        0-based and counted over all restarts: strictly increasing rewards,
        the last one equal to :attr:`best_reward`.
    iterations : int
        Iterations completed (over all restarts).
    elapsed : float
        Wall-clock seconds (over all restarts).
    node_count : int
        Nodes in the tree of the run that found the best (created children
        not yet visited included).
    max_depth : int
        Depth of the deepest node of that tree.
    root_visits : tuple of (move, int)
        Visits of the root's children in that tree, in creation order.
    stopped : str
        Why the search ended: ``"iterations"`` (budget used), ``"time"``
        (time limit reached) or ``"interrupt"`` (KeyboardInterrupt).
    seed : int or None
        The integer seed of the search: the one given, or the fresh entropy
        drawn when ``seed=None`` (pass it back to reproduce an iterations-only
        run); ``None`` when a Generator was given.
    runs : tuple of MCTSResult
        With ``repeats > 1``, the result of each restart (without tree).
    tree : Node or None
        The root of the tree of the run that found the best (not compared,
        not in the repr). :meth:`to_str` prints it.
    """

    best_moves: tuple
    best_reward: float
    best_state: Any
    history: tuple
    iterations: int
    elapsed: float
    node_count: int
    max_depth: int
    root_visits: tuple
    stopped: str
    seed: int | None = None
    runs: tuple = ()
    tree: Node | None = field(default=None, repr=False, compare=False)

    @property
    def interrupted(self) -> bool:
        """True if a KeyboardInterrupt ended the search early."""
        return self.stopped == "interrupt"

    def to_str(self, max_depth: int = 2, max_children: int | None = None) -> str:
        """Readable view of the tree (most visited children first) for debugging.

        Examples
        --------
        >>> from hornermcts.search import mcts
        >>> class Pick:
        ...     def root(self): return ()
        ...     def moves(self, s): return ("a", "b") if not s else ()
        ...     def apply(self, s, m): return s + (m,)
        ...     def reward(self, s): return 1.0 if s == ("b",) else 0.0
        >>> print(mcts(Pick(), iterations=6, seed=0, cp=0.1).to_str())
        best reward 1 by ('b',) after 6 iterations (stopped: iterations)
        root: visits=6 mean=0.833333 best=1
          'b': visits=5 mean=1 best=1 terminal
          'a': visits=1 mean=0 best=0 terminal
        """
        head = (
            f"best reward {self.best_reward:.6g} by {self.best_moves!r} after "
            f"{self.iterations} iterations (stopped: {self.stopped})"
        )
        if self.tree is None:
            return head
        return head + "\n" + self.tree.to_str(max_depth=max_depth, max_children=max_children)
