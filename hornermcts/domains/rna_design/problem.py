"""Inverse RNA folding as a search problem (Cazenave 2024, sec. 4.3): fill a target left to right, fold, score.

The target is a dot-bracket structure of ``n`` nucleotides.  Its *steps*
are its ``.`` and ``(`` positions, left to right; a ``)`` is never a step,
its nucleotide being fixed with its ``(``.  A state is the ``bytes`` of
the move ids played so far (one per step); the root is ``b""``; the moves
of a state are those of its next step:

- at a ``.``: ``0..3`` = A, C, G, U;
- at a ``(``: ``4..9`` = CG, GC, GU, UG, AU, UA, the first letter at the
  ``(`` and the second at its ``)``.

A state is terminal when every step is played; its reward folds the
sequence with ViennaRNA (:mod:`.folding`): ``0`` when the MFE structure is
the target (solved: ``nrpa(..., target=0.0)``), else ``-(d + ED / 2)``,
``d`` the base-pair distance and ``ED`` the target's ensemble defect (the
tie-break; ``tie_break=None``: ``-d``).  Rewards go through a
:class:`~.folding.FoldCache` owned by the problem, keyed by the state (the
sequence's moves), so a search on one problem never folds a sequence twice
(within the cache's memory bound; :attr:`RNADesign.folds` counts the folds,
``problem.cache.hits`` the rest).

Codes: the NRPA policy code is (position, choice), ``position * 10 +
move`` (``code_count = 10 n``; docs/domains.md B5.2).  The NGRAM prior code is
(previous target character, previous move, current target character,
current move) (Alg. 5; docs/domains.md B5.6: ``)`` positions are skipped, the
first step's previous is a start symbol), packed as ``previous move * 10 +
move`` (``prior_code_count = 110``, the start being 10): a move id
determines its target character (0-3 at ``.``, 4-9 at ``(``), so the
packed pair holds the whole 4-tuple (:func:`unpack_prior_code`).
:meth:`RNADesign.coded_playout` is the coded hook of
:mod:`hornermcts.search.policy` (a Numba kernel).

Examples
--------
>>> problem = RNADesign("((...))")
>>> problem.steps, [MOVES[m] for m in problem.moves(problem.root())]
(5, ['CG', 'GC', 'GU', 'UG', 'AU', 'UA'])
>>> state = problem.design_state("GCAAAGC")
>>> list(state), problem.sequence(state)
([5, 4, 0, 0, 0], 'GCAAAGC')
>>> [unpack_prior_code(problem.prior_code(state[:k], state[k])) for k in range(3)]
[('^', '^', '(', 'GC'), ('(', 'GC', '(', 'CG'), ('(', 'CG', '.', 'A')]
>>> problem.move_code(state[:2], 0)          # position 2, choice A
20
>>> import pytest; _ = pytest.importorskip("RNA")  # the rest folds: skipped without ViennaRNA
>>> problem.evaluate(state).structure, round(problem.reward(state), 4)  # unfolded: -(2 + defect / 2)
('.......', -2.2748)
>>> hairpin = RNADesign("((((....))))")
>>> hairpin.reward(hairpin.design_state("GGGGAAAACCCC")), hairpin.folds
(0.0, 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import OptionError
from ...search.policy import Trace
from . import folding, kernels
from .structure import pair_table

__all__ = ["RNADesign", "MOVES", "UNPAIRED", "PAIRED", "unpack_prior_code", "PRIOR_CODE_COUNT", "START_SYMBOL"]

#: The move ids' meanings: 0-3 at a '.', 4-9 at a '(' (the first letter at the '(').
MOVES = ("A", "C", "G", "U", "CG", "GC", "GU", "UG", "AU", "UA")
#: Move ids at a '.' and at a '('.
UNPAIRED = (0, 1, 2, 3)
PAIRED = (4, 5, 6, 7, 8, 9)
#: Prior codes: (previous move or start) * 10 + move.
PRIOR_CODE_COUNT = (kernels.START + 1) * kernels.CHOICES
#: How :func:`unpack_prior_code` shows the start symbol (as target character and as move).
START_SYMBOL = "^"

_FIRST = np.frombuffer(b"ACGUCGGUAU", dtype=np.uint8).copy()   # the letter a move puts at its step
_SECOND = np.frombuffer(b"....GCUGUA", dtype=np.uint8).copy()  # the letter a pair move puts at the ')'


def unpack_prior_code(code: int) -> tuple[str, str, str, str]:
    """``(previous target char, previous move, target char, move)`` of a packed NGRAM prior code.

    >>> unpack_prior_code(4 * 10 + 0), unpack_prior_code(10 * 10 + 9)
    (('(', 'CG', '.', 'A'), ('^', '^', '(', 'UA'))
    """
    code = int(code)
    if not 0 <= code < PRIOR_CODE_COUNT:
        raise OptionError(f"{code} is not an NGRAM prior code (0..{PRIOR_CODE_COUNT - 1})")
    previous, move = divmod(code, kernels.CHOICES)
    if previous == kernels.START:
        before = (START_SYMBOL, START_SYMBOL)
    else:
        before = ("." if previous < 4 else "(", MOVES[previous])
    return before + ("." if move < 4 else "(", MOVES[move])


class RNADesign:
    """Design a sequence that folds into ``target`` (see the module docstring).

    Parameters
    ----------
    target : str
        Dot-bracket (``(``, ``)``, ``.``; :class:`~.structure.StructureError`
        otherwise).
    tie_break : {"defect", None}, default "defect"
        The reward's tie-break (:mod:`.folding`).
    cache_mb : float, default 128
        The memory bound of the fold cache.
    name : str, optional
        Shown by ``repr`` (e.g. the Eterna100 puzzle).

    Attributes
    ----------
    target : str
    partner : tuple of int
        The pair table (``-1`` unpaired).
    steps : int
        Moves of a design (``.`` and ``(`` positions).
    positions : numpy.ndarray
        The nucleotide position of each step.
    code_count, prior_code_count : int
        ``10 n`` and 110.
    cache : FoldCache
    """

    def __init__(self, target: str, *, tie_break: str | None = "defect", cache_mb: float = folding.DEFAULT_CACHE_MB,
                 name: str | None = None) -> None:
        if tie_break not in folding.TIE_BREAKS:
            raise OptionError(f"tie_break must be 'defect' or None, got {tie_break!r}")
        self.partner = pair_table(target)
        self.target = target
        self.tie_break = tie_break
        self.name = name
        self.length = n = len(target)
        steps = [i for i, c in enumerate(target) if c != ")"]
        self.positions = np.array(steps, np.int64)
        self.kinds = np.array([0 if target[i] == "." else 1 for i in steps], np.int8)
        self.steps = len(steps)
        self._paired_steps = np.flatnonzero(self.kinds == 1)
        self._closers = np.array([self.partner[i] for i in self.positions[self._paired_steps]], np.int64)
        self.code_count = kernels.CHOICES * n
        self.prior_code_count = PRIOR_CODE_COUNT
        self._unpaired_moves = UNPAIRED
        self._paired_moves = PAIRED
        self.cache = folding.FoldCache(key_bytes=self.steps, megabytes=cache_mb)
        self._empty = np.zeros(0, np.uint8)

    def __repr__(self) -> str:
        shown = self.name if self.name else (self.target if self.length <= 40 else self.target[:37] + "...")
        return f"RNADesign({shown!r}, {self.length} nt)"

    # ---------------------------------------------------------------- the protocol
    def root(self) -> bytes:
        """The empty design."""
        return b""

    def moves(self, state: bytes) -> tuple[int, ...]:
        """The move ids of the next step (A, C, G, U or the six pairs); ``()`` when the design is complete."""
        k = len(state)
        if k >= self.steps:
            return ()
        return self._unpaired_moves if self.kinds[k] == 0 else self._paired_moves

    def apply(self, state: bytes, move: int) -> bytes:
        """The design with ``move`` at its next step (OptionError if not legal there)."""
        if move not in self.moves(state):
            raise OptionError(f"move {move!r} is not legal at step {len(state)} of {self.steps}")
        return state + bytes((move,))

    def reward(self, state: bytes) -> float:
        """``0.0`` if the sequence folds into the target, else ``-(distance + ensemble defect / 2)`` (cached)."""
        if len(state) != self.steps:
            raise OptionError(f"the design is not complete ({len(state)} of {self.steps} steps)")
        return self.cache.get(state, self._fold)

    def _fold(self, state: bytes) -> float:
        return folding.score(self.sequence(state), self.target, self.tie_break).reward(self.tie_break)

    @property
    def folds(self) -> int:
        """Sequences folded so far (each once; cache hits are not folds)."""
        return self.cache.folds

    def move_code(self, state: bytes, move: int) -> int:
        """The NRPA policy code (position, choice): ``position * 10 + move``."""
        return int(self.positions[len(state)]) * kernels.CHOICES + int(move)

    def prior_code(self, state: bytes, move: int) -> int:
        """The packed NGRAM code ``previous move * 10 + move`` (previous: 10 at the first step)."""
        previous = state[-1] if state else kernels.START
        return previous * kernels.CHOICES + int(move)

    def coded_playout(self, state: bytes, weights: np.ndarray, bias: np.ndarray | None, rng: Any) -> tuple:
        """The coded hook: one compiled softmax playout from ``state`` -> ``(terminal state, moves, trace)``."""
        prefix = np.frombuffer(state, dtype=np.uint8) if state else self._empty
        table = np.zeros(1) if bias is None else bias
        moves, codes, betas, starts, chosen = kernels.playout(prefix, self.kinds, self.positions, weights, table,
                                                              bias is not None, rng)
        final = moves.astype(np.uint8).tobytes()
        return final, moves[len(state):].tolist(), Trace(codes, betas if bias is not None else None, starts, chosen)

    def playout(self, state: bytes, rng: Any) -> tuple[bytes, list]:
        """A uniform playout (compiled) from ``state``: ``(terminal state, moves)``."""
        final, moves, _ = self.coded_playout(state, np.zeros(self.code_count), None, rng)
        return final, moves

    # ---------------------------------------------------------------- designs and sequences
    def sequence(self, state: bytes) -> str:
        """The nucleotide sequence of a complete design.

        >>> RNADesign("(.)").sequence(bytes([8, 2]))
        'AGU'
        """
        if len(state) != self.steps:
            raise OptionError(f"the design is not complete ({len(state)} of {self.steps} steps)")
        moves = np.frombuffer(state, dtype=np.uint8)
        out = np.empty(self.length, np.uint8)
        out[self.positions] = _FIRST[moves]
        out[self._closers] = _SECOND[moves[self._paired_steps]]
        return out.tobytes().decode("ascii")

    def design_state(self, sequence: str) -> bytes:
        """The complete design (state) of ``sequence``: OptionError if a pair of the target is not canonical.

        >>> RNADesign("(.)").design_state("AGU")
        b'\\x08\\x02'
        >>> RNADesign("(.)").design_state("AGA")
        Traceback (most recent call last):
        ...
        hornermcts.errors.OptionError: positions 1 and 3 hold A-A, not a pair (CG, GC, GU, UG, AU, UA)
        """
        sequence = sequence.upper().replace("T", "U")
        if len(sequence) != self.length or set(sequence) - set("ACGU"):
            raise OptionError(f"expected a sequence of {self.length} letters A, C, G, U, got {sequence!r}")
        out = bytearray()
        for i in self.positions:
            i = int(i)
            if self.target[i] == ".":
                out.append(MOVES.index(sequence[i]))
            else:
                j = self.partner[i]
                pair = sequence[i] + sequence[j]
                if pair not in MOVES[4:]:
                    raise OptionError(f"positions {i + 1} and {j + 1} hold {sequence[i]}-{sequence[j]}, not a pair "
                                      "(CG, GC, GU, UG, AU, UA)")
                out.append(MOVES.index(pair))
        return bytes(out)

    def evaluate(self, state: bytes) -> folding.Evaluation:
        """Fold the design (not through the cache, not counted): structure, energy, distance, ensemble defect."""
        return folding.evaluate(self.sequence(state), self.target)

    def is_solved(self, state: bytes) -> bool:
        """Whether the design's MFE structure is the target (folds afresh, by :func:`~.folding.fold`)."""
        return folding.fold(self.sequence(state))[0] == self.target
