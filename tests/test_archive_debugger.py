"""The debugger: breakpoints on addresses, interrupt services, ports and memory writes;
stepping; the console; disassembly with the runtime's routines named."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from pcemu.archive.console import DebugConsole
from pcemu.archive.debugger import Debugger, DebuggerError, DebuggerQuit
from pcemu.cli import main
from pcemu.machine import Machine
from tests.dos_harness import assemble16
from tests.machine_helpers import DISK1612, needs_originals

PROGRAM = """
    mov word ptr [counter], 0
    mov cx, 3
again:
    inc word ptr [counter]
    loop again
    mov ax, 0x1234
    nop
    mov dx, message
    mov ah, 0x09
    int 0x21
    in al, 0x61
    or al, 0
    out 0x61, al
    mov ax, 0x4c00
    int 0x21
message: .ascii "DONE$"
counter: .word 0xffff
"""
CODE = assemble16(PROGRAM)
TARGET = 0x100 + CODE.index(bytes.fromhex("b83412"))      # mov ax, 1234h
COUNTER = 0x100 + len(CODE) - 2


def machine(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "T.COM").write_bytes(CODE)
    m = Machine(host_dirs={"C": folder})
    m.type("C:{ENTER}")
    return m


def run_program(m):
    m.type("T{ENTER}")
    m.run_until(condition=lambda mm: bool(mm.dos.shell.exit_codes) and mm.dos.shell.at_prompt,
                max_ticks=100)


def test_a_code_breakpoint_stops_before_the_instruction_and_step_runs_one(tmp_path):
    m = machine(tmp_path)
    seen = []

    def on_stop(stop):
        seen.append((stop.reason, stop.ip, m.cpu.ax))
        return "step" if stop.reason == "breakpoint" else "continue"

    dbg = Debugger(m, on_stop)
    bp = dbg.add(f"module:0:{TARGET:04X}")
    assert bp.pending                                   # the program is not loaded yet
    run_program(m)
    assert seen[0][0] == "breakpoint" and seen[0][1] == TARGET and seen[0][2] != 0x1234
    assert seen[1] == ("step", TARGET + 3, 0x1234)      # after MOV AX,1234h
    assert len(seen) == 2 and bp.hits == 1
    assert "DONE" in m.screen_text()


def test_interrupt_port_and_write_breakpoints(tmp_path):
    m = machine(tmp_path)
    stops = []
    dbg = Debugger(m, lambda stop: stops.append(stop) or "continue")
    dbg.break_on_interrupt(0x21, 0x09)
    dbg.add("port:61/out")
    dbg.add(f"write:module:0:{COUNTER:04X}+2")
    run_program(m)
    kinds = [s.breakpoint.kind for s in stops]
    assert kinds == ["write"] * 4 + ["interrupt", "port"]
    assert [s.extra["value"] for s in stops[:4]] == [0, 1, 2, 3]
    interrupt = stops[4]
    assert m.memory.read_far(interrupt.cs, interrupt.ip, 2) == b"\xcd\x21"
    assert "AH=09h" in interrupt.detail
    port = stops[5]
    assert port.extra == {"port": 0x61, "direction": "out", "value": port.extra["value"]}
    assert m.memory.read_far(port.cs, port.ip, 1) == b"\xe6"            # OUT 61h, AL


def test_deleted_breakpoints_stop_nothing_and_the_run_is_unchanged(tmp_path):
    plain = machine(tmp_path / "a")
    run_program(plain)
    m = machine(tmp_path / "b")
    stops = []
    dbg = Debugger(m, lambda stop: stops.append(stop) or "continue")
    first = dbg.add("int:21/09")
    dbg.add(f"write:module:0:{COUNTER:04X}+2")
    dbg.delete(first.number)
    run_program(m)
    assert {s.breakpoint.kind for s in stops} == {"write"}
    dbg.close()
    assert m.clock.now == plain.clock.now and m.state_hash() == plain.state_hash()
    with pytest.raises(DebuggerError, match="no breakpoint #9"):
        dbg.delete(9)


def test_quit_leaves_the_run(tmp_path):
    m = machine(tmp_path)
    Debugger(m, lambda stop: "quit").add("int:21/09")
    with pytest.raises(DebuggerQuit):
        run_program(m)


def test_bad_breakpoints_are_clear_errors(tmp_path):
    m = machine(tmp_path)
    dbg = Debugger(m)
    with pytest.raises(DebuggerError, match="not a hexadecimal number"):
        dbg.add("12X4:0000")
    with pytest.raises(DebuggerError, match="in or out"):
        dbg.add("port:61/sideways")
    with pytest.raises(DebuggerError, match="bytes"):
        dbg.add("int:121")
    with pytest.raises(DebuggerError, match="no program"):
        dbg.resolve("line:10")


def test_the_console_runs_commands_at_a_stop(tmp_path):
    m = machine(tmp_path)
    out: list[str] = []
    console = DebugConsole(m, ["regs", f"mem module:0:{COUNTER:04X} 2", "d cs:ip 2", "bl",
                               "frobnicate", "c"], write=out.append)
    console.debugger.add(f"module:0:{TARGET:04X}")
    run_program(m)
    text = "\n".join(out)
    assert re.search(r"breakpoint #1 .* at [0-9A-F]{4}:%04X" % TARGET, text)
    assert "AX=" in text and "FLAGS=" in text
    assert re.search(r"[0-9A-F]{5}  03 00 ", text)              # the counter after the loop
    assert "mov     ax, 0x1234" in text
    assert "error: unknown command 'frobnicate'" in text


def test_debug_command_with_a_script(tmp_path):
    from pcemu.storage.image import FloppyImage, format_image
    image = FloppyImage(format_image("360K"))
    handle = image.drive.create(["T.COM"])
    handle.write(CODE)
    handle.close()
    disk = image.save(tmp_path / "t.img")
    result = CliRunner().invoke(main, ["debug", str(disk), "T", "--break", "int:21/09",
                                       "--do", "regs; c"], input="")
    assert result.exit_code == 0, result.output
    assert "breakpoint #1 (int:21/09)" in result.output and "AX=09" in result.output
    assert "the run ended" in result.output


@needs_originals
def test_breaking_at_rnd_found_by_signature_sees_the_documented_generator():
    """At every entry to RND the 24-bit state is one step of x*343FDh + 1A9EC3h further."""
    plain = Machine(disks=[f"B:{DISK1612}"])
    script = "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}"
    plain.type(script)
    m = Machine(disks=[f"B:{DISK1612}"])
    states = []

    def on_stop(stop):
        states.append(int.from_bytes(dbg.read("dgroup:0850", 3), "little"))
        return ("step", 4) if len(states) == 1 else "continue"

    dbg = Debugger(m, on_stop)
    dbg.add("RND")
    m.type(script)
    rnd_states = states[:1] + states[2:]               # the second stop was the step
    # docs/ginrummy-internals.md, section 8: at least 2 + 3 + 1 + 1 + 1 + 381 + 1 + 2 calls
    assert len(rnd_states) >= 392
    for before, after in zip(rnd_states, rnd_states[1:]):
        assert after == (before * 0x343FD + 0x1A9EC3) % (1 << 24)
    assert dbg.where(dbg.program.routine("RND")).startswith("RND")
    assert m.clock.now == plain.clock.now and m.state_hash() == plain.state_hash()


@needs_originals
def test_disasm_of_the_shuffle_names_the_runtime_calls_and_shows_strings():
    runner = CliRunner()
    listing = runner.invoke(main, ["disasm", str(DISK1612), "GINRUMMY.EXE", "--lines", "10610-10750"])
    assert listing.exit_code == 0, listing.output
    names = runner.invoke(main, ["disasm", str(DISK1612), "GINRUMMY.EXE", "--names"]).output
    rnd = re.search(r"^RND +([0-9A-F]{4}:[0-9A-F]{4})$", names, re.M).group(1)
    calls = re.findall(r"lcall +([0-9A-F]{4}:[0-9A-F]{4}) +; RND$", listing.output, re.M)
    assert calls and set(calls) == {rnd}
    assert "'*SHUFFLING*'" in listing.output                    # M$ = "*SHUFFLING*"
    assert re.search(r"; GOSUB\n.*dw .*; line \d+", listing.output)
    assert "<line 10650>" in listing.output and "<line 10760>" not in listing.output
    routine = runner.invoke(main, ["disasm", str(DISK1612), "GINRUMMY.EXE", "--routine", "RND",
                                   "--count", "3"])
    assert routine.output.startswith(rnd) and "<RND>" in routine.output.splitlines()[0]
    bad = runner.invoke(main, ["disasm", str(DISK1612), "GINRUMMY.EXE", "--lines", "99999"])
    assert bad.exit_code == 2 and "no BASIC line" in bad.output


@needs_originals
@pytest.mark.parametrize("program", ["GINRUMMY.EXE", "METEORS.EXE"])
def test_def_fn_bodies_are_named_and_temporary_slot_bytes_are_not_decoded_as_code(program):
    """The shuffle draws its cards with FNR (A = FNR(N), line 10650), a DEF FN whose body
    stores to a temporary slot: the slot number is a byte after the far call, and the RND
    call behind it must be decoded as a call, not as the tail of a bogus instruction."""
    runner = CliRunner()
    names = runner.invoke(main, ["disasm", str(DISK1612), program, "--names"]).output
    for name in ("DEF_FN_ENTER", "STORE fac->temp", "LOAD temp->fac", "TEMP_SLOT"):
        assert re.search(rf"^{re.escape(name)} +[0-9A-F]{{4}}:[0-9A-F]{{4}}$", names, re.M), name
    if program != "GINRUMMY.EXE":
        return
    shuffle = runner.invoke(main, ["disasm", str(DISK1612), program, "--lines", "10650"]).output
    assert re.search(r"call +016Dh +; DEF FN \(line 270\)", shuffle)
    body = runner.invoke(main, ["disasm", str(DISK1612), program, "--lines", "270"]).output.splitlines()
    store = next(i for i, line in enumerate(body) if line.endswith("; STORE fac->temp"))
    assert re.search(r"\bdb +80h$", body[store + 1])               # the slot byte
    assert body[store + 2].endswith("; RND")                        # FNR = INT(RND * N) + 1


@needs_originals
def test_the_documented_shuffle_listing_names_rnd_randomize_timer_print_and_gosub():
    """docs/archivists.md's one command: RANDOMIZE TIMER (line 110), FNR (270), the shuffle
    (10610-10750) and the message routine it calls (12640-12680)."""
    listing = CliRunner().invoke(main, ["disasm", str(DISK1612), "GINRUMMY.EXE",
                                        "--lines", "110,270,10610-10750,12640-12680"])
    assert listing.exit_code == 0, listing.output
    named = set(re.findall(r"lcall +[0-9A-F]{4}:[0-9A-F]{4} +; (\w+)$", listing.output, re.M))
    assert {"RND", "RANDOMIZE", "TIMER", "GOSUB", "RETURN", "PRINT_BEGIN", "PRINT_END"} <= named
    assert listing.output.count("\n...\n") == 3
    assert "<line 110>" in listing.output and "<line 12680>" in listing.output
