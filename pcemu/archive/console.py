"""The debugger's command line: what ``pcemu debug`` shows and reads at every stop.

Commands come first from a script (``--do "regs; c"``), then from the
terminal.  When there is no more input (a pipe at its end), every later stop
is shown and the run continues, so a debug session can also be a log.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator

from pcemu.archive.debugger import Debugger, DebuggerError, Stop, parse_number

if TYPE_CHECKING:
    from pcemu.machine import Machine

HELP = """commands at a stop:
  c, continue              run on to the next stop
  s, step [N]              run N instructions (default 1), then stop
  r, regs                  registers and flags
  m, mem ADDR [LEN]        bytes at ADDR (hex LEN, default 80h)
  d, disasm [ADDR] [N]     N instructions from ADDR (default CS:IP, 10)
  stack [N]                N words at SS:SP (default 8)
  b, break SPEC            add a breakpoint (see below)
  bl, breaks               list breakpoints
  bd, delete N             delete breakpoint N
  where                    where the CPU is: routine, BASIC line, module offset
  screen                   the text on screen
  time                     virtual time
  q, quit                  stop the machine and leave
ADDR: SEG:OFF (hex; SEG may be cs/ds/es/ss), module:SEG:OFF, dgroup:OFF,
      line:N (BASIC line), or a runtime routine name (RND, TIMER, GOSUB ...)
SPEC: ADDR | int:NN[/AH[/AL]] | port:NNN[/in|/out] | write:ADDR[+LEN]"""

FLAG_NAMES = ((0x800, "OF"), (0x400, "DF"), (0x200, "IF"), (0x80, "SF"), (0x40, "ZF"),
              (0x10, "AF"), (0x04, "PF"), (0x01, "CF"))


class DebugConsole:
    """Turns stops into text and commands into debugger actions."""

    def __init__(self, machine: "Machine", commands: list[str] | None = None,
                 read_line: Callable[[str], str | None] | None = None,
                 write: Callable[[str], None] = print, max_stops: int | None = None) -> None:
        self.m = machine
        self.debugger = Debugger(machine, self.on_stop)
        self.script: Iterator[str] = iter(commands or [])
        self.read_line = read_line
        self.write = write
        self.max_stops = max_stops
        self.input_done = False

    # ------------------------------------------------------------------ at a stop
    def on_stop(self, stop: Stop):
        d = self.debugger
        self.write(self.describe_stop(stop))
        if self.max_stops is not None and d.stops >= self.max_stops:
            self.write(f"(stopped {d.stops} times: --max-stops reached)")
            return "quit"
        while True:
            line = self._next_command()
            if line is None:
                return "continue"
            try:
                action = self.execute(line)
            except DebuggerError as exc:
                self.write(f"error: {exc}")
                continue
            if action is not None:
                return action

    def _next_command(self) -> str | None:
        for line in self.script:
            line = line.strip()
            if line:
                self.write(f"(pcemu) {line}")
                return line
        if self.read_line is None or self.input_done:
            return None
        line = self.read_line("(pcemu) ")
        if line is None:
            self.input_done = True
            self.write("(end of commands: stops are shown and the run continues)")
            return None
        return line.strip() or "help-short"

    def describe_stop(self, stop: Stop) -> str:
        seconds = stop.t / self.m.clock.ips
        what = f"breakpoint #{stop.breakpoint.number} ({stop.breakpoint.spec})" if stop.breakpoint \
            else "step"
        place = self.debugger.where(stop.linear)
        text = f"[{seconds:10.4f} s] {what} at {stop.cs:04X}:{stop.ip:04X}"
        if place:
            text += f"  {place}"
        if stop.detail:
            text += f"\n    {stop.detail}"
        return text

    # ------------------------------------------------------------------ commands
    def execute(self, line: str):
        """Run one command; returns the action for the debugger, or None to read another."""
        words = line.split()
        command, args = words[0].lower(), words[1:]
        d = self.debugger
        if command in ("c", "continue", "cont"):
            return "continue"
        if command in ("s", "step", "si"):
            return ("step", int(args[0]) if args else 1)
        if command in ("q", "quit", "exit"):
            return "quit"
        if command in ("r", "regs", "registers"):
            self.write(self.registers_text())
        elif command in ("m", "mem", "x"):
            if not args:
                raise DebuggerError("mem needs an address: mem ds:0850 10")
            length = parse_number(args[1]) if len(args) > 1 else 0x80
            self.write(self.dump(d.resolve(args[0]), length))
        elif command in ("d", "disasm", "u"):
            where = args[0] if args else None
            count = int(args[1]) if len(args) > 1 else 10
            self.write("\n".join(d.disassemble(where, count)))
        elif command == "stack":
            count = int(args[0]) if args else 8
            cpu = self.m.cpu
            words = [self.m.memory.rw(cpu.ss, cpu.sp + 2 * i) for i in range(count)]
            self.write(f"SS:SP {cpu.ss:04X}:{cpu.sp:04X}  " + " ".join(f"{w:04X}" for w in words))
        elif command in ("b", "break"):
            if not args:
                raise DebuggerError("break needs a SPEC (help lists them)")
            self.write("added " + d.add(" ".join(args)).describe())
        elif command in ("bl", "breaks", "info"):
            self.write("\n".join(b.describe() for b in d.breakpoints.values()) or "no breakpoints")
        elif command in ("bd", "delete"):
            if not args:
                raise DebuggerError("delete needs a breakpoint number")
            try:
                d.delete(int(args[0]))
            except ValueError:
                raise DebuggerError(f"{args[0]!r} is not a breakpoint number") from None
        elif command == "where":
            cpu = self.m.cpu
            self.write(f"{cpu.cs:04X}:{cpu.ip:04X}  {d.where(linear_of(cpu))}".rstrip())
        elif command == "screen":
            self.write(self.m.screen_text())
        elif command == "time":
            m = self.m
            self.write(f"instruction {m.clock.now:,}, {m.clock.seconds():.4f} s, "
                       f"{m.ticks:.1f} ticks; DOS time {m.now_datetime():%H:%M:%S}")
        elif command in ("help", "h", "?"):
            self.write(HELP)
        elif command == "help-short":
            self.write("c continue, s step, r regs, m mem, d disasm, b break, q quit, help")
        else:
            raise DebuggerError(f"unknown command {command!r} (help lists them)")
        return None

    def registers_text(self) -> str:
        r = self.debugger.registers()
        flags = " ".join(name for mask, name in FLAG_NAMES if r["flags"] & mask)
        return (f"AX={r['ax']:04X} BX={r['bx']:04X} CX={r['cx']:04X} DX={r['dx']:04X} "
                f"SI={r['si']:04X} DI={r['di']:04X} BP={r['bp']:04X} SP={r['sp']:04X}\n"
                f"CS={r['cs']:04X} DS={r['ds']:04X} ES={r['es']:04X} SS={r['ss']:04X} "
                f"IP={r['ip']:04X} FLAGS={r['flags']:04X} [{flags}]")

    def dump(self, address: int, length: int) -> str:
        data = self.m.memory.read(address, length)
        lines = []
        for row in range(0, len(data), 16):
            chunk = data[row:row + 16]
            text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in chunk)
            lines.append(f"{address + row:05X}  {chunk.hex(' '):<47}  {text}")
        return "\n".join(lines)


def linear_of(cpu) -> int:
    return ((cpu.cs << 4) + cpu.ip) & 0xFFFFF
