"""Inverse RNA folding (Cazenave 2024, sec. 4.3): structures, Eterna100, moves, score, cache, codes, searches, CLI."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from hornermcts.cli import main
from hornermcts.domains.rna_design import (
    MOVES,
    PRIOR_CODE_COUNT,
    FoldCache,
    RNADesign,
    Score,
    StructureError,
    base_pair_distance,
    design,
    eterna_puzzle,
    folding,
    learn_ngram_prior,
    nemo_like_prior,
    ngram_counts,
    pair_table,
    read_eterna100,
    search,
    substitute_prior,
    unpack_prior_code,
)
from hornermcts.domains.rna_design.eterna import DATA_VARIABLE, data_folder
from hornermcts.errors import OptionError
from hornermcts.parse import ParseError
from hornermcts.search import Prior, check_problem, nrpa
from hornermcts.search.policy import softmax_playout
from helpers.benchmarks import load_benchmark

HEADER = "id\tname\tlength\tstructure\n"


def eterna_available() -> bool:
    try:
        data_folder()
    except OptionError:
        return False
    return True


needs_eterna = pytest.mark.skipif(not eterna_available(), reason=f"no Eterna100 files (set {DATA_VARIABLE})")


# -- structures ---------------------------------------------------------------------------------------------

def test_pair_table_matches_brackets():
    assert pair_table("((..)).()") == (5, 4, -1, -1, 1, 0, -1, 8, 7)
    assert pair_table("....") == (-1, -1, -1, -1)
    assert base_pair_distance("((..))", "(....)") == 1


@pytest.mark.parametrize("text, position, reason", [
    ("(()", 0, "unclosed '('"),
    ("())", 2, "unmatched ')'"),
    ("((x))", 2, "unexpected character 'x'"),
    ("((..[[..))..]]", 4, "pseudoknots are not supported"),
    ("", -1, "empty structure"),
])
def test_structure_errors_name_the_position(text, position, reason):
    with pytest.raises(StructureError, match=re.escape(reason)) as caught:
        pair_table(text)
    assert caught.value.position == position and isinstance(caught.value, OptionError)
    if position >= 0:
        assert f"position {position + 1} of {len(text)}" in str(caught.value)
    assert "\n" not in str(caught.value)


# -- Eterna100 ----------------------------------------------------------------------------------------------

def write_tsv(folder: Path, body: str, version: int = 2) -> None:
    (folder / f"eterna100_v{version}.tsv").write_text(body)


@pytest.mark.parametrize("body, line, column, reason", [
    ("id\tname\n", 1, 1, "expected the header"),
    (HEADER + "1\tx\t4\t(..)\n2\ty\t3\n", 3, 1, "expected 4 tab-separated fields"),
    (HEADER + "one\tx\t4\t(..)\n", 2, 1, "id and length must be integers"),
    (HEADER + "1\tx\t5\t(..)\n", 2, 7, "length 5 but the structure has 4"),
    (HEADER + "1\tx\t4\t(.))\n", 2, 10, "unmatched ')'"),
    (HEADER + "1\tx\t4\t(..)\n1\ty\t2\t..\n", 3, 1, "puzzle 1 appears twice"),
])
def test_reader_names_file_line_and_column(tmp_path, body, line, column, reason):
    write_tsv(tmp_path, body)
    with pytest.raises(ParseError, match=re.escape(reason)) as caught:
        read_eterna100(folder=tmp_path)
    assert (caught.value.lineno, caught.value.col) == (line, column)
    assert caught.value.filename.endswith("eterna100_v2.tsv")


def test_reader_folders_versions_and_ids(tmp_path, monkeypatch):
    write_tsv(tmp_path, HEADER + "1\tHairpin\t8\t((....))\n", version=1)
    assert read_eterna100(1, folder=tmp_path)[0].structure == "((....))"
    with pytest.raises(OptionError, match="version must be 1 or 2"):
        read_eterna100(3, folder=tmp_path)
    with pytest.raises(OptionError, match="no file"):
        read_eterna100(2, folder=tmp_path)
    with pytest.raises(OptionError, match=DATA_VARIABLE):
        read_eterna100(folder=tmp_path / "nowhere")
    monkeypatch.setenv(DATA_VARIABLE, str(tmp_path))
    assert eterna_puzzle(1, 1).name == "Hairpin"
    with pytest.raises(OptionError, match="no Eterna100 puzzle 7"):
        eterna_puzzle(7, 1)


@needs_eterna
def test_the_shipped_eterna100_files():
    v1, v2 = read_eterna100(1), read_eterna100(2)
    assert [p.id for p in v2] == list(range(1, 101)) and [p.id for p in v1] == list(range(1, 101))
    changed = [a.id for a, b in zip(v1, v2) if a.structure != b.structure]
    assert changed == [50, 52, 57, 60, 61, 67, 78, 80, 81, 86, 87, 88, 90, 91, 92, 96, 97, 99, 100]
    assert min(p.length for p in v2) == 12 and max(p.length for p in v2) == 400
    assert v2[0].sample == "CAGGGGAAAAACUCUG"


# -- moves and states ---------------------------------------------------------------------------------------

def test_moves_fill_dots_and_pairs_left_to_right():
    problem = RNADesign(".(.).")
    assert problem.steps == 4 and problem.positions.tolist() == [0, 1, 2, 4]
    state = problem.root()
    kinds = []
    while problem.moves(state):
        legal = problem.moves(state)
        kinds.append(len(legal))
        state = problem.apply(state, legal[-1])
    assert kinds == [4, 6, 4, 4] and problem.moves(state) == ()
    assert problem.sequence(state) == "UUUAU"   # U, then UA at positions 2 and 4, U, U
    with pytest.raises(OptionError, match="not legal"):
        problem.apply(problem.root(), 4)        # a pair at a '.'
    with pytest.raises(OptionError, match="not legal"):
        problem.apply(problem.apply(problem.root(), 0), 0)   # a base at a '('


def test_a_pair_move_fixes_both_ends_with_a_canonical_pair():
    target = "((.((...)).))"
    problem = RNADesign(target)
    rng = np.random.default_rng(5)
    for _ in range(50):
        final, _ = problem.playout(problem.root(), rng)
        sequence = problem.sequence(final)
        for i, j in enumerate(pair_table(target)):
            if i < j:
                assert sequence[i] + sequence[j] in MOVES[4:]
        assert problem.design_state(sequence) == final
    with pytest.raises(OptionError, match="not a pair"):
        problem.design_state("AAAAAAAAAAAAA")


def test_check_problem():
    pytest.importorskip("RNA")   # the reward of a terminal state folds
    check_problem(RNADesign("((.((...))..))"), simulations=30, seed=0)
    check_problem(RNADesign("....."), simulations=5, seed=1)


def test_the_problem_refuses_bad_targets_and_options():
    with pytest.raises(StructureError):
        RNADesign("(((")
    with pytest.raises(OptionError, match="tie_break"):
        RNADesign("(...)", tie_break="energy")
    with pytest.raises(OptionError, match="not complete"):
        RNADesign("(...)").reward(b"")


# -- codes --------------------------------------------------------------------------------------------------

def test_ngram_codes_by_hand():
    """Target "((.)).": steps at 0 '(', 1 '(', 2 '.', 5 '.'; design GC, CG, A, U (sequence GCAGCU)."""
    problem = RNADesign("((.)).")
    state = problem.design_state("GCAGCU")
    assert list(state) == [5, 4, 0, 3]
    codes = [problem.prior_code(state[:k], state[k]) for k in range(4)]
    assert codes == [10 * 10 + 5, 5 * 10 + 4, 4 * 10 + 0, 0 * 10 + 3]
    assert [unpack_prior_code(c) for c in codes] == [("^", "^", "(", "GC"), ("(", "GC", "(", "CG"),
                                                      ("(", "CG", ".", "A"), (".", "A", ".", "U")]
    # the policy code is (position, choice): the '.' at position 5 is step 3
    assert problem.move_code(state[:3], 3) == 5 * 10 + 3 and problem.code_count == 60
    assert PRIOR_CODE_COUNT == problem.prior_code_count == 110
    with pytest.raises(OptionError):
        unpack_prior_code(110)


def test_ngram_counts_equal_the_generic_replay():
    pairs = [("((.)).", "GCAGCU"), ("(((...)))..", "GGGAAACUCAA"), (".....", "ACGUA"), ("(.)(.)", "GAUAAU")]
    fast = learn_ngram_prior(pairs)
    generic = Prior.learn((RNADesign(s), RNADesign(s).design_state(q)) for s, q in pairs)
    assert fast == generic
    count, nb = ngram_counts("((.)).", "GCAGCU")
    assert count.sum() == 4 and nb.sum() == 6 + 6 + 4 + 4


def test_coded_playout_draws_exactly_as_the_generic_playout():
    problem = RNADesign("((.((...)).))..")
    prior = nemo_like_prior()
    rng = np.random.default_rng(0)
    weights = rng.normal(size=problem.code_count)
    table = prior.table(problem.prior_code_count, 6.0)
    bias = prior.bias(problem, 6.0)
    for seed in range(20):
        final, moves, trace = problem.coded_playout(b"", weights, table, np.random.default_rng(seed))
        generic = softmax_playout(problem, dict(enumerate(weights)), np.random.default_rng(seed), bias=bias)
        assert final == generic[0] and moves == list(generic[1])
        assert trace.codes.tolist() == list(generic[2].codes) and trace.chosen.tolist() == list(generic[2].chosen)
        assert np.allclose(trace.bias, generic[2].bias)


def test_the_nemo_like_prior_draws_its_stated_probabilities():
    problem = RNADesign("(.)")
    for temperature in (1.0, 6.0):
        bias = nemo_like_prior(temperature).bias(problem, temperature)
        for state, expected in ((b"", [0.3, 0.3, 0.05, 0.05, 0.15, 0.15]), (b"\x05", [0.7, 0.1, 0.1, 0.1])):
            odds = [math.exp(b) for b in bias(state, problem.moves(state))]
            assert [round(o / sum(odds), 3) for o in odds] == expected


def test_the_shipped_substitute_prior():
    prior = substitute_prior()
    assert len(prior) == 110 and sum(prior.count.values()) > 100_000
    ratios = [prior.ratio(c) for c in range(110)]
    assert 0 < min(ratios) and max(ratios) < 1
    note = json.loads((Path(folding.__file__).parents[2] / "data" / "rna" / "ngram_substitute.json").read_text())
    assert "NGRAM (substitute training set)" in note["note"] and "--learn-prior" in note["note"]


# -- the fold cache -----------------------------------------------------------------------------------------

def test_fold_cache_is_bounded_and_counts():
    cache = FoldCache(limit=10)
    calls = []

    def compute(key):
        calls.append(key)
        return float(len(calls))

    for k in range(100):
        cache.get(bytes([k % 5]), compute)   # 5 keys fit in a generation: each computed once
    assert cache.folds == 5 and cache.hits == 95 and len(calls) == 5
    for k in range(100):
        cache.get(bytes([k]), compute)
    assert len(cache) <= 10 and cache.folds == 100 and cache.hits == 100   # keys 0..4 were kept
    assert FoldCache(key_bytes=100, megabytes=1).limit == 2 ** 20 // 212
    with pytest.raises(OptionError):
        FoldCache(limit=1)


def test_score_combines_distance_then_defect():
    assert Score(0, 0.4).reward() == 0.0
    assert Score(1, 0.99).reward() > Score(2, 0.0).reward() > Score(2, 0.5).reward()
    assert Score(2, 0.5).reward() == -2.25 and Score(2, 0.5).reward(None) == -2.0


# -- with ViennaRNA ---------------------------------------------------------------------------------------

def test_a_designed_hairpin_folds_to_its_target_and_scores_zero():
    pytest.importorskip("RNA")
    problem = RNADesign("((((....))))")
    state = problem.design_state("GGGGAAAACCCC")
    assert problem.reward(state) == 0.0 and problem.is_solved(state)
    evaluation = problem.evaluate(state)
    assert evaluation.structure == "((((....))))" and evaluation.distance == 0 and evaluation.energy < 0
    # an all-A/U design stays unfolded: distance 4, ensemble defect as the tie-break
    weak = problem.design_state("AUAUAAAAAUAU")
    unfolded = problem.evaluate(weak)
    assert unfolded.structure == "." * 12 and unfolded.distance == 4
    assert problem.reward(weak) == pytest.approx(-(4 + unfolded.defect / 2))
    assert RNADesign("((((....))))", tie_break=None).reward(weak) == -4.0
    assert folding.fold("GGGGAAAACCCC")[0] == folding.vienna().fold("GGGGAAAACCCC")[0]


def test_a_search_never_folds_a_sequence_twice(monkeypatch):
    pytest.importorskip("RNA")
    folded = []
    original = folding.score

    def counting(sequence, target, tie_break="defect"):
        folded.append(sequence)
        return original(sequence, target, tie_break)

    monkeypatch.setattr(folding, "score", counting)
    problem = RNADesign("((((....))))..")
    result = nrpa(problem, level=2, per_level=20, playouts=400, coded=True, seed=3, progress=None)
    assert result.iterations == 400
    assert len(folded) == len(set(folded)) == problem.folds
    assert problem.folds + problem.cache.hits == 400 and problem.cache.hits > 0


@needs_eterna
def test_sample_solutions_of_short_eterna_targets_score_zero():
    pytest.importorskip("RNA")
    for puzzle in sorted(read_eterna100(2), key=lambda p: p.length)[:5]:
        problem = RNADesign(puzzle.structure)
        assert problem.reward(problem.design_state(puzzle.sample)) == 0.0, puzzle


def test_nrpa_solves_a_tiny_puzzle_within_a_small_budget():
    pytest.importorskip("RNA")
    problem = RNADesign("(((((......)))))..((((....))))")
    found = design(problem, "nrpa", playouts=3000, time_limit=30.0, seed=0)
    assert found.solved and found.result.reached <= 3000
    assert found.evaluation.structure == problem.target and found.folds <= found.result.iterations
    assert folding.fold(found.sequence)[0] == problem.target


def test_sampling_with_a_prior_and_gnrpa():
    pytest.importorskip("RNA")
    problem = RNADesign("((((((....))))))")
    assert design(problem, "sampling", prior=substitute_prior(), playouts=2000, seed=1).solved
    assert design(problem, "gnrpa", prior=nemo_like_prior(), playouts=2000, seed=1).solved
    with pytest.raises(OptionError, match="needs a prior"):
        search(problem, "gnrpa", playouts=10)
    with pytest.raises(OptionError, match="without a prior"):
        search(problem, "nrpa", prior=nemo_like_prior(), playouts=10)
    with pytest.raises(OptionError, match="budget"):
        search(problem, "nrpa")
    with pytest.raises(OptionError, match="not NGRAM codes"):
        search(problem, "sampling", prior=Prior({200: 1}, {200: 2}), playouts=10)


# -- the command --------------------------------------------------------------------------------------------

def test_cli_solves_a_target_and_prints_the_report(capsys, tmp_path):
    pytest.importorskip("RNA")
    assert main(["rna", "((((....))))", "--method", "nrpa", "--time", "10", "--show", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "solved after" in out and "structure: ((((....))))" in out and "target:    ((((....))))" in out
    assert "folds" in out and "CPU s" in out and "sequence:" in out
    path = tmp_path / "t.txt"
    path.write_text("> a hairpin\n((((....))))\n")
    assert main(["rna", str(path), "--method", "sampling", "--prior", "nemo-like", "--time", "5",
                 "--no-progress"]) == 0
    assert "NEMO-like" in capsys.readouterr().out


def test_cli_budget_status_learning_and_errors(capsys, tmp_path, monkeypatch):
    pytest.importorskip("RNA")
    assert main(["rna", ".((((....))))..((((....)))).", "--method", "sampling", "--time", "5", "--playouts", "3",
                 "--tie-break", "none", "--seed", "2", "--no-progress"]) == 1   # 3 uniform playouts: unsolved
    assert "not solved within 3 playouts" in capsys.readouterr().out
    out = tmp_path / "prior.json"
    assert main(["rna", "--learn-prior", str(out), "--training", "5"]) == 0
    assert Prior.load(out).nb and "NGRAM (substitute training set)" in capsys.readouterr().out
    assert main(["rna", "((((....))))", "--prior", str(out), "--time", "5", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["rna", "((((...)", "--no-progress"]) == 2
    assert "unclosed '('" in capsys.readouterr().err
    assert main(["rna", "--no-progress"]) == 2
    assert "exactly one target" in capsys.readouterr().err
    assert main(["rna", "(...)", "--method", "nrpa", "--prior", "ngram"]) == 2
    assert "without a prior" in capsys.readouterr().err
    write_tsv(tmp_path, HEADER + "1\tHairpin\t12\t((((....))))\n")
    monkeypatch.setenv(DATA_VARIABLE, str(tmp_path))
    assert main(["rna", "--eterna", "1", "--time", "5", "--no-progress"]) == 0
    assert "Eterna100 V2 #1 'Hairpin'" in capsys.readouterr().out
    assert main(["rna", "--eterna", "2", "--no-progress"]) == 2


def test_table3_script_keeps_each_level_apart(tmp_path, monkeypatch, capsys):
    """benchmarks/gnrpa_eterna.py --level: the level is in each row, and a run at another level is not reused."""
    pytest.importorskip("RNA")
    bench = load_benchmark("gnrpa_eterna")
    write_tsv(tmp_path, HEADER + "1\tHairpin\t12\t((((....))))\n2\tTwo\t16\t((((....))))....\n")
    monkeypatch.setenv(DATA_VARIABLE, str(tmp_path))
    out = str(tmp_path / "table3")
    args = ["--methods", "nrpa", "--budget", "2", "--out", out]
    bench.main(args + ["--level", "1"])
    rows = [json.loads(line) for line in open(out + ".jsonl")]
    assert [(r["puzzle"], r["level"]) for r in rows] == [(1, 1), (2, 1)]
    assert "NRPA/GNRPA level 1," in open(out + ".txt").read()
    bench.main(args + ["--level", "1"])  # the same runs: nothing new
    assert len(open(out + ".jsonl").read().splitlines()) == 2
    bench.main(args)  # level 2, the default: run anew
    rows = [json.loads(line) for line in open(out + ".jsonl")]
    assert [(r["puzzle"], r["level"]) for r in rows[2:]] == [(1, 2), (2, 2)]
    with pytest.raises(SystemExit):
        bench.main(args + ["--level", "0"])
    assert "--level must be >= 1" in capsys.readouterr().err
