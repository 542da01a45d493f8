"""The INT 33h mouse driver (Microsoft-compatible), present only with ``Machine(mouse=True)``.

Functions 00h-0Ch (reset, show/hide, position and buttons, press and release
data, ranges, cursor shapes, motion counters, the event handler) plus 0Fh, 13h,
14h, 1Ah, 1Bh, 1Dh, 1Eh, 21h and 24h.  Others are logged as unimplemented.

Coordinates are those of the driver's virtual screen: 640 x 200 in every mode
of this machine.  In text modes a cell is 8 x 8 (16 x 8 in 40 columns) and
positions are reported at the cell's corner; in 320-pixel graphics modes
x counts half pixels.

The cursor is drawn as the driver draws it: in text modes the cell under it
becomes (cell AND screen mask) XOR cursor mask and is put back when the cursor
hides or moves (or the hardware cursor is moved there, type 1); in the CGA
graphics modes the 16 x 16 masks are applied to the pixels around the hot
spot, one bit per pixel in 640-pixel mode and two in 320-pixel modes.

Movement reaches the driver through IRQ 12 (``pcemu/devices/mouse.py``); the
ROM's ``mouse_irq`` routine traps here and, when an event matches the mask
the program gave with function 0Ch, far-calls its handler with AX = the
events, BX = buttons, CX, DX = position, SI, DI = motion counters.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import bda, video
from bios.services import ServiceTable

if TYPE_CHECKING:
    from bios.context import ServiceContext

services = ServiceTable(0x33, "mouse", selector="ax")

WIDTH, HEIGHT = 640, 200
BUTTONS_REPORTED = 2                       # a Microsoft mouse; the middle button is still tracked
HANDLER_POINTER = 0x80                     # in the DOS data segment, for the ROM's CALL FAR [0080h]
MOVED = 0x01
PRESSED = (0x02, 0x08, 0x20)               # left, right, middle: condition bits
RELEASED = (0x04, 0x10, 0x40)
TEXT_SCREEN_MASK, TEXT_CURSOR_MASK = 0x77FF, 0x7700
# the standard arrow: 16 screen-mask rows (AND), then 16 cursor-mask rows (XOR)
ARROW = (0x3FFF, 0x1FFF, 0x0FFF, 0x07FF, 0x03FF, 0x01FF, 0x00FF, 0x007F,
         0x003F, 0x001F, 0x01FF, 0x10FF, 0x30FF, 0xF87F, 0xF87F, 0xFC3F,
         0x0000, 0x4000, 0x6000, 0x7000, 0x7800, 0x7C00, 0x7E00, 0x7F00,
         0x7F80, 0x7C00, 0x6C00, 0x4600, 0x0600, 0x0300, 0x0300, 0x0000)


def _signed(value: int) -> int:
    return value - 0x10000 if value & 0x8000 else value


class MouseDriver:
    """The driver's state: position, buttons, counters, cursor and event handler."""

    def __init__(self, ctx: "ServiceContext", data_segment: int) -> None:
        self.ctx = ctx
        self.data_segment = data_segment
        # what the cursor covers: (mode, [(address, byte)], [(CRTC register, value)])
        self.saved: tuple[int, list[tuple[int, int]], list[tuple[int, int]]] | None = None
        self.reset()

    def reset(self) -> None:
        self.x, self.y = WIDTH // 2, HEIGHT // 2
        self.buttons = 0
        self.shown = -1                       # the cursor is visible at 0
        self.x_range, self.y_range = (0, WIDTH - 1), (0, HEIGHT - 1)
        self.presses = [[0, 0, 0] for _ in range(3)]    # per button: count, x, y
        self.releases = [[0, 0, 0] for _ in range(3)]
        self.motion = [0, 0]                  # mickeys since function 0Bh
        self.leftover = [0, 0]                # mickeys not yet a whole pixel
        self.ratio = [8, 16]                  # mickeys per 8 pixels
        self.speed = [50, 50, 50]             # function 1Ah: kept and reported back
        self.double_speed = 64
        self.text_cursor = (0, TEXT_SCREEN_MASK, TEXT_CURSOR_MASK)
        self.graphics_cursor = list(ARROW)
        self.hot_spot = (0, 0)
        self.handler = (0, 0, 0)              # call mask, segment, offset
        self.page = 0

    # -- geometry ---------------------------------------------------------------------
    def _cell(self) -> tuple[int, int]:
        """(width, height) of what the reported position snaps to in this mode."""
        ctx = self.ctx
        if video.is_graphics(ctx):
            return (2, 1) if video.MODES[video.mode(ctx)][3] == 2 else (1, 1)
        return WIDTH // video.columns(ctx), 8

    def reported(self) -> tuple[int, int]:
        width, height = self._cell()
        return self.x - self.x % width, self.y - self.y % height

    def _clip(self) -> None:
        self.x = min(max(self.x, self.x_range[0]), self.x_range[1])
        self.y = min(max(self.y, self.y_range[0]), self.y_range[1])

    # -- the cursor ---------------------------------------------------------------------
    def hide_cursor(self) -> None:
        """Put back what the cursor covers (if the mode is still the one it was drawn in)."""
        if self.saved is None:
            return
        mode, cells, registers = self.saved
        self.saved = None
        if mode != video.mode(self.ctx):
            return
        mem = self.ctx.memory
        for address, value in reversed(cells):
            mem[address] = value
        crtc = self.ctx.devices.video_card.crtc.registers
        for register, value in registers:
            crtc[register] = value

    def show_cursor(self) -> None:
        if self.shown < 0 or self.saved is not None:
            return
        ctx = self.ctx
        mode = video.mode(ctx)
        if video.is_graphics(ctx):
            self.saved = (mode, self._draw_graphics(), [])
        elif self.text_cursor[0] == 1:
            self.saved = (mode, [], self._draw_hardware())
        else:
            self.saved = (mode, self._draw_text(), [])

    def redraw(self) -> None:
        self.hide_cursor()
        self.show_cursor()

    def _draw_text(self) -> list[tuple[int, int]]:
        ctx = self.ctx
        width, height = self._cell()
        address = video.cell_address(ctx, self.page, self.y // height, self.x // width)
        mem = ctx.memory
        old = mem.read_word(address)
        _kind, screen_mask, cursor_mask = self.text_cursor
        new = (old & screen_mask) ^ cursor_mask
        mem.write_word(address, new)
        return [(address, old & 0xFF), (address + 1, old >> 8)]

    def _draw_hardware(self) -> list[tuple[int, int]]:
        """Type 1: the CRTC's own cursor, moved to the mouse's cell with its scan lines."""
        ctx = self.ctx
        width, height = self._cell()
        registers = ctx.devices.video_card.crtc.registers
        saved = [(reg, registers[reg]) for reg in (0x0A, 0x0B, 0x0E, 0x0F)]
        start = ctx.memory.read_word(bda.BDA + bda.VIDEO_PAGE_OFFSET) >> 1
        cell = start + (self.y // height) * video.columns(ctx) + self.x // width
        _kind, first, last = self.text_cursor
        registers[0x0A], registers[0x0B] = first & 0x1F, last & 0x1F
        registers[0x0E], registers[0x0F] = (cell >> 8) & 0xFF, cell & 0xFF
        return saved

    def _draw_graphics(self) -> list[tuple[int, int]]:
        ctx = self.ctx
        bits = video.MODES[video.mode(ctx)][3]
        mem = ctx.memory
        touched: dict[int, int] = {}
        hot_x, hot_y = self.hot_spot
        per_row = 16 // bits
        pixel_width = 2 if bits == 2 else 1   # virtual units per pixel
        left = (self.x - hot_x) // pixel_width
        top = self.y - hot_y
        limit = WIDTH // pixel_width
        for row in range(16):
            py = top + row
            if not 0 <= py < HEIGHT:
                continue
            screen, cursor = self.graphics_cursor[row], self.graphics_cursor[16 + row]
            for i in range(per_row):
                px = left + i
                if not 0 <= px < limit:
                    continue
                shift = 16 - bits * (i + 1)
                s_bits = (screen >> shift) & ((1 << bits) - 1)
                c_bits = (cursor >> shift) & ((1 << bits) - 1)
                address, pshift, mask = video._pixel_location(ctx, px, py)
                value = mem[address]
                touched.setdefault(address, value)
                pixel = (value >> pshift) & mask
                pixel = (pixel & s_bits) ^ c_bits
                mem[address] = (value & ~(mask << pshift)) | (pixel << pshift)
        return list(touched.items())

    # -- movement and buttons -------------------------------------------------------------
    def apply(self, packet: tuple) -> int:
        """One packet from the mouse; returns the condition bits it causes."""
        kind = packet[0]
        if kind == "to":
            x = min(max(packet[1], self.x_range[0]), self.x_range[1])
            y = min(max(packet[2], self.y_range[0]), self.y_range[1])
            dx, dy = x - self.x, y - self.y
            self._count((dx * self.ratio[0]) // 8, (dy * self.ratio[1]) // 8)
            return self._place(x, y, dx or dy)
        if kind == "by":
            dx, dy = packet[1], packet[2]
            self._count(dx, dy)
            px, self.leftover[0] = divmod(self.leftover[0] + dx * 8, self.ratio[0])
            py, self.leftover[1] = divmod(self.leftover[1] + dy * 8, self.ratio[1])
            return self._place(self.x + px, self.y + py, dx or dy)
        if kind == "buttons":
            return self._set_buttons(packet[1])
        return 0

    def _count(self, dx: int, dy: int) -> None:
        self.motion[0] = (self.motion[0] + dx) & 0xFFFF
        self.motion[1] = (self.motion[1] + dy) & 0xFFFF

    def _place(self, x: int, y: int, moved: bool) -> int:
        self.hide_cursor()
        self.x, self.y = x, y
        self._clip()
        self.show_cursor()
        return MOVED if moved else 0

    def _set_buttons(self, state: int) -> int:
        condition = 0
        x, y = self.reported()
        for button in range(3):
            bit = 1 << button
            if state & bit and not self.buttons & bit:
                record, condition = self.presses[button], condition | PRESSED[button]
            elif self.buttons & bit and not state & bit:
                record, condition = self.releases[button], condition | RELEASED[button]
            else:
                continue
            record[0] = min(record[0] + 1, 0xFFFF)
            record[1], record[2] = x, y
        self.buttons = state
        return condition

    # -- the interrupt ----------------------------------------------------------------------
    def interrupt(self) -> None:
        """IRQ 12: take the packets; CF says whether the program's handler is to be called."""
        ctx = self.ctx
        condition = 0
        for packet in ctx.devices.mouse.take():
            condition |= self.apply(packet)
        mask, seg, off = self.handler
        call = condition & mask
        if call and (seg or off):
            cpu = ctx.cpu
            x, y = self.reported()
            ctx.memory.ww(self.data_segment, HANDLER_POINTER, off)
            ctx.memory.ww(self.data_segment, HANDLER_POINTER + 2, seg)
            cpu.set_registers(ax=call, bx=self.buttons & 7, cx=x, dx=y,
                              si=self.motion[0], di=self.motion[1], ds=self.data_segment)
            ctx.call.return_live_flag(0x01, True)
        else:
            ctx.call.return_live_flag(0x01, False)


def driver(ctx: "ServiceContext") -> MouseDriver:
    return ctx.bios.mouse_driver


def install(ctx: "ServiceContext", data_segment: int) -> None:
    """Load the driver: INT 33h, the IRQ 12 vector, the line unmasked at the 8259.
    ``data_segment``: where the driver keeps the far pointer the ROM's CALL FAR [0080h]
    calls the program's handler through (DOS's data segment, as a loaded driver's would be)."""
    ctx.bios.mouse_driver = MouseDriver(ctx, data_segment)
    ctx.vectors.point_entry("int33")
    ctx.vectors.point_entry("mouse_irq")
    ctx.devices.pic.slave.imr &= ~(1 << 4)
    equipment = ctx.memory.read_word(bda.BDA + bda.EQUIPMENT)
    ctx.memory.write_word(bda.BDA + bda.EQUIPMENT, equipment | 0x0004)   # pointing device
    ctx.vectors.register_service("int33", services.dispatch)
    ctx.vectors.register_service("mouse_irq", lambda ctx: ctx.bios.mouse_driver.interrupt())


# -- the functions ---------------------------------------------------------------------------
@services.function(0x00)
def reset(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    d.hide_cursor()
    d.reset()
    ctx.devices.mouse.take()
    d.buttons = ctx.devices.mouse.buttons
    ctx.cpu.ax, ctx.cpu.bx = 0xFFFF, BUTTONS_REPORTED


@services.function(0x21)
def software_reset(ctx: "ServiceContext") -> None:
    reset(ctx)


@services.function(0x01)
def show(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    if d.shown < 0:
        d.shown += 1
    d.show_cursor()


@services.function(0x02)
def hide(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    d.hide_cursor()
    d.shown -= 1


@services.function(0x03)
def position_and_buttons(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    ctx.cpu.bx = d.buttons & 7
    ctx.cpu.cx, ctx.cpu.dx = d.reported()
    ctx.call.idle_poll(True)


@services.function(0x04)
def set_position(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    d.hide_cursor()
    d.x, d.y = _signed(ctx.cpu.cx), _signed(ctx.cpu.dx)
    d._clip()
    d.show_cursor()


def _button_data(ctx: "ServiceContext", records: list[list[int]]) -> None:
    d = driver(ctx)
    cpu = ctx.cpu
    button = cpu.bx
    cpu.ax = d.buttons & 7
    if button > 2:
        cpu.bx = cpu.cx = cpu.dx = 0
        return
    count, x, y = records[button]
    records[button][0] = 0
    cpu.bx, cpu.cx, cpu.dx = count, x, y


@services.function(0x05)
def press_data(ctx: "ServiceContext") -> None:
    _button_data(ctx, driver(ctx).presses)


@services.function(0x06)
def release_data(ctx: "ServiceContext") -> None:
    _button_data(ctx, driver(ctx).releases)


def _range(ctx: "ServiceContext") -> tuple[int, int]:
    low, high = _signed(ctx.cpu.cx), _signed(ctx.cpu.dx)
    return (low, high) if low <= high else (high, low)


@services.function(0x07)
def horizontal_range(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    d.x_range = _range(ctx)
    d.hide_cursor()
    d._clip()
    d.show_cursor()


@services.function(0x08)
def vertical_range(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    d.y_range = _range(ctx)
    d.hide_cursor()
    d._clip()
    d.show_cursor()


@services.function(0x09)
def graphics_cursor(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    cpu = ctx.cpu
    data = ctx.memory.read_far(cpu.es, cpu.dx, 64)
    d.hide_cursor()
    d.graphics_cursor = [data[i] | (data[i + 1] << 8) for i in range(0, 64, 2)]
    d.hot_spot = (_signed(cpu.bx), _signed(cpu.cx))
    d.show_cursor()


@services.function(0x0A)
def text_cursor(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    cpu = ctx.cpu
    d.hide_cursor()
    d.text_cursor = (1 if cpu.bx == 1 else 0, cpu.cx, cpu.dx)
    d.show_cursor()


@services.function(0x0B)
def motion_counters(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    ctx.cpu.cx, ctx.cpu.dx = d.motion
    d.motion = [0, 0]


@services.function(0x0C)
def set_handler(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    driver(ctx).handler = (cpu.cx, cpu.es, cpu.dx)


@services.function(0x14)
def swap_handler(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    cpu = ctx.cpu
    old = d.handler
    d.handler = (cpu.cx, cpu.es, cpu.dx)
    cpu.cx, cpu.es, cpu.dx = old


@services.function(0x0F)
def mickey_ratio(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    driver(ctx).ratio = [max(1, cpu.cx & 0x7FFF), max(1, cpu.dx & 0x7FFF)]


@services.function(0x13)
def double_speed_threshold(ctx: "ServiceContext") -> None:
    driver(ctx).double_speed = ctx.cpu.dx or 64


@services.function(0x1A)
def set_sensitivity(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    driver(ctx).speed = [cpu.bx, cpu.cx, cpu.dx]


@services.function(0x1B)
def get_sensitivity(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    cpu.bx, cpu.cx, cpu.dx = driver(ctx).speed


@services.function(0x1D)
def set_page(ctx: "ServiceContext") -> None:
    d = driver(ctx)
    d.hide_cursor()
    d.page = ctx.cpu.bx & 7
    d.show_cursor()


@services.function(0x1E)
def get_page(ctx: "ServiceContext") -> None:
    ctx.cpu.bx = driver(ctx).page


@services.function(0x24)
def version(ctx: "ServiceContext") -> None:
    ctx.cpu.bx = 0x0626                     # version 6.26
    ctx.cpu.cx = 0x0400                     # a PS/2-style mouse (its IRQ reported as 0)
