"""Priors for RNA design: the NGRAM prior on a substitute training set, and a NEMO-like handmade pair prior.

**NGRAM (substitute training set).**  The paper learns its NGRAM prior
(Alg. 5) on the 85,232 Rfam sequences with their target foldings; Rfam is
not available here, so the training set is a *substitute* (docs/domains.md
B5.6, the paper's own "generate solved problems" idea): random sequences
(uniform A/C/G/U, seeded; lengths uniform in 12..200, the range of 71 of
the 100 Eterna100 targets) folded by ViennaRNA, each ``(MFE structure,
sequence)`` a solved problem.  :func:`learn_ngram_prior` replays them
(Alg. 4 with the NGRAM code of :class:`~.problem.RNADesign`: (previous
target char, previous move, target char, move), ``)`` skipped, a start
symbol first) into a :class:`hornermcts.search.Prior` of at most 110
codes; GNRPA uses it with ``tau = 6``.  Every result obtained with it is
labelled "NGRAM (substitute training set)".

The learned prior ships as ``hornermcts/data/rna/ngram_substitute.json``
(:func:`substitute_prior` reads it), made by::

    hornermcts rna --learn-prior hornermcts/data/rna/ngram_substitute.json --training 2000

(2,000 sequences, seeds from :data:`TRAINING_SEED`; 33 s of CPU here).

**NEMO-like (substitute).**  The paper's "NEMO prior" (a subset of NEMO's
pair heuristics) is not specified.  :func:`nemo_like_prior` is a labelled
handmade substitute (docs/domains.md B5.6): at a ``(`` the pairs GC/CG are
preferred to AU/UA, preferred to GU/UG, and at a ``.`` an A is preferred,
whatever came before.  It is a :class:`~hornermcts.search.Prior` over the
same 110 codes, whose ratios are chosen so that at temperature ``tau``
Sampling with it draws a pair as GC or CG with probability 0.6 (0.3 each),
AU/UA 0.3, GU/UG 0.1, and an unpaired base as A with probability 0.7 (0.1
for each other).

Examples
--------
>>> prior = nemo_like_prior()
>>> from hornermcts.domains.rna_design import RNADesign, MOVES
>>> problem = RNADesign("(.)")
>>> bias = prior.bias(problem, temperature=6.0)
>>> import math
>>> odds = [math.exp(b) for b in bias(b"", problem.moves(b""))]
>>> [round(o / sum(odds), 3) for o in odds]          # CG GC GU UG AU UA
[0.3, 0.3, 0.05, 0.05, 0.15, 0.15]
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from ...errors import OptionError
from ...search.prior import Prior
from . import folding, kernels
from .problem import MOVES, PRIOR_CODE_COUNT, RNADesign

__all__ = ["training_pairs", "learn_ngram_prior", "ngram_counts", "substitute_prior", "nemo_like_prior",
           "save_prior", "TRAINING_SEED", "TRAINING_LENGTHS", "NGRAM_LABEL", "NEMO_LABEL", "SHIPPED_PRIOR"]

#: The seed of the first training sequence (each sequence has its own seed).
TRAINING_SEED = 2_000_000
#: The lengths of the training sequences: uniform in this range (inclusive).
TRAINING_LENGTHS = (12, 200)
#: How results with each prior are labelled.
NGRAM_LABEL = "NGRAM (substitute training set)"
NEMO_LABEL = "NEMO-like (substitute handmade pair prior)"
#: The shipped NGRAM prior, in the package data.
SHIPPED_PRIOR = "ngram_substitute.json"


def training_pairs(count: int, *, first_seed: int = TRAINING_SEED,
                   lengths: tuple[int, int] = TRAINING_LENGTHS) -> Iterator[tuple[str, str]]:
    """``count`` solved problems ``(structure, sequence)``: random sequences and their MFE structures.

    Sequence ``k`` comes from ``numpy.random.default_rng(first_seed + k)``:
    a length uniform in ``lengths``, then uniform letters.  Each is folded
    once by ViennaRNA (OptionError if it is missing).
    """
    low, high = int(lengths[0]), int(lengths[1])
    if not 1 <= low <= high:
        raise OptionError(f"lengths must be 1 <= low <= high, got {lengths!r}")
    for k in range(int(count)):
        rng = np.random.default_rng(first_seed + k)
        size = int(rng.integers(low, high + 1))
        sequence = "".join("ACGU"[i] for i in rng.integers(0, 4, size))
        yield folding.fold(sequence)[0], sequence


def ngram_counts(structure: str, sequence: str) -> tuple[np.ndarray, np.ndarray]:
    """Alg. 5 on one solved problem: ``(count, nb)`` as arrays over the 110 NGRAM codes.

    ``count[c]``: steps whose move has code ``c``; ``nb[c]``: steps where a
    move of code ``c`` was legal.  The same tables as replaying the design
    with :meth:`hornermcts.search.Prior.replay`, computed with NumPy.

    >>> count, nb = ngram_counts("(.)", "GAC")
    >>> {int(c): int(count[c]) for c in np.flatnonzero(count)}, int(nb.sum())
    ({50: 1, 105: 1}, 10)
    """
    problem = RNADesign(structure, cache_mb=0.01)
    moves = np.frombuffer(problem.design_state(sequence), dtype=np.uint8).astype(np.int64)
    previous = np.concatenate(([kernels.START], moves[:-1])) * kernels.CHOICES
    count = np.bincount(previous + moves, minlength=PRIOR_CODE_COUNT)
    dots = problem.kinds == 0
    nb = (np.bincount((previous[dots][:, None] + np.arange(4)).ravel(), minlength=PRIOR_CODE_COUNT)
          + np.bincount((previous[~dots][:, None] + np.arange(4, 10)).ravel(), minlength=PRIOR_CODE_COUNT))
    return count, nb


def learn_ngram_prior(pairs: Iterable[tuple[str, str]]) -> Prior:
    """The NGRAM prior learned from ``(structure, sequence)`` pairs (each sequence must fit its structure)."""
    count = np.zeros(PRIOR_CODE_COUNT, np.int64)
    nb = np.zeros(PRIOR_CODE_COUNT, np.int64)
    for structure, sequence in pairs:
        c, n = ngram_counts(structure, sequence)
        count += c
        nb += n
    return Prior({int(c): int(count[c]) for c in np.flatnonzero(count)},
                 {int(c): int(nb[c]) for c in np.flatnonzero(nb)})


def substitute_prior() -> Prior:
    """The shipped NGRAM prior (substitute training set; see the module docstring for how it was made)."""
    path = resources.files("hornermcts").joinpath("data").joinpath("rna").joinpath(SHIPPED_PRIOR)
    with resources.as_file(path) as file:
        return Prior.load(file)


def save_prior(prior: Prior, path: str | Path, *, note: str) -> None:
    """Write ``prior`` as :meth:`Prior.save` does, with a ``"note"`` field saying how it was made."""
    prior.save(path)
    data = json.loads(Path(path).read_text())
    data["note"] = note
    Path(path).write_text(json.dumps(data) + "\n")


def nemo_like_prior(temperature: float = 6.0) -> Prior:
    """The handmade pair prior (see the module docstring), for use at ``temperature``."""
    if not (isinstance(temperature, (int, float)) and math.isfinite(temperature) and temperature > 0):
        raise OptionError(f"temperature must be a finite number > 0, got {temperature!r}")
    wanted = {"A": 0.7, "C": 0.1, "G": 0.1, "U": 0.1, "CG": 0.3, "GC": 0.3, "AU": 0.15, "UA": 0.15, "GU": 0.05,
              "UG": 0.05}
    scale = 1_000_000
    ratio = {}
    for group in (MOVES[:4], MOVES[4:]):
        top = max(wanted[m] for m in group)
        for m in group:  # sampling draws ratio^tau / sum: ratio = (p / p_max)^(1 / tau)
            ratio[MOVES.index(m)] = (wanted[m] / top) ** (1.0 / temperature)
    count, nb = {}, {}
    for previous in range(kernels.START + 1):
        for move, r in ratio.items():
            code = previous * kernels.CHOICES + move
            nb[code] = scale
            count[code] = int(round(r * scale))
    return Prior(count, nb)
