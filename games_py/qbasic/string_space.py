"""The QuickBASIC 3.0 runtime's string space (BCOM30, 062B:82A9 to 062B:8378 in
METEORS.EXE), block by block, with what each allocation costs in instructions.

The string space runs from DGROUP:0428 (its start) to DGROUP:042C (its end, where a
header of FFFFh ends it).  Each string lives in a block: a header word, then the
characters, the block rounded up to an even size (length + 3 & ~1).  A live block's
header is the address of the string's descriptor (even); a free block's is its size
less 1 (odd).  Freeing a string (062B:854D) only makes its header odd: nothing is
merged and the rover (DGROUP:042A) does not move.

An allocation of ``length`` characters (062B:82A9; none for an empty string) needs a
free block of header ``(length + 1) | 1`` or more.  It tries the block at the rover
(062B:82D5): a free block that fits exactly is taken whole and the rover moves past it;
a larger one is split, the string at its start, the rest a free block at which the
rover then stands.  Otherwise 062B:830A walks from the rover to the end and, failing
that, from the start to where the rover stood, merging every run of free blocks it
meets into one (062B:833E, 8 instructions a block) until a run is big enough, which
the allocation then takes at its start as above.  If no run is, the runtime moves the
string space's end (062B:88E8) and compacts the live strings (062B:8385): not modelled
there (``Compaction``).  The first OPEN's file buffer, when the string space's last block
is not a free block big enough, is taken after a compaction (``lower_end``, ``compact``).

Costs are the instructions from 062B:82A9 to its RET, counted from the listing path by
path (docs/meteors-internals.md, section 6, "The string space"); tests compare them
with the runtime's own code.
"""
from __future__ import annotations

from bisect import bisect_left, insort

END_MARK = 0xFFFF
# the allocation's paths, in instructions (062B:82A9 to 82D4)
ENTRY = 5                    # 82A9: push ax, push si, inc bx, or bl 1, call 82D5
SPLIT = 18 + 4               # 82D5 splits the block at the rover; 82B2 jae, pops, ret
EXACT = 14 + 4               # ... takes it whole
FAIL_LIVE, FAIL_END, FAIL_SMALL = 6, 8, 10   # 82D5 fails: a live block, the end, too small
TO_WALK = 1 + 4 + 3          # 82B2 jae, pushes, call 830A; 830A: mov, mov, call 8330
SECOND_WALK = 1 + 3          # 8315 jae, mov si, xchg, call 8330
WALK_DONE = 2 + 7            # 8315/8322 jae, 832F ret; 82BA jae, pops, ret
HEAD = 3                     # 8330: mov ax,[si], test, je
SKIP = 6                     # 8358: past a live block (mov, add, add, and, cmp, jbe)
OUT = 3                      # 8367: mov dx, stc, ret
RUN_START = 2 + 3            # 8336: inc, je; mov di, add di, dec ax
NEXT = 3                     # 833E: mov cx,[di], test, je
MERGED = 2 + 3               # 8345: inc, je; add ax, add di, jmp (a block merged)
RUN_END = 3                  # 834E: mov [si], cmp, jae (the run ends at a live block)
RUN_ON = 2                   # 8354: mov ax,cx, mov si,di (too small: on past the live block)
AT_END = 3                   # 836B: mov [si], cmp, jb (the run ends at the end mark)
AT_END_SHORT = 2             # 8378: mov dx, ret
TAKE = 2                     # 8371: mov [rover], jmp 82E8
TAKE_EXACT, TAKE_SPLIT = 1 + 5, 1 + 9        # 82E8 je, then 82FD or 82EA
# the compaction (062B:8385 to its RET), counted on the original's code hook at two demo
# sessions' first OPEN (docs/meteors-internals.md, section 8, 27 Nov, h-compact)
PACK_ENTRY = 6 + 3           # 8385: five pushes, mov si; 838E-8393 at the first free block
PACK_IN_PLACE = 11           # 838E-83A8: a live block before the first free one stays
PACK_FIRST_FREE = 1 + 3      # 83AA mov di,si; 83AC-83AF (inc, je, add si)
PACK_HEADER = 3              # 83B1: mov bx,[si], test, jne (each later block and the end)
PACK_FREE = 3                # 83AC-83AF: past a later free block
PACK_MOVED = 10 + 1 + 1      # 83B8-83CF: the back pointer, the descriptor, cx; 83D3 jmp; and
                             # 83D1 REP MOVSW counts one more than its words on the machine
PACK_END = 2 + 2 + 2 + 1 + 6  # 83AC inc, 83AD je; 83D5 sub, je; 83D9 dec, mov [di]; 83DC; pops, ret
PACK_NO_FREE = 1 + 2 + 2 + 1 + 6   # no free block: 83AA, 83AC-83AD, 83D5 sub, je taken; 83DC; ...
OPEN_PACKED = 21 + 12        # the OPEN's way to 8385 (863E-8647, 869E-86AF, 88A7-88B5,
                             # 88E4-88E7) and 88E8's rover check (891C) once more
# The OPEN's buffer goes through 062B:8E07, which splits the distance from the rover's block
# (DGROUP:042A; the last free block at the three first OPENs traced) to the end modulo 8 off as
# a header of its own (8E1C-8E20: DEC AX, MOV [SI],AX, INC AX, ADD SI,AX) that 8E7C's walk then
# follows (8E89-8E8F: ADD, CMP, JE): 7 instructions a measured OPEN holds; with a distance a
# multiple of 8 neither runs (10:04:29.88 /M's first table: the OPEN 16,720 where 02:16:12.85
# /M's took 16,727, traced instruction by instruction, branch h-steps; measured with no compaction)
ALIGNED_END = -7


class Compaction(Exception):
    """No run of free blocks is big enough for an allocation: the runtime would move the
    string space's end and compact the live strings, which is not modelled there (the
    compaction itself is: ``compact``, met at the first OPEN)."""


def block_size(length: int) -> int:
    return (length + 3) & ~1


class StringSpace:
    """The blocks from ``start`` to ``end`` (the end mark's address), the rover, and the
    instructions the last allocation took (``cost``) and how many blocks it merged."""

    def __init__(self, start: int, end: int) -> None:
        self.start, self.end = start, end
        self.starts: list[int] = [start]          # block addresses, in order
        self.size: dict[int, int] = {start: end - start}
        self.owner: dict[int, object] = {}        # live blocks: who holds them
        self.rover = start
        self.cost = 0
        self.merged = 0

    # -- reading ------------------------------------------------------------------------
    def blocks(self) -> list[tuple[int, int, bool]]:
        """(address, size, live) from the start to the end mark."""
        return [(a, self.size[a], a in self.owner) for a in self.starts]

    def _next(self, at: int) -> int:
        return at + self.size[at]

    # -- the runtime's routines ---------------------------------------------------------
    def lower_end(self, by: int) -> dict[int, int]:
        """The string space gives its last ``by`` bytes away (a file's buffer at the first
        OPEN): they come off the free block at its end, after a compaction (``cost``, the
        instructions it adds; the blocks' moves returned) if that block cannot give them;
        ``cost`` is ALIGNED_END where that block ends a multiple of 8 from the end."""
        self.cost, moved = 0, {}
        last = self.starts[-1]
        if last in self.owner or self.size[last] <= by:
            moved = self.compact()
            self.cost += OPEN_PACKED
            last = self.starts[-1]
            if last in self.owner or self.size[last] <= by:
                raise Compaction(f"the string space's end cannot give {by} bytes after a compaction")
        elif (self.end - last) % 8 == 0:
            self.cost = ALIGNED_END                 # (8E07's split not run)
        self.size[last] -= by
        self.end -= by
        if self.rover > self.end:
            self.rover = self.end
        return moved

    def compact(self) -> dict[int, int]:
        """062B:8385: the live blocks slide down to the start in their order, one free block
        after them to the end, the rover at it; ``cost`` its instructions (a moved block's
        REP MOVSW one a word).  Returns {old address: new address} of the blocks moved."""
        blocks = self.blocks()
        in_place = next((i for i, (_, _, live) in enumerate(blocks) if not live), len(blocks))
        cost = PACK_ENTRY + PACK_IN_PLACE * in_place
        moved: dict[int, int] = {}
        owner: dict[int, object] = {}
        at = blocks[in_place][0] if in_place < len(blocks) else self.end
        for i, (old, size, live) in enumerate(blocks):
            if i < in_place:
                owner[old] = self.owner[old]
                continue
            if i == in_place:
                cost += PACK_FIRST_FREE
                continue
            cost += PACK_HEADER
            if live:
                cost += PACK_MOVED + size // 2
                moved[old] = at
                owner[at] = self.owner[old]
                self.size[at] = size
                at += size
            else:
                cost += PACK_FREE
        cost += PACK_NO_FREE if in_place == len(blocks) else PACK_HEADER + PACK_END
        self.owner = owner
        self.starts = sorted(owner)
        if at < self.end:
            self.starts.append(at)
            self.size[at] = self.end - at
        self.rover = at
        self.cost = cost
        return moved

    def free(self, at: int) -> None:
        """062B:854D: the block at ``at`` is free (its neighbours are not merged)."""
        del self.owner[at]

    def allocate(self, length: int, owner: object = True) -> int | None:
        """A string of ``length`` characters: its block's address (None for an empty
        string, which takes none); ``cost`` and ``merged`` say what it took."""
        self.cost, self.merged = 0, 0
        if length == 0:
            return None
        need = (length + 1) | 1
        self.cost = ENTRY
        at = self._at_rover(need)
        if at is None:
            self.cost += TO_WALK
            rover = self.rover
            at, stop = self._walk(self.rover, self.end, need)
            if at is None:
                self.cost += SECOND_WALK
                self.rover = stop
                at, _ = self._walk(self.start, rover, need)
                if at is None:
                    raise Compaction(f"no free run of {need + 1} bytes in the string space")
            self.cost += WALK_DONE
        self.owner[at] = owner
        return at

    def _at_rover(self, need: int) -> int | None:
        """062B:82D5 (its cost less the return's 4)."""
        at = self.rover
        if at == self.end:
            self.cost += FAIL_END
            return None
        if at in self.owner:
            self.cost += FAIL_LIVE
            return None
        if need > self.size[at] - 1:
            self.cost += FAIL_SMALL
            return None
        self.cost += EXACT if need == self.size[at] - 1 else SPLIT
        self._take(at, need)
        return at

    def _take(self, at: int, need: int) -> None:
        """Take ``need`` + 1 bytes at the start of the free block at ``at``; the rover
        moves past them."""
        size = self.size[at]
        if need + 1 < size:
            rest = at + need + 1
            self.size[at] = need + 1
            self.size[rest] = size - need - 1
            insort(self.starts, rest)
            self.rover = rest
        else:
            self.rover = at + size

    def _merge(self, at: int, until: int) -> None:
        """The free blocks from ``at`` up to ``until`` become one."""
        i = bisect_left(self.starts, at)
        j = bisect_left(self.starts, until, i)
        self.merged += j - i - 1
        del self.starts[i + 1:j]
        self.size[at] = until - at
        # the merged blocks' sizes stay in ``size`` unread (their headers stay in memory)

    def _walk(self, si: int, dx: int, need: int) -> tuple[int | None, int]:
        """062B:8330 from ``si``, on while the next block starts at ``dx`` or before: the
        block taken, or None and where the walk stopped."""
        while True:
            self.cost += HEAD
            if si in self.owner:
                self.cost += SKIP
                si = self._next(si)
                if si <= dx:
                    continue
                self.cost += OUT
                return None, si
            if si == self.end:
                self.cost += 2 + OUT
                return None, si
            self.cost += RUN_START
            di = self._next(si)
            while True:
                self.cost += NEXT
                if di in self.owner:
                    self.cost += RUN_END
                    self._merge(si, di)
                    if self.size[si] - 1 >= need:
                        return self._taken(si, need), dx
                    self.cost += RUN_ON + SKIP
                    si = self._next(di)
                    break
                if di == self.end:
                    self.cost += 2 + AT_END
                    self._merge(si, di)
                    if self.size[si] - 1 >= need:
                        return self._taken(si, need), dx
                    self.cost += AT_END_SHORT
                    return None, si
                self.cost += MERGED
                di = self._next(di)
            if si <= dx:
                continue
            self.cost += OUT
            return None, si

    def _taken(self, at: int, need: int) -> int:
        self.cost += TAKE + (TAKE_EXACT if need == self.size[at] - 1 else TAKE_SPLIT)
        self.rover = at
        self._take(at, need)
        return at
