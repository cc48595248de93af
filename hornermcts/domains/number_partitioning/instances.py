"""Number partitioning instances: files of integers, random instances, the thesis's substitutes.

A file holds one positive integer per line, in decimal (any size: the
numbers of the hard instances have hundreds of digits). Blank lines and
``#`` comments (whole lines or after a number) are skipped; anything else
is an error naming file and line.

The thesis (Rei, *MCTS for Combinatorial Optimization*, Table 4.1) ran the
ten instances ``hard0100`` ... ``hard1000`` of Pop and Kaarin (PK10), ``N``
numbers of about ``N`` bits each. **Those files are not public.** The
instances named so here (:data:`THESIS_INSTANCES`, :func:`thesis_instance`)
are substitutes: ``N`` integers uniform in ``[1, 2^N)`` drawn by
:func:`generate` with the seed ``N`` (fixed once and for all). The
Karmarkar-Karp discrepancies of such draws sit where the thesis's KK column
does (``log2(E+1)`` of 73.37 for ``hard0100``, about 76 for the median of
random draws; the tests check it), so they are as hard as the originals are
for KK, but the absolute values of Table 4.1 compare only loosely.

Examples
--------
>>> numbers = generate(5, seed=1)
>>> len(numbers), all(1 <= a < 2**5 for a in numbers)
(5, True)
>>> generate(5, seed=1) == numbers
True
>>> [len(thesis_instance(name)) for name in THESIS_INSTANCES[:3]]
[100, 200, 300]
"""

from __future__ import annotations

import os
import random
from typing import Iterable

from ...errors import OptionError
from ...parse import ParseError

__all__ = ["generate", "read_numbers", "write_numbers", "THESIS_INSTANCES", "thesis_instance"]

#: The names of Table 4.1's instances, ``hard0100`` (N = 100) to ``hard1000`` (N = 1000).
THESIS_INSTANCES = tuple(f"hard{n:04d}" for n in range(100, 1001, 100))


def generate(n: int, seed: int) -> list[int]:
    """``n`` integers drawn uniformly from ``[1, 2^n)``, reproducibly from ``seed``.

    The draw is Python's Mersenne Twister (:class:`random.Random`), whose
    ``getrandbits`` stream is stable across Python versions: each number is
    ``getrandbits(n)``, drawn again if it is 0.

    Examples
    --------
    >>> generate(4, seed=0)
    [13, 6, 12, 14]
    >>> generate(0, seed=0)
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: the number of integers must be a positive int, got 0
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise OptionError(f"the number of integers must be a positive int, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"the seed must be an int, got {seed!r}")
    draw = random.Random(seed).getrandbits
    numbers: list[int] = []
    while len(numbers) < n:
        value = draw(n)
        if value:
            numbers.append(value)
    return numbers


def thesis_instance(name: str) -> list[int]:
    """The substitute for one of Table 4.1's instances: ``generate(N, seed=N)`` for ``hardNNNN``.

    Examples
    --------
    >>> thesis_instance("hard0100") == generate(100, seed=100)
    True
    >>> thesis_instance("hard0150")
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: unknown instance 'hard0150': expected one of hard0100, hard0200, ..., hard1000
    """
    if name not in THESIS_INSTANCES:
        raise OptionError(f"unknown instance {name!r}: expected one of hard0100, hard0200, ..., hard1000")
    n = int(name[4:])
    return generate(n, seed=n)


def read_numbers(path: str | os.PathLike) -> list[int]:
    """The positive integers of a file, one per line (``#`` starts a comment).

    Raises :class:`~hornermcts.parse.ParseError` naming file, line and
    column for anything that is not a positive integer, and for a file
    without numbers; OSError if the file cannot be read.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "five.txt")
    >>> write_numbers(path, [8, 7, 6, 5, 4])
    >>> read_numbers(path)
    [8, 7, 6, 5, 4]
    >>> bad = os.path.join(folder, "bad.txt")
    >>> with open(bad, "w") as handle:
    ...     _ = handle.write("8\\n7  # seven\\n-6\\n")
    >>> read_numbers(bad)
    Traceback (most recent call last):
    ...
    hornermcts.parse.ParseError: ...bad.txt:3:1: -6 is not a positive integer in "-6"
    """
    filename = os.fsdecode(os.fspath(path))
    numbers: list[int] = []
    lineno = 0
    with open(path, encoding="utf-8") as handle:
        for lineno, raw in enumerate(handle, start=1):
            text = raw.split("#", 1)[0]
            word = text.strip()
            if not word:
                continue
            col = len(text) - len(text.lstrip()) + 1
            if " " in word or "\t" in word:
                raise ParseError("expected one integer per line", filename=filename, lineno=lineno, col=col,
                                 text=raw)
            try:
                value = int(word, 10)
            except ValueError:
                raise ParseError(f"{word[:40]!r} is not an integer", filename=filename, lineno=lineno, col=col,
                                 text=raw) from None
            if value < 1:
                raise ParseError(f"{word} is not a positive integer", filename=filename, lineno=lineno, col=col,
                                 text=raw)
            numbers.append(value)
    if not numbers:
        raise ParseError("no numbers in the file", filename=filename, lineno=max(lineno, 1), col=1, text="")
    return numbers


def write_numbers(path: str | os.PathLike, numbers: Iterable[int]) -> None:
    """Write ``numbers`` one per line, the format :func:`read_numbers` reads."""
    with open(path, "w", encoding="utf-8") as handle:
        for value in numbers:
            handle.write(f"{int(value)}\n")
