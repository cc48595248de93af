"""Restarts on several processes give what one process gives: results, histories and memos."""
from __future__ import annotations

import multiprocessing
import os

import pytest

from hornermcts.errors import OptionError
from hornermcts.research.families import random_polynomial
from hornermcts.pipeline import optimize
from hornermcts.search import mcts
from hornermcts.search.annealing import anneal
from hornermcts.search.parallel import fork_map, in_child, worker_count
from hornermcts.search.shortlist import ScoreBook

TARGET = (5, 2, 7, 0, 3, 6, 1, 4)


def displacement(order) -> int:
    return sum(abs(order.index(i) - t) for i, t in enumerate(TARGET))


class Orders:
    """Build an order of 8 items; the reward is the book's negated cost."""

    def __init__(self, book):
        self.book = book

    def root(self):
        return ()

    def moves(self, s):
        return tuple(i for i in range(8) if i not in s)

    def apply(self, s, m):
        return s + (m,)

    def reward(self, s):
        return -self.book(s)


def test_fork_map_runs_in_children_and_keeps_item_order():
    pids = fork_map(lambda k: (k, os.getpid(), in_child()), range(7), workers=3)
    assert [k for k, _, _ in pids] == list(range(7))
    assert {pid for _, pid, child in pids if not child} == {os.getpid()}  # items 0, 3, 6 stay here
    assert [k for k, _, child in pids if not child] == [0, 3, 6]
    assert len({pid for _, pid, child in pids if child}) == 2


def test_fork_map_rebuilds_books_in_item_order():
    def run(book):
        def one(k):
            return [book(tuple(sorted((k * j) % 5 for j in range(3)))) for _ in range(2)]
        return one

    alone, shared = ScoreBook(sum), ScoreBook(sum)
    expected = [run(alone)(k) for k in range(6)]
    assert fork_map(run(shared), range(6), workers=2, books=[shared]) == expected
    assert list(shared.scores.items()) == list(alone.scores.items())


def test_fork_map_passes_a_childs_error_on():
    def fail(k):
        if k == 1:
            raise ValueError(f"item {k} is bad")
        return k

    with pytest.raises(ValueError, match="item 1 is bad"):
        fork_map(fail, range(3), workers=2)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_worker_count_refuses_what_is_not_a_count(bad):
    with pytest.raises(OptionError, match="workers must be"):
        worker_count(bad)


@pytest.mark.parametrize("workers", [2, 3])
def test_anneal_restarts_are_the_same_on_any_number_of_processes(workers):
    one, many = ScoreBook(displacement), ScoreBook(displacement)
    alone = anneal(one, tuple(range(8)), iterations=150, t_start=3.0, t_end=0.1, restarts=5, seed=4, books=[one])
    spread = anneal(many, tuple(range(8)), iterations=150, t_start=3.0, t_end=0.1, restarts=5, seed=4,
                    workers=workers, books=[many])
    assert (spread.best_moves, spread.best_value, spread.history) == \
        (alone.best_moves, alone.best_value, alone.history)
    assert (spread.iterations, spread.accepted) == (alone.iterations, alone.accepted) == (750, alone.accepted)
    assert list(many.scores.items()) == list(one.scores.items())  # every order any restart scored, in order


def test_anneal_restarts_differ_from_one_another():
    """Each restart has its own stream: five restarts do not walk one path five times."""
    found = anneal(displacement, tuple(range(8)), iterations=40, t_start=3.0, t_end=0.1, restarts=5, seed=4)
    once = anneal(displacement, tuple(range(8)), iterations=40, t_start=3.0, t_end=0.1, restarts=1, seed=4)
    assert found.accepted != 5 * once.accepted


@pytest.mark.parametrize("workers", [2, 3])
def test_mcts_restarts_are_the_same_on_any_number_of_processes(workers):
    one, many = ScoreBook(displacement), ScoreBook(displacement)
    alone = mcts(Orders(one), iterations=60, cp=2.0, seed=7, repeats=3, books=[one], progress=None)
    spread = mcts(Orders(many), iterations=60, cp=2.0, seed=7, repeats=3, workers=workers, books=[many],
                  progress=None)
    assert (spread.best_moves, spread.best_value, spread.history, spread.iterations) == \
        (alone.best_moves, alone.best_value, alone.history, alone.iterations)
    assert spread.node_count == alone.node_count and spread.root_visits == alone.root_visits
    assert [r.best_value for r in spread.runs] == [r.best_value for r in alone.runs]
    assert list(many.scores.items()) == list(one.scores.items())


def test_an_exhausted_restart_ends_the_restarts_wherever_they_ran():
    """Three items: the first restart sees all 6 orders and stops; the restarts the children ran are dropped."""
    class Three(Orders):
        def moves(self, s):
            return tuple(i for i in range(3) if i not in s)

    alone = mcts(Three(ScoreBook(len)), iterations=50, seed=1, repeats=4, progress=None)
    spread = mcts(Three(ScoreBook(len)), iterations=50, seed=1, repeats=4, workers=2, progress=None)
    assert alone.stopped == spread.stopped == "exhausted"
    assert alone.iterations == spread.iterations < 50


def test_optimize_gives_the_same_result_on_one_and_two_processes():
    poly = random_polynomial(8, 120, max_degree=3, seed=5)
    one = optimize(poly, iterations=120, seed=3, workers=1)
    two = optimize(poly, iterations=120, seed=3, workers=2)
    assert one.order == two.order and one.after == two.after and one.history == two.history
    assert one.baselines == two.baselines
    assert [s.iterations for s in one.search] == [s.iterations for s in two.search]


def test_a_call_ended_by_ctrl_c_in_a_child_ends_fork_map_as_in_one_process():
    def stop(k):
        if k == 1:
            raise KeyboardInterrupt
        return k

    with pytest.raises(KeyboardInterrupt):
        fork_map(stop, range(3), workers=2)


def test_fork_map_in_a_daemonic_process_runs_there():
    """A dask or pool worker is daemonic and may not fork: the calls run in it, one after the other."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    proc = context.Process(target=lambda: queue.put(fork_map(lambda k: (k, os.getpid()), range(3), workers=2)),
                           daemon=True)
    proc.start()
    got = queue.get(timeout=60)
    proc.join()
    assert [k for k, _ in got] == [0, 1, 2] and {pid for _, pid in got} == {proc.pid}
