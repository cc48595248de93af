"""The Eterna100 benchmark: 100 target structures, in version 2 (for ViennaRNA 2.x, the default) or version 1.

The data are the files of ``shared/data/eterna100`` (from
``eternagame/eterna100-benchmarking``; MIT licence): ``eterna100_v1.tsv``
and ``eterna100_v2.tsv`` (``id, name, length, structure``, a header row,
tab-separated) and, optionally, ``eterna100_puzzles.tsv`` (the original
table, read only for the players' sample solutions).  Version 2 (Koodli et
al. 2021) replaced the 19 targets of version 1 that ViennaRNA 2 cannot fold
(50, 52, 57, 60, 61, 67, 78, 80, 81, 86, 87, 88, 90, 91, 92, 96, 97, 99,
100); it is the version to use with ViennaRNA 2.x (docs/domains.md B5.6).

The folder is looked up in this order: the ``folder`` argument; the
environment variable ``HORNERMCTS_ETERNA100``; ``shared/data/eterna100``
beside the repository (the layout of a source checkout).  Every error in a
file is a :class:`~hornermcts.parse.ParseError` naming file, line and
column (a bad structure: the column of the bad character).

Examples
--------
>>> import tempfile, os
>>> text = "id\\tname\\tlength\\tstructure\\n1\\tSimple Hairpin\\t16\\t(((((......)))))\\n"
>>> with tempfile.TemporaryDirectory() as folder:
...     _ = open(os.path.join(folder, "eterna100_v2.tsv"), "w").write(text)
...     puzzles = read_eterna100(folder=folder)
>>> puzzles[0]
Puzzle(id=1, name='Simple Hairpin', structure='(((((......)))))', version=2, sample=None)
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from ...errors import OptionError
from ...parse import ParseError
from .structure import StructureError, pair_table

__all__ = ["Puzzle", "read_eterna100", "eterna_puzzle", "data_folder", "DATA_VARIABLE", "VERSIONS"]

#: The environment variable naming the folder of the Eterna100 files.
DATA_VARIABLE = "HORNERMCTS_ETERNA100"
#: The versions of the benchmark.
VERSIONS = (1, 2)

_HEADER = ["id", "name", "length", "structure"]
_SAMPLE_COLUMNS = {1: "Sample Solution (V1/Vienna2)", 2: "Sample Solution (V2/Vienna2)"}


@dataclass(frozen=True)
class Puzzle:
    """One Eterna100 target.

    Attributes
    ----------
    id : int
        The puzzle number, 1..100.
    name : str
    structure : str
        The target, dot-bracket.
    version : int
        1 or 2.
    sample : str or None
        A player's solution for ViennaRNA 2 (``eterna100_puzzles.tsv``), if
        that file is in the folder.  Under ViennaRNA 2.x it folds to the
        target for 99 of the 100 version-2 puzzles (not puzzle 100) and for
        the 81 version-1 puzzles that version 2 kept.
    """

    id: int
    name: str
    structure: str
    version: int = 2
    sample: str | None = None

    @property
    def length(self) -> int:
        """Nucleotides."""
        return len(self.structure)


def data_folder(folder: str | os.PathLike | None = None) -> Path:
    """The folder of the Eterna100 files (see the module docstring for the order of the look-up).

    Raises
    ------
    OptionError
        If no folder holds ``eterna100_v2.tsv`` or ``eterna100_v1.tsv``.
    """
    candidates = []
    if folder is not None:
        candidates.append(Path(folder))
    elif os.environ.get(DATA_VARIABLE):
        candidates.append(Path(os.environ[DATA_VARIABLE]))
    else:
        candidates.append(Path(__file__).resolve().parents[3].parent / "shared" / "data" / "eterna100")
    for path in candidates:
        if any((path / f"eterna100_v{v}.tsv").is_file() for v in VERSIONS):
            return path
    raise OptionError(f"no Eterna100 files (eterna100_v2.tsv) in {str(candidates[0])!r}: give the folder "
                      f"(--data FOLDER) or set {DATA_VARIABLE} to the folder of shared/data/eterna100")


def _samples(folder: Path, version: int) -> dict[int, str]:
    path = folder / "eterna100_puzzles.tsv"
    if not path.is_file():
        return {}
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    column = _SAMPLE_COLUMNS[version]
    out = {}
    for row in rows:
        try:
            out[int(row["Puzzle #"])] = row[column].strip().upper().replace("T", "U")
        except (KeyError, ValueError, AttributeError):
            continue  # the samples are optional: a row without one is skipped
    return out


def read_eterna100(version: int = 2, *, folder: str | os.PathLike | None = None) -> list[Puzzle]:
    """The puzzles of Eterna100 ``version`` (2 by default), in the file's order (ids 1..100).

    Raises
    ------
    OptionError
        For an unknown version or a missing folder.
    ParseError
        For a malformed line: a wrong header or column count, an id that is
        not an integer, a length that disagrees with the structure, or a
        structure that is not dot-bracket (file, line, column).
    """
    if version not in VERSIONS:
        raise OptionError(f"Eterna100 version must be 1 or 2, got {version!r}")
    root = data_folder(folder)
    path = root / f"eterna100_v{version}.tsv"
    if not path.is_file():
        raise OptionError(f"no file {str(path)!r}")
    samples = _samples(root, version)
    puzzles = []
    seen: set[int] = set()
    with open(path, newline="") as handle:
        lines = handle.read().splitlines()
    if not lines or lines[0].split("\t") != _HEADER:
        raise ParseError(f"expected the header {' '.join(_HEADER)!r} (tab-separated)", filename=str(path), lineno=1,
                         col=1, text=lines[0] if lines else "")
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise ParseError(f"expected 4 tab-separated fields, got {len(fields)}", filename=str(path),
                             lineno=lineno, col=1, text=line)
        number, name, length, structure = fields
        try:
            ident, size = int(number), int(length)
        except ValueError:
            raise ParseError("id and length must be integers", filename=str(path), lineno=lineno, col=1,
                             text=line) from None
        column = len(number) + len(name) + len(length) + 4
        try:
            pair_table(structure)
        except StructureError as error:
            raise ParseError(error.reason, filename=str(path), lineno=lineno, col=column + max(error.position, 0),
                             text=line) from None
        if size != len(structure):
            raise ParseError(f"length {size} but the structure has {len(structure)} characters", filename=str(path),
                             lineno=lineno, col=column, text=line)
        if ident in seen:
            raise ParseError(f"puzzle {ident} appears twice", filename=str(path), lineno=lineno, col=1, text=line)
        seen.add(ident)
        puzzles.append(Puzzle(ident, name, structure, version, samples.get(ident)))
    return puzzles


def eterna_puzzle(ident: int, version: int = 2, *, folder: str | os.PathLike | None = None) -> Puzzle:
    """Eterna100 puzzle number ``ident`` (1..100) of ``version``.

    Raises
    ------
    OptionError
        If there is no such puzzle.
    """
    for puzzle in read_eterna100(version, folder=folder):
        if puzzle.id == ident:
            return puzzle
    raise OptionError(f"no Eterna100 puzzle {ident!r} (version {version}): ids are 1..100")
