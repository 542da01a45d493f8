"""A film strip of a run: the screen each time it settles after a change.

The screen is sampled at every BIOS timer tick (18.2 a second of virtual
time), at every key sent and at the end, never by running the machine in
pieces of its own, so filming does not change the run.  A frame is taken
when the screen has changed and then stayed the same for ``settle`` seconds
of virtual time, or when it has kept changing for ``max_wait`` seconds.
Parts of a text screen that change on their own (a clock) can be left out of
the comparison with ``ignore`` regions.

``finish()`` writes ``frame_0001.png`` ..., ``film.gif`` (frame durations
follow virtual time) and ``index.html`` (every frame with its virtual time and
its text, images embedded, so the one file shows the whole run).
"""
from __future__ import annotations

import base64
import hashlib
import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from pcemu import screen as screenlib
from pcemu.archive.screens import PictureMaker, fingerprint
from pcemu.errors import PcemuError

if TYPE_CHECKING:
    from pcemu.machine import Machine

GIF_MIN_MS, GIF_MAX_MS = 100, 10_000


class FilmError(PcemuError):
    pass


@dataclass(frozen=True)
class Region:
    """Rows top..bottom and columns left..right of a text screen, inclusive."""

    top: int
    bottom: int
    left: int
    right: int

    @classmethod
    def parse(cls, text: str) -> "Region":
        """'0-2,69-79' (rows, columns) or '24,0-79'."""
        match = re.fullmatch(r"\s*(\d+)(?:-(\d+))?\s*,\s*(\d+)(?:-(\d+))?\s*", text)
        if not match:
            raise FilmError(f"bad region {text!r}: use ROWS,COLUMNS such as 0-2,69-79")
        top, bottom, left, right = match.groups()
        region = cls(int(top), int(bottom or top), int(left), int(right or left))
        if region.bottom < region.top or region.right < region.left:
            raise FilmError(f"bad region {text!r}: ranges go from low to high")
        return region


@dataclass
class Frame:
    number: int
    t: int                 # instruction count
    seconds: float
    file: str
    text: str


class FilmStrip:
    """Attach to a machine, run it, then ``finish()``; see the module docstring."""

    def __init__(self, machine: "Machine", out_dir: str | Path, *, settle: float = 0.3,
                 max_wait: float = 3.0, ignore: list[Region] | None = None,
                 max_frames: int = 1000, title: str = "pcemu film strip") -> None:
        self.m = machine
        self.out = Path(out_dir)
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FilmError(f"cannot create the folder {self.out}: {exc.strerror or exc}") from None
        self.settle = machine.clock.instructions_for_seconds(settle)
        self.max_wait = machine.clock.instructions_for_seconds(max_wait)
        self.ignore = list(ignore or [])
        self.max_frames = max_frames
        self.title = title
        self.pictures = PictureMaker()
        self.frames: list[Frame] = []
        self._seen: str | None = None          # the screen last sampled
        self._captured: str | None = None      # the screen of the last frame
        self._changed_at = 0                   # when the screen last changed
        self._busy_since: int | None = None    # first change since the last frame
        self._attached = True
        machine.events.tick.connect(self._sample)
        machine.events.input.connect(self._on_input)
        self._sample()

    # ------------------------------------------------------------------ sampling
    def _key(self) -> str:
        m = self.m
        if not self.ignore:
            return fingerprint(m)
        base, columns, graphics = screenlib.geometry(m)
        if graphics:
            return fingerprint(m)
        cells = bytearray(m.memory.read(base, screenlib.ROWS * columns * 2))
        for r in self.ignore:
            for row in range(r.top, min(r.bottom, screenlib.ROWS - 1) + 1):
                for col in range(r.left, min(r.right, columns - 1) + 1):
                    at = (row * columns + col) * 2
                    cells[at:at + 2] = b"\0\0"
        card = m.video_card
        cells += bytes((card.mode_register & 0xFF, getattr(card, "color_register", 0) & 0xFF))
        return hashlib.sha1(bytes(cells)).hexdigest()[:16]

    def _sample(self) -> None:
        now = self.m.clock.now
        key = self._key()
        if key != self._seen:
            self._seen = key
            self._changed_at = now
            if key != self._captured and self._busy_since is None:
                self._busy_since = now
        if key == self._captured:
            self._busy_since = None
            return
        if self._busy_since is None:
            return
        if now - self._changed_at >= self.settle or now - self._busy_since >= self.max_wait:
            self._capture(key)

    def _on_input(self, t: int, event) -> None:
        self._sample()

    def _capture(self, key: str) -> None:
        if len(self.frames) >= self.max_frames:
            return
        m = self.m
        number = len(self.frames) + 1
        name = f"frame_{number:04d}.png"
        self.pictures.picture(m).save(self.out / name)
        self.frames.append(Frame(number, m.clock.now, m.clock.seconds(), name, m.screen_text()))
        self._captured = key
        self._busy_since = None

    # ------------------------------------------------------------------ output
    def detach(self) -> None:
        if self._attached:
            self.m.events.tick.disconnect(self._sample)
            self.m.events.input.disconnect(self._on_input)
            self._attached = False

    def finish(self) -> list[Frame]:
        """Take the last frame, write the GIF and the HTML page; returns the frames."""
        self._sample()
        if self._seen != self._captured or not self.frames:
            self._capture(self._seen or self._key())
        self.detach()
        self._write_gif()
        self._write_html()
        return self.frames

    def _durations_ms(self) -> list[int]:
        out = []
        for i, frame in enumerate(self.frames):
            nxt = self.frames[i + 1].seconds if i + 1 < len(self.frames) else frame.seconds + 2.0
            out.append(int(min(max((nxt - frame.seconds) * 1000, GIF_MIN_MS), GIF_MAX_MS)))
        return out

    def _gif_frames(self) -> Iterator:
        from PIL import Image
        for frame in self.frames:
            with Image.open(self.out / frame.file) as image:
                yield image.convert("RGB").quantize(colors=256)

    def _write_gif(self) -> None:
        frames = self._gif_frames()
        first = next(frames)
        first.save(self.out / "film.gif", save_all=True, append_images=frames,
                   duration=self._durations_ms(), loop=0, optimize=False)

    def _write_html(self) -> None:
        note = "" if self.pictures.uses_renderer else (
            f"<p class=note>Frames are plain renderings of the text cells: "
            f"{html.escape(self.pictures.fallback_reason)}.</p>")
        parts = [
            "<!DOCTYPE html>", "<html lang=en><head><meta charset=utf-8>",
            f"<title>{html.escape(self.title)}</title>",
            "<style>body{font-family:sans-serif;background:#222;color:#ddd;margin:2em}"
            "figure{margin:0 0 2em 0}img{image-rendering:pixelated;max-width:100%}"
            "figcaption{margin:.4em 0}pre{background:#000;color:#ccc;display:inline-block;"
            "padding:.5em;font-family:monospace;line-height:1.1}.note{color:#fc6}</style>",
            "</head><body>", f"<h1>{html.escape(self.title)}</h1>",
            f"<p>{len(self.frames)} frames; each is the screen after it settled. Times are virtual "
            f"(the emulated PC's), from power-on. <a href=film.gif>Animated GIF</a>.</p>", note]
        for frame in self.frames:
            data = base64.b64encode((self.out / frame.file).read_bytes()).decode()
            minutes, seconds = divmod(frame.seconds, 60)
            parts.append(
                f"<figure id=f{frame.number}><img alt='frame {frame.number}' "
                f"src='data:image/png;base64,{data}'><figcaption>frame {frame.number} - "
                f"{int(minutes)}:{seconds:06.3f} ({frame.t:,} instructions)</figcaption>"
                f"<details><summary>text</summary><pre>{html.escape(frame.text)}</pre></details>"
                "</figure>")
        parts.append("</body></html>")
        (self.out / "index.html").write_text("\n".join(parts), encoding="utf-8")
