"""Guard rails of the house: lint, types of the public API, no private imports, no machine paths.

These run in CI with everything else (ruff and mypy come with the ``test``
extra), so a change that breaks a rule fails there, naming file and line.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "hornermcts"
SOURCES = [LIBRARY, ROOT / "benchmarks", ROOT / "tests", ROOT / "expressions", ROOT / "notebooks"]

#: The modules of the public API (what ``hornermcts/__init__.py`` re-exports, and the packages users import).
PUBLIC = ["hornermcts/__init__.py", "hornermcts/options.py", "hornermcts/pipeline.py", "hornermcts/errors.py",
          "hornermcts/search/__init__.py", "hornermcts/codegen/__init__.py", "hornermcts/parse/__init__.py",
          "hornermcts/sympy_dropins.py", "hornermcts/polynomial/sparse.py", "hornermcts/cost/counting.py"]


def python_files(folders):
    for folder in folders:
        yield from sorted(p for p in folder.rglob("*.py") if ".ipynb_checkpoints" not in p.parts)


def imported_private_names(path: Path) -> list[str]:
    """``module:name`` of each private name ``path`` imports from another module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name} from "
                                 f"{'.' * node.level}{node.module or ''}")
    return found


def test_nothing_imports_another_modules_private_names():
    offences = [hit for path in python_files(SOURCES) for hit in imported_private_names(path)]
    assert not offences, "\n".join(offences)


MACHINE_PATH = re.compile(r"^(/(work|home|root|tmp|Users|mnt|opt|srv)/|[A-Za-z]:\\)")


def test_the_library_names_no_path_of_one_machine():
    offences = []
    for path in python_files([LIBRARY]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and MACHINE_PATH.match(node.value):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not offences, "\n".join(offences)


def test_the_guard_rails_catch_what_they_guard(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from .dag import (\n    Dag,\n    _children,\n)\nPATH = '/work/shared/x'\n")
    bad = bad.rename(ROOT / "tests" / f"_guard_probe_{tmp_path.name}.py")
    try:
        assert imported_private_names(bad) == [f"{bad.relative_to(ROOT)}:1 imports _children from .dag"]
        assert MACHINE_PATH.match("/work/shared/x") and not MACHINE_PATH.match("/2")
    finally:
        bad.unlink()


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    pytest.importorskip("ruff", reason="ruff comes with the test extra: pip install -e '.[test]'")
    result = run("ruff", "check", "--no-cache", "hornermcts", "tests", "benchmarks", "expressions", "notebooks")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_accepts_the_public_api():
    pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e '.[test]'")
    result = run("mypy", "--no-incremental", *PUBLIC)
    assert result.returncode == 0, result.stdout + result.stderr


#: The longest a function may be, in lines of code (blank lines, comments and the docstring not counted).
MAX_FUNCTION_LINES = 80


def code_lines(lines: list[str], function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of code of ``function``: not blank, not a comment, not its docstring."""
    skip: set[int] = set()
    first = function.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        skip = set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return sum(1 for n in range(function.lineno, (function.end_lineno or function.lineno) + 1)
               if n not in skip and lines[n - 1].strip() and not lines[n - 1].strip().startswith("#"))


def test_no_function_is_longer_than_80_lines_of_code():
    """A long function hides its phases: name them (see ``search/mcts.py``: select, expand, simulate, backpropagate).

    Numba kernels are exempt: a call inside a compiled loop costs what the loop is compiled to save.
    """
    offences = []
    for path in python_files([LIBRARY]):
        text = path.read_text()
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kernel = any("jit" in ast.unparse(d) for d in node.decorator_list)
                n = code_lines(lines, node)
                if n > MAX_FUNCTION_LINES and not kernel:
                    offences.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {n} lines of code; "
                                    f"split it into named steps of at most {MAX_FUNCTION_LINES}")
    assert not offences, "\n".join(offences)
