"""Microsoft EXEPACK: detect it and unpack it the way its own stub does.

EXEPACK (the standalone tool and LINK /EXEPACK) replaces a program's load
module with backwards-RLE-compressed data followed by a block at the new CS:
a header, the unpacker stub, the message "Packed file is corrupt" and a packed
relocation table.  At run time the stub

1. copies its block to ``dest_len`` paragraphs past the load segment (out of
   the way of the output),
2. skips up to 16 bytes of FFh padding before the end of the packed data,
3. runs commands from the end of the data towards its start, each a command
   byte, a 16-bit length below it and (for a fill) a fill byte below that:
   ``B0h``/``B1h`` write ``length`` copies of the byte, ``B2h``/``B3h`` copy
   ``length`` bytes, all backwards; bit 0 marks the last command; any other
   command byte prints "Packed file is corrupt" and exits,
4. applies the relocation table: 16 sections, one per 64 KB (segment 0000h,
   1000h, ... F000h), each a count and that many offsets,
5. sets SS:SP and jumps to the real CS:IP.

Before each command the stub normalises both far pointers so that the offset
is FFF0h-FFFFh; a command longer than the offset then wraps inside the
segment.  This module keeps the same segment:offset arithmetic, so even that
corner behaves as on the real machine.  Addresses are relative to the load
segment (PSP+10h); anything that would reach below it (into the PSP) is
reported as corruption rather than emulated.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

from pcemu.tools.mz import ExeError, MZFile, build_mz, parse_mz

SIGNATURE = b"RB"
CORRUPT_MESSAGE = b"Packed file is corrupt"
# push cs / pop ds / mov bx,[4]: follows "mov si, <reloc table>" in every known stub
_RELOC_SETUP = bytes.fromhex("0e1f8b1e0400")

# Stub lengths (entry point to packed relocation table) of the known variants.
KNOWN_VARIANTS = {
    258: "EXEPACK 3.00/4.00, LINK 3.x /EXEPACK (258-byte stub, 16-byte header)",
    277: "LINK 3.60+ /EXEPACK (277-byte stub, 16-byte header, A20-safe)",
    279: "EXEPACK 4.03 (279-byte stub, 18-byte header)",
    283: "EXEPACK 4.05/4.06 (283-byte stub, 18-byte header)",
    290: "LINK 5.60 /EXEPACK (290-byte stub, 18-byte header)",
}


class ExepackCorrupt(ExeError):
    """The file carries an EXEPACK stub but its packed data cannot be unpacked."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"EXEPACK: packed file is corrupt: {reason}")


@dataclass(frozen=True)
class ExepackHeader:
    real_ip: int
    real_cs: int
    mem_start: int          # scratch word the stub fills in at run time
    exepack_size: int       # header + stub + message + packed relocation table
    real_sp: int
    real_ss: int
    dest_len: int           # paragraphs from the load segment to where the block moves
    skip_len: int           # paragraphs between packed data and the block, plus 1
    header_size: int        # 16 (no skip_len field, which is then 1) or 18


@dataclass
class ExepackInfo:
    header: ExepackHeader
    block_offset: int               # CS*16 in the packed load module
    stub_length: int                # entry point to relocation table
    variant: str
    reloc_table_offset: int         # within the block
    packed_data_end: int            # end of the compressed data in the load module
    padding: int                    # FFh bytes skipped before the first command
    commands: int
    unpacked_size: int
    relocations: list[tuple[int, int]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def find_exepack(mz: MZFile) -> ExepackHeader | None:
    """The EXEPACK header if the entry point is an EXEPACK stub, else None.

    The test is the one the stub itself implies: IP is the header size (16
    or 18) and the header ends with the signature "RB" just before CS:IP."""
    h = mz.header
    base = h.e_cs * 16
    if h.e_ip not in (16, 18) or base + h.e_ip > len(mz.image):
        return None
    if mz.image[base + h.e_ip - 2: base + h.e_ip] != SIGNATURE:
        return None
    words = struct.unpack_from("<7H", mz.image, base)
    skip = struct.unpack_from("<H", mz.image, base + 14)[0] if h.e_ip == 18 else 1
    return ExepackHeader(*words, skip_len=skip, header_size=h.e_ip)


def _reloc_table_offset(block: bytes, header_size: int) -> int:
    """Where the stub's ``mov si, imm16`` points: the packed relocation table."""
    at = block.find(_RELOC_SETUP, header_size)
    if at >= 3 and block[at - 3] == 0xBE:
        return struct.unpack_from("<H", block, at - 2)[0]
    msg = block.find(CORRUPT_MESSAGE, header_size)
    if msg >= 0:
        return msg + len(CORRUPT_MESSAGE)
    raise ExepackCorrupt("cannot find the relocation table: the stub matches no known EXEPACK variant")


def _read_reloc_table(block: bytes, start: int, end: int) -> list[tuple[int, int]]:
    relocs: list[tuple[int, int]] = []
    pos = start
    for section in range(16):
        if pos + 2 > end:
            raise ExepackCorrupt(f"relocation table ends inside section {section} (at block offset {pos:#x})")
        count = struct.unpack_from("<H", block, pos)[0]
        pos += 2
        if pos + 2 * count > end:
            raise ExepackCorrupt(f"relocation section {section} claims {count} entries, "
                                 f"more than the {end - pos} bytes left in the block")
        for off in struct.unpack_from(f"<{count}H", block, pos):
            relocs.append((section * 0x1000, off))
        pos += 2 * count
    return relocs


class _FarPointer:
    """A segment:offset pair with 16-bit offset arithmetic, relative to the load segment."""

    def __init__(self, seg: int, off: int) -> None:
        self.seg, self.off = seg, off

    def normalise(self) -> None:
        # the stub: ax = ~off >> 4; if ax: seg -= ax; off |= FFF0h (linear address unchanged)
        paras = (~self.off & 0xFFFF) >> 4
        if paras:
            self.seg -= paras
            self.off |= 0xFFF0

    def linear(self) -> int:
        return self.seg * 16 + self.off

    def runs(self, count: int) -> list[tuple[int, int]]:
        """Linear (start, length) pieces that ``count`` backwards steps from here
        touch, lowest address last, and the pointer moved past them."""
        pieces = []
        while count:
            n = min(count, self.off + 1)
            pieces.append((self.seg * 16 + self.off - n + 1, n))
            self.off = (self.off - n) & 0xFFFF
            count -= n
        return pieces


def _check_range(start: int, length: int, size: int, what: str) -> None:
    if start < 0 or start + length > size:
        raise ExepackCorrupt(f"{what} reaches outside the program "
                             f"(linear {start:#x}..{start + length:#x}, memory {size:#x})")


def _backward_copy(mem: bytearray, src_end: int, dst_end: int, count: int) -> None:
    """``std; rep movsb`` of ``count`` bytes ending at src_end/dst_end (exclusive)."""
    if dst_end >= src_end or dst_end <= src_end - count:
        mem[dst_end - count:dst_end] = mem[src_end - count:src_end]
    else:   # destination below an overlapping source: bytes written are read again
        for i in range(1, count + 1):
            mem[dst_end - i] = mem[src_end - i]


def unpack(mz: MZFile) -> tuple[MZFile, ExepackInfo]:
    """Unpack an EXEPACKed MZFile into the MZFile its stub would produce in memory."""
    eh = find_exepack(mz)
    if eh is None:
        raise ExeError("not EXEPACKed: no EXEPACK header (signature 'RB') before the entry point")
    warnings: list[str] = []
    image = mz.image
    base = mz.header.e_cs * 16
    if base + eh.exepack_size > len(image):
        raise ExepackCorrupt(f"the EXEPACK block ({eh.exepack_size} bytes at {base:#x}) runs past "
                             f"the end of the load module ({len(image)} bytes): truncated file")
    if eh.exepack_size < eh.header_size:
        raise ExepackCorrupt(f"exepack_size {eh.exepack_size} is smaller than its own header")
    block = image[base:base + eh.exepack_size]
    if CORRUPT_MESSAGE not in block:
        warnings.append("stub has no 'Packed file is corrupt' message: an unusual or patched variant")
    table = _reloc_table_offset(block, eh.header_size)
    if not eh.header_size <= table <= eh.exepack_size:
        raise ExepackCorrupt(f"relocation table offset {table:#x} is outside the {eh.exepack_size}-byte block")
    relocs = _read_reloc_table(block, table, eh.exepack_size)
    stub_length = table - eh.header_size
    variant = KNOWN_VARIANTS.get(stub_length, f"unrecognised EXEPACK variant ({stub_length}-byte stub)")
    if stub_length not in KNOWN_VARIANTS:
        warnings.append(f"unknown stub length {stub_length}; unpacked with the common algorithm")

    # memory as the stub sees it, from the load segment up
    block_dest = eh.dest_len * 16
    mem = bytearray(max(len(image), block_dest + eh.exepack_size))
    mem[:len(image)] = image
    _backward_copy(mem, base + eh.exepack_size, block_dest + eh.exepack_size, eh.exepack_size)
    if bytes(mem[block_dest:block_dest + eh.exepack_size]) != block:
        warnings.append("moving the EXEPACK block overwrote itself (dest_len too small)")

    # source: DS = CS - skip_len, SI = 000Fh; destination: ES = dest_len - skip_len, DI = 000Fh
    src = _FarPointer(mz.header.e_cs - eh.skip_len, 0x0F)
    dst = _FarPointer(eh.dest_len - eh.skip_len, 0x0F)
    packed_end = src.linear() + 1
    unpacked_size = dst.linear() + 1
    if packed_end < 0 or unpacked_size < 0:
        raise ExepackCorrupt(f"skip_len {eh.skip_len} puts the data before the start of the program")
    if packed_end > len(mem):
        raise ExepackCorrupt("packed data end lies beyond the load module")
    padding = 0
    while padding < 16 and mem[src.off + src.seg * 16] == 0xFF:     # repe scasb, CX=16
        src.off -= 1
        padding += 1
    if padding == 16:
        src.off += 1            # the stub's INC DI: it then reads an FFh as a command
    commands = 0
    while True:
        src.normalise()
        dst.normalise()
        at = src.linear()
        _check_range(at - 2, 3, len(mem), f"command {commands}")
        command = mem[at]
        count = mem[at - 2] | mem[at - 1] << 8
        src.off -= 3                       # lodsb; dec si; lodsw; inc si
        kind = command & 0xFE
        if kind == 0xB0:
            _check_range(src.linear(), 1, len(mem), f"fill byte of command {commands}")
            fill = mem[src.linear()]
            src.off -= 1
            for start, n in dst.runs(count):
                _check_range(start, n, len(mem), f"fill of command {commands}")
                mem[start:start + n] = bytes([fill]) * n
        elif kind == 0xB2:
            # pair up the source and destination pieces (each may wrap separately)
            src_pieces = src.runs(count)
            dst_pieces = dst.runs(count)
            if len(src_pieces) > 1 or len(dst_pieces) > 1:
                warnings.append(f"command {commands} wraps a 16-bit offset")
            _copy_pieces(mem, src_pieces, dst_pieces, commands)
        else:
            raise ExepackCorrupt(f"command byte {command:02X}h at packed offset {at:#x} "
                                 f"(command {commands}) is not B0h-B3h")
        commands += 1
        if command & 1:
            break
    lowest = dst.linear() + 1
    if lowest < 0:
        raise ExepackCorrupt("unpacked data reaches below the start of the program")

    for seg, off in relocs:
        if seg * 16 + off + 2 > unpacked_size:
            warnings.append(f"relocation {seg:04X}:{off:04X} points past the unpacked image")
            break
    info = ExepackInfo(eh, base, stub_length, variant, table, packed_end, padding, commands,
                       unpacked_size, relocs, warnings)
    out_image = bytes(mem[:unpacked_size])
    packed_total = math.ceil((len(image) + mz.header.e_minalloc * 16) / 16) * 16
    minalloc = max(0, math.ceil((packed_total - len(out_image)) / 16))
    data = build_mz(out_image, relocs, cs=eh.real_cs, ip=eh.real_ip, ss=eh.real_ss, sp=eh.real_sp,
                    minalloc=min(minalloc, 0xFFFF), maxalloc=mz.header.e_maxalloc, overlay=mz.overlay)
    return parse_mz(data), info


def _copy_pieces(mem: bytearray, src_pieces, dst_pieces, index: int) -> None:
    """Backward byte copy across pieces that each lie in one segment."""
    src_pieces = list(src_pieces)
    dst_pieces = list(dst_pieces)
    s_start, s_len = src_pieces.pop(0)
    d_start, d_len = dst_pieces.pop(0)
    while True:
        n = min(s_len, d_len)
        if n:
            _check_range(s_start + s_len - n, n, len(mem), f"source of command {index}")
            _check_range(d_start + d_len - n, n, len(mem), f"destination of command {index}")
            _backward_copy(mem, s_start + s_len, d_start + d_len, n)
            s_len -= n
            d_len -= n
        if not s_len:
            if not src_pieces:
                break
            s_start, s_len = src_pieces.pop(0)
        if not d_len:
            if not dst_pieces:
                break
            d_start, d_len = dst_pieces.pop(0)

