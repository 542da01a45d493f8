"""``<``, ``>``, ``>>`` and ``|`` as COMMAND.COM 3.30 does them.

A command line is cut at each ``|`` into stages; each stage's ``<name``,
``>name`` and ``>>name`` are taken out of its text.  A stage's standard input
and output are then the shell's own handles 0 and 1, made copies of the
named file's handle (DOS's duplicate-handle calls, through `pcemu.dos.kernel`),
so a program the stage starts inherits them in its PSP's job file table and
its writes to handle 1 land in the file.  A pipe is two temporary files that
DOS's create-unique call names in the root directory of the current drive
(as MS-DOS 3.x/4.0 COMMAND.COM's PIPEPROCSTRT makes them), the output of one
stage becoming the input of the next; they are deleted when the line is done.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pcemu.dos import kernel
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from pcemu.dos import Dos

STOP = " \t<>|"


class SyntaxProblem(ValueError):
    """The line cannot be cut into stages ("Syntax error")."""


@dataclass
class Stage:
    command: str
    stdin: str | None = None
    stdout: str | None = None
    append: bool = False


@dataclass
class Pipeline:
    stages: list[Stage]
    temporary: list[str] = field(default_factory=list)    # pipe files to delete at the end
    saved: list[tuple[int, int]] = field(default_factory=list)   # (0 or 1, handle keeping the old one)


def has_redirection(line: str) -> bool:
    return any(ch in line for ch in "<>|")


def parse(line: str) -> list[Stage]:
    """``DIR *.TXT | SORT > OUT`` -> [Stage('DIR *.TXT '), Stage('SORT ', stdout='OUT')]."""
    stages = []
    segments = line.split("|")
    for number, segment in enumerate(segments):
        stage = Stage("")
        text: list[str] = []
        i = 0
        while i < len(segment):
            ch = segment[i]
            if ch not in "<>":
                text.append(ch)
                i += 1
                continue
            append = segment.startswith(">>", i)
            i += 2 if append else 1
            while i < len(segment) and segment[i] in " \t":
                i += 1
            start = i
            while i < len(segment) and segment[i] not in STOP:
                i += 1
            name = segment[start:i]
            if not name:
                raise SyntaxProblem(line)
            if ch == "<":
                stage.stdin = name
            else:
                stage.stdout, stage.append = name, append
        stage.command = "".join(text)
        if not stage.command.strip() and (len(segments) > 1 or number):
            raise SyntaxProblem(line)
        stages.append(stage)
    return stages


def plumb(dos: "Dos", stages: list[Stage]) -> Pipeline:
    """Temporary files between the stages of a pipe (explicit redirections win)."""
    pipeline = Pipeline(stages)
    root = f"{dos.current_drive}:\\"
    for before, after in zip(stages, stages[1:]):
        handle, name = kernel.create_unique(dos, root)
        kernel.close(dos, handle)
        path = root + name
        pipeline.temporary.append(path)
        if before.stdout is None:
            before.stdout, before.append = path, False
        if after.stdin is None:
            after.stdin = path
    return pipeline


def redirect(dos: "Dos", pipeline: Pipeline, stage: Stage) -> None:
    """Point the current process's handles 0 and 1 at the stage's files.  A missing
    input raises DosError 2; an output that cannot be made raises the DosError."""
    if stage.stdin is not None:
        _swap(dos, pipeline, 0, kernel.open_file(dos, stage.stdin, 0))
    if stage.stdout is not None:
        handle = None
        if stage.append:
            try:
                handle = kernel.open_file(dos, stage.stdout, 1)
                kernel.seek(dos, handle, 0, 2)
            except DosError as err:
                if err.code != 0x02:
                    raise
        if handle is None:
            handle = kernel.create(dos, stage.stdout)
        _swap(dos, pipeline, 1, handle)


def _swap(dos: "Dos", pipeline: Pipeline, standard: int, handle: int) -> None:
    pipeline.saved.append((standard, kernel.duplicate(dos, standard)))
    kernel.force_duplicate(dos, handle, standard)
    kernel.close(dos, handle)


def restore(dos: "Dos", pipeline: Pipeline) -> None:
    """Handles 0 and 1 back to what they were (closing the files)."""
    while pipeline.saved:
        standard, saved = pipeline.saved.pop()
        kernel.force_duplicate(dos, saved, standard)
        kernel.close(dos, saved)


def output_redirected(dos: "Dos") -> bool:
    """Is the current process's handle 1 something other than CON?"""
    try:
        return dos.handle_file(1).device != "CON"
    except DosError:
        return False


def finish(dos: "Dos", pipeline: Pipeline) -> None:
    restore(dos, pipeline)
    for path in pipeline.temporary:
        try:
            kernel.delete(dos, path)
        except DosError:
            pass
    pipeline.temporary.clear()
