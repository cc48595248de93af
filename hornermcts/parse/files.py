"""File input: :func:`read_file` streams a file through the text parser, line by line."""
from __future__ import annotations

import os
from typing import Iterator, Sequence

import sympy

from ..polynomial.sparse import Polynomial
from .errors import ParseError
from . import term_lines
from .text import parse_lines

__all__ = ["read_file"]


def _file_lines(fh, filename: str) -> Iterator[str]:
    for lineno, raw in enumerate(fh, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            shown = raw.decode("utf-8", "replace")
            col = len(raw[: err.start].decode("utf-8", "replace")) + 1
            raise ParseError(
                f"invalid UTF-8 byte {raw[err.start:err.start + 1]!r}",
                filename=filename, lineno=lineno, col=col, text=shown,
            ) from None
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]
        yield line


def read_file(path, *, symbols: Sequence[sympy.Symbol] | None = None, deadline=None,
              max_terms: int | None = None) -> Polynomial:
    """Parse a file in FORM or SymPy syntax (see :func:`from_text`), streaming.

    The file is read line by line and parsed one top-level summand at a time
    into a sparse dict; no SymPy expression of the whole is ever built.  The
    5717-term ``expressions/hep_sigma.txt`` takes about 0.1 s.  A file of
    4 MB or more of one simple term per line (``+3/2*x^2*y``) is read by a
    compiled scan instead
    (:mod:`hornermcts.parse.term_lines`; gait2d row 12 expanded, 822,461
    terms in 52 variables, 68 MB: about 6 s instead of 40 s), with the same
    result.

    Parameters
    ----------
    path : str or os.PathLike
        UTF-8 text; error messages name it as given.
    symbols : sequence of sympy.Symbol, optional
        Column order, as in :func:`from_sympy`.
    deadline : Deadline, optional
        Bounds the time, as in :func:`from_text`.
    max_terms : int, optional
        Bounds the expansions, as in :func:`from_text`.

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    ParseError
        As in :func:`from_text`, and for bytes that are not UTF-8.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = pathlib.Path(d, "F.frm")
    ...     _ = f.write_text("F =\\n  + 32*x1^3*zk^2\\n  - 48*x1\\n  *zk;\\n")
    ...     read_file(f).to_sympy()
    32*x1**3*zk**2 - 48*x1*zk
    """
    filename = os.fspath(path)
    if isinstance(filename, bytes):
        filename = os.fsdecode(filename)
    if (symbols is None and (deadline is None or not deadline.expired())
            and os.path.getsize(filename) >= term_lines.COMPILED_FROM_BYTES):  # one simple term per line: compiled
        with open(path, "rb") as fh:
            poly = term_lines.read_term_lines(fh.read(), max_terms)
        if poly is not None:
            return poly
    with open(path, "rb") as fh:
        return parse_lines(_file_lines(fh, filename), filename, symbols, deadline, max_terms)
