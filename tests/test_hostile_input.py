"""Issue 18: hostile and careless input never escapes the output folder, loses work or
ends in a traceback."""

import hashlib
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pcemu.commands.disk import cli as disk_cli
from pcemu.storage.image import FloppyImage, format_image


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def make_image(path: Path, renames: dict[bytes, bytes] = {}, sizes: dict[bytes, int] = {}) -> Path:
    """A 360K image: README.TXT, SUB\\INNER\\DEEPER\\F.TXT, SUB\\G.TXT; then the
    11-byte names in `renames` are overwritten in place (as a hostile image would
    hold them) and the sizes in `sizes` set."""
    img = FloppyImage(format_image("360K", label="HOSTILE"))
    vol = img.drive
    with vol.create(["README.TXT"]) as f:
        f.write(b"read me\r\n")
    vol.mkdir(["SUB"])
    vol.mkdir(["SUB", "INNER"])
    vol.mkdir(["SUB", "INNER", "DEEPER"])
    with vol.create(["SUB", "INNER", "DEEPER", "F.TXT"]) as f:
        f.write(b"deep")
    with vol.create(["SUB", "G.TXT"]) as f:
        f.write(b"g")
    data = bytearray(img.data())
    for old, new in renames.items():
        at = data.index(old.ljust(11))
        data[at:at + 11] = new.ljust(11)
    for name, size in sizes.items():
        at = data.index(name.ljust(11))
        data[at + 28:at + 32] = size.to_bytes(4, "little")
    path.write_bytes(bytes(data))
    return path


def disk(*args):
    return CliRunner().invoke(disk_cli, [str(a) for a in args], catch_exceptions=False)


# ---------------------------------------------------------------- 1. extract: path traversal
@pytest.mark.parametrize("hostile", [b"../../X", b"..\\..\\X", b"/TMP/ZZ", b"IN\x01ER", b"A:B"])
def test_extract_refuses_directory_names_that_would_leave_the_output_folder(tmp_path, hostile):
    image = make_image(tmp_path / "h.img", {b"INNER": hostile})
    before = hashlib.sha256(image.read_bytes()).hexdigest()
    out = tmp_path / "work" / "out"
    out.mkdir(parents=True)
    result = disk("disk", "extract", image, "SUB", "-o", out)
    assert result.exit_code == 2, result.output
    assert "not a DOS name" in result.output and "nothing was written" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert _tree(tmp_path / "work") == {"out"}             # nothing beside or inside out
    assert not Path("/TMP/ZZ").exists()
    assert hashlib.sha256(image.read_bytes()).hexdigest() == before


def test_extract_of_a_clean_tree_still_works_and_refuses_links_out(tmp_path):
    image = make_image(tmp_path / "h.img")
    out = tmp_path / "out"
    assert disk("disk", "extract", image, "SUB", "-o", out).exit_code == 0
    assert (out / "SUB" / "INNER" / "DEEPER" / "F.TXT").read_bytes() == b"deep"
    # a link in the output folder that leads elsewhere is not written through
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out2 = tmp_path / "out2"
    out2.mkdir()
    (out2 / "SUB").symlink_to(elsewhere)
    result = disk("disk", "extract", image, "SUB", "-o", out2, "--force")
    assert result.exit_code == 2 and "outside the output folder" in result.output
    assert list(elsewhere.iterdir()) == []


def test_extract_into_a_path_under_a_file_is_a_message(tmp_path):
    image = make_image(tmp_path / "h.img")
    (tmp_path / "FILE").write_text("x")
    result = disk("disk", "extract", image, "README.TXT", "-o", tmp_path / "FILE" / "sub")
    assert result.exit_code == 2 and "cannot write" in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("dots", [b".", b".."])
def test_a_dot_entry_in_the_wrong_place_is_skipped_as_dos_skips_it(tmp_path, dots):
    image = make_image(tmp_path / "h.img", {b"INNER": dots})
    out = tmp_path / "work" / "out"
    out.mkdir(parents=True)
    result = disk("disk", "extract", image, "SUB", "-o", out)
    assert result.exit_code == 0, result.output
    assert _tree(tmp_path / "work") == {"out", "out/SUB", "out/SUB/G.TXT"}


# ---------------------------------------------------------------- 9. sizes the chain cannot hold
def test_extract_of_a_file_longer_than_its_chain_is_refused(tmp_path):
    image = make_image(tmp_path / "h.img", sizes={b"README  TXT": 0xFFFFFFFF})
    out = tmp_path / "out"
    result = disk("disk", "extract", image, "README.TXT", "-o", out)
    assert result.exit_code == 2, result.output
    assert "4294967295 bytes" in result.output and "damaged" in result.output
    assert not (out / "README.TXT").exists()


# ---------------------------------------------------------------- 6. odd bytes in a directory entry
@pytest.mark.parametrize("odd", [b"A/B", b"C\x07D", b"E F"])
def test_disk_ls_lists_a_directory_with_an_odd_entry(tmp_path, odd):
    image = make_image(tmp_path / "h.img", {b"G       TXT": odd + b"     TXT"})
    result = disk("disk", "ls", image, "SUB")
    assert result.exit_code == 0, result.output
    assert "INNER" in result.output and odd.decode("cp437") in result.output
    assert "TXT" in disk("disk", "ls", image, "SUB\\*.TXT").output


# ---------------------------------------------------------------- 3, 4, 6, 9: runs and their outputs
from pcemu.cli import main as pcemu_main  # noqa: E402


def pcemu(*args):
    return CliRunner().invoke(pcemu_main, [str(a) for a in args], catch_exceptions=False)


def one_line_error(result, status=2):
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("pcemu: ")]
    assert errors, result.output
    return errors[-1]


def saved_files(path: Path) -> set[str]:
    return {name for name, _e in ((p[-1], e) for p, e in FloppyImage.open(path).drive.walk())}


@pytest.fixture
def boot_image(tmp_path):
    return make_image(tmp_path / "boot.img")


def test_save_disk_never_replaces_a_file_or_a_device_without_force(tmp_path, boot_image):
    out = tmp_path / "saved.img"
    out.write_bytes(b"precious")
    refused = pcemu("boot", boot_image, "--headless", "--ticks", "1", "--save-disk", out)
    assert "already exists (use --force" in one_line_error(refused)
    assert out.read_bytes() == b"precious"
    device = pcemu("boot", boot_image, "--headless", "--ticks", "1", "--save-disk", "/dev/null",
                   "--force")
    assert "not a regular file" in one_line_error(device)
    assert Path("/dev/null").is_char_device()
    forced = pcemu("boot", boot_image, "--headless", "--ticks", "1", "--save-disk", out, "--force")
    assert forced.exit_code == 0, forced.output
    assert out.read_bytes() == boot_image.read_bytes()


def test_output_paths_are_checked_before_the_run_starts(tmp_path, boot_image, monkeypatch):
    (tmp_path / "FILE").write_text("x")
    ran = []
    import pcemu.cli as cli_module
    monkeypatch.setattr(cli_module, "_build_machine", lambda *a: ran.append(a))
    for option in ("--save-disk", "--screenshot", "--printer", "--trace-out", "--wav"):
        result = pcemu("boot", boot_image, "--headless", "--trace", "dos", option,
                       tmp_path / "FILE" / "out")
        assert "is a file, not a folder" in one_line_error(result), option
        assert option in result.output
    empty = pcemu("boot", boot_image, "--headless", "--save-disk", "")
    assert "empty" in one_line_error(empty)
    assert ran == []


def test_the_disk_is_saved_when_a_wait_times_out(tmp_path, boot_image):
    out = tmp_path / "after.img"
    result = pcemu("boot", boot_image, "--headless", "--save-disk", out,
                   "--keys", "COPY README.TXT NEW.TXT{ENTER}{WAIT:NEVER ON SCREEN}")
    assert result.exit_code == 2 and "Traceback" not in result.output
    line = next(line for line in result.output.splitlines() if line.startswith("pcemu: "))
    assert "NEVER ON SCREEN" in line and f"saved in {out}" in line
    assert "NEW.TXT" in saved_files(out)


def test_the_disk_is_saved_before_a_failing_screenshot(tmp_path, boot_image, monkeypatch):
    from pcemu.frontend import display

    def broken(machine, path):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(display, "save_screenshot", broken)
    out = tmp_path / "after.img"
    result = pcemu("boot", boot_image, "--headless", "--keys", "COPY README.TXT NEW.TXT{ENTER}",
                   "--save-disk", out, "--screenshot", tmp_path / "shot.png")
    assert "No space left" in one_line_error(result)
    assert "NEW.TXT" in saved_files(out)
    assert f"saved the disk with this run's changes to {out}" in result.output


def test_saved_images_follow_the_umask(tmp_path, boot_image):
    old = os.umask(0o022)
    try:
        out = tmp_path / "perm.img"
        assert pcemu("boot", boot_image, "--headless", "--ticks", "1", "--save-disk", out).exit_code == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("args", [("--ticks", "inf"), ("--ticks", "nan"), ("--mips", "1e-12"),
                                  ("--mips", "inf"), ("--keys", "{TICKS:nan}"), ("--keys", "{TICKS:inf}"),
                                  ("--host-dir", "D:"), ("--host-dir", "D:/no/such/folder")])
def test_impossible_numbers_and_folders_are_one_line(boot_image, args):
    result = pcemu("boot", boot_image, "--headless", *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "Error" in result.output or "pcemu:" in result.output


def test_clock_and_scripts_refuse_what_they_cannot_run():
    from pcemu.clock import Clock
    from pcemu.errors import MachineError
    from pcemu.keys import KeyScriptError, parse_script
    for mips in (1e-12, float("inf"), float("nan"), 0, -1):
        with pytest.raises(MachineError):
            Clock(mips)
    for ticks in (float("inf"), float("nan"), -1, 1e300):
        with pytest.raises(MachineError):
            Clock().instructions_for_ticks(ticks)
    for script in ("{TICKS:nan}", "{TICKS:inf}", "{TICKS:-1}", "{TICKS:1e99}"):
        with pytest.raises(KeyScriptError):
            parse_script(script)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_printer_or_trace_file_is_a_message(tmp_path, boot_image):
    printer = pcemu("boot", boot_image, "--headless", "--printer", "/dev/full",
                    "--keys", "COPY README.TXT PRN{ENTER}", "--ticks", "5")
    assert "--printer: cannot write the capture file /dev/full" in one_line_error(printer)
    trace = pcemu("boot", boot_image, "--headless", "--trace", "all", "--trace-out", "/dev/full",
                  "--ticks", "5")
    assert "cannot write the trace" in one_line_error(trace)


def test_the_trace_stops_at_its_size_limit(tmp_path, boot_image):
    import io

    from pcemu.archive.tracer import Tracer
    from pcemu.machine import Machine
    m = Machine(disks=[f"B:{boot_image}"])
    out = io.StringIO()
    tracer = Tracer(m, "all", out=out, max_bytes=4000)
    m.type("DIR{ENTER}" * 5)
    tracer.close()
    lines = out.getvalue().splitlines()
    assert len(out.getvalue()) <= 4000 + 300
    assert '"cat":"truncated"' in lines[-2] and '"cat":"end"' in lines[-1]
    assert "reached its limit of 4,000 bytes" in tracer.problem
    help_text = pcemu("boot", "--help").output
    assert "--trace-limit" in help_text


# ---------------------------------------------------------------- 2, 6, 7: session files
def recorded_with_folder(tmp_path):
    """A session that mounted host folder D: and wrote a file into it."""
    from pcemu.archive.session import Recorder
    from pcemu.machine import Machine
    folder = tmp_path / "recorded_folder"
    folder.mkdir()
    (folder / "IN.TXT").write_text("in\r\n")
    outside = tmp_path / "outside.txt"
    outside.write_text("not in the folder")
    (folder / "LINK.TXT").symlink_to(outside)
    image = make_image(tmp_path / "s.img")
    m = Machine(disks=[f"B:{image}"], host_dirs={"D": str(folder)})
    recorder = Recorder(m)
    m.type("COPY D:IN.TXT D:OUT.TXT{ENTER}")
    m.run(2)
    session = recorder.finish()
    return folder, session


def test_replay_never_opens_a_folder_the_session_names(tmp_path):
    import shutil
    folder, session = recorded_with_folder(tmp_path)
    assert set(session.host_dirs[0].files) == {"IN.TXT"}        # record: the link out not followed
    (folder / "OUT.TXT").unlink()
    path = session.save(tmp_path / "run.session")
    refused = pcemu("replay", path)
    line = one_line_error(refused)
    assert "does not open folders a session names" in line and "--host-dir D:FOLDER" in line
    assert not (folder / "OUT.TXT").exists()                      # nothing written there
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(folder / "IN.TXT", copy / "IN.TXT")
    good = pcemu("replay", path, "--host-dir", f"D:{copy}")     # on a private copy of copy
    assert good.exit_code == 0, good.output
    assert not (copy / "OUT.TXT").exists() and "--host-dir-writes" in good.output
    good = pcemu("replay", path, "--host-dir", f"D:{copy}", "--host-dir-writes")
    assert good.exit_code == 0, good.output
    assert (copy / "OUT.TXT").read_bytes() == b"in\r\n"
    assert not (folder / "OUT.TXT").exists()
    changed = pcemu("replay", path, "--host-dir", f"D:{copy}")   # OUT.TXT is there now
    assert changed.exit_code == 1 and "OUT.TXT" in changed.output


def test_the_folder_manifest_does_not_follow_links_out(tmp_path):
    from pcemu.archive.manifest import folder_manifest
    folder = tmp_path / "folder"
    (folder / "SUB").mkdir(parents=True)
    (folder / "IN.TXT").write_text("in")
    (folder / "SUB" / "X.TXT").write_text("x")
    (tmp_path / "outside.txt").write_text("secret")
    (folder / "LINK.TXT").symlink_to(tmp_path / "outside.txt")
    (folder / "DIRLINK").symlink_to(tmp_path)
    assert set(folder_manifest(folder)) == {"IN.TXT", "SUB/X.TXT"}


def test_a_session_naming_a_huge_folder_costs_nothing(tmp_path):
    import time
    _folder, session = recorded_with_folder(tmp_path)
    session.host_dirs[0].path = "/usr"
    path = session.save(tmp_path / "usr.session")
    start = time.monotonic()
    result = pcemu("replay", path)
    assert "does not open folders" in one_line_error(result)
    assert time.monotonic() - start < 5


def _session_json(tmp_path):
    import json
    from pcemu.archive.session import Recorder
    from pcemu.machine import Machine
    m = Machine(disks=[f"B:{make_image(tmp_path / 's.img')}"])
    recorder = Recorder(m)
    m.type("DIR{ENTER}")
    return json.loads(json.dumps(recorder.finish().to_json()))


@pytest.mark.parametrize("damage, message", [
    (lambda d: d["profile"].update(ips=0), "instructions a second"),
    (lambda d: d["profile"].update(ips=1e300), "instructions a second"),
    (lambda d: d["profile"].pop("time"), "no start time"),
    (lambda d: d["profile"].update(date="yesterday"), "not YYYY-MM-DD"),
    (lambda d: d["events"].append(["keys", 10**15, [0x1C], "x"]), "outside the session"),
    (lambda d: d["end"].update(t=10**15), "at most 24 hours"),
    (lambda d: d["host_dirs"].append({"letter": "D", "path": "/proc/self", "files": {}}),
     "does not open folders"),
    (lambda d: d["disks"][0].update(spec="/dev/zero"), "diskette image"),
])
def test_damaged_sessions_are_one_line(tmp_path, damage, message):
    import json
    data = _session_json(tmp_path)
    damage(data)
    path = tmp_path / "bad.session"
    path.write_text(json.dumps(data))
    result = pcemu("replay", path)
    assert message in one_line_error(result)


def test_deeply_nested_json_is_a_message(tmp_path):
    deep = "[" * 200_000 + "]" * 200_000
    session = tmp_path / "deep.session"
    session.write_text(deep)
    assert "nested too deeply" in one_line_error(pcemu("replay", session))
    pcjs = tmp_path / "deep.json"
    pcjs.write_text(deep)
    result = disk("import", pcjs, "-o", tmp_path / "x.img")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output


def test_a_pcjs_json_declaring_a_huge_sector_is_refused_before_allocating(tmp_path):
    import resource
    bomb = tmp_path / "bomb.json"
    bomb.write_text('{"diskData":[[[{"s":1,"l":200000000,"d":[0]}]]]}')
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = disk("import", bomb, "-o", tmp_path / "x.img")
    assert result.exit_code == 2 and "impossible length 200000000" in result.output
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000    # KB
    many = tmp_path / "many.json"
    track = [{"s": n, "l": 8192, "d": [0]} for n in range(1, 19)]
    many.write_text(__import__("json").dumps({"diskData": [[track, track]] * 80}))
    result = disk("import", many, "-o", tmp_path / "y.img")
    assert result.exit_code == 2 and "larger than any diskette" in result.output
    assert not (tmp_path / "y.img").exists()


# ---------------------------------------------------------------- 6, 9: the shell and FINDNEXT
def test_dir_findnext_and_del_with_odd_bytes_in_entries(tmp_path):
    from dos_harness import RESULTS, machine_with, run_command
    image = FloppyImage.open(make_image(tmp_path / "odd.img", {b"G       TXT": b"A/B     TXT",
                                                               b"README  TXT": b"R\x07D     TXT"}))
    # FINDFIRST *.* in SUB, then FINDNEXT until no more files: the count of names found
    count = f"""
        mov dx, pattern
        mov cx, 0x10
        mov ah, 0x4e
        int 0x21
        jc done
    again:
        inc word ptr [{RESULTS:#x}]
        mov ah, 0x4f
        int 0x21
        jnc again
    done:
        mov [{RESULTS + 2:#x}], ax
        mov ax, 0x4c00
        int 0x21
    pattern: .asciz "B:\\\\SUB\\\\*.*"
    """
    run = machine_with(tmp_path, {"COUNT.COM": count}, mounts={"B": image})
    m = run.machine
    m.type("C:{ENTER}")
    run_command(run, "COUNT")
    found, last_error = run.words(2)
    assert (found, last_error) == (4, 0x12)          # ., .., INNER and A/B.TXT; then no more files
    m.type("B:{ENTER}DIR SUB{ENTER}DIR{ENTER}")
    screen = m.screen_text()
    assert "A/B      TXT" in screen and "INNER" in screen and "internal error" not in screen
    m.type("COPY SUB\\INNER\\DEEPER\\F.TXT ONE.DOC{ENTER}COPY ONE.DOC TWO.DOC{ENTER}"
           "DEL *.DOC{ENTER}DIR *.DOC{ENTER}")
    assert "Invalid drive specification" not in m.screen_text()
    assert not any(e.name.endswith(".DOC") for e in image.drive.listdir([]))
    m.type("DEL Q:*.DOC{ENTER}DEL NONE.*{ENTER}")
    screen = m.screen_text()
    assert "Invalid drive specification" in screen and "File not found" in screen


def test_a_host_dir_without_a_folder_is_refused_not_the_current_folder():
    from pcemu.storage.errors import MountError
    from pcemu.storage.mount import mount_disks
    with pytest.raises(MountError, match="needs a host folder"):
        mount_disks([], {"D": ""})


# ---------------------------------------------------------------- 8: faults in the program
def test_divide_by_zero_prints_divide_overflow_and_ends_the_program(tmp_path):
    from dos_harness import run_program
    run = run_program(tmp_path, """
        mov ah, 0x02
        mov dl, 0x41
        int 0x21
        xor ax, ax
        xor dx, dx
        div ax
        mov ax, 0x4c07
        int 0x21
    """)
    m = run.machine
    lines = [line.rstrip() for line in m.screen_text().splitlines()]
    assert lines[lines.index("Divide overflow") - 1].endswith("A")
    assert m.dos.shell.exit_codes[-1][1] == 0 and m.dos.shell.termination >> 8 == 1
    assert m.dos.shell.at_prompt


def test_an_invalid_opcode_hangs_as_on_an_at_and_strict_stops_with_the_reason(tmp_path):
    from dos_harness import machine_with, run_command
    from pcemu.errors import MachineError, ScriptTimeout
    source = """
        .byte 0x0f, 0xff
        mov ax, 0x4c00
        int 0x21
    """
    run = machine_with(tmp_path, {"BAD.COM": source})
    run.machine.type("C:{ENTER}")
    with pytest.raises(ScriptTimeout):
        run_command(run, "BAD", max_ticks=60)             # the AT's INT 6 is an IRET: it hangs
    (tmp_path / "s").mkdir()
    strict = machine_with(tmp_path / "s", {"BAD.COM": source}, strict=True)
    strict.machine.type("C:{ENTER}")
    with pytest.raises(MachineError, match=r"invalid opcode at [0-9A-F]{4}:0100 \(0F FF"):
        run_command(strict, "BAD")


@pytest.mark.parametrize("program, reason", [
    (b"\xea\xf0\xff\xff\xff", "restarted the machine"),                 # JMP FAR FFFF:FFF0: IP wraps
    (b"\xea\x00\x00\xff\xff", "restarted the machine"),                 # JMP FAR FFFF:0000
    (b"\xea\x5b\xe0\x00\xf0", "restarted the machine"),                 # JMP FAR F000:E05B
])
def test_jumps_to_the_top_of_memory_stop_with_a_reason(tmp_path, program, reason):
    folder = tmp_path / "progs"
    folder.mkdir()
    (folder / "JUMP.COM").write_bytes(program)
    result = pcemu("run", folder, "JUMP", "--headless")
    assert reason in one_line_error(result)


@pytest.mark.parametrize("accelerate", [True, False])
def test_ip_wraps_at_the_top_of_segment_ffff_as_on_a_286(accelerate):
    """Unicorn does not wrap IP at FFFF in 16-bit code (it fails the fetch from 110000h);
    the CPU steps to the top and wraps, as a 286 does: the INCs before the top run, and a
    NOP at FFFF:FFFF goes on at FFFF:0000, the reset vector."""
    from unicorn import x86_const as X
    from pcemu.cpu import STOP_REQUESTED
    from pcemu.machine import Machine
    m = Machine(accelerate=accelerate, boot=False)
    m.memory.write(0xFFE8, b"\x40" * 7 + b"\x90")        # FFFF:FFF8: 7 x INC AX, NOP (A20 off)
    m.cpu.jump(0xFFFF, 0xFFF8)
    m.cpu.uc.reg_write(X.UC_X86_REG_AX, 0)
    result = m.cpu.run(100)
    assert (m.cpu.cs, m.cpu.ip) == (0xFFFF, 0x0000) and result.reason == STOP_REQUESTED
    assert m.cpu.uc.reg_read(X.UC_X86_REG_AX) == 7


def test_a_nop_at_ffff_ffff_goes_on_at_the_reset_vector(tmp_path):
    folder = tmp_path / "progs"
    folder.mkdir()
    # ES=0; a NOP at 0000:FFEF, which is FFFF:FFFF with A20 off; JMP FAR FFFF:FFFF
    (folder / "TOP.COM").write_bytes(b"\x31\xc0\x8e\xc0\x26\xc6\x06\xef\xff\x90"
                                     b"\xea\xff\xff\xff\xff")
    result = pcemu("run", folder, "TOP", "--headless")
    assert "the program restarted the machine" in one_line_error(result)


# ---------------------------------------------------------------- 7: the speaker's log is bounded
def test_the_speaker_log_is_bounded_unless_the_whole_run_is_wanted():
    from pcemu.devices.speaker import KEPT_EVENTS, Speaker

    class Toggling(Speaker):
        n = 0

        @property
        def frequency(self):
            return 440.0 + (self.n % 2)

    def play(speaker, changes):
        for _ in range(changes):
            speaker.n += 1
            speaker.channel2_changed()

    clock = iter(range(10**9))
    bounded = Toggling(None, lambda: 0, lambda: next(clock))
    play(bounded, 5 * KEPT_EVENTS)
    assert KEPT_EVENTS <= len(bounded.events) <= 2 * KEPT_EVENTS
    assert bounded.events[-1][0] > bounded.events[0][0] and bounded.events_dropped > 0
    whole = Toggling(None, lambda: 0, lambda: next(clock))
    whole.keep_all = True
    play(whole, 3 * KEPT_EVENTS)
    assert len(whole.events) == 3 * KEPT_EVENTS


def test_disasm_of_an_impossible_header_is_a_message(tmp_path):
    import struct
    header = bytearray(64)
    header[0:2] = b"MZ"
    struct.pack_into("<7H", header, 2, 100, 1, 0, 0xFFFF, 0, 0xFFFF, 0)
    exe = tmp_path / "HUGE.EXE"
    exe.write_bytes(bytes(header) + bytes(200))
    assert "corrupt header" in one_line_error(pcemu("disasm", exe, "--names"))
    if Path("/dev/zero").exists():                    # endless input: refused after 16 MB
        assert "larger than 16 MB" in one_line_error(pcemu("disasm", "/dev/zero", "--names"))
        endless = pcemu("exe-info", "/dev/zero")
        assert endless.exit_code != 0 and "larger than 16 MB" in endless.output


def test_the_security_contract_names_tests_that_exist():
    import re
    repo = Path(__file__).resolve().parent.parent
    cited = set(re.findall(r"`(test_\w+)`", (repo / "docs" / "security.md").read_text()))
    defined = set()
    for name in ("test_hostile_input.py", "test_fuzz.py", "test_disk_cli.py",
                 "test_storage_overlay.py"):
        defined |= set(re.findall(r"^(?:def )?(test_\w+)", (repo / "tests" / name).read_text(), re.M))
    assert len(cited) > 20 and cited <= defined, cited - defined


def test_the_changes_report_survives_a_lowercase_name_and_a_fat_loop(tmp_path):
    image = make_image(tmp_path / "damaged.img", {b"README  TXT": b"readme  txt"})
    data = bytearray(image.read_bytes())
    img = FloppyImage(bytes(data))
    first = img.drive.first_cluster(["SUB", "INNER", "DEEPER", "F.TXT"])
    fat = img.layout.fat_start * 512
    for base in (fat, fat + img.layout.bpb.sectors_per_fat * 512):     # F.TXT's cluster -> itself
        at = base + first + (first >> 1)
        word = data[at] | data[at + 1] << 8
        word = (word & 0x000F) | (first << 4) if first & 1 else (word & 0xF000) | first
        data[at:at + 2] = word.to_bytes(2, "little")
    image.write_bytes(bytes(data))
    changes = FloppyImage.open(image).changes()
    assert changes == []
    out = tmp_path / "saved.img"
    result = pcemu("boot", image, "--headless", "--keys", "COPY SUB\\G.TXT NEW.TXT{ENTER}",
                   "--trace", "files", "--trace-out", tmp_path / "t.jsonl", "--save-disk", out)
    assert result.exit_code == 0, result.output
    assert '"cat":"change"' in (tmp_path / "t.jsonl").read_text()
    assert "NEW.TXT" in saved_files(out)


def test_closing_a_read_only_host_file_whose_folder_moved_is_not_an_internal_error(tmp_path):
    """Found by the INT 21h fuzz: create a read-only file, rename its folder, close it."""
    from pcemu.storage.hostdir import HostDirDrive
    drive = HostDirDrive(tmp_path)
    drive.mkdir(["D"])
    f = drive.create(["D", "F.TXT"], attr=0x01)
    f.write(b"x")
    os.rename(tmp_path / "D", tmp_path / "E")
    f.close()
    assert (tmp_path / "E" / "F.TXT").read_bytes() == b"x"
