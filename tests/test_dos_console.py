"""DOS console I/O (INT 21h 01h-0Ch) with keys from a script, and Ctrl-C reaching INT 23h,
checked with programs assembled here."""
from __future__ import annotations

from tests.dos_harness import END_OF_PROGRAM, RESULTS, machine_with, run_command


def start(tmp_path, source: str, **options):
    run = machine_with(tmp_path, {"T.COM": source}, **options)
    run.machine.type("C:{ENTER}")
    return run


def finish(run, keys: str = "") -> None:
    m = run.machine
    if keys:
        m.type(keys)
    m.run_until(condition=lambda mm: mm.dos.shell.exit_codes and mm.dos.shell.at_prompt, max_ticks=200)


WAIT_FOR_KEY = """
    mov ah, 0x0b
    int 0x21
    or al, al
    jz {label}
"""


def test_character_input_functions(tmp_path):
    source = f"""
    mov ah, 0x01
    int 0x21
    mov [0x2000], al
    mov ah, 0x08
    int 0x21
    mov [0x2001], al
    mov ah, 0x07
    int 0x21
    mov [0x2002], al
    mov ah, 0x07
    int 0x21
    mov [0x2003], al
    mov ah, 0x08
    int 0x21
    mov [0x2004], al
    mov ah, 0x0b
    int 0x21
    mov [0x2005], al
    mov ah, 0x06
    mov dl, 0xff
    int 0x21
    mov [0x2006], al
    lahf
    mov [0x2007], ah
wait:
    {WAIT_FOR_KEY.format(label="wait")}
    mov [0x2008], al
    mov ah, 0x06
    mov dl, 0xff
    int 0x21
    mov [0x2009], al
    lahf
    mov [0x200a], ah
    {END_OF_PROGRAM}
"""
    run = start(tmp_path, source)
    m = run.machine
    m.type("T{ENTER}ab{CTRL+C}{F1}")
    m.run(3)
    assert run.results(7) == b"ab\x03\x00\x3b\x00\x00"   # raw ^C; F1 as 0 then its scan code
    assert run.results(1, RESULTS + 7)[0] & 0x40         # 06h: ZF set, nothing waiting
    assert "a" in m.screen_text().splitlines()[3] and "b" not in m.screen_text().splitlines()[3]
    finish(run, "c")
    assert run.results(2, RESULTS + 8) == b"\xffc"      # 0Bh saw it; 06h read it ...
    assert not run.results(1, RESULTS + 10)[0] & 0x40     # ... with ZF clear
    assert run.machine.dos.shell.exit_codes[-1] == ("C:\\T.COM", 0)


def test_buffered_input_edits_the_line(tmp_path):
    source = f"""
    mov byte ptr [0x2100], 8
    mov ah, 0x0a
    mov dx, 0x2100
    int 0x21
    mov ah, 0x09
    mov dx, prompt
    int 0x21
    mov byte ptr [0x2180], 10
    mov ah, 0x0a
    mov dx, 0x2180
    int 0x21
    {END_OF_PROGRAM}
prompt: .ascii "\r\n> $"
"""
    run = start(tmp_path, source)
    run.machine.type("T{ENTER}hellx{BKSP}o world{ENTER}")
    run.machine.run(2)
    assert run.results(10, 0x2100) == b"\x08\x07hello w\r"   # 7 fit; the rest beeped
    assert run.screen.splitlines()[3].rstrip() == "hello w"
    finish(run, "{ESC}no{ESC}ok{ENTER}")
    assert run.results(5, 0x2180) == b"\x0a\x02ok\r"      # Esc threw the line away
    # Enter echoes a CR only; Esc shows "\" and starts again on the next line, at the same column
    lines = run.screen.splitlines()
    assert lines[3].rstrip() == "hello w" and lines[4].rstrip() == "> \\"
    assert lines[5].rstrip() == "  no\\"


def test_output_functions_and_the_printer(tmp_path):
    source = f"""
    mov ah, 0x02
    mov dl, 0x5a
    int 0x21
    mov [0x2000], al
    mov ah, 0x09
    mov dx, text
    int 0x21
    mov [0x2001], al
    mov ah, 0x06
    mov dl, 0x21
    int 0x21
    mov ah, 0x05
    mov dl, 0x50
    int 0x21
    mov ah, 0x05
    mov dl, 0x0d
    int 0x21
    {END_OF_PROGRAM}
text: .ascii "1\\t2 dollar$not this"
"""
    run = start(tmp_path, source)
    run_command(run, "T")
    line = run.screen.splitlines()[3]
    assert line.startswith("Z1      2 dollar!")             # the tab went to column 8
    assert "not this" not in run.screen
    assert run.results(2) == b"Z$"
    assert bytes(run.machine.printer.printed) == b"P\r"


def test_flush_then_input_discards_what_was_typed_before(tmp_path):
    source = f"""
wait:
    {WAIT_FOR_KEY.format(label="wait")}
    mov ax, 0x0c01
    int 0x21
    mov [0x2000], al
    {END_OF_PROGRAM}
"""
    run = start(tmp_path, source)
    run.machine.type("T{ENTER}x")
    run.machine.run(2)
    finish(run, "y")
    assert run.results(1) == b"y"


CTRL_C_PROGRAM = """
    mov ax, 0x2523
    mov dx, handler
    int 0x21
    mov ah, 0x01
    int 0x21
    mov [0x2000], al
    mov word ptr [0x2002], 0x3333
    {end}
handler:
    inc word ptr cs:[0x2010]
    {how}
"""


def ctrl_c_program(how: str) -> str:
    return CTRL_C_PROGRAM.format(end=END_OF_PROGRAM, how=how)


def test_ctrl_c_with_the_default_handler_ends_the_program(tmp_path):
    source = f"""
    mov ah, 0x01
    int 0x21
    mov word ptr [0x2002], 0x3333
    {END_OF_PROGRAM}
"""
    run = start(tmp_path, source)
    run.machine.type("T{ENTER}")
    finish(run, "{CTRL+C}")
    assert run.words(1, 0x2002) == [0]
    assert "^C" in run.screen
    assert run.machine.dos.shell.termination >> 8 == 1


def test_ctrl_c_handler_that_returns_with_iret_retries_the_call(tmp_path):
    run = start(tmp_path, ctrl_c_program("iret"))
    run.machine.type("T{ENTER}{CTRL+C}")
    run.machine.run(2)
    finish(run, "q")
    assert run.words(1, 0x2010) == [1]
    assert run.results(1) == b"q" and run.words(1, 0x2002) == [0x3333]


def test_ctrl_c_handler_returning_carry_set_aborts(tmp_path):
    run = start(tmp_path, ctrl_c_program("stc\n    retf"))
    run.machine.type("T{ENTER}")
    finish(run, "{CTRL+C}")
    assert run.words(1, 0x2010) == [1]
    assert run.words(1, 0x2002) == [0]
    assert run.machine.dos.shell.termination >> 8 == 1


def test_ctrl_c_handler_returning_carry_clear_or_retf_2_goes_on(tmp_path):
    for how, folder in (("clc\n    retf", "a"), ("retf 2", "b")):
        (tmp_path / folder).mkdir()
        run = start(tmp_path / folder, ctrl_c_program(how))
        run.machine.type("T{ENTER}{CTRL+C}")
        run.machine.run(2)
        finish(run, "k")
        assert run.words(1, 0x2010) == [1]
        assert run.results(1) == b"k" and run.words(1, 0x2002) == [0x3333]
        assert run.machine.dos.shell.termination >> 8 == 0


def test_ctrl_c_is_seen_by_output_and_status_calls(tmp_path):
    source = f"""
    mov ax, 0x2523
    mov dx, handler
    int 0x21
wait:
    mov ah, 0x01
    int 0x16
    jz wait
    mov ah, 0x02
    mov dl, 0x41
    int 0x21
    mov ah, 0x0b
    int 0x21
    mov [0x2000], al
    {END_OF_PROGRAM}
handler:
    inc word ptr cs:[0x2010]
    iret
"""
    run = start(tmp_path, source)
    run.machine.type("T{ENTER}")
    finish(run, "{CTRL+C}")
    assert run.words(1, 0x2010) == [1]                     # once: the ^C was taken
    assert run.results(1) == b"\x00"                        # and nothing was left waiting
    assert "^C" in run.screen
