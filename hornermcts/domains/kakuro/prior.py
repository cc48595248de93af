"""The Kakuro prior, learned by Replay on generated solved problems (compiled).

:func:`learn_prior` replays each instance's solution (Alg. 4 of Cazenave
2024) in compiled code and returns the :class:`hornermcts.search.Prior` over
the packed prior codes of :mod:`.kernels`, of one kind
(:data:`~.problem.PRIOR_CODES`): the same tables as ``Prior.learn((problem,
problem.solution_moves()) for ...)``, much faster.

Examples
--------
>>> prior = learn_prior(training_instances(50, first_seed=7))
>>> prior
Prior(... codes, 5000 solution moves)
"""

from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

from ...errors import OptionError
from ...search.prior import Prior
from .instance import KakuroInstance, generate
from .problem import Kakuro

__all__ = ["learn_prior", "training_instances", "TRAINING_SEED"]

#: The first seed of the training problems (test problems use small seeds, 0, 1, 2, ...).
TRAINING_SEED = 1_000_000


def training_instances(count: int, *, size: int = 10, values: int = 11,
                       first_seed: int = TRAINING_SEED) -> Iterator[KakuroInstance]:
    """``count`` generated instances with their solutions, seeds ``first_seed, first_seed + 1, ...``."""
    for k in range(count):
        yield generate(size, values, seed=first_seed + k)


def learn_prior(instances: Iterable[KakuroInstance], *, code: str = "remaining",
                propagation: str = "alldifferent") -> Prior:
    """The prior learned by replaying each instance's solution (all of one size and value range).

    ``code`` is the kind of prior code (:data:`~.problem.PRIOR_CODES`); ``propagation`` what forward
    checking enforces in the replay (the legal moves counted), as for :class:`~.problem.Kakuro`.

    Raises
    ------
    OptionError
        If an instance has no solution, or the shapes differ.
    """
    count: dict[int, int] = {}
    nb: dict[int, int] = {}
    shape = None
    seen_all: list[np.ndarray] = []
    used_all: list[np.ndarray] = []
    for instance in instances:
        problem = Kakuro(instance, code=code, propagation=propagation)
        if shape is None:
            shape = (problem.size, problem.values)
        elif (problem.size, problem.values) != shape:
            raise OptionError(f"instances of shapes {shape} and {(problem.size, problem.values)}: "
                              "a prior is learned on one shape")
        seen, used = problem.replay_codes()
        seen_all.append(seen)
        used_all.append(used)
    for codes, into in ((seen_all, nb), (used_all, count)):
        if codes:
            keys, tallies = np.unique(np.concatenate(codes), return_counts=True)
            into.update(zip(keys.tolist(), tallies.tolist()))
    return Prior(count, nb)
