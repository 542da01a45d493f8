"""What a survey runs: one task per program, from images, folders, PCjs JSON or a corpus file.

A task names the disk (a raw image or a PCjs JSON file) and the program to run
from its root.  Inputs that cannot be surveyed (a missing or corrupt image, a bad
corpus line, an image with no program) become tasks that carry the reason, so
they get one line in the report instead of stopping the survey.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path

from pcemu.survey.text_file import read_text_file

RUNNABLE = (".COM", ".EXE", ".BAT")
IMAGE_SUFFIXES = (".img", ".ima", ".dsk", ".flp", ".vfd", ".json")


@dataclass(frozen=True)
class Task:
    """One program to run: ``disk`` is the name shown in reports, ``image`` the file."""
    disk: str
    image: str
    program: str | None
    problem: str | None = None          # why it cannot run (reported as "bad input")

    def as_dict(self) -> dict:
        return asdict(self)


def disk_bytes(path: str | os.PathLike) -> bytes:
    """The raw sectors of an image file or a PCjs JSON diskette (ImageError if unusable)."""
    from pcemu.storage.image import read_image_file
    from pcemu.storage.pcjs import load_pcjs
    path = Path(path)
    if path.suffix.lower() == ".json":
        return load_pcjs(path)
    return read_image_file(path)


def root_programs(path: str | os.PathLike) -> list[str]:
    """The .COM, .EXE and .BAT files in the root of a disk, by name (ImageError if unusable)."""
    from pcemu.storage.image import FloppyImage
    image = FloppyImage(disk_bytes(path), name=str(path), read_only=True)
    names = [entry.name for entry in image.filesystem.listdir([])
             if not entry.is_dir and not entry.is_label and entry.name.upper().endswith(RUNNABLE)]
    return sorted(names)


def _disk_name(path: Path) -> str:
    return path.stem if path.suffix.lower() in IMAGE_SUFFIXES else path.name


def tasks_for_image(path: str | os.PathLike, program: str | None = None) -> list[Task]:
    """The programs of one image: ``program`` alone, or every runnable file in its root."""
    from pcemu.storage.errors import ImageError, MountError
    path = Path(path)
    disk = _disk_name(path)
    try:
        found = root_programs(path)
    except (ImageError, MountError, ValueError) as err:
        return [Task(disk, str(path), program, problem=f"unusable disk: {err}")]
    if program is not None:
        if program.upper() not in found:
            return [Task(disk, str(path), program,
                         problem=f"{program} is not in the root of {path.name}")]
        return [Task(disk, str(path), program.upper())]
    if not found:
        return [Task(disk, str(path), None, problem="no .COM, .EXE or .BAT file in the root")]
    return [Task(disk, str(path), name) for name in found]


def tasks_for_sources(sources: list[str], program: str | None = None) -> list[Task]:
    """Images and PCjs JSON files, and folders of them (not recursive), in name order."""
    tasks: list[Task] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            images = sorted(p for p in path.iterdir()
                            if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
            if not images:
                tasks.append(Task(path.name, str(path), program,
                                  problem="the folder holds no disk images (.img, .ima, .dsk, "
                                          ".flp, .vfd) or PCjs .json files"))
            for image in images:
                tasks.extend(tasks_for_image(image, program))
        else:
            tasks.extend(tasks_for_image(path, program))
    return tasks


class CorpusError(Exception):
    """The corpus file itself cannot be read."""


def tasks_for_corpus(corpus: str | os.PathLike) -> list[Task]:
    """``DISKNNNN<TAB>PROGRAM.EXT`` lines; the image is ``images/DISKNNNN.img`` beside the file."""
    corpus = Path(corpus)
    text = read_text_file(corpus, "corpus", CorpusError)
    tasks: list[Task] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
            tasks.append(Task(f"line {number}", str(corpus), None,
                              problem=f"bad corpus line {number}: want DISK<TAB>PROGRAM, "
                                      f"got {line[:60]!r}"))
            continue
        disk, program = fields[0].strip(), fields[1].strip()
        if not _plain_name(disk) or not _plain_name(program):
            tasks.append(Task(disk[:40], str(corpus), None,
                              problem=f"bad corpus line {number}: the disk and the program "
                                      "must be plain names (no folders)"))
            continue
        image = corpus.parent / "images" / f"{disk}.img"
        for task in tasks_for_image(image, program):
            tasks.append(Task(disk, task.image, task.program, task.problem))
    return tasks


def _plain_name(name: str) -> bool:
    return bool(name) and not any(c in name for c in "/\\:\0") and name not in (".", "..")
