"""The soak's small sample (issue 14 point 8; ``benchmarks/soak.py`` runs 10^4 inputs).

Random inputs (opaque pieces, rationals, floats, several outputs, zeros)
through every preset and every emitter: exact, counted as reported, values
within the accuracy bound, also compiled and through ``hornermcts.cse`` and
``hornermcts.horner``.
"""
from __future__ import annotations

import shutil

import pytest
from helpers.soak import PRESETS, check_case, check_compiled, check_dropins

SEEDS = range(60)


@pytest.mark.parametrize("preset", PRESETS)
def test_soak_sample(preset):
    checks, failures, compiled = 0, [], []
    for seed in SEEDS:
        n, failed, case = check_case(seed, preset)
        checks += n
        failures += failed
        compiled.append((f"seed={seed} preset={preset}", case))
    if shutil.which("cc"):
        n, failed = check_compiled(compiled)
        checks += n
        failures += failed
    assert not failures, "\n".join(failures)
    assert checks >= 6 * len(SEEDS)


def test_soak_sample_dropins():
    failures = []
    for seed in SEEDS:
        failures += check_dropins(seed)[1]
    assert not failures, "\n".join(failures)
