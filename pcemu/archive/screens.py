"""What the screen shows, as a hash (to compare runs) and as a picture (for film strips).

``fingerprint`` hashes exactly what decides the picture: the card's mode and
colour registers, the 6845's start address and cursor, and the visible video
memory (the text page, or all of graphics memory).  Two runs whose
fingerprints agree showed the same screen.

``picture`` draws the screen with the front end's renderer
(``pcemu.frontend.display``) when it is installed; without it, frames fall
back to a plain rendering of the text cells with the CP437 ROM font
(``pcemu.fonts``) and the 16 CGA colours, without blink or cursor.
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from pcemu import screen as screenlib

if TYPE_CHECKING:
    from PIL import Image
    from pcemu.machine import Machine

# the 16 colours of the CGA's text attributes (IRGB, brown for colour 6)
CGA_COLOURS = [(0, 0, 0), (0, 0, 170), (0, 170, 0), (0, 170, 170), (170, 0, 0), (170, 0, 170),
               (170, 85, 0), (170, 170, 170), (85, 85, 85), (85, 85, 255), (85, 255, 85),
               (85, 255, 255), (255, 85, 85), (255, 85, 255), (255, 255, 85), (255, 255, 255)]
GRAPHICS_BYTES = {0xB8000: 0x4000, 0xB0000: 0x10000}


def fingerprint(m: "Machine") -> str:
    """A short hash of everything that decides what the monitor shows now."""
    card = m.video_card
    crtc = card.crtc
    base, columns, graphics = screenlib.geometry(m)
    digest = hashlib.sha1()
    digest.update(bytes((card.mode_register & 0xFF, getattr(card, "color_register", 0) & 0xFF,
                         getattr(card, "config_switch", 0) & 0xFF, columns, int(graphics))))
    if graphics:
        digest.update(m.memory.read(card.memory_base, GRAPHICS_BYTES.get(card.memory_base, 0x4000)))
    else:
        digest.update(m.memory.read(base, screenlib.ROWS * columns * 2))
        start, end, visible = crtc.cursor_shape
        digest.update(crtc.cursor_address.to_bytes(2, "little") + bytes((start, end, int(visible))))
    return digest.hexdigest()[:16]


class PictureMaker:
    """Screen pictures as Pillow images, from the front end's renderer when there is one."""

    def __init__(self) -> None:
        self.renderer = None
        self.fallback_reason = ""
        try:
            from pcemu.frontend import display
            self._display = display
            self.renderer = display.ScreenRenderer()
        except Exception as exc:                      # no pygame renderer: draw text cells here
            self._display = None
            self.fallback_reason = f"the front end's renderer is unavailable ({exc})"
        self._font: list[bytes] | None = None

    @property
    def uses_renderer(self) -> bool:
        return self.renderer is not None

    def picture(self, m: "Machine") -> "Image.Image":
        if self.renderer is not None:
            return self._rendered(m)
        return self._text_picture(m)

    def _rendered(self, m: "Machine") -> "Image.Image":
        import pygame
        from PIL import Image
        surface = self._display.render_scaled(m, renderer=self.renderer)
        size = surface.get_size()
        return Image.frombytes("RGB", size, pygame.image.tobytes(surface, "RGB"))

    def _text_picture(self, m: "Machine") -> "Image.Image":
        """The text cells drawn with the 8x8 CP437 font: 8x16 per cell (lines doubled)."""
        from PIL import Image
        cells = screenlib.text_cells(m)
        font = self._cp437_font()
        columns = len(cells[0])
        image = Image.new("RGB", (columns * 8, len(cells) * 16))
        pixels = image.load()
        for row, line in enumerate(cells):
            for col, (char, attr) in enumerate(line):
                fg, bg = CGA_COLOURS[attr & 0x0F], CGA_COLOURS[(attr >> 4) & 0x07]
                glyph = font[char] if font else bytes(8)
                for y in range(16):
                    bits = glyph[y // 2]
                    for x in range(8):
                        pixels[col * 8 + x, row * 16 + y] = fg if bits & (0x80 >> x) else bg
        return image

    def _cp437_font(self) -> list[bytes] | None:
        if self._font is None:
            try:
                from pcemu.fonts import load_cp437_font
                self._font = load_cp437_font(8)
            except Exception:
                self._font = []
        return self._font or None
