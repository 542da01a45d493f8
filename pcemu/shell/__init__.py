"""The command interpreter: a COMMAND.COM written in Python, resident as the root process.

It owns a PSP, an environment and a stack in guest memory like COMMAND.COM,
and runs in the ROM loop ``STI; trap; JNC loop; HLT; JMP loop``: each trap
advances its state machine (print the prompt, edit the command line, run a
batch line, wait for PAUSE's key), and asks to halt when it needs a key.
Programs are started with DOS EXEC and return to the loop when they end.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from bios import video
from pcemu.dos import con, critical, kernel, single_drive
from pcemu.dos.critical import CriticalError
from pcemu.dos.single_drive import DisketteSwap
from pcemu.dos import process
from pcemu.errors import ProgramLoadError
from pcemu.shell import builtins, int2e, redirection
from pcemu.storage.errors import ERROR_NAMES, DosError

if TYPE_CHECKING:
    from bios.context import ServiceContext

SHELL_ENVIRONMENT = b"COMSPEC=A:\\COMMAND.COM\0PATH=\0PROMPT=$P$G\0\0"
SHELL_STACK_TOP = 0x0FFE
SHELL_PARAGRAPHS = 0x0100
F6_SCAN = 0x40


@dataclass
class Batch:
    lines: list[str]
    arguments: list[str]
    position: int = 0
    echo_before: bool = True
    echoed: int = -1          # the line echoed and not yet done (its retry is not echoed again)


@dataclass
class ShellState:
    echo: bool = True
    line: bytearray = field(default_factory=bytearray)
    need_prompt: bool = True
    waiting_key_for: str | None = None      # "pause" or "swap" (a one-drive machine's diskette)
    running: str | None = None              # name of the program we started
    batch: list[Batch] = field(default_factory=list)
    errorlevel: int = 0
    pipeline: redirection.Pipeline | None = None    # a line with < > >> | still running
    question: Callable[[str], None] | None = None   # what to do with the answer to ask_yes_no


class Shell:
    def __init__(self, ctx: "ServiceContext") -> None:
        self.ctx = ctx
        self.state = ShellState()
        self.psp = 0
        self.console = _Console(ctx, self)
        self.exit_codes: list[tuple[str, int]] = []
        self.critical_state: dict | None = None
        self.at_prompt = False                 # the prompt is shown and the line is being edited
        self.retry: Callable[[], None] | None = None   # what to run again after a critical error
        self.swap_attempts: single_drive.Attempts | None = None   # a step asked for diskettes
        self.drive_invalid = False             # $P after "Fail": "Current drive is no longer valid"
        self.lines_run = 0                     # command lines taken from the prompt so far
        self.load_error: str | None = None     # why the last line's program could not start
        self.single: int2e.Int2eCall | None = None   # an INT 2Eh command in progress
        self.termination = 0                   # AH=4Dh's word for the last program that ended
        self.external_ran = False              # the line just done ran a program (INT 2Eh's AX)

    # ------------------------------------------------------------------ setup
    def start(self) -> None:
        ctx = self.ctx
        dos = ctx.dos
        env = dos.arena.allocate((len(SHELL_ENVIRONMENT) + 0x10F) >> 4, 0xFFFF)
        ctx.memory.write(env << 4, SHELL_ENVIRONMENT)
        self.psp = dos.arena.allocate(SHELL_PARAGRAPHS, 0)
        dos.arena.set_owner(self.psp, self.psp)
        dos.arena.set_owner(env, self.psp)
        process.build_psp(ctx, self.psp, self.psp, self.psp + SHELL_PARAGRAPHS, env, b"")
        mem = ctx.memory
        for handle, sft in enumerate((1, 1, 1, 0, 2)):
            mem.wb(self.psp, 0x18 + handle, sft)
        dos.current_psp = self.psp
        dos.dta = (self.psp, 0x80)
        seg, off = ctx.vectors.rom.address("shell")
        mem.ww(self.psp, 0x0A, off)
        mem.ww(self.psp, 0x0C, seg)
        ctx.vectors.set(0x22, seg, off)
        ctx.vectors.register_service("shell", lambda ctx: self.step())
        int2e.install(self)
        ctx.cpu.set_registers(ss=self.psp, sp=SHELL_STACK_TOP, ds=self.psp, es=self.psp)
        ctx.cpu.jump(seg, off)
        ctx.cpu.flags = 0x0202

    def return_state(self) -> dict:
        seg, off = self.ctx.vectors.rom.address("shell")
        return dict(ax=0, bx=0, cx=0, dx=0, si=0, di=0, bp=0, ds=self.psp, es=self.psp,
                    ss=self.psp, sp=SHELL_STACK_TOP, cs=seg, ip=off, flags=0x0202)

    # ------------------------------------------------------------------ the loop
    def step(self) -> None:
        """One turn of the interpreter; sets CF live when it must wait for a key."""
        ctx = self.ctx
        st = self.state
        ctx.cpu.set_registers(ss=self.psp, sp=SHELL_STACK_TOP)
        if st.running is not None:
            dos = ctx.dos
            code = dos.return_code
            # COMMAND.COM's AH=4Dh after each program it ran: the word, read once
            self.termination = (dos.termination_type << 8) | code
            dos.return_code = dos.termination_type = 0
            self.external_ran = True
            self.exit_codes.append((st.running, code))
            st.errorlevel = code
            st.running = None
            st.need_prompt = True
            if (st.pipeline is None and self.single is None and video.columns(ctx)
                    and video.cursor(ctx, ctx.memory[0x462])[1] != 0):
                self.console.write(b"\r\n")
            if st.pipeline is not None:
                self._guarded(lambda: self._pipeline_step(after_program=True))
                return
        if st.question is not None:
            self._guarded(self._question_step)
            return
        if st.waiting_key_for is not None:
            if con.next_key(ctx) is None:
                ctx.call.wait_for_input()
                return
            if st.waiting_key_for == "pause":
                self.console.write(b"\r\n")
            st.waiting_key_for = None
        if self.retry is not None:
            action, self.retry = self.retry, None
            self._guarded(action)
            return
        if st.batch:
            self._guarded(self._batch_step)
            return
        if self.single is not None:
            # an INT 2Eh line is read where a typed one would be, after any batch file
            line, self.single.line = self.single.line, None
            if line is None:
                int2e.return_to_caller(self)
            else:
                self._guarded(lambda: self.execute(line))
            return
        if st.need_prompt:
            if not self._guarded(self._show_prompt):
                return
        line = self._edit_line()
        if line is None:
            self.at_prompt = True
            ctx.call.wait_for_input()
            return
        self.at_prompt = False
        self._guarded(lambda: self._run_line(line))

    def _show_prompt(self) -> None:
        self.console.write(builtins.expand_prompt(self, self.prompt_text()).encode("cp437", "replace"))
        self.state.need_prompt = False

    def _run_line(self, line: str) -> None:
        st = self.state
        self.lines_run += 1
        self.load_error = None
        self.execute(line)
        if line.strip() and not self._busy():
            st.need_prompt = True
            self._end_of_line()

    def _end_of_line(self) -> None:
        """The blank line after a command; none while an INT 2Eh command runs
        (COMMAND.COM writes no CR LF around its single command)."""
        if self.single is None:
            self.console.write(b"\r\n")

    def _busy(self) -> bool:
        """Is the line still at work (a program, a batch file, a question, a pipe)?"""
        st = self.state
        return (st.running is not None or bool(st.batch) or st.question is not None
                or st.pipeline is not None)

    def _guarded(self, action: Callable[[], None]) -> bool:
        """Run a step of the interpreter; a critical error goes to INT 24h (False), a
        one-drive machine's other name asks for the diskette and runs the step again."""
        unit = self.ctx.dos.shared_unit
        attempts, self.swap_attempts = self.swap_attempts, None
        if attempts is not None:
            unit.begin(attempts)
        try:
            try:
                action()
            except DosError as err:
                device = critical.from_dos_error(self.ctx, err.code, 0)
                if device is not None:
                    raise device from None
                # a failure no command words itself: one line, as DOS's extended error text
                what = ERROR_NAMES.get(err.code, f"DOS error {err.code}")
                self.console.screen(f"{what[:1].upper()}{what[1:]}\r\n".encode())
                self._end_pipeline()
                self.state.need_prompt = True
            return True
        except CriticalError as err:
            critical.interrupt_shell(self.ctx, err, lambda answer: self._critical_answered(answer, action))
            return False
        except DisketteSwap as swap:
            attempts = attempts or single_drive.Attempts(unit.answering)
            attempts.asked.append(swap.letter)
            single_drive.prompt_directly(self.ctx, swap)
            self.swap_attempts = attempts
            self.state.waiting_key_for = "swap"     # then the same step again
            self.retry = action
            return False
        finally:
            if unit is not None:
                unit.end()

    def _critical_answered(self, answer: int, action: Callable[[], None]) -> None:
        if answer == critical.RETRY:
            self.retry = action
        elif action == self._show_prompt:
            # DOS asks again on Abort; on Fail $P says the drive is no longer valid
            self.drive_invalid = answer == critical.FAIL
            self.retry = action
        else:
            if action == self._batch_step and self.state.batch:
                self.state.batch[-1].position += 1     # Abort or Fail: go on after the line
            self.state.need_prompt = True
        self.ctx.cpu.jump(*self.ctx.vectors.rom.address("shell"))

    def back_at_prompt(self, lines_before: int) -> bool:
        """True once a line typed after ``lines_before`` has run (program, batch file or
        built-in) and the prompt is waiting for the next one."""
        st = self.state
        return (self.lines_run > lines_before and self.at_prompt and st.running is None
                and not st.batch)

    def run_lines(self, lines: list[str]) -> None:
        """Run ``lines`` as a batch file with no file behind it, as DOSBox runs its
        autoexec (the survey starts each program so): the interpreter takes them at its
        next turn, before the command line it is editing."""
        self.state.batch.append(Batch(list(lines), ["AUTOEXEC"], echo_before=self.state.echo))

    def prompt_text(self) -> str:
        env = builtins.environment(self)
        return env.get("PROMPT", "$N$G")

    def _edit_line(self) -> str | None:
        ctx = self.ctx
        st = self.state
        while True:
            key = con.next_key(ctx)
            if key is None:
                return None
            if key == 0:
                if con.next_key(ctx) != F6_SCAN:  # other F-keys do nothing at this prompt
                    continue
                key = 0x1A                           # F6 types Ctrl-Z, as DOS's line editor does
            if key == 0x0D:
                self.console.write(b"\r\n")
                text = st.line.decode("cp437")
                st.line.clear()
                return text
            if key in (0x08, 0x7F):
                if st.line:
                    st.line.pop()
                    self.console.write(b"\x08 \x08")
                continue
            if key == 0x1B:
                st.line.clear()
                self.console.write(b"\\\r\n")
                continue
            if key == 0x03:
                st.line.clear()
                self.console.write(b"^C\r\n")
                st.need_prompt = True
                return ""
            if len(st.line) < 127:
                st.line.append(key)
                self.console.write(b"^Z" if key == 0x1A else bytes([key]))   # F6 or Ctrl-Z

    # ------------------------------------------------------------------ commands
    def execute(self, line: str, batch_args: list[str] | None = None) -> None:
        self.external_ran = False
        line = line.strip()
        if not line:
            return
        if line.startswith("@"):
            line = line[1:].lstrip()
        if batch_args is not None:
            line = builtins.substitute_arguments(line, batch_args, builtins.environment(self))
        if redirection.has_redirection(line):
            self._start_pipeline(line)
            return
        self._execute_command(line)

    def _execute_command(self, line: str) -> None:
        word, rest = builtins.split_command(line.lstrip())    # ECHO x > F keeps "x "
        upper = word.upper()
        if len(upper) == 2 and upper[1] == ":" and upper[0].isalpha() and not rest.strip():
            builtins.change_drive(self, upper[0])
            return
        handler = builtins.COMMANDS.get(upper)
        if handler is not None:
            handler(self, rest)
            return
        self.run_external(word, rest)

    # ------------------------------------------------------------------ < > >> |
    def _start_pipeline(self, line: str) -> None:
        dos = self.ctx.dos
        try:
            stages = redirection.parse(line)
        except redirection.SyntaxProblem:
            self.console.write(b"Syntax error\r\n")
            return
        try:
            self.state.pipeline = redirection.plumb(dos, stages)
        except DosError as err:
            if err.code in critical.CRITICAL_CODES:
                raise
            self.console.write(b"Intermediate file error during pipe\r\n")
            return
        self._pipeline_step(resumed=False)

    def _pipeline_step(self, after_program: bool = False, resumed: bool = True) -> None:
        """Run the pipeline's next stages until one starts a program or asks a
        question (the shell comes back here when it is done) or none is left."""
        st = self.state
        ctx = self.ctx
        dos = ctx.dos
        pipeline = st.pipeline
        if pipeline is None:
            return
        redirection.restore(dos, pipeline)           # what the last stage had
        while pipeline.stages:
            stage = pipeline.stages.pop(0)
            try:
                redirection.redirect(dos, pipeline, stage)
            except DosError as err:
                input_failed = stage.stdin is not None and not pipeline.saved
                redirection.restore(dos, pipeline)
                if err.code in critical.CRITICAL_CODES:
                    self._end_pipeline()
                    raise
                self.console.write(b"File not found\r\n" if input_failed else b"File creation error\r\n")
                after_program = False
                break
            after_program = False
            try:
                self._execute_command(stage.command)
            except BaseException:
                self._end_pipeline()
                raise
            if st.running is not None or st.question is not None:
                return
            redirection.restore(dos, pipeline)
        self._end_pipeline()
        if self._busy() or not resumed:
            return                                   # (the line's own end writes the blank line)
        st.need_prompt = True
        # after a program DOS only ends an unfinished line; after a built-in a blank line
        if not after_program or (video.columns(ctx) and video.cursor(ctx, ctx.memory[0x462])[1] != 0):
            self._end_of_line()

    def _end_pipeline(self) -> None:
        pipeline, self.state.pipeline = self.state.pipeline, None
        if pipeline is not None:
            redirection.finish(self.ctx.dos, pipeline)

    # ------------------------------------------------------------------ questions
    def ask_yes_no(self, question: str, then: Callable[[bool], None]) -> None:
        """Ask until the answer is Y or N (as ERASE *.* does), then ``then(yes)``.
        The answer is a line from standard input: the keyboard, or a file or pipe
        when input is redirected (ECHO Y | DEL *.*)."""
        def answered(text: str) -> None:
            word = text.strip()[:1].upper()
            if word in ("Y", "N"):
                then(word == "Y")
            else:
                self.ask_yes_no(question, then)

        self.console.write(question.encode("cp437") + b" ")
        dos = self.ctx.dos
        try:
            redirected = dos.handle_file(0).device != "CON"
        except DosError:
            redirected = False
        if redirected:
            line = self._read_stdin_line()
            self.console.write(line.encode("cp437", "replace") + b"\r\n")
            if line == "" and not self._stdin_left():
                return                            # end of the input: DOS gives up too
            answered(line)
            return
        self.state.question = answered

    def read_console_text(self, then: Callable[[bytes], None]) -> None:
        """Lines typed on CON (COPY CON) up to a Ctrl-Z (F6), then ``then(text)``."""
        text = bytearray()

        def line_done(line: str) -> None:
            raw = line.encode("cp437", "replace")
            if b"\x1a" in raw:
                text.extend(raw.split(b"\x1a")[0])
                then(bytes(text))
                return
            text.extend(raw + b"\r\n")
            self.state.question = line_done

        self.state.question = line_done

    def _read_stdin_line(self) -> str:
        dos = self.ctx.dos
        line = bytearray()
        while True:
            byte = kernel.read(dos, 0, 1)
            if not byte or byte in (b"\r", b"\n", b"\x1a"):
                if byte == b"\r":
                    following = kernel.read(dos, 0, 1)
                    if following and following != b"\n":
                        kernel.seek(dos, 0, -1, 1)
                return line.decode("cp437")
            line += byte

    def _stdin_left(self) -> bool:
        dos = self.ctx.dos
        if kernel.read(dos, 0, 1):
            kernel.seek(dos, 0, -1, 1)
            return True
        return False

    def _question_step(self) -> None:
        line = self._edit_line()
        if line is None:
            self.ctx.call.wait_for_input()
            return
        answered, self.state.question = self.state.question, None
        answered(line)
        st = self.state
        if st.pipeline is not None and st.question is None:
            self._pipeline_step()
        elif not self._busy():
            st.need_prompt = True
            self._end_of_line()

    def run_external(self, word: str, rest: str) -> None:
        found = builtins.find_program(self, word)
        if found is None:
            self._note_load_error("Bad command or file name")
            self.console.write(b"Bad command or file name\r\n")
            return
        if found.upper().endswith(".BAT"):
            self.start_batch(found, [word] + rest.split())
            return
        # the tail is everything after the program name, leading blank included, as DOS passes it
        tail = rest.encode("cp437", "replace")
        try:
            process.exec_program(self.ctx, found, tail, return_state=self.return_state())
            # the new program may sit where the last one ran: Unicorn must not run
            # that one's translated code (INT 21h's EXEC flushes the same way)
            self.ctx.cpu.flush_translations()
        except ProgramLoadError as err:
            self._note_load_error(f"cannot load {found}: {err}")
            self.console.write(b"Program too big to fit in memory\r\n"
                               if "memory" in str(err) else b"EXEC failure\r\n")
            self.ctx.call.note_unloadable({"key": ("load", found), "message": f"cannot load {found}: {err}"})
            return
        except DosError as err:
            message = {8: b"Program too big to fit in memory\r\n", 2: b"Bad command or file name\r\n",
                       11: b"EXEC failure\r\n"}.get(err.code, b"EXEC failure\r\n")
            self.console.write(message)
            self._note_load_error(f"cannot load {found}: {message.decode().strip()} (DOS error {err.code})")
            return
        self.state.running = found

    def _note_load_error(self, reason: str) -> None:
        """Why the line's program could not start; not for an INT 2Eh line (the
        program that asked is running, it is not the one that failed)."""
        if self.single is None:
            self.load_error = reason

    def start_batch(self, path: str, arguments: list[str]) -> None:
        data = builtins.read_file(self, path)
        if data is None:
            self.console.write(b"Batch file missing\r\n")
            return
        text = data.split(b"\x1a")[0].decode("cp437")
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.state.batch.append(Batch(lines, arguments, echo_before=self.state.echo))

    def _batch_step(self) -> None:
        st = self.state
        batch = st.batch[-1]
        if batch.position >= len(batch.lines):
            st.batch.pop()
            self.external_ran = False      # the end of the file is an empty line to COMMAND.COM
            if not st.batch:
                st.need_prompt = True
                self._end_of_line()
            return
        line = batch.lines[batch.position]
        batch.position += 1
        stripped = line.strip()
        if not stripped or stripped.startswith(":"):
            return
        if st.echo and not stripped.startswith("@") and batch.echoed != batch.position - 1:
            self.console.write(builtins.expand_prompt(self, self.prompt_text()).encode("cp437", "replace"))
            echoed = builtins.substitute_arguments(stripped, batch.arguments, builtins.environment(self))
            self.console.write(echoed.encode("cp437", "replace") + b"\r\n")
        batch.echoed = batch.position - 1
        try:
            self.execute(stripped, batch.arguments)
        except (CriticalError, DisketteSwap):
            batch.position -= 1               # a retry runs this line again (echoed once)
            raise
        batch.echoed = -1

    # ------------------------------------------------------------------ INT 24h
    def critical_error_prompt(self) -> None:
        """COMMAND.COM's critical error handler: Abort, Retry, Fail?"""
        ctx = self.ctx
        cpu = ctx.cpu
        if self.critical_state is None:
            drive = chr(65 + cpu.al)
            action = "writing" if cpu.ah & 1 else "reading"
            error = critical.DEVICE_MESSAGES.get(cpu.di & 0xFF, "General failure")
            offered = {"A": critical.ABORT}
            for letter, answer, bit in (("R", critical.RETRY, critical.ALLOW_RETRY),
                                        ("I", critical.IGNORE, critical.ALLOW_IGNORE),
                                        ("F", critical.FAIL, critical.ALLOW_FAIL)):
                if cpu.ah & bit:
                    offered[letter] = answer
            words = {"A": "Abort", "R": "Retry", "I": "Ignore", "F": "Fail"}
            question = ", ".join(words[letter] for letter in offered) + "?"
            self.console.screen(f"\r\n{error} {action} drive {drive}\r\n{question}".encode())
            self.critical_state = {"ax": cpu.ax, "offered": offered}
        key = con.next_key(ctx)
        if key is None:
            ctx.call.wait_for_input()
            return
        choice = self.critical_state["offered"].get(chr(key).upper()) if key < 0x80 else None
        if choice is None:
            ctx.call.wait_for_input()
            return
        self.console.screen(bytes([key]) + b"\r\n")
        ah = self.critical_state["ax"] >> 8
        self.critical_state = None
        cpu.al = choice
        cpu.ah = ah


class _Console:
    """COMMAND.COM's output: its standard output (handle 1), which is the screen
    unless a line redirects it; while a program runs (a critical error, a
    divide overflow), the screen."""

    def __init__(self, ctx: "ServiceContext", shell: "Shell") -> None:
        self.ctx = ctx
        self.shell = shell

    def write(self, data: bytes) -> None:
        dos = self.ctx.dos
        if (self.shell.state.pipeline is not None and dos.current_psp == self.shell.psp
                and redirection.output_redirected(dos)):
            kernel.write(dos, 1, data)
            return
        con.write_bytes(self.ctx, data)

    def screen(self, data: bytes) -> None:
        con.write_bytes(self.ctx, data)

    def write_char(self, char: int) -> None:
        con.write_char(self.ctx, char)
