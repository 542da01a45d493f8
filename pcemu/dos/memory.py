"""DOS memory management: the chain of memory control blocks in guest memory.

Each block is preceded by a 16-byte MCB: 'M' (or 'Z' for the last), the
owner's PSP segment (0 = free), the size in paragraphs.  Programs walk this
chain themselves, so it lives in guest memory, never in a Python list.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pcemu.storage.errors import DosError

if TYPE_CHECKING:
    from pcemu.memory import Memory

ARENA_TRASHED = 7
NOT_ENOUGH_MEMORY = 8
INVALID_BLOCK = 9
FIRST_FIT, BEST_FIT, LAST_FIT = 0, 1, 2
TOP_SEGMENT = 0xA000
DOS_OWNER = 0x0008          # what DOS writes for blocks it owns itself


class MemoryArena:
    def __init__(self, memory: "Memory", first_mcb: int) -> None:
        self.memory = memory
        self.first = first_mcb
        self.strategy = FIRST_FIT
        self._write(first_mcb, ord("Z"), 0, TOP_SEGMENT - first_mcb - 1)

    # -- raw MCBs -----------------------------------------------------------------
    def _write(self, seg: int, kind: int, owner: int, size: int) -> None:
        base = seg << 4
        self.memory[base] = kind
        self.memory.write_word(base + 1, owner)
        self.memory.write_word(base + 3, size)

    def _read(self, seg: int) -> tuple[int, int, int]:
        base = seg << 4
        return self.memory[base], self.memory.read_word(base + 1), self.memory.read_word(base + 3)

    def blocks(self):
        """(mcb segment, owner, size) for every block, checking the chain."""
        seg = self.first
        for _ in range(0x10000):
            kind, owner, size = self._read(seg)
            if kind not in (0x4D, 0x5A):
                raise DosError(ARENA_TRASHED, f"memory control block at {seg:04X}h is destroyed")
            yield seg, owner, size
            if kind == 0x5A:
                return
            seg += size + 1
        raise DosError(ARENA_TRASHED, "memory chain does not end")

    def set_owner(self, block: int, owner: int) -> None:
        kind, _owner, size = self._read(block - 1)
        self._write(block - 1, kind, owner, size)

    # -- DOS services ---------------------------------------------------------------
    def largest_free(self) -> int:
        self._merge_free()
        return max((size for _s, owner, size in self.blocks() if owner == 0), default=0)

    def allocate(self, paragraphs: int, owner: int) -> int:
        """Allocate a block; returns its segment (the MCB's segment + 1)."""
        self._merge_free()
        candidates = [(seg, size) for seg, own, size in self.blocks() if own == 0 and size >= paragraphs]
        if not candidates:
            raise DosError(NOT_ENOUGH_MEMORY, "insufficient memory")
        if self.strategy & 3 == BEST_FIT:
            seg, size = min(candidates, key=lambda c: c[1])
        elif self.strategy & 3 == LAST_FIT:
            seg, size = candidates[-1]
            if size > paragraphs:          # take the top end of the block
                kind = self._read(seg)[0]
                self._write(seg, ord("M"), 0, size - paragraphs - 1)
                new = seg + size - paragraphs
                self._write(new, kind, owner, paragraphs)
                return new + 1
        else:
            seg, size = candidates[0]
        kind = self._read(seg)[0]
        self._write(seg, kind, owner or DOS_OWNER, size)   # owned before the split merges
        self._split(seg, paragraphs)
        return seg + 1

    def free(self, block: int) -> None:
        mcb = block - 1
        self._check(mcb)
        kind, _owner, size = self._read(mcb)
        self._write(mcb, kind, 0, size)

    def resize(self, block: int, paragraphs: int) -> None:
        """Grow or shrink a block; on failure DosError 8 with the largest possible size."""
        mcb = block - 1
        self._check(mcb)
        self._merge_free()
        kind, owner, size = self._read(mcb)
        if paragraphs <= size:
            self._split(mcb, paragraphs)
            return
        if kind == 0x4D:
            nkind, nowner, nsize = self._read(mcb + size + 1)
            if nowner == 0 and size + 1 + nsize >= paragraphs:
                self._write(mcb, nkind, owner, size + 1 + nsize)
                self._split(mcb, paragraphs)
                return
            available = size + 1 + nsize if nowner == 0 else size
        else:
            available = size
        err = DosError(NOT_ENOUGH_MEMORY, "insufficient memory")
        err.largest = available
        raise err

    def free_owned_by(self, owner: int) -> None:
        for seg, own, size in list(self.blocks()):
            if own == owner:
                kind = self._read(seg)[0]
                self._write(seg, kind, 0, size)
        self._merge_free()

    # -- helpers ------------------------------------------------------------------------
    def _check(self, mcb: int) -> None:
        if mcb not in {seg for seg, _o, _s in self.blocks()}:
            raise DosError(INVALID_BLOCK, f"no memory block at {mcb + 1:04X}h")

    def _split(self, mcb: int, paragraphs: int) -> None:
        kind, owner, size = self._read(mcb)
        if size > paragraphs:
            self._write(mcb, ord("M"), owner, paragraphs)
            self._write(mcb + paragraphs + 1, kind, 0, size - paragraphs - 1)
            self._merge_free()

    def _merge_free(self) -> None:
        seg = self.first
        while True:
            kind, owner, size = self._read(seg)
            if kind == 0x5A:
                return
            if kind != 0x4D:
                raise DosError(ARENA_TRASHED, f"memory control block at {seg:04X}h is destroyed")
            nxt = seg + size + 1
            nkind, nowner, nsize = self._read(nxt)
            if owner == 0 and nowner == 0 and nkind in (0x4D, 0x5A):
                self._write(seg, nkind, 0, size + 1 + nsize)
                continue
            seg = nxt
