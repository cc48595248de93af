"""What the units' Horner schemes leave to share, found over the assembled statements.

The units are optimized together, one Horner order for all, and each
unit's scheme associates, signs and factors its sums its own way; across
units the same value then comes out in different shapes.  Over the
assembled statements and outputs, in rounds: sums read once put in
place (:func:`~hornermcts.expression.subsums.inline_sums_read_once`),
common factors taken out (:func:`~hornermcts.expression.common_factors.factor_sums`),
values computed once up to sign and scale
(:func:`~hornermcts.expression.numbering.share_signed`), sums written
through the sums inside them (:func:`~hornermcts.expression.subsums.share_subsums`);
the second round first multiplies products of sums out
(:func:`~hornermcts.expression.common_factors.distribute`) so that terms
of different products meet.  Last, ``sympy.cse`` over all statements
(:func:`~hornermcts.expression.assemble.share_repeated`).  A round is kept
only where it lowers the count (gait2d rows 9-17: 1071 operations
assembled, 1047 / 1007 / 983 after the first round's steps, 956 after the
second, 937 after ``sympy.cse``; the benchmark's count, calls included).
"""
from __future__ import annotations

from .assemble import count, placeholders, rewritten, share_repeated
from .common_factors import distribute, factor_sums
from .numbering import share_signed
from .subsums import inline_sums_read_once, share_subsums

__all__ = ["share_across"]


def _evaluated(statements, outputs):
    """Everything as SymPy evaluates it (nested sums flattened, signs distributed): one shape for one value."""
    return rewritten(statements, outputs, lambda e: None)


def _signed(statements, outputs):
    return share_signed(statements, outputs, placeholders())


def _subsums(statements, outputs):
    return share_subsums(statements, outputs, placeholders())


#: The rounds, each a sequence of rewrites of ``(statements, outputs)``.
ROUNDS = (
    (_evaluated, inline_sums_read_once, factor_sums, _signed, _subsums),
    (distribute, _signed, _subsums, inline_sums_read_once, factor_sums, _signed, _subsums),
    (share_repeated,),
)


def share_across(statements: list, outputs: list) -> tuple[list, list, object]:
    """``(statements, outputs, count)``: the rounds of the module docstring, each kept where it counts less."""
    best = (statements, outputs)
    best_count = count(*best)
    for steps in ROUNDS:
        now = best
        for step in steps:
            now = step(*now)
        now_count = count(*now)
        if now_count.total < best_count.total:
            best, best_count = now, now_count
    return best[0], best[1], best_count
