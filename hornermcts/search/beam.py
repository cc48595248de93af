"""Beam Monte-Carlo Tree Search (Baier & Winands, BMCTS).

BMCTS is MCTS with a per-depth beam. It counts, for every tree depth ``d``,
the iterations whose selection path passed through a tree node at depth
``d``. When that count reaches the *simulation limit* ``L``, depth ``d`` is
pruned: the ``W`` (*beam width*) nodes of depth ``d`` with the most visits
are kept together with their ancestors; the other nodes of depth ``d`` and
everything hanging from them go, and no new node is created at depth ``d``
or above it any more. Below the beam the tree grows as usual, so memory and
time become linear in the depth, and ``W = 1`` turns the search into a
move-by-move search whose time per move is set by ``L``.

Listing 3 of the paper keeps only the ``W`` nodes and their ancestors, so
the subtrees below the kept nodes go too (``keep_subtrees=False``, the
default); since the counts of deeper levels then count passes through nodes
that no longer exist, they restart from zero. ``keep_subtrees=True`` keeps
those subtrees and their counts.

The search is otherwise :func:`~hornermcts.search.mcts.mcts` (the same
selection, expansion, playout, budget, seed, restarts, progress and result),
with UCB1-TUNED (:func:`~hornermcts.search.ucb1_tuned.ucb1_tuned`) as the
default selection rule, as in the paper.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

import numpy as np

from .arguments import integer
from .mcts import mcts
from .node import Node
from .problem import check_problem
from .result import MCTSResult
from .ucb1_tuned import ucb1_tuned

__all__ = ["beam_mcts", "prune_depth"]


def prune_depth(root: Node, depth: int, width: int, *, keep_subtrees: bool = False) -> int:
    """Keep the ``width`` most visited nodes at ``depth`` and their ancestors.

    Nodes above ``depth`` that are not ancestors of a kept node are cut off,
    and every node above ``depth`` gets ``untried = []`` (no new children).
    Ties in visits keep the node met first (breadth-first, creation order).

    Returns
    -------
    int
        The number of nodes kept at ``depth`` (0 if the tree does not reach it).

    Examples
    --------
    >>> root = Node("r"); root.untried = []
    >>> for move, visits in enumerate([5, 9, 2]):
    ...     child = Node(move, move, root); child.visits = visits; child.untried = []
    ...     root.children.append(child)
    >>> prune_depth(root, 1, 2)
    2
    >>> [(c.move, c.visits) for c in root.children], root.untried
    ([(0, 5), (1, 9)], [])
    """
    level = [root]
    for _ in range(depth):
        level = [child for node in level for child in node.children]
        if not level:
            return 0
    if len(level) > width:
        # stable: sorted keeps creation order among equal visits
        kept = sorted(level, key=lambda n: -n.visits)[:width]
    else:
        kept = level
    keep = {id(node) for node in kept}
    for node in kept:
        parent = node.parent
        while parent is not None and id(parent) not in keep:
            keep.add(id(parent))
            parent = parent.parent
    stack = [root]
    while stack:
        node = stack.pop()
        if node.depth < depth:
            node.untried = []
            node.children = [child for child in node.children if id(child) in keep]
            node.unvisited = [child for child in node.unvisited if id(child) in keep]
            stack.extend(node.children)
    if not keep_subtrees:
        for node in kept:
            node.children = []
            node.unvisited = []
            if node.terminal_reward is None:
                node.untried = None
    return len(kept)


class _BeamPruning:
    """The beam of BMCTS as an ``after_iteration`` hook of the MCTS loop.

    Counts the iterations that pass through each depth; once depth ``d`` has
    seen ``limit`` of them, only the ``width`` best nodes there are kept
    (:func:`prune_depth`) and depth ``d`` is frozen.
    """

    __slots__ = ("limit", "width", "keep_subtrees", "counts", "frozen")

    def __init__(self, limit: int, width: int, keep_subtrees: bool) -> None:
        self.limit = limit
        self.width = width
        self.keep_subtrees = keep_subtrees
        self.counts = [0]  # counts[d]: iterations through a tree node at depth d
        self.frozen = 0  # depths 1..frozen are pruned

    def __call__(self, root: Node, leaf: Node) -> None:
        counts = self.counts
        depth = leaf.depth
        while len(counts) <= depth:
            counts.append(0)
        for d in range(1, depth + 1):
            counts[d] += 1
        d = self.frozen + 1
        while d < len(counts) and counts[d] >= self.limit:
            if not prune_depth(root, d, self.width, keep_subtrees=self.keep_subtrees):
                break
            self.frozen = d
            if not self.keep_subtrees:
                del counts[d + 1 :]
                break
            d += 1


def beam_mcts(
    problem: Any,
    *,
    simulation_limit: int,
    beam_width: int,
    keep_subtrees: bool = False,
    iterations: int | None = None,
    time_limit: float | None = None,
    clock: str = "wall",
    cp: float | None = None,
    schedule: str | Callable[[float, float], float] = "constant",
    selection: Callable[[Node, float], Node] = ucb1_tuned,
    expansion: str | Callable[[Node, Any, Any], Node] = "single",
    playout: Callable[[Any, Any, Any], tuple] | None = None,
    seed: int | np.random.Generator | None = None,
    repeats: int = 1,
    progress: Any = "auto",
) -> MCTSResult:
    """Search ``problem`` with Beam MCTS; return the best path (as :func:`mcts`).

    Parameters
    ----------
    problem : Problem
    simulation_limit : int
        ``L``: iterations through a depth before that depth is pruned.
    beam_width : int
        ``W``: nodes kept at a pruned depth.
    keep_subtrees : bool, default False
        Keep the subtrees of the kept nodes (the paper drops them).
    iterations, time_limit, clock, cp, schedule, expansion, playout, seed, repeats, progress
        As for :func:`~hornermcts.search.mcts.mcts`.
    selection : callable, default ucb1_tuned
        The rule (UCB1-TUNED in the paper; give it a ``scale`` or normalise
        rewards to [0, 1]).

    Returns
    -------
    MCTSResult

    Examples
    --------
    Ten bits, the reward their number of ones over ten; with ``L = 20`` and
    ``W = 1`` the beam walks down one depth per 20 iterations:

    >>> class Bits:
    ...     def root(self): return ()
    ...     def moves(self, s): return (0, 1) if len(s) < 10 else ()
    ...     def apply(self, s, m): return s + (m,)
    ...     def reward(self, s): return sum(s) / 10
    >>> result = beam_mcts(Bits(), simulation_limit=20, beam_width=1, iterations=300,
    ...                    cp=0.5, seed=0, progress=None)
    >>> result.best_reward, result.node_count <= 2 * 10 + 1
    (1.0, True)
    """
    check_problem(problem)
    integer("simulation_limit", simulation_limit, minimum=1)
    integer("beam_width", beam_width, minimum=1)
    return mcts(
        problem,
        iterations=iterations,
        time_limit=time_limit,
        clock=clock,
        cp=cp,
        schedule=schedule,
        selection=selection,
        expansion=expansion,
        playout=playout,
        seed=seed,
        repeats=repeats,
        progress=progress,
        shaping=partial(_BeamPruning, int(simulation_limit), int(beam_width), keep_subtrees),
    )
