"""Where a FAT volume keeps what: the BPB, the standard PC diskette formats and
the detection of a raw image's layout.

A raw image is recognised in the order DOS 3.2+ and PCjs use:

1. A sane BIOS parameter block in the boot sector (512-byte sectors, power-of-
   two cluster size, FATs and root directory inside the image, a valid media
   byte) describes the volume.
2. Otherwise, as DOS 1.x and 2.x drivers did, the image is matched by size to
   one of the standard formats and accepted if the first FAT's first byte is
   that format's media byte followed by FFh FFh.

The physical (BIOS) geometry comes from the standard format of the same size
when there is one, otherwise from the BPB's heads and sectors per track.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from .errors import ImageError

SECTOR = 512
DIR_ENTRY_SIZE = 32

# The boot sector layout of the BPB (DOS 3.31 form), offsets 0Bh-23h.
_BPB_STRUCT = struct.Struct("<HBHBHHBHHHII")
_BPB_OFFSET = 0x0B
VALID_MEDIA = frozenset({0xF0, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF})


@dataclass(frozen=True)
class Bpb:
    bytes_per_sector: int
    sectors_per_cluster: int
    reserved_sectors: int
    fat_count: int
    root_entries: int
    total_sectors: int
    media: int
    sectors_per_fat: int
    sectors_per_track: int
    heads: int
    hidden_sectors: int = 0

    def pack(self) -> bytes:
        """The 25 BPB bytes for boot-sector offset 0Bh."""
        small = self.total_sectors if self.total_sectors < 0x10000 else 0
        large = 0 if small else self.total_sectors
        return _BPB_STRUCT.pack(
            self.bytes_per_sector, self.sectors_per_cluster, self.reserved_sectors,
            self.fat_count, self.root_entries, small, self.media,
            self.sectors_per_fat, self.sectors_per_track, self.heads,
            self.hidden_sectors, large,
        )

    @classmethod
    def unpack(cls, boot: bytes) -> "Bpb":
        (bps, spc, res, nfats, root, small, media, spf, spt, heads, hidden,
         large) = _BPB_STRUCT.unpack_from(boot, _BPB_OFFSET)
        # DOS 2.x/3.0 BPBs end at hidden sectors (a word); boot code may follow,
        # so the 32-bit total is only trusted when the 16-bit one is zero.
        total = small if small else large
        return cls(bps, spc, res, nfats, root, total, media, spf, spt, heads, hidden)


@dataclass(frozen=True)
class StandardFormat:
    name: str
    cylinders: int
    heads: int
    sectors_per_track: int
    bpb: Bpb

    @property
    def size(self) -> int:
        return self.cylinders * self.heads * self.sectors_per_track * SECTOR


def _fmt(name, cyl, heads, spt, spc, root, media, spf) -> StandardFormat:
    total = cyl * heads * spt
    return StandardFormat(
        name, cyl, heads, spt,
        Bpb(SECTOR, spc, 1, 2, root, total, media, spf, spt, heads, 0),
    )


# The PC diskette formats as IBM/MS-DOS FORMAT lays them out.
STANDARD_FORMATS: tuple[StandardFormat, ...] = (
    _fmt("160K", 40, 1, 8, 1, 64, 0xFE, 1),
    _fmt("180K", 40, 1, 9, 1, 64, 0xFC, 2),
    _fmt("320K", 40, 2, 8, 2, 112, 0xFF, 1),
    _fmt("360K", 40, 2, 9, 2, 112, 0xFD, 2),
    _fmt("720K", 80, 2, 9, 2, 112, 0xF9, 3),
    _fmt("1200K", 80, 2, 15, 1, 224, 0xF9, 7),
    _fmt("1440K", 80, 2, 18, 1, 224, 0xF0, 9),
)
FORMATS_BY_SIZE = {f.size: f for f in STANDARD_FORMATS}
FORMATS_BY_NAME = {f.name: f for f in STANDARD_FORMATS}


_ALIASES = {"1.2M": "1200K", "1.44M": "1440K"}


def standard_format(name_or_kb: str | int) -> StandardFormat:
    """A standard format by name ("360K", "1.44M") or size in KB (360)."""
    key = str(name_or_kb).strip().upper()
    key = _ALIASES.get(key, key)
    if key.isdigit():
        key += "K"
    try:
        return FORMATS_BY_NAME[key]
    except KeyError:
        names = ", ".join(f.name for f in STANDARD_FORMATS)
        raise ValueError(f"unknown diskette format {name_or_kb!r}; known: {names}") from None


@dataclass(frozen=True)
class Geometry:
    cylinders: int
    heads: int
    sectors_per_track: int
    bytes_per_sector: int = SECTOR

    @property
    def total_sectors(self) -> int:
        return self.cylinders * self.heads * self.sectors_per_track

    def chs_to_lba(self, cylinder: int, head: int, sector: int) -> int:
        """LBA of a BIOS (cylinder, head, 1-based sector); ValueError if off the disk."""
        if not (0 <= cylinder < self.cylinders and 0 <= head < self.heads
                and 1 <= sector <= self.sectors_per_track):
            raise ValueError(f"C/H/S {cylinder}/{head}/{sector} is not on this disk "
                             f"({self.cylinders}/{self.heads}/{self.sectors_per_track})")
        return (cylinder * self.heads + head) * self.sectors_per_track + sector - 1

    def lba_to_chs(self, lba: int) -> tuple[int, int, int]:
        if not 0 <= lba < self.total_sectors:
            raise ValueError(f"sector {lba} is not on this disk of {self.total_sectors}")
        track, s = divmod(lba, self.sectors_per_track)
        c, h = divmod(track, self.heads)
        return c, h, s + 1


@dataclass(frozen=True)
class FatLayout:
    """Everything the FAT code needs to find its way on a volume."""

    bpb: Bpb
    fat_type: int  # 12 or 16
    from_boot_sector: bool  # False: DOS 1.x disk recognised by size and media byte
    format_name: str | None  # the standard format of this size, if any

    @property
    def bytes_per_sector(self) -> int:
        return self.bpb.bytes_per_sector

    @property
    def fat_start(self) -> int:
        """First sector of the first FAT."""
        return self.bpb.reserved_sectors

    @property
    def root_start(self) -> int:
        return self.bpb.reserved_sectors + self.bpb.fat_count * self.bpb.sectors_per_fat

    @property
    def root_sectors(self) -> int:
        return (self.bpb.root_entries * DIR_ENTRY_SIZE + self.bytes_per_sector - 1) // self.bytes_per_sector

    @property
    def data_start(self) -> int:
        return self.root_start + self.root_sectors

    @property
    def cluster_count(self) -> int:
        """Number of data clusters (numbered 2 .. cluster_count + 1)."""
        return (self.bpb.total_sectors - self.data_start) // self.bpb.sectors_per_cluster

    @property
    def bytes_per_cluster(self) -> int:
        return self.bpb.sectors_per_cluster * self.bytes_per_sector


def fat_type_for(cluster_count: int) -> int:
    """FAT12 below 4085 clusters, FAT16 below 65525: the rule DOS uses."""
    if cluster_count < 4085:
        return 12
    if cluster_count < 65525:
        return 16
    raise ImageError(f"{cluster_count} clusters: a FAT32 volume, which DOS 3 cannot read")


def _bpb_problem(bpb: Bpb, image_size: int) -> str | None:
    """Why this BPB cannot describe the image, or None if it is sane."""
    if bpb.bytes_per_sector != SECTOR:
        return f"{bpb.bytes_per_sector} bytes per sector"
    if bpb.sectors_per_cluster not in (1, 2, 4, 8, 16, 32, 64, 128):
        return f"{bpb.sectors_per_cluster} sectors per cluster"
    if bpb.reserved_sectors < 1:
        return "no reserved boot sector"
    if not 1 <= bpb.fat_count <= 4:
        return f"{bpb.fat_count} FATs"
    if bpb.root_entries == 0 or bpb.root_entries % (SECTOR // DIR_ENTRY_SIZE):
        return f"{bpb.root_entries} root directory entries"
    if bpb.media not in VALID_MEDIA:
        return f"media byte {bpb.media:#04x}"
    if bpb.sectors_per_fat == 0:
        return "a FAT of 0 sectors"
    if bpb.total_sectors * SECTOR > image_size:
        return (f"{bpb.total_sectors} sectors ({bpb.total_sectors * SECTOR} bytes) but the "
                f"image has only {image_size} bytes")
    layout = FatLayout(bpb, 12, True, None)
    if layout.data_start >= bpb.total_sectors:
        return "no room for data after the FATs and root directory"
    return None


def _fat_fits(bpb: Bpb, fat_type: int, cluster_count: int) -> bool:
    entries = bpb.sectors_per_fat * bpb.bytes_per_sector * 8 // fat_type
    return entries >= cluster_count + 2


def detect_layout(image: bytes | bytearray, what: str = "the image") -> FatLayout:
    """Find the FAT layout of a raw diskette image; ImageError says why not."""
    size = len(image)
    if size < SECTOR * 4 or size % SECTOR:
        raise ImageError(f"{what} is {size} bytes: not a whole number of 512-byte sectors "
                         f"of a diskette image")
    fmt = FORMATS_BY_SIZE.get(size)
    bpb = Bpb.unpack(image)
    problem = _bpb_problem(bpb, size)
    if problem is None:
        count = FatLayout(bpb, 12, True, None).cluster_count
        fat_type = fat_type_for(count)
        if _fat_fits(bpb, fat_type, count):
            return FatLayout(bpb, fat_type, True, fmt.name if fmt else None)
        problem = f"a FAT too small for its {count} clusters"
    if fmt is not None:
        fat = image[fmt.bpb.reserved_sectors * SECTOR:][:3]
        if fat == bytes([fmt.bpb.media, 0xFF, 0xFF]):
            return FatLayout(fmt.bpb, 12, False, fmt.name)
        raise ImageError(
            f"{what} has the size of a {fmt.name} diskette but is not a FAT disk: the boot "
            f"sector has no usable BPB ({problem}) and the FAT starts with "
            f"{fat.hex(' ').upper()} instead of {fmt.bpb.media:02X} FF FF")
    sizes = ", ".join(f"{f.name}={f.size}" for f in STANDARD_FORMATS)
    raise ImageError(f"{what} is not a FAT diskette image: the boot sector has no usable BPB "
                     f"({problem}) and its size, {size} bytes, is not a standard diskette "
                     f"size ({sizes})")


def physical_geometry(layout: FatLayout, image_size: int) -> Geometry:
    """The CHS geometry the BIOS presents for this image."""
    fmt = FORMATS_BY_SIZE.get(image_size)
    if fmt is not None:
        return Geometry(fmt.cylinders, fmt.heads, fmt.sectors_per_track)
    bpb = layout.bpb
    if not (1 <= bpb.heads <= 255 and 1 <= bpb.sectors_per_track <= 63):
        raise ImageError(f"a non-standard image size ({image_size} bytes) and a BPB without "
                         f"a usable geometry ({bpb.heads} heads, {bpb.sectors_per_track} "
                         f"sectors per track)")
    per_cyl = bpb.heads * bpb.sectors_per_track
    sectors = image_size // SECTOR
    if sectors % per_cyl:
        raise ImageError(f"{sectors} sectors do not make whole cylinders of {bpb.heads} heads "
                         f"x {bpb.sectors_per_track} sectors")
    return Geometry(sectors // per_cyl, bpb.heads, bpb.sectors_per_track)
