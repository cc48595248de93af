"""Sweeps: same rows on every backend, resume, interruption, region of interest."""
from __future__ import annotations

import json

import pytest

from hornermcts.research import experiments
from hornermcts.research.experiments import SweepTable, region_of_interest, sweep
from hornermcts.research.families import random_polynomial

GRID = {"cp": [0.1, 2.0], "iterations": [40], "schedule": ["uct", "sa-uct"]}


@pytest.fixture(scope="module")
def poly():
    return random_polynomial(7, 60, max_degree=4, seed=11)


def strip(table):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in table.rows]


@pytest.fixture(scope="module")
def serial(poly):
    return sweep(poly, GRID, seeds=2, seed=4, backend="serial", progress=None)


def test_table_shape_and_determinism(serial, poly):
    assert len(serial) == 8
    assert {"cp", "schedule", "iterations", "run", "seed", "operations", "seconds", "order"} <= set(serial.rows[0])
    assert len({r["seed"] for r in serial.rows}) == 8  # every run its own seed
    again = sweep(poly, GRID, seeds=2, seed=4, backend="serial", progress=None)
    assert strip(again) == strip(serial)
    other = sweep(poly, GRID, seeds=2, seed=5, backend="serial", progress=None)
    assert [r["seed"] for r in other.rows] != [r["seed"] for r in serial.rows]


@pytest.mark.slow
def test_process_pool_gives_the_same_rows(serial, poly):
    pooled = sweep(poly, GRID, seeds=2, seed=4, backend="process", workers=2, progress=None)
    assert strip(pooled) == strip(serial)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_rows(serial, poly):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        table = sweep(poly, GRID, seeds=2, seed=4, backend=client, progress=None)
    assert strip(table) == strip(serial)


def test_resume_runs_only_the_missing_rows(serial, poly, tmp_path, monkeypatch):
    save = tmp_path / "rows.jsonl"
    partial = {"cp": [0.1], "iterations": [40], "schedule": ["uct", "sa-uct"]}
    sweep(poly, partial, seeds=2, seed=4, backend="serial", save=save, progress=None)
    assert len(save.read_text().splitlines()) == 4
    calls = []
    real = experiments.run_job
    monkeypatch.setattr(experiments, "run_job", lambda job, p=None: calls.append(job) or real(job, p))
    # seeds depend on a run's options, so the extended grid reuses the 4 saved rows
    full = sweep(poly, GRID, seeds=2, seed=4, backend="serial", save=save, progress=None)
    assert len(calls) == 4 and all(job["cp"] == 2.0 for job in calls)
    assert strip(full) == strip(serial)
    assert len(save.read_text().splitlines()) == 8


def test_interrupt_keeps_finished_rows(poly, tmp_path, monkeypatch):
    save = tmp_path / "rows.jsonl"
    real = experiments.run_job
    count = {"n": 0}

    def flaky(job, p=None):
        count["n"] += 1
        if count["n"] == 3:
            raise KeyboardInterrupt
        return real(job, p)

    monkeypatch.setattr(experiments, "run_job", flaky)
    table = sweep(poly, GRID, seeds=2, seed=4, backend="serial", save=save, progress=None)
    assert len(table) == 2 and getattr(table, "interrupted", False)
    assert [json.loads(line)["seed"] for line in save.read_text().splitlines()] == [r["seed"] for r in table.rows]


def test_bad_grid_key(poly):
    with pytest.raises(ValueError, match="not a search option"):
        sweep(poly, {"temperature": [1]}, seeds=1, backend="serial")


def test_region_of_interest_on_a_known_table():
    rows = []
    for cp, uct, sa in [(0.1, 120, 130), (0.3, 101, 101), (1.0, 100, 100), (3.0, 115, 101), (10.0, 130, 101)]:
        rows += [{"cp": cp, "schedule": "uct", "operations": uct}, {"cp": cp, "schedule": "sa-uct", "operations": sa}]
    roi = region_of_interest(SweepTable(rows), tolerance=0.02)
    assert (roi["uct"]["low"], roi["uct"]["high"]) == (0.3, 1.0)
    assert (roi["sa-uct"]["low"], roi["sa-uct"]["high"]) == (0.3, 10.0)
    assert roi["sa-uct"]["width"] / roi["uct"]["width"] == pytest.approx(9.7 / 0.7)
