"""The survey's scoring, verdicts, truth file and HTML page, on synthetic screens (no machine)."""
from __future__ import annotations

import json

import pytest

from pcemu.survey.html_report import clean, page
from pcemu.survey.score import (TruthError, load_truth, score, share, tally, tally_line,
                                verdict_for, words)


def screen(*rows: str) -> list[str]:
    return [r.ljust(80) for r in rows] + [" " * 80] * (25 - len(rows))


def test_words_leave_out_numbers_and_single_characters():
    assert words(["Version 2.01  A:\\>  12:34:56  (C) 1987 MENU1 x_y"]) == \
        {"Version": 1, "MENU1": 1}


def test_share_counts_repeated_words_and_their_case():
    truth = screen("Press any key", "Press any key")
    assert share(truth, screen("Press any key")) == 0.5
    assert share(truth, screen("PRESS ANY KEY", "PRESS ANY KEY")) == 0.0
    assert share(truth, screen("A:\\>GAME", "Press any key", "Press any key", "more")) == 1.0


def test_blank_truth_matches_only_a_blank_screen():
    assert share(screen(), screen()) == 1.0
    assert share(screen(), screen("Hello there")) == 0.0


@pytest.mark.parametrize("value, verdict", [(1.0, "match"), (0.9, "match"), (0.89, "partial"),
                                            (0.5, "partial"), (0.49, "differs"), (None, "differs")])
def test_verdict_thresholds(value, verdict):
    assert verdict_for(value) == verdict


def test_the_best_of_pcemus_screens_counts_against_dosboxs_last():
    record = {"screens": [{"t": 10, "lines": screen("Loading")},
                          {"t": 20, "lines": screen("Main menu", "Quit")}]}
    truth = [{"t": 10, "kind": "text", "lines": screen("Title")},
             {"t": 20, "kind": "text", "lines": screen("Main menu", "Quit", "Help")}]
    result = score(record, truth)
    assert result["best_t"] == 20 and result["share"] == 0.75 and result["verdict"] == "partial"
    assert score(record, [{"t": 20, "kind": "graphics", "lines": screen()}])["verdict"] == "graphics"
    assert score({"screens": []}, truth)["verdict"] == "differs"


def test_a_bad_truth_line_is_one_clear_error(tmp_path):
    path = tmp_path / "truth.jsonl"
    path.write_text(json.dumps({"disk": "D", "prog": "P.EXE", "t": 20, "lines": ["x"]})
                    + "\n{not json\n")
    with pytest.raises(TruthError, match="line 2"):
        load_truth(path)
    with pytest.raises(TruthError, match="does not exist"):
        load_truth(tmp_path / "none.jsonl")


HOSTILE = "<script>alert('x')</script> & \"q\" \x1b[31m \u202etxt.exe \ud800 \x85"


def test_html_escapes_every_character_from_a_disk():
    cleaned = clean(HOSTILE)
    for raw in ("<", ">", "'", '"', "\x1b", "\u202e", "\ud800", "\x85"):
        assert raw not in cleaned
    assert "&lt;script&gt;" in cleaned and "&amp;" in cleaned and "←" in cleaned
    record = {"disk": HOSTILE, "program": HOSTILE, "outcome": "machine error", "reason": HOSTILE,
              "unimplemented": [HOSTILE], "verdict": "differs", "share": 0.1, "best_t": 10,
              "screens": [{"t": 10, "mode": 3, "kind": "text", "lines": [HOSTILE] * 25}],
              "truth_t": 20, "truth_kind": "text", "truth_lines": [HOSTILE] * 25}
    text = page([record], title="survey", command=HOSTILE)
    assert "<script>" not in text and "\u202e" not in text and "\x1b" not in text
    text.encode("utf-8")                            # no lone surrogate is left to fail on
    assert text.count("<pre class='screen'>") == 2  # both screens side by side
    assert "<td>0 of 1 text screens match (0.0%)</td>" in text


def test_the_tally_counts_only_dosbox_text_screens_as_text():
    # The survey's measure is the programs DOSBox showed text for: a program whose DOSBox
    # screen stayed blank, or was graphics, is counted apart, whatever its verdict.
    def record(kind, verdict):
        return {"truth_kind": kind, "verdict": verdict}
    records = ([record("text", "match")] * 3 + [record("text", "partial"), record("text", "differs")]
               + [record("blank", "match"), record("blank", "differs"), record("graphics", "graphics")]
               + [{"outcome": "exited"}])         # no truth for it: not counted
    assert tally(records) == {"text": (3, 5), "blank": (1, 2), "graphics": (0, 1)}
    assert tally_line(records) == ("3 of 5 text screens match (60.0%); blank in DOSBox: "
                                   "1 of 2 blank in pcemu too; graphics in DOSBox: 1, not compared")
    assert "graphics" not in tally_line(records[:5]) and "(" in tally_line(records[:5])
