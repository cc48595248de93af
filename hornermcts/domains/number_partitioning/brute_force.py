"""The optimal partition by enumeration of all ``2^N`` subsets: the oracle of the tests (N up to ~20).

Examples
--------
>>> optimum = brute_force_partition([8, 7, 6, 5, 4])
>>> optimum.discrepancy, optimum.subsets([8, 7, 6, 5, 4])
(0, ([8, 7], [6, 5, 4]))
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...errors import OptionError
from .partition import Partition

__all__ = ["brute_force_partition"]

_MAX_NUMBERS = 24


def brute_force_partition(numbers: Sequence[int]) -> Partition:
    """An optimal partition of ``numbers`` (at most 24 of them), by trying every subset.

    The subset sums are built by doubling (NumPy, int64 when the total
    fits, exact Python ints otherwise); among optimal subsets the one of
    smallest index mask is returned, with the first number on the first side.

    >>> brute_force_partition([3, 1, 1]).sums
    (3, 2)
    """
    values = [int(a) for a in numbers]
    if not values:
        raise OptionError("number partitioning needs at least one number")
    if len(values) > _MAX_NUMBERS:
        raise OptionError(f"brute force takes at most {_MAX_NUMBERS} numbers, got {len(values)}")
    total = sum(values)
    dtype = np.int64 if total < 2**62 else object
    # sums[mask] = sum of the numbers 1..N-1 whose bit is set; number 0 is always on the first side
    sums = np.zeros(1, dtype=dtype)
    for value in values[1:]:
        sums = np.concatenate([sums, sums + value])
    first_sums = sums + values[0]
    gaps = np.abs(2 * first_sums - total)
    mask = int(np.argmin(gaps))
    first = (0,) + tuple(i for i in range(1, len(values)) if mask >> (i - 1) & 1)
    second = tuple(i for i in range(1, len(values)) if not mask >> (i - 1) & 1)
    return Partition(first, second, (sum(values[i] for i in first), sum(values[i] for i in second)))
