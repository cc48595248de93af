"""The first call after a fresh install: ``pip install`` into a new venv, then each run from the install's cache.

Creates a venv, installs SOURCE into it the way a user would (``pip install
SOURCE``, not editable), and records the Numba cache files the install left in
the package's ``__pycache__`` folders.  Then, for ``hornermcts optimize`` of the file
``x = 3`` and for the first ``optimize`` of a few inputs under 1,000 terms,
each in a fresh process, it first puts the cache back as the install left it
(so every run is a first run) and times it: wall seconds of the whole process
and, for the inputs, the seconds of the import and of the first ``optimize``.
The operation counts are printed too (they must not depend on the install).

    python benchmarks/first_call.py [--source DIR] [--venv DIR] [--inputs 'res(3,2)' 'det(6)' ...]

``--source`` another checkout (e.g. ``git archive`` of an older commit) gives
the figure before a change.  On a shared machine the load average is printed
before and after; the figures move with it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FIRST = """
import sys, time
t0 = time.perf_counter()
import hornermcts
from hornermcts import families
poly = families.load(sys.argv[1])
t1 = time.perf_counter()
result = hornermcts.optimize(poly, seed=0)
t2 = time.perf_counter()
print(f"{sys.argv[1]:>18} ({poly.n_terms} terms): import and load {t1 - t0:.2f} s, "
      f"first optimize {t2 - t1:.2f} s, {result.after.total} operations", end="")
"""


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=ROOT)
    ap.add_argument("--venv", type=Path, default=None, help="default: a new temporary folder")
    ap.add_argument("--inputs", nargs="+", default=["res(3,2)", "det(6)", "random(10,1000,4)"])
    args = ap.parse_args()
    venv = args.venv or Path(tempfile.mkdtemp(prefix="hornermcts-first-call-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        start = time.perf_counter()
        subprocess.run([str(python), "-m", "pip", "install", "-q", str(args.source)], check=True, env=env)
        print(f"pip install {args.source}: {time.perf_counter() - start:.0f} s")
    package = Path(subprocess.run([str(python), "-c", "import hornermcts, os; print(os.path.dirname("
                                   "hornermcts.__file__))"], capture_output=True, text=True, check=True,
                                  env=env, cwd=tempfile.gettempdir()).stdout.strip())  # not a checkout's
    shipped = Path(tempfile.mkdtemp(prefix="hornermcts-shipped-"))
    for f in package.rglob("__pycache__/*.nb[ic]"):
        (shipped / f.relative_to(package)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, shipped / f.relative_to(package))
    print(f"the install left {len(list(shipped.rglob('*.nb[ic]')))} Numba cache files; load average {load()}")

    def first_run(argv: list[str]) -> tuple[float, str]:
        for f in package.rglob("__pycache__/*.nb[ic]"):
            f.unlink()
        for f in shipped.rglob("*.nb[ic]"):
            shutil.copy2(f, package / f.relative_to(shipped))
        start = time.perf_counter()
        out = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
        return time.perf_counter() - start, out.stdout.strip()

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as constant:
        constant.write("x = 3\n")
    seconds, _ = first_run([str(venv / "bin" / "hornermcts"), "optimize", constant.name])
    print(f"{'hornermcts optimize':>18} (x = 3): {seconds:.2f} s, the whole process")
    for name in args.inputs:
        seconds, line = first_run([str(python), "-c", FIRST, name])
        print(f"{line}; {seconds:.2f} s, the whole process")
    print(f"load average {load()}")
    os.unlink(constant.name)
    shutil.rmtree(shipped)


if __name__ == "__main__":
    main()
