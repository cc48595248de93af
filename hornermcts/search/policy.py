"""The playout policy of NRPA and GNRPA: softmax over move-code weights, and its adaptation.

A *policy* is a table of weights indexed by move codes: a ``dict`` from
hashable codes to floats (missing codes weigh 0) on the generic path, a
float64 NumPy array indexed by integer codes on the coded (fast) path.
``problem.move_code(state, move)`` gives the code of a move (default: the
move itself, so moves must then be hashable).  In a state with legal moves
``m``, the playout (Cazenave 2024, Alg. 1) plays ``m`` with probability

    p_m = exp(w[code(m)] + beta_m) / sum_k exp(w[code(k)] + beta_k)

where ``beta`` is the *bias* (GNRPA; ``beta = 0`` is Rosin's NRPA).  A bias
is any callable ``bias(state, moves) -> sequence of float``, one ``beta`` per
legal move; ``-inf`` excludes a move.  If it excludes every legal move of a
state the bias is ignored in that state (uniform when the weights are 0,
docs/domains.md B5.3).  :func:`problem_bias` derives one from the protocol's
``problem.prior(state, move)`` (``beta = temperature * log prior``), and
:meth:`hornermcts.search.prior.Prior.bias` from a prior learned by Replay.

The playout returns a :class:`Trace`: for each state that had two or more
legal moves, the codes and biases of its moves and which one was played.
:func:`adapt` (Alg. 2) needs nothing else, so it never calls the problem:
every probability is computed from the weights *before* the update, bias
included, and each legal move's weight drops by ``alpha * p_m`` while the
played move's rises by ``alpha``.  A state with a single legal move draws no
random number and is not in the trace (its update would be zero).

The coded hook (speed)
----------------------
A domain can supply its own playout, typically a Numba kernel:

``problem.code_count``
    An int: move codes are ints in ``range(code_count)``; the policy is then
    ``numpy.zeros(code_count)``.
``problem.coded_playout(state, weights, bias, rng)``
    Plays from ``state`` to the end with the rule above and returns
    ``(terminal_state, moves, trace)``: ``weights`` is the float64 policy
    array; ``bias`` is ``None`` (NRPA) or a float64 array of ``beta`` indexed
    by the domain's integer *prior codes* (``problem.prior_code`` if it has
    one, else ``move_code``; ``range(problem.prior_code_count)``, default
    ``code_count``), made by :meth:`~hornermcts.search.prior.Prior.table`;
    ``rng`` is the search's :class:`numpy.random.Generator`, which a Numba
    kernel can take and draw from directly (``rng.random()``, the same stream
    as in Python).  The trace is a :class:`Trace` of arrays: ``codes``
    (int64, the policy codes of the legal moves of each recorded state, one
    state after another), ``bias`` (float64 ``beta`` of each, as used, or
    ``None``), ``starts`` (int64, where each state's moves begin, plus the
    total at the end) and ``chosen`` (int64, the index into ``codes`` of the
    move played in each state).

To draw exactly as :func:`softmax_playout` does (so both paths give the same
moves for a seed): ``l_i = w_i + beta_i``, ``o_i = exp(l_i - max l)``,
``u = rng.random() * sum o``, play the first ``i`` whose running sum of
``o`` exceeds ``u``.  :func:`adapt` runs on such a trace in compiled code.

Examples
--------
>>> import numpy as np
>>> class Pick:
...     "One choice among three letters, then the game ends."
...     def root(self): return ""
...     def moves(self, s): return ("a", "b", "c") if not s else ()
...     def apply(self, s, m): return s + m
...     def reward(self, s): return float(s == "b")
>>> weights = {}
>>> final, moves, trace = softmax_playout(Pick(), weights, np.random.default_rng(0))
>>> final, moves, trace.codes, trace.chosen
('b', ['b'], ['a', 'b', 'c'], [1])
>>> adapt(weights, trace, alpha=1.0)
>>> {c: round(w, 4) for c, w in sorted(weights.items())}
{'a': -0.3333, 'b': 0.6667, 'c': -0.3333}
"""
from __future__ import annotations

import math
from bisect import bisect_right
from itertools import accumulate
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np
from numba import njit

from ..errors import OptionError

__all__ = ["Trace", "softmax_playout", "softmax_pick", "adapt", "problem_bias", "move_probabilities"]

Bias = Callable[[Any, Sequence], Sequence[float]]


class Trace(NamedTuple):
    """What :func:`adapt` needs from a playout (see the module docstring).

    Attributes
    ----------
    codes : sequence
        The policy codes of the legal moves of each recorded state,
        concatenated.
    bias : sequence of float or None
        The ``beta`` of each entry of ``codes`` as the playout used it;
        ``None`` when there was no bias.
    starts : sequence of int
        ``starts[s]:starts[s + 1]`` are the entries of the ``s``-th recorded
        state.
    chosen : sequence of int
        The index into ``codes`` of the move played in each recorded state.
    """

    codes: Any
    bias: Any
    starts: Any
    chosen: Any


def _softmax(logits: list) -> list:
    top = max(logits)
    return [math.exp(x - top) for x in logits]


def move_probabilities(weights: Any, codes: Sequence, bias: Sequence[float] | None = None) -> list[float]:
    """The softmax probabilities of moves with these codes (and biases) under ``weights``.

    The bias is ignored if it excludes every move (all ``-inf``).

    Examples
    --------
    >>> [round(p, 4) for p in move_probabilities({"a": 1.0}, ["a", "b"])]
    [0.7311, 0.2689]
    >>> move_probabilities({}, ["a", "b"], [0.0, -math.inf])
    [1.0, 0.0]
    >>> move_probabilities({}, ["a", "b"], [-math.inf, -math.inf])
    [0.5, 0.5]
    """
    if isinstance(weights, dict):
        plain = [float(weights.get(c, 0.0)) for c in codes]
    else:
        plain = [float(weights[c]) for c in codes]
    logits = plain if bias is None else [w + b for w, b in zip(plain, bias)]
    if max(logits) == -math.inf:
        logits = plain
    odds = _softmax(logits)
    total = sum(odds)
    return [o / total for o in odds]


def softmax_playout(problem: Any, weights: dict, rng: Any, *, bias: Bias | None = None,
                    state: Any = None) -> tuple[Any, list, Trace]:
    """Play from ``state`` (default the root) to the end by the softmax policy (Alg. 1).

    Parameters
    ----------
    problem : Problem
        ``moves``, ``apply`` and, optionally, ``move_code(state, move)``.
    weights : dict
        The policy: code -> weight (missing codes weigh 0); not modified.
    rng : numpy.random.Generator
        One ``rng.random()`` per state with two or more legal moves.
    bias : callable, optional
        ``bias(state, moves) -> beta per move`` (GNRPA); ``None`` for NRPA.
    state : object, optional
        Where to start; default ``problem.root()``.

    Returns
    -------
    terminal_state, moves, trace
        The state reached, the moves played, and the :class:`Trace` for
        :func:`adapt`.
    """
    moves_of = problem.moves
    apply = problem.apply
    code = getattr(problem, "move_code", None)
    random = rng.random
    get = weights.get
    exp = math.exp
    if state is None:
        state = problem.root()
    codes: list = []
    biases: list | None = None if bias is None else []
    starts = [0]
    chosen: list[int] = []
    played: list = []
    legal = moves_of(state)
    n = len(legal)
    while n:
        if n == 1:
            move = legal[0]
        else:
            keys = [code(state, m) for m in legal] if code is not None else list(legal)
            plain = [get(c, 0.0) for c in keys]
            if bias is None:
                logits = plain
            else:
                beta = [float(b) for b in bias(state, legal)]
                logits = [w + b for w, b in zip(plain, beta)]
                if max(logits) == -math.inf:  # the bias excludes every move: ignore it here
                    logits, beta = plain, [0.0] * n
                biases.extend(beta)  # type: ignore[union-attr]
            top = max(logits)
            running = list(accumulate([exp(x - top) for x in logits]))
            pick = bisect_right(running, random() * running[-1])  # the first running sum above the draw
            if pick == n:  # rounding: the last move of positive probability
                pick = max(i for i in range(n) if running[i] > (running[i - 1] if i else 0.0))
            move = legal[pick]
            chosen.append(len(codes) + pick)
            codes.extend(keys)
            starts.append(len(codes))
        state = apply(state, move)
        played.append(move)
        legal = moves_of(state)
        n = len(legal)
    return state, played, Trace(codes, biases, starts, chosen)


def adapt(weights: Any, trace: Trace, alpha: float = 1.0) -> None:
    """Reinforce the playout of ``trace`` in ``weights``, in place (Alg. 2).

    Every probability comes from ``weights`` as they were before the call
    (the bias of the trace included): each legal move's weight drops by
    ``alpha * p_m``, the played move's rises by ``alpha``.  ``weights`` is a
    dict (generic path) or a float64 array with an integer-coded trace (the
    coded path; compiled).

    Examples
    --------
    Two states, the bias favouring ``b`` in the first; ``b`` then ``c`` played:

    >>> trace = Trace(codes=["a", "b", "a", "c"], bias=[0.0, math.log(2), 0.0, 0.0], starts=[0, 2, 4], chosen=[1, 3])
    >>> weights = {}
    >>> adapt(weights, trace, alpha=0.5)
    >>> {c: round(w, 4) for c, w in sorted(weights.items())}
    {'a': -0.4167, 'b': 0.1667, 'c': 0.25}
    """
    if isinstance(weights, np.ndarray):
        codes = np.asarray(trace.codes, dtype=np.int64)
        bias = np.zeros(codes.size) if trace.bias is None else np.asarray(trace.bias, dtype=np.float64)
        _adapt_array(weights, codes, bias, np.asarray(trace.starts, dtype=np.int64),
                     np.asarray(trace.chosen, dtype=np.int64), float(alpha))
        return
    codes, bias, starts, chosen = trace
    get = weights.get
    exp = math.exp
    delta = [0.0] * len(codes)
    for s, pick in enumerate(chosen):
        a, b = starts[s], starts[s + 1]
        if bias is None:
            logits = [get(codes[i], 0.0) for i in range(a, b)]
        else:
            logits = [get(codes[i], 0.0) + bias[i] for i in range(a, b)]
        top = max(logits)
        odds = [exp(x - top) for x in logits]
        scale = alpha / sum(odds)
        for i, o in zip(range(a, b), odds):
            delta[i] = -scale * o
        delta[pick] += alpha
    for c, d in zip(codes, delta):
        weights[c] = get(c, 0.0) + d


@njit(cache=True)
def softmax_pick(plain, beta, k, rng, odds):  # pragma: no cover - compiled
    """Draw one of ``k`` moves with probability proportional to ``exp(plain + beta)``.

    The draw of :func:`softmax_playout`, compiled for the domains' coded
    playouts (the same numbers, so a coded search draws exactly as the
    generic one): ``o_i = exp(l_i - max l)``,
    ``u = rng.random() * sum o``, the first ``i`` whose running sum exceeds
    ``u``.  If ``beta`` excludes every move (all logits ``-inf``) it is
    ignored.  ``odds`` is scratch space.  Returns ``(index, bias ignored)``.
    """
    top = -np.inf
    for i in range(k):
        x = plain[i] + beta[i]
        odds[i] = x
        if x > top:
            top = x
    ignored = top == -np.inf
    if ignored:
        for i in range(k):
            odds[i] = plain[i]
            if plain[i] > top:
                top = plain[i]
    total = 0.0
    for i in range(k):
        odds[i] = math.exp(odds[i] - top)
        total += odds[i]
    threshold = rng.random() * total
    running = 0.0
    for i in range(k):
        running += odds[i]
        if threshold < running:
            return i, ignored
    pick = 0
    for i in range(k):  # rounding: the last move of positive probability
        if odds[i] > 0.0:
            pick = i
    return pick, ignored


@njit(cache=True)
def _adapt_array(weights, codes, bias, starts, chosen, alpha):  # pragma: no cover - compiled
    delta = np.empty(codes.size)
    for s in range(chosen.size):
        a = starts[s]
        b = starts[s + 1]
        top = -np.inf
        for i in range(a, b):
            x = weights[codes[i]] + bias[i]
            if x > top:
                top = x
        total = 0.0
        for i in range(a, b):
            delta[i] = math.exp(weights[codes[i]] + bias[i] - top)
            total += delta[i]
        scale = alpha / total
        for i in range(a, b):
            delta[i] = -scale * delta[i]
        delta[chosen[s]] += alpha
    for i in range(codes.size):
        weights[codes[i]] += delta[i]


def problem_bias(problem: Any, temperature: float = 1.0) -> Bias:
    """The bias ``beta = temperature * log problem.prior(state, move)`` (0 excludes a move).

    Examples
    --------
    >>> class Pref:
    ...     def prior(self, state, move): return {"a": 1.0, "b": 2.0, "c": 0.0}[move]
    >>> [round(b, 4) for b in problem_bias(Pref(), 2.0)(None, "abc")]
    [0.0, 1.3863, -inf]
    """
    prior = getattr(problem, "prior", None)
    if not callable(prior):
        raise OptionError("prior='problem' needs a problem with a prior(state, move) method")
    log = math.log

    def bias(state: Any, moves: Sequence) -> list[float]:
        out = []
        for m in moves:
            value = prior(state, m)
            if not value >= 0:
                raise OptionError(f"problem.prior({state!r}, {m!r}) = {value!r}: a prior must be >= 0")
            out.append(temperature * log(value) if value > 0 else -math.inf)
        return out

    return bias
