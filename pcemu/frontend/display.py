"""The picture a monitor shows, drawn from video memory and the card's registers.

Everything comes from the card, not from the BIOS: the 6845 gives the page
(start address, 0Ch/0Dh), the layout (displayed columns and rows, 01h/06h,
lines per row, 09h) and the cursor (0Ah/0Bh shape, 0Eh/0Fh position); the CGA
mode register (3D8h) selects 40/80 columns, text or graphics, 320 or 640 dots,
blink or bright backgrounds (bit 5) and blanks the screen (bit 3); the colour
register (3D9h) gives the border and the graphics palettes.  The MDA draws
9-dot cells with underline, intense, reverse and blink; the Hercules card adds
720x348 graphics.

Frames are at the card's own resolution plus a border (the CGA's overscan
colour; black on the mono cards).  CGA frames are always 640 dots wide, so
40-column text and 320-dot graphics have double-width dots.  Blinking follows
virtual time (the CGA blinks the cursor every 8 frames and characters every
16), so a screenshot of a run is the same on every machine.  No window is
needed: frames are plain pygame Surfaces.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from pcemu.errors import PcemuError  # noqa: E402
from pcemu.fonts import MDA_LINE_GRAPHICS, load_cp437_font  # noqa: E402
from pcemu.frontend import palette  # noqa: E402
from pcemu.frontend.scaling import pixel_aspect  # noqa: E402

if TYPE_CHECKING:
    from pcemu.machine import Machine

CGA_BORDER = (16, 8)              # dots left/right, lines top/bottom of overscan shown
MONO_BORDER = (9, 7)
CGA_FRAME_HZ = 59.92
MDA_FRAME_HZ = 50.0
CGA_ACTIVE = (640, 200)
MDA_ACTIVE = (720, 350)
HERCULES_ACTIVE = (720, 348)
MDA_UNDERLINE_LINE = 12
MAX_ROWS, MAX_LINES = 128, 400    # bounds for odd 6845 programming
IMAGE_SUFFIXES = {".png", ".bmp", ".tga", ".jpg", ".jpeg"}


class ScreenRenderer:
    """Draws frames of one machine's screen; keeps glyph bitmaps and the last frame."""

    def __init__(self, mono_tint: str = "green") -> None:
        if mono_tint not in palette.MONO_TINTS:
            raise ValueError(f"unknown monochrome tint {mono_tint!r}: choose "
                             + ", ".join(palette.MONO_TINTS))
        self.mono = palette.MONO_TINTS[mono_tint]
        self._glyphs: dict[tuple, pygame.Surface] = {}
        self._last_key: tuple | None = None
        self._last_frame: pygame.Surface | None = None
        self.active_size = CGA_ACTIVE
        self.border = CGA_BORDER

    # -- public -----------------------------------------------------------------
    def render(self, machine: "Machine") -> pygame.Surface:
        """The current frame (border included); the same Surface again if nothing changed."""
        card = machine.video_card
        if card.memory_base == 0xB0000:
            key, draw = self._mono_plan(machine)
        else:
            key, draw = self._cga_plan(machine)
        if key != self._last_key or self._last_frame is None:
            self._last_frame = draw()
            self._last_key = key
        return self._last_frame

    @property
    def pixel_aspect(self) -> float:
        return pixel_aspect(*self.active_size)

    # -- CGA ----------------------------------------------------------------------
    def _cga_plan(self, m: "Machine"):
        card = m.video_card
        crtc = card.crtc
        mode, colour = card.mode_register, card.color_register
        self.active_size, self.border = CGA_ACTIVE, CGA_BORDER
        vram = m.memory.read(0xB8000, 0x4000)
        frame_no = int(m.clock.seconds() * CGA_FRAME_HZ)
        if not mode & 0x08:                           # video disabled: only the overscan colour
            key = ("cga-off", colour & 0x0F)
            return key, lambda: self._blank(palette.CGA[colour & 0x0F])
        if mode & 0x02:
            key = ("cga-gfx", mode, colour, crtc.start_address, vram)
            return key, lambda: self._cga_graphics(vram, mode, colour, crtc.start_address)
        layout = _text_layout(crtc, 80 if mode & 0x01 else 40)
        blink_on = (frame_no // 16) % 2 == 0
        cursor_on = _cursor_visible(crtc, frame_no)
        key = ("cga-text", mode, colour & 0x0F, tuple(crtc.registers[:16]), layout,
               blink_on if mode & 0x20 else None, cursor_on, vram)
        return key, lambda: self._cga_text(vram, mode, colour, crtc, layout, blink_on, cursor_on)

    def _cga_text(self, vram: bytes, mode: int, colour: int, crtc, layout, blink_on: bool,
                  cursor_on: bool) -> pygame.Surface:
        cols, rows, char_height = layout
        font = load_cp437_font(8)
        dot = 1 if mode & 0x01 else 2
        frame = self._blank(palette.CGA[colour & 0x0F])
        bx, by = self.border
        start = crtc.start_address
        blink_mode = bool(mode & 0x20)
        cursor_cell = (crtc.cursor_address - start) & 0x3FFF
        cursor_lines = _cursor_lines(crtc, char_height) if cursor_on else ()
        for row in range(rows):
            y = by + row * char_height
            for col in range(cols):
                cell = row * cols + col
                address = ((start + cell) * 2) & 0x3FFF
                char, attr = vram[address], vram[address + 1]
                fg, bg = attr & 0x0F, attr >> 4
                if blink_mode:
                    bg &= 0x07
                    if attr & 0x80 and not blink_on:
                        fg = bg
                lines = cursor_lines if cell == cursor_cell else ()
                glyph = self._glyph(font, char, palette.CGA[fg], palette.CGA[bg], char_height,
                                    dot, lines=lines)
                frame.blit(glyph, (bx + col * 8 * dot, y))
        return frame

    def _cga_graphics(self, vram: bytes, mode: int, colour: int, start: int) -> pygame.Surface:
        width, height = CGA_ACTIVE
        offset = start * 2
        banks = (vram[:0x2000], vram[0x2000:])         # even lines, odd lines
        lines = []
        for y in range(height):
            bank = banks[y & 1]
            first = (offset + (y >> 1) * 80) & 0x1FFF
            line = bank[first:first + 80]
            lines.append(line + bank[:80 - len(line)])  # the 6845 wraps within the bank
        if mode & 0x10:                                 # 640x200, one bit a dot
            pixels = b"".join(b"".join(_ONE_BIT[b] for b in line) for line in lines)
            colours = [(0, 0, 0), palette.CGA[colour & 0x0F]]
            border = (0, 0, 0)
        else:                                           # 320x200, two bits a (double) dot
            pixels = b"".join(b"".join(_TWO_BITS[b] for b in line) for line in lines)
            colours = list(palette.graphics_colours(mode, colour))
            border = palette.CGA[colour & 0x0F]
        picture = pygame.image.frombytes(pixels, (width, height), "P")
        picture.set_palette(colours + [(0, 0, 0)] * (256 - len(colours)))
        frame = self._blank(border)
        frame.blit(picture, self.border)
        return frame

    # -- MDA / Hercules -----------------------------------------------------------------
    def _mono_plan(self, m: "Machine"):
        card = m.video_card
        crtc = card.crtc
        mode = card.mode_register
        frame_no = int(m.clock.seconds() * MDA_FRAME_HZ)
        if getattr(card, "graphics", False):
            self.active_size, self.border = HERCULES_ACTIVE, MONO_BORDER
            base = 0xB8000 if card.graphics_page else 0xB0000
            vram = m.memory.read(base, 0x8000)
            key = ("herc-gfx", mode & 0x08, vram)
            return key, lambda: self._hercules_graphics(vram, bool(mode & 0x08))
        self.active_size, self.border = MDA_ACTIVE, MONO_BORDER
        vram = m.memory.read(0xB0000, 0x1000)
        if not mode & 0x08:
            return ("mda-off",), lambda: self._blank(self.mono[0])
        layout = _text_layout(crtc, 80)
        blink_on = (frame_no // 16) % 2 == 0
        cursor_on = _cursor_visible(crtc, frame_no)
        key = ("mda-text", mode & 0x20, tuple(crtc.registers[:16]), layout,
               blink_on if mode & 0x20 else None, cursor_on, vram)
        return key, lambda: self._mda_text(vram, mode, crtc, layout, blink_on, cursor_on)

    def _mda_text(self, vram: bytes, mode: int, crtc, layout, blink_on: bool,
                  cursor_on: bool) -> pygame.Surface:
        cols, rows, char_height = layout
        font = load_cp437_font(14)
        frame = self._blank(self.mono[0])
        bx, by = self.border
        start = crtc.start_address
        cursor_cell = (crtc.cursor_address - start) & 0x7FF
        cursor_lines = _cursor_lines(crtc, char_height) if cursor_on else ()
        for row in range(rows):
            for col in range(cols):
                cell = row * cols + col
                address = ((start + cell) * 2) & 0xFFF
                char, attr = vram[address], vram[address + 1]
                fg, bg, underline = mda_attribute(attr, bool(mode & 0x20), blink_on)
                lines = cursor_lines if cell == cursor_cell else ()
                glyph = self._glyph(font, char, self.mono[fg], self.mono[bg], char_height, 1,
                                    lines=lines, ninth=True, underline=underline)
                frame.blit(glyph, (bx + col * 9, by + row * char_height))
        return frame

    def _hercules_graphics(self, vram: bytes, enabled: bool) -> pygame.Surface:
        width, height = HERCULES_ACTIVE
        frame = self._blank(self.mono[0])
        if not enabled:
            return frame
        pixels = b"".join(
            b"".join(_ONE_BIT[b] for b in vram[0x2000 * (y & 3) + 90 * (y >> 2):
                                                      0x2000 * (y & 3) + 90 * (y >> 2) + 90])
            for y in range(height))
        picture = pygame.image.frombytes(pixels, (width, height), "P")
        picture.set_palette([self.mono[0], self.mono[1]] + [(0, 0, 0)] * 254)
        frame.blit(picture, self.border)
        return frame

    # -- pieces -----------------------------------------------------------------------
    def _blank(self, colour) -> pygame.Surface:
        width, height = self.active_size
        bx, by = self.border
        frame = pygame.Surface((width + 2 * bx, height + 2 * by))
        frame.fill(colour)
        return frame

    def _glyph(self, font: list[bytes], char: int, fg, bg, height: int, dot: int, *,
               lines=(), ninth: bool = False, underline: bool = False) -> pygame.Surface:
        """One character cell: the glyph in fg on bg, with the cursor's lines in fg."""
        key = (len(font[0]), char, fg, bg, height, dot, tuple(lines), ninth, underline)
        surface = self._glyphs.get(key)
        if surface is not None:
            return surface
        columns = 9 if ninth else 8
        surface = pygame.Surface((columns * dot, height))
        surface.fill(bg)
        rows = font[char]
        for y in range(height):
            bits = rows[y % len(rows)] if len(rows) == 8 else (rows[y] if y < len(rows) else 0)
            if ninth:
                bits = (bits << 1) | (bits & 1 if char in MDA_LINE_GRAPHICS else 0)
            if y in lines or (underline and y == MDA_UNDERLINE_LINE):
                bits = (1 << columns) - 1
            for x in range(columns):
                if bits & (1 << (columns - 1 - x)):
                    surface.fill(fg, (x * dot, y, dot, 1))
        self._glyphs[key] = surface
        return surface


def mda_attribute(attr: int, blink_enabled: bool, blink_on: bool) -> tuple[int, int, bool]:
    """(foreground level, background level, underlined) of an MDA attribute; levels 0-2.

    The MDA knows only these: 00h/08h/80h/88h show nothing; background 7 with
    foreground 0 is reverse video; foreground 1 is underlined; bit 3 makes the
    foreground intense; bit 7 blinks the character, or, with blinking off,
    makes a reverse cell's background intense.  Other colours read as normal.
    """
    fg_bits, bg_bits = attr & 0x07, (attr >> 4) & 0x07
    intense = bool(attr & 0x08)
    if fg_bits == 0 and bg_bits == 0:
        return 0, 0, False
    if fg_bits == 0 and bg_bits == 7:                   # reverse video
        bg = 2 if (attr & 0x80 and not blink_enabled) else 1
        fg = 0
        if attr & 0x80 and blink_enabled and not blink_on:
            fg = bg
        return fg, bg, False
    fg = 2 if intense else 1
    if attr & 0x80 and blink_enabled and not blink_on:
        fg = 0
    return fg, 0, fg_bits == 1


def _text_layout(crtc, mode_columns: int) -> tuple[int, int, int]:
    """(columns, rows, lines per row) from the 6845, bounded to what a monitor can show."""
    regs = crtc.registers
    cols = regs[0x01] if 0 < regs[0x01] <= mode_columns else mode_columns
    char_height = (regs[0x09] & 0x1F) + 1
    rows = regs[0x06] & 0x7F if 0 < regs[0x06] & 0x7F <= MAX_ROWS else 25
    rows = max(1, min(rows, MAX_LINES // char_height))
    return cols, rows, char_height


def _cursor_visible(crtc, frame_no: int) -> bool:
    """The 6845's cursor modes: 01 hides it; 11 blinks at 1/32, others at 1/16 of the frame rate."""
    mode = (crtc.registers[0x0A] >> 5) & 0x03
    if mode == 0x01:
        return False
    period = 32 if mode == 0x03 else 16
    return (frame_no % period) < period // 2


def _cursor_lines(crtc, char_height: int) -> tuple[int, ...]:
    """Scan lines the cursor covers; a start after the end wraps around (a split cursor)."""
    start, end = crtc.registers[0x0A] & 0x1F, crtc.registers[0x0B] & 0x1F
    if start <= end:
        return tuple(y for y in range(start, end + 1) if y < char_height)
    return tuple(y for y in range(char_height) if y >= start or y <= end)


def _expand(bits_per_pixel: int, double: bool) -> list[bytes]:
    """Byte of packed pixels -> their colour indices (each doubled for 320-dot modes)."""
    table = []
    per_byte = 8 // bits_per_pixel
    mask = (1 << bits_per_pixel) - 1
    for value in range(256):
        pixels = [(value >> (8 - bits_per_pixel * (i + 1))) & mask for i in range(per_byte)]
        if double:
            pixels = [p for p in pixels for _ in (0, 1)]
        table.append(bytes(pixels))
    return table


_TWO_BITS = _expand(2, True)
_ONE_BIT = _expand(1, False)


# -- screenshots ---------------------------------------------------------------------------
def render_scaled(machine: "Machine", scale: tuple[int, int] | None = None,
                  renderer: ScreenRenderer | None = None) -> pygame.Surface:
    """The frame scaled by whole numbers: by default lines doubled in 200-line modes
    (as DOSBox and most screenshots show the CGA), single in 350-line modes."""
    renderer = renderer or ScreenRenderer()
    frame = renderer.render(machine)
    if scale is None:
        scale = (1, 2) if renderer.active_size[1] <= 200 else (1, 1)
    dots, lines = scale
    if (dots, lines) == (1, 1):
        return frame.copy()
    return pygame.transform.scale(frame, (frame.get_width() * dots, frame.get_height() * lines))


def save_screenshot(machine: "Machine", path: str | Path, scale: tuple[int, int] | None = None) -> Path:
    """Write the screen as a PNG (no window needed); returns the path."""
    path = Path(path)
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise PcemuError(f"can't save a screenshot as {path.name}: name it .png "
                         f"(or {', '.join(sorted(IMAGE_SUFFIXES - {'.png'}))})")
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(render_scaled(machine, scale), str(path))
    return path

