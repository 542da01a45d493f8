"""Line 5940's LINE INPUT N$ while the tracer's name comes, key byte by key byte.

The tracer puts PLAYER and Enter on the keyboard at line 5910's INT 3 (original.py): 26 scancodes,
each letter as Shift's make, its make, its break and Shift's break, then Enter's make and break.
The keyboard offers each byte 2,420 instructions after the last was taken (IRQ 1), the first 2
after the INT 3; an IRQ 1 offered while the music's or the BIOS's interrupt handler runs is
taken at its end, and the bytes after it come that much later.  The other way round an IRQ 0
nests: the runtime's INT 9 hook begins with STI, so a tick taken before the hook's read of port
60h (READ) delays that read, and the next byte, by its handler (seed 7's two-minute random:8).  The program prints the prompt
(the first byte's handler inside), then polls INT 16h in a loop of 59 instructions a pass (its
first pass 155).  Each handler puts its length into whatever the program is doing: INT 9 takes
113 for Shift's or Enter's make, 114 for a letter's, 98 for a break; the music's and the BIOS's
interrupts what FrameClock.take_interrupt says.  A key is seen at the first pass after its
handler; a letter's then takes 559 (INT 16h's read, the echo) to the loop's next pass, and
Enter's 664 to LINE INPUT's end (0000:35DF), with N$'s assignment (an old string freed, the
string space's walks) besides.  So where LINE INPUT ends is where Enter's key falls on the pass
lattice, which the music's interrupts since the last letter shift (a pass is 59, a handler 25):
with a fixed length the model's end was 0 or 59 off (sound on) at random.

Measured on METEORS.EXE with INT 16h, INT 10h, IRQ 0 and IRQ 1 logged from line 5910 to 0000:35DF
(seed 1612's 30 s random:0, 2, 3 and 5; docs/meteors-internals.md, section 8, h-end).
"""
from __future__ import annotations

KEY_GAP = 2_420                 # a byte taken (IRQ 1) to the next's: READ, then the keyboard's 2,400
READ = 20                       # IRQ 1 -> the runtime's INT 9 hook's IN AL,60h (its 20th instruction; the
                                # hook's first is STI, so an IRQ 0 taken before the read nests in it and
                                # the read, and with it the next byte, comes its handler's length later)
FIRST_KEY = 2                   # line 5910's INT 3 -> the first byte's IRQ 1
PROMPT = {False: 1_405, True: 1_419}   # 5910's INT 3 -> LINE INPUT's first INT 16h, mono, colour
                                # (the first byte's handler besides)
FIRST_PASS = 155                # the loop's first pass
PASS = 59                       # ... and the others
POLL_HELD = 2                   # a pass's INT 16h (AH=11h) is this far before its milestone: an IRQ 1 due
                                # at it or at the service's IRET (IF clear) is taken after them, so the
                                # pass does not see the key (seed 7's two-minute random:5, second name)
SHIFT_MAKE, LETTER_MAKE, ENTER_MAKE, BREAK = 113, 114, 113, 98   # INT 9 (IRQ 1), by byte
LATE_BREAK = 97                 # a break's INT 9 in the statements after LINE INPUT (line 6130's second
                                # statement: 730 where 633 without it; timing.KEY_RELEASED's 97)
LETTER_SEEN = 14 + 162 + 383    # the pass that sees a letter -> the loop's next pass (its read, echo)
ENTER_SEEN = 14 + 650           # ... that sees Enter -> 0000:35DF (N$ assigned to no old string)


def name_bytes(name: str) -> list[tuple[int, str]]:
    """(INT 9's length, what the program sees: "letter", "enter" or "") for each byte typed."""
    keys: list[tuple[int, str]] = []
    for _ in name:
        keys += [(SHIFT_MAKE, ""), (LETTER_MAKE, "letter"), (BREAK, ""), (BREAK, "")]
    return keys + [(ENTER_MAKE, "enter"), (BREAK, "")]


def name_input(clock, colour: bool, assigned: int, name: str = "PLAYER") -> list[tuple[float, int]]:
    """From line 5910's INT 3 (``clock.t``) to LINE INPUT's end: ``clock.t`` there, the
    interrupts meanwhile taken; ``assigned``: N$'s assignment's cost beyond ENTER_SEEN.
    Returns the bytes still to come, (when each is taken, its INT 9's length): Enter's break
    comes KEY_GAP after its make, some 1,700 into the statements after (lines 6170-6190 of a
    first name; until branch h-end2 it was dropped and NAME held it, fitted)."""
    keys = name_bytes(name)
    offer = clock.t + FIRST_KEY
    milestone = clock.t + PROMPT[colour]        # the program's next point: a pass's INT 16h, or the end
    first, seen, done = True, "", False
    busy = clock.t                              # an interrupt handler runs until here
    read = None                                 # the last byte's port read, while it is still ahead
    while True:
        due = clock._next_event()
        key_at = max(offer, busy) if keys else None
        # IRQ 0 comes before the program's next point, and before a key's IRQ 1 due at the same
        # instruction (the 8259 ranks it first), where the machine takes its edge (FrameClock's
        # lattice: the first whole instruction from power-on at or after it); its handler starts
        # there, so the keys held behind it come at whole instructions too
        if due is not None and clock._before(due, milestone) and (key_at is None or clock._before(due, key_at)):
            at, handler = clock.take_interrupt()
            taken = at if clock.origin is None else clock.taken_at(at)
            if read is not None and taken < read:   # nested in INT 9 before its read of port 60h
                read += handler
                offer += handler
            busy = max(busy, taken) + handler
            milestone += handler
            continue
        if key_at is not None and not done and milestone - POLL_HELD <= key_at < milestone:
            busy, key_at = milestone, None      # held through the pass's INT 16h: the next pass sees it
        if key_at is not None and key_at < milestone:
            length, kind = keys.pop(0)
            busy = key_at + length
            milestone += length
            offer, read = key_at + KEY_GAP, key_at + READ
            seen = kind or seen
            continue
        if done:
            clock.t = milestone
            late = []
            for length, _ in keys:
                taken = max(offer, busy)
                late.append((taken, LATE_BREAK if length == BREAK else length))
                busy, offer = taken + length, taken + KEY_GAP
            return late
        if seen == "letter":                    # (each milestone but the end is a pass's INT 16h)
            seen = ""
            milestone += LETTER_SEEN
        elif seen == "enter":
            milestone += ENTER_SEEN + assigned
            done = True
        else:
            milestone += FIRST_PASS if first else PASS
            first = False
