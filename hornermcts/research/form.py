"""FORM's code optimizer as a reference: counts and times, for tests and benchmarks.

Runs the project's oracle script ``form_ops.py`` (from ``shared/tools`` beside
the repository, or the path in ``$HORNERMCTS_FORM_OPS``) on a polynomial.  It
needs FORM itself (Debian package ``form``: ``apt-get install -y form``).
:func:`available` says whether both are there; tests that use FORM skip
cleanly when it is not.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["available", "form_ops_path", "run_form"]


def form_ops_path() -> Path | None:
    """Where ``form_ops.py`` is, or None."""
    env = os.environ.get("HORNERMCTS_FORM_OPS")
    candidates = [Path(env)] if env else []
    repo = Path(__file__).resolve().parents[2]  # hornermcts/research/form.py -> the repository
    candidates.append(repo.parent / "shared" / "tools" / "form_ops.py")
    for path in candidates:
        if path.is_file():
            return path
    return None


def available() -> bool:
    """True when FORM and ``form_ops.py`` can be run."""
    return shutil.which("form") is not None and form_ops_path() is not None


def run_form(poly, *, level: int = 3, method: str | None = None, order=None,
             direction: str | None = None, options=(), code: str | os.PathLike | None = None,
             timeout: float | None = None) -> dict:
    """Run FORM's ``#optimize`` on ``poly`` and return its figures.

    Parameters
    ----------
    poly : Polynomial
    level : 1..4
        FORM's ``O1`` .. ``O4``.
    method : {"none", "cse", "greedy", "csegreedy"}, optional
    order : sequence, optional
        A fixed Horner scheme (symbols, names or column indices; outermost
        first); variables that do not occur in ``poly`` are left out, as FORM
        requires.
    direction : {"forward", "backward", "forwardorbackward"}, optional
    options : sequence of str
        Extra ``Format`` options such as ``"mctsnumexpand=300"``.
    code : path, optional
        Also write FORM's optimized code there.

    Returns
    -------
    dict
        ``original`` and ``optimized`` totals, ``*_detail`` (FORM's
        ``nP nM nA``), ``scheme`` (in our symbol names) and ``seconds``.
    """
    from ..polynomial.sparse import normalize_order
    from ..polynomial.text import write_text

    tool = form_ops_path()
    if tool is None or shutil.which("form") is None:
        raise RuntimeError("FORM comparison needs FORM (apt-get install -y form) and shared/tools/form_ops.py")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "poly.txt"
        renamed = write_text(poly, path, syntax="form")
        name_of = {s: renamed.get(s, str(s)) for s in poly.symbols}
        args = [sys.executable, str(tool), str(path), "--level", str(level)]
        if method:
            args += ["--method", method]
        if direction:
            args += ["--direction", direction]
        if order is not None:
            present = set((poly.exponents > 0).any(axis=0).nonzero()[0].tolist())
            perm = [j for j in normalize_order(poly, order) if j in present]
            args += ["--scheme", ",".join(name_of[poly.symbols[j]] for j in perm)]
        for opt in options:
            args += ["--option", opt]
        if code is not None:
            args += ["--code", str(code)]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"FORM failed: {(proc.stdout + proc.stderr)[-2000:]}")
    result = json.loads(proc.stdout)
    back = {v: str(k) for k, v in name_of.items()}
    if result.get("scheme"):
        result["scheme"] = [back.get(n, n) for n in result["scheme"]]
    return result
