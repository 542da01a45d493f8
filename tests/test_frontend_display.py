"""The picture: video memory and card registers drawn as the monitor showed them.

The GINRUMMY tests check the original program's dealt hands pixel by pixel;
the others set up video memory and the card's registers by hand, to pin one
feature each (blink, cursor, start address, graphics palettes, the MDA's
attributes, Hercules graphics).
"""
from __future__ import annotations

from collections import Counter

import pygame
import pytest

from pcemu import Machine
from pcemu.errors import PcemuError
from pcemu.fonts import FontNotFound, load_cp437_font
from pcemu.frontend import palette
from pcemu.frontend.display import (CGA_BORDER, CGA_FRAME_HZ, MDA_UNDERLINE_LINE, MONO_BORDER,
                                    ScreenRenderer, mda_attribute, render_scaled, save_screenshot)
from pcemu.frontend.scaling import ASPECT_TOLERANCE, integer_scale, pixel_aspect, shape_error
from tests.machine_helpers import DISK1612, SHARED, com_program, needs_originals

DEAL = "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}"
DOSBOX_DEALT = SHARED / "reference" / "dosbox" / "ginrummy-3-dealt-open-hands.png"
RED, LIGHT_GREY, BLACK = palette.CGA[4], palette.CGA[7], palette.CGA[0]

try:
    load_cp437_font(8)
    load_cp437_font(14)
except FontNotFound as exc:                      # pragma: no cover - CI installs fonts-pc
    pytest.skip(f"no CP437 font on this system: {exc}", allow_module_level=True)


def rgb(surface: pygame.Surface, x: int, y: int) -> tuple[int, int, int]:
    return tuple(surface.get_at((x, y)))[:3]


def cell_pixels(frame, row: int, col: int, width: int = 8, height: int = 8,
                border=CGA_BORDER) -> list[list[tuple[int, int, int]]]:
    bx, by = border
    return [[rgb(frame, bx + col * width + x, by + row * height + y) for x in range(width)]
            for y in range(height)]


def at_frame(m: Machine, frame_number: int, hz: float = CGA_FRAME_HZ) -> None:
    """Put the virtual clock in the middle of a given display frame (blink phases follow it)."""
    m.clock.now = int((frame_number + 0.5) / hz * m.clock.ips)


@pytest.fixture(scope="module")
def dealt() -> Machine:
    if not DISK1612.exists():
        pytest.skip(f"the original disk image is not at {DISK1612} (../shared is absent)")
    m = Machine(disks=[f"B:{DISK1612}"])
    m.type(DEAL)
    return m


# -- GINRUMMY's dealt hands -------------------------------------------------------------------
@needs_originals
def test_every_cell_of_the_dealt_hands_is_its_glyph_in_its_colours(dealt):
    frame = ScreenRenderer().render(dealt)
    font = load_cp437_font(8)
    checked = 0
    for row, cells in enumerate(dealt.screen_cells()):
        for col, (char, attr) in enumerate(cells):
            if attr & 0x80:
                continue                           # blinking cells depend on the phase
            fg, bg = palette.CGA[attr & 0x0F], palette.CGA[attr >> 4]
            pixels = cell_pixels(frame, row, col)
            for y in range(8):
                for x in range(8):
                    expected = fg if font[char][y] & (0x80 >> x) else bg
                    assert pixels[y][x] == expected, (row, col, x, y)
            checked += 1
    assert checked > 1900


@needs_originals
def test_red_suits_are_red_on_a_white_card_and_black_suits_black(dealt):
    frame = ScreenRenderer().render(dealt)
    font = load_cp437_font(8)
    seen = set()
    for row in (1, 2, 7, 8):                       # the suit rows of both hands
        for col, (char, _attr) in enumerate(dealt.screen_cells()[row]):
            if char not in (3, 4, 5, 6):
                continue
            ink = RED if char in (3, 4) else BLACK
            pixels = cell_pixels(frame, row, col)
            assert {p for line in pixels for p in line} == {ink, LIGHT_GREY}
            lit = {(x, y) for y in range(8) for x in range(8) if pixels[y][x] == ink}
            assert lit == {(x, y) for y in range(8) for x in range(8) if font[char][y] & (0x80 >> x)}
            seen.add(char)
    assert seen == {3, 4, 5, 6}


@needs_originals
def test_the_border_is_the_colour_register_and_f10_changes_it(dealt):
    m = dealt                                      # F10 changes only the border the others ignore
    before = ScreenRenderer().render(m)
    colour = m.video_card.color_register & 0x0F
    assert rgb(before, 0, 0) == palette.CGA[colour]
    assert rgb(before, before.get_width() - 1, before.get_height() - 1) == palette.CGA[colour]
    assert rgb(before, CGA_BORDER[0] - 1, 100) == palette.CGA[colour]
    m.type("{F10}{TICKS:2}")
    after = ScreenRenderer().render(m)
    new_colour = m.video_card.color_register & 0x0F
    assert new_colour != colour                    # the program did change it...
    assert rgb(after, 0, 0) == palette.CGA[new_colour] != palette.CGA[colour]   # ...and we show it
    assert rgb(after, CGA_BORDER[0], CGA_BORDER[1]) == rgb(before, CGA_BORDER[0], CGA_BORDER[1])


@needs_originals
def test_redrawing_reuses_the_glyph_cache_and_an_unchanged_screen_is_not_redrawn(dealt):
    renderer = ScreenRenderer()
    first = renderer.render(dealt)
    glyphs = len(renderer._glyphs)
    assert renderer.render(dealt) is first                 # nothing changed: the same frame
    renderer._last_key = None                              # force a redraw of the same screen
    again = renderer.render(dealt)
    assert again is not first and len(renderer._glyphs) == glyphs
    assert pygame.image.tobytes(again, "RGB") == pygame.image.tobytes(first, "RGB")


@needs_originals
@pytest.mark.skipif(not DOSBOX_DEALT.exists(), reason=f"no DOSBox reference at {DOSBOX_DEALT}")
def test_the_static_rows_match_dosbox_cell_for_cell_in_colour(dealt):
    """DOSBox (machine=cga) drew the same screen on another day: the hands differ, the layout
    and colours of the score boxes and legend (rows 18-20 and 22-24) must not."""
    ours = render_scaled(dealt)                    # lines doubled, like DOSBox's 640x400
    theirs = pygame.image.load(str(DOSBOX_DEALT))
    assert {rgb(theirs, x, y) for y in range(0, 400, 3) for x in range(0, 640, 3)} <= set(palette.CGA)
    bx, by = CGA_BORDER[0], CGA_BORDER[1] * 2
    for row in (18, 19, 20, 22, 23, 24):
        for col in range(80):
            mine = Counter(rgb(ours, bx + col * 8 + x, by + row * 16 + y) for y in range(16) for x in range(8))
            dosbox = Counter(rgb(theirs, col * 8 + x, row * 16 + y) for y in range(16) for x in range(8))
            assert set(mine) == set(dosbox), (row, col)


@needs_originals
def test_screenshots_are_pngs_of_the_scaled_frame(dealt, tmp_path):
    path = save_screenshot(dealt, tmp_path / "shots" / "dealt.png")
    picture = pygame.image.load(str(path))
    assert picture.get_size() == (640 + 2 * CGA_BORDER[0], 2 * (200 + 2 * CGA_BORDER[1]))
    with pytest.raises(PcemuError, match="name it .png"):
        save_screenshot(dealt, tmp_path / "dealt.txt")


# -- CGA text, set up by hand ------------------------------------------------------------------
def cga_text_machine(mode_register: int = 0x29) -> Machine:
    m = Machine(boot=False)
    m.memory.write(0xB8000, b"\x20\x07" * 8192)
    m.video_card.mode_register = mode_register
    m.video_card.color_register = 0
    m.video_card.crtc.registers[0x0A] = 0x20           # no cursor unless a test wants one
    return m


def test_blink_bit_blinks_with_mode_bit_5_and_brightens_the_background_without_it():
    m = cga_text_machine(0x29)                         # 80x25, blink enabled
    m.memory.write(0xB8000, bytes([0xDB, 0x9E]))       # █ yellow on blue, blink bit set
    at_frame(m, 3)                                     # blink phase on (frames 0-15)
    on = cell_pixels(ScreenRenderer().render(m), 0, 0)
    at_frame(m, 20)                                    # off (frames 16-31)
    off = cell_pixels(ScreenRenderer().render(m), 0, 0)
    assert on[0][0] == palette.CGA[0x0E] and off[0][0] == palette.CGA[0x01]
    m.video_card.mode_register = 0x09                  # bit 5 clear: bit 7 is background intensity
    m.memory.write(0xB8000, bytes([0x20, 0x9E]))
    bright = cell_pixels(ScreenRenderer().render(m), 0, 0)
    assert bright[0][0] == palette.CGA[0x09]           # light blue background, steady


def test_the_cursor_follows_the_6845_shape_position_and_blink():
    m = cga_text_machine()
    crtc = m.video_card.crtc
    crtc.registers[0x0A], crtc.registers[0x0B] = 0x06, 0x07
    crtc.registers[0x0E], crtc.registers[0x0F] = 0x00, 80 * 2 + 5     # row 2, column 5
    m.memory.write(0xB8000 + (80 * 2 + 5) * 2, bytes([0x20, 0x1C]))   # light red on blue
    at_frame(m, 2)
    pixels = cell_pixels(ScreenRenderer().render(m), 2, 5)
    assert [line[0] for line in pixels] == [palette.CGA[1]] * 6 + [palette.CGA[0x0C]] * 2
    at_frame(m, 10)                                    # the cursor's off half (8 frames of 16)
    assert {p for line in cell_pixels(ScreenRenderer().render(m), 2, 5) for p in line} == {palette.CGA[1]}
    crtc.registers[0x0A] = 0x07 | 0x20                 # "no cursor"
    at_frame(m, 2)
    assert {p for line in cell_pixels(ScreenRenderer().render(m), 2, 5) for p in line} == {palette.CGA[1]}
    crtc.registers[0x0A], crtc.registers[0x0B] = 0x06, 0x01           # start after end: split
    pixels = cell_pixels(ScreenRenderer().render(m), 2, 5)
    assert [line[0] == palette.CGA[0x0C] for line in pixels] == [True, True, False, False, False,
                                                                   False, True, True]


def test_the_start_address_selects_the_page_shown():
    m = cga_text_machine()
    m.memory.write(0xB8000 + 0x1000, bytes([0xDB, 0x0A]))     # page 1, top left: green block
    crtc = m.video_card.crtc
    assert cell_pixels(ScreenRenderer().render(m), 0, 0)[0][0] == BLACK
    crtc.registers[0x0C], crtc.registers[0x0D] = 0x08, 0x00   # start at word 800h = page 1
    assert cell_pixels(ScreenRenderer().render(m), 0, 0)[0][0] == palette.CGA[0x0A]


def test_forty_columns_have_double_width_dots():
    m = cga_text_machine(0x28)                                  # 40x25 colour
    m.video_card.crtc.registers[0x01] = 40
    m.memory.write(0xB8000, bytes([0xDB, 0x04, ord("!"), 0x0F]))
    frame = ScreenRenderer().render(m)
    first = cell_pixels(frame, 0, 0, width=16)
    assert {p for line in first for p in line} == {RED}
    font = load_cp437_font(8)
    second = cell_pixels(frame, 0, 1, width=16)
    for y in range(8):
        for x in range(16):
            lit = bool(font[ord("!")][y] & (0x80 >> (x // 2)))
            assert (second[y][x] == palette.CGA[0x0F]) == lit


def test_video_disabled_shows_only_the_border_colour():
    m = cga_text_machine(0x21)                                  # bit 3 clear
    m.video_card.color_register = 0x02
    m.memory.write(0xB8000, bytes([0xDB, 0x0F]))
    frame = ScreenRenderer().render(m)
    assert {rgb(frame, x, y) for x in range(0, frame.get_width(), 7)
            for y in range(0, frame.get_height(), 5)} == {palette.CGA[2]}


# -- CGA graphics -------------------------------------------------------------------------------
def graphics_machine(mode_register: int, color_register: int) -> Machine:
    m = Machine(boot=False)
    m.memory.fill(0xB8000, 0x4000, 0)
    m.video_card.mode_register = mode_register
    m.video_card.color_register = color_register
    return m


def dots(frame, y: int, count: int, step: int = 2) -> list[tuple[int, int, int]]:
    bx, by = CGA_BORDER
    return [rgb(frame, bx + i * step, by + y) for i in range(count)]


@pytest.mark.parametrize("mode_register, color_register, expected", [
    (0x0A, 0x01, [1, 2, 4, 6]),           # palette 0, low intensity: green, red, BROWN
    (0x0A, 0x11, [1, 10, 12, 14]),        # palette 0, intense: light green, light red, yellow
    (0x0A, 0x20, [0, 3, 5, 7]),           # palette 1: cyan, magenta, light grey
    (0x0A, 0x30, [0, 11, 13, 15]),        # palette 1, intense
    (0x0E, 0x00, [0, 3, 4, 7]),           # mode 5 (bit 2): cyan, red, light grey
])
def test_320_dot_graphics_use_the_selected_palette(mode_register, color_register, expected):
    m = graphics_machine(mode_register, color_register)
    m.memory[0xB8000] = 0b00_01_10_11                   # dots 0-3: colours 0, 1, 2, 3
    frame = ScreenRenderer().render(m)
    assert dots(frame, 0, 4) == [palette.CGA[c] for c in expected]
    assert rgb(frame, 0, 0) == palette.CGA[color_register & 0x0F]      # border = background


def test_320_dot_graphics_interleave_odd_lines_at_2000h_and_follow_the_start_address():
    m = graphics_machine(0x0A, 0x30)
    m.memory[0xB8000 + 0x2000] = 0xFF                    # line 1, dots 0-3: colour 3
    m.memory[0xB8000 + 80] = 0x55                        # line 2, dots 0-3: colour 1
    frame = ScreenRenderer().render(m)
    assert dots(frame, 0, 1) == [BLACK]
    assert dots(frame, 1, 4) == [palette.CGA[15]] * 4
    assert dots(frame, 2, 4) == [palette.CGA[11]] * 4
    m.video_card.crtc.registers[0x0C], m.video_card.crtc.registers[0x0D] = 0, 40   # 80 bytes on
    assert dots(ScreenRenderer().render(m), 0, 4) == [palette.CGA[11]] * 4


def test_640_dot_graphics_draw_in_the_colour_register_on_black():
    m = graphics_machine(0x1E, 0x0E)                     # mode 6, yellow ink
    m.memory[0xB8000] = 0b1010_0000
    frame = ScreenRenderer().render(m)
    assert dots(frame, 0, 4, step=1) == [palette.CGA[14], BLACK, palette.CGA[14], BLACK]
    assert rgb(frame, 0, 0) == BLACK


def test_brown_is_the_5153s_dark_yellow():
    assert palette.CGA[6] == (0xAA, 0x55, 0x00)
    assert palette.CGA[14] == (0xFF, 0xFF, 0x55)
    assert len(set(palette.CGA)) == 16


# -- MDA and Hercules -----------------------------------------------------------------------------
@pytest.mark.parametrize("attr, blink_enabled, blink_on, expected", [
    (0x07, True, True, (1, 0, False)), (0x0F, True, True, (2, 0, False)),
    (0x01, True, True, (1, 0, True)), (0x09, True, True, (2, 0, True)),
    (0x70, True, True, (0, 1, False)), (0x00, True, True, (0, 0, False)),
    (0x88, True, True, (0, 0, False)), (0x87, True, False, (0, 0, False)),
    (0x87, True, True, (1, 0, False)), (0xF0, False, True, (0, 2, False)),
    (0x17, True, True, (1, 0, False)),                   # colours the MDA lacks read as normal
])
def test_mda_attributes(attr, blink_enabled, blink_on, expected):
    assert mda_attribute(attr, blink_enabled, blink_on) == expected


def test_mda_cells_are_nine_dots_with_underline_reverse_and_line_graphics():
    m = Machine(video="mda", boot=False)
    m.memory.write(0xB0000, b"\x20\x07" * 2000)
    m.video_card.mode_register = 0x29
    m.video_card.crtc.registers[0x0A] = 0x20
    cells = bytes([0x20, 0x01, 0x20, 0x70, 0xC4, 0x0F, ord("A"), 0x0F])
    m.memory.write(0xB0000, cells)
    renderer = ScreenRenderer("green")
    frame = renderer.render(m)
    off, normal, intense = palette.MONO_TINTS["green"]
    underline = cell_pixels(frame, 0, 0, 9, 14, MONO_BORDER)
    assert underline[MDA_UNDERLINE_LINE] == [normal] * 9
    assert all(p == off for y, line in enumerate(underline) if y != MDA_UNDERLINE_LINE for p in line)
    assert {p for line in cell_pixels(frame, 0, 1, 9, 14, MONO_BORDER) for p in line} == {normal}
    line_char = cell_pixels(frame, 0, 2, 9, 14, MONO_BORDER)
    assert any(line[8] == intense for line in line_char)      # ─ reaches the 9th dot...
    letter = cell_pixels(frame, 0, 3, 9, 14, MONO_BORDER)
    assert all(line[8] == off for line in letter)             # ...a letter never does
    assert any(p == intense for line in letter for p in line)
    assert renderer.active_size == (720, 350)


def test_hercules_graphics_pages_and_banks():
    m = Machine(video="hercules", boot=False)
    card = m.video_card
    card.config_switch = 0x03
    card.mode_register = 0x0A                                 # graphics, video on, page 0
    m.memory.fill(0xB0000, 0x10000, 0)
    m.memory[0xB0000 + 0x2000] = 0x80                         # line 1 (bank 1), dot 0
    m.memory[0xB0000 + 0x6000 + 90] = 0x01                    # line 7 (bank 3, row 1), dot 7
    m.memory[0xB8000] = 0xFF                                  # page 1, line 0
    renderer = ScreenRenderer("amber")
    frame = renderer.render(m)
    off, normal, _ = palette.MONO_TINTS["amber"]
    bx, by = MONO_BORDER
    assert renderer.active_size == (720, 348)
    assert rgb(frame, bx, by + 1) == normal and rgb(frame, bx + 1, by + 1) == off
    assert rgb(frame, bx + 7, by + 7) == normal and rgb(frame, bx, by) == off
    card.mode_register = 0x8A                                 # page 1
    frame = ScreenRenderer("amber").render(m)
    assert [rgb(frame, bx + x, by) for x in range(9)] == [normal] * 8 + [off]


def test_an_unknown_mono_tint_is_a_clear_error():
    with pytest.raises(ValueError, match="choose green, amber, white"):
        ScreenRenderer("purple")


# -- scaling ----------------------------------------------------------------------------------------
def test_integer_scales_keep_the_crt_shape():
    cga = pixel_aspect(640, 200)
    width, height = 640 + 2 * CGA_BORDER[0], 200 + 2 * CGA_BORDER[1]
    assert integer_scale(width, height, cga, 800, 600) == (1, 2)
    assert integer_scale(width, height, cga, 1920, 1080) == (2, 5)
    a, b = integer_scale(width, height, cga, 4000, 3000)           # the biggest of good shape
    assert shape_error(a, b, cga) <= ASPECT_TOLERANCE and a * width <= 4000 and b * height <= 3000
    assert not any(shape_error(x, y, cga) <= ASPECT_TOLERANCE and x * y > a * b
                   for x in range(1, 8) for y in range(1, 20) if x * width <= 4000 and y * height <= 3000)
    assert integer_scale(width, height, cga, 100, 100) == (1, 1)   # nothing fits: native
    mda = pixel_aspect(720, 350)
    assert integer_scale(738, 364, mda, 1600, 1200) == (2, 3)


# -- what programs do: INT 10h services and the card's ports ----------------------------------
def run_program(tmp_path, source: str, **machine) -> Machine:
    """Boot, run PROG.COM from a host folder until it halts in its last loop."""
    code = "\n".join(line.split(";")[0] for line in source.splitlines())   # keystone: ';' separates
    folder = com_program(tmp_path, "PROG.COM", code + "\nsti\nidle:\nhlt\njmp idle\n")
    m = Machine(host_dirs={"C": folder}, **machine)
    m.type("C:{ENTER}PROG{ENTER}")
    m.run(9)
    return m


def test_int10h_pixels_and_direct_writes_show_in_320_dot_graphics(tmp_path):
    m = run_program(tmp_path, """
        mov ax, 0x0004
        int 0x10                ; 320x200 4 colours
        mov ax, 0x0B00
        mov bx, 0x0101          ; palette 1: cyan, magenta, light grey
        int 0x10
        mov ax, 0x0B00
        mov bx, 0x0002          ; background and border green
        int 0x10
        mov ax, 0x0C03
        xor bh, bh
        mov cx, 10
        mov dx, 5               ; an odd line: the 2000h bank
        int 0x10
        mov ax, 0x0C02
        mov cx, 319
        mov dx, 199
        int 0x10
        mov ax, 0xB800
        mov es, ax
        mov byte ptr es:[0], 0x1B    ; direct write: dots 0-3 are colours 0, 1, 2, 3
    """)
    frame = ScreenRenderer().render(m)
    bx, by = CGA_BORDER

    def dot(x, y):
        return rgb(frame, bx + 2 * x, by + y)
    assert [dot(x, 0) for x in range(4)] == [palette.CGA[c] for c in (2, 3, 5, 7)]
    assert dot(10, 5) == palette.CGA[7] and dot(11, 5) == dot(10, 4) == palette.CGA[2]
    assert dot(319, 199) == palette.CGA[5]
    assert rgb(frame, 0, 0) == palette.CGA[2]                  # the border


def test_int10h_pixels_and_direct_writes_show_in_640_dot_graphics(tmp_path):
    m = run_program(tmp_path, """
        mov ax, 0x0006
        int 0x10                ; 640x200 2 colours
        mov ax, 0x0C01
        xor bh, bh
        mov cx, 639
        mov dx, 199
        int 0x10
        mov ah, 0x0D            ; read it back into 0000:04F0
        int 0x10
        xor bx, bx
        mov es, bx
        mov byte ptr es:[0x4F0], al
        mov ax, 0xB800
        mov es, ax
        mov byte ptr es:[0x2000], 0x81   ; line 1: dots 0 and 7
    """)
    frame = ScreenRenderer().render(m)
    bx, by = CGA_BORDER
    white = palette.CGA[15]
    assert m.memory[0x4F0] == 1
    assert rgb(frame, bx + 639, by + 199) == white and rgb(frame, bx + 638, by + 199) == BLACK
    assert [rgb(frame, bx + x, by + 1) for x in range(8)] == [white] + [BLACK] * 6 + [white]


def test_text_border_blink_switch_and_40_columns_set_by_a_program(tmp_path):
    m = run_program(tmp_path, """
        mov ax, 0x0001
        int 0x10                ; 40x25 colour text
        mov ax, 0x0B00
        mov bx, 0x0004          ; border red through the BIOS
        int 0x10
        mov ax, 0xB800
        mov es, ax
        mov word ptr es:[0], 0x9E41      ; 'A' yellow on blue, attribute bit 7 set
        mov dx, 0x3D8
        mov al, 0x08            ; mode register: 40 columns, video on, blink off
        out dx, al
    """)
    frame = ScreenRenderer().render(m)
    assert rgb(frame, 0, 0) == palette.CGA[4]
    cell = cell_pixels(frame, 0, 0, width=16)
    assert {p for line in cell for p in line} == {palette.CGA[0x09], palette.CGA[0x0E]}   # light blue
    m2 = run_program(tmp_path, "mov dx, 0x3D9\nmov al, 0x05\nout dx, al\n")
    assert rgb(ScreenRenderer().render(m2), 0, 0) == palette.CGA[5]       # 3D9h written directly


def test_hercules_graphics_set_up_by_a_program_show_its_direct_writes(tmp_path):
    """The usual Hercules start-up: allow graphics (3BFh), graphics mode with video off,
    the 6845's graphics timings, video on; then dots written straight into B000h."""
    m = run_program(tmp_path, """
        mov dx, 0x3BF
        mov al, 1
        out dx, al
        mov dx, 0x3B8
        mov al, 0x02
        out dx, al
        mov si, table
        xor ah, ah
    crtc:
        mov dx, 0x3B4
        mov al, ah
        out dx, al
        inc dx
        mov al, byte ptr [si]
        out dx, al
        inc si
        inc ah
        cmp ah, 12
        jb crtc
        mov dx, 0x3B8
        mov al, 0x0A
        out dx, al
        mov ax, 0xB000
        mov es, ax
        xor di, di
        xor ax, ax
        mov cx, 0x4000
        rep stosw
        mov byte ptr es:[0x2000], 0x80      ; line 1, dot 0
        mov byte ptr es:[0x6000 + 89], 0x01 ; line 3, dot 719
        jmp done
    table:
        .byte 0x35, 0x2D, 0x2E, 0x07, 0x5B, 0x02, 0x57, 0x57, 0x02, 0x03, 0x00, 0x00
    done:
    """, video="hercules")
    renderer = ScreenRenderer("white")
    frame = renderer.render(m)
    off, normal, _ = palette.MONO_TINTS["white"]
    bx, by = MONO_BORDER
    assert renderer.active_size == (720, 348)
    assert rgb(frame, bx, by + 1) == normal and rgb(frame, bx + 1, by + 1) == off
    assert rgb(frame, bx + 719, by + 3) == normal and rgb(frame, bx + 718, by + 3) == off
    assert rgb(frame, bx, by) == off
