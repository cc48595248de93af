"""The ``hornermcts`` command line: the subcommands and ``main`` (:mod:`.commands`), the ``optimize``
subcommand (:mod:`.optimize`) and the status line on a terminal (:mod:`.status_line`)."""
from .commands import SUBCOMMANDS, build_parser, main

__all__ = ["main", "build_parser", "SUBCOMMANDS"]
