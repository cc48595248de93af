"""The Karmarkar-Karp differencing heuristic (KK; Rei's thesis, Alg. 4.1).

Repeatedly replace the two largest numbers by their difference; the last
number left is the discrepancy ``E`` of the partition this builds (the two
numbers of each difference go to opposite sides). On ``{8, 7, 6, 5, 4}`` it
gives 2, where the optimum, ``{8, 7}`` against ``{6, 5, 4}``, is 0. KK is
exact for four numbers or fewer.

The numbers are exact Python ints: the hard instances have ``N`` numbers of
``N`` bits (N up to 1000), beyond every machine integer, and their
discrepancies need every bit. Which container runs KK fastest was measured
(CPU time per KK run of ``N`` random ``N``-bit numbers, one core of the
shared machine, CPython 3.11):

=========================================  ========  ========  =========
container                                   N = 100   N = 300   N = 1000
=========================================  ========  ========  =========
``bisect.insort`` into a sorted list         23 us    97 us    400 us
``heapq`` of negated ints                    39 us   133 us    658 us
sorted originals + ``heapq`` of differences  40 us   150 us    669 us
=========================================  ========  ========  =========

The sorted list wins: ``insort`` costs a binary search and a ``memmove``
in C, and differences are small, so they go near the front of the list
(the pop end is the back) and move little. It is what :func:`karmarkar_karp`
and the complete-KK search (:mod:`.complete_kk`, which changes one list in
place and undoes its moves) use.

The tree search's simulation runs thousands of KK runs from tree states and
is compiled instead (:mod:`.kernels`: 32-bit limbs, an index array in
descending order): KK to a leaf from the root took 14, 31 and 229 us at
N = 100, 300 and 1000, where this function takes 23, 90 and 825 us and the
Python simulation it replaced (which also tracked the state's numbers and
tested for a leaf at every step) 1.4 to 1.7 times as long (CPU time, one
core of the shared machine under load 3.5, 2,000 runs each).

Examples
--------
>>> karmarkar_karp([8, 7, 6, 5, 4])
2
>>> karmarkar_karp([5])
5
"""

from __future__ import annotations

from bisect import insort
from typing import Iterable

from ...errors import OptionError

__all__ = ["karmarkar_karp"]


def karmarkar_karp(numbers: Iterable[int]) -> int:
    """The discrepancy ``E >= 0`` of the Karmarkar-Karp partition of ``numbers``.

    Examples
    --------
    >>> karmarkar_karp([3, 3])
    0
    >>> karmarkar_karp([])
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: number partitioning needs at least one number
    """
    s = sorted(numbers)
    if not s:
        raise OptionError("number partitioning needs at least one number")
    pop = s.pop
    while len(s) > 1:
        u = pop()
        insort(s, u - pop())
    return s[0]

