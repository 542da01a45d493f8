"""Running tiny assembled programs on the machine, for the DOS and BIOS conformance tests.

A test writes its program in assembler (keystone, 16-bit, a .COM at 0100h),
puts it with any data files in a folder that the machine mounts as C:, types
its name at the prompt and waits for it to end.  Programs report what they saw
by storing it at ``RESULTS`` (an offset in their own segment) or in files; the
test reads them back with `Run.results`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pcemu.machine import Machine
from tests.machine_helpers import assemble

_NEAR_CALL = re.compile(r"^(\s*(?:\w+:\s*)?)call\s+([A-Za-z_]\w*)\s*$", re.IGNORECASE)
_REGISTERS = {"ax", "bx", "cx", "dx", "si", "di", "bp", "sp"}
_RETURN = re.compile(r"^(\s*(?:\w+:\s*)?)(retf|ret)(?:\s+(\w+))?\s*$", re.IGNORECASE)


def assemble16(source: str) -> bytes:
    """Keystone in 16-bit mode still encodes near CALL/RET and RETF with a 66h
    (32-bit) prefix; those are written out as 16-bit opcodes here."""
    lines = []
    for line in source.splitlines():
        line = line.split(";")[0]
        call = _NEAR_CALL.match(line)
        ret = _RETURN.match(line)
        if call and call.group(2).lower() not in _REGISTERS:
            line = f"{call.group(1)}.byte 0xe8\n.word {call.group(2)} - . - 2"
        elif ret:
            far = ret.group(2).lower() == "retf"
            if ret.group(3):
                line = f"{ret.group(1)}.byte {0xCA if far else 0xC2}\n.word {ret.group(3)}"
            else:
                line = f"{ret.group(1)}.byte {0xCB if far else 0xC3}"
        lines.append(line)
    return assemble("\n".join(lines))


RESULTS = 0x2000            # where programs store what the test checks (in their PSP segment)
CARRIES = RESULTS + 0x100   # one byte per slot: CF after the call


def dos_call(slot: int, interrupt: int = 0x21) -> str:
    """INT 21h (or another), then AX into result word ``slot`` and CF into carry byte
    ``slot``; AX is kept, the flags are not."""
    return f"""
    int {interrupt:#x}
    mov [{RESULTS + 2 * slot:#x}], ax
    push ax
    mov al, 0
    adc al, 0
    mov [{CARRIES + slot:#x}], al
    pop ax
"""


END_OF_PROGRAM = """
    mov ax, 0x4c00
    int 0x21
"""


@dataclass
class Run:
    machine: Machine
    folder: Path
    psps: list[int] = field(default_factory=list)   # every program started, in order

    @property
    def psp(self) -> int:
        return self.psps[0]

    def results(self, size: int, offset: int = RESULTS, psp: int | None = None) -> bytes:
        segment = self.psp if psp is None else psp
        return self.machine.memory.read_far(segment, offset, size)

    def words(self, count: int, offset: int = RESULTS, psp: int | None = None) -> list[int]:
        data = self.results(2 * count, offset, psp)
        return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]

    def ax(self, slot: int) -> int:
        return self.words(1, RESULTS + 2 * slot)[0]

    def carry(self, slot: int) -> bool:
        return bool(self.results(1, CARRIES + slot)[0])

    def asciiz(self, offset: int) -> str:
        return self.machine.memory.read_asciiz(self.psp, offset).decode("latin-1")

    @property
    def screen(self) -> str:
        return self.machine.screen_text()


def machine_with(tmp_path: Path, programs: dict[str, str], files: dict[str, bytes] | None = None,
                 mounts: dict | None = None, **options) -> Run:
    """A booted machine with the assembled ``programs`` (name -> source) and ``files`` on C:.

    ``mounts`` adds drives (letter -> FloppyImage or Drive) before DOS boots.
    """
    folder = tmp_path / "c"
    folder.mkdir(exist_ok=True)
    for name, source in programs.items():
        (folder / name.upper()).write_bytes(assemble16(source))
    for name, data in (files or {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    m = Machine(host_dirs={"C": folder}, boot=False, **options)
    for letter, drive in (mounts or {}).items():
        m.dos.mount(letter, drive)
    m.boot(wait_text=None)
    run = Run(m, folder)
    m.events.exec.connect(lambda _path, psp: run.psps.append(psp))
    return run


def run_command(run: Run, command: str, max_ticks: float = 400, keys: str = "") -> None:
    """Type a command line, then ``keys``; wait until the program ended and the prompt is back."""
    m = run.machine
    ended = len(m.dos.shell.exit_codes)
    m.type(command + "{ENTER}" + keys)
    m.run_until(condition=lambda mm: len(mm.dos.shell.exit_codes) > ended and mm.dos.shell.at_prompt,
                max_ticks=max_ticks)


def run_program(tmp_path: Path, source: str, files: dict[str, bytes] | None = None,
                keys: str = "", tail: str = "", **options) -> Run:
    """Boot, run ``source`` as C:\\T.COM (with an optional command tail) and wait for its end."""
    run = machine_with(tmp_path, {"T.COM": source}, files, **options)
    run.machine.type("C:{ENTER}")
    run_command(run, "T" + tail, keys=keys)
    return run
