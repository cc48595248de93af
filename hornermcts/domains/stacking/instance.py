"""A stacking-problem instance: the items' release and due dates, the number of stacks, and its calendar.

Items are numbered ``0 .. n-1``; item ``i`` enters the store at ``release[i]``
and must leave it at ``due[i] > release[i]``, both dates met exactly
(Rei 2016, ch. 5).  The *calendar* lists the distinct event dates in order
and, for each date (an *instant*), the items delivered and the items released
then; the releases of an instant are sorted by decreasing due date, the order
in which the FO simulation releases them (ties are broken at random there).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import OptionError
from .kernels import calendar_arrays

__all__ = ["StackingInstance"]


def _frozen(values, dtype) -> np.ndarray:
    array = np.array(values, dtype=dtype)
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class StackingInstance:
    """Items with release and due dates, and ``width`` stacks with no height limit.

    Parameters
    ----------
    release, due : sequence of int
        ``release[i] < due[i]`` for every item ``i``.
    width : int
        The number of stacks, at least 2 (a relocation needs a second stack).
    name : str, optional

    Attributes
    ----------
    dates : ndarray of int64
        The distinct release and due dates, increasing: instant ``k`` is ``dates[k]``.
    release_instant, due_instant : ndarray of int32
        The instant of each item's release and delivery.
    releases_start, releases : ndarray of int32
        The items released at instant ``k`` are ``releases[releases_start[k]:releases_start[k + 1]]``,
        by decreasing due date (then by item).
    deliveries_start, deliveries : ndarray of int32
        The same for the items delivered at instant ``k`` (by item).
    capacity : int
        A bound on the items present at once: the most there would be if every instant released its
        items before delivering any (the size each stack's working array needs).

    Examples
    --------
    >>> inst = StackingInstance([0, 1, 1], [3, 4, 3], width=2, name="tiny")
    >>> inst.items, inst.dates.tolist(), inst.capacity
    (3, [0, 1, 3, 4], 3)
    >>> inst.releases_at(1).tolist(), inst.deliveries_at(2).tolist()  # instant 2 is date 3
    ([1, 2], [0, 2])
    >>> StackingInstance([2], [2], width=2)
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: item 0: release 2 is not before due 2
    """

    release: np.ndarray
    due: np.ndarray
    width: int
    name: str = "instance"
    dates: np.ndarray = field(init=False, repr=False)
    release_instant: np.ndarray = field(init=False, repr=False)
    due_instant: np.ndarray = field(init=False, repr=False)
    releases_start: np.ndarray = field(init=False, repr=False)
    releases: np.ndarray = field(init=False, repr=False)
    deliveries_start: np.ndarray = field(init=False, repr=False)
    deliveries: np.ndarray = field(init=False, repr=False)
    capacity: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        release = np.asarray(self.release)
        due = np.asarray(self.due)
        if release.ndim != 1 or release.shape != due.shape or release.size == 0:
            raise OptionError(f"release and due must be two non-empty lists of one length, got {release.shape} "
                              f"and {due.shape}")
        if not (np.issubdtype(release.dtype, np.integer) and np.issubdtype(due.dtype, np.integer)):
            raise OptionError("release and due dates must be integers")
        bad = np.flatnonzero(release >= due)
        if bad.size:
            i = int(bad[0])
            raise OptionError(f"item {i}: release {int(release[i])} is not before due {int(due[i])}")
        if release.min() < 0 or due.max() >= 2**62:
            raise OptionError("dates must lie in [0, 2**62)")
        if isinstance(self.width, bool) or not isinstance(self.width, (int, np.integer)) or self.width < 2:
            raise OptionError(f"width (the number of stacks) must be an integer >= 2, got {self.width!r}")
        dates, releases_start, releases, deliveries_start, deliveries = calendar_arrays(release, due)
        release_instant = np.searchsorted(dates, release)
        due_instant = np.searchsorted(dates, due)
        delivered_before = np.cumsum(np.diff(deliveries_start)) - np.diff(deliveries_start)
        present = np.cumsum(np.diff(releases_start)) - delivered_before
        values = dict(release=_frozen(release, np.int64), due=_frozen(due, np.int64), width=int(self.width),
                      dates=_frozen(dates, np.int64), release_instant=_frozen(release_instant, np.int32),
                      due_instant=_frozen(due_instant, np.int32), releases=_frozen(releases, np.int32),
                      releases_start=_frozen(releases_start, np.int32), deliveries=_frozen(deliveries, np.int32),
                      deliveries_start=_frozen(deliveries_start, np.int32), capacity=int(present.max()))
        for key, value in values.items():
            object.__setattr__(self, key, value)

    @property
    def items(self) -> int:
        """The number of items."""
        return int(self.release.size)

    @property
    def calendar(self) -> tuple:
        """``(dates, releases_start, releases, deliveries_start, deliveries)``, as the kernels take it."""
        return self.dates, self.releases_start, self.releases, self.deliveries_start, self.deliveries

    def releases_at(self, instant: int) -> np.ndarray:
        """The items released at ``instant``, by decreasing due date."""
        return self.releases[self.releases_start[instant]:self.releases_start[instant + 1]]

    def deliveries_at(self, instant: int) -> np.ndarray:
        """The items delivered at ``instant``."""
        return self.deliveries[self.deliveries_start[instant]:self.deliveries_start[instant + 1]]

    def __repr__(self) -> str:
        return f"StackingInstance({self.name!r}, items={self.items}, width={self.width})"
