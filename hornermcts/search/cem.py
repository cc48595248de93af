"""The Cross-Entropy Method: tune numeric parameters of anything.

CEM (Rubinstein 2003; for MCTS parameters Chaslot et al. 2008, and Schadd
et al., *SP-MCTS for SameGame*, sec. 5) keeps one Gaussian per parameter.
Each iteration draws a population of samples, evaluates their fitness, and
refits the Gaussians to the elite (the best samples): *distribution
focusing*. The initial mean is the middle of each parameter's bounds and the
initial standard deviation half their width; samples are clipped to the
bounds, integer parameters rounded, and a parameter marked ``log`` is
sampled in log space (for scales such as SP-MCTS's ``D``).

:func:`cem` knows nothing of searches: ``fitness(params, rng) -> float``
may run games, and takes its randomness from ``rng`` so a seeded run is
reproducible.
"""

from __future__ import annotations

from ..errors import OptionError

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from . import arguments
from .result import SearchResult

__all__ = ["cem", "CEMResult"]


@dataclass(frozen=True)
class CEMResult(SearchResult):
    """What a CEM run found.

    The fields of :class:`~hornermcts.search.result.SearchResult`:
    ``best_moves`` the single sample of highest fitness ever evaluated, a
    parameter dict (also :attr:`best_params`; with noisy fitness often a
    lucky draw: prefer :attr:`params`), ``best_value`` its fitness (also
    :attr:`best_fitness`), ``iterations`` the generations completed,
    ``history`` ``(generation, best fitness)`` each time it improved; plus:

    Attributes
    ----------
    params : dict
        The mean of the final distribution (rounded for integer
        parameters): the tuned values.
    generations : tuple of dict
        Per generation: ``mean`` and ``std`` (dicts, before the update),
        ``elite_fitness`` (mean over the elite), ``best_fitness``.
    evaluations : int
        Fitness calls.
    """

    params: dict = field(default_factory=dict)
    generations: tuple = ()
    evaluations: int = 0

    @property
    def best_params(self) -> dict:
        """The best single sample: :attr:`best_moves`."""
        return self.best_moves

    @property
    def best_fitness(self) -> float:
        """Its fitness: :attr:`best_value`."""
        return self.best_value


class _Best:
    """The best sample so far, and the improvements: ``(iteration, fitness)``, the last of each iteration."""

    __slots__ = ("value", "params", "improvements")

    def __init__(self) -> None:
        self.value = -math.inf
        self.params: dict = {}
        self.improvements: list[tuple[int, float]] = []

    def offer(self, iteration: int, value: float, params: dict) -> None:
        if value > self.value:
            self.value, self.params = value, params
            if not self.improvements or self.improvements[-1][0] != iteration:
                self.improvements.append((iteration, value))
            else:
                self.improvements[-1] = (iteration, value)


def _scores(fitness, params: list, children: list, iteration: int, best: _Best) -> np.ndarray:
    """The fitness of each sample, each with its own Generator; ``best`` follows the best of them."""
    scores = np.empty(len(params))
    for i, p in enumerate(params):
        value = float(fitness(p, children[i]))
        if value != value:
            raise OptionError(f"fitness returned NaN for {p}")
        scores[i] = value
        best.offer(iteration, value, p)
    return scores


def _spec(bounds: Mapping[str, Any], integer, log) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    if not isinstance(bounds, Mapping) or not bounds:
        raise OptionError("bounds must be a non-empty mapping name -> (low, high)")
    names = list(bounds)
    unknown = (set(integer) | set(log)) - set(names)
    if unknown:
        raise OptionError(f"integer/log name unknown parameter(s): {', '.join(sorted(unknown))}")
    low, high = [], []
    for name in names:
        try:
            lo, hi = (float(x) for x in bounds[name])
        except (TypeError, ValueError):
            raise OptionError(f"bounds[{name!r}] must be a pair (low, high), got {bounds[name]!r}") from None
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise OptionError(f"bounds[{name!r}] must be finite with low < high, got {bounds[name]!r}")
        if name in log and lo <= 0:
            raise OptionError(f"log parameter {name!r} needs low > 0, got {lo}")
        low.append(lo)
        high.append(hi)
    is_int = np.array([n in integer for n in names])
    is_log = np.array([n in log for n in names])
    return names, np.array(low), np.array(high), is_int, is_log


def cem(
    fitness: Callable[[dict, np.random.Generator], float],
    bounds: Mapping[str, tuple[float, float]],
    *,
    iterations: int = 10,
    population: int = 100,
    elite: int = 10,
    integer: tuple | list | set = (),
    log: tuple | list | set = (),
    smoothing: float = 1.0,
    min_std: float = 0.0,
    seed: int | np.random.Generator | None = None,
    progress: Callable[[int, dict, float], None] | None = None,
) -> CEMResult:
    """Maximise a (noisy) ``fitness`` over bounded numeric parameters.

    Parameters
    ----------
    fitness : callable
        ``fitness(params, rng) -> float``, higher is better; ``params`` maps
        each name to a float (an int for ``integer`` names); ``rng`` is a
        fresh :class:`numpy.random.Generator` for this evaluation.
    bounds : mapping
        ``name -> (low, high)``.
    iterations : int, default 10
    population : int, default 100
        Samples per iteration (the paper's 100).
    elite : int, default 10
        Best samples the distribution is refitted to (the paper's 10).
    integer, log : collections of names
        Parameters rounded to integers; parameters sampled in log space.
    smoothing : float in (0, 1], default 1.0
        ``alpha``: new = alpha * elite + (1 - alpha) * old, for mean and std.
    min_std : float, default 0.0
        Floor of each standard deviation, as a fraction of the (log-)width
        of the bounds: keeps the search from collapsing early.
    seed : int, numpy.random.Generator or None
    progress : callable, optional
        ``progress(iteration, mean_params, elite_fitness)`` after each
        iteration.

    Returns
    -------
    CEMResult

    Examples
    --------
    A noisy concave function with its peak at x = 3, n = 7:

    >>> def f(p, rng):
    ...     return -(p["x"] - 3.0) ** 2 - (p["n"] - 7) ** 2 + rng.normal(0, 0.5)
    >>> result = cem(f, {"x": (-10, 10), "n": (0, 20)}, integer=["n"],
    ...              iterations=15, population=60, elite=10, seed=1)
    >>> round(result.params["x"]), result.params["n"]
    (3, 7)
    """
    names, low, high, is_int, is_log = _spec(bounds, set(integer), set(log))
    arguments.integer("iterations", iterations, minimum=1)
    arguments.integer("population", population, minimum=2)
    arguments.integer("elite", elite, minimum=1)
    if elite > population:
        raise OptionError(f"elite ({elite}) must not exceed population ({population})")
    if not (0.0 < smoothing <= 1.0):
        raise OptionError(f"smoothing must be in (0, 1], got {smoothing!r}")
    rng, seed_used = arguments.generator(seed)
    start = time.perf_counter()

    # work in the sampling space: log for log parameters
    lo = np.where(is_log, np.log(np.where(is_log, low, 1.0)), low)
    hi = np.where(is_log, np.log(np.where(is_log, high, 1.0)), high)
    mean = (lo + hi) / 2
    std = (hi - lo) / 2
    floor = min_std * (hi - lo)

    def to_params(x: np.ndarray) -> dict:
        values = np.where(is_log, np.exp(x), x)
        values = np.clip(values, low, high)
        return {
            name: (int(round(v)) if integral else float(v)) for name, v, integral in zip(names, values, is_int)
        }

    generations = []
    best = _Best()
    evaluations = 0
    for iteration in range(iterations):
        samples = rng.normal(mean, std, size=(population, len(names)))
        samples = np.clip(samples, lo, hi)
        children = rng.spawn(population)
        params = [to_params(sample) for sample in samples]
        scores = _scores(fitness, params, children, iteration, best)
        evaluations += population
        order = np.argsort(-scores, kind="stable")[:elite]
        # refit on the values actually evaluated (rounded, clipped), in sampling space
        chosen = np.array([[params[i][n] for n in names] for i in order], dtype=float)
        chosen = np.where(is_log, np.log(np.where(is_log, chosen, 1.0)), chosen)
        generations.append(
            {
                "mean": to_params(mean),
                "std": dict(zip(names, std.tolist())),
                "elite_fitness": float(scores[order].mean()),
                "best_fitness": float(scores[order[0]]),
            }
        )
        mean = smoothing * chosen.mean(axis=0) + (1 - smoothing) * mean
        std = np.maximum(smoothing * chosen.std(axis=0) + (1 - smoothing) * std, floor)
        if progress is not None:
            progress(iteration + 1, to_params(mean), generations[-1]["elite_fitness"])
    return CEMResult(
        best_moves=best.params,
        best_value=best.value,
        iterations=iterations,
        elapsed=time.perf_counter() - start,
        stopped="iterations",
        seed=seed_used,
        history=tuple(best.improvements),
        params=to_params(mean),
        generations=tuple(generations),
        evaluations=evaluations,
    )
