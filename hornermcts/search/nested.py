"""Nested Monte Carlo search: NMCS, and NRPA / GNRPA (nested rollout policy adaptation).

:func:`nmcs` (Cazenave 2009): a level-``L`` search plays a game move by move;
before each move it runs a level-``L-1`` search after every legal move
(level 0: a playout) and plays the first move of the best sequence found so
far *at this level*, which it memorises, so it never ends below the best
line it has seen.

:func:`nrpa` (Rosin 2011; with a bias, Cazenave's GNRPA, Algs. 1-3 of
"Learning a Prior for Monte Carlo Search by Replaying Solutions", 2024): a
level-``L`` search runs ``N`` level-``L-1`` searches, each on a *copy* of its
policy, keeps the best sequence (``>=``: a tie replaces it) and adapts its
policy towards it after each; level 0 is a playout of the softmax policy
(:mod:`.policy`).  The bias ``beta`` comes from ``prior=``: the problem's own
``prior(state, move)`` or a :class:`~hornermcts.search.prior.Prior` learned
by Replay.  Level 0 with a budget is the paper's *Sampling* (repeated
playouts; with a prior, "Sampling with the prior").

Both maximise a reward or minimise a cost (a problem defines one of the two,
:mod:`hornermcts.search.values`); an :class:`~hornermcts.search.values.Infeasible`
outcome ranks below every feasible one.  Results, history, target and
progress are in the problem's own sense.

Both share how a run ends.  Without a budget a search runs once, to the end
of its top level.  With ``playouts=`` and/or ``time_limit=`` the budget
decides: a top-level search that ends early is restarted (a fresh policy for
NRPA; docs/domains.md B5.1) until the budget is used up.  ``target=`` stops as
soon as a feasible playout is at least that good (a reward ``>= target``, a
cost ``<= target``), and the result records the
playouts and seconds spent when it was first reached (the paper's tables
count problems "solved within budget b").  Every playout counts, including
the evaluation of a state that is already terminal; the history records
``(playouts done, best)`` at each improvement, the count 1-based: a
sequence found by the k-th playout is ``(k, value)``.  Ctrl-C returns the
best sequence so far with ``stopped == "interrupt"``.

Examples
--------
>>> from hornermcts.search.nested import nmcs, nrpa
>>> class Order:
...     "Order four items; a step from a to b costs |2a - b|, starting from a = 0."
...     def root(self): return ()
...     def moves(self, s): return tuple(x for x in range(4) if x not in s)
...     def apply(self, s, m): return s + (m,)
...     def reward(self, s):
...         return -float(sum(abs(2 * a - b) for a, b in zip((0,) + s, s)))
>>> nmcs(Order(), level=1, seed=0, progress=None).best_value  # level 1 misses the best order
-6.0
>>> found = nmcs(Order(), level=2, seed=0, progress=None)
>>> found.best_moves, found.best_value, found.iterations, found.stopped
((0, 1, 2, 3), -2.0, 36, 'iterations')
>>> found = nrpa(Order(), level=2, per_level=10, seed=0, progress=None)
>>> found.best_moves, found.best_value, found.iterations
((0, 1, 2, 3), -2.0, 100)
>>> found = nrpa(Order(), level=3, target=-2.0, seed=0, progress=None)
>>> found.stopped, found.reached, found.history
('target', 66, ((1, -8.0), (7, -6.0), (66, -2.0)))
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import OptionError
from .arguments import clock as clock_function
from .arguments import finite, generator, integer, seconds
from .playout import playout_policy
from .policy import adapt, problem_bias, softmax_playout
from .prior import Prior
from .problem import check_problem
from .progress import make_progress
from .result import SearchResult
from .values import Infeasible, better, is_cost_problem, outcome
from .warm_up import warm_up, warm_up_rng

__all__ = ["nmcs", "nrpa", "NestedResult"]

@dataclass(frozen=True)
class NestedResult(SearchResult):
    """What :func:`nmcs` or :func:`nrpa` found.

    The fields of :class:`~hornermcts.search.result.SearchResult`:
    ``best_moves`` the move sequence (root to terminal state) of the best
    playout, ``best_value`` its reward or cost (``-inf`` / ``inf`` if no
    playout finished), ``iterations`` the playouts done, ``history``
    ``(playouts done, best)`` per improvement, ``elapsed`` seconds on
    :attr:`clock`, ``stopped`` one of ``"iterations"`` (the playout budget,
    or without a budget the search, is used up), ``"time"``, ``"target"``,
    ``"interrupt"``; plus:

    Attributes
    ----------
    maximize : bool
        False for a cost problem (``best_value`` is then a cost).
    history_seconds : tuple of float
        When each ``history`` entry was found: seconds since the start, on
        :attr:`clock`.
    best_state : object
        The terminal state of ``best_moves``.
    level : int
        The level of the top search.
    searches : int
        Top-level searches started (more than one when the budget outlasted
        a search).
    target : float or None
        The ``target=`` given.
    reached : int or None
        Playouts done when a playout first reached the target (``None`` if
        never, or without a target): the problem counts as solved within
        any playout budget ``>= reached``.
    reached_seconds : float or None
        Seconds (on :attr:`clock`) from the start to that playout.
    clock : str
        ``"wall"`` or ``"cpu"``: what ``time_limit``, :attr:`elapsed` and
        the seconds above measure.
    """

    maximize: bool = True  # type: ignore[misc]  # per result: a cost problem's is False
    history_seconds: tuple = field(default=(), compare=False)
    best_state: Any = None
    level: int = 0
    searches: int = 0
    target: float | None = None
    reached: int | None = None
    reached_seconds: float | None = field(default=None, compare=False)
    clock: str = "wall"


class _Stop(Exception):
    """Raised by the book when the budget or the target ends the search."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _ranks_at_least(new: Any, old: Any) -> bool:
    """``new >= old`` in the search's ranking (None: nothing yet)."""
    return old is None or not better(old, new)


class _Book:
    """Every playout's outcome goes through :meth:`record`: the count, the best, the budget, progress.

    Outcomes are in the search's sense (maximised floats, or Infeasible).
    """

    __slots__ = ("count", "best", "best_moves", "best_state", "history", "seconds", "limit", "deadline", "clock",
                 "start", "target", "reached", "reached_seconds", "callback", "last_report", "shown")

    def __init__(self, *, limit: int | None, time_limit: float | None, clock: Callable[[], float],
                 target: float | None, callback: Callable[[int, float], None] | None,
                 shown: Callable[[Any], Any]) -> None:
        self.count = 0
        self.best: Any = None
        self.best_moves: tuple = ()
        self.best_state: Any = None
        self.history: list[tuple[int, Any]] = []
        self.seconds: list[float] = []
        self.limit = limit
        self.clock = clock
        self.start = clock()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.target = target
        self.reached: int | None = None
        self.reached_seconds: float | None = None
        self.callback = callback
        self.last_report = time.perf_counter()
        self.shown = shown

    def record(self, score: Any, moves: Any, state: Any) -> None:
        self.count += 1
        if self.best is None or better(score, self.best):
            self.best = score
            self.best_moves = tuple(moves)
            self.best_state = state
            self.history.append((self.count, score))
            self.seconds.append(self.clock() - self.start)
            if self.target is not None and score.__class__ is not Infeasible and score >= self.target:
                self.reached = self.count
                self.reached_seconds = self.seconds[-1]
                raise _Stop("target")
        if self.limit is not None and self.count >= self.limit:
            raise _Stop("iterations")
        if self.deadline is not None and self.clock() >= self.deadline:
            raise _Stop("time")
        if self.callback is not None:
            now = time.perf_counter()
            if now - self.last_report >= 0.25:
                self.last_report = now
                self.callback(self.count, self.shown(self.best))


def _drive(problem: Any, search: Callable[[_Book], None], *, level: int, playouts: Any, time_limit: Any,
           clock: Any, target: Any, seed: Any, progress: Any, natural: int | None) -> NestedResult:
    """Run ``search(book)`` once, or again and again while a budget is left; catch the stops."""
    limit = integer("playouts", playouts, minimum=1, optional=True)
    limit_seconds = seconds("time_limit", time_limit)
    read_clock = clock_function(clock)
    cost = is_cost_problem(problem)
    goal = None if target is None else finite("target", target)

    def shown(value: Any) -> Any:
        """A search value in the problem's sense (the empty best: the worst value)."""
        if value is None:
            return math.inf if cost else -math.inf
        return -value if cost and value.__class__ is not Infeasible else value

    budgeted = limit is not None or limit_seconds is not None
    callback, close = make_progress(progress, total=limit if budgeted else natural)
    book = _Book(limit=limit, time_limit=limit_seconds, clock=read_clock,
                 target=None if goal is None else (-goal if cost else goal), callback=callback, shown=shown)
    searches = 0
    stopped = "iterations"
    try:
        while True:
            searches += 1
            search(book)
            if not budgeted:
                break
    except _Stop as stop:
        stopped = stop.reason
    except KeyboardInterrupt:
        stopped = "interrupt"
    finally:
        if callback is not None:
            try:
                callback(book.count, shown(book.best))
            except KeyboardInterrupt:
                stopped = "interrupt"
        close()
    return NestedResult(best_moves=book.best_moves, best_value=shown(book.best), iterations=book.count,
                        elapsed=read_clock() - book.start, stopped=stopped, seed=seed,
                        history=tuple((k, shown(v)) for k, v in book.history), maximize=not cost,
                        history_seconds=tuple(book.seconds), best_state=book.best_state, level=level,
                        searches=searches, target=goal, reached=book.reached, reached_seconds=book.reached_seconds,
                        clock=clock)


def nmcs(
    problem: Any,
    *,
    level: int = 1,
    playouts: int | None = None,
    time_limit: float | None = None,
    clock: str = "wall",
    target: float | None = None,
    playout: Callable[[Any, Any, Any], tuple] | None = None,
    seed: int | np.random.Generator | None = None,
    progress: Any = "auto",
) -> NestedResult:
    """Nested Monte Carlo Search (Cazenave 2009) of ``problem``: the best sequence of moves.

    Parameters
    ----------
    problem : Problem
        ``root``, ``moves``, ``apply``, ``reward`` (maximised) or ``cost``
        (minimised), and optionally ``playout`` (see
        :mod:`hornermcts.search.problem`).
    level : int, default 1
        Level of the search; 0 is a single playout (repeated while a budget
        lasts).  Level ``L`` costs about ``(b d)^L`` playouts for ``b``
        moves per state and games of ``d`` moves.
    playouts, time_limit : optional
        The budget: playouts in all, seconds on ``clock``.  Without either
        the search runs once to its end; with one, it restarts until the
        budget is used up.  Checked after every playout.
    clock : {"wall", "cpu"}, default "wall"
        ``time_limit`` in wall seconds (``time.perf_counter``) or in CPU
        seconds of this process (``time.process_time``).
    target : float, optional
        Stop as soon as a feasible playout is at least this good (a reward
        ``>= target``, a cost ``<= target``; ``stopped="target"``).
    playout : callable, optional
        ``policy(problem, state, rng) -> (terminal_state, moves)`` of level
        0; default ``problem.playout`` if it has one, else uniform random
        moves.
    seed : int, numpy.random.Generator or None
        The only source of randomness; the same int gives the same
        playout-bounded search.
    progress : None, bool, "auto" or callable
        ``progress(playouts, best_value)`` a few times a second and at the
        end; ``True`` for a tqdm bar; ``"auto"`` a bar on a terminal after
        one second.

    Returns
    -------
    NestedResult

    Examples
    --------
    Eight bits: a one scores 10 in last place and costs 1 anywhere else.
    Each level looks further ahead (level ``L`` here: ``16^L`` playouts or so):

    >>> class Last:
    ...     def root(self): return ()
    ...     def moves(self, s): return (0, 1) if len(s) < 8 else ()
    ...     def apply(self, s, m): return s + (m,)
    ...     def reward(self, s): return 10.0 * s[-1] - sum(s[:-1])
    >>> [nmcs(Last(), level=k, seed=1, progress=None).best_value for k in (0, 1, 2)]
    [-4.0, 7.0, 10.0]
    >>> result = nmcs(Last(), level=2, seed=1, progress=None)
    >>> result.best_moves, result.iterations, result.history[-1]
    ((0, 0, 0, 0, 0, 0, 0, 1), 114, (31, 10.0))
    """
    check_problem(problem)
    level = integer("level", level, minimum=0)  # type: ignore[assignment]
    play = playout_policy(problem, playout)
    rng, used = generator(seed)
    if time_limit is not None:  # compile the problem's kernels before the clock starts (search/warm_up.py)
        warm_up(problem, play)
    moves_of, apply, score_of = problem.moves, problem.apply, outcome(problem)

    def nested(book: _Book, depth: int, state: Any, played: list) -> tuple[Any, list]:
        best_score: Any = None
        best_seq = None
        legal = moves_of(state)
        while len(legal):
            for move in legal:
                child = apply(state, move)
                if depth == 1:
                    final, tail = play(child, rng)
                    seq = played + [move]
                    seq.extend(tail)
                    score = score_of(final)
                    book.record(score, seq, final)
                else:
                    score, seq = nested(book, depth - 1, child, played + [move])
                if best_score is None or better(score, best_score):
                    best_score, best_seq = score, seq
            move = best_seq[len(played)]  # type: ignore[index]
            state = apply(state, move)
            played.append(move)
            legal = moves_of(state)
        if best_seq is None:  # terminal on arrival
            best_score = score_of(state)
            book.record(best_score, played, state)
            best_seq = played
        return best_score, best_seq

    def search(book: _Book) -> None:
        root = problem.root()
        if level == 0:
            final, moves = play(root, rng)
            book.record(score_of(final), moves, final)
        else:
            nested(book, level, root, [])

    return _drive(problem, search, level=level, playouts=playouts, time_limit=time_limit, clock=clock,
                  target=target, seed=used, progress=progress, natural=1 if level == 0 else None)


def nrpa(
    problem: Any,
    *,
    level: int = 3,
    per_level: int = 100,
    alpha: float = 1.0,
    prior: Any = None,
    temperature: float = 1.0,
    playouts: int | None = None,
    time_limit: float | None = None,
    clock: str = "wall",
    target: float | None = None,
    coded: bool | None = None,
    seed: int | np.random.Generator | None = None,
    progress: Any = "auto",
) -> NestedResult:
    """NRPA (Rosin 2011), or GNRPA with a bias (Cazenave 2024, Algs. 1-3): the best sequence of moves.

    Parameters
    ----------
    problem : Problem
        ``root``, ``moves``, ``apply``, ``reward`` or ``cost``; optionally
        ``move_code(state, move)`` (the policy's key; default the move),
        ``prior(state, move)`` (for ``prior="problem"``), and the coded hook
        ``code_count`` + ``coded_playout`` (see :mod:`.policy`).
    level : int, default 3
        Level of the search (docs/domains.md B5.1: level 3 and let the budget
        stop it).  Level 0 is one softmax playout, repeated while a budget
        lasts: "Sampling" (with a prior: "Sampling with the prior").
    per_level : int, default 100
        ``N``, the iterations of each level (Rosin's value): a search of
        level ``L`` costs ``N^L`` playouts.
    alpha : float, default 1.0
        The learning rate of the adaptation.
    prior : None, "problem", Prior or callable
        The bias: ``None`` for NRPA (``beta = 0``); ``"problem"`` for
        ``beta = temperature * log problem.prior(state, move)``; a
        :class:`~hornermcts.search.prior.Prior` for ``temperature *
        log(count / nb)``; or a callable ``bias(state, moves) -> [beta]``.
    temperature : float, default 1.0
        ``tau`` of the bias (the paper: 4 for LSC and Kakuro, 6 for RNA).
    playouts, time_limit, clock, target, seed, progress
        As for :func:`nmcs`.
    coded : bool, optional
        Use the problem's ``coded_playout`` (weights a NumPy array, the
        adaptation compiled): by default whenever the problem has one and
        ``prior`` is ``None`` or a :class:`~hornermcts.search.prior.Prior`;
        ``False`` forces the generic Python playout.

    Returns
    -------
    NestedResult

    Examples
    --------
    Twelve bits, one answer: uniform sampling has a chance of 1 in 4096 per
    playout; a prior learned from one solution (code: position and bit)
    finds it in one.

    >>> from hornermcts.search.prior import Prior
    >>> class Bits:
    ...     def root(self): return ()
    ...     def moves(self, s): return (0, 1) if len(s) < 12 else ()
    ...     def apply(self, s, m): return s + (m,)
    ...     def move_code(self, s, m): return (len(s), m)
    ...     def reward(self, s): return float(s == (1, 0) * 6)
    >>> learned = Prior.learn([(Bits(), (1, 0) * 6)])
    >>> sampled = nrpa(Bits(), level=0, prior=learned, playouts=1000, target=1.0, seed=0, progress=None)
    >>> sampled.stopped, sampled.reached
    ('target', 1)
    >>> nrpa(Bits(), level=0, playouts=1000, target=1.0, seed=0, progress=None).reached is None
    True
    """
    check_problem(problem)
    level = integer("level", level, minimum=0)  # type: ignore[assignment]
    n: int = integer("per_level", per_level, minimum=1)  # type: ignore[assignment]
    step = finite("alpha", alpha, minimum=0.0)
    tau = finite("temperature", temperature)
    if tau <= 0:
        raise OptionError(f"temperature must be a finite number > 0, got {temperature!r}")
    hook = getattr(problem, "coded_playout", None)
    if coded is None:
        use_coded = callable(hook) and (prior is None or isinstance(prior, Prior))
    elif coded is True or coded is False:
        use_coded = coded
        if coded and not callable(hook):
            raise OptionError("coded=True needs a problem with code_count and coded_playout(state, weights, bias, rng)")
        if coded and not (prior is None or isinstance(prior, Prior)):
            raise OptionError("coded=True takes prior=None or a Prior (the coded playout gets a table of beta)")
    else:
        raise OptionError(f"coded must be None, True or False, got {coded!r}")
    rng, used = generator(seed)
    score_of = outcome(problem)
    root = problem.root()

    new_policy, play, copy = _playouts(problem, use_coded, hook, prior, tau, rng, root)

    def nested(book: _Book, depth: int, weights: Any) -> tuple[Any, Any]:
        if depth == 0:
            final, moves, trace = play(weights)
            score = score_of(final)
            book.record(score, moves, final)
            return score, trace
        best_score, best_trace = None, None
        for _ in range(n):
            score, trace = nested(book, depth - 1, weights if depth == 1 else copy(weights))
            if _ranks_at_least(score, best_score):  # >=: a tie replaces the best (Alg. 3)
                best_score, best_trace = score, trace
            adapt(weights, best_trace, step)  # type: ignore[arg-type]
        return best_score, best_trace

    def search(book: _Book) -> None:
        nested(book, level, new_policy())

    if time_limit is not None:  # compile the playout and the adaptation before the clock starts (search/warm_up.py)
        weights = new_policy()
        adapt(weights, play(weights, warm_up_rng())[2], step)  # type: ignore[arg-type]
    return _drive(problem, search, level=level, playouts=playouts, time_limit=time_limit, clock=clock,
                  target=target, seed=used, progress=progress, natural=n ** level)


def _playouts(problem: Any, use_coded: bool, hook: Any, prior: Any, tau: float, rng: np.random.Generator,
              root: Any) -> tuple[Callable, Callable, Callable]:
    """NRPA's playouts from ``root``: ``(new_policy, play, copy)``, coded (a weight array) or by moves (a dict)."""
    if use_coded:
        size: int = integer("problem.code_count", getattr(problem, "code_count", None), minimum=1)  # type: ignore
        table = None
        if prior is not None:
            table = prior.table(getattr(problem, "prior_code_count", size), tau)

        def new_policy() -> Any:
            return np.zeros(size)

        def play(weights: Any, generator: Any = rng) -> tuple:
            return hook(root, weights, table, generator)  # type: ignore[misc]

        def copy(weights: Any) -> Any:
            return weights.copy()
    else:
        if prior is None:
            bias = None
        elif isinstance(prior, str) and prior == "problem":
            bias = problem_bias(problem, tau)
        elif isinstance(prior, Prior):
            bias = prior.bias(problem, tau)
        elif callable(prior):
            bias = prior
        else:
            raise OptionError(f"prior must be None, 'problem', a Prior or a callable bias(state, moves), "
                              f"got {prior!r}")

        def new_policy() -> Any:
            return {}

        def play(weights: Any, generator: Any = rng) -> tuple:
            return softmax_playout(problem, weights, generator, bias=bias, state=root)

        def copy(weights: Any) -> Any:
            return dict(weights)
    return new_policy, play, copy
