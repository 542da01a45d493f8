"""A one-drive PC as DOS 3.30 runs it (``Machine(one_drive_b=True)``, ``--one-drive-b``):
B: is the one drive's second name, a request by the name the diskette does not answer
to asks "Insert diskette for drive X:" and a key, and IOCTL 440Eh/440Fh read and set
the name (pcemu/dos/single_drive.py)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from pcemu.archive.session import Recorder, replay
from pcemu.archive.session_checks import SessionCheckError, check_session
from pcemu.cli import main
from pcemu.machine import Machine
from pcemu.storage.errors import MountError
from pcemu.storage.image import FloppyImage, format_image
from tests.dos_harness import END_OF_PROGRAM, RESULTS, Run, assemble16, dos_call, run_command

ASK_B = "Insert diskette for drive B: and strike"
ASK_A = "Insert diskette for drive A: and strike"


def _step(marker: str) -> str:
    """Print ``marker`` (the test waits for it, then strikes the key the prompt wants)."""
    return f"""
    mov dx, {marker}
    mov ah, 0x09
    int 0x21
"""


# 0: 440Eh for B: (the name now); a key typed ahead; 1: open B:X.TXT (asks for B:);
# 2: the type-ahead after the prompt (INT 16h AH=01h's ZF); 3: read 4 bytes by that
# handle; 4: 440Eh again; 5: 440Fh names the diskette A:; 6: open A:X.TXT (no prompt);
# 7: read by the B: handle again (asks for B:); 8: INT 25h sector 0 of A: (asks for A:)
PROBE = f"""
    mov ax, 0x440e
    mov bl, 2
    {dos_call(0)}
    mov ah, 0x05
    mov cx, 0x1051
    int 0x16
    {_step("s1")}
    mov ax, 0x3d00
    mov dx, bname
    {dos_call(1)}
    mov bx, ax
    mov ah, 0x01
    int 0x16
    pushf
    pop ax
    mov [{RESULTS + 4}], ax
    mov ah, 0x3f
    mov cx, 4
    mov dx, {RESULTS + 0x40}
    {dos_call(3)}
    push bx
    mov ax, 0x440e
    mov bl, 1
    {dos_call(4)}
    mov ax, 0x440f
    mov bl, 1
    {dos_call(5)}
    mov ax, 0x3d00
    mov dx, aname
    {dos_call(6)}
    pop bx
    {_step("s2")}
    mov ah, 0x3f
    mov cx, 4
    mov dx, {RESULTS + 0x48}
    {dos_call(7)}
    {_step("s3")}
    mov al, 0
    mov cx, 1
    mov dx, 0
    mov bx, {RESULTS + 0x100 + 0x20}
    int 0x25
    pop dx
    mov [{RESULTS + 16}], ax
    mov al, 0
    adc al, 0
    mov [{RESULTS + 18}], al
    {END_OF_PROGRAM}
bname: .asciz "B:X.TXT"
aname: .asciz "A:X.TXT"
s1: .ascii "S1$"
s2: .ascii "S2$"
s3: .ascii "S3$"
"""


def _machine(tmp_path, **options) -> tuple[Machine, bytes]:
    image = FloppyImage(format_image("360K", label="ONLY"))
    with image.drive.create(["X.TXT"]) as f:
        f.write(b"DATA and more")
    path = image.save(tmp_path / "a.img")
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "T.COM").write_bytes(assemble16(PROBE))
    m = Machine(disks=[f"A:{path}"], host_dirs={"C": folder}, **options)
    return m, path.read_bytes()


def _strike(marker: str) -> str:
    return "{WAIT:" + marker + "}{TICKS:2} "


def test_b_is_the_one_drive_asked_for_by_its_other_name(tmp_path):
    m, image = _machine(tmp_path, one_drive_b=True)
    run = Run(m, tmp_path / "c")
    m.events.exec.connect(lambda _path, psp: run.psps.append(psp))
    m.type("C:{ENTER}")
    run_command(run, "T", keys=_strike("S1") + _strike("S2") + _strike("S3"), max_ticks=18.2 * 10)
    screen = m.screen_text()
    assert m.floppy_drives == 1 and set("AB") <= set(m.dos.drives)
    assert run.ax(0) & 0xFF == 1 and not run.carry(0)           # the diskette answers to A:
    assert not run.carry(1)                                     # B:X.TXT opened, after the prompt
    assert run.ax(2) & 0x40                                     # the key typed ahead was emptied
    assert not run.carry(3) and run.results(4, RESULTS + 0x40) == b"DATA"
    assert run.ax(4) & 0xFF == 2                                # now it answers to B:
    assert not run.carry(5) and run.ax(5) & 0xFF == 1           # 440Fh: named A: by the program
    assert not run.carry(6)                                     # so A:X.TXT asked for nothing
    assert not run.carry(7) and run.results(4, RESULTS + 0x48) == b" and"   # B: asked again
    assert run.results(1, RESULTS + 18) == b"\x00"             # INT 25h read A: after asking
    assert run.results(512, RESULTS + 0x120) == image[:512]
    assert screen.count(ASK_B) == 2 and screen.count(ASK_A) == 1
    assert "any key when ready" in screen


def test_the_command_interpreter_asks_too(tmp_path):
    m, _image = _machine(tmp_path, one_drive_b=True)
    m.type("B:{ENTER}{TICKS:2} {TICKS:4}DIR{ENTER}{TICKS:30}A:{ENTER}{TICKS:2} {TICKS:4}")
    m.run(40)
    screen = m.screen_text()
    assert screen.count(ASK_B) == 1 and screen.count(ASK_A) == 1
    assert "X        TXT" in screen and "B:\\>" in screen
    assert screen.rstrip().endswith("A:\\>")


def test_without_it_a_one_drive_machine_has_no_b(tmp_path):
    m, _image = _machine(tmp_path)
    assert m.floppy_drives == 1 and "B" not in m.dos.drives and m.dos.shared_unit is None


def test_it_needs_a_one_drive_machine(tmp_path):
    with pytest.raises(MountError, match="one-drive machine"):
        _machine(tmp_path, one_drive_b=True, floppy_drives=2)
    result = CliRunner().invoke(main, ["run", "--one-drive-b", "--floppy-drives", "2",
                                      "--headless", "--ticks", "1", str(tmp_path / "none.img")])
    assert result.exit_code != 0 and "Traceback" not in result.output


def test_a_session_keeps_it_and_checks_it(tmp_path):
    m, _image = _machine(tmp_path, one_drive_b=True)
    recorder = Recorder(m)
    m.type("B:{ENTER}{TICKS:2} {TICKS:4}")
    m.run(8)
    session = recorder.finish()
    assert session.profile["one_drive_b"] is True
    result = replay(session)
    assert result.matches and result.machine.one_drive_b
    assert ASK_B in result.machine.screen_text()
    session.profile["floppy_drives"] = 2
    with pytest.raises(SessionCheckError, match="second name"):
        check_session(session)


def test_copy_from_a_to_b_gets_on_asking_for_each_diskette_in_turn(tmp_path):
    """COPY run again after each swap passes the swaps already answered: it does not go
    back and forth for ever (as it did when each retry started from A: again)."""
    m, _image = _machine(tmp_path, one_drive_b=True)
    m.type("COPY A:X.TXT B:Y.TXT{ENTER}" + "{TICKS:3} " * 4)
    m.run(30)
    screen = m.screen_text()
    asked = [line[26] for line in screen.splitlines() if line.startswith("Insert diskette for drive")]
    assert "1 File(s) copied" in screen and screen.rstrip().endswith("A:\\>")
    assert asked == ["B", "A", "B", "A"]      # the target, the source, the copy, then A:'s $P
    assert m.dos.drives["A"].physical.stat(["Y.TXT"]).size == 13
