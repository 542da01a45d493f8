"""Processes: program loading (EXEC), the PSP, termination, and memory services.

EXEC builds what DOS builds: an environment copy and a PSP in memory blocks of
the MCB chain, the program image (a .COM at PSP:0100h, or an MZ .EXE loaded at
PSP+10h and relocated), and a CPU state at its entry point.  The caller's SS:SP
go into its own PSP at 2Eh and the return address into the child's PSP at 0Ah
(the INT 22h vector), so termination returns exactly where DOS would.
"""
from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from bios.services import FunctionTable
from pcemu.dos import single_drive
from pcemu.dos.structures import Process
from pcemu.errors import ProgramLoadError
from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from bios.context import ServiceContext

functions = FunctionTable("process")      # this area's INT 21h functions (int21.py)


# the caller's registers DOS keeps: across EXEC, and as a call's entry for a critical error
SAVED = ("ax", "bx", "cx", "dx", "si", "di", "bp", "ds", "es")


def ctrl_c_returned(ctx: "ServiceContext") -> None:
    """After DOS's INT 23h: IRET (or RETF 2, or RETF with CF clear) retries the call,
    RETF with CF set ends the program, as DOS 3.3 decides from the stack."""
    cpu = ctx.cpu
    expected, ctx.dos.ctrl_c_sp = ctx.dos.ctrl_c_sp, None
    if expected is not None and cpu.sp == (expected - 2) & 0xFFFF:
        cpu.pop()                         # a plain RETF left the INT's FLAGS behind ...
        if cpu.flags & 0x0001:            # ... and its own carry flag decides
            terminate(ctx, 0, 1)
            return
    cpu.jump(*ctx.vectors.rom.address("int21"))


def install_cpm_entry(ctx: "ServiceContext") -> None:
    """0000:00C0 (where PSP:0005's far call lands after the 1 MB wrap) jumps to the ROM."""
    seg, off = ctx.vectors.rom.address("call5")
    ctx.memory.write(0xC0, bytes([0xEA, off & 0xFF, off >> 8, seg & 0xFF, seg >> 8]))
    ctx.vectors.register_service("call5", cpm_call)


def cpm_call(ctx: "ServiceContext") -> None:
    """CALL 5 with the function in CL: the two return addresses on the stack (the
    far one into the PSP, the program's near one) become the INT frame of an INT 21h."""
    cpu = ctx.cpu
    mem = ctx.memory
    ss, sp = cpu.ss, cpu.sp
    psp_segment, near_return = mem.rw(ss, sp + 2), mem.rw(ss, sp + 4)
    mem.ww(ss, sp, near_return)
    mem.ww(ss, sp + 2, psp_segment)
    mem.ww(ss, sp + 4, cpu.flags)
    if cpu.cl > 0x24:                     # CP/M calls go up to 24h only
        cpu.al = 0
        cpu.jump(*ctx.vectors.rom.address("dummy_iret"))
        return
    cpu.ah = cpu.cl
    cpu.jump(*ctx.vectors.rom.address("int21"))


def multiplex(ctx: "ServiceContext") -> None:
    """INT 2Fh: no TSR is installed; installation checks get AL unchanged (0 = not installed)."""
    ctx.call.count_service(f"INT 2Fh AX={ctx.cpu.ax:04X}h")


def absolute_disk(ctx: "ServiceContext", write: bool):
    """INT 25h/26h; on a one-drive machine the drive's other name asks for the diskette
    first (single_drive)."""
    unit, letter = ctx.dos.shared_unit, chr(65 + ctx.cpu.al)
    if unit is not None and letter in single_drive.LETTERS:
        try:
            unit.check(letter)
        except single_drive.DisketteSwap as swap:
            return _after_the_swap(ctx, swap, write)
    _sectors(ctx, write)
    return None


def _after_the_swap(ctx: "ServiceContext", swap: "single_drive.DisketteSwap", write: bool):
    registers = {name: getattr(ctx.cpu, name) for name in ("ax", "bx", "cx", "dx", "ds")}
    yield from single_drive.prompt(ctx, swap)
    ctx.cpu.set_registers(**registers)
    _sectors(ctx, write)


def _sectors(ctx: "ServiceContext", write: bool) -> None:
    cpu = ctx.cpu
    image = ctx.dos.floppy_image(ctx.dos.unit_of(chr(65 + cpu.al)))
    if image is None:
        cpu.ax = 0x8002                          # drive not ready
        ctx.call.return_live_flag(0x01, True)
        return
    count, lba = cpu.cx, cpu.dx
    try:
        if write:
            image.write_sectors(lba, ctx.memory.read_far(cpu.ds, cpu.bx, count * 512))
        else:
            ctx.memory.write_far(cpu.ds, cpu.bx, image.read_sectors(lba, count))
    except DosError:                             # write-protected diskette
        cpu.ax = 0x0300
        ctx.call.return_live_flag(0x01, True)
        return
    except ValueError:                           # sectors beyond the end of the disk
        cpu.ax = 0x0408                          # sector not found
        ctx.call.return_live_flag(0x01, True)
        return
    ctx.call.return_live_flag(0x01, False)


# ---------------------------------------------------------------- PSP
def build_psp(ctx: "ServiceContext", psp: int, parent: int, end_segment: int, env: int, tail: bytes) -> None:
    mem = ctx.memory
    mem.write(psp << 4, bytes(256))
    mem.write(psp << 4, b"\xCD\x20")
    mem.ww(psp, 0x02, end_segment)
    # CP/M-style CALL 5: a far call that wraps to 0000:00C0
    mem.write((psp << 4) + 5, b"\x9A\xF0\xFE\x1D\xF0")
    mem.ww(psp, 0x0A, mem.read_word(0x22 * 4))
    mem.ww(psp, 0x0C, mem.read_word(0x22 * 4 + 2))
    mem.ww(psp, 0x0E, mem.read_word(0x23 * 4))
    mem.ww(psp, 0x10, mem.read_word(0x23 * 4 + 2))
    mem.ww(psp, 0x12, mem.read_word(0x24 * 4))
    mem.ww(psp, 0x14, mem.read_word(0x24 * 4 + 2))
    mem.ww(psp, 0x16, parent)
    handles = bytes([0xFF] * 20)
    if parent and parent != psp:
        handles = _inherit_handles(ctx, parent)
    mem.write((psp << 4) + 0x18, handles)
    mem.ww(psp, 0x2C, env)
    mem.ww(psp, 0x32, 20)
    mem.ww(psp, 0x34, 0x18)
    mem.ww(psp, 0x36, psp)
    mem.write((psp << 4) + 0x38, b"\xFF\xFF\xFF\xFF")
    mem.write((psp << 4) + 0x50, b"\xCD\x21\xCB")
    tail = tail[:126]
    mem.wb(psp, 0x80, len(tail))
    mem.write((psp << 4) + 0x81, tail + b"\r")
    ctx.dos.processes[psp] = ctx.dos.processes.get(psp) or Process(psp, parent, "")


def _inherit_handles(ctx: "ServiceContext", parent: int) -> bytes:
    dos = ctx.dos
    seg, off, size = dos.psp_handle_table(parent)
    table = bytearray(ctx.memory.read_far(seg, off, min(size, 20)).ljust(20, b"\xFF"))
    for i, index in enumerate(table):
        if index != 0xFF and index < len(dos.files) and dos.files[index] is not None:
            dos.files[index].references += 1
        elif index != 0xFF:
            table[i] = 0xFF
    return bytes(table)


def parse_fcb_name(ctx: "ServiceContext", text: bytes) -> tuple[bytes, int]:
    """Fill an unopened FCB from the first name in ``text`` (as DOS does for PSP:5Ch/6Ch)."""
    from pcemu.storage.names import to_fcb
    word = text.strip().split(b" ")[0] if text.strip() else b""
    drive = 0
    valid = 0
    if len(word) >= 2 and word[1:2] == b":":
        letter = chr(word[0]).upper()
        drive = ord(letter) - 64
        valid = 0 if letter in ctx.dos.drives else 0xFF
        word = word[2:]
    name = word.decode("latin-1").split("/")[0]
    try:
        packed = to_fcb(name) if name and "\\" not in name else b" " * 11
    except (DosError, ValueError):
        packed = b" " * 11
    return bytes([drive]) + packed + bytes(4), valid


def make_environment(ctx: "ServiceContext", parent_env: int, program: str) -> bytes:
    mem = ctx.memory
    if parent_env:
        data = bytearray()
        off = 0
        while off < 0x8000:
            chunk = mem.read_far(parent_env, off, 2)
            if chunk == b"\x00\x00":
                break
            data.append(chunk[0])
            off += 1
        strings = bytes(data).rstrip(b"\x00") + b"\x00\x00"
    else:
        strings = b"\x00\x00"
    return strings + b"\x01\x00" + program.encode("latin-1") + b"\x00"


# ---------------------------------------------------------------- loading
def read_program(ctx: "ServiceContext", path: str) -> tuple[str, bytes]:
    dos = ctx.dos
    drive, parts = dos.resolve(path)
    fs = dos.drives[drive]
    entry = fs.stat(parts)
    if entry is None or entry.is_dir:
        raise DosError(0x02, f"{path}: file not found")
    with fs.open(parts) as f:
        data = f.read(entry.size)
    return f"{drive}:\\" + "\\".join(parts), data


# DOS reads the first 1Ah bytes of a program; fewer, or no MZ/ZM, and it loads a .COM file.
EXE_HEADER_READ = 0x1A


def exe_header(data: bytes) -> dict | None:
    """The MZ header's fields as DOS 3.30's EXEC uses them, or None for a .COM image.

    DOS takes the load module as whole 512-byte pages less the header (the count of
    bytes in the last page is not used), reads it with ordinary reads and stops at a
    short one: a file shorter than its header says loads what it has, the rest of
    the block keeps whatever memory held, and bytes past the last page's count
    (data a BASIC runtime's stub keeps there) are loaded too.  A maximum allocation
    of 0 loads the image at the top of the largest block ("load high").
    """
    if len(data) < EXE_HEADER_READ or data[:2] not in (b"MZ", b"ZM"):
        return None
    (_sig, _last, pages, relocs, header_paras, min_alloc, max_alloc, ss, sp, _ck, ip, cs,
     reloc_off) = struct.unpack_from("<2s12H", data, 0)
    image_paras = pages * 32 - header_paras
    if pages == 0 or image_paras < 0:      # DOS's 16-bit sizes wrap: an allocation it cannot make
        raise ProgramLoadError("the EXE header's image ends before its header: "
                               "not enough memory to load it")
    if reloc_off + relocs * 4 > len(data):
        raise ProgramLoadError("the EXE's relocation table runs past the end of the file")
    return dict(image_size=image_paras * 16, header=header_paras * 16, relocs=relocs,
                reloc_off=reloc_off, min_alloc=min_alloc, max_alloc=max_alloc,
                load_high=max_alloc == 0, ss=ss, sp=sp, ip=ip, cs=cs)


def load_image(ctx: "ServiceContext", data: bytes, header: dict, load_segment: int, relocation: int) -> None:
    image = data[header["header"]:header["header"] + header["image_size"]]
    ctx.memory.write(load_segment << 4, image)
    for i in range(header["relocs"]):
        off, seg = struct.unpack_from("<HH", data, header["reloc_off"] + 4 * i)
        address = ((load_segment + seg) << 4) + off
        ctx.memory.write_word(address, (ctx.memory.read_word(address) + relocation) & 0xFFFF)


def exec_program(ctx: "ServiceContext", path: str, tail: bytes, env_segment: int = 0,
                 fcb1: bytes | None = None, fcb2: bytes | None = None,
                 return_state: dict | None = None, load_only: bool = False) -> dict:
    """Load and start a program as a child of the current process.

    ``return_state`` is the CPU state to come back to when it ends (registers,
    CS:IP as the terminate address, SS:SP, flags).  Returns the child's start state.
    """
    dos = ctx.dos
    cpu = ctx.cpu
    full_path, data = read_program(ctx, path)
    header = exe_header(data)
    parent = dos.current_psp
    parent_env = ctx.memory.rw(parent, 0x2C) if parent else 0
    env_data = make_environment(ctx, env_segment or parent_env, full_path)
    env_paras = (len(env_data) + 15) >> 4
    env = dos.arena.allocate(env_paras, 0xFFFF)
    ctx.memory.write(env << 4, env_data)
    largest = dos.arena.largest_free()
    if header is None:
        needed = (len(data) + 0x100 + 15) >> 4
        if needed > 0x1000 and len(data) > 0xFF00:
            dos.arena.free(env)
            raise ProgramLoadError(f"{full_path}: a .COM program must be under 65,280 bytes")
        paragraphs = largest
        minimum = needed + 1
    else:
        load_paras = header["image_size"] >> 4
        if header["load_high"]:
            minimum = load_paras + 0x10
            paragraphs = largest
        else:
            minimum = load_paras + 0x10 + header["min_alloc"]
            wanted = min(load_paras + 0x10 + header["max_alloc"], 0xFFFF)
            paragraphs = min(largest, max(wanted, minimum))
    if largest < minimum:
        dos.arena.free(env)
        raise DosError(0x08, "insufficient memory")
    psp = dos.arena.allocate(paragraphs, 0)
    dos.arena.set_owner(psp, psp)
    dos.arena.set_owner(env, psp)
    build_psp(ctx, psp, parent or psp, psp + paragraphs, env, tail)
    name = full_path.split("\\")[-1]
    dos.processes[psp] = Process(psp, parent or psp, name)
    mem = ctx.memory
    mem.write((psp << 4) + 0x5C, (fcb1 or parse_fcb_name(ctx, tail)[0]).ljust(16, b"\x00")[:16])
    second = tail.strip().split(b" ", 1)[1] if b" " in tail.strip() else b""
    mem.write((psp << 4) + 0x6C, (fcb2 or parse_fcb_name(ctx, second)[0]).ljust(16, b"\x00")[:16])
    if header is None:
        mem.write((psp << 4) + 0x100, data)
        sp = 0xFFFE if paragraphs >= 0x1000 else (paragraphs << 4) - 2
        mem.ww(psp, sp, 0)
        start = dict(cs=psp, ip=0x100, ss=psp, sp=sp)
    else:
        load = psp + paragraphs - load_paras if header["load_high"] else psp + 0x10
        load_image(ctx, data, header, load, load)
        start = dict(cs=(load + header["cs"]) & 0xFFFF, ip=header["ip"],
                     ss=(load + header["ss"]) & 0xFFFF, sp=header["sp"])
    ctx.cpu.flush_translations()      # the image was written around Unicorn: no stale code
    if return_state is not None:
        proc = dos.processes[psp]
        proc.return_registers = return_state
        if parent:
            mem.ww(parent, 0x2E, return_state["sp"])
            mem.ww(parent, 0x30, return_state["ss"])
        mem.ww(psp, 0x0A, return_state["ip"])
        mem.ww(psp, 0x0C, return_state["cs"])
        ctx.vectors.set(0x22, return_state["cs"], return_state["ip"])
    dos.current_psp = psp
    dos.dta = (psp, 0x80)
    if load_only:
        return start
    valid1 = parse_fcb_name(ctx, tail)[1]
    valid2 = parse_fcb_name(ctx, second)[1]
    cpu.set_registers(ax=valid1 | (valid2 << 8), bx=0, cx=0x00FF, dx=psp, si=start["ip"],
                      di=start["sp"], bp=0x091C, ds=psp, es=psp, ss=start["ss"], sp=start["sp"])
    cpu.jump(start["cs"], start["ip"])
    cpu.flags = 0x0202
    for watch in ctx.events.exec.listeners:
        watch(full_path, psp)
    return start


def terminate(ctx: "ServiceContext", code: int, kind: int, keep_paragraphs: int | None = None) -> None:
    """End the current process and return to its parent's terminate address."""
    dos = ctx.dos
    psp = dos.current_psp
    proc = dos.processes.get(psp)
    mem = ctx.memory
    parent = mem.rw(psp, 0x16)
    if proc is None or parent == psp or not proc.return_registers:
        ctx.call.halt(f"the top-level program ended (exit code {code})")
        return
    # vectors the child may have changed come back from its PSP
    ctx.vectors.set(0x22, mem.rw(psp, 0x0C), mem.rw(psp, 0x0A))
    ctx.vectors.set(0x23, mem.rw(psp, 0x10), mem.rw(psp, 0x0E))
    ctx.vectors.set(0x24, mem.rw(psp, 0x14), mem.rw(psp, 0x12))
    if keep_paragraphs is None:
        seg, off, size = dos.psp_handle_table(psp)
        for handle in range(size):
            if mem.rb(seg, off + handle) != 0xFF:
                try:
                    dos.close_handle(handle)
                except DosError:
                    pass
        try:
            dos.arena.free_owned_by(psp)
        except DosError as err:               # the program wrote over an MCB: DOS stops here too
            ctx.call.halt(f"Memory allocation error, cannot load COMMAND, system halted ({err.message})")
            return
        del dos.processes[psp]
    else:
        try:
            dos.arena.resize(psp, max(keep_paragraphs, 6))
        except DosError:
            pass
    dos.return_code = code & 0xFF
    dos.termination_type = kind
    dos.current_psp = parent
    dos.dta = (parent, 0x80)
    state = proc.return_registers
    cpu = ctx.cpu
    cpu.set_registers(**{r: state[r] for r in SAVED if r in state})
    cpu.ss = mem.rw(parent, 0x30)
    cpu.sp = mem.rw(parent, 0x2E)
    cpu.jump(mem.rw(0, 0x22 * 4 + 2), mem.rw(0, 0x22 * 4))
    cpu.flags = state.get("flags", 0x0202) & ~0x0001
    ctx.vectors.set(0x22, mem.rw(psp, 0x0C), mem.rw(psp, 0x0A))
    for watch in ctx.events.exit.listeners:
        watch(proc.name, code, kind)


def caller_return_state(ctx: "ServiceContext") -> dict:
    """The state an INT 21h caller resumes in: its registers, IRET frame popped."""
    cpu = ctx.cpu
    mem = ctx.memory
    ip, cs, flags = mem.rw(cpu.ss, cpu.sp), mem.rw(cpu.ss, cpu.sp + 2), mem.rw(cpu.ss, cpu.sp + 4)
    state = {r: getattr(cpu, r) for r in SAVED}
    state.update(ip=ip, cs=cs, flags=flags, ss=cpu.ss, sp=(cpu.sp + 6) & 0xFFFF)
    return state


def tsr_int27(ctx: "ServiceContext") -> None:
    terminate(ctx, 0, 3, keep_paragraphs=(ctx.cpu.dx + 15) >> 4)


# ---------------------------------------------------------------- INT 21h services
@functions.function(0x00)
def terminate_program(ctx: "ServiceContext") -> None:
    terminate(ctx, 0, 0)


@functions.function(0x4C)
def exit_with_code(ctx: "ServiceContext") -> None:
    terminate(ctx, ctx.cpu.al, 0)


@functions.function(0x31)
def keep_resident(ctx: "ServiceContext") -> None:
    terminate(ctx, ctx.cpu.al, 3, keep_paragraphs=ctx.cpu.dx)


@functions.function(0x4D)
def get_return_code(ctx: "ServiceContext") -> None:
    ctx.cpu.ax = (ctx.dos.termination_type << 8) | ctx.dos.return_code
    ctx.dos.return_code = 0
    ctx.dos.termination_type = 0
    ctx.dos.succeed()


@functions.function(0x4B)
def exec_service(ctx: "ServiceContext") -> None:
    cpu = ctx.cpu
    mem = ctx.memory
    path = mem.read_asciiz(cpu.ds, cpu.dx).decode("latin-1")
    es, bx = cpu.es, cpu.bx
    if cpu.al == 0x03:                           # load overlay
        load_segment, relocation = mem.rw(es, bx), mem.rw(es, bx + 2)
        _full, data = read_program(ctx, path)
        header = exe_header(data)
        if header is None:
            mem.write(load_segment << 4, data)
        else:
            load_image(ctx, data, header, load_segment, relocation)
        ctx.cpu.flush_translations()
        ctx.dos.succeed()
        return
    if cpu.al not in (0x00, 0x01):
        ctx.dos.fail(0x01)
        return
    env = mem.rw(es, bx)
    tail_off, tail_seg = mem.rw(es, bx + 2), mem.rw(es, bx + 4)
    length = mem.rb(tail_seg, tail_off)
    tail = mem.read_far(tail_seg, tail_off + 1, min(length, 126))
    fcb1 = mem.read_far(mem.rw(es, bx + 8), mem.rw(es, bx + 6), 16)
    fcb2 = mem.read_far(mem.rw(es, bx + 12), mem.rw(es, bx + 10), 16)
    state = caller_return_state(ctx)
    try:
        start = exec_program(ctx, path, tail, env, fcb1, fcb2, return_state=state,
                             load_only=cpu.al == 0x01)
    except ProgramLoadError as err:              # insufficient memory, or invalid format
        ctx.dos.fail(0x08 if "memory" in str(err) else 0x0B)
        return
    if cpu.al == 0x01:
        mem.ww(es, bx + 0x0E, start["sp"])
        mem.ww(es, bx + 0x10, start["ss"])
        mem.ww(es, bx + 0x12, start["ip"])
        mem.ww(es, bx + 0x14, start["cs"])
        ctx.dos.succeed()
    ctx.cpu.flush_translations()


@functions.function(0x26)
def create_psp(ctx: "ServiceContext") -> None:
    seg = ctx.cpu.dx
    mem = ctx.memory
    mem.write(seg << 4, mem.read(ctx.dos.current_psp << 4, 0x80))
    mem.ww(seg, 0x02, mem.rw(ctx.dos.current_psp, 0x02))


@functions.function(0x50)
def set_psp(ctx: "ServiceContext") -> None:
    ctx.dos.current_psp = ctx.cpu.bx


@functions.function(0x51, 0x62)
def get_psp(ctx: "ServiceContext") -> None:
    ctx.cpu.bx = ctx.dos.current_psp


@functions.function(0x48)
def allocate_memory(ctx: "ServiceContext") -> None:
    try:
        ctx.cpu.ax = ctx.dos.arena.allocate(ctx.cpu.bx, ctx.dos.current_psp)
        ctx.dos.succeed()
    except DosError as err:
        ctx.dos.fail(err.code)
        if err.code == 0x08:
            ctx.cpu.bx = ctx.dos.arena.largest_free()


@functions.function(0x49)
def free_memory(ctx: "ServiceContext") -> None:
    try:
        ctx.dos.arena.free(ctx.cpu.es)
        ctx.dos.succeed()
    except DosError as err:
        ctx.dos.fail(err.code)


@functions.function(0x4A)
def resize_memory(ctx: "ServiceContext") -> None:
    try:
        ctx.dos.arena.resize(ctx.cpu.es, ctx.cpu.bx)
        ctx.dos.succeed()
    except DosError as err:
        ctx.dos.fail(err.code)
        if hasattr(err, "largest"):
            ctx.cpu.bx = err.largest


@functions.function(0x58)
def allocation_strategy(ctx: "ServiceContext") -> None:
    if ctx.cpu.al == 0x00:
        ctx.cpu.ax = ctx.dos.arena.strategy
        ctx.dos.succeed()
    elif ctx.cpu.al == 0x01:
        ctx.dos.arena.strategy = ctx.cpu.bx
        ctx.dos.succeed()
    else:
        ctx.dos.fail(0x01)
