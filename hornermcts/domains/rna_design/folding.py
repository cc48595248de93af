"""Folding with ViennaRNA, the score of a design, and the bounded cache that folds each sequence once.

ViennaRNA (PyPI ``viennarna``, imported as ``RNA``; ``pip install
'hornermcts[rna]'``) is imported on first use: without it, everything that
folds raises an :class:`~hornermcts.errors.OptionError` saying how to
install it.  Folding uses ViennaRNA's defaults (Turner 2004 parameters,
37 C, dangles 2): :func:`fold` is ``RNA.fold``'s MFE structure and energy.

The score of a sequence for a target (docs/domains.md B5.6; "computed the same
way as NEMO" in the paper, which does not define it):

- ``d``, the base-pair distance between the sequence's MFE structure and
  the target; the design is *solved* when ``d == 0``;
- the tie-break is the target's normalised *ensemble defect* ``ED``
  (ViennaRNA's ``fold_compound.ensemble_defect(target)`` after the partition
  function, in ``[0, 1]``: the expected fraction of nucleotides paired
  otherwise than in the target);
- combined as **reward = 0 if d == 0, else -(d + ED / 2)**.  Since ``ED / 2
  <= 0.5 < 1`` this ranks designs by distance first and, at equal
  distance, by ensemble defect (lower is better), and a solved design
  scores exactly 0, above every unsolved one (at most -1).  The partition
  function is computed only for unsolved designs (it costs about twice the
  MFE fold).  ``tie_break=None`` gives the plain ``-d``.

:class:`FoldCache` keeps the score of every sequence folded, so that a
search never folds the same sequence twice; see its docstring for the
memory bound.

Examples
--------
>>> score = Score(0, 0.0)
>>> score.reward(), Score(3, 0.25).reward(), Score(3, 0.25).reward(tie_break=None)
(0.0, -3.125, -3.0)
>>> import pytest; _ = pytest.importorskip("RNA")  # the rest folds: skipped without ViennaRNA
>>> fold("GGGGAAAACCCC")
('((((....))))', -5.4)
>>> evaluate("GGGGAAAACCCC", "((((....))))").distance
0
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ...errors import OptionError
from .structure import base_pair_distance, check_structure

__all__ = ["vienna", "vienna_version", "fold", "score", "evaluate", "Score", "Evaluation", "FoldCache", "TIE_BREAKS",
           "DEFAULT_CACHE_MB"]

#: The tie-breaks of the reward: ``"defect"`` (ensemble defect, the default) or ``None`` (distance only).
TIE_BREAKS = ("defect", None)
#: The default memory bound of a :class:`FoldCache`, in MB.
DEFAULT_CACHE_MB = 128

_VIENNA: list = []


def vienna() -> Any:
    """The ``RNA`` module of ViennaRNA (OptionError with the install command if it is missing)."""
    if not _VIENNA:
        try:
            import RNA
        except ImportError:
            raise OptionError("ViennaRNA is not installed: pip install 'hornermcts[rna]' (or pip install viennarna)"
                              ) from None
        _VIENNA.append(RNA)
    return _VIENNA[0]


def vienna_version() -> str:
    """ViennaRNA's version string (OptionError if it is missing)."""
    return str(vienna().__version__)


def _check_sequence(sequence: str) -> str:
    if not isinstance(sequence, str) or not sequence or set(sequence) - set("ACGU"):
        raise OptionError(f"a sequence is a non-empty string over A, C, G, U, got {sequence!r}")
    return sequence


def fold(sequence: str) -> tuple[str, float]:
    """The MFE structure (dot-bracket) and its free energy (kcal/mol, rounded to 0.01) of ``sequence``."""
    structure, energy = vienna().fold(_check_sequence(sequence))
    return structure, round(float(energy), 2)


class Score(NamedTuple):
    """The two parts of a design's score: base-pair distance and ensemble defect (0.0 when solved)."""

    distance: int
    defect: float

    def reward(self, tie_break: str | None = "defect") -> float:
        """``0`` if solved, else ``-(distance + defect / 2)`` (or ``-distance`` with ``tie_break=None``)."""
        if self.distance == 0:
            return 0.0
        if tie_break is None:
            return -float(self.distance)
        return -(self.distance + self.defect / 2)


class Evaluation(NamedTuple):
    """Everything about a design: its MFE structure and energy, the distance, the ensemble defect."""

    sequence: str
    structure: str
    energy: float
    distance: int
    defect: float

    @property
    def solved(self) -> bool:
        """Whether the MFE structure is the target."""
        return self.distance == 0


def score(sequence: str, target: str, tie_break: str | None = "defect") -> Score:
    """The :class:`Score` of ``sequence`` for ``target``: one MFE fold, and a partition function if unsolved.

    The ensemble defect is computed only for an unsolved design and with
    ``tie_break="defect"``; otherwise it is reported as 0.0.
    """
    RNA = vienna()
    compound = RNA.fold_compound(sequence)
    structure, energy = compound.mfe()
    distance = int(RNA.bp_distance(structure, target))
    if distance == 0 or tie_break is None:
        return Score(distance, 0.0)
    compound.exp_params_rescale(energy)
    compound.pf()
    return Score(distance, float(compound.ensemble_defect(target)))


def evaluate(sequence: str, target: str) -> Evaluation:
    """Fold ``sequence`` and compare with ``target``: an :class:`Evaluation` (the defect always computed)."""
    _check_sequence(sequence)
    check_structure(target)
    if len(sequence) != len(target):
        raise OptionError(f"the sequence has {len(sequence)} nucleotides, the target {len(target)}")
    RNA = vienna()
    compound = RNA.fold_compound(sequence)
    structure, energy = compound.mfe()
    compound.exp_params_rescale(energy)
    compound.pf()
    return Evaluation(sequence, structure, round(float(energy), 2), base_pair_distance(structure, target),
                      float(compound.ensemble_defect(target)))


class FoldCache:
    """Rewards of the sequences folded so far, so that no sequence is folded twice while it is kept.

    A bounded two-generation cache: new entries go to the *young*
    generation; when it holds ``limit // 2`` entries the *old* generation is
    dropped and the young one becomes old; a hit in the old generation moves
    the entry back to the young one.  So at most ``limit`` entries are held,
    and an entry is lost only after ``limit // 2`` other distinct sequences
    have been folded since it was last used.  ``limit`` comes from a memory
    budget (``megabytes``, default :data:`DEFAULT_CACHE_MB`) and the key size:
    an entry (a ``bytes`` key of ``key_bytes`` + a float + the dict slot)
    takes about ``key_bytes + 112`` bytes (measured with ``tracemalloc``):
    128 MB hold about 600,000 designs of 100 moves, more than a design of
    100 nucleotides gets folded in an hour (~10 ms a fold).

    Attributes
    ----------
    folds : int
        Sequences computed (misses).
    hits : int
        Look-ups answered from the cache.
    limit : int
        The most entries held.

    Examples
    --------
    >>> cache = FoldCache(key_bytes=4, limit=4)
    >>> [cache.get(k, lambda k: float(len(k))) for k in (b"a", b"bb", b"a", b"ccc", b"dddd", b"a")]
    [1.0, 2.0, 1.0, 3.0, 4.0, 1.0]
    >>> cache.folds, cache.hits, len(cache)
    (4, 2, 3)
    """

    def __init__(self, *, key_bytes: int = 100, megabytes: float = DEFAULT_CACHE_MB, limit: int | None = None) -> None:
        if limit is None:
            if not megabytes > 0:
                raise OptionError(f"the cache needs megabytes > 0, got {megabytes!r}")
            limit = int(megabytes * 2 ** 20) // (int(key_bytes) + 112)
        if limit < 2:
            raise OptionError(f"the cache needs a limit of at least 2 entries, got {limit}")
        self.limit = int(limit)
        self._half = self.limit // 2
        self._young: dict[bytes, float] = {}
        self._old: dict[bytes, float] = {}
        self.folds = 0
        self.hits = 0

    def get(self, key: bytes, compute: Callable[[bytes], float]) -> float:
        """The value of ``key``: from the cache, else ``compute(key)`` (counted in :attr:`folds`) and kept."""
        value = self._young.get(key)
        if value is not None:
            self.hits += 1
            return value
        value = self._old.pop(key, None)
        if value is not None:
            self.hits += 1
        else:
            value = compute(key)
            self.folds += 1
        if len(self._young) >= self._half:
            self._old = self._young
            self._young = {}
        self._young[key] = value
        return value

    def __len__(self) -> int:
        return len(self._young) + len(self._old)

    def clear(self) -> None:
        """Forget every entry and zero the counters."""
        self._young, self._old = {}, {}
        self.folds = self.hits = 0

    def __repr__(self) -> str:
        return f"FoldCache({len(self)} of {self.limit} entries, {self.folds} folds, {self.hits} hits)"
