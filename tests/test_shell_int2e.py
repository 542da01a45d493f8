"""INT 2Eh, COMMAND.COM's "pass a command to the primary shell", seen by guest programs:
the line runs in the primary shell as if typed (no prompt), and the caller goes on
after its INT 2Eh with AX = the program's exit code, or 0."""
from __future__ import annotations

from tests.dos_harness import END_OF_PROGRAM, RESULTS, machine_with, run_command

STACK_SAVE = 0x2040          # the caller keeps SS:SP here: INT 2Eh destroys them
DTA = 0x3000                 # the caller's own DTA, which must be current again afterwards
ENVIRONMENT_COPY = 0x2600    # the parent's (the primary shell's) environment, copied at the end
WENT_ON = 0x2100             # a word the caller stores once all its calls returned
CALL_WORDS = 8               # result words per INT 2Eh call (five used)
KEPT_BYTES = 0x4000          # the caller gives back the rest of its memory, as it must for EXEC


def int2e_call(point_si: str) -> str:
    """INT 2Eh with DS:SI set by ``point_si``; the caller's SS:SP kept around it (INT 2Eh
    destroys them) and DS back to CS."""
    return f"""
    mov [{STACK_SAVE:#x}], sp
    mov [{STACK_SAVE + 2:#x}], ss
    {point_si}
    int 0x2e
    mov bx, cs
    mov ds, bx
    cli
    mov ss, [{STACK_SAVE + 2:#x}]
    mov sp, [{STACK_SAVE:#x}]
    sti
"""


def caller(*commands: str) -> str:
    """A .COM that keeps 16 KB (stack included) and passes each command to INT 2Eh in
    turn; after call i, the CALL_WORDS result words from 8i hold AX, the current PSP
    (AH=51h), the DTA (AH=2Fh) as offset, segment, and what AH=4Dh then gives."""
    calls = []
    for i, _command in enumerate(commands):
        slot = RESULTS + 2 * CALL_WORDS * i
        calls.append(int2e_call(f"mov si, command{i}") + f"""
    mov [{slot:#x}], ax
    mov ah, 0x51
    int 0x21
    mov [{slot + 2:#x}], bx
    mov ah, 0x2f
    int 0x21
    mov [{slot + 4:#x}], bx
    mov [{slot + 6:#x}], es
    mov ah, 0x4d
    int 0x21
    mov [{slot + 8:#x}], ax
""")
    lines = "".join(f"command{i}: .byte {len(text)}\n    .ascii \"{text}\\r\"\n"
                    for i, text in enumerate(commands))
    return f"""
    mov sp, {KEPT_BYTES - 2:#x}
    mov bx, {KEPT_BYTES >> 4:#x}
    mov ah, 0x4a
    int 0x21
    mov dx, {DTA:#x}
    mov ah, 0x1a
    int 0x21
    {"".join(calls)}
    mov word ptr [{WENT_ON:#x}], 0x600d
    mov es, [0x16]
    mov ax, es:[0x2c]
    push ds
    push cs
    pop es
    mov ds, ax
    xor si, si
    mov di, {ENVIRONMENT_COPY:#x}
    mov cx, 0x100
    cld
    rep movsb
    pop ds
    {END_OF_PROGRAM}
{lines}
"""


def exits_with(code: int, text: str = "") -> str:
    """A child that prints ``text`` (AH=09h) and exits with ``code``."""
    return f"""
    mov dx, message
    mov ah, 9
    int 0x21
    mov ax, {0x4C00 | code:#x}
    int 0x21
message: .ascii "{text}$"
"""


def run_caller(tmp_path, commands: list[str], programs: dict[str, str] | None = None,
               files: dict[str, bytes] | None = None):
    run = machine_with(tmp_path, {"T.COM": caller(*commands), **(programs or {})}, files)
    run.machine.type("C:{ENTER}")
    run_command(run, "T")
    return run


def after_call(run, i: int) -> dict:
    ax, psp, dta_offset, dta_segment, waited = run.words(5, RESULTS + 2 * CALL_WORDS * i)
    return {"ax": ax, "psp": psp, "dta": (dta_segment, dta_offset), "4Dh": waited}


def test_set_through_int2e_changes_the_primary_shells_environment(tmp_path):
    run = run_caller(tmp_path, ["SET X=1"])
    shell = run.machine.dos.shell
    assert after_call(run, 0) == {"ax": 0, "psp": run.psp, "dta": (run.psp, DTA), "4Dh": 0}
    assert run.words(1, WENT_ON) == [0x600D]
    assert run.machine.memory.rw(run.psp, 0x16) == shell.psp       # the parent is the shell ...
    environment = run.results(0x100, ENVIRONMENT_COPY)
    assert b"\0X=1\0" in environment                                # ... and its block changed
    assert "SET X=1" not in run.screen                              # no prompt, no echo
    before = shell.lines_run                                        # the shell is sane afterwards
    run.machine.type("SET{ENTER}")
    run.machine.run_until(condition=lambda m: shell.back_at_prompt(before), max_ticks=100)
    assert "X=1" in [line.rstrip() for line in run.screen.splitlines()]


def test_a_program_run_through_int2e_gives_its_exit_code_in_ax(tmp_path):
    run = run_caller(tmp_path, ["SEVEN ARGS"], {"SEVEN.COM": exits_with(7, "seven ran")})
    caller_psp, child_psp = run.psps
    # the shell read the code with AH=4Dh, as COMMAND.COM does: the caller's AH=4Dh gets 0
    assert after_call(run, 0) == {"ax": 7, "psp": caller_psp, "dta": (caller_psp, DTA), "4Dh": 0}
    assert run.words(1, WENT_ON) == [0x600D]
    assert run.machine.memory.rw(child_psp, 0x16) == run.machine.dos.shell.psp   # the shell's child
    assert [name for name, _ in run.machine.dos.shell.exit_codes] == ["C:\\SEVEN.COM", "C:\\T.COM"]
    screen = run.screen
    assert "seven ran" in screen and "SEVEN ARGS" not in screen
    assert run.machine.dos.shell.state.errorlevel == 0              # T's own exit, after SEVEN's 7


def test_int2e_output_redirection_and_a_batch_file(tmp_path):
    batch = b"@ECHO OFF\r\nSET Y=2\r\nSEVEN\r\n"
    run = run_caller(tmp_path, ["SEVEN > OUT.TXT", "ECHO internal>>OUT.TXT", "B"],
                     {"SEVEN.COM": exits_with(7, "seven ran")}, {"B.BAT": batch})
    caller_psp = run.psp
    assert (run.folder / "OUT.TXT").read_bytes() == b"seven raninternal\r\n"
    assert [after_call(run, i)["ax"] for i in range(3)] == [7, 0, 0]   # a batch file gives 0
    assert all(after_call(run, i)["psp"] == caller_psp for i in range(3))
    assert b"\0Y=2\0" in run.results(0x100, ENVIRONMENT_COPY)       # the batch file ran in full
    assert run.screen.count("seven ran") == 1                       # the batch file's SEVEN
    assert len(run.machine.dos.shell.exit_codes) == 3


def test_an_unknown_command_says_so_and_the_caller_goes_on(tmp_path):
    run = run_caller(tmp_path, ["NOSUCH", "SET Z=3"])
    assert "Bad command or file name" in run.screen
    assert [after_call(run, i)["ax"] for i in range(2)] == [0, 0]
    assert run.words(1, WENT_ON) == [0x600D]
    assert b"\0Z=3\0" in run.results(0x100, ENVIRONMENT_COPY)
    assert run.machine.dos.shell.load_error is None                 # T itself did start


def test_a_critical_error_answered_abort_ends_the_command_and_the_caller_goes_on(tmp_path):
    run = machine_with(tmp_path, {"T.COM": caller("DIR A:", "SET W=4")})
    run.machine.type("C:{ENTER}")
    run_command(run, "T", keys="{WAIT:Abort, Retry, Fail?}A")
    assert "Not ready reading drive A" in run.screen
    assert [after_call(run, i) for i in range(2)] == [
        {"ax": 0, "psp": run.psp, "dta": (run.psp, DTA), "4Dh": 0}] * 2
    assert run.words(1, WENT_ON) == [0x600D]


def test_a_caller_started_from_a_batch_file_sees_its_remaining_lines_run_first(tmp_path):
    # COMMAND.COM reads a batch line before the INT 2Eh line (batch has precedence)
    batch = b"@ECHO OFF\r\nT\r\nSET AFTER=1\r\n"
    run = machine_with(tmp_path, {"T.COM": caller("SET X=1")}, {"RUN.BAT": batch})
    run.machine.type("C:{ENTER}")
    run_command(run, "RUN")
    environment = run.results(0x100, ENVIRONMENT_COPY)
    assert environment.index(b"\0AFTER=1\0") < environment.index(b"\0X=1\0")
    assert run.words(1, WENT_ON) == [0x600D]


def test_int2e_while_one_runs_takes_its_place_and_the_first_caller_is_left_behind(tmp_path):
    # INNER, run by T's INT 2Eh, makes its own: COMMAND.COM's one save area now holds
    # INNER's return, so INNER goes on and T never does; the prompt comes back
    inner = caller("SET R=1").replace(END_OF_PROGRAM, "mov ax, 0x4c04\n    int 0x21\n", 1)
    run = machine_with(tmp_path, {"T.COM": caller("INNER"), "INNER.COM": inner})
    m = run.machine
    m.type("C:{ENTER}")
    run_command(run, "T")
    first, second = run.psps
    assert run.words(5, RESULTS, psp=second) == [0, second, DTA, second, 0]   # INNER went on ...
    assert run.words(1, WENT_ON, psp=second) == [0x600D]
    assert run.words(1, WENT_ON, psp=first) == [0]                  # ... T did not
    assert [name for name, _ in m.dos.shell.exit_codes] == ["C:\\INNER.COM"]
    assert m.dos.current_psp == m.dos.shell.psp and m.dos.shell.single is None
    assert first in m.dos.processes                                 # T's memory stays, as in DOS
    run_command(run, "INNER")                                       # the shell works on
    assert m.dos.shell.exit_codes[-1] == ("C:\\INNER.COM", 4)


def hostile_caller(lines: list[bytes], wrap: bool) -> str:
    """A .COM that passes each raw 128-byte buffer to INT 2Eh (no count byte checked, a CR
    or none, controls, redirections, pipes, % signs); with ``wrap`` the first call points
    DS:SI at CS:FFF8h instead, memory the program gave back, 8 bytes before the end of
    its segment."""
    calls = []
    for i in range(len(lines)):
        segment = "mov si, 0xfff8" if wrap and i == 0 else f"mov si, buffer{i}"
        calls.append(int2e_call(segment))
    buffers = "".join(f"buffer{i}: .byte {', '.join(str(b) for b in line)}\n" for i, line in enumerate(lines))
    return f"""
    mov sp, {KEPT_BYTES - 2:#x}
    mov bx, {KEPT_BYTES >> 4:#x}
    mov ah, 0x4a
    int 0x21
    {"".join(calls)}
    mov word ptr [{WENT_ON:#x}], 0x600d
    {END_OF_PROGRAM}
{buffers}
"""


def test_fuzz_hostile_int2e_lines_leave_the_machine_and_the_host_sane(tmp_path):
    # A stranger's program hands the shell whatever bytes it likes: every call returns to
    # it, nothing stops the machine, nothing is written outside the folder given as C:.
    import random
    rng = random.Random(0x2E)
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .:\\/%|<>*?=@\"\t\x00\x01\x1a\x7f\xff\xe9"
    lines = [bytes([0]) + bytes(128 - 1),                       # empty, no CR at all
             bytes([5]) + b"..\\..\\..\\ESCAPE > ..\\..\\OUT\r".ljust(127, b"\0"),
             bytes([9]) + b"ECHO %PATH%%%1%|SORT>%%X\r".ljust(127, b"Q")]
    for _ in range(9):
        body = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 127)))
        cr = b"\r" if rng.random() < 0.7 else b""
        lines.append(bytes([rng.randrange(256)]) + (body + cr).ljust(127, bytes([rng.randrange(256)]))[:127])
    for wrap in (False, True):
        folder = tmp_path / f"wrap{wrap}"
        folder.mkdir()
        run = machine_with(folder, {"T.COM": hostile_caller(lines, wrap)})
        m = run.machine
        m.type("C:{ENTER}")
        run_command(run, "T", max_ticks=18.2 * 30)
        assert m._stopped is None, m._stopped
        assert run.words(1, WENT_ON) == [0x600D]                   # every call came back
        assert m.dos.shell.single is None and m.dos.current_psp == m.dos.shell.psp
        assert m.dos.shell.exit_codes[-1] == ("C:\\T.COM", 0)
        assert "Bad command or file name" in run.screen           # the lines did run
        assert all(p.resolve().is_relative_to(tmp_path.resolve()) for p in tmp_path.rglob("*"))
        assert not (tmp_path.parent / "OUT").exists() and not (tmp_path / "OUT").exists()
