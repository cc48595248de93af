"""Progress reporting for long searches: a callback, or a tqdm bar.

The searches accept ``progress=`` as

- ``None`` or ``False``: silent;
- a callable ``progress(iteration, best_reward)``: called at a modest rate
  (the search aims at a few calls per second, never more than once per
  iteration) and once at the end; ``iteration`` counts the iterations done
  so far, over all restarts;
- ``True``: a tqdm bar on stderr;
- ``"auto"`` (the default of the searches): a tqdm bar, but only if stderr is
  a terminal and the search is still running after one second.
"""

from __future__ import annotations

from ..errors import OptionError

import sys
import time
from typing import Any, Callable

__all__ = ["make_progress", "AUTO_DELAY"]

#: Seconds a search must run before ``progress="auto"`` shows a bar.
AUTO_DELAY = 1.0

Callback = Callable[[int, float], None]


class _Bar:
    """A callback that drives a tqdm bar, created on first use (or later)."""

    def __init__(self, total: int | None, delay: float, unit: str = "it", desc: str = "search") -> None:
        self.total = total
        self.delay = delay
        self.unit = unit
        self.desc = desc
        self.start = time.perf_counter()
        self.bar: Any = None

    def __call__(self, iteration: int, best_reward: float) -> None:
        if self.bar is None:
            if time.perf_counter() - self.start < self.delay:
                return
            from tqdm.auto import tqdm

            self.bar = tqdm(total=self.total, unit=self.unit, desc=self.desc, leave=False)
        self.bar.update(iteration - self.bar.n)
        self.bar.set_postfix(best=f"{best_reward:.6g}", refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _no_close() -> None:
    return None


def make_progress(progress: Any, *, total: int | None, unit: str = "it", desc: str = "search",
                  counted: str = "iteration") -> tuple[Callback | None, Callable[[], None]]:
    """Resolve ``progress=`` into ``(callback or None, close)``.

    Parameters
    ----------
    progress : None, bool, "auto" or callable
        See the module docstring.
    total : int or None
        Iterations expected over the whole search (``None`` if only a time
        limit is set), the length of a bar.
    unit, desc : str
        The bar's unit and label.
    counted : str
        What the callback's first argument counts, for the error message.

    Examples
    --------
    >>> make_progress(None, total=10)[0] is None
    True
    >>> calls = []
    >>> callback, close = make_progress(lambda i, r: calls.append((i, r)), total=10)
    >>> callback(3, 0.5); close(); calls
    [(3, 0.5)]
    >>> make_progress("sometimes", total=10)
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: progress must be None, a bool, 'auto' or a callable ..., got 'sometimes'
    """
    if progress is None or progress is False:
        return None, _no_close
    if progress is True:
        bar = _Bar(total, 0.0, unit, desc)
        return bar, bar.close
    if isinstance(progress, str) and progress == "auto":
        isatty = getattr(sys.stderr, "isatty", None)
        if isatty is None or not isatty():
            return None, _no_close
        bar = _Bar(total, AUTO_DELAY, unit, desc)
        return bar, bar.close
    if callable(progress):
        return progress, _no_close
    raise OptionError(
        "progress must be None, a bool, 'auto' or a callable "
        f"progress({counted}, best_reward), got {progress!r}"
    )
