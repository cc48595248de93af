"""The Dual prior of Latin square completion, learned by Replay on generated solved problems (compiled).

:func:`learn_prior` replays the solution of each instance (Alg. 4 of
Cazenave 2024) in compiled code (:func:`~.kernels.replay`) and returns the
:class:`hornermcts.search.Prior` whose codes are the Dual codes ``rc * (n +
1) + cc`` (:mod:`.kernels`): the same tables as
``Prior.learn((problem, problem.solution_moves()) for ...)``, much faster.
:func:`training_instances` are the generated solved problems, by seed.

Examples
--------
>>> prior = learn_prior(training_instances(20, order=8, first_seed=10))
>>> prior
Prior(... codes, ... solution moves)
>>> 0.0 < prior.overall < 1.0
True
"""

from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

from ...errors import OptionError
from ...search.prior import Prior
from .instance import LatinSquareInstance, generate
from .problem import CALIBRATED, LatinSquareCompletion

__all__ = ["learn_prior", "training_instances", "TRAINING_SEED"]

#: The first seed of the training problems (test problems use small seeds, 0, 1, 2, ...).
TRAINING_SEED = 1_000_000


def training_instances(count: int, *, order: int = 20, blanks: float = 0.42,
                       first_seed: int = TRAINING_SEED) -> Iterator[LatinSquareInstance]:
    """``count`` generated instances with their solutions, seeds ``first_seed, first_seed + 1, ...``."""
    for k in range(count):
        yield generate(order, blanks=blanks, seed=first_seed + k)


def learn_prior(instances: Iterable[LatinSquareInstance], *, channeling: str = CALIBRATED) -> Prior:
    """The Dual prior learned by replaying each instance's solution (all of one order).

    Raises
    ------
    OptionError
        If an instance has no solution, or the orders differ.
    """
    count = nb = None
    order = None
    for instance in instances:
        problem = LatinSquareCompletion(instance, channeling=channeling)
        if order is None:
            order = problem.order
            count = np.zeros(problem.prior_code_count, np.int64)
            nb = np.zeros(problem.prior_code_count, np.int64)
        elif problem.order != order:
            raise OptionError(f"instances of orders {order} and {problem.order}: a prior is learned on one order")
        seen, used = problem.replay_codes()
        nb += np.bincount(seen, minlength=nb.size)  # type: ignore[union-attr, operator]
        count += np.bincount(used, minlength=nb.size)  # type: ignore[union-attr, operator]
    if count is None or nb is None:
        return Prior()
    return Prior({int(c): int(count[c]) for c in np.flatnonzero(count)},
                 {int(c): int(nb[c]) for c in np.flatnonzero(nb)})
