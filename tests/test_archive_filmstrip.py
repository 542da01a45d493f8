"""Film strips: a frame each time the screen settles, written as PNGs, a GIF and one HTML page."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from PIL import Image

from pcemu.archive.filmstrip import FilmError, FilmStrip, Region
from pcemu.archive.screens import PictureMaker
from pcemu.cli import main
from pcemu.machine import Machine
from tests.dos_harness import assemble16
from tests.machine_helpers import DISK1612, needs_originals

WAIT = """
wait:                       ; BX = ticks to wait, counted on the BIOS tick count
    push ds
    mov ax, 0x40
    mov ds, ax
    add bx, [0x6c]
again:
    cmp [0x6c], bx
    jne again
    pop ds
    ret
"""
SLIDES = """
    mov ah, 0x09
    mov dx, one
    int 0x21
    mov bx, 18
    call wait
    mov ah, 0x09
    mov dx, flash
    int 0x21
    mov bx, 2
    call wait
    mov ax, 0x0600
    mov bh, 0x07
    xor cx, cx
    mov dx, 0x184f
    int 0x10
    mov ah, 0x09
    mov dx, two
    int 0x21
    mov bx, 18
    call wait
    mov ax, 0x4c00
    int 0x21
""" + WAIT + """
one: .ascii "SLIDE ONE$"
flash: .ascii " FLASH$"
two: .ascii "SLIDE TWO$"
"""
COUNTER = """
    mov ax, 0xb800
    mov es, ax
    mov cx, 30
count:
    mov al, cl
    and al, 7
    add al, 0x30
    mov es:[158], al        ; row 0, column 79
    mov bx, 2
    push cx
    call wait
    pop cx
    loop count
    mov ax, 0x4c00
    int 0x21
""" + WAIT


def film(tmp_path, source, name="T", **options):
    folder = tmp_path / "c"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.COM").write_bytes(assemble16(source))
    m = Machine(host_dirs={"C": folder})
    m.type("C:{ENTER}")
    strip = FilmStrip(m, tmp_path / "film", **options)
    m.type(f"{name}{{ENTER}}")
    m.run_until(condition=lambda mm: bool(mm.dos.shell.exit_codes) and mm.dos.shell.at_prompt,
                max_ticks=300)
    return strip, strip.finish()


def test_frames_show_each_settled_screen_in_order_and_skip_a_flash(tmp_path):
    strip, frames = film(tmp_path, SLIDES)
    texts = [f.text for f in frames]
    one = next(i for i, t in enumerate(texts) if "SLIDE ONE" in t)
    two = next(i for i, t in enumerate(texts) if "SLIDE TWO" in t)
    assert one < two
    assert not any("FLASH" in t for t in texts)             # shown for 2 ticks, less than settle
    assert [f.seconds for f in frames] == sorted(f.seconds for f in frames)
    assert all((tmp_path / "film" / f.file).exists() for f in frames)


def test_the_gif_and_the_page_hold_every_frame_with_its_time(tmp_path):
    _strip, frames = film(tmp_path, SLIDES)
    out = tmp_path / "film"
    with Image.open(out / "film.gif") as gif:
        assert gif.n_frames == len(frames)
        gif.seek(0)
        assert gif.info["duration"] >= 100
    page = (out / "index.html").read_text()
    assert page.count("data:image/png;base64,") == len(frames)
    for frame in frames:
        minutes, seconds = divmod(frame.seconds, 60)
        assert f"frame {frame.number} - {int(minutes)}:{seconds:06.3f}" in page
    assert "SLIDE TWO" in page


def test_an_ignored_region_does_not_make_frames(tmp_path):
    _strip, noisy = film(tmp_path / "a", COUNTER, max_wait=0.5)
    _strip, quiet = film(tmp_path / "b", COUNTER, max_wait=0.5, ignore=[Region.parse("0,70-79")])
    assert len(noisy) > len(quiet) + 3                      # the counter runs for about 3 s


def test_regions_are_checked():
    assert Region.parse("0-2,69-79") == Region(0, 2, 69, 79)
    with pytest.raises(FilmError):
        Region.parse("2-0,1")
    with pytest.raises(FilmError):
        Region.parse("rows")


def test_without_the_front_end_renderer_frames_are_text_renderings(tmp_path, monkeypatch):
    original = PictureMaker.__init__

    def no_renderer(self):
        original(self)
        self.renderer = None
        self.fallback_reason = "test: no renderer"

    monkeypatch.setattr(PictureMaker, "__init__", no_renderer)
    _strip, frames = film(tmp_path, SLIDES)
    with Image.open(tmp_path / "film" / frames[-1].file) as image:
        assert image.size == (80 * 8, 25 * 16)
        assert len(image.getcolors(256)) > 1   # some text was drawn
    assert "plain renderings of the text cells" in (tmp_path / "film" / "index.html").read_text()


@needs_originals
def test_filmstrip_command_films_gin_rummy_dealing_and_playing(tmp_path):
    out = tmp_path / "film"
    result = CliRunner().invoke(main, [
        "filmstrip", str(DISK1612), "GINRUMMY", "-o", str(out), "--ignore", "0-2,69-79",
        "--keys", "{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}{F2}",
        "--until", "CARDS DRAWN: 22"])
    assert result.exit_code == 0, result.output
    frames = int(re.match(r"(\d+) frames", result.output).group(1))
    page = (out / "index.html").read_text()
    assert page.count("<figure") == frames > 5
    assert "COWBOY GIN?" in page and "CARDS DRAWN: 22" in page


@pytest.mark.slow
@needs_originals
def test_filmstrip_of_one_whole_demo_hand(tmp_path):
    out = tmp_path / "film"
    result = CliRunner().invoke(main, [
        "filmstrip", str(DISK1612), "GINRUMMY", "-o", str(out), "--ignore", "0-2,69-79",
        "--keys", "{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}{F2}", "--until", "HAND: 2"])
    assert result.exit_code == 0, result.output
    page = (out / "index.html").read_text()
    assert "HAND: 2" in page and "HANDS: YOU: 0    ME: 0" in page
