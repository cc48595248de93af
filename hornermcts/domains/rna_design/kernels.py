"""The compiled (Numba) playout of RNA design: positions left to right, moves drawn by the softmax policy.

A design of a target with ``K`` *steps* (the ``.`` and ``(`` positions,
left to right; a ``)`` is fixed by its ``(``) is a sequence of ``K`` move
ids (:data:`~hornermcts.domains.rna_design.problem.MOVES`): 0-3 (A, C, G,
U) at a ``.`` step (``kind`` 0), 4-9 (CG, GC, GU, UG, AU, UA) at a ``(``
step (``kind`` 1).  The NRPA policy code of move ``m`` at the step at
nucleotide ``position`` is ``position * 10 + m``; the NGRAM prior code is
``previous * 10 + m``, ``previous`` being the move of the step before
(``10``, the start symbol, at the first step).  The draw is
:func:`~hornermcts.search.policy.softmax_pick`, the one of
:mod:`hornermcts.search.policy`, so the compiled and the generic playouts
draw the same moves for the same seed.

Examples
--------
>>> import numpy as np
>>> kinds = np.array([1, 0], np.int8)              # "(.)": a pair, then a '.'
>>> positions = np.array([0, 1], np.int64)
>>> moves, codes, betas, starts, chosen = playout(np.zeros(0, np.uint8), kinds, positions, np.zeros(30),
...                                               np.zeros(1), False, np.random.default_rng(0))
>>> moves.tolist(), codes.tolist(), starts.tolist(), chosen.tolist()
([7, 1], [4, 5, 6, 7, 8, 9, 10, 11, 12, 13], [0, 6, 10], [3, 7])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...search.policy import softmax_pick

__all__ = ["playout", "START", "CHOICES"]

#: The "previous move" of the first step in a prior code.
START = 10
#: Move ids per kind: 4 at a '.', 6 at a '('.
CHOICES = 10


@njit(cache=True)
def playout(prefix, kinds, positions, weights, bias, has_bias, rng):
    """Finish the design whose first moves are ``prefix``: ``(moves, codes, betas, starts, chosen)``.

    ``moves`` holds all ``K`` moves (the prefix included); the other four
    arrays are the :class:`hornermcts.search.policy.Trace` of the steps
    played here (every step has 4 or 6 legal moves, so every one is
    recorded).  ``weights`` is indexed by policy code, ``bias`` (read if
    ``has_bias``) by prior code.
    """
    steps = kinds.size
    done = prefix.size
    moves = np.empty(steps, np.int64)
    for s in range(done):
        moves[s] = prefix[s]
    left = steps - done
    codes = np.empty(left * 6, np.int64)
    betas = np.zeros(left * 6)
    starts = np.zeros(left + 1, np.int64)
    chosen = np.empty(left, np.int64)
    plain = np.empty(6)
    beta = np.zeros(6)
    odds = np.empty(6)
    entries = 0
    for s in range(done, steps):
        first = 0 if kinds[s] == 0 else 4
        k = 4 if kinds[s] == 0 else 6
        previous = START if s == 0 else moves[s - 1]
        base = positions[s] * CHOICES
        for i in range(k):
            plain[i] = weights[base + first + i]
            beta[i] = bias[previous * CHOICES + first + i] if has_bias else 0.0
        pick, ignored = softmax_pick(plain, beta, k, rng, odds)
        for i in range(k):
            codes[entries + i] = base + first + i
            betas[entries + i] = 0.0 if ignored else beta[i]
        chosen[s - done] = entries + pick
        entries += k
        starts[s - done + 1] = entries
        moves[s] = first + pick
    return moves, codes[:entries], betas[:entries], starts, chosen
