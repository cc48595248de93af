"""0/1 knapsack instances: the :class:`KnapsackInstance`, random instances, a text format.

File format: the first number is the capacity, then one item per line,
``value weight`` (positive integers, separated by blanks). Blank lines and
``#`` comments (whole lines or at the end of a line) are skipped; anything
else is an error naming file, line and column::

    # capacity
    10
    # value weight
    10 5
    40 4
    30 6
    50 3

Examples
--------
>>> instance = KnapsackInstance(values=(10, 40, 30, 50), weights=(5, 4, 6, 3), capacity=10)
>>> instance.n, instance.total_weight
(4, 18)
>>> generate(5, seed=0) == generate(5, seed=0)
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ...errors import OptionError
from ...parse import ParseError
from ..instance_files import words as split_words

__all__ = ["KnapsackInstance", "generate", "read_instance", "write_instance", "CORRELATIONS"]

#: How values follow weights in :func:`generate` (Pisinger's classic instance types).
CORRELATIONS = ("none", "weak", "strong")


def _positive_ints(name: str, items) -> tuple:
    out = []
    for i, x in enumerate(items):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or x < 1:
            raise OptionError(f"{name} {i + 1} is {x!r}: {name}s must be positive ints")
        out.append(int(x))
    return tuple(out)


@dataclass(frozen=True)
class KnapsackInstance:
    """Items with positive integer values and weights, and a capacity: pack the most value that fits.

    Attributes
    ----------
    values, weights : tuple of int
        Item ``i`` is worth ``values[i]`` and weighs ``weights[i]``.
    capacity : int
        The largest total weight allowed (``>= 0``).
    """

    values: tuple
    weights: tuple
    capacity: int

    def __post_init__(self) -> None:
        values = _positive_ints("value", self.values)
        weights = _positive_ints("weight", self.weights)
        if len(values) != len(weights):
            raise OptionError(f"{len(values)} values but {len(weights)} weights")
        if not values:
            raise OptionError("a knapsack instance needs at least one item")
        capacity = self.capacity
        if isinstance(capacity, (bool, np.bool_)) or not isinstance(capacity, (int, np.integer)) or capacity < 0:
            raise OptionError(f"the capacity must be an int >= 0, got {capacity!r}")
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "capacity", int(capacity))

    @property
    def n(self) -> int:
        """The number of items."""
        return len(self.values)

    @property
    def total_weight(self) -> int:
        """The weight of all items together."""
        return sum(self.weights)

    def value_of(self, items) -> int:
        """The value of a set of item indices; OptionError if they do not fit (or repeat).

        >>> KnapsackInstance((10, 40, 30, 50), (5, 4, 6, 3), 10).value_of([1, 3])
        90
        """
        chosen = sorted(items)
        if len(set(chosen)) != len(chosen) or any(not 0 <= i < self.n for i in chosen):
            raise OptionError(f"items {chosen} are not distinct indices in 0..{self.n - 1}")
        weight = sum(self.weights[i] for i in chosen)
        if weight > self.capacity:
            raise OptionError(f"items {chosen} weigh {weight}, more than the capacity {self.capacity}")
        return sum(self.values[i] for i in chosen)


def generate(n: int, seed: int | np.random.Generator | None = 0, *, max_weight: int = 1000,
             correlation: str = "none", capacity_ratio: float = 0.5) -> KnapsackInstance:
    """``n`` random items, weights uniform in ``[1, max_weight]``, capacity a fraction of their weight.

    Values: uniform in ``[1, max_weight]`` (``correlation="none"``), the weight
    plus a uniform offset in ``[-max_weight/10, max_weight/10]`` kept
    ``>= 1`` (``"weak"``), or the weight plus ``max_weight/10``
    (``"strong"``, the hardest for branch-and-bound). The capacity is
    ``floor(capacity_ratio * total weight)``.

    Examples
    --------
    >>> instance = generate(4, seed=1, max_weight=20, correlation="strong")
    >>> [v - w for v, w in zip(instance.values, instance.weights)], instance.capacity * 2 <= sum(instance.weights)
    ([2, 2, 2, 2], True)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise OptionError(f"the number of items must be a positive int, got {n!r}")
    if isinstance(max_weight, bool) or not isinstance(max_weight, int) or max_weight < 1:
        raise OptionError(f"max_weight must be a positive int, got {max_weight!r}")
    if correlation not in CORRELATIONS:
        raise OptionError(f"unknown correlation {correlation!r}: expected one of {', '.join(CORRELATIONS)}")
    if not 0 <= capacity_ratio <= 1:
        raise OptionError(f"capacity_ratio must be in [0, 1], got {capacity_ratio!r}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    weights = rng.integers(1, max_weight, size=n, endpoint=True)
    spread = max(max_weight // 10, 1)
    if correlation == "none":
        values = rng.integers(1, max_weight, size=n, endpoint=True)
    elif correlation == "weak":
        values = np.maximum(weights + rng.integers(-spread, spread, size=n, endpoint=True), 1)
    else:
        values = weights + spread
    capacity = int(capacity_ratio * int(weights.sum()))
    return KnapsackInstance(tuple(int(v) for v in values), tuple(int(w) for w in weights), capacity)


def read_instance(path: str | os.PathLike) -> KnapsackInstance:
    """Read the capacity, then ``value weight`` per line (see the module's format).

    Raises :class:`~hornermcts.parse.ParseError` naming file, line and
    column; OSError if the file cannot be read.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "k.txt")
    >>> write_instance(path, KnapsackInstance((10, 40), (5, 4), 6))
    >>> read_instance(path)
    KnapsackInstance(values=(10, 40), weights=(5, 4), capacity=6)
    >>> with open(path, "a") as handle:
    ...     _ = handle.write("7 x\\n")
    >>> read_instance(path)
    Traceback (most recent call last):
    ...
    hornermcts.parse.ParseError: ...k.txt:6:3: weight 'x' is not a positive integer in "7 x"
    """
    filename = os.fsdecode(os.fspath(path))
    capacity = None
    values: list[int] = []
    weights: list[int] = []
    lineno = 0

    def number(word: str, what: str, col: int, raw: str, minimum: int) -> int:
        try:
            value = int(word, 10)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            kind = "a positive integer" if minimum == 1 else "an integer >= 0"
            raise ParseError(f"{what} {word[:40]!r} is not {kind}", filename=filename, lineno=lineno, col=col,
                             text=raw)
        return value

    with open(path, encoding="utf-8") as handle:
        for lineno, raw in enumerate(handle, start=1):
            words = split_words(raw)
            if not words:
                continue
            if capacity is None:
                if len(words) != 1:
                    raise ParseError("the first line must hold the capacity alone", filename=filename,
                                     lineno=lineno, col=words[1][0], text=raw)
                capacity = number(words[0][1], "capacity", words[0][0], raw, 0)
                continue
            if len(words) != 2:
                col = words[2][0] if len(words) > 2 else words[0][0]
                raise ParseError(f"expected 'value weight', got {len(words)} field(s)", filename=filename,
                                 lineno=lineno, col=col, text=raw)
            values.append(number(words[0][1], "value", words[0][0], raw, 1))
            weights.append(number(words[1][1], "weight", words[1][0], raw, 1))
    if capacity is None or not values:
        what = "capacity" if capacity is None else "item"
        raise ParseError(f"no {what} in the file", filename=filename, lineno=max(lineno, 1), col=1, text="")
    return KnapsackInstance(tuple(values), tuple(weights), capacity)


def write_instance(path: str | os.PathLike, instance: KnapsackInstance) -> None:
    """Write ``instance`` in the format :func:`read_instance` reads."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"# capacity\n{instance.capacity}\n# value weight\n")
        for value, weight in zip(instance.values, instance.weights):
            handle.write(f"{value} {weight}\n")
