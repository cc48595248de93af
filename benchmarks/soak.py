"""The soak (issue 14 point 8): random inputs through every preset and every emitter, each checked exact.

One command::

    python benchmarks/soak.py [--count 10000] [--seed 0] [--iterations 20] [--out benchmarks/results/soak.txt]

Input ``seed + k`` for ``k < count`` (``tests/helpers/soak.py``: 1-5
variables, integer, rational, 24-digit and float coefficients, opaque pieces,
zeros, constants, up to three outputs) is optimized with every preset
(``fast``, ``greedy``, ``mcts``, ``anneal``, ``default``; the searches at
``--iterations``); each result is checked: equal to the input at a random
rational point, the operations of its Python and C code (read from the
text by ``tests/helpers/emitted_ops.py``) equal to ``result.after``, the
Python and NumPy functions' values, the compiled C (100 results per
library); and ``hornermcts.cse`` / ``hornermcts.horner`` of each input.
It prints the inputs, cases (input x preset), checks, failures (each with
the seed and preset that reproduce it) and the wall time, and writes them
to ``--out``.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers.soak import PRESETS, check_case, check_compiled, check_dropins  # noqa: E402

CHUNK = 20  # inputs per compiled library (x 5 presets)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "soak.txt"))
    args = parser.parse_args(argv)
    start = time.perf_counter()
    checks = cases = 0
    failures: list[str] = []
    for first in range(args.seed, args.seed + args.count, CHUNK):
        compiled = []
        for seed in range(first, min(first + CHUNK, args.seed + args.count)):
            for preset in PRESETS:
                n, failed, case = check_case(seed, preset, iterations=args.iterations)
                checks, cases = checks + n, cases + 1
                failures += failed
                compiled.append((f"seed={seed} preset={preset}", case))
            n, failed = check_dropins(seed)
            checks += n
            failures += failed
        n, failed = check_compiled(compiled)
        checks += n
        failures += failed
        done = min(first + CHUNK, args.seed + args.count) - args.seed
        if done % 500 == 0:
            print(f"{done} inputs, {cases} cases, {checks} checks, {len(failures)} failures, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
    seconds = time.perf_counter() - start
    lines = [f"# soak: inputs {args.seed}..{args.seed + args.count - 1} (tests/helpers/soak.py), presets "
             f"{', '.join(PRESETS)} at {args.iterations} iterations",
             f"inputs {args.count}", f"cases (input x preset) {cases}", f"checks {checks}",
             f"failures {len(failures)}", f"wall seconds {seconds:.0f}"] + failures
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
