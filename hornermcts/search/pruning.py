"""Branch-and-bound and exhaustion: removing the parts of the tree that cannot matter (Rei §3.4).

Two reasons take a node out of the tree:

- **exhausted**: the node is terminal and has been simulated, or it has no
  untried moves, no unvisited children and no children left. Nothing under
  it remains to be found; when the root is exhausted, every terminal state
  has been reached or ruled out by a bound, so the incumbent is optimal.
- **bounded** (branch-and-bound): the problem's bound on the node's state
  cannot beat the incumbent (``bound <= incumbent`` in the search's
  maximisation sense; ``bound >= z*`` for a cost). Such a child is not
  created (:func:`bounded_expansion`), and each time the incumbent improves
  the whole tree is swept top-down (:func:`prune`).

After a removal each ancestor's best outcome is recomputed from what
remains: its own simulation and its remaining children (the thesis forgets
the node's own simulation; Rei's code includes it, and so do we), so the
selection no longer steers towards what was removed. Visit counts are kept.

Examples
--------
A root with two terminal children: once both are simulated and removed,
the root is exhausted.

>>> root = Node("r")
>>> root.untried = []
>>> a, b = Node("a", "a", root), Node("b", "b", root)
>>> root.children = [a, b]
>>> for leaf, value in ((a, 1.0), (b, 2.0)):
...     leaf.own = leaf.best = value
>>> remove(a)
False
>>> root.best, remove(b)
(2.0, True)
"""

from __future__ import annotations

from math import inf
from typing import Any, Callable

from .node import Node
from .values import Infeasible

__all__ = ["is_exhausted", "remove", "prune", "refresh", "bounded_expansion"]


def is_exhausted(node: Node) -> bool:
    """True if nothing remains to explore under ``node`` (its moves all expanded, no children left)."""
    return node.untried is not None and not node.untried and not node.unvisited and not node.children


def refresh(node: Node) -> None:
    """Recompute the best outcomes of ``node`` and its ancestors from their own simulation and children."""
    while node is not None:
        best, best_moves = -inf, None
        least = inf
        own = node.own
        if own is not None:
            if own.__class__ is Infeasible:
                least = own.violation
            else:
                best = own
                best_moves = node.best_moves if node.best == own else None
        for child in node.children:
            if child.best > best:
                best, best_moves = child.best, child.best_moves
            if child.least_violation < least:
                least = child.least_violation
        if best == node.best and least == node.least_violation:
            return
        node.best = best
        node.best_moves = best_moves  # None when the best is the node's own simulation
        node.least_violation = least
        node = node.parent  # type: ignore[assignment]


def remove(node: Node) -> bool:
    """Take ``node`` out of its parent; then every ancestor left exhausted, bottom-up.

    Returns True if the root itself is exhausted (``node`` is the root, or
    removing it exhausted every ancestor up to the root).
    """
    parent = node.parent
    while parent is not None:
        children = parent.children
        for index, child in enumerate(children):
            if child is node:
                del children[index]
                break
        if node in parent.unvisited:
            parent.unvisited.remove(node)
        if not is_exhausted(parent):
            refresh(parent)
            return False
        node, parent = parent, parent.parent
    return True


def prune(root: Node, incumbent: float) -> bool:
    """Remove every node whose bound is ``<= incumbent``, top-down; True if the root goes.

    Nodes whose bound was never computed (children created by full
    expansion and not yet visited) are kept: their bound is checked when
    they are visited.
    """
    if root.bound is not None and root.bound <= incumbent:
        return True
    stack = [root]
    touched: list[Node] = []
    while stack:
        node = stack.pop()
        kept = []
        for child in node.children:
            if child.bound is not None and child.bound <= incumbent:
                if child in node.unvisited:
                    node.unvisited.remove(child)
                continue
            kept.append(child)
        if len(kept) != len(node.children):
            node.children = kept
            node.children_memo = None
            touched.append(node)
        stack.extend(kept)
    touched.sort(key=lambda node: node.depth, reverse=True)  # deepest first: removals cascade upwards
    for node in touched:
        if is_exhausted(node):
            if node is root or remove(node):
                return True
        else:
            refresh(node)
    return False


def bounded_expansion(
    expand: Callable[[Node, Any, Any], Node],
    bound: Callable[[Any], float],
    incumbent: list,
) -> Callable[[Node, Any, Any], Node]:
    """An expansion rule that does not create children whose bound cannot beat ``incumbent[0]``.

    ``incumbent`` is a one-element list the search keeps up to date (the
    best feasible value, or ``None`` before any). A discarded child is
    removed at once and the base rule is asked for another; if none is
    left, ``node`` itself is returned.
    """

    def expand_bounded(node: Node, problem: Any, rng: Any) -> Node:
        while True:
            child = expand(node, problem, rng)
            if child is node:
                return node
            child.bound = value = bound(child.state)
            best = incumbent[0]
            if best is None or value > best:
                return child
            node.children.remove(child)
            if child in node.unvisited:
                node.unvisited.remove(child)

    return expand_bounded
