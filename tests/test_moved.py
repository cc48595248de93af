"""The former module paths (before the pipeline packages) still import, with a DeprecationWarning, for one release."""
from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

import hornermcts
from hornermcts import MOVED


@pytest.mark.parametrize("former", sorted(MOVED))
def test_a_former_path_imports_the_module_that_moved_with_a_warning(former, monkeypatch):
    top = former.partition(".")[0]
    bound = vars(hornermcts).copy()  # importing binds the package's name ``top``: put back what it was
    monkeypatch.delitem(sys.modules, f"hornermcts.{former}", raising=False)
    try:
        with pytest.warns(DeprecationWarning, match=f"hornermcts.{former} moved to hornermcts.{MOVED[former]}"):
            old = importlib.import_module(f"hornermcts.{former}")
    finally:
        vars(hornermcts).pop(top, None)
        vars(hornermcts).update({top: bound[top]} if top in bound else {})
    new = importlib.import_module(f"hornermcts.{MOVED[former]}")
    if former == "optimize":
        assert old.optimize is new.optimize and old.OptimizeResult is new.OptimizeResult
    else:
        assert old is new


def test_the_new_paths_warn_nothing():
    code = ("import warnings; warnings.simplefilter('error')\nimport hornermcts\n"
            + "".join(f"import hornermcts.{new}\n" for new in MOVED.values()))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_optimize_stays_the_function_whatever_is_imported():
    """The module of ``optimize`` is ``pipeline``: no submodule named ``optimize`` hides the function."""
    importlib.import_module("hornermcts.pipeline")
    assert hornermcts.optimize is importlib.import_module("hornermcts.pipeline").optimize
    code = ("import warnings, sympy, hornermcts\nwarnings.simplefilter('ignore')\n"
            "from hornermcts.optimize import optimize\nx = sympy.Symbol('x')\n"
            "print(hornermcts.optimize(x**2 + x, iterations=2, seed=0).after.total, optimize is not None)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["2", "True"], proc.stderr


def test_a_path_that_never_existed_still_fails():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("hornermcts.no_such_module")
