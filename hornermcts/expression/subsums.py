"""A sum that is part of another sum, computed once: ``t = a + b``, then ``t + c`` for ``a + b + c``.

The units are optimized together, but a sum built in one unit's Horner
scheme is not looked for inside the sums of another: gait2d rows 9-17
compute ``qai + qei``, ``qai + qei + qfi`` and ``qai + qei + qfi + qgi``
each from scratch (the angles of a leg's segments), and
``2*x1 - 2*x2 - lb`` beside ``x2 - x1``.  :func:`share_subsums` writes
every sum of the assembled statements, the smallest first, as the largest
other sum inside it (its terms a multiple of some of ours), then the
largest inside what is left, and so on; a sum read that way gets a name.
"""
from __future__ import annotations

from collections import Counter

import sympy

from .assemble import in_order, rebuilt

__all__ = ["share_subsums", "inline_sums_read_once"]


def inline_sums_read_once(statements: list, outputs: list) -> tuple[list, list]:
    """A statement that is a sum read once put in place (``x + s`` with ``s = a + b`` is ``x + a + b``).

    It costs the same either way; in place, its terms are terms of the sum
    that reads it, for :func:`share_subsums` and
    :func:`~hornermcts.expression.common_factors.factor_sums` to see.
    """
    reads: Counter = Counter()
    for e in [rhs for _, rhs in statements] + list(outputs):
        for node in sympy.preorder_traversal(e):
            if node.is_Symbol:
                reads[node] += 1
    value: dict = {}
    table: dict = {}
    for s, rhs in statements:
        rhs = rhs.xreplace(value)
        if rhs.is_Add and reads[s] == 1:
            value[s] = rhs
        else:
            table[s] = rhs
    outputs = [e.xreplace(value) for e in outputs]
    return in_order(table, outputs), outputs


def _terms(e) -> dict:
    """``{rest: number}`` of a sum's terms (SymPy's sums hold each rest once)."""
    return dict(reversed(a.as_coeff_Mul()) for a in e.args)


def _multiple(part: dict, whole: dict):
    """``k`` with ``whole ⊇ k*part`` term by term, or None."""
    k = None
    for rest, c in part.items():
        d = whole.get(rest)
        if d is None:
            return None
        if k is None:
            k = d / c
        elif d / c != k:
            return None
    return k


def share_subsums(statements: list, outputs: list, names) -> tuple[list, list]:
    """``(statements, outputs)`` with sums written through the sums they contain; ``names`` for new statements."""
    sums: dict = {}  # every sum once, in the order first met
    for e in [rhs for _, rhs in statements] + list(outputs):
        for node in sympy.preorder_traversal(e):
            if node.is_Add and node not in sums:
                sums[node] = _terms(node)
    order = sorted(sums, key=lambda s: len(sums[s]))  # stable: the first met first among equal sizes
    containing: dict = {}  # rest -> the sums (of smaller or equal rank) with that term
    plan: dict = {}  # sum -> ([(k, part)], [rest left])
    for whole in order:
        terms = sums[whole]
        left = dict(terms)
        parts = []
        while len(left) >= 2:
            best = None
            candidates = {p for rest in left for p in containing.get(rest, ())}
            for part in candidates:
                if 2 <= len(sums[part]) <= len(left) and (best is None or len(sums[part]) > len(sums[best[1]])):
                    k = _multiple(sums[part], left)
                    if k is not None:
                        best = (k, part)
            if best is None:
                break
            parts.append(best)
            for rest in sums[best[1]]:
                del left[rest]
        if parts:
            plan[whole] = (parts, left)
        for rest in terms:
            containing.setdefault(rest, []).append(whole)
    if not plan:
        return statements, outputs
    used = {part for parts, _ in plan.values() for _, part in parts}
    named = {rhs: s for s, rhs in statements if rhs in used}
    table = dict(statements)
    for part in order:
        if part in used and part not in named:
            named[part] = next(names)
            table[named[part]] = part
    memo: dict = {}

    def rewrite(e, own=False):
        if e.is_Atom:
            return e
        if not own and e in named:
            return named[e]
        key = (e, own)
        if key not in memo:
            if e in plan:
                parts, left = plan[e]
                memo[key] = sympy.Add(*[k * named[part] for k, part in parts],
                                      *[rewrite(a) for a in e.args if a.as_coeff_Mul()[1] in left])
            else:
                memo[key] = rebuilt(e, [rewrite(a) for a in e.args])
        return memo[key]

    table = {s: rewrite(rhs, own=True) for s, rhs in table.items()}
    outputs = [rewrite(e) for e in outputs]
    return in_order(table, outputs), outputs
