"""COMMAND.COM's built-in commands, with DOS 3.30's wording and layout.

DIR, CLS, ECHO, VER, PAUSE, REM, SET, PROMPT, PATH, DATE, TIME, GOTO, IF and
drive changes here; the file commands (CD/CHDIR, MD, RD, DEL/ERASE, REN, COPY,
TYPE) in `file_commands`, all through the DOS kernel's calls.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bios import video
from pcemu.dos import kernel
from pcemu.shell.file_commands import cmd_cd, cmd_copy, cmd_del, cmd_md, cmd_rd, cmd_ren, cmd_type, exists, read_file  # noqa: F401
from pcemu.storage.errors import DosError
from pcemu.storage import names

if TYPE_CHECKING:
    from pcemu.shell import Shell


def split_command(line: str) -> tuple[str, str]:
    """'TYPE GO.TXT' -> ('TYPE', ' GO.TXT'); 'CD\\' and 'ECHO.' split as DOS does."""
    i = 0
    while i < len(line) and line[i] not in " \t/;,=+":
        i += 1
    word = line[:i]
    for cut, ch in enumerate(word):
        if ch in ".\\" and word[:cut].upper() in COMMANDS:
            return word[:cut], line[cut:]
    return word, line[i:]


def substitute_arguments(line: str, arguments: list[str],
                         environment: dict[str, str] | None = None) -> str:
    """A batch line's % substitutions, as COMMAND.COM's ReadBat makes them (MS-DOS 4.0's
    TBATCH.ASM): %% is one %, %0-%9 the arguments (nothing past the last), %NAME% the
    environment variable (nothing if unset), a % that ends the line is dropped, and a %
    with no closing % is dropped while the rest of the line stays (DOS%B2.COM runs
    DOSB2.COM)."""
    out = []
    i = 0
    while i < len(line):
        ch = line[i]
        if ch != "%":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(line):               # % at the end of the line
            break
        nxt = line[i + 1]
        if nxt == "%":
            out.append("%")
            i += 2
        elif nxt.isdigit():
            index = int(nxt)
            out.append(arguments[index] if index < len(arguments) else "")
            i += 2
        else:
            close = line.find("%", i + 1)
            if close < 0:                    # no closing %: the rest as it is
                out.append(line[i + 1:])
                break
            name = line[i + 1:close].upper()
            out.append((environment or {}).get(name, ""))
            i = close + 1
    return "".join(out)


def environment(shell: "Shell") -> dict[str, str]:
    ctx = shell.ctx
    env_seg = ctx.memory.rw(shell.psp, 0x2C)
    data = ctx.memory.read(env_seg << 4, 0x400)
    result: dict[str, str] = {}
    for item in data.split(b"\0\0")[0].split(b"\0"):
        if b"=" in item:
            key, _, value = item.partition(b"=")
            result[key.decode("cp437").upper()] = value.decode("cp437")
    return result


def set_environment(shell: "Shell", key: str, value: str | None) -> None:
    env = environment(shell)
    if value:
        env[key.upper()] = value
    else:
        env.pop(key.upper(), None)
    block = b"".join(f"{k}={v}".encode("cp437") + b"\0" for k, v in env.items()) + b"\0"
    ctx = shell.ctx
    env_seg = ctx.memory.rw(shell.psp, 0x2C)
    if len(block) > 0x100:
        shell.console.write(b"Out of environment space\r\n")
        return
    ctx.memory.write(env_seg << 4, block.ljust(0x100, b"\0"))


def expand_prompt(shell: "Shell", prompt: str) -> str:
    ctx = shell.ctx
    dos = ctx.dos
    now = ctx.time.now()
    out = []
    i = 0
    while i < len(prompt):
        ch = prompt[i]
        if ch == "$" and i + 1 < len(prompt):
            code = prompt[i + 1].upper()
            i += 2
            if code == "P":
                out.append(_current_path(shell))
                continue
            out.append({
                "G": ">", "L": "<", "B": "|", "Q": "=", "$": "$", "N": dos.current_drive,
                "_": "\r\n", "E": "\x1b", "H": "\x08",
                "V": "IBM Personal Computer DOS Version 3.30",
                "D": f"{'Sun Mon Tue Wed Thu Fri Sat'.split()[(now.weekday() + 1) % 7]} "
                     f"{now.month:02}-{now.day:02}-{now.year}",
                "T": f"{now.hour:2}:{now.minute:02}:{now.second:02}.{now.microsecond // 10000:02}",
            }.get(code, ""))
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _current_path(shell: "Shell") -> str:
    """$P: the current drive and directory, which checks the drive (an empty one
    raises "Not ready"); after a "Fail" answer DOS shows this instead."""
    dos = shell.ctx.dos
    if shell.drive_invalid:
        shell.drive_invalid = False
        return "Current drive is no longer valid"
    dos.check_ready(dos.current_drive)
    return f"{dos.current_drive}:\\" + "\\".join(dos.current_dirs.get(dos.current_drive, []))


def find_program(shell: "Shell", word: str) -> str | None:
    """Look for word.COM, .EXE, .BAT in the current directory, then along PATH."""
    dos = shell.ctx.dos
    places = [""]
    for folder in environment(shell).get("PATH", "").split(";"):
        if folder:
            places.append(folder.rstrip("\\") + "\\")
    has_ext = "." in word.split("\\")[-1]
    for place in places if "\\" not in word and ":" not in word[2:] else [""]:
        candidates = [word] if has_ext else [word + ext for ext in (".COM", ".EXE", ".BAT")]
        for name in candidates:
            path = place + name
            if not path.upper().endswith((".COM", ".EXE", ".BAT")):
                continue
            try:
                if kernel.get_attributes(dos, path) & kernel.ATTR_DIRECTORY:
                    continue
            except DosError:
                continue
            return kernel.full_name(*dos.resolve(path))
    return None


def change_drive(shell: "Shell", letter: str) -> None:
    dos = shell.ctx.dos
    if letter.upper() not in dos.drives:
        shell.console.write(b"Invalid drive specification\r\n")
        return
    dos.current_drive = letter.upper()


# ---------------------------------------------------------------- the commands
def cmd_dir(shell: "Shell", rest: str) -> None:
    dos = shell.ctx.dos
    args = [a for a in rest.split() if not a.startswith("/")]
    switches = {a.upper() for a in rest.split() if a.startswith("/")}
    target = args[0].replace("/", "\\") if args else ""
    # a wildcard name (DIR *.EXE, DIR B:GO.*) is a pattern in the directory before it
    prefix, path = (target[:2], target[2:]) if target[1:2] == ":" else ("", target)
    folder, sep, last = path.rpartition("\\")
    wildcard = names.has_wildcards(last)
    if wildcard:
        target = prefix + (folder + sep if sep else "")
    try:
        drive, parts = dos.resolve(target or ".")
    except DosError as err:
        shell.console.write(b"Invalid drive specification\r\n" if err.code == 0x0F
                            else b"Path not found\r\n")
        return
    fs = dos.drives[drive]
    pattern = "*.*"
    entry = fs.stat(parts) if parts else None
    if wildcard:
        pattern = last if "." in last else last + ".*"
    elif parts and (entry is None or not entry.is_dir):
        pattern = parts[-1]
        parts = parts[:-1]
        if "." not in pattern:
            pattern += ".*"
    try:
        # FINDFIRST/FINDNEXT with the directory bit: no label, hidden or system entries
        entries = kernel.list_matching(dos, drive, parts, names.pattern_to_fcb(pattern),
                                       kernel.ATTR_DIRECTORY)
    except DosError:
        shell.console.write(b"Path not found\r\n")
        return
    label = fs.volume_label
    out = [""]
    out.append(f" Volume in drive {drive} is {label}" if label else f" Volume in drive {drive} has no label")
    out.append(f" Directory of  {drive}:\\" + "\\".join(parts))
    out.append("")
    count = 0
    wide = []
    for e in entries:
        count += 1
        base, _, ext = e.name.partition(".") if e.name not in (".", "..") else (e.name, "", "")
        if "/W" in switches:
            wide.append(f"{base:<8} {ext:<3}")
            continue
        size = "<DIR>   " if e.is_dir else f"{e.size:>9}"
        year, month, day = ((e.date >> 9) + 1980, (e.date >> 5) & 15, e.date & 31)
        hour, minute = e.time >> 11, (e.time >> 5) & 63
        suffix = "a" if hour < 12 else "p"
        hour12 = hour % 12 or 12
        size_field = f"    {size}" if e.is_dir else size
        out.append(f"{base:<8} {ext:<3}{size_field:>9}  {month:>2}-{day:02}-{year % 100:02}  "
                   f"{hour12:>2}:{minute:02}{suffix}")
    for i in range(0, len(wide), 5):
        out.append("    ".join(wide[i:i + 5]))
    if count == 0:
        out.append("File not found")
    else:
        per_cluster, sector, free, _total = fs.free_space()
        out.append(f"{count:>9} File(s) {free * per_cluster * sector:>8} bytes free")
    shell.console.write(("\r\n".join(out) + "\r\n").encode("cp437", "replace"))


def cmd_cls(shell: "Shell", rest: str) -> None:
    ctx = shell.ctx
    page = ctx.memory[0x462]
    video.scroll(ctx, 0, 0x07, 0, 0, 24, video.columns(ctx) - 1, up=True, page=page)
    video.set_cursor(ctx, page, 0, 0)


def cmd_echo(shell: "Shell", rest: str) -> None:
    text = rest[1:] if rest[:1] in (" ", ".", "\t") else rest
    word = text.strip().upper()
    if word == "OFF":
        shell.state.echo = False
    elif word == "ON":
        shell.state.echo = True
    elif not text.strip() and rest[:1] != ".":
        shell.console.write(f"ECHO is {'on' if shell.state.echo else 'off'}\r\n".encode())
    else:
        shell.console.write(text.encode("cp437", "replace") + b"\r\n")


def cmd_ver(shell: "Shell", rest: str) -> None:
    shell.console.write(b"\r\nIBM Personal Computer DOS Version 3.30\r\n")


def cmd_pause(shell: "Shell", rest: str) -> None:
    shell.console.write(b"Strike a key when ready . . . ")
    shell.state.waiting_key_for = "pause"


def cmd_rem(shell: "Shell", rest: str) -> None:
    pass


def cmd_set(shell: "Shell", rest: str) -> None:
    text = rest.strip()
    if not text:
        for k, v in environment(shell).items():
            shell.console.write(f"{k}={v}\r\n".encode("cp437", "replace"))
        return
    key, _, value = text.partition("=")
    set_environment(shell, key.strip(), value)


def cmd_prompt(shell: "Shell", rest: str) -> None:
    set_environment(shell, "PROMPT", rest.strip())


def cmd_path(shell: "Shell", rest: str) -> None:
    text = rest.strip().lstrip("=")
    if not text:
        shell.console.write(f"PATH={environment(shell).get('PATH', '')}\r\n".encode())
        return
    set_environment(shell, "PATH", "" if text == ";" else text.upper())


def cmd_date(shell: "Shell", rest: str) -> None:
    now = shell.ctx.time.now()
    day = "Sun Mon Tue Wed Thu Fri Sat".split()[(now.weekday() + 1) % 7]
    shell.console.write(f"Current date is {day} {now.month:02}-{now.day:02}-{now.year}\r\n".encode())


def cmd_time(shell: "Shell", rest: str) -> None:
    now = shell.ctx.time.now()
    shell.console.write(f"Current time is {now.hour:2}:{now.minute:02}:{now.second:02}."
                        f"{now.microsecond // 10000:02}\r\n".encode())


def cmd_goto(shell: "Shell", rest: str) -> None:
    if not shell.state.batch:
        return
    batch = shell.state.batch[-1]
    label = rest.strip().lstrip(":").upper()[:8]
    for i, line in enumerate(batch.lines):
        if line.strip().startswith(":") and line.strip()[1:].strip().upper()[:8] == label:
            batch.position = i + 1
            return
    shell.console.write(b"Label not found\r\n")
    batch.position = len(batch.lines)


def cmd_if(shell: "Shell", rest: str) -> None:
    words = rest.split()
    negate = bool(words) and words[0].upper() == "NOT"
    if negate:
        words = words[1:]
    if len(words) < 2:
        shell.console.write(b"Syntax error\r\n")
        return
    kind = words[0].upper()
    if kind == "ERRORLEVEL" and len(words) >= 3:
        result = shell.state.errorlevel >= int(words[1]) if words[1].isdigit() else False
        command = " ".join(words[2:])
    elif kind == "EXIST" and len(words) >= 3:
        result = exists(shell, words[1])
        command = " ".join(words[2:])
    elif "==" in words[0]:
        left, _, right = words[0].partition("==")
        result = left == right
        command = " ".join(words[1:])
    else:
        shell.console.write(b"Syntax error\r\n")
        return
    if result != negate:
        shell.execute(command)


COMMANDS = {
    "DIR": cmd_dir, "TYPE": cmd_type, "CLS": cmd_cls, "ECHO": cmd_echo, "VER": cmd_ver,
    "CD": cmd_cd, "CHDIR": cmd_cd, "MD": cmd_md, "MKDIR": cmd_md, "RD": cmd_rd, "RMDIR": cmd_rd,
    "DEL": cmd_del, "ERASE": cmd_del, "REN": cmd_ren, "RENAME": cmd_ren, "COPY": cmd_copy,
    "PAUSE": cmd_pause, "REM": cmd_rem, "SET": cmd_set, "PROMPT": cmd_prompt, "PATH": cmd_path,
    "DATE": cmd_date, "TIME": cmd_time, "GOTO": cmd_goto, "IF": cmd_if,
}
