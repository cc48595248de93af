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
``reward(terminal_state)`` *or* ``cost(terminal_state)``
    A float: a reward, higher is better, or a cost, lower is better (a
    problem defines one of the two; a cost problem's results report costs).
    It may be :class:`~.values.Infeasible` ``(violation)`` for a solution
    that breaks a constraint: it then ranks below every feasible one (Rei's
    ch. 3; searched with ``value="best"`` or ``normalize=``). It must be
    deterministic: terminal nodes inside the tree cache it.
``playout(state, rng)`` *(optional)*
    ``(terminal_state, moves_played)`` finishing ``state``; every random
    draw from ``rng``, a :class:`numpy.random.Generator`. Without it the
    search uses :func:`~hornermcts.search.playout.random_playout`.

Further optional methods, looked up by name by the algorithms that use them:

``bound(state)``
    An optimistic bound: no terminal state reachable from ``state`` has a
    larger reward (a reward problem), or a smaller cost (a cost problem)
    (branch-and-bound: ``mcts(..., prune=True)``).
``iter_moves(state)``
    An iterator over the moves of ``state``, in the order they should be
    tried, computed only as far as needed (``mcts(..., expansion="lazy")``).
``prior(state, move)`` / ``heuristic(state, move)``
    A non-negative preference for ``move`` in ``state`` (biased playouts,
    progressive bias); :func:`~hornermcts.search.nested.nrpa` with
    ``prior="problem"`` uses ``β = τ log prior`` (0 excludes the move).
``move_code(state, move)``
    A hashable code for ``move`` in ``state``, the key of an NRPA/GNRPA
    policy weight (default: the move itself, which must then be hashable).
``prior_code(state, move)``
    The code a learned :class:`~hornermcts.search.prior.Prior` counts
    (Replay; default ``move_code``).
``code_count`` and ``coded_playout(state, weights, bias, rng)``
    The fast path of NRPA/GNRPA: integer codes in ``range(code_count)`` and
    a compiled playout reading the weights (and the bias table) as NumPy
    arrays; see :mod:`hornermcts.search.policy`.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, TypeVar

from .playout import random_playout
from .values import Infeasible, defines, is_cost_problem, upper_bound

__all__ = ["Problem", "check_problem", "ContractError"]

State = TypeVar("State")
Move = TypeVar("Move")

REQUIRED_METHODS = ("root", "moves", "apply")
SCORES = ("reward", "cost")  # a problem defines one of them


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
        """Return the (deterministic) reward of a terminal state (or define ``cost`` instead)."""
        ...

    reward.protocol_placeholder = True  # type: ignore[attr-defined]  # a subclass defining cost only is a cost problem

    def playout(self, state: State, rng: Any) -> tuple[State, Sequence[Move]]:
        """Finish ``state`` with uniform random moves (override for a policy)."""
        return random_playout(self, state, rng)


class ContractError(AssertionError):
    """A problem breaks the protocol (the message names the rule, the state and the move)."""


def check_problem(problem: Any, *, simulations: int = 0, seed: int = 0, max_moves: int = 10_000) -> None:
    """Check that ``problem`` keeps the protocol.

    Always: the required methods exist, and exactly one of ``reward`` and
    ``cost`` (TypeError otherwise); this is what every search driver checks.  With ``simulations > 0`` (what every
    domain's tests call, in the spirit of OpenSpiel's random-simulation
    test), it plays that many random games from the root and raises
    :class:`ContractError` at the first broken rule:

    - ``moves(state)`` is a sequence, the same one each call;
    - ``apply(state, move)`` leaves ``state`` unchanged and gives the same
      state each call;
    - ``reward`` (or ``cost``) of a terminal state is a real number or an
      ``Infeasible``, the same each call;
    - ``playout(state, rng)`` (if defined) is reproducible for a seeded
      ``rng``, plays legal moves only, ends in a terminal state, and
      replaying its moves with ``apply`` reaches that state and reward;
    - ``bound(state)`` (if defined) is at least the reward (at most the cost)
      of every feasible terminal state reached from ``state``; ``prior`` /
      ``heuristic`` (if defined) are non-negative.

    States are compared by their pickled bytes (so arrays compare by
    content); a state that cannot be pickled is compared by ``repr``.

    Examples
    --------
    >>> check_problem(object())
    Traceback (most recent call last):
    ...
    TypeError: problem lacks required method(s) root, moves, apply, and a reward or cost
    >>> class Leaky:
    ...     def root(self): return [0]
    ...     def moves(self, s): return (1, 2) if len(s) < 3 else ()
    ...     def apply(self, s, m): s.append(m); return s
    ...     def reward(self, s): return float(sum(s))
    >>> check_problem(Leaky(), simulations=1)
    Traceback (most recent call last):
    ...
    hornermcts.search.problem.ContractError: apply([0], 2) changed the state to [0, 2] (it must return a new state)
    """
    missing = [name for name in REQUIRED_METHODS if not callable(getattr(problem, name, None))]
    scores = [name for name in SCORES if defines(problem, name)]
    if not scores:
        missing.append("and a reward or cost")
    if missing:
        raise TypeError("problem lacks required method(s) " + ", ".join(missing))
    if len(scores) > 1:
        raise TypeError("problem defines both reward and cost: define one (reward is maximised, cost minimised)")
    if simulations:
        import numpy as np

        rng = np.random.default_rng(seed)
        for _ in range(simulations):
            _simulate(problem, rng, max_moves)


def _snapshot(state: Any) -> Any:
    import pickle

    try:
        return pickle.dumps(state)
    except Exception:  # noqa: BLE001 - any state that does not pickle is compared by its repr
        return repr(state)


def _fail(message: str) -> None:
    raise ContractError(message)


def _short(state: Any) -> str:
    text = repr(state)
    return text if len(text) <= 80 else text[:77] + "..."


def _legal(problem: Any, state: Any) -> list:
    first, second = problem.moves(state), problem.moves(state)
    if not hasattr(first, "__len__") or not hasattr(first, "__getitem__"):
        _fail(f"moves({_short(state)}) returned {type(first).__name__}, not a sequence")
    if list(first) != list(second):
        _fail(f"moves({_short(state)}) differs between two calls: {list(first)!r} then {list(second)!r}")
    return list(first)


def _terminal_reward(problem: Any, state: Any) -> Any:
    """The terminal state's score in the search's sense (maximised float, or Infeasible)."""
    import math
    import numbers

    name = "cost" if is_cost_problem(problem) else "reward"
    score = getattr(problem, name)
    first, second = score(state), score(state)
    if isinstance(first, Infeasible):
        if first != second:
            _fail(f"{name}({_short(state)}) differs between two calls: {first!r} then {second!r}")
        return first
    if not isinstance(first, numbers.Real) or math.isnan(first):  # +-inf is a real value
        _fail(f"{name}({_short(state)}) is {first!r}, not a real number")
    if first != second:
        _fail(f"{name}({_short(state)}) differs between two calls: {first!r} then {second!r}")
    return -float(first) if name == "cost" else float(first)


def _simulate(problem: Any, rng: Any, max_moves: int) -> None:
    import numpy as np

    state = problem.root()
    path = [state]
    for _ in range(max_moves):
        legal = _legal(problem, state)
        if not legal:
            break
        _check_preferences(problem, state, legal)
        move = legal[int(rng.integers(len(legal)))]
        before, shown = _snapshot(state), _short(state)
        after = problem.apply(state, move)
        if _snapshot(state) != before:
            _fail(f"apply({shown}, {move!r}) changed the state to {_short(state)} (it must return a new state)")
        if _snapshot(problem.apply(state, move)) != _snapshot(after):
            _fail(f"apply({_short(state)}, {move!r}) gives a different state each call")
        state = after
        path.append(state)
    else:
        _fail(f"no terminal state within {max_moves} moves (raise max_moves for longer games)")
    reward = _terminal_reward(problem, state)
    if callable(getattr(problem, "bound", None)) and not isinstance(reward, Infeasible):
        bound = upper_bound(problem)
        for visited in path:
            if bound(visited) < reward:
                shown = problem.bound(visited)
                if is_cost_problem(problem):
                    _fail(f"bound({_short(visited)}) = {shown!r} is above the cost {-reward!r} reached from it")
                _fail(f"bound({_short(visited)}) = {shown!r} is below the reward {reward!r} reached from it")
    playout = getattr(problem, "playout", None)
    if not callable(playout):
        return
    start = path[int(rng.integers(len(path)))]
    draw = int(rng.integers(2**32))
    final, moves = playout(start, np.random.default_rng(draw))
    again, moves_again = playout(start, np.random.default_rng(draw))
    if list(moves) != list(moves_again) or _snapshot(final) != _snapshot(again):
        _fail(f"playout({_short(start)}, rng) is not reproducible for a seeded rng")
    replay = start
    for move in moves:
        if move not in _legal(problem, replay):
            _fail(f"playout played {move!r}, not a legal move of {_short(replay)}")
        replay = problem.apply(replay, move)
    if _legal(problem, final):
        _fail(f"playout from {_short(start)} stopped at a state with legal moves")
    if _snapshot(replay) != _snapshot(final):
        _fail(f"replaying the playout's moves from {_short(start)} does not reach its terminal state")
    if _terminal_reward(problem, replay) != _terminal_reward(problem, final):
        _fail(f"replaying the playout's moves from {_short(start)} gives another reward")


def _check_preferences(problem: Any, state: Any, legal: list) -> None:
    for name in ("prior", "heuristic"):
        method = getattr(problem, name, None)
        if callable(method):
            for move in legal:
                value = method(state, move)
                if not value >= 0:
                    _fail(f"{name}({_short(state)}, {move!r}) = {value!r} is negative")
