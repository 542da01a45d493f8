"""Where things are in one program: runtime routines, BASIC lines, DGROUP, at its load address.

Built from the executable's bytes (``pcemu.tools.exe.analyse``: EXEPACK is
undone, the QuickBASIC runtime's routines are found by their byte signatures,
the statement table gives BASIC line numbers) and the segment the program was
loaded at.  With ``load_segment=0`` addresses are those of the load module, as
``pcemu exe-info`` and the internals notes give them; in a running machine
the load segment is the PSP + 10h.

``ProgramMap.listing`` disassembles with capstone (``pcemu.tools.disasm``),
naming runtime calls, GOSUB targets and statement starts, and showing the
strings that operands point at in DGROUP.
"""
from __future__ import annotations

import struct

from dataclasses import dataclass, field

from pcemu.tools.disasm import Disassembler, Line
from pcemu.tools.exe import ExeError, ExeReport, analyse
from pcemu.tools.signatures import inline_operand_sizes


class MapError(ExeError):
    pass


@dataclass
class ProgramMap:
    name: str
    load_segment: int
    report: ExeReport | None = None
    routines: dict[str, int] = field(default_factory=dict)     # name -> linear (loaded)
    names: dict[int, str] = field(default_factory=dict)        # linear -> label
    lines: dict[int, int] = field(default_factory=dict)        # linear -> BASIC line
    inline: dict[int, int] = field(default_factory=dict)
    dgroup: int | None = None                                  # loaded segment
    runtime_segment: int | None = None                         # loaded segment

    com_image: bytes | None = None                             # a .COM file, as loaded at 0100h

    @classmethod
    def from_exe(cls, data: bytes, load_segment: int = 0, name: str = "program") -> "ProgramMap":
        """The map of an MZ executable; a .COM file has no structure to map (no names)."""
        if data[:2] not in (b"MZ", b"ZM"):
            return cls(name, load_segment, com_image=bytes(0x100) + data)
        report = analyse(data)
        base = load_segment * 16
        pm = cls(name, load_segment, report)
        runtime = report.runtime
        if runtime is not None:
            pm.routines = {n: base + linear for n, linear in runtime.routines.items()}
            pm.inline = {base + linear: size for linear, size in inline_operand_sizes(runtime).items()}
            if runtime.segment is not None:
                pm.runtime_segment = runtime.segment + load_segment
        if report.layout is not None:
            pm.dgroup = report.layout.dgroup + load_segment
            pm.lines = {base + offset: line for offset, line in report.layout.lines.items()}
        for offset, line in pm.lines.items():
            pm.names[offset] = f"line {line}"                 # every statement start (INT 3)
        pm.names.update({linear: n for n, linear in pm.routines.items()})
        pm._name_def_fns()
        return pm

    def _name_def_fns(self) -> None:
        """Name each DEF FN body by its line: the bodies start with a far call to the runtime's
        DEF FN entry, and the program reaches them with near calls (``A = FNR(N)``)."""
        enter = self.routines.get("DEF_FN_ENTER")
        if enter is None or self.runtime_segment is None:
            return
        base = self.load_segment * 16
        segment = self.runtime_segment - self.load_segment
        call = b"\x9a" + struct.pack("<HH", enter - self.runtime_segment * 16, segment)
        image, at = self.image, 0
        while (at := image.find(call, at)) >= 0:
            line = self.line_at(base + at)
            self.names.setdefault(base + at, f"DEF FN (line {line})" if line is not None else "DEF FN")
            at += 1

    @property
    def image(self) -> bytes:
        if self.report is None:
            return self.com_image or b""
        return self.report.program.image

    # ------------------------------------------------------------------ lookups
    def routine(self, name: str) -> int:
        for known, linear in self.routines.items():
            if known.upper() == name.upper():
                return linear
        known = ", ".join(sorted(self.routines)) or "none were recognised"
        raise MapError(f"no runtime routine {name!r} in {self.name} (known: {known})")

    def line_range(self, first: int, last: int | None = None) -> tuple[int, int]:
        """Linear [start, end) of BASIC lines first..last: from the first statement of
        ``first`` to the first statement of the next line after ``last``."""
        last = first if last is None else last
        if not self.lines:
            raise MapError(f"{self.name} has no BASIC statement table")
        inside = [a for a, line in self.lines.items() if first <= line <= last]
        if not inside:
            raise MapError(f"no BASIC line between {first} and {last} in {self.name}")
        start = min(inside)
        after = [a for a, line in self.lines.items() if line > last and a > start]
        end = min(after) if after else max(inside) + 1
        return start, end

    def line_at(self, linear: int) -> int | None:
        """The BASIC line whose statement contains ``linear`` (main program only)."""
        if not self.lines:
            return None
        end = self.load_segment * 16 + 0x10000
        if self.runtime_segment is not None:
            end = min(end, self.runtime_segment * 16)
        before = [a for a in self.lines if a <= linear]
        if not before or linear >= end:
            return None
        return self.lines[max(before)]

    def routine_containing(self, linear: int, reach: int = 0x100) -> tuple[str, int] | None:
        """The runtime routine that starts at most ``reach`` bytes before ``linear``."""
        best = None
        for name, start in self.routines.items():
            if start <= linear < start + reach and (best is None or start > best[1]):
                best = (name, start)
        return best

    def describe(self, linear: int) -> str:
        """'RND', 'line 10650', or module-relative SEG:OFF for an address in this program."""
        parts = []
        if linear in self.names:
            parts.append(self.names[linear])
        else:
            line = self.line_at(linear)
            routine = self.routine_containing(linear)
            if routine is not None:
                parts.append(f"{routine[0]}+{linear - routine[1]:X}h")
            elif line is not None:
                parts.append(f"in line {line}")
        rel = linear - self.load_segment * 16
        if 0 <= rel < len(self.image):
            segment = self._segment_for(rel)           # as pcemu disasm and exe-info number it
            parts.append(f"{self.name} {segment:04X}:{rel - segment * 16:04X}")
        return ", ".join(parts)

    # ------------------------------------------------------------------ listings
    def disassembler(self, image: bytes, data: bytes | None = None, absolute: bool = False) -> Disassembler:
        """A disassembler over ``image`` (the load module, or all of memory if ``absolute``)."""
        shift = 0 if absolute else -self.load_segment * 16
        names = {linear + shift: n for linear, n in self.names.items()}
        inline = {linear + shift: n for linear, n in self.inline.items()}
        return Disassembler(image, names, data, inline)

    def static_listing(self, start: int, end: int) -> list[Line]:
        """Lines of the load module between linear (module) addresses start..end."""
        image = self.image
        data = self.com_image                       # a .COM's data is in its one segment
        if self.report is not None and self.report.layout is not None:
            data = self.report.layout.initial_dgroup(image)
        segment = self._segment_for(start - self.load_segment * 16)
        dis = self.disassembler(image, data)
        base = start - self.load_segment * 16
        return dis.lines(segment, base - segment * 16, end - self.load_segment * 16 - segment * 16)

    def listing_from(self, start: int, count: int) -> list[Line]:
        """``count`` instructions (and inline operands) from linear ``start``."""
        return self.static_listing(start, start + count * 8)[:count]

    def _segment_for(self, module_linear: int) -> int:
        """The module segment code at this address runs in: the runtime's, or the program's."""
        if self.runtime_segment is not None:
            runtime = (self.runtime_segment - self.load_segment) * 16
            if runtime <= module_linear < runtime + 0x10000:
                return self.runtime_segment - self.load_segment
        return module_linear >> 16 << 12
