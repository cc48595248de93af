"""Kakuro with only the row and column sums (Cazenave 2024, sec. 4.2): instances, a checker, the playout, a prior.

Fill an all-blank ``size x size`` grid (10 x 10 in the paper) with
``1..values`` (1..11), all different in every row and column, each row and
column summing to its hint.

- :class:`KakuroInstance`, :func:`generate`, :func:`read_instance`,
  :func:`write_instance`: instances (one playout builds a valid square, its
  sums are the hints) and their text format;
- :func:`violations`, :func:`is_solution`, :func:`sums_matched`: the
  independent checker;
- :class:`Kakuro`: the search problem (forward checking for all-different
  only, MRV; moves (cell, value); reward ``-(empty cells)``, or the number
  of lines whose sum matches when the grid is full: 20 when solved), with a
  compiled playout through the coded hook of :func:`hornermcts.search.nrpa`
  and the prior code in four kinds (``code=``: the readings ``sums``,
  ``filled``, ``remaining`` of the paper's sentence, the ablation ``hints``);
- :func:`learn_prior`, :func:`training_instances`: the prior by Replay of
  generated solved problems;
- the command ``hornermcts kakuro`` (:mod:`.cli`); Sampling, NRPA and GNRPA
  run through :func:`hornermcts.domains.latin_square.search`.

One concept per module: :mod:`.instance`, :mod:`.checker`, :mod:`.kernels`
(Numba), :mod:`.problem`, :mod:`.prior`, :mod:`.cli`.

Examples
--------
>>> from hornermcts.domains.latin_square import search
>>> instance = generate(10, 11, seed=0)
>>> problem = Kakuro(instance, code="hints")
>>> prior = learn_prior(training_instances(1000), code="hints")
>>> result = search(problem, "sampling", prior=prior, playouts=1000, target=20.0, seed=0)
>>> result.reached is not None and is_solution(instance, problem.grid(result.best_state))
True
"""

from __future__ import annotations

from .checker import is_solution, sums_matched, violations
from .instance import KakuroInstance, generate, read_instance, write_instance
from .prior import TRAINING_SEED, learn_prior, training_instances
from .problem import PRIOR_CODES, Kakuro

__all__ = [
    "KakuroInstance",
    "generate",
    "read_instance",
    "write_instance",
    "violations",
    "is_solution",
    "sums_matched",
    "Kakuro",
    "PRIOR_CODES",
    "learn_prior",
    "training_instances",
    "TRAINING_SEED",
]
