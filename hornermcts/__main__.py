"""``python -m hornermcts``: the command line (see :mod:`hornermcts.cli`)."""
import sys

from .cli.commands import main

if __name__ == "__main__":
    sys.exit(main())
