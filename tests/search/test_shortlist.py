"""shortlist: search, then refine, keep the best K, for any problem with a cost."""
from __future__ import annotations

import itertools

import pytest
from helpers.toys import Tour

from hornermcts.search import ScoreBook, Stage, mcts, shortlist
from hornermcts.search.annealing import anneal
from hornermcts.search.shortlist import stage_seeds


class Scored:
    """Tour orders as a tree problem whose reward is read from a shared score book."""

    def __init__(self, tour, book):
        self.tour, self.book = tour, book

    def root(self):
        return ()

    def moves(self, state):
        return self.tour.moves(state)

    def apply(self, state, move):
        return state + (move,)

    def reward(self, state):
        return -self.book(state)


def plan(tour):
    tree = Stage("mcts", lambda book, seed: mcts(Scored(tour, book), iterations=300, cp=30.0, seed=seed,
                                                 progress=None), cost_of=lambda reward: -reward)
    refine = Stage("anneal", lambda book, seed: anneal(book, book.leader()[0], iterations=1000, t_start=20.0,
                                                       t_end=0.5, seed=seed))
    return [tree, refine]


def test_finds_the_brute_force_optimum_and_ranks_what_every_stage_scored():
    tour = Tour(7, seed=7, offset=1.0, scale=200)
    cost = lambda order: round(-tour.reward(order) * 200)
    found = shortlist(cost, starts=[tuple(range(7))], stages=plan(tour), keep=4, seed=0)
    brute = sorted(cost(p) for p in itertools.permutations(range(7)))
    assert found.best[0][1] == brute[0]
    assert [c for _, c in found.best] == sorted(c for c in found.book.scores.values())[:4]
    assert len({s for s, _ in found.best}) == 4
    # the history is in cost units, strictly improving, ending at the best, iterations over both stages
    costs = [c for _, c in found.history]
    assert costs == sorted(set(costs), reverse=True) and costs[-1] == found.best[0][1]
    assert found.history[-1][0] < sum(s.iterations for s in found.searches)


def test_seeded_plans_repeat_and_stage_seeds_are_independent_children():
    tour = Tour()
    cost = lambda order: -tour.reward(order)
    one = shortlist(cost, stages=plan(tour), keep=3, seed=5)
    two = shortlist(cost, stages=plan(tour), keep=3, seed=5)
    assert one.best == two.best and one.history == two.history and one.seeds == two.seeds
    assert len(set(one.seeds)) == 2 and one.seeds == tuple(stage_seeds(5, plan(tour)))
    assert shortlist(cost, stages=plan(tour), seed=None).seeds == (None, None)


def test_an_interrupted_stage_ends_the_plan():
    calls = []

    def first(book, seed):
        import dataclasses

        calls.append("first")
        return dataclasses.replace(anneal(book, (0, 1, 2), iterations=10, seed=seed), stopped="interrupt")

    def second(book, seed):  # pragma: no cover - must not run
        calls.append("second")

    found = shortlist(sum, stages=[Stage("a", first), Stage("b", second)], seed=0)
    assert calls == ["first"] and len(found.searches) == 1 and found.searches[0].interrupted


def test_score_book_scores_once_and_breaks_ties_by_solution_or_by_first_met():
    calls = []
    book = ScoreBook(lambda s: calls.append(s) or s[0] % 2)
    for s in [(3,), (1,), (2,), (4,), (3,)]:
        book(s)
    assert calls == [(3,), (1,), (2,), (4,)]
    assert book.best(3) == [((2,), 0), ((4,), 0), ((1,), 1)]
    assert book.leader() == ((2,), 0)
    book.record({(2,): 99, (6,): 0})
    assert book((2,)) == 0 and book.best(2) == [((2,), 0), ((4,), 0)]
    with pytest.raises(ValueError, match="keep must be an integer >= 1"):
        shortlist(book, keep=0)


def test_a_stage_over_a_space_seen_whole_is_skipped():
    """MCTS that exhausts the orders proves its best; an annealing over the same space cannot beat it."""
    tour = Tour(4, seed=7, offset=1.0, scale=200)  # 4! = 24 orders: the tree is seen whole within 2,000 iterations
    cost = lambda order: round(-tour.reward(order) * 200)
    _, refine = plan(tour)
    same = [Stage("mcts", lambda book, seed: mcts(Scored(tour, book), iterations=2000, cp=30.0, seed=seed,
                                                  progress=None), cost_of=lambda reward: -reward, space="tours"),
            Stage(refine.name, refine.run, refine.cost_of, space="tours")]
    found = shortlist(cost, starts=[tuple(range(4))], stages=same, seed=0)
    assert [type(s).__name__ for s in found.searches] == ["MCTSResult"]
    assert found.searches[0].stopped == "exhausted" and found.searches[0].proven
    assert found.best[0][1] == min(cost(p) for p in itertools.permutations(range(4)))
    other = [same[0], Stage(refine.name, refine.run, refine.cost_of, space="elsewhere")]
    ran = shortlist(cost, starts=[tuple(range(4))], stages=other, seed=0).searches
    assert [type(s).__name__ for s in ran] == ["MCTSResult", "AnnealResult"]
