"""Operations in the code each side hands its user: ours (the emitted C) and FORM's (its ``%O`` output).

Both are read by one counter, the tests' independent one
(``tests/helpers/emitted_ops.py``: it reads text, in FORM's model, and shares no code
with the library), so a comparison is like with like.  FORM's own reported
figure is kept beside its code count as a check; they agree.

Used by the benchmark scripts of this folder (run as ``python benchmarks/NAME.py``,
which puts this folder on ``sys.path``).
"""
from __future__ import annotations

import importlib.util
import os
import platform
import tempfile
import time
from pathlib import Path

from hornermcts import codegen, optimize

from hornermcts.research import form

_COUNTER_PATH = Path(__file__).resolve().parent.parent / "tests" / "helpers" / "emitted_ops.py"


def _counter():
    spec = importlib.util.spec_from_file_location("emitted_ops", _COUNTER_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


emitted_ops = _counter()


def c_operations(obj) -> int:
    """Operations in the C code :func:`hornermcts.codegen.to_c` emits for ``obj`` (a result or a DAG)."""
    return emitted_ops.total(emitted_ops.count_c(codegen.to_c(obj, batch=False)))


def ours_in_code(result) -> int:
    """Operations in the C code :func:`hornermcts.codegen.to_c` emits for ``result``.

    Raises AssertionError if it differs from ``result.after`` (the library's
    claim): a benchmark must never print a figure the code does not hold.
    """
    ops = c_operations(result)
    if ops != result.after.total:
        raise AssertionError(f"reported {result.after.total} operations, the emitted C has {ops}")
    return ops


def form_in_code(poly, **options) -> dict:
    """FORM's run on ``poly`` (:func:`hornermcts.research.form.run_form` options) with its code counted.

    Returns FORM's figures plus ``"in_code"``: the operations of its emitted
    code read by the same counter as ours.
    """
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "form_code.txt"
        out = form.run_form(poly, code=path, **options)
        out["in_code"] = emitted_ops.total(emitted_ops.count_form(path.read_text()))
    return out


class Report:
    """The lines a benchmark prints, kept for its results file; the first says where and when it ran.

    Making one also loads the Numba cache once, so no figure includes compiling.
    """

    def __init__(self, script: str) -> None:
        self.lines: list[str] = []
        optimize("x*y + x*z", iterations=5, seed=0)
        self(f"# python benchmarks/{script}  ({time.strftime('%Y-%m-%d')}; {platform.machine()}, "
             f"{os.cpu_count()} cores, load average at the start {os.getloadavg()[0]:.1f}; "
             "every count read from the emitted code)")

    def __call__(self, text: str = "") -> None:
        print(text, flush=True)
        self.lines.append(text)

    def write(self, path: Path) -> None:
        path.write_text("\n".join(self.lines) + "\n")
