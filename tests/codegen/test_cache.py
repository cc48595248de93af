"""The compile cache is private (issue 14, point 6): a library another user could have planted is never loaded.

Each test points ``HORNERMCTS_CACHE`` at a directory of its own and plants
what an attacker sharing it could: a library with the expected name that
returns 666.  The compiled function must still return the polynomial's value.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import warnings

import pytest
import sympy

from hornermcts import codegen
from hornermcts.dag.horner import horner_dag
from hornermcts.parse import as_polynomial

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")

x, y = sympy.symbols("x y")
DAG = horner_dag(as_polynomial(x**2 * y + 3 * x + 1))
VALUE = 2.0**2 * 5.0 + 3 * 2.0 + 1  # at (x, y) = (2, 5)


def _plant(folder, name):
    """A library named ``name`` in ``folder`` whose ``f`` returns 666 (what an attacker would plant)."""
    src = folder / "evil.c"
    src.write_text("double f(const double *x) { return 666.0; }\n"
                   "void f_batch(const double *xs, double *out, long n)\n"
                   "{ for (long i = 0; i < n; i++) out[i] = 666.0; }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(folder / name), str(src)], check=True)
    src.unlink()


def _expected_library(folder, monkeypatch):
    """Compile once into ``folder`` to learn the library's name, then remove it."""
    monkeypatch.setenv("HORNERMCTS_CACHE", str(folder))
    compiled = codegen.compile(DAG)
    name = compiled.library.name
    del compiled
    (folder / name).unlink()
    return name


def test_cache_is_created_private_and_reused(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("HORNERMCTS_CACHE", str(folder))
    first = codegen.compile(DAG)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert first([2.0, 5.0]) == VALUE and first.library.parent == folder
    assert codegen.compile(DAG).library == first.library  # reused


def test_library_in_a_directory_others_can_write_is_not_loaded(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    name = _expected_library(folder, monkeypatch)
    _plant(folder, name)
    folder.chmod(0o777)
    with pytest.warns(UserWarning, match="writable by other users"):
        compiled = codegen.compile(DAG)
    assert compiled([2.0, 5.0]) == VALUE and compiled.library.parent != folder


def test_library_writable_by_others_is_not_loaded(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    name = _expected_library(folder, monkeypatch)
    _plant(folder, name)
    (folder / name).chmod(0o666)
    with pytest.warns(UserWarning, match="is not loaded"):
        compiled = codegen.compile(DAG)
    assert compiled([2.0, 5.0]) == VALUE


def test_symbolic_link_is_not_followed(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    name = _expected_library(folder, monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _plant(elsewhere, "evil.so")
    os.symlink(elsewhere / "evil.so", folder / name)
    with pytest.warns(UserWarning, match="symbolic link"):
        compiled = codegen.compile(DAG)
    assert compiled([2.0, 5.0]) == VALUE


@pytest.mark.parametrize("make", ["file", "unwritable"])
def test_unusable_cache_falls_back_to_a_temporary_directory(tmp_path, monkeypatch, make):
    folder = tmp_path / "cache"
    if make == "file":
        folder.write_text("not a directory")
    else:
        folder.mkdir(mode=0o500)
    monkeypatch.setenv("HORNERMCTS_CACHE", str(folder))
    if make == "unwritable" and os.access(folder, os.W_OK):  # root writes anywhere: nothing to fall back from
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert codegen.compile(DAG)([2.0, 5.0]) == VALUE
        return
    with pytest.warns(UserWarning, match="is not used"):
        compiled = codegen.compile(DAG)
    assert compiled([2.0, 5.0]) == VALUE and compiled.library.parent != folder


def test_no_cache_compiles_in_a_private_temporary_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("HORNERMCTS_CACHE", str(tmp_path / "unused"))
    compiled = codegen.compile(DAG, cache=False)
    assert compiled([2.0, 5.0]) == VALUE
    assert stat.S_IMODE(compiled.library.parent.stat().st_mode) == 0o700
    assert not (tmp_path / "unused").exists()


def test_truncated_library_is_rebuilt_with_a_warning(tmp_path, monkeypatch):
    """Issue 36, item 8: a cached library cut short ("file too short") is compiled anew, with a warning naming it.

    The library is cut short in a second cache directory: the process has loaded the first one, and the dynamic
    loader would hand that back for the same path without reading the file again.
    """
    dag = horner_dag(as_polynomial(x**3 * y + 7 * x + 2))  # a library no other test loads
    monkeypatch.setenv("HORNERMCTS_CACHE", str(tmp_path / "first"))
    whole = codegen.compile(dag).library
    folder = tmp_path / "second"
    folder.mkdir(mode=0o700)
    cut = folder / whole.name
    cut.write_bytes(whole.read_bytes()[:16])
    cut.chmod(0o600)
    monkeypatch.setenv("HORNERMCTS_CACHE", str(folder))
    with pytest.warns(UserWarning, match=f"cached library {cut} could not be loaded"):
        compiled = codegen.compile(dag)
    assert compiled([2.0, 5.0]) == 2.0**3 * 5.0 + 7 * 2.0 + 2
    assert compiled.library == cut and cut.stat().st_size > 16  # rebuilt in place: the next run loads it
