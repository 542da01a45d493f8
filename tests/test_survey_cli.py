"""``pcemu survey`` from the command line: two corpus programs against DOSBox's screens
(JSON Lines and HTML with their fields), and the command line's own errors."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pcemu.cli import main
from tests.machine_helpers import SHARED

CORPUS = SHARED / "corpus"
needs_corpus = pytest.mark.skipif(not (CORPUS / "corpus.tsv").exists(),
                                  reason=f"the training corpus is not at {CORPUS}")
QUICK = ("DISK1557\tBRUN20.EXE", "DISK1892\tEGARACE.EXE")   # each about a second


def corpus_of(tmp_path, *lines: str):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "images").symlink_to(CORPUS / "images")
    path = folder / "corpus.tsv"
    path.write_text("\n".join(lines) + "\n")
    return path


def survey(*args: str):
    return CliRunner().invoke(main, ["survey", "--workers", "1", "-q", *args])


@needs_corpus
def test_a_survey_of_corpus_programs_writes_scored_records_and_a_page(tmp_path):
    corpus = corpus_of(tmp_path, *QUICK, "DISK9999\tNONE.EXE", "just one field")
    out = tmp_path / "out.jsonl"
    result = survey("--corpus", str(corpus), "--truth", str(CORPUS / "dosbox.jsonl"),
                    "-o", str(out), "--date", "2026-11-25")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["disk"] for r in records] == ["DISK1557", "DISK1892", "DISK9999", "line 4"]
    brun, egarace, missing, bad = records
    assert brun["outcome"] == "exited" and brun["exit_code"] == 153
    assert brun["verdict"] == "match" and brun["share"] == 1.0 and brun["best_t"] == 10
    assert [s["t"] for s in brun["screens"]] == [10.0, 20.0]
    assert brun["screens"][0]["lines"][0].startswith("Microsoft QuickBASIC Compiler")
    for field in ("wall_seconds", "peak_rss_mb", "unimplemented", "truth_lines"):
        assert field in brun
    assert egarace["outcome"] == "waits for input"
    assert missing["outcome"] == "bad input" and "does not exist" in missing["reason"]
    assert bad["outcome"] == "bad input" and "bad corpus line 4" in bad["reason"]
    page = (tmp_path / "out.html").read_text()
    assert ("<td>1 of 1 text screens match (100.0%); blank in DOSBox: 1 of 1 blank in pcemu "
            "too</td>") in page and "BRUN20.EXE" in page
    assert "2 match" in result.output
    again = survey("--corpus", str(corpus), "-o", str(out))
    assert again.exit_code == 2 and "already exists (use --force" in again.output


@pytest.mark.parametrize("args, message", [
    ((), "name disk images"),
    (("x.img", "--at", "ten"), "--at wants seconds"),
    (("x.img", "--at", "0"), "above 0"),
    (("x.img", "--date", "1970-01-01"), "bad date"),
    (("--corpus", "/nonexistent/corpus.tsv"), "does not exist"),
    (("x.img", "--truth", "/nonexistent/truth.jsonl"), "does not exist"),
])
def test_a_bad_command_line_is_one_line_and_status_2(tmp_path, args, message):
    result = survey(*args, "-o", str(tmp_path / "o.jsonl"))
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "o.jsonl").exists()


@needs_corpus
def test_python_m_pcemu_cli_runs_a_survey_on_worker_processes(tmp_path):
    """`python -m pcemu.cli`: the workers import cli.py again as __mp_main__; that copy must
    not register the subcommands (they import pcemu.cli while it is half made)."""
    import subprocess
    import sys
    from tests.machine_helpers import REPO_ROOT
    corpus = corpus_of(tmp_path, *QUICK)
    out = tmp_path / "out.jsonl"
    done = subprocess.run([sys.executable, "-m", "pcemu.cli", "survey", "--workers", "2", "-q",
                           "--corpus", str(corpus), "--at", "2", "-o", str(out)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outcomes = sorted(json.loads(line)["outcome"] for line in out.read_text().splitlines())
    assert outcomes == ["exited", "waits for input"]
