"""One DOS kernel for INT 21h and the shell: each file operation is checked through
a guest program making the DOS call and through the command typed at the prompt,
on the disk's resulting state and on the screen; and the shell's < > >> | reach
guest programs through their inherited handles."""
from __future__ import annotations

import re

from pcemu.storage.image import FloppyImage, format_image
from tests.dos_harness import END_OF_PROGRAM, dos_call, machine_with


def typed(run, line: str, keys: str = "", ticks: float = 300) -> str:
    """Type ``line`` at the prompt (then ``keys``); the screen once the prompt is back."""
    m = run.machine
    before = m.dos.shell.lines_run
    m.type(line + "{ENTER}" + keys)
    m.run_until(condition=lambda mm: mm.dos.shell.back_at_prompt(before), max_ticks=ticks)
    return m.screen_text()


def on_c(tmp_path, files: dict[str, bytes], programs: dict[str, str] | None = None, **options):
    run = machine_with(tmp_path, programs or {}, files, **options)
    typed(run, "C:")
    return run


def listing(run) -> dict[str, bytes]:
    return {str(p.relative_to(run.folder)).replace("/", "\\"): p.read_bytes()
            for p in sorted(run.folder.rglob("*")) if p.is_file() and not p.name.endswith(".COM")}


def set_read_only(run, name: str) -> None:
    run.machine.dos.drives["C"].set_attr([name], 0x01)


# ---------------------------------------------------------------- CD: the drive-ready check
CHDIR_A = f"""
    mov ah, 0x3b
    mov dx, path
    {dos_call(0)}
    {END_OF_PROGRAM}
path: .asciz "A:\\\\"
"""


def test_cd_to_an_empty_drive_asks_int24_from_the_shell_as_from_a_program(tmp_path):
    run = on_c(tmp_path, {}, {"T.COM": CHDIR_A})
    m = run.machine
    m.type("T{ENTER}{WAIT:Abort, Retry, Fail?}F")
    m.run_until(condition=lambda mm: mm.dos.shell.exit_codes and mm.dos.shell.at_prompt)
    assert run.carry(0) and run.ax(0) == 0x53                      # failed on INT 24h
    m.type("CD A:\\{ENTER}{WAIT:Abort, Retry, Fail?}F")
    m.run_until(condition=lambda mm: mm.screen_text().rstrip().endswith("C:\\>"))
    assert m.screen_text().count("Not ready reading drive A") == 2
    assert m.dos.current_drive == "C"


def test_cd_at_the_prompt(tmp_path):
    run = on_c(tmp_path, {"SUB/INNER/F.TXT": b"f"})
    typed(run, "CD SUB\\INNER")
    assert run.machine.dos.current_dirs["C"] == ["SUB", "INNER"]
    screen = typed(run, "CD")
    assert "C:\\SUB\\INNER\r" not in screen and "C:\\SUB\\INNER" in screen
    typed(run, "CD ..\\..\\..")                                  # .. at the root stays there
    assert run.machine.dos.current_dirs["C"] == []
    assert "Invalid directory" in typed(run, "CD NOWHERE")
    assert "Invalid directory" in typed(run, "CD SUB\\INNER\\F.TXT")
    assert "Invalid drive specification" in typed(run, "CD Q:")
    assert run.machine.dos.current_dirs["C"] == []


# ---------------------------------------------------------------- DEL
DELETE_PROGRAM = f"""
    mov ah, 0x41
    mov dx, ro
    {dos_call(0)}
    mov ah, 0x41
    mov dx, one
    {dos_call(1)}
    mov ah, 0x41
    mov dx, one
    {dos_call(2)}
    mov ah, 0x13
    mov dx, fcb
    {dos_call(3)}
    mov ah, 0x13
    mov dx, fcb
    {dos_call(4)}
    {END_OF_PROGRAM}
ro: .asciz "RO.DOC"
one: .asciz "ONE.TXT"
fcb: .byte 0
    .ascii "????????DOC"
    .byte 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
"""
DEL_FILES = {"ONE.TXT": b"1", "TWO.TXT": b"2", "A.DOC": b"a", "B.DOC": b"b", "RO.DOC": b"r"}


def test_delete_through_int21_handle_and_fcb_calls(tmp_path):
    run = on_c(tmp_path, DEL_FILES, {"T.COM": DELETE_PROGRAM})
    set_read_only(run, "RO.DOC")
    typed(run, "T")
    assert run.carry(0) and run.ax(0) == 5                       # read-only: access denied
    assert not run.carry(1)
    assert run.carry(2) and run.ax(2) == 2                       # gone already
    assert run.ax(3) & 0xFF == 0x00 and run.ax(4) & 0xFF == 0xFF    # *.DOC, then nothing left
    assert sorted(listing(run)) == ["RO.DOC", "TWO.TXT"]


def test_del_at_the_prompt_with_wildcards_read_only_files_and_messages(tmp_path):
    run = on_c(tmp_path, DEL_FILES | {"SUB/X.DAT": b"x"})
    set_read_only(run, "RO.DOC")
    screen = typed(run, "DEL *.DOC")
    assert "Invalid drive specification" not in screen and "Access denied" not in screen
    assert sorted(listing(run)) == ["ONE.TXT", "RO.DOC", "SUB\\X.DAT", "TWO.TXT"]
    assert typed(run, "DEL RO.DOC").count("Access denied") == 1
    assert "File not found" in typed(run, "DEL NONE.*")
    assert "Invalid drive specification" in typed(run, "DEL Q:*.DOC")
    assert "Path not found" in typed(run, "DEL NODIR\\*.*")
    assert "Required parameter missing" in typed(run, "DEL")
    assert sorted(listing(run)) == ["ONE.TXT", "RO.DOC", "SUB\\X.DAT", "TWO.TXT"]


def test_del_of_all_files_asks_first(tmp_path):
    run = on_c(tmp_path, DEL_FILES | {"SUB/X.DAT": b"x", "SUB/Y.DAT": b"y"})
    screen = typed(run, "DEL SUB", keys="{WAIT:Are you sure (Y/N)?}maybe{ENTER}"
                   "{WAIT:Are you sure (Y/N)? maybe}N{ENTER}")
    assert screen.count("Are you sure (Y/N)?") == 2
    assert "SUB\\X.DAT" in listing(run)
    typed(run, "ERASE SUB\\*.*", keys="{WAIT:Are you sure (Y/N)?}y{ENTER}")
    assert sorted(listing(run)) == sorted(DEL_FILES)
    typed(run, "ECHO Y | DEL *.*")                                # the answer from a pipe
    assert listing(run) == {}
    assert not [p for p in run.folder.iterdir() if re.fullmatch(r"[0-9A-F]{8}", p.name)]


# ---------------------------------------------------------------- REN
RENAME_PROGRAM = f"""
    mov ah, 0x56
    mov dx, old
    mov di, new
    {dos_call(0)}
    mov ah, 0x56
    mov dx, old
    mov di, new
    {dos_call(1)}
    mov ah, 0x17
    mov dx, fcb
    {dos_call(2)}
    {END_OF_PROGRAM}
old: .asciz "A.TXT"
new: .asciz "SUB\\\\A.MOV"
fcb: .byte 0
    .ascii "????????TXT"
    .byte 0,0,0,0,0
    .ascii "????????BAK"
    .byte 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
"""
REN_FILES = {"A.TXT": b"a", "B.TXT": b"b", "C.TXT": b"c", "KEEP.DOC": b"k", "SUB/S.TXT": b"s"}


def test_rename_through_int21_handle_and_fcb_calls(tmp_path):
    run = on_c(tmp_path, REN_FILES, {"T.COM": RENAME_PROGRAM})
    typed(run, "T")
    assert not run.carry(0)
    assert run.carry(1) and run.ax(1) == 2                       # A.TXT is gone
    assert run.ax(2) & 0xFF == 0
    assert sorted(listing(run)) == ["B.BAK", "C.BAK", "KEEP.DOC", "SUB\\A.MOV", "SUB\\S.TXT"]


def test_ren_at_the_prompt_with_wildcards_and_its_one_message(tmp_path):
    run = on_c(tmp_path, REN_FILES)
    typed(run, "REN *.TXT *.BAK")
    assert sorted(listing(run)) == ["A.BAK", "B.BAK", "C.BAK", "KEEP.DOC", "SUB\\S.TXT"]
    typed(run, "REN ?.BAK ?X.*")
    assert sorted(listing(run)) == ["AX.BAK", "BX.BAK", "CX.BAK", "KEEP.DOC", "SUB\\S.TXT"]
    typed(run, "REN SUB\\S.TXT VERYLONGNAME.TEXT")               # DOS cuts a name to 8.3
    assert "SUB\\VERYLONG.TEX" in listing(run)
    duplicate = "Duplicate file name or File not found"
    assert duplicate in typed(run, "REN AX.BAK BX.BAK")
    assert duplicate in typed(run, "REN NONE.* X.*")
    assert "Invalid number of parameters" in typed(run, "REN AX.BAK")
    assert listing(run)["AX.BAK"] == b"a" and listing(run)["BX.BAK"] == b"b"


# ---------------------------------------------------------------- COPY
def test_copy_with_wildcards_to_another_drive_and_directory(tmp_path):
    disk = FloppyImage(format_image("360K"))
    run = on_c(tmp_path, {"A.DOC": b"first", "B.DOC": b"second\x1athird", "C.TXT": b"c"},
               mounts={"B": disk})
    screen = typed(run, "COPY *.DOC B:")
    assert "A.DOC\r" not in screen and "A.DOC" in screen and "B.DOC" in screen
    assert "        2 File(s) copied" in screen
    assert disk.filesystem.read_file(["A.DOC"]) == b"first"
    assert disk.filesystem.read_file(["B.DOC"]) == b"second\x1athird"     # binary: all of it
    source_stamp = run.machine.dos.drives["C"].stat(["A.DOC"])
    copy_stamp = disk.filesystem.stat(["A.DOC"])
    assert (copy_stamp.date, copy_stamp.time) == (source_stamp.date, source_stamp.time)
    typed(run, "MD SAVE")
    assert "        1 File(s) copied" in typed(run, "COPY *.TXT SAVE")
    assert listing(run)["SAVE\\C.TXT"] == b"c"
    assert "        3 File(s) copied" in typed(run, "COPY *.* B:\\*.BAK")
    assert disk.filesystem.read_file(["C.BAK"]) == b"c"


def test_copy_concatenates_in_ascii_mode(tmp_path):
    run = on_c(tmp_path, {"A.TXT": b"one\r\n\x1ajunk", "B.TXT": b"two\r\n"})
    screen = typed(run, "COPY A.TXT+B.TXT BOTH.TXT")
    assert "        1 File(s) copied" in screen
    assert listing(run)["BOTH.TXT"] == b"one\r\ntwo\r\n\x1a"
    assert "Content of destination lost before copy" in typed(run, "COPY BOTH.TXT + A.TXT A.TXT")


def test_copy_failures_say_what_command_com_says(tmp_path):
    run = on_c(tmp_path, {"A.TXT": b"a", "RO.TXT": b"old"})
    set_read_only(run, "RO.TXT")
    screen = typed(run, "COPY NONE.TXT X.TXT")
    assert "File not found - NONE.TXT" in screen and "        0 File(s) copied" in screen
    assert "File cannot be copied onto itself" in typed(run, "COPY A.TXT")
    assert "File creation error" in typed(run, "COPY A.TXT RO.TXT")
    assert "Invalid drive specification" in typed(run, "COPY A.TXT Q:")
    assert listing(run) == {"A.TXT": b"a", "RO.TXT": b"old"}


def test_copy_to_a_full_disk_leaves_no_partial_file(tmp_path):
    disk = FloppyImage(format_image("360K"))
    free = disk.filesystem.free_space()
    run = on_c(tmp_path, {"BIG.DAT": bytes(free[0] * free[1] * free[2] + 1)}, mounts={"B": disk})
    screen = typed(run, "COPY BIG.DAT B:")
    assert "Insufficient disk space" in screen and "        0 File(s) copied" in screen
    assert disk.filesystem.stat(["BIG.DAT"]) is None


def test_copy_to_a_write_protected_disk_asks_int24(tmp_path):
    disk = FloppyImage(format_image("360K"), read_only=True)
    run = on_c(tmp_path, {"A.TXT": b"a"}, mounts={"B": disk})
    m = run.machine
    m.type("COPY A.TXT B:{ENTER}{WAIT:Abort, Retry, Fail?}F")
    m.run_until(condition=lambda mm: mm.dos.shell.at_prompt and "Fail?F" in mm.screen_text())
    assert "Write protect error writing drive B" in m.screen_text()


# ---------------------------------------------------------------- < > >> |
WRITER = f"""
    mov ah, 0x40
    mov bx, 1
    mov cx, 7
    mov dx, text
    int 0x21
    {END_OF_PROGRAM}
text: .ascii "hello\\r\\n"
"""
UPPER = f"""
again:
    mov ah, 0x3f
    xor bx, bx
    mov cx, 64
    mov dx, 0x2200
    int 0x21
    jc done
    or ax, ax
    jz done
    mov cx, ax
    mov si, 0x2200
upcase:
    cmp byte ptr [si], 0x61
    jb next
    cmp byte ptr [si], 0x7a
    ja next
    sub byte ptr [si], 0x20
next:
    inc si
    dec cx
    jnz upcase
    mov cx, ax
    mov ah, 0x40
    mov bx, 1
    mov dx, 0x2200
    int 0x21
    jmp again
done:
    {END_OF_PROGRAM}
"""


def test_a_program_output_redirected_appended_and_piped(tmp_path):
    run = on_c(tmp_path, {"IN.TXT": b"from a file\r\n"}, {"W.COM": WRITER, "U.COM": UPPER})
    screen = typed(run, "W > OUT.TXT")
    assert "hello" not in screen
    typed(run, "W >>OUT.TXT")
    assert listing(run)["OUT.TXT"] == b"hello\r\nhello\r\n"
    typed(run, "U < IN.TXT > UP.TXT")
    assert listing(run)["UP.TXT"] == b"FROM A FILE\r\n"
    typed(run, "W | U | U > PIPED.TXT")
    assert listing(run)["PIPED.TXT"] == b"HELLO\r\n"
    assert "FROM A FILE" in typed(run, "TYPE IN.TXT | U")
    assert "File not found" in typed(run, "U < MISSING.TXT")
    assert "Syntax error" in typed(run, "W |")
    assert not [p for p in run.folder.iterdir() if re.fullmatch(r"[0-9A-F]{8}", p.name)]
    assert run.machine.dos.handle_file(1).device == "CON"        # the shell's own handles are back
    assert run.machine.dos.handle_file(0).device == "CON"


def test_builtins_write_to_redirected_output(tmp_path):
    run = on_c(tmp_path, {"A.TXT": b"a"})
    screen = typed(run, "DIR *.TXT > LIST.TXT")
    assert "A        TXT" not in screen
    assert b"A        TXT" in listing(run)["LIST.TXT"]
    typed(run, "ECHO one>N.TXT")
    typed(run, "ECHO two >> N.TXT")
    assert listing(run)["N.TXT"] == b"one\r\ntwo \r\n"
    assert "File creation error" in typed(run, "ECHO x > NODIR\\X.TXT")


def _five_bytes_to_handle_1(text: str, padding: int = 0) -> str:
    return "    nop\n" * padding + f"""
    mov ah, 0x40
    mov bx, 1
    mov cx, 5
    mov dx, message
    int 0x21
    {END_OF_PROGRAM}
message: .ascii "{text}"
"""


def test_a_program_started_where_another_ran_runs_its_own_code(tmp_path):
    """The shell's EXEC loads each program at the same PSP: Unicorn's code
    translated for the last one must be forgotten (it once printed garbage)."""
    run = on_c(tmp_path, {}, {"P1.COM": _five_bytes_to_handle_1("AAAAA"),
                              "P2.COM": _five_bytes_to_handle_1("BBBBB", padding=3)})
    typed(run, "P1")
    assert "BBBBB" in typed(run, "P2")


def test_console_output_functions_write_to_redirected_standard_output(tmp_path):
    source = f"""
    mov ah, 0x09
    mov dx, text
    int 0x21
    mov ah, 0x02
    mov dl, 0x21
    int 0x21
    mov ah, 0x06
    mov dl, 0x0a
    int 0x21
    {END_OF_PROGRAM}
text: .ascii "via 09h$"
"""
    run = on_c(tmp_path, {}, {"T.COM": source})
    assert "via 09h!" in typed(run, "T")
    screen = typed(run, "T > OUT.TXT")
    assert screen.count("via 09h!") == 1
    assert listing(run)["OUT.TXT"] == b"via 09h!\n"


def test_console_input_functions_read_redirected_standard_input(tmp_path):
    """PROG < FILE: 08h, 01h, 0Ah, 0Bh and 07h read the file, not the keyboard (a key is
    typed meanwhile); past its end a read gives Ctrl-Z."""
    source = f"""
    mov ah, 0x08
    int 0x21
    mov [0x2000], al
    mov ah, 0x01
    int 0x21
    mov [0x2001], al
    mov byte ptr [0x2100], 10
    mov ah, 0x0a
    mov dx, 0x2100
    int 0x21
    mov ah, 0x0b
    int 0x21
    mov [0x2002], al
    mov ah, 0x07
    int 0x21
    mov [0x2003], al
    {END_OF_PROGRAM}
"""
    run = on_c(tmp_path, {"IN.TXT": b"XYhi\r\n"}, {"T.COM": source})
    typed(run, "T < IN.TXT", keys="k")
    assert run.results(4, 0x2000, psp=run.psps[-1]) == b"XY\x00\x1a"
    assert run.results(4, 0x2101, psp=run.psps[-1]) == b"\x02hi\r"


def test_if_exist_finds_files_as_findfirst_does(tmp_path):
    run = on_c(tmp_path, {"A.TXT": b"a", "SUB/B.DAT": b"b"})
    assert typed(run, "IF EXIST *.TXT ECHO seen-txt").count("seen-txt") == 2
    assert typed(run, "IF EXIST SUB\\?.DAT ECHO seen-dat").count("seen-dat") == 2
    assert typed(run, "IF EXIST *.XYZ ECHO seen-xyz").count("seen-xyz") == 1
    assert typed(run, "IF EXIST SUB ECHO seen-dir").count("seen-dir") == 1     # files only
    assert typed(run, "IF NOT EXIST Q:X ECHO seen-none").count("seen-none") == 2


# ---------------------------------------------------------------- hostile names, both paths
DIRECTORY_PROGRAM = f"""
    mov ah, 0x39
    mov dx, long
    {dos_call(0)}
    mov ah, 0x39
    mov dx, long
    {dos_call(1)}
    mov ah, 0x3a
    mov dx, dots
    {dos_call(2)}
    mov ah, 0x3b
    mov dx, wild
    {dos_call(3)}
    mov ah, 0x41
    mov dx, wild
    {dos_call(4)}
    {END_OF_PROGRAM}
long: .asciz "VERYLONGDIRNAME.EXTRA"
dots: .asciz "..\\\\.."
wild: .asciz "*.*"
"""


def test_hostile_names_through_int21_and_at_the_prompt(tmp_path):
    run = on_c(tmp_path, {"A.TXT": b"a"}, {"T.COM": DIRECTORY_PROGRAM})
    typed(run, "T")
    assert not run.carry(0) and (run.folder / "VERYLONG.EXT").is_dir()     # cut to 8.3
    assert run.carry(1) and run.ax(1) == 5                       # it exists now
    assert run.carry(2)                                          # the root is no directory to remove
    assert run.carry(3) and run.ax(3) == 3                       # no directory is called *.*
    assert run.carry(4) and run.ax(4) == 2                       # handle delete takes no wildcards
    assert "Unable to create directory" in typed(run, "MD VERYLONGDIRNAME.EXTRA")
    typed(run, "MD ANOTHERLONGNAME")
    assert (run.folder / "ANOTHERL").is_dir()
    assert "Invalid path, not directory," in typed(run, "RD ..\\..")
    assert "Invalid directory" in typed(run, "CD *.*")
    assert "File not found" in typed(run, 'DEL A"B.TXT')
    assert "File creation error" in typed(run, 'COPY A.TXT B"C.TXT')
    assert "File creation error" in typed(run, "COPY A.TXT NODIR\\X.TXT")
    typed(run, "CD ANOTHERL")
    assert "        1 File(s) copied" in typed(run, "COPY ..\\A.TXT")
    assert (run.folder / "ANOTHERL" / "A.TXT").read_bytes() == b"a"
    assert listing(run)["A.TXT"] == b"a"


def test_copy_con_makes_a_file_from_the_lines_typed(tmp_path):
    run = on_c(tmp_path, {})
    screen = typed(run, "COPY CON NOTE.TXT", keys="first line{ENTER}second{ENTER}{F6}{ENTER}")
    assert "^Z" in screen and "        1 File(s) copied" in screen
    assert listing(run)["NOTE.TXT"] == b"first line\r\nsecond\r\n"


def test_copy_nul_makes_an_empty_file(tmp_path):
    run = on_c(tmp_path, {"OLD.TXT": b"old"})
    assert "        1 File(s) copied" in typed(run, "COPY NUL OLD.TXT")
    assert listing(run)["OLD.TXT"] == b""


def test_a_dos_error_no_command_words_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    from pcemu.shell import builtins
    from pcemu.storage.errors import DosError

    def failing(shell, rest):
        raise DosError(0x04)
    monkeypatch.setitem(builtins.COMMANDS, "VER", failing)
    run = on_c(tmp_path, {})
    assert "Too many open files" in typed(run, "VER > OUT.TXT")
    assert run.machine.dos.handle_file(1).device == "CON"
    assert "C:\\>" in typed(run, "ECHO still here")


# ---------------------------------------------------------------- batch files: % substitutions
def test_batch_percent_signs_are_substituted_as_command_com_does(tmp_path):
    """%%, %1, %NAME% and a % with no partner, as MS-DOS's ReadBat (TBATCH.ASM) makes them:
    a lone % is dropped, so a batch line DOS%B2.COM runs DOSB2.COM."""
    batch = (b"@ECHO OFF\r\nSET V=VALUE\r\nECHO [%1] [%2] 100%% [%v%] [%NOSUCH%]\r\n"
             b"ECHO DOS%B2.COM\r\nECHO END%\r\n")
    run = on_c(tmp_path, {"T.BAT": batch})
    typed(run, "T ONE")
    screen = run.machine.screen_text()
    assert "[ONE] [] 100% [VALUE] []" in screen
    assert "DOSB2.COM" in screen and "DOS%B2" not in screen.split("T ONE", 1)[1]
    assert re.search(r"^END\s*$", screen, re.MULTILINE)
