"""Time limits count search, not compilation (issue 40 item 6).

A fake clock stands in for the real one: the problem's first call (what
Numba's compile costs a cold process) moves it by 100 s, every other call by
0.01 s, a clock reading by 0.0001 s.  Without a warm-up before the clock starts, the first call eats the
1 s budget and the search stops after one playout.
"""
import importlib

import numpy as np
import pytest

from hornermcts.search import arguments, mcts, nmcs, nrpa

COMPILE = 100.0


class FakeClock:
    def __init__(self):
        self.now = 0.0
        self.calls = 0

    def __call__(self):
        self.now += 1e-4  # reading the clock takes time too: every loop ends
        return self.now

    def tick(self):
        """Time of one call of compiled code: the first one compiles."""
        self.calls += 1
        self.now += COMPILE if self.calls == 1 else 0.01


class Bits:
    """Eight bits, the reward their number of ones; apply and the playout are "compiled"."""

    def __init__(self, clock):
        self.clock = clock

    def root(self):
        return ()

    def moves(self, state):
        return (0, 1) if len(state) < 8 else ()

    def apply(self, state, move):
        self.clock.tick()
        return state + (move,)

    def reward(self, state):
        return float(sum(state))

    def playout(self, state, rng):
        self.clock.tick()
        moves = [int(b) for b in rng.integers(0, 2, 8 - len(state))]
        return state + tuple(moves), moves


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setitem(arguments.CLOCKS, "wall", fake)
    return fake


@pytest.mark.parametrize("search", [
    lambda p: mcts(p, time_limit=1.0, cp=1.0, seed=0, progress=None),
    lambda p: nmcs(p, level=1, time_limit=1.0, seed=0, progress=None),
    lambda p: nrpa(p, level=1, time_limit=1.0, seed=0, progress=None),
], ids=["mcts", "nmcs", "nrpa"])
def test_first_call_is_not_charged_to_the_time_limit(clock, search):
    result = search(Bits(clock))
    assert result.elapsed < COMPILE
    assert result.iterations > 10


def test_warm_up_leaves_seeded_results_unchanged(clock):
    timed = mcts(Bits(clock), time_limit=0.5, cp=1.0, seed=3, progress=None)
    counted = mcts(Bits(clock), iterations=timed.iterations, cp=1.0, seed=3, progress=None)
    assert (timed.best_moves, timed.history) == (counted.best_moves, counted.history)


def test_stacking_ms_does_not_charge_the_first_batch(monkeypatch):
    from hornermcts.domains.stacking import multiple_simulation, random_instance

    ms_module = importlib.import_module("hornermcts.domains.stacking.multiple_simulation")

    fake = FakeClock()
    kernel = ms_module.kernels.multiple_simulation_batch

    def batch(*args):
        fake.tick()
        return kernel(*args)

    monkeypatch.setitem(ms_module.CLOCKS, "cpu", fake)
    monkeypatch.setattr(ms_module.kernels, "multiple_simulation_batch", batch)
    result = multiple_simulation(random_instance(30, 3, seed=1), time_limit=0.05, seed=0)  # 5 batches
    assert result.elapsed < COMPILE and result.iterations > 4


def test_circle_ms_does_not_charge_the_first_construction(monkeypatch):
    ms_module = importlib.import_module("hornermcts.domains.circle_packing.multiple_simulation")
    from hornermcts.domains.circle_packing.substitutes import generate_instance

    fake = FakeClock()
    run = ms_module.SemiGreedy.run

    def construction(self, rng):
        fake.tick()
        return run(self, rng)

    monkeypatch.setattr(ms_module, "clock_function", lambda name: fake)
    monkeypatch.setattr(ms_module.SemiGreedy, "run", construction)
    result = ms_module.multiple_simulation(generate_instance("small", 3, seed=0), time_limit=0.2, seed=0)
    assert result.elapsed < COMPILE and result.simulations > 10
    assert isinstance(result.best_value, float) and np.isfinite(result.best_value)


def test_beam_mcts_times_on_the_clock_asked_for(monkeypatch):
    from hornermcts.search import beam_mcts

    fake = FakeClock()
    monkeypatch.setitem(arguments.CLOCKS, "cpu", fake)
    result = beam_mcts(Bits(fake), simulation_limit=5, beam_width=1, time_limit=1.0, clock="cpu", cp=1.0, seed=0,
                       progress=None)
    assert result.elapsed < COMPILE and result.iterations > 10
