"""The 80286 test files: one gzipped JSON list per instruction form.

A form is the file's name without ``.json.gz``: ``00`` for an opcode, or
``80.3`` for group opcode 80h with reg field 3.  Tests whose hash is in
``revocation_list.txt`` were found bad upstream and are never run.
"""
from __future__ import annotations

import gzip
import json
import random
from dataclasses import dataclass
from pathlib import Path

SUFFIX = ".json.gz"
REVOCATION_FILE = "revocation_list.txt"


class SuiteError(Exception):
    """The test folder is missing or a file in it cannot be read."""


@dataclass(frozen=True)
class Suite:
    directory: Path
    forms: tuple[str, ...]
    revoked: frozenset[str]

    def load(self, form: str) -> tuple[list[dict], int]:
        """(the tests of one form that are not revoked, how many were revoked)."""
        path = self.directory / f"{form}{SUFFIX}"
        try:
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                tests = json.load(handle)
        except (OSError, EOFError, ValueError) as exc:
            raise SuiteError(f"cannot read {path}: {exc}") from exc
        if not isinstance(tests, list) or not all(isinstance(t, dict) for t in tests):
            raise SuiteError(f"{path}: expected a JSON list of tests")
        kept = [t for t in tests if str(t.get("hash", "")).lower() not in self.revoked]
        return kept, len(tests) - len(kept)


def open_suite(directory: str | Path) -> Suite:
    directory = Path(directory)
    if not directory.is_dir():
        raise SuiteError(f"test folder {directory} not found")
    forms = tuple(sorted(p.name[: -len(SUFFIX)] for p in directory.glob(f"*{SUFFIX}")))
    if not forms:
        raise SuiteError(f"no *{SUFFIX} test files in {directory}")
    return Suite(directory, forms, frozenset(read_revocations(directory / REVOCATION_FILE)))


def read_revocations(path: Path) -> set[str]:
    """Hashes listed one a line; '#' starts a comment.  A missing list revokes nothing."""
    if not path.exists():
        return set()
    hashes = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip().lower()
        if line:
            hashes.add(line)
    return hashes


def pick(tests: list[dict], count: int | None, rng: random.Random) -> list[dict]:
    """``count`` tests chosen at random (all of them when count is None or large)."""
    if count is None or count >= len(tests):
        return list(tests)
    chosen = sorted(rng.sample(range(len(tests)), count))
    return [tests[i] for i in chosen]


def per_form_quota(total: int | None, forms: int) -> int | None:
    """Spread a sample of ``total`` tests evenly over ``forms`` forms (rounding up)."""
    if total is None:
        return None
    if total <= 0:
        raise SuiteError("the sample size must be a positive number of tests")
    return -(-total // forms)
