"""The keyboard BIOS: INT 09h turns scancodes into key codes, INT 16h hands them out.

INT 09h keeps the shift states at 0040:0017/0018, translates set-1 make codes
through the AT's tables (normal, Shift, Ctrl, Alt; Caps and Num Lock), builds
Alt+keypad codes, and stores (scancode << 8 | ASCII) words in the 16-word ring
buffer at 0040:001E.  Ctrl-Break runs INT 1Bh and Shift-PrtSc INT 05h.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import bda
from bios.services import ServiceTable

if TYPE_CHECKING:
    from bios.context import ServiceContext

# The AT BIOS returns from functions it does not have with the registers as they were;
# TSRs use that for installation checks (INT 16h AX=F0F0h: "not installed").
keyboard = ServiceTable(0x16, "keyboard",
                        on_unknown=lambda ctx: ctx.call.count_service("INT 16h not in this BIOS"))

RSHIFT, LSHIFT, CTRL, ALT, SCROLL, NUM, CAPS, INSERT = (1 << i for i in range(8))
HOLD = 0x08                  # KB_FLAGS2 bit 3: paused (Pause key or Ctrl+Num Lock)
AFTER_E1 = 0x01              # KB_FLAGS3 bit 0: the last byte was the E1 prefix

LETTERS = {0x10: "q", 0x11: "w", 0x12: "e", 0x13: "r", 0x14: "t", 0x15: "y", 0x16: "u",
           0x17: "i", 0x18: "o", 0x19: "p", 0x1E: "a", 0x1F: "s", 0x20: "d", 0x21: "f",
           0x22: "g", 0x23: "h", 0x24: "j", 0x25: "k", 0x26: "l", 0x2C: "z", 0x2D: "x",
           0x2E: "c", 0x2F: "v", 0x30: "b", 0x31: "n", 0x32: "m"}
# scancode: (normal, shifted) characters for the non-letter printing keys
SYMBOLS = {0x02: "1!", 0x03: "2@", 0x04: "3#", 0x05: "4$", 0x06: "5%", 0x07: "6^",
           0x08: "7&", 0x09: "8*", 0x0A: "9(", 0x0B: "0)", 0x0C: "-_", 0x0D: "=+",
           0x1A: "[{", 0x1B: "]}", 0x27: ";:", 0x28: "'\"", 0x29: "`~", 0x2B: "\\|",
           0x33: ",<", 0x34: ".>", 0x35: "/?", 0x39: "  "}
CTRL_CODES = {0x03: 0x0300, 0x07: 0x071E, 0x0C: 0x0C1F, 0x1A: 0x1A1B, 0x1B: 0x1B1D,
              0x2B: 0x2B1C, 0x0E: 0x0E7F, 0x1C: 0x1C0A, 0x39: 0x3920, 0x01: 0x011B,
              0x0F: 0x9400, 0x37: 0x9600}
ALT_DIGITS = {0x02 + i: 0x7800 + (i << 8) for i in range(12)}   # Alt-1 .. Alt-=
# keypad: scancode -> (digit or symbol with Num Lock, code without, Ctrl code)
KEYPAD = {0x47: ("7", 0x4700, 0x7700), 0x48: ("8", 0x4800, 0x8D00), 0x49: ("9", 0x4900, 0x8400),
          0x4B: ("4", 0x4B00, 0x7300), 0x4C: ("5", 0x4C00, 0x8F00), 0x4D: ("6", 0x4D00, 0x7400),
          0x4F: ("1", 0x4F00, 0x7500), 0x50: ("2", 0x5000, 0x9100), 0x51: ("3", 0x5100, 0x7600),
          0x52: ("0", 0x5200, 0x9200), 0x53: (".", 0x5300, 0x9300)}


def translate(scancode: int, flags: int, extended: bool) -> int | None:
    """The key code the AT BIOS stores for a make code, or None for no key."""
    shift = bool(flags & (LSHIFT | RSHIFT))
    if scancode in KEYPAD and not extended:
        digit, plain, ctrl = KEYPAD[scancode]
        if flags & ALT:
            return None                   # Alt+keypad builds a code instead
        if flags & CTRL:
            return ctrl
        if bool(flags & NUM) != shift:
            return (scancode << 8) | ord(digit)
        return plain
    if scancode in KEYPAD and extended:   # the grey cursor keys: E0 in the ASCII byte
        _digit, plain, ctrl = KEYPAD[scancode]
        if flags & ALT:
            return (scancode + 0x50) << 8
        return (ctrl if flags & CTRL else plain) | 0xE0
    if 0x3B <= scancode <= 0x44:          # F1-F10
        n = scancode - 0x3B
        if flags & ALT:
            return (0x68 + n) << 8
        if flags & CTRL:
            return (0x5E + n) << 8
        if shift:
            return (0x54 + n) << 8
        return scancode << 8
    if scancode in (0x57, 0x58):          # F11, F12
        n = scancode - 0x57
        if flags & ALT:
            return (0x8B + n) << 8
        if flags & CTRL:
            return (0x89 + n) << 8
        return ((0x87 + n) if shift else (0x85 + n)) << 8
    if flags & ALT:
        if scancode in LETTERS:
            return scancode << 8
        if scancode in ALT_DIGITS:
            return ALT_DIGITS[scancode]
        return {0x39: 0x3920, 0x01: 0x0100, 0x0E: 0x0E00, 0x1C: 0x1C00, 0x0F: 0xA500}.get(scancode)
    if flags & CTRL:
        if scancode in LETTERS:
            return (scancode << 8) | (ord(LETTERS[scancode]) - 0x60)
        return CTRL_CODES.get(scancode)
    if scancode in LETTERS:
        upper = shift != bool(flags & CAPS)
        char = LETTERS[scancode]
        return (scancode << 8) | ord(char.upper() if upper else char)
    if scancode == 0x35 and extended:
        return 0xE02F                            # keypad / (E0 35), before the main '/'
    if scancode in SYMBOLS:
        return (scancode << 8) | ord(SYMBOLS[scancode][1 if shift else 0])
    if scancode == 0x0E:
        return 0x0E08
    if scancode == 0x0F:
        return 0x0F00 if shift else 0x0F09
    if scancode == 0x1C:
        return 0xE00D if extended else 0x1C0D    # keypad Enter is E0h in the scan byte
    if scancode == 0x01:
        return 0x011B
    if scancode == 0x4A:
        return 0x4A2D
    if scancode == 0x4E:
        return 0x4E2B
    if scancode == 0x37:
        return 0x372A
    return None


# -- the ring buffer --------------------------------------------------------------------
def buffer_put(ctx: "ServiceContext", code: int) -> bool:
    mem = ctx.memory
    head = mem.read_word(bda.BDA + bda.KB_HEAD)
    tail = mem.read_word(bda.BDA + bda.KB_TAIL)
    start = mem.read_word(bda.BDA + bda.KB_BUFFER_START_PTR) or bda.KB_BUFFER
    end = mem.read_word(bda.BDA + bda.KB_BUFFER_END_PTR) or bda.KB_BUFFER_END
    following = tail + 2
    if following >= end:
        following = start
    if following == head:
        ctx.events.beep.emit()                         # buffer full: the BIOS beeps and drops the key
        return False
    mem.write_word(bda.BDA + tail, code)
    mem.write_word(bda.BDA + bda.KB_TAIL, following)
    return True


def buffer_peek(ctx: "ServiceContext") -> int | None:
    mem = ctx.memory
    head = mem.read_word(bda.BDA + bda.KB_HEAD)
    if head == mem.read_word(bda.BDA + bda.KB_TAIL):
        return None
    return mem.read_word(bda.BDA + head)


def buffer_take(ctx: "ServiceContext") -> int | None:
    mem = ctx.memory
    code = buffer_peek(ctx)
    if code is None:
        return None
    head = mem.read_word(bda.BDA + bda.KB_HEAD) + 2
    start = mem.read_word(bda.BDA + bda.KB_BUFFER_START_PTR) or bda.KB_BUFFER
    end = mem.read_word(bda.BDA + bda.KB_BUFFER_END_PTR) or bda.KB_BUFFER_END
    if head >= end:
        head = start
    mem.write_word(bda.BDA + bda.KB_HEAD, head)
    return code


def buffer_flush(ctx: "ServiceContext") -> None:
    tail = ctx.memory.read_word(bda.BDA + bda.KB_TAIL)
    ctx.memory.write_word(bda.BDA + bda.KB_HEAD, tail)


# -- INT 09h ------------------------------------------------------------------------------
SHIFT_KEYS = {0x2A: LSHIFT, 0x36: RSHIFT, 0x1D: CTRL, 0x38: ALT}
TOGGLE_KEYS = {0x46: SCROLL, 0x45: NUM, 0x3A: CAPS}


def handle_scancode(ctx: "ServiceContext") -> None:
    """The body of INT 09h, with the scancode in AL (read from port 60h by the ROM)."""
    code = ctx.cpu.al
    mem = ctx.memory
    flags = mem[bda.BDA + bda.KB_FLAGS]
    flags2 = mem[bda.BDA + bda.KB_FLAGS2]
    flags3 = mem[bda.BDA + bda.KB_FLAGS3]
    ctx.events.scancode.emit(code)
    if code == 0xE0 or code == 0xE1:
        mem[bda.BDA + bda.KB_FLAGS3] = flags3 | (0x02 if code == 0xE0 else AFTER_E1)
        return
    if flags3 & AFTER_E1:                   # the Pause key: E1 1D 45 E1 9D C5
        if code in (0x1D, 0x9D):
            return                          # its Ctrl byte is not the Ctrl key
        mem[bda.BDA + bda.KB_FLAGS3] = flags3 & ~AFTER_E1
        if code == 0x45:
            _pause(ctx, flags2)
        return
    extended = bool(flags3 & 0x02)
    mem[bda.BDA + bda.KB_FLAGS3] = flags3 & ~0x03
    release = bool(code & 0x80)
    scancode = code & 0x7F
    if extended and scancode in (0x2A, 0x36):
        return                              # fake shifts around grey keys
    if scancode in SHIFT_KEYS:
        bit = SHIFT_KEYS[scancode]
        flags = (flags & ~bit) if release else (flags | bit)
        mem[bda.BDA + bda.KB_FLAGS] = flags
        if scancode == 0x38 and release:
            alt_code = mem[bda.BDA + bda.KB_ALT_INPUT]
            mem[bda.BDA + bda.KB_ALT_INPUT] = 0
            if alt_code:
                buffer_put(ctx, alt_code)
        return
    if flags2 & HOLD:
        if not release:                     # the first key after Pause ends it and is dropped
            mem[bda.BDA + bda.KB_FLAGS2] = flags2 & ~HOLD
        elif scancode in TOGGLE_KEYS:
            mem[bda.BDA + bda.KB_FLAGS2] = flags2 & ~TOGGLE_KEYS[scancode]   # no longer held down
        return
    if scancode == 0x45 and flags & CTRL and not extended and not release:
        _pause(ctx, flags2)                   # Ctrl+Num Lock, the 84-key board's Pause
        return
    if scancode in TOGGLE_KEYS and not (scancode == 0x46 and flags & CTRL) \
            and not (scancode == 0x45 and flags & CTRL):
        bit = TOGGLE_KEYS[scancode]
        held = bit                          # the same bit in flags2 marks "held down"
        if release:
            mem[bda.BDA + bda.KB_FLAGS2] = flags2 & ~held
        elif not flags2 & held:
            mem[bda.BDA + bda.KB_FLAGS2] = flags2 | held
            mem[bda.BDA + bda.KB_FLAGS] = flags ^ bit
        return
    if release:
        if scancode == 0x52:
            mem[bda.BDA + bda.KB_FLAGS2] = flags2 & ~INSERT
        return
    if scancode == 0x46 and flags & CTRL:   # Ctrl-Break
        buffer_flush(ctx)
        mem[bda.BDA + bda.BREAK_FLAG] = 0x80
        buffer_put(ctx, 0x0000)
        ctx.cpu.jump(*ctx.vectors.rom.address("int09.break"))
        return
    if scancode == 0x53 and flags & CTRL and flags & ALT:
        ctx.call.reboot_requested()
        return
    # Print Screen: the 101-key board's own key (E0 37), or Shift+PrtSc* on an 84-key board;
    # with the enhanced keyboard (KB_FLAGS3 bit 4) Shift+keypad * is a plain '*'
    if scancode == 0x37 and (extended or (flags & (LSHIFT | RSHIFT) and not flags3 & 0x10)):
        ctx.cpu.jump(*ctx.vectors.rom.address("int09.prtsc"))
        return
    if flags & ALT and scancode in KEYPAD and not extended and KEYPAD[scancode][0].isdigit():
        value = mem[bda.BDA + bda.KB_ALT_INPUT] * 10 + int(KEYPAD[scancode][0])
        mem[bda.BDA + bda.KB_ALT_INPUT] = value & 0xFF
        return
    if scancode == 0x52 and not (flags & (CTRL | ALT)) and (extended or bool(flags & NUM) == bool(flags & (LSHIFT | RSHIFT))):
        if not flags2 & INSERT:
            mem[bda.BDA + bda.KB_FLAGS2] = flags2 | INSERT
            mem[bda.BDA + bda.KB_FLAGS] = flags ^ INSERT
    key = translate(scancode, flags, extended)
    if key is not None:
        buffer_put(ctx, key)


def _pause(ctx: "ServiceContext", flags2: int) -> None:
    """Enter the hold state: the ROM's pause loop waits until the next key clears it."""
    if flags2 & HOLD:
        return
    ctx.memory[bda.BDA + bda.KB_FLAGS2] = flags2 | HOLD
    ctx.cpu.jump(*ctx.vectors.rom.address("int09.pause"))


# -- INT 16h ------------------------------------------------------------------------------
def _standard(code: int) -> int | None:
    """What functions 00h/01h make of a stored code: extended-only keys are skipped."""
    if (code & 0xFF) == 0xE0:
        return code & 0xFF00
    if (code >> 8) == 0xE0:
        return (0x1C00 if (code & 0xFF) in (0x0D, 0x0A) else 0x3500) | (code & 0xFF)
    if (code >> 8) > 0x84 and (code & 0xFF) == 0:
        return None
    return code


def _discard_unreportable(ctx: "ServiceContext") -> bool:
    """Drop the keys INT 16h AH=00h/01h cannot report; True if there were any."""
    dropped = False
    while True:
        code = buffer_peek(ctx)
        if code is None or _standard(code) is not None:
            return dropped
        buffer_take(ctx)
        dropped = True


@keyboard.function(0x00)
def read_key(ctx: "ServiceContext") -> None:
    ctx.call.keyboard_polled()
    _discard_unreportable(ctx)
    code = buffer_take(ctx)
    if code is None:
        ctx.call.wait_for_input()
        return
    ctx.cpu.ax = _standard(code)


@keyboard.function(0x10)
def read_extended_key(ctx: "ServiceContext") -> None:
    ctx.call.keyboard_polled()
    code = buffer_take(ctx)
    if code is None:
        ctx.call.wait_for_input()
        return
    ctx.cpu.ax = code


@keyboard.function(0x01)
def key_available(ctx: "ServiceContext") -> None:
    ctx.call.keyboard_polled()
    if not _discard_unreportable(ctx):
        ctx.call.pure_answer()                          # a look at the buffer changes nothing
    code = buffer_peek(ctx)
    if code is not None:
        ctx.cpu.ax = _standard(code)
    ctx.call.set_return_flag(0x40, code is None)        # ZF=1: nothing waiting
    ctx.call.idle_poll(code is None)


@keyboard.function(0x11)
def extended_key_available(ctx: "ServiceContext") -> None:
    ctx.call.keyboard_polled()
    ctx.call.pure_answer()
    code = buffer_peek(ctx)
    if code is not None:
        ctx.cpu.ax = code
    ctx.call.set_return_flag(0x40, code is None)
    ctx.call.idle_poll(code is None)


@keyboard.function(0x02)
def shift_flags(ctx: "ServiceContext") -> None:
    ctx.call.pure_answer()
    ctx.cpu.al = ctx.memory[bda.BDA + bda.KB_FLAGS]


@keyboard.function(0x12)
def extended_shift_flags(ctx: "ServiceContext") -> None:
    ctx.call.pure_answer()
    mem = ctx.memory
    flags, flags2 = mem[bda.BDA + bda.KB_FLAGS], mem[bda.BDA + bda.KB_FLAGS2]
    ctx.cpu.ax = (((flags2 & 0xF0) | (flags2 & 0x04 and 0x80) | (0x01 if flags & CTRL else 0)
                 | (0x02 if flags & ALT else 0)) << 8) | flags


@keyboard.function(0x03)
def set_typematic(ctx: "ServiceContext") -> None:
    pass                                         # accepted; the host sets the repeat rate


@keyboard.function(0x05)
def store_key(ctx: "ServiceContext") -> None:
    ctx.cpu.al = 0 if buffer_put(ctx, ctx.cpu.cx) else 1
