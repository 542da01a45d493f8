"""Read a DOS executable: MZ structure, EXEPACK, and what compiled it.

The pieces live in their own modules (``mz``, ``exepack``, ``compilers``,
``signatures``, ``qb_layout``); this one puts them together for callers such
as ``pcemu exe-info``: ``analyse(data)`` returns an ``ExeReport`` and
``describe(report)`` the text the command prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pcemu.tools.compilers import Identification, identify
from pcemu.tools.exepack import ExepackCorrupt, ExepackInfo, find_exepack, unpack
from pcemu.tools.mz import ExeError, MZFile, MZHeader, build_mz, checksum, parse_mz
from pcemu.tools.qb_layout import QuickBasicLayout, analyse_layout
from pcemu.tools.signatures import RuntimeMap, locate_runtime

__all__ = ["ExeError", "ExepackCorrupt", "ExeReport", "MZFile", "MZHeader", "analyse",
           "analyse_file", "build_mz", "checksum", "describe", "parse_mz"]


@dataclass
class ExeReport:
    size: int
    original: MZFile
    computed_checksum: int
    exepack: ExepackInfo | None = None
    unpacked: MZFile | None = None           # the load module the program runs (after EXEPACK)
    compilers: list[Identification] = field(default_factory=list)
    runtime: RuntimeMap | None = None
    layout: QuickBasicLayout | None = None

    @property
    def program(self) -> MZFile:
        return self.unpacked or self.original

    @property
    def checksum_matches(self) -> bool:
        return self.computed_checksum == self.original.header.e_csum

    def unpacked_bytes(self) -> bytes:
        if self.unpacked is None:
            raise ExeError("the file is not EXEPACKed: there is nothing to unpack")
        return self.unpacked.rebuild()


def analyse(data: bytes) -> ExeReport:
    """Parse, unpack and identify; raises ExeError (with the reason) for bad input."""
    original = parse_mz(data)
    report = ExeReport(len(data), original, checksum(data[:original.header.file_size]))
    if find_exepack(original) is not None:
        report.unpacked, report.exepack = unpack(original)
    program = report.program
    report.compilers = identify(program)
    if any("QuickBASIC" in c.compiler for c in report.compilers):
        report.runtime = locate_runtime(program.image)
        report.layout = analyse_layout(program.image, report.runtime.segment)
    return report


MAX_PROGRAM = 16 * 1024 * 1024     # bytes: more than any DOS program (the MZ format stops at 1 MB)


def analyse_file(path: str | Path) -> ExeReport:
    path = Path(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_PROGRAM + 1)
    except OSError as exc:
        raise ExeError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if len(data) > MAX_PROGRAM:
        raise ExeError(f"larger than {MAX_PROGRAM // 2**20} MB: not a DOS program")
    return analyse(data)


def _header_lines(mz: MZFile, size: int | None = None) -> list[str]:
    h = mz.header
    lines = [
        f"header: {h.header_size} bytes ({h.e_cparhdr} paragraphs), load module {len(mz.image)} bytes"
        + (f", overlay {len(mz.overlay)} bytes after it" if mz.overlay else ", no overlay"),
        f"entry CS:IP {h.e_cs:04X}:{h.e_ip:04X}, stack SS:SP {h.e_ss:04X}:{h.e_sp:04X}",
        f"memory beyond the load module: min {h.e_minalloc} / max {h.e_maxalloc} paragraphs",
        f"relocations: {h.e_crlc} (table at {h.e_lfarlc:04X}h), overlay number {h.e_ovno}",
    ]
    if mz.header_extra.strip(b"\0"):
        lines.append(f"extra header bytes: {mz.header_extra[:16].hex(' ')}"
                     + (" ..." if len(mz.header_extra) > 16 else ""))
    lines += [f"warning: {w}" for w in mz.warnings]
    return lines


def describe(report: ExeReport, name: str = "") -> str:
    """The human-readable report ``pcemu exe-info`` prints."""
    h = report.original.header
    out = [f"{name or 'file'}: {report.size} bytes, MZ executable"]
    out += ["  " + line for line in _header_lines(report.original)]
    verdict = "matches" if report.checksum_matches else "does not match (DOS never checks it)"
    out.append(f"  checksum: stored {h.e_csum:04X}h, computed {report.computed_checksum:04X}h, {verdict}")
    if report.exepack:
        info = report.exepack
        eh = info.header
        out.append(f"  EXEPACK: {info.variant}")
        out.append(f"    packed data {info.packed_data_end} bytes ({info.padding} bytes of FFh padding), "
                   f"{info.commands} commands, unpacked {info.unpacked_size} bytes")
        out.append(f"    block at {info.block_offset:#x}: exepack_size {eh.exepack_size}, dest_len "
                   f"{eh.dest_len} paragraphs, skip_len {eh.skip_len}; relocation table at block+"
                   f"{info.reloc_table_offset:#x} with {len(info.relocations)} entries")
        out.append("  unpacked program:")
        out += ["    " + line for line in _header_lines(report.unpacked)]
        out += [f"    warning: {w}" for w in info.warnings]
    for ident in report.compilers:
        out.append(f"  compiler: {ident}")
        out += [f"    - {e}" for e in ident.evidence]
    if not report.compilers:
        out.append("  compiler: not recognised")
    if report.runtime and report.runtime.segment is not None:
        rt = report.runtime
        if report.layout:
            lay = report.layout
            out.append(f"  BASIC layout: DGROUP {lay.dgroup:04X}h, constants copied from "
                       f"{lay.constants_from:04X}h to DGROUP:{lay.constants_dgroup_offset:04X}h, "
                       f"{len(lay.lines)} statements in the line table")
        out.append(f"  BASIC runtime in segment {rt.segment:04X}h:")
        for key in ("RND", "RANDOMIZE", "TIMER", "GOSUB", "RETURN", "PRINT_STRING_SEMICOLON", "INT3_HANDLER"):
            if key in rt.routines:
                seg, off = rt.seg_off(key)
                out.append(f"    {key:<24} {seg:04X}:{off:04X}")
        for key, value in rt.variables.items():
            out.append(f"    {key:<24} DGROUP:{value:04X}")
    return "\n".join(out)
