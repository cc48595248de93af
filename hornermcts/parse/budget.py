"""The budget of a reading: how many terms expanding products and powers may build, and until when.

Expanding ``(a0 + b0)*(a1 + b1)*...*(a29 + b29)`` (330 bytes of text) would
build 2^30 terms; a product of 20,000 factors ``(x + 1)`` has only 20,001
terms but costs 2*10^8 products of monomials.  Every reader therefore
expands under one :class:`Budget`:

* before a product or power is expanded, an upper bound of its terms is
  predicted from its factors (the product of their term counts, and the
  monomials the factors' exponents allow); beyond :attr:`Budget.max_terms`
  it is refused before any of the work is done;
* inside the multiplication loops the terms built so far are counted: the
  product of the result is refused once it holds more than ``max_terms``
  terms, the whole reading once it has multiplied more than
  :data:`WORK_PER_TERM` ``* max_terms`` pairs of monomials (about a second
  per million on this machine), and the deadline is looked at.

A refusal is a :class:`~hornermcts.errors.LimitError` naming the limit, the
size asked for and where (``file:line``); the deadline's end a
:class:`~hornermcts.errors.TimeLimitError`.  The default,
:data:`MAX_TERMS` = 1,000,000 terms, keeps an expansion under about 1 GB
(a monomial of the sparse dict costs about 1 kB with its tuples) and
admits every legitimate input we have: res(8,6) has 114,080 terms, products
that expand to a few hundred thousand terms take a few seconds.

>>> b = Budget(max_terms=1000, where=lambda: "in.txt:3")
>>> b.product([{(): 1, ((0, 1),): 1}] * 30)   # (x + 1)^30: 2^30 products, but at most 31 monomials
>>> b.product([{(): 1, ((k, 1),): 1} for k in range(12)])
Traceback (most recent call last):
...
hornermcts.errors.LimitError: in.txt:3: expanding this product would build up to 4,096 terms: ...
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

from ..errors import LimitError, OptionError, TimeLimitError
from ..options import MAX_TERMS

__all__ = ["Budget", "MAX_TERMS", "WORK_PER_TERM"]
#: The products of monomials a whole reading may compute, per term of
#: ``max_terms`` (5*10^6 by default: about 5 s at 1 us each on this machine).
WORK_PER_TERM = 5


class Budget:
    """Terms and time for the expansions of one reading (see the module docstring).

    ``where`` says where the reader is (``"file:line"``) for the messages;
    ``deadline`` is a :class:`~hornermcts.deadline.Deadline` or None.
    """

    __slots__ = ("max_terms", "max_work", "work", "deadline", "where")

    def __init__(self, max_terms: int | None = None, deadline=None, where: Callable[[], str] = lambda: "input"):
        max_terms = MAX_TERMS if max_terms is None else max_terms
        if not isinstance(max_terms, int) or isinstance(max_terms, bool) or max_terms < 1:
            raise OptionError(f"max_terms must be an integer >= 1, got {max_terms!r}")
        self.max_terms = max_terms
        self.max_work = WORK_PER_TERM * max_terms
        self.work = 0
        self.deadline = deadline if deadline is not None and deadline.bounded else None
        self.where = where

    def _refuse(self, what: str, size: int):
        return LimitError(f"{self.where()}: {what} would build up to {size:,} terms: expansions are limited to "
                          f"max_terms={self.max_terms:,} (--max-terms); write it unexpanded or raise the limit")

    def product(self, factors: Sequence[dict]) -> None:
        """Refuse the product of ``factors`` (sparse dicts) if its predicted terms exceed ``max_terms``."""
        bound = math.prod(len(f) for f in factors)
        if bound > self.max_terms:
            bound = min(bound, _monomials_bound(factors))
            if bound > self.max_terms:
                raise self._refuse("expanding this product", bound)

    def power(self, base: dict, n: int) -> None:
        """Refuse ``base**n`` if its predicted terms exceed ``max_terms``."""
        t = len(base)
        if t > 1 and n > 1:
            bound = math.comb(n + t - 1, t - 1)
            if bound > self.max_terms:
                bound = min(bound, _monomials_bound([base], n))
                if bound > self.max_terms:
                    raise self._refuse(f"expanding a sum of {t} terms to the power {n}", bound)

    def spend(self, work: int, built: int) -> None:
        """Count ``work`` products of monomials of a product now holding ``built`` terms; refuse past the limits."""
        self.work += work
        if built > self.max_terms:
            raise self._refuse("expanding this product", built)
        if self.work > self.max_work:
            raise LimitError(f"{self.where()}: expanding the products of the input took more than "
                             f"{self.max_work:,} products of monomials: the limit is {WORK_PER_TERM} per term of "
                             f"max_terms={self.max_terms:,} (--max-terms); write it unexpanded or raise the limit")
        self.tick()

    def tick(self) -> None:
        """A TimeLimitError naming where the reading is, once the deadline has passed."""
        if self.deadline is not None and self.deadline.expired():
            raise TimeLimitError(f"{self.where()}: the time limit ran out while reading the input")


def _monomials_bound(factors: Sequence[dict], times: int = 1) -> int:
    """The monomials a product of ``factors`` (each ``times`` times) can have: per variable, the exponents allowed."""
    top: dict[int, int] = {}
    for f in factors:
        highest: dict[int, int] = {}
        for m in f:
            for i, e in m:
                if e > highest.get(i, 0):
                    highest[i] = e
        for i, e in highest.items():
            top[i] = top.get(i, 0) + e
    return math.prod(times * e + 1 for e in top.values())
