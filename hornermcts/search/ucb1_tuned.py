"""The UCB1-TUNED selection rule (Auer et al. 2002), as used by BMCTS.

Baier & Winands (*Beam Monte-Carlo Tree Search*, sec. II) select the move
maximising ``V(c) + C U_val(c)`` with

``U_var(c) = mean(r²) - mean(r)² + sqrt(2 ln n(s) / n(c))``,
``U_val(c) = sqrt(2 ln n(s) / n(c) * min(1/4, U_var(c)))``,

``C`` being the exploration value the search passes (``cp``; a cooling
schedule applies to it as to UCT). The ``1/4`` cap is the variance bound of
rewards in [0, 1]: give rewards in another range a ``scale`` (their width,
e.g. the largest possible score) and the rule divides means and variances by
it, which is what the paper's normalisation to [0, 1] does.
"""

from __future__ import annotations

from ..errors import OptionError

from dataclasses import dataclass
from math import inf, log, sqrt

from .node import Node

__all__ = ["ucb1_tuned", "UCB1Tuned"]


@dataclass(frozen=True)
class UCB1Tuned:
    """UCB1-TUNED for rewards in ``[lo, lo + scale]`` (any ``lo``).

    Parameters
    ----------
    scale : float, default 1.0
        Width of the reward range (a shift of the rewards changes nothing).

    Examples
    --------
    >>> parent = Node(None)
    >>> for move, rewards in enumerate([[0.5, 0.5, 0.5, 0.5], [0.0, 0.8]]):
    ...     child = Node(None, move, parent)
    ...     child.visits, child.total = len(rewards), sum(rewards)
    ...     child.total_sq = sum(r * r for r in rewards)
    ...     parent.children.append(child)
    >>> parent.visits = 6
    >>> UCB1Tuned()(parent, 0.0).move  # means 0.5 vs 0.4
    0
    >>> UCB1Tuned()(parent, 1.0).move  # the uncertain child: 0.4 + 0.67 > 0.5 + 0.47
    1
    >>> UCB1Tuned(scale=100.0)(parent, 100.0).move == UCB1Tuned()(parent, 1.0).move
    True
    """

    scale: float = 1.0

    def __post_init__(self) -> None:
        if not self.scale > 0:
            raise OptionError(f"scale must be > 0, got {self.scale!r}")

    def __call__(self, node: Node, exploration: float) -> Node:
        inv = 1.0 / self.scale
        inv_sq = inv * inv
        two_log = 2.0 * log(node.visits)
        children = node.children
        chosen = children[0]
        best_value = -inf
        for child in children:
            n = child.visits
            mean = child.total / n
            width = two_log / n
            variance = child.total_sq / n - mean * mean
            bound = variance * inv_sq + sqrt(width)
            if bound > 0.25:
                bound = 0.25
            elif bound < 0.0:
                bound = 0.0
            value = mean * inv + exploration * sqrt(width * bound)
            if value > best_value:
                best_value = value
                chosen = child
        return chosen


_UNIT = UCB1Tuned()


def ucb1_tuned(node: Node, exploration: float) -> Node:
    """UCB1-TUNED for rewards in [0, 1]: ``UCB1Tuned(scale=1.0)``.

    Examples
    --------
    >>> parent = Node(None)
    >>> for move, (visits, total) in enumerate([(3, 2.4), (1, 0.5)]):
    ...     child = Node(None, move, parent)
    ...     child.visits, child.total, child.total_sq = visits, total, total * total / visits
    ...     parent.children.append(child)
    >>> parent.visits = 4
    >>> ucb1_tuned(parent, 0.1).move, ucb1_tuned(parent, 10.0).move
    (0, 1)
    """
    return _UNIT(node, exploration)
