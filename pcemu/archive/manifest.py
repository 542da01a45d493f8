"""What a session records of a mounted host folder: each regular file's SHA-256, bounded.

Links are not followed, so nothing outside the folder is read; the file count and
the bytes hashed are bounded, so a stranger's folder cannot exhaust the host.
"""
from __future__ import annotations

import hashlib
import os
import stat as st
from pathlib import Path

MAX_MANIFEST_FILES = 10_000
MAX_MANIFEST_BYTES = 256 * 1024 * 1024


def inside(root: Path, name: str) -> Path | None:
    parts = name.split("/")
    if not name or any(p in ("", ".", "..") for p in parts) or "\\" in name or "\0" in name:
        return None
    path = root.joinpath(*parts)
    real = os.path.realpath(path)
    base = os.path.realpath(root)
    return path if real.startswith(base.rstrip(os.sep) + os.sep) else None


def hash_file(path: Path) -> str | None:
    try:
        info = path.lstat()
        if not st.S_ISREG(info.st_mode) or info.st_size > MAX_MANIFEST_BYTES:
            return None
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()
    except OSError:
        return None


def listing(root: Path) -> list[str]:
    """Regular files below ``root`` (relative, '/'-separated), not through links, bounded."""
    out: list[str] = []
    for top, dirs, files in os.walk(root, followlinks=False, onerror=lambda e: None):
        dirs.sort()
        for name in sorted(files):
            path = Path(top) / name
            try:
                if not st.S_ISREG(path.lstat().st_mode):
                    continue
            except OSError:
                continue
            out.append(path.relative_to(root).as_posix())
            if len(out) >= MAX_MANIFEST_FILES:
                return out
    return out


def folder_manifest(root: Path) -> dict[str, str]:
    """SHA-256 of each regular file in a mounted folder, for the session: symbolic links are
    not followed (nothing outside the folder is read), at most MAX_MANIFEST_FILES files and
    MAX_MANIFEST_BYTES bytes (beyond them the manifest is partial: a replay then notes the
    folder as changed, never reads further)."""
    manifest: dict[str, str] = {}
    total = 0
    for name in listing(Path(root)):
        path = Path(root) / name
        try:
            size = path.lstat().st_size
        except OSError:
            continue
        if total + size > MAX_MANIFEST_BYTES:
            break
        digest = hash_file(path)
        if digest is not None:
            manifest[name] = digest
            total += size
    return manifest
