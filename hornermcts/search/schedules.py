"""Cooling schedules: the exploration parameter T(i) of SA-UCT.

A schedule is any callable ``T(i, n) -> float``: ``i`` is the iteration
about to run (0-based) and ``n`` the budget in iterations. The search calls it
once per iteration and hands the value to the selection rule (UCT uses it as
``Cp`` in eq. 3, which is SA-UCT's eq. 5). ``n`` may be a float and may be
``inf``: under a time limit the search passes the number of iterations the
run is projected to reach, so ``i / n`` is the elapsed fraction of the time.
Write formulas in terms of ``i / n`` so ``n = inf`` means "just started".

The schedules of Ruijl et al. (ICAART 2014):

- :class:`ConstantSchedule` ``T(i) = Cp``: plain UCT;
- :class:`LinearSchedule` ``T(i) = Cp (N - i) / N`` (eq. 4): SA-UCT;
- :class:`ExponentialSchedule` ``T(i) = Cp alpha^i`` or
  ``T(i) = Cp (final / Cp)^(i / N)``, the paper's suggested future work.
"""

from __future__ import annotations

from ..errors import OptionError

import math
import numbers
from dataclasses import dataclass
from typing import Callable, Union

__all__ = [
    "ConstantSchedule",
    "LinearSchedule",
    "ExponentialSchedule",
    "Schedule",
    "make_schedule",
    "SCHEDULE_NAMES",
]

Schedule = Callable[[float, float], float]


def _check_cp(cp: float) -> None:
    if not (isinstance(cp, numbers.Real) and math.isfinite(cp) and cp >= 0):
        raise OptionError(f"cp must be a finite number >= 0, got {cp!r}")


@dataclass(frozen=True)
class ConstantSchedule:
    """``T(i) = Cp`` for every iteration (UCT, eq. 3).

    Examples
    --------
    >>> ConstantSchedule(0.5)(0, 100), ConstantSchedule(0.5)(99, 100)
    (0.5, 0.5)
    """

    cp: float

    def __post_init__(self) -> None:
        _check_cp(self.cp)

    def __call__(self, i: float, n: float) -> float:
        return self.cp


@dataclass(frozen=True)
class LinearSchedule:
    """``T(i) = Cp (N - i) / N``: SA-UCT's linear cooling (eq. 4).

    ``Cp`` at ``i = 0``, reaching 0 at ``i = N`` (clamped there beyond).

    Examples
    --------
    >>> s = LinearSchedule(2.0)
    >>> [s(i, 4) for i in range(5)]
    [2.0, 1.5, 1.0, 0.5, 0.0]
    >>> s(0, float("inf"))
    2.0
    """

    cp: float

    def __post_init__(self) -> None:
        _check_cp(self.cp)

    def __call__(self, i: float, n: float) -> float:
        fraction = i / n
        return self.cp * (1.0 - fraction) if fraction < 1.0 else 0.0


@dataclass(frozen=True)
class ExponentialSchedule:
    """Exponential cooling, by rate or by end point.

    Give exactly one of

    - ``alpha`` in (0, 1]: ``T(i) = Cp alpha^i``, independent of the budget;
    - ``final`` > 0: ``T(i) = Cp (final / Cp)^(i / N)``, from ``Cp`` at
      ``i = 0`` to ``final`` at ``i = N``.

    Examples
    --------
    >>> ExponentialSchedule(1.0, alpha=0.5)(3, 100)
    0.125
    >>> s = ExponentialSchedule(1.0, final=0.01)
    >>> s(0, 10), round(s(5, 10), 12), round(s(10, 10), 12)
    (1.0, 0.1, 0.01)
    """

    cp: float
    alpha: float | None = None
    final: float | None = None

    def __post_init__(self) -> None:
        _check_cp(self.cp)
        if (self.alpha is None) == (self.final is None):
            raise OptionError("ExponentialSchedule needs exactly one of alpha= or final=")
        if self.alpha is not None and not 0.0 < self.alpha <= 1.0:
            raise OptionError(f"alpha must be in (0, 1], got {self.alpha!r}")
        if self.final is not None and not (math.isfinite(self.final) and self.final > 0.0):
            raise OptionError(f"final must be a finite number > 0, got {self.final!r}")

    def __call__(self, i: float, n: float) -> float:
        if self.alpha is not None:
            return self.cp * self.alpha**i
        if self.cp == 0.0:
            return 0.0
        return self.cp * (self.final / self.cp) ** min(i / n, 1.0)


SCHEDULE_NAMES = {
    "constant": ConstantSchedule,
    "uct": ConstantSchedule,
    "linear": LinearSchedule,
    "sa-uct": LinearSchedule,
    "sa_uct": LinearSchedule,
    "exponential": ExponentialSchedule,
}

#: ``final`` of the ``"exponential"`` schedule, as a fraction of ``Cp``.
DEFAULT_EXPONENTIAL_FINAL = 0.01


def make_schedule(schedule: Union[str, Schedule], cp: float | None) -> Schedule:
    """Turn the ``schedule=`` argument of a search into a callable.

    Parameters
    ----------
    schedule : str or callable
        ``"constant"`` (alias ``"uct"``), ``"linear"`` (aliases ``"sa-uct"``,
        ``"sa_uct"``) or ``"exponential"`` (from ``Cp`` to ``Cp / 100``
        over the budget), built with ``cp``; or any callable ``T(i, n)``,
        used as is.
    cp : float or None
        Initial exploration constant for a named schedule (default
        ``1/sqrt(2)``); must be ``None`` with a callable.

    Examples
    --------
    >>> make_schedule("linear", 2.0)
    LinearSchedule(cp=2.0)
    >>> make_schedule("cooling", 1.0)
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: unknown schedule 'cooling'; expected one of constant, uct, ...
    """
    if isinstance(schedule, str):
        try:
            kind = SCHEDULE_NAMES[schedule]
        except KeyError:
            names = ", ".join(SCHEDULE_NAMES)
            raise OptionError(
                f"unknown schedule {schedule!r}; expected one of {names}, or a callable T(i, n)"
            ) from None
        if cp is None:
            cp = 1.0 / math.sqrt(2.0)
        _check_cp(cp)
        if kind is ExponentialSchedule:
            return ExponentialSchedule(cp, final=cp * DEFAULT_EXPONENTIAL_FINAL if cp else 1.0)
        return kind(cp)
    if callable(schedule):
        if cp is not None:
            raise OptionError("cp is given but schedule is a callable: set Cp in the schedule")
        return schedule
    raise OptionError(f"schedule must be a name or a callable T(i, n), got {schedule!r}")
