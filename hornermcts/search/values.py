"""What a simulation scores: rewards, costs, and infeasible outcomes.

A problem scores a terminal state with ``reward(state)`` (higher is better)
or ``cost(state)`` (lower is better: the thesis' minimisation, Rei 2016).
Either may return :class:`Infeasible` for a solution that breaks a
constraint, carrying its degree of violation (Rei §3.3): an infeasible
outcome ranks below every feasible one, and among infeasible outcomes the
smaller violation is better.

Inside the search everything is a maximisation over floats (a cost ``c`` is
searched as the reward ``-c``; bounds likewise), so one tree and one set of
selection rules serve both senses; results are reported back in the
problem's own sense (:func:`external`).

Examples
--------
>>> class Cheap:
...     def cost(self, s): return 3.0 if s else Infeasible(2.0)
>>> score = outcome(Cheap())
>>> score(True), score(False)
(-3.0, Infeasible(2.0))
>>> better(-3.0, Infeasible(2.0)), better(Infeasible(1.0), Infeasible(2.0))
(True, True)
>>> external(Cheap(), -3.0), is_cost_problem(Cheap())
(3.0, True)
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..errors import OptionError

__all__ = ["Infeasible", "outcome", "upper_bound", "better", "external", "is_cost_problem", "defines"]


class Infeasible:
    """An infeasible outcome with its degree of violation (``> 0``; smaller is nearer feasible).

    Compares equal to another with the same violation; ordering between
    outcomes is :func:`better`, not ``<`` (a feasible value and an infeasible
    one are not numbers on one scale).

    Examples
    --------
    >>> Infeasible(3) == Infeasible(3.0), Infeasible(0.5)
    (True, Infeasible(0.5))
    >>> Infeasible(-1)
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: Infeasible needs a violation > 0 (a finite real), got -1
    """

    __slots__ = ("violation",)

    def __init__(self, violation: float) -> None:
        try:
            value = float(violation)
        except (TypeError, ValueError):
            value = math.nan
        if not (value > 0 and math.isfinite(value)):
            raise OptionError(f"Infeasible needs a violation > 0 (a finite real), got {violation!r}")
        self.violation = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Infeasible) and other.violation == self.violation

    def __hash__(self) -> int:
        return hash(("Infeasible", self.violation))

    def __repr__(self) -> str:
        return f"Infeasible({self.violation!r})"


def defines(problem: Any, name: str) -> bool:
    """True if ``problem`` has a method ``name`` of its own (the protocol's placeholders do not count)."""
    method = getattr(problem, name, None)
    return callable(method) and not getattr(method, "protocol_placeholder", False)


def is_cost_problem(problem: Any) -> bool:
    """True if ``problem`` scores by ``cost`` (minimise) rather than ``reward``."""
    return defines(problem, "cost") and not defines(problem, "reward")


def outcome(problem: Any) -> Callable[[Any], Any]:
    """The function ``terminal_state -> value`` the search maximises.

    A float (the reward, or minus the cost) or an :class:`Infeasible`;
    raises OptionError for NaN or a value that is not a real number.
    """
    if is_cost_problem(problem):
        cost = problem.cost

        def score(state: Any) -> Any:
            value = cost(state)
            if value.__class__ is Infeasible:
                return value
            return -_real(value, "cost", state)

        return score
    reward = problem.reward

    def score_reward(state: Any) -> Any:
        value = reward(state)
        if value.__class__ is Infeasible:
            return value
        return _real(value, "reward", state)

    return score_reward


def _real(value: Any, name: str, state: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise OptionError(f"problem.{name} returned {value!r} for state {state!r}, not a real number") from None
    if number != number:
        raise OptionError(f"problem.{name} returned NaN for state {state!r}")
    return number


def upper_bound(problem: Any) -> Callable[[Any], float]:
    """``state -> float``: the problem's ``bound`` in the search's maximisation sense.

    A reward problem's ``bound`` is an upper bound on the reward; a cost
    problem's is a lower bound on the cost, returned negated. Raises
    OptionError if the problem has no ``bound``.
    """
    bound = getattr(problem, "bound", None)
    if not callable(bound):
        raise OptionError("prune=True needs a problem.bound(state) method (branch-and-bound)")
    if is_cost_problem(problem):
        return lambda state: -float(bound(state))
    return lambda state: float(bound(state))


def better(new: Any, old: Any) -> bool:
    """True if outcome ``new`` is strictly better than ``old`` (floats maximised, Infeasible below all floats)."""
    if new.__class__ is Infeasible:
        return old.__class__ is Infeasible and new.violation < old.violation
    return old.__class__ is Infeasible or new > old


def external(problem: Any, value: Any) -> Any:
    """A search value in the problem's own sense: the cost for a cost problem (Infeasible unchanged)."""
    if value.__class__ is Infeasible or not is_cost_problem(problem):
        return value
    return -value
