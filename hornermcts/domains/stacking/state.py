"""The state of the event simulation at a decision instant: what a tree node of the stacking problem keeps.

Three read-only NumPy arrays, cheap to copy and never mutated:

``stacks``
    int32, the items of stack 0 from bottom to top, then those of stack 1, ...
``heights``
    int32, the number of items in each stack.
``counters``
    int64: the current instant (an index into the instance's ``dates``), the
    relocations made so far, the due-date inversions in the stacks (items
    lying above an earlier due date) and the items not yet released.

Its lower bound on the relocations of every completion is
``relocations + inversions`` (each inverted item must move at least once more:
the item below it leaves first).
"""

from __future__ import annotations

import numpy as np

__all__ = ["StackingState"]


class StackingState:
    """A decision state: the stacks, the instant, the relocations so far, the inversions, the items to release.

    Equal states have equal arrays; states pickle by value.

    Examples
    --------
    >>> state = StackingState(np.array([0, 2, 1], np.int32), np.array([2, 1], np.int32), np.array([4, 1, 1, 3]))
    >>> state.stack(0).tolist(), state.stack(1).tolist()
    ([0, 2], [1])
    >>> state.instant, state.relocations, state.inversions, state.unreleased, state.bound
    (4, 1, 1, 3, 2)
    >>> state == StackingState(np.array([0, 2, 1]), np.array([2, 1]), np.array([4, 1, 1, 3]))
    True
    >>> state
    StackingState(instant=4, relocations=1, inversions=1, unreleased=3, stacks=[[0, 2], [1]])
    """

    __slots__ = ("stacks", "heights", "counters")
    stacks: np.ndarray
    heights: np.ndarray
    counters: np.ndarray

    def __init__(self, stacks, heights, counters) -> None:
        for name, value, dtype in (("stacks", stacks, np.int32), ("heights", heights, np.int32),
                                   ("counters", counters, np.int64)):
            array = np.asarray(value, dtype=dtype)
            if array.flags.writeable:
                array = array.copy() if array is value else array
                array.setflags(write=False)
            object.__setattr__(self, name, array)

    def __setattr__(self, name, value):
        raise AttributeError("StackingState is immutable")

    def __getstate__(self):
        return self.stacks, self.heights, self.counters

    def __setstate__(self, arrays):
        for name, array in zip(self.__slots__, arrays):
            object.__setattr__(self, name, array)

    @property
    def instant(self) -> int:
        """The index of the current date in the instance's ``dates``."""
        return int(self.counters[0])

    @property
    def relocations(self) -> int:
        """Relocations made so far."""
        return int(self.counters[1])

    @property
    def inversions(self) -> int:
        """Items lying above an earlier due date."""
        return int(self.counters[2])

    @property
    def unreleased(self) -> int:
        """Items not released yet."""
        return int(self.counters[3])

    @property
    def bound(self) -> int:
        """The inversion lower bound: relocations so far + inversions."""
        return int(self.counters[1] + self.counters[2])

    @property
    def is_leaf(self) -> bool:
        """Everything released and no inversion left: no more relocation is needed."""
        return self.unreleased == 0 and self.inversions == 0

    def stack(self, s: int) -> np.ndarray:
        """The items of stack ``s``, bottom to top."""
        start = int(self.heights[:s].sum())
        return self.stacks[start:start + int(self.heights[s])]

    def __eq__(self, other) -> bool:
        if not isinstance(other, StackingState):
            return NotImplemented
        return (np.array_equal(self.counters, other.counters) and np.array_equal(self.heights, other.heights)
                and np.array_equal(self.stacks, other.stacks))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        stacks = [self.stack(s).tolist() for s in range(self.heights.size)]
        return (f"StackingState(instant={self.instant}, relocations={self.relocations}, "
                f"inversions={self.inversions}, unreleased={self.unreleased}, stacks={stacks})")
