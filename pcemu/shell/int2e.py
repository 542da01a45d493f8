"""INT 2Eh: COMMAND.COM's "pass a command to the primary shell".

DS:SI points to a command line laid out as at PSP:80h (a count byte, the text,
a CR).  COMMAND.COM (its resident INT_2E and RET_2E, the same in Microsoft's
published MS-DOS 2.0 and 4.0 sources, so in 3.30 between them) copies 128
bytes from there to its own PSP:80h, makes itself the current process and runs
the text up to the CR (the count byte is not used) as if it had been typed at
its prompt, but with no prompt and no blank lines around it: SET changes the
primary shell's own environment, programs and batch files run, redirection
works, ERRORLEVEL is set.  Then the caller's PSP is current again and the
caller goes on after its INT 2Eh with AX = the termination word AH=4Dh gave
for the program the line ran (type in AH, code in AL), or 0 when the line was
an internal command, a batch file, or nothing that could run.  All other
registers are undefined, as documented.

How this follows COMMAND.COM, and where it does not:
- the line is taken where the interpreter would read a typed one, so a batch
  file the shell is in the middle of (the caller was started from it) runs its
  remaining lines first, as COMMAND.COM's batch precedence makes it do;
- a batch file given as the command runs to its end, then the caller resumes;
- one save area, as COMMAND.COM has: an INT 2Eh made while another is running
  replaces it, and the first caller never gets control back (its memory stays
  allocated); the shell goes back to its prompt when the program it was
  waiting for ends;
- a critical error answered Abort or Fail ends the command; the caller resumes;
- the caller resumes on its own stack (SS:SP as after its INT frame) with its
  own FLAGS, where COMMAND.COM left SS:SP on its own stack; and the caller's DTA
  is put back, which COMMAND.COM does not do itself (here a program's end sets
  the DTA to its parent's PSP:80h, the shell's);
- a caller inside a pipe (``A | B``): the pipe's later stages run when the
  caller ends, not inside its INT 2Eh as COMMAND.COM's pipe precedence would.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pcemu.shell import Shell
    from pcemu.shell.redirection import Pipeline

COMMAND_LINE = 0x80         # where COMMAND.COM copies the caller's line (its own PSP:80h)
COPIED = 128                # bytes it copies (REP MOVSW, 64 words)
LINE_LIMIT = 127            # the longest text its command buffer takes


@dataclass
class Int2eCall:
    """The one INT 2Eh in progress: what COMMAND.COM keeps in INT_2E_RET and SAVE_PDB,
    and what the Python shell was doing when the call came."""
    line: str | None                  # the command, until the interpreter takes it
    resume: dict                      # cs, ip, flags, ss, sp after the caller's INT 2Eh
    caller_psp: int
    caller_dta: tuple[int, int]
    waiting_for: str | None           # the program the shell was running (its state.running)
    pipeline: "Pipeline | None"       # the pipe that program is part of


def install(shell: "Shell") -> None:
    """Point INT 2Eh at the ROM's entry, whose trap calls ``take_command``."""
    vectors = shell.ctx.vectors
    vectors.register_service("int2e", lambda ctx: take_command(shell))
    vectors.point_entry("int2e")


def take_command(shell: "Shell") -> None:
    """The INT 2Eh service: hand the line to the interpreter and go on in its loop."""
    ctx = shell.ctx
    cpu = ctx.cpu
    mem = ctx.memory
    dos = ctx.dos
    st = shell.state
    data = mem.read_far(cpu.ds, cpu.si, COPIED)
    mem.write((shell.psp << 4) + COMMAND_LINE, data)
    text = data[1:].split(b"\r")[0][:LINE_LIMIT]
    ss, sp = cpu.ss, cpu.sp
    resume = dict(ip=mem.rw(ss, sp), cs=mem.rw(ss, sp + 2), flags=mem.rw(ss, sp + 4),
                  ss=ss, sp=(sp + 6) & 0xFFFF)
    # a call made while one is running takes its place, as COMMAND.COM's one save area
    shell.single = Int2eCall(text.decode("cp437"), resume, dos.current_psp, dos.dta,
                             st.running, st.pipeline)
    st.running = None
    st.pipeline = None
    shell.at_prompt = False                 # (a resident program may call it at the prompt)
    dos.current_psp = shell.psp
    cpu.jump(*ctx.vectors.rom.address("shell"))


def return_to_caller(shell: "Shell") -> None:
    """The command is done: the caller's process again, AX the command's result."""
    ctx = shell.ctx
    cpu = ctx.cpu
    dos = ctx.dos
    call, shell.single = shell.single, None
    st = shell.state
    st.running = call.waiting_for
    st.pipeline = call.pipeline
    dos.current_psp = call.caller_psp
    dos.dta = call.caller_dta
    resume = call.resume
    cpu.set_registers(ax=shell.termination if shell.external_ran else 0,
                      ss=resume["ss"], sp=resume["sp"])
    cpu.jump(resume["cs"], resume["ip"])
    cpu.flags = resume["flags"]
