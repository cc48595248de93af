"""Selection rules: which child the tree policy descends into.

A selection rule is any callable ``rule(node, exploration) -> child``. It is
called only on a node whose children have all been visited at least once
(the search visits unvisited children and untried moves first), so
``child.visits >= 1`` and ``node.visits >= len(node.children)``.
``exploration`` is the value ``T(i)`` of the cooling schedule for the current
iteration: the constant ``Cp`` for UCT, SA-UCT's decreasing temperature
otherwise. A rule may read every statistic a :class:`~.node.Node` keeps
(visits, total, total_sq, best, worst) on the node and its children, so
rules that need variance (UCB1-TUNED), the top score (SP-MCTS) or per-node
normalisation (best-vs-average, thesis ch. 3) fit the same signature.

Rules break ties in favour of the first child in ``node.children`` (creation
order, which is random under single expansion).
"""

from __future__ import annotations

from ..errors import OptionError

from dataclasses import dataclass
from math import inf, log, sqrt

from .node import Node

__all__ = ["uct", "SPMCTS"]


def uct(node: Node, exploration: float) -> Node:
    """UCT / SA-UCT: maximise ``x̄(c) + 2 T sqrt(2 ln n(s) / n(c))``.

    Eq. 3 of Ruijl et al. with ``T = Cp`` (constant schedule), eq. 5 with
    ``T = T(i)`` from a cooling schedule. ``x̄(c)`` is the mean reward of child
    ``c``, ``n(c)`` its visits, ``n(s)`` the visits of ``node``.

    Parameters
    ----------
    node : Node
        A node whose children have all been visited.
    exploration : float
        ``T``, the exploration-exploitation parameter.

    Returns
    -------
    Node
        The child of largest value (the first one on ties).

    Examples
    --------
    >>> parent = Node(None)
    >>> for move, (visits, total) in enumerate([(3, 3.0), (1, 0.5)]):
    ...     child = Node(None, move, parent)
    ...     child.visits, child.total = visits, total
    ...     parent.children.append(child)
    >>> parent.visits = 4
    >>> uct(parent, 0.0).move  # no exploration: best mean (1.0 vs 0.5)
    0
    >>> uct(parent, 1.0).move  # 1.0 + 1.92 < 0.5 + 3.33
    1
    """
    k = 2.0 * exploration * sqrt(2.0 * log(node.visits))
    children = node.children
    chosen = children[0]
    best_value = -inf
    for child in children:
        n = child.visits
        value = child.total / n + k / sqrt(n)
        if value > best_value:
            best_value = value
            chosen = child
    return chosen


@dataclass(frozen=True)
class SPMCTS:
    """The SP-MCTS rule of Schadd et al. (SameGame), with a top-score term.

    Maximises ``v + W b + C sqrt(ln n_p / n_i) + sqrt((Σr² - n_i v² + D) / n_i)``
    where ``v`` is the child's mean, ``b`` its best reward, ``Σr²`` its sum of
    squared rewards, ``n_i`` its visits and ``n_p`` the parent's; ``C`` is the
    ``exploration`` value (so cooling schedules apply to it). SP-MCTS's visit
    threshold is an expansion rule: :class:`~.expansion.ThresholdExpansion`.

    Parameters
    ----------
    d : float
        ``D``, large for rarely visited children (in reward units squared).
    w : float, default 0.0
        ``W``, the weight of the top score (the paper uses 0.02).

    Examples
    --------
    >>> parent = Node(None)
    >>> for move, rewards in enumerate([[2.0, 2.0], [0.0, 3.0]]):
    ...     child = Node(None, move, parent)
    ...     child.visits, child.total = len(rewards), sum(rewards)
    ...     child.total_sq = sum(r * r for r in rewards)
    ...     child.best = max(rewards)
    ...     parent.children.append(child)
    >>> parent.visits = 4
    >>> SPMCTS(d=0.0)(parent, 0.0).move  # mean 2.0 vs mean 1.5 + deviation 1.5
    1
    >>> SPMCTS(d=100.0)(parent, 0.0).move  # 2.0 + 7.07 vs 1.5 + 7.23
    0
    """

    d: float
    w: float = 0.0

    def __post_init__(self) -> None:
        if not self.d >= 0:
            raise OptionError(f"d must be >= 0, got {self.d!r}")

    def __call__(self, node: Node, exploration: float) -> Node:
        # Two memos make a descent cheap without changing any choice:
        #
        # - ``child.memo = (rule, visits, a, b, a + b, |a| + b)`` with
        #   ``a = v + W b_i`` and ``b`` the deviation term: everything but the
        #   exploration term, recomputed only when the child's visits changed.
        #   The value ``a + C sqrt(ln n_p / n_i) + b`` is summed in the order
        #   of the formula, so it is the same float as computed afresh.
        # - ``node.children_memo``: after a scan of all children, the chosen
        #   child ``j`` and, over the others, the largest ``a + b``, the
        #   fewest visits and the largest ``|a| + b``. The search changes the
        #   statistics of a child only by passing through its parent, so if
        #   the parent's visits grew by at most one since (the iteration sent
        #   to ``j``) and its children are the same, only ``j`` changed: when
        #   ``j``'s value beats that bound on all the others by more than any
        #   rounding, ``j`` is the scan's answer without the scan.
        children = node.children
        visits = node.visits
        log_parent = log(visits)
        summary = node.children_memo
        if summary is not None and summary[0] is self and exploration >= 0.0:
            _, listed, count, seen_visits, j, s_rest, n_rest, size_rest = summary
            if listed is children and count == len(children) and 0 <= visits - seen_visits <= 1:
                child = children[j]
                n = child.visits
                # j was visited since: its memo is stale (self._memo inlined)
                total = child.total
                mean = total / n
                deviation = child.total_sq - total * mean + self.d
                if deviation < 0.0:
                    deviation = 0.0
                a = mean + self.w * child.best
                b = sqrt(deviation / n)
                size = abs(a) + b
                child.memo = (self, n, a, b, a + b, size)
                x = exploration * sqrt(log_parent / n)
                value = a + x + b
                x_rest = exploration * sqrt(log_parent / n_rest)
                if value - (s_rest + x_rest) > 1e-12 * (size_rest + size + x + x_rest):
                    summary[3] = visits
                    return child
        chosen = 0
        best_value = -inf
        s1 = s2 = -inf  # the two largest a + b, the first at index i_s
        n1 = n2 = inf  # the two fewest visits, the first at index i_n
        m1 = m2 = 0.0  # the two largest |a| + b, the first at index i_m
        i_s = i_n = i_m = -1
        i = 0
        for child in children:
            n = child.visits
            try:
                owner, seen, a, b, s, size = child.memo
            except (TypeError, ValueError):
                owner = None
            if owner is not self or seen != n:
                owner, seen, a, b, s, size = child.memo = self._memo(child)
            value = a + exploration * sqrt(log_parent / n) + b
            if value > best_value:
                best_value = value
                chosen = i
            if s > s2:
                if s > s1:
                    s1, s2, i_s = s, s1, i
                else:
                    s2 = s
            if n < n2:
                if n < n1:
                    n1, n2, i_n = n, n1, i
                else:
                    n2 = n
            if size > m2:
                if size > m1:
                    m1, m2, i_m = size, m1, i
                else:
                    m2 = size
            i += 1
        node.children_memo = [
            self,
            children,
            i,
            visits,
            chosen,
            s2 if i_s == chosen else s1,
            n2 if i_n == chosen else n1,
            m2 if i_m == chosen else m1,
        ]
        return children[chosen]

    def _memo(self, child: Node) -> tuple:
        """``(self, visits, a, b, a + b, |a| + b)`` of ``child``, where ``a = v + W best``
        and ``b = sqrt(max(Σr² - n v² + D, 0) / n)``."""
        n = child.visits
        total = child.total
        mean = total / n
        deviation = child.total_sq - total * mean + self.d
        if deviation < 0.0:  # rounding
            deviation = 0.0
        a = mean + self.w * child.best
        b = sqrt(deviation / n)
        return (self, n, a, b, a + b, abs(a) + b)
