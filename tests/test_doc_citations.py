"""The tests of the games built from documents name the document line each rule
comes from, as "[<seed file> line N]" or "lines N-M, K" in their docstrings.
These checks keep those names honest: the seed file exists, the lines are inside
it and are not blank, and every test of a rule module cites something.

The seeds live in ../shared/seeds (never committed), so this is skipped without them.
"""
from __future__ import annotations

import ast
from pathlib import Path
import re

import pytest

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"
GAME_TESTS = sorted(p for game in ("tonk", "teach_gin", "cribbage", "rummi")
                    for p in (REPO / "tests").glob(f"test_{game}_*.py"))
CITATION = re.compile(r"\[(\d{3}_[0-9a-f]{16}\.txt) lines? ([\d ,-]+)\]")
# Teach's GinRummy tests say "Line 164:" (docs/games/teach_gin.md: lines of seed 001).
TEACH_LINE = re.compile(r"\b[Ll]ines? (\d+)")
TEACH_SEED = "001_669d1958badefd0b.txt"

pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"no seed documents at {SEEDS}")


def game_test_functions():
    for path in GAME_TESTS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                yield path, node.name, ast.get_docstring(node) or ""


def line_numbers(spec: str) -> list[int]:
    out = []
    for part in spec.split(","):
        lo, _, hi = part.strip().partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def test_every_citation_names_real_non_blank_lines_of_a_seed():
    cited = 0
    for path, name, doc in game_test_functions():
        for seed, spec in CITATION.findall(doc):
            lines = (SEEDS / seed).read_text(encoding="utf-8", errors="replace").split("\n")
            numbers = line_numbers(spec)
            assert all(1 <= n <= len(lines) for n in numbers), f"{path.name}::{name}: {spec}"
            # the first line named is where the rule is: it must hold text
            assert lines[numbers[0] - 1].strip(), f"{path.name}::{name}: line {numbers[0]} is blank"
            cited += 1
        if path.name.startswith("test_teach_gin_"):
            lines = (SEEDS / TEACH_SEED).read_text(encoding="utf-8").split("\n")
            for number in map(int, TEACH_LINE.findall(doc)):
                assert 1 <= number <= len(lines) and lines[number - 1].strip(), \
                    f"{path.name}::{name}: line {number}"
                cited += 1
    assert cited > 300


def test_every_rule_test_cites_its_document():
    """The rule modules' tests (not the command-line, determinism or helper tests) all
    name a line."""
    rule_files = {"test_tonk_rules.py", "test_cribbage_scoring.py", "test_cribbage_pegging.py",
                  "test_rummi_rules.py", "test_teach_gin_rules.py"}
    helpers = {"test_deal_rejects_a_deck_that_is_not_52_distinct_cards",
               "test_shuffle_and_cut_is_a_seeded_permutation", "test_stacked_deal_plays_out_as_scripted",
               "test_no_moves_after_the_game_ends", "test_scripted_player_runs_out_loudly"}
    missing = [f"{path.name}::{name}" for path, name, doc in game_test_functions()
               if path.name in rule_files and name not in helpers
               and not (CITATION.search(doc) or TEACH_LINE.search(doc))]
    assert missing == []
