"""DOS MZ executables: the header, relocation table, load module and overlay.

The layout is the one DOS's loader (INT 21h AX=4B00h) uses: the file is
``e_cp`` 512-byte pages with ``e_cblp`` bytes used in the last one; the first
``e_cparhdr`` paragraphs are the header; the rest of that size is the load
module, copied to PSP+10h; bytes past it are "overlay" data the loader ignores.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

MZ_HEADER_SIZE = 28                 # the fixed part, up to and including e_ovno
_HEADER = struct.Struct("<2s13H")
HEADER_FIELDS = ("e_magic", "e_cblp", "e_cp", "e_crlc", "e_cparhdr", "e_minalloc",
                 "e_maxalloc", "e_ss", "e_sp", "e_csum", "e_ip", "e_cs",
                 "e_lfarlc", "e_ovno")


class ExeError(ValueError):
    """A file that is not a usable MZ executable, with the reason in words."""


@dataclass(frozen=True)
class MZHeader:
    e_magic: bytes
    e_cblp: int         # bytes used in the last page (0 = all 512)
    e_cp: int           # pages in the file, the last one possibly partial
    e_crlc: int         # relocation entries
    e_cparhdr: int      # header size in paragraphs
    e_minalloc: int     # paragraphs needed beyond the load module
    e_maxalloc: int     # paragraphs wanted beyond the load module
    e_ss: int
    e_sp: int
    e_csum: int
    e_ip: int
    e_cs: int
    e_lfarlc: int       # file offset of the relocation table
    e_ovno: int

    @property
    def header_size(self) -> int:
        return self.e_cparhdr * 16

    @property
    def file_size(self) -> int:
        """Bytes the header says the executable occupies (header + load module)."""
        if self.e_cblp == 0:
            return self.e_cp * 512
        return (self.e_cp - 1) * 512 + self.e_cblp

    def as_dict(self) -> dict[str, int | bytes]:
        return {name: getattr(self, name) for name in HEADER_FIELDS}


@dataclass
class MZFile:
    header: MZHeader
    relocations: list[tuple[int, int]]     # (segment, offset) relative to the load module
    image: bytes                           # the load module
    overlay: bytes = b""                   # data after the load module, not loaded by DOS
    header_extra: bytes = b""              # bytes 28.. of the header that are not the reloc table
    warnings: list[str] = field(default_factory=list)

    @property
    def entry(self) -> tuple[int, int]:
        return self.header.e_cs, self.header.e_ip

    @property
    def entry_offset(self) -> int:
        """Offset of CS:IP in the load module (CS is relative to the module)."""
        return self.header.e_cs * 16 + self.header.e_ip

    def rebuild(self) -> bytes:
        """A canonical MZ file with this load module, relocations, registers and
        memory needs (header bytes beyond the fixed part are not kept)."""
        h = self.header
        return build_mz(self.image, self.relocations, cs=h.e_cs, ip=h.e_ip, ss=h.e_ss, sp=h.e_sp,
                        minalloc=h.e_minalloc, maxalloc=h.e_maxalloc, overlay=self.overlay)


def checksum(data: bytes) -> int:
    """The MZ checksum: one's complement of the 16-bit sum of the file's words,
    the e_csum field counted as zero (an odd last byte counts as a word).
    Most linkers never set it; DOS never checks it."""
    buf = bytearray(data)
    if len(buf) >= 0x14:
        buf[0x12:0x14] = b"\0\0"
    if len(buf) % 2:
        buf.append(0)
    total = sum(struct.unpack(f"<{len(buf) // 2}H", buf)) & 0xFFFF
    return ~total & 0xFFFF


def parse_mz(data: bytes) -> MZFile:
    """Split an MZ file into its parts, or raise ExeError saying what is wrong."""
    if len(data) < MZ_HEADER_SIZE:
        raise ExeError(f"file too short for an MZ header: {len(data)} bytes, need {MZ_HEADER_SIZE}")
    values = _HEADER.unpack_from(data, 0)
    if values[0] not in (b"MZ", b"ZM"):     # DOS accepts both spellings
        raise ExeError(f"not an MZ executable: starts with {data[:2]!r}, not b'MZ'")
    hdr = MZHeader(*values)
    warnings: list[str] = []
    if hdr.e_cblp > 511:
        raise ExeError(f"corrupt header: e_cblp (bytes in last page) is {hdr.e_cblp}, more than 511")
    if hdr.e_cp == 0:
        raise ExeError("corrupt header: e_cp (page count) is 0")
    size = hdr.file_size
    if size > len(data):
        raise ExeError(f"truncated executable: the header declares {size} bytes, the file has {len(data)}")
    if hdr.header_size < MZ_HEADER_SIZE:
        raise ExeError(f"corrupt header: e_cparhdr is {hdr.e_cparhdr} paragraphs, "
                       f"smaller than the {MZ_HEADER_SIZE}-byte fixed header")
    if hdr.header_size > size:
        raise ExeError(f"corrupt header: header of {hdr.header_size} bytes is larger than "
                       f"the executable's {size} bytes")
    reloc_end = hdr.e_lfarlc + 4 * hdr.e_crlc
    if hdr.e_crlc and (hdr.e_lfarlc < MZ_HEADER_SIZE or reloc_end > len(data)):
        raise ExeError(f"corrupt header: relocation table at {hdr.e_lfarlc:#x} with "
                       f"{hdr.e_crlc} entries lies outside the file")
    if hdr.e_crlc and reloc_end > hdr.header_size:
        warnings.append("relocation table extends past the header into the load module")
    # each entry is offset, segment on disk; kept here as (segment, offset)
    relocs = [(seg, off) for off, seg in
              (struct.unpack_from("<HH", data, hdr.e_lfarlc + 4 * i) for i in range(hdr.e_crlc))]
    image = bytes(data[hdr.header_size:size])
    for seg, off in relocs:
        if seg * 16 + off + 2 > len(image):
            warnings.append(f"relocation {seg:04X}:{off:04X} points outside the load module")
            break
    if hdr.e_cs * 16 + hdr.e_ip >= max(len(image), 1):
        warnings.append(f"entry point {hdr.e_cs:04X}:{hdr.e_ip:04X} lies outside the load module")
    extra_end = min(hdr.header_size, hdr.e_lfarlc) if hdr.e_crlc else hdr.header_size
    extra = bytes(data[MZ_HEADER_SIZE:max(extra_end, MZ_HEADER_SIZE)])
    return MZFile(hdr, relocs, image, bytes(data[size:]), extra, warnings)


def build_mz(image: bytes, relocations: list[tuple[int, int]], *, cs: int, ip: int,
             ss: int, sp: int, minalloc: int, maxalloc: int = 0xFFFF,
             overlay: bytes = b"", align: int = 16) -> bytes:
    """A fresh MZ file: 28-byte header, relocation table at 1Ch, header padded to
    ``align`` bytes (16 or 512), then the load module and any overlay.  The
    checksum is filled in, so ``checksum(result) == header.e_csum``."""
    if align not in (16, 512):
        raise ValueError("align must be 16 or 512")
    header_len = MZ_HEADER_SIZE + 4 * len(relocations)
    header_len = -(-header_len // align) * align
    size = header_len + len(image)
    fields = [b"MZ", size % 512, -(-size // 512), len(relocations), header_len // 16,
              minalloc, maxalloc, ss & 0xFFFF, sp & 0xFFFF, 0, ip & 0xFFFF, cs & 0xFFFF,
              MZ_HEADER_SIZE, 0]
    out = bytearray(_HEADER.pack(*fields))
    for seg, off in relocations:
        out += struct.pack("<HH", off, seg)
    out += bytes(header_len - len(out))
    out += image
    out += overlay
    struct.pack_into("<H", out, 0x12, checksum(bytes(out)))
    return bytes(out)
