"""``python -m hornermcts.cli``: the command line, as ``python -m hornermcts``."""
import sys

from .commands import main

if __name__ == "__main__":
    sys.exit(main())
