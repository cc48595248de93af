"""A packing (the solution of an instance), its value (Eq. 6.1) and an independent checker.

A :class:`Packing` lists placed tubes in placement order: tube type
``kinds[j]``, holder ``holders[j]`` (``-1`` for the container, otherwise the
index ``< j`` of the placement it telescopes into) and centre ``(xs[j],
ys[j])``. Its value is the sum of the values of the placed tubes, wherever
they are (Eq. 6.1: ``V = sum_i v_i (w_i + sum_k u_ki)``).

:func:`check_packing` verifies a packing from scratch in plain Python (none
of the compiled kernels that built it): every tube inside its holder, no two
tubes with the same holder overlapping, telescoping only into tubes with
``r_int >= r_ext`` of the child, no type used more often than its count; all
geometric tests with the slack ``tolerance`` (the constructions keep
:data:`~hornermcts.domains.circle_packing.geometry.TOLERANCE`). It returns
the recomputed value, or raises :class:`InvalidPacking` listing every
violation.

Examples
--------
>>> from hornermcts.domains.circle_packing import Instance
>>> inst = Instance(10, 6, r_ext=[3, 1], r_int=[2, 0], value=[5, 1], count=[1, 2])
>>> good = Packing(kinds=[0, 1, 1], holders=[-1, 0, -1], xs=[3, 3, 7], ys=[3, 2, 1])
>>> check_packing(inst, good)
7.0
>>> bad = Packing(kinds=[0, 1, 1], holders=[-1, 0, 0], xs=[3, 3, 3], ys=[3, 2, 3])
>>> check_packing(inst, bad)
Traceback (most recent call last):
...
hornermcts.domains.circle_packing.packing.InvalidPacking: tubes 1 and 2 (both in tube 0) overlap by 1
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ...errors import HornerMCTSError
from .instance import Instance

__all__ = ["Packing", "InvalidPacking", "check_packing", "packing_violations", "as_packing"]

CHECK_TOLERANCE = 1e-6


class InvalidPacking(HornerMCTSError, ValueError):
    """A packing breaks a constraint of its instance (the message lists the violations)."""


def _frozen(values, dtype) -> np.ndarray:
    array = np.array(values, dtype=dtype).ravel()
    array.setflags(write=False)
    return array


class Packing:
    """Placed tubes in placement order (parallel arrays, read only; see the module docstring)."""

    __slots__ = ("kinds", "holders", "xs", "ys")

    kinds: np.ndarray
    holders: np.ndarray
    xs: np.ndarray
    ys: np.ndarray

    def __init__(self, kinds: ArrayLike, holders: ArrayLike, xs: ArrayLike, ys: ArrayLike) -> None:
        self.kinds = _frozen(kinds, np.int64)
        self.holders = _frozen(holders, np.int64)
        self.xs = _frozen(xs, np.float64)
        self.ys = _frozen(ys, np.float64)
        if not len(self.kinds) == len(self.holders) == len(self.xs) == len(self.ys):
            from ...errors import OptionError

            raise OptionError("kinds, holders, xs and ys need one entry per placed tube")

    def __len__(self) -> int:
        return len(self.kinds)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Packing):
            return NotImplemented
        return all(np.array_equal(getattr(self, k), getattr(other, k)) for k in ("kinds", "holders", "xs", "ys"))

    __hash__ = None  # type: ignore[assignment]

    def value(self, instance: Instance) -> float:
        """Eq. 6.1: the total value of the placed tubes (not checked; see :func:`check_packing`)."""
        return float(math.fsum(instance.value[self.kinds].tolist()))

    def depth(self, j: int) -> int:
        """How many tubes hold placement ``j`` (0 if it lies directly in the container)."""
        d = 0
        h = int(self.holders[j])
        while h >= 0:
            d += 1
            h = int(self.holders[h])
        return d

    def rows(self) -> list[tuple[int, int, float, float]]:
        """``(kind, holder, x, y)`` per placed tube, as Python numbers."""
        return [(int(k), int(h), float(x), float(y))
                for k, h, x, y in zip(self.kinds, self.holders, self.xs, self.ys)]

    def __repr__(self) -> str:
        return f"Packing({len(self)} tubes)"


def packing_violations(instance: Instance, packing: Packing, *, tolerance: float = CHECK_TOLERANCE) -> list[str]:
    """Every constraint of ``instance`` that ``packing`` breaks, one message each (empty if feasible)."""
    problems: list[str] = []
    n = len(packing)
    kinds = [int(k) for k in packing.kinds]
    holders = [int(h) for h in packing.holders]
    xs = [float(x) for x in packing.xs]
    ys = [float(y) for y in packing.ys]
    used = [0] * instance.types
    for j in range(n):
        k = kinds[j]
        if not 0 <= k < instance.types:
            problems.append(f"tube {j} has type {k}, not one of 0..{instance.types - 1}")
            return problems
        used[k] += 1
        if not (math.isfinite(xs[j]) and math.isfinite(ys[j])):
            problems.append(f"tube {j} has a non-finite centre ({xs[j]}, {ys[j]})")
            return problems
    for k in range(instance.types):
        if used[k] > instance.count[k]:
            problems.append(f"type {k} used {used[k]} times, only {int(instance.count[k])} available")
    children: dict[int, list[int]] = {}
    for j in range(n):
        h = holders[j]
        r = float(instance.r_ext[kinds[j]])
        if h == -1:
            slack = min(xs[j] - r, instance.width - r - xs[j], ys[j] - r, instance.height - r - ys[j])
            if slack < -tolerance:
                problems.append(f"tube {j} sticks out of the container by {-slack:g}")
        elif 0 <= h < j:
            ri = float(instance.r_int[kinds[h]])
            if ri < r:
                problems.append(f"tube {j} (r_ext {r:g}) telescoped into tube {h} (r_int {ri:g})")
            else:
                out = math.hypot(xs[j] - xs[h], ys[j] - ys[h]) + r - ri
                if out > tolerance:
                    problems.append(f"tube {j} sticks out of tube {h} by {out:g}")
        else:
            problems.append(f"tube {j} has holder {h}: expected -1 or an earlier tube (0..{j - 1})")
            continue
        children.setdefault(h, []).append(j)
    for h, kids in sorted(children.items()):
        where = "the container" if h == -1 else f"tube {h}"
        for a in range(len(kids)):
            for b in range(a + 1, len(kids)):
                i, j = kids[a], kids[b]
                need = float(instance.r_ext[kinds[i]] + instance.r_ext[kinds[j]])
                overlap = need - math.hypot(xs[i] - xs[j], ys[i] - ys[j])
                if overlap > tolerance:
                    problems.append(f"tubes {i} and {j} (both in {where}) overlap by {overlap:g}")
    return problems


def check_packing(instance: Instance, packing: Packing, *, tolerance: float = CHECK_TOLERANCE) -> float:
    """Verify ``packing`` independently and return its value (Eq. 6.1).

    Raises :class:`InvalidPacking` naming every violation.
    """
    problems = packing_violations(instance, packing, tolerance=tolerance)
    if problems:
        raise InvalidPacking("; ".join(problems))
    return packing.value(instance)


def as_packing(rows: Sequence[tuple[int, int, float, float]]) -> Packing:
    """A :class:`Packing` from ``(kind, holder, x, y)`` rows.

    >>> as_packing([(0, -1, 3.0, 3.0), (1, 0, 3.0, 2.0)]).rows()
    [(0, -1, 3.0, 3.0), (1, 0, 3.0, 2.0)]
    """
    if not rows:
        return Packing([], [], [], [])
    kinds, holders, xs, ys = zip(*rows)
    return Packing(kinds, holders, xs, ys)
