"""Latin square completion instances: :class:`LatinSquareInstance`, the generator, a text format.

A Latin square of order ``n`` fills an ``n x n`` grid with ``1..n`` so that
no value repeats in a row or a column; an *instance* is such a grid with
blanks (0), to be completed.  :func:`generate` follows Cazenave (2024, sec.
4.1): a full square built by uniform playouts from the empty grid (forward
checking, MRV and full channeling, repeated until one fills the grid; the
first one almost always does), kept as the solution, then ``round(blanks *
n * n)`` cells blanked, chosen uniformly at random.  One seed gives one
instance.

File format (:func:`read_instance`, :func:`write_instance`): blank lines and
``#`` comments (whole lines or line ends) are skipped; the first number is
the order ``n``; then ``n`` rows of ``n`` entries separated by blanks, each
a value ``1..n`` or ``.`` (or ``0``) for a blank; then, optionally, ``n``
more rows: a full solution::

    # order
    3
    1 . 3
    . 3 .
    3 . 2
    # solution
    1 2 3
    2 3 1
    3 1 2

Examples
--------
>>> instance = generate(6, blanks=0.5, seed=1)
>>> instance.order, instance.blank_count, instance.solution is not None
(6, 18, True)
>>> generate(6, blanks=0.5, seed=1) == instance
True
>>> print(instance.render())
4 6 . 5 2 .
3 . . . . 2
6 4 . . 1 .
. . 5 . . .
. 2 . 3 4 1
1 3 . 6 5 .
"""

from __future__ import annotations

import os

import numpy as np

from ...errors import OptionError
from ...parse import ParseError
from . import kernels
from ..instance_files import words as split_words

__all__ = ["LatinSquareInstance", "generate", "read_instance", "write_instance", "format_grid"]


def _grid(name: str, values, order: int | None) -> np.ndarray:
    try:
        grid = np.array(values, dtype=np.int64)
    except (TypeError, ValueError):
        raise OptionError(f"the {name} must be a square grid of ints") from None
    if grid.ndim != 2 or grid.shape[0] != grid.shape[1] or grid.shape[0] < 1:
        raise OptionError(f"the {name} must be a square grid, got shape {grid.shape}")
    n = grid.shape[0]
    if order is not None and n != order:
        raise OptionError(f"the {name} has order {n}, not {order}")
    if n > kernels.MAX_ORDER:
        raise OptionError(f"order {n} is above the largest supported, {kernels.MAX_ORDER}")
    if grid.min() < 0 or grid.max() > n:
        raise OptionError(f"the {name} holds values outside 0..{n}")
    grid = grid.astype(np.int8)
    grid.flags.writeable = False
    return grid


def format_grid(grid, blank: str = ".") -> str:
    """Rows of a grid as text, ``blank`` for 0, columns aligned.

    >>> print(format_grid([[1, 0], [10, 2]]))
     1  .
    10  2
    """
    rows = np.asarray(grid)
    width = max(len(str(int(rows.max()))), len(blank))
    return "\n".join(" ".join((str(int(v)) if v else blank).rjust(width) for v in row) for row in rows)


class LatinSquareInstance:
    """A partial Latin square to complete, and the solution it was made from, if known.

    Parameters
    ----------
    givens : 2-D array-like of int
        The ``n x n`` grid, 0 for a blank, ``1..n`` for a given value.
    solution : 2-D array-like of int, optional
        A full Latin square that agrees with the givens.

    Raises
    ------
    OptionError
        If a grid is not square or holds values outside ``0..n``, if the
        givens repeat a value in a line, or if the solution is not a Latin
        square completing the givens.

    Attributes
    ----------
    order : int
    givens, solution : numpy.ndarray or None
        Read-only int8 ``n x n`` arrays.
    """

    def __init__(self, givens, solution=None) -> None:
        self.givens = _grid("givens", givens, None)
        self.order = int(self.givens.shape[0])
        from .checker import violations

        problems = violations(self.givens, self.givens, complete=False)
        if problems:
            raise OptionError(f"the givens break the rules: {problems[0]}")
        self.solution = None
        if solution is not None:
            self.solution = _grid("solution", solution, self.order)
            problems = violations(self.givens, self.solution)
            if problems:
                raise OptionError(f"the solution does not complete the givens: {problems[0]}")

    @property
    def blank_count(self) -> int:
        """The number of blank cells."""
        return int((self.givens == 0).sum())

    def render(self, grid=None) -> str:
        """The givens (or ``grid``) as rows of text, ``.`` for a blank."""
        return format_grid(self.givens if grid is None else grid)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LatinSquareInstance):
            return NotImplemented
        same_solution = (self.solution is None and other.solution is None) or (
            self.solution is not None and other.solution is not None
            and np.array_equal(self.solution, other.solution))
        return np.array_equal(self.givens, other.givens) and same_solution

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        known = "with" if self.solution is not None else "without"
        return f"LatinSquareInstance(order {self.order}, {self.blank_count} blanks, {known} solution)"


def full_square(order: int, rng: np.random.Generator, *, attempts: int = 1000) -> np.ndarray:
    """A random full Latin square: uniform playouts (FC, MRV, full channeling) from the empty grid.

    >>> full_square(4, np.random.default_rng(0)).tolist()
    [[3, 1, 2, 4], [1, 3, 4, 2], [4, 2, 3, 1], [2, 4, 1, 3]]
    """
    n = order
    empty = np.zeros(n * n, np.int8)
    done, grid = kernels.playouts_until_solved(empty, n, kernels.FULL, np.zeros(n ** 3), np.zeros(1), False, rng,
                                               attempts)
    if grid.min() == 0:  # pragma: no cover - never seen: the first playout nearly always fills the grid
        raise RuntimeError(f"no full Latin square of order {n} in {attempts} playouts")
    return grid.reshape(n, n).astype(np.int8)


def generate(order: int = 20, *, blanks: float = 0.42, seed: int | np.random.Generator | None = 0
             ) -> LatinSquareInstance:
    """A random instance: a full square by playouts, ``round(blanks * order**2)`` cells blanked at random.

    Parameters
    ----------
    order : int, default 20
        ``n``, in ``1..62``.
    blanks : float, default 0.42
        The fraction of blank cells (the phase transition of the paper's
        Fig. 2 is at 0.42 for order 20).
    seed : int, numpy.random.Generator or None
        The one source of randomness (square and blanks).
    """
    if isinstance(order, bool) or not isinstance(order, (int, np.integer)) or not 1 <= order <= kernels.MAX_ORDER:
        raise OptionError(f"the order must be an int in 1..{kernels.MAX_ORDER}, got {order!r}")
    if not (isinstance(blanks, (int, float)) and 0.0 <= blanks <= 1.0):
        raise OptionError(f"blanks must be a fraction in [0, 1], got {blanks!r}")
    n = int(order)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    square = full_square(n, rng)
    holes = rng.choice(n * n, int(round(blanks * n * n)), replace=False)
    givens = square.copy().reshape(-1)
    givens[holes] = 0
    return LatinSquareInstance(givens.reshape(n, n), square)


def read_instance(path: str | os.PathLike) -> LatinSquareInstance:
    """Read an instance in the format of the module docstring.

    Raises :class:`~hornermcts.parse.ParseError` naming file, line and
    column (also for givens that break the rules or a solution that does
    not complete them); OSError if the file cannot be read.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "l.txt")
    >>> write_instance(path, LatinSquareInstance([[1, 0], [0, 0]], [[1, 2], [2, 1]]))
    >>> print(open(path).read(), end="")
    # Latin square completion: order, then the rows ('.' blank), then a solution
    2
    1 .
    . .
    # solution
    1 2
    2 1
    >>> read_instance(path).solution.tolist()
    [[1, 2], [2, 1]]
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("2\\n1 .\\n. 3\\n")
    >>> read_instance(path)
    Traceback (most recent call last):
    ...
    hornermcts.parse.ParseError: ...l.txt:3:3: value '3' is not '.' or an integer in 0..2 in ". 3"
    """
    filename = os.fsdecode(os.fspath(path))
    order = None
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

            if order is None:
                col, word = words[0]
                if len(words) != 1 or not word.isdigit() or not 1 <= int(word) <= kernels.MAX_ORDER:
                    raise fail(f"expected the order, one integer in 1..{kernels.MAX_ORDER}", col)
                order = int(word)
                continue
            if len(rows) == 2 * order:
                raise fail(f"more than {2 * order} rows (the givens and a solution)", words[0][0])
            if len(words) != order:
                raise fail(f"a row needs {order} entries, found {len(words)}", words[0][0])
            row = []
            for col, word in words:
                value = 0 if word == "." else (int(word) if word.isdigit() else -1)
                if not 0 <= value <= order:
                    raise fail(f"value {word[:20]!r} is not '.' or an integer in 0..{order}", col)
                row.append(value)
            rows.append(row)
    lineno, raw = last
    if order is None or len(rows) not in (order, 2 * order):
        expected = "the order" if order is None else f"{order} or {2 * order} rows"
        raise ParseError(f"the file ends early: expected {expected}", filename=filename, lineno=lineno,
                         col=1, text=raw)
    try:
        return LatinSquareInstance(rows[:order], rows[order:] or None)
    except OptionError as error:
        raise ParseError(str(error), filename=filename, lineno=lineno, col=1, text=raw) from None


def write_instance(path: str | os.PathLike, instance: LatinSquareInstance) -> None:
    """Write ``instance`` (and its solution, if known) in the format of the module docstring."""
    lines = ["# Latin square completion: order, then the rows ('.' blank), then a solution",
             str(instance.order), format_grid(instance.givens)]
    if instance.solution is not None:
        lines += ["# solution", format_grid(instance.solution)]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
