"""Read stacking instances: Rei's text format, and instances found by name in a data folder.

The format (the files of ``2xR/rr.opt.stacking``, also ``shared/data/stacking``)::

    # comment lines anywhere
    str name   := 40_1000_0011_v0
    int width  := 40          <- number of stacks (required)
    int height := 1000        <- stack height limit (inf: none)
    int items  := 1000        <- number of item lines (required)
    --- end of header ---
        # item    release        due
             0       1019       1579

Item ids must be ``0 .. items-1``, each once (in any order); item ``i`` is
index ``i`` of the :class:`~.instance.StackingInstance`.  Only the
uncapacitated problem is solved: a ``height`` below ``items`` is refused.
Every error is a :class:`~hornermcts.parse.ParseError` naming file and line.

Names like ``40-A`` are looked up as ``<folder>/40-A.txt`` in the folder given,
else in the one named by the environment variable ``HORNERMCTS_STACKING_DATA``
(no folder of one machine is assumed).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ...errors import OptionError
from ...parse import ParseError
from .instance import StackingInstance

__all__ = ["parse_instance", "read_instance", "find_instance", "DATA_VARIABLE"]

#: The environment variable naming the folder of the instance files (``shared/data/stacking``).
DATA_VARIABLE = "HORNERMCTS_STACKING_DATA"

END_OF_HEADER = "--- end of header ---"
REQUIRED = ("width", "items")


def _column(line: str, token: str) -> int:
    return line.find(token) + 1 if token in line else 1


def _header_value(kind: str, value: str) -> object:
    if kind == "str":
        return value
    if kind == "int":
        return float("inf") if value == "inf" else int(value)
    raise ValueError(f"unknown parameter type {kind!r} (expected str or int)")


def parse_instance(text: str, *, filename: str = "<string>") -> StackingInstance:
    """Parse the text of an instance file.

    Examples
    --------
    >>> text = '''int width := 2
    ... int items := 2
    ... --- end of header ---
    ... 0 0 3
    ... 1 1 2
    ... '''
    >>> parse_instance(text, filename="two.txt")
    StackingInstance('two', items=2, width=2)
    >>> parse_instance(text.replace("1 1 2", "1 2 2"), filename="two.txt")
    Traceback (most recent call last):
    ...
    hornermcts.parse.ParseError: two.txt:5:1: item 1: release 2 is not before due 2 in "1 2 2"
    """
    header: dict[str, object] = {}
    lines = text.splitlines()
    number = 0
    in_header = True
    rows: dict[int, tuple[int, int, int, str]] = {}
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if in_header:
            if stripped == END_OF_HEADER:
                in_header = False
                missing = [key for key in REQUIRED if key not in header]
                if missing:
                    raise ParseError(f"header lacks {' and '.join(missing)} before {END_OF_HEADER!r}",
                                     filename=filename, lineno=number, col=1, text=line)
                continue
            declaration, sep, value = stripped.partition(":=")
            parts = declaration.split()
            if not sep or len(parts) != 2:
                raise ParseError("expected a header line 'TYPE NAME := VALUE' or '--- end of header ---'",
                                 filename=filename, lineno=number, col=1, text=line)
            try:
                header[parts[1]] = _header_value(parts[0], value.strip())
            except ValueError as exc:
                raise ParseError(f"bad value for {parts[1]}: {exc}", filename=filename, lineno=number,
                                 col=_column(line, value.strip()), text=line) from None
            continue
        fields = stripped.split()
        try:
            item, release, due = (int(x) for x in fields)
        except ValueError:
            raise ParseError("expected an item line 'ID RELEASE DUE' (three integers)", filename=filename,
                             lineno=number, col=_column(line, stripped), text=line) from None
        if item in rows:
            raise ParseError(f"item {item} appears twice (first on line {rows[item][3]})", filename=filename,
                             lineno=number, col=_column(line, fields[0]), text=line)
        if release < 0 or due >= 2**62:
            raise ParseError(f"item {item}: dates must lie in [0, 2**62)", filename=filename, lineno=number,
                             col=_column(line, fields[1]), text=line)
        if release >= due:
            raise ParseError(f"item {item}: release {release} is not before due {due}", filename=filename,
                             lineno=number, col=_column(line, fields[0]), text=line)
        rows[item] = (release, due, number, line)
    if in_header:
        raise ParseError(f"no {END_OF_HEADER!r} line", filename=filename, lineno=max(number, 1), col=1,
                         text=lines[-1] if lines else "")
    width, items = header["width"], header["items"]
    where = lines[-1] if lines else ""
    if not isinstance(width, int) or width < 2:
        raise ParseError(f"width must be an integer >= 2 (stacks), got {width!r}", filename=filename,
                         lineno=number, col=1, text=where)
    if not isinstance(items, int) or len(rows) != items:
        raise ParseError(f"the header says {items} items, the file has {len(rows)}", filename=filename,
                         lineno=number, col=1, text=where)
    height = header.get("height", float("inf"))
    if not isinstance(height, (int, float)) or height < items:
        raise ParseError(f"stack height {height} < {items} items: only the uncapacitated problem is solved",
                         filename=filename, lineno=number, col=1, text=where)
    for item in rows:
        if not 0 <= item < items:
            release, due, line_number, line = rows[item]
            raise ParseError(f"item id {item} outside 0..{items - 1}", filename=filename, lineno=line_number,
                             col=1, text=line)
    name = header.get("name")
    if not isinstance(name, str):
        name = Path(filename).stem
    return StackingInstance(np.array([rows[i][0] for i in range(items)]), np.array([rows[i][1] for i in range(items)]),
                            width=width, name=name)


def read_instance(path: str | os.PathLike) -> StackingInstance:
    """Read an instance file; its name is the file's stem (``40-A``).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "pair.txt"
    ...     _ = path.write_text("int width := 3\\nint items := 1\\n--- end of header ---\\n0 5 9\\n")
    ...     read_instance(path)
    StackingInstance('pair', items=1, width=3)
    """
    path = Path(path)
    instance = parse_instance(path.read_text(), filename=str(path))
    object.__setattr__(instance, "name", path.stem)
    return instance


def find_instance(spec: str | os.PathLike, data_dir: str | os.PathLike | None = None) -> StackingInstance:
    """An instance from a path, or from a name like ``40-A`` in the data folder.

    ``spec`` is read as a path if such a file exists; otherwise ``<folder>/<spec>.txt`` is read, the
    folder being ``data_dir`` or the environment variable ``HORNERMCTS_STACKING_DATA``.

    Examples
    --------
    >>> import tempfile
    >>> text = "int width := 2\\nint items := 1\\n--- end of header ---\\n0 1 2\\n"
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "one.txt").write_text(text)
    ...     find_instance("one", folder).items
    1
    >>> find_instance("no-such-instance", data_dir="")
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: no instance file 'no-such-instance' ...
    """
    path = Path(spec)
    if path.is_file():
        return read_instance(path)
    folder = data_dir if data_dir is not None else os.environ.get(DATA_VARIABLE, "")
    if folder:
        candidate = Path(folder) / f"{spec}.txt"
        if candidate.is_file():
            return read_instance(candidate)
        raise OptionError(f"no instance file {str(spec)!r}, nor {str(candidate)!r}")
    raise OptionError(f"no instance file {str(spec)!r} (to find instances by name, such as 40-A, give the data "
                      f"folder or set {DATA_VARIABLE} to the folder of the instance files)")
