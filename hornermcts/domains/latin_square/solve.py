"""The searches of Cazenave (2024)'s tables on a domain problem: Sampling, NRPA, GNRPA, with or without a prior.

:func:`search` runs one of :data:`METHODS` through
:func:`hornermcts.search.nrpa` (the coded hook, so the problem's compiled
playout): ``"sampling"`` is level 0 (repeated playouts; with a prior,
"Sampling with the prior"), ``"nrpa"`` level 3 with N = 100 and alpha = 1
(docs/domains.md B5.1), ``"gnrpa"`` the same with the prior's bias (a prior is
required).  The run stops at the playout budget or when a playout reaches
``target``; ``result.reached`` is the playout that first did.  Latin square
completion and Kakuro share it.

The paper does not give NRPA's level, N or alpha.  On Latin squares,
level 3 makes NRPA much stronger than the paper's NRPA row.  Level 1
(``level=1``: N = 100, restarted until the budget) reproduces that row
within a few problems, and GNRPA's gain over it comes close to the
paper's factors (``benchmarks/results/gnrpa_latin_square*.txt``, the
setting chosen on validation problems).

Examples
--------
>>> from hornermcts.domains.latin_square import LatinSquareCompletion, generate
>>> problem = LatinSquareCompletion(generate(8, blanks=0.3, seed=0))
>>> result = search(problem, "sampling", playouts=100, target=0.0, seed=0)
>>> result.stopped, result.reached, problem.is_solved(result.best_state)
('target', 1, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import OptionError
from ...search.nested import NestedResult, nrpa
from ...search.prior import Prior

__all__ = ["search", "search_seed", "METHODS", "LEVEL", "PER_LEVEL", "TEMPERATURE"]

#: The methods of the paper's tables.
METHODS = ("sampling", "nrpa", "gnrpa")
#: NRPA/GNRPA level and iterations per level (Rosin's N; docs/domains.md B5.1).
LEVEL = 3
PER_LEVEL = 100
#: The temperature of the prior (tau = 4 for LSC and Kakuro).
TEMPERATURE = 4.0


def search_seed(seed: int) -> int:
    """The search seed that goes with the instance generated from ``seed``: another random stream.

    Searching with the generator's own seed can replay the playout that
    generated the instance (a Kakuro instance is made by a uniform playout
    from the empty grid, the root of the search: uniform Sampling with the
    same seed "solves" it in one playout).  The command line and the
    benchmarks search with this seed instead.

    >>> search_seed(0) != 0 and search_seed(0) == search_seed(0) != search_seed(1)
    True
    """
    return int(np.random.SeedSequence([int(seed), 0x5EA2C4]).generate_state(1, np.uint64)[0] % 2 ** 63)


def search(problem: Any, method: str, *, playouts: int, target: float, prior: Prior | None = None,
           temperature: float = TEMPERATURE, level: int = LEVEL, per_level: int = PER_LEVEL, alpha: float = 1.0,
           seed: int | None = 0, progress: Any = None) -> NestedResult:
    """Run ``method`` on ``problem`` for at most ``playouts`` playouts, stopping at ``target``.

    Parameters
    ----------
    method : str
        ``"sampling"`` (with ``prior``: Sampling with the prior), ``"nrpa"``
        (no prior allowed) or ``"gnrpa"`` (``prior`` required).
    prior : Prior, optional
        A prior over the problem's integer prior codes.
    level, per_level, alpha : int, int, float
        NRPA's level, N and learning rate (:func:`hornermcts.search.nrpa`;
        a search that ends before the budget restarts).
    """
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    if method == "gnrpa" and prior is None:
        raise OptionError("gnrpa needs a prior (learn one with --learn-prior, pass it with --prior)")
    if method == "nrpa" and prior is not None:
        raise OptionError("nrpa runs without a prior (gnrpa is NRPA with the prior's bias)")
    return nrpa(problem, level=0 if method == "sampling" else level, per_level=per_level, alpha=alpha, prior=prior,
                temperature=temperature, playouts=playouts, target=target, coded=True, seed=seed,
                progress=progress)
