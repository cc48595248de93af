"""Kakuro instances: :class:`KakuroInstance`, the generator, a text format.

An all-blank ``size x size`` grid to fill with ``1..values``, all different
in every row and column, each row and column summing to its hint (the
"empty" Kakuro of Cazenave 2024, sec. 4.2: 10 x 10 with values 1..11, only
the 20 sums given).  :func:`generate` follows the paper: one uniform playout
(forward checking for all-different, MRV) builds a valid square (repeated
in the rare case it dead-ends), its row and column sums are the hints, and
the square is kept as the solution.

File format (:func:`read_instance`, :func:`write_instance`): blank lines and
``#`` comments are skipped; the first line is ``size values``; the second
the ``size`` column sums; then one line per row, its sum, optionally
followed by the row's ``size`` solution values (all rows or none), laid out
as the paper prints a solved problem::

    # Kakuro
    3 4
    7 8 7
    8 1 3 4
    7 4 1 2
    7 2 4 1

Examples
--------
>>> instance = generate(10, 11, seed=5)
>>> instance.row_sums, instance.col_sums
((58, 61, 61, 57, 63, 62, 59, 65, 56, 64), (64, 61, 62, 58, 61, 57, 63, 65, 56, 59))
>>> all(55 <= s <= 65 for s in instance.row_sums + instance.col_sums)   # 66 minus the value a line omits
True
>>> generate(10, 11, seed=5) == instance
True
"""

from __future__ import annotations

import os

import numpy as np

from ...errors import OptionError
from ...parse import ParseError
from . import kernels
from ..instance_files import words as split_words

__all__ = ["KakuroInstance", "generate", "read_instance", "write_instance"]


def _positive(name: str, value) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise OptionError(f"{name} must be a positive int, got {value!r}")
    return int(value)


class KakuroInstance:
    """The hints of an all-blank Kakuro square, and the solution they were made from, if known.

    Parameters
    ----------
    row_sums, col_sums : sequence of int
        One hint per row and per column (``size`` each).
    values : int
        Cells take ``1..values`` (``size <= values <= 62``).
    solution : 2-D array-like of int, optional
        A ``size x size`` grid keeping every rule.

    Raises
    ------
    OptionError
        If the lengths differ, a hint is not a sum of ``size`` different
        values in ``1..values``, or the solution breaks a rule.
    """

    def __init__(self, row_sums, col_sums, values: int, solution=None) -> None:
        self.row_sums = tuple(_positive("a row sum", s) for s in row_sums)
        self.col_sums = tuple(_positive("a column sum", s) for s in col_sums)
        self.size = size = len(self.row_sums)
        self.values = _positive("values", values)
        if size < 1 or len(self.col_sums) != size:
            raise OptionError(f"{size} row sums but {len(self.col_sums)} column sums (a square needs as many)")
        if not size <= self.values <= kernels.MAX_VALUES:
            raise OptionError(f"values must be in {size}..{kernels.MAX_VALUES} for a {size} x {size} grid, "
                              f"got {self.values}")
        smallest = size * (size + 1) // 2
        largest = sum(range(self.values - size + 1, self.values + 1))
        for name, sums in (("row", self.row_sums), ("column", self.col_sums)):
            for i, s in enumerate(sums):
                if not smallest <= s <= largest:
                    raise OptionError(f"{name} {i + 1} sums to {s}: {size} different values in 1..{self.values} "
                                      f"sum to {smallest}..{largest}")
        self.solution = None
        if solution is not None:
            grid = np.array(solution, dtype=np.int64)
            if grid.shape != (size, size):
                raise OptionError(f"the solution has shape {grid.shape}, not {(size, size)}")
            from .checker import violations

            problems = violations(self, grid)
            if problems:
                raise OptionError(f"the solution breaks the rules: {problems[0]}")
            self.solution = grid.astype(np.int8)
            self.solution.flags.writeable = False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KakuroInstance):
            return NotImplemented
        same = (self.solution is None) == (other.solution is None) and (
            self.solution is None or np.array_equal(self.solution, other.solution))  # type: ignore[arg-type]
        return (self.row_sums, self.col_sums, self.values) == (other.row_sums, other.col_sums, other.values) and same

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        known = "with" if self.solution is not None else "without"
        return f"KakuroInstance({self.size}x{self.size}, values 1..{self.values}, {known} solution)"

    def render(self, grid=None) -> str:
        """The hints (column sums on top, row sums on the left) and ``grid`` (default all blank).

        >>> print(KakuroInstance((8, 7, 7), (7, 8, 7), 4, [[1, 3, 4], [4, 1, 2], [2, 4, 1]]).render())
          7 8 7
        8 . . .
        7 . . .
        7 . . .
        """
        cells = np.zeros((self.size, self.size), np.int64) if grid is None else np.asarray(grid)
        width = max(len(str(self.values)), max(len(str(s)) for s in self.col_sums))
        hint = max(len(str(s)) for s in self.row_sums)
        lines = [" " * (hint + 1) + " ".join(str(s).rjust(width) for s in self.col_sums)]
        for s, row in zip(self.row_sums, cells):
            lines.append(str(s).rjust(hint) + " " + " ".join((str(int(v)) if v else ".").rjust(width) for v in row))
        return "\n".join(lines)


def generate(size: int = 10, values: int = 11, *, seed: int | np.random.Generator | None = 0,
             attempts: int = 1000) -> KakuroInstance:
    """A random instance: one uniform playout fills the square; its sums are the hints.

    Parameters
    ----------
    size : int, default 10
    values : int, default 11
        Cells take ``1..values`` (``size <= values <= 62``).
    seed : int, numpy.random.Generator or None
        The one source of randomness.
    """
    size = _positive("size", size)
    values = _positive("values", values)
    if not size <= values <= kernels.MAX_VALUES:
        raise OptionError(f"values must be in {size}..{kernels.MAX_VALUES} for a {size} x {size} grid, got {values}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    done, grid = kernels.playouts_until_full(np.zeros(size * size, np.int8), size, values, rng, attempts)
    if grid.min() == 0:  # pragma: no cover - never seen: the first playout nearly always fills the grid
        raise RuntimeError(f"no full {size} x {size} square in {attempts} playouts")
    square = grid.reshape(size, size).astype(np.int64)
    return KakuroInstance(tuple(int(s) for s in square.sum(axis=1)), tuple(int(s) for s in square.sum(axis=0)),
                          values, square)


def read_instance(path: str | os.PathLike) -> KakuroInstance:
    """Read an instance in the format of the module docstring.

    Raises :class:`~hornermcts.parse.ParseError` naming file, line and
    column (also for hints or a solution that break the rules); OSError if
    the file cannot be read.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "k.txt")
    >>> write_instance(path, KakuroInstance((8, 7, 7), (7, 8, 7), 4, [[1, 3, 4], [4, 1, 2], [2, 4, 1]]))
    >>> print(open(path).read(), end="")
    # Kakuro: size values, the column sums, then each row's sum (and its solution values)
    3 4
    7 8 7
    8 1 3 4
    7 4 1 2
    7 2 4 1
    >>> read_instance(path).solution.tolist()
    [[1, 3, 4], [4, 1, 2], [2, 4, 1]]
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("3 4\\n7 8 7\\n8\\n7 1 2\\n")
    >>> read_instance(path)
    Traceback (most recent call last):
    ...
    hornermcts.parse.ParseError: ...k.txt:4:1: a row is its sum alone or its sum and 3 values, found 3 entries...
    """
    filename = os.fsdecode(os.fspath(path))
    header: list[int] | None = None
    col_sums: list[int] | None = None
    rows: list[list[int]] = []
    last = (0, "")
    with open(path, encoding="utf-8") as handle:
        for lineno, raw in enumerate(handle, start=1):
            words = split_words(raw)
            if not words:
                continue
            last = (lineno, raw)

            def fail(reason: str, col: int) -> ParseError:
                return ParseError(reason, filename=filename, lineno=lineno, col=col, text=raw)  # noqa: B023

            numbers = []
            for col, word in words:
                if not word.isdigit():
                    raise fail(f"{word[:20]!r} is not a non-negative integer", col)
                numbers.append(int(word))
            if header is None:
                if len(numbers) != 2 or not 1 <= numbers[0] <= numbers[1] <= kernels.MAX_VALUES:
                    raise fail(f"expected 'size values' with 1 <= size <= values <= {kernels.MAX_VALUES}", 1)
                header = numbers
                continue
            size = header[0]
            if col_sums is None:
                if len(numbers) != size:
                    raise fail(f"expected {size} column sums, found {len(numbers)}", 1)
                col_sums = numbers
                continue
            if len(rows) == size:
                raise fail(f"more than {size} rows", 1)
            if len(numbers) not in (1, size + 1):
                raise fail(f"a row is its sum alone or its sum and {size} values, found {len(numbers)} entries", 1)
            if rows and len(numbers) != len(rows[0]):
                raise fail("every row gives its solution values, or none does", 1)
            rows.append(numbers)
    lineno, raw = last
    if header is None or col_sums is None or len(rows) != header[0]:
        raise ParseError("the file ends early: expected 'size values', the column sums and one line per row",
                         filename=filename, lineno=lineno, col=1, text=raw)
    solution = [row[1:] for row in rows] if len(rows[0]) > 1 else None
    try:
        return KakuroInstance([row[0] for row in rows], col_sums, header[1], solution)
    except OptionError as error:
        raise ParseError(str(error), filename=filename, lineno=lineno, col=1, text=raw) from None


def write_instance(path: str | os.PathLike, instance: KakuroInstance) -> None:
    """Write ``instance`` (and its solution, if known) in the format of the module docstring."""
    lines = ["# Kakuro: size values, the column sums, then each row's sum (and its solution values)",
             f"{instance.size} {instance.values}", " ".join(map(str, instance.col_sums))]
    for r, s in enumerate(instance.row_sums):
        row = [str(s)]
        if instance.solution is not None:
            row += [str(int(v)) for v in instance.solution[r]]
        lines.append(" ".join(row))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
