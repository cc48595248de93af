"""Sweeps: many independent searches over a grid of options, on one or many machines.

Every run is one :func:`~hornermcts.pipeline.optimize` call with a
deterministic seed derived from the sweep's ``seed``, the run's options and its
index, so the same sweep gives the same table on every backend (and a grid
extended later reuses the rows it already has): serially,
on a local process pool (all cores, the default) or on a Dask cluster.

Examples
--------
>>> import sympy
>>> x, y, z = sympy.symbols("x y z")
>>> table = sweep(x**3*y**2 + x**2*y + x**3*z, {"cp": [0.1, 1.0], "iterations": [20]},
...               seeds=2, backend="serial")
>>> len(table), table.rows[0]["cp"], table.rows[0]["order"]
(4, 0.1, ['x', 'y', 'z'])
>>> table.column("operations")
[6, 6, 6, 6]
"""
from __future__ import annotations

from ..errors import OptionError

import itertools
import json
import math
import os
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

__all__ = ["sweep", "SweepTable", "cp_sweep", "region_of_interest", "read_table", "BACKENDS"]

BACKENDS = ("serial", "process", "dask")

#: options a grid may vary (those of optimize that shape one search)
GRID_KEYS = ("iterations", "cp", "schedule", "direction", "repeats", "time_limit")


@dataclass
class SweepTable:
    """A tidy table: one row (a dict) per search.

    Columns: the grid options, ``run`` (the seed index), ``seed`` (the
    search's own seed), ``operations``, ``seconds``, ``iterations_done`` and
    ``order``.
    """

    rows: list = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows)

    def column(self, name: str) -> list:
        """One column as a list."""
        return [r[name] for r in self.rows]

    def where(self, **conditions) -> "SweepTable":
        """The rows whose columns equal the given values."""
        return SweepTable([r for r in self.rows if all(r.get(k) == v for k, v in conditions.items())])

    def to_csv(self, path) -> None:
        """Write the table as CSV (the order as a space-separated list)."""
        import csv

        if not self.rows:
            Path(path).write_text("")
            return
        keys = list(self.rows[0])
        with open(path, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=keys)
            writer.writeheader()
            for r in self.rows:
                writer.writerow({**r, "order": " ".join(r["order"])})

    def to_pandas(self):
        """The table as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.rows)


def _jobs(grid, seeds, base_seed: int) -> list[dict]:
    if isinstance(grid, dict):
        values = [list(v) if isinstance(v, (list, tuple, range, np.ndarray)) else [v] for v in grid.values()]
        points = [dict(zip(grid, combo)) for combo in itertools.product(*values)]
    else:
        points = [dict(p) for p in grid]
    for key in {k for p in points for k in p}:
        if key not in GRID_KEYS:
            raise OptionError(f"grid key {key!r} is not a search option; use {GRID_KEYS}")
    from ..options import Options

    runs = range(seeds) if isinstance(seeds, int) else list(seeds)
    defaults = {key: getattr(Options(), key) for key in GRID_KEYS}
    defaults["repeats"] = 1  # a run is one search (the paper's setting), not the default preset's two restarts
    jobs = []
    for point, run in itertools.product(points, runs):
        params = {**defaults, **{k: (float(v) if k == "cp" else v) for k, v in point.items()}}
        Options(**params)  # a bad value fails here, before any search runs
        tag = zlib.crc32(json.dumps(params, sort_keys=True).encode())
        seq = np.random.SeedSequence([base_seed, tag, int(run)])
        jobs.append({**params, "run": int(run), "seed": int(seq.generate_state(1)[0] & 0x7FFFFFFF)})
    return jobs


def _key(job: dict) -> str:
    return json.dumps({k: job[k] for k in GRID_KEYS + ("run", "seed")}, sort_keys=True)


_WORKER_POLY = None


def _init_worker(poly) -> None:
    global _WORKER_POLY
    _WORKER_POLY = poly


def run_job(job: dict, poly=None) -> dict:
    """Run one search of a sweep and return its table row.

    A run is one MCTS search scored by Horner + CSE alone (``preset="mcts"``,
    ``greedy=False``, one restart unless the grid says ``repeats``) in the
    input's own variables (``substitute=False``), the setting of the SA-UCT
    paper's figures, so the operations measure the search and nothing before
    or after it.  A run uses one process (``workers=1``): the
    sweep spreads its runs over the cores.
    """
    from ..pipeline import optimize

    poly = poly if poly is not None else _WORKER_POLY
    options = {k: job[k] for k in GRID_KEYS}
    start = time.perf_counter()
    result = optimize(poly, preset="mcts", greedy=False, substitute=False, seed=job["seed"], progress=None,
                      workers=1, **options)
    seconds = time.perf_counter() - start
    return {**job, "operations": result.after.total, "seconds": round(seconds, 4),
            "iterations_done": result.iterations, "order": [str(s) for s in result.order]}


def _load(path: Path) -> dict:
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[_key(row)] = row
    return done


def sweep(
    expr,
    grid,
    *,
    seeds: int | Sequence[int] = 10,
    seed: int = 0,
    backend: Any = "process",
    workers: int | None = None,
    save: str | os.PathLike | None = None,
    progress: Any = "auto",
) -> SweepTable:
    """Run independent searches over ``grid`` x ``seeds``; return a tidy table.

    Parameters
    ----------
    expr : anything :func:`~hornermcts.parse.as_polynomial` accepts
    grid : dict of lists, or list of dicts
        Values of :func:`optimize` options (``iterations``, ``cp``,
        ``schedule``, ``direction``, ``repeats``, ``time_limit``); a dict is
        expanded to its Cartesian product.  Unset options take optimize's
        defaults.
    seeds : int or sequence of int
        Runs per grid point (``range(seeds)`` for an int).
    seed : int
        The sweep's seed; each run's seed is derived from it, the run's
        options and its index, so every backend gives the same rows.
    backend : "serial", "process", "dask", a ``dask.distributed.Client`` or a scheduler address
        ``"process"`` (default) uses a local process pool with ``workers``
        processes (default: all cores); ``"dask"`` starts a
        ``LocalCluster``; a Client or an address like ``"tcp://host:8786"``
        uses that cluster.
    save : path, optional
        A JSON-lines file: every finished row is appended at once; rows
        already in the file are not run again (resume an interrupted sweep
        by calling it again with the same arguments).
    progress : "auto", True, None
        A tqdm bar over runs.

    Returns
    -------
    SweepTable
        Rows in grid order.  On Ctrl-C the finished rows are returned (and
        saved) and the interruption is re-raised only after that.
    """
    from ..parse import as_polynomial

    poly = as_polynomial(expr)
    jobs = _jobs(grid, seeds, seed)
    path = Path(save) if save is not None else None
    done = _load(path) if path else {}
    todo = [j for j in jobs if _key(j) not in done]
    bar = _bar(progress, len(jobs), len(jobs) - len(todo))
    sink = open(path, "a") if path else None

    def record(row):
        done[_key(row)] = row
        if sink:
            sink.write(json.dumps(row) + "\n")
            sink.flush()
        if bar:
            bar.update(1)

    interrupted = None
    try:
        if todo:
            _run(poly, todo, backend, workers, record)
    except KeyboardInterrupt as exc:
        interrupted = exc
    finally:
        if sink:
            sink.close()
        if bar:
            bar.close()
    table = SweepTable([done[_key(j)] for j in jobs if _key(j) in done])
    if interrupted is not None:
        table.interrupted = True
    return table


def _bar(progress, total, initial):
    if progress is None or progress is False:
        return None
    import sys

    if progress == "auto" and not sys.stderr.isatty():
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, desc="sweep", unit="run")


def _run(poly, jobs, backend, workers, record) -> None:
    if backend == "serial":
        for job in jobs:
            record(run_job(job, poly))
        return
    if backend == "process":
        from concurrent.futures import ProcessPoolExecutor, as_completed
        import multiprocessing as mp

        workers = workers or os.cpu_count() or 1
        ctx = mp.get_context("spawn" if os.name == "nt" else "forkserver")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                                 initargs=(poly,)) as pool:
            futures = [pool.submit(run_job, job) for job in jobs]
            try:
                for fut in as_completed(futures):
                    record(fut.result())
            except KeyboardInterrupt:
                for fut in futures:
                    fut.cancel()
                raise
        return
    _run_dask(poly, jobs, backend, workers, record)


def _run_dask(poly, jobs, backend, workers, record) -> None:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("the dask backend needs dask.distributed: pip install 'hornermcts[dask]'") from None
    own = None
    if backend == "dask":
        own = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True)
        client = Client(own)
    elif isinstance(backend, str):
        client = Client(backend)
        own = client
    elif isinstance(backend, Client):
        client = backend
    else:
        raise OptionError(f"backend must be one of {BACKENDS}, a dask Client or a scheduler address, not {backend!r}")
    try:
        remote_poly = client.scatter(poly, broadcast=True)
        futures = [client.submit(run_job, job, remote_poly, pure=False) for job in jobs]
        try:
            for fut in as_completed(futures):
                record(fut.result())
        except KeyboardInterrupt:
            client.cancel(futures)
            raise
    finally:
        if own is not None:
            if own is not client:
                client.close()
            own.close()


def cp_sweep(expr, *, cps=None, schedules=("uct", "sa-uct"), iterations=1000, seeds=5,
             direction="forward", **options) -> SweepTable:
    """The SA-UCT paper's experiment: many searches over log-spaced Cp values.

    ``cps`` defaults to 25 values log-spaced from 0.01 to 10.
    """
    cps = list(np.logspace(-2, 1, 25)) if cps is None else list(cps)
    grid = {"cp": cps, "schedule": list(schedules), "iterations": [iterations], "direction": [direction]}
    return sweep(expr, grid, seeds=seeds, **options)


def region_of_interest(table: SweepTable, *, tolerance: float = 0.02, best: float | None = None,
                       reference: str = "best run") -> dict:
    """Per schedule, the widest contiguous Cp range whose runs are near the best.

    A Cp grid value is *good* when the median of its runs is within
    ``tolerance`` of ``best``.  Default ``best``: with ``reference="best run"``
    the best count in the whole table; with ``reference="best median"`` the
    lowest median of any (schedule, Cp) cell (less strict when single runs
    scatter widely).
    Returns ``{schedule: {"low", "high", "width", "factor", "good"}}`` with
    ``width = high - low`` (the paper's measure) and ``factor = high / low``.
    """
    if best is None:
        if reference == "best run":
            best = min(table.column("operations"))
        elif reference == "best median":
            best = min(float(np.median(table.where(schedule=s, cp=c).column("operations")))
                       for s in set(table.column("schedule")) for c in set(table.where(schedule=s).column("cp")))
        else:
            raise OptionError(f"reference must be 'best run' or 'best median', not {reference!r}")
    out = {}
    for schedule in sorted(set(table.column("schedule"))):
        sub = table.where(schedule=schedule)
        cps = sorted(set(sub.column("cp")))
        good = [float(np.median(sub.where(cp=c).column("operations"))) <= best * (1 + tolerance) for c in cps]
        run = (0, -1)
        start = None
        for i, g in enumerate(good + [False]):
            if g and start is None:
                start = i
            if not g and start is not None:
                if i - 1 - start > run[1] - run[0]:
                    run = (start, i - 1)
                start = None
        if run[1] < run[0]:
            out[schedule] = {"low": math.nan, "high": math.nan, "width": 0.0, "factor": 1.0, "good": 0}
        else:
            lo, hi = cps[run[0]], cps[run[1]]
            out[schedule] = {"low": lo, "high": hi, "width": hi - lo, "factor": hi / lo, "good": run[1] - run[0] + 1}
    return out


def read_table(path) -> SweepTable:
    """A table saved by ``sweep(..., save=path)`` (JSON lines)."""
    return SweepTable(list(_load(Path(path)).values()))
