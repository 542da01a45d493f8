"""``pcemu cpu-report [--sample N] [--tests DIR]``: how faithful the CPU is.

Runs the SingleStepTests 80286 real-mode suite through the project's own CPU
layer and prints pass rates per instruction form and overall, and one failing
example per form with the registers, flags and memory that differ.  See
docs/cpu.md for what is masked and why each failing form fails.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from pcemu.cputest.report import format_report, grade
from pcemu.cputest.suite import SuiteError, open_suite

DEFAULT_TESTS = Path(__file__).resolve().parents[2].parent / "shared" / "cpu-tests" / "80286"


@click.command("cpu-report")
@click.option("--sample", type=click.IntRange(min=1), default=None,
              help="Run about N tests spread evenly over all forms (default: every test).")
@click.option("--seed", type=int, default=0, show_default=True, help="Which sample to draw.")
@click.option("--tests", "tests_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help=f"The 80286 test folder (default {DEFAULT_TESTS}).")
@click.option("--form", "forms", multiple=True, metavar="FORM",
              help="Only this form, e.g. 00 or F7.6 (repeatable).")
@click.option("--all-forms", is_flag=True, help="List every form's pass rate, not only failing ones.")
def cpu_report(sample: int | None, seed: int, tests_dir: Path | None, forms: tuple[str, ...],
               all_forms: bool) -> None:
    """Grade the CPU against the 80286 single-instruction tests."""
    try:
        suite = open_suite(tests_dir or DEFAULT_TESTS)
        unknown = [f for f in forms if f.upper() not in suite.forms]
        if unknown:
            raise click.ClickException(f"no such form: {', '.join(unknown)} "
                                       f"(forms are file names like 00, 80.3, F7.6)")
        chosen = [f.upper() for f in forms] or None
        show = (lambda form: click.echo(f"\r{form:6}", nl=False, err=True)) if sys.stderr.isatty() else None
        report = grade(suite, sample=sample, seed=seed, forms=chosen, progress=show)
    except SuiteError as exc:
        raise click.ClickException(str(exc)) from exc
    if show:
        click.echo("\r      \r", nl=False, err=True)
    click.echo(format_report(report, show_all=all_forms))


if __name__ == "__main__":
    cpu_report()
