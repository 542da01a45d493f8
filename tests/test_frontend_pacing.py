"""Virtual time held to wall time, with a fake host clock: real time, a slow host, turbo, pause."""
from __future__ import annotations

import pytest

from pcemu.clock import TICK_HZ
from pcemu.errors import MachineError
from pcemu.frontend.pacing import Pacer

FRAME = 1 / 60


class FakeClock:
    def __init__(self) -> None:
        self.virtual = 0.0

    def seconds(self) -> float:
        return self.virtual


class FakeMachine:
    """Runs virtual time at ``host_speed`` times real time, moving the fake wall clock."""

    def __init__(self, wall: list[float], host_speed: float) -> None:
        self.clock = FakeClock()
        self.wall = wall
        self.host_speed = host_speed
        self.stop_at: float | None = None

    def run(self, ticks: float) -> None:
        if self.stop_at is not None and self.clock.virtual >= self.stop_at:
            raise MachineError("the machine has stopped: reboot requested")
        seconds = ticks / TICK_HZ
        self.clock.virtual += seconds
        self.wall[0] += seconds / self.host_speed


def make(host_speed: float) -> tuple[Pacer, FakeMachine, list[float]]:
    wall = [100.0]
    machine = FakeMachine(wall, host_speed)
    return Pacer(machine, wall=lambda: wall[0]), machine, wall


def frames(pacer: Pacer, wall: list[float], count: int) -> None:
    """Run ``count`` display frames: advance, then sleep to the next frame's start."""
    for _ in range(count):
        start = wall[0]
        pacer.advance(0.8 * FRAME)
        wall[0] = max(wall[0], start + FRAME)


def test_a_fast_host_runs_the_machine_at_real_time():
    pacer, machine, wall = make(host_speed=5.0)
    start = wall[0]
    frames(pacer, wall, 600)                                   # ten seconds
    assert machine.clock.virtual == pytest.approx(wall[0] - start, abs=2 * FRAME)
    assert pacer.speed == pytest.approx(1.0, rel=0.05)
    assert pacer.seconds_until_due() < 2 * FRAME


def test_a_slow_host_falls_behind_without_piling_up_debt():
    pacer, machine, wall = make(host_speed=0.5)
    frames(pacer, wall, 300)
    assert 0.5 * 0.8 * 0.95 <= pacer.speed <= 0.5 * 1.01         # most of each frame, at half speed
    machine.host_speed = 10.0                                  # the host gets fast again...
    before_virtual, before_wall = machine.clock.virtual, wall[0]
    frames(pacer, wall, 60)
    caught_up = machine.clock.virtual - before_virtual
    assert caught_up <= (wall[0] - before_wall) + pacer.max_lag + FRAME   # ...no race to catch up


def test_turbo_runs_as_fast_as_the_host_and_normal_speed_resumes_without_a_wait():
    pacer, machine, wall = make(host_speed=3.0)
    pacer.set_turbo(True)
    frames(pacer, wall, 120)
    assert 3.0 * 0.8 * 0.95 <= pacer.speed <= 3.0 * 1.01         # the frame's budget, flat out
    pacer.set_turbo(False)
    virtual, start = machine.clock.virtual, wall[0]
    frames(pacer, wall, 60)
    assert machine.clock.virtual - virtual == pytest.approx(wall[0] - start, abs=2 * FRAME)


def test_pause_stops_virtual_time_and_resuming_does_not_catch_up():
    pacer, machine, wall = make(host_speed=4.0)
    frames(pacer, wall, 30)
    pacer.set_paused(True)
    virtual = machine.clock.virtual
    frames(pacer, wall, 120)
    assert machine.clock.virtual == virtual
    pacer.set_paused(False)
    frames(pacer, wall, 1)
    assert machine.clock.virtual - virtual <= 2 * FRAME


def test_a_machine_that_stops_is_reported_not_raised():
    pacer, machine, wall = make(host_speed=4.0)
    machine.stop_at = 0.5
    frames(pacer, wall, 120)
    assert pacer.stopped == "the machine has stopped: reboot requested"
    assert machine.clock.virtual == pytest.approx(0.5, abs=FRAME)
