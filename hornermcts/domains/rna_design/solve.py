"""The searches of Table 3 (Cazenave 2024) on one target: Sampling, NRPA, GNRPA, with or without a prior.

:func:`search` runs one of :data:`METHODS` through
:func:`hornermcts.search.nrpa` with the problem's compiled playout (the
coded hook), under a CPU-time budget (Table 3's budgets are seconds),
stopping at the first design that folds into the target (reward 0):
``"sampling"`` is level 0 (repeated playouts; with a prior, "Sampling
with the prior"); ``"nrpa"`` is level 2 with N = 100 and alpha = 1,
restarted with a fresh policy whenever it ends within the budget (docs/domains.md
B5.1 for time budgets); ``"gnrpa"`` the same with the prior's bias (tau =
6).  :func:`design` runs it and folds the best design once more for the
report (:class:`Design`).

Examples
--------
>>> import pytest; _ = pytest.importorskip("RNA")  # folds: skipped without ViennaRNA
>>> from hornermcts.domains.rna_design import RNADesign
>>> found = design(RNADesign("((((....))))"), "nrpa", time_limit=10.0, seed=0)
>>> found.solved, found.evaluation.structure, found.folds <= found.playouts
(True, '((((....))))', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import OptionError
from ...search.nested import NestedResult, nrpa
from ...search.prior import Prior
from .folding import Evaluation, vienna

__all__ = ["search", "design", "warm_up", "Design", "METHODS", "LEVEL", "PER_LEVEL", "TEMPERATURE"]

#: The methods of the paper's Table 3.
METHODS = ("sampling", "nrpa", "gnrpa")
#: NRPA/GNRPA level for time budgets and iterations per level (docs/domains.md B5.1).
LEVEL = 2
PER_LEVEL = 100
#: The temperature of the NGRAM prior (tau = 6 for RNA).
TEMPERATURE = 6.0


def search(problem: Any, method: str, *, time_limit: float | None = None, playouts: int | None = None,
           clock: str = "cpu", prior: Prior | None = None, temperature: float = TEMPERATURE, level: int = LEVEL,
           per_level: int = PER_LEVEL, seed: int | None = 0, progress: Any = None) -> NestedResult:
    """Run ``method`` on an :class:`~.problem.RNADesign` until solved or out of budget.

    Parameters
    ----------
    method : str
        ``"sampling"`` (with ``prior``: Sampling with the prior), ``"nrpa"``
        (no prior allowed) or ``"gnrpa"`` (``prior`` required).
    time_limit : float, optional
        Seconds on ``clock`` (CPU seconds of this process by default).
    playouts : int, optional
        A playout budget (also, or instead).  One of the two is required.
    prior : Prior, optional
        Over the NGRAM prior codes (:mod:`.prior`).
    """
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    if method == "gnrpa" and prior is None:
        raise OptionError("gnrpa needs a prior (the NGRAM substitute prior, or one learned with --learn-prior)")
    if method == "nrpa" and prior is not None:
        raise OptionError("nrpa runs without a prior (gnrpa is NRPA with the prior's bias)")
    if time_limit is None and playouts is None:
        raise OptionError("give a budget: time_limit (seconds) and/or playouts")
    if prior is not None:
        bad = [c for c in prior.nb if not (isinstance(c, int) and 0 <= c < problem.prior_code_count)]
        if bad:
            raise OptionError(f"the prior has {len(bad)} codes that are not NGRAM codes (0..109), first {bad[0]!r}")
    return nrpa(problem, level=0 if method == "sampling" else level, per_level=per_level, prior=prior,
                temperature=temperature, playouts=playouts, time_limit=time_limit, clock=clock, target=0.0,
                coded=True, seed=seed, progress=progress)


@dataclass(frozen=True)
class Design:
    """What :func:`design` found.

    Attributes
    ----------
    result : NestedResult
        The search's result (``reached``, ``reached_seconds``: the playout and
        the seconds at which the target was first folded).
    sequence : str
        The best design.
    evaluation : Evaluation
        Its MFE structure, energy, distance and ensemble defect (folded once
        more after the search).
    folds : int
        Sequences folded during the search (each once).
    hits : int
        Designs scored from the fold cache during the search.
    """

    result: NestedResult
    sequence: str
    evaluation: Evaluation
    folds: int
    hits: int

    @property
    def solved(self) -> bool:
        """Whether the best design folds into the target."""
        return self.evaluation.solved

    @property
    def playouts(self) -> int:
        """Playouts done."""
        return self.result.iterations

    @property
    def seconds(self) -> float:
        """Seconds spent (on the search's clock)."""
        return self.result.elapsed


def warm_up(problem: Any) -> None:
    """Load the compiled playout and ViennaRNA before a timed search (about 0.2 s, once per process)."""
    vienna()
    problem.playout(problem.root(), np.random.default_rng(0))


def design(problem: Any, method: str, **options: Any) -> Design:
    """:func:`search`, then the best design folded once more: a :class:`Design` (``options`` as for search).

    The compiled playout and ViennaRNA are loaded first (:func:`warm_up`),
    so that the search's CPU time is the search's.
    """
    warm_up(problem)
    folds, hits = problem.cache.folds, problem.cache.hits
    result = search(problem, method, **options)
    folds, hits = problem.cache.folds - folds, problem.cache.hits - hits
    if result.best_state is None:  # pragma: no cover - a budget always allows one playout
        raise OptionError("the search ended before its first playout")
    evaluation = problem.evaluate(result.best_state)
    if (result.reached is not None) != evaluation.solved:  # pragma: no cover - the score and the refold agree
        raise AssertionError(f"the search says solved={result.reached is not None}, the refold {evaluation}")
    return Design(result, problem.sequence(result.best_state), evaluation, folds, hits)
