"""The cyclic garbage collector paused while millions of acyclic objects are built.

Building a Horner DAG, its delivered copy, or the sparse form of a large
input makes millions of tuples and dict entries and no reference cycles; the
collector's passes over them find nothing to free and cost 15-30% of the
time (a random 100,000-term input: ``optimize --preset fast`` 7.6-8.4 s with
the collector running, 5.6-6.5 s without).  :func:`paused` switches it off
for the duration of a block and back on after it (if it was on); reference
counting still frees everything as usual.

>>> import gc
>>> with paused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["paused"]


@contextmanager
def paused() -> Iterator[None]:
    """Pause the cyclic garbage collector in the block (nested uses are fine)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
