"""A whole survey: the tasks, spread over processes, scored, written as JSON Lines and HTML."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Callable

from pcemu.survey.html_report import page
from pcemu.survey.outcome import OUTCOMES, describe
from pcemu.survey.programs import Task
from pcemu.survey.runner import Request, Settings, survey_one
from pcemu.survey.score import VERDICTS, score, tally_line, truth_for


def run_survey(tasks: list[Task], settings: Settings, *, jsonl: Path, html_path: Path | None,
               truth: dict | None = None, backend: str = "auto", workers: int | None = None,
               address: str | None = None, command: str = "pcemu survey",
               progress: Callable[[dict], None] | None = None) -> list[dict]:
    """Run every task; each record is scored and written to ``jsonl`` as it comes in (so a
    long survey stopped half-way keeps what it did), the HTML page at the end."""
    from pcemu.sweep import sweep
    requests = [Request(task.as_dict(), settings) for task in tasks]
    records: list[dict | None] = [None] * len(requests)
    with open(jsonl, "w", encoding="utf-8") as out:
        def arrived(index: int, record: dict) -> None:
            if truth is not None:
                found = truth_for(truth, record)
                record.update(score(record, found) if found else {"verdict": None,
                                                                  "truth": "none for this program"})
            records[index] = record
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            if progress is not None:
                progress(record)
        sweep(survey_one, requests, backend=backend, workers=workers, address=address,
              on_result=arrived)
    done = [r for r in records if r is not None]
    if html_path is not None:
        html_path.write_text(page(done, title="pcemu survey", command=command), encoding="utf-8")
    return done


def summary(records: list[dict]) -> str:
    """Counts per outcome and per verdict, then a line for each program that does not match."""
    outcomes = Counter(r.get("outcome") for r in records)
    verdicts = Counter(r.get("verdict") for r in records if r.get("verdict"))
    lines = [f"{len(records)} programs: " + ", ".join(f"{outcomes[o]} {o}" for o in OUTCOMES
                                                      if outcomes.get(o))]
    if verdicts:
        lines.append(f"against the truth: {tally_line(records)}; verdicts: "
                     + ", ".join(f"{verdicts[v]} {v}" for v in VERDICTS if verdicts.get(v)))
        for r in records:
            if r.get("verdict") not in (None, "match"):
                share = "" if r.get("share") is None else f" ({r['share']:.0%})"
                lines.append(f"  {r['verdict']}{share}: {r['disk']} {r.get('program') or '-'}, "
                             f"{describe(r['outcome'], r)}")
    return "\n".join(lines)
