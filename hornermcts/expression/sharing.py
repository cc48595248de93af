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
of different products meet.  Last, on all but large inputs, ``sympy.cse``
over all statements (:func:`~hornermcts.expression.assemble.share_repeated`).
A round is kept only where it lowers the count.  gait2d rows 9-17, the
benchmark's count (calls included): 1071 operations assembled, 1047 /
1007 / 983 after the first round's factors, signs and sub-sums, 945 after
the second round; 0.25 s.
"""
from __future__ import annotations

from .assemble import rebuilt, count, placeholders, rewritten, share_repeated
from .common_factors import distribute, factor_sums
from .numbering import share_signed
from .subsums import inline_sums_read_once, share_subsums

__all__ = ["share_across"]


def _evaluated(statements, outputs):
    """Everything as SymPy evaluates it (nested sums flattened, signs distributed): one shape for one value."""
    return rewritten(statements, outputs, lambda e: rebuilt(e, e.args, again=True))


def _signed(statements, outputs):
    return share_signed(statements, outputs, placeholders())


def _subsums(statements, outputs):
    return share_subsums(statements, outputs, placeholders())


#: The rounds, each a sequence of rewrites of ``(statements, outputs)``.
ROUNDS = (
    (_evaluated, inline_sums_read_once, factor_sums, _signed, _subsums),
    (distribute, _subsums, inline_sums_read_once, factor_sums, _signed, _subsums),
)

#: ``sympy.cse`` over the statements (a product shared in part, ``a*b*c`` and ``a*b*d``) runs only up to this many
#: operations: below it, it costs 0.01-0.03 s and finds 1-10 operations more (pendulum5 Jacobian 184 -> 174,
#: n-link 5 180 -> 173); on gait2d rows 9-17 (1000 operations) it takes 0.1-0.2 s of the call's 1.7 s bound and
#: finds 3.
REPEATED_LIMIT = 500


def share_across(statements: list, outputs: list) -> tuple[list, list, object]:
    """``(statements, outputs, count)``: the rounds of the module docstring, each kept where it counts less."""
    best = (statements, outputs)
    best_count = count(*best)
    rounds = ROUNDS if best_count.total > REPEATED_LIMIT else ROUNDS + ((share_repeated,),)
    for steps in rounds:
        now = best
        for step in steps:
            now = step(*now)
        now_count = count(*now)
        if now_count.total < best_count.total:
            best, best_count = now, now_count
    return best[0], best[1], best_count
