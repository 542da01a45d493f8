"""DOS's console I/O goes through the interrupt vectors, as on a real PC: a program that
hooks INT 10h, INT 29h or INT 16h sees (and can change) DOS's own characters and keys.
(Two boots and two short programs: about 3 s.)"""
from __future__ import annotations

from tests.dos_harness import END_OF_PROGRAM, machine_with, run_command

COUNT_10, COUNT_29, COUNT_16_READ, COUNT_16_STATUS = 0x2000, 0x2002, 0x2004, 0x2006
OLD = {0x10: 0x2020, 0x29: 0x2024, 0x16: 0x2028}   # the vectors before the hooks (offset, segment)


def far(kind: str, at: int) -> str:
    """JMP/CALL FAR CS:[at], written out (Keystone adds a 32-bit operand prefix)."""
    return f".byte 0x2e, 0xff, {0x2E if kind == 'jmp' else 0x1E:#x}\n    .word {at:#x}"


def hooking(body: str, hooks: str) -> str:
    """A program that hooks INT 10h, 29h and 16h, runs ``body``, and puts the vectors back."""
    save = "".join(f"""
    mov ax, {0x3500 + vector:#x}
    int 0x21
    mov cs:[{at:#x}], bx
    mov cs:[{at + 2:#x}], es
    mov ax, {0x2500 + vector:#x}
    mov dx, hook{vector:x}
    int 0x21""" for vector, at in OLD.items())
    restore = "".join(f"""
    push ds
    lds dx, cs:[{at:#x}]
    mov ax, {0x2500 + vector:#x}
    int 0x21
    pop ds""" for vector, at in OLD.items())
    return save + body + restore + END_OF_PROGRAM + hooks


# save INT 29h's vector at OLD[0x29], then point it at the label hook29
HOOK_29_ONLY = f"""
    mov ax, 0x3529
    int 0x21
    mov cs:[{OLD[0x29]:#x}], bx
    mov cs:[{OLD[0x29] + 2:#x}], es
    mov ax, 0x2529
    mov dx, hook29
    int 0x21"""

COUNTING_HOOKS = f"""
hook10:
    cmp ah, 0x0e
    jne chain10
    inc word ptr cs:[{COUNT_10:#x}]
chain10:
    {far('jmp', OLD[0x10])}
hook29:
    inc word ptr cs:[{COUNT_29:#x}]
    {far('jmp', OLD[0x29])}
hook16:
    cmp ah, 0
    jne status16
    inc word ptr cs:[{COUNT_16_READ:#x}]
status16:
    cmp ah, 1
    jne chain16
    inc word ptr cs:[{COUNT_16_STATUS:#x}]
chain16:
    {far('jmp', OLD[0x16])}
"""

CONSOLE_TRAFFIC = """
    mov ah, 0x02
    mov dl, 'A'
    int 0x21
    mov ah, 0x09
    mov dx, two
    int 0x21
    mov ah, 0x40
    mov bx, 1
    mov cx, 3
    mov dx, three
    int 0x21
    mov byte ptr [0x2100], 10
    mov ah, 0x0a
    mov dx, 0x2100
    int 0x21
    mov ah, 0x01
    int 0x21
    mov [0x2030], al
    mov ah, 0x0b
    int 0x21
    mov [0x2031], al
    mov ah, 0x3f
    xor bx, bx
    mov cx, 10
    mov dx, 0x2200
    int 0x21
    mov [0x2032], ax
"""


def test_hooks_on_int_10h_29h_and_16h_count_dos_console_traffic(tmp_path):
    source = hooking(CONSOLE_TRAFFIC, COUNTING_HOOKS + """
two: .ascii "B\tC$"
three: .ascii "DEF"
""")
    run = machine_with(tmp_path, {"T.COM": source})
    run.machine.type("C:{ENTER}")
    run_command(run, "T", keys="xy{ENTER}zk{ENTER}")
    # out: A (02h), B, a tab as 6 spaces to column 8, C (09h), D E F (40h to handle 1),
    # x y CR (0Ah's echo), z (01h's echo), k CR LF (3Fh from handle 0, CON: the line's echo)
    chars_out = 1 + 8 + 3 + 3 + 1 + 3
    assert run.words(1, COUNT_29) == [chars_out]          # each through INT 29h ...
    assert run.words(1, COUNT_10) == [chars_out]          # ... whose handler calls INT 10h AH=0Eh
    assert run.words(1, COUNT_16_READ) == [6]             # x y Enter (0Ah), z (01h), k Enter (3Fh)
    assert run.words(1, COUNT_16_STATUS) == [1]           # 0Bh asked the BIOS once
    assert run.results(4, 0x2101) == b"\x02xy\r"          # the line as DOS stored it
    assert run.results(1, 0x2030) == b"z"                 # 01h read z
    assert run.words(1, 0x2032) == [3] and run.results(3, 0x2200) == b"k\r\n"
    assert "zk      CDEFxy" in run.screen     # 0Ah echoes CR alone: z and k overwrite A, B


def test_a_hook_on_int_16h_changes_the_keys_dos_reads(tmp_path):
    """A keyboard TSR's way: its INT 16h turns every 'a' DOS reads into 'b'."""
    hooks = f"""
hook10:
    {far('jmp', OLD[0x10])}
hook29:
    cmp al, 'q'
    jne chain29
    mov al, 'Q'                            ; and its INT 29h prints q as Q
chain29:
    {far('jmp', OLD[0x29])}
hook16:
    or ah, ah
    jnz chain16
    pushf
    {far('call', OLD[0x16])}
    cmp al, 'a'
    jne done16
    mov al, 'b'
done16:
    iret
chain16:
    {far('jmp', OLD[0x16])}
"""
    body = """
    mov ah, 0x08
    int 0x21
    mov [0x2030], al
    mov ah, 0x01
    int 0x21
    mov [0x2031], al
"""
    run = machine_with(tmp_path, {"T.COM": hooking(body, hooks)})
    run.machine.type("C:{ENTER}")
    run_command(run, "T", keys="aq")
    assert run.results(2, 0x2030) == b"bq"
    assert "Q" in run.screen.splitlines()[2] + run.screen.splitlines()[3]


def test_a_hook_that_ends_the_program_inside_dos_output_leaves_dos_working(tmp_path):
    """The INT 29h hook puts the vector back and ends the program in the middle of
    DOS's AH=09h: the call DOS was making never returns; the next program's output
    still goes through."""
    quitter = f"""
{HOOK_29_ONLY}
    mov ah, 0x09
    mov dx, text
    int 0x21
    mov ax, 0x4c00
    int 0x21
hook29:
    push cs
    pop ds
    lds dx, cs:[{OLD[0x29]:#x}]
    mov ax, 0x2529
    int 0x21
    mov ax, 0x4c07
    int 0x21
text: .ascii "never$"
"""
    greeter = """
    mov ah, 0x09
    mov dx, text
    int 0x21
    mov ax, 0x4c00
    int 0x21
text: .ascii "after all$"
"""
    run = machine_with(tmp_path, {"QUIT.COM": quitter, "HELLO.COM": greeter})
    m = run.machine
    m.type("C:{ENTER}")
    run_command(run, "QUIT")
    assert m.dos.shell.exit_codes[-1] == ("C:\\QUIT.COM", 7)
    assert "never" not in run.screen and "n" not in run.screen.splitlines()[1][:1]
    run_command(run, "HELLO")
    assert m.dos.shell.exit_codes[-1] == ("C:\\HELLO.COM", 0)
    assert "after all" in run.screen


def test_a_hook_that_never_returns_leaves_a_bounded_number_of_suspended_services(tmp_path):
    """The INT 29h hook drops its frame and jumps back to ask DOS again, 1,000 times: every
    abandoned call of DOS's stays suspended until a return comes, so the machine keeps at
    most MAX_SUSPENDED of them, and the program still ends normally."""
    from pcemu.guest import MAX_SUSPENDED
    looper = f"""
{HOOK_29_ONLY}
    mov si, 1000
again:
    mov ah, 0x02
    mov dl, 0x41
    int 0x21
hook29:
    add sp, 6
    dec si
    jnz again
    push cs
    pop ds
    lds dx, cs:[{OLD[0x29]:#x}]
    mov ax, 0x2529
    int 0x21
    mov ax, 0x4c05
    int 0x21
"""
    run = machine_with(tmp_path, {"LOOPER.COM": looper})
    m = run.machine
    m.type("C:{ENTER}")
    run_command(run, "LOOPER")
    assert m.dos.shell.exit_codes[-1] == ("C:\\LOOPER.COM", 5)
    assert 0 < len(m._guest.suspended) <= MAX_SUSPENDED


def test_an_fcb_write_to_con_goes_through_int_29h(tmp_path):
    """FCB output to the CON device is DOS's console traffic too (AH=15h, sequential write)."""
    fcb = 0x2300
    source = hooking(f"""
    mov di, {fcb:#x}
    mov byte ptr [di], 0
    mov word ptr [di + 1], 0x4f43
    mov byte ptr [di + 3], 0x4e
    mov word ptr [di + 4], 0x2020
    mov word ptr [di + 6], 0x2020
    mov word ptr [di + 8], 0x2020
    mov word ptr [di + 10], 0x2020
    mov ah, 0x0f
    mov dx, di
    int 0x21
    mov [0x2034], al
    mov word ptr [di + 0x0e], 4
    mov word ptr [di + 0x20], 0
    mov ah, 0x1a
    mov dx, data
    int 0x21
    mov ah, 0x15
    mov dx, di
    int 0x21
    mov [0x2035], al
""", COUNTING_HOOKS + """
data: .ascii "WXYZ"
""")
    run = machine_with(tmp_path, {"T.COM": source})
    run.machine.type("C:{ENTER}")
    run_command(run, "T")
    assert run.results(2, 0x2034) == b"\x00\x00"          # CON opened, the record written
    assert run.words(1, COUNT_29) == [4]                  # W X Y Z, each an INT 29h
    assert run.words(1, COUNT_10) == [4]
    assert "WXYZ" in run.screen
