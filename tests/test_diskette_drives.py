"""How many diskette drives the machine has, and that INT 11h, INT 13h and DOS agree.

A diskette in A: alone gives a one-drive machine with no B: (as DOSBox has none):
a program that names B: itself, as CDIR.EXE (PC-SIG disk 607) does, gets "invalid
drive" back at once instead of INT 24h's "Not ready reading drive B".
"""
from __future__ import annotations

import pytest

from pcemu.machine import Machine
from pcemu.storage.errors import MountError
from pcemu.storage.image import format_image
from pcemu.storage.mount import diskette_drives
from tests.dos_harness import END_OF_PROGRAM, RESULTS, Run, assemble16, dos_call, run_command

# INT 11h, INT 13h AH=15h for B:, AH=08h for A:, then an extended FCB search and a
# handle open that both name B:.
PROBE = f"""
    int 0x11
    mov [{RESULTS}], ax
    mov ah, 0x15
    mov dl, 1
    int 0x13
    mov [{RESULTS + 2}], ax
    mov ah, 0x08
    mov dl, 0
    int 0x13
    mov [{RESULTS + 4}], dx
    mov dx, xfcb
    mov ah, 0x11
    int 0x21
    mov [{RESULTS + 6}], ax
    mov ax, 0x3d00
    mov dx, fname
    {dos_call(4)}
    {END_OF_PROGRAM}
xfcb: .byte 0xff, 0, 0, 0, 0, 0, 0x3f, 2
    .ascii "???????????"
    .byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
fname: .asciz "B:X.TXT"
"""


def _probe(tmp_path, keys: str = "", **options) -> Run:
    image = tmp_path / "a.img"
    image.write_bytes(format_image("360K", label="ONLY"))
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "T.COM").write_bytes(assemble16(PROBE))
    m = Machine(disks=[f"A:{image}"], host_dirs={"C": folder}, **options)
    run = Run(m, folder)
    m.events.exec.connect(lambda _path, psp: run.psps.append(psp))
    m.type("C:{ENTER}")
    run_command(run, "T", keys=keys, max_ticks=18.2 * 5)
    return run


def test_a_diskette_in_a_alone_makes_a_one_drive_machine_without_b(tmp_path):
    run = _probe(tmp_path)
    m = run.machine
    equipment, no_drive, drives, search = run.words(4)
    assert m.floppy_drives == 1 and "B" not in m.dos.drives
    assert equipment & 0x01 and (equipment >> 6) & 3 == 0       # one diskette drive
    assert no_drive >> 8 == 0                                   # INT 13h AH=15h: B: not present
    assert drives & 0xFF == 1                                   # INT 13h AH=08h: one drive
    assert search & 0xFF == 0xFF                                # the FCB search fails quietly
    assert run.carry(4)                                         # so does the handle open
    assert "Not ready" not in m.screen_text()


def test_two_drives_asked_for_keep_an_empty_b_that_is_not_ready(tmp_path):
    run = _probe(tmp_path, keys="{WAIT:Abort, Retry, Fail?}F{WAIT:Abort, Retry, Fail?}F",
                 floppy_drives=2)
    equipment, no_drive, drives, search = run.words(4)
    assert (equipment >> 6) & 3 == 1 and no_drive >> 8 == 0x01 and drives & 0xFF == 2
    assert search & 0xFF == 0xFF and run.carry(4)
    assert run.machine.screen_text().count("Not ready reading drive B") == 2


def test_the_drive_count_follows_the_mounted_letters():
    assert diskette_drives({"A": object()}) == 1
    assert diskette_drives({"B": object()}) == 2                # A: is there, empty
    assert diskette_drives({"A": object(), "B": object()}) == 2
    assert diskette_drives({"C": object()}) == 2                # no diskette given: the AT's two
    assert diskette_drives({}) == 2
    assert diskette_drives({"A": object()}, 2) == 2
    with pytest.raises(MountError, match="needs 2 diskette drives"):
        diskette_drives({"B": object()}, 1)
    with pytest.raises(MountError, match="1 or 2"):
        diskette_drives({}, 3)
