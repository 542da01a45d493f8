"""The survey as one self-contained HTML page: counts at the top, a row per program, and
pcemu's and DOSBox's screens side by side for every program that does not match.

Every character that comes from a disk (screens, names, reasons) is escaped, and the
characters a browser would act on rather than show (controls, bidirectional
overrides, lone surrogates) are replaced, so a stranger's disk cannot change the page.
No scripts, no external assets.
"""
from __future__ import annotations

import html
from collections import Counter

from pcemu.survey.outcome import OUTCOMES, describe
from pcemu.survey.score import MATCH, PARTIAL, VERDICTS, tally_line

_CONTROL_GLYPHS = " ☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼"
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}

STYLE = """
body { font-family: sans-serif; margin: 1em 2em; }
table { border-collapse: collapse; margin-bottom: 1em; }
td, th { border: 1px solid #bbb; padding: 2px 6px; text-align: left; vertical-align: top; }
.screens { display: flex; gap: 1em; flex-wrap: wrap; }
pre.screen { background: #000; color: #ccc; font-family: monospace; line-height: 1.1;
  padding: 4px; margin: 0; }
.match { background: #d8f5d8; } .partial { background: #fff3c4; }
.differs { background: #f9d2d2; } .graphics { background: #dde4f5; }
"""


def clean(text: object) -> str:
    """``text`` made safe to show: escaped for HTML, controls shown as the PC's glyphs,
    bidirectional controls and surrogates replaced."""
    out = []
    for char in str(text):
        code = ord(char)
        if code < 0x20:
            char = _CONTROL_GLYPHS[code]
        elif code == 0x7F:
            char = "⌂"
        elif 0x80 <= code < 0xA0 or 0xD800 <= code < 0xE000 or code in _BIDI:
            char = "\ufffd"
        out.append(char)
    return html.escape("".join(out), quote=True)


def page(records: list[dict], *, title: str, command: str) -> str:
    outcomes = Counter(r.get("outcome") for r in records)
    verdicts = Counter(r.get("verdict") for r in records if r.get("verdict"))
    parts = [f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{clean(title)}</title>"
             f"<style>{STYLE}</style></head><body>",
             f"<h1>{clean(title)}</h1>", f"<p><code>{clean(command)}</code></p>",
             _summary(records, outcomes, verdicts), _table(records)]
    differing = [r for r in records if r.get("verdict") not in (None, "match")]
    if differing:
        parts.append("<h2>Programs that do not match: pcemu's screen beside DOSBox's</h2>")
        parts.extend(_side_by_side(r) for r in differing)
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _summary(records: list[dict], outcomes: Counter, verdicts: Counter) -> str:
    rows = [f"<tr><th>programs</th><td>{len(records)}</td></tr>"]
    if verdicts:
        rows.append(f"<tr><th>against DOSBox</th><td>{clean(tally_line(records))}</td></tr>")
        rows += [f"<tr class='{v}'><th>{v}</th><td>{verdicts.get(v, 0)}</td></tr>"
                 for v in VERDICTS]
    rows += [f"<tr><th>{o}</th><td>{outcomes[o]}</td></tr>" for o in OUTCOMES if outcomes.get(o)]
    legend = (f"<p>Verdicts compare the words on pcemu's screen with DOSBox's settled screen: "
              f"match when at least {MATCH:.0%} of DOSBox's words are on pcemu's, partial from "
              f"{PARTIAL:.0%}, differs below; graphics when DOSBox showed a graphics mode.</p>")
    return f"<h2>Summary</h2><table>{''.join(rows)}</table>{legend}"


def _table(records: list[dict]) -> str:
    head = ("<tr><th>disk</th><th>program</th><th>outcome</th><th>verdict</th><th>share</th>"
            "<th>video mode</th><th>services pcemu lacks</th><th>wall s</th><th>peak MB</th></tr>")
    rows = []
    for r in records:
        verdict = r.get("verdict") or ""
        share = "" if r.get("share") is None else f"{r['share']:.0%}"
        modes = ", ".join(sorted({str(s.get("mode")) for s in r.get("screens", [])}))
        rows.append(f"<tr class='{clean(verdict)}'><td>{clean(r.get('disk'))}</td>"
                    f"<td>{clean(r.get('program') or '')}</td>"
                    f"<td>{clean(describe(r.get('outcome', ''), r))}</td><td>{clean(verdict)}</td>"
                    f"<td>{share}</td><td>{clean(modes)}</td>"
                    f"<td>{clean('; '.join(r.get('unimplemented', [])))}</td>"
                    f"<td>{clean(r.get('wall_seconds', ''))}</td>"
                    f"<td>{clean(r.get('peak_rss_mb', ''))}</td></tr>")
    return f"<h2>Programs</h2><table>{head}{''.join(rows)}</table>"


def _side_by_side(r: dict) -> str:
    ours = next((s for s in r.get("screens", []) if s.get("t") == r.get("best_t")),
                (r.get("screens") or [None])[-1])
    left = ("<p>(no screen: the program did not run)</p>" if ours is None else
            f"<p>pcemu at {clean(ours.get('t'))} s, mode {clean(ours.get('mode'))} "
            f"({clean(ours.get('kind'))})</p>{_pre(ours.get('lines', []))}")
    right = (f"<p>DOSBox at {clean(r.get('truth_t'))} s ({clean(r.get('truth_kind'))})</p>"
             f"{_pre(r.get('truth_lines', []))}")
    share = "" if r.get("share") is None else f", {r['share']:.0%} of DOSBox's words"
    return (f"<h3 id='{clean(r.get('disk'))}-{clean(r.get('program'))}'>{clean(r.get('disk'))} "
            f"{clean(r.get('program') or '')}: {clean(r.get('verdict'))}{share}; "
            f"{clean(describe(r.get('outcome', ''), r))}</h3>"
            f"<div class='screens'><div>{left}</div><div>{right}</div></div>")


def _pre(lines: list[str]) -> str:
    return f"<pre class='screen'>{chr(10).join(clean(line) for line in lines)}</pre>"
