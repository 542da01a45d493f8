"""Grading a sample of the suite, and the pass-rate report.

Rates count only tests that ran: revoked tests (bad upstream) and tests this
memory cannot hold (see runner.SKIP_A20) are counted apart, never as passes.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterable

from pcemu.cputest.causes import cause_of
from pcemu.cputest.masks import flag_names
from pcemu.cputest.runner import Mismatch, Outcome, SingleStepRunner
from pcemu.cputest.suite import Suite, SuiteError, per_form_quota, pick

@dataclass
class FormResult:
    form: str
    passed: int = 0
    failed: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    examples: list[Outcome] = field(default_factory=list)
    causes: dict[str, int] = field(default_factory=dict)

    @property
    def ran(self) -> int:
        return self.passed + self.failed


@dataclass
class Report:
    forms: dict[str, FormResult] = field(default_factory=dict)
    sample: int | None = None
    seed: int = 0

    def add(self, outcome: Outcome) -> None:
        result = self.forms.setdefault(outcome.form, FormResult(outcome.form))
        if outcome.skipped:
            result.skipped[outcome.skipped] = result.skipped.get(outcome.skipped, 0) + 1
        elif outcome.passed:
            result.passed += 1
        else:
            result.failed += 1
            if not result.examples:
                result.examples.append(outcome)
            cause = cause_of(outcome)
            result.causes[cause] = result.causes.get(cause, 0) + 1

    def skip(self, form: str, reason: str, count: int) -> None:
        if count:
            result = self.forms.setdefault(form, FormResult(form))
            result.skipped[reason] = result.skipped.get(reason, 0) + count

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.forms.values())

    @property
    def failed(self) -> int:
        return sum(r.failed for r in self.forms.values())

    @property
    def ran(self) -> int:
        return self.passed + self.failed

    @property
    def rate(self) -> float:
        return self.passed / self.ran if self.ran else 0.0

    def skipped(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for result in self.forms.values():
            for reason, count in result.skipped.items():
                total[reason] = total.get(reason, 0) + count
        return total

    def causes(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for result in self.forms.values():
            for cause, count in result.causes.items():
                total[cause] = total.get(cause, 0) + count
        return total


def grade(suite: Suite, sample: int | None = None, seed: int = 0,
          forms: Iterable[str] | None = None,
          progress: Callable[[str], None] | None = None) -> Report:
    """Run ``sample`` tests spread evenly over the forms (all tests when None)."""
    chosen = list(forms) if forms is not None else list(suite.forms)
    quota = per_form_quota(sample, len(chosen))
    report = Report(sample=sample, seed=seed)
    runner = SingleStepRunner()
    for form in chosen:
        if progress:
            progress(form)
        tests, revoked = suite.load(form)
        report.skip(form, "revoked upstream", revoked)
        rng = random.Random(f"{seed}:{form}")       # a form's sample does not depend on the others
        for test in pick(tests, quota, rng):
            try:
                outcome = runner.run(test, form)
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise SuiteError(f"{form}: test {test.get('idx', '?')} is malformed "
                                 f"({type(exc).__name__}: {exc})") from exc
            report.add(outcome)
    return report


# -- text ---------------------------------------------------------------------
def describe_mismatch(m: Mismatch) -> str:
    def show(value) -> str:
        return f"{value:04X}h" if isinstance(value, int) else str(value)
    if m.what == "flags":
        differ = (m.expected ^ m.actual) & ~(m.mask or 0) & 0xFFFF
        return (f"flags expected {show(m.expected)} got {show(m.actual)} "
                f"(differ: {flag_bits(differ)}; masked: {flag_names(m.mask or 0)})")
    if m.what.startswith("mem"):
        exp = f"{m.expected:02X}h" if isinstance(m.expected, int) else m.expected
        act = f"{m.actual:02X}h" if isinstance(m.actual, int) else m.actual
        extra = f" (masked bits {m.mask:02X}h)" if m.mask else ""
        return f"{m.what} expected {exp} got {act}{extra}"
    return f"{m.what} expected {show(m.expected)} got {show(m.actual)}"


_FLAG_BITS = ((0x0001, "CF"), (0x0004, "PF"), (0x0010, "AF"), (0x0040, "ZF"), (0x0080, "SF"),
              (0x0100, "TF"), (0x0200, "IF"), (0x0400, "DF"), (0x0800, "OF"),
              (0x3000, "IOPL"), (0x4000, "NT"), (0x8000, "bit15"), (0x002A, "reserved"))


def flag_bits(mask: int) -> str:
    return " ".join(name for bit, name in _FLAG_BITS if mask & bit) or "-"


def format_report(report: Report, show_all: bool = False, max_lines: int = 12) -> str:
    lines = []
    scope = "all tests" if report.sample is None else f"a sample of {report.sample} (seed {report.seed})"
    lines.append(f"80286 real-mode tests, {scope} of {len(report.forms)} form"
                 f"{'' if len(report.forms) == 1 else 's'}: "
                 f"{report.passed} of {report.ran} passed "
                 f"({100 * report.rate:.2f}%), {report.failed} failed")
    for reason, count in sorted(report.skipped().items()):
        lines.append(f"  not run: {count} ({reason})")
    lines.append("")
    lines.append("Pass rate by form (forms below 100%" + (", then all forms" if show_all else "") + "):")
    ordered = sorted(report.forms.values(), key=lambda r: (r.passed / r.ran if r.ran else 1, r.form))
    for result in ordered:
        if result.failed or show_all:
            rate = 100 * result.passed / result.ran if result.ran else 100.0
            lines.append(f"  {result.form:6} {result.passed:5}/{result.ran:<5} {rate:6.2f}%")
    causes = report.causes()
    if causes:
        lines.append("")
        lines.append("Failures by cause:")
        for cause, count in sorted(causes.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {count:5}  {cause}")
    failing = [r for r in ordered if r.failed]
    if failing:
        lines.append("")
        lines.append("One failing example per form:")
    for result in failing:
        example = result.examples[0]
        lines.append(f"  {result.form}: #{example.index} {example.name}  "
                     f"[{example.code.hex(' ').upper()}]"
                     + (f"  (286 exception {example.exception})" if example.exception is not None else ""))
        lines.append(f"      cause: {cause_of(example)}")
        for m in example.mismatches[:max_lines]:
            lines.append(f"      {describe_mismatch(m)}")
        if len(example.mismatches) > max_lines:
            lines.append(f"      ... and {len(example.mismatches) - max_lines} more")
    return "\n".join(lines)
