"""Billions of evaluations on a Dask cluster (issue 38 item 3): throughput per worker against one process.

    python benchmarks/dask_evaluation.py [--expression hep_sigma] [--points 20000000] [--chunk 250000]
                                         [--workers 2] [--out benchmarks/results/dask_evaluation.txt]

The optimized expression (default preset, seed 0) is compiled once
(:func:`hornermcts.codegen.compile`).  The points are drawn chunk by chunk
where they are evaluated (uniform in [-1, 1], never all in memory), the
values summed per chunk so nothing large travels back:

- **one process**: the same chunks, one after the other, on one thread;
- **plain processes**: the same chunks dealt out to ``--workers`` forked
  processes side by side, without dask: what this machine's cores give
  together (on this 2-vCPU VM two processes run at about half the speed of
  one each, whatever they compute);
- **cluster**: ``dask.distributed.LocalCluster`` with ``--workers`` worker
  processes of one thread each, the dask array of points mapped by
  :func:`hornermcts.codegen.evaluate_dask`, then summed.

The same chunks are drawn in both (seeded by their index).  The figure is
points per second per worker against the one process (the issue's target: at
least 90 %), and each worker's peak memory (resident set size, read from the
workers after the run) beside the chunk's size.  The
cluster's start is not timed.  One run on this machine; the two sums (the
same points, summed in another order) must agree to 1e-9 or the script stops.
"""
from __future__ import annotations

import argparse
import logging
import platform
import sys
import time
from pathlib import Path

import numpy as np

import hornermcts
from hornermcts import codegen
from hornermcts.research import families

RESULTS = Path(__file__).resolve().parent / "results"


def _points(n: int, nv: int, seed: int) -> np.ndarray:
    """Chunk ``seed``'s points, drawn where they are used: the same in one process and on the cluster."""
    return np.random.default_rng(seed).uniform(-1.0, 1.0, (n, nv))


def _chunk_sum(compiled, n: int, nv: int, seed: int) -> float:
    return float(np.sum(compiled(_points(n, nv, seed), workers=1)))


def _drawn(block_info=None):
    """A dask block of points, drawn on the worker (seeded by the block's index)."""
    info = block_info[None]
    (n, nv), k = info["chunk-shape"], info["chunk-location"][0]
    return _points(n, nv, k)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--expression", default="hep_sigma")
    parser.add_argument("--points", type=int, default=20_000_000)
    parser.add_argument("--chunk", type=int, default=250_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(RESULTS / "dask_evaluation.txt"))
    args = parser.parse_args(argv)
    import dask.array as da
    from dask.distributed import Client, LocalCluster

    result = hornermcts.optimize(families.load(args.expression), seed=0)
    compiled = codegen.compile(result)
    nv = len(compiled.symbols)
    chunks = [args.chunk] * (args.points // args.chunk) + ([args.points % args.chunk] if args.points % args.chunk
                                                             else [])
    _chunk_sum(compiled, 1000, nv, 0)  # warm
    start = time.perf_counter()
    alone = sum(_chunk_sum(compiled, n, nv, k) for k, n in enumerate(chunks))
    one = time.perf_counter() - start
    plain = _plain_processes(compiled, chunks, nv, args.workers)  # what the machine's cores give side by side

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.CRITICAL) \
            as cluster, Client(cluster) as client:
        client.run(lambda: _chunk_sum(compiled, 1000, nv, 0))  # each worker loads the library before the clock
        points = da.map_blocks(_drawn, dtype=np.float64, chunks=(tuple(chunks), (nv,)))
        total = codegen.evaluate_dask(compiled, points).sum()
        start = time.perf_counter()
        together = float(client.compute(total).result())
        many = time.perf_counter() - start
        memory = client.run(_peak_rss)
    if not np.isclose(alone, together, rtol=1e-9):
        raise SystemExit(f"the sums differ ({alone!r} and {together!r}): the two runs did not do the same work")
    per_one, per_worker = args.points / one, args.points / many / args.workers
    chunk_mb = args.chunk * nv * 8 / 1e6
    lines = [
        f"# python benchmarks/dask_evaluation.py --expression {args.expression} --points {args.points} "
        f"--chunk {args.chunk} --workers {args.workers}",
        f"# {platform.machine()}, {hornermcts.codegen.compiled.cores()} cores; {result.after.total} operations per "
        f"point; one run",
        f"one process, one thread: {args.points:,} points in {one:.2f} s = {per_one:,.0f} points/s",
        f"{args.workers} plain processes side by side (forked, no dask): {plain:.2f} s = "
        f"{args.points / plain / args.workers:,.0f} points/s per process = {one / plain / args.workers:.2f} of one "
        f"process: the ceiling of this machine's cores",
        f"LocalCluster, {args.workers} workers x 1 thread: {many:.2f} s = {per_worker:,.0f} points/s per worker "
        f"= {per_worker / per_one:.2f} of one process, {plain / many:.2f} of the plain processes",
        f"peak memory per worker (resident): {', '.join(f'{m / 1e6:.0f} MB' for m in memory.values())} "
        f"(a chunk of points: {chunk_mb:.0f} MB)",
        f"sums over the same points: {alone:.12g} (one process) and {together:.12g} (cluster)",
    ]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    Path(args.out).write_text(text)
    return 0


def _plain_processes(compiled, chunks: list, nv: int, workers: int) -> float:
    """Seconds for ``workers`` forked processes to evaluate the same chunks, dealt out in turn (no dask)."""
    import multiprocessing

    shares = [[(k, n) for k, n in enumerate(chunks) if k % workers == w] for w in range(workers)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        pool.map(_share_sum, [(compiled, [(0, 1000)], nv)] * workers)  # each process warm
        start = time.perf_counter()
        pool.map(_share_sum, [(compiled, share, nv) for share in shares])
        return time.perf_counter() - start


def _share_sum(job) -> float:
    compiled, share, nv = job
    return sum(_chunk_sum(compiled, n, nv, k) for k, n in share)


def _peak_rss() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


if __name__ == "__main__":
    sys.exit(main())
