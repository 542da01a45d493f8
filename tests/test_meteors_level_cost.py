"""What a level screen and a new game's start cost on METEORS.EXE, against the Python game.

Between a level's last frame and the next frame (or a game's end and its first meteor) the
program runs 15,000 to 75,000 instructions with no wait, so where the next BIOS tick falls
depends on each of its statements: T0 = TIMER's arithmetic, the score's PRINT USING, HIGH
SCORE's, STR$(GAME), the draws of the block's character, the rows (drawn by FNR from a
score of 1000 on), their colour, the player's place, the gap check.  games_py/meteors/
level_probe.py cuts the original's run at those pieces' statements and pairs them with the
Python game's (level_cost.py); every piece with no interrupt inside (or only BIOS ticks,
their handlers taken off) must take what the model says, over screens of different row
counts, colour and mono, sound off and on.  Until this was modelled, each level screen was
one number per row and per draw, and the original took 16 to 549 instructions more.
"""
from __future__ import annotations

from collections import Counter

from games_py.meteors import level_probe, sweep
from tests.machine_helpers import DISK1612, needs_originals


def _compare(case: sweep.Case) -> list[tuple[str, int, int]]:
    return level_probe.compare(case.settings(), str(DISK1612))


@needs_originals
def test_level_screens_cost_what_the_original_spends_on_their_values() -> None:
    """A mono demo session of 75 s (level changes from 14 rows down to 6, then rows drawn by
    FNR once the score passes 1000) and a colour human session of 30 s (new games: the
    background's draws, HIGH SCORE printed, the player's place), sound off."""
    rows = (_compare(sweep.Case((0, 46, 50, 26), colour=False, sound=False, seconds=75))
            + _compare(sweep.Case((2, 40, 35, 60), colour=True, sound=False, seconds=30, human="random:2")))
    kinds = Counter(kind for kind, _, _ in rows)
    assert kinds["level_end"] >= 10 and kinds["level_start"] >= 10 and kinds["game_start"] >= 2
    assert kinds["blocks"] >= 15 and kinds["blocks_end"] >= 15
    blocks = [cost for kind, cost, _ in rows if kind == "blocks"]
    assert len(set(blocks)) >= 12                   # many lengths: a number per row would not do
    assert [(kind, cost) for kind, cost, _ in rows] == [(kind, model) for kind, _, model in rows]


@needs_originals
def test_a_levels_note_is_costed_where_it_queues_or_starts_the_music() -> None:
    """Sound on: a level's SOUND (line 5280) that starts the music timer runs 27 instructions
    longer than one queued behind a fall's note, and the interrupt that takes the level's note
    in the middle of the screen's work costs the handler's note-taking (timing.NOTE_TAKEN),
    not a plain interrupt's.  Seed 42's 30 s random:44 has both (it was one tick off at the
    first frame after its second level screen, and with only the first of the two fixed, at
    the first's); its quiet pieces are the model's and the session is equal to the end."""
    case = sweep.with_human(sweep.demo_cases(50, seed=42, seconds=30))[44]
    assert case.sound and case.time == (21, 33, 34, 63)
    rows = _compare(case)
    assert {kind for kind, _, _ in rows} >= {"level_end", "game_start", "blocks_end"}
    assert [cost for _, cost, _ in rows] == [model for _, _, model in rows]
    result = sweep.check(case, str(DISK1612))
    assert result.equal, result.detail
    assert result.levels >= 2


def test_str_of_an_integer_costs_by_its_digits() -> None:
    """runtime_cost.str_integer against what line 3770's STR$(GAME) took on METEORS.EXE's own
    code (a bare Unicorn from a copy of the machine, every integer; these are some of those
    counts, less the 236 of a one-digit value)."""
    from games_py.qbasic.runtime_cost import str_integer
    measured = {1: 0, 9: 0, 10: 2, 11: 3, 99: 3, 100: 7, 101: 9, 110: 8, 1000: 9, 10000: 11,
                12345: 19, 32767: 19, -1: 2, -10: 4, -32768: 21, 0: -26}
    assert {value: str_integer(value) for value in measured} == measured


@needs_originals
def test_a_bios_tick_costs_the_runtimes_int_1ch_hook_only_after_the_first_on_key() -> None:
    """Sound on with a human player (no F1 or F2 at PRESS ANY KEY), INT 1Ch is the BIOS's own
    IRET until the runtime runs its first ON KEY handler (the first arrow key), then its event
    timer (062B:6FD6) for good, so a BIOS tick, and a music interrupt that chains to one, cost
    timing.TICK_HOOK more from there (FrameClock.hooked).  --human simple's 08:15:57.00 was
    one tick off at event 77 while the model charged the hook from the start (a note's end
    with a chain in frame 26's wait, 44 instructions; the fall's note of frame 32 then started
    fresh where the original's queued)."""
    from games_py.meteors import original
    case = sweep.with_human(sweep.demo_cases(50, seed=1612, seconds=30), "simple")[17]
    assert case.sound and case.time == (8, 15, 57, 0)
    tracer = original.MeteorsTracer(case.settings(), str(DISK1612))
    memory, hooks = tracer.machine.memory, []
    tracer.process.at_line(original.LINE_STEP, lambda: hooks.append(
        (memory.rw(0, 0x1C * 4 + 2), memory.rw(0, 0x1C * 4))))   # INT 1Ch at each frame's start
    frames = [e for e in tracer.run() if e["event"] == "frame"]
    first_key = next(i for i, e in enumerate(frames) if "key" in e)
    assert first_key > 10
    bios, runtime = set(hooks[:first_key + 1]), set(hooks[first_key + 1:len(frames)])
    assert len(bios) == len(runtime) == 1 and bios != runtime
    assert next(iter(bios))[0] >= 0xF000 and next(iter(runtime))[0] < 0xF000
    result = sweep.check(case, str(DISK1612))
    assert result.equal, result.detail
