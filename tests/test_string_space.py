"""The QuickBASIC runtime's string space (games_py.qbasic.string_space) against the
runtime's own allocator, METEORS.EXE's 062B:82A9 run in a bare Unicorn over the same
blocks: the address, the rover, the blocks after (merged runs included) and the
instructions, on seeded random sequences of allocations and frees in a small string
space, so that the rover wraps and runs are merged often (about 2 s)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games_py.qbasic.string_space import OPEN_PACKED, Compaction, StringSpace, block_size
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


def _scattered(rng: random.Random, size: int, steps: int) -> StringSpace:
    """A string space after ``steps`` random allocations and frees (its rover wrapped)."""
    space = StringSpace(0x2000, 0x2000 + size)
    live: list[int] = []
    for _ in range(steps):
        if live and rng.random() < 0.55:
            space.free(live.pop(rng.randrange(len(live))))
            continue
        try:
            live.append(space.allocate(rng.choice([1, 2, 4, 5, 12, 14, 30, 80])))
        except Compaction:
            break
    return space


def test_the_model_compacts_as_the_runtime_does(runtime):
    rng = random.Random(500)
    moved_some = 0
    for _ in range(40):
        space = _scattered(rng, rng.choice([300, 600, 1200]), rng.randrange(5, 200))
        runtime.load(space)
        before = {at: owner for at, owner in space.owner.items()}
        moved = space.compact()
        assert runtime.compact() == space.cost
        assert (runtime.rover(), runtime.blocks(space)) == (space.rover, space.blocks())
        assert sorted(moved) == sorted(at for at in before if moved.get(at, at) != at)
        moved_some += bool(moved)
    assert moved_some > 20


def _laid_out(start: int, end: int, blocks: list[tuple[int, bool]]) -> StringSpace:
    """A string space of the given (size, live) blocks from ``start``, the last to ``end``."""
    space = StringSpace(start, end)
    space.starts, space.size, at = [], {}, start
    for size, live in blocks:
        space.starts.append(at)
        space.size[at] = size
        if live:
            space.owner[at] = True
        at += size
    assert at == end
    return space


def test_the_first_open_compacts_when_the_last_block_cannot_give_the_buffer():
    # 15:08:22.65 --mono --sound off's first OPEN (line 5420), read on the original: 16 live
    # blocks before the first free one, then 1,981 free blocks and 19 live ones of 720 bytes
    # in all, the last block a free one of 6 bytes.  That OPEN took 12,763 instructions more
    # than one whose last block gives the 200 bytes (05:40:06.83 /M off); the compaction's
    # count depends only on those numbers (test_the_model_compacts_as_the_runtime_does).
    start, end = 7552, 64758
    head = [(4, True)] * 16
    middle = [(16, False)] * 1960 + [(38, True)] * 18 + [(36, True)]
    tail = [(6, False)]
    used = sum(size for size, _ in head + middle + tail)
    blocks = head + middle + [(end - start - used - 16 * 19, False)] + [(16, False)] * 19 + tail
    space = _laid_out(start, end, blocks)
    live = [at for at, _, is_live in space.blocks() if is_live]
    moved = space.lower_end(200)
    assert space.cost == 12_763
    assert space.cost - OPEN_PACKED == 12_730                 # 062B:8385 to its RET
    assert sorted(moved) == live[16:]                           # the 19 after a free block
    packed = [at for at, _, is_live in space.blocks() if is_live]
    assert packed[:16] == live[:16] and packed[-1] + 36 == space.rover
    assert space.blocks()[-1] == (space.rover, end - 200 - space.rover, False)
    assert space.end == end - 200
