"""Two demo sessions of seed 1612's 100 x 120 s (demo cases 41 and 82) that lost a tick with ticks
compared until branch h-steps, each traced to a cost the model did not have (the model alone, the
numbers measured on the original at the statements' INT 3s; about 2 s)."""
from __future__ import annotations

from games_py.meteors import demo_cost, trace
from games_py.meteors.game import Meteors


def play(time: tuple[int, int, int, int], colour: bool, sound: bool, frames: int, watch=None) -> Meteors:
    settings = trace.Settings(time=time, colour_switch=colour, sound=sound, demo=True, seconds=120)
    game = Meteors(settings)
    game.random.randomize_timer(*settings.time)
    game.place_log = []
    if watch:
        watch(game)
    game.start()
    game.play(lambda g: g.total_frames > frames)
    return game


def first_table(game: Meteors) -> float:
    """Line 5370 to the second pause's first INT 3 (line 1710), the first game's table."""
    places = [(line, t) for line, t, _, _ in game.place_log]
    lines = [line for line, _ in places]
    start = lines.index(5370)
    end = lines.index(1710, start)
    return places[end][1] - places[start][1]


def test_an_open_at_an_aligned_end_and_the_demo_steps_jump_to_2590() -> None:
    """10:04:29.88 /M, sound on: the first table's OPEN finds the last free block 12,712 (a multiple
    of 8) from the string space's end, and 062B:8E07 skips its remainder's 7 instructions: 63,277
    from 5370 to 1710 on the original (the model 63,284 before).  The game's second first step
    goes from line 2410 to 2590 (0x1650 -> 0x17A8), never met in the sweeps the segments were
    measured on: 1,416 instructions from line 1160's GOSUB to line 1170 (the model 1,458)."""
    steps = {}

    def watch(game):
        decide = game.player.decide

        def logged():
            decide()
            steps[game.total_frames] = game.player.cost + demo_cost.HUMAN
        game.player.decide = logged
    game = play((10, 4, 29, 88), False, True, 1179, watch)
    assert first_table(game) == 63_277
    assert steps[1178] == 1_416
    assert (0x1650, 0x17A8) in demo_cost.SEGMENTS


def test_a_demo_tables_time_is_rounded() -> None:
    """19:47:06.54 /C, sound off: line 6130's TIME$ at 19:47:36.63 rounds up (3 instructions, as
    a named table's): 62,904 from 5370 to 1710 on the original (the model 62,901 before)."""
    assert first_table(play((19, 47, 6, 54), True, False, 354)) == 62_904
