"""Expansion rules: how the tree grows where the descent stopped.

An expansion rule is any callable ``expand(node, problem, rng) -> Node``. The
search calls it on the node where the tree policy stopped (a node with
untried moves or unvisited children, or a leaf never expanded) and plays out
from the node it returns: ``node`` itself (a terminal node, or a rule that
postpones growth) or one of its children, whose ``state`` must be set. All
randomness comes from ``rng``.

Conventions a rule keeps so that the descent works:

- ``node.untried`` is ``None`` until the node's moves are computed, then the
  list of moves not yet turned into children;
- ``node.unvisited`` holds children created but never visited; the descent
  stops at a node while that list is non-empty (unvisited children first).
"""

from __future__ import annotations

from ..errors import OptionError

from dataclasses import dataclass
from typing import Any, Callable, Union

from .node import Node

__all__ = ["single_expansion", "full_expansion", "lazy_expansion", "LazyMoves", "ThresholdExpansion", "make_expansion"]

Expansion = Callable[[Node, Any, Any], Node]


def _pop_random(items: list, rng: Any):
    """Remove and return a uniformly drawn element of a non-empty list in O(1) (order not kept)."""
    n = len(items)
    if n == 1:
        return items.pop()
    i = int(rng.random() * n)
    item = items[i]
    items[i] = items[-1]
    items.pop()
    return item


def single_expansion(node: Node, problem: Any, rng: Any) -> Node:
    """Add one child per visit, for an untried move chosen at random.

    Returns ``node`` itself if it has no legal moves (terminal).

    Examples
    --------
    >>> import numpy as np
    >>> class Two:
    ...     def moves(self, s): return ("a", "b") if s == "" else ()
    ...     def apply(self, s, m): return s + m
    >>> root = Node("")
    >>> rng = np.random.default_rng(0)
    >>> first = single_expansion(root, Two(), rng)
    >>> second = single_expansion(root, Two(), rng)
    >>> sorted([first.state, second.state]), root.untried
    (['a', 'b'], [])
    >>> single_expansion(first, Two(), rng) is first  # terminal
    True
    """
    untried = node.untried
    if untried is None:
        untried = node.untried = list(problem.moves(node.state))
    if not untried:
        return node
    move = _pop_random(untried, rng)
    child = Node(problem.apply(node.state, move), move, node)
    node.children.append(child)
    return child


def full_expansion(node: Node, problem: Any, rng: Any) -> Node:
    """Add all children at the first expansion, then visit them in random order.

    Children are created with ``state=None``; a child's state is computed
    (``problem.apply``) when it is first visited, so unvisited siblings cost
    one small object each. Returns ``node`` itself if it is terminal.

    Examples
    --------
    >>> import numpy as np
    >>> class Three:
    ...     def moves(self, s): return (1, 2, 3) if s == 0 else ()
    ...     def apply(self, s, m): return s + m
    >>> root = Node(0)
    >>> child = full_expansion(root, Three(), np.random.default_rng(0))
    >>> len(root.children), len(root.unvisited), child.state == child.move
    (3, 2, True)
    """
    if node.untried is None:
        node.untried = []
        children = [Node(None, move, node) for move in problem.moves(node.state)]
        node.children = children
        node.unvisited = children[:]
    if not node.unvisited:
        return node
    child = _pop_random(node.unvisited, rng)
    child.state = problem.apply(node.state, child.move)
    return child


class LazyMoves:
    """The untried moves of a node, drawn one at a time from an iterator (lazy expansion).

    Stands where other rules keep a list in ``node.untried``: it is true
    while a move remains (it looks one move ahead) and :meth:`pop` returns the
    next one in the iterator's order.

    Examples
    --------
    >>> moves = LazyMoves(iter("ab"))
    >>> bool(moves), moves.pop(), moves.pop(), bool(moves)
    (True, 'a', 'b', False)
    """

    __slots__ = ("_iterator", "_next")

    _DONE = object()

    def __init__(self, iterator: Any) -> None:
        self._iterator = iterator
        self._next = next(iterator, self._DONE)

    def __bool__(self) -> bool:
        return self._next is not self._DONE

    def pop(self) -> Any:
        """The next move (IndexError when none is left)."""
        move = self._next
        if move is self._DONE:
            raise IndexError("no untried move left")
        self._next = next(self._iterator, self._DONE)
        return move

    def __repr__(self) -> str:
        return "LazyMoves(...)" if self else "LazyMoves()"


def lazy_expansion(node: Node, problem: Any, rng: Any) -> Node:
    """Add one child per visit, for the next move of a generator (Rei §3.5).

    The moves come from ``problem.iter_moves(state)`` if the problem has it
    (an iterator, e.g. best first by a heuristic, computed only as far as
    needed), else from ``iter(problem.moves(state))``; they are taken in that
    order, not at random, so ``rng`` is not used. Returns ``node`` itself
    once no move is left (or if it is terminal).

    Examples
    --------
    >>> class Count:
    ...     def moves(self, s): return (1, 2, 3) if s == 0 else ()
    ...     def iter_moves(self, s): return iter(sorted(self.moves(s), reverse=True))
    ...     def apply(self, s, m): return s + m
    >>> root = Node(0)
    >>> [lazy_expansion(root, Count(), None).move for _ in range(3)]
    [3, 2, 1]
    >>> lazy_expansion(root, Count(), None) is root, bool(root.untried)
    (True, False)
    """
    untried = node.untried
    if untried is None:
        generate = getattr(problem, "iter_moves", None)
        iterator = iter(generate(node.state)) if callable(generate) else iter(problem.moves(node.state))
        untried = node.untried = LazyMoves(iterator)
    if not untried:
        return node
    move = untried.pop()
    child = Node(problem.apply(node.state, move), move, node)
    node.children.append(child)
    return child


@dataclass(frozen=True)
class ThresholdExpansion:
    """Expand a leaf only once it has ``threshold`` visits (SP-MCTS's ``T``).

    Until then the search plays out from the leaf itself, so the leaf's
    estimate rests on several playouts before its children enter the tree.
    A new child's first visit (the playout that created it) counts, so every
    node gets ``min(threshold, visits)`` playouts of its own; the root has no
    creating playout, hence ``threshold=1`` differs from the base rule only by
    one playout from the root, and ``threshold=0`` is the base rule.

    Parameters
    ----------
    threshold : int
        Visits a leaf needs before it is expanded.
    base : callable, default single_expansion
        The rule used once the threshold is reached.

    Examples
    --------
    >>> import numpy as np
    >>> class Two:
    ...     def moves(self, s): return ("a", "b") if s == "" else ()
    ...     def apply(self, s, m): return s + m
    >>> expand = ThresholdExpansion(2)
    >>> leaf = Node("")
    >>> expand(leaf, Two(), np.random.default_rng(0)) is leaf
    True
    >>> leaf.visits = 2
    >>> expand(leaf, Two(), np.random.default_rng(0)).depth
    1
    """

    threshold: int
    base: Expansion = single_expansion

    def __post_init__(self) -> None:
        if not (isinstance(self.threshold, int) and self.threshold >= 0):
            raise OptionError(f"threshold must be an int >= 0, got {self.threshold!r}")

    def __call__(self, node: Node, problem: Any, rng: Any) -> Node:
        if node.untried is None and node.visits < self.threshold:
            return node
        return self.base(node, problem, rng)


EXPANSION_NAMES = {"single": single_expansion, "full": full_expansion, "lazy": lazy_expansion}


def make_expansion(expansion: Union[str, Expansion]) -> Expansion:
    """Turn the ``expansion=`` argument of a search into a callable.

    Examples
    --------
    >>> make_expansion("full") is full_expansion
    True
    >>> make_expansion("eager")
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: unknown expansion 'eager'; expected 'single', 'full', 'lazy' or a callable ...
    """
    if isinstance(expansion, str):
        try:
            return EXPANSION_NAMES[expansion]
        except KeyError:
            raise OptionError(
                f"unknown expansion {expansion!r}; expected 'single', 'full', 'lazy' "
                "or a callable expand(node, problem, rng)"
            ) from None
    if callable(expansion):
        return expansion
    raise OptionError(f"expansion must be 'single', 'full', 'lazy' or a callable, got {expansion!r}")
