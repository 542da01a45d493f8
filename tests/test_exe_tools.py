"""MZ parsing, EXEPACK unpacking, runtime signatures and the exe-info command.

Synthetic executables are built here (the EXEPACK ones with a stand-in stub:
the unpacker never runs the stub, it only reads the header, the relocation
table the stub points to, and the packed data).  With ../shared present the
original GINRUMMY.EXE and METEORS.EXE are unpacked too, and the result is
compared with what Microsoft's own stub produces when Unicorn runs it.
"""
from __future__ import annotations

import functools
import os
import struct
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from pcemu.commands.exe_info import exe_info
from pcemu.tools import exe
from pcemu.tools.disasm import Disassembler, disassemble
from pcemu.tools.exepack import CORRUPT_MESSAGE, ExepackCorrupt, find_exepack, unpack
from pcemu.tools.mz import ExeError, build_mz, checksum, parse_mz
from pcemu.tools.qb_layout import analyse_layout
from pcemu.tools.signatures import REQUIRED, find_runtime_routines, inline_operand_sizes, locate_runtime

SHARED = Path(os.environ.get("PCEMU_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DISK = SHARED / "disks" / "DISK1612.img"
needs_originals = pytest.mark.skipif(not DISK.exists(), reason=f"original disk image not found at {DISK}")


# -- synthetic MZ ------------------------------------------------------------------------
def test_build_and_parse_round_trip():
    image = bytes(range(256)) * 3
    relocs = [(0, 0x10), (0x20, 0x4)]
    data = build_mz(image, relocs, cs=0x10, ip=0x4, ss=0x30, sp=0x100, minalloc=5, maxalloc=9,
                    overlay=b"OVERLAY!")
    mz = parse_mz(data)
    h = mz.header
    assert (h.e_cs, h.e_ip, h.e_ss, h.e_sp) == (0x10, 0x4, 0x30, 0x100)
    assert (h.e_minalloc, h.e_maxalloc, h.e_crlc, h.e_lfarlc) == (5, 9, 2, 0x1C)
    assert mz.relocations == relocs
    assert mz.image == image
    assert mz.overlay == b"OVERLAY!"
    assert h.header_size == 48                     # 28 + 8 bytes of relocations = 36, padded to 16
    assert h.file_size == len(data) - len(b"OVERLAY!")
    assert checksum(data) == h.e_csum
    assert mz.rebuild() == data


def test_page_arithmetic_of_the_size_fields():
    data = build_mz(bytes(512 - 32), [], cs=0, ip=0, ss=0, sp=0, minalloc=0)
    h = parse_mz(data).header
    assert (h.e_cp, h.e_cblp) == (1, 0)            # exactly one full page: e_cblp is 0
    assert h.file_size == 512


def test_checksum_is_ones_complement_of_word_sum():
    data = bytearray(build_mz(b"\x01\x02\x03", [], cs=0, ip=0, ss=0, sp=0, minalloc=0))
    struct.pack_into("<H", data, 0x12, 0)
    words = struct.unpack(f"<{(len(data) + 1) // 2}H", bytes(data) + b"\0" * (len(data) % 2))
    assert checksum(bytes(data)) == ~sum(words) & 0xFFFF


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d[:10], "too short"),
    (lambda d: b"XY" + d[2:], "not an MZ executable"),
    (lambda d: d[:-100], "truncated executable"),
    (lambda d: d[:2] + struct.pack("<H", 600) + d[4:], "e_cblp"),
    (lambda d: d[:6] + struct.pack("<H", 5000) + d[8:], "relocation table"),
    (lambda d: d[:8] + struct.pack("<H", 1) + d[10:], "e_cparhdr"),
])
def test_bad_files_raise_clear_errors(mutate, message):
    good = build_mz(bytes(1000), [(0, 2)], cs=0, ip=0, ss=0, sp=0, minalloc=0)
    with pytest.raises(ExeError, match=message):
        parse_mz(mutate(good))


# -- synthetic EXEPACK -------------------------------------------------------------------
def _encode(segments):
    """Packed stream for output segments (('fill', byte, n) or ('copy', data)), first
    segment first.  The stub reads it from the end backwards."""
    out = bytearray()
    for i, seg in enumerate(segments):
        final = 1 if i == 0 else 0                   # executed last
        if seg[0] == "fill":
            out += bytes([seg[1]]) + struct.pack("<H", seg[2]) + bytes([0xB0 | final])
        else:
            out += seg[1] + struct.pack("<H", len(seg[1])) + bytes([0xB2 | final])
    return bytes(out)


def _segments(image: bytes):
    segs, i = [], 0
    while i < len(image):
        j = i
        while j < len(image) and image[j] == image[i]:
            j += 1
        if j - i >= 6:
            segs.append(("fill", image[i], j - i))
            i = j
        else:
            k = i
            while k < len(image) and not (k + 6 <= len(image) and len(set(image[k:k + 6])) == 1):
                k += 1
            segs.append(("copy", image[i:k]))
            i = k
    return segs


def make_exepacked(image: bytes, relocs, *, header_size=16, skip_len=1, stub_length=258,
                   real=(0x0002, 0x0010, 0x0040, 0x0100), padding=5) -> bytes:
    assert len(image) % 16 == 0
    packed = _encode(_segments(image)) + b"\xff" * padding
    packed += b"\xff" * (-len(packed) % 16)
    packed += bytes((skip_len - 1) * 16)             # paragraphs between data and block
    cs = len(packed) // 16
    table = bytearray()
    for section in range(16):
        offs = [off for seg, off in relocs if seg == section * 0x1000]
        table += struct.pack(f"<H{len(offs)}H", len(offs), *offs)
    table_offset = header_size + stub_length
    stub = bytearray(b"\x90" * stub_length)
    stub[20:29] = b"\xbe" + struct.pack("<H", table_offset) + b"\x0e\x1f\x8b\x1e\x04\x00"
    stub[-len(CORRUPT_MESSAGE):] = CORRUPT_MESSAGE
    exepack_size = table_offset + len(table)
    dest_len = len(image) // 16 + skip_len - 1
    real_ip, real_cs, real_ss, real_sp = real
    words = [real_ip, real_cs, 0, exepack_size, real_sp, real_ss, dest_len]
    if header_size == 18:
        words.append(skip_len)
    header = struct.pack(f"<{len(words)}H", *words) + b"RB"
    module = packed + header + bytes(stub) + bytes(table)
    return build_mz(module, [], cs=cs, ip=header_size, ss=cs + 0x40, sp=0x80, minalloc=0x200)


def _sample_image():
    body = bytes(64) + b"HELLO, EXEPACK " * 7 + b"\xaa" * 100 + bytes(range(40)) + b"\x00" * 37
    body += bytes(-len(body) % 16)
    image = bytearray(body)
    struct.pack_into("<H", image, 0x44, 0x0002)      # a segment word that a relocation fixes
    return bytes(image)


@pytest.mark.parametrize("header_size, skip_len", [(16, 1), (18, 1), (18, 3)])
def test_unpack_restores_image_relocations_and_registers(header_size, skip_len):
    image = _sample_image()
    relocs = [(0, 0x44), (0x1000, 0x10)]
    mz = parse_mz(make_exepacked(image, relocs, header_size=header_size, skip_len=skip_len))
    assert find_exepack(mz) is not None
    out, info = unpack(mz)
    assert out.image == image
    assert out.relocations == relocs
    h = out.header
    assert (h.e_cs, h.e_ip, h.e_ss, h.e_sp) == (0x0010, 0x0002, 0x0040, 0x0100)
    assert info.padding == 5 + (-(len(_encode(_segments(image))) + 5) % 16)
    assert info.header.skip_len == skip_len
    assert info.stub_length == 258 and "258-byte" in info.variant
    # the unpacked program needs at least the memory the packed one asked for
    assert len(out.image) + h.e_minalloc * 16 >= len(mz.image) + mz.header.e_minalloc * 16


def test_unknown_stub_length_is_unpacked_with_a_warning():
    mz = parse_mz(make_exepacked(_sample_image(), [], stub_length=300))
    out, info = unpack(mz)
    assert out.image == _sample_image()
    assert "unrecognised" in info.variant
    assert any("unknown stub length" in w for w in info.warnings)


def test_corrupt_command_byte_is_reported():
    data = bytearray(make_exepacked(_sample_image(), []))
    mz = parse_mz(bytes(data))
    end = mz.header.e_cs * 16 - 1
    while mz.image[end] == 0xFF:
        end -= 1
    data[mz.header.header_size + end] = 0xB4           # the first command the stub reads
    with pytest.raises(ExepackCorrupt, match="command byte B4h"):
        unpack(parse_mz(bytes(data)))


def test_all_padding_is_read_as_a_command_like_the_stub():
    # sixteen FFh bytes: REPE SCASB stops after 16 and the stub reads an FFh as a command
    mz = parse_mz(make_exepacked(_sample_image(), [], padding=16 + 16))
    with pytest.raises(ExepackCorrupt, match="command byte FFh"):
        unpack(mz)


def test_relocation_table_overrunning_the_block_is_reported():
    data = bytearray(make_exepacked(_sample_image(), [(0, 0x44)]))
    mz = parse_mz(bytes(data))
    block = mz.header.header_size + mz.header.e_cs * 16
    table = block + 16 + 258
    struct.pack_into("<H", data, table, 900)
    with pytest.raises(ExepackCorrupt, match="relocation section 0 claims 900"):
        unpack(parse_mz(bytes(data)))


def test_truncated_exepack_block_is_reported():
    data = make_exepacked(_sample_image(), [(0, 0x44)])
    mz = parse_mz(data)
    short = build_mz(mz.image[:-40], [], cs=mz.header.e_cs, ip=16, ss=0, sp=0, minalloc=0)
    with pytest.raises(ExepackCorrupt, match="truncated"):
        unpack(parse_mz(short))


def test_not_packed_file_is_not_exepack():
    mz = parse_mz(build_mz(bytes(64), [], cs=0, ip=0, ss=0, sp=0, minalloc=0))
    assert find_exepack(mz) is None
    with pytest.raises(ExeError, match="not EXEPACKed"):
        unpack(mz)


# -- disassembler --------------------------------------------------------------------------
def test_disassembler_names_targets_wraps_offsets_and_reads_inline_operands():
    # 0000: call 0010h / jmp back to 0000h / lcall 0002:0000 with a 2-byte inline word / mov bx,0024h / cwd
    code = bytearray(b"\xe8\x0d\x00" + b"\xe9\xfa\xff" + b"\x9a\x00\x00\x02\x00" + b"\x34\x12"
                     + b"\xbb\x24\x00" + b"\x99")
    code += bytes(0x10 - len(code)) if len(code) < 0x10 else b""
    code += b"\xc3" + bytes(15) + b"\xcb"
    data = bytes(0x24) + struct.pack("<HH", 5, 0x30) + bytes(8) + b"HELLO"   # descriptor at 24h
    names = {0x10: "helper", 0x10 + 0x10: "far_routine"}
    lines = Disassembler(bytes(code), names, data, inline={0x20: 2}).lines(0, 0, 0x11)
    text = [str(line) for line in lines]
    assert lines[0].operands == "0010h" and "helper" in lines[0].comment
    assert lines[1].operands == "0000h"                       # not 0xffff0000
    assert lines[2].operands == "0002:0000" and "far_routine" in lines[2].comment
    assert lines[3].mnemonic == "dw" and lines[3].operands == "1234h"
    assert "descriptor -> 'HELLO'" in lines[4].comment
    assert lines[5].mnemonic == "cwd"
    assert text[0].startswith("0000:0000")


# -- the originals -----------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _original(name: str) -> bytes:
    from pyfatfs.PyFatFS import PyFatFS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fs = PyFatFS(str(DISK), read_only=True)
        try:
            return fs.readbytes("/" + name)
        finally:
            fs.close()


@needs_originals
@pytest.mark.originals
@pytest.mark.parametrize("name", ["GINRUMMY.EXE", "METEORS.EXE"])
def test_original_basic_programs_unpack_and_identify(name):
    report = exe.analyse(_original(name))
    assert report.exepack is not None and report.exepack.stub_length == 258
    program = report.unpacked
    assert b"Microsoft BASIC Compiler Runtime" in program.image
    assert b"Must link with BCOM30.LIB" in program.image
    assert 500 < len(program.relocations) < 10000
    assert all(seg * 16 + off + 2 <= len(program.image) for seg, off in program.relocations)
    assert (program.header.e_cs, program.header.e_ip) == (0, 0x30)
    assert "QuickBASIC 3.0" in report.compilers[0].compiler
    assert "BCOM30" in report.compilers[0].runtime and "5.60" in report.compilers[0].runtime
    runtime = locate_runtime(program.image)
    assert runtime.missing == [] and runtime.ambiguous == []
    assert runtime.variables["rnd_state"] == 0x850 and runtime.variables["fac"] == 0x810
    # every named routine lies in the runtime's segment
    for linear in runtime.routines.values():
        assert 0 <= linear - runtime.segment * 16 < 0x10000
    layout = analyse_layout(program.image, runtime.segment)
    state = layout.initial_dgroup(program.image)[0x848:0x854]
    assert state == bytes.fromhex("fd430300 c39e1a00 05000000")   # multiplier, increment, seed
    assert min(layout.lines) == 0x3F and layout.lines[0x3F] == 10


@needs_originals
@pytest.mark.originals
def test_gin_rummy_runtime_addresses_and_line_table():
    report = exe.analyse(_original("GINRUMMY.EXE"))
    rt = report.runtime
    found = {k: rt.seg_off(k) for k in ("RND", "RANDOMIZE", "TIMER", "GOSUB", "RETURN", "INT3_HANDLER")}
    assert found == {"RND": (0xC88, 0x3885), "RANDOMIZE": (0xC88, 0x390C), "TIMER": (0xC88, 0x3DC9),
                     "GOSUB": (0xC88, 0x2ED8), "RETURN": (0xC88, 0x2EFF), "INT3_HANDLER": (0xC88, 0x4BD7)}
    lay = report.layout
    assert lay.dgroup == 0x18B2 and lay.constants_dgroup_offset == 0x1350
    assert lay.line_at(0xA8) == 110 and lay.line_at(0x6191) == 10650      # RANDOMIZE TIMER; A = FNR(N) in the shuffle
    data = lay.initial_dgroup(report.unpacked.image)
    listing = disassemble(report.unpacked.image, 0, 0x6160, 0x6175, data=data,
                          names={v: k for k, v in rt.routines.items()}, inline=inline_operand_sizes(rt))
    assert "*SHUFFLING*" in listing
    assert "GOSUB" in listing and "dw      7976h" in listing        # GOSUB 12640, the message routine


@needs_originals
@pytest.mark.originals
def test_ezt_is_turbo_pascal_4():
    report = exe.analyse(_original("EZT.EXE"))
    assert report.exepack is None
    assert report.compilers[0].compiler == "Borland Turbo Pascal 4.0"


@needs_originals
@pytest.mark.originals
@pytest.mark.parametrize("name", ["GINRUMMY.EXE", "METEORS.EXE"])
def test_unpacking_matches_the_real_stub_run_in_unicorn(name):
    """Run Microsoft's stub on the CPU and compare memory with our unpacking."""
    from unicorn import UC_ARCH_X86, UC_MODE_16, Uc
    from unicorn.x86_const import UC_X86_REG_CS, UC_X86_REG_DS, UC_X86_REG_ES, UC_X86_REG_IP, \
        UC_X86_REG_SP, UC_X86_REG_SS

    packed = parse_mz(_original(name))
    ours, info = unpack(packed)
    load = 0x2000                                     # PSP at 1FF0h
    uc = Uc(UC_ARCH_X86, UC_MODE_16)
    uc.mem_map(0, 0x100000)
    uc.mem_write(load * 16, packed.image)
    for reg, value in ((UC_X86_REG_DS, load - 0x10), (UC_X86_REG_ES, load - 0x10),
                       (UC_X86_REG_SS, load + packed.header.e_ss), (UC_X86_REG_SP, packed.header.e_sp),
                       (UC_X86_REG_CS, load + packed.header.e_cs)):
        uc.reg_write(reg, value)
    entry = (load + packed.header.e_cs) * 16 + packed.header.e_ip
    real = (load + info.header.real_cs) * 16 + info.header.real_ip
    uc.emu_start(entry, real, count=5_000_000)
    assert uc.reg_read(UC_X86_REG_CS) * 16 + uc.reg_read(UC_X86_REG_IP) == real
    assert uc.reg_read(UC_X86_REG_SS) == load + info.header.real_ss
    expected = bytearray(ours.image)
    for seg, off in ours.relocations:
        at = seg * 16 + off
        struct.pack_into("<H", expected, at, (struct.unpack_from("<H", expected, at)[0] + load) & 0xFFFF)
    assert bytes(uc.mem_read(load * 16, len(expected))) == bytes(expected)


# -- the command -------------------------------------------------------------------------
def test_exe_info_command_reports_and_unpacks(tmp_path):
    image = _sample_image()
    packed = tmp_path / "PACKED.EXE"
    packed.write_bytes(make_exepacked(image, [(0, 0x44)]))
    out = tmp_path / "out.exe"
    result = CliRunner().invoke(exe_info, [str(packed), "--unpack", str(out)])
    assert result.exit_code == 0, result.output
    assert "EXEPACK" in result.output and "258-byte" in result.output
    assert parse_mz(out.read_bytes()).image == image


def test_exe_info_command_errors_are_messages_not_tracebacks(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(exe_info, [str(tmp_path / "nope.exe")])
    assert missing.exit_code == 1 and "cannot read" in missing.output
    junk = tmp_path / "junk.exe"
    junk.write_bytes(b"MZ" + bytes(3))
    bad = runner.invoke(exe_info, [str(junk)])
    assert bad.exit_code == 1 and "too short" in bad.output
    plain = tmp_path / "plain.exe"
    plain.write_bytes(build_mz(bytes(32), [], cs=0, ip=0, ss=0, sp=0, minalloc=0))
    nothing = runner.invoke(exe_info, [str(plain), "--unpack", str(tmp_path / "x.exe")])
    assert nothing.exit_code == 1 and "not EXEPACKed" in nothing.output
    assert "Traceback" not in missing.output + bad.output + nothing.output


def test_required_signatures_are_listed():
    assert set(REQUIRED) >= {"RND", "RANDOMIZE", "TIMER", "GOSUB", "RETURN", "INT3_HANDLER"}
    assert find_runtime_routines(bytes(1000)) == {}
