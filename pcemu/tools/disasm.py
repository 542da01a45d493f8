"""16-bit disassembly of a DOS load module with segment:offset addresses.

Capstone decodes; this module adds what reading a real-mode program needs:
addresses as SEG:OFF (segments relative to the load module, as in the MZ
header), branch targets wrapped to 16 bits (capstone prints a backward
``jmp`` near offset 0 as ``0xffff95dd``), names for call and jump targets, and
comments for operands that point at text in a data segment (a plain ASCII run,
or a BASIC string descriptor: length word, then a pointer to the characters).
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass

import capstone

_PRINTABLE = re.compile(rb"[\x20-\x7e]{4,}")
_HEX = re.compile(r"0x[0-9a-f]+")
_NUMBER = re.compile(r"0x[0-9a-f]+|[0-9]+")    # capstone prints values below 10 in decimal
_BRANCH = {"call", "jmp", "loop", "loope", "loopne", "jcxz", "jecxz"}
# capstone names 98h/99h by their 32-bit forms even in 16-bit mode
_MNEMONIC_16 = {"cdq": "cwd", "cwde": "cbw"}


@dataclass(frozen=True)
class Line:
    segment: int
    offset: int
    raw: bytes
    mnemonic: str
    operands: str
    comment: str = ""

    @property
    def linear(self) -> int:
        return self.segment * 16 + self.offset

    def __str__(self) -> str:
        text = f"{self.segment:04X}:{self.offset:04X}  {self.raw.hex():<14} {self.mnemonic:<7} {self.operands}"
        return f"{text:<64} ; {self.comment}" if self.comment else text


def _cs() -> capstone.Cs:
    md = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_16)
    md.detail = False
    return md


class Disassembler:
    """Disassembles ranges of one load module.

    ``names`` maps linear addresses (SEG*16+OFF in the load module) to labels;
    ``data`` is the data segment (usually DGROUP) as the program sees it, in
    which operands' offsets are looked up for string comments.
    """

    def __init__(self, image: bytes, names: dict[int, str] | None = None,
                 data: bytes | None = None, inline: dict[int, int] | None = None) -> None:
        self.image = image
        self.names = dict(names or {})
        self.data = data
        # routines that read operand bytes placed after the call (linear address -> count)
        self.inline = dict(inline or {})
        self._md = _cs()

    def string_reference(self, offset: int) -> str | None:
        data = self.data
        if data is None or offset + 4 > len(data):
            return None
        length, pointer = struct.unpack_from("<HH", data, offset)
        if 0 < length <= 255 and pointer + length <= len(data):
            text = data[pointer:pointer + length]
            if all(0x20 <= b < 0x7F for b in text):
                return f"descriptor -> {bytes(text).decode('ascii')!r}"
        match = _PRINTABLE.match(data, offset, min(len(data), offset + 60))
        return repr(match.group().decode("ascii")) if match else None

    def _target(self, segment: int, mnemonic: str, operands: str) -> int | None:
        """Linear address a direct call or jump goes to, else None."""
        if not (mnemonic in _BRANCH or mnemonic.startswith("j") or mnemonic in ("lcall", "ljmp")):
            return None
        parts = [p.strip() for p in operands.split(",")]
        if not all(_NUMBER.fullmatch(p) for p in parts):
            return None
        if len(parts) == 2:                                        # far: seg, off
            return int(parts[0], 0) * 16 + int(parts[1], 0)
        return segment * 16 + (int(parts[0], 0) & 0xFFFF)

    def _annotate(self, segment: int, mnemonic: str, operands: str) -> tuple[str, str]:
        notes: list[str] = []
        target = self._target(segment, mnemonic, operands)
        if target is not None and "," in operands:
            seg_text, off_text = (p.strip() for p in operands.split(","))
            operands = f"{int(seg_text, 0):04X}:{int(off_text, 0):04X}"
            if target in self.names:
                notes.append(self.names[target])
        elif target is not None:
            operands = f"{target - segment * 16:04X}h"
            name = self.names.get(target)
            if name:
                notes.append(name)
        else:
            for text in _HEX.findall(operands):
                value = int(text, 16)
                if value >= 0x20:
                    ref = self.string_reference(value & 0xFFFF)
                    if ref:
                        notes.append(ref)
                        break
        return operands, "; ".join(notes)

    def lines(self, segment: int, start: int, end: int) -> list[Line]:
        """Instructions of SEG:start up to SEG:end (exclusive); undecodable bytes become ``db``."""
        out: list[Line] = []
        base = segment * 16
        off = start
        while off < end:
            chunk = self.image[base + off: base + min(end, off + 16)]
            if not chunk:
                break
            insn = next(self._md.disasm(chunk, off, 1), None)
            if insn is None or off + insn.size > end:
                out.append(Line(segment, off, chunk[:1], "db", f"{chunk[0]:02X}h"))
                off += 1
                continue
            mnemonic = _MNEMONIC_16.get(insn.mnemonic, insn.mnemonic) if insn.bytes[0] != 0x66 else insn.mnemonic
            operands, comment = self._annotate(segment, mnemonic, insn.op_str)
            label = self.names.get(base + off)
            if label:
                comment = f"<{label}> {comment}".strip()
            out.append(Line(segment, off, bytes(insn.bytes), mnemonic, operands, comment))
            off += insn.size
            target = self._target(segment, mnemonic, insn.op_str)
            count = self.inline.get(target, 0) if mnemonic in ("call", "lcall") else 0
            if count and off + count <= end:
                raw = self.image[base + off: base + off + count]
                if count == 2:
                    word = raw[0] | raw[1] << 8
                    note = self.names.get(base + word, "")
                    out.append(Line(segment, off, raw, "dw", f"{word:04X}h", note))
                else:
                    out.append(Line(segment, off, raw, "db", ", ".join(f"{b:02X}h" for b in raw)))
                off += count
        return out

    def text(self, segment: int, start: int, end: int) -> str:
        return "\n".join(str(line) for line in self.lines(segment, start, end))


def disassemble(image: bytes, segment: int, start: int, end: int, *,
                names: dict[int, str] | None = None, data: bytes | None = None,
                inline: dict[int, int] | None = None) -> str:
    """Convenience: the listing of SEG:start..SEG:end as text."""
    return Disassembler(image, names, data, inline).text(segment, start, end)
