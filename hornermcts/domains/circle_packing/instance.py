"""A recursive circle packing instance: a rectangular container and tube types; its text format.

The container is the rectangle with corners ``(0, 0)`` and ``(width, height)``
(Rei 2016, sec. 6.1). A tube type has an external radius ``r_ext``, an
internal radius ``r_int`` (``0 <= r_int < r_ext``; ``0`` is a solid rod), a
value and a number of copies: the thesis counts ``A`` individual tubes, and
copies of one type are interchangeable, so an instance lists each type once
with its count. A tube of type ``i`` may telescope into a tube of type ``k``
exactly when ``r_int[k] >= r_ext[i]``.

Text format (``.txt``; ``#`` starts a comment; blank lines are ignored; one
record per line, words separated by blanks)::

    name small03-substitute        # optional, at most once
    container WIDTH HEIGHT         # exactly once, before or after the tubes
    tube R_EXT R_INT VALUE [COUNT] # one line per tube type; COUNT defaults to 1

Numbers are decimal (``1e3`` accepted); ``COUNT`` is an integer ``>= 1``.
Types are numbered in file order from 0. :func:`read_instance` and
:func:`parse_instance` raise :class:`~hornermcts.parse.ParseError` naming
file, line and column; :func:`format_instance` writes the same format back
(radii and values with ``repr`` precision, so a round trip is exact).

Examples
--------
>>> inst = parse_instance('''
... container 100 60
... tube 30 25 10 2   # two thick tubes
... tube 12 0 3 5     # five rods, which fit inside them
... ''', filename="toy.txt")
>>> inst.width, inst.height, inst.types, inst.tubes
(100.0, 60.0, 2, 7)
>>> inst.fits_inside(1, 0), inst.fits_inside(0, 1)
(True, False)
>>> parse_instance("container 100 60\\ntube 10 12 1", filename="bad.txt")
Traceback (most recent call last):
...
hornermcts.parse.ParseError: bad.txt:2:9: internal radius 12 must be below the external radius 10 in "tube 10 12 1"
"""

from __future__ import annotations

import math
import os

import numpy as np
from numpy.typing import ArrayLike

from ...parse import ParseError

__all__ = ["Instance", "parse_instance", "read_instance", "format_instance", "write_instance"]


def _frozen(values, dtype) -> np.ndarray:
    array = np.array(values, dtype=dtype)
    array.setflags(write=False)
    return array


class Instance:
    """A container ``width`` x ``height`` and tube types (one entry per type in each array).

    Parameters
    ----------
    width, height : float
        The container, ``> 0``.
    r_ext, r_int, value : sequence of float
        Per type: external radius ``> 0``, internal radius in ``[0, r_ext)``,
        value ``>= 0`` (Eq. 6.1 sums the values of the packed tubes).
    count : sequence of int
        Per type: copies available, ``>= 1``.
    name : str
        A label (the substitute instances say ``-substitute`` in it).
    note : str
        Free text, e.g. how a substitute was generated.

    Invalid values raise :class:`~hornermcts.errors.OptionError`. The
    arrays are read only.

    Examples
    --------
    >>> inst = Instance(10, 5, r_ext=[2, 1], r_int=[1.5, 0], value=[4, 1], count=[1, 3])
    >>> inst.area(0) == math.pi * 4, inst.tubes, inst.container_fits(0)
    (True, 4, True)
    >>> Instance(10, 5, r_ext=[2], r_int=[2], value=[1], count=[1])
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: tube type 0: internal radius 2.0 must be below the external radius 2.0
    """

    __slots__ = ("width", "height", "r_ext", "r_int", "value", "count", "name", "note")

    width: float
    height: float
    r_ext: np.ndarray
    r_int: np.ndarray
    value: np.ndarray
    count: np.ndarray
    name: str
    note: str

    def __init__(self, width: float, height: float, r_ext: ArrayLike, r_int: ArrayLike, value: ArrayLike,
                 count: ArrayLike, *, name: str = "instance", note: str = "") -> None:
        from ...errors import OptionError

        self.name = str(name)
        self.note = str(note)
        sizes = []
        for label, number in (("width", width), ("height", height)):
            number = float(number)
            if not (math.isfinite(number) and number > 0):
                raise OptionError(f"container {label} must be a finite number > 0, got {number}")
            sizes.append(number)
        self.width, self.height = sizes
        given = {"r_ext": r_ext, "r_int": r_int, "value": value, "count": count}
        arrays = {key: np.asarray(a, dtype=float).ravel() for key, a in given.items()}
        lengths = {len(a) for a in arrays.values()}
        if len(lengths) != 1 or 0 in lengths:
            raise OptionError("r_ext, r_int, value and count need one entry per tube type (at least one type)")
        for i in range(len(arrays["r_ext"])):
            re_, ri, v, c = (float(arrays[k][i]) for k in ("r_ext", "r_int", "value", "count"))
            if not (math.isfinite(re_) and re_ > 0):
                raise OptionError(f"tube type {i}: external radius must be a finite number > 0, got {re_}")
            if not (math.isfinite(ri) and 0 <= ri < re_):
                raise OptionError(f"tube type {i}: internal radius {ri} must be below the external radius {re_}")
            if not (math.isfinite(v) and v >= 0):
                raise OptionError(f"tube type {i}: value must be a finite number >= 0, got {v}")
            if not (c >= 1 and c == int(c)):
                raise OptionError(f"tube type {i}: count must be an integer >= 1, got {c}")
        self.r_ext = _frozen(arrays["r_ext"], np.float64)
        self.r_int = _frozen(arrays["r_int"], np.float64)
        self.value = _frozen(arrays["value"], np.float64)
        self.count = _frozen(arrays["count"], np.int64)

    @property
    def types(self) -> int:
        """Number of tube types."""
        return len(self.r_ext)

    @property
    def tubes(self) -> int:
        """Number of individual tubes (copies of every type)."""
        return int(self.count.sum())

    def area(self, kind: int) -> float:
        """The cross-section a tube of type ``kind`` takes in its holder: ``pi r_ext^2``."""
        return math.pi * float(self.r_ext[kind]) ** 2

    def fits_inside(self, inner: int, outer: int) -> bool:
        """Whether type ``inner`` may telescope into type ``outer`` (``r_int[outer] >= r_ext[inner]``)."""
        return bool(self.r_int[outer] >= self.r_ext[inner])

    def container_fits(self, kind: int) -> bool:
        """Whether one tube of type ``kind`` fits in the empty container."""
        return bool(2 * self.r_ext[kind] <= min(self.width, self.height))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Instance):
            return NotImplemented
        return (self.name == other.name and self.width == other.width and self.height == other.height
                and all(np.array_equal(getattr(self, k), getattr(other, k))
                        for k in ("r_ext", "r_int", "value", "count")))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Instance({self.name!r}, {self.width:g} x {self.height:g}, {self.types} types, "
                f"{self.tubes} tubes)")


def _number(words: list[str], field: int, what: str, fail) -> float:
    word = words[field]
    try:
        number = float(word)
    except ValueError:
        fail(f"{what} {word!r} is not a number", field)
    if not math.isfinite(number):
        fail(f"{what} {word!r} is not finite", field)
    return number


def parse_instance(text: str, *, filename: str = "<string>") -> Instance:
    """Read an instance from ``text`` in the format of this module's docstring.

    Raises :class:`~hornermcts.parse.ParseError` (``filename:line:column:
    reason``) for anything malformed: an unknown record, a missing or extra
    field, a number out of range, no or two ``container`` lines, no tube.
    """
    width = height = None
    name = os.path.splitext(os.path.basename(filename))[0] if filename != "<string>" else "instance"
    named = False
    r_ext: list[float] = []
    r_int: list[float] = []
    value: list[float] = []
    count: list[int] = []
    last = 1
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        words = line.split()
        if not words:
            continue
        last = lineno
        starts = []
        position = 0
        for word in words:
            position = line.index(word, position)
            starts.append(position + 1)
            position += len(word)

        def fail(reason: str, field: int = 0, *, _raw=raw, _lineno=lineno, _starts=starts) -> None:
            raise ParseError(reason, filename=filename, lineno=_lineno, col=_starts[field], text=_raw)

        keyword = words[0].lower()
        if keyword == "name":
            if named or len(words) != 2:
                fail("'name' takes one word and appears at most once", 0)
            name, named = words[1], True
        elif keyword == "container":
            if width is not None:
                fail("a second 'container' line", 0)
            if len(words) != 3:
                fail(f"'container' takes WIDTH HEIGHT, got {len(words) - 1} field(s)", 0)
            width = _number(words, 1, "width", fail)
            height = _number(words, 2, "height", fail)
            for field, number in ((1, width), (2, height)):
                if number <= 0:
                    fail(f"container size {words[field]} must be > 0", field)
        elif keyword == "tube":
            if len(words) not in (4, 5):
                fail(f"'tube' takes R_EXT R_INT VALUE [COUNT], got {len(words) - 1} field(s)", 0)
            re_ = _number(words, 1, "external radius", fail)
            ri = _number(words, 2, "internal radius", fail)
            v = _number(words, 3, "value", fail)
            if re_ <= 0:
                fail(f"external radius {words[1]} must be > 0", 1)
            if not 0 <= ri < re_:
                fail(f"internal radius {words[2]} must be below the external radius {words[1]}"
                     if ri >= re_ else f"internal radius {words[2]} must be >= 0", 2)
            if v < 0:
                fail(f"value {words[3]} must be >= 0", 3)
            c = 1
            if len(words) == 5:
                try:
                    c = int(words[4])
                except ValueError:
                    fail(f"count {words[4]!r} is not an integer", 4)
                if c < 1:
                    fail(f"count {words[4]} must be >= 1", 4)
            r_ext.append(re_)
            r_int.append(ri)
            value.append(v)
            count.append(c)
        else:
            fail(f"unknown record {words[0]!r} (expected name, container or tube)", 0)
    if width is None or height is None:
        raise ParseError("no 'container WIDTH HEIGHT' line", filename=filename, lineno=last, col=1, text="")
    if not r_ext:
        raise ParseError("no 'tube' line", filename=filename, lineno=last, col=1, text="")
    return Instance(width, height, r_ext, r_int, value, count, name=name)


def read_instance(path: str | os.PathLike) -> Instance:
    """Read an instance file (see :func:`parse_instance`); OSError if it cannot be read."""
    with open(path, encoding="utf-8") as handle:
        return parse_instance(handle.read(), filename=os.fspath(path))


def format_instance(instance: Instance) -> str:
    """The text of ``instance`` in this module's format (exact round trip).

    >>> inst = Instance(10, 5, r_ext=[2, 1], r_int=[1.5, 0], value=[4, 1], count=[1, 3], name="toy")
    >>> print(format_instance(inst), end="")
    name toy
    container 10.0 5.0
    # tube R_EXT R_INT VALUE COUNT
    tube 2.0 1.5 4.0 1
    tube 1.0 0.0 1.0 3
    >>> parse_instance(format_instance(inst)) == inst
    True
    """
    lines = []
    if instance.note:
        lines += [f"# {part}" for part in instance.note.splitlines()]
    lines.append(f"name {instance.name}")
    lines.append(f"container {instance.width!r} {instance.height!r}")
    lines.append("# tube R_EXT R_INT VALUE COUNT")
    for i in range(instance.types):
        lines.append(f"tube {float(instance.r_ext[i])!r} {float(instance.r_int[i])!r} "
                     f"{float(instance.value[i])!r} {int(instance.count[i])}")
    return "\n".join(lines) + "\n"


def write_instance(instance: Instance, path: str | os.PathLike) -> None:
    """Write ``instance`` to ``path`` (see :func:`format_instance`)."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(format_instance(instance))
