"""The 64 KB system ROM at F000:0000, laid out by a tiny assembler.

Interrupt entry points are real code, so a program that calls, chains to or
single-steps a BIOS vector sees what it would on an AT: STI, pushes, EOIs to
the PIC, IRET.  The work itself is done by a *trap*: a two-byte ``INT FEh``
whose address the machine looks up to find the Python service.  Because the
service is found by the address of the trap, not by the interrupt number a
program executed, chains such as the BASIC runtime's ``INT F0h`` (a saved
copy of the INT 08h vector) reach the BIOS exactly as they did on hardware.

Wait loops (INT 16h AH=00h, DOS console input) are ``STI; trap; JNC done;
HLT; JMP back``: the service sets the live carry flag when there is nothing
yet, the CPU halts until the next interrupt (the machine skips virtual time
straight to it), then asks again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

ROM_SEGMENT = 0xF000
ROM_BASE = ROM_SEGMENT << 4
TRAP_OPCODE = b"\xCD\xFE"

IRET = 0xCF
HLT = 0xF4
# the vectors a Python service can call as guest code, through a trampoline each
GUEST_VECTORS = (0x10, 0x16, 0x29)

# IBM's 6845 parameter tables (INT 1Dh): 40x25, 80x25, graphics, monochrome,
# then page sizes, columns per mode and the CGA mode-control values per mode.
VIDEO_PARAMETERS = bytes([
    0x38, 0x28, 0x2D, 0x0A, 0x1F, 0x06, 0x19, 0x1C, 0x02, 0x07, 0x06, 0x07, 0, 0, 0, 0,
    0x71, 0x50, 0x5A, 0x0A, 0x1F, 0x06, 0x19, 0x1C, 0x02, 0x07, 0x06, 0x07, 0, 0, 0, 0,
    0x38, 0x28, 0x2D, 0x0A, 0x7F, 0x06, 0x64, 0x70, 0x02, 0x01, 0x06, 0x07, 0, 0, 0, 0,
    0x61, 0x50, 0x52, 0x0F, 0x19, 0x06, 0x19, 0x19, 0x02, 0x0D, 0x0B, 0x0C, 0, 0, 0, 0,
    0x00, 0x08, 0x00, 0x10, 0x00, 0x40, 0x00, 0x40,
    40, 40, 80, 80, 40, 40, 80, 80,
    0x2C, 0x28, 0x2D, 0x29, 0x2A, 0x2E, 0x1E, 0x29,
])
# Diskette parameters (INT 1Eh) as the AT BIOS sets them for 360 KB drives.
DISKETTE_PARAMETERS = bytes([0xDF, 0x02, 0x25, 0x02, 0x09, 0x2A, 0xFF, 0x50, 0xF6, 0x0F, 0x02])
# INT 15h AH=C0h system configuration: AT (model FCh, submodel 00h, BIOS rev 01h).
CONFIGURATION_TABLE = bytes([0x08, 0x00, 0xFC, 0x00, 0x01, 0x70, 0x00, 0x00, 0x00, 0x00])


class Stub(Enum):
    """The shape of a ROM entry point's code."""
    SERVICE = "trap; IRET"                  # results in registers, flags in the stacked FLAGS
    WAITING = "STI; trap; JNC done; HLT; JMP back; IRET"   # CF set live: nothing yet, halt
    FAR_RETURN = "trap; RETF"               # INT 25h/26h leave the caller's flags on the stack
    CODE = "its own code in Rom.build"      # IRQ handlers, trampolines, loops


class ServiceKind(str, Enum):
    """Where a trap's Python service leaves the flags its caller gets back."""
    STACK = "stack"      # in the FLAGS the INT pushed (Machine.set_return_flag writes them)
    WAIT = "wait"        # the same, and CF set live means "nothing yet: halt, ask again"
    LIVE = "live"        # in the CPU's FLAGS: the code after the trap (or a RETF) uses them


class Installer(Enum):
    """Who points the entry's vector at it."""
    NONE = "no vector (reached by a jump)"
    POST = "the BIOS, at power-on"
    DOS = "DOS, when it boots"
    DRIVER = "its driver or option, when installed (mouse, --strict, faults)"
    SHELL = "the command interpreter, when it starts (COMMAND.COM's INT 2Eh)"


@dataclass(frozen=True)
class Entry:
    """One ROM entry point: its label, code shape, trap (None: no Python service),
    how that service returns, and the vector that leads there."""
    label: str
    stub: Stub
    trap: str | None
    kind: ServiceKind | None = None
    vector: int | None = None
    installer: Installer = Installer.NONE


def _entry(label: str, stub: Stub, vector: int | None = None,
           installer: Installer = Installer.NONE, trap: str | None = "",
           kind: ServiceKind | None = None) -> Entry:
    """An entry whose trap is named as its label and whose kind follows from its stub,
    unless told otherwise."""
    if kind is None and trap is not None:
        kind = {Stub.SERVICE: ServiceKind.STACK, Stub.WAITING: ServiceKind.WAIT,
                Stub.FAR_RETURN: ServiceKind.LIVE, Stub.CODE: ServiceKind.LIVE}[stub]
    return Entry(label, stub, label if trap == "" else trap, kind, vector, installer)


S, W, F, C = Stub.SERVICE, Stub.WAITING, Stub.FAR_RETURN, Stub.CODE
POST, DOS, DRIVER, SHELL = Installer.POST, Installer.DOS, Installer.DRIVER, Installer.SHELL
# Every entry point, once, in the order its code is laid out (the addresses follow from it).
ENTRIES: tuple[Entry, ...] = (
    _entry("post", C, kind=ServiceKind.STACK),            # F000:E05B, where the reset jumps
    _entry("dummy_iret", C, trap=None),
    _entry("int08", C, 0x08, POST, trap="timer_tick"),
    _entry("int09", C, 0x09, POST, trap="keyboard_scancode"),
    _entry("irq_master", C, trap=None),                   # (IRQ 0-7's other vectors, POST)
    _entry("irq_slave", C, trap=None),                    # (IRQ 8-15's vectors, POST)
    _entry("int10", S, 0x10, POST), _entry("int11", S, 0x11, POST),
    _entry("int12", S, 0x12, POST), _entry("int13", S, 0x13, POST),
    _entry("int14", S, 0x14, POST), _entry("int15", S, 0x15, POST),
    _entry("int17", S, 0x17, POST), _entry("int1a", S, 0x1A, POST),
    _entry("int05", S, 0x05, POST), _entry("int1b", S, 0x1B, POST),
    _entry("int20", S, 0x20, DOS), _entry("int27", S, 0x27, DOS),
    _entry("int2f", S, 0x2F, DOS), _entry("int33", S, 0x33, DRIVER),
    _entry("int23_default", S, 0x23, DOS), _entry("int19", S, 0x19, POST),
    _entry("int18", S, 0x18, POST), _entry("int00_divide", S, 0x00, DRIVER),
    _entry("int06_strict", S, 0x06, DRIVER),
    _entry("int67", S),             # the EMS driver's entry (its header JMPs here; ems.install)
    _entry("int16", W, 0x16, POST), _entry("int21", W, 0x21, DOS),
    _entry("int24_default", W, 0x24, DOS), _entry("int15_wait", W),
    _entry("int25", F, 0x25, DOS), _entry("int26", F, 0x26, DOS),
    _entry("call24", C, trap="int24_returned"),           # INT 24h on DOS's behalf, then resume
    _entry("call23", C, trap="int23_returned"),           # Ctrl-C on DOS's behalf, then retry
    _entry("int29", C, 0x29, DOS, trap=None),             # INT 10h AH=0Eh, as the CON driver
    *(_entry(f"guest_int{v:02x}", C, trap="guest_return") for v in GUEST_VECTORS),
    _entry("guest_write", C, trap="guest_return"),        # CX bytes at DS:SI through INT 29h
    _entry("call5", C),                                   # CP/M-style CALL 5
    _entry("mouse_irq", C, 0x74, DRIVER),
    _entry("shell", C, kind=ServiceKind.WAIT),            # the command interpreter's loop
    _entry("int2e", C, 0x2E, SHELL),                      # a command for the shell (it jumps away)
)
# trap name -> how its service returns (the guest trampolines share one trap)
TRAP_KINDS: dict[str, ServiceKind] = {e.trap: e.kind for e in ENTRIES if e.trap is not None}


def vectors_installed_by(installer: Installer) -> dict[int, str]:
    """vector -> label of the entries ``installer`` points vectors at."""
    return {e.vector: e.label for e in ENTRIES if e.installer is installer and e.vector is not None}


@dataclass
class Rom:
    image: bytearray = field(default_factory=lambda: bytearray(b"\xFF" * 0x10000))
    labels: dict[str, int] = field(default_factory=dict)        # name -> offset in F000
    traps: dict[int, str] = field(default_factory=dict)         # linear address -> service name
    position: int = 0xE000

    # -- assembling -------------------------------------------------------------
    def label(self, name: str) -> int:
        self.labels[name] = self.position
        return self.position

    def emit(self, *parts: int | bytes) -> None:
        for part in parts:
            data = bytes([part]) if isinstance(part, int) else part
            self.image[self.position:self.position + len(data)] = data
            self.position += len(data)

    def trap(self, service: str) -> None:
        if service not in TRAP_KINDS:
            raise ValueError(f"trap {service!r} is not declared in ENTRIES")
        self.traps[ROM_BASE + self.position] = service
        self.emit(TRAP_OPCODE)

    def place(self, offset: int, data: bytes, name: str | None = None) -> None:
        self.image[offset:offset + len(data)] = data
        if name:
            self.labels[name] = offset

    def address(self, name: str) -> tuple[int, int]:
        return ROM_SEGMENT, self.labels[name]

    def linear(self, name: str) -> int:
        return ROM_BASE + self.labels[name]

    # -- routine shapes -----------------------------------------------------------
    def service(self, name: str) -> None:
        """``trap; IRET``: results in registers, flags patched in the stacked FLAGS."""
        self.label(name)
        self.trap(name)
        self.emit(IRET)

    def far_return_service(self, name: str) -> None:
        """``trap; RETF``: INT 25h/26h leave the caller's flags on the stack."""
        self.label(name)
        self.trap(name)
        self.emit(0xCB)

    def waiting_service(self, name: str) -> None:
        """A service that may have to wait for input: it sets CF live to mean 'not yet'."""
        self.label(name)
        self.emit(0xFB)                      # 0: STI
        self.trap(name)                      # 1: trap
        self.emit(0x73, 0x03)                # 3: JNC +3 (to IRET)
        self.label(name + ".idle")
        self.emit(HLT)                       # 5: HLT until an interrupt
        self.emit(0xEB, 0xF8)                # 6: JMP back to STI
        self.emit(IRET)                      # 8: IRET

    def near_call(self, target: int) -> None:
        rel = target - (self.position + 3)
        self.emit(0xE8, rel & 0xFF, (rel >> 8) & 0xFF)

    def joystick_axes(self) -> None:
        """INT 15h AH=84h DX=1, the four resistive inputs, as the AT ROM measures them: per
        axis, interrupts off, fire the game port's one-shots and read 201h until the axis's
        bit falls or 4FFh passes are spent (a timeout reads 0), then, interrupts on, another
        4FFh passes at most until all four bits fall.  With no stick (pcemu's game port)
        every axis times out, so a call costs the program some 30,000 instructions as it
        did on an AT.  (A bit that falls gives the passes made, where the ROM counts PIT
        clocks; pcemu's port has no stick to make one fall.)  The trap has set CF clear in
        the stacked FLAGS; AX, BX, CX, DX get the four axes."""
        axis = self.label("int15.axis")
        self.emit(0xFA, 0xB9, 0xFF, 0x04, 0xEE)      # CLI; MOV CX,4FFh; OUT DX,AL (fire)
        self.emit(0xEC, 0x84, 0xD8, 0xE0, 0x100 - 5)  # measure: IN AL,DX; TEST AL,BL; LOOPNZ
        self.emit(0xE3, 0x07)                        # JCXZ drain (timed out: 0)
        self.emit(0xB8, 0xFF, 0x04, 0x29, 0xC8, 0x89, 0xC1)  # CX = 4FFh - CX, the passes
        self.emit(0xFB, 0x51, 0xB9, 0xFF, 0x04)      # drain: STI; PUSH CX; MOV CX,4FFh
        self.emit(0xEC, 0xA8, 0x0F, 0xE0, 0x100 - 5)  # IN AL,DX; TEST AL,0Fh; LOOPNZ
        self.emit(0x59, 0xC3)                        # POP CX; RET
        self.label("int15.joystick")
        self.emit(0xBA, 0x01, 0x02)                  # MOV DX,201h
        for bit in (1, 2, 4, 8):                     # A(x), A(y), B(x), B(y)
            self.emit(0xB3, bit)                     # MOV BL,bit
            self.near_call(axis)
            if bit != 8:
                self.emit(0x51)                      # PUSH CX
        self.emit(0x89, 0xCA, 0x59, 0x5B, 0x58, IRET)  # MOV DX,CX; POP CX; POP BX; POP AX

    def build(self) -> "Rom":
        # F000:E05B, where the reset vector (F000:FFF0, reached as FFFF:0000 too) jumps:
        # the AT's power-on self test.  A program that jumps there restarts the machine;
        # pcemu stops with that reason.  The code below starts after it.
        self.position = 0xE05B
        self.label("post")
        self.trap("post")
        self.emit(HLT, 0xEB, 0x100 - 3)      # HLT; JMP back (never reached: the trap stops)
        self.label("dummy_iret")
        self.emit(IRET)
        # INT 08h, IBM order: tick count, INT 1Ch, then EOI (DS, AX, DX preserved
        # around INT 1Ch: runtimes hook 1Ch and clobber DX).
        self.label("int08")
        self.emit(0xFB, 0x1E, 0x50, 0x52)     # STI; PUSH DS; PUSH AX; PUSH DX
        self.trap("timer_tick")
        self.emit(0xCD, 0x1C)                # INT 1Ch
        self.emit(0xFA, 0xB0, 0x20, 0xE6, 0x20)  # CLI; MOV AL,20h; OUT 20h,AL
        self.emit(0x5A, 0x58, 0x1F, IRET)    # POP DX; POP AX; POP DS; IRET
        # INT 09h: read the scancode from the controller, translate, EOI.
        self.label("int09")
        self.emit(0x50, 0xE4, 0x60)          # PUSH AX; IN AL,60h
        self.trap("keyboard_scancode")
        self.label("int09.done")
        self.emit(0xFA, 0xB0, 0x20, 0xE6, 0x20, 0x58, IRET)
        self.label("int09.break")            # Ctrl-Break: INT 1Bh, then finish
        self.emit(0xCD, 0x1B, 0xEB, 0x100 - 11)
        self.label("int09.prtsc")            # Print Screen: INT 05h, then finish
        self.emit(0xCD, 0x05, 0xEB, 0x100 - 15)
        # Pause (or Ctrl+Num Lock): EOI, then wait with interrupts on until the next key's
        # INT 09h clears the hold bit (0040:0018 bit 3), as the AT BIOS does.
        self.label("int09.pause")
        self.emit(0xFA, 0xB0, 0x20, 0xE6, 0x20)  # CLI; MOV AL,20h; OUT 20h,AL
        self.emit(0x1E, 0xB8, 0x40, 0x00, 0x8E, 0xD8)  # PUSH DS; MOV AX,0040h; MOV DS,AX
        self.emit(0xFB, HLT)                 # STI; HLT until an interrupt
        self.emit(0xF6, 0x06, 0x18, 0x00, 0x08)  # TEST BYTE [0018h],08h
        self.emit(0x75, 0x100 - 9)           # JNZ back to STI
        self.emit(0x1F, 0x58, IRET)          # POP DS; POP AX; IRET
        self.joystick_axes()
        # Hardware interrupts nobody claimed: acknowledge them so the PIC goes on.
        self.label("irq_master")
        self.emit(0x50, 0xB0, 0x20, 0xE6, 0x20, 0x58, IRET)
        self.label("irq_slave")
        self.emit(0x50, 0xB0, 0x20, 0xE6, 0xA0, 0xE6, 0x20, 0x58, IRET)
        shapes = {Stub.SERVICE: self.service, Stub.WAITING: self.waiting_service,
                  Stub.FAR_RETURN: self.far_return_service}
        for entry in ENTRIES:
            if entry.stub in shapes:
                shapes[entry.stub](entry.label)
        # EXEC and INT 24h need to run guest code and come back to Python.
        self.label("call24")                  # INT 24h on DOS's behalf, then resume
        self.emit(0xCD, 0x24)
        self.trap("int24_returned")
        self.emit(IRET)
        self.label("call23")                  # Ctrl-C on DOS's behalf: INT 23h, then retry
        self.emit(0xCD, 0x23)
        self.trap("int23_returned")
        self.emit(IRET)
        # INT 29h, DOS's fast console output, as the CON driver has it: INT 10h AH=0Eh.
        self.label("int29")
        self.emit(0x50, 0x53, 0xB4, 0x0E, 0xBB, 0x07, 0x00)  # PUSH AX; PUSH BX; MOV AH,0Eh; MOV BX,7
        self.emit(0xCD, 0x10, 0x5B, 0x58, IRET)             # INT 10h; POP BX; POP AX; IRET
        # A Python service's call of a guest interrupt (pcemu/guest.py): INT n, then the
        # trap that resumes the service (which puts CS:IP back after its own trap).
        for vector in GUEST_VECTORS:
            self.label(f"guest_int{vector:02x}")
            self.emit(0xCD, vector)
            self.trap("guest_return")
            self.emit(HLT)                    # never reached: the service resumes elsewhere
        # DOS's string output: CX bytes from DS:SI, each through INT 29h.
        self.label("guest_write")
        self.emit(0xFC, 0xE3, 0x05)           # CLD; JCXZ done
        self.emit(0xAC, 0xCD, 0x29, 0xE2, 0x100 - 5)  # next: LODSB; INT 29h; LOOP next
        self.trap("guest_return")             # done:
        self.emit(HLT)
        # CP/M-style CALL 5: PSP:0005 far-calls 0000:00C0, which jumps here.
        self.label("call5")
        self.trap("call5")
        self.emit(IRET)
        # The mouse's IRQ 12: the driver updates its state; when the program's
        # event handler must run (CF set) it is far-called through the pointer
        # the driver keeps at DS:0080h, with the registers the driver set.
        self.label("mouse_irq")
        self.emit(0x50, 0x53, 0x51, 0x52, 0x56, 0x57, 0x55, 0x1E, 0x06)  # PUSH AX..BP, DS, ES
        self.trap("mouse_irq")
        self.emit(0x73, 0x04)                 # JNC +4 (past the call)
        self.emit(0xFF, 0x1E, 0x80, 0x00)     # CALL FAR [0080h]
        self.emit(0xFA, 0xB0, 0x20, 0xE6, 0xA0, 0xE6, 0x20)  # CLI; EOI to both 8259s
        self.emit(0x07, 0x1F, 0x5D, 0x5F, 0x5E, 0x5A, 0x59, 0x5B, 0x58, IRET)
        # The command interpreter's resident loop (its PSP and stack are in RAM).
        self.label("shell")
        self.emit(0xFB)                       # 0: STI
        self.trap("shell")                    # 1: trap (CF set: wait for a key)
        self.emit(0x73, 0x100 - 5)            # 3: JNC shell: more to do at once
        self.emit(HLT)                        # 5: HLT until an interrupt
        self.emit(0xEB, 0x100 - 8)            # 6: JMP shell
        # INT 2Eh: the shell takes the command line and goes on in its own loop; it
        # jumps back to the caller when the command is done (pcemu/shell/int2e.py).
        self.label("int2e")
        self.trap("int2e")
        self.emit(HLT)                        # never reached: the service jumps away
        self.place(0xE6F5, CONFIGURATION_TABLE, "configuration_table")
        self.place(0xEFC7, DISKETTE_PARAMETERS, "diskette_parameters")
        self.place(0xF0A4, VIDEO_PARAMETERS, "video_parameters")
        # the 8x8 font for graphics-mode characters 00h-7Fh lives at F000:FA6E
        self.labels["font8x8"] = 0xFA6E
        self.place(0xFFF0, bytes([0xEA, 0x5B, 0xE0, 0x00, 0xF0]), "reset")
        self.place(0xFFF5, b"01/10/84", "bios_date")
        self.place(0xFFFE, bytes([0xFC]), "model")
        self.image[0xFF53] = IRET                        # IBM's dummy return, where programs expect it
        assert self.position < 0xE6F5, "ROM code overflows into the tables"
        missing = {e.label for e in ENTRIES} - set(self.labels)
        assert not missing and set(self.traps.values()) == set(TRAP_KINDS), \
            f"ENTRIES and the code laid out differ: {sorted(missing)}"
        return self
