"""The results of the search drivers: the fields they share, and the tree search's own."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .node import Node

__all__ = ["SearchResult", "MCTSResult", "STOP_REASONS"]

#: Values of :attr:`SearchResult.stopped`: the iteration budget was used up,
#: the time limit was reached, a KeyboardInterrupt arrived, (per-move
#: search) the game reached a terminal state, the tree was fully explored
#: (the best is then proven optimal), or the ``target`` value was reached.
STOP_REASONS = ("iterations", "time", "interrupt", "terminal", "exhausted", "target")


@dataclass(frozen=True)
class SearchResult:
    """The fields every search driver returns (MCTS, beam, per-move, annealing, CEM, ...).

    A driver's own result class adds what only it knows (the tree, the
    accepted proposals, ...); code that compares or reports searches needs
    only these.

    Attributes
    ----------
    best_moves : object
        The best solution found: the move sequence from the root state to a
        terminal state (tree searches), the permutation (annealing), the
        parameters (CEM).
    best_value : float
        Its value in the driver's own sense: a reward, higher is better,
        when :attr:`maximize` is true (tree searches, CEM), a cost, lower is
        better, when it is false (annealing).
    iterations : int
        Solutions evaluated or iterations completed (over all restarts).
    elapsed : float
        Seconds the search took, wall-clock unless the driver was given
        another clock (not compared: two runs of one seeded search are
        equal).
    stopped : str
        Why the search ended, one of :data:`STOP_REASONS`.
    seed : int or None
        The integer seed of the search: the one given, or the fresh entropy
        drawn when ``seed=None`` (pass it back to reproduce an
        iterations-only run); ``None`` when a Generator was given.
    history : tuple of (int, float)
        ``(iteration, best_value)`` each time the best improved, the last one
        equal to :attr:`best_value`.
    """

    best_moves: Any
    best_value: float
    iterations: int
    elapsed: float = field(compare=False)
    stopped: str = field()
    seed: int | None = field()
    history: tuple = field()

    #: Whether a larger :attr:`best_value` is better.
    maximize: ClassVar[bool] = True

    @property
    def interrupted(self) -> bool:
        """True if a KeyboardInterrupt ended the search early."""
        return self.stopped == "interrupt"


@dataclass(frozen=True)
class MCTSResult(SearchResult):
    """What a tree search found, and how the search went.

    The fields of :class:`SearchResult`, with ``best_moves`` the complete
    move sequence, from the root state to a terminal state, of the best
    outcome ever seen (its tail may lie outside the tree: it comes from a
    playout), ``best_value`` that outcome in the problem's sense (its reward,
    also :attr:`best_reward`, or its cost for a problem that defines
    ``cost``; an :class:`~.values.Infeasible` if nothing feasible was found),
    and ``history`` iterations 0-based over all restarts; plus:

    Attributes
    ----------
    maximize : bool
        False for a cost problem (``best_value`` is then a cost).
    proven : bool
        True if the search explored the whole tree (up to branch-and-bound
        cuts), which proves ``best_value`` optimal (``stopped ==
        "exhausted"``).
    history_seconds : tuple of float
        When each ``history`` entry was found: seconds since the start of
        the search, on its clock.
    best_state : object
        The terminal state ``best_moves`` reach.
    node_count : int
        Nodes in the tree of the run that found the best (created children
        not yet visited included).
    max_depth : int
        Depth of the deepest node of that tree.
    root_visits : tuple of (move, int)
        Visits of the root's children in that tree, in creation order.
    runs : tuple of MCTSResult
        With ``repeats > 1``, the result of each restart (without tree).
    tree : Node or None
        The root of the tree of the run that found the best (not compared,
        not in the repr); None when that run was a restart in another
        process (``workers > 1``). :meth:`to_str` prints it.
    """

    best_state: Any = None
    maximize: bool = True  # type: ignore[misc]  # per result: a cost problem's is False
    proven: bool = False
    history_seconds: tuple = field(default=(), compare=False)
    node_count: int = 0
    max_depth: int = 0
    root_visits: tuple = ()
    runs: tuple = ()
    tree: Node | None = field(default=None, repr=False, compare=False)

    @property
    def best_reward(self) -> float:
        """The best reward: :attr:`best_value`."""
        return self.best_value

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
        >>> print(mcts(Pick(), iterations=6, seed=0, cp=0.1).to_str())  # both leaves seen: it stops
        best reward 1 by ('b',) after 2 iterations (stopped: exhausted)
        root: visits=2 mean=0.5 best=1
          'b': visits=1 mean=1 best=1 terminal
          'a': visits=1 mean=0 best=0 terminal
        """
        head = (
            f"best reward {self.best_reward:.6g} by {self.best_moves!r} after "
            f"{self.iterations} iterations (stopped: {self.stopped})"
        )
        if self.tree is None:
            return head
        return head + "\n" + self.tree.to_str(max_depth=max_depth, max_children=max_children)
