"""Random stacking instances, for tests and small experiments.

Not Rei's generator (whose formulas are not published): release dates are
drawn uniformly over a horizon and each item stays a uniform number of time
units, so the default (horizon and stays up to the number of items) gives
overlapping stays, equal due dates and relocations on a few stacks: small
instances that a brute force over the tree still solves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...search.arguments import integer
from .instance import StackingInstance

__all__ = ["random_instance"]


def random_instance(items: int, width: int, *, horizon: int | None = None, max_stay: int | None = None,
                    seed: Any = None) -> StackingInstance:
    """``items`` items on ``width`` stacks: release uniform in ``[0, horizon)``, stay uniform in ``[1, max_stay]``.

    Both default to ``items``.  ``seed``: an int, a :class:`numpy.random.Generator` or None.

    Examples
    --------
    >>> inst = random_instance(6, 2, seed=1)
    >>> inst
    StackingInstance('random-6x2-1', items=6, width=2)
    >>> inst.release.tolist(), inst.due.tolist()
    ([2, 3, 4, 5, 0, 0], [7, 9, 6, 7, 6, 3])
    """
    integer("items", items, minimum=1)
    integer("width", width, minimum=2)
    span = int(integer("horizon", horizon if horizon is not None else items, minimum=1) or 1)
    stay = int(integer("max_stay", max_stay if max_stay is not None else items, minimum=1) or 1)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    release = rng.integers(0, span, size=items)
    due = release + rng.integers(1, stay + 1, size=items)
    name = f"random-{items}x{width}" + (f"-{seed}" if isinstance(seed, (int, np.integer)) else "")
    return StackingInstance(release, due, width=width, name=name)
