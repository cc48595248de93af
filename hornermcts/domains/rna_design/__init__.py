"""Inverse RNA folding on Eterna100 (Cazenave 2024, sec. 4.3): targets, folding, the problem, priors, searches.

Find a sequence of A, C, G, U whose minimum free energy structure
(ViennaRNA 2.x) is a given dot-bracket target.

- :func:`pair_table`, :func:`base_pair_distance`, :class:`StructureError`:
  dot-bracket structures (:mod:`.structure`);
- :func:`read_eterna100`, :func:`eterna_puzzle`, :class:`Puzzle`: the
  Eterna100 benchmark, version 2 by default (:mod:`.eterna`);
- :func:`fold`, :func:`evaluate`, :class:`FoldCache`: ViennaRNA, the score
  (base-pair distance, ensemble defect as the tie-break) and the bounded
  cache that folds each sequence once (:mod:`.folding`; ViennaRNA is the
  optional extra ``pip install 'hornermcts[rna]'``);
- :class:`RNADesign`: the search problem (moves per ``.`` and per ``(``,
  left to right; reward 0 when solved; NRPA code (position, choice); the
  NGRAM prior code), with a compiled playout through the coded hook of
  :func:`hornermcts.search.nrpa` (:mod:`.problem`, :mod:`.kernels`);
- :func:`learn_ngram_prior`, :func:`training_pairs`,
  :func:`substitute_prior`, :func:`nemo_like_prior`: the NGRAM prior on a
  substitute training set (folded random sequences; Rfam is not
  available) and a handmade NEMO-like pair prior (:mod:`.prior`);
- :func:`search`, :func:`design`: Sampling, NRPA, GNRPA as in Table 3,
  under CPU-time budgets (:mod:`.solve`);
- the command ``hornermcts rna`` (:mod:`.cli`).

Examples
--------
>>> import pytest; _ = pytest.importorskip("RNA")  # folds: skipped without ViennaRNA
>>> problem = RNADesign("((((((....))))))")
>>> found = design(problem, "gnrpa", prior=substitute_prior(), time_limit=10.0, seed=0)
>>> found.solved, found.evaluation.structure == problem.target
(True, True)
"""

from __future__ import annotations

from .eterna import DATA_VARIABLE, Puzzle, data_folder, eterna_puzzle, read_eterna100
from .folding import Evaluation, FoldCache, Score, evaluate, fold, score, vienna_version
from .prior import (
    NEMO_LABEL,
    NGRAM_LABEL,
    TRAINING_SEED,
    learn_ngram_prior,
    nemo_like_prior,
    ngram_counts,
    save_prior,
    substitute_prior,
    training_pairs,
)
from .problem import MOVES, PRIOR_CODE_COUNT, RNADesign, unpack_prior_code
from .solve import METHODS, TEMPERATURE, Design, design, search
from .structure import StructureError, base_pair_distance, pair_table

__all__ = [
    "pair_table",
    "base_pair_distance",
    "StructureError",
    "Puzzle",
    "read_eterna100",
    "eterna_puzzle",
    "data_folder",
    "DATA_VARIABLE",
    "fold",
    "score",
    "evaluate",
    "Score",
    "Evaluation",
    "FoldCache",
    "vienna_version",
    "RNADesign",
    "MOVES",
    "PRIOR_CODE_COUNT",
    "unpack_prior_code",
    "training_pairs",
    "ngram_counts",
    "learn_ngram_prior",
    "substitute_prior",
    "nemo_like_prior",
    "save_prior",
    "NGRAM_LABEL",
    "NEMO_LABEL",
    "TRAINING_SEED",
    "search",
    "design",
    "Design",
    "METHODS",
    "TEMPERATURE",
]
