"""UCT with the node values of Rei's thesis (ch. 3): best or mean, normalised, infeasibility-aware.

The selection rule ``U(n) = X(n) + C sqrt(ln v_p / v_n)`` (Eq. 2.4) where
``v`` are visits and ``C`` is the exploration value of the cooling schedule,
with the exploitation term ``X(n)`` built from:

- **best instead of average** (§3.1): ``value="best"`` uses ``b_n``, the best
  outcome in the child's subtree, instead of its mean;
- **normalisation** (§3.2, Eq. 3.1): ``X◇(n) = (b_n - w_p) / (b_p - w_p)``,
  the child's value mapped onto [0, 1] by the best ``b_p`` and worst ``w_p``
  feasible outcomes under the parent (``scope="parent"``, the thesis), or
  seen by the whole run (``scope="global"``, Rei's code); ``0`` if
  ``b_p = w_p``. Written here for maximisation: a cost search maximises
  ``-cost``, and the formula is the same under that change of sign;
- **infeasibility** (§3.3, Eqs. 3.2–3.3, in the non-overlapping form of
  Rei's code): with ``t◇_p`` feasible and ``t•_p`` infeasible outcomes under
  the parent, ``T = t◇_p + t•_p``, a child whose best is feasible scores
  ``t•_p/T + (t◇_p/T) X◇(n)`` and a child with only infeasible outcomes
  ``t•_p/(T+1) X•(n)``, ``X•(n) = (w•_p - b•_n) / (w•_p - b•_p)`` over the
  violations (``b•`` the least, ``w•`` the most; ``0`` if equal). So every
  feasible child ranks above every infeasible one;
- optionally ``1 / (1 + depth)`` added (a bonus in Rei's code, not in the
  thesis: ``depth_bonus=True``).

The search (:func:`~hornermcts.search.mcts.mcts` with ``value=`` /
``normalize=``) builds the rule for each run; ``board`` is the run's global
tally (a detached :class:`~.node.Node` the search updates with every
outcome), needed only for ``scope="global"``.

Examples
--------
Two children, best outcomes 5 and 3, under a parent whose outcomes span
1..5: normalised, they score 1.0 and 0.5 before exploration.

>>> parent = Node(None)
>>> parent.visits, parent.best, parent.worst = 4, 5.0, 1.0
>>> for move, (best, worst) in enumerate([(5.0, 1.0), (3.0, 3.0)]):
...     child = Node(None, move, parent)
...     child.visits, child.best, child.worst = 2, best, worst
...     parent.children.append(child)
>>> rule = NormalisedUCT()
>>> [round(rule.exploit(parent, child), 3) for child in parent.children]
[1.0, 0.5]
>>> rule(parent, 0.0).move, rule(parent, 10.0).move  # ties on visits: the first
(0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import inf, log, sqrt

from ..errors import OptionError
from .node import Node

__all__ = ["NormalisedUCT", "VALUES", "SCOPES"]

VALUES = ("mean", "best")
SCOPES = ("parent", "global", None)


@dataclass(frozen=True)
class NormalisedUCT:
    """``U(n) = X(n) + C sqrt(ln v_p / v_n)`` with Rei's node values (see the module).

    Parameters
    ----------
    value : {"best", "mean"}, default "best"
        The child statistic: its subtree's best outcome (§3.1) or mean.
    scope : {"parent", "global", None}, default "parent"
        Normalise by the parent's best and worst (Eq. 3.1), by the run's
        (``board``), or not at all (``None``: raw values, which then must be
        feasible: infeasible outcomes need a normalisation to be ranked).
    depth_bonus : bool, default False
        Add ``1 / (1 + depth)`` of the child (Rei's code).
    board : Node, optional
        The run's global tally (required for ``scope="global"``).
    """

    value: str = "best"
    scope: str | None = "parent"
    depth_bonus: bool = False
    board: Node | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise OptionError(f"value must be 'best' or 'mean', got {self.value!r}")
        if self.scope not in SCOPES:
            raise OptionError(f"normalize must be 'parent', 'global' or None, got {self.scope!r}")
        if self.scope == "global" and self.board is None:
            raise OptionError("normalize='global' needs the run's board (the search supplies it)")

    def exploit(self, parent: Node, child: Node) -> float:
        """``X(child)``, the exploitation term (see the module)."""
        ref = self.board if self.scope == "global" else parent
        feasible_value = child.best if self.value == "best" else child.mean
        if self.scope is None:
            if child.best == -inf:
                raise OptionError("infeasible outcomes need normalize='parent' or 'global' to be ranked")
            return feasible_value
        total = ref.visits  # type: ignore[union-attr]
        infeasible = ref.infeasible  # type: ignore[union-attr]
        if child.best > -inf:  # the child has a feasible outcome
            b, w = ref.best, ref.worst  # type: ignore[union-attr]
            x = (feasible_value - w) / (b - w) if b != w else 0.0
            if infeasible:
                return infeasible / total + (total - infeasible) / total * x
            return x
        least, most = ref.least_violation, ref.most_violation  # type: ignore[union-attr]
        x = (most - child.least_violation) / (most - least) if most != least else 0.0
        return infeasible / (total + 1) * x

    def __call__(self, node: Node, exploration: float) -> Node:
        log_parent = log(node.visits) if node.visits > 0 else 0.0
        ref = self.board if self.scope == "global" else node
        if self.scope is None or ref.infeasible:  # type: ignore[union-attr]
            return self._general(node, exploration, log_parent)
        # every outcome below is feasible: X is the normalised value, written out (the search's
        # innermost loop: one pass per level of every descent, hundreds of levels in number partitioning)
        b, w = ref.best, ref.worst  # type: ignore[union-attr]
        span = b - w
        best_value = self.value == "best"
        depth_bonus = self.depth_bonus
        chosen = node.children[0]
        best_score = -inf
        for child in node.children:
            visits = child.visits
            x = ((child.best if best_value else child.total / visits) - w) / span if span else 0.0
            score = x + exploration * sqrt(log_parent / visits)
            if depth_bonus:
                score += 1.0 / (1.0 + child.depth)
            if score > best_score:
                best_score = score
                chosen = child
        return chosen

    def _general(self, node: Node, exploration: float, log_parent: float) -> Node:
        """Selection with :meth:`exploit`, which ranks infeasible outcomes too."""
        value_of = self.exploit
        chosen = node.children[0]
        best_score = -inf
        for child in node.children:
            score = value_of(node, child) + exploration * sqrt(log_parent / child.visits)
            if self.depth_bonus:
                score += 1.0 / (1.0 + child.depth)
            if score > best_score:
                best_score = score
                chosen = child
        return chosen
