"""The QuickBASIC runtime's string space (games_py.qbasic.string_space) against the
runtime's own allocator, METEORS.EXE's 062B:82A9 run in a bare Unicorn over the same
blocks: the address, the rover, the blocks after (merged runs included) and the
instructions, on seeded random sequences of allocations and frees in a small string
space, so that the rover wraps and runs are merged often (about 2 s)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games_py.qbasic.string_space import Compaction, StringSpace, block_size
from tests.machine_helpers import DISK1612, needs_originals


@pytest.fixture(scope="module")
def runtime():
    from games_py.meteors.original import read_program
    from pcemu.tools.exe import analyse
    from tests.runtime_string_space import RuntimeAllocator
    return RuntimeAllocator(analyse(read_program(str(DISK1612))).program.image)


def test_a_fresh_string_space_is_taken_from_its_start_one_block_after_another():
    space = StringSpace(0x2000, 0x2100)
    assert space.allocate(0) is None and space.cost == 0
    assert space.allocate(1) == 0x2000 and space.rover == 0x2000 + block_size(1) == 0x2004
    assert space.allocate(4) == 0x2004 and space.rover == 0x200A
    space.free(0x2000)
    assert space.blocks()[0] == (0x2000, 4, False)          # freed, not merged
    assert space.allocate(2) == 0x200A                       # the rover does not go back


@needs_originals
def test_the_model_allocates_merges_and_costs_as_the_runtime_does(runtime):
    rng = random.Random(1612)
    paths, allocations = Counter(), 0
    for _ in range(24):
        space = StringSpace(0x2000, 0x2000 + rng.choice([300, 600, 1200]))
        live: list[int] = []
        for _ in range(300):
            if live and rng.random() < 0.55:
                space.free(live.pop(rng.randrange(len(live))))
                continue
            length = rng.choice([1, 1, 2, 4, 5, 12, 14, 30, 80])
            runtime.load(space)
            rover = space.rover
            try:
                at = space.allocate(length)
            except Compaction:
                break
            got, cost = runtime.allocate(length)
            assert (got, cost, runtime.rover()) == (at, space.cost, space.rover)
            assert runtime.blocks(space) == space.blocks()
            allocations += 1
            paths["merged" if space.merged else "walked" if space.cost > 27 else "at the rover"] += 1
            paths["wrapped"] += at < rover
            live.append(at)
    assert allocations > 2500
    assert min(paths.values()) > 0, paths


def test_a_string_space_with_no_run_big_enough_says_so():
    space = StringSpace(0x2000, 0x2010)
    live = [space.allocate(2) for _ in range(4)]          # 4 blocks of 4 bytes: full
    assert live == [0x2000, 0x2004, 0x2008, 0x200C]
    space.free(0x2004)
    with pytest.raises(Compaction):
        space.allocate(4)                                  # one free block of 4: too small
    assert space.allocate(1) == 0x2004                     # ... but a string of 1 fits there
