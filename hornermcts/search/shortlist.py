"""Search, then refine, then keep the best K: a driver for any problem with a cost.

Many optimisers run the same plan: score a few starting solutions, run a
search (MCTS over a tree of partial solutions), refine its best by a local
search (annealing), and hand the best few distinct solutions to a costlier
final step.  :func:`shortlist` is that plan with the parts as parameters:

- ``cost(solution)``: lower is better; solutions are hashable (tuples), and
  every stage scores through one :class:`ScoreBook`, so no solution is
  scored twice and the shortlist ranks everything any stage met;
- ``stages``: :class:`Stage` objects run in order, each with its own seed
  derived from ``seed`` by :class:`numpy.random.SeedSequence`; a stage sees
  the book (to start from its best) and returns its search's
  :class:`~hornermcts.search.result.SearchResult`;
- ``keep``: how many of the best distinct solutions to return.

An interrupted stage (Ctrl-C) ends the plan: the shortlist holds what was
scored so far.

Examples
--------
Order five items so that item ``i`` lands near position ``target[i]``; MCTS
builds orders item by item, annealing refines its best:

>>> from hornermcts.search import mcts
>>> from hornermcts.search.annealing import anneal
>>> target = (3, 1, 4, 0, 2)
>>> cost = lambda order: sum(abs(order.index(i) - t) for i, t in enumerate(target))
>>> class Orders:
...     def __init__(self, book): self.book = book
...     def root(self): return ()
...     def moves(self, s): return tuple(i for i in range(5) if i not in s)
...     def apply(self, s, m): return s + (m,)
...     def reward(self, s): return -self.book(s)
>>> tree = Stage("mcts", lambda book, seed: mcts(Orders(book), iterations=50, cp=2.0, seed=seed,
...                                                progress=None), cost_of=lambda reward: round(-reward))
>>> refine = Stage("anneal", lambda book, seed: anneal(book, book.leader()[0], iterations=200,
...                                                    t_start=1.0, t_end=0.01, seed=seed))
>>> found = shortlist(cost, starts=[(0, 1, 2, 3, 4)], stages=[tree, refine], keep=2, seed=0)
>>> found.best[0]
((3, 1, 4, 0, 2), 0)
>>> [s.stopped for s in found.searches], found.history[-1][1]
(['iterations', 'iterations'], 0)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Sequence

from .arguments import derived_seeds, integer, seed_value
from .result import SearchResult

__all__ = ["ScoreBook", "Stage", "Shortlist", "shortlist", "stage_seeds"]


class ScoreBook:
    """Memoised ``cost(solution)``: call it like the cost; it remembers every score.

    ``tie(solution)``, optional, gives the key that orders solutions of equal
    cost in :meth:`best` (default: the solution itself).

    Examples
    --------
    >>> calls = []
    >>> book = ScoreBook(lambda s: calls.append(s) or sum(s))
    >>> book((2, 1)), book((1, 1)), book((2, 1)), len(calls)
    (3, 2, 3, 2)
    >>> book.best(1), book.leader()
    ([((1, 1), 2)], ((1, 1), 2))
    """

    __slots__ = ("cost", "scores", "tie")

    def __init__(self, cost: Callable[[Hashable], float], *, tie: Callable[[Hashable], Any] | None = None) -> None:
        self.cost = cost
        self.scores: dict = {}
        self.tie = tie

    def __call__(self, solution: Hashable) -> Any:
        score = self.scores.get(solution)
        if score is None:
            score = self.scores[solution] = self.cost(solution)
        return score

    def __len__(self) -> int:
        return len(self.scores)

    def record(self, scores: dict) -> None:
        """Add scores computed elsewhere (never overwriting one already known)."""
        for solution, score in scores.items():
            self.scores.setdefault(solution, score)

    def leader(self) -> tuple[Hashable, Any]:
        """``(solution, cost)`` of lowest cost, the first scored among equals: where a refinement starts.

        Among equals the first one met is the one an earlier stage found
        first, so a refining stage continues from the earlier search's best.
        """
        solution = min(self.scores, key=self.scores.__getitem__)
        return solution, self.scores[solution]

    def best(self, k: int) -> list[tuple[Hashable, Any]]:
        """The ``k`` best ``(solution, cost)``, lowest cost first; ties by solution.

        Ties are broken by comparing the solutions (or their ``tie`` keys), so
        the ranking does not depend on the order in which the stages met them.
        """
        tie = self.tie or (lambda s: s)
        ranked = sorted(self.scores, key=lambda s: (self.scores[s], tie(s)))
        return [(s, self.scores[s]) for s in ranked[:k]]


@dataclass(frozen=True)
class Stage:
    """One search of a :func:`shortlist` plan.

    Attributes
    ----------
    name : str
        Names the stage in reports.
    run : callable
        ``run(book, seed) -> SearchResult``: searches, scoring solutions
        through ``book`` (a :class:`ScoreBook`), with integer ``seed``
        (``None``: unseeded).
    cost_of : callable
        Converts the search's :attr:`~SearchResult.best_value` to the cost
        (e.g. ``lambda reward: -reward``); identity by default.
    space : hashable, optional
        Names the set of solutions the stage searches. A stage is skipped
        when an earlier stage over the same space proved its best optimal
        (``proven``: it saw the whole space), since it could find nothing
        better there.
    """

    name: str
    run: Callable[[ScoreBook, int | None], SearchResult]
    cost_of: Callable[[float], Any] = lambda value: value
    space: Hashable | None = None


@dataclass(frozen=True)
class Shortlist:
    """What :func:`shortlist` found.

    Attributes
    ----------
    best : list of (solution, cost)
        The ``keep`` best distinct solutions scored, lowest cost first.
    searches : tuple of SearchResult
        One per stage that ran (a stage over a space proven before is skipped).
    history : tuple of (int, cost)
        ``(iteration, cost)`` each time a stage improved the best, iterations
        counted over the stages in order.
    seeds : tuple of int or None
        The seed each stage received.
    book : ScoreBook
        Every solution scored.
    """

    best: list
    searches: tuple
    history: tuple
    seeds: tuple
    book: ScoreBook


def stage_seeds(seed: int | None, stages: Sequence[Stage]) -> list[int | None]:
    """One seed per stage: independent SeedSequence children of ``seed`` (``None``: all unseeded)."""
    return [None] * len(stages) if seed is None else derived_seeds(seed_value(seed), len(stages))


def shortlist(cost: Callable[[Hashable], Any] | ScoreBook, *, starts: Iterable[Hashable] = (),
              stages: Sequence[Stage] = (), keep: int = 1, seed: int | None = 0) -> Shortlist:
    """Score ``starts``, run ``stages`` in order, return the ``keep`` best solutions.

    Parameters
    ----------
    cost : callable or ScoreBook
        ``cost(solution)``, lower is better (a book keeps the scores it
        already has).
    starts : iterable of solutions
        Scored first (e.g. a heuristic's solutions); the best of them is
        where a refining stage starts when no search ran before it.
    stages : sequence of Stage
    keep : int, default 1
    seed : int or None, default 0
        Each stage gets its own seed, derived by SeedSequence.
    """
    integer("keep", keep, minimum=1)
    book = cost if isinstance(cost, ScoreBook) else ScoreBook(cost)
    for solution in starts:
        book(solution)
    seeds = stage_seeds(seed, stages)
    searches: list[SearchResult] = []
    history: list = []
    offset = 0
    proven: set = set()  # spaces an earlier stage saw whole
    for stage, stage_seed in zip(stages, seeds):
        if stage.space is not None and stage.space in proven:
            continue
        found = stage.run(book, stage_seed)
        searches.append(found)
        if stage.space is not None and getattr(found, "proven", False):
            proven.add(stage.space)
        for iteration, value in found.history:
            value = stage.cost_of(value)
            if not history or value < history[-1][1]:
                history.append((offset + iteration, value))
        offset += found.iterations
        if found.interrupted:
            break
    return Shortlist(best=book.best(keep), searches=tuple(searches), history=tuple(history),
                     seeds=tuple(seeds), book=book)
