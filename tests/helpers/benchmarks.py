"""Load a script of ``benchmarks/`` as a module, for the tests of its functions."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(name: str):
    """``benchmarks/NAME.py`` as a module, registered under ``NAME`` (Numba's cache reloads a kernel's module by
    name)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
