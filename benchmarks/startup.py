"""Start-up of the command line, cold and warm Numba cache, in fresh processes.

Measures, each in a fresh Python process and repeated (the median is
reported, wall time and the child's CPU time, user + system, from
``resource.getrusage``):

- ``import hornermcts; hornermcts.optimize`` (the package imports its names
  on first use, so ``import hornermcts`` alone is also shown, timed inside);
- ``hornermcts optimize FILE --no-progress -n 200`` with a *cold* Numba cache
  (a fresh, empty ``NUMBA_CACHE_DIR`` for every repeat: every kernel is compiled);
- the same run *warm* (the same cache directory again: the kernels are loaded);
- when each status line appears when standard error is a terminal (a
  pseudo-terminal; the run as above without ``--no-progress``), cold and
  warm: the first one (``loading hornermcts optimize ...``, written before
  SymPy and Numba are imported), ``reading``, the kernels (compiling or
  loading) and ``searching``;
- where the time goes, cold and warm: one process timing its own stages
  (import numba, import sympy, import hornermcts, read the file, the fast
  counter's first call, which compiles or loads the kernels, and optimize).

Python's own bytecode cache (``__pycache__/*.pyc``) is warm in every case;
only Numba's cache is made cold.  On a shared machine the figures move with the
others' load: the load average is printed before and after, and the CPU time
is the steadier figure.  Measured output in benchmarks/results/startup.txt.

    python benchmarks/startup.py [--file expressions/hep_sigma.txt] [--iterations 200] [--repeats 5]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The console script's work: ``hornermcts ARGS`` without depending on where it is installed.
CLI = "import sys; from hornermcts.cli import main; sys.exit(main())"

#: ``import hornermcts`` (lazy: its names load on first use), then the first use of ``hornermcts.optimize``.
IMPORT = ("import time; t = time.perf_counter(); import hornermcts; a = time.perf_counter() - t; "
          "hornermcts.optimize; print(a, time.perf_counter() - t)")

#: One process timing its own stages; prints them as JSON (seconds since the previous mark).
STAGES = """
import json, sys, time
marks, last = {}, time.perf_counter()
def mark(name):
    global last
    now = time.perf_counter(); marks[name] = now - last; last = now
import numba; mark("import numba")
import sympy; mark("import sympy")
import hornermcts; mark("import hornermcts (lazy: names load on use)")
from hornermcts.cli import build_parser; build_parser(["optimize"]); mark("command line (the optimize subcommand)")
poly = hornermcts.read_file(sys.argv[1]); mark("read the file")
hornermcts.FastCounter(poly).count(range(poly.n_vars)); mark("first fast count (compile or load kernels)")
hornermcts.optimize(poly, iterations=int(sys.argv[2]), seed=0, progress=None); mark("optimize (search, CSE, greedy)")
print(json.dumps(marks))
"""


def child(argv: list[str], cache: str) -> tuple[float, float, str]:
    """Run ``python ARGV`` with NUMBA_CACHE_DIR=cache; its wall seconds, CPU seconds and standard output."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, *argv], env=env, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"{argv} failed:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


#: The status lines of ``hornermcts optimize``, by how they start (the kernels' line says compiling or loading).
STATUS = {"loading hornermcts": "first line (loading hornermcts optimize)", "reading": "reading the file",
          "compiling kernels": "kernels (compiling or loading)", "loading compiled kernels":
          "kernels (compiling or loading)", "searching": "searching"}


def status_times(argv: list[str], cache: str) -> dict[str, float]:
    """Seconds until ``python ARGV`` shows each of its status lines on standard error, a pseudo-terminal."""
    import pty
    import re
    import select

    parent, terminal = pty.openpty()
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *argv], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=terminal)
    os.close(terminal)
    seen: dict[str, float] = {}
    shown = ""
    try:
        while True:
            ready, _, _ = select.select([parent], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(parent, 4096)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                now = time.perf_counter() - start
                shown += chunk.decode("utf-8", "replace")
                for text in re.split(r"[\r\n]|\x1b\[A", shown):
                    for prefix, stage in STATUS.items():
                        if text.strip().startswith(prefix) and stage not in seen:
                            seen[stage] = now
            elif proc.poll() is not None:
                break
    finally:
        os.close(parent)
        proc.wait()
    if proc.returncode or not seen:
        raise SystemExit(f"{argv} failed or wrote no status line on standard error")
    return seen


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", default="expressions/hep_sigma.txt")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    optimize = ["-c", CLI, "optimize", args.file, "--no-progress", "-n", str(args.iterations)]
    stages = ["-c", STAGES, args.file, str(args.iterations)]
    on_terminal = [a for a in optimize if a != "--no-progress"]
    import numba

    print(f"{os.cpu_count()} cores, Python {platform.python_version()}, Numba {numba.__version__}; "
          f"{args.repeats} repeats, medians; load average before: {load()}")
    rows: dict[str, list[tuple[float, float]]] = {"import hornermcts; .optimize": [], "optimize, cold Numba cache": [],
                                                  "optimize, warm Numba cache": []}
    breakdown: dict[str, list[dict]] = {"cold": [], "warm": []}
    in_process: list[list[float]] = []
    status: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
            wall, cpu, out = child(["-c", IMPORT], cache)
            rows["import hornermcts; .optimize"].append((wall, cpu))
            in_process.append([float(v) for v in out.split()])
            rows["optimize, cold Numba cache"].append(child(optimize, cache)[:2])
            rows["optimize, warm Numba cache"].append(child(optimize, cache)[:2])
            status["warm"].append(status_times(on_terminal, cache))
            kernels = sum(1 for p in Path(cache).rglob("*.nbi"))
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
            status["cold"].append(status_times(on_terminal, cache))
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
            breakdown["cold"].append(json.loads(child(stages, cache)[2]))
            breakdown["warm"].append(json.loads(child(stages, cache)[2]))
    print(f"{'':<30} {'wall s':>7} {'CPU s':>7}")
    for name, values in rows.items():
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        print(f"{name:<30} {wall:>7.2f} {cpu:>7.2f}")
    cold = statistics.median(w for w, _ in rows["optimize, cold Numba cache"])
    warm = statistics.median(w for w, _ in rows["optimize, warm Numba cache"])
    print(f"(timed inside the process: import hornermcts {statistics.median(v[0] for v in in_process):.2f} s, "
          f"with its first hornermcts.optimize {statistics.median(v[1] for v in in_process):.2f} s; "
          f"warm saves {cold - warm:.2f} s of {cold:.2f} s; {kernels} kernel indexes cached)")
    print(f"\nstatus lines of 'hornermcts optimize' on a terminal, seconds from the start (wall, median over "
          f"{args.repeats}):")
    print(f"{'status line':<44} {'cold':>6} {'warm':>6}")
    for stage in dict.fromkeys(STATUS.values()):
        times = {k: [run[stage] for run in runs if stage in run] for k, runs in status.items()}
        print(f"{stage:<44} " + " ".join(f"{statistics.median(t):>6.2f}" if t else f"{'-':>6}"
                                         for t in times.values()))
    print(f"\nwhere the time goes, one process timing its stages (median s over {args.repeats}):")
    print(f"{'stage':<44} {'cold':>6} {'warm':>6}")
    for stage in breakdown["cold"][0]:
        print(f"{stage:<44} {statistics.median(b[stage] for b in breakdown['cold']):>6.2f} "
              f"{statistics.median(b[stage] for b in breakdown['warm']):>6.2f}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
