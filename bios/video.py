"""INT 10h, the video BIOS of an IBM AT with a CGA or an MDA/Hercules card.

Everything a program can observe lives in guest memory or on the card: the
mode, columns, page size, page offset, cursor positions and shape in the BIOS
data area; characters and attributes in video memory; the cursor and start
address in the 6845.  Functions the CGA BIOS does not have (EGA/VGA ones such as
10h-12h and 1Ah) return with the registers unchanged, as on the real card,
which is how programs detect that there is no EGA.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import bda
from bios.rom import ROM_BASE
from bios.services import ServiceTable

if TYPE_CHECKING:
    from bios.context import ServiceContext

video = ServiceTable(0x10, "video", on_unknown=lambda ctx: ctx.call.count_service("INT 10h not on this card"))

# mode -> (columns, rows, graphics, bits per pixel, CGA mode register)
MODES = {
    0: (40, 25, False, 0, 0x2C), 1: (40, 25, False, 0, 0x28),
    2: (80, 25, False, 0, 0x2D), 3: (80, 25, False, 0, 0x29),
    4: (40, 25, True, 2, 0x2A), 5: (40, 25, True, 2, 0x2E),
    6: (80, 25, True, 1, 0x1E), 7: (80, 25, False, 0, 0x29),
}
PAGE_SIZES = {0: 0x800, 1: 0x800, 2: 0x1000, 3: 0x1000, 4: 0x4000, 5: 0x4000, 6: 0x4000, 7: 0x1000}
ROM_FONT = 0xFFA6E


# -- state helpers --------------------------------------------------------------
def _b(ctx: "ServiceContext", off: int) -> int:
    return ctx.memory[bda.BDA + off]


def _w(ctx: "ServiceContext", off: int) -> int:
    return ctx.memory.read_word(bda.BDA + off)


def mode(ctx: "ServiceContext") -> int:
    return _b(ctx, bda.VIDEO_MODE)


def columns(ctx: "ServiceContext") -> int:
    return _w(ctx, bda.VIDEO_COLUMNS) or 80


def is_graphics(ctx: "ServiceContext") -> bool:
    return MODES.get(mode(ctx), MODES[3])[2]


def video_base(ctx: "ServiceContext") -> int:
    return 0xB0000 if mode(ctx) == 7 else 0xB8000


def page_base(ctx: "ServiceContext", page: int) -> int:
    return video_base(ctx) + page * _w(ctx, bda.VIDEO_PAGE_SIZE)


def cursor(ctx: "ServiceContext", page: int) -> tuple[int, int]:
    pos = _w(ctx, bda.CURSOR_POSITIONS + 2 * (page & 7))
    return pos >> 8, pos & 0xFF


def set_cursor(ctx: "ServiceContext", page: int, row: int, col: int) -> None:
    ctx.memory.write_word(bda.BDA + bda.CURSOR_POSITIONS + 2 * (page & 7), ((row & 0xFF) << 8) | (col & 0xFF))
    if (page & 7) == _b(ctx, bda.ACTIVE_PAGE):
        address = (_w(ctx, bda.VIDEO_PAGE_OFFSET) >> 1) + row * columns(ctx) + col
        ctx.devices.video_card.crtc.registers[0x0E] = (address >> 8) & 0xFF
        ctx.devices.video_card.crtc.registers[0x0F] = address & 0xFF


def cell_address(ctx: "ServiceContext", page: int, row: int, col: int) -> int:
    return page_base(ctx, page) + (row * columns(ctx) + col) * 2


# -- text output primitives (shared with DOS console output) ---------------------
def write_cells(ctx: "ServiceContext", page: int, row: int, col: int, char: int, attr: int | None,
                count: int) -> None:
    """Write ``count`` copies of char (and attr) from row/col on, wrapping across rows."""
    if is_graphics(ctx):
        for i in range(count):
            r, c = divmod(col + i, columns(ctx))
            if row + r >= 25:
                break
            draw_graphics_char(ctx, row + r, c, char, attr if attr is not None else 1)
        return
    start = cell_address(ctx, page, row, col)
    limit = page_base(ctx, page) + _w(ctx, bda.VIDEO_PAGE_SIZE)
    count = max(0, min(count, (limit - start) // 2))
    mem = ctx.memory
    if attr is None:
        for i in range(count):
            mem[start + 2 * i] = char
    else:
        mem.write(start, bytes((char, attr)) * count)


def scroll(ctx: "ServiceContext", lines: int, attr: int, top: int, left: int, bottom: int, right: int,
           up: bool, page: int | None = None) -> None:
    cols = columns(ctx)
    right = min(right, cols - 1)
    bottom = min(bottom, 24)
    if top > bottom or left > right:
        return
    height = bottom - top + 1
    if lines == 0 or lines > height:
        lines = height
    if is_graphics(ctx):
        _scroll_graphics(ctx, lines, attr, top, left, bottom, right, up)
        return
    if page is None:
        page = _b(ctx, bda.ACTIVE_PAGE)
    mem = ctx.memory
    width = (right - left + 1) * 2
    rows = range(top, bottom + 1 - lines) if up else range(bottom, top - 1 + lines, -1)
    for row in rows:
        source = row + lines if up else row - lines
        mem.write(cell_address(ctx, page, row, left), mem.read(cell_address(ctx, page, source, left), width))
    blank_rows = range(bottom + 1 - lines, bottom + 1) if up else range(top, top + lines)
    for row in blank_rows:
        mem.write(cell_address(ctx, page, row, left), bytes((0x20, attr)) * (right - left + 1))


def teletype(ctx: "ServiceContext", char: int, color: int = 7, page: int | None = None) -> None:
    """Write one character as a terminal does: BEL, BS, CR, LF move, others print."""
    if page is None:
        page = _b(ctx, bda.ACTIVE_PAGE)
    row, col = cursor(ctx, page)
    cols = columns(ctx)
    if char == 0x07:
        ctx.events.beep.emit()
        return
    if char == 0x08:
        col = max(0, col - 1)
    elif char == 0x0D:
        col = 0
    elif char == 0x0A:
        row += 1
    else:
        write_cells(ctx, page, row, col, char, color if is_graphics(ctx) else None, 1)
        col += 1
        if col >= cols:
            col = 0
            row += 1
    if row >= 25:
        row = 24
        fill = 0 if is_graphics(ctx) else ctx.memory[cell_address(ctx, page, 24, cols - 1) + 1]
        scroll(ctx, 1, fill, 0, 0, 24, cols - 1, up=True, page=page)
    set_cursor(ctx, page, row, col)


# -- graphics ------------------------------------------------------------------------
def _pixel_location(ctx: "ServiceContext", x: int, y: int) -> tuple[int, int, int]:
    """(address, shift, mask) of pixel x,y in CGA graphics memory."""
    bpp = MODES[mode(ctx)][3]
    offset = (y & 1) * 0x2000 + (y >> 1) * 80
    if bpp == 2:
        return 0xB8000 + offset + (x >> 2), (3 - (x & 3)) * 2, 0x03
    return 0xB8000 + offset + (x >> 3), 7 - (x & 7), 0x01


def write_pixel(ctx: "ServiceContext", x: int, y: int, color: int) -> None:
    if not is_graphics(ctx):
        return
    address, shift, mask = _pixel_location(ctx, x, y)
    value = ctx.memory[address]
    bits = (color & mask) << shift
    if color & 0x80:
        value ^= bits
    else:
        value = (value & ~(mask << shift)) | bits
    ctx.memory[address] = value


def read_pixel(ctx: "ServiceContext", x: int, y: int) -> int:
    address, shift, mask = _pixel_location(ctx, x, y)
    return (ctx.memory[address] >> shift) & mask


def _glyph(ctx: "ServiceContext", char: int) -> bytes:
    if char < 0x80:
        return ctx.memory.read(ROM_FONT + char * 8, 8)
    seg = ctx.memory.read_word(0x1F * 4 + 2)
    off = ctx.memory.read_word(0x1F * 4)
    if seg == 0 and off == 0:
        return bytes(8)
    return ctx.memory.read_far(seg, off + (char - 0x80) * 8, 8)


def draw_graphics_char(ctx: "ServiceContext", row: int, col: int, char: int, color: int) -> None:
    glyph = _glyph(ctx, char)
    bpp = MODES[mode(ctx)][3]
    for line in range(8):
        bits = glyph[line]
        y = row * 8 + line
        if bpp == 1:
            address = 0xB8000 + (y & 1) * 0x2000 + (y >> 1) * 80 + col
            ctx.memory[address] = (ctx.memory[address] ^ bits) if color & 0x80 else bits
        else:
            value = 0
            for i in range(8):
                if bits & (0x80 >> i):
                    value |= (color & 3) << ((7 - i) * 2)
            address = 0xB8000 + (y & 1) * 0x2000 + (y >> 1) * 80 + col * 2
            word = bytes([value >> 8, value & 0xFF])
            if color & 0x80:
                word = bytes(a ^ b for a, b in zip(word, ctx.memory.read(address, 2)))
            ctx.memory.write(address, word)


def _scroll_graphics(ctx, lines, attr, top, left, bottom, right, up) -> None:
    bpp = MODES[mode(ctx)][3]
    bytes_per_col = 2 if bpp == 2 else 1
    x0, width = left * bytes_per_col, (right - left + 1) * bytes_per_col
    fill_value = 0
    if bpp == 2:
        fill_value = (attr & 3) * 0x55
    elif attr & 1:
        fill_value = 0xFF
    def line_address(y: int) -> int:
        return 0xB8000 + (y & 1) * 0x2000 + (y >> 1) * 80 + x0
    char_rows = range(top, bottom + 1 - lines) if up else range(bottom, top - 1 + lines, -1)
    for row in char_rows:
        source = row + lines if up else row - lines
        for line in range(8):
            ctx.memory.write(line_address(row * 8 + line), ctx.memory.read(line_address(source * 8 + line), width))
    blank = range(bottom + 1 - lines, bottom + 1) if up else range(top, top + lines)
    for row in blank:
        for line in range(8):
            ctx.memory.write(line_address(row * 8 + line), bytes([fill_value]) * width)


# -- the functions ------------------------------------------------------------------
@video.function(0x00)
def set_mode(ctx: "ServiceContext") -> None:
    requested = ctx.cpu.al
    number = requested & 0x7F
    mono_card = ctx.devices.video_card.memory_base == 0xB0000
    if mono_card:
        number = 7                       # the MDA has one mode
    elif number == 7 or number not in MODES:
        number = 3 if number == 7 else number
        if number not in MODES:
            ctx.call.count_service("INT 10h mode not on this card")
            return
    cols, _rows, graphics, _bpp, mode_register = MODES[number]
    mem = ctx.memory
    mem[bda.BDA + bda.VIDEO_MODE] = number
    mem.write_word(bda.BDA + bda.VIDEO_COLUMNS, cols)
    mem.write_word(bda.BDA + bda.VIDEO_PAGE_SIZE, PAGE_SIZES[number])
    mem.write_word(bda.BDA + bda.VIDEO_PAGE_OFFSET, 0)
    mem.fill(bda.BDA + bda.CURSOR_POSITIONS, 16, 0)
    mem[bda.BDA + bda.ACTIVE_PAGE] = 0
    mem[bda.BDA + bda.CRT_MODE_REGISTER] = mode_register
    palette = 0x3F if number == 6 else 0x30
    mem[bda.BDA + bda.CRT_PALETTE] = palette
    card = ctx.devices.video_card
    card.mode_register = mode_register if not mono_card else 0x29
    if not mono_card:
        card.color_register = palette
    table = {0: 0, 1: 0, 2: 16, 3: 16, 4: 32, 5: 32, 6: 32, 7: 48}[number]
    card.crtc.registers[:16] = list(ctx.memory.read(ROM_BASE + 0xF0A4 + table, 16))
    shape = 0x0B0C if number == 7 else 0x0607
    mem.write_word(bda.BDA + bda.CURSOR_SHAPE, shape)
    card.crtc.registers[0x0A], card.crtc.registers[0x0B] = shape >> 8, shape & 0xFF
    if not requested & 0x80:
        if graphics:
            mem.fill(0xB8000, 0x4000, 0)
        else:
            blank_text_buffer(mem, mono=number == 7)
    ctx.events.video_mode.emit(number)


def blank_text_buffer(mem, mono: bool) -> None:
    """Spaces in grey on black (0720h) over the card's whole text buffer, as a text mode set
    (and so POST) leaves it: 16 KB on the CGA, 4 KB on the MDA."""
    base, words = (0xB0000, 0x800) if mono else (0xB8000, 0x2000)
    mem.write(base, b"\x20\x07" * words)


@video.function(0x01)
def set_cursor_shape(ctx: "ServiceContext") -> None:
    cx = ctx.cpu.cx
    crtc = ctx.devices.video_card.crtc.registers
    if ctx.memory.read_word(bda.BDA + bda.CURSOR_SHAPE) == cx:
        ctx.call.idle_neutral()                 # the same shape again changes nothing (EZT's idle loop)
        if (crtc[0x0A], crtc[0x0B]) == (cx >> 8, cx & 0xFF):
            ctx.call.pure_answer()
    ctx.memory.write_word(bda.BDA + bda.CURSOR_SHAPE, cx)
    ctx.devices.video_card.crtc.registers[0x0A] = cx >> 8
    ctx.devices.video_card.crtc.registers[0x0B] = cx & 0xFF


@video.function(0x02)
def set_cursor_position(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    set_cursor(ctx, cpu.bh, cpu.dh, cpu.dl)


@video.function(0x03)
def get_cursor(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    row, col = cursor(ctx, cpu.bh)
    cpu.dx = (row << 8) | col
    cpu.cx = _w(ctx, bda.CURSOR_SHAPE)
    ctx.call.pure_answer()


@video.function(0x04)
def read_light_pen(ctx: "ServiceContext") -> None:
    ctx.cpu.ah = 0                         # pen not triggered


@video.function(0x05)
def select_page(ctx: "ServiceContext") -> None:
    page = ctx.cpu.al & 7
    offset = page * _w(ctx, bda.VIDEO_PAGE_SIZE)
    ctx.memory[bda.BDA + bda.ACTIVE_PAGE] = page
    ctx.memory.write_word(bda.BDA + bda.VIDEO_PAGE_OFFSET, offset)
    start = offset >> 1
    ctx.devices.video_card.crtc.registers[0x0C] = start >> 8
    ctx.devices.video_card.crtc.registers[0x0D] = start & 0xFF
    row, col = cursor(ctx, page)
    set_cursor(ctx, page, row, col)


@video.function(0x06, 0x07)
def scroll_window(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    scroll(ctx, cpu.al, cpu.bh, cpu.ch, cpu.cl, cpu.dh, cpu.dl, up=cpu.ah == 0x06)


@video.function(0x08)
def read_char_attr(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    page = cpu.bh
    row, col = cursor(ctx, page)
    if is_graphics(ctx):
        cpu.ax = _read_graphics_char(ctx, row, col)
        return
    address = cell_address(ctx, page, row, col)
    cpu.ax = ctx.memory.read_word(address)


def _read_graphics_char(ctx: "ServiceContext", row: int, col: int) -> int:
    """Match the 8x8 cell against the font, as the BIOS does (any non-zero pixel is on)."""
    bpp = MODES[mode(ctx)][3]
    cell = []
    for line in range(8):
        y = row * 8 + line
        address = 0xB8000 + (y & 1) * 0x2000 + (y >> 1) * 80 + col * bpp
        if bpp == 1:
            cell.append(ctx.memory[address])
        else:
            word = (ctx.memory[address] << 8) | ctx.memory[address + 1]
            cell.append(sum(0x80 >> i for i in range(8) if (word >> ((7 - i) * 2)) & 3))
    pattern = bytes(cell)
    for char in range(256):
        if _glyph(ctx, char) == pattern:
            return char
    return 0


@video.function(0x09)
def write_char_attr(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    page = cpu.bh
    row, col = cursor(ctx, page)
    write_cells(ctx, page, row, col, cpu.al, cpu.bl, cpu.cx)


@video.function(0x0A)
def write_char(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    page = cpu.bh
    row, col = cursor(ctx, page)
    write_cells(ctx, page, row, col, cpu.al, cpu.bl if is_graphics(ctx) else None, cpu.cx)


@video.function(0x0B)
def set_palette(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    value = ctx.memory[bda.BDA + bda.CRT_PALETTE]
    if cpu.bh == 0:
        value = (value & 0xE0) | (cpu.bl & 0x1F)
    else:
        value = (value & 0xDF) | (0x20 if cpu.bl & 1 else 0)
    ctx.memory[bda.BDA + bda.CRT_PALETTE] = value
    if ctx.devices.video_card.memory_base == 0xB8000:
        ctx.devices.video_card.color_register = value


@video.function(0x0C)
def write_pixel_fn(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    write_pixel(ctx, cpu.cx, cpu.dx, cpu.al)


@video.function(0x0D)
def read_pixel_fn(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    cpu.al = read_pixel(ctx, cpu.cx, cpu.dx) if is_graphics(ctx) else 0


@video.function(0x0E)
def teletype_output(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    teletype(ctx, cpu.al, cpu.bl)


@video.function(0x0F)
def get_mode(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    cpu.al = mode(ctx)
    cpu.ah = columns(ctx)
    cpu.bh = _b(ctx, bda.ACTIVE_PAGE)
    ctx.call.pure_answer()


@video.function(0x13)
def write_string(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    flags, page, attr, count = cpu.al, cpu.bh, cpu.bl, cpu.cx
    saved = cursor(ctx, page)
    set_cursor(ctx, page, cpu.dh, cpu.dl)
    data = ctx.memory.read_far(cpu.es, cpu.bp, count * (2 if flags & 2 else 1))
    for i in range(count):
        char = data[i * 2] if flags & 2 else data[i]
        if flags & 2:
            attr = data[i * 2 + 1]
        if char in (0x07, 0x08, 0x0A, 0x0D):
            teletype(ctx, char, page=page)
        else:
            row, col = cursor(ctx, page)
            write_cells(ctx, page, row, col, char, attr, 1)
            teletype_advance(ctx, page)
    if not flags & 1:
        set_cursor(ctx, page, *saved)


def teletype_advance(ctx: "ServiceContext", page: int) -> None:
    row, col = cursor(ctx, page)
    col += 1
    if col >= columns(ctx):
        col, row = 0, row + 1
    if row >= 25:
        row = 24
        scroll(ctx, 1, 0x07, 0, 0, 24, columns(ctx) - 1, up=True, page=page)
    set_cursor(ctx, page, row, col)
