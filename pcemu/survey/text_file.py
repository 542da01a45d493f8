"""Reading the survey's own input files (a corpus list, DOSBox's screens) as UTF-8 text,
with one clear line for each way that can fail."""
from __future__ import annotations

import os
from pathlib import Path


def read_text_file(path: str | os.PathLike, kind: str, error: type[Exception]) -> str:
    """The text of the ``kind`` file at ``path``; ``error`` with one line if it cannot be read."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{kind} file {path} does not exist") from None
    except IsADirectoryError:
        raise error(f"{path} is a folder, not a {kind} file") from None
    except UnicodeDecodeError:
        raise error(f"{kind} file {path} is not UTF-8 text") from None
    except OSError as err:
        raise error(f"cannot read {kind} file {path}: {err.strerror or err}") from None
