"""Search-tree nodes and the statistics they keep.

A :class:`Node` holds what every selection rule of the project needs
(UCT, SA-UCT, SP-MCTS, UCB1-TUNED, the thesis' best-vs-average and
normalised rules): visits, the sum and the sum of squares of the rewards
backed up through it, the best and worst of them, and the best complete
move sequence seen through it.
"""

from __future__ import annotations

from math import inf, sqrt
from typing import Any

__all__ = ["Node"]


class Node:
    """One state in the search tree.

    Attributes
    ----------
    state : object or None
        The problem state; ``None`` until first visited for children created
        by full expansion (computed lazily by the expansion rule).
    move : object
        The move from ``parent`` to this node (``None`` at the root).
    parent : Node or None
    depth : int
        Number of moves from the root.
    children : list of Node
        Children in the tree, in creation order.
    untried : list or None
        Legal moves not yet turned into children (single expansion); ``None``
        until the node is expanded, ``[]`` once all are used or if terminal.
    unvisited : list of Node
        Children created but never visited (full expansion), visited first.
    visits : int
        Number of rewards backed up through this node.
    total, total_sq : float
        Sum and sum of squares of those rewards.
    best, worst : float
        Largest and smallest of them (``-inf`` / ``inf`` before any).
    best_moves : list or None
        The complete move sequence *from the root* of the reward ``best``;
        shared between nodes, never mutated (see :attr:`best_path`).
        ``None`` under Rei's loop (``mcts(value="best", ...)``), which keeps
        only the run's best path: one path per node would hold depth x nodes
        moves.
    terminal_reward : float or None
        The cached reward if the node is known to be terminal.
    memo : object
        Scratch space for a selection rule: values it derives from this
        node's statistics, kept between calls so that a node whose statistics
        did not change is not recomputed. ``None`` until a rule stores
        something; the rule tags what it stores (with itself and
        :attr:`visits`, which every backpropagation changes) so that it never
        reads another rule's values or stale ones. Code that edits the
        statistics by hand without changing ``visits`` should reset it to
        ``None``.
    children_memo : object
        Scratch space for a selection rule's summary of this node's children
        between two choices at this node (``None`` until stored). A rule may
        rely on the children's statistics changing only through
        :func:`~hornermcts.search.mcts.backpropagate` of iterations passing
        through this node; code that edits them by hand should reset it to
        ``None``.

    The thesis' adaptations (Rei 2016, ch. 3; used when the search runs
    with ``value="best"``, ``normalize=``, ``prune=`` or ``interleave=``)
    add:

    own : float, Infeasible or None
        The outcome of this node's own simulation (the playout that created
        it), kept so that its best can be recomputed after pruning.
    bound : float or None
        The problem's bound on this node's state, in the search's
        maximisation sense, once computed (branch-and-bound).
    passes : int
        Descents that reached this node while it could still be expanded
        (the counter of selection interleaving, θ).
    infeasible : int
        Infeasible outcomes backed up through this node (t•; the feasible
        tally t◇ is ``visits - infeasible``).
    least_violation, most_violation : float
        Smallest and largest violation of those outcomes (b• and w•;
        ``inf`` / ``-inf`` before any). ``best`` and ``worst`` count
        feasible outcomes only.
    done : bool
        Everything under this node has been seen: it is terminal, or all
        its moves are expanded and all its children are done (the search
        marks it, :func:`~hornermcts.search.mcts.mark_done`, when it keeps
        the whole tree; Rei's managed loop removes such nodes instead).

    Examples
    --------
    >>> root = Node("s0")
    >>> child = Node("s1", move="a", parent=root)
    >>> root.children.append(child)
    >>> child.depth, child.mean
    (1, 0.0)
    >>> print(root.to_str())
    root: visits=0
      'a': visits=0
    """

    __slots__ = (
        "state",
        "move",
        "parent",
        "depth",
        "children",
        "untried",
        "unvisited",
        "visits",
        "total",
        "total_sq",
        "best",
        "worst",
        "best_moves",
        "terminal_reward",
        "memo",
        "children_memo",
        "own",
        "bound",
        "passes",
        "infeasible",
        "least_violation",
        "most_violation",
        "done",
    )

    def __init__(self, state: Any, move: Any = None, parent: Node | None = None) -> None:
        self.state = state
        self.move = move
        self.parent = parent
        self.depth = 0 if parent is None else parent.depth + 1
        self.children: list[Node] = []
        self.untried: list | None = None
        self.unvisited: list[Node] = []
        self.visits = 0
        self.total = 0.0
        self.total_sq = 0.0
        self.best = -inf
        self.worst = inf
        self.best_moves: list | None = None
        self.terminal_reward: float | None = None
        self.memo: Any = None
        self.children_memo: Any = None
        self.own: Any = None
        self.bound: float | None = None
        self.passes = 0
        self.infeasible = 0
        self.least_violation = inf
        self.most_violation = -inf
        self.done = False

    @property
    def mean(self) -> float:
        """Average reward, 0.0 before any visit."""
        return self.total / self.visits if self.visits else 0.0

    @property
    def variance(self) -> float:
        """Population variance of the rewards, 0.0 before any visit."""
        if not self.visits:
            return 0.0
        mean = self.total / self.visits
        return max(self.total_sq / self.visits - mean * mean, 0.0)

    @property
    def std(self) -> float:
        """Population standard deviation of the rewards."""
        return sqrt(self.variance)

    @property
    def best_path(self) -> tuple:
        """The moves from this node to the terminal state of :attr:`best`."""
        if self.best_moves is None:
            return ()
        return tuple(self.best_moves[self.depth :])

    @property
    def is_terminal(self) -> bool:
        """True once the node is known to be terminal."""
        return self.terminal_reward is not None

    def size(self) -> int:
        """Number of nodes in the subtree rooted here (created ones included)."""
        count = 0
        stack = [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children)
        return count

    def height(self) -> int:
        """Depth of the deepest node of this subtree, relative to the root."""
        deepest = self.depth
        stack = [self]
        while stack:
            node = stack.pop()
            if node.depth > deepest:
                deepest = node.depth
            stack.extend(node.children)
        return deepest

    def describe(self) -> str:
        """One line: move, visits, mean, best, terminal mark."""
        label = "root" if self.parent is None else repr(self.move)
        text = f"{label}: visits={self.visits}"
        if self.visits:
            text += f" mean={self.mean:.6g} best={self.best:.6g}"
        if self.terminal_reward is not None:
            text += " terminal"
        return text

    def to_str(self, max_depth: int = 1, max_children: int | None = None) -> str:
        """Readable indented view of the subtree, children by visits.

        Parameters
        ----------
        max_depth : int, default 1
            Levels below this node to show (0: this node only).
        max_children : int, optional
            Show at most this many children per node (the most visited).
        """
        lines: list[str] = []

        def walk(node: Node, level: int) -> None:
            lines.append("  " * level + node.describe())
            if level >= max_depth:
                return
            kids = sorted(node.children, key=lambda c: -c.visits)
            if max_children is not None and len(kids) > max_children:
                hidden = len(kids) - max_children
                kids = kids[:max_children]
            else:
                hidden = 0
            for kid in kids:
                walk(kid, level + 1)
            if hidden:
                lines.append("  " * (level + 1) + f"... {hidden} more")

        walk(self, 0)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Node {self.describe()}>"
