"""Numba's compiles of hornermcts's kernels: done ahead of time where possible, announced where not.

The fast counter's kernels (:mod:`hornermcts.cost.fast_counter`, the inner loop of every
search) take 10-15 s to compile, and the first ``optimize`` after an install
used to wait for them with nothing on screen.  Numba keeps compiled kernels
on disk (``cache=True``: in ``__pycache__`` beside the sources when that folder
is writable, else in the user's cache folder), keyed by the source's content,
the Numba version and the machine's CPU, so that a kernel compiles once per
install and machine.  Hence:

* an install from source (``pip install .``, an sdist) runs :func:`warm` and
  a small pipeline while it builds the wheel (``build_backend.py``), on the
  machine it installs on, and ships the compiled kernels in the wheel; an
  editable install (``pip install -e``) compiles them into the sources'
  ``__pycache__``: the first ``optimize`` loads them (a few tenths of a
  second) instead of compiling them;
* whatever still compiles at run time (a read-only install, another Numba
  version, a rarer argument type such as exponents with
  more than 256 distinct values) is announced: a message on the ``hornermcts``
  logger (INFO) when it starts and ends and, when someone watches (standard
  error is a terminal, or a notebook), a line on standard error (on a
  terminal, blanked when the compile is done), unless a caller shows it its
  own way (:func:`announcing`: the command line's status line).

``python -m hornermcts.cost.kernels`` compiles the fast counter's kernels by
hand, e.g. before timing a first run.  The module sits with the
fast counter, which registers the announcement by importing it; it announces
the domains' kernels too.
"""
from __future__ import annotations

import contextlib
import logging
import sys
import time
from typing import Callable, Iterator

from numba.core import event

__all__ = ["announcing", "warm"]

LOG = logging.getLogger("hornermcts")


def _kernel_name(ev) -> str | None:
    """``module.function`` of a hornermcts kernel being compiled, or None for anyone else's."""
    func = getattr(ev.data.get("dispatcher"), "py_func", None)
    module = getattr(func, "__module__", "") or ""
    return f"{module}.{func.__name__}" if module.split(".")[0] == "hornermcts" else None


def _watched(stream) -> bool:
    """Whether someone reads ``stream`` as it is written: a terminal, or a notebook's output."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) or "ipykernel" in sys.modules


class _Announcer(event.Listener):
    """Announces the outermost compile of a hornermcts kernel (its callees compile inside it)."""

    def __init__(self) -> None:
        self.depth = 0
        self.started = 0.0
        self.show: Callable[[str], None] | None = None  # set by announcing(); None: standard error if watched
        self.shown = ""  # the line written on a terminal, blanked at the end

    def on_start(self, ev) -> None:
        name = _kernel_name(ev)
        if name is None:
            return
        self.depth += 1
        if self.depth > 1:
            return
        self.started = time.perf_counter()
        text = f"compiling {name} (Numba; once per install and machine, then loaded from its cache) ..."
        LOG.info(text)
        if self.show is not None:
            self.show(text)
        elif _watched(sys.stderr):
            terminal = sys.stderr.isatty()
            self.shown = f"hornermcts: {text}" if terminal else ""
            sys.stderr.write(f"\r{self.shown}" if terminal else f"hornermcts: {text}\n")
            sys.stderr.flush()

    def on_end(self, ev) -> None:
        name = _kernel_name(ev)
        if name is None:
            return
        self.depth -= 1
        if self.depth:
            return
        LOG.info("compiled %s in %.1f s", name, time.perf_counter() - self.started)
        if self.shown:
            sys.stderr.write("\r" + " " * len(self.shown) + "\r")
            sys.stderr.flush()
            self.shown = ""


_ANNOUNCER = _Announcer()
event.register("numba:compile", _ANNOUNCER)


@contextlib.contextmanager
def announcing(show: Callable[[str], None]) -> Iterator[None]:
    """Within the block, a compile's announcement goes to ``show(text)`` (still logged) instead of standard error."""
    previous, _ANNOUNCER.show = _ANNOUNCER.show, show
    try:
        yield
    finally:
        _ANNOUNCER.show = previous


def warm() -> None:
    """Compile (or load) the fast counter's kernels for the argument types a search passes, and the error bound's.

    Both folds (dense exponents: levels; sparse: intervals), exponents below 256.
    """
    from ..parse import from_text
    from .fast_counter import FastCounter

    dense = from_text("x^2*y + x*y^2 + 2*x + 3")
    sparse = from_text(" + ".join(f"v{i}^{1 + i % 3}" for i in range(12)) + " + v0*v1 + 1")
    for poly, fold in ((dense, "levels"), (sparse, "intervals")):
        counter = FastCounter(poly, fold=fold)
        counter.count(range(poly.n_vars))
    import numpy as np

    from .running_bound import running_bounds  # the accuracy check's loop, the same argument types

    one = np.zeros(1, np.int64)
    running_bounds(one, np.zeros(1, np.int8), one, one, np.zeros((1, 2), np.int8), np.ones((1, 2)), np.zeros((1, 2)),
                   np.ones((1, 2)), np.zeros((1, 2)), 1, 2.0**-53)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    start = time.perf_counter()
    warm()
    print(f"hornermcts: the fast counter's kernels are ready ({time.perf_counter() - start:.1f} s)")
