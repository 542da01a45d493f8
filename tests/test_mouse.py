"""The mouse and its INT 33h driver: present only with Machine(mouse=True); position,
buttons, press/release data, ranges, mickeys, the event handler called from IRQ 12,
and the cursor drawn into video memory in text and CGA graphics modes."""
from __future__ import annotations

from bios.mouse import ARROW
from pcemu.machine import Machine
from tests.dos_harness import END_OF_PROGRAM, machine_with

TEXT = 0xB8000


def cell(m, row: int, col: int) -> tuple[int, int]:
    address = TEXT + (row * 80 + col) * 2
    return m.memory[address], m.memory[address + 1]


def key(run, char: str) -> None:
    run.machine.type(char)
    run.machine.run(1)


# Keys drive the program: r = set ranges, p = set position, m = mickey ratio,
# t = text cursor masks, w = hardware text cursor, h = hide, q = quit; every key
# then records functions 03h, 05h, 06h (left button) and 0Bh at 2100h + 24 * n.
# The event handler records AX, BX, CX, DX, SI, DI of each call at 2800h + 12 * n.
TEXT_PROGRAM = f"""
    mov ax, 0x0003
    int 0x10
    mov ah, 0x02
    xor bh, bh
    mov dx, 0x0c28
    int 0x10
    mov ax, 0x094d
    mov bx, 0x001e
    mov cx, 1
    int 0x10
    xor ax, ax
    int 0x33
    mov [0x2000], ax
    mov [0x2002], bx
    mov ax, 1
    int 0x33
    mov ax, 0x0c
    mov cx, 0x7f
    push cs
    pop es
    mov dx, handler
    int 0x33
    mov di, 0x2100
next:
    mov ah, 0x07
    int 0x21
    cmp al, 0x71
    je done
    cmp al, 0x72
    jne not_r
    mov ax, 7
    mov cx, 200
    mov dx, 100
    int 0x33
    mov ax, 8
    mov cx, 50
    mov dx, 60
    int 0x33
not_r:
    cmp al, 0x70
    jne not_p
    mov ax, 4
    mov cx, 150
    mov dx, 55
    int 0x33
not_p:
    cmp al, 0x6d
    jne not_m
    mov ax, 0x0f
    mov cx, 16
    mov dx, 32
    int 0x33
not_m:
    cmp al, 0x74
    jne not_t
    mov ax, 0x0a
    xor bx, bx
    xor cx, cx
    mov dx, 0x0f18
    int 0x33
not_t:
    cmp al, 0x77
    jne not_w
    mov ax, 0x0a
    mov bx, 1
    mov cx, 6
    mov dx, 7
    int 0x33
not_w:
    cmp al, 0x68
    jne snapshot
    mov ax, 2
    int 0x33
snapshot:
    mov ax, 3
    int 0x33
    mov [di], bx
    mov [di+2], cx
    mov [di+4], dx
    mov ax, 5
    xor bx, bx
    int 0x33
    mov [di+6], bx
    mov [di+8], cx
    mov [di+10], dx
    mov ax, 6
    xor bx, bx
    int 0x33
    mov [di+12], bx
    mov [di+14], cx
    mov [di+16], dx
    mov ax, 0x0b
    int 0x33
    mov [di+18], cx
    mov [di+20], dx
    add di, 24
    jmp next
done:
    {END_OF_PROGRAM}
handler:
    push bp
    mov bp, cs:[0x27fe]
    mov cs:[bp+0x2800], ax
    mov cs:[bp+0x2802], bx
    mov cs:[bp+0x2804], cx
    mov cs:[bp+0x2806], dx
    mov cs:[bp+0x2808], si
    mov cs:[bp+0x280a], di
    add word ptr cs:[0x27fe], 12
    pop bp
    retf
"""


def start_text(tmp_path):
    run = machine_with(tmp_path, {"T.COM": TEXT_PROGRAM}, mouse=True)
    run.machine.type("C:{ENTER}T{ENTER}")
    run.machine.run(2)
    return run


def snapshot(run, n: int) -> list[int]:
    return run.words(11, 0x2100 + 24 * n)


def handler_calls(run) -> list[list[int]]:
    count = run.words(1, 0x27FE)[0] // 12
    return [run.words(6, 0x2800 + 12 * i) for i in range(count)]


def test_no_mouse_unless_asked_for(tmp_path):
    source = f"""
    xor ax, ax
    int 0x33
    mov [0x2000], ax
    {END_OF_PROGRAM}
"""
    from tests.dos_harness import run_program
    run = run_program(tmp_path, source)
    assert run.machine.mouse is None
    assert run.words(1) == [0]                               # AX unchanged: no driver
    assert not run.machine.memory.read_word(0x410) & 0x04


def test_reset_show_and_the_text_cursor_in_video_memory(tmp_path):
    run = start_text(tmp_path)
    m = run.machine
    assert run.words(2) == [0xFFFF, 2]
    # centre of the 640 x 200 screen: row 12, column 40; (cell AND 77FFh) XOR 7700h
    assert cell(m, 12, 40) == (ord("M"), (0x1E & 0x77) ^ 0x77)
    m.mouse.move(100, 50)
    m.run(1)
    assert cell(m, 12, 40) == (ord("M"), 0x1E)               # put back
    assert cell(m, 6, 12) == (0x20, 0x70)                    # a blank cell, inverted
    key(run, "t")                                            # masks 0000h / 0F18h: an arrow glyph
    assert cell(m, 6, 12) == (0x18, 0x0F)
    key(run, "w")                                            # the hardware cursor instead
    registers = m.video_card.crtc.registers
    assert list(registers[0x0A:0x0C]) == [6, 7]
    assert (registers[0x0E] << 8 | registers[0x0F]) == 6 * 80 + 12
    assert cell(m, 6, 12)[0] != 0x18                         # the software cursor is gone
    key(run, "h")
    key(run, "q")


def test_position_buttons_press_release_and_motion(tmp_path):
    run = start_text(tmp_path)
    m = run.machine
    m.mouse.move(100, 50)
    m.run(1)
    key(run, "x")
    m.mouse.button(0, True)
    m.run(1)
    m.mouse.move(200, 80)
    m.run(1)
    m.mouse.button(0, False)
    m.run(1)
    m.mouse.button(1, True)
    m.run(1)
    key(run, "x")
    key(run, "r")                                            # x 100-200, y 50-60
    key(run, "p")                                            # 150, 55
    m.mouse.move(10, 10)
    m.run(1)
    key(run, "x")
    key(run, "m")                                            # 16 / 32 mickeys per 8 pixels
    m.mouse.move_by(32, 64)
    m.run(1)
    key(run, "x")
    key(run, "q")
    m.run_until(condition=lambda mm: mm.dos.shell.exit_codes)
    # positions snap to the 8 x 8 text cell
    first, second, ranged, placed, clipped, ratio, moved = (snapshot(run, n) for n in range(7))
    assert first[:3] == [0, 96, 48]
    assert first[3:9] == [0, 0, 0, 0, 0, 0]                  # no presses or releases yet
    assert first[9:] == [(-220) & 0xFFFF, (-100) & 0xFFFF]   # mickeys: 8 per 8 pixels across, 16 down
    assert second[:3] == [2, 200, 80]                        # the right button is held
    assert second[3:6] == [1, 96, 48]                        # left pressed once, at 96,48
    assert second[6:9] == [1, 200, 80]                       # and released at 200,80
    assert second[9:] == [100, 60]
    assert second[3] and snapshot(run, 2)[3] == 0            # reading the count cleared it
    assert ranged[1:3] == [200, 56]                          # clipped into the new ranges
    assert placed[1:3] == [144, 48]
    assert clipped[1:3] == [96, 48]                          # 10,10 clipped to 100,50
    assert clipped[9:] == [(-50) & 0xFFFF, (-10) & 0xFFFF]
    assert ratio[1:3] == [96, 48] and ratio[9:] == [0, 0]
    assert moved[1:3] == [112, 56] and moved[9:] == [32, 64]  # 32 mickeys = 16 pixels at 16:8
    calls = handler_calls(run)
    conditions = [c[0] for c in calls]
    assert conditions[:5] == [0x01, 0x02, 0x01, 0x04, 0x08]
    assert calls[1][1:4] == [1, 96, 48]                      # BX buttons, CX/DX position
    assert calls[3][1:4] == [0, 200, 80]
    assert calls[0][4:6] == [(-220) & 0xFFFF, (-100) & 0xFFFF]   # SI/DI: the motion counters


def test_graphics_cursor_in_640_and_320_pixel_modes(tmp_path):
    source = f"""
    mov ax, 0x0006
    int 0x10
    xor ax, ax
    int 0x33
    mov ax, 1
    int 0x33
    mov ah, 0x07
    int 0x21
    mov ax, 2
    int 0x33
    mov ah, 0x07
    int 0x21
    mov ax, 0x0004
    int 0x10
    xor ax, ax
    int 0x33
    mov ax, 9
    mov bx, 8
    mov cx, 8
    push cs
    pop es
    mov dx, block
    int 0x33
    mov ax, 1
    int 0x33
    mov ah, 0x07
    int 0x21
    {END_OF_PROGRAM}
block:
    .fill 16, 2, 0
    .fill 16, 2, 0xffff
"""
    run = machine_with(tmp_path, {"T.COM": source}, mouse=True)
    m = run.machine
    m.type("C:{ENTER}T{ENTER}")
    m.run(2)
    # the default arrow at 320,100 with its hot spot at the tip, over a black screen
    for row in range(16):
        for bit in range(16):
            expected = (0 & (ARROW[row] >> (15 - bit)) & 1) ^ ((ARROW[16 + row] >> (15 - bit)) & 1)
            assert pixel_640(m, 320 + bit, 100 + row) == expected, (row, bit)
    m.type("x")
    m.run(1)
    assert not any(m.memory.read(0xB8000, 0x4000))           # hidden: the screen is black again
    m.type("x")
    m.run(2)
    # mode 4: a solid 16 x 16 block (8 pixels of 2 bits) around the hot spot 8,8
    for y in range(90, 110):
        for x in range(150, 170):
            inside = 92 <= y < 108 and 156 <= x < 164
            assert pixel_320(m, x, y) == (3 if inside else 0), (x, y)
    m.type("x")


def pixel_640(m, x: int, y: int) -> int:
    address = 0xB8000 + (y & 1) * 0x2000 + (y >> 1) * 80 + (x >> 3)
    return (m.memory[address] >> (7 - (x & 7))) & 1


def pixel_320(m, x: int, y: int) -> int:
    address = 0xB8000 + (y & 1) * 0x2000 + (y >> 1) * 80 + (x >> 2)
    return (m.memory[address] >> ((3 - (x & 3)) * 2)) & 3


def test_front_end_api_rejects_a_button_that_does_not_exist():
    m = Machine(mouse=True, boot=False)
    try:
        m.mouse.button(5, True)
    except ValueError as err:
        assert "button 5" in str(err)
    else:
        raise AssertionError("button 5 was accepted")
