"""Argument checks and seeds shared by every search driver.

Each driver validates its budget and seed here, so a bad value gets the same
message (an :class:`~hornermcts.errors.OptionError`, a ValueError) whichever
driver receives it, and a seed means the same thing
everywhere: ``None`` draws fresh entropy (the integer drawn is reported in
the result, to reproduce the run), an integer ``>= 0`` is reproducible, a
:class:`numpy.random.Generator` is used as it is (its seed is unknown:
``None`` in the result).

Examples
--------
>>> integer("iterations", 10, minimum=1)
10
>>> integer("iterations", 0, minimum=1)
Traceback (most recent call last):
...
hornermcts.errors.OptionError: iterations must be an integer >= 1, got 0
>>> rng, used = generator(7)
>>> used, int(rng.integers(100)) == int(np.random.default_rng(7).integers(100))
(7, True)
>>> [int(s) for s in derived_seeds(7, 3)] == [int(s) for s in derived_seeds(7, 3)]
True
"""
from __future__ import annotations

import math
import numbers
import time
from typing import Any, Callable

import numpy as np

from ..errors import OptionError

__all__ = ["integer", "seconds", "finite", "budget", "seed_value", "generator", "generators", "derived_seeds",
           "clock", "CLOCKS"]


def integer(name: str, value: Any, *, minimum: int = 0, optional: bool = False) -> int | None:
    """``value`` as an int, or ValueError naming ``name`` (bools are refused; ``None`` if optional)."""
    if value is None and optional:
        return None
    if not (isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) >= minimum):
        raise OptionError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def seconds(name: str, value: Any, *, optional: bool = True) -> float | None:
    """A finite, positive number of seconds (``None`` if optional)."""
    if value is None and optional:
        return None
    if not (isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value) and value > 0):
        raise OptionError(f"{name} must be a finite number of seconds > 0, got {value!r}")
    return float(value)


def finite(name: str, value: Any, *, minimum: float = -math.inf) -> float:
    """A finite real number ``>= minimum``."""
    if not (isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
            and value >= minimum):
        bound = "" if minimum == -math.inf else f" >= {minimum:g}"
        raise OptionError(f"{name} must be a finite number{bound}, got {value!r}")
    return float(value)


def budget(iterations: Any, time_limit: Any, *, what: str = "iterations") -> None:
    """Check an anytime budget: ``iterations`` (>= 1), ``time_limit`` (seconds), at least one."""
    if iterations is None and time_limit is None:
        raise OptionError(f"no budget: give {what}=N and/or time_limit=seconds")
    integer(what, iterations, minimum=1, optional=True)
    seconds("time_limit", time_limit)


def seed_value(seed: Any) -> int:
    """The integer seed of ``seed`` (``None``: fresh entropy, drawn now)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy % 2**63)
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0:
        return int(seed)
    raise OptionError(f"seed must be None, an int >= 0 or a numpy Generator, got {seed!r}")


def generator(seed: Any) -> tuple[np.random.Generator, int | None]:
    """``(rng, integer seed)`` for a driver's ``seed=`` argument (see the module docstring)."""
    if isinstance(seed, np.random.Generator):
        return seed, None
    used = seed_value(seed)
    return np.random.default_rng(used), used


def generators(seed: Any, count: int) -> tuple[list[np.random.Generator], int | None]:
    """One independent Generator per restart, derived from ``seed`` (one: ``generator(seed)``)."""
    if count == 1:
        rng, used = generator(seed)
        return [rng], used
    if isinstance(seed, np.random.Generator):
        return list(seed.spawn(count)), None
    used = seed_value(seed)
    children = np.random.SeedSequence(used).spawn(count)
    return [np.random.Generator(np.random.PCG64(child)) for child in children], used


def derived_seeds(seed: int, count: int) -> list[int]:
    """``count`` independent integer seeds derived from ``seed`` by :class:`numpy.random.SeedSequence`.

    The seeds of the stages of one run (searches, restarts, workers): each is
    reproducible from ``seed`` and independent of the others.
    """
    return [int(child.generate_state(1, np.uint64)[0] % 2**63)
            for child in np.random.SeedSequence(seed).spawn(count)]


#: ``clock=`` of the searches: wall-clock seconds, or this process's CPU seconds.
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def clock(value: Any) -> Callable[[], float]:
    """The clock function named by ``clock=`` (``"wall"`` or ``"cpu"``).

    Examples
    --------
    >>> clock("cpu") is time.process_time
    True
    >>> clock("gpu")
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: clock must be 'wall' or 'cpu', got 'gpu'
    """
    if not isinstance(value, str) or value not in CLOCKS:
        raise OptionError(f"clock must be 'wall' or 'cpu', got {value!r}")
    return CLOCKS[value]
